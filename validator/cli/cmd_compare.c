/* cmd_compare.c - `mdlcheck compare A B`: the arguments, the two decodes and the report around
 * the core comparator (core/model_compare.h), which says what agreeing means. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "model_compare.h"
#include "pipeline.h"

struct side {
  struct compare_side cs;
  struct mdl_input in;
  struct pipeline_run run;
  int opened;
};

static void compare_note(void *user, const char *path, enum frames_note_level level, const char *msg)
{
  const struct cli *cl = user;
  if (level == FRAMES_INFO && cl->quiet)
    return;
  fprintf(stderr, "mdlcheck: compare: %s: %s: %s\n", level == FRAMES_INFO ? "note" : "warning", path,
          msg);
}

/* Decode one side; 0, 1 when it does not decode (a diagnostic says so), -1 when unreadable. */
static int side_open(struct diag_sink *sink, struct side *s, const char *path, const struct cli *cl)
{
  mdl_options o = cl->lib;
  char why[128];
  int err = input_open(path, &s->in, cl->lib.max_input_size);
  s->cs.path = path;
  if (err) {
    fprintf(stderr, "mdlcheck: compare: cannot read %s: %s\n", path,
            input_error_text(err, cl->lib.max_input_size, why, sizeof why));
    return -1;
  }
  s->opened = 1;
  o.on_diag = NULL; /* validation findings belong to `mdlcheck validate` */
  o.user = NULL;
  o.max_issues = 0;
  if (pipeline_decode(s->in.data, s->in.size, path, &o, 1, &s->run) == MDL_EIO) {
    fprintf(stderr, "mdlcheck: compare: cannot read %s: the text it decompresses to is larger than "
            "the input size limit of %llu bytes (--max-input-size)\n", path, input_limit(&o));
    return -1;
  }
  s->cs.data = s->in.data;
  s->cs.size = s->in.size;
  s->cs.format = s->run.format;
  s->cs.model = &s->run.model;
  if (!s->run.format || !s->run.decoded) {
    struct mdl_loc loc = loc_none();
    diag_emit(sink, RULE_CORE_COMPARE_UNREADABLE, &loc,
              s->run.format ? "its decoder gave up (run mdlcheck validate on it)" : "its format is not recognised",
              "%s", path);
    return 1;
  }
  return 0;
}

static void side_close(struct side *s)
{
  if (!s->opened)
    return;
  pipeline_release(&s->run);
  input_close(&s->in);
}

int cmd_compare(struct cli *cl)
{
  struct side a, b;
  struct diag_sink sink;
  struct compare_result res;
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
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  memset(&res, 0, sizeof res);
  report_init(&rep);
  rep.fail_on = cl->fail_on;
  f = report_add_file(&rep, cl->args[0]);
  o.on_diag = report_collect;
  o.user = f;
  if (diag_sink_init(&sink, &o) < 0) {
    report_free(&rep);
    return EXIT_INTERNAL;
  }
  ra = side_open(&sink, &a, cl->args[0], cl);
  rb = ra < 0 ? -1 : side_open(&sink, &b, cl->args[1], cl);
  if (ra < 0 || rb < 0) {
    rc = EXIT_IO;
    diag_sink_finish(&sink);
    goto done;
  }
  if (ra == 0 && rb == 0 && model_compare(&a.cs, &b.cs, &sink, compare_note, cl, &res) < 0) {
    fprintf(stderr, "mdlcheck: compare: out of memory; the comparison is incomplete\n");
    rc = EXIT_INTERNAL;
    diag_sink_finish(&sink);
    goto done;
  }
  diag_sink_finish(&sink);
  memcpy(f->counts, sink.counts, sizeof f->counts);
  f->truncated = sink.truncated;
  snprintf(fmt, sizeof fmt, "%s vs %s", a.run.format ? a.run.format->name : "unknown",
           b.run.format ? b.run.format->name : "unknown");
  f->format = fmt;
  rc = report_file_invalid(&rep, f) ? EXIT_INVALID : EXIT_VALID;
  out = cli_open_output(cl);
  if (!out) {
    rc = EXIT_IO;
    goto done;
  }
  cli_report(cl, out, &rep);
  if (cl->output == OUT_TEXT && !cl->quiet && ra == 0 && rb == 0)
    fprintf(out, "compared with %s: %lu poses, worst %.3g of the bound%s; %lu vertices, %lu triangles matched\n",
            cl->args[1], res.poses_checked, res.worst_ratio,
            res.worst_ratio <= 1 ? " (every pose within bound)" : "", res.vertices_checked,
            res.triangles_checked);
  cli_close_output(cl, out);
done:
  side_close(&a);
  side_close(&b);
  f->format = "unknown";
  report_free(&rep);
  return rc;
}
