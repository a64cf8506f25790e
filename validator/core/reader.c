/* reader.c - bounded little-endian reads (the small ones are inline in reader.h). */
#include "reader.h"

#include <string.h>

void reader_init(struct reader *r, const void *data, size_t size)
{
  r->data = data;
  r->size = size;
  r->pos = 0;
  r->overrun = 0;
}

int reader_has_array(const struct reader *r, uint64_t off, uint64_t count, uint64_t elem)
{
  if (elem != 0 && count > UINT64_MAX / elem)
    return 0;
  return reader_has(r, off, count * elem);
}

int reader_skip(struct reader *r, uint64_t len)
{
  if (!reader_has(r, r->pos, len)) {
    r->overrun = 1;
    r->pos = r->size;
    return 0;
  }
  r->pos += (size_t)len;
  return 1;
}

size_t reader_remaining(const struct reader *r)
{
  return r->pos < r->size ? r->size - r->pos : 0;
}

float half_to_float(uint16_t h)
{
  uint32_t sign = (uint32_t)(h >> 15) << 31;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  float f;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {
    /* subnormal half: normalise into a float */
    exp = 113;
    while (!(mant & 0x400)) {
      mant <<= 1;
      exp--;
    }
    bits = sign | (exp << 23) | ((mant & 0x3ff) << 13);
  }
  memcpy(&f, &bits, sizeof f);
  return f;
}
