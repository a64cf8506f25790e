/* reader.c - bounded little-endian reads. */
#include "reader.h"

#include <string.h>

void reader_init(struct reader *r, const void *data, size_t size)
{
  r->data = data;
  r->size = size;
  r->pos = 0;
  r->overrun = 0;
}

int reader_has(const struct reader *r, uint64_t off, uint64_t len)
{
  return off <= r->size && len <= r->size - off;
}

int reader_has_array(const struct reader *r, uint64_t off, uint64_t count, uint64_t elem)
{
  if (elem != 0 && count > UINT64_MAX / elem)
    return 0;
  return reader_has(r, off, count * elem);
}

const unsigned char *reader_ptr(struct reader *r, uint64_t off, uint64_t len)
{
  if (!reader_has(r, off, len)) {
    r->overrun = 1;
    return NULL;
  }
  return r->data + off;
}

static uint64_t load_le(struct reader *r, uint64_t off, unsigned n)
{
  const unsigned char *p = reader_ptr(r, off, n);
  uint64_t v = 0;
  if (!p)
    return 0;
  for (unsigned i = 0; i < n; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

uint8_t reader_u8_at(struct reader *r, uint64_t off) { return (uint8_t)load_le(r, off, 1); }
uint16_t reader_u16_at(struct reader *r, uint64_t off) { return (uint16_t)load_le(r, off, 2); }
uint32_t reader_u32_at(struct reader *r, uint64_t off) { return (uint32_t)load_le(r, off, 4); }
uint64_t reader_u64_at(struct reader *r, uint64_t off) { return load_le(r, off, 8); }

int32_t reader_i32_at(struct reader *r, uint64_t off)
{
  uint32_t u = reader_u32_at(r, off);
  int32_t v;
  memcpy(&v, &u, sizeof v);
  return v;
}

float reader_f32_at(struct reader *r, uint64_t off)
{
  uint32_t u = reader_u32_at(r, off);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

double reader_f64_at(struct reader *r, uint64_t off)
{
  uint64_t u = reader_u64_at(r, off);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

static uint64_t advance(struct reader *r, unsigned n)
{
  uint64_t at = r->pos;
  r->pos = r->pos > SIZE_MAX - n ? SIZE_MAX : r->pos + n;
  return at;
}

uint8_t reader_u8(struct reader *r) { return reader_u8_at(r, advance(r, 1)); }
uint16_t reader_u16(struct reader *r) { return reader_u16_at(r, advance(r, 2)); }
uint32_t reader_u32(struct reader *r) { return reader_u32_at(r, advance(r, 4)); }
int32_t reader_i32(struct reader *r) { return reader_i32_at(r, advance(r, 4)); }
float reader_f32(struct reader *r) { return reader_f32_at(r, advance(r, 4)); }

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
