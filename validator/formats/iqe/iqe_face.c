/* iqe_face.c - meshes, materials, faces (fa fm), smoothing flags (fs) and smoothing parameters
 * (iqe.txt "Meshes", "Triangles", "Smoothing"). Polygons are fanned as (a, b, c), (a, c, d), ... */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iqe.h"
#include "image_info.h"
#include "model_geometry.h"

/* image_file_named of the C string s (len bytes, up to a NUL) names, as the reference
 * model_ref_add would make of it: only the end of the name matters. */
static int image_named(const char *s, uint32_t len)
{
  char tail[16];
  const char *nul = memchr(s, 0, len);
  size_t n = nul ? (size_t)(nul - s) : len, k = n < sizeof tail - 1 ? n : sizeof tail - 1;
  memcpy(tail, s + n - k, k);
  tail[k] = 0;
  return image_file_named(tail);
}

void iqe_mesh_close(struct iqe_parser *p)
{
  struct iqe_mesh *me;
  if (p->num_mesh_recs == 0)
    return;
  me = &p->meshes[p->num_mesh_recs - 1];
  me->end_vertex = iqe_vertex_count(p);
  if (p->mesh_set) { /* interned before its material, as when it was interned at its line */
    p->mesh_set = 0;
    if (me->num_triangles > 0)
      me->name = iqe_name(p, iqe_name_id(p, p->mesh_s, p->mesh_len));
  }
  if (p->mat_set) {
    p->mat_set = 0;
    if (me->num_triangles > 0)
      me->material = iqe_name(p, iqe_name_id(p, p->mat_s, p->mat_len));
  }
  if (p->spans && me->end_vertex > me->first_vertex && p->num_spans < p->counts[CMD_MESH] + 2) {
    struct iqe_mesh_span *sp = &p->spans[p->num_spans++];
    sp->first_vertex = me->first_vertex;
    sp->end_vertex = me->end_vertex;
    sp->line = me->line;
  }
}

static struct iqe_mesh *mesh_open(struct iqe_parser *p, uint32_t line)
{
  struct iqe_mesh *me;
  iqe_mesh_close(p);
  /* validation drops a closed mesh without triangles: no later check reads its record (one
   * holding vertices in a file without faces left its span) */
  if (p->num_mesh_recs > 0 && !p->keep_geo && p->meshes[p->num_mesh_recs - 1].num_triangles == 0)
    p->num_mesh_recs--; /* counted only: its record is the new mesh's */
  me = &p->meshes[p->num_mesh_recs++];
  p->num_meshes++;
  memset(me, 0, sizeof *me);
  me->name = "";
  me->material = "";
  me->first_vertex = iqe_vertex_count(p);
  me->ref_min = UINT32_MAX;
  me->first_triangle = p->num_tris;
  me->line = line;
  return me;
}

void iqe_face_mesh(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                   uint32_t nargs, const double *vals, uint32_t given)
{
  struct iqe_mesh *me;
  (void)vals;
  (void)given;
  if (p->num_meshes > p->counts[CMD_MESH])
    return; /* cannot happen: counted (+1 for an implicit mesh) */
  me = mesh_open(p, ln->no);
  p->in_mesh = 1;
  if (!p->ctx->keep_frames) {
    /* validation: only a kept record's name is read (meshes_repeated_check), so it is
     * interned when the mesh closes with triangles (iqe_mesh_close) */
    iqe_arg_name_check(p, ln, args, nargs);
    p->mesh_s = nargs ? args[0].s : "";
    p->mesh_len = nargs ? args[0].len : 0;
    p->mesh_set = 1;
    return;
  }
  me->name = iqe_name(p, iqe_arg_name(p, ln, args, nargs));
}

