/* iqe_lex.c - lines, tokens and numbers of IQE text, with 1-based columns.
 *
 * Numbers: this file checks the IQE spelling, the core's number_parse_double converts (exact,
 * bit-identical to strtod, fast for up to 19 significant digits). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iqe.h"
#include "number.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Line ends: LF, CR LF, and a lone CR (IQE-HDR-003 warns about the last). */
#define LINE_WINDOW 4096

/* The first LF or CR in data[from..size), or NULL: one pass looking for both (16 bytes at a
 * time where SSE2 is there; two memchr calls per line cost more than the line on short lines),
 * else in windows so that a file with one kind of line end never scans ahead for the other kind
 * past the next line. */
static const unsigned char *line_end_find(const unsigned char *data, size_t from, size_t size)
{
#ifdef __SSE2__
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  while (from + 16 <= size) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(data + from));
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
    if (m)
      return data + from + __builtin_ctz(m);
    from += 16;
  }
  for (; from < size; from++)
    if (data[from] == '\n' || data[from] == '\r')
      return data + from;
  return NULL;
#else
  for (;;) {
    size_t stop = size - from > LINE_WINDOW ? from + LINE_WINDOW : size;
    const unsigned char *nl = memchr(data + from, '\n', stop - from);
    const unsigned char *cr = memchr(data + from, '\r', (nl ? (size_t)(nl - data) : stop) - from);
    if (cr || nl)
      return cr ? cr : nl;
    if (stop == size)
      return NULL;
    from = stop;
  }
#endif
}

