/* egg_lex_test.c - the egg lexer's word-at-a-time decimal reader (lex_decimal_words) against
 * the byte-by-byte reader it stands in for, and both against strtod: on millions of random and
 * edge-case runs (signs, long digit runs, dots, exponents, hex-looking and stray bytes, every
 * stop byte after them, the end of the input at every distance), both must answer alike (read
 * or not, where the run ends, the value bit for bit, lazy or not), every value read must be
 * strtod's bit for bit, and the word path must take the plain decimals it is meant for. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "../../../tests/test_random.h"

static int failures;
static unsigned long compared, read_ok, word_sized;

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned next(unsigned n)
{
  return (unsigned)(random_xorshift(&rng) % n);
}

static void fail(const unsigned char *d, size_t at, size_t size, const char *what)
{
  if (failures < 10) {
    size_t n = size - at < 40 ? size - at : 40;
    printf("FAIL: '");
    for (size_t i = 0; i < n; i++)
      printf(d[at + i] >= 0x20 && d[at + i] < 0x7f ? "%c" : "\\x%02x", d[at + i]);
    printf("' (%zu bytes left): %s\n", size - at, what);
  }
  failures++;
}

static int same_bits(double a, double b) { return !memcmp(&a, &b, sizeof a); }

/* The run at d[at..size) through both readers, lazy and not (the lexer calls them on a byte). */
static void check(const unsigned char *d, size_t at, size_t size)
{
  if (at >= size)
    return;
  for (int lazy = 0; lazy <= 1; lazy++) {
    size_t pw = at, pb = at;
    double vw = 1.5, vb = 1.5;
    int rw = egg_lex_decimal_test(d, size, &pw, &vw, lazy, 1);
    int rb = egg_lex_decimal_test(d, size, &pb, &vb, lazy, 0);
    compared++;
    if (rw != rb) {
      fail(d, at, size, rw ? "the word path read what the byte path does not" : "the word path declined a decimal");
      continue;
    }
    if (pw != pb) {
      fail(d, at, size, "the two paths end the run at different bytes");
      continue;
    }
    {
      /* the word path's own answer: it may decline (-1), else it must be the byte path's, and
       * it must not decline a run of at most 8 digits, a dot and at most 8 decimals with room */
      size_t p2 = at, i = at, n1 = 0, n2 = 0;
      double v2 = 2.5;
      int r2 = egg_lex_decimal_test(d, size, &p2, &v2, lazy, 2);
      if (r2 >= 0 && (r2 != rb || (rb && (p2 != pb || !same_bits(v2, vb)))))
        fail(d, at, size, "the word path alone answers otherwise");
      if (i < size && (d[i] == '-' || d[i] == '+'))
        i++;
      while (i + n1 < size && d[i + n1] >= '0' && d[i + n1] <= '9')
        n1++;
      if (i + n1 < size && d[i + n1] == '.')
        while (i + n1 + 1 + n2 < size && d[i + n1 + 1 + n2] >= '0' && d[i + n1 + 1 + n2] <= '9')
          n2++;
      if (i + 17 <= size && n1 < 8 && n2 < 8) {
        word_sized++;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (r2 < 0)
          fail(d, at, size, "the word path declined a run it is meant for");
#endif
      }
    }
    if (!rw)
      continue;
    if (!same_bits(vw, vb)) {
      fail(d, at, size, "the two paths give different values");
      continue;
    }
    if (!lazy) {
      char buf[600];
      double want;
      if (pw - at >= sizeof buf) {
        fail(d, at, size, "a run longer than a plain decimal can be");
        continue;
      }
      memcpy(buf, d + at, pw - at);
      buf[pw - at] = 0;
      want = strtod(buf, NULL);
      read_ok++;
      if (!same_bits(vw, want))
        fail(d, at, size, "the value is not strtod's");
    }
  }
}

static const char stops[] = " \t\n\r\"{}";

/* A random run: mostly the shapes an egg file holds, sometimes anything. */
static size_t make_run(char *s)
{
  size_t n = 0;
  unsigned shape = next(10);
  if (shape == 0) { /* random bytes of the decimal alphabet and a few others */
    static const char alpha[] = "0123456789.+-eExXabf#:/\xfa\xff\x7f";
    unsigned len = 1 + next(30);
    for (unsigned i = 0; i < len; i++)
      s[n++] = alpha[next(sizeof alpha - 1)];
    return n;
  }
  if (next(3) == 0)
    s[n++] = next(2) ? '-' : '+';
  {
    unsigned int_digits = next(4) == 0 ? next(22) : next(9);
    unsigned frac_digits = next(4) == 0 ? next(26) : next(10);
    int dot = next(5) != 0;
    for (unsigned i = 0; i < int_digits; i++)
      s[n++] = (char)('0' + (next(3) == 0 ? 9 * next(2) : next(10)));
    if (dot) {
      s[n++] = '.';
      for (unsigned i = 0; i < frac_digits; i++)
        s[n++] = (char)('0' + (next(3) == 0 ? 9 * next(2) : next(10)));
    }
  }
  switch (next(12)) {
  case 0: s[n++] = 'e'; s[n++] = (char)('0' + next(10)); break;
  case 1: s[n++] = "xX.-+/"[next(6)]; break;
  case 2: s[n++] = (char)(0x80 + next(128)); break;
  default: break;
  }
  return n;
}

