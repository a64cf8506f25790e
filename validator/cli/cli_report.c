/* cli_report.c - the one report dispatcher: every subcommand that reports diagnostics writes
 * them through here, so every output format (-f) works with every subcommand. */
#include <string.h>

#include "cli.h"
#include "oom.h"
#include "report_tool.h"

struct report_file *cli_add_file(struct report *r, const char *path)
{
  struct report_file *f = report_add_file(r, path);
  if (!f)
    oom_exit();
  return f;
}

void cli_report_whole(const struct report *r)
{
  if (report_out_of_memory(r))
    oom_exit();
}

void cli_report(const struct cli *c, FILE *out, const struct report *r)
{
  cli_report_whole(r);
  switch (c->output) {
  case OUT_JSON: report_write_json(out, r); break;
  case OUT_SARIF: report_write_sarif(out, r); break;
  case OUT_GITHUB: report_write_github(out, r); break;
  default:
    report_write_text(out, r, cli_text_flags(c, out));
    if (r->nfiles > 1 && !c->quiet && c->command && !strcmp(c->command, "validate"))
      report_write_summary(out, r);
    break;
  }
}
