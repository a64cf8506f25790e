/* x42_build.c - a common model into a V5 document: joints as bones, the frame strip as a key
 * stream (a key at both ends of every run of equal quantized values, so each frame decodes to
 * its own quantized value) with the bind pose as baseFrame (a frame of its own when no frame
 * holds it), meshes as triangle groups with a blend palette per group, one influence per
 * skinning joint (meshToBone = inverse bind), the model's tags, its levels of detail (or one
 * over every group), reverse animations with lastFrame < firstFrame. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "x42.h"
#include "pose.h"
#include "write_loss.h"

struct builder {
  struct arena *a;
  struct write_losses *losses; /* where normalised normals are announced, or NULL */
  struct x42_doc *d;
  char *err;
  size_t errcap;
  char *blob;
  uint32_t blob_len, blob_cap;
  int oom; /* an allocation failed: the build ends without a verdict, not as a refusal */
};

static int fail(struct builder *b, const char *msg)
{
  snprintf(b->err, b->errcap, "x42: %s", msg);
  return -1;
}

static int fail_oom(struct builder *b)
{
  b->oom = 1;
  return fail(b, "out of memory");
}

/* Index of s in the name blob, appended on first use. */
static int name_add(struct builder *b, const char *s, uint16_t *out)
{
  size_t n = s ? strlen(s) : 0;
  for (uint32_t i = 0; i + n < b->blob_len; i++)
    if ((i == 0 || b->blob[i - 1] == 0) && !memcmp(b->blob + i, s ? s : "", n) && b->blob[i + n] == 0) {
      *out = (uint16_t)i;
      return 0;
    }
  if (b->blob_len + n + 1 > 0xFFFF)
    return fail(b, "names exceed the 65535-byte name blob");
  if (b->blob_len + n + 1 > b->blob_cap) {
    uint32_t cap = b->blob_cap ? b->blob_cap * 2 : 256;
    char *nb;
    while (cap < b->blob_len + n + 1)
      cap *= 2;
    nb = arena_calloc(b->a, cap, 1);
    if (!nb)
      return fail_oom(b);
    if (b->blob_len)
      memcpy(nb, b->blob, b->blob_len);
    b->blob = nb;
    b->blob_cap = cap;
  }
  memcpy(b->blob + b->blob_len, s ? s : "", n + 1);
  *out = (uint16_t)b->blob_len;
  b->blob_len += (uint32_t)n + 1;
  return 0;
}

static double component(const struct model_varray *va, uint32_t v, uint32_t k)
{
  static const unsigned sizes[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};
  unsigned es = va->format < VF_COUNT ? sizes[va->format] : 1;
  const unsigned char *p = va->data + ((size_t)v * va->size + k) * es;
  uint64_t u = 0;
  for (unsigned i = 0; i < es; i++)
    u |= (uint64_t)p[i] << (8 * i);
  switch (va->format) {
  case VF_BYTE: return (int8_t)u;
  case VF_UBYTE: return (double)u;
  case VF_SHORT: return (int16_t)u;
  case VF_USHORT: return (double)u;
  case VF_INT: return (int32_t)u;
  case VF_UINT: return (double)u;
  case VF_HALF: return half_to_float((uint16_t)u);
  case VF_FLOAT: { uint32_t w = (uint32_t)u; float f; memcpy(&f, &w, 4); return f; }
  case VF_DOUBLE: { double f; memcpy(&f, &u, 8); return f; }
  default: return 0;
  }
}

static const struct model_varray *varray_find(const struct model *m, uint32_t type, uint32_t min_size)
{
  for (uint32_t i = 0; i < m->num_varrays; i++)
    if (m->varrays[i].type == type && m->varrays[i].size >= min_size && m->varrays[i].data)
      return &m->varrays[i];
  return NULL;
}

static void range_of(double lo, double hi, float out[2])
{
  if (!(lo <= hi))
    lo = hi = 0;
  out[0] = (float)lo;
  out[1] = (float)hi;
  /* float rounding must not shrink the range */
  if ((double)out[0] > lo)
    out[0] = nextafterf(out[0], -INFINITY);
  if ((double)out[1] < hi)
    out[1] = nextafterf(out[1], INFINITY);
}

static const struct trs *frame_at(const struct model *m, uint32_t f, uint32_t b)
{
  if (m->frames && m->num_poses == m->num_joints && f < m->num_frames)
    return &m->frames[(size_t)f * m->num_poses + b];
  return model_rest(m, b);
}

static int same_pose(const struct trs *a, const struct trs *b)
{
  for (unsigned c = 0; c < TRS_CHANNELS; c++)
    if (fabs(trs_channel(a, c) - trs_channel(b, c)) > 1e-9)
      return 0;
  return 1;
}

