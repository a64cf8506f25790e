/* number.c - exact decimal-to-double conversion (see number.h).
 *
 * Three steps, each exact or declining: Clinger's fast path (a mantissa below 2^53 times an
 * exactly representable power of ten is one correctly rounded IEEE operation); the
 * Eisel-Lemire step (Lemire, "Number Parsing at a Gigabyte per Second", SPE 2021: the 64-bit
 * mantissa times a 128-bit truncated power of five decides the rounding unless the product is
 * too close to a halfway point); and strtod for whatever remains (more than 19 significant
 * digits, exponents outside the table, hex floats, inf/nan spellings). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "number_pow5.h"

static const double pow10_exact[23] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* Full 64x64 -> 128-bit product. */
static void mul_64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
  unsigned __int128 p = (unsigned __int128)a * b;
  *hi = (uint64_t)(p >> 64);
  *lo = (uint64_t)p;
#else
  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  *lo = (mid << 32) | (uint32_t)p00;
#endif
}

static int count_lz(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_clzll(x); /* x != 0 here */
#else
  int n = 0;
  while (!(x & 0x8000000000000000u)) {
    x <<= 1;
    n++;
  }
  return n;
#endif
}

/* w * 10^q for w != 0 and q inside the table; 0 when the result cannot be decided cheaply. */
static int eisel_lemire(uint64_t w, int64_t q, int neg, double *out)
{
  const uint64_t *p = number_pow5[q - NUMBER_POW5_QMIN];
  uint64_t hi, lo, hi2, lo2, mant, bits;
  int lz = count_lz(w), upper, shift;
  int64_t power2;

  w <<= lz;
  mul_64(w, p[0], &hi, &lo);
  if ((hi & 0x1FF) == 0x1FF) {
    /* the low bits of the truncated product may carry: add the next 64 bits of 5^q */
    mul_64(w, p[1], &hi2, &lo2);
    lo += hi2;
    if (hi2 > lo)
      hi++;
    (void)lo2;
  }
  /* still possibly off by one unit in the last place of a 128-bit product: let strtod decide
   * outside the range where 5^q fits the table exactly */
  if (lo == UINT64_MAX && (q < -27 || q > 55))
    return 0;
  upper = (int)(hi >> 63);
  shift = upper + 64 - 52 - 3;
  mant = hi >> shift;
  /* floor(q * log2(10)) + 63, then the binary exponent biased like IEEE (minimum -1023) */
  power2 = ((((152170 + 65536) * q) >> 16) + 63) + upper - lz + 1023;
  if (power2 <= 0) {
    /* subnormal: shift into place and round once; the product's excess bits are exact
     * enough here because a subnormal keeps fewer than 53 bits */
    if (-power2 + 1 >= 64) {
      *out = neg ? -0.0 : 0.0;
      return 1;
    }
    mant >>= -power2 + 1;
    mant += mant & 1;
    mant >>= 1;
    power2 = mant < (1ull << 52) ? 0 : 1;
    bits = (mant & ((1ull << 52) - 1)) | ((uint64_t)power2 << 52);
    goto done;
  }
  /* an exact halfway case can only arise for small |q| (5^q must divide w); there the
   * product is exact and ties go to even */
  if (lo <= 1 && q >= -4 && q <= 23 && (mant & 3) == 1 && (mant << shift) == hi)
    mant &= ~1ull;
  mant += mant & 1;
  mant >>= 1;
  if (mant >= (2ull << 52)) {
    mant = 1ull << 52;
    power2++;
  }
  mant &= ~(1ull << 52);
  if (power2 >= 0x7FF) {
    *out = neg ? -HUGE_VAL : HUGE_VAL;
    return 1;
  }
  bits = mant | ((uint64_t)power2 << 52);
done:
  if (neg)
    bits |= 1ull << 63;
  memcpy(out, &bits, sizeof *out);
  return 1;
}

