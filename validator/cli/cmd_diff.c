/* cmd_diff.c - `mdlcheck diff OLD.json NEW.json`: what changed between two JSON reports, per
 * file: new, fixed and changed diagnostics.
 *
 * Diagnostics match on (file, rule id, structural path), as baselines do: never on offset
 * or line, so data that merely moved is not reported. Matching counts: within one key, identical
 * diagnostics (same severity and message) pair first, the rest pair in order as "changed", and
 * what is left is new (only in NEW) or fixed (only in OLD). Fold summaries match fold summaries,
 * so compare reports made with the same --max-per-rule (0 folds nothing). Only in OLD is not
 * fixed where NEW's check of the file stopped before its end (a fatal: MDL-MEM-002 at the memory
 * bound, MDL-MEM-001, an unreadable file, a decoder's fatal), where NEW kept only the first of its
 * messages ("truncated": --max-issues), or where NEW has no entry for the file at all: those are
 * "unchecked", as nothing says they are gone (rule 1: no clean word without positive evidence).
 * Exit: 1 when a new diagnostic is an error or fatal (or a changed one became one), else 0;
 * 2 when a report cannot be read. Files match as the files their paths name (path_key.h), so
 * reports made from different directories compare; reports that share no file get a warning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grow.h"
#include "oom.h"
#include "json_write.h"
#include "report_read.h"
#include "text_safe.h"

enum change_kind { CH_NEW, CH_FIXED, CH_CHANGED, CH_UNCHECKED };
static const char *const kind_names[] = {"new", "fixed", "changed", "unchecked"};
#define CH_KINDS 4

struct change {
  enum change_kind kind;
  const char *file;
  const struct saved_msg *old, *cur; /* old: fixed/changed; cur: new/changed */
};

struct change_list {
  struct change *v;
  size_t n, cap;
};

static void change_add(struct change_list *l, enum change_kind kind, const char *file,
                       const struct saved_msg *old, const struct saved_msg *cur)
{
  grow_one_or_abort(&l->v, &l->cap, l->n, sizeof *l->v, 32);
  l->v[l->n++] = (struct change){kind, file, old, cur};
}

/* The matching key: rule id and structural path; a fold summary only matches a fold summary. */
static int key_cmp(const struct saved_msg *a, const struct saved_msg *b)
{
  int c = strcmp(a->id, b->id);
  if (c == 0)
    c = strcmp(a->path, b->path);
  return c ? c : (a->folded > 0) - (b->folded > 0);
}

/* qsort on pointers: key, then severity and message, so identical ones line up in a group */
static int msg_ptr_cmp(const void *pa, const void *pb)
{
  const struct saved_msg *a = *(const struct saved_msg *const *)pa;
  const struct saved_msg *b = *(const struct saved_msg *const *)pb;
  int c = key_cmp(a, b);
  if (c)
    return c;
  if (a->severity != b->severity)
    return a->severity < b->severity ? -1 : 1;
  c = strcmp(a->message, b->message);
  if (c)
    return c;
  return a < b ? -1 : a > b; /* stable: keep report order */
}

static const struct saved_msg **sorted_msgs(const struct saved_file *f)
{
  const struct saved_msg **v = calloc(f && f->nmsgs ? f->nmsgs : 1, sizeof *v);
  if (!v)
    oom_exit();
  for (size_t i = 0; f && i < f->nmsgs; i++)
    v[i] = &f->msgs[i];
  if (f)
    qsort(v, f->nmsgs, sizeof *v, msg_ptr_cmp);
  return v;
}

/* One key's group in each report: pair identical ones, then the rest in order; what only OLD has
 * is fixed, or unchecked when NEW's check of the file stopped (stopped). */