/* Quantized value of track t of bone b at frame f, as the samples the file will hold. */
static void track_sample(const struct x42_doc *d, const struct model *m, uint32_t f, uint32_t b, unsigned t,
                         uint16_t out[4])
{
  const struct trs *p = frame_at(m, f, b);
  memset(out, 0, 4 * sizeof *out);
  if (t == X42_TRACK_POS) {
    for (int a = 0; a < 3; a++)
      out[a] = x42_range_encode(p->t[a], d->anim_pos_pack[a][0], d->anim_pos_pack[a][1]);
  } else if (t == X42_TRACK_SCALE) {
    for (int a = 0; a < 3; a++)
      out[a] = x42_range_encode(p->s[a], d->anim_scale_pack[0], d->anim_scale_pack[1]);
  } else {
    double q[4] = {p->r[0], p->r[1], p->r[2], p->r[3]};
    quat_normalize(q);
    for (int a = 0; a < 4; a++)
      out[a] = (uint16_t)x42_s16n_encode(q[a]);
  }
}

static int build_keys(struct builder *bd, const struct model *m)
{
  struct x42_doc *d = bd->d;
  uint32_t nb = m->num_joints, nf = d->num_frames, nt = 3u * nb;
  double plo[3] = {INFINITY, INFINITY, INFINITY}, phi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double slo = INFINITY, shi = -INFINITY;
  int uniform = 1;
  uint64_t nkeys = 0, nval[3] = {0, 0, 0};
  uint32_t *nk, *kf = NULL, *kv = NULL, *kstart, *pushed;
  uint16_t s0[4], s1[4], s2[4];

  for (uint32_t f = 0; f < nf; f++)
    for (uint32_t b = 0; b < nb; b++) {
      const struct trs *p = frame_at(m, f, b);
      for (int a = 0; a < 3; a++) {
        plo[a] = fmin(plo[a], p->t[a]);
        phi[a] = fmax(phi[a], p->t[a]);
        slo = fmin(slo, p->s[a]);
        shi = fmax(shi, p->s[a]);
        if (!isfinite(p->t[a]) || !isfinite(p->s[a]))
          return fail(bd, "non-finite transform in the frames");
      }
      uniform &= p->s[0] == p->s[1] && p->s[1] == p->s[2];
    }
  for (int a = 0; a < 3; a++)
    range_of(plo[a], phi[a], d->anim_pos_pack[a]);
  range_of(slo, shi, d->anim_scale_pack);
  if (uniform)
    d->flags |= X42_MF_UNIFORM_SCALE;

  /* keys per track: both ends of every run of equal samples */
  nk = arena_calloc(bd->a, (size_t)nt + 1, sizeof *nk);
  kstart = arena_calloc(bd->a, (size_t)nt + 1, sizeof *kstart);
  pushed = arena_calloc(bd->a, (size_t)nt + 1, sizeof *pushed);
  if (!nk || !kstart || !pushed)
    return fail_oom(bd);
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t t = 0; t < nt; t++) {
      uint32_t n = 0;
      for (uint32_t f = 0; f < nf; f++) {
        int key;
        track_sample(d, m, f, t / 3, t % 3, s1);
        key = f == 0 || f + 1 == nf;
        if (!key) {
          track_sample(d, m, f - 1, t / 3, t % 3, s0);
          track_sample(d, m, f + 1, t / 3, t % 3, s2);
          key = memcmp(s0, s1, sizeof s0) || memcmp(s1, s2, sizeof s1);
        }
        if (!key)
          continue;
        if (pass == 1) {
          kf[kstart[t] + n] = f;
          kv[kstart[t] + n] = UINT32_MAX;
        }
        n++;
      }
      if (n == 1)
        n = 2; /* a one-frame track still needs its lower and upper key */
      if (pass == 0) {
        nk[t] = n;
        kstart[t] = (uint32_t)nkeys;
        nkeys += n;
      } else if (nk[t] == 2 && nf == 1) {
        kf[kstart[t] + 1] = 0;
        kv[kstart[t] + 1] = UINT32_MAX;
      }
    }
    if (pass == 0) {
      if (nkeys > 0xFFFF)
        return fail(bd, "the frames need more than 65535 keys");
      kf = arena_calloc(bd->a, (size_t)nkeys + 1, sizeof *kf);
      kv = arena_calloc(bd->a, (size_t)nkeys + 1, sizeof *kv);
      if (!kf || !kv)
        return fail_oom(bd);
    }
  }
  /* values: one per key, reusing the previous key's value when the samples are equal */
  for (uint32_t t = 0; t < nt; t++) {
    unsigned type = t % 3;
    for (uint32_t n = 0; n < nk[t]; n++) {
      uint32_t at = kstart[t] + n;
      track_sample(d, m, kf[at], t / 3, type, s1);
      if (n) {
        track_sample(d, m, kf[at - 1], t / 3, type, s0);
        if (!memcmp(s0, s1, sizeof s0)) {
          kv[at] = kv[at - 1];
          continue;
        }
      }
      kv[at] = (uint32_t)nval[type]++;
    }
  }
  if (nval[0] > 0xFFFF || nval[1] > 0xFFFF || nval[2] > 0xFFFF)
    return fail(bd, "the frames need more than 65535 values of one kind");
  d->num_pos = (uint16_t)nval[0];
  d->num_scale = (uint16_t)nval[1];
  d->num_rot = (uint16_t)nval[2];
  d->pos_values = arena_calloc(bd->a, 3u * (size_t)d->num_pos + 1, sizeof *d->pos_values);
  d->scale_values = arena_calloc(bd->a, 3u * (size_t)d->num_scale + 1, sizeof *d->scale_values);
  d->rot_values = arena_calloc(bd->a, 4u * (size_t)d->num_rot + 1, sizeof *d->rot_values);
  d->keys = arena_calloc(bd->a, (size_t)nkeys + 1, sizeof *d->keys);
  if (!d->pos_values || !d->scale_values || !d->rot_values || !d->keys)
    return fail_oom(bd);
  for (uint32_t t = 0; t < nt; t++) {
    unsigned type = t % 3;
    for (uint32_t n = 0; n < nk[t]; n++) {
      uint32_t at = kstart[t] + n, v = kv[at];
      track_sample(d, m, kf[at], t / 3, type, s1);
      if (type == X42_TRACK_POS)
        memcpy(d->pos_values + 3u * v, s1, 3 * sizeof *s1);
      else if (type == X42_TRACK_SCALE && uniform)
        d->scale_values[v] = s1[0];
      else if (type == X42_TRACK_SCALE)
        memcpy(d->scale_values + 3u * v, s1, 3 * sizeof *s1);
      else
        for (int a = 0; a < 4; a++)
          d->rot_values[4u * v + (unsigned)a] = (int16_t)s1[a];
    }
  }
  /* stream: each track's first pair by position, then pushes in the order they are needed */
  d->key_len = 0;
  for (uint32_t t = 0; t < nt; t++)
    for (uint32_t n = 0; n < 2; n++) {
      uint32_t at = kstart[t] + (n < nk[t] ? n : nk[t] - 1);
      struct x42_key *k = &d->keys[d->key_len++];
      k->type = (uint16_t)(t % 3);
      k->bone = (uint16_t)(t / 3);
      k->frame = (uint16_t)kf[at];
      k->value = (uint16_t)kv[at];
    }
  for (uint32_t f = 0; f < nf; f++)
    for (uint32_t t = 0; t < nt; t++) {
      uint32_t n = 2 + pushed[t];
      if (n < nk[t] && kf[kstart[t] + n - 1] == f) {
        uint32_t at = kstart[t] + n;
        struct x42_key *k = &d->keys[d->key_len++];
        k->type = (uint16_t)(t % 3);
        k->bone = (uint16_t)(t / 3);
        k->frame = (uint16_t)kf[at];
        k->value = (uint16_t)kv[at];
        pushed[t]++;
      }
    }
  return 0;
}

