/* image_info.c - image headers by content: stb_image's header parsers (PNG, JPEG, TGA, BMP, GIF,
 * PSD, HDR, PNM, PIC), and by hand those it lacks that game textures use: DDS (Microsoft's
 * DDS_HEADER), SGI (Panda3D's .rgb), TIFF and OpenEXR (Panda3D reads both). Only headers are
 * read; no pixel is decoded. */
#include "image_info.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include <stb_image.h>

static uint32_t le32(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned be16(const unsigned char *p)
{
  return (unsigned)p[0] << 8 | p[1];
}

/* DDS_HEADER: "DDS ", dwSize 124 at 4, height 12, width 16, DDS_PIXELFORMAT (dwSize 32) at 76
 * with flags 80, FourCC 84, RGB bit count 88. */
static int dds_read(const unsigned char *d, size_t n, struct image_info *out)
{
  uint32_t pf;
  if (n < 128 || memcmp(d, "DDS ", 4) || le32(d + 4) != 124 || le32(d + 76) != 32)
    return -1;
  out->kind = "dds";
  out->height = le32(d + 12);
  out->width = le32(d + 16);
  pf = le32(d + 80);
  if (pf & 0x4u)          /* DDPF_FOURCC: block-compressed, channels not in the header */
    out->channels = 0;
  else if (pf & 0x40u)    /* DDPF_RGB (+ DDPF_ALPHAPIXELS) */
    out->channels = pf & 0x1u ? 4 : 3;
  else if (pf & 0x20000u) /* DDPF_LUMINANCE */
    out->channels = pf & 0x1u ? 2 : 1;
  else if (pf & 0x2u)     /* DDPF_ALPHA */
    out->channels = 1;
  else
    out->channels = 0;
  return out->width && out->height ? 0 : -1;
}

/* SGI image header: magic 474, storage 0/1, bytes per channel 1/2, dimension 1-3, then x, y and
 * z sizes, all big-endian. */
static int sgi_read(const unsigned char *d, size_t n, struct image_info *out)
{
  unsigned dim;
  if (n < 12 || be16(d) != 474 || d[2] > 1 || d[3] < 1 || d[3] > 2)
    return -1;
  dim = be16(d + 4);
  if (dim < 1 || dim > 3)
    return -1;
  out->kind = "sgi";
  out->width = be16(d + 6);
  out->height = dim >= 2 ? be16(d + 8) : 1;
  out->channels = dim == 3 ? be16(d + 10) : 1;
  return out->width && out->height && out->channels ? 0 : -1;
}

/* TIFF 6.0: "II*\0" or "MM\0*", the first IFD's offset at 4; in it 12-byte entries (tag, type,
 * count, value) with ImageWidth 256, ImageLength 257, SamplesPerPixel 277 (default 1), each a
 * SHORT (3) or LONG (4). Everything is bounded by the n bytes at hand. */
static uint32_t tiff_u(const unsigned char *p, unsigned bytes, int be)
{
  uint32_t v = 0;
  for (unsigned i = 0; i < bytes; i++)
    v |= (uint32_t)p[be ? bytes - 1 - i : i] << (8 * i);
  return v;
}

static int tiff_read(const unsigned char *d, size_t n, struct image_info *out)
{
  int be;
  uint32_t ifd, count;
  if (n < 8 || !((!memcmp(d, "II*\0", 4) && !(be = 0)) || (!memcmp(d, "MM\0*", 4) && (be = 1))))
    return -1;
  ifd = tiff_u(d + 4, 4, be);
  if (ifd < 8 || (size_t)ifd + 2 > n)
    return -1;
  count = tiff_u(d + ifd, 2, be);
  out->kind = "tiff";
  out->channels = 1;
  for (uint32_t i = 0; i < count && (size_t)ifd + 2 + 12 * (i + 1) <= n; i++) {
    const unsigned char *e = d + ifd + 2 + 12 * i;
    unsigned tag = tiff_u(e, 2, be), type = tiff_u(e + 2, 2, be);
    uint32_t v;
    if (type != 3 && type != 4)
      continue;
    v = tiff_u(e + 8, type == 3 ? 2 : 4, be);
    if (tag == 256)
      out->width = v;
    else if (tag == 257)
      out->height = v;
    else if (tag == 277)
      out->channels = v;
  }
  return out->width && out->height && out->channels ? 0 : -1;
}

/* OpenEXR: magic 76 2f 31 01, a version word, then attributes (name NUL, type NUL, int32 size,
 * value) up to an empty name; dataWindow (box2i xMin yMin xMax yMax) gives the size, channels
 * (chlist: name NUL + 16 bytes each, up to an empty name) the channel count. Single-part
 * scan-line or tiled files; multi-part ones list the same attributes in their first header. */
static int exr_read(const unsigned char *d, size_t n, struct image_info *out)
{
  size_t p = 8;
  int have_window = 0;
  if (n < 8 || memcmp(d, "\x76\x2f\x31\x01", 4))
    return -1;
  out->kind = "exr";
  while (p < n && d[p]) {
    const unsigned char *name = d + p, *type, *end = d + n;
    const unsigned char *z = memchr(name, 0, (size_t)(end - name));
    uint32_t size;
    if (!z || (type = z + 1) >= end || !(z = memchr(type, 0, (size_t)(end - type))) ||
        (size_t)(end - z) < 5)
      return -1;
    size = le32(z + 1);
    if (size > (size_t)(end - z) - 5)
      return -1;
    if (!strcmp((const char *)name, "dataWindow") && !strcmp((const char *)type, "box2i") && size == 16) {
      int32_t x0 = (int32_t)le32(z + 5), y0 = (int32_t)le32(z + 9);
      int32_t x1 = (int32_t)le32(z + 13), y1 = (int32_t)le32(z + 17);
      if (x1 < x0 || y1 < y0)
        return -1;
      out->width = (unsigned)((int64_t)x1 - x0 + 1);
      out->height = (unsigned)((int64_t)y1 - y0 + 1);
      have_window = 1;
    } else if (!strcmp((const char *)name, "channels") && !strcmp((const char *)type, "chlist")) {
      const unsigned char *c = z + 5, *ce = z + 5 + size;
      out->channels = 0;
      while (c < ce && *c) {
        const unsigned char *cz = memchr(c, 0, (size_t)(ce - c));
        if (!cz || (size_t)(ce - cz) < 17)
          return -1;
        out->channels++;
        c = cz + 17;
      }
    }
    p = (size_t)(z + 5 - d) + size;
  }
  return have_window && out->width && out->height ? 0 : -1;
}

static const char *stb_kind(const unsigned char *d, size_t n)
{
  if (n >= 8 && !memcmp(d, "\x89PNG\r\n\x1a\n", 8))
    return "png";
  if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF)
    return "jpeg";
  if (n >= 2 && d[0] == 'B' && d[1] == 'M')
    return "bmp";
  if (n >= 4 && !memcmp(d, "GIF8", 4))
    return "gif";
  if (n >= 4 && !memcmp(d, "8BPS", 4))
    return "psd";
  if (n >= 2 && d[0] == '#' && d[1] == '?')
    return "hdr";
  if (n >= 2 && d[0] == 'P' && (d[1] == '5' || d[1] == '6'))
    return "pnm";
  if (n >= 4 && be16(d) == 0x5380 && d[2] == 0xF6 && d[3] == 0x34)
    return "pic";
  return "tga"; /* the one format stb_image recognises without a signature */
}

