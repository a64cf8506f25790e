/* model_refs.c - the list of files a model names, filled by the decoders. */
#include "model.h"

#include <string.h>

struct model_ref *model_ref_add(struct model *m, enum model_ref_kind kind, int conventional,
                                const char *ref, size_t len, long long offset, unsigned line,
                                unsigned column, const char *path)
{
  struct model_ref *r = arena_calloc(&m->arena, 1, sizeof *r);
  if (!r)
    return NULL;
  r->ref = arena_strndup(&m->arena, ref, len);
  r->path = arena_strndup(&m->arena, path ? path : "", path ? strlen(path) : 0);
  if (!r->ref || !r->path)
    return NULL;
  r->kind = kind;
  r->conventional = conventional;
  r->offset = offset;
  r->line = line;
  r->column = column;
  if (m->refs_tail)
    m->refs_tail->next = r;
  else
    m->refs = r;
  m->refs_tail = r;
  m->num_refs++;
  return r;
}
