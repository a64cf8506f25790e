/* egg_parse.c - tokens to a tree of entries, each with its line:column, checked against the
 * grammar table as it is built. Syntax errors are located where Panda3D's LALR parser would
 * see them (the first token that cannot continue a legal entry); unlike Panda3D the parser then
 * skips to the end of the enclosing entry and goes on, so one run reports every problem. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "mem_bound.h"
#include "text_window.h"

/* the entry steps every entry of a file takes, inlined into the loop that calls them: a call
 * for each costs about as much as the work */
#if defined(__GNUC__) || defined(__clang__)
#define PARSE_INLINE inline __attribute__((always_inline))
#else
#define PARSE_INLINE inline
#endif

struct frame {
  struct egg_node *node;  /* doc->node_arr + idx: set again when the array moves (node_new) */
  size_t idx;
  int ctx;
  size_t vstart;     /* first of this node's values on the value stack */
  size_t maxvals;    /* most values the entry takes, (size_t)-1 for any number */
  int rich;          /* a value that is not a plain decimal: kept in rstack too */
  int fastnum;       /* plain decimals take the short path: 1 numbers, 2 integers */
  int lazy;          /* values counted, not kept: the lexer need not convert them */
  size_t let_go;     /* a lazy frame's values counted and let go from the value stack, which
                      * then holds a few at a time, not 8 bytes a value of a `<V>` of millions
                      * of 2-byte numbers (issue 26); another frame's values moved to the tree's
                      * f32 already (frame_spill) */
  size_t spill_at;   /* where those are in the tree's i8 or f32 (their count slot), SIZE_MAX: none */
  size_t spill_nums; /* nums_used as they began: their codes' escapes are the nums after it */
  int spill_kind;    /* which (PK_I8, PK_F32, PK_DEC) */
  int spill_dead;    /* a value no kind holds: no more are moved */
  int seen_child;
  int seen_ref;      /* <VertexRef>: its <Ref> has been read */
  int seen_one;      /* <Distance>/<SwitchCondition>: their one child has been read */
  int containers;    /* groups/tables open down to here (Panda3D's stack limit) */
  /* a pool's <Vertex> in a validation-only decode: the number slab as it was after the vertex
   * itself, to give back what its attributes took once it is checked (vertex_done) */
  int vertex_mark;
  unsigned long morphs;   /* morph targets so far: egg_check_anim reads their names later */
  /* such a vertex's first <Normal> and first <RGBA> (entries; 0: none yet), and the <Normal>s
   * equal to its first that attr_replaces let go (egg_geometry_note_vertex counts them) */
  size_t attr_first[2];
  unsigned long normals_folded;
  size_t nums_used, f32_used, i8_used;
  int64_t index;          /* the number of an entry that has one (egg_has_index) */
  uint32_t line;          /* of the keyword (the closing brace is kept as lines after it) */
  int v_reserved;         /* the entry's value slot is decided (frame_reserve_v), */
  size_t v_at;            /* and where it is in the doc's vals (SIZE_MAX: none) */
  size_t name_at;         /* where the name is in the doc's names (SIZE_MAX: none) */
};

/* What a new entry's frame takes from its kind, worked out once a parse rather than once an
 * entry (open_entry: a few tests each, on every entry of a file). */
struct spec_facts {
  size_t maxvals;    /* count_max of its counts */
  uint8_t fastnum;   /* struct frame's fastnum */
  uint8_t lazy;      /* struct frame's lazy (a validation-only decode of a droppable entry) */
  uint8_t container; /* is_container */
  uint8_t nests;     /* egg_nests */
};

/* Small cache of value strings already copied (<TRef> { skin } a million times is one copy). */
#define STR_CACHE 64

/* Most distinct strings a run of words moved as a byte each (PK_WD) names; past it, 4 bytes each. */
#define WDICT_MAX 255u
#define WDICT_HASH 512u

struct parser {
  /* the dictionary of the run of words being moved as bytes (PK_WD; one frame moves values at a
   * time: a child's opening ends its parent's run, spill_finish): each distinct 4-byte slot
   * (word_slot) once, and a hash of them (code + 1; 0: empty) */
  uint32_t wdict[WDICT_MAX];
  uint16_t wdict_hash[WDICT_HASH];
  unsigned nwdict;
  struct egg_doc *doc;
  struct egg_lexer lx;
  struct egg_token tok;
  struct frame stack[EGG_MAX_DEPTH];
  unsigned depth;
  double *dstack;             /* values of the open entries, as numbers */
  struct egg_rich *rstack;    /* the same values in full, for frames that are rich */
  size_t nvals, capvals;
  uint32_t strs[STR_CACHE];   /* offsets in the tree's strings */
  int8_t child[C_COUNT][KW_COUNT]; /* egg_grammar_child, one row per context as first needed */
  uint32_t rows;                   /* bit c: row c is filled */
  int oom;
  struct spec_facts facts[S_COUNT]; /* what open_entry derives from an entry's kind (spec_facts_init) */
  struct egg_kw_cache kw_cache[EGG_KW_CACHE_MAX + 1]; /* the lexer's (struct egg_lexer) */
  size_t give_at; /* where the text behind is next given back (text_behind) */
};

static int child_spec(struct parser *p, int ctx, int kw)
{
  if (!(p->rows & (1u << ctx))) {
    for (int k = 0; k < KW_COUNT; k++)
      p->child[ctx][k] = (int8_t)egg_grammar_child(ctx, k);
    p->rows |= 1u << ctx;
  }
  return p->child[ctx][kw];
}

const char *egg_show(char *out, size_t cap, const char *s, size_t len)
{
  size_t n = 0;
  if (cap < 8)
    return "";
  for (size_t i = 0; i < len && n + 5 < cap; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f) {
      static const char hex[] = "0123456789abcdef";
      if (n + 9 >= cap)
        break;
      out[n++] = '\\';
      out[n++] = 'x';
      out[n++] = hex[c >> 4];
      out[n++] = hex[c & 15];
    } else {
      out[n++] = (char)c;
    }
    if (i + 1 < len && n + 5 >= cap) {
      memcpy(out + n, "...", 3);
      n += 3;
      break;
    }
  }
  out[n] = 0;
  return out;
}

static const char *tok_show(const struct egg_token *t, char *buf, size_t cap)
{
  switch (t->type) {
  case T_EOF: return "end of file";
  case T_LBRACE: return "{";
  case T_RBRACE: return "}";
  case T_KEYWORD: return egg_kw_spelling(t->kw);
  default: return egg_show(buf, cap, t->s, t->len);
  }
}

/* How far behind the lexer the text is given back: the open entries read their values' words
 * again as they close (most are far shorter; one that is not reads its pages back from the
 * file), and how often the parser says how far it got. */
#define TEXT_BEHIND ((size_t)1 << 20)

/* The text more than TEXT_BEHIND before the lexer is not read in order again: a mapped input
 * gives it back (text_window.h), so the peak is the tree and a window, not the tree and the
 * whole text; an inflated one keeps it (text_window_done does nothing). */
static void text_behind(struct parser *p)
{
  size_t pos = p->lx.pos;
  if (pos < p->give_at)
    return;
  text_window_done(p->doc->window, p->lx.data, pos - TEXT_BEHIND);
  p->give_at = pos + TEXT_BEHIND;
}

static void advance(struct parser *p)
{
  egg_lex_next_inline(&p->lx, &p->tok);
  text_behind(p);
}

static void syntax(struct parser *p, enum rule_index rule, const struct egg_token *at,
                   const char *expected)
{
  char buf[96];
  egg_emit(p->doc, rule, at->line, at->col, expected, "%s", tok_show(at, buf, sizeof buf));
  if (!p->doc->syntax_failed) {
    p->doc->syntax_failed = 1;
    p->doc->fail_line = at->line;
    p->doc->fail_col = at->col;
  }
}

static void fail_at(struct parser *p, enum rule_index rule, const struct egg_token *at,
                    const char *expected, const char *actual)
{
  egg_emit(p->doc, rule, at->line, at->col, expected, "%s", actual);
  if (!p->doc->syntax_failed) {
    p->doc->syntax_failed = 1;
    p->doc->fail_line = at->line;
    p->doc->fail_col = at->col;
  }
}

/* Skip a balanced { ... } starting at the current '{'. */
static void skip_block(struct parser *p)
{
  unsigned long level = 0;
  do {
    if (p->tok.type == T_LBRACE)
      level++;
    else if (p->tok.type == T_RBRACE)
      level--;
    else if (p->tok.type == T_EOF)
      return;
    advance(p);
  } while (level);
}

/* After an error inside the body of the top frame: skip to its closing brace (not consumed). */
static void skip_to_close(struct parser *p)
{
  unsigned long level = 0;
  for (;;) {
    if (p->tok.type == T_EOF)
      return;
    if (p->tok.type == T_RBRACE) {
      if (!level)
        return;
      level--;
    } else if (p->tok.type == T_LBRACE) {
      level++;
    }
    advance(p);
  }
}

/* After an error in a header: drop the rest of the header and its block, if any. */
static void skip_header(struct parser *p)
{
  while (p->tok.type != T_EOF && p->tok.type != T_RBRACE && p->tok.type != T_LBRACE &&
         p->tok.type != T_KEYWORD)
    advance(p);
  if (p->tok.type == T_LBRACE)
    skip_block(p);
}

/* Room for `more` elements of elem bytes in a pool at *base (used, *cap): pools grow by half
 * again, in one block each, and entries name their elements by 32-bit offsets. 0, or -1 when
 * out of memory (or past what 32 bits count). */
static int pool_room(struct parser *p, void **base, size_t used, size_t *cap, size_t more, size_t elem)
{
  size_t want, ncap;
  void *grown;
  if (*cap - used >= more)
    return 0;
  if (more > UINT32_MAX - used) {
    p->oom = 1;
    return -1;
  }
  want = used + more;
  ncap = *cap < 256 ? 256 : *cap + *cap / 2;
  if (ncap < want)
    ncap = want;
  if (ncap > UINT32_MAX)
    ncap = UINT32_MAX;
  grown = ncap <= SIZE_MAX / elem ? arena_regrow(p->doc->arena, *base, ncap * elem) : NULL;
  if (!grown) {
    p->oom = 1;
    return -1;
  }
  *base = grown;
  *cap = ncap;
  return 0;
}

/* The tree's header says where its pools are now. */
static void tree_pools(struct egg_doc *doc)
{
  if (doc->tree) {
    doc->tree->strs = doc->strs;
    doc->tree->nums = doc->nums;
    doc->tree->f32 = doc->f32;
    doc->tree->i8 = doc->i8;
    doc->tree->rich = doc->rich;
    doc->tree->doc = doc;
    doc->tree->names = &doc->names;
    doc->tree->vals = &doc->vals;
  }
}

