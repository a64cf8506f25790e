/* x42_model.c - a checked V5 document into the common model: bones as joints (base pose from
 * baseFrame, left out of the frame strip when it is a frame of its own), animations over the
 * global frame strip, groups as meshes, decoded vertex arrays.
 * Runs after the checks, so indices may still be out of range: every one is clamped here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model_geometry.h"
#include "x42.h"
#include "x42_fast.h"
#include "pose.h"


static const char *name_of(struct model *m, const struct x42_doc *d, uint16_t name)
{
  if (!x42_name_ok(d, name))
    return "";
  return arena_strndup(&m->arena, d->strings + name, strlen(d->strings + name));
}

static void put_f32(unsigned char *p, double v)
{
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, 4);
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(u >> (8 * i));
}

static struct model_varray *varray_add(struct model *m, uint32_t type, uint32_t format, uint32_t size)
{
  struct model_varray *va = &m->varrays[m->num_varrays++];
  size_t esize = format == VF_FLOAT ? 4 : 1;
  va->type = type;
  va->format = format;
  va->size = size;
  va->data = arena_calloc(&m->arena, (size_t)m->num_vertexes * size + 1, esize);
  return va->data ? va : NULL;
}

static int fill_vertices(struct model *m, const struct x42_doc *d)
{
  uint32_t nv = d->num_verts;
  struct model_varray *va;
  unsigned char *p;
  m->num_vertexes = nv;
  m->varrays = arena_calloc(&m->arena, 8, sizeof *m->varrays);
  if (!m->varrays || !nv)
    return m->varrays ? 0 : -1;
  if (!(va = varray_add(m, VT_POSITION, VF_FLOAT, 3)))
    return -1;
  for (int a = 0; a < 3; a++) /* the range pack's step: what compare allows a position to move */
    va->step[a] = ((double)d->vert_pos_pack[a][1] - d->vert_pos_pack[a][0]) / X42_RANGE_STEPS;
  p = (unsigned char *)va->data;
  for (uint32_t v = 0; v < nv; v++)
    for (int a = 0; a < 3; a++)
      put_f32(p + 12u * v + 4u * (unsigned)a,
              x42_range_decode(d->vert_pos[3u * v + (unsigned)a], d->vert_pos_pack[a][0], d->vert_pos_pack[a][1]));
  if (d->texcoords) {
    if (!(va = varray_add(m, VT_TEXCOORD, VF_FLOAT, 2)))
      return -1;
    for (int a = 0; a < 2; a++)
      va->step[a] = ((double)d->vert_tc_pack[a][1] - d->vert_tc_pack[a][0]) / X42_RANGE_STEPS;
    p = (unsigned char *)va->data;
    for (uint32_t v = 0; v < nv; v++)
      for (int a = 0; a < 2; a++)
        put_f32(p + 8u * v + 4u * (unsigned)a,
                x42_range_decode(d->texcoords[2u * v + (unsigned)a], d->vert_tc_pack[a][0], d->vert_tc_pack[a][1]));
  }
  if (d->normals) {
    if (!(va = varray_add(m, VT_NORMAL, VF_FLOAT, 3)))
      return -1;
    va->step[0] = va->step[1] = va->step[2] = 1 / 127.0; /* s8n */
    p = (unsigned char *)va->data;
    for (uint32_t v = 0; v < 3 * nv; v++)
      put_f32(p + 4u * v, x42_s8n(d->normals[v]));
  }
  if (d->tangents) {
    if (!(va = varray_add(m, VT_TANGENT, VF_FLOAT, 4)))
      return -1;
    p = (unsigned char *)va->data;
    for (uint32_t v = 0; v < nv; v++) {
      const int8_t *t = d->tangents + 7u * (size_t)v;
      for (int a = 0; a < 3; a++)
        put_f32(p + 16u * v + 4u * (unsigned)a, x42_s8n(t[a]));
      put_f32(p + 16u * v + 12u, x42_s8n(t[3]));
    }
  }
  if (d->colors) {
    if (!(va = varray_add(m, VT_COLOR, VF_UBYTE, 4)))
      return -1;
    memcpy((unsigned char *)va->data, d->colors, (size_t)nv * 4);
  }
  {
    struct model_varray *bi = varray_add(m, VT_BLENDINDEXES, VF_UBYTE, 4);
    struct model_varray *bw = varray_add(m, VT_BLENDWEIGHTS, VF_UBYTE, 4);
    uint64_t pos = 0;
    if (!bi || !bw)
      return -1;
    for (uint32_t gi = 0; gi < d->num_groups; gi++) {
      const struct x42_group *g = &d->groups[gi];
      unsigned mi = g->max_infl > 4 ? 0 : g->max_infl, stride = mi ? 2 * mi - 1 : 0;
      for (uint32_t v = 0; mi && v < g->num_verts && pos + stride <= d->blend_len; v++, pos += stride) {
        uint64_t vx = (uint64_t)g->first_vert + v;
        unsigned sum = 0;
        if (vx >= nv)
          continue;
        for (unsigned k = 0; k < mi; k++) {
          unsigned slot = d->blend[pos + 2 * k], bone = 0, w, model = 0;
          if (slot < g->num_infl && slot < X42_MAX_PALETTE && g->palette[slot] < d->num_infl) {
            if (d->influences[g->palette[slot]].bone < d->num_bones)
              bone = d->influences[g->palette[slot]].bone;
            else
              model = d->influences[g->palette[slot]].bone == X42_NONE;
          }
          w = k + 1 < mi ? d->blend[pos + 2 * k + 1] : (sum > 255 ? 0 : 255 - sum);
          sum += w;
          /* the model bone (0xFFFF) is no joint: its share leaves the vertex where it is, as a
           * vertex without blend weights (Egg: in no membership) */
          if (model)
            w = 0;
          ((unsigned char *)bi->data)[4 * vx + k] = (unsigned char)bone;
          ((unsigned char *)bw->data)[4 * vx + k] = (unsigned char)w;
        }
      }
    }
  }
  return 0;
}