/* The lexer's keyword cache (struct egg_kw_cache) against no cache: a stream of keyword
 * spellings, their case changed at random, some altered into unknown or glued runs, some near
 * the end of the input (where the cache is not used), lexed both ways token by token; every
 * keyword found must also be egg_kw_lookup's answer for its bytes. */
static void check_kw_cache(unsigned long rounds)
{
  static unsigned char text[4096];
  static struct egg_kw_cache cache[EGG_KW_CACHE_MAX + 1];
  unsigned long tokens = 0, keywords = 0;
  for (unsigned long r = 0; r < rounds; r++) {
    size_t size = 0;
    struct egg_lexer a, b;
    struct egg_token ta, tb;
    while (size < sizeof text - 64) {
      const char *sp = egg_kw_spelling(1 + (int)next(KW_COUNT - 1));
      size_t len = strlen(sp), at = size;
      memcpy(text + size, sp, len);
      size += len;
      for (size_t i = at + 1; i + 1 < size; i++)
        if (next(8) == 0 && ((text[i] | 0x20) >= 'a' && (text[i] | 0x20) <= 'z'))
          text[i] ^= 0x20;
      switch (next(16)) {
      case 0: text[at + 1 + next((unsigned)len - 1)] = (unsigned char)"xQ<>$_1\x01"[next(8)]; break;
      case 1: text[size++] = 'g'; break;
      case 2: size--; break;
      default: break;
      }
      text[size++] = (unsigned char)" \n{}\t"[next(5)];
      if (next(256) == 0)
        break; /* a short input: keywords near its end */
    }
    memset(cache, 0, sizeof cache);
    egg_lex_init(&a, text, size, NULL);
    egg_lex_init(&b, text, size, NULL);
    a.kw_cache = cache;
    for (;;) {
      egg_lex_next(&a, &ta);
      egg_lex_next(&b, &tb);
      tokens++;
      if (ta.type != tb.type || ta.kw != tb.kw || ta.flags != tb.flags || ta.len != tb.len ||
          ta.s != tb.s || a.pos != b.pos) {
        if (failures < 10)
          printf("FAIL: '%.*s': the keyword cache gives another token (kw %d, not %d)\n",
                 (int)tb.len, tb.s ? tb.s : "", ta.kw, tb.kw);
        failures++;
        break;
      }
      if (ta.type == T_KEYWORD) {
        keywords++;
        if (ta.kw != egg_kw_lookup(ta.s, ta.len)) {
          if (failures < 10)
            printf("FAIL: '%.*s': not egg_kw_lookup's keyword\n", (int)ta.len, ta.s);
          failures++;
        }
      }
      if (ta.type == T_EOF)
        break;
    }
  }
  printf("%lu tokens lexed with and without the keyword cache, %lu keywords\n", tokens, keywords);
  if (keywords < tokens / 4) {
    printf("FAIL: too few keywords for the test to mean anything\n");
    failures++;
  }
}

/* Where each token starts, its line and column, against a count made here byte by byte: runs
 * of blanks and line ends of every kind (\n, \r, \r\n, \n\r, long indentation, tabs) between
 * words, numbers and braces, so the lexer's skipping of blanks a word at a time is checked
 * against the plain rule (a newline counts once per \n, \r, \r\n or \n\r). */
