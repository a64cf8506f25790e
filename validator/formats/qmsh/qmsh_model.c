/* qmsh_model.c - the common model from a decoded QMSH file: bones as joints (TRS derived from
 * the bone matrix), keyframes as decoded frames in double (as stored: relative to the bone
 * matrix, with their times; frame_space and frame_times say so), vertex fields as arrays,
 * submeshes as meshes, points as tags (qmsh_tags.c). The whole decoded file hangs off
 * model.format_data for the writer. */
#include <math.h>
#include <string.h>

#include "model_geometry.h"
#include "pose.h"
#include "qmsh.h"

static void bone_trs(const float mat[12], struct trs *p)
{
  double rows[12];
  for (int i = 0; i < 12; i++)
    rows[i] = mat[i];
  qmsh_affine_trs(rows, p);
}

void qmsh_affine_trs(const double mat[12], struct trs *p)
{
  double r[3][3], s[3], c[3][3];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      r[i][j] = mat[i * 3 + j];
    s[i] = sqrt(r[i][0] * r[i][0] + r[i][1] * r[i][1] + r[i][2] * r[i][2]);
    p->t[i] = mat[9 + i];
  }
  p->r[0] = p->r[1] = p->r[2] = 0;
  p->r[3] = 1;
  p->s[0] = s[0];
  p->s[1] = s[1];
  p->s[2] = s[2];
  if (!(s[0] > 0 && s[1] > 0 && s[2] > 0) || !isfinite(s[0] + s[1] + s[2]))
    return;
  if (r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) -
        r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
        r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]) < 0)
    s[0] = -s[0]; /* a mirror: carry it in the first scale */
  p->s[0] = s[0];
  /* column-vector rotation: the transpose of the normalised rows */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      c[i][j] = r[j][i] / s[j];
  quat_from_rotation((const double(*)[3])c, p->r);
}

static int skeleton_fill(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  struct model *m = d->m;
  uint32_t nb = q->h.n_bones, total = 0;
  double *times;

  m->num_joints = m->num_poses = nb;
  model_joints_alloc(m, (size_t)nb + 1); /* out of memory: joints NULL */
  m->pose_parents = arena_calloc(&m->arena, (size_t)nb + 1, sizeof *m->pose_parents);
  m->num_anims = q->h.n_anims;
  m->anims = arena_calloc(&m->arena, (size_t)q->h.n_anims + 1, sizeof *m->anims);
  if (!m->joints || !m->pose_parents || !m->anims)
    return -1;
  for (uint32_t k = 0; k < nb; k++) {
    const struct qmsh_bone *b = &q->bones[k];
    m->joints[k].name = b->name.s;
    /* file ids are 1-based with 0 = none; a parent out of order is reported, not followed */
    m->joints[k].parent = b->parent >= 1 && b->parent <= k ? (int32_t)b->parent - 1 : -1;
    m->pose_parents[k] = m->joints[k].parent;
    bone_trs(b->mat, model_rest_mut(m, k));
  }
  for (uint32_t a = 0; a < q->h.n_anims; a++) {
    m->anims[a].name = q->anims[a].name.s;
    m->anims[a].first_frame = total;
    m->anims[a].num_frames = q->anims[a].n_frames;
    m->anims[a].framerate = 0; /* QMSH stores a time per keyframe, not a rate */
    total += q->anims[a].n_frames;
  }
  m->num_frames = total;
  /* keyframes are relative to the bone matrix and timed one by one: the model says so, and
   * model_frames_to_parent gives other formats IQM's parent-relative, uniform frames */
  m->frame_space = MODEL_FRAMES_BIND;
  if (!d->ctx->keep_frames || !nb)
    return 0;
  m->frames = arena_calloc(&m->arena, (size_t)total * nb + 1, sizeof *m->frames);
  times = arena_calloc(&m->arena, (size_t)total + 1, sizeof *times);
  if (!m->frames || !times)
    return -1;
  m->frame_times = times;
  for (uint32_t a = 0; a < q->h.n_anims; a++) {
    for (uint32_t f = 0; f < q->anims[a].n_frames; f++) {
      const struct qmsh_key *key = q->anims[a].frames[f].keys;
      struct trs *out = &m->frames[((size_t)m->anims[a].first_frame + f) * nb];
      times[m->anims[a].first_frame + f] = q->anims[a].frames[f].time;
      for (uint32_t k = 0; k < nb; k++) {
        for (int i = 0; i < 3; i++) {
          out[k].t[i] = key[k].pos[i];
          out[k].s[i] = key[k].scale[i];
        }
        for (int i = 0; i < 4; i++)
          out[k].r[i] = key[k].rot[i];
      }
    }
  }
  return 0;
}

