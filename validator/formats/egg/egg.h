/* egg.h - Panda3D egg: tokens, the parsed tree, the grammar table and the checks over it.
 *
 * The lexer follows Panda3D's flex rules byte for byte (notes §1); the parser builds a generic
 * tree `<Kw> [name] { values children }` and the grammar table (egg_grammar.c) says, per
 * parent context and keyword, what a legal entry looks like. Checks run over the finished tree. */
#ifndef MDL_EGG_H
#define MDL_EGG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "format.h"

#define EGG_MAX_TOKEN 65536u  /* longest token accepted (bytes) */
#define EGG_MAX_DEPTH 256u    /* deepest nesting of entries the parser follows */
#define EGG_PANDA_DEPTH 200u  /* Panda3D's bison stack overflows at 200 nested groups */

/* --- keywords: every spelling Panda3D's lexer knows (notes §1.4) ------------------------- */
enum egg_kw {
  KW_NONE = 0,
  KW_ANIMPRELOAD, KW_AUX, KW_BFACE, KW_BILLBOARD, KW_BILLBOARDCENTER, KW_BINORMAL, KW_BUNDLE,
  KW_SCALAR, KW_COLLIDE, KW_COMMENT, KW_COMPONENT, KW_COORDSYSTEM, KW_DART, KW_DNORMAL,
  KW_DRGBA, KW_DUV, KW_DXYZ, KW_DCS, KW_DISTANCE, KW_FILE, KW_GROUP, KW_DEFAULTPOSE, KW_JOINT,
  KW_KNOTS, KW_INSTANCE, KW_LINE, KW_LOOP, KW_MATERIAL, KW_MATRIX3, KW_MATRIX4, KW_MODEL,
  KW_MREF, KW_NORMAL, KW_NURBSCURVE, KW_NURBSSURFACE, KW_OBJECTTYPE, KW_ORDER, KW_PATCH,
  KW_POINTLIGHT, KW_POLYGON, KW_REF, KW_RGBA, KW_ROTATE, KW_ROTX, KW_ROTY, KW_ROTZ, KW_SANIM,
  KW_SCALE, KW_SWITCH, KW_SWITCHCONDITION, KW_TABLE, KW_V, KW_TAG, KW_TANGENT, KW_TEXLIST,
  KW_TEXTURE, KW_TRANSFORM, KW_TRANSLATE, KW_TREF, KW_TRIANGLEFAN, KW_TRIANGLESTRIP, KW_TRIM,
  KW_UKNOTS, KW_UV, KW_VKNOTS, KW_VERTEX, KW_VERTEXPOOL, KW_VERTEXREF, KW_XFMANIM, KW_XFMSANIM,
  /* lexed by Panda3D but used by no grammar rule: always a syntax error */
  KW_BEZIERCURVE, KW_CLOSED, KW_CV, KW_DTREF, KW_DYNAMICVERTEXPOOL, KW_INCLUDE, KW_OUTTANGENT,
  KW_SEQUENCE, KW_SHADING, KW_TLENGTHS, KW_TXT, KW_VERTEXANIM,
  KW_COUNT
};
#define KW_FIRST_UNUSED KW_BEZIERCURVE

/* Canonical spelling of a keyword, "<Group>". */
const char *egg_kw_spelling(int kw);
/* Keyword of a `<...>` spelling (case-insensitive), or KW_NONE. */
int egg_kw_lookup(const char *s, size_t len);
/* 0 when every spelling looks up to its keyword (the lookup is a hash table). */
int egg_kw_selftest(void);

/* --- tokens --------------------------------------------------------------------------------- */
enum egg_tok { T_EOF, T_LBRACE, T_RBRACE, T_KEYWORD, T_NUMBER, T_ULONG, T_QSTRING, T_WORD };

#define TOKF_INF 1u       /* inf / 1.#inf spelling */
#define TOKF_NANBITS 2u   /* nan0x... raw bits */
#define TOKF_MULTILINE 4u /* quoted string spanning lines */
#define TOKF_BOM 8u       /* bare word starting with a UTF-8 byte order mark */
#define TOKF_CONTROL 16u  /* bare word holding a control byte */
#define TOKF_GLUED 32u    /* bare word that starts with a keyword glued to more text */

struct egg_token {
  int type;
  int kw;                /* T_KEYWORD */
  const char *s;         /* the token's bytes (quoted: without the quotes) */
  size_t len;
  double num;            /* T_NUMBER, T_ULONG */
  uint64_t ul;           /* T_ULONG */
  unsigned line, col;
  unsigned flags;
};

struct egg_doc;

/* The keyword a spelling of len bytes (3..16) read last, by len: the bytes as two words, zero
 * past len (a file spells its few keywords the same way millions of times). kw 0: none yet. */
#define EGG_KW_CACHE_MAX 16
struct egg_kw_cache {
  uint64_t w[2];
  int kw;
};

/* The column is not counted byte by byte: it is the distance from the start of the line. */
struct egg_lexer {
  const unsigned char *data;
  size_t size, pos;
  size_t line_start;     /* offset of the first byte of the current line */
  unsigned line;
  struct egg_doc *doc;   /* NULL: a quiet re-lex (no diagnostics) */
  int lazy;              /* plain decimals need not be converted (their values are not kept) */
  /* EGG_KW_CACHE_MAX + 1 entries (the parser's, zeroed), or NULL: every keyword looked up */
  struct egg_kw_cache *kw_cache;
};

void egg_lex_init(struct egg_lexer *lx, const unsigned char *data, size_t size, struct egg_doc *doc);
void egg_lex_next(struct egg_lexer *lx, struct egg_token *t);
/* egg_lex_next, the usual brace (one space, then '{' or '}': half the tokens of a file) read
 * inline without the call; the token is the one egg_lex_next gives (a brace is a token of its
 * own whatever follows it). */
static inline void egg_lex_next_inline(struct egg_lexer *lx, struct egg_token *t)
{
  size_t pos = lx->pos;
  if (pos + 2 <= lx->size && lx->data[pos] == ' ' &&
      (lx->data[pos + 1] == '{' || lx->data[pos + 1] == '}')) {
    pos++;
    t->type = lx->data[pos] == '{' ? T_LBRACE : T_RBRACE;
    t->kw = 0;
    t->s = (const char *)lx->data + pos;
    t->len = 1;
    t->num = 0;
    t->ul = 0;
    t->line = lx->line;
    t->col = (unsigned)(pos - lx->line_start + 1);
    t->flags = 0;
    lx->pos = pos + 1;
    return;
  }
  egg_lex_next(lx, t);
}
/* The end of the bare run (a keyword, a word) that goes on at pos: the first byte at or after
 * pos that ends one (blank, line end, brace, quote), or size. */
