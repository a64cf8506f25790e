/* model_diff.c - part-by-part comparison of two models (round trips, conformance cases). */
#include "model_diff.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define FLOAT_EPS 1.1920928955078125e-07 /* 2^-23 */

struct diff {
  const struct model_diff_opts *o;
  model_diff_fn fn;
  void *user;
  struct model_diff_result *r;
};

static void differ(struct diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void differ(struct diff *d, const char *fmt, ...)
{
  char line[512];
  va_list ap;
  d->r->mismatches++;
  if (!d->fn)
    return;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  d->fn(d->user, line);
}

static const char *nz(const char *s)
{
  return s ? s : "";
}

static int str_eq(const char *a, const char *b)
{
  return !strcmp(nz(a), nz(b));
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
  return a < b ? a : b;
}

static int real_same(enum model_diff_real how, double a, double b)
{
  switch (how) {
  case MODEL_DIFF_REAL_EQUAL:
    return a == b || (isnan(a) && isnan(b));
  case MODEL_DIFF_REAL_FLOAT_OF:
    return (double)(float)a == b || (isnan(a) && isnan(b));
  case MODEL_DIFF_REAL_NEAR_FLOAT:
    return a == b || fabs(a - b) <= FLOAT_EPS * fmax(fabs(a), fabs(b));
  case MODEL_DIFF_REAL_BITS:
    break;
  }
  return !memcmp(&a, &b, sizeof a);
}

static size_t vformat_size(uint32_t f)
{
  static const size_t sizes[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};
  return f < VF_COUNT ? sizes[f] : 0;
}

/* n bytes that must be equal; what names them in the message. */
static void diff_bytes(struct diff *d, const char *what, const unsigned char *x,
                       const unsigned char *y, size_t n)
{
  if (!n)
    return;
  if (!x || !y) {
    differ(d, "%s: the %s side has no data", what, x ? "second" : "first");
    return;
  }
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) {
      differ(d, "%s: byte %zu differs (0x%02x became 0x%02x)", what, i, x[i], y[i]);
      return;
    }
}

/* An optional array of na / nb elements on each side (0 when absent or empty): 1 when both
 * hold the same number of elements, which are then to be compared. */
static int same_extent(struct diff *d, const char *what, uint32_t na, uint32_t nb)
{
  if (na == nb)
    return na > 0;
  if (!na || !nb)
    differ(d, "%s: %s", what, na ? "dropped" : "appeared");
  else
    differ(d, "%s: %u became %u", what, na, nb);
  return 0;
}

static void diff_joints(struct diff *d, const struct model *a, const struct model *b)
{
  if (a->num_joints != b->num_joints)
    differ(d, "num_joints %u became %u", a->num_joints, b->num_joints);
  for (uint32_t i = 0; i < min_u32(a->num_joints, b->num_joints); i++) {
    const struct model_joint *x = &a->joints[i], *y = &b->joints[i];
    if (!str_eq(x->name, y->name))
      differ(d, "joints[%u].name '%s' became '%s'", i, nz(x->name), nz(y->name));
    if (x->parent != y->parent)
      differ(d, "joints[%u].parent %d became %d", i, (int)x->parent, (int)y->parent);
    for (unsigned c = 0; c < TRS_CHANNELS; c++) {
      double u = trs_channel(model_rest(a, i), c), v = trs_channel(model_rest(b, i), c);
      if (!real_same(d->o->joint_pose, u, v))
        differ(d, "joints[%u].pose.%s %.17g became %.17g", i, trs_channel_name(c), u, v);
    }
  }
}

static void diff_poses(struct diff *d, const struct model *a, const struct model *b)
{
  if (a->num_poses != b->num_poses) {
    differ(d, "num_poses %u became %u", a->num_poses, b->num_poses);
    return;
  }
  if (!same_extent(d, "pose parents", a->pose_parents ? a->num_poses : 0,
                   b->pose_parents ? b->num_poses : 0))
    return;
  for (uint32_t p = 0; p < a->num_poses; p++)
    if (a->pose_parents[p] != b->pose_parents[p])
      differ(d, "poses[%u].parent %d became %d", p, (int)a->pose_parents[p],
             (int)b->pose_parents[p]);
}

