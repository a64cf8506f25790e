/* text_safe.c - escaping model-derived bytes in human-readable output (text_safe.h says what and
 * why); the one place that decides what a name may show on a terminal or in a CI log. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "text_safe.h"

/* Where escaped text goes: a stream, or a bounded buffer (whole escapes only). */
struct sink {
  FILE *out;
  char *dst;
  size_t cap, len; /* len: bytes the whole text needs */
  int cut;         /* the buffer filled: nothing more is copied into it */
};

static void put(struct sink *k, const char *p, size_t n)
{
  if (k->out) {
    fwrite(p, 1, n, k->out);
  } else if (k->dst && !k->cut) {
    if (k->len + n < k->cap) {
      memcpy(k->dst + k->len, p, n);
      k->dst[k->len + n] = '\0';
    } else {
      k->cut = 1;
    }
  }
  k->len += n;
}

/* The length of a well-formed UTF-8 sequence at s (at most n bytes) and its code point, or 0. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
  size_t len;
  uint32_t c;
  unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range (no overlongs, no surrogates) */
  if (s[0] >= 0xc2 && s[0] <= 0xdf) {
    len = 2, c = s[0] & 0x1f;
  } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
    len = 3, c = s[0] & 0x0f;
    lo = s[0] == 0xe0 ? 0xa0 : 0x80;
    hi = s[0] == 0xed ? 0x9f : 0xbf;
  } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
    len = 4, c = s[0] & 0x07;
    lo = s[0] == 0xf0 ? 0x90 : 0x80;
    hi = s[0] == 0xf4 ? 0x8f : 0xbf;
  } else {
    return 0;
  }
  if (len > n || s[1] < lo || s[1] > hi)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    c = c << 6 | (s[i] & 0x3f);
  }
  *cp = c;
  return len;
}

/* Characters that are not control bytes but still break or reorder what a line shows. */
static int hidden_format_char(uint32_t c)
{
  return (c >= 0x80 && c <= 0x9f) ||     /* C1 controls (CSI, NEL, ...) */
         c == 0x2028 || c == 0x2029 ||     /* line and paragraph separators */
         (c >= 0x202a && c <= 0x202e) ||   /* bidirectional embeddings and overrides */
         (c >= 0x2066 && c <= 0x2069);     /* bidirectional isolates */
}

/* Write the first n bytes of s (up to its NUL) escaped. *line_start: nothing but blanks was
 * written on the line so far; it is cleared once s writes anything else. A ':' or '#' that would
 * begin the line is escaped when the next character is the same or unknown (the end of s). */
static void escape_into(struct sink *k, const char *str, size_t n, int *line_start)
{
  const unsigned char *s = (const unsigned char *)str;
  char tmp[12];
  size_t i = 0;
  if (*line_start) { /* a workflow command is recognised after leading blanks */
    while (i < n && s[i] == ' ')
      i++;
    put(k, str, i);
    if (i >= n || !s[i])
      return;
    *line_start = 0;
    if ((s[i] == ':' || s[i] == '#') && (i + 1 >= n || !s[i + 1] || s[i + 1] == s[i])) {
      put(k, s[i] == ':' ? "\\x3a" : "\\x23", 4);
      i++;
    }
  }
  while (i < n && s[i]) {
    size_t run = i, len;
    uint32_t cp;
    while (run < n && s[run] >= 0x20 && s[run] < 0x7f)
      run++;
    put(k, str + i, run - i);
    i = run;
    if (i >= n || !s[i])
      break;
    if (s[i] < 0x80) {
      const char *e = s[i] == '\n' ? "\\n" : s[i] == '\r' ? "\\r" : s[i] == '\t' ? "\\t" : NULL;
      if (e) {
        put(k, e, 2);
      } else {
        snprintf(tmp, sizeof tmp, "\\x%02x", s[i]);
        put(k, tmp, 4);
      }
      i++;
    } else if ((len = utf8_decode(s + i, n - i, &cp)) == 0) {
      snprintf(tmp, sizeof tmp, "\\x%02x", s[i]);
      put(k, tmp, 4);
      i++;
    } else if (hidden_format_char(cp)) {
      snprintf(tmp, sizeof tmp, "\\u%04x", (unsigned)cp);
      put(k, tmp, 6);
      i += len;
    } else {
      put(k, str + i, len);
      i += len;
    }
  }
}

size_t text_escape(char *dst, size_t cap, const char *s, int line_start)
{
  struct sink k = {NULL, dst, cap, 0, 0};
  if (dst && cap)
    dst[0] = '\0';
  if (s)
    escape_into(&k, s, (size_t)-1, &line_start);
  return k.len;
}

void text_put(FILE *out, const char *s)
{
  struct sink k = {out, NULL, 0, 0, 0};
  int line_start = 1;
  if (s)
    escape_into(&k, s, (size_t)-1, &line_start);
}

void text_write(FILE *out, const char *s, size_t n)
{
  struct sink k = {out, NULL, 0, 0, 0};
  int line_start = 0;
  if (s)
    escape_into(&k, s, n, &line_start);
}