size_t egg_lex_bare_end(const unsigned char *d, size_t pos, size_t size);
/* The plain decimals (those egg_lex_next reads as T_NUMBER without flags) that come next, at
 * most max, into out (0 for each in lazy mode), with ints: only integers up to 2147483647; then
 * the token after them into t (t NULL: the lexer is left at the start of that token, or after
 * the max-th value). The number of values read: the parser's short path for the bulk of a
 * file, one call for a run of numbers rather than one a number. */
size_t egg_lex_decimals(struct egg_lexer *lx, double *out, size_t max, int ints, struct egg_token *t);
/* For egg_lex_test: the plain decimal at *pos read a word at a time where it can (words 1),
 * byte by byte only (words 0), or by the word path alone (words 2: -1 where it declines, as it
 * does without room or on a big-endian machine); 1 read (*pos past it, its value, 0 when
 * lazy), 0 not one. */
int egg_lex_decimal_test(const unsigned char *d, size_t size, size_t *pos, double *out, int lazy, int words);

/* --- the tree ------------------------------------------------------------------------------- */
enum egg_vtype { V_NUMBER, V_ULONG, V_QSTRING, V_WORD };

/* One value, as the checks read it (egg_val). The tree keeps values compactly (see vform). */
struct egg_value {
  double d;
  uint64_t ul;
  const char *s; /* strings only (arena copy), else NULL */
  uint32_t len;
  uint8_t type;
  uint8_t flags; /* TOKF_INF, TOKF_NANBITS */
};

/* How an entry keeps its values. Most entries hold only plain decimals, kept as doubles (8
 * bytes a value); value locations are not stored but found again by re-lexing the entry when
 * a diagnostic needs one (egg_val_loc). */
enum egg_vform {
  VF_NONE,    /* no values */
  VF_NUM,     /* nvals plain decimals in the tree's numbers */
  VF_ONE,     /* one plain decimal in the tree's numbers */
  VF_WORD,    /* one bare word in the tree's strings */
  VF_QSTR,    /* one quoted string in the tree's strings */
  VF_RICH,    /* nvals values of any kind in the tree's rich values */
  VF_DROPPED, /* nvals plain decimals not kept (validation only: no check reads them) */
  VF_IXV      /* a pool vertex without a name in a validation-only decode: its values not
               * kept, their count in close, its number + 1 in v (0: none given yet); 20 bytes
               * for a `<Vertex>{0}` of 11, not 36 with the number and count in two slots */
};

/* A value of a VF_RICH entry as the tree keeps it: its string as an offset in the tree's
 * strings (0: none), which move while the tree grows. */
struct egg_rich {
  double d;
  uint64_t ul;
  uint32_t s, len;
  uint8_t type, flags;
};

/* A field that few entries have (a name, a value slot), kept apart from the entries: the
 * values of the entries that have one, in entry order, and per block of 64 entries a mask of
 * which have one and how many values come before the block's first. An entry without it costs
 * nothing; finding entry i's is a mask test and a population count (egg_col_find). */
struct egg_col {
  uint32_t *vals;
  uint64_t *mask;
  uint32_t *base;
  size_t used, cap, nblk, blk_cap;
};

/* Without a population count instruction (x86-64's baseline has none) the builtin is a library
 * call that costs more than these few steps. */
static inline unsigned egg_popcount64(uint64_t x)
{
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
  return (unsigned)__builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (unsigned)((x * 0x0101010101010101ull) >> 56);
#endif
}
/* Where entry i's value is in c->vals: 1, or 0 when it has none. */
static inline int egg_col_find(const struct egg_col *c, size_t i, size_t *at)
{
  uint64_t m, bit = (uint64_t)1 << (i % 64);
  if (i / 64 >= c->nblk)
    return 0;
  m = c->mask[i / 64];
  if (!(m & bit))
    return 0;
  *at = c->base[i / 64] + egg_popcount64(m & (bit - 1));
  return 1;
}
static inline uint32_t egg_col_get(const struct egg_col *c, size_t i)
{
  size_t at;
  return egg_col_find(c, i, &at) ? c->vals[at] : 0;
}

/* Where a tree's names, strings and kept numbers are: a header just before its first entry (the
 * root), found from any entry by walking up (egg_tree_of). */
struct egg_tree_hdr {
  const char *strs;            /* uint32_t length, the bytes, a NUL; an entry names the bytes */
  const double *nums;          /* VF_NUM, VF_ONE values and the slots below */
  const float *f32;            /* VF_NUM, VF_ONE values a float holds exactly (EGG_V_F32) */
  const int8_t *i8;            /* VF_NUM, VF_ONE values all small integers (EGG_V_I8) */
  const struct egg_rich *rich; /* VF_RICH values and their counts */
  struct egg_doc *doc;         /* the text the entries' offsets count in (egg_node_loc) */
  const struct egg_col *names; /* the entries' header names (see struct egg_node) */
  const struct egg_col *vals;  /* the entries' value slots, v below */
};

/* The tree is one array in file order (pre-order): an entry's children follow it, and its
 * subtree is the `size` entries from itself. Links are counts of entries, not pointers: first
 * child, next sibling and parent are found by arithmetic (egg_first, egg_next, egg_parent), and
 * names and values are offsets into the tree's pools, kept apart (struct egg_col) by the
 * entries that have them, so an entry costs 16 bytes, 20 or 24 with a name or values (issue 26:
 * a `<Group> a { }` line of 14 bytes cost 64 bytes of tree, with three pointers, and a name copy
 * of its own; a `<Group>{}` of 9 bytes cost 28 until the name, the value slot and the keyword's
 * line and column went out of the entry). An entry keeps where its keyword is as one offset
 * into the text, not a line and a column: those are counted from it when a diagnostic or a
 * span needs them (egg_node_loc); its keyword is its kind's (egg_kw).
 *
 * v (egg_v) by vform (ix: the ix_slot bit, the entry's number first in its slots, see egg_index):
 *   VF_NONE       ix ? nums[v] = number, nums[v+1] = line of the closing brace : no v (the
 *                 line is kept in close)
 *   VF_NUM        nums[v+ix] = count, the values after it; with EGG_V_F32, EGG_V_I8 or
 *                 EGG_V_DEC (never ix): the values in f32 (floats, or codes whose escapes
 *                 name nums) or i8 at v & EGG_V_OFF, after the count (4 bytes) when close is
 *                 EGG_CLOSE_FAR
 *   VF_ONE        nums[v] = the value; with EGG_V_F32, EGG_V_I8 or EGG_V_DEC: f32 or i8 at
 *                 v & EGG_V_OFF;
 *                 with close >= EGG_ONE_INLINE, no v: the value is a small integer kept in close
 *                 (egg_i8_values[close - EGG_ONE_INLINE])
 *   VF_WORD/QSTR  v = offset of the string in strs; with close >= EGG_ONE_INLINE, no v: the
 *                 offset is 4 * (close - 1), a string among the first 4 KiB kept (egg_str_v_in)
 *   VF_RICH       rich[v+ix].ul = count, the values after it (the number: rich[v].ul); with
 *                 EGG_V_F32 (never ix), strings only: 4-byte slots in f32 at v & EGG_V_OFF, each
 *                 the offset of its string in strs, EGG_WORD_QUOTED set for a quoted one, after
 *                 the count when close is EGG_CLOSE_FAR; with EGG_V_I8 (a run of words moved as
 *                 it was read, close EGG_CLOSE_FAR), strings only: in i8 at v & EGG_V_OFF the
 *                 count (4 bytes), a byte a value (the code of its slot), the number of codes
 *                 (a byte), then that many 4-byte slots as above
 *   VF_DROPPED    ix ? nums[v+1] = count : v = count
 *   VF_IXV        v = the number + 1 (0: none), close = count
 * Numbers and counts in nums are 64-bit integers stored in the double's bytes. */
