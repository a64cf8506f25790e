/* cmd_poses.c - `mdlcheck poses FILE`: the skeleton, its base pose and every animation frame,
 * decoded in double precision (rotations normalised, xyzw), as JSON or text.
 *
 * A file that does not decode cleanly (any diagnostic at or above --fail-on) prints its
 * diagnostics to stderr instead, and the exit status is 1: poses of a broken file mislead. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "oom.h"
#include "input.h"
#include "num_format.h"
#include "pose.h"
#include "pose_report.h"
#include "text_safe.h"

/* Shortest text that reads back to the same double, written as people write numbers: 30, not
 * 3e+01 (as json_double). */
static void put_double(FILE *out, double v)
{
  char tmp[NUM_FORMAT_MAX];
  num_format_shortest(tmp, v, 17);
  fputs(tmp, out);
}

static void normalized_rotation(const struct trs *p, double q[4])
{
  memcpy(q, p->r, 4 * sizeof *q);
  quat_normalize(q);
}

static void text_vec(FILE *out, const char *label, const double *v, int n)
{
  text_printf(out, " %s", label);
  for (int i = 0; i < n; i++) {
    fputc(' ', out);
    put_double(out, v[i]);
  }
}

static void text_trs(FILE *out, const struct trs *p)
{
  double q[4];
  normalized_rotation(p, q);
  text_vec(out, "t", p->t, 3);
  text_vec(out, "r", q, 4);
  text_vec(out, "s", p->s, 3);
  fputc('\n', out);
}

/* 0, or -1 when a joint, an animation or a frame the model counts could not be given (nothing clean is
 * printed then; model_read_failure says why) */
static int poses_text(FILE *out, const char *path, const struct pipeline_run *run)
{
  const struct model *m = &run->model;
  struct model_joint_cursor c;
  text_printf(out, "%s: %s%s%s, %u joint%s, %u pose%s, %u animation%s, %u frame%s (relative to the %s)\n",
          path, run->result.format, run->result.version[0] ? " " : "", run->result.version,
          (unsigned)m->num_joints, plural_s(m->num_joints), (unsigned)m->num_poses,
          plural_s(m->num_poses), (unsigned)m->num_anims, plural_s(m->num_anims),
          (unsigned)m->num_frames, plural_s(m->num_frames),
          m->frame_space == MODEL_FRAMES_BIND ? "base pose" : "parent");
  model_joints_begin(&c);
  for (uint32_t j = 0; j < m->num_joints; j++) {
    if (model_joints_next(m, &c) <= 0)
      return -1;
    text_printf(out, "joint %u \"%s\" parent %d:", (unsigned)j, c.joint.name ? c.joint.name : "",
                (int)c.joint.parent);
    text_trs(out, c.rest);
  }
  for (uint32_t a = 0; a < m->num_anims; a++) {
    struct model_anim read;
    const struct model_anim *an = model_anim_get(m, a, &read);
    if (!an)
      return -1;
    text_printf(out, "animation %u \"%s\": framerate ", (unsigned)a, an->name ? an->name : "");
    put_double(out, an->framerate);
    text_printf(out, "%s, frames %u (global %u..)\n", an->flags & MODEL_ANIM_LOOP ? ", loop" : "",
            (unsigned)an->num_frames, (unsigned)an->first_frame);
    for (uint32_t f = 0; model_has_frames(m) && f < an->num_frames; f++) {
      uint64_t g = (uint64_t)an->first_frame + f;
      if (g >= m->num_frames)
        break;
      text_printf(out, "  frame %u (global %llu", (unsigned)f, (unsigned long long)g);
      if (m->frame_times) {
        text_printf(out, ", time ");
        put_double(out, m->frame_times[g]);
      }
      text_printf(out, ")\n");
      for (uint32_t p = 0; p < m->num_poses; p++) {
        struct trs buf;
        const struct trs *pose = model_frame_get(m, (uint32_t)g, p, &buf);
        const char *name = pose ? model_joint_name(m, p) : NULL;
        if (!name)
          return -1;
        text_printf(out, "    joint %u \"%s\":", (unsigned)p, name);
        text_trs(out, pose);
      }
    }
  }
  return 0;
}

int cmd_poses(struct cli *c)
{
  struct mdl_input in;
  struct pipeline_run run;
  struct report rep;
  struct report_file *f;
  int err, rc = EXIT_VALID;
  mdl_status st;
  FILE *out;

  if (c->nargs != 1) {
    text_printf(stderr, "mdlcheck: poses takes exactly one FILE (try 'mdlcheck --help')\n");
    return EXIT_USAGE;
  }
  if (c->output == OUT_SARIF) {
    text_printf(stderr, "mdlcheck: poses prints json or text\n");
    return EXIT_USAGE;
  }
  fault_guard_input(c->args[0], NULL);
  if ((err = input_open(c->args[0], &in, c->lib.max_input_size)) != 0) {
    char why[128];
    if (err == ENOMEM)
      oom_exit(); /* memory, not the file: exit 70, not 3 */
    text_printf(stderr, "mdlcheck: cannot read %s: %s\n", c->args[0],
            input_error_text(err, c->lib.max_input_size, why, sizeof why));
    return EXIT_IO;
  }
  report_init(&rep);
  rep.fail_on = c->fail_on;
  f = cli_add_file(&rep, c->args[0]);
  st = poses_decode(&in, c->args[0], &c->lib, &rep, f, &run);
  if (st == MDL_ENOMEM)
    oom_exit();
  if (st == MDL_EIO || st == MDL_EDECODE) { /* EIO: an inner input over --max-input-size */
    report_write_text(stderr, &rep, cli_text_flags(c, stderr) & ~REPORT_TEXT_QUIET);
    rc = st == MDL_EIO ? EXIT_IO : EXIT_INVALID;
    goto done;
  }
  if (st != MDL_OK) { /* a bug (MDL_EINTERNAL: a --target check could not read the model) */
    text_printf(stderr, "mdlcheck: %s: internal error: the poses could not be checked to the end\n",
                c->args[0]);
    rc = EXIT_INTERNAL;
    goto done;
  }
  out = cli_open_output(c);
  if (!out) {
    rc = EXIT_IO;
    goto done;
  }
  if ((c->output == OUT_JSON ? poses_write_json(out, c->args[0], &run) < 0
                              : poses_text(out, c->args[0], &run) < 0) && !ferror(out)) {
    /* a joint, animation or frame computed as it is printed (model.joint_walk, anim_get,
     * frame_get) could not be: for want of memory, the out-of-memory exit of every other path;
     * else a bug */
    if (model_read_failure(&run.model) == MDL_ENOMEM)
      oom_exit();
    text_printf(stderr, "mdlcheck: %s: a joint of the model could not be read back\n", c->args[0]);
    rc = EXIT_INTERNAL;
  } else if (ferror(out)) {
    rc = EXIT_IO;
  }
  cli_close_output(c, out);
done:
  pipeline_release(&run);
  report_free(&rep);
  input_close(&in);
  return rc;
}
