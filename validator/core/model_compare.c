/* model_compare.c - the comparator's driver, skeleton, animations and poses (geometry is in
 * model_compare_geom.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "grow.h"
#include <string.h>

#include "model_compare_ctx.h"
#include "model_diff.h"
#include "pose.h"

/* ---- locations in either file ----------------------------------------------------------- */

static struct format_where side_where(const struct compare_side *s, enum format_elem e, uint32_t n,
                                      uint32_t sub)
{
  struct format_where w = {-1, 0};
  const struct format_locator *l = s->format ? s->format->locator : NULL;
  if (s->ix && l && l->where && e != FMT_EL_NONE)
    l->where(s->ix, e, n, sub, &w);
  return w;
}

static void where_text(char *out, size_t cap, const struct compare_side *s, struct format_where w)
{
  if (w.line)
    snprintf(out, cap, "%s:%u", s->path, w.line);
  else if (w.offset >= 0)
    snprintf(out, cap, "%s@%lld", s->path, w.offset);
  else
    snprintf(out, cap, "%s", s->path);
}

void cmp_mismatch(struct cmp *c, enum rule_index rule, enum format_elem e, uint32_t n, uint32_t sub,
                  const char *path, const char *b_value, const char *actual_fmt, ...)
{
  uint32_t nb = n, sb = sub;
  struct format_where wa, wb;
  cmp_b_index(c, e, &nb, &sb);
  wa = side_where(c->a, e, n, sub);
  wb = side_where(c->b, e, nb, sb);
  struct mdl_loc loc;
  char actual[256], expected[512], bloc[300];
  va_list ap;
  va_start(ap, actual_fmt);
  vsnprintf(actual, sizeof actual, actual_fmt, ap);
  va_end(ap);
  where_text(bloc, sizeof bloc, c->b, wb);
  snprintf(expected, sizeof expected, "%s has %s (%s)", c->b->path, b_value, bloc);
  if (wa.line)
    loc = loc_text(wa.line, 1, "%s", path);
  else if (wa.offset >= 0)
    loc = loc_bin((uint64_t)wa.offset, "%s", path);
  else {
    loc = loc_none();
    snprintf(loc.path, sizeof loc.path, "%s", path);
  }
  diag_emit(c->sink, rule, &loc, expected, "%s", actual);
}

int cmp_side_is_float(const struct compare_side *s)
{
  return s->format && s->format->precision == FMT_PRECISION_FLOAT32;
}

int cmp_side_is_text(const struct compare_side *s)
{
  return s->format && s->format->precision == FMT_PRECISION_PRINTED;
}

/* ---- skeleton and animations ------------------------------------------------------------ */

static const char *safe(const char *s)
{
  return s ? s : "";
}

void cmp_count(struct cmp *c, enum rule_index rule, enum format_elem e, const char *path,
               uint32_t na, uint32_t nb)
{
  char bv[16];
  if (na == nb)
    return;
  snprintf(bv, sizeof bv, "%u", nb);
  /* located at A's first extra element, else at its last one */
  cmp_mismatch(c, rule, e, na > nb ? nb : (na ? na - 1 : 0), 0, path, bv, "%u", na);
}