struct egg_node {
  uint32_t up;          /* entries back to the parent; 0 for the root */
  uint32_t size;        /* entries in this one's subtree, itself included (set as it closes) */
  uint32_t off;         /* of the keyword, in the text (the root: 0) */
  /* the header name (egg_name_field, in the tree's names when has_name): offset of its bytes in
   * strs, EGG_NAME_ELIDED; with name_ix, the entry's number (its name elided) */
  uint32_t spec : 7;    /* index in egg_specs[] */
  uint32_t vform : 3;   /* enum egg_vform */
  uint32_t has_name : 1;
  uint32_t has_nest : 1; /* a child that holds or is a group, table, pool, ... (see egg_nests) */
  uint32_t bad : 1;          /* a syntax error inside: its contents are incomplete */
  uint32_t legacy_group : 1; /* `group <File> ...` */
  uint32_t name_quoted : 1, name_numeric : 1;
  uint32_t dart : 2;         /* cached character test: 0 unknown, 1 no, 2 yes */
  uint32_t has_scalar : 1;   /* a <Scalar> among the children */
  uint32_t has_dart : 1;     /* a <Dart> among the children */
  uint32_t ix_slot : 1;      /* the number is the first of v's slots (see above) */
  uint32_t name_ix : 1;      /* a pool vertex of a validation-only decode: name holds its number */
  /* VF_NONE without ix: the line of the closing brace, as lines after the keyword's + 1 (0: not
   * kept; EGG_CLOSE_FAR: in the doc's far closes); VF_NUM, VF_RICH, VF_DROPPED, VF_IXV: the
   * number of values (EGG_CLOSE_FAR: that many or more, the count in the slots above); VF_ONE:
   * 1, or EGG_ONE_INLINE + 128 + its value (see v); VF_WORD, VF_QSTR: 1, or the offset of the
   * string / 4 + 1 (see v) */
  uint32_t close : 10;
};
/* the layout issue 26's bound was measured with (16 bytes an entry), and room for every vform */
_Static_assert(sizeof(struct egg_node) == 16, "struct egg_node is 16 bytes (tests/security/egg-memory.sh)");
_Static_assert(VF_IXV < 8, "enum egg_vform fits egg_node.vform (3 bits)");
#define EGG_CLOSE_FAR 1023u
/* v of a VF_NUM or VF_ONE entry whose values a float holds exactly: they are in the tree's f32,
 * 4 bytes a value rather than 8, without a count slot unless there are EGG_CLOSE_FAR or more
 * (issue 26: a `<RGBA>{0 0 0 0}` of 15 bytes kept 40 bytes of numbers, a `<VertexRef>` 8 a
 * 2-byte index) */
#define EGG_V_F32 0x80000000u
/* the same, for values that are all integers from -128 to 127, a byte a value (a `<VertexRef>`
 * of single digits takes a byte an index of 2: the text's own bytes are a third of the bound) */
#define EGG_V_I8 0x40000000u
/* both: values of a VF_NUM or VF_ONE entry that a float does not hold but a short decimal
 * spells (0.1, -2.35): in the tree's f32, a 4-byte code each (egg_code_value), as EGG_V_F32's
 * floats are; not 8 bytes a value in nums and 8 more on the value stack as the run is read
 * (issue 26: a `<V>` of `.1 .3 ...` in `poses` cost 6.3 x its text) */
#define EGG_V_DEC (EGG_V_F32 | EGG_V_I8)
/* the code: the sign (bit 31), k (bits 27 to 30) and m (bits 0 to 26) of (-)m / 10^k, k below
 * EGG_DEC_ESC; a code whose k is EGG_DEC_ESC is an escape: the value is the double at nums[i],
 * i the code's m with its sign bit as bit 27, so that a run of codes also holds the few values
 * no code spells (0.123456789123, 1e-30) at 12 bytes each, not doubles for all (issue 26) */
#define EGG_DEC_M_BITS 27u
#define EGG_DEC_ESC 15u
#define EGG_DEC_ESC_MAX (1u << (EGG_DEC_M_BITS + 1)) /* escapes name nums below this */
#define EGG_V_OFF 0x3fffffffu /* the offset in v, in nums, f32 or i8 */
/* close of a VF_ONE entry whose one value, an integer from -128 to 127, is kept in the entry
 * itself, close - EGG_ONE_INLINE - 128, with no value slot nor byte: a `<DCS>{0}` or `<RGBA>{0}`
 * of 8 or 9 bytes took an entry, a 4-byte value slot and a byte (issue 26) */
#define EGG_ONE_INLINE 2u
/* The largest offset in strs a VF_WORD or VF_QSTR entry keeps in close, not in a value slot: a
 * `<DCS>{a}` or `<Ref>{a}` of 8 bytes took an entry and a 4-byte slot naming the one copy of
 * `a`, one of the first strings of its file (issue 26); strings are 4-byte aligned, from 4 */
#define EGG_STR_INLINE (4u * (EGG_CLOSE_FAR - 2))
/* egg_i8_values[k] is k - 128: where an inline value is read as a byte (egg_numv) */
extern const int8_t egg_i8_values[256];
/* a VF_RICH entry's string slot (EGG_V_F32): a quoted string, not a bare word (a `<Collide>` of
 * a million bare words kept 32 bytes each in the tree, and 40 on the value stack) */
#define EGG_WORD_QUOTED 0x80000000u
#define EGG_NAME_ELIDED 0xffffffffu

static inline const struct egg_tree_hdr *egg_tree_of(const struct egg_node *n)
{
  while (n->up)
    n -= n->up;
  return (const struct egg_tree_hdr *)(const void *)((const char *)n - sizeof(struct egg_tree_hdr));
}
/* The place of an entry in its tree's array. */
static inline size_t egg_node_ix(const struct egg_tree_hdr *t, const struct egg_node *n)
{
  return (size_t)(n - (const struct egg_node *)(const void *)(t + 1));
}
/* The entry's value slot (see above), 0 when it has none. */
static inline uint32_t egg_v_in(const struct egg_tree_hdr *t, const struct egg_node *n)
{
  return egg_col_get(t->vals, egg_node_ix(t, n));
}
static inline uint32_t egg_v(const struct egg_node *n)
{
  return egg_v_in(egg_tree_of(n), n);
}
/* The offset in strs of a VF_WORD or VF_QSTR entry's string: in close when one of the first
 * strings kept (EGG_STR_INLINE), else in its value slot. */