void iqe_face_material(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                       uint32_t nargs, const double *vals, uint32_t given)
{
  uint32_t id;
  (void)vals;
  (void)given;
  if (!p->in_mesh) {
    iqe_emit(p, RULE_IQE_MATERIAL_OUTSIDE_MESH, ln->no, args[-1].col, NULL, NULL);
    if (p->num_meshes == 0)
      mesh_open(p, ln->no)->first_vertex = 0; /* no mesh command: its block starts the file */
  }
  if (!p->ctx->keep_frames && (!(p->ctx->options && p->ctx->options->resources) ||
                               (p->ctx->refs_distinct && !(nargs && image_named(args[0].s, args[0].len))))) {
    /* nothing reads the references, and only a kept record's material (iqe_mesh_close); with
     * --resources alone, only those that look like image files (resources_check looks for no
     * other material's file): a file of a million unique `material` lines recorded a reference
     * and an interned name for each (issue 26) */
    iqe_arg_name_check(p, ln, args, nargs);
    p->mat_s = nargs ? args[0].s : "";
    p->mat_len = nargs ? args[0].len : 0;
    p->mat_set = 1;
    return;
  }
  id = iqe_arg_name(p, ln, args, nargs);
  p->meshes[p->num_mesh_recs - 1].material = iqe_name(p, id);
  p->mat_set = 0; /* this one is the mesh's material, not one read before it */
  /* one reference per material name: every reader of the list (resources, compare, the
   * conversion's losses) takes an equal reference's first place only */
  if (nargs && args[0].len && id < p->names.n && !(p->names.v[id].joints & IQE_NAME_REF)) {
    char path[48];
    p->names.v[id].joints |= IQE_NAME_REF;
    snprintf(path, sizeof path, "meshes[%u].material", p->num_meshes - 1);
    (void)model_ref_add(p->m, MODEL_REF_TEXTURE, 1, args[0].s, args[0].len, -1, ln->no,
                        args[0].col, path);
  }
}

/* Vertex v's position into out; NULL when v has none. */
static const double *position(const struct iqe_parser *p, uint32_t v, double out[3])
{
  const struct iqe_attr_arr *a = &p->attr[ATTR_VP];
  if (v >= a->count)
    return NULL;
  iqe_attr_get_n(a, v, out, 3);
  return out;
}

static int smoothing_used(const struct iqe_parser *p)
{
  return p->counts[CMD_FS] || p->counts[CMD_SMOOTHUV] || p->counts[CMD_SMOOTHGROUP] ||
         p->counts[CMD_SMOOTHANGLE];
}

static void sub3(double o[3], const double a[3], const double b[3])
{
  o[0] = a[0] - b[0];
  o[1] = a[1] - b[1];
  o[2] = a[2] - b[2];
}