static int group_elems_ok(const struct x42_doc *d, const struct x42_group *g)
{
  if (g->first_index == 0xFFFFFFFFu)
    return g->num_elems <= g->num_verts && (uint64_t)g->first_vert + g->num_verts <= d->num_verts;
  return (uint64_t)g->first_index + g->num_elems <= d->num_indices;
}

/* The triangles the groups make; 0 beyond 2^24 (overlapping groups could ask for any number:
 * the model is kept bounded and gets none). */
static uint64_t triangle_count(const struct x42_doc *d)
{
  uint64_t ntri = 0;
  for (uint32_t gi = 0; gi < d->num_groups; gi++) {
    const struct x42_group *g = &d->groups[gi];
    /* only groups whose elements exist (X42-GRP-007) become triangles */
    if (!group_elems_ok(d, g))
      continue;
    if ((g->prim == 4 || g->prim == 5 || g->prim == 6) && g->num_elems >= 3)
      ntri += g->prim == 4 ? g->num_elems / 3 : g->num_elems - 2;
  }
  return ntri > (1u << 24) ? 0 : ntri;
}

static int fill_meshes(struct model *m, const struct x42_doc *d)
{
  uint64_t ntri = triangle_count(d);
  uint32_t *tri;
  int capped = ntri == 0;
  m->meshes = arena_calloc(&m->arena, (size_t)d->num_groups + 1, sizeof *m->meshes);
  if (!m->meshes)
    return -1;
  tri = arena_calloc(&m->arena, (size_t)ntri * 3 + 1, sizeof *tri);
  if (!tri)
    return -1;
  for (uint32_t gi = 0; gi < d->num_groups; gi++) {
    const struct x42_group *g = &d->groups[gi];
    struct model_mesh *mesh = &m->meshes[m->num_meshes++];
    int indexed = g->first_index != 0xFFFFFFFFu;
    mesh->name = name_of(m, d, g->surface);
    mesh->material = name_of(m, d, g->material);
    mesh->first_vertex = g->first_vert;
    mesh->num_vertexes = g->num_verts;
    mesh->first_triangle = m->num_triangles;
    if ((g->prim != 4 && g->prim != 5 && g->prim != 6) || !group_elems_ok(d, g) || capped)
      continue;
    for (uint32_t e = 0; e + 2 < g->num_elems; e += g->prim == 4 ? 3 : 1) {
      uint32_t c[3];
      for (int k = 0; k < 3; k++) {
        uint32_t at = g->prim == 6 && k == 0 ? 0 : e + (uint32_t)k;
        uint64_t idx = indexed ? ((uint64_t)g->first_index + at < d->num_indices ? d->indices[g->first_index + at] : 0) : at;
        c[k] = (uint32_t)((uint64_t)g->first_vert + idx < d->num_verts ? g->first_vert + idx : 0);
      }
      if (g->prim == 5 && (e & 1)) {
        uint32_t s = c[0];
        c[0] = c[1];
        c[1] = s;
      }
      memcpy(&tri[3u * (size_t)m->num_triangles], c, sizeof c);
      m->num_triangles++;
    }
    mesh->num_triangles = m->num_triangles - mesh->first_triangle;
  }
  /* stored as little-endian u32: convert in place */
  {
    unsigned char *b = (unsigned char *)tri;
    for (size_t i = 0; i < 3u * (size_t)m->num_triangles; i++) {
      uint32_t v = tri[i];
      for (int k = 0; k < 4; k++)
        b[4 * i + (size_t)k] = (unsigned char)(v >> (8 * k));
    }
  }
  m->triangles = (const unsigned char *)tri;
  return 0;
}