static inline uint32_t egg_str_v_in(const struct egg_tree_hdr *t, const struct egg_node *n)
{
  return n->close >= EGG_ONE_INLINE ? 4u * ((uint32_t)n->close - 1u) : egg_v_in(t, n);
}
/* The header name field (see above), 0 when the entry has no name. */
static inline uint32_t egg_name_field(const struct egg_node *n)
{
  const struct egg_tree_hdr *t;
  if (!n->has_name)
    return 0;
  t = egg_tree_of(n);
  return egg_col_get(t->names, egg_node_ix(t, n));
}
/* The keyword of each kind of entry (egg_grammar.c). */
extern const uint8_t egg_spec_kw[];
static inline int egg_kw(const struct egg_node *n)
{
  return egg_spec_kw[n->spec];
}
static inline struct egg_node *egg_parent(const struct egg_node *n)
{
  return n->up ? (struct egg_node *)(uintptr_t)(n - n->up) : NULL;
}
static inline struct egg_node *egg_first(const struct egg_node *n)
{
  return n->size > 1 ? (struct egg_node *)(uintptr_t)(n + 1) : NULL;
}
static inline struct egg_node *egg_next(const struct egg_node *n)
{
  const struct egg_node *p;
  if (!n->up)
    return NULL;
  p = n - n->up;
  return n + n->size < p + p->size ? (struct egg_node *)(uintptr_t)(n + n->size) : NULL;
}
static inline uint64_t egg_slot_u64(const double *slot)
{
  uint64_t u;
  memcpy(&u, slot, sizeof u);
  return u;
}
static inline uint32_t egg_nvals_far(const struct egg_node *n);
static inline uint32_t egg_nvals(const struct egg_node *n)
{
  switch (n->vform) {
  case VF_NONE: return 0;
  case VF_ONE:
  case VF_WORD:
  case VF_QSTR: return 1;
  default:
    /* the count is in the entry (close) unless it is that large: no need to find the tree */
    return n->close != EGG_CLOSE_FAR ? n->close : egg_nvals_far(n);
  }
}
static inline uint32_t egg_nvals_far(const struct egg_node *n)
{
  const struct egg_tree_hdr *t = egg_tree_of(n);
  switch (n->vform) {
  case VF_NUM: {
    uint32_t v = egg_v_in(t, n), c;
    if (v & EGG_V_F32) {
      memcpy(&c, t->f32 + (v & EGG_V_OFF), sizeof c);
      return c;
    }
    if (v & EGG_V_I8) {
      memcpy(&c, t->i8 + (v & EGG_V_OFF), sizeof c);
      return c;
    }
    return (uint32_t)egg_slot_u64(t->nums + v + n->ix_slot);
  }
  case VF_RICH: {
    uint32_t v = egg_v_in(t, n), c;
    if (v & EGG_V_F32) {
      memcpy(&c, t->f32 + (v & EGG_V_OFF), sizeof c);
      return c;
    }
    if (v & EGG_V_I8) {
      memcpy(&c, t->i8 + (v & EGG_V_OFF), sizeof c);
      return c;
    }
    return (uint32_t)t->rich[v + n->ix_slot].ul;
  }
  case VF_DROPPED: return n->ix_slot ? (uint32_t)egg_slot_u64(t->nums + egg_v_in(t, n) + 1) : egg_v_in(t, n);
  default: return 1;
  }
}
/* The line of the closing brace of an entry without values (0: not kept), else 0. */
uint32_t egg_close_line(const struct egg_node *n);
/* The plain decimals of a VF_NUM or VF_ONE entry as one of three arrays: doubles, floats
 * (EGG_V_F32) or bytes (EGG_V_I8); a loop over many values finds them once, not once a value
 * (egg_tree_of walks up). */
struct egg_numv {
  const double *d;
  const float *f;
  const int8_t *b;
  const float *c; /* EGG_V_DEC: 4-byte codes in f32 (egg_code_value) */
  const double *x; /* with c: the tree's nums, where escaped codes point */
};
/* The double a decimal code (EGG_V_DEC) stands for: m / 10^k is one exact IEEE division, the
 * correctly rounded value, as the lexer's fast_decimal (and strtod) gives it; a code is only
 * made for a value it gives back bit for bit (egg_parse.c dec_code). */
extern const double egg_dec_pow10[16]; /* 10^k, k < 16 (egg_tree.c) */
static inline double egg_dec_value(uint32_t code)
{
  double d = (double)(code & ((1u << EGG_DEC_M_BITS) - 1)) / egg_dec_pow10[(code >> EGG_DEC_M_BITS) & 15];
  return code >> 31 ? -d : d;
}
/* The double a code of an EGG_V_DEC run stands for: a decimal's, or an escape's in nums. */
static inline double egg_code_value(const double *nums, uint32_t code)
{
  if (((code >> EGG_DEC_M_BITS) & 15) == EGG_DEC_ESC)
    return nums[(code & ((1u << EGG_DEC_M_BITS) - 1)) | (code >> 31) << EGG_DEC_M_BITS];
  return egg_dec_value(code);
}
static inline double egg_numv_at(const struct egg_numv *v, uint32_t i)
{
  uint32_t code;
  if (v->d)
    return v->d[i];
  if (v->f)
    return (double)v->f[i];
  if (v->c) {
    memcpy(&code, v->c + i, sizeof code);
    return egg_code_value(v->x, code);
  }
  return (double)v->b[i];
}
static inline int64_t egg_double_int(double d);
static inline int64_t egg_numv_int(const struct egg_numv *v, uint32_t i)
{
  return egg_double_int(egg_numv_at(v, i));
}
/* 1 with *out set for a VF_NUM or VF_ONE entry, else 0. */
static inline int egg_numv_in(const struct egg_tree_hdr *t, const struct egg_node *n, struct egg_numv *out)
{
  uint32_t v;
  out->d = NULL;
  out->f = NULL;
  out->b = NULL;
  out->c = NULL;
  out->x = NULL;
  if (n->vform != VF_NUM && n->vform != VF_ONE)
    return 0;
  if (n->vform == VF_ONE && n->close >= EGG_ONE_INLINE) {
    out->b = egg_i8_values + (n->close - EGG_ONE_INLINE);
    return 1;
  }
  v = egg_v_in(t, n);
  if ((v & EGG_V_DEC) == EGG_V_DEC)
    out->c = t->f32 + (v & EGG_V_OFF) + (n->close == EGG_CLOSE_FAR), out->x = t->nums;
  else if (v & EGG_V_F32)
    out->f = t->f32 + (v & EGG_V_OFF) + (n->close == EGG_CLOSE_FAR);
  else if (v & EGG_V_I8)
    out->b = t->i8 + (v & EGG_V_OFF) + (n->close == EGG_CLOSE_FAR ? 4 : 0);
  else
    out->d = t->nums + v + (n->vform == VF_NUM ? n->ix_slot + 1 : 0);
  return 1;
}
static inline int egg_numv(const struct egg_node *n, struct egg_numv *out)
{
  out->d = NULL;
  out->f = NULL;
  out->b = NULL;
  out->c = NULL;
  out->x = NULL;
  if (n->vform != VF_NUM && n->vform != VF_ONE)
    return 0;
  return egg_numv_in(egg_tree_of(n), n, out);
}

