/* mdlcheck.c - entry point: pick the subcommand, parse the shared options, run it. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct command {
  const char *name;
  int (*run)(struct cli *c);
};

static const struct command commands[] = {
  {"validate", cmd_validate},
  {"poses", cmd_poses},
  {"convert", cmd_convert},
  {"compare", cmd_compare},
  {"rules", cmd_rules},
  {"diff", cmd_diff},
  {"explain", cmd_explain},
  {NULL, NULL}
};

int main(int argc, char **argv)
{
  const struct command *cmd = &commands[0];
  struct cli c;
  int first = 1, rc;

  if (argc > 1) {
    for (const struct command *k = commands; k->name; k++) {
      if (!strcmp(argv[1], k->name)) {
        cmd = k;
        first = 2;
      }
    }
  }
  c.command = cmd->name;
  rc = cli_parse(&c, argc - first + 1, argv + first - 1);
  if (rc == 0) {
    if (c.list_rules)
      rc = cmd_rules(&c);
    else
      rc = cmd->run(&c);
  } else if (rc < 0) {
    rc = EXIT_VALID; /* --help, --version */
  }
  cli_free(&c);
  return rc;
}