/* Entry ix has val in column c (struct egg_col): no entry after ix has one yet (names are given
 * as entries open, value slots before their first child or as they close). 0, or -1 when out of
 * memory. */
static int col_push_grow(struct parser *p, struct egg_col *c, size_t ix, uint32_t val);
static inline int col_push(struct parser *p, struct egg_col *c, size_t ix, uint32_t val)
{
  if (ix / 64 < c->nblk && c->used < c->cap) { /* the usual case: room in a block begun */
    c->mask[ix / 64] |= (uint64_t)1 << (ix % 64);
    c->vals[c->used++] = val;
    return 0;
  }
  return col_push_grow(p, c, ix, val);
}

static int col_push_grow(struct parser *p, struct egg_col *c, size_t ix, uint32_t val)
{
  size_t blk = ix / 64;
  if (blk >= c->nblk) {
    void *m = c->mask, *b = c->base;
    size_t cap = c->blk_cap;
    if (pool_room(p, &m, c->nblk, &cap, blk + 1 - c->nblk, sizeof *c->mask) < 0)
      return -1;
    c->mask = m;
    cap = c->blk_cap;
    if (pool_room(p, &b, c->nblk, &cap, blk + 1 - c->nblk, sizeof *c->base) < 0)
      return -1;
    c->base = b;
    c->blk_cap = cap;
    for (; c->nblk <= blk; c->nblk++) {
      c->mask[c->nblk] = 0;
      c->base[c->nblk] = (uint32_t)c->used;
    }
  }
  {
    void *v = c->vals;
    if (pool_room(p, &v, c->used, &c->cap, 1, sizeof *c->vals) < 0)
      return -1;
    c->vals = v;
  }
  c->mask[blk] |= (uint64_t)1 << (ix % 64);
  c->vals[c->used++] = val;
  return 0;
}

/* Let go of the values of the entries after ix (vertex_done). */
static void col_truncate(struct egg_col *c, size_t ix)
{
  size_t blk = ix / 64;
  uint64_t keep = ix % 64 == 63 ? ~(uint64_t)0 : ((uint64_t)2 << (ix % 64)) - 1;
  if (blk >= c->nblk)
    return;
  c->mask[blk] &= keep;
  c->used = c->base[blk] + egg_popcount64(c->mask[blk]);
  c->nblk = blk + 1;
}

/* A new entry at the end of the array (zeroed), which grows by half again when full: the open
 * frames' node pointers are set again when it moves. */
static struct egg_node *node_new(struct parser *p, int spec, const struct egg_token *kw)
{
  struct egg_doc *doc = p->doc;
  struct egg_node *n;
  if (doc->node_used == doc->node_cap) {
    size_t cap = doc->node_cap < 256 ? 256 : doc->node_cap + doc->node_cap / 2;
    struct egg_tree_hdr *tree;
    if (cap > UINT32_MAX) /* links are 32-bit counts of entries */
      cap = UINT32_MAX;
    tree = cap > doc->node_used && cap <= (SIZE_MAX - sizeof *tree) / sizeof *n
             ? arena_regrow(doc->arena, doc->tree, sizeof *tree + cap * sizeof *n) : NULL;
    if (!tree) {
      p->oom = 1;
      return NULL;
    }
    doc->tree = tree;
    doc->node_arr = (struct egg_node *)(void *)(tree + 1);
    doc->node_cap = cap;
    tree_pools(doc);
    for (unsigned i = 0; i < p->depth; i++)
      p->stack[i].node = doc->node_arr + p->stack[i].idx;
    if (doc->node_used)
      doc->root = doc->node_arr;
  }
  n = doc->node_arr + doc->node_used++;
  memset(n, 0, sizeof *n);
  n->spec = (unsigned)spec;
  /* the root's token has no bytes: offset 0, line 1 column 1 */
  n->off = kw->s ? (uint32_t)((const unsigned char *)kw->s - p->lx.data) : 0;
  n->size = 1;
  doc->nodes++;
  doc->spec_count[spec]++;
  return n;
}

/* count slots in the tree's numbers: the offset of the first, or UINT32_MAX when out of memory. */
static uint32_t nums_new(struct parser *p, size_t count)
{
  struct egg_doc *doc = p->doc;
  size_t at = doc->nums_used;
  void *base = doc->nums;
  if (count > EGG_V_OFF - at) { /* past what a value slot names (EGG_V_OFF) */
    p->oom = 1;
    return UINT32_MAX;
  }
  if (pool_room(p, &base, doc->nums_used, &doc->nums_cap, count, sizeof *doc->nums) < 0)
    return UINT32_MAX;
  if (base != doc->nums) {
    doc->nums = base;
    tree_pools(doc);
  }
  doc->nums_used += count;
  return (uint32_t)at;
}

static void nums_set_u64(double *slot, uint64_t u) { memcpy(slot, &u, sizeof u); }

/* Kinds of packed values: the bytes a value takes (EGG_V_I8, EGG_V_F32); PK_DEC: a short
 * decimal's 4-byte code in f32 (EGG_V_DEC); PK_W: strings, 4 bytes each in f32 (a VF_RICH
 * entry's EGG_V_F32); PK_WD: strings, a byte each in i8, the code of the string's slot in the
 * run's dictionary (struct parser's wdict; a VF_RICH entry's EGG_V_I8). */
enum { PK_I8 = 1, PK_W = 2, PK_F32 = 4, PK_WD = 8, PK_DEC = 16 };

/* count slots in the tree's i8 or f32 (kind): the offset of the first, or UINT32_MAX when out of
 * memory or past what a value slot names (EGG_V_OFF; the caller keeps doubles then). */
static uint32_t pack_new(struct parser *p, int kind, size_t count)
{
  struct egg_doc *doc = p->doc;
  size_t at = kind == PK_I8 ? doc->i8_used : doc->f32_used;
  void *base = kind == PK_I8 ? (void *)doc->i8 : (void *)doc->f32;
  if (count > EGG_V_OFF - at)
    return UINT32_MAX;
  if (kind == PK_I8) {
    if (pool_room(p, &base, doc->i8_used, &doc->i8_cap, count, 1) < 0)
      return UINT32_MAX;
    if (base != doc->i8) {
      doc->i8 = base;
      tree_pools(doc);
    }
    doc->i8_used += count;
  } else {
    if (pool_room(p, &base, doc->f32_used, &doc->f32_cap, count, sizeof *doc->f32) < 0)
      return UINT32_MAX;
    if (base != doc->f32) {
      doc->f32 = base;
      tree_pools(doc);
    }
    doc->f32_used += count;
  }
  return (uint32_t)at;
}

/* An integer from -128 to 127 (not -0, whose sign a byte loses). */
static inline int i8_exact(double d)
{
  return d >= -128.0 && d <= 127.0 && d == (double)(int)d && (d != 0 || !signbit(d));
}

/* A plain decimal that a float holds exactly (and gives back as the same double): most a file
 * spells (0, 1, -1, 0.5, indices below 2^24). Checked against the range first: a double past
 * it does not convert to a float in ISO C. */
static inline int f32_exact(double d)
{
  return d >= -FLT_MAX && d <= FLT_MAX && (double)(float)d == d;
}

/* The code (EGG_V_DEC) of a value m / 10^k, m below 2^27 and k below 15, that egg_dec_value
 * gives back bit for bit: 1 with *code set, else 0. The lexer gives a short decimal (at most 8
 * digits, 15 decimals) as that one division, so its m and k are found from the double; any
 * other value (a long mantissa, an exponent, an infinity) takes an escape (dec_escape). */
static int dec_code(double d, uint32_t *code)
{
  const double lim = (double)(1u << EGG_DEC_M_BITS);
  uint32_t sign = signbit(d) ? 1u << 31 : 0;
  double a = fabs(d), dbits = d;
  if (!(a < lim))
    return 0;
  for (uint32_t k = 0; k < EGG_DEC_ESC; k++) {
    double s = a * egg_dec_pow10[k], m;
    uint32_t c;
    if (!(s < lim))
      return 0;
    m = floor(s + 0.5);
    c = sign | k << EGG_DEC_M_BITS | (uint32_t)m;
    if (m < lim && !memcmp(&(double){egg_dec_value(c)}, &dbits, sizeof dbits)) {
      *code = c;
      return 1;
    }
  }
  return 0;
}

/* The narrowest kind, no narrower than kind, that holds each of n values exactly: bytes, floats,
 * then codes (which hold any value, the few without a decimal code as escapes: *esc of them
 * among the n, for esc_room). */
static int pack_kind(const double *src, size_t n, int kind, size_t *esc)
{
  uint32_t c;
  *esc = 0;
  for (size_t i = 0; i < n && kind != PK_DEC; i++) {
    if (kind == PK_I8 && !i8_exact(src[i]))
      kind = PK_F32;
    if (kind == PK_F32 && !f32_exact(src[i]))
      kind = PK_DEC;
  }
  if (kind == PK_DEC)
    for (size_t i = 0; i < n; i++)
      *esc += !dec_code(src[i], &c);
  return kind;
}

/* Room in nums for n escapes (the doubles of values no code spells) among of values, taken
 * before any code is written so that writing one cannot fail: 0, or -1 when out of memory
 * (p->oom), past what an escape names (EGG_DEC_ESC_MAX), or when more than half of them escape:
 * 12 bytes each cost more than the 8 of doubles then (a run of long decimals keeps doubles). */
static int esc_room(struct parser *p, size_t n, size_t of)
{
  struct egg_doc *doc = p->doc;
  void *base = doc->nums;
  if (!n)
    return 0;
  if (n > of / 2 || n > EGG_DEC_ESC_MAX - doc->nums_used || doc->nums_used > EGG_DEC_ESC_MAX)
    return -1;
  if (pool_room(p, &base, doc->nums_used, &doc->nums_cap, n, sizeof *doc->nums) < 0)
    return -1;
  if (base != doc->nums) {
    doc->nums = base;
    tree_pools(doc);
  }
  return 0;
}

/* Slots of a kind that a count takes (4 bytes). */
static inline size_t pack_count_slots(int kind) { return kind == PK_I8 || kind == PK_WD ? 4 : 1; }

/* Write value i of a packed run at offset at of its kind's pool. */
static inline void pack_put(struct egg_doc *doc, int kind, size_t at, double d)
{
  uint32_t c = 0;
  if (kind == PK_I8) {
    doc->i8[at] = (int8_t)d;
  } else if (kind == PK_DEC) {
    if (!dec_code(d, &c)) { /* an escape, in the room esc_room took */
      uint32_t x = (uint32_t)doc->nums_used++;
      doc->nums[x] = d;
      c = (x >> EGG_DEC_M_BITS) << 31 | EGG_DEC_ESC << EGG_DEC_M_BITS |
          (x & ((1u << EGG_DEC_M_BITS) - 1));
    }
    memcpy(doc->f32 + at, &c, sizeof c);
  } else {
    doc->f32[at] = (float)d;
  }
}
static inline double pack_get(const struct egg_doc *doc, int kind, size_t at)
{
  uint32_t c;
  if (kind == PK_DEC) {
    memcpy(&c, doc->f32 + at, sizeof c);
    return egg_code_value(doc->nums, c);
  }
  return kind == PK_I8 ? (double)doc->i8[at] : (double)doc->f32[at];
}
/* The 4-byte slot of a string value (struct egg_rich) of a VF_RICH entry kept as strings only: 1,
 * or 0 when it is no string (or has none: out of memory), or lies past what the slot names. */