/* A number as an integer, truncated toward zero and saturated (NaN gives INT64_MIN). */
static inline int64_t egg_double_int(double d)
{
  if (!(d == d) || d <= -9.2e18)
    return INT64_MIN;
  return d >= 9.2e18 ? INT64_MAX : (int64_t)d;
}

/* The empty name a pool <Vertex> has in a validation-only decode (keep_values 0): it is named,
 * its number is egg_index, and its text is read by writers alone, which refuse such a tree. */
extern const char *const egg_name_elided;

/* Length of a string kept in the tree (a name or a one-string value). */
static inline uint32_t egg_str_len(const char *s)
{
  uint32_t n;
  memcpy(&n, s - sizeof n, sizeof n);
  return n;
}
/* The header name (NUL-terminated, egg_name_len bytes), or NULL. */
static inline const char *egg_name(const struct egg_node *n)
{
  const struct egg_tree_hdr *t;
  uint32_t name;
  if (!n->has_name)
    return NULL;
  if (n->name_ix)
    return egg_name_elided;
  t = egg_tree_of(n);
  name = egg_col_get(t->names, egg_node_ix(t, n));
  if (name == EGG_NAME_ELIDED)
    return egg_name_elided;
  return name ? t->strs + name : NULL;
}
static inline uint32_t egg_name_len(const struct egg_node *n)
{
  const char *s = egg_name(n);
  return s ? egg_str_len(s) : 0;
}

/* Value i of an entry (i < nvals). */
void egg_val(const struct egg_node *n, uint32_t i, struct egg_value *out);
/* Values of an entry that were counted, not kept (a validation-only decode). */
static inline int egg_vals_dropped(const struct egg_node *n)
{
  return n->vform == VF_DROPPED || (n->vform == VF_IXV && n->close);
}
/* The numeric value of value i (0 for a string; a dropped value reads 0). */
static inline double egg_val_d(const struct egg_node *n, uint32_t i)
{
  struct egg_numv nv;
  switch (n->vform) {
  case VF_NUM:
  case VF_ONE: egg_numv(n, &nv); return egg_numv_at(&nv, i);
  case VF_RICH: {
    const struct egg_tree_hdr *t = egg_tree_of(n);
    uint32_t v = egg_v_in(t, n);
    return v & (EGG_V_F32 | EGG_V_I8) ? 0 : t->rich[v + n->ix_slot + 1 + i].d; /* strings only: 0 */
  }
  default: return 0;
  }
}
/* The integer value of value i (see egg_value_int). */
int64_t egg_val_int_slow(const struct egg_node *n, uint32_t i);
static inline int64_t egg_val_int(const struct egg_node *n, uint32_t i)
{
  struct egg_numv nv;
  if (!egg_numv(n, &nv))
    return egg_val_int_slow(n, i);
  return egg_double_int(egg_numv_at(&nv, i));
}
/* The text of value i when it is a string, else NULL. */
const char *egg_val_str(const struct egg_node *n, uint32_t i, uint32_t *len);

/* Shapes of the values inside an entry's braces. */
enum egg_vals {
  VALS_NONE,      /* no values */
  VALS_REAL,      /* numbers; count in `counts` */
  VALS_INT,       /* integers */
  VALS_STRING,    /* any token (word, quoted, number) */
  VALS_ONE,       /* <Scalar>: exactly one token of any kind */
  VALS_INT_OR_WORD, /* <DCS>, <Dart> */
  VALS_MORPH      /* <Dxyz> [name] { [name] x y z }: the name may open the body */
};

enum egg_name { NAME_NONE, NAME_OPT, NAME_REQ, NAME_INT_OPT, NAME_INT_REQ };

/* Parent contexts: which children a body may hold. */
enum egg_ctx {
  C_LEAF, C_TOP, C_GROUP, C_TEXTURE, C_MATERIAL, C_VPOOL, C_VERTEX, C_UV, C_NORMAL, C_RGBA,
  C_PRIM, C_COMPONENT, C_NURBS_S, C_NURBS_C, C_TRIM, C_LOOP, C_TRANSFORM, C_VREF_GROUP,
  C_VREF_PRIM, C_SWITCHCOND, C_DISTANCE, C_TABLE, C_XFMS, C_SANIM, C_XFM, C_PRELOAD,
  C_COUNT
};

/* The kinds of entry (one keyword may mean different kinds in different parents). */
enum egg_spec {
  S_ROOT, S_COORDSYS, S_COMMENT, S_TEXTURE, S_TEXTURE_INLINE, S_MATERIAL, S_FILE, S_VPOOL,
  S_VERTEX, S_UV, S_AUX, S_NORMAL, S_RGBA, S_TANGENT, S_BINORMAL, S_DXYZ, S_DNORMAL, S_DRGBA,
  S_DUV, S_GROUP, S_JOINT, S_INSTANCE, S_POLYGON, S_PATCH, S_TRIFAN, S_TRISTRIP, S_POINTLIGHT,
  S_LINE, S_NURBS_S, S_NURBS_C, S_TABLE, S_BUNDLE, S_ANIMPRELOAD, S_SCALAR, S_BILLBOARD,
  S_BILLBOARDCENTER, S_COLLIDE, S_DCS, S_DART, S_SWITCH, S_MODEL, S_TEXLIST, S_OBJECTTYPE,
  S_TAG, S_TRANSFORM, S_DEFAULTPOSE, S_TRANSLATE, S_ROTATE, S_ROTX, S_ROTY, S_ROTZ, S_SCALE,
  S_MATRIX3, S_MATRIX4, S_VREF_GROUP, S_VREF_PRIM, S_REF, S_SWITCHCOND, S_DISTANCE,
  S_DIST_VERTEX, S_TREF, S_MREF, S_BFACE, S_COMPONENT, S_ORDER_C, S_ORDER_S, S_KNOTS, S_UKNOTS,
  S_VKNOTS, S_TRIM, S_LOOP, S_SANIM, S_XFMANIM, S_XFMSANIM, S_V,
  S_COUNT
};

