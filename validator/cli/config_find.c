/* config_find.c - find the configuration file a run applies when --config names none. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "text_safe.h"

static const char *const config_names[] = {"mdlcheck.yaml", ".mdlcheck.yaml"};

static int exists(const char *dir, const char *name, char *path, size_t size)
{
  struct stat st;
  int n = snprintf(path, size, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
  return n > 0 && (size_t)n < size && stat(path, &st) == 0;
}

int config_choose(struct cli *c, int no_config, int verbose)
{
  char dir[PATH_MAX], path[PATH_MAX + 32], other[PATH_MAX + 32];
  c->verbose = verbose;
  if (c->config_path || no_config) {
    if (verbose)
      text_printf(stderr, "mdlcheck: configuration: %s\n",
              c->config_path ? c->config_path : "none (--no-config)");
    return 0;
  }
  if (!getcwd(dir, sizeof dir)) {
    if (verbose)
      text_printf(stderr, "mdlcheck: configuration: none (working directory: %s)\n", strerror(errno));
    return 0;
  }
  for (;;) {
    char *slash;
    int found = 0;
    for (size_t i = 0; i < sizeof config_names / sizeof config_names[0]; i++) {
      if (!exists(dir, config_names[i], found ? other : path, sizeof path))
        continue;
      if (found++) {
        /* which one a linter would pick is a guess; the user decides */
        text_printf(stderr, "mdlcheck: two configuration files, %s and %s; keep one, or name it "
                "with --config\n", path, other);
        return EXIT_USAGE;
      }
    }
    if (found) {
      if (!(c->config_found = strdup(path)))
        return EXIT_INTERNAL;
      c->config_path = c->config_found;
      if (verbose)
        text_printf(stderr, "mdlcheck: configuration: %s (found)\n", path);
      return 0;
    }
    /* a project's configuration lives in it: the top of its work tree ends the search */
    if (exists(dir, ".git", path, sizeof path) || !strcmp(dir, "/"))
      break;
    slash = strrchr(dir, '/');
    slash[slash == dir] = 0; /* "/a" -> "/", "/a/b" -> "/a" */
  }
  if (verbose)
    text_printf(stderr, "mdlcheck: configuration: none found (searched up to %s)\n", dir);
  return 0;
}
