/* iqe_locate.c - the IQE locator (format.h): lines of joints, animations, meshes and poses,
 * and the printed precision of a pose line, over the line index of iqe_write.c. */
#include <stdlib.h>

#include "iqe.h"

struct iqe_locator_ix {
  struct iqe_index ix;
  const unsigned char *data;
  size_t size;
};

static const enum iqe_elem iqe_kind[FMT_EL_NONE] = {IQE_EL_JOINT, IQE_EL_ANIM, IQE_EL_MESH,
                                                     IQE_EL_BASEPOSE, IQE_EL_FRAME};

static void *iqe_locator_open(const unsigned char *data, size_t size)
{
  struct iqe_locator_ix *l = calloc(1, sizeof *l);
  if (!l)
    return NULL;
  if (iqe_index_build(data, size, &l->ix) < 0) {
    free(l);
    return NULL;
  }
  l->data = data;
  l->size = size;
  return l;
}

static void iqe_locator_close(void *p)
{
  struct iqe_locator_ix *l = p;
  if (!l)
    return;
  iqe_index_free(&l->ix);
  free(l);
}

/* The index numbers a frame's poses from 1 (0 is the frame line itself). */
static uint32_t iqe_locator_line(const struct iqe_locator_ix *l, enum format_elem e, uint32_t n,
                                 uint32_t sub)
{
  if (e >= FMT_EL_NONE)
    return 0;
  return iqe_index_line(&l->ix, iqe_kind[e], n, e == FMT_EL_FRAME ? sub + 1 : 0);
}

static void iqe_locator_where(const void *p, enum format_elem e, uint32_t n, uint32_t sub,
                              struct format_where *w)
{
  w->line = iqe_locator_line(p, e, n, sub);
}

static int iqe_locator_resolution(const void *p, enum format_elem e, uint32_t n, uint32_t sub,
                                  double res[10])
{
  const struct iqe_locator_ix *l = p;
  uint32_t line = iqe_locator_line(l, e, n, sub);
  return line ? iqe_index_resolution(&l->ix, l->data, l->size, line, res) : -1;
}

const struct format_locator iqe_locator = {iqe_locator_open, iqe_locator_close, iqe_locator_where,
                                           iqe_locator_resolution};