struct egg_spec_info {
  const char *what;      /* "<Vertex> in a <VertexPool>" */
  uint8_t name;          /* enum egg_name */
  uint8_t vals;          /* enum egg_vals */
  uint32_t counts;       /* bit n: n values allowed; 0xffffffff: any number */
  uint8_t body;          /* enum egg_ctx of the body */
  uint8_t req_string;    /* 0 values: "String required." / "Name required." rather than arity */
};
#define COUNTS_ANY 0xffffffffu
extern const struct egg_spec_info egg_specs[S_COUNT];

/* Entries that carry a number (see egg_index): the first of their value slots (ix_slot), or the
 * name field of a pool vertex whose name is elided (name_ix). */
static inline int egg_has_index(int spec)
{
  /* not a <Joint>: its number is its place among the joints (egg_joint_number), 16 bytes less a
   * joint (issue 26); nor a <Table>: one standing in for a joint finds its parent's number in
   * the list of joints (collect_tables), 20 bytes less a `<Table>{}` of 9 */
  return spec == S_VERTEX || spec == S_COMPONENT;
}
static inline int64_t egg_index(const struct egg_node *n)
{
  const struct egg_tree_hdr *t;
  if (!egg_has_index(n->spec))
    return -1;
  if (n->name_ix)
    return egg_name_field(n);
  if (n->vform == VF_IXV)
    return (int64_t)egg_v(n) - 1;
  if (!n->ix_slot)
    return -1;
  t = egg_tree_of(n);
  return (int64_t)(n->vform == VF_RICH ? t->rich[egg_v_in(t, n)].ul : egg_slot_u64(t->nums + egg_v_in(t, n)));
}

/* The number of pool vertex v as Panda3D gives it (notes §5 D1): its own, or for an omitted one
 * the highest so far + 1, *next starting at 1; -1 for an entry that is no numbered vertex. Every
 * walk over a pool numbers its vertices through here, so the checks and the model agree. */
static inline int64_t egg_vertex_number(const struct egg_node *v, int64_t *next)
{
  int64_t num;
  if (v->spec != S_VERTEX)
    return -1;
  num = egg_name(v) ? egg_index(v) : *next;
  if (num < 0 || num == INT64_MAX)
    return -1;
  if (num + 1 > *next)
    *next = num + 1;
  return num;
}
/* A pool of at most EGG_POOL_SCAN entries: the checks that look its vertices up by number read
 * its children again at each lookup rather than index them (a table, a map entry or a list a
 * pool cost more than its text: issue 26, a million pools of one to three vertices). */
#define EGG_POOL_SCAN 16
static inline int egg_pool_small(const struct egg_node *pool)
{
  unsigned k = 0;
  for (const struct egg_node *c = egg_first(pool); c; c = egg_next(c))
    if (++k > EGG_POOL_SCAN)
      return 0;
  return 1;
}
/* Set the number of an entry that has a slot for it (a name_ix vertex keeps its own). */
static inline void egg_set_index(struct egg_node *n, int64_t index)
{
  const struct egg_tree_hdr *t;
  if (n->vform == VF_IXV) {
    size_t at;
    t = egg_tree_of(n);
    if (egg_col_find(t->vals, egg_node_ix(t, n), &at) && index >= -1 && index < (int64_t)UINT32_MAX)
      ((struct egg_col *)(uintptr_t)t->vals)->vals[at] = (uint32_t)(index + 1);
    return;
  }
  if (!n->ix_slot)
    return;
  t = egg_tree_of(n);
  if (n->vform == VF_RICH)
    ((struct egg_rich *)(uintptr_t)t->rich)[egg_v_in(t, n)].ul = (uint64_t)index;
  else
    memcpy((double *)(uintptr_t)(t->nums + egg_v_in(t, n)), &index, sizeof index);
}

/* The spec of keyword kw as a child of context ctx, or -1 when not allowed there. */
int egg_grammar_child(int ctx, int kw);
/* The contexts where keyword kw may appear, for messages: written into the caller's buf (cap
 * bytes; 256 hold every list), or a constant text. The caller's buffer, not a static one: decodes
 * run on several threads at once. */
const char *egg_grammar_where(int kw, char *buf, size_t cap);

/* The line and column of an entry's keyword, as the lexer counts them, found from its offset:
 * a table of where every EGG_CHECKPOINT-th byte's line is (egg_tree.c), built as far as asked. */
void egg_node_loc(const struct egg_node *n, unsigned *line, unsigned *col);
unsigned egg_node_line(const struct egg_node *n);

struct egg_far_close {
  uint32_t ix, line;
};

/* The line of the byte at pos and where that line starts (egg_doc's table). */
struct egg_checkpoint {
  size_t pos, line_start;
  unsigned line;
};

