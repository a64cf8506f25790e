/* model_compare_ctx.h - what the comparator's parts (model_compare.c, model_compare_geom.c)
 * share: the two sides, the sink, the running figures, and a mismatch located in both files. */
#ifndef MDL_MODEL_COMPARE_CTX_H
#define MDL_MODEL_COMPARE_CTX_H

#include "model_compare.h"

struct cmp {
  struct compare_side *a, *b;
  struct diag_sink *sink;
  struct compare_result r;
  int oom;
  const uint32_t *bmap; /* B's joint of A's joint i when B is compared renumbered (joints by
                         * name), else NULL */
};

/* When a and b name the same joints in another order: *perm gets B in A's order (allocated in
 * ar) and c->bmap the map; returns 1. 0 when the joints are compared by index (same order, or
 * names that do not identify them), -2 out of memory. */
int cmp_joints_by_name(struct cmp *c, struct model *perm, struct arena *ar);
/* B's own index of an element numbered as A's (joints, base poses, a frame's pose). */
void cmp_b_index(const struct cmp *c, enum format_elem e, uint32_t *n, uint32_t *sub);

/* Emit a mismatch located in A at element (e, n, sub); `b_value` is what B holds (its place in
 * B is appended). */
void cmp_mismatch(struct cmp *c, enum rule_index rule, enum format_elem e, uint32_t n, uint32_t sub,
                  const char *path, const char *b_value, const char *actual_fmt, ...)
  __attribute__((format(printf, 8, 9)));

/* Emit `rule` when A holds na elements at `path` and B nb (nothing when equal). */
void cmp_count(struct cmp *c, enum rule_index rule, enum format_elem e, const char *path,
               uint32_t na, uint32_t nb);

/* 1 when the side's format prints reals as text (limited decimals). */
int cmp_side_is_text(const struct compare_side *s);
/* 1 when the side's poses are IQM floats (the others are held to text precision, as compare
 * always did). */
int cmp_side_is_float(const struct compare_side *s);

/* Geometry: meshes matched by name and material (else by position), their counts, then
 * vertices and triangles by content. */
void cmp_meshes(struct cmp *c);
/* The files both models name (model_compare_refs.c). */
void cmp_refs(struct cmp *c);

/* Tags, levels of detail and play directions (model_compare_tags.c). */
void cmp_tags_lods(struct cmp *c);

#endif
