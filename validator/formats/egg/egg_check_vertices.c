/* egg_check_vertices.c - vertex attributes, primitives, components and joint memberships
 * (notes §5 D, E, F5). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "egg_members.h"
#include "mem_bound.h"

/* Membership sums of one pool name, indexed by vertex number. */
struct member_pool {
  const char *name;
  uint32_t len;
  double *sum;
  uint64_t *seen; /* a bit a vertex: named by a joint <VertexRef> (a pointer to the first one
                   * was 8 bytes a vertex, and only said whether there was one) */
  size_t cap;     /* a multiple of 64 */
  size_t charged; /* bytes of the two arrays charged to --max-memory */
};

#define MEMBER_POOLS 16

/* How far a membership may lie outside [0, 1], and a vertex's sum from 1, before it is reported
 * (EGG-VTX-012, EGG-VTX-013). Panda3D rounds each membership to 0.1 and renormalises
 * (panda/src/egg2pg/eggLoader.cxx:2608-2625, egg-vertex-membership-quantize 0.1 in
 * config_egg2pg.cxx:175-181), so anything this close loads as a value in range; exporters that
 * normalise in single precision and print six digits write 1.00001 .. 1.00036 for a sole joint. */
#define EGG_MEMBERSHIP_SLACK 1e-2

struct vcheck {
  struct egg_doc *doc;
  struct egg_members members; /* (pool name, vertex) -> membership sum over joints */
  /* The sums are first added up in arrays (vertex numbers are small and dense); the map, whose
   * order is the order of the reports, is built only when a sum is off or the arrays do not
   * fit (replaying the same additions in the same order, the arrays let go first). */
  struct member_pool pools[MEMBER_POOLS];
  unsigned npools;
  uint64_t values;
  int sparse;
};

static struct member_pool *member_pool_find(struct vcheck *vc, const char *name, uint32_t len)
{
  for (unsigned i = 0; i < vc->npools; i++)
    if (vc->pools[i].len == len && (vc->pools[i].name == name || !memcmp(vc->pools[i].name, name, len)))
      return &vc->pools[i];
  return NULL;
}

static struct member_pool *member_pool(struct vcheck *vc, const char *name, uint32_t len)
{
  struct member_pool *mp = member_pool_find(vc, name, len);
  if (mp)
    return mp;
  if (vc->npools == MEMBER_POOLS)
    return NULL;
  vc->pools[vc->npools].name = name;
  vc->pools[vc->npools].len = len;
  return &vc->pools[vc->npools++];
}

/* Bytes of member_pool arrays for cap vertices: a sum and a bit each. */
static size_t member_bytes(size_t cap)
{
  return cap * sizeof(double) + cap / 64 * sizeof(uint64_t);
}

/* Room for vertex need - 1 in mp's arrays, charged to --max-memory (the doc's bound) as their
 * growth is: refused, the sums go to the map (charged itself) and the decode goes on; an
 * allocation that fails is counted (map_failures) as well: out of memory is said, never hidden
 * by the fallback.
 * They grow by a quarter past the need, not to the next power of 2: all of a grown array is
 * written (cleared), so a doubling held up to twice the vertices named. */
static int member_grow(struct member_pool *mp, size_t need, struct egg_doc *doc)
{
  struct mem_bound *bound = egg_doc_bound(doc);
  size_t cap = mp->cap ? need + need / 4 : 1024;
  double *ns;
  uint64_t *nb;
  if (cap < need)
    cap = need;
  cap = (cap + 1023) & ~(size_t)1023;
  if (mem_bound_try(bound, member_bytes(cap) - member_bytes(mp->cap)) < 0)
    return -1;
  mp->charged += member_bytes(cap) - member_bytes(mp->cap);
  ns = realloc(mp->sum, cap * sizeof *ns);
  if (ns)
    mp->sum = ns;
  nb = ns ? realloc(mp->seen, cap / 64 * sizeof *nb) : NULL;
  if (!nb) {
    doc->map_failures++;
    return -1;
  }
  mp->seen = nb;
  memset(mp->sum + mp->cap, 0, (cap - mp->cap) * sizeof *ns);
  memset(mp->seen + mp->cap / 64, 0, (cap - mp->cap) / 64 * sizeof *nb);
  mp->cap = cap;
  return 0;
}

