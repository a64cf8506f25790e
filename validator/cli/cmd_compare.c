/* cmd_compare.c - `mdlcheck compare A B`: two files of the same model (an exporter's IQE and IQM
 * of one scene, or any two supported formats) must agree on skeleton, animations, every decoded
 * pose within the bound of the quantization involved, and mesh, vertex and triangle counts.
 * Each mismatch is a diagnostic located in A that also names where B holds its side.
 *
 * Frames are compared in one meaning: when one side stores them otherwise than IQM (QMSH:
 * keyframes relative to the bone matrix, at their own times), that side is turned into
 * parent-relative frames sampled at the other side's framerates (model_frames_to_parent) and
 * its poses get the slack of that float arithmetic. Two sides that store them alike are
 * compared as stored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "formats/iqe/iqe.h"
#include "input.h"
#include "model_diff.h"
#include "model_frames.h"
#include "pipeline.h"
#include "pose.h"

struct side {
  const char *path;
  struct mdl_input in;
  struct pipeline_run run;
  int opened;
  int indexed;          /* ix holds the lines of an IQE side */
  int converted;        /* its frames were turned parent-relative here (model_frames.h) */
  struct iqe_index ix;
};

struct cmp {
  struct side a, b;
  struct diag_sink sink;
  unsigned long poses_checked;
  double worst_ratio;
};

/* ---- locations in either file ----------------------------------------------------------- */

enum elem { EL_JOINT, EL_ANIM, EL_MESH, EL_BASEPOSE, EL_FRAME, EL_NONE };

struct where {
  long long offset; /* -1: none */
  uint32_t line;    /* 0: none */
};

static uint32_t u32_at(const struct side *s, uint64_t off)
{
  struct reader r;
  reader_init(&r, s->in.data, s->in.size);
  return reader_u32_at(&r, off);
}

/* frame_pose: for EL_FRAME, the pose index inside the frame (the IQE line of that pose). */
static struct where side_where(const struct side *s, enum elem e, uint32_t n, uint32_t frame_pose)
{
  struct where w = {-1, 0};
  const char *fmt = s->run.format ? s->run.format->name : "";
  if (!strcmp(fmt, "iqm")) {
    static const uint32_t ofs_field[4] = {72, 88, 40, 72}, rec[4] = {48, 20, 24, 48};
    uint64_t off;
    if (e == EL_FRAME) {
      off = u32_at(s, 100);
      if (off)
        w.offset = (long long)(off + (uint64_t)n * u32_at(s, 96) * 2);
      return w;
    }
    if (e == EL_NONE)
      return w;
    off = u32_at(s, ofs_field[e]);
    if (off)
      w.offset = (long long)(off + (uint64_t)n * rec[e] + (e == EL_BASEPOSE ? 8 : 0));
  } else if (s->indexed && e != EL_NONE) {
    static const enum iqe_elem kinds[5] = {IQE_EL_JOINT, IQE_EL_ANIM, IQE_EL_MESH,
                                           IQE_EL_BASEPOSE, IQE_EL_FRAME};
    w.line = iqe_index_line(&s->ix, kinds[e], n, e == EL_FRAME ? frame_pose + 1 : 0);
  }
  return w;
}

static void where_text(char *out, size_t cap, const struct side *s, struct where w)
{
  if (w.line)
    snprintf(out, cap, "%s:%u", s->path, w.line);
  else if (w.offset >= 0)
    snprintf(out, cap, "%s@%lld", s->path, w.offset);
  else
    snprintf(out, cap, "%s", s->path);
}

/* Emit a mismatch located in A; `expected` says what B holds and where. */
static void mismatch(struct cmp *c, enum rule_index rule, enum elem e, uint32_t n, uint32_t sub,
                     const char *path, const char *b_value, const char *actual_fmt, ...)
  __attribute__((format(printf, 8, 9)));

