/* diag.c - the diagnostic sink. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 2, 0)))
static void vpath(char *out, const char *fmt, va_list ap)
{
  out[0] = 0;
  if (fmt)
    vsnprintf(out, LOC_PATH_MAX, fmt, ap);
}

struct mdl_loc loc_bin(uint64_t offset, const char *path_fmt, ...)
{
  struct mdl_loc loc;
  va_list ap;
  loc.offset = (long long)offset;
  loc.line = loc.column = 0;
  va_start(ap, path_fmt);
  vpath(loc.path, path_fmt, ap);
  va_end(ap);
  return loc;
}

struct mdl_loc loc_text(unsigned line, unsigned column, const char *path_fmt, ...)
{
  struct mdl_loc loc;
  va_list ap;
  loc.offset = -1;
  loc.line = line;
  loc.column = column;
  va_start(ap, path_fmt);
  vpath(loc.path, path_fmt, ap);
  va_end(ap);
  return loc;
}

struct mdl_loc loc_none(void)
{
  struct mdl_loc loc;
  loc.offset = -1;
  loc.line = loc.column = 0;
  loc.path[0] = 0;
  return loc;
}

int diag_sink_init(struct diag_sink *sink, const mdl_options *options)
{
  memset(sink, 0, sizeof *sink);
  sink->options = options;
  sink->per_rule = calloc(RULE_COUNT, sizeof *sink->per_rule);
  return sink->per_rule ? 0 : -1;
}

static mdl_severity effective_severity(const struct diag_sink *sink, const mdl_rule *rule)
{
  const mdl_options *o = sink->options;
  mdl_severity sev = o->strict ? rule->strict_severity : rule->severity;
  if (o->policy) {
    mdl_rule graded = *rule;
    graded.severity = sev;
    sev = mdl_policy_apply(o->policy, &graded);
  }
  return sev;
}

static void forward(struct diag_sink *sink, const mdl_diag *d)
{
  const mdl_options *o = sink->options;
  if (o->max_issues && sink->reported >= o->max_issues) {
    sink->truncated = 1;
    return;
  }
  sink->reported++;
  if (o->on_diag)
    o->on_diag(d, o->user);
}

void diag_render(char *out, size_t cap, const char *tmpl, const char *actual,
                 const char *expected, const char *path)
{
  size_t n = 0;
  if (cap == 0)
    return;
  for (const char *p = tmpl; *p && n + 1 < cap; p++) {
    const char *sub = NULL;
    size_t skip = 0;
    if (*p == '{') {
      if (!strncmp(p, "{actual}", 8)) {
        sub = actual;
        skip = 8;
      } else if (!strncmp(p, "{expected}", 10)) {
        sub = expected;
        skip = 10;
      } else if (!strncmp(p, "{path}", 6)) {
        sub = path;
        skip = 6;
      }
    }
    if (sub) {
      size_t len = strlen(sub);
      if (len > cap - 1 - n)
        len = cap - 1 - n;
      memcpy(out + n, sub, len);
      n += len;
      p += skip - 1;
    } else {
      out[n++] = *p;
    }
  }
  out[n] = 0;
}

void diag_emit(struct diag_sink *sink, enum rule_index rule, const struct mdl_loc *loc,
               const char *expected, const char *actual_fmt, ...)
{
  const mdl_rule *r = mdl_rule_at((size_t)rule);
  mdl_severity sev = effective_severity(sink, r);
  char actual[256];
  char message[768];
  mdl_diag d;
  va_list ap;

  if (r->severity <= MDL_ERROR)
    sink->flaws++;
  if (sev >= MDL_SEVERITY_COUNT)
    return;
  sink->counts[sev]++;
  if (sev == MDL_FATAL)
    sink->fatal_seen = 1;
  if (++sink->per_rule[rule] > sink->options->max_per_rule && sink->options->max_per_rule)
    return; /* folded: summarised by diag_sink_finish */

  actual[0] = 0;
  if (actual_fmt) {
    va_start(ap, actual_fmt);
    vsnprintf(actual, sizeof actual, actual_fmt, ap);
    va_end(ap);
  }
  if (!expected)
    expected = "";
  diag_render(message, sizeof message, r->message, actual, expected, loc->path);

  d.rule = r;
  d.severity = sev;
  d.message = message;
  d.offset = loc->offset;
  d.line = loc->line;
  d.column = loc->column;
  d.path = loc->path;
  d.actual = actual;
  d.expected = expected;
  d.folded = 0;
  forward(sink, &d);
}

void diag_sink_finish(struct diag_sink *sink)
{
  unsigned long limit = sink->options->max_per_rule;
  if (limit) {
    for (size_t i = 0; i < RULE_COUNT; i++) {
      unsigned long extra;
      char message[256];
      mdl_diag d;
      const mdl_rule *r;
      if (sink->per_rule[i] <= limit)
        continue;
      r = mdl_rule_at(i);
      extra = sink->per_rule[i] - limit;
      snprintf(message, sizeof message, "%lu more diagnostics of this rule were folded", extra);
      memset(&d, 0, sizeof d);
      d.rule = r;
      d.severity = effective_severity(sink, r);
      d.message = message;
      d.offset = -1;
      d.path = d.actual = d.expected = "";
      d.folded = extra;
      forward(sink, &d);
    }
  }
  free(sink->per_rule);
  sink->per_rule = NULL;
}

unsigned long diag_errors(const struct diag_sink *sink)
{
  return sink->counts[MDL_FATAL] + sink->counts[MDL_ERROR];
}
