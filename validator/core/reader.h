/* reader.h - bounded little-endian reads over an input buffer.
 *
 * Every read of input bytes goes through these functions. A read outside the buffer returns 0
 * and sets the reader's overrun flag instead of touching memory, so a decoder that forgot a
 * range check produces wrong values, never a crash. */
#ifndef MDL_READER_H
#define MDL_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct reader {
  const unsigned char *data;
  size_t size;
  size_t pos;  /* cursor for the sequential reads */
  int overrun; /* set by any read outside [0, size) */
};

void reader_init(struct reader *r, const void *data, size_t size);

/* The small reads are inline: decoders call them once per field of every element, and a
 * function call each was a tenth of a binary decode (reports/bench.md). */

/* 1 when [off, off + len) lies inside the buffer; 64-bit arithmetic, no overflow. */
static inline int reader_has(const struct reader *r, uint64_t off, uint64_t len)
{
  return off <= r->size && len <= r->size - off;
}

/* 1 when count * elem bytes from off lie inside the buffer (product checked for overflow). */
int reader_has_array(const struct reader *r, uint64_t off, uint64_t count, uint64_t elem);

/* Pointer to [off, off + len), or NULL when outside. */
static inline const unsigned char *reader_ptr(struct reader *r, uint64_t off, uint64_t len)
{
  if (!reader_has(r, off, len)) {
    r->overrun = 1;
    return NULL;
  }
  return r->data + off;
}

static inline uint64_t reader_load_le_(struct reader *r, uint64_t off, unsigned n)
{
  const unsigned char *p = reader_ptr(r, off, n);
  uint64_t v = 0;
  if (!p)
    return 0;
  for (unsigned i = 0; i < n; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static inline uint8_t reader_u8_at(struct reader *r, uint64_t off)
{
  return (uint8_t)reader_load_le_(r, off, 1);
}
static inline uint16_t reader_u16_at(struct reader *r, uint64_t off)
{
  return (uint16_t)reader_load_le_(r, off, 2);
}
static inline uint32_t reader_u32_at(struct reader *r, uint64_t off)
{
  return (uint32_t)reader_load_le_(r, off, 4);
}
static inline uint64_t reader_u64_at(struct reader *r, uint64_t off)
{
  return reader_load_le_(r, off, 8);
}
static inline int32_t reader_i32_at(struct reader *r, uint64_t off)
{
  uint32_t u = reader_u32_at(r, off);
  int32_t v;
  memcpy(&v, &u, sizeof v);
  return v;
}
static inline float reader_f32_at(struct reader *r, uint64_t off)
{
  uint32_t u = reader_u32_at(r, off);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline double reader_f64_at(struct reader *r, uint64_t off)
{
  uint64_t u = reader_u64_at(r, off);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* Sequential reads at r->pos; the cursor advances even on overrun. */
static inline uint64_t reader_advance_(struct reader *r, unsigned n)
{
  uint64_t at = r->pos;
  r->pos = r->pos > SIZE_MAX - n ? SIZE_MAX : r->pos + n;
  return at;
}
static inline uint8_t reader_u8(struct reader *r) { return reader_u8_at(r, reader_advance_(r, 1)); }
static inline uint16_t reader_u16(struct reader *r) { return reader_u16_at(r, reader_advance_(r, 2)); }
static inline uint32_t reader_u32(struct reader *r) { return reader_u32_at(r, reader_advance_(r, 4)); }
static inline int32_t reader_i32(struct reader *r) { return reader_i32_at(r, reader_advance_(r, 4)); }
static inline float reader_f32(struct reader *r) { return reader_f32_at(r, reader_advance_(r, 4)); }

int reader_skip(struct reader *r, uint64_t len);
size_t reader_remaining(const struct reader *r);

/* Half-precision (IEEE 754 binary16) to float, exactly. */
float half_to_float(uint16_t h);

#endif
