/* case_model.c - the model-level checks of a case: expected decoded poses, and the round trip
 * decode -> write -> decode compared field by field (model_diff.h).
 *
 * Quantized animation channels are compared within the bound the format's quantization
 * implies (corpus/README.md, "Tolerances"); everything else must survive byte for byte. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_check.h"
#include "model_diff.h"
#include "pose.h"

#define FLOAT_EPS 1.1920928955078125e-07 /* 2^-23 */
#define MAX_DIFFS 20 /* differences printed per round trip before summarising */

/* The round trip of any format: exact, but for base poses (stored at the file's precision,
 * perhaps printed as text) and frames (within the larger of both sides' quantization). */
static const struct model_diff_opts roundtrip_opts = {
  MODEL_DIFF_ALL | MODEL_DIFF_ROTATIONS, MODEL_DIFF_REAL_NEAR_FLOAT, MODEL_DIFF_REAL_EQUAL,
  MODEL_DIFF_REAL_BITS, MODEL_DIFF_FRAMES_BOTH
};

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
    struct trs actual, expected;
    double bound[10];
    int bad = 0;

    if (p->frame < 0) {
      if (p->joint >= m->num_joints) {
        fprintf(stderr, "%s:%d: FAIL: joint %u: the model has %u joints\n", c->file, p->line,
                p->joint, m->num_joints);
        failed++;
        continue;
      }
      actual = *model_rest(m, p->joint);
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
        model_diff_pose_bounds(m, p->joint, 1, bound);
      } else {
        /* the base pose is stored at the file's precision: allow float rounding */
        const double *ev[3] = {p->t, p->r, p->s};
        double rsum = 0;
        for (int k = 0; k < 10; k++) {
          const double *v = k < 3 ? ev[0] + k : k < 7 ? ev[1] + (k - 3) : ev[2] + (k - 7);
          bound[k] = 1.5 * FLOAT_EPS * fabs(*v) + MODEL_DIFF_SLACK;
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

    memcpy(expected.t, p->t, sizeof p->t);
    memcpy(expected.r, p->r, sizeof p->r);
    memcpy(expected.s, p->s, sizeof p->s);
    if (p->has[0] && trs_diff_ratio(&actual, &expected, bound, 0x7u, 0, NULL) > 1)
      bad |= 1;
    if (p->has[1] && trs_diff_ratio(&actual, &expected, bound, 0x78u, 1, NULL) > 1)
      bad |= 2;
    if (p->has[2] && trs_diff_ratio(&actual, &expected, bound, 0x380u, 0, NULL) > 1)
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
        print_vec("t expected", expected.t, 3);
        print_vec("t decoded ", actual.t, 3);
        print_vec("t bound   ", bound, 3);
      }
      if (bad & 2) {
        print_vec("r expected", expected.r, 4);
        print_vec("r decoded ", actual.r, 4);
        print_vec("r bound   ", bound + 3, 4);
      }
      if (bad & 4) {
        print_vec("s expected", expected.s, 3);
        print_vec("s decoded ", actual.s, 3);
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

static void print_diff(void *user, const char *what)
{
  struct diff_state *st = user;
  if (++st->count <= MAX_DIFFS)
    fprintf(stderr, "%s: FAIL: roundtrip: %s\n", st->file, what);
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
  wo.path = name_hint; /* the container follows the name, as in `mdlcheck convert` */
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
    model_diff(&run->model, &again.model, &roundtrip_opts, print_diff, &st, NULL);
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