static inline int word_slot(const struct egg_rich *r, uint32_t *w)
{
  if ((r->type != V_WORD && r->type != V_QSTRING) || !r->s || r->s >= EGG_WORD_QUOTED || r->flags)
    return 0;
  *w = r->s | (r->type == V_QSTRING ? EGG_WORD_QUOTED : 0);
  return 1;
}

static inline void pack_set_used(struct egg_doc *doc, int kind, size_t used)
{
  if (kind == PK_I8 || kind == PK_WD)
    doc->i8_used = used;
  else
    doc->f32_used = used; /* PK_F32, PK_W */
}

/* A string kept in the tree: its length (uint32_t) before it, a NUL after it; the offset of its
 * bytes in the tree's strings, or 0 when out of memory. */
static uint32_t str_new(struct parser *p, const char *s, size_t len)
{
  struct egg_doc *doc = p->doc;
  size_t need = (sizeof(uint32_t) + len + 1 + 3) & ~(size_t)3, at;
  uint32_t n32 = (uint32_t)len;
  void *base = doc->strs;
  char *m;
  if (pool_room(p, &base, doc->strs_used, &doc->strs_cap, need, 1) < 0)
    return 0;
  if (base != doc->strs) {
    doc->strs = base;
    tree_pools(doc);
  }
  at = doc->strs_used;
  doc->strs_used += need;
  m = doc->strs + at;
  memset(m + need - 4, 0, 4);
  memcpy(m, &n32, sizeof n32);
  memcpy(m + sizeof n32, s, len);
  m[sizeof n32 + len] = 0;
  return (uint32_t)(at + sizeof n32);
}

/* str_new reusing an identical recent copy (<TRef> { skin } a million times is one copy, and so
 * is a million groups' name `a`). */
static uint32_t str_value(struct parser *p, const char *s, size_t len)
{
  unsigned h = (unsigned)len * 31u;
  uint32_t *slot, c;
  for (size_t i = 0; i < len && i < 8; i++)
    h = h * 131u + (unsigned char)s[i];
  slot = &p->strs[h % STR_CACHE];
  c = *slot;
  if (c && egg_str_len(p->doc->strs + c) == len && !memcmp(p->doc->strs + c, s, len))
    return c;
  c = str_new(p, s, len);
  if (c)
    *slot = c;
  return c;
}

static void node_attach(struct frame *pf, struct egg_node *n)
{
  n->up = (uint32_t)(n - pf->node);
}

static int grow_values(struct parser *p)
{
  size_t cap = p->capvals ? p->capvals * 2 : 1024;
  const size_t per = sizeof *p->dstack + sizeof *p->rstack;
  double *nd;
  struct egg_rich *nr;
  /* one entry's values (a <Collide> of millions of words) count against --max-memory */
  if (cap > SIZE_MAX / per || mem_bound_grow(p->doc->arena->bound, p->capvals * per, cap * per) < 0) {
    p->oom = 1;
    return -1;
  }
  nd = realloc(p->dstack, cap * sizeof *nd);
  if (!nd) {
    p->oom = 1;
    return -1;
  }
  p->dstack = nd;
  nr = realloc(p->rstack, cap * sizeof *nr);
  if (!nr) {
    p->oom = 1;
    return -1;
  }
  p->rstack = nr;
  p->capvals = cap;
  return 0;
}

static void value_full(struct parser *p, struct egg_rich *v, const struct egg_token *t)
{
  memset(v, 0, sizeof *v);
  v->flags = (uint8_t)(t->flags & (TOKF_INF | TOKF_NANBITS));
  v->d = t->num;
  v->ul = t->ul;
  switch (t->type) {
  case T_NUMBER: v->type = V_NUMBER; break;
  case T_ULONG: v->type = V_ULONG; break;
  default:
    v->type = t->type == T_QSTRING ? V_QSTRING : V_WORD;
    v->len = (uint32_t)(t->len > EGG_MAX_TOKEN ? EGG_MAX_TOKEN : t->len);
    v->s = str_value(p, t->s, v->len);
    break;
  }
}

/* A lazy frame's values are only counted: let those on the stack go. */
static void values_let_go(struct parser *p, struct frame *f)
{
  if (f->lazy) {
    f->let_go += p->nvals - f->vstart;
    p->nvals = f->vstart;
  }
}

/* A run of plain decimals at least this long moves from the value stack to the tree's f32 as it
 * is read (frame_spill): more than EGG_CLOSE_FAR, so the run's count slot is always taken. */
#define SPILL_RUN 1024u

/* The values frame_spill moved become kind (PK_F32 or PK_DEC, wider than theirs: a later value
 * is no small integer, or no float holds it). 0, or -1 when out of memory or when a float among
 * them has no decimal code and escapes have no room: then they are left as they were. */
static int spill_widen(struct parser *p, struct frame *f, int kind)
{
  struct egg_doc *doc = p->doc;
  size_t moved = f->let_go;
  uint32_t at, c;
  if (f->spill_kind == kind)
    return 0;
  if (f->spill_kind == PK_F32) { /* to codes, in place (the same 4 bytes) */
    size_t esc = 0;
    for (size_t i = 0; i < moved; i++)
      esc += !dec_code(doc->f32[f->spill_at + 1 + i], &c);
    if (esc_room(p, esc, moved) < 0)
      return -1;
    for (size_t i = 0; i < moved; i++)
      pack_put(doc, PK_DEC, f->spill_at + 1 + i, doc->f32[f->spill_at + 1 + i]);
    f->spill_kind = PK_DEC;
    return 0;
  }
  if ((at = pack_new(p, kind, 1 + moved)) == UINT32_MAX)
    return -1;
  for (size_t i = 0; i < moved; i++)
    pack_put(doc, kind, at + 1 + i, doc->i8[f->spill_at + 4 + i]);
  doc->i8_used = f->spill_at;
  f->spill_at = at;
  f->spill_kind = kind;
  return 0;
}

/* The code of slot w in the dictionary of the run of words being moved (added if new), or -1 when
 * the dictionary is full. */
static int wdict_code(struct parser *p, uint32_t w)
{
  unsigned h = (unsigned)((w * 2654435761u) >> 23) & (WDICT_HASH - 1), e;
  while ((e = p->wdict_hash[h]) != 0) {
    if (p->wdict[e - 1] == w)
      return (int)(e - 1);
    h = (h + 1) & (WDICT_HASH - 1);
  }
  if (p->nwdict == WDICT_MAX)
    return -1;
  p->wdict[p->nwdict] = w;
  p->wdict_hash[h] = (uint16_t)++p->nwdict;
  return (int)(p->nwdict - 1);
}

/* The words moved as bytes (PK_WD) become 4-byte slots in f32 (PK_W): a run of more distinct
 * strings than the dictionary holds, or one whose values are complete before a child. 0, or -1
 * when out of memory. */
static int words_widen(struct parser *p, struct frame *f)
{
  struct egg_doc *doc = p->doc;
  size_t moved = f->let_go;
  uint32_t at;
  if ((at = pack_new(p, PK_F32, 1 + moved)) == UINT32_MAX)
    return -1;
  for (size_t i = 0; i < moved; i++) {
    uint32_t w = p->wdict[(uint8_t)doc->i8[f->spill_at + 4 + i]];
    memcpy(doc->f32 + at + 1 + i, &w, sizeof w);
  }
  doc->i8_used = f->spill_at;
  f->spill_at = at;
  f->spill_kind = PK_W;
  return 0;
}

/* frame_spill of a frame whose values are kept in full (rich): when all are strings, they go to
 * the tree's i8 as a byte each, the code of their 4-byte slot (word_slot) in the run's dictionary,
 * or, past WDICT_MAX distinct strings, to the tree's f32 as the slots themselves; not 32 bytes
 * each on the value stack and again in the tree (a `<Collide>{a a a ...}` of 2-byte words: 4 bytes
 * each, 3 x its text with the text, before the dictionary; issue 26). */
static void words_spill(struct parser *p, struct frame *f)
{
  const struct egg_rich *r = p->rstack + f->vstart;
  size_t on = p->nvals - f->vstart;
  uint32_t at, w = 0;
  int bytes = f->spill_at == SIZE_MAX || f->spill_kind == PK_WD;
  for (size_t i = 0; i < on; i++)
    if (!word_slot(&r[i], &w)) {
      f->spill_dead = 1;
      return;
    }
  if (f->spill_at == SIZE_MAX)
    p->nwdict = 0, memset(p->wdict_hash, 0, sizeof p->wdict_hash);
  for (size_t i = 0; i < on && bytes; i++) {
    word_slot(&r[i], &w);
    bytes = wdict_code(p, w) >= 0;
  }
  if (!bytes && f->spill_at != SIZE_MAX && f->spill_kind == PK_WD && words_widen(p, f) < 0) {
    f->spill_dead = 1;
    return;
  }
  if (bytes) {
    if (f->spill_at == SIZE_MAX) {
      if ((at = pack_new(p, PK_I8, 4 + on)) == UINT32_MAX) {
        f->spill_dead = 1;
        return;
      }
      f->spill_at = at;
      f->spill_kind = PK_WD;
      at += 4;
    } else if ((at = pack_new(p, PK_I8, on)) == UINT32_MAX) {
      f->spill_dead = 1;
      return;
    }
    for (size_t i = 0; i < on; i++) {
      word_slot(&r[i], &w);
      p->doc->i8[at + i] = (int8_t)(uint8_t)wdict_code(p, w);
    }
    f->let_go += on;
    p->nvals = f->vstart;
    return;
  }
  if (f->spill_at == SIZE_MAX) {
    if ((at = pack_new(p, PK_F32, 1 + on)) == UINT32_MAX) {
      f->spill_dead = 1;
      return;
    }
    f->spill_at = at++;
    f->spill_kind = PK_W;
  } else if ((at = pack_new(p, PK_F32, on)) == UINT32_MAX) {
    f->spill_dead = 1;
    return;
  }
  for (size_t i = 0; i < on; i++) {
    word_slot(&r[i], &w);
    memcpy(p->doc->f32 + at + i, &w, sizeof w);
  }
  f->let_go += on;
  p->nvals = f->vstart;
}

