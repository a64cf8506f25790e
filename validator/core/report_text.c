/* report_text.c - compiler-style text: file:line:col: severity[ID]: message (path), then the
 * source line with a caret under the column (or the row of bytes holding the offset); ANSI
 * colour when the caller asks for it (the CLI decides: a terminal, --color, NO_COLOR). Every
 * model-derived string goes through text_safe; the colours' escape sequences are the writer's own
 * and written as they are. */
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "text_safe.h"

/* SGR sequences, or "" without colour: severity colours as gcc's (error red, warning magenta). */
struct paint {
  const char *bold, *sev[MDL_SEVERITY_COUNT], *caret, *valid, *invalid, *note, *reset;
};

static struct paint paint_for(unsigned flags)
{
  static const struct paint plain = {"", {"", "", "", "", ""}, "", "", "", "", ""};
  static const struct paint ansi = {
    "\033[1m",
    {"\033[1;31m", "\033[1;31m", "\033[1;35m", "\033[1;36m", "\033[1;34m"},
    "\033[1;32m", "\033[32m", "\033[1;31m", "\033[1;36m", "\033[0m"};
  return flags & REPORT_TEXT_COLOR ? ansi : plain;
}

static void write_location(FILE *out, const struct report_file *f, const struct report_msg *m,
                           const struct paint *p)
{
  fputs(p->bold, out);
  text_put(out, f->path);
  if (m->line)
    fprintf(out, ":%u:%u", m->line, m->column ? m->column : 1);
  else if (m->offset >= 0)
    fprintf(out, ":%lld", m->offset);
  fprintf(out, ":%s ", p->reset);
}

/* Length of the UTF-8 sequence at s (at most n bytes) that a terminal shows as one printable
 * character, or 0: malformed, overlong, a surrogate, a C1 control (which some terminals obey as
 * escape sequences), or a character that reorders or breaks the line. */
