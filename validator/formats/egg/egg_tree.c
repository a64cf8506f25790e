/* egg_tree.c - reading the values of the tree and finding where they are. Values are kept
 * without their line:column (egg.h, enum egg_vform); a diagnostic about one re-lexes its entry
 * from the keyword, whose position every entry keeps, to find the exact token again. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "text_window.h"

/* four bytes of length 0, then the terminating NUL */
/* -128 to 127 in order: a VF_ONE entry's inline value is read as one of these bytes */
#define EGG_I8_ROW(k) (int8_t)(k - 128), (int8_t)(k - 127), (int8_t)(k - 126), (int8_t)(k - 125), \
    (int8_t)(k - 124), (int8_t)(k - 123), (int8_t)(k - 122), (int8_t)(k - 121)
const int8_t egg_i8_values[256] = {
  EGG_I8_ROW(0), EGG_I8_ROW(8), EGG_I8_ROW(16), EGG_I8_ROW(24), EGG_I8_ROW(32), EGG_I8_ROW(40),
  EGG_I8_ROW(48), EGG_I8_ROW(56), EGG_I8_ROW(64), EGG_I8_ROW(72), EGG_I8_ROW(80), EGG_I8_ROW(88),
  EGG_I8_ROW(96), EGG_I8_ROW(104), EGG_I8_ROW(112), EGG_I8_ROW(120), EGG_I8_ROW(128),
  EGG_I8_ROW(136), EGG_I8_ROW(144), EGG_I8_ROW(152), EGG_I8_ROW(160), EGG_I8_ROW(168),
  EGG_I8_ROW(176), EGG_I8_ROW(184), EGG_I8_ROW(192), EGG_I8_ROW(200), EGG_I8_ROW(208),
  EGG_I8_ROW(216), EGG_I8_ROW(224), EGG_I8_ROW(232), EGG_I8_ROW(240), EGG_I8_ROW(248)};
_Static_assert(EGG_ONE_INLINE + 255 < EGG_CLOSE_FAR, "an inline value fits close");
_Static_assert(EGG_STR_INLINE / 4 + 1 < EGG_CLOSE_FAR, "an inline string offset fits close");

const double egg_dec_pow10[16] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
                                  1e11, 1e12, 1e13, 1e14, 1e15};

static const char elided_name[5] = {0, 0, 0, 0, 0};
const char *const egg_name_elided = elided_name + 4;

