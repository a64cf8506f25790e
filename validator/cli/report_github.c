/* report_github.c - GitHub Actions workflow commands (::error file=…,line=…::message). */
#include <stdio.h>
#include <string.h>

#include "report_tool.h"
#include "text_safe.h"

/* Workflow-command escaping: data escapes % CR LF; properties also : and ,. What lies between
 * shows its other control characters (ESC, ...) as every text output does (text_safe.h). */
static void put_escaped(FILE *out, const char *s, int property)
{
  while (*s) {
    size_t n = strcspn(s, property ? "%\r\n:," : "%\r\n");
    text_write(out, s, n);
    s += n;
    if (!*s)
      break;
    switch (*s++) {
    case '%': fputs("%25", out); break;
    case '\r': fputs("%0D", out); break;
    case '\n': fputs("%0A", out); break;
    case ',': fputs("%2C", out); break;
    default: fputs("%3A", out); break;
    }
  }
}

void report_write_github(FILE *out, const struct report *r)
{
  for (size_t i = 0; i < r->nfiles; i++) {
    const struct report_file *f = &r->files[i];
    for (size_t k = 0; k < f->nmsgs; k++) {
      const struct report_msg *m = &f->msgs[k];
      const char *level = m->severity <= MDL_ERROR ? "error" : m->severity == MDL_WARNING ? "warning" : "notice";
      if (m->baselined)
        continue; /* accepted by --baseline: no annotation */
      fprintf(out, "::%s file=", level);
      put_escaped(out, f->path, 1);
      if (m->line)
        fprintf(out, ",line=%u,col=%u", m->line, m->column ? m->column : 1);
      fputs(",title=", out);
      put_escaped(out, m->rule->id, 1);
      fputs("::", out);
      put_escaped(out, m->message, 0);
      if (m->offset >= 0 && !m->line)
        fprintf(out, " (byte %lld)", m->offset);
      if (m->path[0]) {
        fputs(" [", out);
        put_escaped(out, m->path, 0);
        fputc(']', out);
      }
      fputc('\n', out);
    }
  }
}