/* The values of frame f on the value stack go to the tree's i8 or f32 after those moved before,
 * if each is a small integer or a float holds it exactly: a `<VertexRef>{0 0 0 ...}` of millions
 * of 2-byte indices then takes a byte an index, not 8 on the stack and 8 again in the tree (issue
 * 26). Its last values stay on the stack, and close_packed moves them; the first value a float
 * does not hold makes them codes, a run's few values without one escapes; a batch more than
 * half escapes ends the moves (frame_unspill takes them back before the entry keeps doubles). */
static void frame_spill(struct parser *p, struct frame *f)
{
  const double *src = p->dstack + f->vstart;
  size_t on = p->nvals - f->vstart, esc;
  uint32_t at;
  int kind;
  if (f->lazy || f->spill_dead || egg_has_index(f->node->spec))
    return;
  if (f->rich) {
    words_spill(p, f);
    return;
  }
  if (f->spill_at == SIZE_MAX)
    f->spill_nums = p->doc->nums_used;
  kind = pack_kind(src, on, f->spill_at == SIZE_MAX ? PK_I8 : f->spill_kind, &esc);
  if ((f->spill_at != SIZE_MAX && kind != f->spill_kind && spill_widen(p, f, kind) < 0) ||
      esc_room(p, esc, on) < 0) {
    f->spill_dead = 1;
    return;
  }
  if (f->spill_at == SIZE_MAX) {
    if ((at = pack_new(p, kind, pack_count_slots(kind) + on)) == UINT32_MAX) {
      f->spill_dead = 1;
      return; /* (out of memory, or past what EGG_V_OFF names: the stack keeps them) */
    }
    f->spill_at = at;
    f->spill_kind = kind;
    at += (uint32_t)pack_count_slots(kind);
  } else if ((at = pack_new(p, kind, on)) == UINT32_MAX) {
    f->spill_dead = 1;
    return;
  }
  for (size_t i = 0; i < on; i++)
    pack_put(p->doc, kind, at + i, src[i]);
  f->let_go += on;
  p->nvals = f->vstart;
}

/* The values frame_spill moved go back onto the value stack, before those there: the entry keeps
 * them otherwise (rich, or as doubles). 0, or -1 when out of memory. */
static int frame_unspill(struct parser *p, struct frame *f)
{
  size_t moved = f->let_go, on = p->nvals - f->vstart, from;
  if (f->spill_at == SIZE_MAX)
    return 0;
  while (p->capvals - p->nvals < moved)
    if (grow_values(p) < 0)
      return -1;
  memmove(p->dstack + f->vstart + moved, p->dstack + f->vstart, on * sizeof *p->dstack);
  from = f->spill_at + pack_count_slots(f->spill_kind);
  if (f->spill_kind == PK_W || f->spill_kind == PK_WD) {
    /* the strings' values in full again, as value_full gave them (a string has no number) */
    memmove(p->rstack + f->vstart + moved, p->rstack + f->vstart, on * sizeof *p->rstack);
    for (size_t i = 0; i < moved; i++) {
      struct egg_rich *r = &p->rstack[f->vstart + i];
      uint32_t w;
      if (f->spill_kind == PK_WD)
        w = p->wdict[(uint8_t)p->doc->i8[from + i]];
      else
        memcpy(&w, p->doc->f32 + from + i, sizeof w);
      memset(r, 0, sizeof *r);
      r->s = w & ~EGG_WORD_QUOTED;
      r->len = egg_str_len(p->doc->strs + r->s);
      r->type = w & EGG_WORD_QUOTED ? V_QSTRING : V_WORD;
      p->dstack[f->vstart + i] = 0;
    }
  } else {
    for (size_t i = 0; i < moved; i++)
      p->dstack[f->vstart + i] = pack_get(p->doc, f->spill_kind, from + i);
  }
  p->nvals += moved;
  f->let_go = 0;
  pack_set_used(p->doc, f->spill_kind, f->spill_at);
  if (f->spill_kind == PK_DEC) /* their escapes, the last nums (values precede children) */
    p->doc->nums_used = f->spill_nums;
  f->spill_at = SIZE_MAX;
  f->spill_dead = 1;
  return 0;
}

/* The values of frame f are complete (its first child opens): those frame_spill moved are
 * joined by the rest, or all go back onto the value stack, before the child's own take the pools'
 * tails. 0, or -1 when out of memory. */
static int spill_finish(struct parser *p, struct frame *f)
{
  frame_spill(p, f);
  if (f->spill_dead || p->nvals > f->vstart)
    return frame_unspill(p, f);
  /* words as bytes name the parser's dictionary, which a child's run may take: 4-byte slots */
  if (f->spill_kind == PK_WD && words_widen(p, f) < 0)
    return frame_unspill(p, f);
  return 0;
}

static int push_value(struct parser *p, struct frame *f, const struct egg_token *t)
{
  if (!f->rich && !f->lazy && (t->type != T_NUMBER || t->flags) && frame_unspill(p, f) < 0)
    return -1;
  if (f->rich && f->spill_at != SIZE_MAX && t->type != T_WORD && t->type != T_QSTRING &&
      frame_unspill(p, f) < 0)
    return -1;
  if (p->nvals == p->capvals && p->nvals - f->vstart >= SPILL_RUN)
    frame_spill(p, f);
  if (p->nvals == p->capvals && grow_values(p) < 0)
    return -1;
  p->dstack[p->nvals] = t->num;
  /* a lazy frame's values are only counted: a string of one is not copied (a <Comment> of a
   * million words keeps none) */
  if (!f->rich && !f->lazy && (t->type != T_NUMBER || t->flags)) {
    /* the first value that is not a plain decimal: keep the frame's values in full */
    f->rich = 1;
    for (size_t i = f->vstart; i < p->nvals; i++) {
      memset(&p->rstack[i], 0, sizeof p->rstack[i]);
      p->rstack[i].d = p->dstack[i];
      p->rstack[i].type = V_NUMBER;
    }
  }
  if (f->rich)
    value_full(p, &p->rstack[p->nvals], t);
  p->nvals++;
  values_let_go(p, f);
  if (t->flags & TOKF_MULTILINE)
    egg_emit(p->doc, RULE_EGG_MULTILINE_STRING, t->line, t->col, NULL, "%u", p->lx.line);
  return 0;
}

static int is_value_tok(int type)
{
  return type == T_NUMBER || type == T_ULONG || type == T_QSTRING || type == T_WORD;
}

/* Integer slots (notes §2.4): > INT_MAX or fractional numbers are warnings in Panda3D. */
static void check_integer(struct parser *p, const struct egg_token *t)
{
  char buf[64];
  if (t->type != T_NUMBER)
    return;
  if (t->num > 2147483647.0)
    egg_emit(p->doc, RULE_EGG_INTEGER_VALUE, t->line, t->col, "an integer no larger than 2147483647",
             "%s", egg_show(buf, sizeof buf, t->s, t->len));
  else if (t->num != floor(t->num) || t->num != t->num)
    egg_emit(p->doc, RULE_EGG_INTEGER_VALUE, t->line, t->col, "an integer", "%s",
             egg_show(buf, sizeof buf, t->s, t->len));
}

static void check_special_number(struct parser *p, const struct egg_token *t)
{
  char buf[64];
  if (t->flags & (TOKF_INF | TOKF_NANBITS))
    egg_emit(p->doc, RULE_EGG_NONFINITE_LITERAL, t->line, t->col, NULL, "%s",
             egg_show(buf, sizeof buf, t->s, t->len));
}

static size_t frame_nvals(const struct parser *p, const struct frame *f)
{
  return p->nvals - f->vstart + f->let_go;
}


/* Numeric values that count toward arity (a morph may open its body with its name). */
static size_t arity_count(const struct parser *p, const struct frame *f)
{
  size_t n = frame_nvals(p, f);
  if (egg_specs[f->node->spec].vals == VALS_MORPH && !f->node->has_name && n)
    n--;
  return n;
}

static int count_ok(uint32_t counts, size_t n)
{
  if (counts == COUNTS_ANY)
    return 1;
  if (counts == (COUNTS_ANY & ~1u))
    return n >= 1;
  return n < 32 && (counts >> n) & 1u;
}

static size_t count_max(uint32_t counts)
{
  size_t m = 0;
  if ((counts & 0x80000000u))
    return (size_t)-1;
  while (counts >>= 1) /* the highest bit set */
    m++;
  return m;
}

static void expected_counts(char *out, size_t cap, uint32_t counts, int vals)
{
  size_t n = 0;
  const char *what = vals == VALS_INT ? "integer" : vals == VALS_REAL || vals == VALS_MORPH ? "number" : "value";
  out[0] = 0;
  if (counts == (COUNTS_ANY & ~1u)) {
    snprintf(out, cap, "at least one %s", what);
    return;
  }
  for (unsigned i = 0; i < 32 && n + 8 < cap; i++)
    if ((counts >> i) & 1u)
      n += (size_t)snprintf(out + n, cap - n, "%s%u", n ? " or " : "", i);
  snprintf(out + n, cap - n, " %s%s", what, "(s)");
}

/* A value or `}` or a child arrives with the node's values already complete: check arity. */
static int values_complete_check(struct parser *p, struct frame *f, const struct egg_token *at)
{
  const struct egg_spec_info *si = &egg_specs[f->node->spec];
  size_t n = arity_count(p, f);
  char exp[96];
  if (si->vals == VALS_MORPH && !f->node->has_name && frame_nvals(p, f) == 0) {
    expected_counts(exp, sizeof exp, si->counts, si->vals);
    syntax(p, RULE_EGG_ARITY, at, "a morph target name, then the numbers");
    return 0;
  }
  if (n == 0 && si->req_string) { /* Panda3D's required_name / required_string: not fatal */
    egg_emit(p->doc, si->req_string == 2 ? RULE_EGG_NAME_REQUIRED : RULE_EGG_STRING_REQUIRED,
             at->line, at->col, NULL, "%s", si->what);
    return 1;
  }
  if (count_ok(si->counts, n))
    return 1;
  expected_counts(exp, sizeof exp, si->counts, si->vals);
  {
    char buf[96], act[160];
    snprintf(act, sizeof act, "%s with %zu value(s) at '%s'", si->what, n, tok_show(at, buf, sizeof buf));
    egg_emit(p->doc, RULE_EGG_ARITY, at->line, at->col, exp, "%s", act);
    if (!p->doc->syntax_failed) {
      p->doc->syntax_failed = 1;
      p->doc->fail_line = at->line;
      p->doc->fail_col = at->col;
    }
  }
  return 0;
}

/* values_complete_check where there is something to check: an entry without values, or past
 * its values, needs no call */
static PARSE_INLINE int values_complete(struct parser *p, struct frame *f, const struct egg_token *at)
{
  if (egg_specs[f->node->spec].vals == VALS_NONE || f->seen_child)
    return 1;
  return values_complete_check(p, f, at);
}

