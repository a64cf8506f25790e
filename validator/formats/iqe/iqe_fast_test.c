/* iqe_fast_test.c - the one-pass readers of the usual line (iqe_count_line for the counting
 * pass, iqe_lex_reals for the checking pass) against the general path they stand in for
 * (iqe_line_next, then iqe_count_tokens, or iqe_tokenize and iqe_parse_real): on random files of
 * numeric lines with every kind of blank, line end, spelling and stray byte, each one must
 * either decline the line or give exactly what the general path gives (line length, token
 * count, tokens, values bit for bit), and must take every plain line it is meant for. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iqe.h"
#include "../../../tests/test_random.h"

static int failures;
static unsigned long taken_count, taken_reals, plain_lines;

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static unsigned next(unsigned n)
{
  return (unsigned)(random_xorshift(&rng) % n);
}

static void fail(const struct iqe_line *ln, const char *what)
{
  if (failures < 10)
    printf("FAIL: line %u '%.*s': %s\n", ln->no, (int)(ln->len > 80 ? 80 : ln->len), ln->s, what);
  failures++;
}

/* The line at ln (from iqe_line_next over data[0..size)) through both readers. */
static void check_line(const unsigned char *data, size_t size, const struct iqe_line *ln)
{
  static struct iqe_tok want[600], got[600];
  const char *s = ln->s;
  size_t pos = (size_t)((const unsigned char *)s - data), len = 0;
  int ends_lf = ln->next == pos + ln->len + 1 && data[pos + ln->len] == '\n';
  int at_end = ln->next == size && pos + ln->len == size;
  uint32_t nw = iqe_tokenize(ln, want, 600), k;
  int fast;
  const struct iqe_command *c;

  /* counting: a two-byte command, a blank, no quote, an LF end */
  fast = iqe_count_line(s, size - pos, &len);
  if (fast >= 0) {
    struct iqe_tok first;
    taken_count++;
    if (!ends_lf || len != ln->len)
      fail(ln, "iqe_count_line took a line that does not end in LF there");
    else if ((uint32_t)fast != iqe_count_tokens(ln, &first))
      fail(ln, "iqe_count_line counted another number of tokens");
    else if (first.s != s || first.len != 2 || first.quoted)
      fail(ln, "iqe_count_line took a line whose first token is not its first two bytes");
  }

  /* checking: a bounded numeric command and plain numbers */
  if (size - pos < 2 || !(c = iqe_command_find(s, 2)) || c->args != ARGS_REALS ||
      c->max_args == IQE_UNBOUNDED)
    return;
  {
    double vals[IQE_MAX_VALUES], ref[IQE_MAX_VALUES];
    int plain = nw >= 1 && want[0].s == s && want[0].len == 2 && !want[0].quoted &&
                nw - 1 <= c->max_args && (ends_lf || at_end) && ln->len >= 3 && ln->len <= 511;
    for (k = 1; plain && k < nw; k++)
      plain = !want[k].quoted && iqe_parse_real(want[k].s, want[k].len, &ref[k - 1]) == IQE_NUM_OK;
    plain_lines += plain;
    fast = iqe_lex_reals(s, size - pos, &len, got, 600, c->max_args, vals);
    if (fast < 0) {
      if (plain)
        fail(ln, "iqe_lex_reals declined a plain line");
      return;
    }
    taken_reals++;
    if (!plain) {
      fail(ln, "iqe_lex_reals took a line the general path reports");
      return;
    }
    if ((uint32_t)fast != nw - 1 || len != ln->len) {
      fail(ln, "iqe_lex_reals: another count or line length");
      return;
    }
    for (k = 0; k < nw; k++)
      if (got[k].s != want[k].s || got[k].len != want[k].len || got[k].col != want[k].col ||
          got[k].quoted || got[k].unterminated || (k && memcmp(&vals[k - 1], &ref[k - 1], sizeof *vals))) {
        fail(ln, "iqe_lex_reals: another token or value");
        return;
      }
  }
}

