/* model_compare_tags.c - the comparator's tags (attachment points), levels of detail and play
 * direction: what X42 holds beyond skeleton, animations and geometry. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model_compare_ctx.h"

static const char *safe(const char *s)
{
  return s ? s : "";
}

/* A tag matrix component: float storage on either side, and a text side's printed digits. */
static double tag_bound(const struct cmp *c, double x, double y)
{
  double m = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
  double b = 1e-12 + 1.5 * ldexp(1.0, -23) * m;
  if (cmp_side_is_text(c->a) || cmp_side_is_text(c->b))
    b += 5e-7 * (m > 1 ? m : 1);
  return b;
}

/* The plain display a bare frame means (model.h). */
static const struct model_tag_display plain_display = {0, {1, 1, 1}, {0, 0, 0}, {0, 0, 0, 1}};

static void display_text(const struct model_tag_display *d, char *out, size_t cap)
{
  snprintf(out, cap, "type %u, size %.9g %.9g %.9g, rot %.9g %.9g %.9g, column %.9g %.9g %.9g %.9g",
           (unsigned)d->type, d->size[0], d->size[1], d->size[2], d->rot[0], d->rot[1], d->rot[2], d->col4[0],
           d->col4[1], d->col4[2], d->col4[3]);
}

/* A point's display is stored as floats by the one format that has it: equal, or different. */
static void display_compare(struct cmp *c, uint32_t i, const struct model_tag *x, const struct model_tag *y)
{
  const struct model_tag_display *dx = x->display ? x->display : &plain_display;
  const struct model_tag_display *dy = y->display ? y->display : &plain_display;
  char path[64], av[256], bv[256];
  int same = dx->type == dy->type;
  for (int k = 0; k < 3 && same; k++)
    same = dx->size[k] == dy->size[k] && dx->rot[k] == dy->rot[k];
  for (int k = 0; k < 4 && same; k++)
    same = dx->col4[k] == dy->col4[k];
  if (same)
    return;
  snprintf(path, sizeof path, "tags[%u].display", i);
  display_text(dx, av, sizeof av);
  display_text(dy, bv, sizeof bv);
  cmp_mismatch(c, RULE_CORE_COMPARE_TAG, FMT_EL_TAG, i, 0, path, bv, "display %s", av);
}

static void tag_compare(struct cmp *c, uint32_t i)
{
  const struct model_tag *x = &c->a->model->tags[i], *y = &c->b->model->tags[i];
  char path[64], bv[160];
  int worst = -1;
  double worst_r = 1;
  snprintf(path, sizeof path, "tags[%u]", i);
  if (strcmp(safe(x->name), safe(y->name))) {
    snprintf(bv, sizeof bv, "name '%.100s'", safe(y->name));
    cmp_mismatch(c, RULE_CORE_COMPARE_TAG, FMT_EL_TAG, i, 0, path, bv, "name '%.100s'", safe(x->name));
  }
  if ((x->joint < 0 ? -1 : x->joint) != (y->joint < 0 ? -1 : y->joint)) {
    snprintf(bv, sizeof bv, "joint %d", y->joint < 0 ? -1 : y->joint);
    cmp_mismatch(c, RULE_CORE_COMPARE_TAG, FMT_EL_TAG, i, 0, path, bv, "joint %d", x->joint < 0 ? -1 : x->joint);
  }
  for (int k = 0; k < 12; k++) {
    /* plus what deriving each side's frame from its file may have cost (model_tag.tol) */
    double bound = tag_bound(c, x->m[k], y->m[k]) + x->tol[k] + y->tol[k];
    double d = fabs(x->m[k] - y->m[k]), r = isnan(d) ? INFINITY : d / bound;
    if (r > worst_r) {
      worst_r = r;
      worst = k;
    }
  }
  if (worst >= 0) {
    snprintf(path, sizeof path, "tags[%u].m[%d]", i, worst);
    snprintf(bv, sizeof bv, "%.9g", y->m[worst]);
    cmp_mismatch(c, RULE_CORE_COMPARE_TAG, FMT_EL_TAG, i, 0, path, bv, "transform %.9g differs by %.3g",
                 x->m[worst], fabs(x->m[worst] - y->m[worst]));
  }
  display_compare(c, i, x, y);
}

static void lods_compare(struct cmp *c)
{
  const struct model *a = c->a->model, *b = c->b->model;
  char path[64], bv[160];
  if ((!a->num_lods || !b->num_lods) && model_lods_trivial(a) && model_lods_trivial(b))
    return; /* one level over every mesh is what a file without levels draws */
  cmp_count(c, RULE_CORE_COMPARE_LOD_COUNT, FMT_EL_LOD, "lods", a->num_lods, b->num_lods);
  for (uint32_t i = 0; i < a->num_lods && i < b->num_lods; i++) {
    const struct model_lod *x = &a->lods[i], *y = &b->lods[i];
    if (!strcmp(safe(x->name), safe(y->name)) && x->first_mesh == y->first_mesh && x->num_meshes == y->num_meshes)
      continue;
    snprintf(path, sizeof path, "lods[%u]", i);
    snprintf(bv, sizeof bv, "'%.100s' over %u meshes from %u", safe(y->name), y->num_meshes, y->first_mesh);
    cmp_mismatch(c, RULE_CORE_COMPARE_LOD, FMT_EL_LOD, i, 0, path, bv, "'%.100s' over %u meshes from %u",
                 safe(x->name), x->num_meshes, x->first_mesh);
  }
}

static void directions_compare(struct cmp *c)
{
  const struct model *a = c->a->model, *b = c->b->model;
  char path[64];
  for (uint32_t i = 0; i < a->num_anims && i < b->num_anims; i++) {
    uint32_t x = a->anims[i].reverse != 0, y = b->anims[i].reverse != 0;
    if (x == y)
      continue;
    snprintf(path, sizeof path, "anims[%u]", i);
    cmp_mismatch(c, RULE_CORE_COMPARE_ANIM_REVERSE, FMT_EL_ANIM, i, 0, path, y ? "reverse" : "forward", "%s",
                 x ? "reverse" : "forward");
  }
}

void cmp_tags_lods(struct cmp *c)
{
  const struct model *a = c->a->model, *b = c->b->model;
  cmp_count(c, RULE_CORE_COMPARE_TAG_COUNT, FMT_EL_TAG, "tags", a->num_tags, b->num_tags);
  for (uint32_t i = 0; i < a->num_tags && i < b->num_tags; i++)
    tag_compare(c, i);
  lods_compare(c);
  directions_compare(c);
}
