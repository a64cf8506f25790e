/* model_frames.c - a model's frames as parent-relative poses uniform in time (model_frames.h). */
#include "model_frames.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pose.h"

#define GRID_MAX_DIV 64      /* finest grid tried: the shortest key step / 64 */
#define GRID_TOL 1e-3        /* a key is on the grid within a thousandth of a frame */
#define RATE_SNAP 1e-4       /* a rate this close (relative) to a whole number is that number */
#define FALLBACK_RATE 30.0

enum plan_kind { PLAN_COPY, PLAN_SAMPLE };

/* How one animation's output frames come from its keys. */
struct plan {
  enum plan_kind kind;
  uint32_t n_out;   /* output frames */
  double t0, step;  /* PLAN_SAMPLE: frame j is at t0 + j * step */
  double rate;      /* framerate to record (0: keep the animation's own) */
};

int model_frames_need_parent(const struct model *m)
{
  return m->frame_space != MODEL_FRAMES_PARENT || m->frame_times != NULL;
}

static void notef(frames_note_fn note, void *user, enum frames_note_level level, uint32_t anim,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void notef(frames_note_fn note, void *user, enum frames_note_level level, uint32_t anim,
                  const char *fmt, ...)
{
  char msg[400];
  va_list ap;
  if (!note)
    return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  note(user, level, anim, msg);
}

static const char *anim_name(const struct model *m, uint32_t a)
{
  return m->anims[a].name ? m->anims[a].name : "";
}

static double snap_rate(double r)
{
  double w = floor(r + 0.5);
  return w > 0 && fabs(r - w) <= RATE_SNAP * r ? w : r;
}

/* 1 when every key time lies within GRID_TOL frames of t0 + k * step (k whole). */
static int on_grid(const double *t, uint32_t n, double step)
{
  for (uint32_t i = 0; i < n; i++) {
    double x = (t[i] - t[0]) / step;
    if (fabs(x - floor(x + 0.5)) > GRID_TOL)
      return 0;
  }
  return 1;
}

/* Frames of a sampling of [t0, tl] at step, or 0 when beyond the cap. */
static uint32_t sample_count(double span, double step)
{
  double n = floor(span / step + 0.5) + 1;
  return n <= (double)MODEL_FRAMES_MAX_CELLS ? (uint32_t)n : 0;
}

/* The plan for animation a whose keys are at times t[0..n). */
static void plan_times(const struct model *m, uint32_t a, const double *t, uint32_t n,
                       const double *rates, struct plan *p, frames_note_fn note, void *user)
{
  double span, minstep = INFINITY, want = rates && rates[a] > 0 && isfinite(rates[a]) ? rates[a] : 0;
  p->kind = PLAN_COPY;
  p->n_out = n;
  p->rate = 0;
  p->t0 = n ? t[0] : 0;
  p->step = 0;
  if (n < 2) {
    p->rate = want;
    return;
  }
  for (uint32_t i = 1; i < n; i++) {
    double d = t[i] - t[i - 1];
    if (!(d > 0) || !isfinite(t[i]) || !isfinite(t[0])) {
      notef(note, user, FRAMES_WARNING, a,
            "animation '%s': key times do not increase; its %u keys are kept one per frame, "
            "their timing is not preserved", anim_name(m, a), n);
      p->rate = want > 0 ? want : (double)(n - 1) / (t[n - 1] - t[0] > 0 ? t[n - 1] - t[0] : 1);
      if (!(p->rate > 0) || !isfinite(p->rate))
        p->rate = FALLBACK_RATE;
      return;
    }
    if (d < minstep)
      minstep = d;
  }
  span = t[n - 1] - t[0];
  p->kind = PLAN_SAMPLE;

  if (want > 0) {
    p->rate = want;
    p->step = 1 / want;
    p->n_out = sample_count(span, p->step);
    if (p->n_out && (p->n_out < n || !on_grid(t, n, p->step)))
      notef(note, user, FRAMES_WARNING, a,
            "animation '%s': its key times are not on a %g fps grid; sampled at %g fps, keys "
            "between frames are approximated", anim_name(m, a), want, want);
    if (p->n_out)
      return;
  } else {
    /* uniform keys (k = 1 and every key a step apart), else the coarsest common grid */
    for (uint32_t k = 1; k <= GRID_MAX_DIV; k++) {
      uint32_t steps = sample_count(span, minstep / k);
      if (!steps || steps < 2)
        break;
      p->step = span / (steps - 1);
      if (!on_grid(t, n, p->step))
        continue;
      p->rate = snap_rate(1 / p->step);
      p->n_out = steps;
      if (steps != n)
        notef(note, user, FRAMES_INFO, a,
              "animation '%s': %u keys at non-uniform times on a %g s grid; written as %u "
              "frames at %g fps (every key kept, frames between interpolated)",
              anim_name(m, a), n, p->step, steps, p->rate);
      return;
    }
    /* no grid: sample at 30 fps, or finer when keys are closer than a frame */
    {
      double r = 1 / minstep > FALLBACK_RATE ? ceil(1 / minstep) : FALLBACK_RATE;
      uint32_t steps = sample_count(span, 1 / r);
      if (steps) {
        if (steps < 2)
          steps = 2;
        p->step = span / (steps - 1);
        p->rate = 1 / p->step;
        p->n_out = steps;
        notef(note, user, FRAMES_WARNING, a,
              "animation '%s': its %u key times share no frame grid; sampled at %g fps, keys "
              "between frames are approximated", anim_name(m, a), n, p->rate);
        return;
      }
    }
  }
  p->kind = PLAN_COPY;
  p->n_out = n;
  p->rate = (double)(n - 1) / span;
  notef(note, user, FRAMES_WARNING, a,
        "animation '%s': sampling it would take too many frames; its %u keys are kept one per "
        "frame at the average rate %g fps, their timing is not preserved", anim_name(m, a), n,
        p->rate);
}

/* ---- key-space interpolation, as the QMSH engine plays keyframes ------------------------- */

static void quat_slerp(double out[4], const double a[4], const double b[4], double u)
{
  double q[4], d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], wa, wb, sign = 1;
  if (d < 0) {
    d = -d;
    sign = -1;
  }
  if (d > 0.9995) {
    wa = 1 - u;
    wb = u;
  } else {
    double th = acos(d), s = sin(th);
    wa = sin((1 - u) * th) / s;
    wb = sin(u * th) / s;
  }
  for (int i = 0; i < 4; i++)
    q[i] = wa * a[i] + sign * wb * b[i];
  quat_normalize(q);
  memcpy(out, q, sizeof q);
}