static void diff_anims(struct diff *d, const struct model *a, const struct model *b)
{
  if (a->num_anims != b->num_anims)
    differ(d, "num_anims %u became %u", a->num_anims, b->num_anims);
  for (uint32_t i = 0; i < min_u32(a->num_anims, b->num_anims); i++) {
    const struct model_anim *x = &a->anims[i], *y = &b->anims[i];
    if (!str_eq(x->name, y->name))
      differ(d, "anims[%u].name '%s' became '%s'", i, nz(x->name), nz(y->name));
    if (x->first_frame != y->first_frame || x->num_frames != y->num_frames)
      differ(d, "anims[%u] frames %u+%u became %u+%u", i, x->first_frame, x->num_frames,
             y->first_frame, y->num_frames);
    if (!real_same(d->o->anim_rate, x->framerate, y->framerate))
      differ(d, "anims[%u].framerate %.17g became %.17g", i, x->framerate, y->framerate);
    if (x->flags != y->flags)
      differ(d, "anims[%u].flags %u became %u", i, x->flags, y->flags);
  }
}

static void diff_meshes(struct diff *d, const struct model *a, const struct model *b)
{
  if (a->num_meshes != b->num_meshes)
    differ(d, "num_meshes %u became %u", a->num_meshes, b->num_meshes);
  for (uint32_t i = 0; i < min_u32(a->num_meshes, b->num_meshes); i++) {
    const struct model_mesh *x = &a->meshes[i], *y = &b->meshes[i];
    if (!str_eq(x->name, y->name) || !str_eq(x->material, y->material))
      differ(d, "meshes[%u] name/material '%s'/'%s' became '%s'/'%s'", i, nz(x->name),
             nz(x->material), nz(y->name), nz(y->material));
    if (x->first_vertex != y->first_vertex || x->num_vertexes != y->num_vertexes ||
        x->first_triangle != y->first_triangle || x->num_triangles != y->num_triangles)
      differ(d, "meshes[%u] ranges changed (vertexes %u+%u -> %u+%u, triangles %u+%u -> %u+%u)",
             i, x->first_vertex, x->num_vertexes, y->first_vertex, y->num_vertexes,
             x->first_triangle, x->num_triangles, y->first_triangle, y->num_triangles);
  }
}

static void diff_varrays(struct diff *d, const struct model *a, const struct model *b)
{
  if (a->num_vertexes != b->num_vertexes) {
    differ(d, "num_vertexes %u became %u", a->num_vertexes, b->num_vertexes);
    return; /* the arrays' data cannot line up */
  }
  if (a->num_varrays != b->num_varrays)
    differ(d, "num_varrays %u became %u", a->num_varrays, b->num_varrays);
  for (uint32_t i = 0; i < min_u32(a->num_varrays, b->num_varrays); i++) {
    const struct model_varray *x = &a->varrays[i], *y = &b->varrays[i];
    char what[40];
    /* a custom array's type number may encode where its name sits (IQM: a text offset),
     * which a writer is free to move: custom arrays are compared by name */
    int same_type = x->type >= VT_CUSTOM ? y->type >= VT_CUSTOM : x->type == y->type;
    if (!same_type || x->flags != y->flags || x->format != y->format || x->size != y->size ||
        !str_eq(x->name, y->name)) {
      differ(d, "varrays[%u] header (type %u format %u size %u flags %u '%s') became "
             "(type %u format %u size %u flags %u '%s')", i, x->type, x->format, x->size,
             x->flags, nz(x->name), y->type, y->format, y->size, y->flags, nz(y->name));
      continue;
    }
    if (!vformat_size(x->format)) {
      differ(d, "varrays[%u] has unknown format %u", i, x->format);
      continue;
    }
    snprintf(what, sizeof what, "varrays[%u] data", i);
    diff_bytes(d, what, x->data, y->data,
               (size_t)a->num_vertexes * x->size * vformat_size(x->format));
  }
}

