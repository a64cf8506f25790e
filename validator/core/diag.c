/* diag.c - the diagnostic sink. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_bound.h"
#include "text_window.h"

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
  /* fold_at is written before it is read: clearing it per file would cost more than the rest */
  memset(sink->counts, 0, sizeof sink->counts);
  memset(sink->per_rule, 0, sizeof sink->per_rule);
  memset(sink->fold_slot, 0, sizeof sink->fold_slot);
  sink->options = options;
  sink->reported = 0;
  sink->nslots = 0;
  sink->truncated = sink->fatal_seen = 0;
  sink->flaws = 0;
  sink->proof = 0;
  sink->regrade = NULL;
  sink->regrade_ctx = NULL;
  sink->bound = NULL;
  sink->window = NULL;
  diag_source(sink, NULL, 0);
  return 0;
}

void diag_source(struct diag_sink *sink, const void *data, size_t size)
{
  sink->source = data;
  sink->source_size = data ? size : 0;
  sink->cursor_line = 0;
  sink->cursor_start = 0;
  sink->cursor_end = 0;
  sink->lf_cr_one = 0;
}

void diag_source_lf_cr(struct diag_sink *sink)
{
  sink->lf_cr_one = 1;
  sink->cursor_line = 0; /* lines found so far were counted the other way */
  sink->cursor_end = 0;
}

/* Bytes a line is read in before what was read is given back (text_window_reread). */
#define LINE_CHUNK ((size_t)1 << 20)

/* The first line end (\n or \r) at or after at, or source_size. What it reads is said to the
 * input's window a MiB at a time: the lines walked to a diagnostic's, a line of the whole text,
 * go back as they are read rather than coming back whole beside the decoder's structures. */
static size_t line_end(const struct diag_sink *s, size_t at)
{
  const unsigned char *p = s->source;
  while (at < s->source_size) {
    size_t from = at, stop = s->source_size - at > LINE_CHUNK ? at + LINE_CHUNK : s->source_size;
    while (at < stop && p[at] != '\n' && p[at] != '\r')
      at++;
    text_window_reread(s->window, p, from, at + 1 - from);
    if (at < stop)
      break;
  }
  return at;
}

/* Where the line after the one starting at `at` starts, or source_size when there is none. */
static size_t next_line(const struct diag_sink *s, size_t at)
{
  const unsigned char *p = s->source;
  at = line_end(s, at);
  if (at + 1 < s->source_size && ((p[at] == '\r' && p[at + 1] == '\n') ||
                                   (s->lf_cr_one && p[at] == '\n' && p[at + 1] == '\r')))
    at++;
  return at < s->source_size ? at + 1 : s->source_size;
}

/* The context of a text position: line `line`, or a window of it around the column. */
static void context_text(struct diag_sink *s, mdl_diag *d)
{
  const unsigned char *p = s->source;
  size_t start, end, mark, from;
  if (!s->cursor_line || d->line < s->cursor_line) {
    s->cursor_line = 1;
    s->cursor_start = 0;
    s->cursor_end = 0;
  }
  while (s->cursor_line < d->line) {
    size_t next = next_line(s, s->cursor_start);
    if (next >= s->source_size && (next == s->cursor_start || (p[next - 1] != '\n' && p[next - 1] != '\r')))
      return; /* the line is past the end of the input: no context */
    s->cursor_start = next;
    s->cursor_line++;
    s->cursor_end = 0;
  }
  start = s->cursor_start;
  /* the line's end is found once per line: thousands of diagnostics on one long line would
   * otherwise each scan the whole of it */
  if (!s->cursor_end) {
    end = line_end(s, start);
    s->cursor_end = end + 1; /* + 1: 0 stays "not yet" for an empty first line */
  }
  end = s->cursor_end - 1;
  mark = d->column > 1 ? d->column - 1 : 0;
  if (mark > end - start)
    mark = end - start;
  from = start;
  if (end - start > MDL_CONTEXT_MAX) { /* a window with the column in its middle third */
    from = start + mark > MDL_CONTEXT_MAX / 3 ? start + mark - MDL_CONTEXT_MAX / 3 : start;
    if (end - from > MDL_CONTEXT_MAX)
      end = from + MDL_CONTEXT_MAX;
  }
  d->context = (const char *)p + from;
  d->context_size = end - from;
  d->context_offset = (long long)from;
  d->context_mark = start + mark - from;
}

/* The context of a diagnostic: its text line, or the row of bytes holding its offset. */
static void context_of(struct diag_sink *s, mdl_diag *d)
{
  d->context = NULL;
  d->context_size = d->context_mark = 0;
  d->context_offset = -1;
  if (!s->source)
    return;
  if (d->line) {
    context_text(s, d);
  } else if (d->offset >= 0 && (unsigned long long)d->offset < s->source_size) {
    size_t row = (size_t)d->offset / MDL_CONTEXT_ROW * MDL_CONTEXT_ROW;
    d->context = (const char *)s->source + row;
    d->context_size = s->source_size - row < MDL_CONTEXT_ROW ? s->source_size - row : MDL_CONTEXT_ROW;
    d->context_offset = (long long)row;
    d->context_mark = (size_t)d->offset - row;
  }
}

