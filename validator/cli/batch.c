/* batch.c - input expansion for batch runs. */
#define _GNU_SOURCE
#include "batch.h"
#include "format.h"
#include "grow.h"

#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DIR_DEPTH 64

static void push(struct file_list *l, const char *path)
{
  grow_one_or_abort(&l->paths, &l->cap, l->count, sizeof *l->paths, 64);
  l->paths[l->count] = strdup(path);
  if (!l->paths[l->count])
    abort();
  l->count++;
}

void file_list_free(struct file_list *l)
{
  for (size_t i = 0; i < l->count; i++)
    free(l->paths[i]);
  free(l->paths);
  memset(l, 0, sizeof *l);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
  return strcmp((*a)->d_name, (*b)->d_name);
}

static int skip_hidden(const struct dirent *e)
{
  return e->d_name[0] != '.';
}

static void walk(struct file_list *l, const char *dir, int depth)
{
  struct dirent **names;
  int n = scandir(dir, &names, skip_hidden, by_name);
  if (n < 0) {
    push(l, dir); /* reported as unreadable by the validator */
    return;
  }
  for (int i = 0; i < n; i++) {
    size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
    char *path = malloc(len);
    struct stat st;
    if (!path)
      abort();
    snprintf(path, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]->d_name);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      if (depth < MAX_DIR_DEPTH)
        walk(l, path, depth + 1);
    } else if (format_by_extension(path)) {
      push(l, path);
    } else {
      l->skipped++;
    }
    free(path);
    free(names[i]);
  }
  free(names);
}

int file_list_add(struct file_list *l, const char *arg)
{
  struct stat st;
  if (strcmp(arg, "-") && stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
    walk(l, arg, 0);
    return 0;
  }
  if (strcmp(arg, "-") && strpbrk(arg, "*?[") && stat(arg, &st) != 0) {
    glob_t g;
    int rc = glob(arg, 0, NULL, &g);
    if (rc == GLOB_NOMATCH) {
      fprintf(stderr, "mdlcheck: no file matches %s\n", arg);
      return -1;
    }
    if (rc == 0)
      for (size_t i = 0; i < g.gl_pathc; i++)
        file_list_add(l, g.gl_pathv[i]);
    globfree(&g);
    return rc == 0 ? 0 : -1;
  }
  push(l, arg);
  return 0;
}
