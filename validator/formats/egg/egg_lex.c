/* egg_lex.c - Panda3D's egg lexer (panda/src/egg/lexer.lxx), byte for byte: universal newlines
 * for line counting, only space/TAB/CR/LF as whitespace, comments only at a token start, the
 * longest match deciding between keywords, numbers and bare strings. The column of a token is
 * its distance from the start of its line, so only newlines cost anything while scanning. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "number.h"

void egg_lex_init(struct egg_lexer *lx, const unsigned char *data, size_t size, struct egg_doc *doc)
{
  lx->data = data;
  lx->size = size;
  lx->pos = 0;
  lx->line_start = 0;
  lx->line = 1;
  lx->doc = doc;
  lx->lazy = 0;
  lx->kw_cache = NULL;
}

/* Bytes that end a bare run: whitespace, braces and the quote. */
static const unsigned char stops[256] = {
  ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [' '] = 1, ['"'] = 1, ['{'] = 1, ['}'] = 1,
};

static unsigned lex_col(const struct egg_lexer *lx) { return (unsigned)(lx->pos - lx->line_start + 1); }

/* the decimal readers and the line end step are inlined into the loops that call them
 * (egg_lex_next, egg_lex_decimals): a call for each costs about as much as the work */
#if defined(__GNUC__) || defined(__clang__)
#define LEX_INLINE inline __attribute__((always_inline))
#else
#define LEX_INLINE inline
#endif

/* Consume the newline at pos (\n, \r, \r\n or \n\r count once). */
static LEX_INLINE void lex_newline(struct egg_lexer *lx)
{
  unsigned char c = lx->data[lx->pos++];
  if (lx->pos < lx->size) {
    unsigned char d = lx->data[lx->pos];
    if ((c == '\r' && d == '\n') || (c == '\n' && d == '\r'))
      lx->pos++;
  }
  lx->line++;
  lx->line_start = lx->pos;
}

/* Consume one byte of a quoted string or comment. */
static void lex_advance(struct egg_lexer *lx)
{
  unsigned char c = lx->data[lx->pos];
  if (c == '\n' || c == '\r')
    lex_newline(lx);
  else
    lx->pos++;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_hex(unsigned char c)
{
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int ieq(const char *s, size_t len, const char *lit)
{
  size_t n = strlen(lit);
  if (n != len)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (lower((unsigned char)s[i]) != lit[i])
      return 0;
  return 1;
}

/* [+-]?(([0-9]+[.]?)|([0-9]*[.][0-9]+))([eE][+-]?[0-9]+)? over the whole run. */
static int is_numeric(const char *s, size_t n)
{
  size_t i = 0, d1 = 0, d2 = 0;
  if (i < n && (s[i] == '+' || s[i] == '-'))
    i++;
  while (i < n && is_digit((unsigned char)s[i]))
    i++, d1++;
  if (i < n && s[i] == '.') {
    i++;
    while (i < n && is_digit((unsigned char)s[i]))
      i++, d2++;
  }
  if (d1 == 0 && d2 == 0)
    return 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    size_t e = 0;
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-'))
      i++;
    while (i < n && is_digit((unsigned char)s[i]))
      i++, e++;
    if (!e)
      return 0;
  }
  return i == n;
}

/* The common short decimal ([+-]digits[.digits], at most 19 digits, a mantissa below 2^53
 * and at most 22 decimals): one exact IEEE division gives the correctly rounded value, so the
 * result is the one number_parse_double (and strtod) gives. 0 when the text is anything else. */
static int fast_decimal(const char *s, size_t n, double *out)
{
  static const double pow10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
    1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  size_t i = 0;
  uint64_t m = 0;
  unsigned digits = 0, frac = 0;
  int neg = 0;
  double d;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    i = 1;
  }
  for (; i < n && is_digit((unsigned char)s[i]); i++, digits++)
    m = m * 10 + (uint64_t)(s[i] - '0');
  if (i < n && s[i] == '.')
    for (i++; i < n && is_digit((unsigned char)s[i]); i++, digits++, frac++)
      m = m * 10 + (uint64_t)(s[i] - '0');
  if (i != n || !digits || digits > 19 || frac > 22 || m > (1ull << 53))
    return 0;
  d = (double)m;
  if (frac)
    d /= pow10[frac];
  *out = neg ? -d : d;
  return 1;
}

