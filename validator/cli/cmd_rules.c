/* cmd_rules.c - print the rule catalogue (text or JSON). */
#include <stdio.h>

#include "cli.h"
#include "text_safe.h"

int cmd_rules(struct cli *c)
{
  FILE *out = cli_open_output(c);
  size_t n = mdl_rule_count();
  if (!out)
    return EXIT_IO;
  if (c->output == OUT_JSON) {
    report_write_rules(out);
  } else {
    for (size_t i = 0; i < n; i++) {
      const mdl_rule *r = mdl_rule_at(i);
      text_printf(out, "%-12s %-8s %-5s %s  [%s; %s]", r->id, mdl_severity_name(r->severity), r->format,
              r->text, r->source, r->versions);
      if (r->alias[0])
        text_printf(out, " (alias %s)", r->alias);
      fputc('\n', out);
    }
  }
  cli_close_output(c, out);
  return EXIT_VALID;
}
