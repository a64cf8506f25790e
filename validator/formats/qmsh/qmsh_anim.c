/* qmsh_anim.c - animations: keyframe timing (from 0, strictly increasing, last = length),
 * KeyframeBone 32 bytes (v <= 21, scalar scale) or 40 bytes (v22, Vec3 scale), unit quaternions. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qmsh.h"
#include "f32_scan.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The component most likely at fault in a non-unit quaternion: the one whose smallest change
 * restores unit length (ties go to the later component; when no single one can, the largest). */
static int quat_culprit(const float q[4])
{
  double n2 = 0, best = INFINITY;
  int c = 3, big = 0;
  for (int i = 0; i < 4; i++) {
    n2 += (double)q[i] * q[i];
    if (fabs(q[i]) >= fabs(q[big]))
      big = i;
  }
  for (int i = 0; i < 4; i++) {
    double others = n2 - (double)q[i] * q[i], fix, change;
    if (others > 1)
      continue;
    fix = sqrt(1 - others);
    change = fmin(fabs(q[i] - fix), fabs(q[i] + fix));
    if (change <= best) {
      best = change;
      c = i;
    }
  }
  return isinf(best) ? big : c;
}

/* n floats of one keyframe field; the path is formatted only when a value is not finite (this
 * runs for every bone of every frame: an snprintf each time was most of the decode time) */
static void key_floats(struct qmsh_dec *d, float *out, unsigned n, uint32_t a, uint32_t f,
                       uint32_t k, const char *field)
{
  uint64_t start = d->pos;
  const unsigned char *p = reader_ptr(d->in, d->pos, 4u * n); /* one bounds check per field */
  int finite = 1;
  for (unsigned i = 0; p && i < n; i++) {
    uint32_t u = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
                 (uint32_t)p[4 * i + 3] << 24;
    memcpy(&out[i], &u, 4);
    finite &= (u & 0x7F800000u) != 0x7F800000u;
  }
  d->pos += 4u * n;
  if (!finite || !p) {
    char path[LOC_PATH_MAX];
    snprintf(path, sizeof path, "animations[%u].frames[%u].bones[%u].%s", a, f, k, field);
    d->pos = start;
    qmsh_floats(d, out, n, path);
  }
}

/* The whole key at once when every float in it is finite (the common case): one bounds check
 * and no per-field work. 0 when the fields must be read one by one (nothing consumed then).
 * n (10 floats in v22, else 8) is a constant once inlined, so the copies are plain loads. */