static void skeleton_compare(struct cmp *c)
{
  const struct model *a = c->a->model, *b = c->b->model;
  uint32_t n = a->num_joints < b->num_joints ? a->num_joints : b->num_joints;
  char bv[160], path[64];
  cmp_count(c, RULE_CORE_COMPARE_JOINT_COUNT, FMT_EL_JOINT, "joints", a->num_joints, b->num_joints);
  for (uint32_t i = 0; i < n; i++) {
    snprintf(path, sizeof path, "joints[%u]", i);
    if (strcmp(safe(a->joints[i].name), safe(b->joints[i].name))) {
      snprintf(bv, sizeof bv, "'%.100s'", safe(b->joints[i].name));
      cmp_mismatch(c, RULE_CORE_COMPARE_JOINT_NAME, FMT_EL_JOINT, i, 0, path, bv, "'%.100s'",
                   safe(a->joints[i].name));
    }
    if ((a->joints[i].parent < 0 ? -1 : a->joints[i].parent) !=
        (b->joints[i].parent < 0 ? -1 : b->joints[i].parent)) {
      int32_t bp = b->joints[i].parent; /* in B's own numbering (joints by name) */
      snprintf(bv, sizeof bv, "%d", c->bmap && bp >= 0 && (uint32_t)bp < b->num_joints ? (int32_t)c->bmap[bp] : bp);
      cmp_mismatch(c, RULE_CORE_COMPARE_JOINT_PARENT, FMT_EL_JOINT, i, 0, path, bv, "%d",
                   a->joints[i].parent);
    }
  }
}

/* Tolerance for an unquantized value: float storage on either side, else a relative 1e-6
 * (text written with fewer digits than a double). */
static double plain_bound(const struct cmp *c, double x, double y)
{
  double m = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
  double b = 1e-12;
  if (cmp_side_is_float(c->a) || cmp_side_is_float(c->b))
    b += 1.5 * ldexp(1.0, -23) * m;
  if (!cmp_side_is_float(c->a) || !cmp_side_is_float(c->b))
    b += 5e-7 * (m > 1 ? m : 1); /* text exporters print 6 to 8 decimals */
  return b;
}

static double channel_bound(const struct model *m, uint32_t pose, unsigned ch)
{
  const struct model_channels *k;
  if (!m->channels || pose >= m->num_poses)
    return 0;
  k = &m->channels[pose];
  return quant_bound(k->offset[ch], (k->mask >> ch) & 1 ? k->scale[ch] : 0);
}

/* Slack for the side whose frames were converted: base * key in double from float values,
 * about 2^-24 relative per operand; a translation also carries the base and key translations
 * it was summed from. */
static double converted_bound(const struct cmp *c, uint32_t pose, unsigned ch, double u, double v)
{
  const struct compare_side *s = c->a->converted ? c->a : c->b->converted ? c->b : NULL;
  double m = fabs(u) > fabs(v) ? fabs(u) : fabs(v);
  if (!s)
    return 0;
  m += 1;
  if (ch < 3 && pose < s->model->num_joints) {
    const double *t = model_rest(s->model, pose)->t;
    m += 2 * (fabs(t[0]) + fabs(t[1]) + fabs(t[2])) + fabs(u) + fabs(v);
  }
  return 8 * ldexp(1.0, -24) * m;
}

static double pose_bound(const struct cmp *c, uint32_t pose, unsigned k, int animated, double u,
                         double v, double extra)
{
  const struct model *a = c->a->model, *b = c->b->model;
  double bd = animated ? channel_bound(a, pose, k) + channel_bound(b, pose, k) : 0;
  if (bd == 0 || !(animated && (a->channels || b->channels)))
    bd += plain_bound(c, u, v);
  bd += extra;
  if (animated)
    bd += converted_bound(c, pose, k, u, v);
  return bd;
}

/* Extra slack of Qw when a side derives it from x y z (IQM 1): |wa - wb| = |ra^2 - rb^2| /
 * (|wa| + |wb|), and sqrt is 1/2-Hoelder, so with e the x y z bounds and r the larger |xyz|,
 * |ra^2 - rb^2| <= 2re + e^2 (plus how far each quaternion is from unit). */