/* strtod on a NUL-terminated copy of s[0..n); returns the bytes it consumed. */
static size_t parse_libc(const char *s, size_t n, double *out)
{
  char buf[256];
  char *copy = n < sizeof buf ? buf : malloc(n + 1);
  char *end;
  if (!copy) {
    *out = 0;
    return 0;
  }
  memcpy(copy, s, n);
  copy[n] = 0;
  *out = strtod(copy, &end);
  n = (size_t)(end - copy);
  if (copy != buf)
    free(copy);
  return n;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

#if defined(__GNUC__) || defined(__clang__)
#define NUMBER_INLINE inline __attribute__((always_inline))
#else
#define NUMBER_INLINE inline
#endif

/* Eight ASCII digits at s as one number, or -1 when they are not all digits: one word-wide
 * test and three multiplies instead of eight steps (the exporters print 16-17 digits). */
static NUMBER_INLINE int64_t eight_digits(const char *s)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t v;
  memcpy(&v, s, 8);
  /* every byte in '0'..'9': high nibble 3, and adding 6 keeps it 3 */
  if (((v & 0xF0F0F0F0F0F0F0F0u) | (((v + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4)) !=
      0x3333333333333333u)
    return -1;
  v -= 0x3030303030303030u;
  v = (v * 10) + (v >> 8); /* pairs */
  v = (((v & 0x000000FF000000FFu) * (100 + (1000000ull << 32))) +
       (((v >> 16) & 0x000000FF000000FFu) * (1 + (10000ull << 32)))) >> 32;
  return (int64_t)(uint32_t)v;
#else
  uint32_t r = 0;
  for (int k = 0; k < 8; k++) {
    if (!is_digit(s[k]))
      return -1;
    r = r * 10 + (uint32_t)(s[k] - '0');
  }
  return r;
#endif
}

/* Digits from s[j] on, accumulated into *w (wrapping: the caller rescans past 19 digits);
 * returns the index of the first non-digit. Inlined: it runs twice for every number. */
static NUMBER_INLINE size_t digits_run(const char *s, size_t j, size_t n, uint64_t *w)
{
  uint64_t fw = *w;
  int64_t e;
  while (j + 8 <= n && (e = eight_digits(s + j)) >= 0) {
    fw = fw * 100000000u + (uint64_t)e;
    j += 8;
  }
  for (; j < n && is_digit(s[j]); j++)
    fw = fw * 10 + (uint64_t)(s[j] - '0');
  *w = fw;
  return j;
}

size_t number_parse_double(const char *s, size_t n, double *out)
{
  size_t i = 0, ndigits = 0;
  unsigned nsig = 0;
  uint64_t w = 0;
  int64_t q = 0;
  int neg = 0, dropped = 0;

  *out = 0;
  if (n && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    i = 1;
  }
  if (i >= n || !(is_digit(s[i]) || s[i] == '.'))
    goto libc; /* inf, nan, or nothing: strtod knows the spellings */
  if (s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X'))
    goto libc; /* hex float */
  {
    /* optimistic pass: with at most 19 digits in all the mantissa cannot overflow (the
     * usual case, even for %.17g output); otherwise rescan counting significant digits */
    size_t j, k;
    uint64_t fw = 0;
    j = digits_run(s, i, n, &fw);
    ndigits = j - i;
    if (j < n && s[j] == '.') {
      k = ++j;
      j = digits_run(s, j, n, &fw);
      ndigits += j - k;
      q = -(int64_t)(j - k);
    }
    if (ndigits <= 19) {
      w = fw;
      i = j;
    } else {
      ndigits = 0;
      q = 0;
      for (; i < n && is_digit(s[i]); i++, ndigits++) {
        if (nsig < 19) {
          w = w * 10 + (uint64_t)(s[i] - '0');
          nsig += w != 0;
        } else {
          q++;
          dropped |= s[i] != '0';
        }
      }
      if (i < n && s[i] == '.') {
        for (i++; i < n && is_digit(s[i]); i++, ndigits++) {
          if (nsig < 19) {
            w = w * 10 + (uint64_t)(s[i] - '0');
            nsig += w != 0;
            q--;
          } else {
            dropped |= s[i] != '0';
          }
        }
      }
    }
  }
  if (ndigits == 0)
    return 0; /* "." or "-." */
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    int eneg = 0;
    int64_t e = 0;
    if (j < n && (s[j] == '+' || s[j] == '-'))
      eneg = s[j++] == '-';
    if (j < n && is_digit(s[j])) {
      for (; j < n && is_digit(s[j]); j++)
        if (e < 100000000)
          e = e * 10 + (s[j] - '0');
        else
          dropped = 1; /* absurd exponent: strtod saturates it correctly */
      q += eneg ? -e : e;
      i = j;
    }
  }
  if (dropped)
    return parse_libc(s, i, out);
  if (w == 0) {
    *out = neg ? -0.0 : 0.0;
    return i;
  }
  if (w <= (1ull << 53) && q >= -22 && q <= 22) {
    double v = (double)w;
    v = q < 0 ? v / pow10_exact[-q] : v * pow10_exact[q];
    *out = neg ? -v : v;
    return i;
  }
  if (q >= NUMBER_POW5_QMIN && q <= NUMBER_POW5_QMAX && eisel_lemire(w, q, neg, out))
    return i;
  return parse_libc(s, i, out);
libc:
  if (n && (s[0] == ' ' || (s[0] >= '\t' && s[0] <= '\r')))
    return 0; /* strtod would skip it; the formats never want that */
  return parse_libc(s, n, out);
}