/* Keep where a folded repeat was, for the first MDL_FOLDED_AT of the first DIAG_FOLD_SLOTS rules. */
static void fold_note(struct diag_sink *sink, enum rule_index rule, const struct mdl_loc *loc)
{
  unsigned long nth = sink->per_rule[rule] - sink->options->max_per_rule - 1;
  mdl_position *at;
  if (nth >= MDL_FOLDED_AT)
    return;
  if (!sink->fold_slot[rule]) {
    if (sink->nslots >= DIAG_FOLD_SLOTS)
      return;
    sink->fold_slot[rule] = (unsigned char)++sink->nslots;
  }
  at = &sink->fold_at[sink->fold_slot[rule] - 1][nth];
  at->offset = loc->offset;
  at->line = loc->line;
  at->column = loc->column;
}

static mdl_severity effective_severity(const struct diag_sink *sink, const mdl_rule *rule)
{
  const mdl_options *o = sink->options;
  mdl_severity sev = o->strict ? rule->strict_severity : rule->severity;
  if (rule == mdl_rule_at(RULE_CORE_OUT_OF_MEMORY) || rule == mdl_rule_at(RULE_CORE_MEMORY_BOUND))
    return MDL_FATAL; /* an unfinished check is never hidden or re-graded by a policy */
  if (o->policy) {
    mdl_rule graded = *rule;
    graded.severity = sev;
    sev = sink->proof ? policy_apply_unselected(o->policy, &graded) : mdl_policy_apply(o->policy, &graded);
  }
  if (sink->regrade && sev < MDL_SEVERITY_COUNT)
    sev = sink->regrade(sink->regrade_ctx, rule, sev);
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
  if (++sink->per_rule[rule] > sink->options->max_per_rule && sink->options->max_per_rule) {
    fold_note(sink, rule, loc);
    return; /* folded: summarised by diag_sink_finish */
  }

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
  d.folded_at = NULL;
  d.num_folded_at = 0;
  context_of(sink, &d);
  forward(sink, &d);
}

void diag_out_of_memory(struct diag_sink *sink, const char *what)
{
  struct mdl_loc loc = loc_none();
  if (sink->per_rule[RULE_CORE_OUT_OF_MEMORY] || sink->per_rule[RULE_CORE_MEMORY_BOUND])
    return; /* once per file: the first failure stopped the check */
  if (sink->bound && sink->bound->hit) { /* the failure was the bound's refusal */
    char limit[32];
    snprintf(limit, sizeof limit, "%llu", sink->bound->limit);
    diag_emit(sink, RULE_CORE_MEMORY_BOUND, &loc, limit, "%s", what ? what : "an allocation failed");
    return;
  }
  diag_emit(sink, RULE_CORE_OUT_OF_MEMORY, &loc, NULL, "%s", what ? what : "an allocation failed");
}

/* "; the first at 12:3, 40:1, ..." or "; the first at offsets 96, 112, ..." */
static void fold_positions(char *out, size_t cap, const mdl_position *at, size_t n)
{
  size_t len;
  if (!n) {
    out[0] = 0;
    return;
  }
  len = (size_t)snprintf(out, cap, "; the first at %s", at[0].line ? "" : "offsets ");
  for (size_t i = 0; i < n && len < cap; i++) {
    const char *sep = i ? ", " : "";
    if (at[i].line)
      len += (size_t)snprintf(out + len, cap - len, "%s%u:%u", sep, at[i].line,
                              at[i].column ? at[i].column : 1);
    else
      len += (size_t)snprintf(out + len, cap - len, "%s%lld", sep, at[i].offset);
  }
}

void diag_sink_finish(struct diag_sink *sink)
{
  unsigned long limit = sink->options->max_per_rule;
  if (limit) {
    for (size_t i = 0; i < RULE_COUNT; i++) {
      unsigned long extra;
      char message[384], where[256];
      mdl_diag d;
      const mdl_rule *r;
      const mdl_position *at = NULL;
      size_t nat = 0;
      if (sink->per_rule[i] <= limit)
        continue;
      r = mdl_rule_at(i);
      extra = sink->per_rule[i] - limit;
      if (sink->fold_slot[i]) {
        at = sink->fold_at[sink->fold_slot[i] - 1];
        nat = extra < MDL_FOLDED_AT ? extra : MDL_FOLDED_AT;
        /* positions only where every kept one has one (path-only checks have none) */
        for (size_t k = 0; k < nat; k++)
          if (!at[k].line && at[k].offset < 0)
            nat = 0;
      }
      fold_positions(where, sizeof where, at, nat);
      snprintf(message, sizeof message, "%lu more diagnostic%s of this rule were folded%s%s", extra,
               extra == 1 ? "" : "s", where, nat && nat < extra ? ", ..." : "");
      memset(&d, 0, sizeof d);
      d.rule = r;
      d.severity = effective_severity(sink, r);
      d.message = message;
      d.offset = -1;
      d.context_offset = -1;
      d.path = d.actual = d.expected = "";
      d.folded = extra;
      d.folded_at = nat ? at : NULL;
      d.num_folded_at = nat;
      forward(sink, &d);
    }
  }
}

int diag_wanted(const struct diag_sink *sink, enum rule_index rule)
{
  unsigned long limit = sink->options->max_per_rule;
  return !limit || sink->per_rule[rule] < limit + MDL_FOLDED_AT;
}

unsigned long diag_errors(const struct diag_sink *sink)
{
  return sink->counts[MDL_FATAL] + sink->counts[MDL_ERROR];
}
