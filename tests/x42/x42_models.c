/* x42_models.c - the synthetic models the X42 corpus and tests are made from: built as common
 * models, turned into V5 documents by the writer's builder, then given the V5 features a common
 * model has no place for (tags, several anim groups, a reverse loop). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "x42_models.h"
#include "pose.h"

static void put_f32(unsigned char *p, double v)
{
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, 4);
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(u >> (8 * i));
}

static void put_u32(unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static struct model_varray *varray(struct model *m, uint32_t type, uint32_t format, uint32_t size)
{
  struct model_varray *va = &m->varrays[m->num_varrays++];
  va->type = type;
  va->format = format;
  va->size = size;
  va->data = arena_calloc(&m->arena, (size_t)m->num_vertexes * size, format == VF_FLOAT ? 4 : 1);
  return va;
}

static void cross(const double a[3], const double b[3], double o[3])
{
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

static void normalize3(double v[3])
{
  double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int i = 0; i < 3; i++)
    v[i] /= n;
}

/* A unit cube (8 vertices, 12 triangles) skinned to joints 0 and 1, and a static quad. */
static void add_meshes(struct model *m, int skinned, int attrs)
{
  static const int tri[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                 {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  struct model_varray *pos, *nrm = NULL, *tan = NULL, *tc = NULL, *col = NULL, *bi = NULL, *bw = NULL;
  unsigned char *t;
  m->num_vertexes = 12;
  m->varrays = arena_calloc(&m->arena, 8, sizeof *m->varrays);
  pos = varray(m, VT_POSITION, VF_FLOAT, 3);
  nrm = varray(m, VT_NORMAL, VF_FLOAT, 3);
  if (attrs) {
    tan = varray(m, VT_TANGENT, VF_FLOAT, 4);
    tc = varray(m, VT_TEXCOORD, VF_FLOAT, 2);
    col = varray(m, VT_COLOR, VF_UBYTE, 4);
  }
  if (skinned) {
    bi = varray(m, VT_BLENDINDEXES, VF_UBYTE, 4);
    bw = varray(m, VT_BLENDWEIGHTS, VF_UBYTE, 4);
  }
  for (uint32_t v = 0; v < 12; v++) {
    double p[3], n[3], up[3] = {0, 0, 1}, tv[3];
    if (v < 8) {
      p[0] = (v & 1) ? 1 : -1;
      p[1] = (v & 2) ? 1 : -1;
      p[2] = (v & 4) ? 2 : 0;
    } else {
      p[0] = (v & 1) ? 0.5 : -0.5;
      p[1] = (v & 2) ? 0.5 : -0.5;
      p[2] = 2.5;
    }
    n[0] = p[0];
    n[1] = p[1];
    n[2] = p[2] - 1;
    normalize3(n);
    for (int a = 0; a < 3; a++) {
      put_f32((unsigned char *)pos->data + 12 * v + 4 * (unsigned)a, p[a]);
      put_f32((unsigned char *)nrm->data + 12 * v + 4 * (unsigned)a, n[a]);
    }
    if (attrs) {
      if (fabs(n[2]) > 0.9)
        up[0] = 1, up[2] = 0;
      cross(up, n, tv);
      normalize3(tv);
      for (int a = 0; a < 3; a++)
        put_f32((unsigned char *)tan->data + 16 * v + 4 * (unsigned)a, tv[a]);
      put_f32((unsigned char *)tan->data + 16 * v + 12, (v & 1) ? -1 : 1);
      put_f32((unsigned char *)tc->data + 8 * v, (v & 1) ? 1 : 0);
      put_f32((unsigned char *)tc->data + 8 * v + 4, (v & 2) ? 0.75 : 0.25);
      for (int a = 0; a < 4; a++)
        ((unsigned char *)col->data)[4 * v + (unsigned)a] = (unsigned char)(40 * v + 16 * (unsigned)a);
    }
    if (skinned && v < 8) {
      unsigned char *i = (unsigned char *)bi->data + 4 * v, *w = (unsigned char *)bw->data + 4 * v;
      i[0] = 0;
      i[1] = 1;
      w[0] = (unsigned char)((v & 4) ? 64 : 191);
      w[1] = (unsigned char)(255 - w[0]);
      if (v == 0) /* one vertex with three influences: the group's maxVertInfluences is 3 */
        i[2] = 2, w[0] = 100, w[1] = 100, w[2] = 55;
    }
  }
  m->num_triangles = 14;
  t = arena_calloc(&m->arena, 14 * 3, 4);
  for (int k = 0; k < 12; k++)
    for (int c = 0; c < 3; c++)
      put_u32(t + 12 * k + 4 * c, (uint32_t)tri[k][c]);
  put_u32(t + 144, 8), put_u32(t + 148, 9), put_u32(t + 152, 10);
  put_u32(t + 156, 9), put_u32(t + 160, 11), put_u32(t + 164, 10);
  m->triangles = t;
  m->num_meshes = 2;
  m->meshes = arena_calloc(&m->arena, 2, sizeof *m->meshes);
  m->meshes[0] = (struct model_mesh){"body", "skin", 0, 8, 0, 12};
  m->meshes[1] = (struct model_mesh){"hat", "felt", 8, 4, 12, 2};
}

void x42_model_animated(struct model *m)
{
  static const char *const names[4] = {"root", "spine", "head", "arm"};
  static const int32_t parents[4] = {-1, 0, 1, 1};
  model_init(m);
  m->num_joints = 4;
  if (model_joints_alloc(m, 4) < 0)
    abort();
  m->num_poses = 4;
  m->num_frames = 8;
  m->frames = arena_calloc(&m->arena, 8 * 4, sizeof *m->frames);
  for (uint32_t f = 0; f < 8; f++)
    for (uint32_t b = 0; b < 4; b++) {
      struct trs *p = &m->frames[f * 4 + b];
      trs_identity(p);
      if (b == 0)
        p->t[0] = 0.5 * f, p->t[2] = 0.25;
      if (b == 1) {
        double a = 0.1745329 * (f < 4 ? f : 4); /* turns to frame 4, then holds */
        p->t[2] = 1;
        p->r[2] = sin(a / 2);
        p->r[3] = cos(a / 2);
      }
      if (b == 2)
        p->t[2] = 1, p->s[0] = 1 + 0.125 * f;
      if (b == 3)
        p->t[0] = 0.5, p->t[2] = 0.75, p->r[0] = sqrt(0.5), p->r[3] = sqrt(0.5);
    }
  for (uint32_t b = 0; b < 4; b++) {
    m->joints[b].name = names[b];
    m->joints[b].parent = parents[b];
    *model_rest_mut(m, b) = m->frames[b];
  }
  m->num_anims = 2;
  m->anims = arena_calloc(&m->arena, 2, sizeof *m->anims);
  m->anims[0] = (struct model_anim){"walk", 0, 8, 30, MODEL_ANIM_LOOP, 0};
  m->anims[1] = (struct model_anim){"back", 4, 4, 15, MODEL_ANIM_LOOP, 0};
  add_meshes(m, 1, 1);
}

void x42_model_static(struct model *m)
{
  model_init(m);
  add_meshes(m, 0, 0);
}

void x42_model_empty(struct model *m)
{
  model_init(m);
}

int x42_doc_animated(struct arena *a, struct x42_doc *d, char *err, size_t errcap)
{
  struct model m;
  int rc;
  x42_model_animated(&m);
  rc = x42_doc_build(&m, a, d, NULL, err, errcap);
  if (rc == 0) {
    /* what a common model cannot say: two anim groups, a tag, a reverse loop */
    uint16_t spine = d->bones[1].name, head = d->bones[2].name;
    struct x42_anim_group *g = arena_calloc(a, 2, sizeof *g);
    g[0] = (struct x42_anim_group){d->anim_groups[0].name, 0, 2};
    g[1] = (struct x42_anim_group){spine, 2, 4};
    d->anim_groups = g;
    d->num_anim_groups = 2;
    d->tags = arena_calloc(a, 1, sizeof *d->tags);
    d->tags[0].name = head;
    d->tags[0].bone = 2;
    d->tags[0].m[0] = d->tags[0].m[4] = d->tags[0].m[8] = 1;
    d->tags[0].m[11] = 0.5f;
    d->num_tags = 1;
    d->anims[1].first = 7;
    d->anims[1].last = 4;
    d->anims[1].loop_start = 6;
    d->anims[1].loop_end = 5;
    d->bones[3].flags = 1;
  }
  model_free(&m);
  return rc;
}

/* anim plus a second tag on the arm, in model space's offset (tags differ, all else equal) */
int x42_doc_tagged(struct arena *a, struct x42_doc *d, char *err, size_t errcap)
{
  int rc = x42_doc_animated(a, d, err, errcap);
  struct x42_tag *t = rc == 0 ? arena_calloc(a, 2, sizeof *t) : NULL;
  if (rc != 0 || !t)
    return rc ? rc : -1;
  t[0] = d->tags[0];
  t[1] = d->tags[0];
  t[1].name = d->bones[3].name;
  t[1].bone = 3;
  t[1].m[9] = 0.25f;
  d->tags = t;
  d->num_tags = 2;
  return 0;
}

/* anim with two levels of detail: both groups, then the skinned cube alone */
int x42_doc_lods(struct arena *a, struct x42_doc *d, char *err, size_t errcap)
{
  int rc = x42_doc_animated(a, d, err, errcap);
  struct x42_lod *l = rc == 0 ? arena_calloc(a, 2, sizeof *l) : NULL;
  if (rc != 0 || !l)
    return rc ? rc : -1;
  l[0] = d->lods[0];
  l[1] = d->lods[0];
  l[1].num_groups = 1;
  d->lods = l;
  d->num_lods = 2;
  return 0;
}

int x42_doc_static(struct arena *a, struct x42_doc *d, char *err, size_t errcap)
{
  struct model m;
  int rc;
  x42_model_static(&m);
  rc = x42_doc_build(&m, a, d, NULL, err, errcap);
  model_free(&m);
  return rc;
}

int x42_doc_empty(struct arena *a, struct x42_doc *d, char *err, size_t errcap)
{
  struct model m;
  int rc;
  x42_model_empty(&m);
  rc = x42_doc_build(&m, a, d, NULL, err, errcap);
  model_free(&m);
  return rc;
}