static void diff_group(struct change_list *l, const char *file, const struct saved_msg **o,
                       size_t no, const struct saved_msg **c, size_t nc, int stopped)
{
  const struct saved_msg **lo = calloc(no + 1, sizeof *lo), **lc = calloc(nc + 1, sizeof *lc);
  size_t i = 0, k = 0, nlo = 0, nlc = 0;
  if (!lo || !lc)
    oom_exit();
  while (i < no && k < nc) {
    int d = o[i]->severity != c[k]->severity ? (o[i]->severity < c[k]->severity ? -1 : 1)
                                            : strcmp(o[i]->message, c[k]->message);
    if (d == 0) {
      i++;
      k++;
    } else if (d < 0) {
      lo[nlo++] = o[i++];
    } else {
      lc[nlc++] = c[k++];
    }
  }
  while (i < no)
    lo[nlo++] = o[i++];
  while (k < nc)
    lc[nlc++] = c[k++];
  for (i = 0; i < nlo || i < nlc; i++) {
    if (i < nlo && i < nlc)
      change_add(l, CH_CHANGED, file, lo[i], lc[i]);
    else if (i < nlo)
      change_add(l, stopped ? CH_UNCHECKED : CH_FIXED, file, lo[i], NULL);
    else
      change_add(l, CH_NEW, file, NULL, lc[i]);
  }
  free(lo);
  free(lc);
}

static void diff_file(struct change_list *l, const char *path, const struct saved_file *of,
                      const struct saved_file *nf)
{
  const struct saved_msg **o = sorted_msgs(of), **c = sorted_msgs(nf);
  size_t no = of ? of->nmsgs : 0, nc = nf ? nf->nmsgs : 0, i = 0, k = 0;
  /* NEW did not look at the whole file: no entry for it, its messages cut at --max-issues, or
   * its check stopped before the end (a fatal) */
  int stopped = !nf || nf->truncated;
  for (size_t m = 0; m < nc; m++)
    stopped |= nf->msgs[m].severity == MDL_FATAL;
  while (i < no || k < nc) {
    size_t gi = i, gk = k;
    const struct saved_msg *key = i < no && (k >= nc || key_cmp(o[i], c[k]) <= 0) ? o[i] : c[k];
    while (gi < no && key_cmp(o[gi], key) == 0)
      gi++;
    while (gk < nc && key_cmp(c[gk], key) == 0)
      gk++;
    diff_group(l, path, o + i, gi - i, c + k, gk - k, stopped);
    i = gi;
    k = gk;
  }
  free(o);
  free(c);
}

/* By key (saved_report_anchor): two reports name one file however each run spelled it. */
static const struct saved_file *find_file(const struct saved_report *r, const struct saved_file *f)
{
  return saved_report_find(r, f->key, f->path);
}

static int is_error(const struct saved_msg *m)
{
  return m && m->severity <= MDL_ERROR;
}

/* A change that gates: a new error, a diagnostic that became an error, or a fold summary of
 * errors that now stands for more of them. */
static int new_error(const struct change *ch)
{
  return (ch->kind == CH_NEW && is_error(ch->cur)) ||
         (ch->kind == CH_CHANGED && is_error(ch->cur) &&
          (!is_error(ch->old) || ch->cur->folded > ch->old->folded));
}

static void write_location(FILE *out, const struct saved_msg *m)
{
  if (m->line)
    text_printf(out, ":%u:%u", m->line, m->column ? m->column : 1);
  else if (m->offset >= 0)
    text_printf(out, ":%lld", m->offset);
}

static void write_text(FILE *out, const struct change_list *l, const size_t tally[CH_KINDS], size_t errors)
{
  for (size_t i = 0; i < l->n; i++) {
    const struct change *ch = &l->v[i];
    const struct saved_msg *m = ch->cur ? ch->cur : ch->old;
    text_printf(out, "%-8s %s", kind_names[ch->kind], ch->file);
    write_location(out, m);
    if (ch->kind == CH_CHANGED && ch->old->severity != ch->cur->severity)
      text_printf(out, ": %s -> %s[%s]: ", mdl_severity_name(ch->old->severity),
              mdl_severity_name(m->severity), m->id);
    else
      text_printf(out, ": %s[%s]: ", mdl_severity_name(m->severity), m->id);
    text_put(out, m->message);
    if (ch->kind == CH_CHANGED && strcmp(ch->old->message, ch->cur->message))
      text_printf(out, " (was: %s)", ch->old->message);
    if (m->path[0])
      text_printf(out, " [%s]", m->path);
    fputc('\n', out);
  }
  text_printf(out, "diff: %zu new (%zu error%s or fatal), %zu fixed, %zu changed", tally[CH_NEW],
          errors, errors == 1 ? "" : "s", tally[CH_FIXED], tally[CH_CHANGED]);
  if (tally[CH_UNCHECKED])
    text_printf(out, ", %zu unchecked (not seen by the new check: stopped, cut at --max-issues or not run)", tally[CH_UNCHECKED]);
  fputc('\n', out);
}

