/* cli_report.c - the one report dispatcher: every subcommand that reports diagnostics writes
 * them through here, so every output format (-f) works with every subcommand. */
#include <string.h>

#include "cli.h"

void cli_report(const struct cli *c, FILE *out, const struct report *r)
{
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