/* --- document ------------------------------------------------------------------------------- */
struct egg_doc {
  struct decode_ctx *ctx;
  unsigned long map_failures; /* allocations the checks' maps could not make (egg_map_init) */
  struct arena *arena;
  /* where egg_val_loc found value vcur_k of the entry at text offset vcur_off (vcur_valid): a
   * check locates an entry's values in increasing order, and each goes on from the last instead
   * of re-lexing the entry from its start (quadratic in a <Collide> of a million bad words under
   * --profile=panda, which locates every diagnostic) */
  struct egg_lexer vcur_lx;
  size_t vcur_off;
  int64_t vcur_k;
  int vcur_valid;
  struct egg_node *root;
  const unsigned char *data; /* the egg text (inflated for .egg.pz) */
  size_t size;
  /* the input's pages, given back behind the parser and after what is read again (egg_node_loc,
   * the re-lexes): the decode's (ctx->text) while it runs, then NULL (text_window.h) */
  struct text_window *window;
  /* the same window for model.ref_walk (egg_resources.c), which resources_check calls after the
   * decode but while the pipeline that owns the window still runs (core/validate.c): each
   * reference's line and column is read again from the text, and unreported those reads brought
   * the whole text back (--resources over a million textures: 3.0 x the text added, 2.0 x with) */
  struct text_window *walk_window;
  int panda;              /* --profile=panda */
  int keep_values;        /* keep every value (a writer or the model may read them) */
  int keep_anim;          /* keep the animation tables' values (<V>): poses build the frames
                           * but no geometry (keep_values 0, a skeleton-only decode) */
  /* a skeleton-only decode: 2 bits an entry, whether the pool <Vertex> there had a <Normal>
   * (bit 0) or an <RGBA> (bit 1) before the parser let its attributes go (egg_parse.c,
   * vertex_done); all egg_geometry_decode reads of them (egg_vertex_has_attr) */
  unsigned char *vertex_attrs;
  size_t vertex_attrs_cap;
  int drop_transforms;    /* not even a <Transform>'s (no joint is built: joints_unread) */
  int dropped;            /* some values were not kept (keep_values 0) */
  int syntax_failed;      /* a syntax error has been reported */
  unsigned fail_line, fail_col; /* where the first one was (Panda3D stops there) */
  unsigned eof_line;
  unsigned long nodes;
  unsigned long spec_count[S_COUNT]; /* entries of each kind: a check with none to look at is skipped */
  const uint32_t *joint_offs; /* the model's joints: their entries' offsets from the root, */
  uint32_t njoints;           /* ascending (egg_anim_decode; egg_joint_number) */
  int coordsys;           /* enum egg_cs */
  /* <Component>s of carried strips and fans whose normal or colour the model's vertices do not
   * carry (egg_geometry.c), and the first in file order: announced as MDL-CNV-036 */
  unsigned long components_lost;
  const struct egg_node *component_lost_first;
  /* the tree: one block holding its header (struct egg_tree_hdr) then its entries in file
   * order, the root first; and its pools, each one block that grows (entries hold offsets) */
  struct egg_tree_hdr *tree;
  struct egg_node *node_arr;
  size_t node_used, node_cap;
  char *strs;
  size_t strs_used, strs_cap;
  double *nums;
  size_t nums_used, nums_cap;
  float *f32;
  size_t f32_used, f32_cap;
  int8_t *i8;
  size_t i8_used, i8_cap;
  struct egg_rich *rich;
  size_t rich_used, rich_cap;
  struct egg_col names, vals; /* the entries' names and value slots (struct egg_node) */
  /* the closing lines of entries closing EGG_CLOSE_FAR - 1 lines or more after their keyword,
   * in the order they closed (sorted by entry when first read: egg_close_line) */
  struct egg_far_close *far;
  size_t nfar, far_cap;
  int far_sorted;
  /* where entries are (egg_tree.c, egg_node_loc): the line and line start at every
   * EGG_CHECKPOINT-th byte, found as far as the furthest offset asked for, and the last found */
  struct egg_checkpoint *cps;
  size_t ncps, cps_cap;
  size_t last_pos, last_start;
  unsigned last_line;
  /* geometry findings gathered as vertices close (egg_check_geometry.c): a count and where the
   * first was, reported once at the end */
  unsigned long geo_zero_normals, geo_normals, geo_bad_tangents, geo_tangents;
  /* <Normal>s of the vertex being checked that equalled its first and were let go as it was
   * parsed (egg_parse.c, attr_replaces): counted with the first */
  unsigned long vertex_normals_folded;
  unsigned geo_normal_line, geo_normal_col, geo_tangent_line, geo_tangent_col;
};
/* The decode's --max-memory (charged by the checks' maps as they grow), or NULL. */
static inline struct mem_bound *egg_doc_bound(const struct egg_doc *doc)
{
  return doc->arena ? doc->arena->bound : NULL;
}

enum egg_cs { CS_YUP_RIGHT, CS_ZUP_RIGHT, CS_YUP_LEFT, CS_ZUP_LEFT };

/* Emit a diagnostic, re-routed per profile: a spec-only error is a warning under
 * --profile=panda; after Panda3D's parser would have stopped, later errors are dropped there. */