/* Each group's material name, which engines commonly open as the texture's file name (a
 * convention, not X42's layout): recorded for --resources, once per group. */
static void material_refs(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  for (uint32_t i = 0; i < d->num_groups; i++) {
    uint16_t name = d->groups[i].material;
    char path[40];
    if (!x42_name_ok(d, name) || !d->strings[name])
      continue;
    snprintf(path, sizeof path, "groups[%u].material", i);
    (void)model_ref_add(x->m, MODEL_REF_TEXTURE, 1, d->strings + name, strlen(d->strings + name),
                        (long long)(x->lay.off[XS_GROUPS] + 148u * (uint64_t)i), 0, 0, path);
  }
}

/* Tags as attachment points, LODs as runs of meshes (a group range past the groups is clamped:
 * X42-LOD-* said so). */
static int fill_tags_lods(struct model *m, const struct x42_doc *d)
{
  m->tags = arena_calloc(&m->arena, (size_t)d->num_tags + 1, sizeof *m->tags);
  m->lods = arena_calloc(&m->arena, (size_t)d->num_lods + 1, sizeof *m->lods);
  if (!m->tags || !m->lods)
    return -1;
  m->num_tags = d->num_tags;
  for (uint32_t i = 0; i < d->num_tags; i++) {
    const struct x42_tag *t = &d->tags[i];
    m->tags[i].name = name_of(m, d, t->name);
    m->tags[i].joint = t->bone < d->num_bones ? (int32_t)t->bone : -1;
    for (int k = 0; k < 12; k++)
      m->tags[i].m[k] = t->m[k];
  }
  m->num_lods = d->num_lods;
  for (uint32_t i = 0; i < d->num_lods; i++) {
    const struct x42_lod *l = &d->lods[i];
    uint32_t first = l->first_group < d->num_groups ? l->first_group : d->num_groups;
    m->lods[i].name = name_of(m, d, l->name);
    m->lods[i].first_mesh = first;
    m->lods[i].num_meshes = l->num_groups < d->num_groups - first ? l->num_groups : d->num_groups - first;
  }
  return 0;
}

/* 1 when baseFrame is the last frame and no animation plays it: a frame that only holds the
 * bind pose, as the writer stores one (x42_build.c). */
static int base_frame_own(const struct x42_doc *d)
{
  if (d->base_frame < 0 || (uint32_t)d->base_frame + 1 != d->num_frames)
    return 0;
  for (uint32_t i = 0; i < d->num_anims; i++)
    if (d->anims[i].first >= d->base_frame || d->anims[i].last >= d->base_frame)
      return 0;
  return 1;
}

/* 1 when the packed corners are collinear. The range decode is affine per axis, and an
 * invertible affine map keeps collinearity, so the test is exact on the stored integers (an axis
 * whose range is empty decodes every value to its min: its coordinate is dropped). This is
 * MDL-GEO-002's test (geo_triangle_flat) without the rounding of decoded floats. */
