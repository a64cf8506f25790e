/* iqe_lex.c - lines, tokens and numbers of IQE text, with 1-based columns.
 *
 * Numbers take a fast exact path (Clinger: a mantissa below 2^53 scaled by an exactly
 * representable power of ten is one correctly rounded operation) and fall back to strtod. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iqe.h"

int iqe_line_next(const unsigned char *data, size_t size, size_t *pos, uint32_t *lineno,
                  struct iqe_line *ln)
{
  size_t start = *pos, end;
  const unsigned char *nl;
  if (start >= size)
    return 0;
  nl = memchr(data + start, '\n', size - start);
  end = nl ? (size_t)(nl - data) : size;
  ln->s = (const char *)data + start;
  ln->len = end - start;
  if (ln->len && ln->s[ln->len - 1] == '\r')
    ln->len--;
  ln->no = ++*lineno;
  ln->next = nl ? end + 1 : size;
  *pos = ln->next;
  return 1;
}

static int is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

uint32_t iqe_tokenize(const struct iqe_line *ln, struct iqe_tok *toks, uint32_t cap)
{
  uint32_t n = 0;
  size_t i = 0;
  while (i < ln->len) {
    struct iqe_tok t;
    while (i < ln->len && is_space(ln->s[i]))
      i++;
    if (i >= ln->len)
      break;
    memset(&t, 0, sizeof t);
    t.col = (uint32_t)(i + 1);
    if (ln->s[i] == '"') {
      size_t j = i + 1;
      while (j < ln->len && ln->s[j] != '"')
        j++;
      t.s = ln->s + i + 1;
      t.len = (uint32_t)(j - i - 1);
      t.quoted = 1;
      t.unterminated = j >= ln->len;
      i = j < ln->len ? j + 1 : j;
    } else {
      size_t j = i;
      while (j < ln->len && !is_space(ln->s[j]))
        j++;
      t.s = ln->s + i;
      t.len = (uint32_t)(j - i);
      i = j;
    }
    if (n < cap)
      toks[n] = t;
    n++;
  }
  return n;
}

static const double pow10_exact[23] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

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
  size_t i = 0, digits = 0, frac_digits = 0, sig = 0;
  uint64_t mant = 0;
  int neg = 0, exp_neg = 0, dropped = 0;
  long exp10 = 0, e = 0;

  *out = 0;
  if (len && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    i = 1;
  }
  if (ieq(s + i, len - i, "nan") || ieq(s + i, len - i, "inf") || ieq(s + i, len - i, "infinity")) {
    *out = ieq(s + i, len - i, "nan") ? NAN : (neg ? -INFINITY : INFINITY);
    return IQE_NUM_NONFINITE;
  }
  for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
    if (sig < 19) {
      mant = mant * 10 + (uint64_t)(s[i] - '0');
      if (mant)
        sig++;
    } else {
      exp10++;
      dropped |= s[i] != '0';
    }
  }
  if (i < len && s[i] == '.') {
    for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, frac_digits++) {
      if (sig < 19) {
        mant = mant * 10 + (uint64_t)(s[i] - '0');
        exp10--;
        if (mant)
          sig++;
      } else {
        dropped |= s[i] != '0';
      }
    }
  }
  if (digits + frac_digits == 0)
    return IQE_NUM_BAD;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    size_t ed = 0;
    i++;
    if (i < len && (s[i] == '+' || s[i] == '-'))
      exp_neg = s[i++] == '-';
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, ed++)
      if (e < 100000)
        e = e * 10 + (s[i] - '0');
    if (ed == 0)
      return IQE_NUM_BAD;
  }
  if (i != len)
    return IQE_NUM_BAD;
  exp10 += exp_neg ? -e : e;
  if (!dropped && mant < (1ull << 53) && exp10 >= -22 && exp10 <= 22) {
    double v = (double)mant;
    v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
    *out = neg ? -v : v;
    return IQE_NUM_OK;
  }
  if (mant == 0 && !dropped) {
    *out = neg ? -0.0 : 0.0;
    return IQE_NUM_OK;
  }
  {
    /* slow path: strtod on a NUL-terminated copy (the grammar above is a subset of strtod's) */
    char buf[128];
    char *copy = len < sizeof buf ? buf : malloc(len + 1);
    double v;
    if (!copy)
      return IQE_NUM_BAD;
    memcpy(copy, s, len);
    copy[len] = 0;
    v = strtod(copy, NULL);
    if (copy != buf)
      free(copy);
    *out = v;
    return isfinite(v) ? IQE_NUM_OK : IQE_NUM_NONFINITE;
  }
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
