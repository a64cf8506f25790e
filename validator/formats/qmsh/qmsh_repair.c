/* qmsh_repair.c - what `mdlcheck fix` repairs in a QMSH mesh beyond writing it again: key
 * rotations of the wrong length normalised (QMSH-KEY-003, -004), and the header's bounding box
 * and radius rebuilt from the vertices when they do not enclose them (QMSH-HDR-009, -010). */
#include <math.h>
#include <string.h>

#include "fix_repair.h"
#include "qmsh.h"

/* The length of key rotation r, or 1 for one no division mends (zero, not finite). */
static double rot_len(const float *r)
{
  double len = sqrt((double)r[0] * r[0] + (double)r[1] * r[1] + (double)r[2] * r[2] + (double)r[3] * r[3]);
  return isfinite(len) && len != 0 ? len : 1;
}

/* Each flagged key rotation (length off 1 by more than the smallest tolerance whose rule was
 * found) divided by its length: the rotation the engine would have drawn unsheared. */
static void keys_normalise(struct qmsh_mesh *q, double tol)
{
  for (uint32_t a = 0; a < q->h.n_anims; a++) {
    const struct qmsh_anim *an = &q->anims[a];
    for (uint32_t f = 0; f < an->n_frames; f++) {
      struct qmsh_key *keys = an->frames[f].keys;
      for (uint32_t k = 0; keys && k < q->h.n_bones; k++) {
        float *r = keys[k].rot;
        double len = rot_len(r);
        if (fabs(len - 1.0) <= tol)
          continue;
        for (int i = 0; i < 4; i++)
          r[i] = (float)(r[i] / len);
      }
    }
  }
}

int qmsh_keys_off_unit(const struct qmsh_mesh *q, double tol)
{
  if (!qmsh_is_skeletal(q->h.flags) || !q->anims)
    return 0; /* a static mesh's animations are neither decoded nor written */
  for (uint32_t a = 0; a < q->h.n_anims; a++)
    for (uint32_t f = 0; q->anims[a].frames && f < q->anims[a].n_frames; f++)
      for (uint32_t k = 0; q->anims[a].frames[f].keys && k < q->h.n_bones; k++)
        if (fabs(rot_len(q->anims[a].frames[f].keys[k].rot) - 1.0) > tol)
          return 1;
  return 0;
}

int qmsh_keys_unit_copy(const struct qmsh_mesh *q, struct arena *a, struct qmsh_mesh *out, double tol)
{
  *out = *q;
  out->anims = arena_calloc(a, (size_t)q->h.n_anims + 1, sizeof *out->anims);
  if (!out->anims)
    return -1;
  for (uint32_t i = 0; i < q->h.n_anims; i++) {
    const struct qmsh_anim *src = &q->anims[i];
    struct qmsh_anim *dst = &out->anims[i];
    *dst = *src;
    if (!src->frames)
      continue;
    dst->frames = arena_calloc(a, (size_t)src->n_frames + 1, sizeof *dst->frames);
    if (!dst->frames)
      return -1;
    for (uint32_t f = 0; f < src->n_frames; f++) {
      dst->frames[f] = src->frames[f];
      if (!src->frames[f].keys)
        continue;
      dst->frames[f].keys = arena_calloc(a, (size_t)q->h.n_bones + 1, sizeof *dst->frames[f].keys);
      if (!dst->frames[f].keys)
        return -1;
      memcpy(dst->frames[f].keys, src->frames[f].keys, (size_t)q->h.n_bones * sizeof *dst->frames[f].keys);
    }
  }
  keys_normalise(out, tol);
  return 0;
}

/* The smallest box and origin-centred radius holding every finite vertex position, as floats
 * that still hold them (the radius rounded up). */
static void bounds_rebuild(struct qmsh_mesh *q, int box, int sphere)
{
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double r2max = 0;
  uint32_t n = 0;
  for (uint32_t v = 0; v < q->h.n_verts; v++) {
    float p[3];
    for (int c = 0; c < 3; c++)
      p[c] = qmsh_vertex_f32(q, v, 0, c);
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
      continue;
    n++;
    for (int c = 0; c < 3; c++) {
      lo[c] = p[c] < lo[c] ? p[c] : lo[c];
      hi[c] = p[c] > hi[c] ? p[c] : hi[c];
    }
    double r2 = (double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2];
    r2max = r2 > r2max ? r2 : r2max;
  }
  if (!n)
    return; /* nothing to enclose: the check had nothing to flag either */
  if (box)
    for (int c = 0; c < 3; c++) {
      q->h.bbox[c] = lo[c];
      q->h.bbox[3 + c] = hi[c];
    }
  if (sphere) {
    double r = sqrt(r2max);
    float fr = (float)r;
    if ((double)fr < r)
      fr = nextafterf(fr, INFINITY);
    q->h.radius = fr;
  }
}

int qmsh_repair(struct model *m, struct fix_repair *fx)
{
  struct qmsh_mesh *q = m->format_data;
  int k3 = fx->found(fx, RULE_QMSH_KEY_QUAT_UNIT), k4 = fx->found(fx, RULE_QMSH_KEY_QUAT_ROUNDING);
  int box = fx->found(fx, RULE_QMSH_BBOX_ENCLOSES), sphere = fx->found(fx, RULE_QMSH_RADIUS_ENCLOSES);
  if (!q || !m->format_data_owner || strcmp(m->format_data_owner, "qmsh"))
    return 0; /* not this decoder's model: nothing of it to repair */
  if (k3 || k4) {
    keys_normalise(q, k4 ? QMSH_QUAT_TOL : QMSH_QUAT_VISIBLE_TOL);
    fx->unit_rotations = 1;
  }
  if (box || sphere)
    bounds_rebuild(q, box, sphere);
  return 0;
}