int image_info_read(const unsigned char *data, size_t size, struct image_info *out)
{
  int x = 0, y = 0, comp = 0;
  memset(out, 0, sizeof *out);
  if (dds_read(data, size, out) == 0)
    return 0;
  memset(out, 0, sizeof *out);
  if (sgi_read(data, size, out) == 0)
    return 0;
  memset(out, 0, sizeof *out);
  if (tiff_read(data, size, out) == 0)
    return 0;
  memset(out, 0, sizeof *out);
  if (exr_read(data, size, out) == 0)
    return 0;
  memset(out, 0, sizeof *out);
  if (size > INT_MAX || !stbi_info_from_memory(data, (int)size, &x, &y, &comp) || x <= 0 || y <= 0)
    return -1;
  out->kind = stb_kind(data, size);
  out->width = (unsigned)x;
  out->height = (unsigned)y;
  out->channels = comp > 0 ? (unsigned)comp : 0;
  return 0;
}

int image_file_named(const char *s)
{
  static const char *const ext[] = {".png", ".jpg", ".jpeg", ".tga", ".dds", ".bmp", ".rgb",
    ".rgba", ".sgi", ".gif", ".psd", ".hdr", ".pnm", ".ppm", ".pgm", ".tif", ".tiff", ".exr",
    ".ktx", ".webp", NULL};
  size_t n = strlen(s);
  for (const char *const *e = ext; *e; e++) {
    size_t k = strlen(*e);
    if (n > k && !strcasecmp(s + n - k, *e))
      return 1;
  }
  return 0;
}
