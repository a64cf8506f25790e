/* model_refs.c - the list of files a model names, filled by the decoders. */
#include "model.h"

#include "image_info.h"

#include <string.h>

struct model_ref *model_ref_add_kept(struct model *m, enum model_ref_kind kind, int conventional,
                                     const char *ref, long long offset, unsigned line,
                                     unsigned column, const char *path)
{
  struct model_ref *r;
  if (!ref || !path || !(r = arena_calloc(&m->arena, 1, sizeof *r)))
    return NULL;
  r->ref = ref;
  r->path = path;
  r->kind = (uint8_t)kind;
  r->conventional = conventional != 0;
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

struct model_ref *model_ref_add(struct model *m, enum model_ref_kind kind, int conventional,
                                const char *ref, size_t len, long long offset, unsigned line,
                                unsigned column, const char *path)
{
  return model_ref_add_kept(m, kind, conventional, arena_strndup(&m->arena, ref, len), offset, line,
                            column, arena_strndup(&m->arena, path ? path : "", path ? strlen(path) : 0));
}

int model_ref_named_file(const struct model_ref *r)
{
  /* an Egg <Texture> or QMSH texture names its file whatever the extension; only a material
   * name is a file name by convention, when it looks like one */
  return r->kind == MODEL_REF_MODEL || !r->conventional || image_file_named(r->ref);
}

int model_ref_loaded_file(const struct model_ref *r)
{
  return !r->unused && model_ref_named_file(r);
}

int model_ref_is_material(const struct model *m, const struct model_ref *r)
{
  for (uint32_t i = 0; i < m->num_meshes; i++)
    if (m->meshes[i].material && !strcmp(m->meshes[i].material, r->ref))
      return 1;
  return 0;
}

int model_material_names_file(const struct model *m, const char *mat)
{
  if (image_file_named(mat))
    return 1;
  for (const struct model_ref *r = m->refs; r; r = r->next)
    if (r->kind == MODEL_REF_TEXTURE && !r->conventional && !strcmp(r->ref, mat))
      return 1;
  return 0;
}

int model_material_first(const struct model *m, uint32_t k)
{
  const char *mat = m->meshes[k].material;
  for (uint32_t e = 0; e < k; e++)
    if (m->meshes[e].material && mat && !strcmp(m->meshes[e].material, mat))
      return 0;
  return 1;
}
