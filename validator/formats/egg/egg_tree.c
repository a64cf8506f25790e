/* egg_tree.c - reading the values of the tree and finding where they are. Values are kept
 * without their line:column (egg.h, enum egg_vform); a diagnostic about one re-lexes its entry
 * from the keyword, whose position every entry keeps, to find the exact token again. */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "egg.h"

/* four bytes of length 0, then the terminating NUL */
static const char elided_name[5] = {0, 0, 0, 0, 0};
const char *const egg_name_elided = elided_name + 4;

/* Rich value i of an entry as the checks read it. */
static void rich_val(const struct egg_node *n, uint32_t i, struct egg_value *out)
{
  const struct egg_tree_hdr *t = egg_tree_of(n);
  const struct egg_rich *r = &t->rich[n->v + n->ix_slot + 1 + i];
  out->d = r->d;
  out->ul = r->ul;
  out->s = r->s ? t->strs + r->s : NULL;
  out->len = r->len;
  out->type = r->type;
  out->flags = r->flags;
}

void egg_val(const struct egg_node *n, uint32_t i, struct egg_value *out)
{
  memset(out, 0, sizeof *out);
  switch (n->vform) {
  case VF_NUM: out->d = egg_nums(n)[i]; break;
  case VF_ONE: out->d = egg_tree_of(n)->nums[n->v]; break;
  case VF_WORD:
  case VF_QSTR:
    out->type = n->vform == VF_WORD ? V_WORD : V_QSTRING;
    out->s = egg_tree_of(n)->strs + n->v;
    out->len = egg_str_len(out->s);
    break;
  case VF_RICH: rich_val(n, i, out); break;
  default: break; /* VF_DROPPED: a number no check reads */
  }
}

const char *egg_val_str(const struct egg_node *n, uint32_t i, uint32_t *len)
{
  *len = 0;
  if (n->vform == VF_WORD || n->vform == VF_QSTR) {
    const char *s = egg_tree_of(n)->strs + n->v;
    *len = egg_str_len(s);
    return s;
  }
  if (n->vform == VF_RICH) {
    struct egg_value v;
    rich_val(n, i, &v);
    *len = v.s ? v.len : 0;
    return v.s;
  }
  return NULL;
}

int64_t egg_val_int_slow(const struct egg_node *n, uint32_t i)
{
  struct egg_value v;
  switch (n->vform) {
  case VF_NUM: return egg_double_int(egg_nums(n)[i]);
  case VF_ONE: return egg_double_int(egg_tree_of(n)->nums[n->v]);
  case VF_RICH: rich_val(n, i, &v); return egg_value_int(&v);
  default: return 0;
  }
}

int egg_val_is_number(const struct egg_node *n, uint32_t i)
{
  struct egg_value v;
  switch (n->vform) {
  case VF_WORD:
  case VF_QSTR: return 0;
  case VF_RICH: rich_val(n, i, &v); return egg_value_is_number(&v);
  default: return 1;
  }
}

int64_t egg_value_int(const struct egg_value *v)
{
  if (v->type == V_ULONG)
    return v->ul > INT64_MAX ? INT64_MAX : (int64_t)v->ul;
  return egg_double_int(v->d);
}

int egg_value_is_number(const struct egg_value *v)
{
  return v->type == V_NUMBER || v->type == V_ULONG;
}

/* Line starts kept for locating values: one in EGG_LINE_STEP lines. Asking where a texture name
 * near the top of a valid file is reads only that far; a warning on every line reads forward from
 * the last line found. */
#define EGG_LINE_STEP 64u

/* The first line end (\n or \r) at or after i, or n: eight bytes a step (the lines between two
 * located entries are short, a memchr call for each costs more than the line), a byte zero
 * after xor-ing with the line end's byte found by the borrow of subtracting one from it (a
 * borrow only reaches the bytes after a zero byte, so the first one found is the first). */
static size_t next_eol(const unsigned char *d, size_t i, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, lf, cr, hit;
    memcpy(&x, d + i, sizeof x);
    lf = x ^ (ones * '\n');
    cr = x ^ (ones * '\r');
    hit = ((lf - ones) & ~lf & highs) | ((cr - ones) & ~cr & highs);
    if (hit)
      return i + ((unsigned)__builtin_ctzll(hit) >> 3);
  }
#endif
  for (; i < n; i++)
    if (d[i] == '\n' || d[i] == '\r')
      return i;
  return n;
}

/* The offset after `count` more line ends from off, counted as the lexer counts them (\r\n and
 * \n\r once), or SIZE_MAX when the text ends first. */
static size_t lines_skip(const struct egg_doc *doc, size_t off, unsigned count)
{
  const unsigned char *d = doc->data;
  size_t n = doc->size, i = off;
  while (count) {
    if (i >= n || (i = next_eol(d, i, n)) >= n)
      return SIZE_MAX;
    if (i + 1 < n && ((d[i] == '\r' && d[i + 1] == '\n') || (d[i] == '\n' && d[i + 1] == '\r')))
      i++;
    if (!--count)
      return i + 1;
    i++;
  }
  return off;
}