static void mismatch(struct cmp *c, enum rule_index rule, enum elem e, uint32_t n, uint32_t sub,
                     const char *path, const char *b_value, const char *actual_fmt, ...)
{
  struct where wa = side_where(&c->a, e, n, sub), wb = side_where(&c->b, e, n, sub);
  struct mdl_loc loc;
  char actual[256], expected[512], bloc[300];
  va_list ap;
  va_start(ap, actual_fmt);
  vsnprintf(actual, sizeof actual, actual_fmt, ap);
  va_end(ap);
  where_text(bloc, sizeof bloc, &c->b, wb);
  snprintf(expected, sizeof expected, "%s has %s (%s)", c->b.path, b_value, bloc);
  if (wa.line)
    loc = loc_text(wa.line, 1, "%s", path);
  else if (wa.offset >= 0)
    loc = loc_bin((uint64_t)wa.offset, "%s", path);
  else {
    loc = loc_none();
    snprintf(loc.path, sizeof loc.path, "%s", path);
  }
  diag_emit(&c->sink, rule, &loc, expected, "%s", actual);
}

/* ---- skeleton and animations ------------------------------------------------------------ */

static const char *safe(const char *s)
{
  return s ? s : "";
}

/* Where a count mismatch points in A: its first extra element, else its last one. */
static uint32_t count_at(uint32_t na, uint32_t nb)
{
  return na > nb ? nb : (na ? na - 1 : 0);
}

static void skeleton_compare(struct cmp *c)
{
  const struct model *a = &c->a.run.model, *b = &c->b.run.model;
  uint32_t n = a->num_joints < b->num_joints ? a->num_joints : b->num_joints;
  char bv[160], path[64];
  if (a->num_joints != b->num_joints) {
    snprintf(bv, sizeof bv, "%u", b->num_joints);
    mismatch(c, RULE_CORE_COMPARE_JOINT_COUNT, EL_JOINT, count_at(a->num_joints, b->num_joints), 0,
             "joints", bv, "%u", a->num_joints);
  }
  for (uint32_t i = 0; i < n; i++) {
    snprintf(path, sizeof path, "joints[%u]", i);
    if (strcmp(safe(a->joints[i].name), safe(b->joints[i].name))) {
      snprintf(bv, sizeof bv, "'%.100s'", safe(b->joints[i].name));
      mismatch(c, RULE_CORE_COMPARE_JOINT_NAME, EL_JOINT, i, 0, path, bv, "'%.100s'",
               safe(a->joints[i].name));
    }
    if ((a->joints[i].parent < 0 ? -1 : a->joints[i].parent) !=
        (b->joints[i].parent < 0 ? -1 : b->joints[i].parent)) {
      snprintf(bv, sizeof bv, "%d", b->joints[i].parent);
      mismatch(c, RULE_CORE_COMPARE_JOINT_PARENT, EL_JOINT, i, 0, path, bv, "%d",
               a->joints[i].parent);
    }
  }
}

static int is_float_format(const struct side *s)
{
  return s->run.format && !strcmp(s->run.format->name, "iqm");
}

/* Tolerance for an unquantized value: float storage on either side, else a relative 1e-6
 * (text written with fewer digits than a double). */
