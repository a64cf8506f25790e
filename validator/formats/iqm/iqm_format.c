/* iqm_format.c - IQM registration and the decode driver: header first (a fatal stops there),
 * then section extents, then every area whose bytes are inside the file. */
#include <stdio.h>
#include <string.h>

#include "iqm.h"
#include "iqm_write.h"

static const char *const iqm_extensions[] = {".iqm", NULL};

static int iqm_detect(const unsigned char *data, size_t size)
{
  if (size >= 15 && !memcmp(data, "INTERQUAKEMODEL", 15))
    return 100;
  return 0;
}

static int iqm_decode(struct decode_ctx *ctx, struct model *m)
{
  struct iqm q;

  memset(&q, 0, sizeof q);
  q.ctx = ctx;
  q.m = m;
  q.in = &ctx->in;
  q.diag = ctx->diag;
  q.size = ctx->in.size;
  if (iqm_header_check(&q) < 0)
    return -1;
  snprintf(ctx->version, sizeof ctx->version, "%d", q.version);

  iqm_sections_check(&q);
  iqm_text_read(&q);
  iqm_varrays_read(&q); /* ends by settling every extent: bounds, overlaps */
  iqm_text_check(&q);
  iqm_varrays_check(&q);
  iqm_meshes_check(&q);
  iqm_triangles_check(&q);
  iqm_geometry_check(&q);
  iqm_joints_check(&q);
  iqm_poses_check(&q);
  iqm_anims_check(&q);
  iqm_frames_check(&q);
  iqm_bounds_check(&q);
  iqm_comment_check(&q);
  iqm_extensions_check(&q);
  decode_stat(ctx, "extensions", m->num_extensions);
  return 0;
}

extern const struct format_locator iqm_locator;

const struct mdl_format iqm_format = {
  "iqm", "Inter-Quake Model (binary)", iqm_extensions, iqm_detect, iqm_decode, iqm_write, NULL,
  NULL, NULL, &iqm_locator
};