static uint64_t parse_radix(const char *s, size_t n, unsigned radix)
{
  /* strtoul semantics: saturate on overflow (unsigned long is 64-bit on LP64) */
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned c = (unsigned char)s[i], d;
    d = is_digit((unsigned char)c) ? c - '0' : (unsigned)lower((unsigned char)c) - 'a' + 10;
    if (v > (UINT64_MAX - d) / radix)
      return UINT64_MAX;
    v = v * radix + d;
  }
  return v;
}

/* egg_kw_lookup of the run at s (n bytes), through the lexer's cache where it has one and 16
 * bytes are readable from s: the same spelling, byte for byte, is the same keyword. */
static int kw_lookup(const struct egg_lexer *lx, const char *s, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  struct egg_kw_cache *c;
  uint64_t w0, w1;
  int kw;
  if (!lx->kw_cache || n > EGG_KW_CACHE_MAX || (size_t)((const unsigned char *)s - lx->data) + 16 > lx->size)
    return egg_kw_lookup(s, n);
  /* the 16 bytes from s, those past n cleared (the first byte is the lowest of w0) */
  memcpy(&w0, s, 8);
  memcpy(&w1, s + 8, 8);
  if (n <= 8) {
    w0 = n == 8 ? w0 : w0 & ((1ull << (8 * n)) - 1);
    w1 = 0;
  } else if (n < 16) {
    w1 &= (1ull << (8 * (n - 8))) - 1;
  }
  c = &lx->kw_cache[n];
  if (c->kw && c->w[0] == w0 && c->w[1] == w1)
    return c->kw;
  kw = egg_kw_lookup(s, n);
  if (kw) {
    c->w[0] = w0;
    c->w[1] = w1;
    c->kw = kw;
  }
  return kw;
#else
  (void)lx;
  return egg_kw_lookup(s, n);
#endif
}

/* Classify a complete bare run: number, hex/binary, inf, nan bits, keyword, or word. ctl: a
 * byte of it is a control byte (bare_end found it). */
static void lex_classify(const struct egg_lexer *lx, struct egg_token *t, int ctl)
{
  const char *s = t->s;
  size_t n = t->len, i;
  unsigned char c0 = (unsigned char)s[0];
  if (c0 == '<')
    goto keyword; /* a keyword (most of them): not a number, hex, nan or inf spelling */
  if (((c0 | 0x20) >= 'a' && (c0 | 0x20) <= 'z' && (c0 | 0x20) != 'n' && (c0 | 0x20) != 'i') || c0 == '_')
    goto word; /* a word (a name): no number, hex, nan or inf spelling starts so */
  /* number_parse_double's decimal grammar is is_numeric's, so a run it consumes whole (not
   * hex, inf or nan: those start with a letter or 0x) is a number; one scan, not two */
  i = n > 1 && (s[0] == '+' || s[0] == '-');
  if (n && n < 512 && (is_digit((unsigned char)s[i]) || s[i] == '.') &&
      !(s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X'))) {
    double v;
    if (fast_decimal(s, n, &v) || number_parse_double(s, n, &v) == n) {
      t->num = v;
      t->type = T_NUMBER;
      return;
    }
  }
  if (is_numeric(s, n)) {
    if (n < 512) {
      number_parse_double(s, n, &t->num);
    } else {
      t->num = HUGE_VAL; /* absurdly long digit run: the magnitude is what matters */
    }
    t->type = T_NUMBER;
    return;
  }
  if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    for (i = 2; i < n && is_hex((unsigned char)s[i]); i++)
      ;
    if (i == n) {
      t->type = T_ULONG;
      t->ul = parse_radix(s + 2, n - 2, 16);
      t->num = (double)t->ul;
      return;
    }
  }
  if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    for (i = 2; i < n && (s[i] == '0' || s[i] == '1'); i++)
      ;
    if (i == n) {
      t->type = T_ULONG;
      t->ul = parse_radix(s + 2, n - 2, 2);
      t->num = (double)t->ul;
      return;
    }
  }
  if (n >= 5 && lower((unsigned char)s[0]) == 'n' && lower((unsigned char)s[1]) == 'a' &&
      lower((unsigned char)s[2]) == 'n' && s[3] == '0' && (s[4] == 'x' || s[4] == 'X')) {
    for (i = 5; i < n && is_hex((unsigned char)s[i]); i++)
      ;
    if (i == n) {
      uint64_t bits = parse_radix(s + 5, n - 5, 16);
      memcpy(&t->num, &bits, sizeof t->num);
      t->type = T_NUMBER;
      t->flags |= TOKF_NANBITS;
      return;
    }
  }
  if (ieq(s, n, "inf") || ieq(s, n, "1.#inf")) {
    t->type = T_NUMBER;
    t->num = HUGE_VAL;
    t->flags |= TOKF_INF;
    return;
  }
  if (ieq(s, n, "-inf") || ieq(s, n, "-1.#inf")) {
    t->type = T_NUMBER;
    t->num = -HUGE_VAL;
    t->flags |= TOKF_INF;
    return;
  }
