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

/* Where joints (and their poses), meshes, triangles (and their adjacency) and vertices are, as
 * the header and the vertex array headers say (model.spans, for the page). */
static void iqm_spans(const struct iqm *q, struct model *m)
{
  static const struct { uint32_t ofs, num, kind, stride; } sec[] = {
    {H_OFS_MESHES, H_NUM_MESHES, MODEL_EL_MESH, 24},
    {H_OFS_TRIANGLES, H_NUM_TRIANGLES, MODEL_EL_TRIANGLE, 12},
    {H_OFS_ADJACENCY, H_NUM_TRIANGLES, MODEL_EL_TRIANGLE, 12},
  };
  if (!m->want_spans)
    return;
  for (size_t k = 0; k < sizeof sec / sizeof sec[0]; k++)
    if (HV(q, sec[k].ofs))
      model_span_bytes(m, sec[k].kind, 0, HV(q, sec[k].num), HV(q, sec[k].ofs), sec[k].stride);
  if (HV(q, H_OFS_JOINTS))
    model_span_bytes(m, MODEL_EL_JOINT, 0, HV(q, H_NUM_JOINTS), HV(q, H_OFS_JOINTS), q->joint_size);
  if (HV(q, H_OFS_POSES))
    model_span_bytes(m, MODEL_EL_JOINT, 0, HV(q, H_NUM_POSES), HV(q, H_OFS_POSES), q->pose_size);
  for (uint32_t a = 0; a < q->num_va; a++) {
    uint64_t stride = (uint64_t)vformat_bytes(q->va[a].format) * q->va[a].size;
    if (stride && stride <= UINT32_MAX)
      model_span_bytes(m, MODEL_EL_VERTEX, 0, HV(q, H_NUM_VERTEXES), q->va[a].offset, (uint32_t)stride);
  }
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
  iqm_spans(&q, m);
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

/* the engine profile is QMSH's name too: the registry lists it once (qmsh_profile_at) */
static const struct format_profile iqm_profile_docs[] = {
  {"engine", "IQM: what x86 engines (Cube 2, Red Eclipse, FTE) load: unaligned offsets warn"},
  {NULL, NULL}
};

const struct mdl_format iqm_format = {
  .name = "iqm", /* the registry and the rule catalogue (rules_gen.c) point here */
  .description = "Inter-Quake Model (binary)",
  .extensions = iqm_extensions,
  .precision = FMT_PRECISION_FLOAT32,
  .up_axis = "z",
  .profile_docs = iqm_profile_docs,
  .detect = iqm_detect,
  .decode = iqm_decode,
  .write = iqm_write,
  .locator = &iqm_locator,
  .repair = iqm_repair,
};
