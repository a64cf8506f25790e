/* model_locate.c - the element of the model a position in its source falls in, from the spans
 * the decoder recorded (model.spans): what a diagnostic's offset or line points at, for the
 * page's view. Format-blind: the decoders said where their elements are. */
#include "model_locate.h"

/* The narrowest span holding the position wins: a record inside a section, a vertex's own line
 * inside a joint's block. Ties go to the later span (an element nested in a larger one). */
int model_locate(const struct model *m, long long offset, unsigned line, struct model_hit *hit)
{
  unsigned long long best = ~0ull;
  int found = 0;
  for (uint32_t i = 0; i < m->num_spans; i++) {
    const struct model_span *sp = &m->spans[i];
    unsigned long long width;
    if (offset >= 0 && sp->offset >= 0 && sp->stride) {
      unsigned long long rel = (unsigned long long)(offset - sp->offset), k = rel / sp->stride;
      if (offset < sp->offset || k >= sp->count || sp->stride > best)
        continue;
      best = sp->stride;
      hit->kind = (enum model_elem)sp->kind;
      hit->index = sp->index + (uint32_t)k;
      hit->kept = 1;
      found = 1;
    } else if (line && sp->offset < 0 && line >= sp->line && line <= sp->line_end) {
      width = (unsigned long long)(sp->line_end - sp->line) + 1;
      if (width > best)
        continue;
      best = width;
      hit->kind = (enum model_elem)sp->kind;
      hit->index = sp->index;
      hit->kept = sp->count > 0;
      found = 1;
    }
  }
  return found ? 0 : -1;
}

const char *model_elem_name(enum model_elem kind)
{
  static const char *const names[MODEL_EL_COUNT] = {"joint", "vertex", "triangle", "mesh"};
  return (unsigned)kind < MODEL_EL_COUNT ? names[kind] : "";
}