static void diff_triangles(struct diff *d, const struct model *a, const struct model *b)
{
  if (a->num_triangles != b->num_triangles) {
    differ(d, "num_triangles %u became %u", a->num_triangles, b->num_triangles);
    return;
  }
  diff_bytes(d, "triangles", a->triangles, b->triangles, (size_t)a->num_triangles * 12);
  if (same_extent(d, "adjacency", a->adjacency ? a->num_triangles : 0,
                  b->adjacency ? b->num_triangles : 0))
    diff_bytes(d, "adjacency", a->adjacency, b->adjacency, (size_t)a->num_triangles * 12);
}

static void diff_bounds(struct diff *d, const struct model *a, const struct model *b)
{
  static const char *const names[8] = {
    "bbmin[0]", "bbmin[1]", "bbmin[2]", "bbmax[0]", "bbmax[1]", "bbmax[2]", "xyradius", "radius"
  };
  if (!same_extent(d, "bounds", a->bounds ? a->num_frames : 0, b->bounds ? b->num_frames : 0))
    return;
  for (uint32_t f = 0; f < a->num_frames; f++) {
    const struct model_bounds *x = &a->bounds[f], *y = &b->bounds[f];
    double u[8], v[8];
    for (int k = 0; k < 3; k++) {
      u[k] = x->bbmin[k], v[k] = y->bbmin[k];
      u[3 + k] = x->bbmax[k], v[3 + k] = y->bbmax[k];
    }
    u[6] = x->xyradius, v[6] = y->xyradius;
    u[7] = x->radius, v[7] = y->radius;
    for (int k = 0; k < 8; k++)
      if (!real_same(d->o->bounds, u[k], v[k])) {
        differ(d, "bounds[%u].%s %.17g became %.17g", f, names[k], u[k], v[k]);
        break; /* one line per frame */
      }
  }
}

static void diff_comment(struct diff *d, const struct model *a, const struct model *b)
{
  uint32_t n = a->comment_size;
  int padded = (d->o->flags & MODEL_DIFF_COMMENT_PADDED) != 0;
  if (padded ? b->comment_size < n : b->comment_size != n) {
    differ(d, "comment size %u became %u", n, b->comment_size);
    return;
  }
  diff_bytes(d, "comment", a->comment, b->comment, n);
  for (uint32_t i = n; i < b->comment_size; i++)
    if (!b->comment || b->comment[i]) {
      differ(d, "comment: byte %u past the original %u is not padding", i, n);
      return;
    }
}

static void diff_extensions(struct diff *d, const struct model *a, const struct model *b)
{
  if (a->num_extensions != b->num_extensions)
    differ(d, "num_extensions %u became %u", a->num_extensions, b->num_extensions);
  for (uint32_t i = 0; i < min_u32(a->num_extensions, b->num_extensions); i++) {
    const struct model_extension *x = &a->extensions[i], *y = &b->extensions[i];
    char what[40];
    if (!str_eq(x->name, y->name) || x->size != y->size) {
      differ(d, "extensions[%u] '%s' (%u bytes) became '%s' (%u bytes)", i, nz(x->name),
             x->size, nz(y->name), y->size);
      continue;
    }
    snprintf(what, sizeof what, "extensions[%u] data", i);
    diff_bytes(d, what, x->data, y->data, x->size);
  }
}

/* ---- bounds and distances of transforms ---- */

double model_diff_pose_bound(const struct model *m, uint32_t p, unsigned c)
{
  const struct model_channels *ch;
  if (!m->channels || p >= m->num_poses || c >= TRS_CHANNELS)
    return MODEL_DIFF_SLACK;
  ch = &m->channels[p];
  /* a clear mask bit decodes to the offset alone: the stored scale plays no part */
  return quant_bound(ch->offset[c], (ch->mask >> c) & 1 ? ch->scale[c] : 0);
}

void model_diff_pose_bounds(const struct model *m, uint32_t p, int rotations,
                            double out[TRS_CHANNELS])
{
  double rsum = 0;
  for (unsigned c = 0; c < TRS_CHANNELS; c++)
    out[c] = model_diff_pose_bound(m, p, c);
  if (!rotations)
    return;
  for (unsigned c = 3; c < 7; c++)
    rsum += out[c];
  for (unsigned c = 3; c < 7; c++)
    out[c] += rsum;
}

/* |a - b| / bound. Division rounds monotonically and the first double past a bound is more
 * than half an ulp of 1 above it, so within gives <= 1 and beyond > 1. */
