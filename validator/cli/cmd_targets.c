/* cmd_targets.c - list the real loaders --target can check for (text or JSON). */
#include <stdio.h>

#include "cli.h"
#include "targets.h"

int cmd_targets(struct cli *c)
{
  FILE *out;
  char why[200];
  /* a target rule naming a check the library lacks would check nothing: never list it as usable */
  if (targets_self_check(why, sizeof why) < 0) {
    fprintf(stderr, "mdlcheck: targets: %s\n", why);
    return EXIT_INTERNAL;
  }
  if (!(out = cli_open_output(c)))
    return EXIT_IO;
  if (c->output == OUT_JSON) {
    report_write_targets(out);
  } else {
    for (size_t i = 0; i < mdl_target_count(); i++) {
      const mdl_target *t = mdl_target_at(i);
      size_t n = 0;
      for (const struct target_rule *r = target_rule_table; r->rule != RULE_COUNT; r++)
        n += r->target == i;
      fprintf(out, "%-12s %s\n%-12s versions %s; reads %s; %zu rules; source %s at %s\n%-12s run: %s\n",
              t->name, t->loader, "", t->versions, t->formats, n, t->repository, t->commit, "", t->run);
    }
  }
  cli_close_output(c, out);
  return EXIT_VALID;
}
