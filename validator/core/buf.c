/* buf.c - growable byte buffer with little-endian writers. */
#include "buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void buf_init(struct byte_buf *b)
{
  memset(b, 0, sizeof *b);
}

void buf_free(struct byte_buf *b)
{
  free(b->data);
  free(b->refs);
  buf_init(b);
}

static int reserve(struct byte_buf *b, size_t n)
{
  size_t cap;
  unsigned char *p;
  if (b->oom)
    return 0;
  if (n <= b->cap - b->size)
    return 1;
  if (n > SIZE_MAX / 2 - b->size) {
    b->oom = 1;
    return 0;
  }
  cap = b->cap ? b->cap : 256;
  while (cap - b->size < n)
    cap *= 2;
  p = realloc(b->data, cap);
  if (!p) {
    b->oom = 1;
    return 0;
  }
  b->data = p;
  b->cap = cap;
  return 1;
}

void buf_put(struct byte_buf *b, const void *p, size_t n)
{
  if (n && reserve(b, n)) {
    memcpy(b->data + b->size, p, n);
    b->size += n;
  }
}

unsigned char *buf_extend(struct byte_buf *b, size_t n)
{
  unsigned char *p;
  if (!reserve(b, n))
    return NULL;
  p = b->data + b->size;
  b->size += n;
  return p;
}

void buf_reserve(struct byte_buf *b, size_t n)
{
  reserve(b, n);
}

void buf_put_ref(struct byte_buf *b, const void *p, size_t n)
{
  struct buf_ref *r;
  if (!b->gather) {
    buf_put(b, p, n);
    return;
  }
  if (!n || !reserve(b, n))
    return;
  if (b->nrefs == b->caprefs) {
    size_t cap = b->caprefs ? 2 * b->caprefs : 16;
    r = realloc(b->refs, cap * sizeof *r);
    if (!r) {
      b->oom = 1;
      return;
    }
    b->refs = r;
    b->caprefs = cap;
  }
  r = &b->refs[b->nrefs++];
  r->at = b->size;
  r->len = n;
  r->p = p;
  b->size += n; /* data's bytes there stay unwritten until buf_flatten */
}

/* Call fn(piece, at, len, ctx) for the buffer's bytes in order, each run of data between the
 * references and each reference, until fn returns non-zero (returned). */
static int pieces_each(const struct byte_buf *b,
                       int (*fn)(const unsigned char *p, size_t at, size_t n, void *ctx), void *ctx)
{
  size_t at = 0;
  int rc;
  for (size_t i = 0; i <= b->nrefs; i++) {
    size_t end = i < b->nrefs ? b->refs[i].at : b->size;
    if (end > at && (rc = fn(b->data + at, at, end - at, ctx)) != 0)
      return rc;
    if (i == b->nrefs)
      break;
    if ((rc = fn(b->refs[i].p, end, b->refs[i].len, ctx)) != 0)
      return rc;
    at = end + b->refs[i].len;
  }
  return 0;
}

static int piece_copy(const unsigned char *p, size_t at, size_t n, void *ctx)
{
  unsigned char *data = ctx;
  if (p != data + at)
    memcpy(data + at, p, n);
  return 0;
}

int buf_flatten(struct byte_buf *b)
{
  if (b->oom)
    return -1;
  pieces_each(b, piece_copy, b->data);
  free(b->refs);
  b->refs = NULL;
  b->nrefs = b->caprefs = 0;
  return 0;
}

/* 1 when the piece differs from the same bytes of ctx (a piece that is those bytes is equal) */
static int piece_differs(const unsigned char *p, size_t at, size_t n, void *ctx)
{
  const unsigned char *q = (const unsigned char *)ctx + at;
  return p != q && memcmp(p, q, n) != 0;
}

int buf_equals(const struct byte_buf *b, const unsigned char *p, size_t n)
{
  return !b->oom && b->size == n && !pieces_each(b, piece_differs, (void *)(uintptr_t)p);
}

/* Write the piece to the file descriptor *ctx, through short writes and interruptions; 0 or an
 * errno value. */
static int piece_write(const unsigned char *p, size_t at, size_t n, void *ctx)
{
  int fd = *(const int *)ctx;
  (void)at;
  while (n) {
    ssize_t k = write(fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
    if (k < 0) {
      if (errno == EINTR)
        continue;
      return errno ? errno : EIO;
    }
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

int buf_write_fd(const struct byte_buf *b, int fd)
{
  return pieces_each(b, piece_write, &fd);
}

void buf_zero(struct byte_buf *b, size_t n)
{
  if (n && reserve(b, n)) {
    memset(b->data + b->size, 0, n);
    b->size += n;
  }
}

static void put_le(struct byte_buf *b, uint64_t v, unsigned n)
{
  unsigned char tmp[8];
  for (unsigned i = 0; i < n; i++)
    tmp[i] = (unsigned char)(v >> (8 * i));
  buf_put(b, tmp, n);
}

void buf_u8(struct byte_buf *b, uint8_t v) { put_le(b, v, 1); }
void buf_u16(struct byte_buf *b, uint16_t v) { put_le(b, v, 2); }
void buf_u32(struct byte_buf *b, uint32_t v) { put_le(b, v, 4); }
void buf_i32(struct byte_buf *b, int32_t v) { put_le(b, (uint32_t)v, 4); }

void buf_f32(struct byte_buf *b, float v)
{
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  put_le(b, u, 4);
}

void buf_f64(struct byte_buf *b, double v)
{
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  put_le(b, u, 8);
}

void buf_patch_u32(struct byte_buf *b, size_t off, uint32_t v)
{
  if (b->oom || off > b->size || b->size - off < 4)
    return;
  for (unsigned i = 0; i < 4; i++)
    b->data[off + i] = (unsigned char)(v >> (8 * i));
}

void buf_align(struct byte_buf *b, size_t alignment)
{
  if (alignment > 1 && b->size % alignment)
    buf_zero(b, alignment - b->size % alignment);
}

void buf_printf(struct byte_buf *b, const char *fmt, ...)
{
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !reserve(b, (size_t)n + 1))
    return;
  va_start(ap, fmt);
  vsnprintf((char *)b->data + b->size, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->size += (size_t)n;
}