int iqe_line_next(const unsigned char *data, size_t size, size_t *pos, uint32_t *lineno,
                  struct iqe_line *ln)
{
  size_t start = *pos, end;
  const unsigned char *e;
  if (start >= size)
    return 0;
  e = line_end_find(data, start, size);
  ln->s = (const char *)data + start;
  ln->lone_cr = 0;
  if (e && *e == '\r') { /* the first line end is a CR: with an LF after it one line end, else alone */
    end = (size_t)(e - data);
    ln->lone_cr = !(end + 1 < size && data[end + 1] == '\n');
    ln->next = end + (ln->lone_cr ? 1 : 2);
  } else if (e) {
    end = (size_t)(e - data);
    ln->next = end + 1;
  } else {
    end = size;
    ln->next = size;
  }
  ln->len = end - start;
  ln->no = ++*lineno;
  *pos = ln->next;
  return 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IQE_SWAR 1
static const uint64_t ones8 = 0x0101010101010101u, highs8 = 0x8080808080808080u;
#endif

/* IQE whitespace: space, \t, \r, \v, \f (all <= ' ', so one compare clears most bytes). */
static int is_space(unsigned char c)
{
  return c <= ' ' && (c == ' ' || (c >= '\t' && c <= '\r' && c != '\n'));
}

/* Index of the first whitespace byte in s[i..len), or len. A token is mostly a number of 10-20
 * bytes: eight bytes at a time, looking for any byte <= ' ' (a word-wide compare), then the
 * byte found decides. */
static size_t token_end(const char *s, size_t i, size_t len)
{
#ifdef IQE_SWAR
  while (i + 8 <= len) {
    uint64_t x, hit;
    memcpy(&x, s + i, 8);
    /* high bit set in the lowest byte below 0x21 (bytes above it may be false hits) */
    hit = (x - ones8 * 0x21) & ~x & highs8;
    if (!hit) {
      i += 8;
      continue;
    }
    i += (size_t)__builtin_ctzll(hit) >> 3;
    if (is_space((unsigned char)s[i]))
      return i;
    i++; /* a control byte that is no IQE whitespace: part of the token */
  }
#endif
  while (i < len && !is_space((unsigned char)s[i]))
    i++;
  return i;
}

/* Tokens go straight into toks[] (no per-token copy: this runs for every byte of the file);
 * with stop, none are counted past cap. */
static inline uint32_t tokenize(const struct iqe_line *ln, struct iqe_tok *toks, uint32_t cap,
                                int stop)
{
  const char *s = ln->s;
  size_t len = ln->len, i = 0, j;
  uint32_t n = 0;
  for (;;) {
    while (i < len && is_space((unsigned char)s[i]))
      i++;
    if (i >= len || (stop && n >= cap))
      break;
    if (s[i] == '"') {
      const char *q = memchr(s + i + 1, '"', len - i - 1);
      j = q ? (size_t)(q - s) : len;
      if (n < cap) {
        struct iqe_tok *t = &toks[n];
        t->s = s + i + 1;
        t->len = (uint32_t)(j - i - 1);
        t->col = (uint32_t)(i + 1);
        t->quoted = 1;
        t->unterminated = j >= len;
      }
      i = j < len ? j + 1 : j;
    } else {
      j = token_end(s, i + 1, len);
      if (n < cap) {
        struct iqe_tok *t = &toks[n];
        t->s = s + i;
        t->len = (uint32_t)(j - i);
        t->col = (uint32_t)(i + 1);
        t->quoted = 0;
        t->unterminated = 0;
      }
      i = j;
    }
    n++;
  }
  return n;
}

uint32_t iqe_tokenize(const struct iqe_line *ln, struct iqe_tok *toks, uint32_t cap)
{
  return tokenize(ln, toks, cap, 0);
}

uint32_t iqe_tokenize_some(const struct iqe_line *ln, struct iqe_tok *toks, uint32_t cap)
{
  return tokenize(ln, toks, cap, 1);
}

/* Whitespace inside a line (a CR ends one). */
static int is_blank(unsigned char c)
{
  return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

int iqe_lex_reals(const char *s, size_t avail, size_t *len, struct iqe_tok *toks, uint32_t cap,
                  uint32_t max, double *vals)
{
  size_t i = 2;
  uint32_t n = 0;
  if (avail < 3 || !is_blank((unsigned char)s[2]))
    return -1;
  for (;;) {
    size_t j, used;
    struct iqe_tok *t;
    while (i < avail && is_blank((unsigned char)s[i]))
      i++;
    if (i >= avail || s[i] == '\n')
      break;
    if (n >= max || n + 2 > cap)
      return -1; /* surplus values, or a CR: the general path */
    /* iqe_parse_real's spelling checks, then the longest number from here (digits never run
     * past a line end), which must end where the token does */
    j = i + (s[i] == '+' || s[i] == '-');
    if (j >= avail || !((s[j] >= '0' && s[j] <= '9') || s[j] == '.') ||
        (s[j] == '0' && j + 1 < avail && (s[j + 1] | 0x20) == 'x'))
      return -1;
    used = number_parse_double(s + i, avail - i, &vals[n]);
    if (!used || (i + used < avail && !is_blank((unsigned char)s[i + used]) && s[i + used] != '\n'))
      return -1;
    t = &toks[++n];
    t->s = s + i;
    t->len = (uint32_t)used;
    t->col = (uint32_t)(i + 1);
    t->quoted = 0;
    t->unterminated = 0;
    i += used;
  }
  if (i > 511)
    return -1; /* too long a line: the general path reports it */
  for (uint32_t k = 0; k < n; k++)
    if (!isfinite(vals[k]))
      return -1; /* checked once the line is read: no number waits for the one before */
  *len = i;
  toks[0].s = s;
  toks[0].len = 2;
  toks[0].col = 1;
  toks[0].quoted = 0;
  toks[0].unterminated = 0;
  return (int)n;
}

#ifdef __SSE2__
/* Bits set in a 16-bit mask, inline: without -mpopcnt __builtin_popcount is a libgcc call. */
static uint32_t pop16(unsigned x)
{
  x = x - ((x >> 1) & 0x5555u);
  x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
  x = (x + (x >> 4)) & 0x0F0Fu;
  return (x + (x >> 8)) & 0x1Fu;
}
#endif

uint32_t iqe_count_tokens(const struct iqe_line *ln, struct iqe_tok *first)
{
#ifdef __SSE2__
  const char *s = ln->s;
  size_t len = ln->len, i = 0;
  uint32_t n = 1;
  unsigned prev_space = 0; /* the byte before the chunk was whitespace */
  const __m128i sp = _mm_set1_epi8(' '), q = _mm_set1_epi8('"');
  const __m128i lo = _mm_set1_epi8('\t' - 1), hi = _mm_set1_epi8('\r' + 1), lf = _mm_set1_epi8('\n');
  while (i < len && is_space((unsigned char)s[i]))
    i++;
  if (i >= len || s[i] == '"')
    return iqe_tokenize(ln, first, 1);
  {
    size_t j = token_end(s, i + 1, len);
    first->s = s + i;
    first->len = (uint32_t)(j - i);
    first->col = (uint32_t)(i + 1);
    first->quoted = 0;
    first->unterminated = 0;
    i = j;
  }
  /* the rest: a token starts at each non-space byte after a space; a quote anywhere may change
   * that (a quoted token holds spaces), so such lines take the tokenizer */
  for (; i + 16 <= len; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
    /* IQE whitespace: ' ', or \t..\r without \n (signed compares: bytes >= 0x80 are negative,
     * never inside the range) */
    __m128i ws = _mm_or_si128(_mm_cmpeq_epi8(v, sp),
                              _mm_andnot_si128(_mm_cmpeq_epi8(v, lf),
                                               _mm_and_si128(_mm_cmpgt_epi8(v, lo), _mm_cmplt_epi8(v, hi))));
    unsigned m = (unsigned)_mm_movemask_epi8(ws);
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, q)))
      return iqe_tokenize(ln, first, 1);
    n += pop16(~m & ((m << 1) | prev_space) & 0xFFFFu);
    prev_space = m >> 15;
  }
  for (; i < len; i++) {
    unsigned w = is_space((unsigned char)s[i]);
    if (s[i] == '"')
      return iqe_tokenize(ln, first, 1);
    n += !w && prev_space;
    prev_space = w;
  }
  return n;