/* Entries whose plain values no check reads: validation keeps only their count. */
static int droppable(const struct egg_doc *doc, int spec)
{
  if (doc->keep_values)
    return 0;
  /* a transform's components build the joints' rest poses, which a validation without --target
   * does not build (egg_anim_decode; nothing else reads them there): 136 bytes a <Matrix4> */
  if (doc->drop_transforms && (spec == S_TRANSLATE || spec == S_ROTATE || spec == S_ROTX ||
                               spec == S_ROTY || spec == S_ROTZ || spec == S_SCALE ||
                               spec == S_MATRIX3 || spec == S_MATRIX4))
    return 1;
  /* <Normal> and <Tangent> are read: repeats are compared (EGG-VTX-005), lengths and directions
   * checked (MDL-GEO-001, MDL-GEO-003) as the vertex closes; their memory goes with it */
  /* nor are a <Comment>'s or a <Tag>'s (only counted, egg_unheld.c): a `<Comment>{a a ...}` of
   * 2-byte words kept 32 bytes a value on the value stack and 32 in the tree (issue 26) */
  /* a <V>'s are the animation samples poses read (keep_anim) */
  /* nor a <File>'s file name when nothing reads the references (egg_collect_refs, without
   * --resources): a `<File>{a}` of 9 bytes kept an entry and a value slot (3.2 x, issue 26) */
  return (spec == S_V && !doc->keep_anim) || spec == S_VERTEX || spec == S_UV ||
         spec == S_BINORMAL || spec == S_AUX || spec == S_COMMENT || spec == S_TAG ||
         (spec == S_FILE && doc->ctx->refs_unread);
}

static unsigned long morph_count(const struct egg_doc *doc)
{
  return doc->spec_count[S_DXYZ] + doc->spec_count[S_DNORMAL] + doc->spec_count[S_DRGBA] +
         doc->spec_count[S_DUV];
}

/* Whether the pool vertex v (entry ix) has a <Normal> or an <RGBA>, for a skeleton-only decode's
 * geometry (egg_vertex_has_attr), before vertex_done lets them go: 2 bits an entry. */
static void vertex_attrs_note(struct parser *p, size_t ix, const struct egg_node *v)
{
  struct egg_doc *doc = p->doc;
  unsigned bits = 0;
  for (const struct egg_node *c = v + 1; c < v + v->size; c += c->size)
    if (!c->bad && (c->spec == S_NORMAL || c->spec == S_RGBA))
      bits |= c->spec == S_NORMAL ? 1u : 2u;
  if (!bits)
    return;
  if (ix / 4 >= doc->vertex_attrs_cap) {
    void *base = doc->vertex_attrs;
    size_t used = doc->vertex_attrs_cap;
    if (pool_room(p, &base, used, &doc->vertex_attrs_cap, ix / 4 + 1 - used, 1) < 0)
      return;
    memset((unsigned char *)base + used, 0, doc->vertex_attrs_cap - used);
    doc->vertex_attrs = base;
  }
  doc->vertex_attrs[ix / 4] |= (unsigned char)(bits << (ix % 4 * 2));
}

/* A vertex of a pool in a validation-only decode is complete: check it and its attributes now
 * (nothing later reads them, but for morph targets, which egg_check_anim looks up by name), then
 * give their nodes and numbers back to the slabs they were carved from. A pool of a million
 * coloured vertices then keeps a million vertices, not also their <RGBA> entries and values. */
static void vertex_done(struct parser *p, struct frame *f)
{
  struct egg_doc *doc = p->doc;
  struct egg_node *v = f->node;
  doc->vertex_normals_folded = f->normals_folded;
  egg_check_vertex(doc, v);
  doc->vertex_normals_folded = 0;
  if (v->size <= 1 || morph_count(doc) != f->morphs)
    return;
  if (doc->keep_anim)
    vertex_attrs_note(p, f->idx, v);
  /* its attributes are the last entries of the array, their numbers the last in the pool but
   * for the vertex's own slots when it has any (close_values: its number and count, after its
   * attributes'), moved down to where the attributes' began. Its values were not kept (a
   * validation-only decode), so VF_NONE or VF_DROPPED. */
  doc->node_used = f->idx + 1;
  v->size = 1;
  col_truncate(&doc->names, f->idx);
  col_truncate(&doc->vals, f->idx);
  while (doc->nfar && doc->far[doc->nfar - 1].ix > f->idx)
    doc->nfar--;
  if (v->ix_slot && f->v_at != SIZE_MAX && doc->vals.vals[f->v_at] >= f->nums_used) {
    memmove(doc->nums + f->nums_used, doc->nums + doc->vals.vals[f->v_at], 2 * sizeof *doc->nums);
    doc->vals.vals[f->v_at] = (uint32_t)f->nums_used;
    doc->nums_used = f->nums_used + 2;
  } else {
    doc->nums_used = f->nums_used;
  }
  doc->f32_used = f->f32_used;
  doc->i8_used = f->i8_used;
}

/* A <V> right after another in the same table: the checks and the model read only the last of
 * them (a second <V> replaces the first in Panda3D), and the earlier one's values were only
 * counted (a validation-only decode), so its entry goes; the new one takes its place. A table of
 * a million `<V>{}` of 5 bytes keeps one entry, not a million of 16 bytes. */
static void v_replaces(struct parser *p, const struct frame *parent)
{
  struct egg_doc *doc = p->doc;
  size_t last;
  const struct egg_node *l;
  if (doc->node_used < 2)
    return;
  last = doc->node_used - 1;
  l = doc->node_arr + last;
  if (l->spec != S_V || l->size != 1 || l - l->up != parent->node)
    return;
  doc->node_used = last;
  col_truncate(&doc->names, last - 1);
  col_truncate(&doc->vals, last - 1);
  while (doc->nfar && doc->far[doc->nfar - 1].ix >= last)
    doc->nfar--;
}

/* A <Normal> or <RGBA> opening in a pool vertex of a validation-only decode, right after another
 * of its kind that is not the vertex's first: the checks read that one only to compare it with
 * the first (EGG-VTX-005), count it among the normals (MDL-GEO-001) and look at its colour's
 * range (EGG-VTX-004); when it holds the first's values (in range, for a colour) none of them
 * says anything of it, so its entry and numbers go and the new one takes their place (the last
 * of a kind, the one Panda3D keeps, is never let go). A vertex of a million `<Normal>{1 1 1}`
 * keeps two entries, not a million of 16 bytes and 32 of numbers (issue 26). */
static void attr_replaces(struct parser *p, struct frame *vf, int spec)
{
  struct egg_doc *doc = p->doc;
  size_t last = doc->node_used - 1, first = vf->attr_first[spec == S_RGBA];
  const struct egg_node *l = doc->node_arr + last, *a;
  struct egg_numv x, y;
  uint32_t n, v;
  if (!first || last == first || l->spec != (unsigned)spec || l->size != 1 || l->bad ||
      l - l->up != vf->node || l->vform != VF_NUM || l->ix_slot)
    return;
  a = doc->node_arr + first;
  n = egg_nvals(l);
  if (a->size != 1 || a->bad || a->vform != VF_NUM || egg_nvals(a) != n || n == EGG_CLOSE_FAR)
    return;
  v = egg_col_get(&doc->vals, last);
  egg_numv_in(doc->tree, a, &x);
  egg_numv_in(doc->tree, l, &y);
  /* its numbers are the last taken (in f32 when a float holds them, else in nums) */
  if ((v & EGG_V_F32)  ? (v & EGG_V_OFF) + (size_t)n != doc->f32_used
      : (v & EGG_V_I8) ? (v & EGG_V_OFF) + (size_t)n != doc->i8_used
                       : v + 1 + (size_t)n != doc->nums_used)
    return;
  for (uint32_t i = 0; i < n; i++) {
    double xi = egg_numv_at(&x, i), yi = egg_numv_at(&y, i);
    if (!(xi == yi) || (spec == S_RGBA && !(yi >= 0.0 && yi <= 1.0)))
      return;
  }
  doc->node_used = last;
  /* (doc->nodes and spec_count still count it, as for a <V> let go) */
  if (v & EGG_V_F32)
    doc->f32_used = v & EGG_V_OFF;
  else if (v & EGG_V_I8)
    doc->i8_used = v & EGG_V_OFF;
  else
    doc->nums_used = v;
  col_truncate(&doc->names, last - 1);
  col_truncate(&doc->vals, last - 1);
  while (doc->nfar && doc->far[doc->nfar - 1].ix >= last)
    doc->nfar--;
  if (spec == S_NORMAL)
    vf->normals_folded++;
}

/* The entry's value slot, when it will have one (values, or a number), is taken before its first
 * child's or as it closes: the slots are then in entry order (struct egg_col). */
static inline void frame_reserve_v(struct parser *p, struct frame *f)
{
  if (f->v_reserved)
    return;
  f->v_reserved = 1;
  f->v_at = SIZE_MAX;
  if ((frame_nvals(p, f) || egg_has_index(f->node->spec)) && col_push(p, &p->doc->vals, f->idx, 0) == 0)
    f->v_at = p->doc->vals.used - 1;
}

/* Whether an entry closing now (no child took its value slot) keeps its values only as their
 * count, in the entry itself (VF_DROPPED, close): a validation-only decode's droppable entry
 * (lazy), or a morph offset of plain decimals, whose numbers only convert reads (egg_geometry;
 * the checks read a morph's count and, without a header name, its first value as a name when it
 * is a string, which a plain decimal never is). No value slot: a `<DUV>{0 0}` of 10 bytes took
 * an entry, a slot and 2 bytes of numbers (3.2 x its text, issue 26), a `<Tag>{a}` of 8 an
 * entry and a slot (3.5 x). */
static inline int frame_drops_here(const struct parser *p, const struct frame *f)
{
  size_t count = frame_nvals(p, f);
  if (f->v_reserved || !count || count >= EGG_CLOSE_FAR || egg_has_index(f->node->spec))
    return 0;
  if (f->lazy)
    return 1;
  return !p->doc->keep_values && !f->rich && !f->let_go && f->spill_at == SIZE_MAX &&
         egg_specs[f->node->spec].vals == VALS_MORPH;
}

/* The value slot of the entry of frame f (frame_reserve_v took it). */
static void frame_set_v(struct parser *p, const struct frame *f, uint32_t v)
{
  if (f->v_at != SIZE_MAX)
    p->doc->vals.vals[f->v_at] = v;
}

