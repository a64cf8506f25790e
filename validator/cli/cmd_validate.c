/* cmd_validate.c - validate files and print one report. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "rules_gen.h"

static void report_io_failure(struct report_file *f, int err)
{
  mdl_diag d;
  char msg[512];
  const mdl_rule *rule = mdl_rule_at(RULE_CORE_READ_FAILED);
  snprintf(msg, sizeof msg, "cannot read input: %s", strerror(err));
  memset(&d, 0, sizeof d);
  d.rule = rule;
  d.severity = MDL_FATAL;
  d.message = msg;
  d.offset = -1;
  d.path = d.expected = "";
  d.actual = strerror(err);
  report_collect(&d, f);
  f->counts[MDL_FATAL]++;
  f->io_failed = 1;
}

int cmd_validate(struct cli *c)
{
  struct report rep;
  int rc = EXIT_VALID, io = 0;
  FILE *out;

  if (c->nargs < 1) {
    fprintf(stderr, "mdlcheck: no input files (try 'mdlcheck --help')\n");
    return EXIT_USAGE;
  }
  report_init(&rep);
  rep.fail_on = c->fail_on;
  for (int i = 0; i < c->nargs; i++) {
    struct report_file *f = report_add_file(&rep, c->args[i]);
    mdl_options o = c->lib;
    mdl_result res;
    mdl_status st;
    o.on_diag = report_collect;
    o.user = f;
    errno = 0;
    st = mdl_validate_file(c->args[i], &o, &res);
    if (st == MDL_EIO) {
      report_io_failure(f, errno ? errno : EIO);
      io = 1;
      continue;
    }
    if (st != MDL_OK) {
      rc = EXIT_INTERNAL;
      continue;
    }
    report_set_result(f, &res);
    if (report_file_invalid(&rep, f) && rc == EXIT_VALID)
      rc = EXIT_INVALID;
  }
  out = cli_open_output(c);
  if (!out) {
    report_free(&rep);
    return EXIT_IO;
  }
  switch (c->output) {
  case OUT_JSON: report_write_json(out, &rep); break;
  case OUT_SARIF: report_write_sarif(out, &rep); break;
  default: report_write_text(out, &rep, c->quiet); break;
  }
  cli_close_output(c, out);
  report_free(&rep);
  if (rc == EXIT_INTERNAL)
    return rc;
  return io ? EXIT_IO : rc;
}