/* Inverse of the joint's bind world transform as an X42 affine (axis0, axis1, axis2, origin):
 * 0, or -1 when it has none a float holds (a zero or vanishing scale: the engine's skinning
 * would read infinities or NaNs, X42-INF-003), which the writer refuses before writing. */
static int inverse_bind(const struct model *m, uint32_t j, float out[12])
{
  double w[16], l[16], t[16], inv[12], det;
  uint32_t depth = 0;
  trs_to_matrix(model_rest(m, j), w);
  /* up the parent chain, each parent's local transform applied on the left (no depth bound:
   * a chain deeper than any array is still whole; a cycle is bounded by the joint count) */
  for (int32_t k = m->joints[j].parent; k >= 0 && (uint32_t)k < m->num_joints && depth < m->num_joints;
       k = m->joints[k].parent, depth++) {
    trs_to_matrix(model_rest(m, k), l);
    mat4_mul(t, l, w);
    memcpy(w, t, sizeof t);
  }
  /* 3x3 inverse by cofactors, then the origin */
  det = w[0] * (w[5] * w[10] - w[6] * w[9]) - w[1] * (w[4] * w[10] - w[6] * w[8]) + w[2] * (w[4] * w[9] - w[5] * w[8]);
  if (!isfinite(det) || det == 0)
    return -1;
  inv[0] = (w[5] * w[10] - w[6] * w[9]) / det;
  inv[1] = (w[2] * w[9] - w[1] * w[10]) / det;
  inv[2] = (w[1] * w[6] - w[2] * w[5]) / det;
  inv[4] = (w[6] * w[8] - w[4] * w[10]) / det;
  inv[5] = (w[0] * w[10] - w[2] * w[8]) / det;
  inv[6] = (w[2] * w[4] - w[0] * w[6]) / det;
  inv[8] = (w[4] * w[9] - w[5] * w[8]) / det;
  inv[9] = (w[1] * w[8] - w[0] * w[9]) / det;
  inv[10] = (w[0] * w[5] - w[1] * w[4]) / det;
  for (int r = 0; r < 3; r++)
    inv[4 * r + 3] = -(inv[4 * r] * w[3] + inv[4 * r + 1] * w[7] + inv[4 * r + 2] * w[11]);
  for (int c = 0; c < 4; c++)
    for (int r = 0; r < 3; r++) {
      out[3 * c + r] = (float)inv[4 * r + c];
      if (!isfinite(out[3 * c + r]))
        return -1;
    }
  return 0;
}

