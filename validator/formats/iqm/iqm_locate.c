/* iqm_locate.c - the IQM locator (format.h): byte offsets of joints, animations, meshes, base
 * poses and frames, read from the header's section offsets. */
#include <stdlib.h>

#include "iqm.h"

struct iqm_locator_ix {
  struct reader r;
};

static void *iqm_locator_open(const unsigned char *data, size_t size)
{
  struct iqm_locator_ix *l = malloc(sizeof *l);
  if (l)
    reader_init(&l->r, data, size);
  return l;
}

static void iqm_locator_close(void *p)
{
  free(p);
}

static void iqm_locator_where(const void *p, enum format_elem e, uint32_t n, uint32_t sub,
                              struct format_where *w)
{
  /* header fields: ofs_joints, ofs_anims, ofs_meshes, ofs_joints (+8: the pose in the record) */
  static const uint32_t ofs_field[4] = {72, 88, 40, 72}, rec[4] = {48, 20, 24, 48};
  struct reader r = ((const struct iqm_locator_ix *)p)->r;
  uint64_t off;
  (void)sub;
  if (e == FMT_EL_FRAME) {
    off = reader_u32_at(&r, 100);
    if (off)
      w->offset = (long long)(off + (uint64_t)n * reader_u32_at(&r, 96) * 2);
    return;
  }
  if (e >= FMT_EL_NONE)
    return;
  off = reader_u32_at(&r, ofs_field[e]);
  if (off)
    w->offset = (long long)(off + (uint64_t)n * rec[e] + (e == FMT_EL_BASEPOSE ? 8 : 0));
}

const struct format_locator iqm_locator = {iqm_locator_open, iqm_locator_close, iqm_locator_where,
                                           NULL};
