/* model_locate.h - the element a source position (a diagnostic's byte offset or line) falls
 * in, from the spans the decoder recorded (model.spans). */
#ifndef MDL_MODEL_LOCATE_H
#define MDL_MODEL_LOCATE_H

#include "model.h"

struct model_hit {
  enum model_elem kind;
  uint32_t index; /* UINT32_MAX when kept is 0 */
  int kept;       /* 0: an element the decoder left out of the model (a face naming a missing
                   * vertex): the position concerns it, but the model has no such element */
};

/* 0 with *hit, or -1 when no recorded element holds the position (offset < 0 and line 0: none
 * given). */
int model_locate(const struct model *m, long long offset, unsigned line, struct model_hit *hit);
/* "joint", "vertex", "triangle", "mesh". */
const char *model_elem_name(enum model_elem kind);

#endif
