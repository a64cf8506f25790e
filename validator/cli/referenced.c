/* referenced.c - external eggs as inputs of their own, and the files nothing names
 * (--unreferenced). Files are compared by real path, so "a/../b.png" and "b.png" are one. */
#define _GNU_SOURCE
#include "referenced.h"
#include "cli.h"
#include "grow.h"
#include "oom.h"
#include "path_key.h"

#include <fts.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct path_set {
  char **v;
  size_t n, cap;
};

static void set_add(struct path_set *s, const char *path)
{
  char *real = path_resolve(path);
  if (!real)
    return; /* nothing there: it cannot be one of the files met later either */
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    char **v = realloc(s->v, cap * sizeof *v);
    if (!v)
      oom_exit();
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = real;
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void set_sort(struct path_set *s)
{
  if (s->n > 1)
    qsort(s->v, s->n, sizeof *s->v, cmp_str);
}

/* Whether path (a real path) is in the sorted set. */
static int set_has(const struct path_set *s, const char *real)
{
  return s->n && bsearch(&real, s->v, s->n, sizeof *s->v, cmp_str) != NULL;
}

static void set_free(struct path_set *s)
{
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i]);
  free(s->v);
}

static int res_usable(const struct report_resource *x)
{
  return x->resolved_path[0] && strcmp(x->status, "unreadable");
}

size_t externals_queue(struct report *rep, char *const *elsewhere, size_t n_elsewhere)
{
  struct path_set inputs = {0};
  size_t added = 0, n = rep->nfiles;
  int any = 0;
  for (size_t i = 0; i < n && !any; i++)
    for (size_t k = 0; k < rep->files[i].nres; k++)
      any |= !strcmp(rep->files[i].res[k].kind, "model") && res_usable(&rep->files[i].res[k]);
  if (!any)
    return 0;
  for (size_t i = 0; i < n; i++)
    set_add(&inputs, rep->files[i].path);
  for (size_t i = 0; i < n_elsewhere; i++)
    set_add(&inputs, elsewhere[i]); /* its own shard validates it: once across the run */
  set_sort(&inputs);
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < rep->files[i].nres; k++) {
      const struct report_resource *x = &rep->files[i].res[k];
      char *real;
      if (strcmp(x->kind, "model") || !res_usable(x) || !(real = path_resolve(x->resolved_path)))
        continue;
      if (!set_has(&inputs, real)) {
        char *path = strdup(x->resolved_path); /* rep->files may move: x with it */
        if (!path)
          oom_exit();
        cli_add_file(rep, path);
        free(path);
        set_add(&inputs, rep->files[rep->nfiles - 1].path);
        set_sort(&inputs);
        added++;
      }
      free(real);
    }
  set_free(&inputs);
  return added;
}

void unreferenced_list(struct report *rep, const char *const *args, int nargs)
{
  struct path_set named = {0};
  rep->unreferenced_listed = 1;
  for (size_t i = 0; i < rep->nfiles; i++) {
    set_add(&named, rep->files[i].path);
    for (size_t k = 0; k < rep->files[i].nres; k++)
      if (rep->files[i].res[k].resolved_path[0])
        set_add(&named, rep->files[i].res[k].resolved_path);
  }
  set_sort(&named);
  for (int a = 0; a < nargs; a++) {
    struct stat st;
    char *roots[2] = {(char *)args[a], NULL};
    FTS *fts;
    FTSENT *e;
    if (stat(args[a], &st) != 0 || !S_ISDIR(st.st_mode))
      continue;
    /* physical: a link is not a file of the folder, and nothing is reached twice through one */
    if (!(fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL)))
      continue;
    while ((e = fts_read(fts)) != NULL) {
      char *real;
      if (e->fts_level > 0 && e->fts_name[0] == '.') {
        if (e->fts_info == FTS_D)
          fts_set(fts, e, FTS_SKIP);
        continue;
      }
      if (e->fts_info != FTS_F || !(real = path_resolve(e->fts_path)))
        continue;
      if (!set_has(&named, real))
        if (report_add_unreferenced(rep, e->fts_path) < 0)
          oom_exit();
      free(real);
    }
    fts_close(fts);
  }
  set_free(&named);
}