static void check_blanks(unsigned long rounds)
{
  static unsigned char text[8192];
  static size_t starts[4096];
  static unsigned lines[4096], cols[4096];
  unsigned long tokens = 0;
  for (unsigned long r = 0; r < rounds; r++) {
    size_t size = 0, n = 0, line_start = 0;
    unsigned line = 1;
    struct egg_lexer lx;
    struct egg_token t;
    while (size < sizeof text - 128 && n < 4096) {
      /* blanks */
      for (unsigned k = next(4); k; k--) {
        switch (next(8)) {
        case 0: text[size++] = '\t'; break;
        case 1: case 2: {
          static const char *nl[] = {"\n", "\r", "\r\n", "\n\r"};
          const char *e = nl[next(4)];
          if (size && (text[size - 1] == '\n' || text[size - 1] == '\r'))
            text[size++] = ' '; /* two line ends in a row may count once (\n\r): kept apart */
          memcpy(text + size, e, strlen(e));
          size += strlen(e);
          line++;
          line_start = size;
          for (unsigned i = next(3) ? next(20) : 0; i; i--)
            text[size++] = next(16) ? ' ' : '\t';
          break;
        }
        default:
          for (unsigned i = 1 + next(next(4) ? 2 : 12); i; i--)
            text[size++] = ' ';
        }
      }
      if (size && !strchr(" \t\r\n{}", text[size - 1]))
        text[size++] = ' ';
      starts[n] = size;
      lines[n] = line;
      cols[n] = (unsigned)(size - line_start + 1);
      n++;
      switch (next(4)) {
      case 0: text[size++] = next(2) ? '{' : '}'; break;
      case 1: memcpy(text + size, "<Vertex>", 8); size += 8; break;
      case 2: memcpy(text + size, "-0.25", 5); size += 5; break;
      default: for (unsigned i = 1 + next(9); i; i--) text[size++] = (unsigned char)('a' + next(26));
      }
    }
    egg_lex_init(&lx, text, size, NULL);
    for (size_t i = 0;; i++) {
      egg_lex_next(&lx, &t);
      if (t.type == T_EOF) {
        if (i != n) {
          printf("FAIL: %zu tokens lexed, %zu written\n", i, n);
          failures++;
        }
        break;
      }
      tokens++;
      if (i >= n || (const unsigned char *)t.s != text + starts[i] || t.line != lines[i] || t.col != cols[i]) {
        if (failures < 10)
          printf("FAIL: token %zu at line %u column %u, offset %zu; written at line %u column %u, offset %zu\n",
                 i, t.line, t.col, (size_t)((const unsigned char *)t.s - text), i < n ? lines[i] : 0,
                 i < n ? cols[i] : 0, i < n ? starts[i] : 0);
        failures++;
        break;
      }
    }
  }
  printf("%lu tokens located after blanks and line ends\n", tokens);
}

int main(int argc, char **argv)
{
  static unsigned char buf[256];
  unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000000ul;
  /* edge cases: digit counts at the word boundary, extremes of value */
  static const char *edges[] = {
    "0", "-0", "+0", "0.", ".0", ".", "-", "+", "-.", "1.", "-1.", ".5", "-.5",
    "12345678", "123456789", "12345678.12345678", "12345678.123456789", "99999999.99999999",
    "0.00000001", "-0.00000001", "00000000.00000000", "0000000.0000000", "9007199254740993",
    "9007199254740992.5", "1234567890123456789", "12345678901234567890", "0.1", "0.2", "0.3",
    "2.2250738585072014", "1.7976931348623157", "4.9406564584124654", "-0.085908", "0.249974",
    "1e5", "0x10", "0b1", "1.#inf", "-inf", "nan0x7ff8", "1.2.3", "--1", "+-1", "1-", "1+",
  };
  for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
    size_t len = strlen(edges[e]);
    for (size_t tail = 0; tail <= 24; tail++) {
      for (size_t k = 0; k < sizeof stops; k++) {
        size_t size = len + tail;
        memcpy(buf, edges[e], len);
        for (size_t i = len; i < size; i++)
          buf[i] = (unsigned char)(i == len ? (k < sizeof stops - 1 ? stops[k] : 'q') : '7');
        check(buf, 0, size);
      }
    }
  }
  for (unsigned long r = 0; r < rounds; r++) {
    char run[128];
    size_t n = make_run(run), at = next(4), size;
    unsigned end = next(10);
    for (size_t i = 0; i < at; i++)
      buf[i] = ' ';
    memcpy(buf + at, run, n);
    size = at + n;
    if (end < 8) { /* a stop byte, then more of a file (or not) */
      buf[size++] = end < 7 ? (unsigned char)stops[end] : (unsigned char)next(256);
      for (unsigned i = next(3) ? next(40) : 0; i; i--)
        buf[size++] = (unsigned char)"0123456789 .-\n"[next(15)];
    }
    check(buf, at, size);
  }
  check_kw_cache(rounds / 2000 + 1);
  check_blanks(rounds / 2000 + 1);
  printf("%lu comparisons, %lu values read and compared with strtod, %lu runs for the word path\n",
         compared, read_ok, word_sized);
  if (read_ok < rounds / 4) {
    printf("FAIL: too few runs were plain decimals for the test to mean anything\n");
    failures++;
  }
  if (failures)
    printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