static void trs_lerp(struct trs *out, const struct trs *a, const struct trs *b, double u)
{
  double qa[4], qb[4];
  for (int i = 0; i < 3; i++) {
    out->t[i] = a->t[i] + (b->t[i] - a->t[i]) * u;
    out->s[i] = a->s[i] + (b->s[i] - a->s[i]) * u;
  }
  memcpy(qa, a->r, sizeof qa);
  memcpy(qb, b->r, sizeof qb);
  quat_normalize(qa);
  quat_normalize(qb);
  quat_slerp(out->r, qa, qb, u);
}

/* ---- base pose * frame ------------------------------------------------------------------- */

static void quat_rotate(double out[3], const double q[4], const double v[3])
{
  /* v + 2w (q x v) + 2 q x (q x v) */
  double c[3] = {q[1] * v[2] - q[2] * v[1], q[2] * v[0] - q[0] * v[2], q[0] * v[1] - q[1] * v[0]};
  double d[3] = {q[1] * c[2] - q[2] * c[1], q[2] * c[0] - q[0] * c[2], q[0] * c[1] - q[1] * c[0]};
  for (int i = 0; i < 3; i++)
    out[i] = v[i] + 2 * (q[3] * c[i] + d[i]);
}

/* out = base * key (column vectors: key applies first). Returns 1 when shear was dropped. */
static int trs_compose(struct trs *out, const struct trs *base, const struct trs *key)
{
  if (base->s[0] == base->s[1] && base->s[0] == base->s[2]) {
    /* uniform base scale: T_b R_b s T_k R_k S_k = T(t_b + s R_b t_k) (R_b R_k) (s S_k) */
    double qb[4], qk[4], v[3], r[3];
    struct trs o;
    memcpy(qb, base->r, sizeof qb);
    memcpy(qk, key->r, sizeof qk);
    quat_normalize(qb);
    quat_normalize(qk);
    for (int i = 0; i < 3; i++)
      v[i] = base->s[0] * key->t[i];
    quat_rotate(r, qb, v);
    for (int i = 0; i < 3; i++) {
      o.t[i] = base->t[i] + r[i];
      o.s[i] = base->s[0] * key->s[i];
    }
    quat_mul(o.r, qb, qk);
    quat_normalize(o.r);
    *out = o;
    return 0;
  }
  {
    double mb[16], mk[16], mo[16];
    trs_to_matrix(base, mb);
    trs_to_matrix(key, mk);
    mat4_mul(mo, mb, mk);
    return trs_from_matrix(mo, out);
  }
}

/* ---- driver ------------------------------------------------------------------------------ */

/* Where output frame j of a sampled animation falls among its keys t[0..n) (increasing):
 * key i exactly (u < 0), or u of the way from key i to key i + 1. *i carries over from the
 * previous frame, so a whole animation costs one pass over its keys. */
static double sample_at(const struct plan *pl, const double *t, uint32_t n, uint32_t j,
                        uint32_t *i)
{
  double x, tau = pl->t0 + j * pl->step;
  while (*i + 1 < n && (t[*i + 1] - pl->t0) / pl->step <= j + GRID_TOL)
    (*i)++;
  x = (t[*i] - pl->t0) / pl->step;
  if (fabs(x - (double)j) <= GRID_TOL || *i + 1 >= n || tau <= t[*i])
    return -1; /* on a key, or clamped to the last key */
  return (tau - t[*i]) / (t[*i + 1] - t[*i]);
}

