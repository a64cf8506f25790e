/* case_model.c - the model-level checks of a case: expected decoded poses, and the round trip
 * decode -> write -> decode compared field by field.
 *
 * Quantized animation channels are compared within the bound the format's quantization
 * implies (corpus/README.md, "Tolerances"); everything else must survive byte for byte. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_check.h"
#include "pose.h"

#define FLOAT_EPS 1.1920928955078125e-07 /* 2^-23 */
#define CONST_SLACK 1e-10
#define MAX_DIFFS 20 /* differences printed per round trip before summarising */

double pose_bound(const struct model *m, uint32_t pose, int channel)
{
  const struct model_channels *ch;
  if (!m->channels || pose >= m->num_poses)
    return CONST_SLACK; /* no quantization: decoded in double from exact data */
  ch = &m->channels[pose];
  /* a clear mask bit decodes to the offset alone: the stored scale plays no part */
  return quant_bound(ch->offset[channel], (ch->mask >> channel) & 1 ? ch->scale[channel] : 0);
}

/* Bounds for the 10 components of one transform; a rotation is compared after normalisation,
 * which can move one component by the whole error of the other three as well. */
static void transform_bounds(const struct model *m, uint32_t pose, double out[10])
{
  double rsum = 0;
  for (int k = 0; k < 10; k++)
    out[k] = pose_bound(m, pose, k);
  for (int k = 3; k < 7; k++)
    rsum += out[k];
  for (int k = 3; k < 7; k++)
    out[k] += rsum;
}

/* Largest excess of |a - b| over its bound for a quaternion, trying both signs (q and -q are
 * the same rotation). Returns <= 0 when within bounds. */
static double quat_excess(const double a[4], const double b[4], const double bound[4], int *flip)
{
  double best = INFINITY;
  for (int sign = 0; sign < 2; sign++) {
    double worst = -INFINITY;
    for (int k = 0; k < 4; k++) {
      double bk = sign ? -b[k] : b[k];
      double e = fabs(a[k] - bk) - bound[k];
      if (isnan(e))
        e = INFINITY;
      if (e > worst)
        worst = e;
    }
    if (worst < best) {
      best = worst;
      *flip = sign;
    }
  }
  return best;
}

static int vec_within(const double *a, const double *b, const double *bound, int n)
{
  for (int k = 0; k < n; k++)
    if (!(fabs(a[k] - b[k]) <= bound[k]))
      return 0;
  return 1;
}

static void print_vec(const char *label, const double *v, int n)
{
  fprintf(stderr, "    %s [", label);
  for (int k = 0; k < n; k++)
    fprintf(stderr, "%s%.17g", k ? ", " : "", v[k]);
  fprintf(stderr, "]\n");
}

/* --- poses ---------------------------------------------------------------------------------- */

