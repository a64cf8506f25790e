/* iqe_model.c - the parsed IQE into the common model, with the conventions of an IQM-decoded
 * model: vertex arrays in IQM's type order and formats (the spec's defaults or the declared
 * `vertexarray`), blend data reduced to the biggest 4 influences, one global frame strip. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iqe.h"
#include "model_tangents.h"
#include "pose.h"

static const uint32_t format_bytes[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};

uint32_t iqe_format_bytes(uint32_t format)
{
  return format < VF_COUNT ? format_bytes[format] : 0;
}

static uint16_t float_to_half(float f)
{
  /* truncating conversion, as the reference compiler does; out of range becomes infinity */
  uint32_t x;
  uint16_t sign;
  int32_t e;
  uint32_t mant;
  memcpy(&x, &f, 4);
  sign = (uint16_t)((x >> 16) & 0x8000);
  e = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff)
    return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (e >= 31)
    return (uint16_t)(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10)
      return sign;
    mant |= 0x800000;
    return (uint16_t)(sign | (mant >> (14 - e)));
  }
  return (uint16_t)(sign | ((uint32_t)e << 10) | (mant >> 13));
}

static double clampd(double v, double lo, double hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

static void put_le(unsigned char *d, uint64_t v, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    d[i] = (unsigned char)(v >> (8 * i));
}

void iqe_component_put(unsigned char *d, uint32_t format, double v, int normalized)
{
  static const double umax[VF_COUNT] = {0, 255, 0, 65535, 0, 4294967295.0, 0, 0, 0};
  static const int bits[VF_COUNT] = {8, 0, 16, 0, 32, 0, 0, 0, 0};
  if (!isfinite(v))
    v = 0;
  switch (format) {
  case VF_UBYTE: case VF_USHORT: case VF_UINT: {
    double x = normalized ? floor(clampd(0.5 + v * umax[format], 0, umax[format]))
                          : v;
    uint64_t u = normalized ? (uint64_t)x : (uint64_t)(int64_t)floor(v); /* raw: wraps */
    put_le(d, u, format_bytes[format]);
    break;
  }
  case VF_BYTE: case VF_SHORT: case VF_INT: {
    double lim = ldexp(1, bits[format] - 1), n;
    int64_t s;
    if (normalized) {
      n = v * (ldexp(1, bits[format]) - 1) / 2;
      n = n < 0 ? ceil(n - 1) : floor(n);
      s = (int64_t)clampd(n, -lim, lim - 1);
    } else {
      s = (int64_t)floor(v);
    }
    put_le(d, (uint64_t)s, format_bytes[format]);
    break;
  }
  case VF_HALF:
    put_le(d, float_to_half((float)v), 2);
    break;
  case VF_FLOAT: {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    put_le(d, u, 4);
    break;
  }
  default: {
    uint64_t u;
    memcpy(&u, &v, 8);
    put_le(d, u, 8);
    break;
  }
  }
}

/* IQM defaults per slot (iqe.txt "Vertex arrays": the IQM recommendation, but position and
 * color 3 components). Customs are used only when declared. */
static const uint32_t slot_format[7] = {VF_FLOAT, VF_FLOAT, VF_FLOAT, VF_FLOAT, VF_UBYTE, VF_UBYTE, VF_UBYTE};
static const uint32_t slot_size[7] = {3, 2, 3, 4, 4, 4, 3};

/* Biggest 4 influences above 1e-3, descending (ties keep file order), renormalised. */
static int blend_reduce(const struct iqe_parser *p, uint32_t v, int32_t idx[4], double w[4])
{
  int n = 0;
  double sum = 0;
  memset(idx, 0, 4 * sizeof *idx);
  memset(w, 0, 4 * sizeof *w);
  if (v >= p->attr[ATTR_VB].count)
    return 0;
  for (uint32_t k = 0; k < p->vb_num[v]; k++) {
    const struct iqe_pair *pr = &p->pairs[p->vb_first[v] + k];
    int at;
    if (!(pr->weight > 1e-3))
      continue;
    for (at = n; at > 0 && w[at - 1] < pr->weight; at--)
      ;
    if (at >= 4)
      continue;
    for (int s = (n < 4 ? n : 3); s > at; s--) {
      w[s] = w[s - 1];
      idx[s] = idx[s - 1];
    }
    w[at] = pr->weight;
    idx[at] = pr->index;
    if (n < 4)
      n++;
  }
  for (int s = 0; s < n; s++)
    sum += w[s];
  for (int s = 0; s < n && sum > 0; s++)
    w[s] /= sum;
  return n;
}

static void blend_ubyte(const double w[4], int n, unsigned char out[4])
{
  int sum = 0;
  memset(out, 0, 4);
  for (int s = 0; s < n; s++) {
    out[s] = (unsigned char)clampd(floor(0.5 + w[s] * 255), 0, 255);
    sum += out[s];
  }
  /* make the bytes sum to 255: add from the biggest slot, take from the smallest, so the
   * slots stay in descending order and a written-and-reread vertex gets the same bytes */
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

static double attr_value(const struct iqe_parser *p, int attr, uint32_t v, uint32_t c)
{
  const struct iqe_attr_arr *a = &p->attr[attr];
  if (v >= a->count)
    return attr == ATTR_VP && c == 3 ? 1 : 0;
  return attr == ATTR_VS ? iqe_attr_int(a, v) : iqe_attr_get(a, v, c);
}

static double tangent_w(const struct iqe_parser *p, uint32_t v)
{
  double w = attr_value(p, ATTR_VX, v, 3), n[3], t[3], b[3], x[3];
  if (!isnan(w))
    return w;
  for (int k = 0; k < 3; k++) {
    n[k] = attr_value(p, ATTR_VN, v, (uint32_t)k);
    t[k] = attr_value(p, ATTR_VX, v, (uint32_t)k);
    b[k] = attr_value(p, ATTR_VX, v, 4u + (uint32_t)k);
  }
  x[0] = n[1] * t[2] - n[2] * t[1];
  x[1] = n[2] * t[0] - n[0] * t[2];
  x[2] = n[0] * t[1] - n[1] * t[0];
  return x[0] * b[0] + x[1] * b[1] + x[2] * b[2] < 0 ? -1 : 1;
}

static int varrays_build(struct iqe_parser *p, uint32_t nv)
{
  struct model *m = p->m;
  static const int slot_attr[7] = {ATTR_VP, ATTR_VT, ATTR_VN, ATTR_VX, ATTR_VB, ATTR_VB, ATTR_VC};
  m->varrays = arena_calloc(&m->arena, IQE_SLOTS, sizeof *m->varrays);
  if (!m->varrays)
    return -1;
  for (uint32_t slot = 0; slot < IQE_SLOTS; slot++) {
    const struct iqe_layout *l = &p->layout[slot];
    int attr = slot < 7 ? slot_attr[slot] : ATTR_V0 + (int)(slot - 7);
    struct model_varray *va;
    unsigned char *data;
    uint32_t fmt, size, bytes;
    if (p->attr[attr].count == 0 || (slot >= 7 && !l->declared))
      continue;
    fmt = l->declared && l->format < VF_COUNT ? l->format : slot < 7 ? slot_format[slot] : VF_FLOAT;
    size = l->declared && l->size ? l->size : slot < 7 ? slot_size[slot] : 4;
    bytes = format_bytes[fmt];
    data = arena_calloc(&m->arena, (size_t)nv * size, bytes);
    if (!data && nv)
      return -1;
    for (uint32_t v = 0; v < nv; v++) {
      unsigned char *d = data + (size_t)v * size * bytes;
      if (slot == VT_BLENDINDEXES || slot == VT_BLENDWEIGHTS) {
        int32_t idx[4];
        double w[4];
        int n = blend_reduce(p, v, idx, w);
        if (slot == VT_BLENDWEIGHTS && fmt == VF_UBYTE) {
          unsigned char b[4];
          blend_ubyte(w, n, b);
          memcpy(d, b, size);
        } else {
          for (uint32_t c = 0; c < size; c++)
            iqe_component_put(d + c * bytes, fmt, slot == VT_BLENDINDEXES ? idx[c] : w[c],
                              slot == VT_BLENDWEIGHTS);
        }
        continue;
      }
      for (uint32_t c = 0; c < size; c++) {
        double x = slot == VT_TANGENT && c == 3 ? tangent_w(p, v) : attr_value(p, attr, v, c);
        iqe_component_put(d + c * bytes, fmt, x, 1);
      }
    }
    va = &m->varrays[m->num_varrays++];
    va->type = slot < 7 ? slot : VT_CUSTOM + (slot - 7);
    va->name = slot >= 7 ? l->name : NULL;
    va->format = fmt;
    va->size = size;
    va->data = data;
  }
  return 0;
}

/* Vertex data without any face or mesh command is one unnamed mesh (groups of 3 vertices). */
static void implicit_mesh(struct iqe_parser *p, uint32_t nv)
{
  if (p->counts[CMD_FA] + p->counts[CMD_FM] == 0 && p->num_meshes == 0 && nv >= 3) {
    /* the record comes from an allocation that is not zeroed: no line, no faces, no references */
    memset(&p->meshes[0], 0, sizeof p->meshes[0]);
    p->meshes[0].name = p->meshes[0].material = "";
    p->meshes[0].first_vertex = 0;
    p->meshes[0].end_vertex = nv;
    p->num_meshes = p->num_mesh_recs = 1;
  }
}

/* tri_src: per model triangle, its parser triangle or UINT32_MAX for a face-less one (for
 * smoothing, in the scratch arena). */
static int mesh_build(struct iqe_parser *p, uint32_t nv, uint32_t **tri_src)
{
  struct model *m = p->m;
  int faces = p->counts[CMD_FA] + p->counts[CMD_FM] > 0;
  uint32_t nmesh, ntri = p->num_tris;
  unsigned char *tris;
  uint32_t *src;
  implicit_mesh(p, nv);
  nmesh = p->num_meshes;
  if (!faces) {
    ntri = 0;
    for (uint32_t i = 0; i < nmesh; i++)
      if (p->meshes[i].end_vertex > p->meshes[i].first_vertex) /* the vertex count can shrink */
        ntri += (p->meshes[i].end_vertex - p->meshes[i].first_vertex) / 3;
  }
  tris = arena_calloc(&m->arena, (size_t)ntri + 1, 12);
  m->meshes = arena_calloc(&m->arena, (size_t)nmesh + 1, sizeof *m->meshes);
  src = *tri_src = arena_calloc(&p->scratch, (size_t)ntri + 1, sizeof *src);
  if (!tris || !m->meshes || !src)
    return -1;
  ntri = 0;
  for (uint32_t i = 0; i < nmesh; i++) {
    struct iqe_mesh *me = &p->meshes[i];
    struct model_mesh *mm = &m->meshes[i];
    uint32_t lo = me->first_vertex, hi = me->end_vertex;
    mm->name = me->name;
    mm->material = me->material;
    mm->first_triangle = ntri;
    if (faces) {
      for (uint32_t t = 0; t < me->num_triangles; t++) {
        for (int k = 0; k < 3; k++)
          put_le(tris + ((size_t)ntri + t) * 12 + k * 4, p->tris[((size_t)me->first_triangle + t) * 3 + (size_t)k], 4);
        src[ntri + t] = me->first_triangle + t;
      }
      ntri += me->num_triangles;
      if (me->ref_min <= me->ref_max) {
        if (hi <= lo) {
          lo = me->ref_min;
          hi = me->ref_max + 1;
        } else {
          lo = lo < me->ref_min ? lo : me->ref_min;
          hi = hi > me->ref_max + 1 ? hi : me->ref_max + 1;
        }
      }
    } else {
      for (uint32_t v = lo; v + 2 < hi; v += 3, ntri++) {
        for (uint32_t k = 0; k < 3; k++)
          put_le(tris + (size_t)ntri * 12 + k * 4, v + k, 4);
        src[ntri] = UINT32_MAX;
        /* face-less triangles get the degenerate check fa/fm triangles get while parsed */
        iqe_face_check_implicit(p, v);
      }
    }
    mm->num_triangles = ntri - mm->first_triangle;
    mm->first_vertex = hi > lo ? lo : (lo < nv ? lo : nv);
    mm->num_vertexes = hi > lo ? hi - lo : 0;
  }
  m->num_meshes = nmesh;
  m->num_triangles = ntri;
  m->triangles = tris;
  return 0;
}

/* Whether the poses kept for the frames are the model's strip as they are: np of every frame
 * (none short, padded), each frame's right after the one before. */
static int frames_in_place(const struct iqe_parser *p, uint32_t np)
{
  uint64_t first = p->frame_kept[0];
  if (!p->pose_trs || first + (uint64_t)p->num_frames * np > p->num_kept)
    return 0;
  for (uint32_t f = 0; f < p->num_frames; f++)
    if (p->frames[f].num_poses < np || p->frame_kept[f] != first + (uint64_t)f * np)
      return 0;
  return 1;
}

/* The model's joints with their names and rests: the rests are the parser's poses, in the
 * model's arena: joint i < nb has the base pose pose_trs[i], the others share the identity in its
 * spare last slot (issue 26: a rest of 80 bytes each, a copy of the base pose or an identity for
 * a `joint` line of 6 bytes) */
static int joints_build(struct iqe_parser *p, uint32_t nj, uint32_t nb)
{
  struct model *m = p->m;
  m->joints = arena_calloc(&m->arena, (size_t)nj + 1, sizeof *m->joints);
  if (!m->joints || !p->pose_trs || p->num_kept > p->poses_cap || nb > p->num_kept) {
    m->joints = NULL;
    return -1;
  }
  m->rests = p->pose_trs;
  m->num_rests = p->poses_cap + 1;
  trs_identity(&m->rests[p->poses_cap]);
  for (uint32_t i = 0; i < nj; i++) {
    const char *name;
    size_t len;
    /* the model's copy (one per distinct name): the parser kept only where it is */
    iqe_name_set_name(p, &p->joint_set, p->joints[i].name, &name, &len);
    m->joints[i].name = iqe_name(p, iqe_name_id(p, name, len));
    m->joints[i].parent = p->joints[i].parent;
    m->joints[i].rest = i < nb ? i : p->poses_cap;
  }
  m->num_joints = nj;
  return 0;
}

static int anim_build(struct iqe_parser *p)
{
  struct model *m = p->m;
  uint32_t nj = p->num_joints, np = nj, nb = p->num_base_poses < nj ? p->num_base_poses : nj;
  if (p->by_line) {
    /* poses: the joints are walked and the rests computed from their lines (iqe_poses.c) */
    if (iqe_poses_attach(p) < 0)
      return -1;
  } else if (joints_build(p, nj, nb) < 0) {
    return -1;
  }
  if (np == 0)
    for (uint32_t f = 0; f < p->num_frames; f++)
      if (p->frames[f].num_poses > np)
        np = p->frames[f].num_poses;
  /* poses: each animation read from its line as it is printed (iqe_poses.c, model.anim_get) */
  m->anims = p->by_line ? NULL : arena_calloc(&m->arena, (size_t)p->num_anims + 1, sizeof *m->anims);
  if (!m->anims && !p->by_line)
    return -1;
  for (uint32_t a = 0; m->anims && a < p->num_anims; a++) {
    char buf[32];
    size_t len;
    const char *name = iqe_anim_name(p, a, buf, &len);
    /* the model's copy (one per distinct name): the parser kept only where it is */
    m->anims[a].name = p->anims[a].name == IQE_ANIM_UNNAMED ? arena_strndup(&m->arena, name, len)
                       : iqe_name(p, iqe_name_id(p, name, len));
    if (!m->anims[a].name)
      return -1;
    m->anims[a].first_frame = p->anim_play[a].first_frame;
    m->anims[a].num_frames = p->anims[a].num_frames;
    m->anims[a].framerate = p->anim_play[a].framerate;
    m->anims[a].flags = p->anim_play[a].flags;
  }
  m->num_anims = p->num_anims;
  m->num_frames = p->num_frames;
  if (p->num_frames == 0)
    np = 0; /* no animation: no animated poses (as the reference compiler writes) */
  m->num_poses = np;
  m->pose_parents = arena_calloc(&m->arena, (size_t)np + 1, sizeof *m->pose_parents);
  if (!m->pose_parents)
    return -1;
  for (uint32_t j = 0; j < np; j++)
    m->pose_parents[j] = j < nj ? p->joints[j].parent : -1;
  if (p->by_line) {
    /* poses: each frame's poses computed from their lines as they are printed (frame_get) */
    if (np > 0 && p->num_frames > 0)
      iqe_poses_frames(p);
  } else if (p->ctx->keep_frames && np > 0 && p->num_frames > 0 && frames_in_place(p, np)) {
    /* every frame kept one pose per joint, one frame after the other: the strip is the parser's
     * poses where they are (issue 26: a copy of 80 bytes beside each `pq` line's) */
    m->frames = p->pose_trs + p->frame_kept[0];
  } else if (p->ctx->keep_frames && np > 0 && p->num_frames > 0) {
    m->frames = arena_calloc(&m->arena, (size_t)p->num_frames * np, sizeof *m->frames);
    if (!m->frames)
      return -1;
    for (uint32_t f = 0; f < p->num_frames; f++) {
      const struct iqe_frame *fr = &p->frames[f];
      for (uint32_t j = 0; j < np; j++) {
        struct trs *t = &m->frames[(size_t)f * np + j];
        if (j < fr->num_poses)
          *t = p->pose_trs[p->frame_kept[f] + j];
        else
          trs_identity(t); /* padded as the reference compiler pads short frames */
      }
    }
  }
  return 0;
}

int iqe_varray_derived(struct iqe_parser *p, uint32_t type, int generated, const double *vals, uint32_t nv)
{
  struct model *m = p->m;
  const struct iqe_layout *l = &p->layout[type];
  uint32_t stride = slot_size[type], at;
  uint32_t fmt = l->declared && l->format < VF_COUNT ? l->format : slot_format[type];
  uint32_t size = l->declared && l->size ? l->size : stride, bytes = format_bytes[fmt];
  unsigned char *data = arena_calloc(&m->arena, (size_t)nv * size + 1, bytes);
  if (!data || m->num_varrays >= IQE_SLOTS)
    return -1;
  for (uint32_t v = 0; v < nv; v++)
    for (uint32_t c = 0; c < size; c++)
      iqe_component_put(data + ((size_t)v * size + c) * bytes, fmt, c < stride ? vals[(size_t)v * stride + c] : 0, 1);
  for (at = 0; at < m->num_varrays && m->varrays[at].type < type; at++)
    ;
  memmove(&m->varrays[at + 1], &m->varrays[at], (m->num_varrays - at) * sizeof *m->varrays);
  memset(&m->varrays[at], 0, sizeof *m->varrays);
  m->varrays[at].type = type;
  m->varrays[at].format = fmt;
  m->varrays[at].size = size;
  m->varrays[at].data = data;
  m->varrays[at].generated = generated;
  m->num_varrays++;
  return 0;
}

/* Tangents the file does not give (no vx) but the reference compiler writes (normals, given or
 * smoothed, and texture coordinates): derived into the model, marked generated so the IQE
 * writer leaves them out. */
static int tangents_generate(struct iqe_parser *p)
{
  struct model *m = p->m;
  double *t = malloc(((size_t)m->num_vertexes + 1) * 4 * sizeof *t);
  int rc;
  if (!t)
    return -1;
  rc = model_tangents_derive(m, t);
  if (rc > 0)
    rc = iqe_varray_derived(p, VT_TANGENT, 1, t, m->num_vertexes);
  free(t);
  return rc < 0 ? -1 : 0;
}

/* Validation alone: the checks mesh_build makes while it builds (face-less triangles), without
 * the model, whose vertex arrays and generated normals would cost far more than the file. */
static void implicit_faces_check(struct iqe_parser *p, uint32_t nv)
{
  if (p->counts[CMD_FA] + p->counts[CMD_FM] > 0)
    return;
  if (p->num_meshes == 0) {
    /* implicit_mesh's one mesh */
    for (uint32_t v = 0; nv >= 3 && v + 2 < nv; v += 3)
      iqe_face_check_implicit(p, v);
    return;
  }
  for (uint32_t i = 0; i < p->num_spans; i++)
    for (uint32_t v = p->spans[i].first_vertex; v + 2 < p->spans[i].end_vertex; v += 3)
      iqe_face_check_implicit(p, v);
}

/* The report's counts when plain validation builds no model: what the parser's tables give as
 * mesh_build and anim_build would; smoothing may split vertices, and face-less triangles come
 * from the meshes' vertex ranges, so those stay unknown. */
static void counts_state(struct iqe_parser *p, uint32_t nv)
{
  int faces = p->counts[CMD_FA] + p->counts[CMD_FM] > 0;
  int implicit = !faces && p->num_meshes == 0 && nv >= 3; /* implicit_mesh's one mesh */
  decode_count(p->ctx, DC_JOINTS, p->num_joints);
  decode_count(p->ctx, DC_MESHES, (unsigned long long)p->num_meshes + (implicit ? 1 : 0));
  decode_count(p->ctx, DC_VERTICES, p->attr[ATTR_VN].count ? nv : MDL_STAT_UNKNOWN);
  decode_count(p->ctx, DC_TRIANGLES, faces ? p->num_tris : MDL_STAT_UNKNOWN);
  decode_count(p->ctx, DC_ANIMATIONS, p->num_anims);
  decode_count(p->ctx, DC_FRAMES, p->num_frames);
}

/* Where each joint (its line and its base pose's), mesh, vertex (every attribute line of it) and
 * triangle (its face's line) is: model.spans, for the page. */
static void spans_record(struct iqe_parser *p, uint32_t nv, const uint32_t *tri_src)
{
  struct model *m = p->m;
  for (uint32_t j = 0; j < p->num_joints; j++) {
    uint32_t line = iqe_lines_get(&p->joint_lines, j);
    model_span_lines(m, MODEL_EL_JOINT, j, line, line);
    if (j < p->num_base_poses)
      model_span_lines(m, MODEL_EL_JOINT, j, p->pose_lines[j], p->pose_lines[j]);
  }
  for (uint32_t k = 0; k < p->num_meshes; k++)
    model_span_lines(m, MODEL_EL_MESH, k, p->meshes[k].line, p->meshes[k].line);
  for (int i = 0; i < ATTR_COUNT; i++)
    for (uint32_t v = 0, line; p->attr[i].lines.step && v < p->attr[i].count && v < nv; v++) {
      line = iqe_lines_get(&p->attr[i].lines, v);
      model_span_lines(m, MODEL_EL_VERTEX, v, line, line);
    }
  for (uint32_t t = 0; p->tri_line && t < m->num_triangles; t++)
    if (tri_src[t] != UINT32_MAX)
      model_span_lines(m, MODEL_EL_TRIANGLE, t, p->tri_line[tri_src[t]], p->tri_line[tri_src[t]]);
}

int iqe_model_build(struct iqe_parser *p)
{
  struct model *m = p->m;
  uint32_t nv = iqe_vertex_count(p), *tri_src = NULL;
  iqe_geometry_check(p);
  if (!p->keep_geo) {
    /* plain validation drops the model unread (keep_frames is asked by every consumer), and
     * poses read only the skeleton and the animations (skeleton_only) */
    implicit_faces_check(p, nv);
    counts_state(p, nv);
    return p->ctx->keep_frames ? anim_build(p) : 0;
  }
  m->num_vertexes = nv;
  if (varrays_build(p, nv) < 0 || mesh_build(p, nv, &tri_src) < 0 || anim_build(p) < 0)
    return -1;
  if (m->want_spans)
    spans_record(p, nv, tri_src);
  /* normals the file does not give are generated (iqe.txt "Smoothing") into the model itself,
   * so conversion, comparison and the IQE round trip all see the same vertices */
  if (p->attr[ATTR_VN].count == 0 && iqe_smooth_normals(p, tri_src) < 0)
    return -1;
  /* and so are tangents, from the final normals, where the reference compiler generates them */
  if (p->attr[ATTR_VX].count == 0 && tangents_generate(p) < 0)
    return -1;
  if (p->comment) {
    /* NUL-terminated, as IQM stores it */
    unsigned char *c = arena_calloc(&m->arena, p->comment_size + 1, 1);
    if (!c)
      return -1;
    memcpy(c, p->comment, p->comment_size);
    m->comment = c;
    m->comment_size = (uint32_t)(p->comment_size + 1);
  }
  return 0;
}
