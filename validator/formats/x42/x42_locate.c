/* x42_locate.c - the X42 locator (format.h): byte offsets of bones, animations, tags, LODs and
 * groups in a V5 file, and how far a base pose may be from the pose it stores (the range packs). */
#include <stdlib.h>
#include <string.h>

#include "x42.h"
#include "pose.h"

struct x42_locator_ix {
  int v5; /* a little-endian V5 file whose header was read; else nothing is located */
  struct x42_doc d;
  struct x42_layout lay;
};

static void *x42_locator_open(const unsigned char *data, size_t size)
{
  struct x42_locator_ix *l = calloc(1, sizeof *l);
  struct reader in;
  unsigned char head[X42_FIXED_SIZE];
  if (!l)
    return NULL;
  if (size < X42_FIXED_SIZE)
    return l;
  /* the header, little-endian; the sections located are the ones before the blend data, whose
   * length does not move them */
  if (data[0] == 0x32) /* "24WH": big-endian */
    x42_swap_v5(data, head, X42_FIXED_SIZE, 1);
  else
    memcpy(head, data, X42_FIXED_SIZE);
  reader_init(&in, head, sizeof head);
  if (reader_u32_at(&in, 0) == X42_IDENT && reader_u32_at(&in, 4) == X42_VERSION_V5) {
    x42_header_parse(&in, &l->d);
    x42_layout_compute(&l->d, 0, &l->lay);
    l->v5 = 1;
  }
  return l;
}

static void x42_locator_close(void *p)
{
  free(p);
}

static void x42_locator_where(const void *p, enum format_elem e, uint32_t n, uint32_t sub,
                              struct format_where *w)
{
  const struct x42_locator_ix *l = p;
  (void)sub;
  if (!l->v5)
    return;
  /* a base pose is bone n's first six keys (x42.md 5.1) */
  if (e == FMT_EL_JOINT && n < l->d.num_bones)
    w->offset = (long long)(l->lay.off[XS_BONES] + 12u * (uint64_t)n);
  else if (e == FMT_EL_BASEPOSE && 6u * (uint64_t)n < l->d.key_len)
    w->offset = (long long)(l->lay.off[XS_KEYS] + 48u * (uint64_t)n);
  else if (e == FMT_EL_ANIM && n < l->d.num_anims)
    w->offset = (long long)(l->lay.off[XS_ANIMS] + 12u * (uint64_t)n);
  else if (e == FMT_EL_MESH && n < l->d.num_groups)
    w->offset = (long long)(l->lay.off[XS_GROUPS] + 148u * (uint64_t)n);
  else if (e == FMT_EL_TAG && n < l->d.num_tags)
    w->offset = (long long)(l->lay.off[XS_TAGS] + 52u * (uint64_t)n);
  else if (e == FMT_EL_LOD && n < l->d.num_lods)
    w->offset = (long long)(l->lay.off[XS_LODS] + 6u * (uint64_t)n);
}

/* A base pose is range-packed and S16N like every frame (X42 has no separate bind pose): the
 * same bounds as the frames' channels (x42_model.c). */
static int x42_locator_resolution(const void *p, enum format_elem e, uint32_t n, uint32_t sub,
                                  double res[10])
{
  const struct x42_locator_ix *l = p;
  (void)n;
  (void)sub;
  if (!l->v5 || e != FMT_EL_BASEPOSE)
    return -1;
  for (int a = 0; a < 3; a++) {
    res[a] = x42_range_bound(l->d.anim_pos_pack[a][0], l->d.anim_pos_pack[a][1]);
    res[7 + a] = x42_range_bound(l->d.anim_scale_pack[0], l->d.anim_scale_pack[1]);
  }
  for (int a = 3; a < 7; a++)
    res[a] = quant_bound(0, 3.0 / 32767.0);
  return 0;
}

const struct format_locator x42_locator = {x42_locator_open, x42_locator_close, x42_locator_where,
                                           x42_locator_resolution};
