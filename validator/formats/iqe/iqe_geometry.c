/* iqe_geometry.c - the shared geometry checks (MDL-GEO-001, MDL-GEO-003) on the parsed vn and vx
 * lines, in validation as in a full decode: IQE keeps its vertices in the parser, not the model. */
#include <stdio.h>

#include "iqe.h"
#include "model_geometry.h"

static void vec_of(const struct iqe_attr_arr *a, uint32_t e, double out[3])
{
  for (uint32_t k = 0; k < 3; k++)
    out[k] = iqe_attr_get(a, e, k);
}

void iqe_geometry_check(struct iqe_parser *p)
{
  const struct iqe_attr_arr *vn = &p->attr[ATTR_VN], *vx = &p->attr[ATTR_VX];
  uint32_t first = 0, count = 0;
  for (uint32_t e = 0; e < vn->count; e++) {
    double n[3];
    vec_of(vn, e, n);
    if (geo_vector_zero(n) && count++ == 0)
      first = e;
  }
  if (count) {
    char exp[48];
    snprintf(exp, sizeof exp, "length >= %g", GEO_ZERO_LENGTH);
    /* one warning at the first, with the count: an exporter that writes every normal as 0 0 0
     * would otherwise bury the report under a warning per vertex */
    iqe_emit(p, RULE_CORE_NORMAL_ZERO_LENGTH, vn->lines[first], 0, exp, "vertex %u (%u of %u normals)",
             first, count, vn->count);
  }
  first = count = 0;
  for (uint32_t e = 0; e < vx->count; e++) {
    double t[3], n[3] = {0, 0, 0};
    vec_of(vx, e, t);
    if (e < vn->count)
      vec_of(vn, e, n);
    if (geo_tangent_degenerate(t, n) && count++ == 0)
      first = e;
  }
  if (count)
    iqe_emit(p, RULE_CORE_TANGENT_DEGENERATE, vx->lines[first], 0, "a direction of its own, across the normal",
             "vertex %u (%u of %u tangents)", first, count, vx->count);
}
