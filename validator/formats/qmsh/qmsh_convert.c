/* qmsh_convert.c - a QMSH file from a model another format decoded (IQM, IQE, ...), so that
 * `mdlcheck convert model.iqm model.qmsh` works.
 *
 * Mapping: positions, normals, texture coordinates and tangents (binormal = normal x tangent,
 * times the tangent's w sign when it has one) become the vertex layout; with joints and blend
 * arrays the mesh is ANIMATED, the two heaviest influences of each vertex kept (QMSH blends two
 * bones: w and 1 - w). Joints become bones (parents must come first); a joint's base pose is the
 * bone matrix. Each animation's frames are local poses relative to the parent (the model's
 * frame_space, IQM's meaning); QMSH keyframes are relative to the bone matrix, so
 * key = local * mat^-1 (row-vector convention), at times frame / framerate (30 when the model
 * has none). Frames already relative to the base pose (a QMSH model without its file) are
 * keys as they are, at their own times: nothing is converted twice. One bone group holds every
 * bone. Tags become points (qmsh_tags.c). The bbox and radius are computed; no splits; camera
 * defaults. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pose.h"
#include "qmsh.h"

const struct model_varray *qmsh_va_find(const struct model *m, uint32_t type)
{
  for (uint32_t i = 0; i < m->num_varrays; i++)
    if (m->varrays[i].type == type && m->varrays[i].data)
      return &m->varrays[i];
  return NULL;
}

/* Component c of vertex v as a double; integer formats are returned as they are. */
static double va_get(const struct model_varray *va, uint32_t v, uint32_t c)
{
  static const unsigned sizes[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};
  unsigned n = va->format < VF_COUNT ? sizes[va->format] : 0;
  const unsigned char *p;
  uint64_t u = 0;
  if (!n || c >= va->size)
    return 0;
  p = va->data + ((size_t)v * va->size + c) * n;
  for (unsigned i = 0; i < n; i++)
    u |= (uint64_t)p[i] << (8 * i);
  switch (va->format) {
  case VF_BYTE: return (int8_t)u;
  case VF_UBYTE: return (uint8_t)u;
  case VF_SHORT: return (int16_t)u;
  case VF_USHORT: return (uint16_t)u;
  case VF_INT: return (int32_t)u;
  case VF_UINT: return (uint32_t)u;
  case VF_HALF: return half_to_float((uint16_t)u);
  case VF_FLOAT: {
    uint32_t w = (uint32_t)u;
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
  }
  default: {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
  }
  }
}

static void put_f32(unsigned char *p, double v)
{
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(u >> (8 * i));
}

static int str_set(struct arena *a, struct qmsh_str *out, const char *s)
{
  size_t n = s ? strlen(s) : 0;
  if (n > 255)
    return -1;
  out->s = arena_strndup(a, s ? s : "", n);
  out->len = (uint32_t)n;
  return out->s ? 0 : -1;
}

/* str_set for a name from the model: a refusal names the record and the limit. */
static int name_set(struct arena *a, struct qmsh_str *out, const char *s, const char *what, uint32_t i,
                    const char *field, char *err, size_t cap)
{
  size_t n = s ? strlen(s) : 0;
  if (n > 255) {
    snprintf(err, cap, "%s %u's %s is %zu bytes: QMSH strings hold at most 255", what, i, field, n);
    return -1;
  }
  return str_set(a, out, s);
}

/* A header count: QMSH stores it in 16 bits. */
static int count_fits(uint32_t n, const char *what, char *err, size_t cap)
{
  if (n <= 65535)
    return 0;
  snprintf(err, cap, "%u %s: QMSH counts are 16-bit (at most 65535)", n, what);
  return -1;
}

/* Row-vector affine (Matrix33 order) of a TRS: the transpose of its column matrix. */
void qmsh_trs_rows(const struct trs *p, double rows[12])
{
  double m[16];
  trs_to_matrix(p, m);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      rows[r * 3 + c] = m[c * 4 + r];
  for (int c = 0; c < 3; c++)
    rows[9 + c] = m[c * 4 + 3];
}

