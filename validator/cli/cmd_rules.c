/* cmd_rules.c - print the rule catalogue (text or JSON), all of it or the rules PATTERNs name. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "text_safe.h"

int cmd_rules(struct cli *c)
{
  const char *const *patterns = c->list_rules && c->command && strcmp(c->command, "rules") ? NULL : c->args;
  size_t npatterns = patterns ? (size_t)c->nargs : 0, n = mdl_rule_count();
  FILE *out;
  /* a pattern naming no rule is a typo, not an empty catalogue: say so before printing */
  for (size_t k = 0; k < npatterns; k++) {
    size_t hits = 0;
    for (size_t i = 0; i < n; i++)
      hits += report_rule_selected(mdl_rule_at(i), &patterns[k], 1);
    if (!hits) {
      text_printf(stderr, "mdlcheck: rules: pattern matches no catalogued rule: %s\n"
              "(a rule id, a prefix ending in *, or a format:", patterns[k]);
      for (const char *const *f = mdl_format_names(); *f; f++)
        fprintf(stderr, " %s,", *f);
      fputs(" core)\n", stderr);
      return EXIT_USAGE;
    }
  }
  out = cli_open_output(c);
  if (!out)
    return EXIT_IO;
  if (c->output == OUT_JSON) {
    report_write_rules(out, patterns, npatterns);
  } else {
    for (size_t i = 0; i < n; i++) {
      const mdl_rule *r = mdl_rule_at(i);
      if (!report_rule_selected(r, patterns, npatterns))
        continue;
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