static double ratio_of(double a, double b, double bound)
{
  double e = fabs(a - b), q;
  if (isnan(e) || isnan(bound))
    return INFINITY;
  if (!(e <= bound))
    return bound > 0 ? e / bound : INFINITY;
  q = bound > 0 ? e / bound : 0;
  return isnan(q) ? 1 : q; /* inf / inf: at the bound */
}

/* trs_diff_ratio, also telling which sign of y's rotation was kept (1 or -1). */
static double trs_ratio(const struct trs *x, const struct trs *y, const double bound[TRS_CHANNELS],
                        unsigned mask, int up_to_sign, unsigned *channel, int *kept)
{
  double worst = 0, rot_best = INFINITY;
  unsigned at = 0, rot_at = 3;
  int any_rot = 0;
  *kept = 1;
  for (unsigned c = 0; c < TRS_CHANNELS; c++) {
    double q;
    if (!((mask >> c) & 1) || (c >= 3 && c < 7))
      continue;
    q = ratio_of(trs_channel(x, c), trs_channel(y, c), bound[c]);
    if (q > worst) {
      worst = q;
      at = c;
    }
  }
  for (int sign = 1; sign >= (up_to_sign ? -1 : 1); sign -= 2) {
    double w = 0;
    unsigned wat = 3;
    for (unsigned c = 3; c < 7; c++) {
      double q;
      if (!((mask >> c) & 1))
        continue;
      any_rot = 1;
      q = ratio_of(trs_channel(x, c), sign * trs_channel(y, c), bound[c]);
      if (q > w) {
        w = q;
        wat = c;
      }
    }
    if (w < rot_best) {
      rot_best = w;
      rot_at = wat;
      *kept = sign;
    }
  }
  if (any_rot && rot_best > worst) {
    worst = rot_best;
    at = rot_at;
  }
  *channel = at;
  return worst;
}

double trs_diff_ratio(const struct trs *x, const struct trs *y, const double bound[TRS_CHANNELS],
                      unsigned mask, int up_to_sign, unsigned *channel)
{
  unsigned c;
  int kept;
  double q = trs_ratio(x, y, bound, mask, up_to_sign, &c, &kept);
  if (channel)
    *channel = c;
  return q;
}

/* ---- frames ---- */

/* The bound of every channel of pose p under the chosen mode. */
static void frame_bounds(const struct diff *d, const struct model *a, const struct model *b,
                         uint32_t p, double bound[TRS_CHANNELS])
{
  int rot = (d->o->flags & MODEL_DIFF_ROTATIONS) != 0;
  double other[TRS_CHANNELS];
  switch (d->o->frames) {
  case MODEL_DIFF_FRAMES_EXACT:
    memset(bound, 0, TRS_CHANNELS * sizeof *bound);
    return;
  case MODEL_DIFF_FRAMES_SECOND:
    model_diff_pose_bounds(b, p, rot, bound);
    return;
  case MODEL_DIFF_FRAMES_BOTH:
    break;
  }
  model_diff_pose_bounds(a, p, rot, bound);
  model_diff_pose_bounds(b, p, rot, other);
  for (unsigned c = 0; c < TRS_CHANNELS; c++)
    bound[c] = fmax(bound[c], other[c]);
}

