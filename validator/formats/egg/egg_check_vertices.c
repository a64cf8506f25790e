/* egg_check_vertices.c - vertex attributes, primitives, components and joint memberships
 * (notes §5 D, E, F5). */
#include <math.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"

struct vcheck {
  struct egg_doc *doc;
  struct egg_map members; /* (pool name, vertex) -> membership sum over joints */
};

/* The morph target name: the header name, or the first body token. */
static void morph_name(const struct egg_node *n, const char **s, size_t *len)
{
  if (n->name) {
    *s = n->name;
    *len = n->name_len;
  } else if (n->nvals && n->vals[0].s) {
    *s = n->vals[0].s;
    *len = n->vals[0].len;
  } else {
    *s = "";
    *len = 0;
  }
}

/* Report children of kind spec whose name repeats (UV sets, Aux, morph targets). Quadratic,
 * so only for the handful of attributes a real vertex has. */
static void repeated_names(struct egg_doc *doc, const struct egg_node *parent, int spec, const char *what)
{
  char buf[96], act[160];
  unsigned n = 0;
  for (const struct egg_node *a = parent->first; a; a = a->next)
    n += a->spec == spec;
  if (n < 2 || n > 64)
    return;
  for (const struct egg_node *a = parent->first; a; a = a->next) {
    const char *sa;
    size_t la;
    if (a->spec != spec)
      continue;
    if (spec == S_UV || spec == S_AUX) {
      sa = a->name ? a->name : "";
      la = a->name ? a->name_len : 0;
    } else {
      morph_name(a, &sa, &la);
    }
    for (const struct egg_node *b = parent->first; b != a; b = b->next) {
      const char *sb;
      size_t lb;
      if (b->spec != spec)
        continue;
      if (spec == S_UV || spec == S_AUX) {
        sb = b->name ? b->name : "";
        lb = b->name ? b->name_len : 0;
      } else {
        morph_name(b, &sb, &lb);
      }
      if (la == lb && !memcmp(sa, sb, la)) {
        snprintf(act, sizeof act, "%s name '%s'", what, egg_show(buf, sizeof buf, sa, la));
        egg_emit(doc, RULE_EGG_REPEATED_ATTRIBUTE, a->line, a->col, NULL, "%s", act);
        break;
      }
    }
  }
}

/* The second and later children of kind spec. */
static void repeated_child(struct egg_doc *doc, const struct egg_node *parent, int spec,
                           enum rule_index rule)
{
  unsigned k = 0;
  for (const struct egg_node *c = parent->first; c; c = c->next)
    if (c->spec == spec && ++k > 1)
      egg_emit(doc, rule, c->line, c->col, NULL, "%s", egg_specs[spec].what);
}

static void check_vertex(struct egg_doc *doc, const struct egg_node *v)
{
  repeated_names(doc, v, S_UV, "<UV>");
  repeated_names(doc, v, S_AUX, "<Aux>");
  repeated_names(doc, v, S_DXYZ, "<Dxyz> morph");
  repeated_child(doc, v, S_NORMAL, RULE_EGG_REPEATED_NORMAL_COLOR);
  repeated_child(doc, v, S_RGBA, RULE_EGG_REPEATED_NORMAL_COLOR);
  for (const struct egg_node *c = v->first; c; c = c->next) {
    if (c->spec == S_UV) {
      repeated_names(doc, c, S_DUV, "<DUV> morph");
      repeated_child(doc, c, S_TANGENT, RULE_EGG_REPEATED_ATTRIBUTE);
      repeated_child(doc, c, S_BINORMAL, RULE_EGG_REPEATED_ATTRIBUTE);
      for (const struct egg_node *d = c->first; d; d = d->next)
        if (d->spec == S_DUV && !d->bad) {
          uint32_t n = d->nvals - (d->name ? 0 : 1);
          if (d->nvals && n != c->nvals && !c->bad) {
            char exp[32];
            snprintf(exp, sizeof exp, "%u", (unsigned)c->nvals);
            egg_emit(doc, RULE_EGG_DUV_ARITY, d->line, d->col, exp, "%u", (unsigned)n);
          }
        }
    } else if (c->spec == S_NORMAL) {
      repeated_names(doc, c, S_DNORMAL, "<DNormal> morph");
    } else if (c->spec == S_RGBA) {
      repeated_names(doc, c, S_DRGBA, "<DRGBA> morph");
    }
  }
}

