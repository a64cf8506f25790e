/* qmsh_header.c - the header: magic, version (12-22 or a fatal naming the range), flags, counts,
 * bounds and camera; header-level limits and the engine profile's legacy note. */
#include <stdio.h>
#include <string.h>

#include "qmsh.h"

int qmsh_header_read(struct qmsh_dec *d)
{
  struct qmsh_header *h = &d->q->h;
  struct reader *in = d->in;
  struct mdl_loc loc;
  int hs;

  if (in->size < 4 || memcmp(reader_ptr(in, 0, 4), "QMSH", 4)) {
    char got[16] = "";
    const unsigned char *p = reader_ptr(in, 0, in->size < 4 ? in->size : 4);
    for (size_t i = 0; p && i < (in->size < 4 ? in->size : 4); i++)
      snprintf(got + 2 * i, sizeof got - 2 * i, "%02x", p[i]);
    loc = loc_bin(0, "header.magic");
    diag_emit(d->diag, RULE_QMSH_MAGIC, &loc, "514d5348 (\"QMSH\")", "%s", got[0] ? got : "(empty)");
    return -1;
  }
  if (in->size < 6) {
    loc = loc_bin(in->size - 1, "header");
    diag_emit(d->diag, RULE_QMSH_HEADER_TRUNCATED, &loc, "at least 6", "%zu", in->size);
    return -1;
  }
  h->version = reader_u8_at(in, 4);
  h->flags = reader_u8_at(in, 5);
  if (h->version < QMSH_VERSION_MIN || h->version > QMSH_VERSION_MAX) {
    loc = loc_bin(4, "header.version");
    diag_emit(d->diag, RULE_QMSH_VERSION_UNKNOWN, &loc, "12-22", "%u", h->version);
    return -1;
  }
  hs = qmsh_header_size(h->version);
  if (in->size < (size_t)hs) {
    char want[16];
    snprintf(want, sizeof want, "%d", hs);
    loc = loc_bin(in->size - 1, "header");
    diag_emit(d->diag, RULE_QMSH_HEADER_TRUNCATED, &loc, want, "%zu", in->size);
    return -1;
  }
  d->pos = 6;
  h->n_verts = qmsh_u16(d);
  h->n_tris = qmsh_u16(d);
  h->n_subs = qmsh_u16(d);
  h->n_bones = qmsh_u16(d);
  h->n_anims = qmsh_u16(d);
  h->n_points = qmsh_u16(d);
  h->n_groups = qmsh_u16(d);
  qmsh_floats(d, &h->radius, 1, "header.radius");
  qmsh_floats(d, h->bbox, 6, "header.bbox");
  if (h->version >= 20) {
    h->points_offset = reader_u32_at(in, d->pos);
    d->pos += 4;
  }
  /* defaults of the fields older versions lack (qmsh-layout.md, Header) */
  h->cam_pos[0] = h->cam_pos[1] = h->cam_pos[2] = 1;
  h->cam_up[1] = 1;
  if (h->version >= 13) {
    qmsh_floats(d, h->cam_pos, 3, "header.cam_pos");
    qmsh_floats(d, h->cam_target, 3, "header.cam_target");
  }
  if (h->version >= 15)
    qmsh_floats(d, h->cam_up, 3, "header.cam_up");
  return 0;
}

static void flags_check(struct qmsh_dec *d)
{
  const struct qmsh_header *h = &d->q->h;
  struct mdl_loc loc = loc_bin(5, "header.flags");
  if (h->flags & ~QMSH_F_KNOWN)
    diag_emit(d->diag, RULE_QMSH_FLAGS_UNKNOWN_BITS, &loc, "0x1f", "%02x", h->flags);
  if ((h->flags & QMSH_F_PHYSICS) && h->version < 13)
    diag_emit(d->diag, RULE_QMSH_FLAG_BEFORE_VERSION, &loc, "13", "PHYSICS");
  if ((h->flags & QMSH_F_SPLIT) && h->version < 18)
    diag_emit(d->diag, RULE_QMSH_FLAG_BEFORE_VERSION, &loc, "18", "SPLIT");
  if ((h->flags & QMSH_F_PHYSICS) &&
      (h->flags & (QMSH_F_TANGENTS | QMSH_F_ANIMATED | QMSH_F_STATIC)))
    diag_emit(d->diag, RULE_QMSH_FLAG_COMBINATION, &loc,
              "PHYSICS overrides TANGENTS, ANIMATED and STATIC", "0x%02x", h->flags);
  else if ((h->flags & QMSH_F_STATIC) && !(h->flags & QMSH_F_ANIMATED))
    diag_emit(d->diag, RULE_QMSH_FLAG_COMBINATION, &loc, "STATIC only qualifies ANIMATED",
              "0x%02x", h->flags);
}

void qmsh_header_check(struct qmsh_dec *d)
{
  const struct qmsh_header *h = &d->q->h;
  const char *profile = d->ctx->options ? d->ctx->options->profile : NULL;
  struct mdl_loc loc;

  flags_check(d);
  if (profile && !strcmp(profile, "engine") && h->version < 20) {
    loc = loc_bin(4, "header.version");
    diag_emit(d->diag, RULE_QMSH_ENGINE_LEGACY_VERSION, &loc, "20-22", "%u", h->version);
  }
  if (h->n_subs == 0) {
    loc = loc_bin(10, "header.n_subs");
    diag_emit(d->diag, RULE_QMSH_NO_SUBMESHES, &loc, NULL, "0");
  }
  if (!d->skeletal)
    return;
  loc = loc_bin(12, "header.n_bones");
  if (h->n_bones > QMSH_MAX_BONES)
    diag_emit(d->diag, RULE_QMSH_TOO_MANY_BONES, &loc, "64", "%u", h->n_bones);
  else if (h->n_bones == QMSH_MAX_BONES)
    diag_emit(d->diag, RULE_QMSH_BONES_AT_LIMIT, &loc, "63", "%u", h->n_bones);
  else if (h->n_bones == 0)
    diag_emit(d->diag, RULE_QMSH_SKELETON_WITHOUT_BONES, &loc, "at least 1", "0");
  if (h->n_anims > QMSH_MAX_ANIMS) {
    loc = loc_bin(14, "header.n_anims");
    diag_emit(d->diag, RULE_QMSH_TOO_MANY_ANIMS, &loc, "255", "%u", h->n_anims);
  }
  if (h->version >= 13 && h->n_groups == 0) {
    loc = loc_bin(18, "header.n_groups");
    diag_emit(d->diag, RULE_QMSH_SKELETON_WITHOUT_GROUPS, &loc, "at least 1", "0");
  }
}