static void cross3(double o[3], const double a[3], const double b[3])
{
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Planarity and convexity of a polygon with corners idx[0..n) (all positions defined). */
static void polygon_check(struct iqe_parser *p, const struct iqe_line *ln,
                          const struct iqe_tok *args, const uint32_t *idx, uint32_t n)
{
  double nrm[3] = {0, 0, 0}, c[3] = {0, 0, 0}, lo[3], hi[3], diam, len;
  for (uint32_t i = 0; i < n; i++) {
    double pa[3], pb[3];
    const double *a = position(p, idx[i], pa), *b = position(p, idx[(i + 1) % n], pb);
    if (!a || !b)
      return;
    nrm[0] += (a[1] - b[1]) * (a[2] + b[2]);
    nrm[1] += (a[2] - b[2]) * (a[0] + b[0]);
    nrm[2] += (a[0] - b[0]) * (a[1] + b[1]);
    for (int k = 0; k < 3; k++) {
      c[k] += a[k] / n;
      lo[k] = i == 0 || a[k] < lo[k] ? a[k] : lo[k];
      hi[k] = i == 0 || a[k] > hi[k] ? a[k] : hi[k];
    }
  }
  /* the bounding box diagonal stands for the diameter: linear in the corner count */
  {
    double d[3];
    sub3(d, hi, lo);
    diam = sqrt(dot3(d, d));
  }
  len = sqrt(dot3(nrm, nrm));
  if (len == 0 || diam == 0 || !isfinite(len))
    return; /* no area: reported as degenerate by its triangles */
  for (int k = 0; k < 3; k++)
    nrm[k] /= len;
  {
    double worst = 0;
    uint32_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
      double d[3], pi[3], dist;
      sub3(d, position(p, idx[i], pi), c);
      dist = fabs(dot3(d, nrm));
      if (dist > worst) {
        worst = dist;
        at = i;
      }
    }
    if (worst > 1e-3 * diam) {
      char tol[32];
      snprintf(tol, sizeof tol, "%.3g", 1e-3 * diam);
      iqe_emit(p, RULE_IQE_POLYGON_NOT_PLANAR, ln->no, iqe_arg(p, args, at)->col, tol, "%.3g", worst);
      return;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    double e0[3], e1[3], x[3], pp[3], pi[3], pn[3];
    sub3(e0, position(p, idx[i], pi), position(p, idx[(i + n - 1) % n], pp));
    sub3(e1, position(p, idx[(i + 1) % n], pn), pi);
    cross3(x, e0, e1);
    if (dot3(x, nrm) < -1e-9 * diam * diam) {
      const struct iqe_tok *t = iqe_arg(p, args, i);
      iqe_emit(p, RULE_IQE_POLYGON_NOT_CONVEX, ln->no, t->col, NULL, "%u (index %.*s)",
               (unsigned)i, (int)(t->len > 20 ? 20 : t->len), t->s);
      return;
    }
  }
}

/* 1 when the triangle's corners (all positions defined) span no area. */
static int triangle_flat(const struct iqe_parser *p, const uint32_t *idx)
{
  double pa[3], pb[3], pc[3];
  const double *a = position(p, idx[0], pa), *b = position(p, idx[1], pb), *c = position(p, idx[2], pc);
  /* the test every format's triangles get (MDL-GEO-002), applied here per face */
  return a && b && c && geo_triangle_flat(a, b, c);
}

static void triangle_check(struct iqe_parser *p, const struct iqe_line *ln,
                           const struct iqe_tok *args, const uint32_t *idx, const uint32_t *at)
{
  for (int i = 0; i < 3; i++)
    for (int j = i + 1; j < 3; j++)
      if (idx[i] == idx[j]) {
        iqe_emit(p, RULE_IQE_FACE_DEGENERATE, ln->no, iqe_arg(p, args, at[j])->col, NULL,
                 "vertex %u is used twice (the reference compiler drops it)", idx[i]);
        return;
      }
  if (triangle_flat(p, idx))
    iqe_emit(p, RULE_IQE_FACE_DEGENERATE, ln->no, iqe_arg(p, args, at[0])->col, NULL,
             "corners %u %u %u have zero area", idx[0], idx[1], idx[2]);
}

/* A face-less triangle has three distinct vertices by construction: only its area can fail. The
 * location is the vp line of its first vertex, pointing at the command. */
void iqe_face_check_implicit(struct iqe_parser *p, uint32_t v)
{
  uint32_t idx[3] = {v, v + 1, v + 2};
  if (v > UINT32_MAX - 2 || v + 2 >= p->attr[ATTR_VP].count || !triangle_flat(p, idx))
    return;
  iqe_emit(p, RULE_IQE_FACE_DEGENERATE, iqe_lines_get(&p->attr[ATTR_VP].lines, v), 0, NULL,
           "corners %u %u %u (a face-less triangle: 3 consecutive vertices) have zero area",
           idx[0], idx[1], idx[2]);
}

/* ---- smoothing state -------------------------------------------------------------------- */

static const struct iqe_smooth_state smooth_defaults = {-1, 180, 0, 0};

/* A new state for the commands that follow, starting as a copy of the current one. NULL when
 * the arrays cannot be had (then smoothing keeps the older state). Only the model's smoothing
 * reads the states: validation keeps the current one alone (24 bytes a `smoothuv` line were
 * 3.4 x the text of a file of them). */
static struct iqe_smooth_state *smooth_push(struct iqe_parser *p)
{
  uint32_t cap = p->keep_geo ? p->counts[CMD_SMOOTHUV] + p->counts[CMD_SMOOTHGROUP] + p->counts[CMD_SMOOTHANGLE] + 1 : 2;
  struct iqe_smooth_state *s;
  if (!p->smooth) {
    p->smooth = arena_calloc(&p->scratch, cap, sizeof *p->smooth);
    if (!p->smooth)
      return NULL;
    p->smooth[0] = smooth_defaults;
    p->num_smooth = 1;
  }
  if (!p->keep_geo && p->num_smooth == cap) {
    s = &p->smooth[cap - 1]; /* changed in place: nothing reads the state before */
    s->first_vertex = iqe_vertex_count(p);
    return s;
  }
  if (p->num_smooth >= cap)
    return NULL; /* cannot happen: one per counted command */
  s = &p->smooth[p->num_smooth];
  *s = p->smooth[p->num_smooth - 1];
  s->first_vertex = iqe_vertex_count(p);
  p->num_smooth++;
  return s;
}

const struct iqe_smooth_state *iqe_face_smooth_state(const struct iqe_parser *p, uint32_t t,
                                                     uint32_t v)
{
  uint32_t lo = 0, hi;
  if (!p->smooth)
    return &smooth_defaults;
  if (t != UINT32_MAX)
    return p->tri_smooth && t < p->num_tris ? &p->smooth[p->tri_smooth[t]] : &smooth_defaults;
  /* the last state set before vertex v was defined (vertex counts only grow, but for an array
   * that outruns vp: then this is the nearest reading) */
  hi = p->num_smooth;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (p->smooth[mid].first_vertex <= v)
      lo = mid;
    else
      hi = mid;
  }
  return &p->smooth[lo];
}

