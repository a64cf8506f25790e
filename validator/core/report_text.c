/* report_text.c - compiler-style text: file:line:col: severity[ID]: message (path). */
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "text_safe.h"

static void write_location(FILE *out, const struct report_file *f, const struct report_msg *m)
{
  text_put(out, f->path);
  if (m->line)
    text_printf(out, ":%u:%u", m->line, m->column ? m->column : 1);
  else if (m->offset >= 0)
    text_printf(out, ":%lld", m->offset);
  fputs(": ", out);
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
  size_t bad = 0, shown = 0;
  for (size_t i = 0; i < f->nres; i++)
    bad += strcmp(f->res[i].status, "found") && strcmp(f->res[i].status, "case-mismatch");
  if (!f->resources_checked || !bad)
    return;
  text_printf(out, "%s: %zu of %zu referenced file%s not usable:", f->path, bad, f->nres,
          f->nres == 1 ? "" : "s");
  for (size_t i = 0; i < f->nres && shown < 8; i++)
    if (strcmp(f->res[i].status, "found") && strcmp(f->res[i].status, "case-mismatch"))
      text_printf(out, "%s %s (%s)", shown++ ? "," : "", f->res[i].ref, f->res[i].status);
  text_printf(out, "%s\n", bad > shown ? ", ..." : "");
}

void report_write_text(FILE *out, const struct report *r, int quiet)
{
  for (size_t i = 0; i < r->nfiles; i++) {
    const struct report_file *f = &r->files[i];
    int invalid = report_file_invalid(r, f);
    for (size_t k = 0; k < f->nmsgs; k++) {
      const struct report_msg *m = &f->msgs[k];
      /* -q keeps errors, fatals and whatever --fail-on makes fail the run */
      if (quiet && m->severity > MDL_ERROR && (m->severity > r->fail_on || m->baselined))
        continue;
      write_location(out, f, m);
      text_printf(out, "%s[%s]: %s", mdl_severity_name(m->severity), m->rule->id, m->message);
      if (m->path[0])
        text_printf(out, " [%s]", m->path);
      if (m->baselined)
        fputs(" (baselined)", out);
      fputc('\n', out);
    }
    if (quiet)
      continue;
    if (f->truncated)
      text_printf(out, "%s: note: output truncated by --max-issues\n", f->path);
    write_stats(out, f);
    text_printf(out, "%s: %s %s%s%s%s%s%s", f->path, invalid ? "invalid" : "valid", f->format,
            f->version[0] ? " " : "", f->version, f->compression[0] ? " (" : "", f->compression,
            f->compression[0] ? ")" : "");
    if (f->compared_path)
      text_printf(out, " vs %s%s%s", f->compared_format, f->compared_version[0] ? " " : "", f->compared_version);
    fputs(": ", out);
    write_counts(out, f->counts);
    fputc('\n', out);
    write_unresolved(out, f);
  }
  if (r->unreferenced_listed && !quiet) {
    for (size_t i = 0; i < r->nunreferenced; i++)
      text_printf(out, "%s: note: no model names this file (--unreferenced)\n", r->unreferenced[i]);
    text_printf(out, "unreferenced: %zu file%s\n", r->nunreferenced, r->nunreferenced == 1 ? "" : "s");
  }
}
