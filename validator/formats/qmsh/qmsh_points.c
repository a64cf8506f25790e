/* qmsh_points.c - attachment points: name, 4x4 matrix, bone (1-based; 0-based in v12), type,
 * size (f32 before v14, Vec3 after), rotation (v >= 19); points_offset (v >= 20) must find them. */
#include <stdio.h>

#include "qmsh.h"

static uint32_t point_tail_size(unsigned version)
{
  return 64 + 2 + 2 + (version >= 14 ? 12 : 4) + (version >= 19 ? 12 : 0);
}

static void point_check(struct qmsh_dec *d, uint32_t p, uint64_t bone_off, uint16_t raw_bone)
{
  const struct qmsh_mesh *q = d->q;
  const struct qmsh_point *pt = &q->points[p];
  unsigned ver = q->h.version;
  char want[48];

  /* a mesh without its own skeleton leaves the field uninitialised (qmsh-layout.md, Points) */
  if (d->skeletal && (ver == 12 ? raw_bone >= q->h.n_bones : raw_bone > q->h.n_bones)) {
    struct mdl_loc loc = loc_bin(bone_off, "points[%u].bone", p);
    if (ver == 12)
      snprintf(want, sizeof want, "0..%d (0-based in v12)", (int)q->h.n_bones - 1);
    else
      snprintf(want, sizeof want, "0..%u", q->h.n_bones);
    diag_emit(d->diag, RULE_QMSH_POINT_BONE_RANGE, &loc, want, "%u", raw_bone);
  }
  if (pt->type >= QMSH_POINT_TYPES) {
    struct mdl_loc loc = loc_bin(bone_off + 2, "points[%u].type", p);
    diag_emit(d->diag, RULE_QMSH_POINT_TYPE_UNKNOWN, &loc, "0..6", "%u", pt->type);
  } else if (pt->type >= QMSH_OLD_POINT_TYPES && ver <= QMSH_OLD_POINT_TYPES_LAST) {
    struct mdl_loc loc = loc_bin(bone_off + 2, "points[%u].type", p);
    diag_emit(d->diag, RULE_QMSH_POINT_TYPE_NEWER, &loc, "0..2", "%u", pt->type);
  }
}

static int point_read(struct qmsh_dec *d, uint32_t p)
{
  struct qmsh_point *pt = &d->q->points[p];
  unsigned ver = d->q->h.version;
  char path[LOC_PATH_MAX];
  uint64_t bone_off;
  uint16_t raw_bone;

  snprintf(path, sizeof path, "points[%u].name", p);
  if (qmsh_string(d, &pt->name, path) < 0)
    return -1;
  snprintf(path, sizeof path, "points[%u]", p);
  if (qmsh_need(d, point_tail_size(ver), path) < 0)
    return -1;
  snprintf(path, sizeof path, "points[%u].mat", p);
  qmsh_floats(d, pt->mat, 16, path);
  bone_off = d->pos;
  raw_bone = qmsh_u16(d);
  pt->bone = ver == 12 ? (uint32_t)raw_bone + 1 : raw_bone;
  pt->type = qmsh_u16(d);
  snprintf(path, sizeof path, "points[%u].size", p);
  if (ver >= 14) {
    qmsh_floats(d, pt->size, 3, path);
  } else {
    qmsh_floats(d, pt->size, 1, path);
    pt->size[1] = pt->size[2] = pt->size[0];
  }
  if (ver >= 19) {
    snprintf(path, sizeof path, "points[%u].rot", p);
    qmsh_floats(d, pt->rot, 3, path);
  }
  point_check(d, p, bone_off, raw_bone);
  return 0;
}

int qmsh_points_read(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  uint32_t n = q->h.n_points;

  if (q->h.version >= 20 && q->h.points_offset != d->pos) {
    struct mdl_loc loc = loc_bin(48, "header.points_offset");
    char want[32];
    snprintf(want, sizeof want, "%llu", (unsigned long long)d->pos);
    d->misfit = 1;
    diag_emit(d->diag, RULE_QMSH_POINTS_OFFSET, &loc, want, "%u", q->h.points_offset);
  }
  if (qmsh_need_array(d, n, 1 + point_tail_size(q->h.version), "points", 16,
                      "header.n_points") < 0)
    return -1;
  q->points = arena_calloc(&d->m->arena, (size_t)n + 1, sizeof *q->points);
  if (!q->points)
    return -1;
  for (uint32_t p = 0; p < n; p++)
    if (point_read(d, p) < 0)
      return -1;
  return 0;
}