static inline int packed_flat(const uint16_t *vp, uint32_t c0, uint32_t c1, uint32_t c2, const int64_t mask[3])
{
  const uint16_t *p0 = vp + 3u * (size_t)c0, *p1 = vp + 3u * (size_t)c1, *p2 = vp + 3u * (size_t)c2;
  /* a dead axis (mask 0) counts as 0 in every corner */
  int64_t ax = ((int64_t)p1[0] - p0[0]) & mask[0], ay = ((int64_t)p1[1] - p0[1]) & mask[1],
          az = ((int64_t)p1[2] - p0[2]) & mask[2];
  int64_t bx = ((int64_t)p2[0] - p0[0]) & mask[0], by = ((int64_t)p2[1] - p0[1]) & mask[1],
          bz = ((int64_t)p2[2] - p0[2]) & mask[2];
  return ((ay * bz - az * by) | (az * bx - ax * bz) | (ax * by - ay * bx)) == 0;
}

/* One group's triangles: how many are flat, the first one's element and corners. The triangle
 * list with indices, nearly every group, has its own loop: no per-corner choice of primitive.
 * top1: 1 + the group's largest index, when the group checks found it (0: not known). */
static uint32_t group_flat(const struct x42_doc *d, const struct x42_group *g, const int64_t mask[3],
                           uint32_t top1, uint32_t *total, uint32_t *first, uint32_t fc[3])
{
  int indexed = g->first_index != 0xFFFFFFFFu;
  uint32_t count = 0, n = 0;
  if (g->prim == 4 && indexed) {
    const uint16_t *ix = d->indices + g->first_index, *vp = d->vert_pos;
    const uint64_t fv = g->first_vert, nv = d->num_verts;
    const uint32_t ne = g->num_elems, ntri = ne / 3;
    /* with every corner below nv - 1, the triangles surely not flat are passed over many at a
     * time (x42_fast.c); the loop below decides the rest, one by one, as it decides them all
     * otherwise */
    int fast = ntri && fv + (top1 ? top1 - 1 : x42_u16_max(ix, 3u * (uint64_t)ntri)) + 1 < nv;
    for (uint32_t t = fast ? x42_list_next_maybe_flat(ix, ntri, vp, fv, mask, 0) : 0; t < ntri;
         t = fast ? x42_list_next_maybe_flat(ix, ntri, vp, fv, mask, t + 1) : t + 1) {
      uint32_t e = 3 * t;
      uint64_t v0 = fv + ix[e], v1 = fv + ix[e + 1], v2 = fv + ix[e + 2];
      if (v0 >= nv || v1 >= nv || v2 >= nv || v0 == v1 || v1 == v2 || v0 == v2)
        continue; /* out of range or repeated: X42-GRP-* */
      if (packed_flat(vp, (uint32_t)v0, (uint32_t)v1, (uint32_t)v2, mask) && count++ == 0) {
        *first = e;
        fc[0] = (uint32_t)v0, fc[1] = (uint32_t)v1, fc[2] = (uint32_t)v2;
      }
    }
    *total = ntri;
    return count;
  }
  for (uint32_t e = 0; e + 2 < g->num_elems; e += g->prim == 4 ? 3 : 1) {
    uint32_t c[3];
    int ok = 1;
    for (int k = 0; k < 3; k++) {
      uint32_t at = g->prim == 6 && k == 0 ? 0 : e + (uint32_t)k;
      uint64_t v = (uint64_t)g->first_vert + (indexed ? d->indices[g->first_index + at] : at);
      ok &= v < d->num_verts;
      c[k] = (uint32_t)v;
    }
    n++;
    if (!ok || c[0] == c[1] || c[1] == c[2] || c[0] == c[2])
      continue; /* out of range or repeated: X42-GRP-* */
    if (packed_flat(d->vert_pos, c[0], c[1], c[2], mask) && count++ == 0) {
      *first = e; /* the element that starts the triangle (a fan's hub is element 0) */
      memcpy(fc, c, 3 * sizeof *c);
    }
  }
  *total = n;
  return count;
}

/* The shared zero-area test (MDL-GEO-002) on the file's own arrays (validation does not expand
 * them into the model), for list and fan groups: a strip joins its runs with zero-area triangles
 * on purpose, so strips are not looked at. One warning per group, at the first, with the count.
 * X42's own rules already cover the rest of MDL-GEO: a zero normal or tangent is off unit length
 * (X42-VTX-001, X42-VTX-002), and a tangent along its normal leaves t x b across the normal
 * (X42-VTX-004). */
