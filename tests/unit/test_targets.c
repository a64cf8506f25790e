/* test_targets.c - --target's checks when a frame computed as it is read (model.frame_get)
 * cannot be: an injected allocation failure of the reader ends in MDL-MEM-001 and MDL_ENOMEM,
 * any other failure in MDL_EINTERNAL, never a check that answers for the frames it skipped. */
#include <string.h>

#include "diag.h"
#include "model.h"
#include "pose.h"
#include "targets.h"
#include "unit.h"

struct seen {
  unsigned n, mem;
  char ids[8][32];
};

static void collect(const mdl_diag *d, void *user)
{
  struct seen *s = user;
  if (s->n < 8)
    snprintf(s->ids[s->n], sizeof s->ids[s->n], "%s", d->rule->id);
  s->n++;
  s->mem += !strcmp(d->rule->id, "MDL-MEM-001");
}

/* The reader's state (libyaml style: why its last read failed) and what it is made to do */
struct reader {
  mdl_status error;
  int fail_at;     /* the frame whose read fails; -1: none */
  int oom;         /* that failure is an allocation's */
  double scale;    /* every frame's scale */
  unsigned reads;
};

static struct reader rd;

static int fake_frame_get(const struct model *m, uint32_t f, uint32_t p, struct trs *out)
{
  (void)m, (void)p;
  rd.reads++;
  rd.error = MDL_OK;
  if ((int)f == rd.fail_at) {
    rd.error = rd.oom ? MDL_ENOMEM : MDL_OK;
    return -1;
  }
  trs_identity(out);
  out->s[0] = out->s[1] = out->s[2] = rd.scale;
  return 0;
}

/* darkplaces' anim-scale over a model of 1 pose and 4 frames computed by fake_frame_get */
static mdl_status run(struct seen *s, int fail_at, int oom, double scale)
{
  struct model m;
  struct model_anim an;
  int32_t parent = -1;
  mdl_options o;
  struct diag_sink sink;
  mdl_status st;
  memset(&rd, 0, sizeof rd);
  rd.fail_at = fail_at;
  rd.oom = oom;
  rd.scale = scale;
  memset(s, 0, sizeof *s);
  mdl_options_init(&o);
  o.on_diag = collect;
  o.user = s;
  o.targets = "darkplaces";
  model_init(&m);
  memset(&an, 0, sizeof an);
  an.num_frames = 4;
  m.num_anims = 1;
  m.anims = &an;
  m.num_poses = 1;
  m.pose_parents = &parent;
  m.num_frames = 4;
  m.frame_get = fake_frame_get;
  m.read_error = &rd.error;
  ck_assert_int_eq(diag_sink_init(&sink, &o), 0);
  st = targets_run(&sink, &m, "iqm", "2", 1000, &o);
  diag_sink_finish(&sink);
  m.anims = NULL;
  m.pose_parents = NULL;
  model_free(&m);
  return st;
}

START_TEST(test_frames_read)
{
  struct seen s;
  ck_assert_int_eq(run(&s, -1, 0, 1), MDL_OK);
  ck_assert_uint_eq(rd.reads, 4); /* every frame checked */
  ck_assert_uint_eq(s.n, 0);
  ck_assert_int_eq(run(&s, -1, 0, 2), MDL_OK);
  ck_assert_uint_eq(s.n, 1);
  ck_assert_str_eq(s.ids[0], "TGT-DARKPLACES-005");
}
END_TEST

START_TEST(test_frame_out_of_memory)
{
  struct seen s;
  /* the third frame's allocation fails: MDL-MEM-001, MDL_ENOMEM; no later frame read */
  ck_assert_int_eq(run(&s, 2, 1, 1), MDL_ENOMEM);
  ck_assert_uint_eq(rd.reads, 3);
  ck_assert_uint_eq(s.mem, 1);
  /* the first frame's */
  ck_assert_int_eq(run(&s, 0, 1, 1), MDL_ENOMEM);
  ck_assert_uint_eq(s.mem, 1);
}
END_TEST

START_TEST(test_frame_unreadable)
{
  struct seen s;
  /* not memory: a model that does not hold what it counts is a bug, never a pass */
  ck_assert_int_eq(run(&s, 1, 0, 1), MDL_EINTERNAL);
  ck_assert_uint_eq(rd.reads, 2);
  ck_assert_uint_eq(s.mem, 0);
}
END_TEST

START_TEST(test_read_failure_state)
{
  struct model m;
  struct trs buf;
  model_init(&m);
  m.num_poses = 1;
  m.num_frames = 1;
  m.frame_get = fake_frame_get;
  memset(&rd, 0, sizeof rd);
  rd.fail_at = 0;
  rd.oom = 1;
  /* no state to ask: a failed read is not said to be memory's */
  ck_assert_ptr_null(model_frame_get(&m, 0, 0, &buf));
  ck_assert_int_eq(model_read_failure(&m), MDL_EINTERNAL);
  m.read_error = &rd.error;
  ck_assert_ptr_null(model_frame_get(&m, 0, 0, &buf));
  ck_assert_int_eq(model_read_failure(&m), MDL_ENOMEM);
  rd.oom = 0;
  ck_assert_ptr_null(model_frame_get(&m, 0, 0, &buf));
  ck_assert_int_eq(model_read_failure(&m), MDL_EINTERNAL);
  model_free(&m);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("targets");
  TCase *t = tcase_create("frames");
  tcase_add_test(t, test_frames_read);
  tcase_add_test(t, test_frame_out_of_memory);
  tcase_add_test(t, test_frame_unreadable);
  tcase_add_test(t, test_read_failure_state);
  suite_add_tcase(s, t);
  return unit_run(s);
}
