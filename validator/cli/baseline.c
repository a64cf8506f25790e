/* baseline.c - the baseline as a sorted multiset of diagnostic keys, consumed as diagnostics
 * match it (that is what makes matching count-aware). */
#include "grow.h"
#include "oom.h"
#include "baseline.h"

#include <stdlib.h>
#include <string.h>

#include "path_key.h"
#include "report_read.h"

struct baseline_entry {
  const char *file, *id, *path; /* borrowed from the saved report */
  int fold;                     /* a fold summary */
  unsigned long left;           /* occurrences not matched yet */
  unsigned long folded;         /* fold summary: the most it folded */
};

struct baseline {
  struct saved_report saved;
  struct baseline_entry *entries;
  size_t count;
  size_t files_matched; /* files of the run the baseline records */
};

/* A saved report may name a rule by its former id: match it as the rule's id today. */
static const char *baseline_current_id(const char *id)
{
  const mdl_rule *r = id ? mdl_rule_find(id) : NULL;
  return r ? r->id : id;
}

static int entry_cmp(const void *a, const void *b)
{
  const struct baseline_entry *x = a, *y = b;
  int c;
  if ((c = strcmp(x->file, y->file)) != 0 || (c = strcmp(x->id, y->id)) != 0 ||
      (c = strcmp(x->path, y->path)) != 0)
    return c;
  return x->fold - y->fold;
}

struct baseline *baseline_load(const char *path, unsigned long long max_size, int *too_large,
                               char *err, size_t errcap)
{
  struct baseline *b = calloc(1, sizeof *b);
  size_t total = 0, n = 0;
  int rc;
  if (!b)
    oom_exit();
  if ((rc = saved_report_load(&b->saved, path, max_size, err, errcap)) < 0) {
    *too_large = rc == -2;
    free(b);
    return NULL;
  }
  /* recorded paths are matched as the files they name, not as spelled (path_key.h) */
  saved_report_anchor(&b->saved, path);
  for (size_t i = 0; i < b->saved.nfiles; i++)
    total += b->saved.files[i].nmsgs;
  b->entries = calloc(total ? total : 1, sizeof *b->entries);
  if (!b->entries)
    oom_exit();
  for (size_t i = 0; i < b->saved.nfiles; i++) {
    const struct saved_file *f = &b->saved.files[i];
    for (size_t k = 0; k < f->nmsgs; k++) {
      struct baseline_entry *e = &b->entries[n++];
      e->file = f->key;
      e->id = baseline_current_id(f->msgs[k].id);
      e->path = f->msgs[k].path;
      e->fold = f->msgs[k].folded > 0;
      e->folded = f->msgs[k].folded;
      e->left = 1;
    }
  }
  qsort(b->entries, n, sizeof *b->entries, entry_cmp);
  /* fold equal keys into one entry with a count */
  b->count = 0;
  for (size_t i = 0; i < n; i++) {
    struct baseline_entry *last = b->count ? &b->entries[b->count - 1] : NULL;
    if (last && entry_cmp(last, &b->entries[i]) == 0) {
      last->left++;
      if (b->entries[i].folded > last->folded)
        last->folded = b->entries[i].folded;
    } else {
      b->entries[b->count++] = b->entries[i];
    }
  }
  return b;
}

void baseline_free(struct baseline *b)
{
  if (!b)
    return;
  saved_report_free(&b->saved);
  free(b->entries);
  free(b);
}

size_t baseline_apply(struct baseline *b, struct report *r)
{
  size_t matched = 0;
  for (size_t i = 0; i < r->nfiles; i++) {
    struct report_file *f = &r->files[i];
    char *here = path_key_here(f->path);
    const struct saved_file *sf = saved_report_find(&b->saved, here, f->path);
    const char *file = sf ? sf->key : NULL;
    free(here);
    if (!sf)
      continue;
    b->files_matched++;
    for (size_t k = 0; k < f->nmsgs; k++) {
      struct report_msg *m = &f->msgs[k];
      struct baseline_entry key, *e;
      unsigned long weight = m->folded ? m->folded : 1;
      memset(&key, 0, sizeof key);
      key.file = file;
      key.id = m->rule->id;
      key.path = m->path;
      key.fold = m->folded > 0;
      e = bsearch(&key, b->entries, b->count, sizeof *b->entries, entry_cmp);
      if (!e || !e->left || (m->folded && m->folded > e->folded))
        continue;
      e->left--;
      m->baselined = 1;
      f->counts[m->severity] -= f->counts[m->severity] < weight ? f->counts[m->severity] : weight;
      matched++;
    }
  }
  return matched;
}

size_t baseline_files_matched(const struct baseline *b)
{
  return b->files_matched;
}

size_t baseline_files_recorded(const struct baseline *b)
{
  return b->saved.nfiles;
}