/* Normal v of nrm as X42 stores it, unit length (x42.md: S8N components; X42-VTX-001): into
 * n (the direction the tangent basis is built on) and out. A normal whose stored components
 * then differ from the source's by more than S8N rounding (0.5/127, here 0.75/127 so a unit
 * normal's rounding never counts) is counted in *changed; a zero normal has no direction and
 * stays as it is. */
static void normal_unit(const struct model_varray *nrm, uint32_t v, double n[3], int8_t out[3],
                        uint32_t *changed, uint32_t *first)
{
  double len;
  int differs = 0;
  for (int a = 0; a < 3; a++)
    n[a] = component(nrm, v, (uint32_t)a);
  len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int a = 0; a < 3; a++) {
    double raw = n[a];
    if (len > 0 && isfinite(len))
      n[a] /= len;
    out[a] = x42_s8n_encode(n[a]);
    differs |= !(fabs(out[a] / 127.0 - raw) <= 0.75 / 127);
  }
  if (differs && !(*changed)++)
    *first = v;
}

static int build_mesh(struct builder *bd, const struct model *m)
{
  struct x42_doc *d = bd->d;
  const struct model_varray *pos = varray_find(m, VT_POSITION, 3), *nrm = varray_find(m, VT_NORMAL, 3),
    *tan = varray_find(m, VT_TANGENT, 3), *tc = varray_find(m, VT_TEXCOORD, 2), *col = varray_find(m, VT_COLOR, 3),
    *bi = varray_find(m, VT_BLENDINDEXES, 1), *bw = varray_find(m, VT_BLENDWEIGHTS, 1);
  uint32_t nv = m->num_vertexes;
  uint16_t *joint_infl;
  unsigned model_infl = 0; /* 1 + the index of the model-bone influence, once there is one */
  uint64_t blend_len = 0;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double tlo[2] = {INFINITY, INFINITY}, thi[2] = {-INFINITY, -INFINITY};
  uint32_t changed = 0, first_changed = 0;

  if (!m->num_meshes || !nv || !pos)
    return 0;
  if (m->num_meshes > 0xFFFF)
    return fail(bd, "more than 65535 meshes");
  if (bi && bw && bi->size != bw->size)
    bi = bw = NULL;
  d->num_verts = nv;
  d->flags |= (nrm ? X42_MF_HAS_NORMALS : 0) | (tan && nrm ? X42_MF_HAS_TANGENT_BASIS : 0) |
              (tc ? X42_MF_HAS_TEXTURE_COORDINATES : 0) | (col ? X42_MF_HAS_COLORS : 0);
  for (uint32_t v = 0; v < nv; v++) {
    for (int a = 0; a < 3; a++) {
      double p = component(pos, v, (uint32_t)a);
      if (!isfinite(p))
        return fail(bd, "non-finite vertex position");
      lo[a] = fmin(lo[a], p);
      hi[a] = fmax(hi[a], p);
    }
    for (int a = 0; tc && a < 2; a++) {
      tlo[a] = fmin(tlo[a], component(tc, v, (uint32_t)a));
      thi[a] = fmax(thi[a], component(tc, v, (uint32_t)a));
    }
  }
  for (int a = 0; a < 3; a++) {
    range_of(lo[a], hi[a], d->vert_pos_pack[a]);
    d->bbox[a] = (float)lo[a];
    d->bbox[3 + a] = (float)hi[a];
    d->sphere[a] = (float)((lo[a] + hi[a]) / 2);
  }
  d->sphere[3] = (float)(sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                              (hi[2] - lo[2]) * (hi[2] - lo[2])) / 2 * 1.0001);
  for (int a = 0; tc && a < 2; a++)
    range_of(tlo[a], thi[a], d->vert_tc_pack[a]);

  d->vert_pos = arena_calloc(bd->a, 3u * (size_t)nv, sizeof *d->vert_pos);
  d->normals = nrm ? arena_calloc(bd->a, 3u * (size_t)nv, 1) : NULL;
  d->tangents = (d->flags & X42_MF_HAS_TANGENT_BASIS) ? arena_calloc(bd->a, 7u * (size_t)nv, 1) : NULL;
  d->texcoords = tc ? arena_calloc(bd->a, 2u * (size_t)nv, sizeof *d->texcoords) : NULL;
  d->colors = col ? arena_calloc(bd->a, 4u * (size_t)nv, 1) : NULL;
  d->groups = arena_calloc(bd->a, m->num_meshes, sizeof *d->groups);
  joint_infl = arena_calloc(bd->a, (size_t)m->num_joints + 1, sizeof *joint_infl);
  /* one per joint, and one on the model bone for unweighted vertices of skinned meshes */
  d->influences = arena_calloc(bd->a, (size_t)m->num_joints + 2, sizeof *d->influences);
  if (!d->vert_pos || (nrm && !d->normals) || ((d->flags & X42_MF_HAS_TANGENT_BASIS) && !d->tangents) ||
      (tc && !d->texcoords) || (col && !d->colors) || !d->groups || !joint_infl || !d->influences)
    return fail_oom(bd);
  for (uint32_t v = 0; v < nv; v++) {
    double n[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++)
      d->vert_pos[3u * v + (unsigned)a] = x42_range_encode(component(pos, v, (uint32_t)a), d->vert_pos_pack[a][0], d->vert_pos_pack[a][1]);
    if (nrm)
      normal_unit(nrm, v, n, d->normals + 3u * (size_t)v, &changed, &first_changed);
    if (d->tangents) {
      double t[3], s = tan->size >= 4 && component(tan, v, 3) < 0 ? -1 : 1, b[3];
      int8_t *o = d->tangents + 7u * (size_t)v;
      for (int a = 0; a < 3; a++)
        t[a] = component(tan, v, (uint32_t)a);
      /* binormal = nfac * (n x t), so nfac * (t x b) gives n back */
      b[0] = s * (n[1] * t[2] - n[2] * t[1]);
      b[1] = s * (n[2] * t[0] - n[0] * t[2]);
      b[2] = s * (n[0] * t[1] - n[1] * t[0]);
      for (int a = 0; a < 3; a++) {
        o[a] = x42_s8n_encode(t[a]);
        o[4 + a] = x42_s8n_encode(b[a]);
      }
      o[3] = s < 0 ? -127 : 127;
    }
    for (int a = 0; tc && a < 2; a++)
      d->texcoords[2u * v + (unsigned)a] = x42_range_encode(component(tc, v, (uint32_t)a), d->vert_tc_pack[a][0], d->vert_tc_pack[a][1]);
    for (int a = 0; col && a < 4; a++) {
      /* an RGB colour (IQE vc r g b) is opaque: X42 stores RGBA */
      double c = (uint32_t)a < col->size ? component(col, v, (uint32_t)a) : col->format == VF_UBYTE ? 255 : 1;
      d->colors[4u * v + (unsigned)a] = col->format == VF_UBYTE ? (uint8_t)c : x42_u8n_encode(c);
    }
  }

  if (changed) {
    struct mdl_loc loc = loc_none();
    snprintf(loc.path, sizeof loc.path, "vertexes[%u].normal", (unsigned)first_changed);
    write_loss(bd->losses, RULE_CORE_CONVERT_X42_NORMALS_UNIT, RULE_CORE_COMPARE_VERTEX, &loc,
               "%u of %u normals are not unit length (the first: vertexes[%u])", (unsigned)changed,
               (unsigned)nv, (unsigned)first_changed);
    if (bd->losses)
      bd->losses->unit_normals = 1;
  }

  /* groups: palette of the joints each mesh's vertices use */
  d->num_groups = (uint16_t)m->num_meshes;
  for (uint32_t i = 0; i < m->num_meshes; i++) {
    const struct model_mesh *mm = &m->meshes[i];
    struct x42_group *g = &d->groups[i];
    unsigned mi = 0;
    if ((uint64_t)mm->first_vertex + mm->num_vertexes > nv)
      return fail(bd, "a mesh's vertices lie outside the vertex arrays");
    if (name_add(bd, mm->material, &g->material) < 0 || name_add(bd, mm->name, &g->surface) < 0)
      return -1;
    g->prim = 4;
    g->first_vert = mm->first_vertex;
    g->num_verts = mm->num_vertexes;
    int unweighted = 0;
    for (uint32_t v = mm->first_vertex; bi && v < mm->first_vertex + mm->num_vertexes; v++) {
      unsigned used = 0;
      for (uint32_t k = 0; k < bi->size && k < 4; k++) {
        double w = component(bw, v, k);
        uint32_t j = (uint32_t)component(bi, v, k);
        if (w <= 0)
          continue;
        if (j >= m->num_joints)
          return fail(bd, "a blend index names no joint");
        used++;
        if (!joint_infl[j]) {
          joint_infl[j] = (uint16_t)(d->num_infl + 1);
          d->influences[d->num_infl].bone = (uint16_t)j;
          if (inverse_bind(m, j, d->influences[d->num_infl].m) < 0) {
            char why[200];
            snprintf(why, sizeof why, "joint %u's bind pose has no inverse a float holds (a zero or "
                     "vanishing scale): its influence matrix would not be finite", (unsigned)j);
            return fail(bd, why);
          }
          d->num_infl++;
        }
        {
          unsigned s;
          for (s = 0; s < g->num_infl && g->palette[s] != joint_infl[j] - 1u; s++)
            ;
          if (s == g->num_infl) {
            if (g->num_infl == X42_MAX_PALETTE)
              return fail(bd, "a mesh uses more than 60 joints");
            g->palette[g->num_infl++] = (uint16_t)(joint_infl[j] - 1u);
          }
        }
      }
      if (used > mi)
        mi = used;
      if (!used)
        unweighted = 1;
    }
    /* A vertex without any blend weight (an Egg vertex in no joint's membership) stays where
     * it is: in a skinned group (its last weight is implied, so every vertex has weight 1) it is
     * bound fully to an influence on the model bone, 0xFFFF with the identity (x42.md: influences
     * may name the model bone; the engine skins it by the model transform alone). */
    if (mi && unweighted) {
      unsigned s;
      if (!model_infl) {
        static const float identity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
        model_infl = d->num_infl + 1u;
        d->influences[d->num_infl].bone = X42_NONE;
        memcpy(d->influences[d->num_infl].m, identity, sizeof identity);
        d->num_infl++;
      }
      for (s = 0; s < g->num_infl && g->palette[s] != model_infl - 1u; s++)
        ;
      if (s == g->num_infl) {
        if (g->num_infl == X42_MAX_PALETTE)
          return fail(bd, "a mesh uses more than 60 joints");
        g->palette[g->num_infl++] = (uint16_t)(model_infl - 1u);
      }
    }
    g->max_infl = (uint16_t)mi;
    blend_len += mi ? (uint64_t)(2 * mi - 1) * g->num_verts : 0;
  }
  d->blend = arena_calloc(bd->a, (size_t)blend_len + 1, 1);
  if (!d->blend)
    return fail_oom(bd);
  d->blend_len = blend_len;
  blend_len = 0;
  for (uint32_t i = 0; i < m->num_meshes; i++) {
    const struct x42_group *g = &d->groups[i];
    unsigned mi = g->max_infl;
    for (uint32_t v = g->first_vert; mi && v < g->first_vert + g->num_verts; v++) {
      uint8_t *e = d->blend + blend_len;
      unsigned n = 0, sum = 0;
      double w[4] = {0, 0, 0, 0};
      unsigned slot[4] = {0, 0, 0, 0};
      for (uint32_t k = 0; k < bi->size && k < 4; k++) {
        double wk = component(bw, v, k);
        uint32_t j = (uint32_t)component(bi, v, k);
        unsigned s = 0;
        if (wk <= 0)
          continue;
        while (g->palette[s] != joint_infl[j] - 1u)
          s++;
        /* weights as stored: ubyte arrays are 0..255, float ones 0..1 */
        w[n] = bw->format == VF_UBYTE ? wk / 255.0 : wk;
        slot[n++] = s;
      }
      if (!n) { /* no weight: fully on the model bone (above) */
        while (g->palette[slot[0]] != model_infl - 1u)
          slot[0]++;
        w[0] = 1;
        n = 1;
      }
      /* largest weight last: its share is implied, the U8N rounding lands there */
      for (unsigned a = 0; a + 1 < n; a++)
        for (unsigned b2 = a + 1; b2 < n; b2++)
          if (w[b2] < w[a]) {
            double tw = w[a];
            unsigned ts = slot[a];
            w[a] = w[b2], slot[a] = slot[b2];
            w[b2] = tw, slot[b2] = ts;
          }
      for (unsigned k = 0; k < mi; k++) {
        unsigned src = k + n >= mi ? k + n - mi : 0; /* pad with zero-weight copies of slot 0 */
        int real = k + n >= mi;
        e[2 * k] = (uint8_t)(real ? slot[src] : slot[0]);
        if (k + 1 < mi) {
          unsigned q = real ? x42_u8n_encode(w[src]) : 0;
          if (sum + q > 255)
            q = 255 - sum;
          sum += q;
          e[2 * k + 1] = (uint8_t)q;
        }
      }
      blend_len += 2 * mi - 1;
    }
  }

  /* indices relative to each group's first vertex */
  {
    uint64_t ni = 0;
    for (uint32_t i = 0; i < m->num_meshes; i++)
      ni += 3u * (uint64_t)m->meshes[i].num_triangles;
    if (ni > 0xFFFFFFFFu)
      return fail(bd, "too many indices");
    d->indices = arena_calloc(bd->a, (size_t)ni + 1, sizeof *d->indices);
    if (!d->indices)
      return fail_oom(bd);
    for (uint32_t i = 0; i < m->num_meshes; i++) {
      const struct model_mesh *mm = &m->meshes[i];
      struct x42_group *g = &d->groups[i];
      g->first_index = d->num_indices;
      if ((uint64_t)mm->first_triangle + mm->num_triangles > m->num_triangles)
        return fail(bd, "a mesh's triangles lie outside the triangle array");
      for (uint64_t t = 3u * (uint64_t)mm->first_triangle; t < 3u * ((uint64_t)mm->first_triangle + mm->num_triangles); t++) {
        const unsigned char *p = m->triangles + 4 * t;
        uint32_t vi = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        if (vi < mm->first_vertex || vi - mm->first_vertex >= mm->num_vertexes || vi - mm->first_vertex > 0xFFFF)
          return fail(bd, "a triangle uses a vertex outside its mesh");
        d->indices[d->num_indices++] = (uint16_t)(vi - mm->first_vertex);
      }
      g->num_elems = d->num_indices - g->first_index;
    }
  }
  return 0;
}

