/* test_model_frames.c - model_frames_to_parent on hand-built models: the space conversion
 * against values worked out by hand, and each timing decision (uniform, grid, requested rate,
 * no grid, times that do not increase, the size cap) with the note it must give. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model_frames.h"

static int fails;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                  \
      printf(__VA_ARGS__);                                                                         \
      printf("\n");                                                                                \
      fails++;                                                                                     \
    }                                                                                              \
  } while (0)

struct notes {
  int info, warning;
  char last[400];
};

static void on_note(void *user, enum frames_note_level level, uint32_t anim, const char *msg)
{
  struct notes *n = user;
  (void)anim;
  if (level == FRAMES_INFO)
    n->info++;
  else
    n->warning++;
  snprintf(n->last, sizeof n->last, "%s", msg);
}

static void set_trs(struct trs *p, double tx, double ty, double tz, const double r[4], double s)
{
  p->t[0] = tx;
  p->t[1] = ty;
  p->t[2] = tz;
  memcpy(p->r, r, sizeof p->r);
  p->s[0] = p->s[1] = p->s[2] = s;
}

/* Two joints (bone1 under root), one animation of n keys at times t, keyed relative to the
 * base pose: root's keys identity, bone1's keys t (0, 0.1 k, 0) turning 30 k degrees about x. */
static void model_make(struct model *m, const double *t, uint32_t n)
{
  static const double id[4] = {0, 0, 0, 1}, z90[4] = {0, 0, 0.70710678118654752, 0.70710678118654752};
  double *times;
  model_init(m);
  m->num_joints = m->num_poses = 2;
  model_joints_alloc(m, 2);
  m->anims = arena_calloc(&m->arena, 1, sizeof *m->anims);
  m->frames = arena_calloc(&m->arena, (size_t)n * 2 + 1, sizeof *m->frames);
  times = arena_calloc(&m->arena, n + 1, sizeof *times);
  m->joints[0].parent = -1;
  m->joints[0].name = "root";
  set_trs(model_rest_mut(m, 0), 0, 0.5, 0, id, 1);
  m->joints[1].parent = 0;
  m->joints[1].name = "bone1";
  set_trs(model_rest_mut(m, 1), 0, 1, 0, z90, 1);
  m->num_anims = 1;
  m->anims[0].name = "wave";
  m->anims[0].num_frames = n;
  m->num_frames = n;
  for (uint32_t k = 0; k < n; k++) {
    double a = k * M_PI / 12, r[4] = {sin(a), 0, 0, cos(a)};
    times[k] = t[k];
    set_trs(&m->frames[2 * k], 0, 0, 0, id, 1);
    set_trs(&m->frames[2 * k + 1], 0, 0.1 * k, 0, r, 1);
  }
  m->frame_times = times;
  m->frame_space = MODEL_FRAMES_BIND;
}

static double rot_diff(const double a[4], const double b[4])
{
  double p = 0, q = 0;
  for (int i = 0; i < 4; i++) {
    p = fmax(p, fabs(a[i] - b[i]));
    q = fmax(q, fabs(a[i] + b[i]));
  }
  return fmin(p, q);
}