/* A random number-like token: mostly what exporters print, sometimes broken. */
static size_t put_token(char *o)
{
  static const char *const odd[] = {
    "nan", "-inf", "Infinity", "0x1p3", "0X10", "1e", "1e+", "+", "-", ".", "-.", "1.5.3",
    "1,5", "1e400", "-1e400", "1e-400", "4.9e-324", "2.2250738585072011e-308", "\"1\"", "\"a b",
    "1\0002", "\xff", "1\x80", "00000000000000000000001.5", "123456789012345678901234567890",
    "0.30000000000000004441", "9007199254740993", "1e22", "1e23", "-0", "+.5", "5.", "1E5",
    "1e-5", "7e+0", "18446744073709551616", "0.1e-999999999999"
  };
  size_t n = 0;
  if (next(12) == 0) {
    const char *t = odd[next(sizeof odd / sizeof odd[0])];
    size_t l = t[0] == '1' && t[1] == 0 && t[2] == '2' ? 3 : strlen(t);
    memcpy(o, t, l);
    return l;
  }
  if (next(3) == 0)
    o[n++] = next(2) ? '-' : '+';
  for (unsigned d = next(4) == 0 ? next(22) : 1 + next(2); d > 0; d--)
    o[n++] = (char)('0' + next(10));
  if (next(5)) {
    o[n++] = '.';
    for (unsigned d = next(4) == 0 ? next(26) : 14 + next(6); d > 0; d--)
      o[n++] = (char)('0' + next(10));
  }
  if (next(10) == 0) {
    o[n++] = next(2) ? 'e' : 'E';
    if (next(2))
      o[n++] = next(2) ? '-' : '+';
    for (unsigned d = 1 + next(3); d > 0; d--)
      o[n++] = (char)('0' + next(10));
  }
  return n;
}

static size_t put_blank(char *o)
{
  static const char blanks[] = {' ', ' ', ' ', ' ', '\t', '\v', '\f'};
  size_t n = 0;
  for (unsigned k = next(6) == 0 ? 1 + next(3) : 1; k > 0; k--)
    o[n++] = blanks[next(sizeof blanks)];
  return n;
}

/* A random file of mostly numeric lines, size bytes at most, ending anywhere. */
static size_t make_file(char *o, size_t cap)
{
  static const char *const cmds[] = {"vp", "vt", "vn", "vx", "vc", "v0", "v9", "pq", "pm", "pa",
                                     "vb", "fm", "fa", "vs", "#x", "vpx", "v", " vp", "\"vp\"", "zz",
                                     "smoothangle", "framerate"};
  size_t n = 0;
  while (n + 4000 < cap) { /* a line takes at most ~3000 bytes */
    const char *cmd = cmds[next(sizeof cmds / sizeof cmds[0])];
    unsigned ntok = next(8) == 0 ? next(20) : 2 + next(9);
    memcpy(o + n, cmd, strlen(cmd));
    n += strlen(cmd);
    for (unsigned k = 0; k < ntok; k++) {
      n += put_blank(o + n);
      n += put_token(o + n);
    }
    if (next(4) == 0)
      n += put_blank(o + n);
    if (next(40) == 0) { /* a long line */
      for (unsigned k = 0; k < 60; k++) {
        o[n++] = ' ';
        n += put_token(o + n);
      }
    }
    switch (next(30)) {
    case 0: o[n++] = '\r'; break;
    case 1: o[n++] = '\r'; o[n++] = '\n'; break;
    case 2: break; /* the next command runs on */
    default: o[n++] = '\n'; break;
    }
  }
  if (next(2))
    while (n > 0 && o[n - 1] == '\n')
      n--; /* no LF after the last line */
  return n;
}

int main(void)
{
  enum { CAP = 1 << 16 };
  static char src[CAP];
  for (int round = 0; round < 400; round++) {
    size_t size = make_file(src, sizeof src), pos = 0;
    /* exactly size bytes: a read past the input's end is caught by the sanitizers */
    unsigned char *data = malloc(size ? size : 1);
    uint32_t lineno = 0;
    struct iqe_line ln;
    if (!data)
      return 99;
    memcpy(data, src, size);
    while (iqe_line_next(data, size, &pos, &lineno, &ln))
      check_line(data, size, &ln);
    free(data);
  }
  if (plain_lines < 10000 || taken_reals < plain_lines || taken_count < 10000) {
    printf("FAIL: too few lines took the fast readers (%lu counted, %lu of %lu plain read)\n",
           taken_count, taken_reals, plain_lines);
    failures++;
  }
  if (failures)
    printf("%d failures\n", failures);
  else
    printf("iqe fast readers: %lu lines counted, %lu read, all as the general path\n", taken_count,
           taken_reals);
  return failures != 0;
}