/* The model's levels of detail, or one level over every group (X42 needs one when it has
 * groups, x42.md numLods). */
static int build_lods(struct builder *bd, const struct model *m)
{
  struct x42_doc *d = bd->d;
  uint32_t n = m->num_lods ? m->num_lods : 1;
  if (!d->num_groups)
    return 0;
  if (n > 0xFFFF)
    return fail(bd, "more than 65535 levels of detail");
  d->lods = arena_calloc(bd->a, n, sizeof *d->lods);
  if (!d->lods)
    return fail_oom(bd);
  if (!m->num_lods) {
    d->lods[0].num_groups = d->num_groups;
    d->num_lods = 1;
    return name_add(bd, "lod0", &d->lods[0].name);
  }
  for (uint32_t i = 0; i < n; i++) {
    const struct model_lod *ml = &m->lods[i];
    if (ml->first_mesh > d->num_groups || ml->num_meshes > d->num_groups - ml->first_mesh)
      return fail(bd, "a level of detail names meshes past the last one");
    if (name_add(bd, ml->name, &d->lods[i].name) < 0)
      return -1;
    d->lods[i].first_group = (uint16_t)ml->first_mesh;
    d->lods[i].num_groups = (uint16_t)ml->num_meshes;
  }
  d->num_lods = (uint16_t)n;
  return 0;
}