static double derived_w_bound(const struct cmp *c, uint32_t pose, const struct trs *x,
                              const struct trs *y)
{
  double e = 0, ra2 = 0, rb2 = 0, r, dr2, s;
  if (!c->a->model->rotation_w_derived && !c->b->model->rotation_w_derived)
    return 0;
  for (unsigned k = 3; k < 6; k++) {
    e += channel_bound(c->a->model, pose, k) + channel_bound(c->b->model, pose, k) +
         plain_bound(c, trs_channel(x, k), trs_channel(y, k));
    ra2 += trs_channel(x, k) * trs_channel(x, k);
    rb2 += trs_channel(y, k) * trs_channel(y, k);
  }
  r = sqrt(ra2 > rb2 ? ra2 : rb2);
  dr2 = 2 * r * e + e * e + fabs(1 - quat_norm(x->r) * quat_norm(x->r)) +
        fabs(1 - quat_norm(y->r) * quat_norm(y->r));
  s = fabs(x->r[3]) + fabs(y->r[3]);
  return s > 0 && dr2 / s < sqrt(dr2) ? dr2 / s : sqrt(dr2);
}

/* 1 when the side's format builds its frames from something else than a quaternion (it has
 * its own pose matrix: Egg's angles and matrices), so its rotations come out unit. */
static int composes(const struct compare_side *s)
{
  return s->format && s->format->pose_matrix;
}

/* Worst channel of two transforms relative to its bound; rotations up to sign. */
static double trs_worst(const struct cmp *c, const struct trs *x, const struct trs *y,
                        uint32_t pose, int animated, const double extra[TRS_CHANNELS], unsigned *ch,
                        double *err, double *bound)
{
  double worst, best_rot = INFINITY;
  unsigned rot_ch = 3;
  double rot_err = 0, rot_bound = 0, rot_extra = 0;
  struct trs xn, yn;
  double w_extra = animated ? derived_w_bound(c, pose, x, y) : 0; /* > 0 only when derived */
  if ((animated && (c->a->converted || c->b->converted || composes(c->a) || composes(c->b))) ||
      c->a->unit_rotations || c->b->unit_rotations) {
    /* a converted side's rotations are unit (composed from normalised ones), and so are those
     * of a format that composes its frames from other parameters (Egg: angles, matrices), and
     * those a repair normalised (frames and base poses: compare_side.unit_rotations):
     * compare unit rotations, each animated component also allowed the four rotation
     * channels' bounds */
    xn = *x;
    yn = *y;
    quat_normalize(xn.r);
    quat_normalize(yn.r);
    x = &xn;
    y = &yn;
    for (unsigned k = 3; animated && k < 7; k++)
      rot_extra += channel_bound(c->a->model, pose, k) + channel_bound(c->b->model, pose, k);
  }
  for (int sign = 1; sign >= -1; sign -= 2) {
    double w = 0, e = 0, bd = 0;
    unsigned at = 3;
    for (unsigned k = 3; k < 7; k++) {
      double u = trs_channel(x, k), v = sign * trs_channel(y, k);
      /* a derived w comes with x y z normalised by the writer: they move by the norm's error */
      double nx = w_extra > 0 ? (fabs(1 - quat_norm(x->r)) + fabs(1 - quat_norm(y->r))) *
                                    (fabs(u) > fabs(v) ? fabs(u) : fabs(v))
                              : 0;
      double b = pose_bound(c, pose, k, animated, u, v,
                            extra[k] + rot_extra + (k == 6 ? w_extra : nx));
      double d = fabs(u - v), r = isnan(d) ? INFINITY : d / b;
      if (r > w) {
        w = r;
        e = d;
        bd = b;
        at = k;
      }
    }
    if (w < best_rot) {
      best_rot = w;
      rot_ch = at;
      rot_err = e;
      rot_bound = bd;
    }
  }
  worst = best_rot;
  *ch = rot_ch;
  *err = rot_err;
  *bound = rot_bound;
  for (unsigned k = 0; k < TRS_CHANNELS; k++) {
    double u, v, b, d, r;
    if (k >= 3 && k < 7)
      continue;
    u = trs_channel(x, k);
    v = trs_channel(y, k);
    b = pose_bound(c, pose, k, animated, u, v, extra[k]);
    d = fabs(u - v);
    r = isnan(d) ? INFINITY : d / b;
    if (r > worst) {
      worst = r;
      *ch = k;
      *err = d;
      *bound = b;
    }
  }
  return worst;
}