/* The offset where line `line` (from 1) starts, or SIZE_MAX past the end or out of memory. */
static size_t line_start(struct egg_doc *doc, unsigned line)
{
  size_t want = (line - 1) / EGG_LINE_STEP, from;
  unsigned from_line;
  if (doc->last_line && doc->last_line <= line && line - doc->last_line < EGG_LINE_STEP) {
    /* a line just after the last one found (the geometry check asks for every pool vertex in
     * turn): read on from there; the table of line starts is not needed, and building it
     * would read the same lines a second time */
    from = doc->last_start;
    from_line = doc->last_line;
  } else {
    while (doc->nlines <= want) {
      size_t next = doc->nlines ? lines_skip(doc, doc->lines[doc->nlines - 1], EGG_LINE_STEP) : 0;
      if (next == SIZE_MAX)
        return SIZE_MAX;
      if (doc->nlines == doc->lines_cap) {
        /* arena storage: the blocks outgrown stay until the end (at most as much again) */
        size_t cap = doc->lines_cap ? doc->lines_cap * 2 : 256;
        size_t *grown = arena_calloc(doc->arena, cap, sizeof *grown);
        if (!grown)
          return SIZE_MAX;
        if (doc->nlines)
          memcpy(grown, doc->lines, doc->nlines * sizeof *grown);
        doc->lines = grown;
        doc->lines_cap = cap;
      }
      doc->lines[doc->nlines++] = next;
    }
    from = doc->lines[want];
    from_line = (unsigned)(want * EGG_LINE_STEP + 1);
    if (doc->last_line && doc->last_line <= line && doc->last_line > from_line) {
      from = doc->last_start;
      from_line = doc->last_line;
    }
  }
  from = lines_skip(doc, from, line - from_line);
  if (from != SIZE_MAX) {
    doc->last_line = line;
    doc->last_start = from;
  }
  return from;
}

static int is_value_tok(int type)
{
  return type == T_NUMBER || type == T_ULONG || type == T_QSTRING || type == T_WORD;
}

/* A quiet lexer at the token after an entry's keyword: 0, or -1 when the keyword is not found. */
static int relex_at(struct egg_doc *doc, const struct egg_node *n, struct egg_lexer *lx)
{
  struct egg_token t;
  size_t start, off;
  if (!doc->data || n->line == 0 || n->col == 0 || (start = line_start(doc, n->line)) == SIZE_MAX)
    return -1;
  off = start + n->col - 1;
  if (off >= doc->size || off < start)
    return -1;
  egg_lex_init(lx, doc->data, doc->size, NULL);
  lx->pos = off;
  lx->line = n->line;
  lx->line_start = start;
  if (doc->data[off] == '<') {
    /* a keyword is a bare run to the next stop byte, as egg_lex_next reads it: no need to
     * classify it again (a pool's every vertex comes here for its position) */
    lx->pos = egg_lex_bare_end(doc->data, off + 1, doc->size);
  } else {
    egg_lex_next(lx, &t); /* the keyword */
  }
  return 0;
}

void egg_val_loc(struct egg_doc *doc, const struct egg_node *n, int64_t k, unsigned *line, unsigned *col)
{
  struct egg_lexer lx;
  struct egg_token t;
  *line = n->line;
  *col = n->col;
  if (relex_at(doc, n, &lx) < 0)
    return;
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

uint32_t egg_values_relex(struct egg_doc *doc, const struct egg_node *n, double *out, uint32_t max)
{
  struct egg_lexer lx;
  struct egg_token t;
  uint32_t got = 0;
  if (relex_at(doc, n, &lx) < 0)
    return 0;
  egg_lex_next(&lx, &t);
  if (is_value_tok(t.type))
    egg_lex_next(&lx, &t); /* the header name */
  if (t.type != T_LBRACE)
    return 0;
  while (got < max) {
    egg_lex_next(&lx, &t);
    if (t.type != T_NUMBER && t.type != T_ULONG)
      break;
    out[got++] = t.num;
  }
  return got;
}

void egg_emit_val(struct egg_doc *doc, enum rule_index rule, const struct egg_node *n, int64_t k,
                  const char *expected, const char *fmt, ...)
{
  unsigned line, col;
  va_list ap;
  if (!doc->panda && !diag_wanted(doc->ctx->diag, rule)) {
    /* folded beyond its located repeats: only counted, so the value need not be found
     * (the panda profile drops what follows a syntax error by position, so it always locates) */
    struct mdl_loc loc = loc_text(n->line, n->col, NULL);
    diag_emit(doc->ctx->diag, rule, &loc, NULL, NULL);
    return;
  }
  egg_val_loc(doc, n, k, &line, &col);
  va_start(ap, fmt);
  egg_vemit(doc, rule, line, col, expected, fmt, ap);
  va_end(ap);
}