/* The model's attachment points as tags (a joint past the bones is model space). */
static int build_tags(struct builder *bd, const struct model *m)
{
  struct x42_doc *d = bd->d;
  if (m->num_tags > 0xFFFF)
    return fail(bd, "more than 65535 tags");
  d->tags = arena_calloc(bd->a, (size_t)m->num_tags + 1, sizeof *d->tags);
  if (!d->tags)
    return fail_oom(bd);
  for (uint32_t i = 0; i < m->num_tags; i++) {
    const struct model_tag *mt = &m->tags[i];
    struct x42_tag *t = &d->tags[i];
    if (name_add(bd, mt->name, &t->name) < 0)
      return -1;
    t->bone = mt->joint >= 0 && (uint32_t)mt->joint < d->num_bones ? (uint16_t)mt->joint : X42_NONE;
    for (int k = 0; k < 12; k++)
      t->m[k] = (float)mt->m[k];
  }
  d->num_tags = (uint16_t)m->num_tags;
  return 0;
}

static int doc_build(struct builder *bd, const struct model *m, struct arena *a, struct x42_doc *d)
{
  uint32_t nb = m->num_joints, nf;
  memset(d, 0, sizeof *d);
  d->magic = X42_DOC_MAGIC;
  if (nb > 0xFFFE / 6)
    return fail(bd, "too many joints for a 16-bit key stream");
  if (name_add(bd, "", &d->name_blob_len) < 0) /* index 0: the empty name */
    return -1;
  d->bones = arena_calloc(a, (size_t)nb + 1, sizeof *d->bones);
  d->anim_groups = arena_calloc(a, 1, sizeof *d->anim_groups);
  d->anims = arena_calloc(a, (size_t)m->num_anims + 1, sizeof *d->anims);
  if (!d->bones || !d->anim_groups || !d->anims)
    return fail(bd, "out of memory");
  d->num_bones = (uint16_t)nb;
  for (uint32_t b = 0; b < nb; b++) {
    int32_t p = m->joints[b].parent;
    if (p >= (int32_t)b)
      return fail(bd, "a joint's parent comes after it (X42 needs parents first)");
    if (name_add(bd, m->joints[b].name, &d->bones[b].name) < 0)
      return -1;
    d->bones[b].parent = p < 0 ? X42_NONE : (uint16_t)p;
  }
  if (nb) {
    d->num_anim_groups = 1;
    if (name_add(bd, "all", &d->anim_groups[0].name) < 0)
      return -1;
    d->anim_groups[0].end = (uint16_t)nb;
  }
  /* an animation needs the joints it moves: say so rather than that it runs past the frames */
  if (m->num_anims && m->num_frames && m->num_poses != nb) {
    char why[160];
    if (!nb)
      snprintf(why, sizeof why, "the model has %u animations but no joints (an animation-only file): "
               "X42 animates the bones it holds", (unsigned)m->num_anims);
    else
      snprintf(why, sizeof why, "%u animated poses per frame, %u joints", (unsigned)m->num_poses, (unsigned)nb);
    return fail(bd, why);
  }
  /* frames: the model's strip, or its base pose as the one frame */
  nf = m->frames && m->num_poses == nb ? m->num_frames : 0;
  if (nf > 0xFFFF)
    return fail(bd, "more than 65535 frames");
  d->num_frames = (uint16_t)(nf ? nf : (nb ? 1 : 0));
  d->base_frame = 0;
  if (nf) {
    uint32_t f;
    for (f = 0; f < nf && f <= 0x7FFF; f++) {
      uint32_t b;
      for (b = 0; b < nb && same_pose(frame_at(m, f, b), model_rest(m, b)); b++)
        ;
      if (b == nb)
        break;
    }
    /* X42 stores no bind pose but baseFrame, the frame the reader takes the joints' pose from
     * (x42.md 2.7): when no frame is the bind pose, it becomes a frame of its own after every
     * animation's frames (frame_at gives the joints' pose past the model's strip) */
    if (f >= nf || f > 0x7FFF) {
      if (nf > 0x7FFF)
        return fail(bd, "the bind pose needs a frame of its own, past the 32767 frames baseFrame can name");
      f = nf;
      d->num_frames = (uint16_t)(nf + 1);
    }
    d->base_frame = (int16_t)f;
  }
  if (nb && build_keys(bd, m) < 0)
    return -1;
  d->num_anims = (uint16_t)(m->num_anims > 0xFFFF ? 0xFFFF : m->num_anims);
  for (uint32_t i = 0; i < d->num_anims; i++) {
    const struct model_anim *ma = &m->anims[i];
    struct x42_anim *xa = &d->anims[i];
    uint32_t last = ma->num_frames ? ma->first_frame + ma->num_frames - 1 : ma->first_frame;
    if (name_add(bd, ma->name, &xa->name) < 0)
      return -1;
    if (last >= d->num_frames)
      return fail(bd, "an animation runs past the frames");
    xa->first = (uint16_t)ma->first_frame;
    xa->last = (uint16_t)last;
    if (ma->reverse) { /* x42.md: lastFrame < firstFrame plays in reverse */
      xa->first = (uint16_t)last;
      xa->last = (uint16_t)ma->first_frame;
    }
    xa->loop_start = (ma->flags & MODEL_ANIM_LOOP) ? xa->first : X42_NONE;
    xa->loop_end = (ma->flags & MODEL_ANIM_LOOP) ? xa->last : X42_NONE;
    xa->rate = (uint16_t)(ma->framerate >= 1 && ma->framerate < 65535 ? floor(ma->framerate + 0.5) : 1);
    /* a whole number of frames per second (u16): another rate plays at another speed */
    if (ma->num_frames > 1 && isfinite(ma->framerate) && ma->framerate != xa->rate) {
      struct mdl_loc loc = loc_none();
      snprintf(loc.path, sizeof loc.path, "anims[%u].framerate", (unsigned)i);
      write_loss(bd->losses, RULE_CORE_CONVERT_FRAMERATE_WHOLE, RULE_CORE_COMPARE_ANIM_FRAMERATE, &loc,
                 "animation %u '%.60s' plays at %.9g fps; X42 stores a whole number: written as %u",
                 (unsigned)i, ma->name ? ma->name : "", ma->framerate, (unsigned)xa->rate);
    }
  }
  if (build_mesh(bd, m) < 0 || build_lods(bd, m) < 0 || build_tags(bd, m) < 0)
    return -1;
  for (uint32_t b = 0; b < nb; b++)
    d->bones[b].extent = d->sphere[3];
  d->strings = bd->blob;
  d->name_blob_len = (uint16_t)bd->blob_len;
  return 0;
}

int x42_doc_build(const struct model *m, struct arena *a, struct x42_doc *d, struct write_losses *losses,
                  char *err, size_t errcap)
{
  struct builder bd;
  memset(&bd, 0, sizeof bd);
  bd.a = a;
  bd.d = d;
  bd.losses = losses;
  bd.err = err;
  bd.errcap = errcap;
  if (doc_build(&bd, m, a, d) == 0)
    return 0;
  return bd.oom ? -2 : -1;
}
