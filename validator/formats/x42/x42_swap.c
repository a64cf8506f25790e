/* x42_swap.c - a V5 file in the other byte order, field by field as tr_x42.h declares them: the
 * engine swaps a big-endian file (ident "24WH") on load, and so does mdlcheck before checking it
 * as the little-endian file the engine sees. */
#include <string.h>

#include "x42.h"

static void swap16(unsigned char *p)
{
  unsigned char t = p[0];
  p[0] = p[1];
  p[1] = t;
}

static void swap32(unsigned char *p)
{
  unsigned char t = p[0];
  p[0] = p[3];
  p[3] = t;
  t = p[1];
  p[1] = p[2];
  p[2] = t;
}

/* Records of size rec at off, n of them (those wholly inside the file): the first n16 fields
 * are 16-bit, the next n32 are 32-bit (every V5 record is laid out so). */
static void swap_records(unsigned char *b, size_t size, uint64_t off, uint64_t n, unsigned rec,
                         unsigned n16, unsigned n32)
{
  for (uint64_t i = 0; i < n && off + (i + 1) * rec <= size; i++) {
    unsigned char *p = b + off + i * rec;
    for (unsigned k = 0; k < n16; k++)
      swap16(p + 2 * k);
    for (unsigned k = 0; k < n32; k++)
      swap32(p + 2 * n16 + 4 * k);
  }
}

/* One section of 16-bit values. */
static void swap_u16s(unsigned char *b, size_t size, const struct x42_layout *lay, int s)
{
  swap_records(b, size, lay->off[s], lay->size[s] / 2, 2, 1, 0);
}

void x42_swap_v5(const unsigned char *in, unsigned char *out, size_t size, int from_big)
{
  const unsigned char *le = from_big ? out : in; /* where the little-endian counts are read */
  struct reader r;
  struct x42_doc d;
  struct x42_layout lay;
  memcpy(out, in, size);
  if (size < X42_FIXED_SIZE)
    return;
  /* ident and version, the header's sixteen u16 (pad included) and its u32 and f32 fields up
   * to the end of the pack header */
  swap_records(out, size, 0, 1, 8, 0, 2);
  swap_records(out, size, X42_OFF_FLAGS, 1, 32, 16, 0);
  swap_records(out, size, X42_OFF_NUM_VERTS, 1, X42_FIXED_SIZE - X42_OFF_NUM_VERTS, 0,
               (X42_FIXED_SIZE - X42_OFF_NUM_VERTS) / 4);
  memset(&d, 0, sizeof d);
  reader_init(&r, le, size);
  x42_header_parse(&r, &d);
  /* the groups come before the blend data whose length they give */
  x42_layout_compute(&d, 0, &lay);
  swap_records(out, size, lay.off[XS_GROUPS], d.num_groups, 148, 66, 4);
  x42_layout_compute(&d, x42_blend_len_at(&r, &d), &lay);
  swap_records(out, size, lay.off[XS_BONES], d.num_bones, 12, 4, 1);
  swap_records(out, size, lay.off[XS_TAGS], d.num_tags, 52, 2, 12);
  swap_records(out, size, lay.off[XS_INFLUENCES], d.num_infl, 52, 2, 12);
  swap_u16s(out, size, &lay, XS_ANIM_GROUPS);
  swap_u16s(out, size, &lay, XS_POS_VALUES);
  swap_u16s(out, size, &lay, XS_SCALE_VALUES);
  swap_u16s(out, size, &lay, XS_ROT_VALUES);
  swap_u16s(out, size, &lay, XS_KEYS);
  swap_u16s(out, size, &lay, XS_ANIMS);
  swap_u16s(out, size, &lay, XS_LODS);
  swap_u16s(out, size, &lay, XS_VERT_POS);
  swap_u16s(out, size, &lay, XS_TEXCOORDS);
  swap_u16s(out, size, &lay, XS_INDICES);
  /* blend data, normals, tangents, colours and names are bytes */
}