#else
  return iqe_tokenize(ln, first, 1);
#endif
}

#ifdef __SSE2__
/* A byte of an unquoted token. */
static int is_word(unsigned char c)
{
  return !is_space(c) && c != '\n' && c != '"';
}
#endif

#ifdef __SSE2__
/* Bits set in a 32-bit mask (see pop16). */
static uint32_t pop32(uint32_t x)
{
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  return (x * 0x01010101u) >> 24;
}

/* The blanks, line ends (LF, CR) and quotes among p[0..16), as bit masks. A blank is ' ' or
 * \t..\r (signed compares: bytes >= 0x80 are negative, never in the range): \n and \r
 * count too, harmlessly, as a line end cuts the mask there. */
static inline void classify16(const char *p, uint32_t *ws, uint32_t *stop, uint32_t *quote)
{
  __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
  __m128i range = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('\t' - 1)),
                                _mm_cmplt_epi8(v, _mm_set1_epi8('\r' + 1)));
  *ws = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), range));
  *stop = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
  *quote = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
}
#endif

int iqe_count_line(const char *s, size_t avail, size_t *len)
{
#ifdef __SSE2__
  size_t i = 2;
  uint32_t n = 1, prev_space = 0; /* s[1], the command's last byte, is no blank */
  if (avail < 3 || !is_blank((unsigned char)s[2]) || !is_word((unsigned char)s[0]) ||
      !is_word((unsigned char)s[1]))
    return -1;
  /* 32 bytes a step: a token starts at each non-blank byte after a blank */
  while (i + 16 <= avail) {
    uint32_t m, stop, quote, m1, stop1, quote1;
    int wide = i + 32 <= avail;
    classify16(s + i, &m, &stop, &quote);
    if (wide && !stop) {
      classify16(s + i + 16, &m1, &stop1, &quote1);
      m |= m1 << 16;
      stop |= stop1 << 16;
      quote |= quote1 << 16;
    } else {
      m |= 0xFFFF0000u; /* past a line end, or past the input: blanks, no token */
      wide = 0;
    }
    if (stop) {
      unsigned k = (unsigned)__builtin_ctz(stop);
      uint32_t keep = (1u << k) - 1;
      if (s[i + k] == '\r' || (quote & keep))
        return -1; /* CR LF or a lone CR (the line cursor decides), or a quote */
      *len = i + k;
      return (int)(n + pop32(~m & ((m << 1) | prev_space) & keep));
    }
    if (quote)
      return -1; /* a quoted token holds blanks: the tokenizer counts it */
    n += pop32(~m & ((m << 1) | prev_space));
    prev_space = (m >> (wide ? 31 : 15)) & 1;
    i += wide ? 32 : 16;
  }
#else
  (void)s;
  (void)avail;
  (void)len;
#endif
  return -1; /* the input's last bytes: the line cursor reads them */
}

static int ieq(const char *s, size_t len, const char *word)
{
  size_t k = strlen(word);
  if (len != k)
    return 0;
  for (size_t i = 0; i < k; i++) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z')
      c = (char)(c - 'A' + 'a');
    if (c != word[i])
      return 0;
  }
  return 1;
}

enum iqe_num_status iqe_parse_real(const char *s, size_t len, double *out)
{
  size_t i = 0;
  int neg = 0;

  *out = 0;
  if (len && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    i = 1;
  }
  if (i < len && ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')) {
    if (ieq(s + i, len - i, "nan")) {
      *out = NAN;
      return IQE_NUM_NONFINITE;
    }
    if (ieq(s + i, len - i, "inf") || ieq(s + i, len - i, "infinity")) {
      *out = neg ? -INFINITY : INFINITY;
      return IQE_NUM_NONFINITE;
    }
    return IQE_NUM_BAD;
  }
  /* the IQE grammar is strtod's decimal one: [+-]digits[.digits][e[+-]digits], no hex */
  if (i >= len || !((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
    return IQE_NUM_BAD;
  if (s[i] == '0' && i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'X'))
    return IQE_NUM_BAD;
  if (number_parse_double(s, len, out) != len) {
    *out = 0;
    return IQE_NUM_BAD;
  }
  return isfinite(*out) ? IQE_NUM_OK : IQE_NUM_NONFINITE;
}

enum iqe_num_status iqe_parse_int(const char *s, size_t len, long *out)
{
  size_t i = 0;
  int neg = 0;
  long long v = 0;
  *out = 0;
  if (len && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    i = 1;
  }
  if (i == len)
    return IQE_NUM_BAD;
  for (; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return IQE_NUM_BAD;
    if (v <= (long long)INT32_MAX + 1)
      v = v * 10 + (s[i] - '0');
  }
  if (neg)
    v = -v;
  if (v > INT32_MAX || v < INT32_MIN)
    return IQE_NUM_BAD;
  *out = (long)v;
  return IQE_NUM_OK;
}
