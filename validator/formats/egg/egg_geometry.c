/* egg_geometry.c - vertex pools, primitives and joint memberships into the common model.
 *
 * What Panda3D's egg2pg builds, reduced to the model's arrays:
 * - one mesh per (enclosing group, texture, material); its name is the group's, its material
 *   the texture's file name (IQM's convention), else the <MRef> material's name;
 * - <Polygon> with n > 3 vertices: a fan from the first vertex when it is convex (what
 *   EggPolygon::triangulate does for convex polygons), ear clipping in the polygon's plane
 *   otherwise (Panda3D's Triangulator may pick other diagonals over the same area; a concave
 *   polygon of more than MAX_EAR_CLIP vertices is fanned: clipping is cubic in its size);
 *   <TriangleStrip> alternates its winding, <TriangleFan> fans from its first vertex;
 *   lines, points, patches and NURBS carry no triangles and are left out, and so is a
 *   triangle naming one vertex twice (no surface: strips stitched by repeated vertices);
 * - positions as written (egg vertices are in world space; <Instance> local space and
 *   <DynamicVertexPool> are not applied);
 * - triangles in the model are clockwise front faces (IQM's); egg lists them counterclockwise,
 *   so each one is stored reversed;
 * - a vertex used by two meshes, or taking a primitive's <Normal>/<RGBA> it lacks, is copied;
 * - arrays: position, normal, colour (ubyte, IQM's), the unnamed UV set (else the first named
 *   one) as the texcoord, other UV sets as custom arrays named after the set, the texcoord
 *   set's <Tangent>/<Binormal> as a 4-component tangent (w the binormal's side);
 * - soft skinning: <VertexRef> memberships of every <Joint>, repeated references adding up,
 *   the 4 largest kept and renormalised (IQM's limit: EGG-VTX-023 says when more were
 *   dropped), as ubyte indexes and weights summing to 255; a vertex of a character with no
 *   membership belongs to the primitive's enclosing joint (eggLoader.cxx:2599-2604).
 * <Aux>, morph targets and per-component attributes are not carried. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"
#include "grow.h"

#define MAX_INFLUENCES 4
#define MAX_EAR_CLIP 1024 /* vertices of the largest concave polygon clipped by ears */

struct influence {
  const struct egg_node *vertex;
  uint32_t joint, order;
  double weight;
};

struct uvset {
  const char *name; /* "" for the unnamed set */
  uint32_t len;
};
#define MAX_UVSETS 8

struct mesh_acc {
  const struct egg_node *group;   /* the enclosing group (or the root) */
  const struct egg_node *joint;   /* the nearest enclosing <Joint>, or NULL */
  int64_t joint_number;           /* its number in the model */
  const char *material;
  uint32_t nprims;
};

struct mvert {
  const struct egg_node *vertex;
  const struct egg_node *prim;    /* the primitive whose <Normal>/<RGBA> it takes, or NULL */
  uint32_t mesh;
};

struct geom {
  struct egg_doc *doc;
  struct model *m;
  struct egg_map pools;     /* pool name -> pool node */
  struct egg_map verts;     /* (pool node, vertex number) -> vertex node */
  struct egg_map textures;  /* texture name -> the last <Texture> of that name so far (build_meshes) */
  struct egg_map meshes;    /* (material, group) -> mesh number + 1 */
  struct egg_map members;   /* (vertex node, joint) -> influence number + 1 */
  struct egg_map mverts;    /* (vertex node, mesh or primitive) -> model vertex + 1 */
  struct egg_map vinf;      /* (vertex node, -1) -> first influence + 1 (after sorting) */
  struct influence *inf;
  size_t ninf, capinf;
  struct mesh_acc *mesh;
  uint32_t nmesh;
  size_t capmesh;
  const struct egg_node **prims;
  uint32_t *prim_mesh;
  size_t nprims, capprims, capprim_mesh;
  struct mvert *mv;
  size_t nmv, capmv;
  unsigned char *tris;      /* u32 triples */
  size_t ntris, captris;
  struct uvset uv[MAX_UVSETS];
  unsigned nuv;
  int has_normal, has_color, has_tangent, has_blend;
  const struct egg_node *over_four_at; /* the first vertex with more than 4 influences */
  unsigned over_four_count;
};

static const char *first_string(const struct egg_node *n, uint32_t *len)
{
  *len = 0;
  return n && egg_nvals(n) ? egg_val_str(n, 0, len) : NULL;
}

static int is_triangle_prim(int spec)
{
  return spec == S_POLYGON || spec == S_TRIFAN || spec == S_TRISTRIP;
}

static const struct egg_node *child_of(const struct egg_node *n, int spec)
{
  const struct egg_node *found = NULL;
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
    if (c->spec == spec && !c->bad)
      found = c; /* a repeated attribute: the last wins */
  return found;
}

/* Whether pool vertex v has an attribute spec (S_NORMAL or S_RGBA) that is not bad (a
 * skeleton-only decode, where the parser let a vertex's children go, reads its bits instead:
 * egg_geometry_lean.c). */
static int vertex_has(const struct egg_node *v, int spec)
{
  return child_of(v, spec) != NULL;
}

/* Pools and their vertices: numbers as the parser gives them, an omitted one the highest so
 * far + 1 (the first 1), a repeated number keeping the first vertex (notes §5 D1). */