unsigned iqe_face_smooth_edges(const struct iqe_parser *p, uint32_t t)
{
  uint32_t face, fan, n, k, flags[3];
  const unsigned char *f;
  if (p->num_fs == 0 || t == UINT32_MAX || !p->tri_face || t >= p->num_tris)
    return 7;
  face = p->tri_face[t];
  fan = p->tri_fan[t];
  /* the k-th fs pairs with the k-th face command (iqe.txt "fs"): a face without one, or a
   * missing flag, smooths as if fs were not used */
  if (face >= p->num_fs || !p->fs_flags || !(f = p->fs_flags[face]))
    return 7;
  n = p->face_arity[face];
  k = p->fs_arity[face];
  /* triangle (a0, a_fan, a_fan+1) of the fan: its first and last edges are polygon edges only
   * at the ends of the fan, inner fan edges always smooth */
  flags[0] = fan == 1 ? (0 < k ? f[0] : 1) : 1;
  flags[1] = fan < k ? f[fan] : 1;
  flags[2] = fan + 2 == n ? (n - 1 < k ? f[n - 1] : 1) : 1;
  return flags[0] | flags[1] << 1 | flags[2] << 2;
}

void iqe_face_add(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                  uint32_t nargs, const double *vals, uint32_t given)
{
  int relative = args[-1].s[1] == 'm';
  uint32_t vcount = iqe_vertex_count(p), base = 0, bad = 0;
  struct iqe_mesh *me;
  uint32_t stack_idx[64];
  uint32_t *idx = stack_idx;
  (void)vals;
  (void)given;

  if (p->num_faces < p->counts[CMD_FA] + p->counts[CMD_FM]) {
    uint32_t k = p->num_faces;
    if (k < p->fs_pairs) {
      if (k < p->num_fs)
        iqe_face_pair(p, k, ln->no, nargs, p->fs_line[k], p->fs_arity[k]);
      if (k >= p->num_fs || p->keep_geo) {
        p->face_arity[k] = nargs;
        p->face_line[k] = ln->no;
      }
    } else if (p->num_faces == p->counts[CMD_FS] && p->counts[CMD_FS]) {
      p->face_unpaired_line = ln->no;
    }
    p->num_faces++;
  }
  if (!p->in_mesh && p->num_meshes == 0) {
    iqe_emit(p, RULE_IQE_FACE_OUTSIDE_MESH, ln->no, args[-1].col, NULL, NULL);
    mesh_open(p, ln->no)->first_vertex = 0; /* no mesh command: its block starts the file */
  }
  me = &p->meshes[p->num_mesh_recs - 1];
  if (relative)
    base = me->first_vertex;
  if (nargs > 64 && p->corners && nargs <= p->corner_cap - p->num_corners) {
    /* read straight into validation's corners (kept when the face is good) */
    idx = p->corners + p->num_corners;
  } else if (nargs > 64) {
    /* one buffer for every long face, as long as the longest (an arena block per face kept
     * them all) */
    if (nargs > p->idx_cap) {
      uint32_t *grown = realloc(p->idx_buf, (size_t)nargs * sizeof *idx);
      if (!grown) {
        p->scratch.failed = 1; /* said as the scratch arena's failure: MDL-MEM-001 */
        return;
      }
      p->idx_buf = grown;
      p->idx_cap = nargs;
    }
    idx = p->idx_buf;
  }
  for (uint32_t i = 0; i < nargs; i++) {
    long v;
    int64_t g;
    const struct iqe_tok *t = iqe_arg(p, args, i);
    if (iqe_arg_int(p, ln, t, &v) < 0) {
      bad = 1;
      continue;
    }
    g = v < 0 ? (int64_t)vcount + v : (int64_t)base + v;
    if (g < (int64_t)(relative ? base : 0) || g >= (int64_t)vcount) {
      char range[128];
      if (vcount - (relative ? base : 0) == 0)
        snprintf(range, sizeof range, "the vertices defined so far: there are none%s",
                 relative ? " in the current mesh" : "");
      else if (relative)
        snprintf(range, sizeof range, "the current mesh's %u vertices (0 to %u, or -%u to -1)",
                 vcount - base, vcount - base ? vcount - base - 1 : 0, vcount - base);
      else
        snprintf(range, sizeof range, "the %u vertices defined so far (0 to %u, or -%u to -1)",
                 vcount, vcount ? vcount - 1 : 0, vcount);
      iqe_emit(p, RULE_IQE_FACE_INDEX_RANGE, ln->no, t->col, range, "%ld", v);
      bad = 1;
      continue;
    }
    idx[i] = (uint32_t)g;
  }
  if (nargs < 3 || bad) {
    if (nargs < 3)
      iqe_emit(p, RULE_IQE_FACE_TOO_FEW, ln->no, args[-1].col, NULL, "%u", (unsigned)nargs);
    model_span_dropped(p->m, MODEL_EL_TRIANGLE, ln->no, ln->no); /* a face the model leaves out */
    return;
  }
  if (nargs > 3)
    polygon_check(p, ln, args, idx, nargs);
  if (p->corners && nargs <= p->corner_cap - p->num_corners) { /* cannot fail: counted */
    p->corner_start[p->num_corners / 8] |= (unsigned char)(1u << (p->num_corners % 8));
    if (idx != p->corners + p->num_corners)
      memcpy(p->corners + p->num_corners, idx, (size_t)nargs * sizeof *idx);
    p->num_corners += nargs;
  }
  if (!p->tri_smooth && smoothing_used(p) && p->keep_geo) {
    /* what smoothing needs per triangle, sized once from the counting pass (a file without
     * smoothing commands smooths every triangle alike and pays nothing per triangle; nor
     * does validation, which generates no normals) */
    p->tri_smooth = arena_alloc_lazy(&p->scratch, (size_t)p->tri_cap + 1, sizeof *p->tri_smooth);
    p->tri_face = arena_alloc_lazy(&p->scratch, (size_t)p->tri_cap + 1, sizeof *p->tri_face);
    p->tri_fan = arena_alloc_lazy(&p->scratch, (size_t)p->tri_cap + 1, sizeof *p->tri_fan);
    if (!p->tri_smooth || !p->tri_face || !p->tri_fan)
      p->tri_smooth = p->tri_face = p->tri_fan = NULL;
  }
  for (uint32_t i = 1; i + 1 < nargs; i++) {
    uint32_t tri[3] = {idx[0], idx[i], idx[i + 1]}, at[3] = {0, i, i + 1};
    if (p->num_tris >= p->tri_cap)
      break;
    triangle_check(p, ln, args, tri, at);
    if (p->tri_smooth) {
      p->tri_smooth[p->num_tris] = p->num_smooth ? p->num_smooth - 1 : 0;
      p->tri_face[p->num_tris] = p->num_faces ? p->num_faces - 1 : 0;
      p->tri_fan[p->num_tris] = i;
    }
    if (p->tris)
      memcpy(p->tris + (size_t)p->num_tris * 3, tri, sizeof tri);
    if (p->tri_line)
      p->tri_line[p->num_tris] = ln->no;
    p->num_tris++;
    me->num_triangles++;
    for (int k = 0; k < 3; k++) {
      if (tri[k] < me->ref_min)
        me->ref_min = tri[k];
      if (tri[k] > me->ref_max)
        me->ref_max = tri[k];
    }
  }
}