unsigned check_poses(struct conf_case *c, const struct pipeline_run *run)
{
  const struct model *m = &run->model;
  unsigned failed = 0;

  if (!c->has_poses)
    return 0;
  if (!run->decoded) {
    fprintf(stderr, "%s:%d: FAIL: poses: the decoder gave up, there is no model\n", c->file,
            c->poses_line);
    return 1;
  }
  for (size_t i = 0; i < c->nposes; i++) {
    const struct case_pose *p = &c->poses[i];
    struct trs actual;
    double bound[10], want[10], got[10];
    int bad = 0, flip = 0;

    if (p->frame < 0) {
      if (p->joint >= m->num_joints) {
        fprintf(stderr, "%s:%d: FAIL: joint %u: the model has %u joints\n", c->file, p->line,
                p->joint, m->num_joints);
        failed++;
        continue;
      }
      actual = m->joints[p->joint].pose;
    } else {
      uint64_t f = (uint64_t)p->frame;
      const struct trs *fr;
      if (p->anim) {
        const struct model_anim *a = NULL;
        for (uint32_t k = 0; k < m->num_anims; k++)
          if (m->anims[k].name && !strcmp(m->anims[k].name, p->anim))
            a = &m->anims[k];
        if (!a || f >= a->num_frames) {
          fprintf(stderr, "%s:%d: FAIL: %s '%s'\n", c->file, p->line,
                  a ? "frame past the end of animation" : "no animation named", p->anim);
          failed++;
          continue;
        }
        f += a->first_frame;
      }
      if (p->joint >= m->num_poses || f >= m->num_frames || !m->frames) {
        fprintf(stderr, "%s:%d: FAIL: frame %llu joint %u not decoded (%u frames of %u poses%s)\n",
                c->file, p->line, (unsigned long long)f, p->joint, m->num_frames, m->num_poses,
                m->frames ? "" : ", no frame strip");
        failed++;
        continue;
      }
      fr = model_frame(m, (uint32_t)f, p->joint);
      actual = *fr;
    }
    quat_normalize(actual.r);

    if (c->tol_bound) {
      if (p->frame >= 0) {
        transform_bounds(m, p->joint, bound);
      } else {
        /* the base pose is stored at the file's precision: allow float rounding */
        const double *ev[3] = {p->t, p->r, p->s};
        double rsum = 0;
        for (int k = 0; k < 10; k++) {
          const double *v = k < 3 ? ev[0] + k : k < 7 ? ev[1] + (k - 3) : ev[2] + (k - 7);
          bound[k] = 1.5 * FLOAT_EPS * fabs(*v) + CONST_SLACK;
        }
        for (int k = 3; k < 7; k++)
          rsum += bound[k];
        for (int k = 3; k < 7; k++)
          bound[k] += rsum;
      }
    } else {
      for (int k = 0; k < 10; k++)
        bound[k] = c->tol;
    }

    memcpy(want, p->t, sizeof p->t);
    memcpy(want + 3, p->r, sizeof p->r);
    memcpy(want + 7, p->s, sizeof p->s);
    memcpy(got, actual.t, sizeof actual.t);
    memcpy(got + 3, actual.r, sizeof actual.r);
    memcpy(got + 7, actual.s, sizeof actual.s);
    if (p->has[0] && !vec_within(got, want, bound, 3))
      bad |= 1;
    if (p->has[1] && quat_excess(got + 3, want + 3, bound + 3, &flip) > 0)
      bad |= 2;
    if (p->has[2] && !vec_within(got + 7, want + 7, bound + 7, 3))
      bad |= 4;
    if (bad) {
      if (p->frame < 0)
        fprintf(stderr, "%s:%d: FAIL: joint %u base pose differs beyond the tolerance\n",
                c->file, p->line, p->joint);
      else
        fprintf(stderr, "%s:%d: FAIL: joint %u frame %lld%s%s differs beyond the tolerance\n",
                c->file, p->line, p->joint, p->frame, p->anim ? " of " : "",
                p->anim ? p->anim : "");
      if (bad & 1) {
        print_vec("t expected", want, 3);
        print_vec("t decoded ", got, 3);
        print_vec("t bound   ", bound, 3);
      }
      if (bad & 2) {
        print_vec("r expected", want + 3, 4);
        print_vec("r decoded ", got + 3, 4);
        print_vec("r bound   ", bound + 3, 4);
      }
      if (bad & 4) {
        print_vec("s expected", want + 7, 3);
        print_vec("s decoded ", got + 7, 3);
        print_vec("s bound   ", bound + 7, 3);
      }
      failed++;
    }
  }
  return failed;
}

/* --- round trip ----------------------------------------------------------------------------- */

struct diff_state {
  const char *file;
  unsigned count;
};

static void differ(struct diff_state *st, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));