static void geometry_check(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  int64_t mask[3];
  for (int a = 0; a < 3; a++)
    mask[a] = d->vert_pos_pack[a][0] != d->vert_pos_pack[a][1] ? -1 : 0;
  if (d->vert_pos)
    for (uint32_t gi = 0; gi < d->num_groups; gi++) {
      const struct x42_group *g = &d->groups[gi];
      int indexed = g->first_index != 0xFFFFFFFFu;
      uint32_t first = 0, count, total = 0, fc[3] = {0, 0, 0};
      if ((g->prim != 4 && g->prim != 6) || !group_elems_ok(d, g))
        continue;
      count = group_flat(d, g, mask, x->index_top ? x->index_top[gi] : 0, &total, &first, fc);
      if (count) {
        struct mdl_loc loc = indexed && x->lay.off[XS_INDICES]
          ? loc_bin(x->lay.off[XS_INDICES] + 2 * ((uint64_t)g->first_index + first), "groups[%u].elements[%u]", gi, first)
          : x->lay.off[XS_VERT_POS] ? loc_bin(x->lay.off[XS_VERT_POS] + 6 * (uint64_t)fc[0], "groups[%u].elements[%u]", gi, first)
                                    : loc_none();
        diag_emit(x->diag, RULE_CORE_TRIANGLE_ZERO_AREA, &loc, "a non-zero area",
                  "triangle at element %u of group %u (vertices %u %u %u): %u of %u triangles", first, gi, fc[0],
                  fc[1], fc[2], count, total);
      }
    }
}

/* Where each bone (its record, its base pose's six keys, the influences naming it), group,
 * vertex (every array's sample and its blend entry) and triangle (its indices) is:
 * model.spans, for the page. An index past its table stays as the file says it. */
static void spans_record(const struct x42_ctx *x)
{
  static const struct { int sec; uint32_t stride; } varr[] = {
    {XS_VERT_POS, 6}, {XS_NORMALS, 3}, {XS_TANGENTS, 7}, {XS_TEXCOORDS, 4}, {XS_COLORS, 4}};
  struct model *m = x->m;
  const struct x42_doc *d = x->doc;
  const uint64_t *off = x->lay.off;
  uint64_t pos = 0;
  model_span_bytes(m, MODEL_EL_JOINT, 0, d->num_bones, off[XS_BONES], 12);
  model_span_bytes(m, MODEL_EL_JOINT, 0, d->num_bones < d->key_len / 6u ? d->num_bones : d->key_len / 6u,
                   off[XS_KEYS], 48);
  for (uint32_t i = 0; d->influences && i < d->num_infl; i++)
    if (d->influences[i].bone != X42_NONE)
      model_span_bytes(m, MODEL_EL_JOINT, d->influences[i].bone, 1, off[XS_INFLUENCES] + 52u * (uint64_t)i, 52);
  model_span_bytes(m, MODEL_EL_MESH, 0, d->num_groups, off[XS_GROUPS], 148);
  for (size_t k = 0; k < sizeof varr / sizeof varr[0]; k++)
    if (off[varr[k].sec])
      model_span_bytes(m, MODEL_EL_VERTEX, 0, d->num_verts, off[varr[k].sec], varr[k].stride);
  for (uint32_t gi = 0; gi < d->num_groups && gi < m->num_meshes; gi++) {
    const struct x42_group *g = &d->groups[gi];
    const struct model_mesh *mesh = &m->meshes[gi];
    uint32_t stride = g->max_infl ? 2u * g->max_infl - 1u : 0;
    if (stride && off[XS_BLEND]) {
      model_span_bytes(m, MODEL_EL_VERTEX, g->first_vert, g->num_verts, off[XS_BLEND] + pos, stride);
      pos += (uint64_t)stride * g->num_verts;
    }
    if (g->first_index == 0xFFFFFFFFu || !mesh->num_triangles || !off[XS_INDICES])
      continue;
    if (g->prim == 4) { /* a list: three indices a triangle */
      model_span_bytes(m, MODEL_EL_TRIANGLE, mesh->first_triangle, mesh->num_triangles,
                       off[XS_INDICES] + 2u * (uint64_t)g->first_index, 6);
    } else { /* a strip or fan: index e ends triangle e - 2, the first three start the first */
      model_span_bytes(m, MODEL_EL_TRIANGLE, mesh->first_triangle, 1, off[XS_INDICES] + 2u * (uint64_t)g->first_index, 6);
      model_span_bytes(m, MODEL_EL_TRIANGLE, mesh->first_triangle + 1, mesh->num_triangles - 1,
                       off[XS_INDICES] + 2u * ((uint64_t)g->first_index + 3), 2);
    }
  }
}

