/* report_summary.c - the end-of-batch summary: files, verdicts, formats and versions, top rules.
 * A file that could not be checked (unreadable, past --max-memory: exit 3) has no verdict: it is
 * counted unreadable, never invalid, in the first line and in its format's alike. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "oom.h"
#include "report_tool.h"
#include "text_safe.h"

struct tally {
  char label[48];
  unsigned long files, invalid, unreadable, hits;
};

static struct tally *tally_get(struct tally **t, size_t *n, size_t *cap, const char *label)
{
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*t)[i].label, label))
      return &(*t)[i];
  grow_one_or_abort(t, cap, *n, sizeof **t, 16);
  memset(&(*t)[*n], 0, sizeof **t);
  snprintf((*t)[*n].label, sizeof (*t)[*n].label, "%s", label);
  return &(*t)[(*n)++];
}

static int by_hits(const void *a, const void *b)
{
  const struct tally *x = a, *y = b;
  if (x->files != y->files)
    return x->files < y->files ? 1 : -1;
  return strcmp(x->label, y->label);
}

void report_write_summary(FILE *out, const struct report *r)
{
  struct tally *formats = NULL, *rules;
  size_t nf = 0, cf = 0, nr = 0, ncat = mdl_rule_count();
  size_t *last_file = calloc(ncat ? ncat : 1, sizeof *last_file); /* 1 + index of the last file counted */
  unsigned long valid = 0, invalid = 0, unreadable = 0;

  rules = calloc(ncat ? ncat : 1, sizeof *rules); /* indexed by catalogue position */
  if (!rules || !last_file)
    oom_exit();
  for (size_t i = 0; i < r->nfiles; i++) {
    const struct report_file *f = &r->files[i];
    char label[48];
    struct tally *t;
    int bad = report_file_invalid(r, f);
    if (f->io_failed)
      unreadable++;
    else if (bad)
      invalid++;
    else
      valid++;
    snprintf(label, sizeof label, "%s%s%s", f->format, f->version[0] ? " " : "", f->version);
    t = tally_get(&formats, &nf, &cf, label);
    t->files++;
    t->invalid += bad && !f->io_failed;
    t->unreadable += f->io_failed != 0;
    for (size_t k = 0; k < f->nmsgs; k++) {
      size_t ri = (size_t)(f->msgs[k].rule - mdl_rule_at(0));
      if (f->msgs[k].baselined || ri >= ncat)
        continue; /* accepted problems are not what a summary should point at */
      t = &rules[ri];
      if (last_file[ri] != i + 1) { /* count each rule once per file */
        last_file[ri] = i + 1;
        t->files++;
      }
      t->hits += f->msgs[k].folded ? f->msgs[k].folded : 1;
    }
  }
  /* keep the rules that fired, labelled, at the front for sorting */
  for (size_t ri = 0; ri < ncat; ri++) {
    if (!rules[ri].files)
      continue;
    rules[nr] = rules[ri];
    snprintf(rules[nr].label, sizeof rules[nr].label, "%s", mdl_rule_at(ri)->id);
    nr++;
  }
  free(last_file);
  text_printf(out, "summary: %zu file%s, %lu valid, %lu invalid, %lu unreadable", r->nfiles,
          plural_s(r->nfiles), valid, invalid, unreadable);
  if (r->skipped)
    text_printf(out, "; %zu file%s in directories skipped (no model extension)", r->skipped,
            plural_s(r->skipped));
  fputc('\n', out);
  if (nf) /* qsort(NULL, 0, ...) is undefined behaviour */
    qsort(formats, nf, sizeof *formats, by_hits);
  for (size_t i = 0; i < nf; i++) {
    text_printf(out, "  %-12s %lu file%s, %lu invalid", formats[i].label, formats[i].files,
            plural_s(formats[i].files), formats[i].invalid);
    if (formats[i].unreadable)
      text_printf(out, ", %lu unreadable", formats[i].unreadable);
    fputc('\n', out);
  }
  if (nr)
    qsort(rules, nr, sizeof *rules, by_hits);
  if (nr)
    fputs("  top rules:", out);
  for (size_t i = 0; i < nr && i < 10; i++)
    text_printf(out, "%s %s (%lu file%s, %lu hit%s)", i ? "," : "", rules[i].label, rules[i].files,
            plural_s(rules[i].files), rules[i].hits, plural_s(rules[i].hits));
  if (nr)
    fputc('\n', out);
  free(formats);
  free(rules);
}