static void differ(struct diff_state *st, const char *fmt, ...)
{
  va_list ap;
  if (++st->count > MAX_DIFFS)
    return;
  fprintf(stderr, "%s: FAIL: roundtrip: ", st->file);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static int str_eq(const char *a, const char *b)
{
  return !strcmp(a ? a : "", b ? b : "");
}

static size_t vformat_size(uint32_t f)
{
  static const size_t sizes[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};
  return f < VF_COUNT ? sizes[f] : 0;
}

/* The base pose is not quantized, but a writer stores it at the file's precision. */
static int near_float(double a, double b)
{
  return fabs(a - b) <= FLOAT_EPS * fmax(fabs(a), fabs(b)) || (a == b);
}

static void compare_joints(struct diff_state *st, const struct model *a, const struct model *b)
{
  if (a->num_joints != b->num_joints) {
    differ(st, "num_joints %u became %u", a->num_joints, b->num_joints);
    return;
  }
  for (uint32_t i = 0; i < a->num_joints; i++) {
    const struct model_joint *x = &a->joints[i], *y = &b->joints[i];
    if (!str_eq(x->name, y->name))
      differ(st, "joints[%u].name '%s' became '%s'", i, x->name ? x->name : "",
             y->name ? y->name : "");
    if (x->parent != y->parent)
      differ(st, "joints[%u].parent %d became %d", i, (int)x->parent, (int)y->parent);
    for (int k = 0; k < 3; k++)
      if (!near_float(x->pose.t[k], y->pose.t[k]) || !near_float(x->pose.s[k], y->pose.s[k]))
        differ(st, "joints[%u] base translation/scale component %d changed", i, k);
    for (int k = 0; k < 4; k++)
      if (!near_float(x->pose.r[k], y->pose.r[k]))
        differ(st, "joints[%u].pose.r[%d] %.17g became %.17g", i, k, x->pose.r[k], y->pose.r[k]);
  }
}

static void compare_anims_meshes(struct diff_state *st, const struct model *a, const struct model *b)
{
  if (a->num_anims != b->num_anims) {
    differ(st, "num_anims %u became %u", a->num_anims, b->num_anims);
  } else {
    for (uint32_t i = 0; i < a->num_anims; i++) {
      const struct model_anim *x = &a->anims[i], *y = &b->anims[i];
      if (!str_eq(x->name, y->name))
        differ(st, "anims[%u].name '%s' became '%s'", i, x->name ? x->name : "",
               y->name ? y->name : "");
      if (x->first_frame != y->first_frame || x->num_frames != y->num_frames)
        differ(st, "anims[%u] frames %u+%u became %u+%u", i, x->first_frame, x->num_frames,
               y->first_frame, y->num_frames);
      if (!(x->framerate == y->framerate) && !(isnan(x->framerate) && isnan(y->framerate)))
        differ(st, "anims[%u].framerate %.17g became %.17g", i, x->framerate, y->framerate);
      if (x->flags != y->flags)
        differ(st, "anims[%u].flags %u became %u", i, x->flags, y->flags);
    }
  }
  if (a->num_meshes != b->num_meshes) {
    differ(st, "num_meshes %u became %u", a->num_meshes, b->num_meshes);
    return;
  }
  for (uint32_t i = 0; i < a->num_meshes; i++) {
    const struct model_mesh *x = &a->meshes[i], *y = &b->meshes[i];
    if (!str_eq(x->name, y->name) || !str_eq(x->material, y->material))
      differ(st, "meshes[%u] name/material '%s'/'%s' became '%s'/'%s'", i, x->name ? x->name : "",
             x->material ? x->material : "", y->name ? y->name : "",
             y->material ? y->material : "");
    if (x->first_vertex != y->first_vertex || x->num_vertexes != y->num_vertexes ||
        x->first_triangle != y->first_triangle || x->num_triangles != y->num_triangles)
      differ(st, "meshes[%u] ranges changed (vertexes %u+%u -> %u+%u, triangles %u+%u -> %u+%u)",
             i, x->first_vertex, x->num_vertexes, y->first_vertex, y->num_vertexes,
             x->first_triangle, x->num_triangles, y->first_triangle, y->num_triangles);
  }
}

static void compare_bytes(struct diff_state *st, const char *what, const unsigned char *x,
                          const unsigned char *y, size_t n)
{
  if (!n)
    return;
  if (!x || !y) {
    differ(st, "%s: %s side has no data", what, x ? "second" : "first");
    return;
  }
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) {
      differ(st, "%s: byte %zu differs (0x%02x became 0x%02x)", what, i, x[i], y[i]);
      return;
    }
}

