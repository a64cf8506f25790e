/* buf.h - a growable byte buffer for writers and reports. */
#ifndef MDL_BUF_H
#define MDL_BUF_H

#include <stddef.h>
#include <stdint.h>

struct byte_buf {
  unsigned char *data;
  size_t size, cap;
  int oom;            /* an allocation failed; contents are incomplete */
  char error[160];    /* why a writer failed */
};

void buf_init(struct byte_buf *b);
void buf_free(struct byte_buf *b);
void buf_put(struct byte_buf *b, const void *p, size_t n);
void buf_zero(struct byte_buf *b, size_t n);
void buf_u8(struct byte_buf *b, uint8_t v);
void buf_u16(struct byte_buf *b, uint16_t v);
void buf_u32(struct byte_buf *b, uint32_t v);
void buf_i32(struct byte_buf *b, int32_t v);
void buf_f32(struct byte_buf *b, float v);
void buf_f64(struct byte_buf *b, double v);
/* Overwrite a u32 already written at off. */
void buf_patch_u32(struct byte_buf *b, size_t off, uint32_t v);
void buf_align(struct byte_buf *b, size_t alignment);
void buf_printf(struct byte_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