/* Inverse of a row-vector affine [A; t]: [A^-1; -t A^-1]. -1 when singular. */
int qmsh_rows_invert(const double a[12], double out[12])
{
  double det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
               a[2] * (a[3] * a[7] - a[4] * a[6]);
  double inv[9];
  if (!(fabs(det) > 1e-300))
    return -1;
  inv[0] = (a[4] * a[8] - a[5] * a[7]) / det;
  inv[1] = (a[2] * a[7] - a[1] * a[8]) / det;
  inv[2] = (a[1] * a[5] - a[2] * a[4]) / det;
  inv[3] = (a[5] * a[6] - a[3] * a[8]) / det;
  inv[4] = (a[0] * a[8] - a[2] * a[6]) / det;
  inv[5] = (a[2] * a[3] - a[0] * a[5]) / det;
  inv[6] = (a[3] * a[7] - a[4] * a[6]) / det;
  inv[7] = (a[1] * a[6] - a[0] * a[7]) / det;
  inv[8] = (a[0] * a[4] - a[1] * a[3]) / det;
  memcpy(out, inv, sizeof inv);
  for (int c = 0; c < 3; c++)
    out[9 + c] = -(a[9] * inv[c] + a[10] * inv[3 + c] + a[11] * inv[6 + c]);
  return 0;
}

/* Product of row-vector affines: first a, then b. */
void qmsh_rows_mul(const double a[12], const double b[12], double out[12])
{
  double r[12];
  for (int i = 0; i < 4; i++)
    for (int c = 0; c < 3; c++)
      r[i * 3 + c] = a[i * 3 + 0] * b[c] + a[i * 3 + 1] * b[3 + c] + a[i * 3 + 2] * b[6 + c] +
                     (i == 3 ? b[9 + c] : 0);
  memcpy(out, r, sizeof r);
}

