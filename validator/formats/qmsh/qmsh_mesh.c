/* qmsh_mesh.c - geometry: vertices (layout per flags), triangles, submeshes, splits, and the
 * header's bbox and radius against the vertices. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qmsh.h"

/* A float of vertex v at byte offset off (+ 4c); the arena copy keeps the file's bytes. */
float qmsh_vertex_f32(const struct qmsh_mesh *q, uint32_t v, int off, int c)
{
  const unsigned char *p = q->verts + (size_t)v * q->vertex_size + (size_t)off + 4u * (size_t)c;
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static void vtx_field_finite(struct qmsh_dec *d, uint32_t v, int off, int n, const char *name)
{
  for (int c = 0; off >= 0 && c < n; c++) {
    float f = qmsh_vertex_f32(d->q, v, off, c);
    if (!isfinite(f)) {
      struct mdl_loc loc = loc_bin(d->vert_off + (uint64_t)v * d->q->vertex_size + (uint64_t)off +
                                     4u * (uint64_t)c, "vertices[%u].%s[%d]", v, name, c);
      diag_emit(d->diag, RULE_QMSH_NON_FINITE, &loc, "finite", "%g", (double)f);
    }
  }
}

/* 1 when the loop below would report nothing on vertex v: every float field finite (the
 * exponent bits not all set), the weight in [0, 1], the two bone ids within n_bones when
 * skeletal and the spare ids 0. The fields are at most 16 floats (64 bytes): tested together. */
static int vertex_clean(const struct qmsh_mesh *q, uint32_t v, const struct qmsh_vlayout *l, int skeletal)
{
  const unsigned char *p = q->verts + (size_t)v * q->vertex_size;
  uint32_t odd = 0;
  for (uint32_t off = 0; off + 4 <= q->vertex_size; off += 4) {
    uint32_t u = (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 |
                 (uint32_t)p[off + 3] << 24;
    /* the index bytes are no float: skipped */
    odd |= ((int)off != l->idx) & ((u & 0x7F800000u) == 0x7F800000u);
  }
  if (l->weight >= 0) {
    float w = qmsh_vertex_f32(q, v, l->weight, 0);
    odd |= !(w >= 0 && w <= 1);
  }
  if (l->idx >= 0) {
    const unsigned char *ix = p + l->idx;
    odd |= (skeletal & ((ix[0] > q->h.n_bones) | (ix[1] > q->h.n_bones))) | (ix[2] != 0) | (ix[3] != 0);
  }
  return !odd;
}

int qmsh_vertices_read(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  struct qmsh_vlayout l;
  const unsigned char *src;
  char nb[16];

  q->vertex_size = qmsh_vertex_size(q->h.flags);
  d->vert_off = d->pos;
  if (qmsh_need_array(d, q->h.n_verts, q->vertex_size, "vertices", 6, "header.n_verts") < 0)
    return -1;
  src = reader_ptr(d->in, d->pos, (uint64_t)q->h.n_verts * q->vertex_size);
  q->verts = arena_calloc(&d->m->arena, (size_t)q->h.n_verts + 1, q->vertex_size);
  if (!q->verts)
    return -1;
  if (src)
    memcpy(q->verts, src, (size_t)q->h.n_verts * q->vertex_size);
  d->pos += (uint64_t)q->h.n_verts * q->vertex_size;

  qmsh_vertex_layout(q->h.flags, &l);
  snprintf(nb, sizeof nb, "%u", q->h.n_bones);
  for (uint32_t v = 0; v < q->h.n_verts; v++) {
    uint64_t rec = d->vert_off + (uint64_t)v * q->vertex_size;
    const unsigned char *ix = l.idx >= 0 ? q->verts + (size_t)v * q->vertex_size + (size_t)l.idx : NULL;
    if (vertex_clean(q, v, &l, d->skeletal))
      continue; /* nothing below would report on this vertex */
    vtx_field_finite(d, v, l.pos, 3, "pos");
    vtx_field_finite(d, v, l.weight, 1, "weight");
    vtx_field_finite(d, v, l.normal, 3, "normal");
    vtx_field_finite(d, v, l.tex, 2, "tex");
    vtx_field_finite(d, v, l.tangent, 3, "tangent");
    vtx_field_finite(d, v, l.binormal, 3, "binormal");
    if (l.weight >= 0) {
      float w = qmsh_vertex_f32(q, v, l.weight, 0);
      if (isfinite(w) && (w < 0 || w > 1)) {
        struct mdl_loc loc = loc_bin(rec + (uint64_t)l.weight, "vertices[%u].weight", v);
        diag_emit(d->diag, RULE_QMSH_WEIGHT_RANGE, &loc, "[0, 1]", "%.9g", (double)w);
      }
    }
    if (ix) {
      for (int k = 0; k < 2 && d->skeletal; k++) {
        if (ix[k] > q->h.n_bones) {
          struct mdl_loc loc = loc_bin(rec + (uint64_t)l.idx + (uint64_t)k,
                                       "vertices[%u].indices[%d]", v, k);
          diag_emit(d->diag, RULE_QMSH_VERTEX_BONE_RANGE, &loc, nb, "%u", ix[k]);
        }
      }
      for (int k = 2; k < 4; k++) {
        if (ix[k]) {
          struct mdl_loc loc = loc_bin(rec + (uint64_t)l.idx + (uint64_t)k,
                                       "vertices[%u].indices[%d]", v, k);
          diag_emit(d->diag, RULE_QMSH_VERTEX_SPARE_INDICES, &loc, "0", "%u", ix[k]);
        }
      }
    }
  }
  return 0;
}

int qmsh_triangles_read(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  uint32_t n = (uint32_t)q->h.n_tris * 3u;
  char nv[16];

  d->tri_off = d->pos;
  if (qmsh_need_array(d, q->h.n_tris, 6, "triangles", 8, "header.n_tris") < 0)
    return -1;
  q->tris = arena_calloc(&d->m->arena, (size_t)n + 1, sizeof *q->tris);
  if (!q->tris)
    return -1;
  snprintf(nv, sizeof nv, "%u", q->h.n_verts);
  for (uint32_t i = 0; i < n; i++) {
    uint64_t off = d->pos;
    q->tris[i] = qmsh_u16(d);
    if (q->tris[i] >= q->h.n_verts) {
      struct mdl_loc loc = loc_bin(off, "triangles[%u][%u]", i / 3, i % 3);
      diag_emit(d->diag, RULE_QMSH_TRIANGLE_INDEX_RANGE, &loc, nv, "%u", q->tris[i]);
    }
  }
  return 0;
}

/* The indices a submesh's triangles use (within n_tris and n_verts): their range, and which
 * triangles fall outside the declared vertex range. */
struct sub_use {
  uint32_t umin, umax;     /* UINT32_MAX, 0 when nothing is used */
  uint32_t bad, bad_at;    /* offending indices, the first one's index into tris */
  uint32_t bad_first, bad_last; /* first and last offending triangle */
  uint32_t t_first, t_end; /* triangle range actually inside n_tris */
};

static void sub_use_scan(const struct qmsh_mesh *q, const struct qmsh_sub *sb, struct sub_use *u)
{
  uint32_t lo = sb->min_ind, hi = (uint32_t)sb->min_ind + sb->n_ind;
  memset(u, 0, sizeof *u);
  u->umin = UINT32_MAX;
  u->t_first = sb->first;
  u->t_end = (uint32_t)sb->first + sb->tris;
  if (u->t_end > q->h.n_tris)
    u->t_end = q->h.n_tris;
  for (uint32_t i = u->t_first * 3u; i < u->t_end * 3u; i++) {
    uint32_t x = q->tris[i];
    if (x >= q->h.n_verts)
      continue; /* QMSH-VTX-004 */
    u->umin = x < u->umin ? x : u->umin;
    u->umax = x > u->umax ? x : u->umax;
    if (x < lo || x >= hi) {
      if (!u->bad++) {
        u->bad_at = i;
        u->bad_first = i / 3;
      }
      u->bad_last = i / 3;
    }
  }
}

/* Where submesh s would start if the submeshes were laid out one after another, as the
 * converter writes them: its first triangle (which 0) or its min_ind (which 1). */
static uint32_t sub_expected(const struct qmsh_mesh *q, uint32_t s, int which)
{
  const struct qmsh_sub *p = s ? &q->subs[s - 1] : NULL;
  if (!p)
    return 0;
  return which ? (uint32_t)p->min_ind + p->n_ind : (uint32_t)p->first + p->tris;
}

/* A texture file name: the submesh's diffuse, normal or specular map, which CaRpg's loader
 * opens by that name; recorded for --resources. */
static int texture_string(struct qmsh_dec *d, struct qmsh_str *out, const char *path)
{
  uint64_t at = d->pos;
  if (qmsh_string(d, out, path) < 0)
    return -1;
  if (out->len)
    (void)model_ref_add(d->m, MODEL_REF_TEXTURE, 0, out->s, out->len, (long long)at, 0, 0, path);
  return 0;
}

/* Every index of the submesh's triangles inside [min_ind, min_ind + n_ind). Where to point:
 * one offending index is itself the defect; offending triangles only at the end (start) of the
 * range mean `tris` (`first`) takes in another submesh's triangles; otherwise the vertex range
 * is wrong: min_ind when the used indices start below it or would fit n_ind from their own
 * start, else n_ind. */
static void sub_indices_check(struct qmsh_dec *d, uint32_t s)
{
  const struct qmsh_mesh *q = d->q;
  const struct qmsh_sub *sb = &q->subs[s];
  struct sub_use u;
  const char *field;
  uint64_t off;
  char range[48];

  sub_use_scan(q, sb, &u);
  if (!u.bad)
    return;
  snprintf(range, sizeof range, "[%u, %u)", sb->min_ind, (uint32_t)sb->min_ind + sb->n_ind);
  if (u.bad == 1) {
    struct mdl_loc loc = loc_bin(d->tri_off + 2u * (uint64_t)u.bad_at, "triangles[%u][%u]",
                                 u.bad_at / 3, u.bad_at % 3);
    diag_emit(d->diag, RULE_QMSH_SUBMESH_INDEX_OUTSIDE, &loc, range, "index %u",
              q->tris[u.bad_at]);
    return;
  }
  if (sb->first != sub_expected(q, s, 0) ||
      (u.bad_first == u.t_first && u.bad_last < u.t_end - 1)) {
    field = "first";
    off = 0;
  } else if (u.bad_last == u.t_end - 1 && u.bad_first > u.t_first) {
    field = "tris";
    off = 2;
  } else if (sb->min_ind != sub_expected(q, s, 1) || u.umin < sb->min_ind ||
             u.umax - u.umin < sb->n_ind) {
    field = "min_ind";
    off = 4;
  } else {
    field = "n_ind";
    off = 6;
  }
  {
    struct mdl_loc loc = loc_bin(d->sub_off[s] + off, "submeshes[%u].%s", s, field);
    diag_emit(d->diag, RULE_QMSH_SUBMESH_INDEX_OUTSIDE, &loc, range,
              "%u triangle indices (first %u)", u.bad, q->tris[u.bad_at]);
  }
}

static int sub_read(struct qmsh_dec *d, uint32_t s)
{
  struct qmsh_mesh *q = d->q;
  struct qmsh_sub *sb = &q->subs[s];
  unsigned ver = q->h.version;
  char path[LOC_PATH_MAX];

  snprintf(path, sizeof path, "submeshes[%u]", s);
  d->sub_off[s] = d->pos;
  if (qmsh_need(d, 8, path) < 0)
    return -1;
  sb->first = qmsh_u16(d);
  sb->tris = qmsh_u16(d);
  sb->min_ind = qmsh_u16(d);
  sb->n_ind = qmsh_u16(d);
  snprintf(path, sizeof path, "submeshes[%u].name", s);
  if (qmsh_string(d, &sb->name, path) < 0)
    return -1;
  snprintf(path, sizeof path, "submeshes[%u].tex", s);
  if (texture_string(d, &sb->tex, path) < 0)
    return -1;
  /* v16/17 defaults (qmsh-layout.md, Submeshes) */
  sb->spec_color[0] = sb->spec_color[1] = sb->spec_color[2] = 1;
  sb->spec_intensity = 0.2f;
  sb->spec_hardness = 10;
  if (ver >= 18) {
    snprintf(path, sizeof path, "submeshes[%u].specular", s);
    if (qmsh_need(d, 20, path) < 0)
      return -1;
    snprintf(path, sizeof path, "submeshes[%u].specular_color", s);
    qmsh_floats(d, sb->spec_color, 3, path);
    snprintf(path, sizeof path, "submeshes[%u].specular_intensity", s);
    qmsh_floats(d, &sb->spec_intensity, 1, path);
    sb->spec_hardness = reader_i32_at(d->in, d->pos);
    d->pos += 4;
  }
  if (ver >= 16) {
    if (q->h.flags & QMSH_F_TANGENTS) {
      snprintf(path, sizeof path, "submeshes[%u].normal_tex", s);
      if (texture_string(d, &sb->normal_tex, path) < 0)
        return -1;
      if (sb->normal_tex.len) {
        snprintf(path, sizeof path, "submeshes[%u].normal_factor", s);
        if (qmsh_need(d, 4, path) < 0)
          return -1;
        qmsh_floats(d, &sb->normal_factor, 1, path);
      }
    }
    snprintf(path, sizeof path, "submeshes[%u].specular_tex", s);
    if (texture_string(d, &sb->specular_tex, path) < 0)
      return -1;
    if (sb->specular_tex.len) {
      snprintf(path, sizeof path, "submeshes[%u].specular_factor", s);
      if (qmsh_need(d, 8, path) < 0)
        return -1;
      qmsh_floats(d, &sb->specular_factor, 1, path);
      snprintf(path, sizeof path, "submeshes[%u].specular_color_factor", s);
      qmsh_floats(d, &sb->specular_color_factor, 1, path);
    }
  }
  return 0;
}

static void sub_ranges_check(struct qmsh_dec *d, uint32_t s)
{
  const struct qmsh_mesh *q = d->q;
  const struct qmsh_sub *sb = &q->subs[s];
  char lim[16];
  if ((uint32_t)sb->first + sb->tris > q->h.n_tris) {
    uint32_t want = sub_expected(q, s, 0);
    /* first is at fault when past the end, or off the layout while tris would fit there */
    int at_first = sb->first > q->h.n_tris || (sb->first != want && want + sb->tris <= q->h.n_tris);
    struct mdl_loc loc = loc_bin(d->sub_off[s] + (at_first ? 0 : 2), "submeshes[%u].%s", s,
                                 at_first ? "first" : "tris");
    snprintf(lim, sizeof lim, "%u", q->h.n_tris);
    diag_emit(d->diag, RULE_QMSH_SUBMESH_TRIANGLE_RANGE, &loc, lim, "[%u, %u)", sb->first,
              (uint32_t)sb->first + sb->tris);
  }
  if ((uint32_t)sb->min_ind + sb->n_ind > q->h.n_verts) {
    struct sub_use u;
    struct mdl_loc loc;
    int at_min;
    /* min_ind is at fault when past the end, above indices the triangles use, or off the
     * layout while n_ind would fit there */
    sub_use_scan(q, sb, &u);
    at_min = sb->min_ind > q->h.n_verts || (u.umin != UINT32_MAX && u.umin < sb->min_ind) ||
             (sb->min_ind != sub_expected(q, s, 1) &&
              sub_expected(q, s, 1) + sb->n_ind <= q->h.n_verts);
    loc = loc_bin(d->sub_off[s] + (at_min ? 4 : 6), "submeshes[%u].%s", s,
                                 at_min ? "min_ind" : "n_ind");
    snprintf(lim, sizeof lim, "%u", q->h.n_verts);
    diag_emit(d->diag, RULE_QMSH_SUBMESH_VERTEX_RANGE, &loc, lim, "[%u, %u)", sb->min_ind,
              (uint32_t)sb->min_ind + sb->n_ind);
  } else {
    sub_indices_check(d, s);
  }
}

int qmsh_submeshes_read(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  uint32_t n = q->h.n_subs;
  /* each record takes at least 10 bytes: check before allocating */
  if (qmsh_need_array(d, n, 10, "submeshes", 10, "header.n_subs") < 0)
    return -1;
  q->subs = arena_calloc(&d->m->arena, (size_t)n + 1, sizeof *q->subs);
  d->sub_off = arena_calloc(&d->m->arena, (size_t)n + 1, sizeof *d->sub_off);
  if (!q->subs || !d->sub_off)
    return -1;
  for (uint32_t s = 0; s < n; s++)
    if (sub_read(d, s) < 0)
      return -1;
  for (uint32_t s = 0; s < n; s++)
    sub_ranges_check(d, s);
  return 0;
}

/* Violations of one bound over a set of vertices: how many, and the worst. A single vertex
 * outside is most likely the defect itself, so the report points at it; several mean the
 * bound is wrong, so the report points at the bound. */
struct outlier {
  uint32_t count, v;
  double excess;
  int c;
};

static void outlier_add(struct outlier *o, uint32_t v, int c, double excess)
{
  if (!o->count++ || excess > o->excess) {
    o->v = v;
    o->c = c;
    o->excess = excess;
  }
}

static uint64_t vertex_pos_off(const struct qmsh_dec *d, uint32_t v, int c)
{
  return d->vert_off + (uint64_t)v * d->q->vertex_size + 4u * (uint64_t)c;
}

/* The sphere's slack and a bound on r^2 below which no vertex can be outside it (a square root
 * per vertex spared): r^2 <= lim2 = s^2 (1 - 2^-20), s = radius + slack, gives
 * sqrt(r^2) < s (1 - 2^-21) (1 + 2^-53), which rounds to at most s, so r > s is false. -1 (no
 * shortcut) unless s is positive and finite. */
struct sphere_lim {
  double slack, lim2;
};

static struct sphere_lim sphere_lim(const float *center, double radius)
{
  struct sphere_lim l;
  double s;
  l.slack = QMSH_BOUND_EPS * fmax(1.0, fmax(fabs(radius), center ? fabs(center[0]) + fabs(center[1]) +
                                                                  fabs(center[2]) : 0));
  s = radius + l.slack;
  l.lim2 = s > 0 && s * s < INFINITY ? s * s * (1.0 - 1.0 / 1048576.0) : -1;
  return l;
}

/* Box k (0..5: min xyz, max xyz) and sphere test of vertex v; excess recorded per bound. A
 * coordinate inside [lo, hi] is not outside it whatever the slack (qmsh_outside's slack is
 * never negative): the common case takes no qmsh_outside call. */
static void bounds_test(const struct qmsh_mesh *q, uint32_t v, const float box[6],
                        const float *center, double radius, const struct sphere_lim *sl,
                        struct outlier out[7])
{
  double p[3], r2 = 0, r;
  for (int c = 0; c < 3; c++) {
    p[c] = qmsh_vertex_f32(q, v, 0, c);
    r2 += (p[c] - (center ? center[c] : 0)) * (p[c] - (center ? center[c] : 0));
  }
  if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
    return;
  for (int c = 0; c < 3 && box; c++) {
    if (p[c] >= box[c] && p[c] <= box[3 + c])
      continue;
    if (qmsh_outside(p[c], box[c], box[3 + c])) {
      int k = p[c] < box[c] ? c : 3 + c;
      outlier_add(&out[k], v, c, fabs(p[c] - box[k]));
    }
  }
  if (r2 <= sl->lim2)
    return;
  r = sqrt(r2);
  if (isfinite(radius) && r > radius + sl->slack) {
    int big = 0;
    for (int c = 1; c < 3; c++)
      if (fabs(p[c] - (center ? center[c] : 0)) > fabs(p[big] - (center ? center[big] : 0)))
        big = c;
    outlier_add(&out[6], v, big, r - radius);
  }
}

static void box_text(char *out, size_t cap, const float b[6])
{
  snprintf(out, cap, "(%.9g %.9g %.9g)-(%.9g %.9g %.9g)", (double)b[0], (double)b[1],
           (double)b[2], (double)b[3], (double)b[4], (double)b[5]);
}

static void split_check(struct qmsh_dec *d, uint32_t s, uint64_t rec)
{
  const struct qmsh_mesh *q = d->q;
  const struct qmsh_split *sp = &q->splits[s];
  const struct qmsh_sub *sb = &q->subs[s];
  uint32_t end = (uint32_t)sb->first + sb->tris;
  struct outlier out[7];
  char text[160];

  for (int i = 0; i < 3; i++)
    if (!isfinite(sp->pos[i]) || !isfinite(sp->box[i]) || !isfinite(sp->box[3 + i]))
      return;
  if (!isfinite(sp->radius))
    return;
  struct sphere_lim sl = sphere_lim(sp->pos, sp->radius);
  memset(out, 0, sizeof out);
  if (end > q->h.n_tris)
    end = q->h.n_tris;
  for (uint32_t i = (uint32_t)sb->first * 3u; i < end * 3u; i++)
    if (q->tris[i] < q->h.n_verts)
      bounds_test(q, q->tris[i], sp->box, sp->pos, sp->radius, &sl, out);
  box_text(text, sizeof text, sp->box);
  for (int k = 0; k < 6; k++) {
    struct mdl_loc loc;
    if (!out[k].count)
      continue;
    if (out[k].count == 1)
      loc = loc_bin(vertex_pos_off(d, out[k].v, out[k].c), "vertices[%u].pos[%d]", out[k].v,
                    out[k].c);
    else
      loc = loc_bin(rec + 16 + 4u * (uint64_t)k, "splits[%u].box.%s[%d]", s, k < 3 ? "min" : "max",
                    k % 3);
    diag_emit(d->diag, RULE_QMSH_SPLIT_BOX, &loc, text, "split %u: %u vertices, worst %u at %.9g",
              s, out[k].count, out[k].v, (double)qmsh_vertex_f32(q, out[k].v, 0, k % 3));
  }
  if (out[6].count) {
    struct mdl_loc loc;
    int c = -1;
    /* a centre outside its own box is the defect rather than the radius */
    for (int i = 0; i < 3 && c < 0; i++)
      if (qmsh_outside(sp->pos[i], sp->box[i], sp->box[3 + i]))
        c = i;
    if (out[6].count == 1 && c < 0)
      loc = loc_bin(vertex_pos_off(d, out[6].v, out[6].c), "vertices[%u].pos[%d]", out[6].v,
                    out[6].c);
    else if (c >= 0)
      loc = loc_bin(rec + 4u * (uint64_t)c, "splits[%u].pos[%d]", s, c);
    else
      loc = loc_bin(rec + 12, "splits[%u].radius", s);
    snprintf(text, sizeof text, "(%.9g %.9g %.9g) r %.9g", (double)sp->pos[0], (double)sp->pos[1],
             (double)sp->pos[2], (double)sp->radius);
    diag_emit(d->diag, RULE_QMSH_SPLIT_SPHERE, &loc, text, "split %u: %u vertices, worst %u by %.9g",
              s, out[6].count, out[6].v, out[6].excess);
  }
}

int qmsh_splits_read(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  uint32_t n = q->h.n_subs;
  char path[LOC_PATH_MAX];
  if (qmsh_need_array(d, n, 40, "splits", 0, NULL) < 0)
    return -1;
  q->splits = arena_calloc(&d->m->arena, (size_t)n + 1, sizeof *q->splits);
  if (!q->splits)
    return -1;
  for (uint32_t s = 0; s < n; s++) {
    uint64_t rec = d->pos;
    snprintf(path, sizeof path, "splits[%u].pos", s);
    qmsh_floats(d, q->splits[s].pos, 3, path);
    snprintf(path, sizeof path, "splits[%u].radius", s);
    qmsh_floats(d, &q->splits[s].radius, 1, path);
    snprintf(path, sizeof path, "splits[%u].box", s);
    qmsh_floats(d, q->splits[s].box, 6, path);
    split_check(d, s, rec);
  }
  return 0;
}

/* The header's bbox and radius must enclose every finite vertex position. */
void qmsh_bounds_check(struct qmsh_dec *d)
{
  const struct qmsh_mesh *q = d->q;
  const struct qmsh_header *h = &q->h;
  struct outlier out[7];
  struct sphere_lim sl;
  int bbox_ok = 1;
  char text[160];

  memset(out, 0, sizeof out);
  for (int i = 0; i < 6; i++)
    bbox_ok &= isfinite(h->bbox[i]) != 0;
  sl = sphere_lim(NULL, h->radius);
  for (uint32_t v = 0; v < h->n_verts; v++)
    bounds_test(q, v, bbox_ok ? h->bbox : NULL, NULL, h->radius, &sl, out);
  box_text(text, sizeof text, h->bbox);
  for (int k = 0; k < 6; k++) {
    struct mdl_loc loc;
    if (!out[k].count)
      continue;
    if (out[k].count == 1)
      loc = loc_bin(vertex_pos_off(d, out[k].v, out[k].c), "vertices[%u].pos[%d]", out[k].v,
                    out[k].c);
    else
      loc = loc_bin(24 + 4u * (uint64_t)k, "header.bbox.%s[%d]", k < 3 ? "min" : "max", k % 3);
    diag_emit(d->diag, RULE_QMSH_BBOX_ENCLOSES, &loc, text, "%u vertices, worst %u at %.9g",
              out[k].count, out[k].v, (double)qmsh_vertex_f32(q, out[k].v, 0, k % 3));
  }
  if (out[6].count) {
    struct mdl_loc loc;
    if (out[6].count == 1)
      loc = loc_bin(vertex_pos_off(d, out[6].v, out[6].c), "vertices[%u].pos[%d]", out[6].v,
                    out[6].c);
    else
      loc = loc_bin(20, "header.radius");
    snprintf(text, sizeof text, "%.9g", (double)h->radius);
    diag_emit(d->diag, RULE_QMSH_RADIUS_ENCLOSES, &loc, text, "%u vertices, worst %u at %.9g",
              out[6].count, out[6].v, (double)h->radius + out[6].excess);
  }
}
