/* iqe_tok_test.c - the word-at-a-time tokenizer against a byte-at-a-time reference: the same
 * count and the same tokens (text, column, quoting) on random lines of spaces, tabs, the
 * other IQE whitespace, quotes, control bytes, bytes >= 0x80 and digits, at every cap (the
 * counting pass keeps one token and only counts the rest, also through iqe_count_tokens);
 * iqe_tokenize_some stops at its cap, and iqe_arg reads every token of a line longer than the
 * kept ones through its window, in order and out of order. */
#include <stdio.h>
#include <string.h>

#include "iqe.h"
#include "../../../tests/test_random.h"

static int failures;

static int ref_space(unsigned char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The tokenizer as first written, one byte at a time. */
static uint32_t ref_tokenize(const char *s, size_t len, struct iqe_tok *toks, uint32_t cap)
{
  size_t i = 0, j;
  uint32_t n = 0;
  for (;;) {
    while (i < len && ref_space((unsigned char)s[i]))
      i++;
    if (i >= len)
      break;
    if (s[i] == '"') {
      for (j = i + 1; j < len && s[j] != '"'; j++)
        ;
      if (n < cap) {
        toks[n].s = s + i + 1;
        toks[n].len = (uint32_t)(j - i - 1);
        toks[n].col = (uint32_t)(i + 1);
        toks[n].quoted = 1;
        toks[n].unterminated = j >= len;
      }
      i = j < len ? j + 1 : j;
    } else {
      for (j = i; j < len && !ref_space((unsigned char)s[j]); j++)
        ;
      if (n < cap) {
        toks[n].s = s + i;
        toks[n].len = (uint32_t)(j - i);
        toks[n].col = (uint32_t)(i + 1);
        toks[n].quoted = 0;
        toks[n].unterminated = 0;
      }
      i = j;
    }
    n++;
  }
  return n;
}

static void check_line(const char *s, size_t len, uint32_t cap)
{
  struct iqe_tok got[320], want[320];
  struct iqe_line ln = {s, len, 1, len, 0};
  uint32_t ng, nw;
  memset(got, 0, sizeof got);
  memset(want, 0, sizeof want);
  ng = iqe_tokenize(&ln, got, cap);
  nw = ref_tokenize(s, len, want, cap);
  if (cap == 1) { /* the counting pass's shortcut: the same count and first token */
    struct iqe_tok first;
    uint32_t nc;
    memset(&first, 0, sizeof first);
    nc = iqe_count_tokens(&ln, &first);
    if (nc != nw || (nw && (first.s != want[0].s || first.len != want[0].len || first.col != want[0].col ||
                            first.quoted != want[0].quoted || first.unterminated != want[0].unterminated))) {
      if (failures < 10)
        printf("FAIL: '%.*s': iqe_count_tokens %u tokens, expected %u (or its first token differs)\n",
               (int)len, s, nc, nw);
      failures++;
      return;
    }
  }
  if (ng != nw) {
    if (failures < 10)
      printf("FAIL: '%.*s' (cap %u): %u tokens, expected %u\n", (int)len, s, cap, ng, nw);
    failures++;
    return;
  }
  for (uint32_t k = 0; k < nw && k < cap; k++)
    if (got[k].s != want[k].s || got[k].len != want[k].len || got[k].col != want[k].col ||
        got[k].quoted != want[k].quoted || got[k].unterminated != want[k].unterminated) {
      if (failures < 10)
        printf("FAIL: '%.*s' (cap %u): token %u differs\n", (int)len, s, cap, k);
      failures++;
      return;
    }
}

static int same_tok(const struct iqe_tok *a, const struct iqe_tok *b)
{
  return a->s == b->s && a->len == b->len && a->col == b->col && a->quoted == b->quoted &&
         a->unterminated == b->unterminated;
}

static unsigned next(unsigned n);

/* iqe_tokenize_some and the window past p->toks (iqe_arg) against the reference. */
static void check_window(const char *s, size_t len)
{
  static struct iqe_tok want[2000];
  static struct iqe_parser p;
  struct iqe_line ln = {s, len, 1, len, 0};
  uint32_t nw = ref_tokenize(s, len, want, 2000), cap = next(70), ns;
  struct iqe_tok some[70];
  ns = iqe_tokenize_some(&ln, some, cap);
  if (ns != (nw < cap ? nw : cap)) {
    if (failures < 10)
      printf("FAIL: iqe_tokenize_some (cap %u): %u tokens of %u\n", cap, ns, nw);
    failures++;
  }
  for (uint32_t k = 0; k < ns && k < nw; k++)
    if (!same_tok(&some[k], &want[k])) {
      if (failures < 10)
        printf("FAIL: iqe_tokenize_some (cap %u): token %u differs\n", cap, k);
      failures++;
      break;
    }
  if (nw < 2 || nw > 2000)
    return;
  memset(&p, 0, sizeof p);
  p.line = &ln;
  p.line_toks = iqe_tokenize(&ln, p.toks, IQE_TOKS);
  for (int pass = 0; pass < 3; pass++)
    for (uint32_t k = 0; k + 1 < nw; k++) {
      /* in order, in order with a step back now and then, and at random */
      uint32_t i = pass == 0 ? k : pass == 1 ? (k && next(5) == 0 ? k - 1 : k) : next(nw - 1);
      const struct iqe_tok *t = iqe_arg(&p, p.toks + 1, i);
      if (!same_tok(t, &want[i + 1])) {
        if (failures < 10)
          printf("FAIL: iqe_arg(%u) of %u tokens (pass %d) differs\n", i, nw, pass);
        failures++;
        return;
      }
    }
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned next(unsigned n)
{
  return (unsigned)(random_xorshift(&rng) % n);
}

int main(void)
{
  static const char alphabet[] = {' ', ' ', ' ', '\t', '\v', '\f', '\r', '"', 'a', '1', '.',
                                  '-', 'e', '\x01', '\x1f', '\x21', '\x7f', '\x80', '\xa0',
                                  '\xff', '0', '9'};
  static const char *const fixed[] = {
    "", " ", "vp 1 2 3", "  vp\t1.5   -2 3e4  ", "joint \"a b\" -1", "mesh \"x\"y z",
    "mesh \"unterminated", "\"\"", "a\"b\" c", "fm 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
    "vb 1 0.5 2 0.25 3 0.125 4 0.125", "x\x01y z", "\xff\xfe \x80", "a\vb\fc\rd\te f"
  };
  char buf[300];
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    for (uint32_t cap = 0; cap <= 20; cap++)
      check_line(fixed[i], strlen(fixed[i]), cap);
  for (int i = 0; i < 300000; i++) {
    size_t len = next(sizeof buf);
    int quotes = next(4) == 0; /* most lines of a file have no quote */
    for (size_t k = 0; k < len; k++) {
      char c = alphabet[next(sizeof alphabet)];
      buf[k] = c == '"' && !quotes ? '5' : c;
    }
    check_line(buf, len, next(3) == 0 ? 320 : next(4));
  }
  {
    static char big[6000];
    for (int i = 0; i < 3000; i++) {
      size_t len = next(sizeof big);
      int quotes = next(3) == 0;
      for (size_t k = 0; k < len; k++) {
        char c = alphabet[next(sizeof alphabet)];
        big[k] = c == '"' && !quotes ? '5' : c;
      }
      check_window(big, len);
    }
  }
  if (failures)
    printf("%d failures\n", failures);
  else
    printf("iqe tokenizer: all lines as the byte-at-a-time reference\n");
  return failures != 0;
}
