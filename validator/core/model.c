/* model.c - lifetime of the common model. */
#include "model.h"

#include <string.h>

void model_init(struct model *m)
{
  memset(m, 0, sizeof *m);
  arena_init(&m->arena);
}

void model_free(struct model *m)
{
  arena_free(&m->arena);
  memset(m, 0, sizeof *m);
}

const struct trs *model_frame(const struct model *m, uint32_t f, uint32_t p)
{
  if (!m->frames || f >= m->num_frames || p >= m->num_poses)
    return NULL;
  return &m->frames[(size_t)f * m->num_poses + p];
}