static inline int key_fast_n(struct qmsh_dec *d, struct qmsh_key *key, const unsigned n)
{
  const unsigned char *p = reader_ptr(d->in, d->pos, 4u * n);
  uint32_t u[10], odd = 0;
  if (!p)
    return 0;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(u, p, 4u * n);
#else
  for (unsigned i = 0; i < n; i++)
    u[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
           (uint32_t)p[4 * i + 3] << 24;
#endif
  for (unsigned i = 0; i < n; i++)
    odd |= (u[i] & 0x7F800000u) == 0x7F800000u;
  if (odd)
    return 0;
  memcpy(key->pos, u, 3 * sizeof(float));
  memcpy(key->rot, u + 3, 4 * sizeof(float));
  if (n == 10) {
    memcpy(key->scale, u + 7, 3 * sizeof(float));
  } else {
    memcpy(&key->scale[0], u + 7, sizeof(float));
    key->scale[1] = key->scale[2] = key->scale[0];
  }
  d->pos += 4u * n;
  return 1;
}

static int key_fast(struct qmsh_dec *d, struct qmsh_key *key)
{
  return d->q->h.version >= 22 ? key_fast_n(d, key, 10) : key_fast_n(d, key, 8);
}

static int key_read(struct qmsh_dec *d, uint32_t a, uint32_t f, uint32_t k, struct qmsh_key *key)
{
  uint64_t rot_off = d->pos + 12;
  double len, len2;
  int finite = 1;

  if (key_fast(d, key)) {
    len2 = (double)key->rot[0] * key->rot[0] + (double)key->rot[1] * key->rot[1] +
           (double)key->rot[2] * key->rot[2] + (double)key->rot[3] * key->rot[3];
    /* well inside (1 -+ tol)^2: the exact test below cannot fail (saves a sqrt per key) */
    if (len2 >= 0.99980002 && len2 <= 1.00019998)
      return 0;
    goto quat;
  }
  key_floats(d, key->pos, 3, a, f, k, "pos");
  rot_off = d->pos;
  key_floats(d, key->rot, 4, a, f, k, "rot");
  if (d->q->h.version >= 22) {
    key_floats(d, key->scale, 3, a, f, k, "scale");
  } else {
    key_floats(d, key->scale, 1, a, f, k, "scale");
    key->scale[1] = key->scale[2] = key->scale[0];
  }
  for (int i = 0; i < 4; i++)
    finite &= isfinite(key->rot[i]) != 0;
  if (!finite)
    return 0;
quat:
  len = sqrt((double)key->rot[0] * key->rot[0] + (double)key->rot[1] * key->rot[1] +
             (double)key->rot[2] * key->rot[2] + (double)key->rot[3] * key->rot[3]);
  if (!(fabs(len - 1.0) <= QMSH_QUAT_TOL)) {
    struct mdl_loc loc = loc_bin(rot_off + 4u * (uint64_t)quat_culprit(key->rot),
                                 "animations[%u].frames[%u].bones[%u].rot", a, f, k);
    if (fabs(len - 1.0) <= QMSH_QUAT_VISIBLE_TOL)
      diag_emit(d->diag, RULE_QMSH_KEY_QUAT_ROUNDING, &loc, "1e-4", "%.9g", len);
    else
      diag_emit(d->diag, RULE_QMSH_KEY_QUAT_UNIT, &loc, "1e-3", "%.9g", len);
  }
  return 0;
}

/* 1 when the nb keys of kn floats at p are all finite with quaternions surely unit (the
 * precheck key_read starts with): the common case, where key_read would report nothing. It runs
 * over the whole frame without a branch per key (the finiteness scan sixteen floats at a time,
 * f32_scan.h); 0 sends the frame through key_read, key by key, which reports. */
int qmsh_frame_keys_clean(const unsigned char *p, uint32_t nb, const unsigned kn)
{
  /* the full blocks of sixteen at once (f32_finite_prefix: SSE2 on x86), the rest one by one */
  size_t nw = (size_t)nb * kn, i = f32_finite_prefix(p, nw);
  uint32_t odd = i + 16 <= nw; /* it stopped at a block with a NaN or an infinity */
  for (; i < nw; i++)
    odd |= f32_bits_nonfinite(le32_read(p + 4 * i));
  if (odd)
    return 0;
  for (uint32_t k = 0; k < nb; k++) {
    const unsigned char *q = p + ((size_t)k * kn + 3) * 4;
#ifdef __SSE2__
    /* four keys at a time in float: inside the band by more than the float sum's error (4 ulp
     * of about 1, 2.4e-7, against a margin of 1e-6), the double len2 below is inside it too */
    if (nb - k >= 4) {
      __m128 s0 = _mm_loadu_ps((const float *)(const void *)q);
      __m128 s1 = _mm_loadu_ps((const float *)(const void *)(q + 4 * kn));
      __m128 s2 = _mm_loadu_ps((const float *)(const void *)(q + 8 * kn));
      __m128 s3 = _mm_loadu_ps((const float *)(const void *)(q + 12 * kn));
      __m128 len;
      s0 = _mm_mul_ps(s0, s0);
      s1 = _mm_mul_ps(s1, s1);
      s2 = _mm_mul_ps(s2, s2);
      s3 = _mm_mul_ps(s3, s3);
      _MM_TRANSPOSE4_PS(s0, s1, s2, s3);
      len = _mm_add_ps(_mm_add_ps(s0, s1), _mm_add_ps(s2, s3));
      if (_mm_movemask_ps(_mm_and_ps(_mm_cmpge_ps(len, _mm_set1_ps(0.99980102f)),
                                     _mm_cmple_ps(len, _mm_set1_ps(1.00019898f)))) == 15) {
        k += 3;
        continue;
      }
    }
#endif
    float r[4];
    double len2;
    for (int c = 0; c < 4; c++) {
      uint32_t u = le32_read(q + 4 * c);
      memcpy(&r[c], &u, 4);
    }
    len2 = (double)r[0] * r[0] + (double)r[1] * r[1] + (double)r[2] * r[2] + (double)r[3] * r[3];
    odd |= !(len2 >= 0.99980002 && len2 <= 1.00019998);
  }
  return !odd;
}

/* Strictly increasing times. A keyframe later than its successor but in order with the one
 * before it is a spike: blame it rather than the successor. frames_at: offset of frame 0. */
static void times_check(struct qmsh_dec *d, uint32_t a, uint64_t frames_at)
{
  const struct qmsh_anim *an = &d->q->anims[a];
  uint64_t frame_size = 4 + (uint64_t)d->q->h.n_bones * (d->q->h.version >= 22 ? 40 : 32);
  for (uint32_t f = 1; f < an->n_frames; f++) {
    double t = an->frames[f].time, before = an->frames[f - 1].time;
    uint32_t at = f;
    char want[48];
    struct mdl_loc loc;
    if (!isfinite(t) || !isfinite(before) || t > before)
      continue;
    if (f >= 2 && isfinite(an->frames[f - 2].time) && t > an->frames[f - 2].time) {
      at = f - 1; /* the one before is out of line */
      snprintf(want, sizeof want, "below the next keyframe's %.9g", t);
    } else {
      snprintf(want, sizeof want, "above the previous keyframe's %.9g", before);
    }
    loc = loc_bin(frames_at + at * frame_size, "animations[%u].frames[%u].time", a, at);
    diag_emit(d->diag, RULE_QMSH_KEY_TIME_ORDER, &loc, want, "%.9g", an->frames[at].time);
    f++; /* one report per disorder */
  }
}

/* When length and last time disagree: the last time is the odd one out if the other times are
 * evenly spaced and length continues that spacing. */
static int last_time_wrong(const struct qmsh_anim *an)
{
  uint32_t n = an->n_frames;
  double step, eps;
  if (n < 3)
    return 0;
  step = (double)an->frames[1].time - an->frames[0].time;
  eps = QMSH_BOUND_EPS * fmax(1.0, fabs((double)an->length));
  for (uint32_t f = 2; f + 1 < n; f++)
    if (fabs((double)an->frames[f].time - an->frames[f - 1].time - step) > eps)
      return 0;
  return fabs((double)an->length - an->frames[n - 2].time - step) <= eps;
}

static int anim_read(struct qmsh_dec *d, uint32_t a)
{
  struct qmsh_mesh *q = d->q;
  struct qmsh_anim *an = &q->anims[a];
  uint32_t nb = q->h.n_bones, kb = q->h.version >= 22 ? 40 : 32;
  char path[LOC_PATH_MAX], count_path[LOC_PATH_MAX];
  uint64_t length_off, frames_off;
  float prev = 0;
  struct qmsh_key *keys;
  /* the decoded keys are for the model's consumers (all decode with keep_frames); the checks
   * need one key at a time, so plain validation reuses one frame's worth */
  int keep = d->ctx->keep_frames;

  snprintf(path, sizeof path, "animations[%u].name", a);
  if (qmsh_string(d, &an->name, path) < 0)
    return -1;
  snprintf(path, sizeof path, "animations[%u]", a);
  if (qmsh_need(d, 6, path) < 0)
    return -1;
  length_off = d->pos;
  snprintf(path, sizeof path, "animations[%u].length", a);
  qmsh_floats(d, &an->length, 1, path);
  frames_off = d->pos;
  an->n_frames = qmsh_u16(d);
  snprintf(count_path, sizeof count_path, "animations[%u].n_frames", a);
  snprintf(path, sizeof path, "animations[%u].frames", a);
  if (qmsh_need_array(d, an->n_frames, 4 + (uint64_t)nb * kb, path, frames_off, count_path) < 0)
    return -1;
  an->frames = arena_calloc(&d->m->arena, (size_t)an->n_frames + 1, sizeof *an->frames);
  keys = arena_calloc(&d->m->arena, (keep ? (size_t)an->n_frames : 1u) * nb + 1, sizeof *keys);
  if (!an->frames || !keys)
    return -1;
  if (an->n_frames == 0) {
    struct mdl_loc loc = loc_bin(frames_off, "animations[%u].n_frames", a);
    diag_emit(d->diag, RULE_QMSH_ANIM_NO_FRAMES, &loc, NULL, "0");
    return 0;
  }
  for (uint32_t f = 0; f < an->n_frames; f++) {
    struct qmsh_frame *fr = &an->frames[f];
    uint64_t time_off = d->pos;
    /* the frame's bytes were checked whole above (qmsh_need_array) */
    const unsigned char *p = reader_ptr(d->in, d->pos, 4 + (uint64_t)nb * kb);
    uint32_t tu = p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0;
    if (p && (tu & 0x7F800000u) != 0x7F800000u) {
      memcpy(&fr->time, &tu, 4); /* finite: nothing to report, no path to format */
      d->pos += 4;
    } else {
      snprintf(path, sizeof path, "animations[%u].frames[%u].time", a, f);
      qmsh_floats(d, &fr->time, 1, path);
    }
    if (f == 0 && isfinite(fr->time) && fr->time != 0) {
      struct mdl_loc loc = loc_bin(time_off, "animations[%u].frames[%u].time", a, f);
      diag_emit(d->diag, RULE_QMSH_KEY_FIRST_TIME, &loc, "0", "%.9g", (double)fr->time);
    }
    prev = fr->time;
    fr->keys = keep ? keys + (size_t)f * nb : NULL;
    if (!keep && p && qmsh_frame_keys_clean(p + 4, nb, kb / 4)) {
      d->pos += (uint64_t)nb * kb;
      continue;
    }
    for (uint32_t k = 0; k < nb; k++)
      key_read(d, a, f, k, keep ? &fr->keys[k] : &keys[k]);
  }
  times_check(d, a, frames_off + 2);
  if (isfinite(an->length) && isfinite(prev) &&
      fabs((double)an->length - prev) > QMSH_BOUND_EPS * fmax(1.0, fabs((double)prev))) {
    struct mdl_loc loc = last_time_wrong(an) ?
      loc_bin(frames_off + 2 + (uint64_t)(an->n_frames - 1) * (4 + (uint64_t)nb * kb),
              "animations[%u].frames[%u].time", a, an->n_frames - 1) :
      loc_bin(length_off, "animations[%u].length", a);
    char want[32];
    snprintf(want, sizeof want, "%.9g", (double)prev);
    diag_emit(d->diag, RULE_QMSH_ANIM_LENGTH, &loc, want, "%.9g", (double)an->length);
  }
  return 0;
}

int qmsh_anims_read(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  uint32_t n = q->h.n_anims;
  if (qmsh_need_array(d, n, 7, "animations", 14, "header.n_anims") < 0)
    return -1;
  q->anims = arena_calloc(&d->m->arena, (size_t)n + 1, sizeof *q->anims);
  if (!q->anims)
    return -1;
  for (uint32_t a = 0; a < n; a++)
    if (anim_read(d, a) < 0)
      return -1;
  return 0;
}