static size_t utf8_printable(const unsigned char *s, size_t n)
{
  size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
  unsigned long cp;
  if (!len || len > n || s[0] > 0xf4)
    return 0;
  cp = s[0] & (0x7f >> len);
  for (size_t k = 1; k < len; k++) {
    if ((s[k] & 0xc0) != 0x80)
      return 0;
    cp = cp << 6 | (s[k] & 0x3f);
  }
  if (cp < 0xa0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
      (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
    return 0;
  /* what reorders or breaks displayed lines (as text_safe escapes it): bidirectional marks,
   * embeddings, overrides and isolates, the line and paragraph separators */
  if (cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
      (cp >= 0x2066 && cp <= 0x2069))
    return 0;
  return len;
}

/* A model's line as a terminal may show it: printable ASCII, tabs and well-formed UTF-8 as
 * they are, any other byte as '?' (a file's bytes must not drive the terminal); the caret line
 * below it repeats the tabs so the caret lands under the column, whatever the tab width. */
static void write_source_line(FILE *out, const struct report_msg *m, const struct paint *p)
{
  const unsigned char *s = (const unsigned char *)m->context;
  int width = fprintf(out, " %4u", m->line) - 1; /* the caret line's margin is as wide */
  fputs(" | ", out);
  for (size_t i = 0; i < m->context_size;) {
    size_t len = s[i] >= 0x80 ? utf8_printable(s + i, m->context_size - i) : 1;
    if (len > 1)
      fwrite(s + i, 1, len, out);
    else
      fputc(s[i] == '\t' || (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?', out);
    i += len ? len : 1;
  }
  fprintf(out, "\n %*s | ", width, "");
  for (size_t i = 0; i < m->context_mark && i < m->context_size;) {
    size_t len = s[i] >= 0x80 ? utf8_printable(s + i, m->context_mark - i) : 1;
    fputc(s[i] == '\t' ? '\t' : ' ', out);
    i += len ? len : 1;
  }
  fprintf(out, "%s^%s\n", p->caret, p->reset);
}

/* The row of bytes holding a binary position: offset, hex, the bytes as ASCII; a caret under
 * the byte the position names. */
static void write_source_bytes(FILE *out, const struct report_msg *m, const struct paint *p)
{
  const unsigned char *s = (const unsigned char *)m->context;
  size_t col = 0;
  fprintf(out, " %08llx |", (unsigned long long)m->context_offset);
  for (size_t i = 0; i < MDL_CONTEXT_ROW; i++) {
    if (i == m->context_mark)
      col = i * 3 + (i >= MDL_CONTEXT_ROW / 2);
    if (i < m->context_size)
      fprintf(out, "%s %02x", i == MDL_CONTEXT_ROW / 2 ? " " : "", s[i]);
    else
      fprintf(out, "%s   ", i == MDL_CONTEXT_ROW / 2 ? " " : "");
  }
  fputs("  |", out);
  for (size_t i = 0; i < m->context_size; i++)
    fputc(s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '.', out);
  fprintf(out, "|\n          | %*s%s^^%s\n", (int)col, "", p->caret, p->reset);
}

static void write_context(FILE *out, const struct report_msg *m, const struct paint *p)
{
  if (!m->context)
    return;
  if (m->line)
    write_source_line(out, m, p);
  else
    write_source_bytes(out, m, p);
}

static void write_counts(FILE *out, const unsigned long *c)
{
  static const char *const names[MDL_SEVERITY_COUNT][2] = {
    {"fatal", "fatals"}, {"error", "errors"}, {"warning", "warnings"}, {"info", "infos"}, {"hint", "hints"}
  };
  const char *sep = "";
  for (int s = 0; s < MDL_SEVERITY_COUNT; s++) {
    if (!c[s] && s != MDL_ERROR && s != MDL_WARNING)
      continue;
    text_printf(out, "%s%lu %s", sep, c[s], names[s][c[s] != 1]);
    sep = ", ";
  }
}

/* What the model holds, one line, only when it was decoded to the end: never guessed counts. */
static void write_stats(FILE *out, const struct report_file *f)
{
  const mdl_stats *st = &f->stats;
  const char *sep = ": ";
  if (!st->decoded)
    return;
  text_printf(out, "%s: stats%s", f->path, st->partial ? " (partial)" : "");
  for (unsigned i = 0; i < REPORT_STATS_COUNT + st->num_extra && i < REPORT_STATS_MAX; i++) {
    const char *name;
    unsigned long long v = report_stat_at(st, i, &name);
    if (v == MDL_STAT_UNKNOWN)
      continue;
    text_printf(out, "%s%s %llu", sep, name, v);
    sep = ", ";
  }
  fputc('\n', out);
}

/* With --resources: one line naming the references that did not lead to a usable file. */
static void write_unresolved(FILE *out, const struct report_file *f)
{
  size_t bad = f->res_bad, shown = 0;
  if (!f->resources_checked || !bad)
    return;
  text_printf(out, "%s: %zu of %zu referenced file%s not usable:", f->path, bad, f->res_total,
          f->res_total == 1 ? "" : "s");
  for (size_t i = 0; i < f->nres && shown < REPORT_RES_SHOWN; i++)
    if (strcmp(f->res[i].status, "found") && strcmp(f->res[i].status, "case-mismatch"))
      text_printf(out, "%s %s (%s)", shown++ ? "," : "", f->res[i].ref, f->res[i].status);
  text_printf(out, "%s\n", bad > shown ? ", ..." : "");
}

void report_write_text(FILE *out, const struct report *r, unsigned flags)
{
  struct paint p = paint_for(flags);
  int quiet = (flags & REPORT_TEXT_QUIET) != 0;
  for (size_t i = 0; i < r->nfiles; i++) {
    const struct report_file *f = &r->files[i];
    int invalid = report_file_invalid(r, f);
    for (size_t k = 0; k < f->nmsgs; k++) {
      const struct report_msg *m = &f->msgs[k];
      /* -q keeps errors, fatals and whatever --fail-on makes fail the run */
      if (quiet && m->severity > MDL_ERROR && (m->severity > r->fail_on || m->baselined))
        continue;
      write_location(out, f, m, &p);
      fprintf(out, "%s%s%s", p.sev[m->severity], mdl_severity_name(m->severity), p.reset);
      text_printf(out, "[%s]: %s", m->rule->id, m->message);
      if (m->path[0])
        text_printf(out, " [%s]", m->path);
      if (m->baselined)
        fputs(" (baselined)", out);
      fputc('\n', out);
      write_context(out, m, &p);
    }
    if (quiet)
      continue;
    if (f->truncated)
    {
      text_put(out, f->path);
      fprintf(out, ": %snote%s: output truncated by --max-issues\n", p.note, p.reset);
    }
    if (flags & REPORT_TEXT_STATS)
      write_stats(out, f);
    text_put(out, f->path);
    fprintf(out, ": %s%s%s", invalid ? p.invalid : p.valid, invalid ? "invalid" : "valid", p.reset);
    text_printf(out, " %s%s%s%s%s%s", f->format, f->version[0] ? " " : "", f->version,
                f->compression[0] ? " (" : "", f->compression, f->compression[0] ? ")" : "");
    if (f->compared_path)
      text_printf(out, " vs %s%s%s", f->compared_format, f->compared_version[0] ? " " : "", f->compared_version);
    fputs(": ", out);
    write_counts(out, f->counts);
    fputc('\n', out);
    write_unresolved(out, f);
  }
  if (r->targets && !quiet) { /* which loaders "valid" speaks for, besides the specification */
    fputs("targets:", out);
    for (const char *q = r->targets; *q;) {
      size_t n = strcspn(q, ",");
      for (size_t i = 0; i < mdl_target_count(); i++) {
        const mdl_target *t = mdl_target_at(i);
        if (strlen(t->name) == n && !strncmp(t->name, q, n))
          fprintf(out, "%s %s (%s %s)", q == r->targets ? "" : ",", t->name, t->repository, t->versions);
      }
      q += n + (q[n] == ',');
    }
    fputc('\n', out);
  }
  if (r->unreferenced_listed && !quiet) {
    for (size_t i = 0; i < r->nunreferenced; i++)
      text_printf(out, "%s: note: no model names this file (--unreferenced)\n", r->unreferenced[i]);
    text_printf(out, "unreferenced: %zu file%s\n", r->nunreferenced, r->nunreferenced == 1 ? "" : "s");
  }
}