static int vertices_build(const struct model *m, struct arena *a, struct qmsh_mesh *q, char *err,
                          size_t cap)
{
  const struct model_varray *pos = qmsh_va_find(m, VT_POSITION), *nrm = qmsh_va_find(m, VT_NORMAL),
                            *tex = qmsh_va_find(m, VT_TEXCOORD), *tan = qmsh_va_find(m, VT_TANGENT),
                            *bi = qmsh_va_find(m, VT_BLENDINDEXES), *bw = qmsh_va_find(m, VT_BLENDWEIGHTS);
  struct qmsh_vlayout l;
  double wscale;

  if (!pos) {
    snprintf(err, cap, "the model has no vertex positions");
    return -1;
  }
  q->h.flags = 0;
  if (m->num_joints && bi && bw)
    q->h.flags |= QMSH_F_ANIMATED;
  if (tan && nrm)
    q->h.flags |= QMSH_F_TANGENTS;
  q->vertex_size = qmsh_vertex_size(q->h.flags);
  qmsh_vertex_layout(q->h.flags, &l);
  q->verts = arena_calloc(a, (size_t)m->num_vertexes + 1, q->vertex_size);
  if (!q->verts)
    return -1;
  wscale = bw && (bw->format == VF_UBYTE) ? 255.0 : bw && bw->format == VF_USHORT ? 65535.0 : 1.0;
  for (uint32_t v = 0; v < m->num_vertexes; v++) {
    unsigned char *p = q->verts + (size_t)v * q->vertex_size;
    double n[3] = {0, 1, 0}, t[3] = {1, 0, 0}, sign = 1;
    for (int c = 0; c < 3; c++)
      put_f32(p + l.pos + 4 * c, va_get(pos, v, (uint32_t)c));
    if (nrm)
      for (int c = 0; c < 3; c++)
        n[c] = va_get(nrm, v, (uint32_t)c);
    for (int c = 0; c < 3; c++)
      put_f32(p + l.normal + 4 * c, n[c]);
    for (int c = 0; c < 2; c++)
      put_f32(p + l.tex + 4 * c, tex ? va_get(tex, v, (uint32_t)c) : 0);
    if (l.tangent >= 0) {
      for (int c = 0; c < 3; c++)
        t[c] = va_get(tan, v, (uint32_t)c);
      if (tan->size >= 4 && va_get(tan, v, 3) < 0)
        sign = -1;
      for (int c = 0; c < 3; c++)
        put_f32(p + l.tangent + 4 * c, t[c]);
      put_f32(p + l.binormal, sign * (n[1] * t[2] - n[2] * t[1]));
      put_f32(p + l.binormal + 4, sign * (n[2] * t[0] - n[0] * t[2]));
      put_f32(p + l.binormal + 8, sign * (n[0] * t[1] - n[1] * t[0]));
    }
    if (l.weight >= 0) {
      /* the two heaviest influences; ids 1-based (0 = the zero bone) */
      int best[2] = {-1, -1};
      double w0 = 0, w1 = 0;
      for (uint32_t k = 0; k < bw->size && k < bi->size; k++) {
        double w = va_get(bw, v, k);
        if (best[0] < 0 || w > va_get(bw, v, (uint32_t)best[0])) {
          best[1] = best[0];
          best[0] = (int)k;
        } else if (best[1] < 0 || w > va_get(bw, v, (uint32_t)best[1])) {
          best[1] = (int)k;
        }
      }
      if (best[0] >= 0)
        w0 = va_get(bw, v, (uint32_t)best[0]) / wscale;
      if (best[1] >= 0)
        w1 = va_get(bw, v, (uint32_t)best[1]) / wscale;
      for (int k = 0; k < 2; k++) {
        double id = best[k] >= 0 && (k == 0 ? w0 : w1) > 0 ? va_get(bi, v, (uint32_t)best[k]) : -1;
        if (id >= (double)m->num_joints) {
          snprintf(err, cap, "vertex %u names joint %g of %u", v, id, m->num_joints);
          return -1;
        }
        p[l.idx + k] = (unsigned char)(id + 1);
      }
      put_f32(p + l.weight, w0 + w1 > 0 ? w0 / (w0 + w1) : 1.0);
    }
  }
  return 0;
}