static void member_add(struct vcheck *vc, const char *pool, uint32_t plen, const struct egg_node *vr, double m)
{
  struct member_pool *mp = vc->sparse ? NULL : member_pool(vc, pool, plen);
  if (!mp) {
    vc->sparse = 1;
    return;
  }
  vc->values += egg_nvals(vr);
  struct egg_numv nv;
  int plain = egg_numv(vr, &nv);
  for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
    int64_t idx = plain ? egg_numv_int(&nv, i) : egg_val_int(vr, i);
    /* the arrays stay within a few times the map's size (which holds every value) */
    if (idx < 0 || (uint64_t)idx >= 4 * vc->values + (1u << 20) ||
        ((size_t)idx >= mp->cap && member_grow(mp, (size_t)idx + 1, vc->doc) < 0)) {
      vc->sparse = 1;
      return;
    }
    mp->sum[idx] += m;
    mp->seen[idx / 64] |= (uint64_t)1 << (idx % 64);
  }
}

/* 1 when the arrays hold every sum and all are close to 1: nothing to report. */
static int members_fine(const struct vcheck *vc)
{
  if (vc->sparse)
    return 0;
  for (unsigned i = 0; i < vc->npools; i++)
    for (size_t k = 0; k < vc->pools[i].cap; k++)
      if ((vc->pools[i].seen[k / 64] >> (k % 64) & 1) && fabs(vc->pools[i].sum[k] - 1.0) > 1e-2)
        return 0;
  return 1;
}

/* The arrays' sum of a vertex, or NULL when they have no room for it. */
static double *member_sum(struct vcheck *vc, const char *pool, uint32_t plen, int64_t num)
{
  struct member_pool *mp = member_pool_find(vc, pool, plen);
  return mp && num >= 0 && (uint64_t)num < mp->cap ? &mp->sum[num] : NULL;
}

static double member_sum_of(void *vc, const char *pool, uint32_t plen, int64_t num)
{
  const double *sum = member_sum(vc, pool, plen, num);
  return sum ? *sum : 0;
}

static void members_free_arrays(struct vcheck *vc)
{
  for (unsigned i = 0; i < vc->npools; i++) {
    free(vc->pools[i].sum);
    free(vc->pools[i].seen);
    mem_bound_release(egg_doc_bound(vc->doc), vc->pools[i].charged);
    vc->pools[i].sum = NULL;
    vc->pools[i].seen = NULL;
    vc->pools[i].cap = vc->pools[i].charged = 0;
  }
}

/* Before the replay: the arrays keep its sums (added again from 0, in its order) while they are
 * no larger than the table's entries would be (12 bytes a vertex named, grown by a quarter), the
 * table's slots then naming the value that created each key; else they are let go. */
static void members_begin(struct vcheck *vc)
{
  size_t keys = 0, bytes = 0;
  for (unsigned i = 0; i < vc->npools && !vc->sparse; i++) {
    for (size_t k = 0; k < vc->pools[i].cap / 64; k++)
      keys += (size_t)egg_popcount64(vc->pools[i].seen[k]);
    bytes += member_bytes(vc->pools[i].cap);
  }
  if (vc->sparse || bytes > 15 * keys) {
    members_free_arrays(vc);
    return;
  }
  for (unsigned i = 0; i < vc->npools; i++)
    memset(vc->pools[i].sum, 0, vc->pools[i].cap * sizeof *vc->pools[i].sum);
  vc->members.by_ord = 1;
}