int x42_model_fill(struct x42_ctx *x)
{
  struct model *m = x->m;
  const struct x42_doc *d = x->doc;
  uint32_t nb = d->num_bones;
  struct trs *base;

  m->format_data = x->doc;
  m->format_data_owner = "x42";
  m->flags = d->flags;
  geometry_check(x);
  m->num_joints = nb;
  model_joints_alloc(m, (size_t)nb + 1); /* out of memory: joints NULL */
  m->pose_parents = arena_calloc(&m->arena, (size_t)nb + 1, sizeof *m->pose_parents);
  m->channels = arena_calloc(&m->arena, (size_t)nb + 1, sizeof *m->channels);
  base = arena_calloc(&m->arena, (size_t)nb + 1, sizeof *base);
  if (!m->joints || !m->pose_parents || !m->channels || !base)
    return -1;
  x42_pose_at(d, &m->arena, d->base_frame > 0 ? (uint32_t)d->base_frame : 0, base);
  m->num_poses = nb;
  for (uint32_t b = 0; b < nb; b++) {
    struct model_channels *c = &m->channels[b];
    m->joints[b].name = name_of(m, d, d->bones[b].name);
    m->joints[b].parent = d->bones[b].parent == X42_NONE ? -1 : (int32_t)d->bones[b].parent;
    *model_rest_mut(m, b) = base[b];
    m->pose_parents[b] = m->joints[b].parent;
    /* the quantization each channel went through, for round-trip bounds */
    c->mask = 0x3FF;
    for (int a = 0; a < 3; a++) {
      c->offset[a] = d->anim_pos_pack[a][0];
      c->scale[a] = fabs((double)d->anim_pos_pack[a][1] - d->anim_pos_pack[a][0]) / X42_RANGE_STEPS;
      c->offset[7 + a] = d->anim_scale_pack[0];
      c->scale[7 + a] = fabs((double)d->anim_scale_pack[1] - d->anim_scale_pack[0]) / X42_RANGE_STEPS;
    }
    for (int a = 3; a < 7; a++) {
      c->offset[a] = 0;
      c->scale[a] = 3.0 / 32767.0; /* S16N step, plus the renormalisation of interpolated keys */
    }
  }
  m->anims = arena_calloc(&m->arena, (size_t)d->num_anims + 1, sizeof *m->anims);
  if (!m->anims)
    return -1;
  m->num_anims = d->num_anims;
  for (uint32_t i = 0; i < d->num_anims; i++) {
    const struct x42_anim *a = &d->anims[i];
    uint32_t lo = a->first < a->last ? a->first : a->last, hi = a->first < a->last ? a->last : a->first;
    m->anims[i].name = name_of(m, d, a->name);
    m->anims[i].first_frame = lo;
    m->anims[i].num_frames = hi - lo + 1;
    m->anims[i].framerate = a->rate;
    m->anims[i].flags = a->loop_start != X42_NONE ? MODEL_ANIM_LOOP : 0;
    m->anims[i].reverse = a->last < a->first;
  }
  if (fill_tags_lods(m, d) < 0)
    return -1;
  if (x->dc->keep_frames && x42_keys_evaluate(d, m) == 0 && base_frame_own(d))
    m->num_frames--; /* the bind pose's own frame is the joints' pose, not a frame to play */
  /* vertex arrays and triangles are for the model's consumers (convert, compare, poses, round
   * trips: all decode with keep_frames); plain validation drops the model unread, and expanding
   * 31 bytes of vertex into ~60 was most of its time and memory */
  m->num_vertexes = d->num_verts;
  material_refs(x);
  if (!x->dc->keep_frames) {
    /* the report's stats: what the full decode would count (fill_meshes, x42_keys_evaluate) */
    decode_count(x->dc, DC_MESHES, d->num_groups);
    decode_count(x->dc, DC_TRIANGLES, triangle_count(d));
    decode_count(x->dc, DC_FRAMES, d->num_bones && (uint64_t)d->num_frames * d->num_bones <= X42_MAX_POSES
                                     ? d->num_frames - (uint32_t)base_frame_own(d) : 0);
    return 0;
  }
  if (fill_vertices(m, d) < 0 || fill_meshes(m, d) < 0)
    return -1;
  if (m->want_spans)
    spans_record(x);
  return 0;
}