/* One attribute array of n components of 4 bytes copied out of the interleaved vertices. */
static int varray_add(struct qmsh_dec *d, uint32_t type, const char *name, uint32_t format,
                      uint32_t size, int off)
{
  struct qmsh_mesh *q = d->q;
  struct model *m = d->m;
  struct model_varray *va = &m->varrays[m->num_varrays];
  uint32_t bytes = format == VF_UBYTE ? size : 4 * size;
  unsigned char *data = arena_calloc(&m->arena, (size_t)q->h.n_verts + 1, bytes);
  if (!data)
    return -1;
  for (uint32_t v = 0; v < q->h.n_verts; v++)
    memcpy(data + (size_t)v * bytes, q->verts + (size_t)v * q->vertex_size + (size_t)off, bytes);
  va->type = type;
  va->name = name;
  va->format = format;
  va->size = size;
  va->data = data;
  m->num_varrays++;
  return 0;
}

/* Skinning as IQM-like arrays: joint indices (QMSH bone id - 1) in ubyte, weights
 * (w, 1 - w, 0, 0) in float. The zero bone (id 0, the identity) is no joint: its slot gets
 * index 0 and weight 0. */
static int skin_add(struct qmsh_dec *d, int idx_off, int off)
{
  struct qmsh_mesh *q = d->q;
  struct model *m = d->m;
  struct model_varray *vi = &m->varrays[m->num_varrays];
  struct model_varray *va = &m->varrays[m->num_varrays + 1];
  unsigned char *data = arena_calloc(&m->arena, (size_t)q->h.n_verts + 1, 16);
  unsigned char *ids = arena_calloc(&m->arena, (size_t)q->h.n_verts + 1, 4);
  if (!data || !ids)
    return -1;
  for (uint32_t v = 0; v < q->h.n_verts; v++) {
    const unsigned char *raw = q->verts + (size_t)v * q->vertex_size + (size_t)idx_off;
    float w[4] = {qmsh_vertex_f32(q, v, off, 0), 0, 0, 0};
    w[1] = 1.0f - w[0];
    for (int k = 0; k < 2; k++) {
      ids[(size_t)v * 4 + (size_t)k] = raw[k] ? (unsigned char)(raw[k] - 1) : 0;
      if (!raw[k])
        w[k] = 0;
    }
    for (int c = 0; c < 4; c++) {
      uint32_t u;
      memcpy(&u, &w[c], 4);
      for (int b = 0; b < 4; b++)
        data[(size_t)v * 16 + (size_t)c * 4 + (size_t)b] = (unsigned char)(u >> (8 * b));
    }
  }
  vi->type = VT_BLENDINDEXES;
  vi->format = VF_UBYTE;
  vi->size = 4;
  vi->data = ids;
  va->type = VT_BLENDWEIGHTS;
  va->format = VF_FLOAT;
  va->size = 4;
  va->data = data;
  m->num_varrays += 2;
  return 0;
}