/* A pose out of bound is checked again allowing for the printed precision of text sides:
 * half the last decimal place of each value on its line (an exporter printing 6 decimals is
 * that far from what it quantized). */
static double trs_recheck(const struct cmp *c, const struct trs *x, const struct trs *y,
                          uint32_t pose, int animated, enum format_elem e, uint32_t n, uint32_t sub,
                          unsigned *ch, double *err, double *bound)
{
  double extra[TRS_CHANNELS] = {0};
  const struct compare_side *sides[2] = {c->a, c->b};
  for (int s = 0; s < 2; s++) {
    const struct format_locator *l = sides[s]->format ? sides[s]->format->locator : NULL;
    double res[TRS_CHANNELS];
    uint32_t ns = n, ss = sub;
    if (s)
      cmp_b_index(c, e, &ns, &ss);
    if (!sides[s]->ix || !l || !l->resolution || l->resolution(sides[s]->ix, e, ns, ss, res) < 0)
      continue;
    for (unsigned k = 0; k < TRS_CHANNELS; k++)
      extra[k] += res[k];
  }
  return trs_worst(c, x, y, pose, animated, extra, ch, err, bound);
}

static const double no_extra[TRS_CHANNELS];

static void base_poses_compare(struct cmp *c)
{
  const struct model *a = c->a->model, *b = c->b->model;
  uint32_t n = a->num_joints < b->num_joints ? a->num_joints : b->num_joints;
  for (uint32_t i = 0; i < n; i++) {
    unsigned ch;
    double err, bound;
    double r = trs_worst(c, model_rest(a, i), model_rest(b, i), i, 0, no_extra, &ch, &err, &bound);
    char path[64], bv[96];
    if (r > 1)
      r = trs_recheck(c, model_rest(a, i), model_rest(b, i), i, 0, FMT_EL_BASEPOSE, i, 0, &ch,
                      &err, &bound);
    c->r.poses_checked++;
    if (r > c->r.worst_ratio)
      c->r.worst_ratio = r;
    if (r <= 1)
      continue;
    snprintf(path, sizeof path, "joints[%u].pose.%s", i, trs_channel_name(ch));
    snprintf(bv, sizeof bv, "%.9g", trs_channel(model_rest(b, i), ch));
    cmp_mismatch(c, RULE_CORE_COMPARE_POSE, FMT_EL_BASEPOSE, i, 0, path, bv,
                 "base pose %.9g differs by %.3g, bound %.3g", trs_channel(model_rest(a, i), ch),
                 err, bound);
  }
}

/* 1 when x and y are the same finite transform bit for bit: every channel differs by 0, which
 * no bound turns into a ratio above 0 (a NaN or infinite channel would). */
static int trs_same(const struct trs *x, const struct trs *y)
{
  if (x != y && memcmp(x, y, sizeof *x)) /* one pose (the proof of IN's own bytes): equal */
    return 0;
  for (unsigned k = 0; k < 4; k++)
    if (!isfinite(x->r[k]) || (k < 3 && (!isfinite(x->t[k]) || !isfinite(x->s[k]))))
      return 0;
  return 1;
}

