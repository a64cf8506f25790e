/* egg_tree.c - reading the values of the tree and finding where they are. Values are kept
 * without their line:column (egg.h, enum egg_vform); a diagnostic about one re-lexes its entry
 * from the keyword, whose position every entry keeps, to find the exact token again. */
#include <stdarg.h>
#include <string.h>

#include "egg.h"

static int64_t double_int(double d)
{
  if (!(d == d) || d <= -9.2e18)
    return INT64_MIN;
  if (d >= 9.2e18)
    return INT64_MAX;
  return (int64_t)d;
}

void egg_val(const struct egg_node *n, uint32_t i, struct egg_value *out)
{
  memset(out, 0, sizeof *out);
  switch (n->vform) {
  case VF_NUM: out->d = n->v.num[i]; break;
  case VF_ONE: out->d = n->v.one; break;
  case VF_WORD:
  case VF_QSTR:
    out->type = n->vform == VF_WORD ? V_WORD : V_QSTRING;
    out->s = n->v.str;
    out->len = egg_str_len(n->v.str);
    break;
  case VF_RICH: *out = n->v.rich[i]; break;
  default: break; /* VF_DROPPED: a number no check reads */
  }
}

const char *egg_val_str(const struct egg_node *n, uint32_t i, uint32_t *len)
{
  *len = 0;
  if (n->vform == VF_WORD || n->vform == VF_QSTR) {
    *len = egg_str_len(n->v.str);
    return n->v.str;
  }
  if (n->vform == VF_RICH && n->v.rich[i].s) {
    *len = n->v.rich[i].len;
    return n->v.rich[i].s;
  }
  return NULL;
}

int64_t egg_val_int_slow(const struct egg_node *n, uint32_t i)
{
  switch (n->vform) {
  case VF_NUM: return double_int(n->v.num[i]);
  case VF_ONE: return double_int(n->v.one);
  case VF_RICH: return egg_value_int(&n->v.rich[i]);
  default: return 0;
  }
}

int egg_val_is_number(const struct egg_node *n, uint32_t i)
{
  switch (n->vform) {
  case VF_WORD:
  case VF_QSTR: return 0;
  case VF_RICH: return egg_value_is_number(&n->v.rich[i]);
  default: return 1;
  }
}

int64_t egg_value_int(const struct egg_value *v)
{
  if (v->type == V_ULONG)
    return v->ul > INT64_MAX ? INT64_MAX : (int64_t)v->ul;
  return double_int(v->d);
}

int egg_value_is_number(const struct egg_value *v)
{
  return v->type == V_NUMBER || v->type == V_ULONG;
}

/* Offsets of the line starts, counted as the lexer counts newlines (\r\n and \n\r once). */
static int lines_build(struct egg_doc *doc)
{
  const unsigned char *d = doc->data;
  size_t n = doc->size, count = 1, k = 0;
  if (doc->lines)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (d[i] == '\n' || d[i] == '\r') {
      if (i + 1 < n && ((d[i] == '\r' && d[i + 1] == '\n') || (d[i] == '\n' && d[i + 1] == '\r')))
        i++;
      count++;
    }
  doc->lines = arena_calloc(doc->arena, count, sizeof *doc->lines);
  if (!doc->lines)
    return -1;
  doc->lines[k++] = 0;
  for (size_t i = 0; i < n; i++)
    if (d[i] == '\n' || d[i] == '\r') {
      if (i + 1 < n && ((d[i] == '\r' && d[i + 1] == '\n') || (d[i] == '\n' && d[i + 1] == '\r')))
        i++;
      doc->lines[k++] = i + 1;
    }
  doc->nlines = count;
  return 0;
}

static int is_value_tok(int type)
{
  return type == T_NUMBER || type == T_ULONG || type == T_QSTRING || type == T_WORD;
}

void egg_val_loc(struct egg_doc *doc, const struct egg_node *n, int64_t k, unsigned *line, unsigned *col)
{
  struct egg_lexer lx;
  struct egg_token t;
  size_t off;
  *line = n->line;
  *col = n->col;
  if (!doc->data || lines_build(doc) < 0 || n->line == 0 || n->line > doc->nlines || n->col == 0)
    return;
  off = doc->lines[n->line - 1] + n->col - 1;
  if (off >= doc->size)
    return;
  egg_lex_init(&lx, doc->data, doc->size, NULL);
  lx.pos = off;
  lx.line = n->line;
  lx.line_start = doc->lines[n->line - 1];
  egg_lex_next(&lx, &t); /* the keyword */
  egg_lex_next(&lx, &t);
  if (is_value_tok(t.type)) { /* the header name */
    if (k < 0) {
      *line = t.line;
      *col = t.col;
      return;
    }
    egg_lex_next(&lx, &t);
  }
  if (t.type != T_LBRACE || k < 0)
    return;
  for (int64_t i = 0;; i++) {
    egg_lex_next(&lx, &t);
    if (!is_value_tok(t.type))
      return;
    if (i == k) {
      *line = t.line;
      *col = t.col;
      return;
    }
  }
}

void egg_emit_val(struct egg_doc *doc, enum rule_index rule, const struct egg_node *n, int64_t k,
                  const char *expected, const char *fmt, ...)
{
  unsigned line, col;
  va_list ap;
  egg_val_loc(doc, n, k, &line, &col);
  va_start(ap, fmt);
  egg_vemit(doc, rule, line, col, expected, fmt, ap);
  va_end(ap);
}
