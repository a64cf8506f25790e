/* iqe_attr_pack.c - a vertex attribute's values packed: each element's values up to its last
 * one that is not the command's default, in float where that is exact, so a file of short
 * attribute lines after a long one costs what its lines give, not a value per component. */
#include <string.h>

#include "iqe.h"

static unsigned nibble(const struct iqe_attr_arr *a, uint32_t e)
{
  return (a->pk_n[e / 2] >> (e % 2 * 4)) & 15u;
}

/* The sum of 16 nibbles of at most 7 each */
static unsigned nibble_sum(uint64_t x)
{
  uint64_t b = (x & 0x0f0f0f0f0f0f0f0fu) + ((x >> 4) & 0x0f0f0f0f0f0f0f0fu);
  return (unsigned)((b * 0x0101010101010101u) >> 56);
}

/* The bytes of the values of elements j .. j + k - 1 (k <= 16, j even) from their nibbles, 16
 * at a time: a count is its nibble's low 3 bits, 4 bytes each, 4 more each when in double */
static uint64_t nibbles_bytes(const unsigned char *n, uint32_t j, uint32_t k)
{
  uint64_t w = 0, c, d;
  for (uint32_t i = 0; i < 8; i++)
    w |= (uint64_t)n[j / 2 + i] << (8 * i);
  if (k < 16)
    w &= ((uint64_t)1 << (4 * k)) - 1;
  c = w & 0x7777777777777777u;
  d = ((w >> 3) & 0x1111111111111111u) * 7; /* 7 in each double's nibble */
  return 4 * (uint64_t)(nibble_sum(c) + nibble_sum(c & d));
}

/* A value equal, in the array's storage, to the default a reader gives past an element's
 * values: bit for bit (-0 is no 0) */
static int is_default(const struct iqe_attr_arr *a, double v, double d)
{
  if (a->pk_double)
    return !memcmp(&v, &d, sizeof v);
  {
    float fv = (float)v, fd = (float)d;
    return !memcmp(&fv, &fd, sizeof fv);
  }
}

void iqe_attr_pack(struct iqe_attr_arr *a, uint32_t e, const double *src)
{
  uint32_t g = a->stride, dbl = 0;
  unsigned char *at;
  while (g > 0 && is_default(a, src[g - 1], a->defaults ? a->defaults[g - 1] : 0))
    g--;
  for (uint32_t c = 0; c < g && a->pk_double && !dbl; c++) {
    double back = (double)(float)src[c];
    dbl = memcmp(&back, &src[c], sizeof back) != 0;
  }
  if (e % IQE_LINES_MARK == 0)
    a->pk_mark[e / IQE_LINES_MARK] = a->pk_end;
  a->pk_n[e / 2] |= (unsigned char)((g | (dbl ? 8u : 0u)) << (e % 2 * 4));
  at = a->pk + a->pk_end;
  for (uint32_t c = 0; c < g; c++)
    if (dbl) {
      memcpy(at, &src[c], sizeof src[c]);
      at += sizeof src[c];
    } else {
      float f = (float)src[c];
      memcpy(at, &f, sizeof f);
      at += sizeof f;
    }
  a->pk_end += (uint64_t)(at - (a->pk + a->pk_end));
}

/* Element e's values: their count, whether in double, and where they start */
static const unsigned char *element(const struct iqe_attr_arr *a, uint32_t e, unsigned *n)
{
  uint32_t j = e / IQE_LINES_MARK * IQE_LINES_MARK;
  uint64_t off = a->pk_mark[e / IQE_LINES_MARK];
  for (; j + 16 <= e; j += 16)
    off += nibbles_bytes(a->pk_n, j, 16);
  if (j < e)
    off += nibbles_bytes(a->pk_n, j, e - j);
  *n = nibble(a, e);
  return a->pk + off;
}

static double value(const unsigned char *at, unsigned n, uint32_t c)
{
  if (n & 8u) {
    double v;
    memcpy(&v, at + (size_t)c * sizeof v, sizeof v);
    return v;
  } else {
    float f;
    memcpy(&f, at + (size_t)c * sizeof f, sizeof f);
    return (double)f;
  }
}

double iqe_attr_packed(const struct iqe_attr_arr *a, uint32_t e, uint32_t c)
{
  unsigned n = nibble(a, e);
  if (c >= (n & 7u))
    return a->defaults ? a->defaults[c] : 0;
  return value(element(a, e, &n), n, c);
}

void iqe_attr_packed_n(const struct iqe_attr_arr *a, uint32_t e, double *out, uint32_t n)
{
  unsigned nib;
  const unsigned char *at = element(a, e, &nib);
  for (uint32_t c = 0; c < n; c++)
    out[c] = c < (nib & 7u) ? value(at, nib, c) : a->defaults ? a->defaults[c] : 0;
}
