/* egg_pz.c - .egg.pz: a zlib stream around the text (Panda3D decompresses it transparently).
 * The output is bounded by --max-input-size so a small hostile stream cannot expand without
 * limit. A build without zlib (MDL_NO_ZLIB) inflates with stb_image's decoder (input_inflate). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef MDL_NO_ZLIB
#include <zlib.h>
#endif

#include "egg.h"
#include "input.h"

#ifndef MDL_NO_ZLIB
/* zlib allocates through these rather than its own defaults so that every allocation of a
 * decode goes through the same malloc (the allocation-failure tests count them). */
static voidpf pz_alloc(voidpf opaque, uInt items, uInt size)
{
  (void)opaque;
  return calloc(items, size);
}

static void pz_free(voidpf opaque, voidpf p)
{
  (void)opaque;
  free(p);
}
#endif

int egg_pz_is_zlib(const unsigned char *data, size_t size)
{
  if (size < 2)
    return 0;
  if (data[0] == 0x1f && data[1] == 0x8b)
    return 1; /* gzip wrapper, also read by Panda3D's .gz handling */
  return (data[0] & 0x0f) == 8 && (data[0] >> 4) <= 7 && ((data[0] << 8) | data[1]) % 31 == 0;
}

#ifdef MDL_NO_ZLIB
int egg_pz_deflate(const unsigned char *text, size_t size, struct byte_buf *out)
{
  (void)text;
  (void)size;
  snprintf(out->error, sizeof out->error, "%s", "this build of mdlcheck has no zlib: it cannot write .egg.pz");
  return -1;
}
#else
int egg_pz_deflate(const unsigned char *text, size_t size, struct byte_buf *out)
{
  /* zlib's own wrapper (RFC 1950), the container Panda3D's pzip writes and its .pz reader expects */
  uLong bound = compressBound((uLong)size);
  uLongf got = bound;
  size_t at = out->size;
  if ((uLong)size != size || bound < size) {
    snprintf(out->error, sizeof out->error, "%s", "the egg text is too large to compress");
    return -1;
  }
  buf_zero(out, (size_t)bound);
  if (out->oom)
    return -1;
  if (compress2(out->data + at, &got, text, (uLong)size, Z_BEST_COMPRESSION) != Z_OK) {
    snprintf(out->error, sizeof out->error, "%s", "zlib could not compress the egg text");
    return -1;
  }
  out->size = at + (size_t)got;
  return 0;
}
#endif

/* An I/O limit, not a defect of the stream: a core rule, never re-graded by a profile. */
static void pz_too_large(struct egg_doc *doc, unsigned long long limit)
{
  struct mdl_loc loc = loc_none();
  char lim[32];
  snprintf(lim, sizeof lim, "%llu", limit);
  diag_emit(doc->ctx->diag, RULE_CORE_INPUT_TOO_LARGE, &loc, lim, "%s",
            "the text this .egg.pz decompresses to");
  doc->ctx->input_too_large = 1;
}

/* What follows the end of the stream, at byte end: Panda3D never reads it. */
static void pz_trailing(struct egg_doc *doc, const unsigned char *data, size_t size, size_t end)
{
  size_t rest = size - end;
  egg_emit(doc, RULE_EGG_PZ_TRAILING_DATA, 0, 0, NULL, "%zu byte%s at compressed byte %lu (%s)", rest,
           rest == 1 ? "" : "s", (unsigned long)end,
           egg_pz_is_zlib(data + end, rest) ? "a second compressed stream" : "not compressed data");
}

#ifndef MDL_NO_ZLIB
/* The inflated text (len bytes in a buffer of cap), within the limit, becomes the document's,
 * with a zero after it. It is not copied: a copy into the arena held two texts at once, so an
 * .egg.pz cost twice its inflated text more than the same .egg (3.3 x the text added, where
 * the .egg's pages go back behind the parser: 1.3 x). Shrinking a large buffer moves its pages
 * (mremap), it does not copy them. On failure the buffer is freed. */
static const unsigned char *pz_keep(struct egg_doc *doc, unsigned char *text, size_t len, size_t cap,
                                    unsigned long long limit, size_t *out_size)
{
  unsigned char *fit;
  if (len > limit) {
    free(text);
    pz_too_large(doc, limit);
    return NULL;
  }
  fit = len + 1 == cap ? text : realloc(text, len + 1);
  if (!fit || arena_own(doc->arena, fit) < 0) {
    free(fit ? fit : text);
    diag_out_of_memory(doc->ctx->diag, "decompressing .pz");
    return NULL;
  }
  fit[len] = 0;
  *out_size = len;
  return fit;
}
#endif