static void json_msg(struct json_writer *w, const char *key, const struct saved_msg *m)
{
  json_key(w, key);
  json_object_begin(w);
  json_kv_string(w, "severity", mdl_severity_name(m->severity));
  json_kv_string(w, "message", m->message);
  report_json_location(w, m->line, m->column, m->offset);
  json_object_end(w);
}

static void write_json(FILE *out, const struct change_list *l, const size_t tally[CH_KINDS], size_t errors,
                       const char *oldp, const char *newp)
{
  struct json_writer w;
  json_init(&w, out, 1);
  json_object_begin(&w);
  json_kv_string(&w, "old", oldp);
  json_kv_string(&w, "new", newp);
  json_key(&w, "summary");
  json_object_begin(&w);
  json_kv_uint(&w, "new", tally[CH_NEW]);
  json_kv_uint(&w, "new_errors", errors);
  json_kv_uint(&w, "fixed", tally[CH_FIXED]);
  json_kv_uint(&w, "changed", tally[CH_CHANGED]);
  json_kv_uint(&w, "unchecked", tally[CH_UNCHECKED]);
  json_object_end(&w);
  json_key(&w, "changes");
  json_array_begin(&w);
  for (size_t i = 0; i < l->n; i++) {
    const struct change *ch = &l->v[i];
    const struct saved_msg *m = ch->cur ? ch->cur : ch->old;
    json_object_begin(&w);
    json_kv_string(&w, "kind", kind_names[ch->kind]);
    json_kv_string(&w, "file", ch->file);
    json_kv_string(&w, "id", m->id);
    json_kv_string(&w, "path", m->path);
    if (ch->old)
      json_msg(&w, "before", ch->old);
    if (ch->cur)
      json_msg(&w, "after", ch->cur);
    json_object_end(&w);
  }
  json_array_end(&w);
  json_object_end(&w);
  json_end(&w);
}

/* A Markdown table cell, for a job summary: the text reads as text. '|' would end the cell; '<',
 * '>' and '&' would open HTML (an <img> that loads from anywhere, a <details> that hides rows) or
 * an autolink, "](" a link or an image, '`' code, a backslash an escape of what follows; line
 * breaks and other control characters are shown as every text output shows them (text_safe.h).
 * In a code cell (file, path) only '|' and '`' matter: the cell ends at a '`'. */