keyword:
  if (n >= 3 && s[0] == '<') {
    int kw = kw_lookup(lx, s, n);
    if (kw) {
      t->type = T_KEYWORD;
      t->kw = kw;
      return;
    }
    /* a keyword glued to more text ("<Group>g"): one bare string, as in Panda3D */
    for (i = 2; i < n; i++)
      if (s[i] == '>' && egg_kw_lookup(s, i + 1)) {
        t->flags |= TOKF_GLUED;
        break;
      }
  }
  if (n >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB && (unsigned char)s[2] == 0xBF)
    t->flags |= TOKF_BOM;
word:
  if (ctl)
    t->flags |= TOKF_CONTROL;
  t->type = T_WORD;
}

/* Skip a C comment opened at the current position (past its opening marker). */
static void lex_c_comment(struct egg_lexer *lx, unsigned line, unsigned col)
{
  int warned = 0;
  while (lx->pos < lx->size) {
    unsigned char c = lx->data[lx->pos];
    if (c == 0)
      break;
    if (c == '*' && lx->pos + 1 < lx->size && lx->data[lx->pos + 1] == '/') {
      lx->pos += 2;
      return;
    }
    if (c == '/' && lx->pos + 1 < lx->size && lx->data[lx->pos + 1] == '*' && !warned) {
      /* located at the comment's start, as Panda3D does; the message names the nested one */
      if (lx->doc)
        egg_emit(lx->doc, RULE_EGG_NESTED_COMMENT, line, col, NULL, "line %u, column %u", lx->line,
                 lex_col(lx));
      warned = 1;
    }
    lex_advance(lx);
  }
  if (lx->doc)
    egg_emit(lx->doc, RULE_EGG_UNCLOSED_COMMENT, line, col, NULL, "%s",
             lx->pos < lx->size ? "a NUL byte" : "end of file");
  lx->pos = lx->size;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EGG_SWAR 1
/* The eight bytes at p as one little-endian word (the first byte lowest). */
static inline uint64_t load8(const unsigned char *p)
{
  uint64_t x;
  memcpy(&x, p, sizeof x);
  return x;
}

/* How many of the eight bytes of x (the first byte lowest) are digits before the first other
 * byte (8: all of them). A byte is a digit when its high nibble is 3 and adding 6 keeps it 3;
 * a carry out of a byte >= 0xFA only reaches the bytes after it, past the first other byte. */
static inline unsigned digits8(uint64_t x)
{
  const uint64_t hi = 0xF0F0F0F0F0F0F0F0ull, three = 0x3030303030303030ull;
  uint64_t y = ((x & hi) ^ three) | (((x + 0x0606060606060606ull) & hi) ^ three);
  return y ? (unsigned)__builtin_ctzll(y) >> 3 : 8;
}

/* The value of the first k (1..8) bytes of x, all digits, the first the most significant. */
static inline uint64_t value8(uint64_t x, unsigned k)
{
  const uint64_t mask = 0x000000FF000000FFull, mul1 = 0x000F424000000064ull, mul2 = 0x0000271000000001ull;
  x = (x & 0x0F0F0F0F0F0F0F0Full) << (8 * (8 - k)); /* leading zeros in the bytes shifted in */
  x = x * 10 + (x >> 8);
  return (((x & mask) * mul1) + (((x >> 16) & mask) * mul2)) >> 32;
}
#endif

/* lex_decimal's usual case, a word at a time: at most 8 digits, then at most 8 decimals, with
 * 17 bytes readable from i (after the sign). 1 read (as lex_decimal would read it), 0 not a
 * decimal (as lex_decimal would answer), -1 another case: lex_decimal decides byte by byte. */
static LEX_INLINE int lex_decimal_words(const unsigned char *d, size_t i, size_t *end, int neg, double *out,
                                     int lazy)
{
#ifdef EGG_SWAR
  static const double pow10[9] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  static const uint64_t ipow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  /* the 16 bytes from i in two words loaded at once: the byte after the digits, the decimals
   * and the byte after them are shifted out of them, not loaded one after the other */
  uint64_t x1 = load8(d + i), xb = load8(d + i + 8), x2 = 0, m = 0;
  unsigned n1 = digits8(x1), n2 = 0, after;
  size_t e;
  double v;
  if (n1 == 8)
    return -1;
  e = i + n1;
  after = (unsigned)(x1 >> (8 * n1)) & 0xFF;
  if (after == '.') {
    /* bytes n1+1 .. n1+8 of the sixteen (n1 + 1 <= 8) */
    x2 = n1 == 7 ? xb : (x1 >> (8 * (n1 + 1))) | (xb << (64 - 8 * (n1 + 1)));
    n2 = digits8(x2);
    if (n2 == 8)
      return -1;
    e += 1 + n2;
    after = (unsigned)(x2 >> (8 * n2)) & 0xFF; /* n2 < 8: the byte is in x2 */
  }
  if (!stops[after] || !(n1 + n2))
    return 0;
  *end = e;
  if (lazy) {
    *out = 0;
    return 1;
  }
  if (n1)
    m = value8(x1, n1);
  if (n2)
    m = m * ipow10[n2] + value8(x2, n2);
  v = (double)m; /* below 10^16: the division is the one lex_decimal does */
  if (n2)
    v /= pow10[n2];
  *out = neg ? -v : v;
  return 1;
#else
  (void)d, (void)i, (void)end, (void)neg, (void)out, (void)lazy;
  return -1;
#endif
}

/* A bare run that is a short plain decimal ([+-]digits[.digits], see fast_decimal), read in
 * the same pass that finds its end: the bulk of an egg file. 0 when the run is anything else
 * (the caller then lexes it the general way, from the same start). words: the usual case a
 * word at a time (lex_decimal_words) where the input leaves room; egg_lex_decimal_test
 * compares both ways. */
static LEX_INLINE int lex_decimal_how(const unsigned char *d, size_t size, size_t *pos, double *out, int lazy,
                                  int words)
{
  static const double pow10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
    1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  size_t i = *pos;
  uint64_t m = 0;
  unsigned digits = 0, frac = 0;
  int neg = 0;
  double v;
  if (d[i] == '-' || d[i] == '+') {
    neg = d[i] == '-';
    i++;
  }
  if (words && i + 17 <= size) {
    int r = lex_decimal_words(d, i, pos, neg, out, lazy);
    if (r >= 0)
      return r;
  }
  if (lazy) {
    /* the value is not kept: only the spelling matters, and any digit count is a number */
    size_t i0 = i;
    while (i < size && is_digit(d[i]))
      i++;
    digits = i != i0;
    if (i < size && d[i] == '.') {
      i0 = ++i;
      while (i < size && is_digit(d[i]))
        i++;
      digits |= i != i0;
    }
    if ((i < size && !stops[d[i]]) || !digits || i - *pos >= 512)
      return 0;
    *pos = i;
    *out = 0;
    return 1;
  }
  for (; i < size && is_digit(d[i]); i++, digits++)
    m = m * 10 + (uint64_t)(d[i] - '0');
  if (i < size && d[i] == '.')
    for (i++; i < size && is_digit(d[i]); i++, digits++, frac++)
      m = m * 10 + (uint64_t)(d[i] - '0');
  if ((i < size && !stops[d[i]]) || !digits || digits > 19 || frac > 22 || m > (1ull << 53))
    return 0;
  *pos = i;
  v = (double)m;
  if (frac)
    v /= pow10[frac];
  *out = neg ? -v : v;
  return 1;
}

static LEX_INLINE int lex_decimal(const unsigned char *d, size_t size, size_t *pos, double *out, int lazy)
{
  return lex_decimal_how(d, size, pos, out, lazy, 1);
}

int egg_lex_decimal_test(const unsigned char *d, size_t size, size_t *pos, double *out, int lazy, int words)
{
  if (words == 2) { /* the word path alone */
    size_t i = *pos;
    int neg = 0;
    if (i < size && (d[i] == '-' || d[i] == '+'))
      neg = d[i++] == '-';
    return i + 17 <= size ? lex_decimal_words(d, i, pos, neg, out, lazy) : -1;
  }
  return words ? lex_decimal_how(d, size, pos, out, lazy, 1) : lex_decimal_how(d, size, pos, out, lazy, 0);
}

/* The blanks and line ends before a token, from pos: the position of the next other byte (size
 * at the input's end), lines counted. egg_lex_next and egg_lex_decimals skip the same way. */
static inline size_t lex_blanks(struct egg_lexer *lx, size_t pos)
{
  const unsigned char *d = lx->data;
  const size_t size = lx->size;
  while (pos < size) {
    unsigned char c = d[pos];
    if (c == ' ' || c == '\t') {
      pos++;
    } else if (c == '\n' || c == '\r') {
      lx->pos = pos;
      lex_newline(lx);
      pos = lx->pos;
      /* indentation: its spaces a word at a time (those before the first other byte) */
#ifdef EGG_SWAR
      while (size - pos >= 8) {
        uint64_t x = load8(d + pos) ^ 0x2020202020202020ull;
        if (x) {
          pos += (unsigned)__builtin_ctzll(x) >> 3;
          break;
        }
        pos += 8;
      }
#else
      while (size - pos >= 8 && !memcmp(d + pos, "        ", 8))
        pos += 8;
#endif
    } else {
      break;
    }
  }
  return pos;
}

/* The end of a bare run from pos; *ctl set when a byte of it is a control byte (below 0x20 but
 * for the blanks and line ends, which end the run, or DEL): what lex_classify flags as
 * TOKF_CONTROL, found in the same pass rather than a second one over the run. */
static inline size_t bare_end(const unsigned char *d, size_t pos, size_t size, int *ctl)
{
  for (; pos < size; pos++) {
    unsigned char c = d[pos];
    if (c < 0x23 || c >= 0x7b) { /* every stop byte and every control byte is in these ranges */
      if (stops[c])
        break;
      if (c < 0x20 || c == 0x7f)
        *ctl = 1;
    }
  }
  return pos;
}

size_t egg_lex_bare_end(const unsigned char *d, size_t pos, size_t size)
{
  int ctl = 0;
  return bare_end(d, pos, size, &ctl);
}


void egg_lex_next(struct egg_lexer *lx, struct egg_token *t)
{
  const unsigned char *d = lx->data;
  const size_t size = lx->size;
  size_t pos = lx->pos;
  t->kw = 0;
  t->num = 0;
  t->ul = 0;
  t->flags = 0;
  for (;;) {
    unsigned char c;
    size_t start;
    pos = lex_blanks(lx, pos);
    if (pos >= size) {
      lx->pos = pos;
      t->type = T_EOF;
      t->s = NULL;
      t->len = 0;
      t->line = lx->line;
      t->col = 0; /* Panda3D reports end of file at column 0 */
      return;
    }
    c = d[pos];
    t->line = lx->line;
    t->col = (unsigned)(pos - lx->line_start + 1);
    start = pos;
    if ((c >= '0' && c <= '9') || c == '-' || c == '.' || c == '+') {
      if (lex_decimal(d, size, &pos, &t->num, lx->lazy)) {
        lx->pos = pos;
        t->type = T_NUMBER;
        t->s = (const char *)d + start;
        t->len = pos - start;
        return;
      }
    }
    if (c == '{' || c == '}') {
      t->type = c == '{' ? T_LBRACE : T_RBRACE;
      t->s = (const char *)d + pos;
      t->len = 1;
      lx->pos = pos + 1;
      return;
    }
    if (c == '"') {
      size_t s0;
      unsigned line0 = lx->line;
      lx->pos = pos + 1;
      s0 = lx->pos;
      while (lx->pos < size && d[lx->pos] != '"' && d[lx->pos] != 0)
        lex_advance(lx);
      t->type = T_QSTRING;
      t->s = (const char *)d + s0;
      t->len = lx->pos - s0;
      if (lx->line != line0)
        t->flags |= TOKF_MULTILINE;
      if (lx->pos >= size || d[lx->pos] == 0) {
        if (lx->doc)
          egg_emit(lx->doc, RULE_EGG_UNTERMINATED_QUOTE, t->line, t->col, NULL, "%s",
                   lx->pos < size ? "a NUL byte" : "end of file");
        lx->pos = size;
        t->type = T_EOF;
        t->line = lx->line;
        t->col = 0;
        return;
      }
      lx->pos++; /* closing quote */
      if (t->len > EGG_MAX_TOKEN && lx->doc)
        egg_emit(lx->doc, RULE_EGG_TOKEN_TOO_LONG, t->line, t->col, NULL, "%zu bytes", t->len);
      return;
    }
    /* a bare run; a comment only when it starts with two slashes or is exactly slash-star */
    if (c == '/' && pos + 1 < size && d[pos + 1] == '/') {
      while (pos < size && d[pos] != '\n' && d[pos] != '\r')
        pos++;
      continue;
    }
    {
      int ctl = c < 0x20 || c == 0x7f;
      pos = bare_end(d, pos + 1, size, &ctl);
      lx->pos = pos;
      t->s = (const char *)d + start;
      t->len = pos - start;
      if (t->len == 2 && t->s[0] == '/' && t->s[1] == '*') {
        lex_c_comment(lx, t->line, t->col);
        pos = lx->pos;
        continue;
      }
      if (t->len > EGG_MAX_TOKEN && lx->doc)
        egg_emit(lx->doc, RULE_EGG_TOKEN_TOO_LONG, t->line, t->col, NULL, "%zu bytes", t->len);
      lex_classify(lx, t, ctl);
    }
    return;
  }
}

size_t egg_lex_decimals(struct egg_lexer *lx, double *out, size_t max, int ints, struct egg_token *t)
{
  const unsigned char *d = lx->data;
  const size_t size = lx->size;
  size_t n = 0;
  while (n < max) {
    size_t pos = lx->pos, end;
    unsigned char c;
    double v;
    /* the whitespace egg_lex_next skips before a token (a comment ends the run) */
    pos = lex_blanks(lx, pos);
    if (pos >= size)
      goto done;
    c = d[pos];
    lx->pos = pos;
    end = pos;
    if (!((c >= '0' && c <= '9') || c == '-' || c == '.' || c == '+') ||
        !lex_decimal(d, size, &end, &v, lx->lazy) ||
        (ints && !(v <= 2147483647.0 && v == floor(v))))
      break; /* egg_lex_next lexes it from its start */
    lx->pos = end;
    out[n++] = v;
  }
done:
  if (t)
    egg_lex_next_inline(lx, t);
  return n;
}