static int collect_pools(struct geom *g)
{
  const struct egg_node *root = g->doc->root;
  for (const struct egg_node *n = root; n; n = egg_next_skip(n, root, egg_in_node_list(n))) {
    struct egg_map_ent *e;
    int64_t next = 1;
    if (n->spec != S_VPOOL)
      continue;
    e = egg_map_at(&g->pools, egg_name(n) ? egg_name(n) : "", egg_name_len(n));
    if (!e)
      return -1;
    if (e->val)
      continue;
    e->val = (void *)(uintptr_t)n;
    for (const struct egg_node *v = egg_first(n); v; v = egg_next(v)) {
      int64_t num = egg_vertex_number(v, &next);
      if (num < 0)
        continue;
      e = egg_map_pair(&g->verts, (uintptr_t)n, num);
      if (!e)
        return -1;
      if (!e->val)
        e->val = (void *)(uintptr_t)v;
    }
  }
  return 0;
}

/* The vertex numbered num in the named pool, or NULL (undefined: the checks report it). */
static const struct egg_node *vertex_of(struct geom *g, const char *pool, uint32_t plen, int64_t num)
{
  const struct egg_map_ent *pe = egg_map_find(&g->pools, pool, plen), *ve;
  if (!pe || !pe->val)
    return NULL;
  ve = egg_map_pair_find(&g->verts, (uintptr_t)pe->val, num);
  return ve ? ve->val : NULL;
}

/* The pool a <VertexRef> names (its <Ref>), or NULL. */
static const char *pool_ref(const struct egg_node *vref, uint32_t *len)
{
  const struct egg_node *ref;
  for (ref = egg_first(vref); ref && ref->spec != S_REF; ref = egg_next(ref))
    ;
  return ref ? first_string(ref, len) : NULL;
}

/* Memberships of every joint, repeated references of one vertex adding up (eggGroup.cxx:607-632). */
static int collect_members(struct geom *g)
{
  /* the model's <Joint>s in their order (egg_anim_decode's list; tables standing in for joints
   * have no members) */
  for (uint32_t ji = 0; ji < g->doc->njoints && ji < g->m->num_joints; ji++) {
    const struct egg_node *j = g->doc->root + g->doc->joint_offs[ji];
    for (const struct egg_node *vr = egg_first(j); vr; vr = egg_next(vr)) {
      const struct egg_node *sc;
      const char *pool;
      uint32_t plen;
      double w = 1;
      if (vr->spec != S_VREF_GROUP || vr->bad)
        continue;
      pool = pool_ref(vr, &plen);
      if (!pool)
        continue;
      sc = egg_scalar_child(vr, "membership");
      if (sc)
        w = egg_nvals(sc) ? egg_val_d(sc, 0) : 0; /* a string reads 0 */
      for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
        const struct egg_node *v = vertex_of(g, pool, plen, egg_val_int(vr, i));
        struct egg_map_ent *e;
        if (!v)
          continue;
        e = egg_map_pair(&g->members, (uintptr_t)v, ji);
        if (!e)
          return -1;
        if (!e->val) {
          if (grow_to(&g->inf, &g->capinf, g->ninf + 1, sizeof *g->inf, 64) < 0)
            return -1;
          g->inf[g->ninf].vertex = v;
          g->inf[g->ninf].joint = (uint32_t)ji;
          g->inf[g->ninf].order = (uint32_t)g->ninf;
          g->inf[g->ninf].weight = 0;
          e->val = (void *)(uintptr_t)(++g->ninf);
        }
        g->inf[(uintptr_t)e->val - 1].weight += w;
      }
    }
  }
  return 0;
}

static int influence_cmp(const void *a, const void *b)
{
  const struct influence *x = a, *y = b;
  if (x->vertex != y->vertex)
    return (uintptr_t)x->vertex < (uintptr_t)y->vertex ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static int index_members(struct geom *g)
{
  if (!g->ninf)
    return 0;
  qsort(g->inf, g->ninf, sizeof *g->inf, influence_cmp);
  for (size_t i = 0; i < g->ninf; i++)
    if (i == 0 || g->inf[i].vertex != g->inf[i - 1].vertex) {
      struct egg_map_ent *e = egg_map_pair(&g->vinf, (uintptr_t)g->inf[i].vertex, -1);
      if (!e)
        return -1;
      e->val = (void *)(uintptr_t)(i + 1);
    }
  return 0;
}

static const struct egg_node *child_first(const struct egg_node *n, int spec)
{
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
    if (c->spec == spec && !c->bad)
      return c;
  return NULL;
}

static const char *texture_file(const struct geom *g, const struct egg_node *tref, uint32_t *len)
{
  uint32_t nlen;
  const char *name = first_string(tref, &nlen);
  const struct egg_map_ent *e = name ? egg_map_find(&g->textures, name, nlen) : NULL;
  const char *file = e && e->val ? first_string(e->val, len) : NULL;
  if (file)
    return file;
  *len = nlen;
  return name;
}

/* The mesh of a primitive: its enclosing group, its first texture (or material). */
static int64_t prim_mesh(struct geom *g, const struct egg_node *prim)
{
  const struct egg_node *group = egg_parent(prim), *t, *joint;
  const char *mat = "";
  uint32_t mlen = 0;
  struct egg_map_ent *e;
  t = child_first(prim, S_TREF);
  if (!t)
    t = child_first(prim, S_MREF);
  if (t) {
    const char *s = t->spec == S_TREF ? texture_file(g, t, &mlen) : first_string(t, &mlen);
    mat = s ? s : "";
    if (!s)
      mlen = 0;
  }
  e = egg_map_named(&g->meshes, mat, mlen, (int64_t)(uintptr_t)group);
  if (!e)
    return -1;
  if (!e->val) {
    if (g->nmesh == UINT32_MAX ||
        grow_to(&g->mesh, &g->capmesh, (size_t)g->nmesh + 1, sizeof *g->mesh, 64) < 0)
      return -1;
    for (joint = group; joint && joint->spec != S_JOINT; joint = egg_parent(joint))
      ;
    memset(&g->mesh[g->nmesh], 0, sizeof *g->mesh);
    g->mesh[g->nmesh].group = group;
    g->mesh[g->nmesh].joint = joint;
    g->mesh[g->nmesh].joint_number = joint ? egg_joint_number(g->doc, joint) : -1;
    g->mesh[g->nmesh].material = arena_strndup(&g->m->arena, mat, mlen);
    if (!g->mesh[g->nmesh].material)
      return -1;
    e->val = (void *)(uintptr_t)(++g->nmesh);
  }
  return (int64_t)(uintptr_t)e->val - 1;
}

static int add_tri(struct geom *g, uint32_t a, uint32_t b, uint32_t c)
{
  uint32_t t[3];
  if (a == b || b == c || a == c)
    return 0; /* no surface (strips stitched with repeated vertices): left out */
  if (grow_to(&g->tris, &g->captris, (g->ntris + 1) * 12, 1, 64) < 0)
    return -1;
  /* egg is counterclockwise, the model clockwise (IQM's) */
  t[0] = a;
  t[1] = c;
  t[2] = b;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 4; i++)
      g->tris[g->ntris * 12 + (size_t)k * 4 + (size_t)i] = (unsigned char)(t[k] >> (8 * i));
  g->ntris++;
  return 0;
}