/* The morph target name: the header name, or the first body token. */
static void morph_name(const struct egg_node *n, const char **s, size_t *len)
{
  uint32_t vlen;
  const char *v = !egg_name(n) && egg_nvals(n) ? egg_val_str(n, 0, &vlen) : NULL;
  if (egg_name(n)) {
    *s = egg_name(n);
    *len = egg_name_len(n);
  } else if (v) {
    *s = v;
    *len = vlen;
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
  for (const struct egg_node *a = egg_first(parent); a; a = egg_next(a))
    n += a->spec == spec;
  if (n < 2 || n > 64)
    return;
  for (const struct egg_node *a = egg_first(parent); a; a = egg_next(a)) {
    const char *sa;
    size_t la;
    if (a->spec != spec)
      continue;
    if (spec == S_UV || spec == S_AUX) {
      sa = egg_name(a) ? egg_name(a) : "";
      la = egg_name_len(a);
    } else {
      morph_name(a, &sa, &la);
    }
    for (const struct egg_node *b = egg_first(parent); b != a; b = egg_next(b)) {
      const char *sb;
      size_t lb;
      if (b->spec != spec)
        continue;
      if (spec == S_UV || spec == S_AUX) {
        sb = egg_name(b) ? egg_name(b) : "";
        lb = egg_name_len(b);
      } else {
        morph_name(b, &sb, &lb);
      }
      if (la == lb && !memcmp(sa, sb, la)) {
        snprintf(act, sizeof act, "%s name '%s'", what, egg_show(buf, sizeof buf, sa, la));
        /* a second UV or Aux set of one name breaks the spec's "unique name"; a morph
         * target is only "the set of all offsets that share the same target name" */
        egg_emit_node(doc, spec == S_UV || spec == S_AUX ? RULE_EGG_REPEATED_ATTRIBUTE : RULE_EGG_REPEATED_MORPH,
                      a, NULL, "%s", act);
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
  for (const struct egg_node *c = egg_first(parent); c; c = egg_next(c))
    if (c->spec == spec && ++k > 1)
      egg_emit_node(doc, rule, c, NULL, "%s", egg_specs[spec].what);
}

/* 1 when a and b say the same thing: the same values, numbers compared as numbers (1 and 1.0
 * are one colour), and no morph offsets under either (those would be lost with the repeat).
 * Values not kept (a validation-only decode) are never "the same". */
static int same_values(const struct egg_node *a, const struct egg_node *b)
{
  if (egg_nvals(a) != egg_nvals(b) || egg_first(a) || egg_first(b) || a->bad || b->bad ||
      egg_vals_dropped(a) || egg_vals_dropped(b))
    return 0;
  for (uint32_t i = 0, i_end = egg_nvals(a); i < i_end; i++) {
    struct egg_value x, y;
    egg_val(a, i, &x);
    egg_val(b, i, &y);
    if (x.type != y.type || x.flags != y.flags || x.len != y.len || (x.s == NULL) != (y.s == NULL))
      return 0;
    if (x.s ? memcmp(x.s, y.s, x.len) != 0 : !(x.d == y.d))
      return 0;
  }
  return 1;
}

/* A repeated <Normal> or <RGBA> whose values differ from the first: one of them is lost (the
 * last silently wins). Equal repeats lose nothing: exporters writing one <RGBA> per colour layer
 * repeat { 1 1 1 1 } on every vertex, which is no defect. */
static void repeated_differing(struct egg_doc *doc, const struct egg_node *parent, int spec)
{
  const struct egg_node *first = NULL;
  for (const struct egg_node *c = egg_first(parent); c; c = egg_next(c)) {
    if (c->spec != spec)
      continue;
    if (!first)
      first = c;
    else if (!same_values(first, c))
      egg_emit_node(doc, RULE_EGG_REPEATED_NORMAL_COLOR, c, NULL, "%s with other values",
               egg_specs[spec].what);
  }
}

static void check_vertex(struct egg_doc *doc, const struct egg_node *v)
{
  /* one pass to count: the repeat checks only matter for a kind seen twice */
  unsigned count[S_COUNT] = {0};
  int nested = 0;
  egg_geometry_note_vertex(doc, v);
  for (const struct egg_node *c = egg_first(v); c; c = egg_next(c)) {
    count[c->spec]++;
    nested |= egg_first(c) != NULL;
  }
  if (count[S_UV] > 1)
    repeated_names(doc, v, S_UV, "<UV>");
  if (count[S_AUX] > 1)
    repeated_names(doc, v, S_AUX, "<Aux>");
  if (count[S_DXYZ] > 1)
    repeated_names(doc, v, S_DXYZ, "<Dxyz> morph");
  if (count[S_NORMAL] > 1)
    repeated_differing(doc, v, S_NORMAL);
  if (count[S_RGBA] > 1)
    repeated_differing(doc, v, S_RGBA);
  if (!nested)
    return; /* the rest looks at the children's children */
  for (const struct egg_node *c = egg_first(v); c; c = egg_next(c)) {
    if (c->spec == S_UV) {
      repeated_names(doc, c, S_DUV, "<DUV> morph");
      repeated_child(doc, c, S_TANGENT, RULE_EGG_REPEATED_ATTRIBUTE);
      repeated_child(doc, c, S_BINORMAL, RULE_EGG_REPEATED_ATTRIBUTE);
      for (const struct egg_node *d = egg_first(c); d; d = egg_next(d))
        if (d->spec == S_DUV && !d->bad) {
          uint32_t n = egg_nvals(d) - (egg_name(d) ? 0 : 1);
          if (egg_nvals(d) && n != egg_nvals(c) && !c->bad) {
            char exp[32];
            snprintf(exp, sizeof exp, "%u", (unsigned)egg_nvals(c));
            egg_emit_node(doc, RULE_EGG_DUV_ARITY, d, exp, "%u", (unsigned)n);
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
  for (uint32_t i = 0, i_end = egg_nvals(n); i < i_end; i++) {
    double d = egg_val_d(n, i);
    if (egg_val_is_number(n, i) && !(d >= 0.0 && d <= 1.0)) {
      egg_emit_val(doc, RULE_EGG_COLOR_RANGE, n, i, NULL, "%g", d);
      return;
    }
  }
}

void egg_check_vertex(struct egg_doc *doc, const struct egg_node *v)
{
  check_vertex(doc, v);
  if (doc->spec_count[S_RGBA])
    for (const struct egg_node *c = egg_first(v); c; c = egg_next(c))
      if (c->spec == S_RGBA)
        check_rgba(doc, c);
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
  {
    unsigned normals = 0, colors = 0;
    for (const struct egg_node *c = egg_first(p); c; c = egg_next(c)) {
      normals += c->spec == S_NORMAL;
      colors += c->spec == S_RGBA;
      if (c->spec == S_NORMAL)
        egg_geometry_note_normal(doc, c);
    }
    if (normals > 1)
      repeated_differing(doc, p, S_NORMAL);
    if (colors > 1)
      repeated_differing(doc, p, S_RGBA);
  }
  for (const struct egg_node *c = egg_first(p); c; c = egg_next(c)) {
    if (c->spec == S_VREF_PRIM) {
      uint32_t nv = egg_nvals(c);
      nverts += nv;
      if (p->spec == S_POLYGON && nv <= 64) {
        /* the indices read once each (egg_val_int walks up to the root for the tree's numbers) */
        int64_t ix[64];
        struct egg_numv cv;
        int plain = egg_numv(c, &cv);
        for (uint32_t i = 0; i < nv; i++)
          ix[i] = plain ? egg_numv_int(&cv, i) : egg_val_int(c, i);
        for (uint32_t i = 1; i < nv; i++)
          for (uint32_t j = 0; j < i; j++)
            if (ix[i] == ix[j]) {
              egg_emit_val(doc, RULE_EGG_REPEATED_VERTEX, c, i, NULL, "%lld", (long long)ix[i]);
              i = nv;
              break;
            }
      }
    } else if (c->spec == S_COMPONENT) {
      if (!composite) {
        egg_emit_node(doc, RULE_EGG_COMPONENT_NOT_COMPOSITE, c, NULL, "%s", kind);
      } else {
        int64_t have = (int64_t)nverts - (int64_t)lead;
        if (egg_index(c) < 0 || egg_index(c) >= have) {
          char exp[64];
          snprintf(exp, sizeof exp, "0 <= i < %lld (components so far)", (long long)(have > 0 ? have : 0));
          egg_emit_val(doc, RULE_EGG_COMPONENT_RANGE, c, -1, exp, "%lld", (long long)egg_index(c));
        }
      }
    } else if (c->spec == S_SCALAR && egg_name(c)) {
      if (egg_name_eq(egg_name(c), egg_name_len(c), "thick") && p->spec != S_LINE && p->spec != S_POINTLIGHT)
        egg_emit_node(doc, RULE_EGG_THICK_PERSPECTIVE, c, "points and lines", "%s", "thick");
      if (egg_name_eq(egg_name(c), egg_name_len(c), "perspective") && p->spec != S_POINTLIGHT)
        egg_emit_node(doc, RULE_EGG_THICK_PERSPECTIVE, c, "points", "%s", "perspective");
    }
  }
  if (!p->bad && min && nverts < min) {
    char act[96], exp[64];
    snprintf(act, sizeof act, "%s with %u vertices", kind, nverts);
    snprintf(exp, sizeof exp, "at least %u", min);
    egg_emit_node(doc, RULE_EGG_PRIM_VERTEX_COUNT, p, exp, "%s", act);
  }
}

static double scalar_number(const struct egg_node *s, int *ok)
{
  *ok = s && egg_nvals(s) == 1 && egg_val_is_number(s, 0);
  return *ok ? egg_val_d(s, 0) : 0.0;
}

static void check_membership(struct vcheck *vc, const struct egg_node *vr, int replay)
{
  const struct egg_node *owner = egg_parent(vr), *ms;
  const char *pool;
  uint32_t plen;
  double m = 1.0;
  int ok;
  ms = egg_scalar_child(vr, "membership");
  if (ms) {
    m = scalar_number(ms, &ok);
    if (replay)
      ;
    else if (ok && !(m >= -EGG_MEMBERSHIP_SLACK && m <= 1.0 + EGG_MEMBERSHIP_SLACK))
      egg_emit_val(vc->doc, RULE_EGG_MEMBERSHIP_RANGE, ms, 0, NULL, "%g", m);
    if (ok && m != 1.0 && owner->spec != S_JOINT && !replay)
      egg_emit_node(vc->doc, RULE_EGG_MEMBERSHIP_PLAIN_GROUP, ms, NULL, "%g", m);
  }
  if (owner->spec != S_JOINT || !(pool = egg_vref_pool(vr, &plen)))
    return;
  if (!replay) {
    member_add(vc, pool, plen, vr, m);
    return;
  }
  for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
    double *sum = NULL, *entry;
    /* a vertex past the arrays (a <VertexRef> the first pass did not add up): the table takes
     * the sums from here on */
    if (vc->members.by_ord && !(sum = member_sum(vc, pool, plen, egg_val_int(vr, i))) &&
        egg_members_entries(&vc->members, member_sum_of, vc) == 0)
      members_free_arrays(vc);
    if (egg_members_key(&vc->members, vr, pool, plen, i, &entry) < 0)
      break;
    *(entry ? entry : sum) += m;
  }
  egg_members_next_vref(&vc->members, vr);
}

static void check_occluder(struct egg_doc *doc, const struct egg_node *g)
{
  const struct egg_node *s = egg_scalar_child(g, "occluder");
  int ok;
  if (!s || scalar_number(s, &ok) == 0.0)
    return;
  for (const struct egg_node *c = egg_first(g); c; c = egg_next(c))
    if (c->spec == S_POLYGON) {
      unsigned n = 0;
      for (const struct egg_node *v = egg_first(c); v; v = egg_next(v))
        if (v->spec == S_VREF_PRIM)
          n += egg_nvals(v);
      if (n != 4)
        egg_emit_node(doc, RULE_EGG_OCCLUDER_SHAPE, c, NULL, "%u", n);
      return;
    }
}

/* Tables and transforms hold nothing looked at here; below a vertex or a primitive (whose own
 * checks read their children) only an <RGBA> is. */
static int vertices_descend(const struct egg_doc *doc, const struct egg_node *n)
{
  switch (n->spec) {
  case S_TABLE: case S_BUNDLE: case S_TRANSFORM: case S_DEFAULTPOSE:
    return 0;
  case S_VERTEX:
    /* validation alone: the parser checked each vertex as it closed (egg_check_vertex) */
    return doc->keep_values && doc->spec_count[S_RGBA] != 0;
  case S_POLYGON: case S_PATCH: case S_TRIFAN: case S_TRISTRIP: case S_POINTLIGHT: case S_LINE:
    return doc->spec_count[S_RGBA] != 0;
  default:
    return 1;
  }
}

void egg_check_vertices(struct egg_doc *doc)
{
  struct vcheck vc;
  memset(&vc, 0, sizeof vc);
  vc.doc = doc;
  egg_members_init(&vc.members, doc->root, &doc->map_failures, egg_doc_bound(doc));
  for (struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, vertices_descend(doc, n))) {
    switch (n->spec) {
    case S_VERTEX:
      if (doc->keep_values)
        check_vertex(doc, n);
      break;
    case S_RGBA: check_rgba(doc, n); break;
    case S_POLYGON: case S_PATCH: case S_TRIFAN: case S_TRISTRIP: case S_POINTLIGHT: case S_LINE:
      check_primitive(doc, n);
      break;
    case S_VREF_GROUP: check_membership(&vc, n, 0); break;
    case S_GROUP: case S_JOINT: case S_INSTANCE: check_occluder(doc, n); break;
    default: break;
    }
  }
  if (members_fine(&vc)) {
    members_free_arrays(&vc);
  } else {
    members_begin(&vc);
    for (struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, egg_in_node_list(n)))
      if (n->spec == S_VREF_GROUP)
        check_membership(&vc, n, 1);
  }
  for (size_t i = 0; i < vc.members.cap; i++) {
    const struct egg_node *vr;
    const char *pool;
    uint32_t plen;
    int64_t num;
    double sum;
    char buf[96], act[160], exp[40];
    if (!egg_members_slot(&vc.members, i, &sum, &num, &vr))
      continue;
    pool = egg_vref_pool(vr, &plen);
    if (vc.members.by_ord)
      sum = member_sum_of(&vc, pool, plen, num);
    if (fabs(sum - 1.0) <= EGG_MEMBERSHIP_SLACK)
      continue;
    snprintf(act, sizeof act, "vertex %lld of pool %s", (long long)num, egg_show(buf, sizeof buf, pool, plen));
    snprintf(exp, sizeof exp, "%.6g (expected 1)", sum);
    egg_emit_node(doc, RULE_EGG_MEMBERSHIP_SUM, vr, exp, "%s", act);
  }
  members_free_arrays(&vc);
  egg_members_free(&vc.members);
}