static void anim_frames_compare(struct cmp *c, uint32_t i)
{
  const struct model *a = c->a->model, *b = c->b->model;
  const struct model_anim *x = &a->anims[i], *y = &b->anims[i];
  uint32_t nf = x->num_frames < y->num_frames ? x->num_frames : y->num_frames;
  uint32_t np = a->num_poses < b->num_poses ? a->num_poses : b->num_poses;
  char bv[96], path[96];
  for (uint32_t f = 0; f < nf; f++) {
    uint32_t fa = x->first_frame + f, fb = y->first_frame + f;
    for (uint32_t j = 0; j < np; j++) {
      const struct trs *pa = model_frame(a, fa, j), *pb = model_frame(b, fb, j);
      unsigned ch;
      double err, bound, r;
      if (!pa || !pb)
        continue;
      if (trs_same(pa, pb)) { /* what trs_worst finds of two equal finite poses: 0 */
        c->r.poses_checked++;
        continue;
      }
      r = trs_worst(c, pa, pb, j, 1, no_extra, &ch, &err, &bound);
      if (r > 1)
        r = trs_recheck(c, pa, pb, j, 1, FMT_EL_FRAME, fa, j, &ch, &err, &bound);
      c->r.poses_checked++;
      if (r > c->r.worst_ratio)
        c->r.worst_ratio = r;
      if (r <= 1)
        continue;
      snprintf(path, sizeof path, "anims[%u].frames[%u].poses[%u].%s", i, f, j, trs_channel_name(ch));
      snprintf(bv, sizeof bv, "%.9g", trs_channel(pb, ch));
      cmp_mismatch(c, RULE_CORE_COMPARE_POSE, FMT_EL_FRAME, fa, j, path, bv,
                   "%.9g differs by %.3g, bound %.3g", trs_channel(pa, ch), err, bound);
    }
  }
}

static void anims_compare(struct cmp *c)
{
  const struct model *a = c->a->model, *b = c->b->model;
  uint32_t n = a->num_anims < b->num_anims ? a->num_anims : b->num_anims;
  char bv[160], path[96];
  cmp_count(c, RULE_CORE_COMPARE_ANIM_COUNT, FMT_EL_ANIM, "anims", a->num_anims, b->num_anims);
  for (uint32_t i = 0; i < n; i++) {
    const struct model_anim *x = &a->anims[i], *y = &b->anims[i];
    snprintf(path, sizeof path, "anims[%u]", i);
    if (strcmp(safe(x->name), safe(y->name))) {
      snprintf(bv, sizeof bv, "'%.100s'", safe(y->name));
      cmp_mismatch(c, RULE_CORE_COMPARE_ANIM_NAME, FMT_EL_ANIM, i, 0, path, bv, "'%.100s'",
                   safe(x->name));
    }
    if (x->num_frames != y->num_frames) {
      snprintf(bv, sizeof bv, "%u", y->num_frames);
      cmp_mismatch(c, RULE_CORE_COMPARE_ANIM_FRAMES, FMT_EL_ANIM, i, 0, path, bv, "%u", x->num_frames);
    }
    /* a rate times the steps between frames: with one frame (or none) on both sides there is
     * none, and targets that need a rate (X42: at least 1) write one for a QMSH key that has none */
    if ((x->num_frames > 1 || y->num_frames > 1) &&
        (fabs(x->framerate - y->framerate) > plain_bound(c, x->framerate, y->framerate) ||
         isnan(x->framerate) != isnan(y->framerate))) {
      snprintf(bv, sizeof bv, "%g", y->framerate);
      cmp_mismatch(c, RULE_CORE_COMPARE_ANIM_FRAMERATE, FMT_EL_ANIM, i, 0, path, bv, "%g",
                   x->framerate);
    }
    if ((x->flags & MODEL_ANIM_LOOP) != (y->flags & MODEL_ANIM_LOOP)) {
      snprintf(bv, sizeof bv, "%s", y->flags & MODEL_ANIM_LOOP ? "set" : "clear");
      cmp_mismatch(c, RULE_CORE_COMPARE_ANIM_LOOP, FMT_EL_ANIM, i, 0, path, bv, "%s",
                   x->flags & MODEL_ANIM_LOOP ? "set" : "clear");
    }
    if (a->frames && b->frames)
      anim_frames_compare(c, i);
  }
}

/* ---- frames in one meaning -------------------------------------------------------------- */

struct note_ctx {
  compare_note_fn fn;
  void *user;
  const char *path;
};

static void frames_note(void *user, enum frames_note_level level, uint32_t anim, const char *msg)
{
  const struct note_ctx *n = user;
  (void)anim;
  if (n->fn)
    n->fn(n->user, n->path, level, msg);
}