/* Where the closing brace of an entry without values is: lines after its keyword's. */
static void close_line_keep(struct parser *p, struct frame *f, struct egg_node *n, uint32_t close)
{
  struct egg_doc *doc = p->doc;
  uint32_t after = close - f->line;
  if (!close) {
    n->close = 0;
  } else if (close >= f->line && after < EGG_CLOSE_FAR - 1) {
    n->close = after + 1;
  } else {
    void *base = doc->far;
    n->close = EGG_CLOSE_FAR;
    if (pool_room(p, &base, doc->nfar, &doc->far_cap, 1, sizeof *doc->far) < 0)
      return;
    doc->far = base;
    doc->far[doc->nfar].ix = (uint32_t)f->idx;
    doc->far[doc->nfar].line = close;
    doc->nfar++;
    doc->far_sorted = 0; /* egg_close_line sorts again before its next lookup */
  }
}

/* The plain decimals of an entry without a number, as it closes, into the tree's i8 or f32 after
 * those frame_spill moved: bytes when each is a small integer, floats when a float holds each
 * exactly, else codes (EGG_V_I8, EGG_V_F32, EGG_V_DEC): 1, or 0 when it keeps doubles (more
 * than half would escape; then every value is on the value stack again). */
static int close_packed(struct parser *p, struct frame *f, struct egg_node *n, size_t count)
{
  const double *src = p->dstack + f->vstart;
  size_t on = p->nvals - f->vstart, cs, first, esc;
  int spilled = f->spill_at != SIZE_MAX;
  int kind = pack_kind(src, on, spilled ? f->spill_kind : PK_I8, &esc);
  uint32_t at;
  if ((spilled && kind != f->spill_kind && spill_widen(p, f, kind) < 0) || esc_room(p, esc, on) < 0)
    return frame_unspill(p, f), 0;
  cs = count >= EGG_CLOSE_FAR ? pack_count_slots(kind) : 0;
  if (spilled) {
    at = (uint32_t)f->spill_at;
    if (pack_new(p, kind, on) == UINT32_MAX)
      return frame_unspill(p, f), 0;
  } else if ((at = pack_new(p, kind, cs + on)) == UINT32_MAX) {
    return 0;
  }
  if (cs) {
    uint32_t c = (uint32_t)count;
    if (kind == PK_I8)
      memcpy(p->doc->i8 + at, &c, sizeof c);
    else
      memcpy(p->doc->f32 + at, &c, sizeof c);
  }
  first = at + cs + (count - on);
  for (size_t i = 0; i < on; i++)
    pack_put(p->doc, kind, first + i, src[i]);
  n->vform = count == 1 ? VF_ONE : VF_NUM;
  frame_set_v(p, f, at | (kind == PK_I8 ? EGG_V_I8 : kind == PK_DEC ? EGG_V_DEC : EGG_V_F32));
  return 1;
}

/* The values of a rich entry without a number, as it closes, when all are strings: 4-byte slots
 * in the tree's f32 after those words_spill moved (VF_RICH with EGG_V_F32). 1, or 0 when it keeps
 * them in full (then every value is on the value stack again). */
static int close_words(struct parser *p, struct frame *f, struct egg_node *n, size_t count)
{
  const struct egg_rich *r = p->rstack + f->vstart;
  size_t on = p->nvals - f->vstart, cs = count >= EGG_CLOSE_FAR;
  uint32_t at, w = 0;
  for (size_t i = 0; i < on; i++)
    if (!word_slot(&r[i], &w))
      return frame_unspill(p, f), 0;
  if (f->spill_at != SIZE_MAX && f->spill_kind == PK_WD) {
    /* a run moved as bytes (words_spill): the rest as bytes too, then the dictionary */
    int bytes = 1;
    for (size_t i = 0; i < on && bytes; i++) {
      word_slot(&r[i], &w);
      bytes = wdict_code(p, w) >= 0;
    }
    if (bytes) {
      size_t dict = 1 + (size_t)p->nwdict * sizeof w;
      uint32_t c = (uint32_t)count;
      at = (uint32_t)f->spill_at;
      if (pack_new(p, PK_I8, on + dict) == UINT32_MAX)
        return frame_unspill(p, f), 0;
      memcpy(p->doc->i8 + at, &c, sizeof c);
      for (size_t i = 0; i < on; i++) {
        word_slot(&r[i], &w);
        p->doc->i8[at + 4 + (count - on) + i] = (int8_t)(uint8_t)wdict_code(p, w);
      }
      p->doc->i8[at + 4 + count] = (int8_t)(uint8_t)p->nwdict;
      memcpy(p->doc->i8 + at + 4 + count + 1, p->wdict, dict - 1);
      n->vform = VF_RICH;
      frame_set_v(p, f, at | EGG_V_I8);
      return 1;
    }
    if (words_widen(p, f) < 0)
      return frame_unspill(p, f), 0;
  }
  if (f->spill_at != SIZE_MAX) {
    at = (uint32_t)f->spill_at;
    if (pack_new(p, PK_F32, on) == UINT32_MAX)
      return frame_unspill(p, f), 0;
  } else if ((at = pack_new(p, PK_F32, cs + on)) == UINT32_MAX) {
    return 0;
  }
  if (cs) {
    uint32_t c = (uint32_t)count;
    memcpy(p->doc->f32 + at, &c, sizeof c);
  }
  for (size_t i = 0; i < on; i++) {
    word_slot(&r[i], &w);
    memcpy(p->doc->f32 + at + cs + (count - on) + i, &w, sizeof w);
  }
  n->vform = VF_RICH;
  frame_set_v(p, f, at | EGG_V_F32);
  return 1;
}

/* Values frame_spill moved that could not go back onto the value stack (taking them back needs the
 * stack to grow, which failed: out of memory or past --max-memory): the stack holds fewer than
 * count, so the entry keeps none, as a lazy frame's (VF_DROPPED), and the decode ends in
 * MDL-MEM-001 or MDL-MEM-002 (p->oom), never reading past what the stack holds. 1 when so. */
static int values_lost(struct parser *p, struct frame *f, struct egg_node *n, size_t count)
{
  if (!f->let_go)
    return 0;
  p->oom = 1;
  n->vform = VF_DROPPED;
  p->doc->dropped = 1;
  frame_set_v(p, f, (uint32_t)count);
  return 1;
}

/* Where an entry's values go as it closes (the layout egg.h describes by vform). */
static void close_values(struct parser *p, struct frame *f, struct egg_node *n, size_t count)
{
  struct egg_doc *doc = p->doc;
  uint32_t ix = (uint32_t)egg_has_index(n->spec), at;
  if (ix && !doc->keep_values && n->spec == S_VERTEX && f->name_at != SIZE_MAX &&
      doc->names.vals[f->name_at] == EGG_NAME_ELIDED &&
      f->index >= 0 && f->index < (int64_t)UINT32_MAX && (!count || f->lazy)) {
    /* a pool vertex of a validation-only decode: its name is elided, its number takes its place */
    n->name_ix = 1;
    doc->names.vals[f->name_at] = (uint32_t)f->index;
    ix = 0;
  }
  if (ix && !doc->keep_values && n->spec == S_VERTEX && !n->has_name && f->index == -1 &&
      (!count || f->lazy) && count < EGG_CLOSE_FAR) {
    /* a pool vertex without a name: its number (given by the reference check) and its count
     * in the entry's own value slot and bits */
    n->vform = VF_IXV;
    n->close = (uint32_t)count;
    frame_set_v(p, f, 0);
    if (count)
      doc->dropped = 1;
    return;
  }
  n->ix_slot = ix;
  if (!count) {
    /* where it closed (egg_node_last_line); a pool vertex of a validation-only decode never
     * kept it */
    uint32_t close = n->spec == S_VERTEX && !doc->keep_values ? 0 : p->tok.line;
    n->vform = VF_NONE;
    if (!ix) {
      close_line_keep(p, f, n, close);
    } else if ((at = nums_new(p, 2)) != UINT32_MAX) {
      nums_set_u64(doc->nums + at, (uint64_t)f->index);
      nums_set_u64(doc->nums + at + 1, close);
      frame_set_v(p, f, at);
    }
  } else if (f->lazy) {
    n->vform = VF_DROPPED; /* lexed without their values (struct frame, lazy) */
    doc->dropped = 1;
    if (!ix) {
      frame_set_v(p, f, (uint32_t)count);
    } else if ((at = nums_new(p, 2)) != UINT32_MAX) {
      nums_set_u64(doc->nums + at, (uint64_t)f->index);
      nums_set_u64(doc->nums + at + 1, count);
      frame_set_v(p, f, at);
    }
  } else if (f->rich) {
    const struct egg_rich *r = p->rstack + f->vstart;
    if (count == 1 && f->spill_at == SIZE_MAX && (r->type == V_WORD || r->type == V_QSTRING) && r->s && !ix) {
      n->vform = r->type == V_WORD ? VF_WORD : VF_QSTR;
      frame_set_v(p, f, r->s);
    } else if (!ix && !p->oom && close_words(p, f, n, count)) {
      /* strings only, 4 bytes each */
    } else if (values_lost(p, f, n, count)) {
      /* (some of them are not on the stack) */
    } else {
      r = p->rstack + f->vstart; /* (close_words may have moved the stack) */
      void *base = doc->rich;
      n->vform = VF_RICH;
      if (count + 1 + ix > EGG_V_OFF - doc->rich_used) {
        p->oom = 1; /* past what a value slot names (EGG_V_OFF): its high bits are flags */
      } else if (pool_room(p, &base, doc->rich_used, &doc->rich_cap, count + 1 + ix, sizeof *doc->rich) == 0) {
        struct egg_rich *dst;
        doc->rich = base;
        tree_pools(doc);
        dst = doc->rich + doc->rich_used;
        memset(dst, 0, (1 + ix) * sizeof *dst);
        if (ix)
          dst[0].ul = (uint64_t)f->index;
        dst[ix].ul = count;
        memcpy(dst + ix + 1, r, count * sizeof *dst);
        frame_set_v(p, f, (uint32_t)doc->rich_used);
        doc->rich_used += count + 1 + ix;
      }
    }
  } else if (!ix && !p->oom && close_packed(p, f, n, count)) {
    /* kept in 4 bytes a value */
  } else if (values_lost(p, f, n, count)) {
    /* (some of them are not on the stack) */
  } else if (count == 1 && !ix) {
    n->vform = VF_ONE;
    if ((at = nums_new(p, 1)) != UINT32_MAX) {
      doc->nums[at] = p->dstack[f->vstart];
      frame_set_v(p, f, at);
    }
  } else {
    n->vform = VF_NUM;
    if ((at = nums_new(p, count + 1 + ix)) != UINT32_MAX) {
      if (ix)
        nums_set_u64(doc->nums + at, (uint64_t)f->index);
      nums_set_u64(doc->nums + at + ix, count);
      memcpy(doc->nums + at + ix + 1, p->dstack + f->vstart, count * sizeof *doc->nums);
      frame_set_v(p, f, at);
    }
  }
  if (n->vform != VF_NONE) /* the count, read without finding the slots (egg_nvals) */
    n->close = count < EGG_CLOSE_FAR ? (uint32_t)count : EGG_CLOSE_FAR;
}

