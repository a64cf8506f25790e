/* inflate.c - a zlib or gzip stream inflated by stb_image's bounded decoder, for a build without
 * zlib (the WebAssembly one): .egg.pz and the page's source text go through the library, not
 * through an inflater of the host. stb decodes into a buffer it may not grow past, so a small
 * hostile stream stops at the caller's bound; it says neither where the stream ended nor whether
 * its checksum held, so both are found here from the trailer the stream ends with. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "input.h"

#define INPUT_CONSUMED_UNKNOWN ((size_t)-1)

static uint32_t adler32(const unsigned char *p, size_t n)
{
  uint32_t a = 1, b = 0;
  while (n) {
    size_t k = n < 3800 ? n : 3800; /* no overflow of 32 bits before the modulo */
    n -= k;
    while (k--) {
      a += *p++;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return (b << 16) | a;
}

/* CRC-32 (gzip's), bitwise: no table, so no static state and nothing to build */
static uint32_t crc32_of(const unsigned char *p, size_t n)
{
  uint32_t c = 0xffffffffu;
  while (n--) {
    c ^= *p++;
    for (int k = 0; k < 8; k++)
      c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xffffffffu;
}

static uint32_t be32(const unsigned char *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le32(const unsigned char *p)
{
  return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* Where a gzip member's deflate data starts (RFC 1952 2.3: the fixed 10 bytes, then FEXTRA,
 * FNAME, FCOMMENT, FHCRC as FLG says), or 0 when the header is cut short or not gzip's. */
static size_t gzip_body(const unsigned char *d, size_t n)
{
  size_t at = 10;
  unsigned flg;
  if (n < 10 || d[0] != 0x1f || d[1] != 0x8b || d[2] != 8)
    return 0;
  flg = d[3];
  if (flg & 0xe0)
    return 0; /* reserved bits: "must give an error" */
  if (flg & 4) { /* FEXTRA */
    if (n - at < 2)
      return 0;
    at += 2 + (size_t)(d[at] | d[at + 1] << 8);
  }
  for (unsigned bit = 8; bit <= 16; bit <<= 1) { /* FNAME, FCOMMENT: zero-terminated */
    if (!(flg & bit))
      continue;
    while (at < n && d[at])
      at++;
    at++;
  }
  if (flg & 2) /* FHCRC */
    at += 2;
  return at < n ? at : 0;
}

/* Where the stream of data..size whose text is text..len ends, by its trailer: a zlib stream's
 * Adler-32 (big-endian), a gzip member's CRC-32 and length (little-endian); searched from the
 * end for zlib (trailing bytes are few; 32 bits to match), from the start for gzip.
 * INPUT_CONSUMED_UNKNOWN when no
 * trailer matches: the checksum does not hold, or the end cannot be told. */
static size_t stream_end(const unsigned char *d, size_t n, int gzip, size_t body,
                         const unsigned char *text, const size_t *len)
{
  if (!gzip) {
    uint32_t sum = adler32(text, *len);
    for (size_t p = n >= 4 ? n - 4 : 0; n >= 4 && p >= body; p--)
      if (be32(d + p) == sum)
        return p + 4;
    return INPUT_CONSUMED_UNKNOWN;
  }
  {
    /* forward: stb inflates the first member only, and a second one of the same text ends
     * with the same trailer (64 bits to match: no false end in practice) */
    uint32_t sum = crc32_of(text, *len), size = (uint32_t)*len;
    for (size_t p = body; p + 8 <= n; p++)
      if (le32(d + p) == sum && le32(d + p + 4) == size)
        return p + 8;
  }
  return INPUT_CONSUMED_UNKNOWN;
}

int input_inflate(const unsigned char *data, size_t size, size_t stop, unsigned char **text,
                  size_t *len, size_t *consumed, const char **why)
{
  int gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  size_t body = gzip ? gzip_body(data, size) : 2;
  size_t limit = stop < (size_t)INT_MAX ? stop : (size_t)INT_MAX;
  size_t cap = limit > 4096 && size < (limit - 4096) / 4 ? size * 4 + 4096 : limit;
  unsigned char *out = NULL;
  int got, full;

  *text = NULL;
  *len = 0;
  *consumed = size;
  if (gzip && !body) {
    *why = "the stream does not inflate (a gzip header that is cut short or not gzip's)";
    return -1;
  }
  if (size > (size_t)INT_MAX) {
    *why = "the stream does not inflate (over 2 GiB of compressed bytes)";
    return -1;
  }
  /* stb fails when the text outgrows its buffer without saying so apart from other failures:
   * a failure with a full buffer is tried again with a larger one, up to the bound */
  for (;;) {
    /* a fresh buffer each time, not a realloc: the failed attempt's bytes are of no use, and
     * copying them touches old and new (a linear memory keeps both: no mremap in WebAssembly) */
    free(out);
    out = malloc(cap ? cap : 1);
    if (!out) {
      *why = NULL;
      return -2; /* out of memory */
    }
    got = gzip ? stbi_zlib_decode_noheader_buffer((char *)out, (int)cap, (const char *)data + body,
                                                   (int)(size - body))
               : stbi_zlib_decode_buffer((char *)out, (int)cap, (const char *)data, (int)size);
    /* only a text that outgrew the buffer is tried again; stb's reason is per thread */
    if (got >= 0 || cap >= limit || strcmp(stbi_failure_reason(), "output buffer limit") != 0)
      break;
    cap = cap > limit / 2 ? limit : cap * 2;
  }
  full = got < 0 && cap >= limit && strcmp(stbi_failure_reason(), "output buffer limit") == 0;
  if (full && stop > (size_t)INT_MAX) {
    free(out);
    *why = "the stream does not inflate within 2 GiB, this build's largest text";
    return -1;
  }
  if (full) {
    /* stb leaves the copy that crossed the bound unwritten: no text, only that it is longer */
    free(out);
    return -3;
  }
  if (got < 0) {
    free(out);
    *why = "the stream does not inflate (a corrupt or truncated stream)";
    return -1;
  }
  /* what is past the text given back (in place), and a terminating zero after it: a caller
   * keeps this buffer as its text (egg_pz.c), not a copy */
  if ((size_t)got + 1 != cap) {
    unsigned char *fit = realloc(out, (size_t)got + 1);
    if (!fit) {
      free(out);
      *why = NULL;
      return -2;
    }
    out = fit;
  }
  out[got] = 0;
  *text = out;
  *len = (size_t)got;
  *consumed = stream_end(data, size, gzip, body, out, len);
  if (*consumed == INPUT_CONSUMED_UNKNOWN) {
    free(out);
    *text = NULL;
    *len = 0;
    *why = gzip ? "the stream does not inflate (its CRC-32 or length does not match the text)"
                : "the stream does not inflate (its Adler-32 does not match the text)";
    return -1;
  }
  return 0;
}
