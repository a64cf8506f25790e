/* egg_check_nurbs.c - NURBS curves and surfaces (notes §5 D6, J1-J5): orders, knot counts and
 * monotonic knots, control-vertex counts and dimensions, curve types. */
#include <string.h>

#include "egg.h"
#include "egg_map.h"

static const struct egg_node *child_of(const struct egg_node *n, int spec)
{
  const struct egg_node *found = NULL;
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
    if (c->spec == spec)
      found = c; /* the later one wins, as in Panda3D */
  return found;
}

static uint32_t cv_count(const struct egg_node *n)
{
  uint32_t k = 0;
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
    if (c->spec == S_VREF_PRIM)
      k += egg_nvals(c);
  return k;
}

static int check_order_value(struct egg_doc *doc, const struct egg_node *o, uint32_t k)
{
  double d = egg_val_d(o, k);
  if (d >= 1 && d <= 4 && d == (double)(int)d)
    return (int)d;
  egg_emit_val(doc, RULE_EGG_NURBS_ORDER, o, k, NULL, "%g", d);
  return 0;
}

static void check_knots(struct egg_doc *doc, const struct egg_node *k)
{
  for (uint32_t i = 1, i_end = egg_nvals(k); i < i_end; i++)
    if (egg_val_d(k, i) < egg_val_d(k, i - 1)) {
      egg_emit_val(doc, RULE_EGG_NURBS_KNOTS_ORDER, k, i, NULL, "%g", egg_val_d(k, i));
      return;
    }
}

static void check_curve(struct egg_doc *doc, const struct egg_node *c)
{
  const struct egg_node *o = child_of(c, S_ORDER_C), *k = child_of(c, S_KNOTS), *t;
  int order = 0;
  char act[64], exp[96];
  if (o && egg_nvals(o) == 1)
    order = check_order_value(doc, o, 0);
  else if (!o)
    egg_emit_node(doc, RULE_EGG_NURBS_ORDER, c, NULL, "%s", "missing");
  if (k) {
    check_knots(doc, k);
    if (order && egg_nvals(k) != cv_count(c) + (uint32_t)order) {
      snprintf(act, sizeof act, "%u", (unsigned)egg_nvals(k));
      snprintf(exp, sizeof exp, "%u (%u control vertices + order %d)",
               (unsigned)(cv_count(c) + (uint32_t)order), (unsigned)cv_count(c), order);
      egg_emit_node(doc, RULE_EGG_NURBS_KNOT_COUNT, k, exp, "%s", act);
    }
  }
  t = egg_scalar_child(c, "type");
  if (t && egg_nvals(t)) {
    uint32_t len;
    const char *s = egg_val_str(t, 0, &len);
    char buf[96];
    if (!s || !(egg_name_eq(s, len, "xyz") || egg_name_eq(s, len, "hpr") || egg_name_eq(s, len, "t")))
      egg_emit_val(doc, RULE_EGG_NURBS_CURVE_TYPE, t, 0, NULL, "%s",
                   s ? egg_show(buf, sizeof buf, s, len) : "(a number)");
  }
}

static void check_surface(struct egg_doc *doc, const struct egg_node *s)
{
  const struct egg_node *o = child_of(s, S_ORDER_S), *uk = child_of(s, S_UKNOTS), *vk = child_of(s, S_VKNOTS);
  int uo = 0, vo = 0;
  if (o && egg_nvals(o) == 2) {
    uo = check_order_value(doc, o, 0);
    vo = check_order_value(doc, o, 1);
  } else if (!o) {
    egg_emit_node(doc, RULE_EGG_NURBS_ORDER, s, NULL, "%s", "missing");
  }
  if (uk)
    check_knots(doc, uk);
  if (vk)
    check_knots(doc, vk);
  if (uo && vo && uk && vk) {
    int64_t nu = (int64_t)egg_nvals(uk) - uo, nv = (int64_t)egg_nvals(vk) - vo;
    int64_t want = nu > 0 && nv > 0 ? nu * nv : 0;
    if ((int64_t)cv_count(s) != want) {
      char act[32], exp[128];
      snprintf(act, sizeof act, "%u", (unsigned)cv_count(s));
      snprintf(exp, sizeof exp, "%lld = (%u u-knots - %d) * (%u v-knots - %d)", (long long)want,
               (unsigned)egg_nvals(uk), uo, (unsigned)egg_nvals(vk), vo);
      egg_emit_node(doc, RULE_EGG_NURBS_CV_COUNT, s, exp, "%s", act);
    }
  }
}

/* Control vertices should be homogeneous: look each one up in its pool. */
static void check_cv_dims(struct egg_doc *doc, struct egg_map *pools, struct egg_map *verts,
                          const struct egg_node *nurbs)
{
  for (const struct egg_node *vr = egg_first(nurbs); vr; vr = egg_next(vr)) {
    const struct egg_node *ref = NULL, *pool;
    struct egg_map_ent *pe;
    const char *ps;
    uint32_t plen;
    if (vr->spec != S_VREF_PRIM)
      continue;
    for (const struct egg_node *c = egg_first(vr); c; c = egg_next(c))
      if (c->spec == S_REF)
        ref = c;
    if (!ref || !egg_nvals(ref) || !(ps = egg_val_str(ref, 0, &plen)))
      continue;
    pe = egg_map_find(pools, ps, plen);
    if (!pe || !(pool = pe->val))
      continue;
    for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
      const struct egg_map_ent *ve = egg_map_pair_find(verts, (uintptr_t)pool, egg_val_int(vr, i));
      const struct egg_node *v = ve ? ve->val : NULL;
      if (v && egg_nvals(v) < 3) {
        egg_emit_node(doc, RULE_EGG_NURBS_CV_DIMS, v, NULL, "%u", (unsigned)egg_nvals(v));
        return;
      }
    }
  }
}

void egg_check_nurbs(struct egg_doc *doc)
{
  struct egg_map pools, verts;
  if (!doc->spec_count[S_NURBS_C] && !doc->spec_count[S_NURBS_S])
    return;
  egg_map_init(&pools, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&verts, &doc->map_failures, egg_doc_bound(doc));
  for (const struct egg_node *n = doc->root; n; n = egg_next_pre(n, doc->root)) {
    if (n->spec == S_VPOOL && egg_name(n)) {
      struct egg_map_ent *e = egg_map_at(&pools, egg_name(n), egg_name_len(n));
      if (e)
        e->val = (void *)(uintptr_t)n;
    } else if (n->spec == S_VERTEX && egg_index(n) >= 0) {
      struct egg_map_ent *e = egg_map_pair(&verts, (uintptr_t)egg_parent(n), egg_index(n));
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