static int skeleton_build(const struct model *m, struct arena *a, struct qmsh_mesh *q, char *err,
                          size_t cap)
{
  uint32_t nb = m->num_joints;
  double (*inv)[12];
  q->h.n_bones = (uint16_t)nb;
  q->bones = arena_calloc(a, (size_t)nb + 1, sizeof *q->bones);
  inv = arena_calloc(a, (size_t)nb + 1, sizeof *inv);
  if (!q->bones || !inv)
    return -1;
  for (uint32_t k = 0; k < nb; k++) {
    struct qmsh_bone *b = &q->bones[k];
    double rows[12];
    if (m->joints[k].parent >= (int32_t)k) {
      snprintf(err, cap, "joint %u has parent %d: QMSH needs parents before children", k,
               (int)m->joints[k].parent);
      return -1;
    }
    b->parent = m->joints[k].parent < 0 ? 0 : (uint16_t)(m->joints[k].parent + 1);
    if (name_set(a, &b->name, m->joints[k].name, "joint", k, "name", err, cap) < 0)
      return -1;
    qmsh_trs_rows(model_rest(m, k), rows);
    if (qmsh_rows_invert(rows, inv[k]) < 0) {
      snprintf(err, cap, "joint %u has a singular base pose", k);
      return -1;
    }
    for (int i = 0; i < 12; i++)
      b->mat[i] = (float)rows[i];
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 3; c++)
        b->raw_mat[r * 4 + c] = b->mat[r * 3 + c];
    b->raw_mat[15] = 1;
    for (int c = 0; c < 3; c++)
      b->head[c] = b->mat[9 + c];
  }
  q->groups = arena_calloc(a, 1, sizeof *q->groups);
  if (nb > 255) {
    snprintf(err, cap, "%u joints: one QMSH bone group holds at most 255", nb);
    return -1;
  }
  if (!q->groups || str_set(a, &q->groups[0].name, "default") < 0)
    return -1;
  q->groups[0].count = (uint8_t)nb;
  q->groups[0].bones = arena_calloc(a, (size_t)nb + 1, 1);
  if (!q->groups[0].bones)
    return -1;
  for (uint32_t k = 0; k < nb; k++)
    q->groups[0].bones[k] = (uint8_t)(k + 1);
  q->num_groups = 1;
  q->h.n_groups = 1;

  if (m->frame_space != MODEL_FRAMES_PARENT && m->frame_space != MODEL_FRAMES_BIND) {
    snprintf(err, cap, "the frames are in an unknown space %u", m->frame_space);
    return -1;
  }
  if (m->num_anims && (!m->frames || m->num_poses != nb)) {
    snprintf(err, cap, "the animations need decoded frames with one pose per joint");
    return -1;
  }
  q->h.n_anims = (uint16_t)m->num_anims;
  q->anims = arena_calloc(a, (size_t)m->num_anims + 1, sizeof *q->anims);
  if (!q->anims)
    return -1;
  for (uint32_t i = 0; i < m->num_anims; i++) {
    const struct model_anim *ma = &m->anims[i];
    struct qmsh_anim *an = &q->anims[i];
    double rate = ma->framerate > 0 ? ma->framerate : 30.0;
    struct qmsh_key *keys;
    if (ma->num_frames > 65535 || (uint64_t)ma->first_frame + ma->num_frames > m->num_frames) {
      snprintf(err, cap, "animation %u has frames outside the strip", i);
      return -1;
    }
    if (name_set(a, &an->name, ma->name, "animation", i, "name", err, cap) < 0)
      return -1;
    an->n_frames = (uint16_t)ma->num_frames;
    an->frames = arena_calloc(a, (size_t)an->n_frames + 1, sizeof *an->frames);
    keys = arena_calloc(a, (size_t)an->n_frames * nb + 1, sizeof *keys);
    if (!an->frames || !keys)
      return -1;
    for (uint32_t f = 0; f < an->n_frames; f++) {
      an->frames[f].time = (float)(m->frame_times ? m->frame_times[ma->first_frame + f] : f / rate);
      an->frames[f].keys = keys + (size_t)f * nb;
      for (uint32_t k = 0; k < nb; k++) {
        double local[12], key[12];
        struct trs t;
        if (m->frame_space == MODEL_FRAMES_BIND) {
          t = *model_frame(m, ma->first_frame + f, k);
        } else {
          qmsh_trs_rows(model_frame(m, ma->first_frame + f, k), local);
          qmsh_rows_mul(local, inv[k], key); /* local = key * mat */
          qmsh_affine_trs(key, &t);
        }
        for (int c = 0; c < 3; c++) {
          keys[(size_t)f * nb + k].pos[c] = (float)t.t[c];
          keys[(size_t)f * nb + k].scale[c] = (float)t.s[c];
        }
        /* a unit quaternion (QMSH-KEY-003): one taken from a key matrix that is not quite a
         * rotation, or a source's quaternion unit only within its own tolerance, is
         * renormalised, as the engine's slerp expects */
        {
          double len = sqrt(t.r[0] * t.r[0] + t.r[1] * t.r[1] + t.r[2] * t.r[2] + t.r[3] * t.r[3]);
          for (int c = 0; c < 4; c++)
            keys[(size_t)f * nb + k].rot[c] = (float)(len > 0 && isfinite(len) ? t.r[c] / len : t.r[c]);
        }
      }
    }
    an->length = an->n_frames ? an->frames[an->n_frames - 1].time : 0;
  }
  return 0;
}