#ifdef MDL_NO_ZLIB
/* Without zlib: the library's own inflater over stb_image's (core/inflate.c). */
const unsigned char *egg_pz_inflate(struct egg_doc *doc, const unsigned char *data, size_t size,
                                    size_t *out_size)
{
  unsigned long long limit = input_limit(doc->ctx->options);
  size_t stop = limit < SIZE_MAX ? (size_t)limit + 1 : SIZE_MAX;
  unsigned char *text;
  size_t len, consumed = size;
  const char *why = NULL;
  int rc = input_inflate(data, size, stop, &text, &len, &consumed, &why);
  if (rc == -2) {
    diag_out_of_memory(doc->ctx->diag, "decompressing .pz");
    return NULL;
  }
  if (rc == -3) {
    pz_too_large(doc, limit);
    return NULL;
  }
  if (rc < 0) {
    egg_emit(doc, RULE_EGG_ZLIB, 0, 0, NULL, "%s", why ? why : "the stream did not inflate");
    return NULL;
  }
  if (consumed < size)
    pz_trailing(doc, data, size, consumed);
  if (len > limit) {
    free(text);
    pz_too_large(doc, limit);
    return NULL;
  }
  /* the inflated buffer (a zero after the text) becomes the document's: a copy would be a second
   * text in a linear memory that never shrinks */
  if (arena_own(doc->arena, text) < 0) {
    free(text);
    diag_out_of_memory(doc->ctx->diag, "decompressing .pz");
    return NULL;
  }
  *out_size = len;
  return text;
}
#else
const unsigned char *egg_pz_inflate(struct egg_doc *doc, const unsigned char *data, size_t size,
                                    size_t *out_size)
{
  z_stream zs;
  unsigned char *out = NULL;
  unsigned long long limit = input_limit(doc->ctx->options);
  /* room for one byte past the limit: text of exactly `limit` bytes is accepted */
  size_t stop = limit < SIZE_MAX ? (size_t)limit + 1 : SIZE_MAX;
  size_t cap = stop > 4096 && size < (stop - 4096) / 4 ? size * 4 + 4096 : stop, used = 0;
  int rc;

  memset(&zs, 0, sizeof zs);
  zs.zalloc = pz_alloc;
  zs.zfree = pz_free;
  rc = inflateInit2(&zs, 15 + 32); /* +32: zlib or gzip header */
  if (rc != Z_OK) {
    if (rc == Z_MEM_ERROR)
      diag_out_of_memory(doc->ctx->diag, "decompressing .pz");
    else
      egg_emit(doc, RULE_EGG_ZLIB, 0, 0, NULL, "%s", "cannot initialise zlib");
    return NULL;
  }
  zs.next_in = (unsigned char *)(uintptr_t)data;
  zs.avail_in = size > 0xffffffffu ? 0xffffffffu : (uInt)size;
  for (;;) {
    if (used == cap || !out) {
      unsigned char *grown;
      size_t ncap = !out ? cap : cap > stop / 2 ? stop : cap * 2;
      if (out && cap >= stop) {
        inflateEnd(&zs);
        free(out);
        pz_too_large(doc, limit);
        return NULL;
      }
      grown = realloc(out, ncap);
      if (!grown) {
        inflateEnd(&zs);
        free(out);
        diag_out_of_memory(doc->ctx->diag, "decompressing .pz");
        return NULL;
      }
      out = grown;
      cap = ncap;
    }
    zs.next_out = out + used;
    zs.avail_out = (uInt)(cap - used > 0xffffffffu ? 0xffffffffu : cap - used);
    rc = inflate(&zs, Z_NO_FLUSH);
    used = (size_t)(zs.next_out - out);
    if (rc == Z_STREAM_END)
      break;
    if (rc == Z_MEM_ERROR) {
      inflateEnd(&zs);
      free(out);
      diag_out_of_memory(doc->ctx->diag, "decompressing .pz");
      return NULL;
    }
    if (rc != Z_OK && !(rc == Z_BUF_ERROR && zs.avail_out == 0)) {
      inflateEnd(&zs);
      free(out);
      egg_emit(doc, RULE_EGG_ZLIB, 0, 0, NULL, "%s at compressed byte %lu",
               zs.msg ? zs.msg : (rc == Z_BUF_ERROR ? "truncated stream" : "corrupt stream"),
               (unsigned long)zs.total_in);
      return NULL;
    }
  }
  if (zs.avail_in > 0 || (size_t)zs.total_in < size)
    pz_trailing(doc, data, size, (size_t)zs.total_in);
  inflateEnd(&zs);
  return pz_keep(doc, out, used, cap, limit, out_size);
}
#endif