void egg_emit(struct egg_doc *doc, enum rule_index rule, unsigned line, unsigned col,
              const char *expected, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* egg_emit at an entry's keyword (a folded diagnostic, only counted, is not located). */
void egg_emit_node(struct egg_doc *doc, enum rule_index rule, const struct egg_node *n,
                   const char *expected, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* egg_emit with a va_list (egg_emit_val locates, then reports through it). */
void egg_vemit(struct egg_doc *doc, enum rule_index rule, unsigned line, unsigned col,
               const char *expected, const char *fmt, va_list ap)
  __attribute__((format(printf, 6, 0)));

int egg_parse(struct egg_doc *doc, const unsigned char *data, size_t size);

/* Where the header name (k < 0) or value k of an entry is, found by re-lexing the entry. */
void egg_val_loc(struct egg_doc *doc, const struct egg_node *n, int64_t k, unsigned *line, unsigned *col);
/* The first max numeric values of an entry read again from the text (a validation-only decode
 * keeps no vertex coordinates): how many were found, leading numbers only. */
uint32_t egg_values_relex(struct egg_doc *doc, const struct egg_node *n, double *out, uint32_t max);
/* egg_emit at the header name (k < 0) or value k of an entry. */
void egg_emit_val(struct egg_doc *doc, enum rule_index rule, const struct egg_node *n, int64_t k,
                  const char *expected, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Case-insensitive comparison with '-' == '_' (Panda3D's cmp_nocase_uh). */
int egg_name_eq(const char *a, size_t alen, const char *b);
/* Quote a token for messages, truncated. */
const char *egg_show(char *out, size_t cap, const char *s, size_t len);

/* Checks over the tree, by area. */
void egg_check_refs(struct egg_doc *doc);
/* Record the files the egg names (textures, alpha files, external eggs) in the model. */
void egg_collect_refs(struct egg_doc *doc, struct model *m);
void egg_check_vertices(struct egg_doc *doc);
/* The checks of one <Vertex> of a pool and its attributes (repeats, morphs, colour range):
 * egg_check_vertices runs them, except in a validation-only decode, where the parser runs them
 * as each vertex closes and then lets its attributes' memory go (egg_parse.c, vertex_done). */
void egg_check_vertex(struct egg_doc *doc, const struct egg_node *v);
void egg_check_scalars(struct egg_doc *doc);
void egg_check_anim(struct egg_doc *doc);
void egg_check_nurbs(struct egg_doc *doc);

/* What the egg holds that the model has no place for, into m->unheld (egg_unheld.c). */
void egg_unheld_record(struct egg_doc *doc, struct model *m);
/* One kind of loss into m->unheld: its rule, how many entries, the first, what is lost (nothing
 * when count is 0). */
void egg_unheld_add(struct model *m, uint32_t rule, unsigned long count, const struct egg_node *first,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The render attributes of the egg the model has no place for (egg_unheld_render.c); groups,
 * primitives and textures Panda3D does not draw are added to *hidden (the first at *first_hidden). */
void egg_unheld_render(struct egg_doc *doc, struct model *m, unsigned long *hidden,
                       const struct egg_node **first_hidden);
/* Animation tables and joints into the common model (egg_anim.c): 0, or -1 when out of memory. */
int egg_anim_decode(struct egg_doc *doc, struct model *m);
/* The model's number of <Joint> j (after egg_anim_decode), or -1. */
int64_t egg_joint_number(const struct egg_doc *doc, const struct egg_node *j);
/* Vertex pools, primitives and memberships into the model's meshes (egg_geometry.c); runs
 * after egg_anim_decode, only when the values were kept. 0, or -1 when out of memory. */
int egg_geometry_decode(struct egg_doc *doc, struct model *m);
/* EGG-VTX-023 alone, for a skeleton-only decode (egg_geometry_lean.c): 0, or -1 out of memory
 * (the caller reports it). */
int egg_geometry_lean(struct egg_doc *doc, const struct model *m);
/* The model's <Joint>s as offsets from the root (doc->joint_offs, njoints), where poses walk the
 * joints instead of building them (egg_anim_decode): 0, or -1 when out of memory. */
int egg_joint_offs(struct egg_doc *doc);
/* The shared geometry checks over the tree (MDL-GEO-001 normals, MDL-GEO-002 polygons of zero
 * area, MDL-GEO-003 tangents; egg_check_geometry.c). */
void egg_check_geometry(struct egg_doc *doc);
/* Count one <Normal> (and the <Tangent>s of the vertex's UVs) for egg_check_geometry's
 * report: the parser lets a pool vertex's attributes go as it closes, so they are looked at
 * then (egg_check_vertex). */
void egg_geometry_note_vertex(struct egg_doc *doc, const struct egg_node *v);
void egg_geometry_note_normal(struct egg_doc *doc, const struct egg_node *nrm);
/* Rows of an <Xfm$Anim> / <Xfm$Anim_S$> table as Panda3D counts them (notes §4.2). */
uint32_t egg_xform_rows(const struct egg_node *x);
/* A bundle's frame rate and frame count as the loader derives them (notes §4.1, §4.4). */
double egg_bundle_fps(const struct egg_node *bundle);
uint32_t egg_bundle_frames(const struct egg_node *bundle);
/* The decoded matrix of frame f of pose p (Panda's row-vector convention), if kept. */
int egg_pose_matrix(const struct model *m, uint32_t f, uint32_t p, double out[16]);

/* zlib (.egg.pz): inflate into the arena; NULL with a diagnostic on failure. */
const unsigned char *egg_pz_inflate(struct egg_doc *doc, const unsigned char *data, size_t size,
                                    size_t *out_size);
int egg_pz_is_zlib(const unsigned char *data, size_t size);
/* Append text to out as one zlib stream (the .pz container); 0, or -1 with out->error set. */
int egg_pz_deflate(const unsigned char *text, size_t size, struct byte_buf *out);

/* Canonical writer. */
int egg_write_tree(const struct egg_node *root, struct byte_buf *out);
/* 1 when two trees hold the same entries, names and values (what a round trip preserves). */
int egg_tree_equal(const struct egg_node *a, const struct egg_node *b, char *why, size_t cap);
/* An egg tree decoded from egg is printed as it is; any other model is written from the model
 * (egg_write_model.c). */
int egg_write(const struct model *m, const struct write_opts *opts, struct byte_buf *out);
int egg_write_model(const struct model *m, struct write_losses *losses, struct byte_buf *out);
/* Names, quoted strings and numbers as the canonical writer spells them. */
void egg_put_name(struct byte_buf *out, const char *s, size_t len);
void egg_put_quoted(struct byte_buf *out, const char *s, size_t len);
void egg_put_number(struct byte_buf *out, double d);

/* Private data kept on the model. */
#define EGG_PRIVATE_MAGIC 0x21474745u /* "EGG!": format_data may belong to another format */
struct egg_private {
  uint32_t magic;
  struct egg_node *root;
  uint32_t num_poses, num_frames;
  double *matrices; /* num_frames * num_poses * 16 (row-vector), or NULL */
  int dropped;      /* decoded for validation only: some values were not kept */
  /* poses without frames: the model's joints are not built but walked (egg_anim.c's
   * egg_joint_walk): the tables of this <skeleton> stand in for them, or NULL: the <Joint>s */
  const struct egg_node *walk_skel;
  /* frames computed as they are read (ctx.frames_lazy; model.frame_get, egg_anim.c): the
   * joints' places below root, per bundle and joint the table's xform entry (its place, 0:
   * none, the joint's rest plays), per joint its last <Transform> (0: none), the rest matrices
   * of the joints whose <Transform> has many components (sorted joint numbers and their
   * matrices), and the matrix of the last frame computed, which egg_pose_matrix gives back */
  const uint32_t *lazy_nodes;
  /* bundle a's table for joint p at lazy_xf[a * num_poses + p] (NULL when no table binds
   * anywhere): one array, not a pointer and a block of its own a bundle (24 bytes for a bundle
   * binding one table; issue 26), and at most 4 MB: bundles x joints is within MAX_ANIM_CELLS */
  uint32_t *lazy_xf;
  uint32_t *lazy_tf;  /* set (n > 0) whenever frames are computed as they are read */
  uint32_t *heavy_joints, num_heavy;
  double *heavy_mats;
  int coordsys;
  int last_ok;
  uint32_t last_f, last_p;
  double last_mat[16];
};

/* Tree helpers. */
/* A value as an integer, truncated toward zero and saturated (NaN gives INT64_MIN). */
int64_t egg_value_int(const struct egg_value *v);
/* 1 when a value is numeric (decimal or hex/binary). */
int egg_value_is_number(const struct egg_value *v);
/* The same for value i of an entry. */
int egg_val_is_number(const struct egg_node *n, uint32_t i);
/* The last line n's entry spans: its closing brace when known, else its last descendant's. */
uint32_t egg_node_last_line(const struct egg_node *n);
/* The node after n in file order below root (children first), or NULL. */
struct egg_node *egg_next_pre(const struct egg_node *n, const struct egg_node *root);
/* egg_next_pre that goes into n's children only when descend is set: the checks skip the
 * subtrees that cannot hold what they look for (the grammar says which bodies hold what). */
static inline struct egg_node *egg_next_skip(const struct egg_node *n, const struct egg_node *root,
                                             int descend)
{
  /* in file order the entry after a subtree is the next one in the array, while inside root's */
  const struct egg_node *end = root + root->size;
  const struct egg_node *x = descend ? n + 1 : n + n->size;
  return x < end ? (struct egg_node *)(uintptr_t)x : NULL;
}
/* Groups hold the node list (with the top level): the only bodies with groups, pools,
 * primitives or tables in them. */
static inline int egg_is_group(int spec) { return spec == S_GROUP || spec == S_JOINT || spec == S_INSTANCE; }
/* Kinds of entry that the walks over the node list look for: a group without such a child
 * (a mesh: only primitives) need not be entered by them. */
static inline int egg_nests(int spec)
{
  return egg_is_group(spec) || spec == S_TABLE || spec == S_BUNDLE || spec == S_VPOOL ||
         spec == S_COORDSYS || spec == S_ANIMPRELOAD || spec == S_VREF_GROUP;
}
/* A node whose children a node-list walk (groups, tables, pools, joints, ...) must visit. */
static inline int egg_in_node_list(const struct egg_node *n)
{
  return n->spec == S_ROOT || (egg_is_group(n->spec) && n->has_nest);
}
int egg_node_name_is(const struct egg_node *n, const char *s);
/* Value of the first <Scalar> child named `name` (cmp_nocase_uh), or NULL. */
const struct egg_node *egg_scalar_child(const struct egg_node *n, const char *name);

#endif
