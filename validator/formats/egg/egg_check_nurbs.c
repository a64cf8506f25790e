/* egg_check_nurbs.c - NURBS curves and surfaces (notes §5 D6, J1-J5): orders, knot counts and
 * monotonic knots, control-vertex counts and dimensions, curve types. */
#include <string.h>

#include "egg.h"
#include "egg_map.h"

static const struct egg_node *child_of(const struct egg_node *n, int spec)
{
  const struct egg_node *found = NULL;
  for (const struct egg_node *c = n->first; c; c = c->next)
    if (c->spec == spec)
      found = c; /* the later one wins, as in Panda3D */
  return found;
}

static uint32_t cv_count(const struct egg_node *n)
{
  uint32_t k = 0;
  for (const struct egg_node *c = n->first; c; c = c->next)
    if (c->spec == S_VREF_PRIM)
      k += c->nvals;
  return k;
}

static int check_order_value(struct egg_doc *doc, const struct egg_value *v)
{
  if (v->d >= 1 && v->d <= 4 && v->d == (double)(int)v->d)
    return (int)v->d;
  egg_emit(doc, RULE_EGG_NURBS_ORDER, v->line, v->col, NULL, "%g", v->d);
  return 0;
}

static void check_knots(struct egg_doc *doc, const struct egg_node *k)
{
  for (uint32_t i = 1; i < k->nvals; i++)
    if (k->vals[i].d < k->vals[i - 1].d) {
      egg_emit(doc, RULE_EGG_NURBS_KNOTS_ORDER, k->vals[i].line, k->vals[i].col, NULL, "%g", k->vals[i].d);
      return;
    }
}

static void check_curve(struct egg_doc *doc, const struct egg_node *c)
{
  const struct egg_node *o = child_of(c, S_ORDER_C), *k = child_of(c, S_KNOTS), *t;
  int order = 0;
  char act[64], exp[96];
  if (o && o->nvals == 1)
    order = check_order_value(doc, &o->vals[0]);
  else if (!o)
    egg_emit(doc, RULE_EGG_NURBS_ORDER, c->line, c->col, NULL, "%s", "missing");
  if (k) {
    check_knots(doc, k);
    if (order && k->nvals != cv_count(c) + (uint32_t)order) {
      snprintf(act, sizeof act, "%u", (unsigned)k->nvals);
      snprintf(exp, sizeof exp, "%u (%u control vertices + order %d)",
               (unsigned)(cv_count(c) + (uint32_t)order), (unsigned)cv_count(c), order);
      egg_emit(doc, RULE_EGG_NURBS_KNOT_COUNT, k->line, k->col, exp, "%s", act);
    }
  }
  t = egg_scalar_child(c, "type");
  if (t && t->nvals) {
    const struct egg_value *v = &t->vals[0];
    char buf[96];
    if (!v->s || !(egg_name_eq(v->s, v->len, "xyz") || egg_name_eq(v->s, v->len, "hpr") ||
                   egg_name_eq(v->s, v->len, "t")))
      egg_emit(doc, RULE_EGG_NURBS_CURVE_TYPE, v->line, v->col, NULL, "%s",
               v->s ? egg_show(buf, sizeof buf, v->s, v->len) : "(a number)");
  }
}

static void check_surface(struct egg_doc *doc, const struct egg_node *s)
{
  const struct egg_node *o = child_of(s, S_ORDER_S), *uk = child_of(s, S_UKNOTS), *vk = child_of(s, S_VKNOTS);
  int uo = 0, vo = 0;
  if (o && o->nvals == 2) {
    uo = check_order_value(doc, &o->vals[0]);
    vo = check_order_value(doc, &o->vals[1]);
  } else if (!o) {
    egg_emit(doc, RULE_EGG_NURBS_ORDER, s->line, s->col, NULL, "%s", "missing");
  }
  if (uk)
    check_knots(doc, uk);
  if (vk)
    check_knots(doc, vk);
  if (uo && vo && uk && vk) {
    int64_t nu = (int64_t)uk->nvals - uo, nv = (int64_t)vk->nvals - vo;
    int64_t want = nu > 0 && nv > 0 ? nu * nv : 0;
    if ((int64_t)cv_count(s) != want) {
      char act[32], exp[128];
      snprintf(act, sizeof act, "%u", (unsigned)cv_count(s));
      snprintf(exp, sizeof exp, "%lld = (%u u-knots - %d) * (%u v-knots - %d)", (long long)want,
               (unsigned)uk->nvals, uo, (unsigned)vk->nvals, vo);
      egg_emit(doc, RULE_EGG_NURBS_CV_COUNT, s->line, s->col, exp, "%s", act);
    }
  }
}

/* Control vertices should be homogeneous: look each one up in its pool. */
static void check_cv_dims(struct egg_doc *doc, struct egg_map *pools, struct egg_map *verts,
                          const struct egg_node *nurbs)
{
  for (const struct egg_node *vr = nurbs->first; vr; vr = vr->next) {
    const struct egg_node *ref = NULL, *pool;
    struct egg_map_ent *pe;
    if (vr->spec != S_VREF_PRIM)
      continue;
    for (const struct egg_node *c = vr->first; c; c = c->next)
      if (c->spec == S_REF)
        ref = c;
    if (!ref || !ref->nvals || !ref->vals[0].s)
      continue;
    pe = egg_map_find(pools, ref->vals[0].s, ref->vals[0].len);
    if (!pe || !(pool = pe->val))
      continue;
    for (uint32_t i = 0; i < vr->nvals; i++) {
      struct egg_map_ent *ve = egg_map_pair(verts, (uintptr_t)pool, egg_value_int(&vr->vals[i]));
      const struct egg_node *v = ve ? ve->val : NULL;
      if (v && v->nvals < 3) {
        egg_emit(doc, RULE_EGG_NURBS_CV_DIMS, v->line, v->col, NULL, "%u", (unsigned)v->nvals);
        return;
      }
    }
  }
}

void egg_check_nurbs(struct egg_doc *doc)
{
  struct egg_map pools, verts;
  int any = 0;
  for (const struct egg_node *n = doc->root; n && !any; n = egg_next_pre(n, doc->root))
    any = n->spec == S_NURBS_C || n->spec == S_NURBS_S;
  if (!any)
    return;
  egg_map_init(&pools);
  egg_map_init(&verts);
  for (const struct egg_node *n = doc->root; n; n = egg_next_pre(n, doc->root)) {
    if (n->spec == S_VPOOL && n->name) {
      struct egg_map_ent *e = egg_map_at(&pools, n->name, n->name_len);
      if (e)
        e->val = (void *)(uintptr_t)n;
    } else if (n->spec == S_VERTEX && n->index >= 0) {
      struct egg_map_ent *e = egg_map_pair(&verts, (uintptr_t)n->parent, n->index);
      if (e && !e->val)
        e->val = (void *)(uintptr_t)n;
    }
  }
  for (const struct egg_node *n = doc->root; n; n = egg_next_pre(n, doc->root)) {
    if (n->spec == S_NURBS_C)
      check_curve(doc, n);
    else if (n->spec == S_NURBS_S)
      check_surface(doc, n);
    if (n->spec == S_NURBS_C || n->spec == S_NURBS_S)
      check_cv_dims(doc, &pools, &verts, n);
  }
  egg_map_free(&pools);
  egg_map_free(&verts);
}
