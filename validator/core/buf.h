/* buf.h - a growable byte buffer for writers and reports. */
#ifndef MDL_BUF_H
#define MDL_BUF_H

#include <stddef.h>
#include <stdint.h>

/* A run of the buffer's bytes held by reference (gather mode): they are at p, not in data. */
struct buf_ref {
  size_t at, len;
  const unsigned char *p;
};

struct byte_buf {
  unsigned char *data;
  size_t size, cap;
  int oom;            /* an allocation failed; contents are incomplete */
  char error[160];    /* why a writer failed */
  /* Gather mode (the caller sets gather before writing): buf_put_ref records where large
   * runs are instead of copying them, and data leaves their place unwritten (reserved, never
   * touched, so never paged in). data is then whole only after buf_flatten; until then the
   * bytes are data with refs[] laid over it (buf_write_fd, buf_equals). */
  int gather;
  struct buf_ref *refs;
  size_t nrefs, caprefs;
};

void buf_init(struct byte_buf *b);
void buf_free(struct byte_buf *b);
void buf_put(struct byte_buf *b, const void *p, size_t n);
/* buf_put, but in gather mode keep a reference to p: its n bytes must then stay valid and
 * unchanged until the buffer is flattened or freed. */
void buf_put_ref(struct byte_buf *b, const void *p, size_t n);
/* Append n bytes the caller fills through the pointer returned (NULL when out of memory). */
unsigned char *buf_extend(struct byte_buf *b, size_t n);
/* Make room for n more bytes at once (a writer that knows its size avoids regrowing). */
void buf_reserve(struct byte_buf *b, size_t n);
/* Copy the referenced runs into data: data then holds every byte; 0, or -1 (oom set). */
int buf_flatten(struct byte_buf *b);
/* 1 when the buffer's bytes are the n bytes at p (a referenced run that is p's own memory at
 * its offset is equal without being read). */
int buf_equals(const struct byte_buf *b, const unsigned char *p, size_t n);
/* Write the buffer's bytes to fd: 0, or an errno value. */
int buf_write_fd(const struct byte_buf *b, int fd);
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