static void check_rgba(struct egg_doc *doc, const struct egg_node *n)
{
  for (uint32_t i = 0; i < n->nvals; i++) {
    double d = n->vals[i].d;
    if (egg_value_is_number(&n->vals[i]) && !(d >= 0.0 && d <= 1.0)) {
      egg_emit(doc, RULE_EGG_COLOR_RANGE, n->vals[i].line, n->vals[i].col, NULL, "%g", d);
      return;
    }
  }
}

static void check_primitive(struct egg_doc *doc, const struct egg_node *p)
{
  unsigned nverts = 0, lead = 0, min = 0;
  int composite = p->spec == S_TRISTRIP || p->spec == S_TRIFAN || p->spec == S_LINE;
  const char *kind = egg_specs[p->spec].what;
  switch (p->spec) {
  case S_POLYGON: min = 3; break;
  case S_TRISTRIP: case S_TRIFAN: min = 3; lead = 2; break;
  case S_LINE: min = 2; lead = 1; break;
  case S_POINTLIGHT: min = 1; break;
  default: break;
  }
  repeated_child(doc, p, S_NORMAL, RULE_EGG_REPEATED_NORMAL_COLOR);
  repeated_child(doc, p, S_RGBA, RULE_EGG_REPEATED_NORMAL_COLOR);
  for (const struct egg_node *c = p->first; c; c = c->next) {
    if (c->spec == S_VREF_PRIM) {
      nverts += c->nvals;
      if (p->spec == S_POLYGON && c->nvals <= 64) {
        for (uint32_t i = 1; i < c->nvals; i++)
          for (uint32_t j = 0; j < i; j++)
            if (egg_value_int(&c->vals[i]) == egg_value_int(&c->vals[j])) {
              egg_emit(doc, RULE_EGG_REPEATED_VERTEX, c->vals[i].line, c->vals[i].col, NULL,
                       "%lld", (long long)egg_value_int(&c->vals[i]));
              i = c->nvals;
              break;
            }
      }
    } else if (c->spec == S_COMPONENT) {
      if (!composite) {
        egg_emit(doc, RULE_EGG_COMPONENT_NOT_COMPOSITE, c->line, c->col, NULL, "%s", kind);
      } else {
        int64_t have = (int64_t)nverts - (int64_t)lead;
        if (c->index < 0 || c->index >= have) {
          char exp[64];
          snprintf(exp, sizeof exp, "0 <= i < %lld (components so far)", (long long)(have > 0 ? have : 0));
          egg_emit(doc, RULE_EGG_COMPONENT_RANGE, c->name_line, c->name_col, exp, "%lld",
                   (long long)c->index);
        }
      }
    } else if (c->spec == S_SCALAR && c->name) {
      if (egg_name_eq(c->name, c->name_len, "thick") && p->spec != S_LINE && p->spec != S_POINTLIGHT)
        egg_emit(doc, RULE_EGG_THICK_PERSPECTIVE, c->line, c->col, "points and lines", "%s", "thick");
      if (egg_name_eq(c->name, c->name_len, "perspective") && p->spec != S_POINTLIGHT)
        egg_emit(doc, RULE_EGG_THICK_PERSPECTIVE, c->line, c->col, "points", "%s", "perspective");
    }
  }
  if (!p->bad && min && nverts < min) {
    char act[96], exp[64];
    snprintf(act, sizeof act, "%s with %u vertices", kind, nverts);
    snprintf(exp, sizeof exp, "at least %u", min);
    egg_emit(doc, RULE_EGG_PRIM_VERTEX_COUNT, p->line, p->col, exp, "%s", act);
  }
}