static int geometry_fill(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  struct model *m = d->m;
  struct qmsh_vlayout l;
  unsigned char *tri;
  int rc = 0;

  qmsh_vertex_layout(q->h.flags, &l);
  m->num_vertexes = q->h.n_verts;
  m->varrays = arena_calloc(&m->arena, 8, sizeof *m->varrays);
  if (!m->varrays)
    return -1;
  rc |= varray_add(d, VT_POSITION, NULL, VF_FLOAT, 3, l.pos);
  if (l.normal >= 0)
    rc |= varray_add(d, VT_NORMAL, NULL, VF_FLOAT, 3, l.normal);
  if (l.tex >= 0)
    rc |= varray_add(d, VT_TEXCOORD, NULL, VF_FLOAT, 2, l.tex);
  if (l.tangent >= 0)
    rc |= varray_add(d, VT_TANGENT, NULL, VF_FLOAT, 3, l.tangent);
  if (l.binormal >= 0)
    rc |= varray_add(d, VT_CUSTOM, "binormal", VF_FLOAT, 3, l.binormal);
  if (l.weight >= 0)
    rc |= skin_add(d, l.idx, l.weight);
  if (rc)
    return -1;

  m->num_triangles = q->h.n_tris;
  tri = arena_calloc(&m->arena, (size_t)q->h.n_tris * 3 + 1, 4);
  if (!tri)
    return -1;
  for (size_t i = 0; i < (size_t)q->h.n_tris * 3; i++) {
    tri[i * 4] = (unsigned char)(q->tris[i] & 0xff);
    tri[i * 4 + 1] = (unsigned char)(q->tris[i] >> 8);
  }
  m->triangles = tri;

  m->num_meshes = q->h.n_subs;
  m->meshes = arena_calloc(&m->arena, (size_t)q->h.n_subs + 1, sizeof *m->meshes);
  if (!m->meshes)
    return -1;
  for (uint32_t s = 0; s < q->h.n_subs; s++) {
    const struct qmsh_sub *sb = &q->subs[s];
    m->meshes[s].name = sb->name.s;
    m->meshes[s].material = sb->tex.s;
    m->meshes[s].first_vertex = sb->min_ind;
    m->meshes[s].num_vertexes = sb->n_ind;
    m->meshes[s].first_triangle = sb->first;
    m->meshes[s].num_triangles = sb->tris;
  }
  return 0;
}

/* Where the shared geometry checks point: the attribute in the vertex record, the triangle. */
static void geo_vertex_at(const void *ctx, uint32_t a, uint32_t v, struct mdl_loc *loc)
{
  const struct qmsh_dec *d = ctx;
  struct qmsh_vlayout l;
  uint32_t type = d->m->varrays[a].type;
  int off = 0;
  qmsh_vertex_layout(d->q->h.flags, &l);
  off = type == VT_NORMAL ? l.normal : type == VT_TANGENT ? l.tangent : l.pos;
  *loc = loc_bin(d->vert_off + (uint64_t)v * d->q->vertex_size + (uint64_t)(off > 0 ? off : 0),
                 "vertices[%u].%s", v, type == VT_NORMAL ? "normal" : type == VT_TANGENT ? "tangent" : "pos");
}

static void geo_triangle_at(const void *ctx, uint32_t t, struct mdl_loc *loc)
{
  const struct qmsh_dec *d = ctx;
  *loc = loc_bin(d->tri_off + (uint64_t)t * 6, "triangles[%u]", t);
}

int qmsh_model_fill(struct qmsh_dec *d)
{
  struct model *m = d->m;
  struct geo_where w = {geo_vertex_at, geo_triangle_at, d};
  m->flags = d->q->h.flags;
  if (geometry_fill(d) < 0)
    return -1;
  geo_check_model(d->diag, m, &w);
  if (d->skeletal && skeleton_fill(d) < 0)
    return -1;
  if (qmsh_tags_fill(d) < 0)
    return -1;
  /* without keep_frames the animations' keys were not kept (qmsh_anim.c): the writer must not
   * take the document as complete then */
  if (d->ctx->keep_frames) {
    m->format_data = d->q;
    m->format_data_owner = "qmsh";
  }
  return 0;
}
