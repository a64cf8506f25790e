/* rt_model.h - deterministic synthetic models for writer round trips and the benchmark (compared
 * with their decode -> write -> decode copies by model_diff.h). */
#ifndef RT_MODEL_H
#define RT_MODEL_H

#include <stdint.h>
#include <stdio.h>

#include "model.h"

struct rt_spec {
  uint64_t seed;
  uint32_t meshes;          /* each a grid of grid_w x grid_h vertices */
  uint32_t grid_w, grid_h;
  int adjacency;
  int customs;              /* add custom arrays in every component format */
  int color;
  uint32_t joints;          /* 0 with poses > 0: an animation-only file */
  uint32_t poses;
  uint32_t anims, frames_per_anim;
  int bounds;
  const char *comment;      /* NULL: none */
  uint32_t extensions;      /* extension i has i * 3 % 7 bytes (the first is empty) */
};

/* Fill m (model_init'ed) from spec; 0, or -1 when out of memory. Every value is finite and
 * every structural rule holds, so the written file must validate without errors. */
int rt_model_build(struct model *m, const struct rt_spec *spec);

#endif