static double scalar_number(const struct egg_node *s, int *ok)
{
  *ok = s && s->nvals == 1 && egg_value_is_number(&s->vals[0]);
  return *ok ? s->vals[0].d : 0.0;
}

static void check_membership(struct vcheck *vc, const struct egg_node *vr)
{
  const struct egg_node *owner = vr->parent, *ref = NULL, *ms;
  double m = 1.0;
  int ok;
  for (const struct egg_node *c = vr->first; c; c = c->next)
    if (c->spec == S_REF)
      ref = c;
  ms = egg_scalar_child(vr, "membership");
  if (ms) {
    m = scalar_number(ms, &ok);
    if (ok && !(m >= 0.0 && m <= 1.0))
      egg_emit(vc->doc, RULE_EGG_MEMBERSHIP_RANGE, ms->vals[0].line, ms->vals[0].col, NULL, "%g", m);
    if (ok && m != 1.0 && owner->spec != S_JOINT)
      egg_emit(vc->doc, RULE_EGG_MEMBERSHIP_PLAIN_GROUP, ms->line, ms->col, NULL, "%g", m);
  }
  if (owner->spec != S_JOINT || !ref || !ref->nvals || !ref->vals[0].s)
    return;
  for (uint32_t i = 0; i < vr->nvals; i++) {
    struct egg_map_ent *e = egg_map_named(&vc->members, ref->vals[0].s, ref->vals[0].len,
                                          egg_value_int(&vr->vals[i]));
    if (!e)
      return;
    e->sum += m;
    if (!e->val)
      e->val = (void *)(uintptr_t)vr;
  }
}

static void check_occluder(struct egg_doc *doc, const struct egg_node *g)
{
  const struct egg_node *s = egg_scalar_child(g, "occluder");
  int ok;
  if (!s || scalar_number(s, &ok) == 0.0)
    return;
  for (const struct egg_node *c = g->first; c; c = c->next)
    if (c->spec == S_POLYGON) {
      unsigned n = 0;
      for (const struct egg_node *v = c->first; v; v = v->next)
        if (v->spec == S_VREF_PRIM)
          n += v->nvals;
      if (n != 4)
        egg_emit(doc, RULE_EGG_OCCLUDER_SHAPE, c->line, c->col, NULL, "%u", n);
      return;
    }
}

void egg_check_vertices(struct egg_doc *doc)
{
  struct vcheck vc;
  memset(&vc, 0, sizeof vc);
  vc.doc = doc;
  egg_map_init(&vc.members);
  for (struct egg_node *n = doc->root; n; n = egg_next_pre(n, doc->root)) {
    switch (n->spec) {
    case S_VERTEX: check_vertex(doc, n); break;
    case S_RGBA: check_rgba(doc, n); break;
    case S_POLYGON: case S_PATCH: case S_TRIFAN: case S_TRISTRIP: case S_POINTLIGHT: case S_LINE:
      check_primitive(doc, n);
      break;
    case S_VREF_GROUP: check_membership(&vc, n); break;
    case S_GROUP: case S_JOINT: case S_INSTANCE: check_occluder(doc, n); break;
    default: break;
    }
  }
  for (size_t i = 0; i < vc.members.cap; i++) {
    const struct egg_map_ent *e = &vc.members.ents[i];
    const struct egg_node *vr;
    char buf[96], act[160], exp[40];
    if (!e->key || !e->val || fabs(e->sum - 1.0) <= 1e-2)
      continue;
    vr = e->val;
    snprintf(act, sizeof act, "vertex %lld of pool %s", (long long)e->num,
             egg_show(buf, sizeof buf, e->key, e->len));
    snprintf(exp, sizeof exp, "%.6g (expected 1)", e->sum);
    egg_emit(doc, RULE_EGG_MEMBERSHIP_SUM, vr->line, vr->col, exp, "%s", act);
  }
  egg_map_free(&vc.members);
}
