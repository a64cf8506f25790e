/* model_compare_refs.c - the files two models name (textures, material names that are image file
 * names, external models): the same set on both sides, or each one missing from a side reported
 * (MDL-CMP-016). A conversion that drops or renames a texture loads without it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "model_compare_ctx.h"

struct ref_key {
  const struct model_ref *r;
  size_t order;
};

/* The order both sides are sorted and merged in: textures and materials, then models, by name. */
static int ref_cmp(const struct model_ref *r, const struct model_ref *s)
{
  int c = (r->kind == MODEL_REF_MODEL) - (s->kind == MODEL_REF_MODEL);
  return c ? c : strcmp(r->ref, s->ref);
}

static int key_cmp(const void *x, const void *y)
{
  const struct ref_key *a = x, *b = y;
  int c = ref_cmp(a->r, b->r);
  return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* The distinct references of m that name files a loader loads (not r->unused), sorted, each at
 * its first place in the file; NULL when out of memory. */
static struct ref_key *refs_sorted(const struct model *m, size_t *n)
{
  struct ref_key *v = malloc((m->num_refs ? m->num_refs : 1) * sizeof *v);
  size_t k = 0, u = 0;
  *n = 0;
  if (!v)
    return NULL;
  for (const struct model_ref *r = m->refs; r; r = r->next)
    if (model_ref_loaded_file(r)) {
      v[k].r = r;
      v[k].order = k;
      k++;
    }
  qsort(v, k, sizeof *v, key_cmp);
  for (size_t i = 0; i < k; i++)
    if (!u || ref_cmp(v[u - 1].r, v[i].r)) /* one entry per name as the merge matches them */
      v[u++] = v[i];
  *n = u;
  return v;
}

static void ref_missing(struct cmp *c, const struct model_ref *r, const struct compare_side *has,
                        const struct compare_side *lacks)
{
  struct mdl_loc loc;
  char expected[600];
  const char *what = r->kind == MODEL_REF_MODEL ? "model" : r->conventional ? "material" : "texture";
  if (has == c->a && r->offset >= 0)
    loc = loc_bin((uint64_t)r->offset, "%s", r->path);
  else if (has == c->a && r->line)
    loc = loc_text(r->line, r->column, "%s", r->path);
  else {
    loc = loc_none();
    snprintf(loc.path, sizeof loc.path, "%s", has == c->a ? r->path : "references");
  }
  snprintf(expected, sizeof expected, "%s names no such file", lacks->path);
  diag_emit(c->sink, RULE_CORE_COMPARE_REFERENCE, &loc, expected, "%s names %s '%s' (%s)",
            has->path, what, r->ref, r->path[0] ? r->path : "no place");
}

/* 1 when r (named by side `has`) is a material of the other side that names no file there, and
 * the writer of `has` wrote such materials as texture file names, announced (MDL-CNV-015). */
static int material_made_file(const struct cmp *c, const struct model_ref *r, const struct compare_side *has)
{
  const struct compare_side *other = has == c->a ? c->b : c->a;
  const struct model *m = other->model;
  if (!other->materials_as_files || r->kind != MODEL_REF_TEXTURE || model_material_names_file(m, r->ref))
    return 0;
  for (uint32_t i = 0; i < m->num_meshes; i++)
    if (m->meshes[i].material && !strcmp(m->meshes[i].material, r->ref))
      return 1;
  return 0;
}

void cmp_refs(struct cmp *c)
{
  size_t na, nb, i = 0, j = 0;
  struct ref_key *a = refs_sorted(c->a->model, &na), *b = refs_sorted(c->b->model, &nb);
  if (!a || !b) {
    c->oom = 1; /* a reference list cut short would read as one file naming what the other lacks */
    free(a);
    free(b);
    return;
  }
  while (i < na || j < nb) {
    int d = i == na ? 1 : j == nb ? -1 : ref_cmp(a[i].r, b[j].r);
    if (d < 0) {
      if (!material_made_file(c, a[i].r, c->a))
        ref_missing(c, a[i].r, c->a, c->b);
      i++;
    } else if (d > 0) {
      if (!material_made_file(c, b[j].r, c->b))
        ref_missing(c, b[j].r, c->b, c->a);
      j++;
    }
    else
      i++, j++;
  }
  free(a);
  free(b);
}
