/* mdlcheck.c - entry point: pick the subcommand, parse the shared options, run it. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "text_safe.h"

struct command {
  const char *name;
  int (*run)(struct cli *c);
};

static const struct command commands[] = {
#define COMMAND(name, synopsis, summary) {#name, cmd_##name},
#define OPTION(id, short, long, arg, values, commands, config, setting, python, js, parse, help, doc)
#include "options.def"
#undef OPTION
#undef COMMAND
  {NULL, NULL}
};

/* A first argument that is no existing path and reads as a word (no '/', '.', glob character
 * or option dash) is a mistyped subcommand, not a file name: `mdlcheck cnvert a b`. */
static int unknown_command(const char *arg)
{
  struct stat st;
  const struct command *near = NULL;
  size_t best = (size_t)-1;
  if (!*arg || arg[0] == '-' || strpbrk(arg, "/.*?[") || stat(arg, &st) == 0)
    return 0;
  for (const struct command *k = commands; k->name; k++) {
    size_t d = cli_word_distance(arg, k->name);
    if (d < best) {
      best = d;
      near = k;
    }
  }
  if (near && best <= 3)
    text_printf(stderr, "mdlcheck: unknown command '%s'; did you mean '%s'?\n", arg, near->name);
  else
    text_printf(stderr, "mdlcheck: unknown command '%s' (and no such file)\n", arg);
  fputs("(commands:", stderr);
  for (const struct command *k = commands; k->name; k++)
    text_printf(stderr, " %s", k->name);
  fputs("; try 'mdlcheck --help')\n", stderr);
  return 1;
}

int main(int argc, char **argv)
{
  const struct command *cmd = &commands[0];
  struct cli c;
  int first = 1, rc;

  fault_guard_install();
  if (argc > 1) {
    for (const struct command *k = commands; k->name; k++) {
      if (!strcmp(argv[1], k->name)) {
        cmd = k;
        first = 2;
      }
    }
    if (first == 1 && unknown_command(argv[1]))
      return EXIT_USAGE;
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