void iqe_face_pair(struct iqe_parser *p, uint32_t k, uint32_t face_line, uint32_t face_arity,
                   uint32_t fs_line, uint32_t fs_arity)
{
  /* pairs complete in order (the k-th of each comes after the (k-1)-th): the first kept is the
   * first in the file */
  if (p->fs_mismatch.found || face_arity == fs_arity)
    return;
  p->fs_mismatch.found = 1;
  p->fs_mismatch.k = k;
  p->fs_mismatch.face_line = face_line;
  p->fs_mismatch.face_arity = face_arity;
  p->fs_mismatch.fs_line = fs_line;
  p->fs_mismatch.fs_arity = fs_arity;
}

void iqe_face_smooth_flags(struct iqe_parser *p, const struct iqe_line *ln,
                           const struct iqe_tok *args, uint32_t nargs, const double *vals,
                           uint32_t given)
{
  (void)vals;
  (void)given;
  unsigned char *flags = NULL;
  if (p->num_fs < p->fs_pairs && p->keep_geo) {
    if (!p->fs_flags)
      p->fs_flags = arena_calloc(&p->scratch, (size_t)p->fs_pairs + 1, sizeof *p->fs_flags);
    if (p->fs_flags && nargs > 0)
      flags = p->fs_flags[p->num_fs] = arena_calloc(&p->scratch, nargs, 1);
  }
  for (uint32_t i = 0; i < nargs; i++) {
    long v;
    const struct iqe_tok *t = iqe_arg(p, args, i);
    int ok = iqe_arg_int(p, ln, t, &v) == 0;
    if (ok && v != 0 && v != 1)
      iqe_emit(p, RULE_IQE_SMOOTH_FLAG_VALUE, ln->no, t->col, NULL, "%ld", v);
    if (flags)
      flags[i] = !ok || v > 0; /* clamped to 0/1 as the reference compiler; unreadable: smooth */
  }
  if (p->num_fs < p->counts[CMD_FS]) {
    uint32_t k = p->num_fs;
    if (k < p->fs_pairs) {
      if (k < p->num_faces)
        iqe_face_pair(p, k, p->face_line[k], p->face_arity[k], ln->no, nargs);
      if (k >= p->num_faces || p->keep_geo) {
        p->fs_arity[k] = nargs;
        p->fs_line[k] = ln->no;
      }
    } else if (p->num_fs == p->counts[CMD_FA] + p->counts[CMD_FM]) {
      p->fs_unpaired_line = ln->no;
    }
    p->num_fs++;
  }
}