int qmsh_from_model(const struct model *m, struct arena *a, struct qmsh_mesh *q, char *err,
                    size_t cap)
{
  memset(q, 0, sizeof *q);
  if (count_fits(m->num_vertexes, "vertices", err, cap) < 0 || count_fits(m->num_triangles, "triangles", err, cap) < 0 ||
      count_fits(m->num_meshes, "meshes", err, cap) < 0 || count_fits(m->num_joints, "joints", err, cap) < 0 ||
      count_fits(m->num_anims, "animations", err, cap) < 0)
    return -1;
  q->h.n_verts = (uint16_t)m->num_vertexes;
  q->h.n_tris = (uint16_t)m->num_triangles;
  q->h.n_subs = (uint16_t)m->num_meshes;
  if (vertices_build(m, a, q, err, cap) < 0)
    return -1;
  q->tris = arena_calloc(a, (size_t)m->num_triangles * 3 + 1, sizeof *q->tris);
  q->subs = arena_calloc(a, (size_t)m->num_meshes + 1, sizeof *q->subs);
  if (!q->tris || !q->subs)
    return -1;
  for (size_t i = 0; i < (size_t)m->num_triangles * 3; i++) {
    const unsigned char *p = m->triangles + i * 4;
    uint32_t x = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    if (x > 65535) {
      snprintf(err, cap, "triangle index %u does not fit 16 bits", x);
      return -1;
    }
    q->tris[i] = (uint16_t)x;
  }
  for (uint32_t s = 0; s < m->num_meshes; s++) {
    const struct model_mesh *mm = &m->meshes[s];
    struct qmsh_sub *sb = &q->subs[s];
    if (mm->first_triangle > 65535 || mm->num_triangles > 65535 || mm->first_vertex > 65535 ||
        mm->num_vertexes > 65535) {
      snprintf(err, cap, "mesh %u (triangles %u + %u, vertices %u + %u) does not fit a QMSH submesh's 16-bit ranges", s,
               mm->first_triangle, mm->num_triangles, mm->first_vertex, mm->num_vertexes);
      return -1;
    }
    if (name_set(a, &sb->name, mm->name, "mesh", s, "name", err, cap) < 0 ||
        name_set(a, &sb->tex, mm->material, "mesh", s, "material", err, cap) < 0)
      return -1;
    sb->first = (uint16_t)mm->first_triangle;
    sb->tris = (uint16_t)mm->num_triangles;
    sb->min_ind = (uint16_t)mm->first_vertex;
    sb->n_ind = (uint16_t)mm->num_vertexes;
    sb->spec_color[0] = sb->spec_color[1] = sb->spec_color[2] = 1;
    sb->spec_intensity = 0.2f;
    sb->spec_hardness = 10;
    if (str_set(a, &sb->normal_tex, "") < 0 || str_set(a, &sb->specular_tex, "") < 0)
      return -1;
  }
  if ((q->h.flags & QMSH_F_ANIMATED) && skeleton_build(m, a, q, err, cap) < 0)
    return -1;
  if (qmsh_points_build(m, a, q, err, cap) < 0)
    return -1;

  /* bounds: exact float min/max; radius rounded up so the float stays >= every distance */
  for (uint32_t v = 0; v < m->num_vertexes; v++) {
    double r2 = 0;
    for (int c = 0; c < 3; c++) {
      float x = qmsh_vertex_f32(q, v, 0, c);
      if (v == 0 || x < q->h.bbox[c])
        q->h.bbox[c] = x;
      if (v == 0 || x > q->h.bbox[3 + c])
        q->h.bbox[3 + c] = x;
      r2 += (double)x * x;
    }
    if (sqrt(r2) > q->h.radius)
      q->h.radius = nextafterf((float)sqrt(r2), INFINITY);
  }
  q->h.cam_pos[0] = q->h.cam_pos[1] = q->h.cam_pos[2] = 1;
  q->h.cam_up[1] = 1;
  return 0;
}