int model_frames_to_parent(struct model *m, const double *rates, frames_note_fn note, void *user,
                           char *err, size_t cap)
{
  struct plan *plans;
  struct trs *strip;
  uint64_t total = 0;
  uint32_t np = m->num_poses, out_f = 0, sheared = 0;
  int bind = m->frame_space == MODEL_FRAMES_BIND;

  if (!model_frames_need_parent(m))
    return 0;
  if (m->num_frames && np && !m->frames) {
    snprintf(err, cap, "the frames were not decoded");
    return -1;
  }
  if (bind && np != m->num_joints) {
    snprintf(err, cap, "frames relative to the base pose need one pose per joint (%u poses, %u joints)",
             np, m->num_joints);
    return -1;
  }
  if (m->frame_space != MODEL_FRAMES_PARENT && !bind) {
    snprintf(err, cap, "unknown frame space %u", m->frame_space);
    return -1;
  }
  if (!np || !m->frames) {
    m->frame_space = MODEL_FRAMES_PARENT;
    m->frame_times = NULL;
    return 0;
  }

  if (!m->frame_times) {
    /* uniform already: convert the space in place, frame by frame */
    for (uint32_t f = 0; f < m->num_frames; f++)
      for (uint32_t p = 0; p < np; p++) {
        struct trs *x = &m->frames[(size_t)f * np + p];
        sheared += (uint32_t)trs_compose(x, model_rest(m, p), x);
      }
    goto finish;
  }

  plans = arena_calloc(&m->arena, (size_t)m->num_anims + 1, sizeof *plans);
  if (!plans) {
    snprintf(err, cap, "out of memory");
    return -2;
  }
  for (uint32_t a = 0; a < m->num_anims; a++) {
    const struct model_anim *an = &m->anims[a];
    if ((uint64_t)an->first_frame + an->num_frames > m->num_frames) {
      snprintf(err, cap, "animation %u has frames outside the strip", a);
      return -1;
    }
    plan_times(m, a, m->frame_times + an->first_frame, an->num_frames, rates, &plans[a], note,
               user);
    total += plans[a].n_out;
  }
  if (total * np > MODEL_FRAMES_MAX_CELLS) {
    /* the strip as a whole is too large to sample: every animation keeps its keys */
    total = 0;
    for (uint32_t a = 0; a < m->num_anims; a++) {
      const struct model_anim *an = &m->anims[a];
      const double *t = m->frame_times + an->first_frame;
      if (plans[a].kind == PLAN_SAMPLE && plans[a].n_out != an->num_frames) {
        double span = an->num_frames > 1 ? t[an->num_frames - 1] - t[0] : 0;
        plans[a].rate = span > 0 ? (an->num_frames - 1) / span : plans[a].rate;
        notef(note, user, FRAMES_WARNING, a,
              "animation '%s': sampling every animation would take too many frames; its %u keys "
              "are kept one per frame at the average rate %g fps, their timing is not preserved",
              anim_name(m, a), an->num_frames, plans[a].rate);
      }
      if (plans[a].n_out != an->num_frames)
        plans[a].kind = PLAN_COPY;
      plans[a].n_out = an->num_frames;
      total += an->num_frames;
    }
  }
  if (total > UINT32_MAX) {
    snprintf(err, cap, "the frame strip is too large");
    return -1;
  }
  strip = arena_calloc(&m->arena, (size_t)total * np + 1, sizeof *strip);
  if (!strip) {
    snprintf(err, cap, "out of memory");
    return -2;
  }
  for (uint32_t a = 0; a < m->num_anims; a++) {
    struct model_anim *an = &m->anims[a];
    const double *t = m->frame_times + an->first_frame;
    uint32_t i = 0;
    for (uint32_t j = 0; j < plans[a].n_out; j++) {
      double u = -1;
      if (plans[a].kind == PLAN_SAMPLE && an->num_frames >= 2)
        u = sample_at(&plans[a], t, an->num_frames, j, &i);
      else
        i = j < an->num_frames ? j : an->num_frames - 1;
      for (uint32_t p = 0; p < np; p++) {
        struct trs *x = &strip[((size_t)out_f + j) * np + p];
        const struct trs *k0 = model_frame(m, an->first_frame + i, p);
        if (u < 0)
          *x = *k0;
        else
          trs_lerp(x, k0, model_frame(m, an->first_frame + i + 1, p), u);
        if (bind)
          sheared += (uint32_t)trs_compose(x, model_rest(m, p), x);
      }
    }
    an->first_frame = out_f;
    an->num_frames = plans[a].n_out;
    if (plans[a].rate > 0)
      an->framerate = plans[a].rate;
    out_f += plans[a].n_out;
  }
  m->frames = strip;
  m->num_frames = out_f;
  m->bounds = NULL; /* per-frame bounds described the old strip */

finish:
  if (sheared)
    notef(note, user, FRAMES_WARNING, UINT32_MAX,
          "%u poses combine a non-uniform base scale with a rotation: the shear is not a "
          "translation-rotation-scale and is dropped", sheared);
  m->channels = NULL; /* the quantization described the stored values, not these */
  m->frame_space = MODEL_FRAMES_PARENT;
  m->frame_times = NULL;
  return 0;
}
