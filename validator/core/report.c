/* report.c - collect diagnostics per file. */
#include "report.h"

#include "grow.h"
#include "rules_gen.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void report_init(struct report *r)
{
  memset(r, 0, sizeof *r);
  r->fail_on = MDL_ERROR;
}

/* The one "" the messages share: a message's path is empty but in a few path-only checks, and
 * a strdup of it took a heap chunk of 32 bytes a message. */
static char empty_text[1];

static void text_free(char *s)
{
  if (s != empty_text)
    free(s);
}

static void file_free(struct report_file *f)
{
  for (size_t i = 0; i < f->nmsgs; i++) {
    text_free(f->msgs[i].message);
    text_free(f->msgs[i].path);
    text_free(f->msgs[i].actual);
    text_free(f->msgs[i].expected);
    free(f->msgs[i].folded_at);
    if (!f->msgs[i].context_shared)
      free(f->msgs[i].context);
  }
  free(f->msgs);
  for (size_t i = 0; i < f->nres; i++) {
    struct report_resource *x = &f->res[i];
    free(x->ref); /* the block of all six (res_strings) */
  }
  free(f->res);
  free(f->path);
}

void report_free(struct report *r)
{
  for (size_t i = 0; i < r->nfiles; i++)
    file_free(&r->files[i]);
  free(r->files);
  for (size_t i = 0; i < r->nunreferenced; i++)
    free(r->unreferenced[i]);
  free(r->unreferenced);
  memset(r, 0, sizeof *r);
}

/* A copy of s ("" for NULL), or NULL when out of memory (f then says so). */
static char *dup_or_empty(struct report_file *f, const char *s)
{
  char *p;
  if (!s || !*s)
    return empty_text;
  p = strdup(s);
  if (!p)
    f->out_of_memory = 1;
  return p;
}

struct report_file *report_add_file(struct report *r, const char *path)
{
  struct report_file *f;
  char *copy = strdup(path ? path : "");
  if (!copy || grow_one(&r->files, &r->capfiles, r->nfiles, sizeof *r->files, 8) < 0) {
    free(copy);
    r->out_of_memory = 1;
    return NULL;
  }
  f = &r->files[r->nfiles++];
  memset(f, 0, sizeof *f);
  f->path = copy;
  f->format = "unknown";
  return f;
}

void report_collect(const mdl_diag *d, void *user)
{
  struct report_file *f = user;
  struct report_msg *m;
  if (grow_one(&f->msgs, &f->capmsgs, f->nmsgs, sizeof *f->msgs, 16) < 0) {
    f->out_of_memory = 1; /* the report lost a diagnostic: it must not be written */
    return;
  }
  m = &f->msgs[f->nmsgs++];
  memset(m, 0, sizeof *m);
  m->rule = d->rule;
  m->severity = d->severity;
  m->offset = d->offset;
  m->line = d->line;
  m->column = d->column;
  m->folded = d->folded;
  m->seq = f->nmsgs - 1;
  /* a NULL string stays NULL only on the way to report_out_of_memory: never written */
  m->message = dup_or_empty(f, d->message);
  m->path = dup_or_empty(f, d->path);
  m->actual = dup_or_empty(f, d->actual);
  m->expected = dup_or_empty(f, d->expected);
  m->context_offset = -1;
  if (d->context && f->last_context && f->last_context_size == d->context_size &&
      !memcmp(f->last_context, d->context, d->context_size)) {
    m->context = (char *)(uintptr_t)f->last_context;
    m->context_shared = 1;
  } else if (d->context) {
    m->context = malloc(d->context_size + 1);
    if (!m->context) {
      f->out_of_memory = 1;
      return;
    }
    memcpy(m->context, d->context, d->context_size);
    m->context[d->context_size] = 0;
    f->last_context = m->context;
    f->last_context_size = d->context_size;
  }
  if (d->context) {
    m->context_size = d->context_size;
    m->context_mark = d->context_mark;
    m->context_offset = d->context_offset;
  }
  if (d->num_folded_at) {
    m->folded_at = malloc(d->num_folded_at * sizeof *m->folded_at);
    if (!m->folded_at) {
      f->out_of_memory = 1;
      return;
    }
    memcpy(m->folded_at, d->folded_at, d->num_folded_at * sizeof *m->folded_at);
    m->nfolded_at = d->num_folded_at;
  }
}

/* Position order: text line/column, else byte offset; unlocated and fold summaries last.
 * Ties keep emission order (the index is the last key), so the sort is stable. */