/* One %s: precision bounds the bytes read, width pads what the escaped text shows. */
static void put_string(FILE *out, const char *s, int left, long width, long prec, int *line_start)
{
  struct sink count = {NULL, NULL, 0, 0, 0}, k = {out, NULL, 0, 0, 0};
  size_t n = prec < 0 ? (size_t)-1 : (size_t)prec;
  int probe = *line_start;
  if (!s)
    s = "(null)";
  if (width > 0)
    escape_into(&count, s, n, &probe);
  if (!left)
    for (size_t i = count.len; (long)i < width; i++)
      fputc(' ', out);
  escape_into(&k, s, n, line_start);
  if (left)
    for (size_t i = count.len; (long)i < width; i++)
      fputc(' ', out);
}

/* Read a width or precision: digits, or '*' taken from the arguments; -1 when absent. */
static long spec_number(const char **p, va_list *ap, int *negative)
{
  long v = 0;
  *negative = 0;
  if (**p == '*') {
    int a = va_arg(*ap, int);
    (*p)++;
    *negative = a < 0;
    return a < 0 ? -(long)a : a;
  }
  if (**p < '0' || **p > '9')
    return -1;
  while (**p >= '0' && **p <= '9')
    v = v * 10 + (*(*p)++ - '0');
  return v;
}

/* The non-string conversions go to fprintf with a format rebuilt from the caller's, which
 * text_printf's format attribute has checked against the arguments. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void text_vprintf(FILE *out, const char *fmt, va_list ap0)
{
  va_list ap;
  int line_start = 1;
  va_copy(ap, ap0);
  while (*fmt) {
    const char *lit = fmt;
    char spec[64], len1 = 0, len2 = 0, conv;
    int left = 0, neg;
    long width, prec = -1;
    size_t sl;
    while (*fmt && *fmt != '%') {
      if (*fmt == '\n')
        line_start = 1;
      else if (*fmt != ' ')
        line_start = 0;
      fmt++;
    }
    fwrite(lit, 1, (size_t)(fmt - lit), out);
    if (!*fmt)
      break;
    if (fmt[1] == '%') {
      fputc('%', out);
      line_start = 0;
      fmt += 2;
      continue;
    }
    /* rebuild the conversion with '*' resolved, to hand the non-string ones to fprintf */
    spec[0] = '%';
    sl = 1;
    fmt++;
    while (*fmt && strchr("-+ #0", *fmt)) {
      left |= *fmt == '-';
      if (sl < 8)
        spec[sl++] = *fmt;
      fmt++;
    }
    width = spec_number(&fmt, &ap, &neg);
    left |= neg;
    if (neg && sl < 8)
      spec[sl++] = '-';
    if (width >= 0)
      sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%ld", width);
    if (*fmt == '.') {
      fmt++;
      prec = spec_number(&fmt, &ap, &neg);
      if (neg)
        prec = -1; /* a negative precision is taken as if it were omitted */
      else
        sl += (size_t)snprintf(spec + sl, sizeof spec - sl, ".%ld", prec < 0 ? 0 : prec);
      if (!neg && prec < 0)
        prec = 0; /* "%.s": precision zero */
    }
    while (*fmt && strchr("hlLzjt", *fmt)) {
      if (len1 && !len2)
        len2 = *fmt;
      else if (!len1)
        len1 = *fmt;
      if (sl < 56)
        spec[sl++] = *fmt;
      fmt++;
    }
    conv = *fmt;
    if (!conv)
      break;
    fmt++;
    spec[sl++] = conv;
    spec[sl] = '\0';
    switch (conv) {
    case 's': /* nothing but blanks keeps line_start: the next argument may begin the line */
      put_string(out, va_arg(ap, const char *), left, width, prec, &line_start);
      continue;
    case 'c': {
      char one[2] = {(char)va_arg(ap, int), '\0'};
      put_string(out, one, left, width, -1, &line_start);
      continue;
    }
    case 'd': case 'i':
      if (len1 == 'l' && len2 == 'l')
        fprintf(out, spec, va_arg(ap, long long));
      else if (len1 == 'l')
        fprintf(out, spec, va_arg(ap, long));
      else if (len1 == 'z')
        fprintf(out, spec, va_arg(ap, ssize_t));
      else if (len1 == 'j')
        fprintf(out, spec, va_arg(ap, intmax_t));
      else if (len1 == 't')
        fprintf(out, spec, va_arg(ap, ptrdiff_t));
      else
        fprintf(out, spec, va_arg(ap, int));
      break;
    case 'u': case 'x': case 'X': case 'o':
      if (len1 == 'l' && len2 == 'l')
        fprintf(out, spec, va_arg(ap, unsigned long long));
      else if (len1 == 'l')
        fprintf(out, spec, va_arg(ap, unsigned long));
      else if (len1 == 'z')
        fprintf(out, spec, va_arg(ap, size_t));
      else if (len1 == 'j')
        fprintf(out, spec, va_arg(ap, uintmax_t));
      else if (len1 == 't')
        fprintf(out, spec, va_arg(ap, ptrdiff_t));
      else
        fprintf(out, spec, va_arg(ap, unsigned));
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      if (len1 == 'L')
        fprintf(out, spec, va_arg(ap, long double));
      else
        fprintf(out, spec, va_arg(ap, double));
      break;
    case 'p':
      fprintf(out, spec, va_arg(ap, void *));
      break;
    default: /* not one text_printf supports (the format attribute catches most at build) */
      break;
    }
    line_start = 0;
  }
  va_end(ap);
}
#pragma GCC diagnostic pop

void text_printf(FILE *out, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  text_vprintf(out, fmt, ap);
  va_end(ap);
}