int main(void)
{
  struct model m;
  struct notes nt;
  char err[200];

  { /* uniform float times: kept one per frame, 30 fps exactly, pose = base * key */
    double t[3] = {0, (float)(1 / 30.0), (float)(2 / 30.0)};
    double want_r[4] = {0.18301270189221933, 0.18301270189221933, 0.6830127018922193,
                        0.6830127018922193};
    memset(&nt, 0, sizeof nt);
    model_make(&m, t, 3);
    CHECK(model_frames_need_parent(&m), "a keyed model needs converting");
    CHECK(model_frames_to_parent(&m, NULL, on_note, &nt, err, sizeof err) == 0, "%s", err);
    CHECK(m.frame_space == MODEL_FRAMES_PARENT && !m.frame_times, "still marked");
    CHECK(m.num_frames == 3 && m.anims[0].num_frames == 3, "%u frames", m.num_frames);
    CHECK(m.anims[0].framerate == 30, "framerate %.17g", m.anims[0].framerate);
    CHECK(nt.info == 0 && nt.warning == 0, "notes %d %d: %s", nt.info, nt.warning, nt.last);
    /* bone1 at key 2: t = (0,1,0) + Rz90 (0, 0.2, 0) = (-0.2, 1, 0); r = z90 * x60 */
    CHECK(fabs(m.frames[5].t[0] + 0.2) < 1e-15 && fabs(m.frames[5].t[1] - 1) < 1e-15 &&
            fabs(m.frames[5].t[2]) < 1e-15,
          "t %g %g %g", m.frames[5].t[0], m.frames[5].t[1], m.frames[5].t[2]);
    {
      double a = M_PI / 6, want2[4] = {sin(a) * 0.70710678118654752, sin(a) * 0.70710678118654752,
                                       cos(a) * 0.70710678118654752, cos(a) * 0.70710678118654752};
      CHECK(rot_diff(m.frames[5].r, want2) < 1e-15, "r %g %g %g %g", m.frames[5].r[0],
            m.frames[5].r[1], m.frames[5].r[2], m.frames[5].r[3]);
    }
    CHECK(rot_diff(m.frames[3].r, want_r) < 1e-15, "key 1 rotation");
    CHECK(fabs(m.frames[0].t[1] - 0.5) < 1e-15, "root keeps its base pose");
    CHECK(!model_frames_need_parent(&m) &&
            model_frames_to_parent(&m, NULL, on_note, &nt, err, sizeof err) == 0 &&
            fabs(m.frames[5].t[0] + 0.2) < 1e-15,
          "a second call must change nothing");
    model_free(&m);
  }
  { /* keys on a 0.1 s grid: every key kept, frame 2 interpolated halfway, an info note */
    double t[3] = {0, 0.1, 0.3};
    memset(&nt, 0, sizeof nt);
    model_make(&m, t, 3);
    CHECK(model_frames_to_parent(&m, NULL, on_note, &nt, err, sizeof err) == 0, "%s", err);
    CHECK(m.num_frames == 4 && fabs(m.anims[0].framerate - 10) < 1e-12, "%u frames at %g",
          m.num_frames, m.anims[0].framerate);
    CHECK(nt.info == 1 && nt.warning == 0, "notes %d %d", nt.info, nt.warning);
    CHECK(fabs(m.frames[7].t[0] + 0.2) < 1e-15, "key 2 is frame 3: %g", m.frames[7].t[0]);
    CHECK(fabs(m.frames[5].t[0] + 0.15) < 1e-15, "frame 2 halfway: %g", m.frames[5].t[0]);
    model_free(&m);
  }
  { /* a requested rate the keys are not on: sampled, warned */
    double t[3] = {0, 0.1, 0.3}, rate = 24;
    memset(&nt, 0, sizeof nt);
    model_make(&m, t, 3);
    CHECK(model_frames_to_parent(&m, &rate, on_note, &nt, err, sizeof err) == 0, "%s", err);
    CHECK(m.num_frames == 8 && m.anims[0].framerate == 24, "%u frames at %g", m.num_frames,
          m.anims[0].framerate);
    CHECK(nt.warning == 1 && strstr(nt.last, "not on a 24 fps grid"), "note: %s", nt.last);
    model_free(&m);
  }
  { /* times that do not increase: one frame per key, warned */
    double t[3] = {0, 0.2, 0.1};
    memset(&nt, 0, sizeof nt);
    model_make(&m, t, 3);
    CHECK(model_frames_to_parent(&m, NULL, on_note, &nt, err, sizeof err) == 0, "%s", err);
    CHECK(m.num_frames == 3 && m.anims[0].framerate > 0, "%u frames at %g", m.num_frames,
          m.anims[0].framerate);
    CHECK(nt.warning == 1 && strstr(nt.last, "do not increase"), "note: %s", nt.last);
    model_free(&m);
  }
  { /* sampling beyond the cap: keys kept at the average rate, warned */
    double t[3] = {0, 1e-4, 1000};
    memset(&nt, 0, sizeof nt);
    model_make(&m, t, 3);
    CHECK(model_frames_to_parent(&m, NULL, on_note, &nt, err, sizeof err) == 0, "%s", err);
    CHECK(m.num_frames == 3 && fabs(m.anims[0].framerate - 2.0 / 1000) < 1e-12, "%u frames at %g",
          m.num_frames, m.anims[0].framerate);
    CHECK(nt.warning == 1 && strstr(nt.last, "too many frames"), "note: %s", nt.last);
    model_free(&m);
  }
  { /* a non-uniform base scale under a turning key: shear, noted */
    double t[2] = {0, 0.5};
    memset(&nt, 0, sizeof nt);
    model_make(&m, t, 2);
    model_rest_mut(&m, 1)->s[1] = 2;
    CHECK(model_frames_to_parent(&m, NULL, on_note, &nt, err, sizeof err) == 0, "%s", err);
    CHECK(nt.warning == 1 && strstr(nt.last, "shear"), "note: %s", nt.last);
    model_free(&m);
  }
  { /* poses that are not one per joint cannot be relative to the base pose */
    double t[2] = {0, 0.5};
    model_make(&m, t, 2);
    m.num_joints = 1;
    CHECK(model_frames_to_parent(&m, NULL, NULL, NULL, err, sizeof err) < 0 && err[0],
          "accepted %u poses for %u joints", m.num_poses, m.num_joints);
    model_free(&m);
  }
  if (fails)
    printf("%d failure(s)\n", fails);
  else
    printf("model_frames_to_parent: all checks passed\n");
  return fails ? 1 : 0;
}