static void compare_geometry(struct diff_state *st, const struct model *a, const struct model *b)
{
  if (a->num_vertexes != b->num_vertexes)
    differ(st, "num_vertexes %u became %u", a->num_vertexes, b->num_vertexes);
  else if (a->num_varrays != b->num_varrays)
    differ(st, "num_varrays %u became %u", a->num_varrays, b->num_varrays);
  else
    for (uint32_t i = 0; i < a->num_varrays; i++) {
      const struct model_varray *x = &a->varrays[i], *y = &b->varrays[i];
      char what[64];
      /* a custom array's type number may encode where its name sits (IQM: a text offset),
       * which a writer is free to move: custom arrays are compared by name */
      int same_type = x->type >= VT_CUSTOM ? y->type >= VT_CUSTOM : x->type == y->type;
      if (!same_type || x->flags != y->flags || x->format != y->format ||
          x->size != y->size || !str_eq(x->name, y->name)) {
        differ(st, "varrays[%u] header (type %u format %u size %u flags %u '%s') became "
               "(type %u format %u size %u flags %u '%s')", i, x->type, x->format, x->size,
               x->flags, x->name ? x->name : "", y->type, y->format, y->size, y->flags,
               y->name ? y->name : "");
        continue;
      }
      if (!vformat_size(x->format)) {
        differ(st, "varrays[%u] has unknown format %u", i, x->format);
        continue;
      }
      snprintf(what, sizeof what, "varrays[%u] data", i);
      compare_bytes(st, what, x->data, y->data,
                    (size_t)a->num_vertexes * x->size * vformat_size(x->format));
    }
  if (a->num_triangles != b->num_triangles) {
    differ(st, "num_triangles %u became %u", a->num_triangles, b->num_triangles);
  } else {
    compare_bytes(st, "triangles", a->triangles, b->triangles, (size_t)a->num_triangles * 12);
    if (!a->adjacency != !b->adjacency)
      differ(st, "adjacency %s", a->adjacency ? "was dropped" : "appeared");
    else if (a->adjacency)
      compare_bytes(st, "adjacency", a->adjacency, b->adjacency, (size_t)a->num_triangles * 12);
  }
  if (a->comment_size != b->comment_size)
    differ(st, "comment size %u became %u", a->comment_size, b->comment_size);
  else
    compare_bytes(st, "comment", a->comment, b->comment, a->comment_size);
  if (a->num_extensions != b->num_extensions)
    differ(st, "num_extensions %u became %u", a->num_extensions, b->num_extensions);
  else
    for (uint32_t i = 0; i < a->num_extensions; i++) {
      const struct model_extension *x = &a->extensions[i], *y = &b->extensions[i];
      char what[40];
      if (!str_eq(x->name, y->name) || x->size != y->size) {
        differ(st, "extensions[%u] '%s' (%u bytes) became '%s' (%u bytes)", i,
               x->name ? x->name : "", x->size, y->name ? y->name : "", y->size);
        continue;
      }
      snprintf(what, sizeof what, "extensions[%u] data", i);
      compare_bytes(st, what, x->data, y->data, x->size);
    }
  if (a->flags != b->flags)
    differ(st, "header flags %u became %u", a->flags, b->flags);
}