static void diff_frames(struct diff *d, const struct model *a, const struct model *b)
{
  struct model_diff_result *r = d->r;
  int rot = (d->o->flags & MODEL_DIFF_ROTATIONS) != 0;
  if (a->num_poses != b->num_poses) {
    if (!(d->o->flags & MODEL_DIFF_POSES)) /* else told there */
      differ(d, "num_poses %u became %u", a->num_poses, b->num_poses);
    return;
  }
  if (a->num_frames != b->num_frames) {
    differ(d, "num_frames %u became %u", a->num_frames, b->num_frames);
    return;
  }
  /* frames in different spaces or at different times are not the same animation */
  if (a->frame_space != b->frame_space)
    differ(d, "frame_space %u became %u", a->frame_space, b->frame_space);
  if (same_extent(d, "frame_times", a->frame_times ? a->num_frames : 0,
                  b->frame_times ? b->num_frames : 0))
    for (uint32_t f = 0; f < a->num_frames; f++)
      if (!real_same(MODEL_DIFF_REAL_EQUAL, a->frame_times[f], b->frame_times[f])) {
        differ(d, "frame_times[%u] %.17g became %.17g", f, a->frame_times[f], b->frame_times[f]);
        break;
      }
  if (!a->num_frames || !a->num_poses)
    return;
  if (!a->frames != !b->frames) {
    differ(d, "the frame strip %s", a->frames ? "was not decoded again" : "appeared");
    return;
  }
  if (d->o->frames == MODEL_DIFF_FRAMES_SECOND && (!a->frames || !b->channels)) {
    differ(d, "no %s to judge the frames by (%u frames of %u poses)",
           a->frames ? "quantization channels on the second side" : "decoded frame strips",
           a->num_frames, a->num_poses);
    return;
  }
  if (!a->frames)
    return; /* neither side kept its frames */
  for (uint32_t f = 0; f < a->num_frames; f++) {
    for (uint32_t p = 0; p < a->num_poses; p++) {
      struct trs x = *model_frame(a, f, p), y = *model_frame(b, f, p);
      double bound[TRS_CHANNELS], ratio, u, v;
      unsigned c;
      int sign;
      frame_bounds(d, a, b, p, bound);
      if (rot) {
        quat_normalize(x.r);
        quat_normalize(y.r);
      }
      ratio = trs_ratio(&x, &y, bound, (1u << TRS_CHANNELS) - 1, rot, &c, &sign);
      u = trs_channel(&x, c);
      v = trs_channel(&y, c) * (c >= 3 && c < 7 ? sign : 1);
      if (ratio > r->frame_ratio) {
        r->frame_ratio = ratio;
        r->frame_error = fabs(u - v);
        r->frame_bound = bound[c];
        r->frame = f;
        r->pose = p;
        r->channel = c;
      }
      if (ratio > 1) {
        r->frame_mismatches++;
        differ(d, "frames[%u] pose %u %s %.17g became %.17g%s, beyond the bound %.3g", f, p,
               trs_channel_name(c), u, v, sign < 0 && c >= 3 && c < 7 ? " (as -q)" : "",
               bound[c]);
      }
    }
  }
}

int model_diff(const struct model *a, const struct model *b, const struct model_diff_opts *o,
               model_diff_fn fn, void *user, struct model_diff_result *r)
{
  struct model_diff_result local;
  struct diff d;
  unsigned parts = o->flags;

  d.o = o;
  d.fn = fn;
  d.user = user;
  d.r = r ? r : &local;
  memset(d.r, 0, sizeof *d.r);
  if ((parts & MODEL_DIFF_HEADER) && a->flags != b->flags)
    differ(&d, "header flags %u became %u", a->flags, b->flags);
  if (parts & MODEL_DIFF_JOINTS)
    diff_joints(&d, a, b);
  if (parts & MODEL_DIFF_POSES)
    diff_poses(&d, a, b);
  if (parts & MODEL_DIFF_ANIMS)
    diff_anims(&d, a, b);
  if (parts & MODEL_DIFF_MESHES)
    diff_meshes(&d, a, b);
  if (parts & MODEL_DIFF_VARRAYS)
    diff_varrays(&d, a, b);
  if (parts & MODEL_DIFF_TRIANGLES)
    diff_triangles(&d, a, b);
  if (parts & MODEL_DIFF_BOUNDS)
    diff_bounds(&d, a, b);
  if (parts & MODEL_DIFF_COMMENT)
    diff_comment(&d, a, b);
  if (parts & MODEL_DIFF_EXTENSIONS)
    diff_extensions(&d, a, b);
  if (parts & MODEL_DIFF_FRAMES)
    diff_frames(&d, a, b);
  return d.r->mismatches ? 1 : 0;
}

const char *trs_channel_name(unsigned c)
{
  static const char *const names[TRS_CHANNELS] = {
    "Tx", "Ty", "Tz", "Qx", "Qy", "Qz", "Qw", "Sx", "Sy", "Sz"
  };
  return c < TRS_CHANNELS ? names[c] : "?";
}
