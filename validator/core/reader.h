/* reader.h - bounded little-endian reads over an input buffer.
 *
 * Every read of input bytes goes through these functions. A read outside the buffer returns 0
 * and sets the reader's overrun flag instead of touching memory, so a decoder that forgot a
 * range check produces wrong values, never a crash. */
#ifndef MDL_READER_H
#define MDL_READER_H

#include <stddef.h>
#include <stdint.h>

struct reader {
  const unsigned char *data;
  size_t size;
  size_t pos;  /* cursor for the sequential reads */
  int overrun; /* set by any read outside [0, size) */
};

void reader_init(struct reader *r, const void *data, size_t size);

/* 1 when [off, off + len) lies inside the buffer; 64-bit arithmetic, no overflow. */
int reader_has(const struct reader *r, uint64_t off, uint64_t len);
/* 1 when count * elem bytes from off lie inside the buffer (product checked for overflow). */
int reader_has_array(const struct reader *r, uint64_t off, uint64_t count, uint64_t elem);
/* Pointer to [off, off + len), or NULL when outside. */
const unsigned char *reader_ptr(struct reader *r, uint64_t off, uint64_t len);

uint8_t reader_u8_at(struct reader *r, uint64_t off);
uint16_t reader_u16_at(struct reader *r, uint64_t off);
uint32_t reader_u32_at(struct reader *r, uint64_t off);
int32_t reader_i32_at(struct reader *r, uint64_t off);
uint64_t reader_u64_at(struct reader *r, uint64_t off);
float reader_f32_at(struct reader *r, uint64_t off);
double reader_f64_at(struct reader *r, uint64_t off);

/* Sequential reads at r->pos; the cursor advances even on overrun. */
uint8_t reader_u8(struct reader *r);
uint16_t reader_u16(struct reader *r);
uint32_t reader_u32(struct reader *r);
int32_t reader_i32(struct reader *r);
float reader_f32(struct reader *r);
int reader_skip(struct reader *r, uint64_t len);
size_t reader_remaining(const struct reader *r);

/* Half-precision (IEEE 754 binary16) to float, exactly. */
float half_to_float(uint16_t h);

#endif