/* Whether an entry closing now (no child took its value slot) keeps its one value, a plain
 * decimal that is an integer from -128 to 127, in the entry itself (VF_ONE, EGG_ONE_INLINE): no
 * value slot and no byte in the tree's i8. */
static inline int frame_inline_here(const struct parser *p, const struct frame *f)
{
  return !f->v_reserved && frame_nvals(p, f) == 1 && !f->rich && !f->lazy && !f->let_go &&
         f->spill_at == SIZE_MAX && !egg_has_index(f->node->spec) && i8_exact(p->dstack[f->vstart]);
}

/* Whether an entry closing now (no child took its value slot) of one word or quoted string,
 * one of the first kept (EGG_STR_INLINE), keeps where its string is in the entry itself. */
static inline int frame_str_inline_here(const struct parser *p, const struct frame *f)
{
  const struct egg_rich *r;
  if (f->v_reserved || frame_nvals(p, f) != 1 || !f->rich || f->lazy || f->let_go ||
      f->spill_at != SIZE_MAX || egg_has_index(f->node->spec))
    return 0;
  r = p->rstack + f->vstart; /* (the stack holds the one value) */
  return (r->type == V_WORD || r->type == V_QSTRING) && r->s && r->s <= EGG_STR_INLINE && !(r->s % 4);
}

static PARSE_INLINE void close_node(struct parser *p, int bad)
{
  struct frame *f = &p->stack[p->depth - 1];
  struct egg_node *n = f->node;
  size_t count = frame_nvals(p, f);
  n->size = (uint32_t)(p->doc->node_used - f->idx);
  if (bad)
    n->bad = 1;
  if (frame_drops_here(p, f)) {
    n->vform = VF_DROPPED; /* the count alone (egg_nvals), without a value slot */
    n->close = (uint32_t)count;
    p->doc->dropped = 1;
  } else if (frame_inline_here(p, f)) {
    n->vform = VF_ONE;
    n->close = EGG_ONE_INLINE + 128 + (uint32_t)(int)p->dstack[f->vstart];
  } else if (frame_str_inline_here(p, f)) {
    n->vform = p->rstack[f->vstart].type == V_WORD ? VF_WORD : VF_QSTR;
    n->close = p->rstack[f->vstart].s / 4 + 1;
  } else {
    frame_reserve_v(p, f);
    close_values(p, f, n, count);
  }
  if (f->vertex_mark)
    vertex_done(p, f);
  p->nvals = f->vstart;
  p->depth--;
  if (p->depth)
    p->lx.lazy = p->stack[p->depth - 1].lazy;
}

static int is_container(int spec)
{
  return spec == S_GROUP || spec == S_JOINT || spec == S_INSTANCE || spec == S_TABLE ||
         spec == S_BUNDLE;
}

static void spec_facts_init(struct parser *p)
{
  for (int spec = 0; spec < S_COUNT; spec++) {
    const struct egg_spec_info *si = &egg_specs[spec];
    struct spec_facts *sf = &p->facts[spec];
    sf->maxvals = count_max(si->counts);
    sf->fastnum = si->vals == VALS_REAL ? 1 : si->vals == VALS_INT ? 2 : 0;
    sf->lazy = droppable(p->doc, spec);
    sf->container = (uint8_t)is_container(spec);
    sf->nests = (uint8_t)egg_nests(spec);
  }
}

/* The number an integer-named entry carries, saturated. */
static int64_t name_index(const struct egg_token *name)
{
  if (name->type == T_ULONG)
    return (int64_t)(name->ul > INT64_MAX ? INT64_MAX : name->ul);
  if (!(name->num == name->num) || name->num < -9.2e18)
    return INT64_MIN;
  return name->num > 9.2e18 ? INT64_MAX : (int64_t)name->num;
}

/* Parse `<Kw> [name] {` for an entry of kind spec; push its frame, or recover and return -1. */
static PARSE_INLINE int open_entry(struct parser *p, int spec, const struct egg_token *kwtok, int legacy)
{
  const struct egg_spec_info *si = &egg_specs[spec];
  const struct spec_facts *sf = &p->facts[spec];
  struct frame *parent = &p->stack[p->depth - 1];
  struct egg_node *n;
  struct egg_token name;
  int64_t index = 0;      /* an entry with a number whose name is missing: 0 */
  size_t name_at = SIZE_MAX;
  int has_name = 0;
  int containers = parent->containers + sf->container;

  if (p->depth >= EGG_MAX_DEPTH || containers >= (int)EGG_PANDA_DEPTH ||
      (spec == S_VREF_PRIM && parent->containers >= (int)EGG_PANDA_DEPTH - 3)) {
    char lim[64];
    snprintf(lim, sizeof lim, "at most %u nested groups/tables", EGG_PANDA_DEPTH - 1);
    syntax(p, RULE_EGG_NESTING_DEPTH, kwtok, lim);
    advance(p);
    skip_header(p);
    return -1;
  }
  advance(p);
  name.type = T_EOF; /* read only when has_name */
  if (is_value_tok(p->tok.type)) {
    name = p->tok;
    has_name = 1;
    advance(p);
  }
  if (has_name && si->name == NAME_NONE) {
    syntax(p, RULE_EGG_SYNTAX, &name, "'{' (this entry takes no name)");
    skip_header(p);
    return -1;
  }
  if (has_name && (si->name == NAME_INT_OPT || si->name == NAME_INT_REQ) &&
      name.type != T_NUMBER && name.type != T_ULONG) {
    syntax(p, RULE_EGG_NOT_A_NUMBER, &name, "an integer index");
    skip_header(p);
    return -1;
  }
  if (p->tok.type != T_LBRACE) {
    syntax(p, RULE_EGG_SYNTAX, &p->tok, has_name ? "'{'" : "a name or '{'");
    skip_header(p);
    return -1;
  }
  if (!has_name && si->name == NAME_INT_REQ) {
    syntax(p, RULE_EGG_SYNTAX, &p->tok, "an integer index before '{'");
    skip_block(p);
    return -1;
  }
  if (spec == S_V && !p->doc->keep_anim)
    v_replaces(p, parent);
  else if ((spec == S_NORMAL || spec == S_RGBA) && parent->vertex_mark)
    attr_replaces(p, parent, spec);
  if (parent->spill_at != SIZE_MAX && spill_finish(p, parent) < 0)
    return -1;
  frame_reserve_v(p, parent); /* before this entry's own name */
  n = node_new(p, spec, kwtok);
  if (!n)
    return -1;
  n->legacy_group = (uint8_t)legacy;
  if (has_name && spec == S_TAG && !p->doc->keep_values) {
    /* a validation-only decode only counts a <Tag> (egg_unheld.c): its name is elided without a
     * name slot, as a pool vertex's (name_ix: egg_name gives egg_name_elided, no slot read); the
     * tree is not written (dropped). A `<Tag> a%d{}` of 13 to 16 bytes kept an entry, a slot and
     * a copy of its name: 3.2 x its text (issue 26) */
    n->has_name = 1;
    n->name_ix = 1;
    p->doc->dropped = 1;
    n->name_quoted = name.type == T_QSTRING;
    n->name_numeric = name.type == T_NUMBER || name.type == T_ULONG;
    if (name.flags & TOKF_CONTROL)
      egg_emit(p->doc, RULE_EGG_CONTROL_BYTE, name.line, name.col, NULL, "%s", "a name");
  } else if (has_name) {
    /* a validation-only decode reads a pool vertex's number (egg_index), never its text */
    uint32_t field = spec == S_VERTEX && !p->doc->keep_values
                       ? EGG_NAME_ELIDED : str_value(p, name.s, name.len > EGG_MAX_TOKEN ? EGG_MAX_TOKEN : name.len);
    if (field && col_push(p, &p->doc->names, (size_t)(n - p->doc->node_arr), field) == 0) {
      n->has_name = 1; /* (field 0: out of memory, the parse stops) */
      name_at = p->doc->names.used - 1;
    }
    n->name_quoted = name.type == T_QSTRING;
    n->name_numeric = name.type == T_NUMBER || name.type == T_ULONG;
    if (si->name == NAME_INT_OPT || si->name == NAME_INT_REQ) {
      check_integer(p, &name);
      index = name_index(&name);
    }
    if (name.flags & TOKF_CONTROL)
      egg_emit(p->doc, RULE_EGG_CONTROL_BYTE, name.line, name.col, NULL, "%s", "a name");
  } else if (si->name == NAME_REQ) {
    egg_emit(p->doc, RULE_EGG_NAME_REQUIRED, p->tok.line, p->tok.col, NULL, "%s", si->what);
  } else {
    index = -1;
  }
  node_attach(parent, n);
  if ((spec == S_NORMAL || spec == S_RGBA) && parent->vertex_mark && !parent->attr_first[spec == S_RGBA])
    parent->attr_first[spec == S_RGBA] = (size_t)(n - p->doc->node_arr);
  {
    /* every field set, none cleared by a memset first (a call a entry: most of a frame's
     * setting up) */
    struct frame *nf = &p->stack[p->depth];
    nf->let_go = 0;
    nf->rich = nf->seen_child = nf->seen_ref = nf->seen_one = 0;
    nf->vertex_mark = nf->v_reserved = 0;
    nf->morphs = 0;
    nf->nums_used = 0;
    nf->attr_first[0] = nf->attr_first[1] = 0;
    nf->normals_folded = 0;
    nf->v_at = SIZE_MAX;
    nf->spill_at = SIZE_MAX;
    nf->spill_dead = 0;
  }
  p->stack[p->depth].node = n;
  p->stack[p->depth].idx = (size_t)(n - p->doc->node_arr);
  p->stack[p->depth].index = index;
  p->stack[p->depth].line = kwtok->line;
  p->stack[p->depth].name_at = name_at;
  p->stack[p->depth].ctx = si->body;
  p->stack[p->depth].vstart = p->nvals;
  p->stack[p->depth].maxvals = sf->maxvals;
  p->stack[p->depth].fastnum = sf->fastnum;
  p->stack[p->depth].lazy = sf->lazy;
  if (spec == S_VERTEX && !p->doc->keep_values) {
    struct frame *vf = &p->stack[p->depth];
    vf->vertex_mark = 1;
    vf->morphs = morph_count(p->doc);
    vf->nums_used = p->doc->nums_used;
    vf->f32_used = p->doc->f32_used;
    vf->i8_used = p->doc->i8_used;
  }
  p->lx.lazy = p->stack[p->depth].lazy;
  if (sf->nests)
    parent->node->has_nest = 1;
  if (spec == S_SCALAR)
    parent->node->has_scalar = 1;
  else if (spec == S_DART)
    parent->node->has_dart = 1;
  p->stack[p->depth].containers = containers;
  p->depth++;
  advance(p); /* past '{' */
  return 0;
}