static void md_cell(FILE *out, const char *s, int code)
{
  const char *start = s;
  fputs(code ? " `" : " ", out);
  while (*s) {
    size_t n = strcspn(s, code ? "|`" : "|`\\<>&(");
    char c;
    text_write(out, s, n);
    s += n;
    if (!*s)
      break;
    switch (c = *s++) {
    case '|': fputs("\\|", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '&': fputs("&amp;", out); break;
    case '(': /* a link's target follows its "]" */
      fputs(s - 1 > start && s[-2] == ']' ? "\\(" : "(", out);
      break;
    default:
      if (code) { /* '`' */
        fputc('\'', out);
      } else {
        fputc('\\', out);
        fputc(c, out);
      }
      break;
    }
  }
  fputs(code ? "` |" : " |", out);
}

static void write_markdown(FILE *out, const struct change_list *l, const size_t tally[CH_KINDS],
                           size_t errors)
{
  text_printf(out, "**%zu new** (%zu error%s or fatal), %zu fixed, %zu changed", tally[CH_NEW],
          errors, errors == 1 ? "" : "s", tally[CH_FIXED], tally[CH_CHANGED]);
  if (tally[CH_UNCHECKED])
    text_printf(out, ", %zu unchecked (not seen by the new check: stopped, cut at --max-issues or not run)", tally[CH_UNCHECKED]);
  fputs("\n\n", out);
  if (!l->n)
    return;
  fputs("| Change | File | Rule | Severity | Path | Message |\n"
        "| --- | --- | --- | --- | --- | --- |\n", out);
  for (size_t i = 0; i < l->n; i++) {
    const struct change *ch = &l->v[i];
    const struct saved_msg *m = ch->cur ? ch->cur : ch->old;
    char sev[32];
    if (ch->kind == CH_CHANGED && ch->old->severity != ch->cur->severity)
      snprintf(sev, sizeof sev, "%s → %s", mdl_severity_name(ch->old->severity),
               mdl_severity_name(ch->cur->severity));
    else
      snprintf(sev, sizeof sev, "%s", mdl_severity_name(m->severity));
    fputc('|', out);
    md_cell(out, kind_names[ch->kind], 0);
    md_cell(out, ch->file, 1);
    md_cell(out, m->id, 0);
    md_cell(out, sev, 0);
    md_cell(out, m->path, 1);
    md_cell(out, m->message, 0);
    fputc('\n', out);
  }
}

int cmd_diff(struct cli *c)
{
  struct saved_report old, cur;
  struct change_list changes = {0};
  size_t tally[CH_KINDS] = {0, 0, 0, 0}, errors = 0, shared = 0;
  char why[600];
  int rc;
  FILE *out;

  if (c->nargs != 2) {
    text_printf(stderr, "mdlcheck: diff takes two JSON reports: OLD.json NEW.json\n");
    return EXIT_USAGE;
  }
  if (c->output == OUT_SARIF || c->output == OUT_GITHUB) {
    text_printf(stderr, "mdlcheck: diff writes text, json or markdown\n");
    return EXIT_USAGE;
  }
  if ((rc = saved_report_load(&old, c->args[0], c->lib.max_input_size, why, sizeof why)) < 0) {
    text_printf(stderr, "mdlcheck: diff: %s\n", why);
    return rc == -2 ? EXIT_IO : EXIT_USAGE;
  }
  if ((rc = saved_report_load(&cur, c->args[1], c->lib.max_input_size, why, sizeof why)) < 0) {
    text_printf(stderr, "mdlcheck: diff: %s\n", why);
    saved_report_free(&old);
    return rc == -2 ? EXIT_IO : EXIT_USAGE;
  }
  saved_report_anchor(&old, c->args[0]);
  saved_report_anchor(&cur, c->args[1]);
  /* files in NEW's order, then those only OLD has */
  for (size_t i = 0; i < cur.nfiles; i++) {
    const struct saved_file *of = find_file(&old, &cur.files[i]);
    shared += of != NULL;
    diff_file(&changes, cur.files[i].path, of, &cur.files[i]);
  }
  for (size_t i = 0; i < old.nfiles; i++)
    if (!find_file(&cur, &old.files[i]))
      diff_file(&changes, old.files[i].path, &old.files[i], NULL);
  if (old.nfiles && cur.nfiles && !shared)
    text_printf(stderr, "mdlcheck: warning: diff: the reports share no file (%zu in %s, %zu in %s); "
            "every diagnostic is new or unchecked\n", old.nfiles, c->args[0], cur.nfiles, c->args[1]);
  for (size_t i = 0; i < changes.n; i++) {
    tally[changes.v[i].kind]++;
    errors += (size_t)new_error(&changes.v[i]);
  }

  out = cli_open_output(c);
  if (out) {
    if (c->output == OUT_JSON)
      write_json(out, &changes, tally, errors, c->args[0], c->args[1]);
    else if (c->output == OUT_MARKDOWN)
      write_markdown(out, &changes, tally, errors);
    else
      write_text(out, &changes, tally, errors);
    cli_close_output(c, out);
  }
  free(changes.v);
  saved_report_free(&old);
  saved_report_free(&cur);
  if (!out)
    return EXIT_IO;
  return errors ? EXIT_INVALID : EXIT_VALID;
}
