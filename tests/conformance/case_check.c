/* case_check.c - collect the diagnostics of a run and match them against `expect`, `others`
 * and `verdict`.
 *
 * A diagnostic is "expected" only when it matches an expect entry in every field the entry
 * gives, so an error at the wrong offset counts both as a missing expectation and as an
 * unexpected diagnostic: the failure output shows which. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_check.h"

static char *dup_or_die(const char *s)
{
  char *d = strdup(s ? s : "");
  if (!d) {
    fprintf(stderr, "case_run: out of memory\n");
    exit(99);
  }
  return d;
}

struct seen_diag *seen_add(struct seen_list *l, const mdl_rule *rule, mdl_severity severity,
                           const char *message, const char *path)
{
  struct seen_diag *s;
  struct seen_diag *items = realloc(l->items, (l->count + 1) * sizeof *l->items);
  if (!items) {
    fprintf(stderr, "case_run: out of memory\n");
    exit(99);
  }
  l->items = items;
  s = &l->items[l->count++];
  memset(s, 0, sizeof *s);
  s->rule = rule;
  s->severity = severity;
  s->message = dup_or_die(message);
  s->path = dup_or_die(path);
  s->offset = -1;
  s->cmp_offset = -1;
  return s;
}

void seen_collect(const mdl_diag *d, void *user)
{
  struct seen_diag *s = seen_add(user, d->rule, d->severity, d->message, d->path);
  s->offset = d->offset;
  s->line = d->line;
  s->column = d->column;
  s->folded = d->folded;
}

void seen_free(struct seen_list *l)
{
  for (size_t i = 0; i < l->count; i++) {
    free(l->items[i].message);
    free(l->items[i].path);
  }
  free(l->items);
  l->items = NULL;
  l->count = 0;
}

static void print_one(const struct seen_diag *d)
{
  fprintf(stderr, "  %-7s %s", mdl_severity_name(d->severity), d->rule->id);
  if (d->offset >= 0)
    fprintf(stderr, " offset=%lld", d->offset);
  if (d->line)
    fprintf(stderr, " line=%u column=%u", d->line, d->column);
  if (d->path[0])
    fprintf(stderr, " path=%s", d->path);
  if (d->cmp_offset >= 0)
    fprintf(stderr, " compare-offset=%lld", d->cmp_offset);
  if (d->cmp_line)
    fprintf(stderr, " compare-line=%u", d->cmp_line);
  if (d->folded)
    fprintf(stderr, " folded=%lu", d->folded);
  fprintf(stderr, ": %s\n", d->message);
}

void seen_print(const struct seen_list *l, const char *title)
{
  fprintf(stderr, "%s (%zu):\n", title, l->count);
  for (size_t i = 0; i < l->count; i++)
    print_one(&l->items[i]);
  if (!l->count)
    fprintf(stderr, "  (none)\n");
}

static int entry_matches(const struct case_expect *e, const struct seen_diag *d)
{
  if (!e->rule || d->rule != e->rule)
    return 0;
  if (e->has_severity && d->severity != e->severity)
    return 0;
  if (e->has_offset && d->offset != e->offset)
    return 0;
  if (e->has_line && d->line != e->lineno)
    return 0;
  if (e->has_column && d->column != e->column)
    return 0;
  if (e->path && strcmp(d->path, e->path))
    return 0;
  if (e->has_cmp_line && d->cmp_line != e->cmp_line)
    return 0;
  if (e->has_cmp_offset && d->cmp_offset != e->cmp_offset)
    return 0;
  return 1;
}

static void describe_entry(const struct case_expect *e, char *out, size_t cap)
{
  int n = snprintf(out, cap, "%s", e->id);
  if (n < 0 || (size_t)n >= cap)
    return;
  if (e->has_severity)
    n += snprintf(out + n, cap - (size_t)n, " severity=%s", mdl_severity_name(e->severity));
  if (e->has_offset && (size_t)n < cap)
    n += snprintf(out + n, cap - (size_t)n, " offset=%lld", e->offset);
  if (e->has_line && (size_t)n < cap)
    n += snprintf(out + n, cap - (size_t)n, " line=%lu", e->lineno);
  if (e->has_column && (size_t)n < cap)
    n += snprintf(out + n, cap - (size_t)n, " column=%lu", e->column);
  if (e->path && (size_t)n < cap)
    n += snprintf(out + n, cap - (size_t)n, " path=%s", e->path);
  if (e->has_cmp_offset && (size_t)n < cap)
    n += snprintf(out + n, cap - (size_t)n, " compare-offset=%lld", e->cmp_offset);
  if (e->has_cmp_line && (size_t)n < cap)
    snprintf(out + n, cap - (size_t)n, " compare-line=%lu", e->cmp_line);
}

unsigned check_expectations(struct conf_case *c, struct seen_list *seen, const mdl_result *res)
{
  unsigned failed = 0;
  int invalid;

  for (size_t i = 0; i < c->nexpects; i++) {
    struct case_expect *e = &c->expects[i];
    char what[256];
    e->matched = 0;
    for (size_t j = 0; j < seen->count; j++)
      if (entry_matches(e, &seen->items[j])) {
        e->matched++;
        seen->items[j].matched = 1;
      }
    describe_entry(e, what, sizeof what);
    if (e->has_count && e->matched != e->count) {
      fprintf(stderr, "%s:%d: FAIL: expected %lu x [%s], saw %lu\n", c->file, e->line, e->count,
              what, e->matched);
      failed++;
    } else if (!e->has_count && e->matched == 0) {
      fprintf(stderr, "%s:%d: FAIL: expected [%s], not reported\n", c->file, e->line, what);
      failed++;
    }
  }

  if (c->others != OTHERS_ANY) {
    mdl_severity worst = c->others == OTHERS_NONE ? MDL_WARNING : MDL_ERROR;
    for (size_t j = 0; j < seen->count; j++) {
      const struct seen_diag *d = &seen->items[j];
      if (d->matched || d->severity > worst)
        continue;
      fprintf(stderr, "%s: FAIL: unexpected (others: %s):\n", c->file,
              c->others == OTHERS_NONE ? "none" : "errors");
      print_one(d);
      failed++;
    }
  }

  invalid = res->counts[MDL_FATAL] + res->counts[MDL_ERROR] > 0;
  if (c->verdict >= 0 && invalid != c->verdict) {
    fprintf(stderr, "%s: FAIL: verdict is %s, expected %s\n", c->file, invalid ? "invalid" : "valid",
            c->verdict ? "invalid" : "valid");
    failed++;
  }
  return failed;
}
