/* cmd_compare.c - `mdlcheck compare A B`: the arguments and the report around core's compare_run
 * (core/compare_run.h; core/model_compare.h says what agreeing means). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "compare_run.h"
#include "text_safe.h"

static void compare_note(void *user, const char *path, enum frames_note_level level, const char *msg)
{
  const struct cli *cl = user;
  if (level == FRAMES_INFO && cl->quiet)
    return;
  text_printf(stderr, "mdlcheck: compare: %s: %s: %s\n", level == FRAMES_INFO ? "note" : "warning", path,
          msg);
}

int cmd_compare(struct cli *cl)
{
  struct compare_input in[2];
  struct compare_run cr;
  struct report rep;
  struct report_file *f;
  int rc;
  mdl_status st;
  FILE *out;

  if (cl->nargs != 2) {
    text_printf(stderr, "mdlcheck: compare takes two files (try 'mdlcheck --help')\n");
    return EXIT_USAGE;
  }
  memset(in, 0, sizeof in);
  in[0].path = cl->args[0];
  in[1].path = cl->args[1];
  report_init(&rep);
  rep.fail_on = cl->fail_on;
  f = cli_add_file(&rep, cl->args[0]);
  fault_guard_input(in[0].path, in[1].path);
  st = compare_run(&cr, in, &cl->lib, compare_note, cl, f);
  if (st != MDL_OK) {
    if (st == MDL_EIO)
      text_printf(stderr, "mdlcheck: compare: %s\n", cr.error);
    else if (st == MDL_ENOMEM)
      text_printf(stderr, "mdlcheck: compare: out of memory; the comparison is incomplete\n");
    report_free(&rep);
    return st == MDL_EIO ? EXIT_IO : EXIT_INTERNAL;
  }
  /* io_failed: a side past --max-memory (MDL-MEM-002), not compared: exit 3, never a verdict */
  rc = f->io_failed ? EXIT_IO : report_file_invalid(&rep, f) ? EXIT_INVALID : EXIT_VALID;
  out = cli_open_output(cl);
  if (!out) {
    rc = EXIT_IO;
    goto done;
  }
  cli_report(cl, out, &rep);
  if (cl->output == OUT_TEXT && !cl->quiet && cr.compared)
    text_printf(out, "compared with %s: %lu pose%s, worst %.3g of the bound%s; %lu vert%s, %lu triangle%s matched\n",
            cl->args[1], cr.res.poses_checked, plural_s(cr.res.poses_checked), cr.res.worst_ratio,
            cr.res.worst_ratio <= 1 ? " (every pose within bound)" : "", cr.res.vertices_checked,
            cr.res.vertices_checked == 1 ? "ex" : "ices", cr.res.triangles_checked,
            plural_s(cr.res.triangles_checked));
  cli_close_output(cl, out);
done:
  report_free(&rep);
  return rc;
}