static void compare_frames(struct diff_state *st, const struct model *a, const struct model *b)
{
  if (a->num_poses != b->num_poses) {
    differ(st, "num_poses %u became %u", a->num_poses, b->num_poses);
    return;
  }
  for (uint32_t p = 0; p < a->num_poses; p++)
    if (a->pose_parents && b->pose_parents && a->pose_parents[p] != b->pose_parents[p])
      differ(st, "poses[%u].parent %d became %d", p, (int)a->pose_parents[p],
             (int)b->pose_parents[p]);
  if (a->num_frames != b->num_frames) {
    differ(st, "num_frames %u became %u", a->num_frames, b->num_frames);
    return;
  }
  if (!a->frames != !b->frames) {
    differ(st, "the frame strip %s", a->frames ? "was not decoded again" : "appeared");
    return;
  }
  if (!!a->bounds != !!b->bounds)
    differ(st, "bounds %s", a->bounds ? "were dropped" : "appeared");
  else if (a->bounds)
    for (uint32_t f = 0; f < a->num_frames; f++)
      if (memcmp(&a->bounds[f], &b->bounds[f], sizeof a->bounds[f]))
        differ(st, "bounds[%u] changed", f);
  if (!a->frames)
    return;
  for (uint32_t p = 0; p < a->num_poses; p++) {
    double ba[10], bb[10], bound[10];
    transform_bounds(a, p, ba);
    transform_bounds(b, p, bb);
    for (int k = 0; k < 10; k++)
      bound[k] = fmax(ba[k], bb[k]);
    for (uint32_t f = 0; f < a->num_frames; f++) {
      struct trs x = *model_frame(a, f, p), y = *model_frame(b, f, p);
      int flip = 0;
      quat_normalize(x.r);
      quat_normalize(y.r);
      if (!vec_within(x.t, y.t, bound, 3) || !vec_within(x.s, y.s, bound + 7, 3) ||
          quat_excess(x.r, y.r, bound + 3, &flip) > 0) {
        differ(st, "frame %u pose %u moved beyond the quantization bound", f, p);
        if (st->count <= MAX_DIFFS) {
          print_vec("first  t", x.t, 3);
          print_vec("second t", y.t, 3);
          print_vec("first  r", x.r, 4);
          print_vec("second r", y.r, 4);
          print_vec("first  s", x.s, 3);
          print_vec("second s", y.s, 3);
          print_vec("bound   ", bound, 10);
        }
      }
    }
  }
}

unsigned check_roundtrip(struct conf_case *c, const struct pipeline_run *run,
                         const mdl_options *options, const char *name_hint)
{
  struct write_opts wo;
  struct byte_buf out;
  struct pipeline_run again;
  struct seen_list seen2 = {NULL, 0};
  mdl_options opts = *options;
  struct diff_state st = {c->file, 0};
  unsigned failed = 0;

  if (!c->roundtrip)
    return 0;
  if (!run->format) {
    fprintf(stderr, "%s:%d: FAIL: roundtrip: no format was recognised\n", c->file,
            c->roundtrip_line);
    return 1;
  }
  if (!run->format->write) {
    fprintf(stderr, "%s:%d: FAIL: roundtrip: format %s has no writer yet\n", c->file,
            c->roundtrip_line, run->format->name);
    return 1;
  }
  if (!run->decoded) {
    fprintf(stderr, "%s:%d: FAIL: roundtrip: the decoder gave up, there is no model to write\n",
            c->file, c->roundtrip_line);
    return 1;
  }
  memset(&wo, 0, sizeof wo);
  buf_init(&out);
  if (run->format->write(&run->model, &wo, &out) != 0 || out.oom) {
    fprintf(stderr, "%s:%d: FAIL: roundtrip: the %s writer failed: %s\n", c->file,
            c->roundtrip_line, run->format->name, out.oom ? "out of memory" : out.error);
    buf_free(&out);
    return 1;
  }

  opts.assume_format = run->format->name;
  opts.on_diag = seen_collect;
  opts.user = &seen2;
  if (pipeline_decode(out.data, out.size, name_hint, &opts, 1, &again) != MDL_OK) {
    fprintf(stderr, "%s: roundtrip: internal error decoding the written file\n", c->file);
    pipeline_release(&again);
    buf_free(&out);
    seen_free(&seen2);
    exit(99);
  }
  if (again.result.counts[MDL_FATAL] + again.result.counts[MDL_ERROR] > 0 || !again.decoded) {
    fprintf(stderr, "%s:%d: FAIL: roundtrip: the written file (%zu bytes) is not valid\n", c->file,
            c->roundtrip_line, out.size);
    seen_print(&seen2, "diagnostics on the written file");
    failed++;
  }
  if (again.decoded) {
    compare_joints(&st, &run->model, &again.model);
    compare_anims_meshes(&st, &run->model, &again.model);
    compare_geometry(&st, &run->model, &again.model);
    compare_frames(&st, &run->model, &again.model);
    if (st.count > MAX_DIFFS)
      fprintf(stderr, "%s: roundtrip: %u more differences not shown\n", c->file,
              st.count - MAX_DIFFS);
    failed += st.count;
  }
  pipeline_release(&again);
  buf_free(&out);
  seen_free(&seen2);
  return failed;
}