/* A value token in a body. */
static void body_value(struct parser *p, struct frame *f)
{
  const struct egg_spec_info *si = &egg_specs[f->node->spec];
  const struct egg_token *t = &p->tok;
  char buf[96];
  size_t n;

  if (si->vals == VALS_NONE) {
    if (t->type == T_WORD && (t->flags & TOKF_GLUED))
      fail_at(p, RULE_EGG_GLUED_KEYWORD, t, NULL, egg_show(buf, sizeof buf, t->s, t->len));
    else if (t->type == T_WORD && t->len && t->s[0] == '<')
      fail_at(p, RULE_EGG_UNKNOWN_KEYWORD, t, NULL, egg_show(buf, sizeof buf, t->s, t->len));
    else
      syntax(p, RULE_EGG_SYNTAX, t, f->ctx == C_LEAF ? "'}'" : "an entry keyword or '}'");
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  if (f->seen_child) {
    syntax(p, RULE_EGG_VALUE_ORDER, t, "values before the nested entries");
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  n = frame_nvals(p, f);
  switch (si->vals) {
  case VALS_MORPH:
    if (!f->node->has_name && n == 0)
      break; /* the target name */
    /* fall through */
  case VALS_REAL:
  case VALS_INT:
    if (t->type != T_NUMBER && t->type != T_ULONG) {
      syntax(p, RULE_EGG_NOT_A_NUMBER, t, si->vals == VALS_INT ? "an integer" : "a number");
      skip_to_close(p);
      f->node->bad = 1;
      return;
    }
    if (si->vals == VALS_INT)
      check_integer(p, t);
    check_special_number(p, t);
    break;
  case VALS_INT_OR_WORD:
    if (t->type == T_NUMBER || t->type == T_ULONG)
      check_integer(p, t);
    break;
  default:
    if (t->type == T_NUMBER)
      check_special_number(p, t);
    break;
  }
  if (f->maxvals != (size_t)-1 && arity_count(p, f) + 1 > f->maxvals &&
      si->counts != (COUNTS_ANY & ~1u)) {
    char exp[96], act[160];
    expected_counts(exp, sizeof exp, si->counts, si->vals);
    snprintf(act, sizeof act, "%s with more values at '%s'", si->what, tok_show(t, buf, sizeof buf));
    egg_emit(p->doc, RULE_EGG_ARITY, t->line, t->col, exp, "%s", act);
    if (!p->doc->syntax_failed) {
      p->doc->syntax_failed = 1;
      p->doc->fail_line = t->line;
      p->doc->fail_col = t->col;
    }
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  if (t->type == T_WORD && (t->flags & TOKF_CONTROL))
    egg_emit(p->doc, RULE_EGG_CONTROL_BYTE, t->line, t->col, NULL, "%s", "a value");
  push_value(p, f, t);
  advance(p);
}

/* A bare word in a node list: the legacy `group <File> ...` or an error at the next token. */
static void node_list_word(struct parser *p)
{
  struct egg_token word = p->tok;
  char buf[96];
  advance(p);
  if (p->tok.type == T_KEYWORD && p->tok.kw == KW_FILE) {
    struct egg_token kw = p->tok;
    if (!egg_name_eq(word.s, word.len, "group")) {
      egg_emit(p->doc, RULE_EGG_LEGACY_FILE_WORD, word.line, word.col, "group", "%s",
               egg_show(buf, sizeof buf, word.s, word.len));
    } else {
      egg_emit(p->doc, RULE_EGG_LEGACY_FILE, word.line, word.col, NULL, NULL);
    }
    open_entry(p, S_FILE, &kw, 1);
    return;
  }
  /* Panda3D shifts the word as a string and fails on the token after it */
  if (word.flags & TOKF_BOM)
    fail_at(p, RULE_EGG_BYTE_ORDER_MARK, &p->tok, NULL, egg_show(buf, sizeof buf, word.s, word.len));
  else if (word.flags & TOKF_GLUED)
    fail_at(p, RULE_EGG_GLUED_KEYWORD, &p->tok, NULL, egg_show(buf, sizeof buf, word.s, word.len));
  else if (word.type == T_WORD && word.len && word.s[0] == '<')
    fail_at(p, RULE_EGG_UNKNOWN_KEYWORD, &p->tok, NULL, egg_show(buf, sizeof buf, word.s, word.len));
  else
    syntax(p, RULE_EGG_SYNTAX, &p->tok, "an entry keyword");
  if (is_value_tok(p->tok.type))
    advance(p);
  if (p->tok.type == T_LBRACE)
    skip_block(p);
}

static PARSE_INLINE void body_keyword(struct parser *p, struct frame *f)
{
  const struct egg_token *t = &p->tok;
  struct egg_token kw; /* what open_entry needs of the keyword, read past */
  int spec;
  char buf[96];

  if (t->kw >= KW_FIRST_UNUSED) {
    syntax(p, RULE_EGG_UNUSED_KEYWORD, t, NULL);
    advance(p);
    skip_header(p);
    return;
  }
  spec = child_spec(p, f->ctx, t->kw);
  if (spec < 0) {
    char where[300], contexts[256];
    snprintf(where, sizeof where, "%s may appear in %s", egg_kw_spelling(t->kw),
             egg_grammar_where(t->kw, contexts, sizeof contexts));
    egg_emit(p->doc, RULE_EGG_PLACEMENT, t->line, t->col, where, "%s in %s",
             tok_show(t, buf, sizeof buf), egg_specs[f->node->spec].what);
    if (!p->doc->syntax_failed) {
      p->doc->syntax_failed = 1;
      p->doc->fail_line = t->line;
      p->doc->fail_col = t->col;
    }
    advance(p);
    skip_header(p);
    return;
  }
  if (!f->seen_child && !values_complete(p, f, t)) {
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  if (f->seen_ref || ((f->ctx == C_DISTANCE || f->ctx == C_SWITCHCOND) && f->seen_one)) {
    syntax(p, RULE_EGG_SYNTAX, t, "'}'");
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  f->seen_child = 1;
  if (spec == S_REF && (f->ctx == C_VREF_GROUP || f->ctx == C_VREF_PRIM))
    f->seen_ref = 1;
  if (f->ctx == C_DISTANCE || f->ctx == C_SWITCHCOND)
    f->seen_one = 1;
  /* the fields open_entry reads (node_new, syntax), not a cleared copy of all of it */
  kw.type = T_KEYWORD;
  kw.kw = t->kw;
  kw.line = t->line;
  kw.col = t->col;
  kw.s = t->s;
  kw.len = t->len;
  kw.flags = 0;
  open_entry(p, spec, &kw, 0);
}

static PARSE_INLINE void body_close(struct parser *p, struct frame *f)
{
  int bad = 1;
  if (f->node->bad) {
    /* already reported: its contents are incomplete */
  } else if (!values_complete(p, f, &p->tok)) {
  } else if ((f->ctx == C_VREF_GROUP || f->ctx == C_VREF_PRIM) && !f->seen_ref) {
    syntax(p, RULE_EGG_SYNTAX, &p->tok, "<Ref> { pool } before '}' of a <VertexRef>");
  } else if ((f->ctx == C_DISTANCE || f->ctx == C_SWITCHCOND) && !f->seen_one) {
    syntax(p, RULE_EGG_SYNTAX, &p->tok,
           f->ctx == C_DISTANCE ? "<Vertex> { x y z } in <Distance>" : "<Distance> in <SwitchCondition>");
  } else {
    bad = 0;
  }
  close_node(p, bad); /* one call, inlined here */
  advance(p);
}

int egg_parse(struct egg_doc *doc, const unsigned char *data, size_t size)
{
  struct parser *p = calloc(1, sizeof *p);
  struct egg_token rootkw;
  int rc = 0;
  if (!p)
    return -1;
  if (size > UINT32_MAX) { /* entries keep their offsets in 32 bits */
    free(p);
    return -1;
  }
  p->doc = doc;
  doc->data = data;
  doc->size = size;
  spec_facts_init(p);
  egg_lex_init(&p->lx, data, size, doc);
  p->lx.kw_cache = p->kw_cache; /* zeroed by calloc: empty */
  memset(&rootkw, 0, sizeof rootkw);
  rootkw.line = 1;
  rootkw.col = 1;
  doc->root = node_new(p, S_ROOT, &rootkw);
  if (!doc->root) {
    free(p);
    return -1;
  }
  p->stack[0].node = doc->root;
  p->stack[0].ctx = C_TOP;
  p->stack[0].line = 1;
  p->stack[0].name_at = SIZE_MAX;
  p->stack[0].spill_at = SIZE_MAX;
  p->depth = 1;
  p->give_at = TEXT_BEHIND * 2;
  advance(p);
  while (!p->oom) {
    struct frame *f = &p->stack[p->depth - 1];
    switch (p->tok.type) {
    case T_EOF:
      if (p->depth > 1) {
        syntax(p, RULE_EGG_UNEXPECTED_EOF, &p->tok, NULL);
        while (p->depth > 1)
          close_node(p, 1);
      }
      close_node(p, 0);
      goto done;
    case T_RBRACE:
      if (p->depth == 1) {
        syntax(p, RULE_EGG_STRAY_BRACE, &p->tok, NULL);
        advance(p);
      } else {
        body_close(p, f);
      }
      break;
    case T_LBRACE:
      syntax(p, RULE_EGG_SYNTAX, &p->tok, "an entry keyword or a value before '{'");
      skip_block(p);
      break;
    case T_KEYWORD:
      body_keyword(p, f);
      break;
    case T_NUMBER:
      /* the bulk of a file: a plain decimal where numbers go, within the entry's count */
      if (f->fastnum && !p->tok.flags && !f->seen_child && !f->rich &&
          frame_nvals(p, f) < f->maxvals && p->nvals < p->capvals &&
          (f->fastnum == 1 || (p->tok.num <= 2147483647.0 && p->tok.num == floor(p->tok.num)))) {
        size_t room;
        p->dstack[p->nvals++] = p->tok.num;
        room = p->capvals - p->nvals;
        if (f->maxvals - frame_nvals(p, f) < room)
          room = f->maxvals - frame_nvals(p, f);
        p->nvals += egg_lex_decimals(&p->lx, p->dstack + p->nvals, room, f->fastnum == 2, &p->tok);
        text_behind(p);
        values_let_go(p, f);
        if (p->nvals - f->vstart >= SPILL_RUN)
          frame_spill(p, f);
        break;
      }
      /* fall through */
    default:
      if (f->ctx == C_TOP || f->ctx == C_GROUP)
        node_list_word(p);
      else
        body_value(p, f);
      break;
    }
  }
  rc = -1;
done:
  text_window_done(doc->window, data, size); /* the checks read only what they look at again */
  doc->eof_line = p->lx.line;
  free(p->dstack);
  free(p->rstack);
  free(p);
  return rc;
}