void iqe_face_smoothing(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                        uint32_t nargs, const double *vals, uint32_t given)
{
  const struct iqe_tok *cmd = args - 1;
  (void)given;
  if (cmd->len == 11 && !memcmp(cmd->s, "smoothangle", 11)) {
    double a = vals[0];
    struct iqe_smooth_state *s;
    if (nargs == 0)
      return;
    if ((s = smooth_push(p)) != NULL)
      s->angle = a;
    if (a < 0 || a > 180) {
      iqe_emit(p, RULE_IQE_SMOOTHANGLE_RANGE, ln->no, args[0].col, NULL, "%g", a);
    } else if (a > 90) {
      char as[48];
      if (a == 180)
        snprintf(as, sizeof as, "0 (faceted)");
      else
        snprintf(as, sizeof as, "%g", 180 - a);
      iqe_emit(p, RULE_IQE_SMOOTHANGLE_PORTABILITY, ln->no, args[0].col, as, "%g", a);
    }
    return;
  }
  if (nargs == 0) {
    if (cmd->len == 8 && !memcmp(cmd->s, "smoothuv", 8)) {
      struct iqe_smooth_state *s = smooth_push(p);
      iqe_emit(p, RULE_IQE_SMOOTHUV_MISSING, ln->no, cmd->col, NULL, NULL);
      if (s)
        s->uv = 1; /* undefined by the spec; the reference compiler enables it */
    }
    return;
  }
  {
    long v;
    struct iqe_smooth_state *s;
    if (iqe_arg_int(p, ln, &args[0], &v) < 0 || (s = smooth_push(p)) == NULL)
      return;
    if (cmd->len == 8 && !memcmp(cmd->s, "smoothuv", 8))
      s->uv = v > 0;
    else
      s->key = v;
  }
}