/* Turn s's frames parent-relative, sampled at other's framerates (matched by index). 0, -1 when
 * they cannot be (a note says why), -2 when memory ran out. */
static int side_convert(struct compare_side *s, const struct compare_side *other, struct note_ctx *n)
{
  const struct model *o = other->model;
  struct model *m = s->model;
  double *rates = NULL;
  char why[200] = "", msg[300];
  int rc;
  if (o->num_anims && !model_frames_need_parent(o)) {
    rates = calloc((size_t)m->num_anims + 1, sizeof *rates);
    if (!rates)
      return -2;
    for (uint32_t i = 0; i < m->num_anims && i < o->num_anims; i++)
      rates[i] = o->anims[i].framerate;
  }
  n->path = s->path;
  rc = model_frames_to_parent(m, rates, frames_note, n, why, sizeof why);
  free(rates);
  if (rc == -2)
    return -2; /* not a property of the file: the comparison cannot be made */
  if (rc < 0) {
    snprintf(msg, sizeof msg, "its frames cannot be made parent-relative: %s", why);
    if (n->fn)
      n->fn(n->user, s->path, FRAMES_WARNING, msg);
    return -1;
  }
  s->converted = 1;
  return 0;
}

/* Both sides' frames in IQM's meaning unless both store them alike. A side that cannot be
 * converted keeps its frames out of the comparison (its frames are dropped). */
static void frames_align(struct cmp *c, struct note_ctx *n)
{
  struct model *a = c->a->model, *b = c->b->model;
  int na = model_frames_need_parent(a), nb = model_frames_need_parent(b);
  if (!na && !nb)
    return;
  if (na && nb && a->frame_space == b->frame_space)
    return;
  int rc;
  if (na && (rc = side_convert(c->a, c->b, n)) < 0) {
    a->frames = NULL;
    c->oom |= rc == -2;
  }
  if (nb && (rc = side_convert(c->b, c->a, n)) < 0) {
    b->frames = NULL;
    c->oom |= rc == -2;
  }
}

/* ---- driver ----------------------------------------------------------------------------- */

/* -1 when the locator could not be built (out of memory): without it a difference has no
 * position and a pose no printed precision, so the comparison would not be the same one. */
static int side_index(struct compare_side *s)
{
  const struct format_locator *l = s->format ? s->format->locator : NULL;
  s->ix = NULL;
  if (l && l->open && s->data)
    s->ix = l->open(s->data, s->size);
  return l && l->open && s->data && !s->ix ? -1 : 0;
}

static void side_unindex(struct compare_side *s)
{
  if (s->ix)
    s->format->locator->close(s->ix);
  s->ix = NULL;
}

int model_compare(struct compare_side *a, struct compare_side *b, struct diag_sink *sink,
                  compare_note_fn note, void *note_user, struct compare_result *r)
{
  struct cmp c;
  struct note_ctx n = {note, note_user, NULL};
  struct model perm, *b_model = NULL;
  struct arena ar;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.b = b;
  c.sink = sink;
  b->ix = NULL;
  if (side_index(a) < 0 || side_index(b) < 0) {
    side_unindex(a);
    side_unindex(b);
    return -1;
  }
  frames_align(&c, &n);
  arena_init(&ar);
  switch (cmp_joints_by_name(&c, &perm, &ar)) {
  case 1: /* B renumbered into A's order for the comparison; its own model is left as it was */
    b_model = b->model;
    b->model = &perm;
    break;
  case -2:
    c.oom = 1;
    break;
  default:
    break;
  }
  skeleton_compare(&c);
  base_poses_compare(&c);
  anims_compare(&c);
  cmp_meshes(&c);
  cmp_refs(&c);
  cmp_tags_lods(&c);
  if (b_model)
    b->model = b_model;
  arena_free(&ar);
  side_unindex(a);
  side_unindex(b);
  if (r)
    *r = c.r;
  return c.oom ? -1 : 0;
}