static void vertex_pos(const struct egg_node *v, double p[3])
{
  for (uint32_t k = 0; k < 3; k++)
    p[k] = k < egg_nvals(v) ? egg_val_d(v, k) : 0;
}

/* Vertices of a primitive in order (all its <VertexRef>s), or -1 when one is undefined. */
static long prim_vertices(struct geom *g, const struct egg_node *prim, const struct egg_node ***buf,
                          size_t *cap)
{
  size_t n = 0;
  for (const struct egg_node *vr = egg_first(prim); vr; vr = egg_next(vr)) {
    const char *pool;
    uint32_t plen;
    if (vr->spec != S_VREF_PRIM || vr->bad)
      continue;
    pool = pool_ref(vr, &plen);
    if (!pool)
      return -1;
    if (grow_to(buf, cap, n + egg_nvals(vr) + 1, sizeof **buf, 64) < 0)
      return -2;
    for (uint32_t i = 0, i_end = egg_nvals(vr); i < i_end; i++) {
      const struct egg_node *v = vertex_of(g, pool, plen, egg_val_int(vr, i));
      if (!v)
        return -1; /* an undefined vertex: reported by the checks, the primitive left out */
      (*buf)[n++] = v;
    }
  }
  return (long)n;
}

static double cross2(const double a[2], const double b[2], const double c[2])
{
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

static int in_triangle(const double p[2], const double a[2], const double b[2], const double c[2], double s)
{
  return s * cross2(a, b, p) >= 0 && s * cross2(b, c, p) >= 0 && s * cross2(c, a, p) >= 0;
}

/* Triangles of a polygon of n > 3 vertices as local index triples (counterclockwise as given):
 * a fan when convex, ear clipping in the plane of its Newell normal otherwise. */
static int polygon_triangulate(const struct egg_node *const *v, size_t n, uint32_t *out)
{
  double nrm[3] = {0, 0, 0}, (*p)[2], s;
  uint32_t *left;
  size_t k = 0, m = n, guard = 0;
  int ax, ay, convex = 1;
  p = malloc(n * sizeof *p);
  left = malloc(n * sizeof *left);
  if (!p || !left) {
    free(p);
    free(left);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    double a[3], b[3];
    vertex_pos(v[i], a);
    vertex_pos(v[(i + 1) % n], b);
    nrm[0] += (a[1] - b[1]) * (a[2] + b[2]);
    nrm[1] += (a[2] - b[2]) * (a[0] + b[0]);
    nrm[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  /* drop the dominant axis of the normal; s is the projected orientation */
  if (fabs(nrm[0]) >= fabs(nrm[1]) && fabs(nrm[0]) >= fabs(nrm[2])) {
    ax = 1; ay = 2; s = nrm[0];
  } else if (fabs(nrm[1]) >= fabs(nrm[2])) {
    ax = 2; ay = 0; s = nrm[1];
  } else {
    ax = 0; ay = 1; s = nrm[2];
  }
  s = s < 0 ? -1 : 1;
  for (size_t i = 0; i < n; i++) {
    double a[3];
    vertex_pos(v[i], a);
    p[i][0] = a[ax];
    p[i][1] = a[ay];
    left[i] = (uint32_t)i;
  }
  for (size_t i = 0; i < n && convex; i++)
    convex = s * cross2(p[i], p[(i + 1) % n], p[(i + 2) % n]) >= 0;
  if (convex || n > MAX_EAR_CLIP) { /* ear clipping is cubic: a huge concave polygon is fanned */
    for (size_t i = 1; i + 1 < n; i++) {
      out[k++] = 0;
      out[k++] = (uint32_t)i;
      out[k++] = (uint32_t)(i + 1);
    }
    free(p);
    free(left);
    return 0;
  }
  for (size_t i = 0; m > 3 && guard < 2 * n * n; guard++) {
    uint32_t a = left[(i + m - 1) % m], b = left[i % m], c = left[(i + 1) % m];
    int ear = s * cross2(p[a], p[b], p[c]) > 0;
    for (size_t j = 0; ear && j < m; j++) {
      uint32_t x = left[j];
      ear = x == a || x == b || x == c || !in_triangle(p[x], p[a], p[b], p[c], s);
    }
    if (!ear) {
      i = (i + 1) % m;
      continue;
    }
    out[k++] = a;
    out[k++] = b;
    out[k++] = c;
    memmove(left + i % m, left + i % m + 1, (m - i % m - 1) * sizeof *left);
    m--;
    i = i % m;
  }
  /* what is left (a triangle, or a degenerate remainder): a fan */
  for (size_t i = 1; i + 1 < m; i++) {
    out[k++] = left[0];
    out[k++] = left[i];
    out[k++] = left[i + 1];
  }
  free(p);
  free(left);
  return 0;
}

/* The model vertex of a pool vertex in a mesh (a copy per primitive taking its attributes). */
static int64_t model_vertex(struct geom *g, const struct egg_node *v, const struct egg_node *prim, uint32_t mesh)
{
  int own = (child_of(prim, S_NORMAL) && !vertex_has(v, S_NORMAL)) ||
            (child_of(prim, S_RGBA) && !vertex_has(v, S_RGBA));
  int64_t key = own ? ((int64_t)1 << 60) + (int64_t)(uintptr_t)prim : (int64_t)mesh;
  struct egg_map_ent *e = egg_map_pair(&g->mverts, (uintptr_t)v, key);
  if (!e)
    return -1;
  if (!e->val) {
    if (grow_to(&g->mv, &g->capmv, g->nmv + 1, sizeof *g->mv, 64) < 0)
      return -1;
    g->mv[g->nmv].vertex = v;
    g->mv[g->nmv].prim = own ? prim : NULL;
    g->mv[g->nmv].mesh = mesh;
    e->val = (void *)(uintptr_t)(++g->nmv);
  }
  return (int64_t)(uintptr_t)e->val - 1;
}

/* The normal or colour (spec S_NORMAL or S_RGBA) vertex v of prim (NULL: none) has in the model:
 * its own, else the primitive's (model_vertex, build_arrays), or NULL. */
static const struct egg_node *vertex_attr(const struct egg_node *v, const struct egg_node *prim, int spec)
{
  const struct egg_node *a = child_of(v, spec);
  return a || !prim ? a : child_of(prim, spec);
}

/* A colour channel as the model's unsigned byte: rounded, clamped, NaN as 0. */
static unsigned char unorm8(double x)
{
  x = floor(0.5 + x * 255);
  return (unsigned char)(x > 255 ? 255 : x > 0 ? x : 0);
}

/* Whether attribute a (a <Normal> or <RGBA>, NULL: none) reads as b in the model: normals as
 * float (build_arrays' put_f32; none is no normal), colours as unsigned bytes, opaque white when
 * absent (what the model and a reader without colours show). */
static int attr_same(const struct egg_node *a, const struct egg_node *b, int spec)
{
  if (spec == S_NORMAL) {
    if (!a || !b)
      return 0;
    for (uint32_t k = 0; k < 3; k++)
      if ((float)(k < egg_nvals(a) ? egg_val_d(a, k) : 0) != (float)(k < egg_nvals(b) ? egg_val_d(b, k) : 0))
        return 0;
    return 1;
  }
  for (uint32_t k = 0; k < 4; k++) {
    double x = a && k < egg_nvals(a) ? egg_val_d(a, k) : 1, y = b && k < egg_nvals(b) ? egg_val_d(b, k) : 1;
    if (unorm8(x) != unorm8(y))
      return 0;
  }
  return 1;
}

/* The <Component>s of strip or fan prim (its n vertices vs) whose normal or colour the model does
 * not draw: Panda3D shades component k's triangle flat with them, the model keeps attributes per
 * vertex, so nothing is lost only when each of the triangle's three vertices carries the same
 * value (the vertices' own or the primitive's). Counted into the doc for MDL-CNV-036. */
static void components_check(struct geom *g, const struct egg_node *prim, const struct egg_node *const *vs, long n)
{
  for (const struct egg_node *c = egg_first(prim); c; c = egg_next(c)) {
    int64_t k = egg_index(c);
    long at[3];
    int lost = 0;
    if (c->spec != S_COMPONENT || c->bad || !egg_first(c))
      continue;
    if (k < 0 || k > n - 3) {
      lost = 1; /* no such triangle (EGG reports it): counted, as any other component */
    } else {
      at[0] = prim->spec == S_TRIFAN ? 0 : (long)k;
      at[1] = (long)k + 1;
      at[2] = (long)k + 2;
      for (const struct egg_node *a = egg_first(c); a && !lost; a = egg_next(a))
        if ((a->spec == S_NORMAL || a->spec == S_RGBA) && !a->bad && a == child_of(c, a->spec))
          for (int i = 0; i < 3 && !lost; i++)
            lost = !attr_same(a, vertex_attr(vs[at[i]], prim, a->spec), a->spec);
    }
    if (lost && (!g->doc->components_lost++ || c < g->doc->component_lost_first))
      g->doc->component_lost_first = c; /* the tree is in file order: the lowest is the first */
  }
}

static int prim_triangles(struct geom *g, const struct egg_node *prim, uint32_t mesh,
                          const struct egg_node ***buf, size_t *cap, uint32_t **ids, size_t *idcap)
{
  long n = prim_vertices(g, prim, buf, cap);
  uint32_t *tri, *nid;
  size_t ntri;
  if (n == -2)
    return -1;
  if (n < 3)
    return 0;
  if (grow_to(ids, idcap, (size_t)n * 4, sizeof **ids, 64) < 0)
    return -1;
  nid = *ids;
  for (long i = 0; i < n; i++) {
    int64_t mv = model_vertex(g, (*buf)[i], prim, mesh);
    if (mv < 0)
      return -1;
    nid[i] = (uint32_t)mv;
  }
  if (prim->spec != S_POLYGON && g->doc->spec_count[S_COMPONENT])
    components_check(g, prim, *buf, n);
  tri = nid + n;
  ntri = (size_t)n - 2;
  if (prim->spec == S_TRISTRIP) {
    for (size_t i = 0; i < ntri; i++) {
      tri[3 * i] = (uint32_t)(i & 1 ? i + 1 : i);
      tri[3 * i + 1] = (uint32_t)(i & 1 ? i : i + 1);
      tri[3 * i + 2] = (uint32_t)(i + 2);
    }
  } else if (prim->spec == S_TRIFAN || n == 3) {
    for (size_t i = 0; i < ntri; i++) {
      tri[3 * i] = 0;
      tri[3 * i + 1] = (uint32_t)(i + 1);
      tri[3 * i + 2] = (uint32_t)(i + 2);
    }
  } else if (polygon_triangulate(*buf, (size_t)n, tri) < 0) {
    return -1;
  }
  for (size_t i = 0; i < ntri; i++)
    if (add_tri(g, nid[tri[3 * i]], nid[tri[3 * i + 1]], nid[tri[3 * i + 2]]) < 0)
      return -1;
  return 0;
}

static int mvert_cmp(const void *a, const void *b)
{
  const struct mvert *x = a, *y = b;
  if (x->vertex->off != y->vertex->off) /* file order */
    return x->vertex->off < y->vertex->off ? -1 : 1;
  if (!x->prim != !y->prim)
    return x->prim ? 1 : -1;
  if (x->prim && x->prim != y->prim)
    return x->prim->off < y->prim->off ? -1 : 1;
  return 0;
}

/* A mesh's vertices in pool order (file order, a primitive's copies after the shared one), not
 * in order of first use: a model written as one pool numbered in its own order reads back in
 * that order. The triangles are renumbered to match. */
static int mesh_sort(struct geom *g, const struct model_mesh *mm)
{
  uint32_t n = mm->num_vertexes, *to;
  struct mvert *v;
  if (n < 2)
    return 0;
  v = g->mv + mm->first_vertex;
  to = malloc((size_t)n * sizeof *to);
  if (!to)
    return -1;
  /* tag each with its old place (mesh is constant within the range), sort, invert */
  for (uint32_t i = 0; i < n; i++)
    v[i].mesh = i;
  qsort(v, n, sizeof *v, mvert_cmp);
  for (uint32_t i = 0; i < n; i++) {
    to[v[i].mesh] = mm->first_vertex + i;
    v[i].mesh = (uint32_t)(mm - g->m->meshes);
  }
  for (size_t t = mm->first_triangle; t < g->ntris; t++)
    for (int k = 0; k < 3; k++) {
      unsigned char *p = g->tris + t * 12 + (size_t)k * 4;
      uint32_t x = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
      x = to[x - mm->first_vertex];
      for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(x >> (8 * i));
    }
  free(to);
  return 0;
}

/* Primitives grouped by mesh (file order within each), their vertices and triangles. */
static int build_meshes(struct geom *g)
{
  const struct egg_node *root = g->doc->root, **buf = NULL;
  uint32_t *ids = NULL, *start = NULL;
  size_t cap = 0, idcap = 0;
  const struct egg_node **sorted = NULL;
  int rc = -1;
  for (const struct egg_node *n = root; n; n = egg_next_skip(n, root, n->spec == S_ROOT || egg_is_group(n->spec))) {
    int64_t mesh;
    if (n->spec == S_TEXTURE && egg_name(n)) {
      /* Panda3D's parser resolves a <TRef> to the last <Texture> of its name read before it,
       * wherever in the file (one namespace, at any depth: a sibling group's counts too) */
      struct egg_map_ent *e = egg_map_at(&g->textures, egg_name(n), egg_name_len(n));
      if (!e)
        goto out;
      e->val = (void *)(uintptr_t)n;
      continue;
    }
    if (!is_triangle_prim(n->spec))
      continue;
    if (n->bad) {
      if (g->m->want_spans) /* where a primitive the model leaves out is: no triangle of it */
        model_span_dropped(g->m, MODEL_EL_TRIANGLE, egg_node_line(n), egg_node_last_line(n));
      continue;
    }
    mesh = prim_mesh(g, n);
    if (mesh < 0)
      goto out;
    if (grow_to(&g->prims, &g->capprims, g->nprims + 1, sizeof *g->prims, 64) < 0 ||
        grow_to(&g->prim_mesh, &g->capprim_mesh, g->nprims + 1, sizeof *g->prim_mesh, 64) < 0)
      goto out;
    g->prims[g->nprims] = n;
    g->prim_mesh[g->nprims++] = (uint32_t)mesh;
    g->mesh[mesh].nprims++;
  }
  if (!g->nprims)
    return 0;
  sorted = malloc(g->nprims * sizeof *sorted);
  start = calloc((size_t)g->nmesh + 1, sizeof *start);
  if (!sorted || !start)
    goto out;
  for (uint32_t k = 0; k < g->nmesh; k++)
    start[k + 1] = start[k] + g->mesh[k].nprims;
  for (size_t i = 0; i < g->nprims; i++)
    sorted[start[g->prim_mesh[i]]++] = g->prims[i];
  g->m->meshes = arena_calloc(&g->m->arena, g->nmesh, sizeof *g->m->meshes);
  if (!g->m->meshes)
    goto out;
  for (uint32_t k = 0, at = 0; k < g->nmesh; k++) {
    struct model_mesh *mm = &g->m->meshes[k];
    const struct egg_node *grp = g->mesh[k].group;
    mm->name = egg_name(grp) ? arena_strndup(&g->m->arena, egg_name(grp), egg_name_len(grp)) : "";
    mm->material = g->mesh[k].material;
    mm->first_vertex = (uint32_t)g->nmv;
    mm->first_triangle = (uint32_t)g->ntris;
    if (!mm->name)
      goto out;
    for (uint32_t i = 0; i < g->mesh[k].nprims; i++) {
      const struct egg_node *prim = sorted[at++];
      size_t first = g->ntris;
      if (prim_triangles(g, prim, k, &buf, &cap, &ids, &idcap) < 0)
        goto out;
      if (g->m->want_spans) {
        uint32_t last = egg_node_last_line(prim);
        for (size_t t = first; t < g->ntris; t++)
          model_span_lines(g->m, MODEL_EL_TRIANGLE, (uint32_t)t, egg_node_line(prim), last);
        if (first == g->ntris)
          model_span_dropped(g->m, MODEL_EL_TRIANGLE, egg_node_line(prim), last);
      }
    }
    mm->num_vertexes = (uint32_t)g->nmv - mm->first_vertex;
    mm->num_triangles = (uint32_t)g->ntris - mm->first_triangle;
    if (mesh_sort(g, mm) < 0)
      goto out;
  }
  g->m->num_meshes = g->nmesh;
  rc = 0;
out:
  free(buf);
  free(ids);
  free(start);
  free(sorted);
  return rc;
}

static const struct egg_node *vertex_uv(const struct egg_node *v, const struct uvset *set)
{
  for (const struct egg_node *c = egg_first(v); c; c = egg_next(c))
    if (c->spec == S_UV && !c->bad && egg_name_len(c) == set->len &&
        (!set->len || !memcmp(egg_name(c), set->name, set->len)))
      return c; /* a repeated set name: Panda3D keeps the first */
  return NULL;
}

/* Which arrays the model gets: what any vertex it uses has. */
static int scan_attributes(struct geom *g)
{
  int unnamed = 0;
  for (size_t i = 0; i < g->nmv; i++) {
    const struct egg_node *v = g->mv[i].vertex, *pr = g->mv[i].prim;
    g->has_normal |= child_of(v, S_NORMAL) || (pr && child_of(pr, S_NORMAL));
    g->has_color |= child_of(v, S_RGBA) || (pr && child_of(pr, S_RGBA));
    for (const struct egg_node *c = egg_first(v); c; c = egg_next(c)) {
      unsigned k;
      if (c->spec != S_UV || c->bad)
        continue;
      for (k = 0; k < g->nuv; k++)
        if (g->uv[k].len == egg_name_len(c) && (!g->uv[k].len || !memcmp(g->uv[k].name, egg_name(c), g->uv[k].len)))
          break;
      if (k == g->nuv && g->nuv < MAX_UVSETS) {
        g->uv[g->nuv].name = egg_name(c) ? egg_name(c) : "";
        g->uv[g->nuv].len = egg_name_len(c);
        unnamed |= !g->uv[g->nuv].len;
        g->nuv++;
      }
    }
  }
  /* the unnamed set first: it is the texcoord */
  for (unsigned k = 1; unnamed && k < g->nuv; k++)
    if (!g->uv[k].len) {
      struct uvset t = g->uv[k];
      memmove(g->uv + 1, g->uv, k * sizeof *g->uv);
      g->uv[0] = t;
    }
  for (size_t i = 0; g->nuv && i < g->nmv; i++) {
    const struct egg_node *uv = vertex_uv(g->mv[i].vertex, &g->uv[0]);
    g->has_tangent |= uv && child_of(uv, S_TANGENT);
  }
  if (g->m->num_joints)
    for (size_t i = 0; i < g->nmv && !g->has_blend; i++) {
      const struct egg_map_ent *e = egg_map_pair_find(&g->vinf, (uintptr_t)g->mv[i].vertex, -1);
      g->has_blend = (e && e->val) || g->mesh[g->mv[i].mesh].joint;
    }
  return 0;
}

static void put_f32(unsigned char *d, double x)
{
  float f = (float)x;
  uint32_t u;
  memcpy(&u, &f, 4);
  for (int i = 0; i < 4; i++)
    d[i] = (unsigned char)(u >> (8 * i));
}

static struct model_varray *varray_new(struct geom *g, uint32_t type, const char *name, uint32_t format,
                                       uint32_t size, unsigned char **data)
{
  struct model_varray *va = &g->m->varrays[g->m->num_varrays];
  size_t bytes = format == VF_FLOAT ? 4 : format == VF_USHORT ? 2 : 1;
  *data = arena_calloc(&g->m->arena, g->nmv ? g->nmv : 1, size * bytes);
  if (!*data)
    return NULL;
  g->m->num_varrays++;
  va->type = type;
  va->name = name;
  va->format = format;
  va->size = size;
  va->data = *data;
  return va;
}

/* The first of pool vertex v's influences in the sorted list (g->ninf: none). */
static size_t first_influence(const struct geom *g, const struct egg_node *v)
{
  const struct egg_map_ent *e = egg_map_pair_find(&g->vinf, (uintptr_t)v, -1);
  return e && e->val ? (uintptr_t)e->val - 1 : g->ninf;
}

/* Influences of the vertex at inf[i] and after that can blend (a total over 0): 1 when more
 * than MAX_INFLUENCES (EGG-VTX-023). */
static int over_four(const struct geom *g, size_t i)
{
  int total = 0;
  for (const struct egg_node *v = i < g->ninf ? g->inf[i].vertex : NULL; i < g->ninf && g->inf[i].vertex == v; i++)
    total += g->inf[i].weight > 0;
  return total > MAX_INFLUENCES;
}

/* Model vertex mv counted for EGG-VTX-023 when its pool vertex has more than 4 influences. */
static void over_four_note(struct geom *g, const struct mvert *mv)
{
  if (over_four(g, first_influence(g, mv->vertex)) && !g->over_four_count++)
    g->over_four_at = mv->vertex;
}

/* Whether more than MAX_INFLUENCES <Joint>s have a membership (else no vertex has as many
 * influences): the walk of the model's joints (egg_anim_decode), whose list poses may not build. */
static int joints_with_members_over_four(const struct egg_doc *doc)
{
  uint32_t n = 0;
  for (const struct egg_node *x = doc->root; x; x = egg_next_skip(x, doc->root, egg_in_node_list(x))) {
    if (x->spec != S_JOINT)
      continue;
    for (const struct egg_node *vr = egg_first(x); vr; vr = egg_next(vr))
      if (vr->spec == S_VREF_GROUP && !vr->bad) {
        if (++n > MAX_INFLUENCES)
          return 1;
        break;
      }
  }
  return 0;
}

/* The 4 largest influences (descending, ties in file order), renormalised; n in *count. */
static int vertex_blend(struct geom *g, const struct mvert *mv, uint32_t idx[4], double w[4])
{
  int n = 0;
  double sum = 0;
  memset(idx, 0, 4 * sizeof *idx);
  memset(w, 0, 4 * sizeof *w);
  for (size_t i = first_influence(g, mv->vertex); i < g->ninf && g->inf[i].vertex == mv->vertex; i++) {
    double x = g->inf[i].weight;
    int at;
    if (!(x > 0))
      continue; /* a total of 0 removes the reference; a negative one cannot blend */
    for (at = n; at > 0 && w[at - 1] < x; at--)
      ;
    if (at >= MAX_INFLUENCES)
      continue;
    for (int s = n < MAX_INFLUENCES ? n : MAX_INFLUENCES - 1; s > at; s--) {
      w[s] = w[s - 1];
      idx[s] = idx[s - 1];
    }
    w[at] = x;
    idx[at] = g->inf[i].joint;
    if (n < MAX_INFLUENCES)
      n++;
  }
  over_four_note(g, mv);
  if (!n && g->mesh[mv->mesh].joint) {
    idx[0] = (uint32_t)g->mesh[mv->mesh].joint_number;
    w[0] = 1;
    n = 1;
  }
  for (int s = 0; s < n; s++)
    sum += w[s];
  for (int s = 0; s < n && sum > 0; s++)
    w[s] /= sum;
  return n;
}

static void weights_ubyte(const double w[4], int n, unsigned char *out)
{
  int sum = 0;
  for (int s = 0; s < n; s++) {
    double x = floor(0.5 + w[s] * 255);
    out[s] = (unsigned char)(x < 0 ? 0 : x > 255 ? 255 : x);
    sum += out[s];
  }
  /* the bytes sum to 255: add from the biggest slot, take from the smallest (order kept) */
  for (int s = 0; n > 0 && sum < 255; s = (s + 1) % n)
    if (out[s] < 255) {
      out[s]++;
      sum++;
    }
  for (int s = n - 1; n > 0 && sum > 255; s = (s + n - 1) % n)
    if (out[s] > 0) {
      out[s]--;
      sum--;
    }
}

static int build_arrays(struct geom *g)
{
  struct model *m = g->m;
  unsigned char *pos, *nrm = NULL, *tan = NULL, *col = NULL, *bi = NULL, *bw = NULL, *uv[MAX_UVSETS];
  uint32_t nva = 1 + (g->nuv ? g->nuv : 0) + (uint32_t)g->has_normal + (uint32_t)g->has_tangent +
                 2u * (uint32_t)g->has_blend + (uint32_t)g->has_color;
  uint32_t ifmt = m->num_joints > 256 ? VF_USHORT : VF_UBYTE;
  m->varrays = arena_calloc(&m->arena, nva, sizeof *m->varrays);
  if (!m->varrays)
    return -1;
  m->num_vertexes = (uint32_t)g->nmv;
  /* IQM's order of types */
  if (!varray_new(g, VT_POSITION, NULL, VF_FLOAT, 3, &pos))
    return -1;
  if (g->nuv && !varray_new(g, VT_TEXCOORD, NULL, VF_FLOAT, 2, &uv[0]))
    return -1;
  if ((g->has_normal && !varray_new(g, VT_NORMAL, NULL, VF_FLOAT, 3, &nrm)) ||
      (g->has_tangent && !varray_new(g, VT_TANGENT, NULL, VF_FLOAT, 4, &tan)) ||
      (g->has_blend && !varray_new(g, VT_BLENDINDEXES, NULL, ifmt, 4, &bi)) ||
      (g->has_blend && !varray_new(g, VT_BLENDWEIGHTS, NULL, VF_UBYTE, 4, &bw)) ||
      (g->has_color && !varray_new(g, VT_COLOR, NULL, VF_UBYTE, 4, &col)))
    return -1;
  for (unsigned k = 1; k < g->nuv; k++) {
    const char *name = arena_strndup(&m->arena, g->uv[k].name, g->uv[k].len);
    if (!name || !varray_new(g, VT_CUSTOM + k - 1, name, VF_FLOAT, 2, &uv[k]))
      return -1;
  }
  for (size_t i = 0; i < g->nmv; i++) {
    const struct mvert *mv = &g->mv[i];
    const struct egg_node *v = mv->vertex, *a;
    double p[3], n[3] = {0, 0, 0};
    vertex_pos(v, p);
    for (int k = 0; k < 3; k++)
      put_f32(pos + i * 12 + (size_t)k * 4, p[k]);
    if (nrm) {
      a = vertex_attr(v, mv->prim, S_NORMAL);
      for (uint32_t k = 0; a && k < 3 && k < egg_nvals(a); k++)
        n[k] = egg_val_d(a, k);
      for (int k = 0; k < 3; k++)
        put_f32(nrm + i * 12 + (size_t)k * 4, n[k]);
    }
    for (unsigned k = 0; k < g->nuv; k++) {
      a = vertex_uv(v, &g->uv[k]);
      for (uint32_t c = 0; c < 2; c++)
        put_f32(uv[k] + i * 8 + c * 4, a && c < egg_nvals(a) ? egg_val_d(a, c) : 0);
      if (k == 0 && tan) {
        const struct egg_node *t = a ? child_of(a, S_TANGENT) : NULL, *b = a ? child_of(a, S_BINORMAL) : NULL;
        double tv[4] = {0, 0, 0, 1}, x[3];
        for (uint32_t c = 0; t && c < egg_nvals(t) && c < 4; c++)
          tv[c] = egg_val_d(t, c);
        if (t && egg_nvals(t) < 4 && b && egg_nvals(b) == 3) {
          x[0] = n[1] * tv[2] - n[2] * tv[1];
          x[1] = n[2] * tv[0] - n[0] * tv[2];
          x[2] = n[0] * tv[1] - n[1] * tv[0];
          tv[3] = x[0] * egg_val_d(b, 0) + x[1] * egg_val_d(b, 1) + x[2] * egg_val_d(b, 2) < 0 ? -1 : 1;
        }
        for (int c = 0; c < 4; c++)
          put_f32(tan + i * 16 + (size_t)c * 4, tv[c]);
      }
    }
    if (col) {
      double c4[4] = {1, 1, 1, 1};
      a = vertex_attr(v, mv->prim, S_RGBA);
      for (uint32_t c = 0; a && c < 4 && c < egg_nvals(a); c++)
        c4[c] = egg_val_d(a, c);
      for (int c = 0; c < 4; c++)
        col[i * 4 + (size_t)c] = unorm8(c4[c]);
    }
    if (bi) {
      uint32_t idx[4];
      double w[4];
      int nb = vertex_blend(g, mv, idx, w);
      if (nb < 0)
        return -1;
      for (int c = 0; c < 4; c++) {
        if (ifmt == VF_UBYTE) {
          bi[i * 4 + (size_t)c] = (unsigned char)idx[c];
        } else {
          bi[i * 8 + (size_t)c * 2] = (unsigned char)idx[c];
          bi[i * 8 + (size_t)c * 2 + 1] = (unsigned char)(idx[c] >> 8);
        }
      }
      weights_ubyte(w, nb, bw + i * 4);
    }
  }
  return 0;
}

int egg_geometry_decode(struct egg_doc *doc, struct model *m)
{
  struct geom g;
  int rc = -1;
  memset(&g, 0, sizeof g);
  g.doc = doc;
  g.m = m;
  /* poses (keep_anim without keep_values): EGG-VTX-023 alone, which a vertex can have only
   * with 5 joints naming it, found without this decode's maps (egg_geometry_lean.c) */
  if (!doc->keep_values && doc->keep_anim) {
    if (!joints_with_members_over_four(doc))
      return 0;
    if (egg_joint_offs(doc) < 0 || egg_geometry_lean(doc, m) < 0) {
      diag_out_of_memory(doc->ctx->diag, "building the egg geometry");
      return -1;
    }
    return 0;
  }
  if (doc->dropped || !doc->keep_values)
    return 0; /* validation alone: the values were not kept, and nothing reads the geometry */
  egg_map_init(&g.pools, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&g.verts, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&g.textures, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&g.meshes, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&g.members, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&g.mverts, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&g.vinf, &doc->map_failures, egg_doc_bound(doc));
  if (collect_pools(&g) < 0 || collect_members(&g) < 0 || index_members(&g) < 0)
    goto out;
  if (build_meshes(&g) < 0)
    goto out;
  if (g.nmv) {
    if (scan_attributes(&g) < 0 || build_arrays(&g) < 0)
      goto out;
    m->triangles = arena_calloc(&m->arena, g.ntris ? g.ntris * 12 : 1, 1);
    if (!m->triangles)
      goto out;
    if (g.ntris)
      memcpy((unsigned char *)(uintptr_t)m->triangles, g.tris, g.ntris * 12);
    m->num_triangles = (uint32_t)g.ntris;
    if (m->want_spans) /* each model vertex at its pool <Vertex> (mesh_sort's final order) */
      for (size_t v = 0; v < g.nmv; v++)
        model_span_lines(m, MODEL_EL_VERTEX, (uint32_t)v, egg_node_line(g.mv[v].vertex),
                         egg_node_last_line(g.mv[v].vertex));
  }
  if (g.over_four_count) {
    char what[160];
    snprintf(what, sizeof what, "%u vertices (the first in <VertexPool> %.80s)", g.over_four_count,
             egg_name(egg_parent(g.over_four_at)) ? egg_name(egg_parent(g.over_four_at)) : "");
    egg_emit_node(doc, RULE_EGG_INFLUENCES_OVER_FOUR, g.over_four_at, "4", "%s", what);
  }
  rc = 0;
out:
  egg_map_free(&g.pools);
  egg_map_free(&g.verts);
  egg_map_free(&g.textures);
  egg_map_free(&g.meshes);
  egg_map_free(&g.members);
  egg_map_free(&g.mverts);
  egg_map_free(&g.vinf);
  free(g.inf);
  free(g.mesh);
  free(g.prims);
  free(g.prim_mesh);
  free(g.mv);
  free(g.tris);
  if (rc < 0 || g.pools.oom || g.verts.oom || g.members.oom || g.mverts.oom || g.vinf.oom) {
    /* MDL-MEM-001, the rule of an allocation that failed: the callers answer MDL_ENOMEM */
    diag_out_of_memory(doc->ctx->diag, "building the egg geometry");
    return -1;
  }
  return 0;
}