/* Rich value i of an entry as the checks read it. */
static void rich_val(const struct egg_node *n, uint32_t i, struct egg_value *out)
{
  const struct egg_tree_hdr *t = egg_tree_of(n);
  uint32_t v = egg_v_in(t, n);
  const struct egg_rich *r;
  if (v & (EGG_V_F32 | EGG_V_I8)) { /* strings only (the lexer gives them no number) */
    uint32_t w;
    if (v & EGG_V_I8) {
      /* a byte each, the code of its 4-byte slot in the dictionary after them */
      const int8_t *b = t->i8 + (v & EGG_V_OFF);
      uint32_t count;
      memcpy(&count, b, sizeof count);
      memcpy(&w, b + 4 + count + 1 + (size_t)(uint8_t)b[4 + i] * sizeof w, sizeof w);
    } else {
      memcpy(&w, t->f32 + (v & EGG_V_OFF) + (n->close == EGG_CLOSE_FAR) + i, sizeof w);
    }
    out->d = 0;
    out->ul = 0;
    out->s = t->strs + (w & ~EGG_WORD_QUOTED);
    out->len = egg_str_len(out->s);
    out->type = w & EGG_WORD_QUOTED ? V_QSTRING : V_WORD;
    out->flags = 0;
    return;
  }
  r = &t->rich[v + n->ix_slot + 1 + i];
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
  case VF_NUM:
  case VF_ONE: out->d = egg_val_d(n, i); break;
  case VF_WORD:
  case VF_QSTR:
    out->type = n->vform == VF_WORD ? V_WORD : V_QSTRING;
    out->s = egg_tree_of(n)->strs + egg_str_v_in(egg_tree_of(n), n);
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
    const struct egg_tree_hdr *t = egg_tree_of(n);
    const char *s = t->strs + egg_str_v_in(t, n);
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
  case VF_NUM:
  case VF_ONE: return egg_double_int(egg_val_d(n, i));
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

/* Checkpoints kept for locating entries: the line of every EGG_CHECKPOINT-th byte. Asking where
 * a texture near the top of a valid file is reads only that far; a line of millions of entries
 * (`<Group>{}<Group>{}...`) is read from the checkpoint before each, never from its start. */
#define EGG_CHECKPOINT 4096u

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

/* Read on from *c (a position, its line and line start) to the first position at or after
 * `to` that is not inside a line end, counting line ends as the lexer does (\r\n and \n\r once). */
static void read_on(const struct egg_doc *doc, struct egg_checkpoint *c, size_t to)
{
  const unsigned char *d = doc->data;
  size_t n = doc->size, i = c->pos, from = c->pos;
  while (i < to) {
    i = next_eol(d, i, n < to ? n : to);
    if (i >= to || i >= n)
      break;
    if (i + 1 < n && ((d[i] == '\r' && d[i + 1] == '\n') || (d[i] == '\n' && d[i + 1] == '\r')))
      i++;
    i++;
    c->line++;
    c->line_start = i;
  }
  c->pos = i > to ? i : to;
  /* the checkpoints are built a block at a time, each read once: behind the parser (a
   * diagnostic during the parse) or after it, those pages go back as others come */
  text_window_reread(doc->window, d, from, (c->pos < n ? c->pos + 1 : n) - from);
}

void egg_node_loc(const struct egg_node *n, unsigned *line, unsigned *col)
{
  struct egg_doc *doc = egg_tree_of(n)->doc;
  size_t off = n->off, k = off / EGG_CHECKPOINT;
  struct egg_checkpoint c;
  *line = 1;
  *col = (unsigned)off + 1;
  if (!doc || !doc->data || off >= doc->size)
    return;
  while (doc->ncps <= k) {
    if (doc->ncps == doc->cps_cap) {
      /* arena storage: the blocks outgrown stay until the end (at most as much again) */
      size_t cap = doc->cps_cap ? doc->cps_cap * 2 : 256;
      struct egg_checkpoint *grown = arena_alloc_lazy(doc->arena, cap, sizeof *grown);
      if (!grown)
        return;
      if (doc->ncps)
        memcpy(grown, doc->cps, doc->ncps * sizeof *grown);
      doc->cps = grown;
      doc->cps_cap = cap;
    }
    if (!doc->ncps) {
      c.pos = c.line_start = 0;
      c.line = 1;
    } else {
      c = doc->cps[doc->ncps - 1];
      read_on(doc, &c, doc->ncps * (size_t)EGG_CHECKPOINT);
    }
    doc->cps[doc->ncps++] = c;
  }
  c = doc->cps[k];
  if (c.pos > off) /* a line end across the checkpoint: the one before */
    c = doc->cps[k - 1];
  if (doc->last_line && doc->last_pos <= off && doc->last_pos > c.pos) {
    /* after the last one found (a walk in file order): read on from there */
    c.pos = doc->last_pos;
    c.line = doc->last_line;
    c.line_start = doc->last_start;
  }
  read_on(doc, &c, off);
  doc->last_pos = c.pos;
  doc->last_line = c.line;
  doc->last_start = c.line_start;
  *line = c.line;
  *col = (unsigned)(off - c.line_start + 1);
}

static int far_cmp(const void *a, const void *b)
{
  const struct egg_far_close *x = a, *y = b;
  return x->ix < y->ix ? -1 : x->ix > y->ix;
}

uint32_t egg_close_line(const struct egg_node *n)
{
  const struct egg_tree_hdr *t;
  struct egg_doc *doc;
  size_t ix, lo, hi;
  if (n->vform != VF_NONE)
    return 0;
  t = egg_tree_of(n);
  if (n->ix_slot)
    return (uint32_t)egg_slot_u64(t->nums + egg_v_in(t, n) + 1);
  if (!n->close)
    return 0;
  if (n->close != EGG_CLOSE_FAR)
    return egg_node_line(n) + n->close - 1;
  /* closed far from its keyword: in the doc's list, in the order they closed until sorted here
   * (read after the parse: spans) */
  doc = t->doc;
  ix = egg_node_ix(t, n);
  if (!doc->far_sorted) {
    qsort(doc->far, doc->nfar, sizeof *doc->far, far_cmp);
    doc->far_sorted = 1;
  }
  for (lo = 0, hi = doc->nfar; lo < hi;) {
    size_t mid = lo + (hi - lo) / 2;
    if (doc->far[mid].ix < ix)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < doc->nfar && doc->far[lo].ix == ix ? doc->far[lo].line : 0;
}

unsigned egg_node_line(const struct egg_node *n)
{
  unsigned line, col;
  egg_node_loc(n, &line, &col);
  return line;
}

static int is_value_tok(int type)
{
  return type == T_NUMBER || type == T_ULONG || type == T_QSTRING || type == T_WORD;
}

/* A quiet lexer at the token after an entry's keyword: 0, or -1 when the keyword is not found.
 * line and col are the keyword's (egg_node_loc, which the caller has already asked), so the lexer
 * counts lines on from there; with line 0 they are not counted (the values alone are read). */
static int relex_at(struct egg_doc *doc, const struct egg_node *n, struct egg_lexer *lx, unsigned line,
                    unsigned col)
{
  struct egg_token t;
  size_t off = n->off;
  if (!doc->data || off >= doc->size)
    return -1;
  egg_lex_init(lx, doc->data, doc->size, NULL);
  lx->pos = off;
  lx->line = line;
  lx->line_start = line ? off - (col - 1) : off;
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
  int64_t i = 0;
  size_t from;
  egg_node_loc(n, line, col);
  if (k >= 0 && doc->vcur_valid && doc->vcur_off == n->off && doc->vcur_k < k) {
    lx = doc->vcur_lx; /* on from value vcur_k, found last time */
    i = doc->vcur_k + 1;
    from = lx.pos;
  } else {
    if (relex_at(doc, n, &lx, *line, *col) < 0)
      return;
    from = n->off;
    egg_lex_next(&lx, &t);
    if (is_value_tok(t.type)) { /* the header name */
      if (k < 0) {
        *line = t.line;
        *col = t.col;
        goto done;
      }
      egg_lex_next(&lx, &t);
    }
    if (t.type != T_LBRACE || k < 0)
      goto done;
  }
  for (;; i++) {
    egg_lex_next(&lx, &t);
    if (!is_value_tok(t.type))
      break;
    if (i == k) {
      *line = t.line;
      *col = t.col;
      doc->vcur_lx = lx;
      doc->vcur_off = n->off;
      doc->vcur_k = k;
      doc->vcur_valid = 1;
      break;
    }
  }
done:
  text_window_reread(doc->window, doc->data, from, lx.pos - from);
}

uint32_t egg_values_relex(struct egg_doc *doc, const struct egg_node *n, double *out, uint32_t max)
{
  struct egg_lexer lx;
  struct egg_token t;
  uint32_t got = 0;
  if (relex_at(doc, n, &lx, 0, 0) < 0)
    return 0;
  egg_lex_next(&lx, &t);
  if (is_value_tok(t.type))
    egg_lex_next(&lx, &t); /* the header name */
  if (t.type != T_LBRACE)
    return 0;
  while (got < max) {
    /* the plain decimals a run at a time (a pool's every vertex comes here for its position),
     * then any other token as egg_lex_next reads it */
    got += (uint32_t)egg_lex_decimals(&lx, out + got, max - got, 0, NULL);
    if (got == max)
      break;
    egg_lex_next(&lx, &t);
    if (t.type != T_NUMBER && t.type != T_ULONG)
      break;
    out[got++] = t.num;
  }
  text_window_reread(doc->window, doc->data, n->off, lx.pos - n->off);
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
    struct mdl_loc loc = loc_none();
    diag_emit(doc->ctx->diag, rule, &loc, NULL, NULL);
    return;
  }
  egg_val_loc(doc, n, k, &line, &col);
  va_start(ap, fmt);
  egg_vemit(doc, rule, line, col, expected, fmt, ap);
  va_end(ap);
}

void egg_emit_node(struct egg_doc *doc, enum rule_index rule, const struct egg_node *n,
                   const char *expected, const char *fmt, ...)
{
  unsigned line, col;
  va_list ap;
  if (!doc->panda && !diag_wanted(doc->ctx->diag, rule)) {
    struct mdl_loc loc = loc_none(); /* folded: only counted (egg_emit_val) */
    diag_emit(doc->ctx->diag, rule, &loc, NULL, NULL);
    return;
  }
  egg_node_loc(n, &line, &col);
  va_start(ap, fmt);
  egg_vemit(doc, rule, line, col, expected, fmt, ap);
  va_end(ap);
}