static int msg_order(const void *pa, const void *pb)
{
  const struct report_msg *a = pa, *b = pb;
  unsigned long long ka = a->line ? a->line : a->offset >= 0 ? (unsigned long long)a->offset : ~0ull;
  unsigned long long kb = b->line ? b->line : b->offset >= 0 ? (unsigned long long)b->offset : ~0ull;
  if (!!a->folded != !!b->folded)
    return a->folded ? 1 : -1;
  if (ka != kb)
    return ka < kb ? -1 : 1;
  if (a->column != b->column)
    return a->column < b->column ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void report_replay(struct report_file *to, const struct report_file *from)
{
  const struct report_msg **by_seq;
  if (!from->nmsgs)
    return;
  by_seq = calloc(from->nmsgs, sizeof *by_seq);
  if (!by_seq) {
    to->out_of_memory = 1;
    return;
  }
  for (size_t i = 0; i < from->nmsgs; i++) /* seq numbers 0..nmsgs-1, one each */
    by_seq[from->msgs[i].seq < from->nmsgs ? from->msgs[i].seq : i] = &from->msgs[i];
  for (size_t i = 0; i < from->nmsgs; i++) {
    const struct report_msg *m = by_seq[i];
    mdl_diag d;
    if (!m)
      continue;
    memset(&d, 0, sizeof d);
    d.rule = m->rule;
    d.severity = m->severity;
    d.message = m->message;
    d.offset = m->offset;
    d.line = m->line;
    d.column = m->column;
    d.path = m->path;
    d.actual = m->actual;
    d.expected = m->expected;
    d.folded = m->folded;
    d.folded_at = m->folded_at;
    d.num_folded_at = m->nfolded_at;
    d.context = m->context;
    d.context_size = m->context_size;
    d.context_mark = m->context_mark;
    d.context_offset = m->context_offset;
    report_collect(&d, to);
  }
  free(by_seq);
}

void report_read_failure_why(struct report_file *f, const char *why)
{
  mdl_diag d;
  char msg[600];
  snprintf(msg, sizeof msg, "cannot read input: %s", why);
  memset(&d, 0, sizeof d);
  d.rule = mdl_rule_at(RULE_CORE_READ_FAILED);
  d.severity = MDL_FATAL;
  d.message = msg;
  d.offset = -1;
  d.path = d.expected = "";
  d.actual = why;
  report_collect(&d, f);
  f->counts[MDL_FATAL]++;
  f->io_failed = 1;
}

void report_read_failure(struct report_file *f, int err)
{
  report_read_failure_why(f, strerror(err));
}

void report_link_outside(struct report_file *f)
{
  const mdl_rule *r = mdl_rule_at(RULE_CORE_WALK_LINK_OUTSIDE);
  mdl_diag d;
  memset(&d, 0, sizeof d);
  d.rule = r;
  d.severity = MDL_FATAL;
  d.message = r->message;
  d.offset = -1;
  d.path = d.expected = d.actual = "";
  report_collect(&d, f);
  f->counts[MDL_FATAL]++;
  f->io_failed = 1;
}

/* x's six strings ("" for NULL) copied into one block, x->ref its start: a JSON report keeps every
 * reference (issue 26: six copies of their own were 6 allocations, about 190 bytes, a file
 * named); 0, or -1 when out of memory. */
static int res_strings(struct report_resource *x, const mdl_resource *res)
{
  const char *from[6] = {res->ref, res->kind, res->status, res->resolved_path, res->image, res->path};
  char **to[6] = {&x->ref, &x->kind, &x->status, &x->resolved_path, &x->image, &x->path};
  size_t len[6], total = 0;
  char *block;
  for (int i = 0; i < 6; i++)
    total += (len[i] = from[i] ? strlen(from[i]) : 0) + 1;
  if (!(block = malloc(total)))
    return -1;
  for (int i = 0; i < 6; i++) {
    *to[i] = block;
    if (len[i])
      memcpy(block, from[i], len[i]);
    block[len[i]] = 0;
    block += len[i] + 1;
  }
  return 0;
}

void report_collect_resource(const mdl_resource *res, void *user)
{
  struct report_file *f = user;
  struct report_resource *x;
  int bad = !res->status || (strcmp(res->status, "found") && strcmp(res->status, "case-mismatch"));
  f->res_total++;
  f->res_bad += bad;
  /* counted: the text report names no more, and the CLI validates usable external models as
   * inputs of their own (externals_queue) */
  if (f->res_summary && (!bad || f->res_bad > REPORT_RES_SHOWN) &&
      !(res->kind && !strcmp(res->kind, "model") && res->resolved_path && res->resolved_path[0] &&
        (!res->status || strcmp(res->status, "unreadable"))))
    return;
  if (grow_one(&f->res, &f->capres, f->nres, sizeof *f->res, 8) < 0) {
    f->out_of_memory = 1;
    return;
  }
  x = &f->res[f->nres];
  memset(x, 0, sizeof *x);
  if (res_strings(x, res) < 0) {
    f->out_of_memory = 1;
    return;
  }
  f->nres++;
  x->width = res->width;
  x->height = res->height;
  x->channels = res->channels;
  x->offset = res->offset;
  x->line = res->line;
  x->column = res->column;
}

int report_add_unreferenced(struct report *r, const char *path)
{
  char *copy = strdup(path);
  if (!copy || grow_one(&r->unreferenced, &r->capunreferenced, r->nunreferenced,
                        sizeof *r->unreferenced, 16) < 0) {
    free(copy);
    r->out_of_memory = 1;
    return -1;
  }
  r->unreferenced[r->nunreferenced++] = copy;
  return 0;
}

int report_out_of_memory(const struct report *r)
{
  if (r->out_of_memory)
    return 1;
  for (size_t i = 0; i < r->nfiles; i++)
    if (r->files[i].out_of_memory)
      return 1;
  return 0;
}

void report_set_result(struct report_file *f, const mdl_result *res)
{
  if (f->nmsgs > 1) /* msgs is NULL when there are none, and qsort must not see NULL */
    qsort(f->msgs, f->nmsgs, sizeof *f->msgs, msg_order);
  f->format = res->format ? res->format : "unknown";
  memcpy(f->version, res->version, sizeof f->version);
  memcpy(f->compression, res->compression, sizeof f->compression);
  memcpy(f->counts, res->counts, sizeof f->counts);
  f->truncated = res->truncated;
  f->stats = res->stats;
}

void report_set_unchecked(struct report_file *f, const mdl_result *res)
{
  report_set_result(f, res);
  f->io_failed = 1;
}

int report_file_invalid(const struct report *r, const struct report_file *f)
{
  if (f->io_failed)
    return 1;
  for (int s = 0; s <= (int)r->fail_on && s < MDL_SEVERITY_COUNT; s++)
    if (f->counts[s])
      return 1;
  return 0;
}
