/* path_key.c - canonical paths for matching saved reports against this run. */
#define _GNU_SOURCE
#include "grow.h"
#include "oom.h"
#include "path_key.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *dup_or_abort(const char *s)
{
  char *p = strdup(s);
  if (!p)
    oom_exit();
  return p;
}

/* base + "/" + path with ".", ".." and repeated slashes folded, without touching the file
 * system (the file may not exist). base is absolute; so is the result. */
static char *lexical_join(const char *base, const char *path)
{
  size_t cap = strlen(base) + strlen(path) + 3;
  char *out = malloc(cap), *src = malloc(cap), *save = NULL;
  size_t n = 0;
  if (!out || !src)
    oom_exit();
  snprintf(src, cap, "%s/%s", path[0] == '/' ? "" : base, path);
  for (char *part = strtok_r(src, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
    if (!strcmp(part, "."))
      continue;
    if (!strcmp(part, "..")) {
      while (n > 0 && out[n - 1] != '/')
        n--;
      if (n > 0)
        n--; /* the slash before the dropped component */
      continue;
    }
    out[n++] = '/';
    memcpy(out + n, part, strlen(part));
    n += strlen(part);
  }
  if (n == 0)
    out[n++] = '/';
  out[n] = 0;
  free(src);
  return out;
}

char *path_resolve(const char *path)
{
  char *real = realpath(path, NULL);
  if (!real && errno == ENOMEM)
    oom_exit();
  return real;
}

static char *working_dir(void)
{
  char *cwd = getcwd(NULL, 0);
  if (!cwd && errno == ENOMEM)
    oom_exit(); /* "/" would be a wrong reading of every relative path */
  return cwd ? cwd : dup_or_abort("/");
}

/* The canonical path of base/path when that file exists, else NULL. */
static char *existing(const char *base, const char *path)
{
  char *joined = lexical_join(base, path);
  char *real = path_resolve(joined);
  free(joined);
  return real;
}

char *path_key_here(const char *path)
{
  char *cwd, *key;
  if (!strcmp(path, "-"))
    return dup_or_abort("-");
  if ((key = path_resolve(path)) != NULL)
    return key;
  cwd = working_dir();
  key = lexical_join(cwd, path);
  free(cwd);
  return key;
}

char *path_key_saved(const char *path, const char *report_path)
{
  char *cwd, *dir = NULL, *key = NULL;
  if (!strcmp(path, "-"))
    return dup_or_abort("-");
  if (path[0] == '/')
    return path_key_here(path);
  cwd = working_dir();
  if (strcmp(report_path, "-")) {
    char *real = path_resolve(report_path);
    if (real) {
      char *slash = strrchr(real, '/');
      slash[slash == real ? 1 : 0] = 0; /* its directory */
      dir = real;
    }
  }
  /* the report's directory, then its ancestors up to the root */
  while (dir && !key) {
    char *slash;
    key = existing(dir, path);
    if (key || !strcmp(dir, "/"))
      break;
    slash = strrchr(dir, '/');
    slash[slash == dir ? 1 : 0] = 0;
  }
  free(dir);
  if (!key && !(key = existing(cwd, path)))
    key = lexical_join(cwd, path);
  free(cwd);
  return key;
}