static double plain_bound(const struct cmp *c, double x, double y)
{
  double m = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
  double b = 1e-12;
  if (is_float_format(&c->a) || is_float_format(&c->b))
    b += 1.5 * ldexp(1.0, -23) * m;
  if (!is_float_format(&c->a) || !is_float_format(&c->b))
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

/* Slack for the side whose frames were converted here: base * key in double from float
 * values, about 2^-24 relative per operand; a translation also carries the base and key
 * translations it was summed from. */
static double converted_bound(const struct cmp *c, uint32_t pose, unsigned ch, double u, double v)
{
  const struct side *s = c->a.converted ? &c->a : c->b.converted ? &c->b : NULL;
  double m = fabs(u) > fabs(v) ? fabs(u) : fabs(v);
  if (!s)
    return 0;
  m += 1;
  if (ch < 3 && pose < s->run.model.num_joints) {
    const double *t = s->run.model.joints[pose].pose.t;
    m += 2 * (fabs(t[0]) + fabs(t[1]) + fabs(t[2])) + fabs(u) + fabs(v);
  }
  return 8 * ldexp(1.0, -24) * m;
}

/* Worst channel of two transforms relative to its bound; rotations up to sign. */
static double trs_worst(const struct cmp *c, const struct trs *x, const struct trs *y,
                        uint32_t pose, int animated, const double extra[TRS_CHANNELS], unsigned *ch,
                        double *err, double *bound)
{
  double worst = 0, best_rot = INFINITY;
  unsigned rot_ch = 3;
  double rot_err = 0, rot_bound = 0, rot_extra = 0;
  struct trs xn, yn;
  *ch = 0;
  *err = *bound = 0;
  if (animated && (c->a.converted || c->b.converted)) {
    /* a converted side's rotations are unit (composed from normalised ones): compare unit
     * rotations, each component also allowed the four rotation channels' bounds */
    xn = *x;
    yn = *y;
    quat_normalize(xn.r);
    quat_normalize(yn.r);
    x = &xn;
    y = &yn;
    for (unsigned k = 3; k < 7; k++)
      rot_extra += channel_bound(&c->a.run.model, pose, k) + channel_bound(&c->b.run.model, pose, k);
  }
  for (int sign = 1; sign >= -1; sign -= 2) {
    double w = 0, e = 0, bd = 0;
    unsigned at = 3;
    for (unsigned k = 3; k < 7; k++) {
      double u = trs_channel(x, k), v = sign * trs_channel(y, k);
      double b = animated ? channel_bound(&c->a.run.model, pose, k) + channel_bound(&c->b.run.model, pose, k)
                          : 0;
      double d = fabs(u - v), r;
      if (b == 0 || !(animated && (c->a.run.model.channels || c->b.run.model.channels)))
        b += plain_bound(c, u, v);
      b += extra[k] + rot_extra;
      if (animated)
        b += converted_bound(c, pose, k, u, v);
      r = isnan(d) ? INFINITY : d / b;
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
    b = animated ? channel_bound(&c->a.run.model, pose, k) + channel_bound(&c->b.run.model, pose, k) : 0;
    if (b == 0 || !(animated && (c->a.run.model.channels || c->b.run.model.channels)))
      b += plain_bound(c, u, v);
    b += extra[k];
    if (animated)
      b += converted_bound(c, pose, k, u, v);
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
                          uint32_t pose, int animated, enum iqe_elem e, uint32_t n, uint32_t sub,
                          unsigned *ch, double *err, double *bound)
{
  double extra[TRS_CHANNELS] = {0};
  const struct side *sides[2] = {&c->a, &c->b};
  for (int s = 0; s < 2; s++) {
    double res[TRS_CHANNELS];
    uint32_t line;
    if (!sides[s]->indexed)
      continue;
    line = iqe_index_line(&sides[s]->ix, e, n, sub);
    if (iqe_index_resolution(&sides[s]->ix, sides[s]->in.data, sides[s]->in.size, line, res) < 0)
      continue;
    for (unsigned k = 0; k < TRS_CHANNELS; k++)
      extra[k] += res[k];
  }
  return trs_worst(c, x, y, pose, animated, extra, ch, err, bound);
}

static const double no_extra[TRS_CHANNELS];

static void base_poses_compare(struct cmp *c)
{
  const struct model *a = &c->a.run.model, *b = &c->b.run.model;
  uint32_t n = a->num_joints < b->num_joints ? a->num_joints : b->num_joints;
  for (uint32_t i = 0; i < n; i++) {
    unsigned ch;
    double err, bound, r = trs_worst(c, &a->joints[i].pose, &b->joints[i].pose, i, 0, no_extra, &ch, &err, &bound);
    char path[64], bv[96];
    if (r > 1)
      r = trs_recheck(c, &a->joints[i].pose, &b->joints[i].pose, i, 0, IQE_EL_BASEPOSE, i, 0, &ch,
                      &err, &bound);
    c->poses_checked++;
    if (r > c->worst_ratio)
      c->worst_ratio = r;
    if (r <= 1)
      continue;
    snprintf(path, sizeof path, "joints[%u].pose.%s", i, trs_channel_name(ch));
    snprintf(bv, sizeof bv, "%.9g", trs_channel(&b->joints[i].pose, ch));
    mismatch(c, RULE_CORE_COMPARE_POSE, EL_BASEPOSE, i, 0, path, bv,
             "base pose %.9g differs by %.3g, bound %.3g", trs_channel(&a->joints[i].pose, ch), err, bound);
  }
}

static void anims_compare(struct cmp *c)
{
  const struct model *a = &c->a.run.model, *b = &c->b.run.model;
  uint32_t n = a->num_anims < b->num_anims ? a->num_anims : b->num_anims;
  uint32_t np = a->num_poses < b->num_poses ? a->num_poses : b->num_poses;
  char bv[160], path[96];
  if (a->num_anims != b->num_anims) {
    snprintf(bv, sizeof bv, "%u", b->num_anims);
    mismatch(c, RULE_CORE_COMPARE_ANIM_COUNT, EL_ANIM, count_at(a->num_anims, b->num_anims), 0,
             "anims", bv, "%u", a->num_anims);
  }
  for (uint32_t i = 0; i < n; i++) {
    const struct model_anim *x = &a->anims[i], *y = &b->anims[i];
    uint32_t nf = x->num_frames < y->num_frames ? x->num_frames : y->num_frames;
    snprintf(path, sizeof path, "anims[%u]", i);
    if (strcmp(safe(x->name), safe(y->name))) {
      snprintf(bv, sizeof bv, "'%.100s'", safe(y->name));
      mismatch(c, RULE_CORE_COMPARE_ANIM_NAME, EL_ANIM, i, 0, path, bv, "'%.100s'", safe(x->name));
    }
    if (x->num_frames != y->num_frames) {
      snprintf(bv, sizeof bv, "%u", y->num_frames);
      mismatch(c, RULE_CORE_COMPARE_ANIM_FRAMES, EL_ANIM, i, 0, path, bv, "%u", x->num_frames);
    }
    if (fabs(x->framerate - y->framerate) > plain_bound(c, x->framerate, y->framerate) ||
        isnan(x->framerate) != isnan(y->framerate)) {
      snprintf(bv, sizeof bv, "%g", y->framerate);
      mismatch(c, RULE_CORE_COMPARE_ANIM_FRAMERATE, EL_ANIM, i, 0, path, bv, "%g", x->framerate);
    }
    if ((x->flags & MODEL_ANIM_LOOP) != (y->flags & MODEL_ANIM_LOOP)) {
      snprintf(bv, sizeof bv, "%s", y->flags & MODEL_ANIM_LOOP ? "set" : "clear");
      mismatch(c, RULE_CORE_COMPARE_ANIM_LOOP, EL_ANIM, i, 0, path, bv, "%s",
               x->flags & MODEL_ANIM_LOOP ? "set" : "clear");
    }
    if (!a->frames || !b->frames)
      continue;
    for (uint32_t f = 0; f < nf; f++) {
      uint32_t fa = x->first_frame + f, fb = y->first_frame + f;
      for (uint32_t j = 0; j < np; j++) {
        const struct trs *pa = model_frame(a, fa, j), *pb = model_frame(b, fb, j);
        unsigned ch;
        double err, bound, r;
        if (!pa || !pb)
          continue;
        r = trs_worst(c, pa, pb, j, 1, no_extra, &ch, &err, &bound);
        if (r > 1)
          r = trs_recheck(c, pa, pb, j, 1, IQE_EL_FRAME, fa, j + 1, &ch, &err, &bound);
        c->poses_checked++;
        if (r > c->worst_ratio)
          c->worst_ratio = r;
        if (r <= 1)
          continue;
        snprintf(path, sizeof path, "anims[%u].frames[%u].poses[%u].%s", i, f, j, trs_channel_name(ch));
        snprintf(bv, sizeof bv, "%.9g", trs_channel(pb, ch));
        mismatch(c, RULE_CORE_COMPARE_POSE, EL_FRAME, fa, j, path, bv,
                 "%.9g differs by %.3g, bound %.3g", trs_channel(pa, ch), err, bound);
      }
    }
  }
}

/* ---- meshes ----------------------------------------------------------------------------- */

/* Writers deduplicate vertices and drop triangles that then repeat a corner (iqm-notes 5.2,
 * 4.3), so counts are compared as distinct vertices (equal bytes in every attribute type both
 * files carry, tangents aside: the compiler misplaces them) and triangles with three distinct
 * corners. Equal raw counts need no such view. */
struct vkey_ctx {
  const struct model *m;
  const struct model_varray *arrays[8];
  uint32_t narrays;
};

static const struct vkey_ctx *vkey_sort_ctx; /* qsort has no context argument */

static int vkey_cmp(const void *x, const void *y)
{
  uint32_t u = *(const uint32_t *)x, v = *(const uint32_t *)y;
  for (uint32_t i = 0; i < vkey_sort_ctx->narrays; i++) {
    const struct model_varray *va = vkey_sort_ctx->arrays[i];
    size_t n = (size_t)va->size * iqe_format_bytes(va->format);
    int c = memcmp(va->data + u * n, va->data + v * n, n);
    if (c)
      return c;
  }
  return (u > v) - (u < v);
}

static int same_vertex(const struct vkey_ctx *k, uint32_t u, uint32_t v)
{
  for (uint32_t i = 0; i < k->narrays; i++) {
    const struct model_varray *va = k->arrays[i];
    size_t n = (size_t)va->size * iqe_format_bytes(va->format);
    if (memcmp(va->data + u * n, va->data + v * n, n))
      return 0;
  }
  return 1;
}

static const struct model_varray *varray_of(const struct model *m, uint32_t type)
{
  for (uint32_t i = 0; i < m->num_varrays; i++)
    if (m->varrays[i].type == type && m->varrays[i].data && m->varrays[i].format < VF_COUNT)
      return &m->varrays[i];
  return NULL;
}

/* Canonical vertex ids (the smallest index with equal attributes); NULL on failure. */
static uint32_t *vertex_ids(const struct model *m, const struct model *other)
{
  struct vkey_ctx k;
  uint32_t *order, *ids, n = m->num_vertexes;
  memset(&k, 0, sizeof k);
  k.m = m;
  for (uint32_t t = VT_POSITION; t <= VT_COLOR; t++) {
    const struct model_varray *va = varray_of(m, t);
    if (t != VT_TANGENT && va && varray_of(other, t))
      k.arrays[k.narrays++] = va;
  }
  order = malloc(((size_t)n + 1) * sizeof *order);
  ids = malloc(((size_t)n + 1) * sizeof *ids);
  if (!order || !ids) {
    free(order);
    free(ids);
    return NULL;
  }
  for (uint32_t v = 0; v < n; v++)
    order[v] = v;
  vkey_sort_ctx = &k;
  qsort(order, n, sizeof *order, vkey_cmp);
  for (uint32_t i = 0; i < n; i++)
    ids[order[i]] = i > 0 && same_vertex(&k, order[i - 1], order[i]) ? ids[order[i - 1]] : order[i];
  free(order);
  return ids;
}

static uint32_t tri_corner(const struct model *m, uint32_t t, int k)
{
  const unsigned char *p = m->triangles + (size_t)t * 12 + (size_t)k * 4;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int u32_cmp(const void *x, const void *y)
{
  uint32_t u = *(const uint32_t *)x, v = *(const uint32_t *)y;
  return (u > v) - (u < v);
}

/* Distinct vertices in [first, first + count) and triangles in [t0, t0 + nt) with three
 * distinct corners. */
static void distinct_counts(const struct model *m, const uint32_t *ids, uint32_t first,
                            uint32_t count, uint32_t t0, uint32_t nt, uint32_t *nv, uint32_t *ntri)
{
  uint32_t *tmp;
  *nv = count;
  *ntri = nt;
  if (!ids || (uint64_t)first + count > m->num_vertexes || (uint64_t)t0 + nt > m->num_triangles)
    return;
  tmp = malloc(((size_t)count + 1) * sizeof *tmp);
  if (!tmp)
    return;
  memcpy(tmp, ids + first, (size_t)count * sizeof *tmp);
  qsort(tmp, count, sizeof *tmp, u32_cmp);
  *nv = 0;
  for (uint32_t i = 0; i < count; i++)
    if (i == 0 || tmp[i] != tmp[i - 1])
      (*nv)++;
  free(tmp);
  *ntri = 0;
  for (uint32_t t = t0; t < t0 + nt; t++) {
    uint32_t a = tri_corner(m, t, 0), b = tri_corner(m, t, 1), c = tri_corner(m, t, 2);
    if (a < m->num_vertexes && b < m->num_vertexes && c < m->num_vertexes && ids[a] != ids[b] &&
        ids[b] != ids[c] && ids[a] != ids[c])
      (*ntri)++;
  }
}

static void counts_compare(struct cmp *c, const uint32_t *ida, const uint32_t *idb,
                           const struct model_mesh *x, const struct model_mesh *y, uint32_t i,
                           uint32_t k)
{
  const struct model *a = &c->a.run.model, *b = &c->b.run.model;
  struct model_mesh whole_a, whole_b;
  uint32_t va, vb, ta, tb;
  char bv[160], path[96];
  enum elem e = x ? EL_MESH : EL_NONE;
  if (!x) {
    memset(&whole_a, 0, sizeof whole_a);
    memset(&whole_b, 0, sizeof whole_b);
    whole_a.num_vertexes = a->num_vertexes;
    whole_a.num_triangles = a->num_triangles;
    whole_b.num_vertexes = b->num_vertexes;
    whole_b.num_triangles = b->num_triangles;
    x = &whole_a;
    y = &whole_b;
    snprintf(path, sizeof path, "model");
  } else {
    snprintf(path, sizeof path, "meshes[%u]", i);
  }
  if (x->num_vertexes == y->num_vertexes && x->num_triangles == y->num_triangles)
    return;
  distinct_counts(a, ida, x->first_vertex, x->num_vertexes, x->first_triangle, x->num_triangles, &va, &ta);
  distinct_counts(b, idb, y->first_vertex, y->num_vertexes, y->first_triangle, y->num_triangles, &vb, &tb);
  if (x->num_vertexes != y->num_vertexes && va != vb) {
    snprintf(bv, sizeof bv, "%u%s (%u distinct)", y->num_vertexes, e == EL_MESH ? " in its match" : "", vb);
    mismatch(c, RULE_CORE_COMPARE_VERTEX_COUNT, e, i, 0, path, bv, "%u (%u distinct)",
             x->num_vertexes, va);
  }
  if (x->num_triangles != y->num_triangles && ta != tb) {
    snprintf(bv, sizeof bv, "%u%s (%u with distinct corners)", y->num_triangles,
             e == EL_MESH ? " in its match" : "", tb);
    mismatch(c, RULE_CORE_COMPARE_TRIANGLE_COUNT, e, i, 0, path, bv, "%u (%u with distinct corners)",
             x->num_triangles, ta);
  }
  (void)k;
}

static void meshes_compare(struct cmp *c)
{
  const struct model *a = &c->a.run.model, *b = &c->b.run.model;
  char bv[160];
  uint8_t *used = calloc((size_t)b->num_meshes + 1, 1);
  uint32_t *ida = vertex_ids(a, b), *idb = vertex_ids(b, a);
  if (!used || !ida || !idb) {
    free(used);
    free(ida);
    free(idb);
    return;
  }
  if (a->num_meshes != b->num_meshes) {
    snprintf(bv, sizeof bv, "%u", b->num_meshes);
    mismatch(c, RULE_CORE_COMPARE_MESH_COUNT, EL_MESH, count_at(a->num_meshes, b->num_meshes), 0,
             "meshes", bv, "%u", a->num_meshes);
  }
  counts_compare(c, ida, idb, NULL, NULL, 0, 0);
  /* pair meshes by (name, material) first: writers may order them differently */
  for (uint32_t i = 0; i < a->num_meshes; i++) {
    const struct model_mesh *x = &a->meshes[i], *y = NULL;
    uint32_t k = 0;
    for (uint32_t j = 0; j < b->num_meshes && !y; j++)
      if (!used[j] && !strcmp(safe(x->name), safe(b->meshes[j].name)) &&
          !strcmp(safe(x->material), safe(b->meshes[j].material))) {
        y = &b->meshes[j];
        k = j;
      }
    if (!y && i < b->num_meshes && !used[i]) {
      y = &b->meshes[i];
      k = i;
    }
    if (!y)
      continue;
    used[k] = 1;
    counts_compare(c, ida, idb, x, y, i, k);
  }
  free(used);
  free(ida);
  free(idb);
}

/* ---- frames in one meaning -------------------------------------------------------------- */

static void frames_note(void *user, enum frames_note_level level, uint32_t anim, const char *msg)
{
  const struct side *s = user;
  (void)anim;
  fprintf(stderr, "mdlcheck: compare: %s: %s: %s\n", level == FRAMES_INFO ? "note" : "warning",
          s->path, msg);
}

/* Turn s's frames parent-relative, sampled at other's framerates (matched by index). */
static int side_convert(struct side *s, const struct side *other, int quiet)
{
  const struct model *o = &other->run.model;
  struct model *m = &s->run.model;
  double *rates = NULL;
  char why[200] = "";
  int rc;
  if (o->num_anims && !model_frames_need_parent(o)) {
    rates = calloc((size_t)m->num_anims + 1, sizeof *rates);
    if (!rates)
      return -1;
    for (uint32_t i = 0; i < m->num_anims && i < o->num_anims; i++)
      rates[i] = o->anims[i].framerate;
  }
  rc = model_frames_to_parent(m, rates, quiet ? NULL : frames_note, s, why, sizeof why);
  free(rates);
  if (rc < 0) {
    fprintf(stderr, "mdlcheck: compare: %s: its frames cannot be made parent-relative: %s\n",
            s->path, why);
    return -1;
  }
  s->converted = 1;
  return 0;
}

/* Both sides' frames in IQM's meaning unless both store them alike. A side that cannot be
 * converted keeps its frames out of the comparison (its frames are dropped). */
static void frames_align(struct cmp *c, int quiet)
{
  struct model *a = &c->a.run.model, *b = &c->b.run.model;
  int na = model_frames_need_parent(a), nb = model_frames_need_parent(b);
  if (!na && !nb)
    return;
  if (na && nb && a->frame_space == b->frame_space)
    return;
  if (na && side_convert(&c->a, &c->b, quiet) < 0)
    a->frames = NULL;
  if (nb && side_convert(&c->b, &c->a, quiet) < 0)
    b->frames = NULL;
}

/* ---- driver ----------------------------------------------------------------------------- */

static int side_open(struct cmp *c, struct side *s, const struct cli *cl)
{
  mdl_options o = cl->lib;
  char why[128];
  int err = input_open(s->path, &s->in, cl->lib.max_input_size);
  if (err) {
    fprintf(stderr, "mdlcheck: compare: cannot read %s: %s\n", s->path,
            input_error_text(err, cl->lib.max_input_size, why, sizeof why));
    return -1;
  }
  s->opened = 1;
  o.on_diag = NULL; /* validation findings belong to `mdlcheck validate` */
  o.user = NULL;
  o.max_issues = 0;
  if (pipeline_decode(s->in.data, s->in.size, s->path, &o, 1, &s->run) == MDL_EIO) {
    fprintf(stderr, "mdlcheck: compare: cannot read %s: the text it decompresses to is larger than "
            "the input size limit of %llu bytes (--max-input-size)\n", s->path, input_limit(&o));
    return -1;
  }
  if (s->run.format && !strcmp(s->run.format->name, "iqe"))
    s->indexed = iqe_index_build(s->in.data, s->in.size, &s->ix) == 0;
  if (!s->run.format || !s->run.decoded) {
    struct mdl_loc loc = loc_none();
    diag_emit(&c->sink, RULE_CORE_COMPARE_UNREADABLE, &loc,
              s->run.format ? "its decoder gave up (run mdlcheck validate on it)" : "its format is not recognised",
              "%s", s->path);
    return 1;
  }
  return 0;
}

int cmd_compare(struct cli *cl)
{
  struct cmp c;
  struct report rep;
  struct report_file *f;
  mdl_options o = cl->lib;
  char fmt[64];
  int rc, ra, rb;
  FILE *out;

  if (cl->nargs != 2) {
    fprintf(stderr, "mdlcheck: compare takes two files (try 'mdlcheck --help')\n");
    return EXIT_USAGE;
  }
  memset(&c, 0, sizeof c);
  c.a.path = cl->args[0];
  c.b.path = cl->args[1];
  report_init(&rep);
  rep.fail_on = cl->fail_on;
  f = report_add_file(&rep, c.a.path);
  o.on_diag = report_collect;
  o.user = f;
  if (diag_sink_init(&c.sink, &o) < 0) {
    report_free(&rep);
    return EXIT_INTERNAL;
  }
  ra = side_open(&c, &c.a, cl);
  rb = ra < 0 ? -1 : side_open(&c, &c.b, cl);
  if (ra < 0 || rb < 0) {
    rc = EXIT_IO;
    diag_sink_finish(&c.sink);
    goto done;
  }
  if (ra == 0 && rb == 0) {
    frames_align(&c, cl->quiet);
    skeleton_compare(&c);
    base_poses_compare(&c);
    anims_compare(&c);
    meshes_compare(&c);
  }
  diag_sink_finish(&c.sink);
  memcpy(f->counts, c.sink.counts, sizeof f->counts);
  f->truncated = c.sink.truncated;
  snprintf(fmt, sizeof fmt, "%s vs %s", c.a.run.format ? c.a.run.format->name : "unknown",
           c.b.run.format ? c.b.run.format->name : "unknown");
  f->format = fmt;
  rc = report_file_invalid(&rep, f) ? EXIT_INVALID : EXIT_VALID;
  out = cli_open_output(cl);
  if (!out) {
    rc = EXIT_IO;
    goto done;
  }
  switch (cl->output) {
  case OUT_JSON: report_write_json(out, &rep); break;
  case OUT_SARIF: report_write_sarif(out, &rep); break;
  default:
    report_write_text(out, &rep, cl->quiet);
    if (!cl->quiet && ra == 0 && rb == 0)
      fprintf(out, "compared with %s: %lu poses, worst %.3g of the bound%s\n", c.b.path,
              c.poses_checked, c.worst_ratio,
              c.worst_ratio <= 1 ? " (every pose within bound)" : "");
    break;
  }
  cli_close_output(cl, out);
done:
  if (c.a.indexed)
    iqe_index_free(&c.a.ix);
  if (c.b.indexed)
    iqe_index_free(&c.b.ix);
  if (c.a.opened) {
    pipeline_release(&c.a.run);
    input_close(&c.a.in);
  }
  if (c.b.opened) {
    pipeline_release(&c.b.run);
    input_close(&c.b.in);
  }
  f->format = "unknown";
  report_free(&rep);
  return rc;
}
