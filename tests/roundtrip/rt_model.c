/* rt_model.c - synthetic models (grids with adjacency, a random skeleton, sinusoidal animation)
 * for writer round trips. Everything derives from spec->seed, so output is repeatable. */
#include "rt_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pose.h"

static uint64_t rng_next(uint64_t *s)
{
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull); /* splitmix64 */
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static double rng_unit(uint64_t *s)
{
  return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

static double fl(double v) /* the float a writer stores, as a double */
{
  return (double)(float)v;
}

static void put_u32(unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static void put_f32(unsigned char *p, double v)
{
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  put_u32(p, u);
}

/* prefix + number + suffix, in the model's arena */
static const char *dup_name(struct model *m, const char *prefix, unsigned i, const char *suffix)
{
  char tmp[64];
  int n = snprintf(tmp, sizeof tmp, "%s%u%s", prefix, i, suffix);
  return arena_strndup(&m->arena, tmp, (size_t)n);
}

static struct model_varray *add_varray(struct model *m, uint32_t type, uint32_t format,
                                       uint32_t size, size_t elem)
{
  struct model_varray *va = &m->varrays[m->num_varrays++];
  va->type = type;
  va->format = format;
  va->size = size;
  va->data = arena_calloc(&m->arena, (size_t)m->num_vertexes * size, elem);
  return va->data ? va : NULL;
}

/* Grid quad (x, y) holds triangles (a, c, b) and (b, c, d); edge k of a triangle runs from its
 * vertex k to vertex k+1, so the neighbours below are the triangles across each edge. */
static void grid_mesh(unsigned char *tri, unsigned char *adj, uint32_t w, uint32_t h,
                      uint32_t first_vertex, uint32_t first_triangle)
{
  uint32_t qw = w - 1, qh = h - 1;
  for (uint32_t y = 0; y < qh; y++) {
    for (uint32_t x = 0; x < qw; x++) {
      uint32_t q = y * qw + x, t0 = first_triangle + 2 * q, t1 = t0 + 1;
      uint32_t a = first_vertex + y * w + x, b = a + 1, c = a + w, d = c + 1;
      unsigned char *p = tri + (size_t)t0 * 12;
      put_u32(p, a); put_u32(p + 4, c); put_u32(p + 8, b);
      put_u32(p + 12, b); put_u32(p + 16, c); put_u32(p + 20, d);
      if (adj) {
        unsigned char *n = adj + (size_t)t0 * 12;
        put_u32(n, x > 0 ? t0 - 1 : ~0u);             /* left quad's t1 */
        put_u32(n + 4, t1);
        put_u32(n + 8, y > 0 ? t0 - 2 * qw + 1 : ~0u); /* upper quad's t1 */
        put_u32(n + 12, t0);
        put_u32(n + 16, y + 1 < qh ? t0 + 2 * qw : ~0u); /* lower quad's t0 */
        put_u32(n + 20, x + 1 < qw ? t0 + 2 : ~0u);      /* right quad's t0 */
      }
    }
  }
}

/* How one pose moves: per channel group an amplitude and a frequency. */
struct motion {
  double t0[3], tamp[3], axis[3], angle0, aamp, s0, samp, freq, phase;
};

static void motion_eval(const struct motion *mo, double g, struct trs *p)
{
  double a = mo->angle0 + mo->aamp * sin(mo->phase + g * mo->freq), sn = sin(a / 2), cs = cos(a / 2);
  for (int k = 0; k < 3; k++) {
    p->t[k] = mo->t0[k] + mo->tamp[k] * sin(mo->phase * (k + 1) + g * mo->freq);
    p->r[k] = mo->axis[k] * sn;
    p->s[k] = mo->s0 + mo->samp * cos(mo->phase + g * mo->freq * (k + 1));
  }
  p->r[3] = cs;
  if (p->r[3] > 0) /* writers store w <= 0 */
    for (int k = 0; k < 4; k++)
      p->r[k] = -p->r[k];
}

static void motion_init(struct motion *mo, uint32_t j, uint64_t *rng)
{
  double len;
  memset(mo, 0, sizeof *mo);
  for (int k = 0; k < 3; k++) {
    mo->t0[k] = rng_unit(rng) * 2 - 1;
    mo->axis[k] = rng_unit(rng) * 2 - 1;
  }
  len = sqrt(mo->axis[0] * mo->axis[0] + mo->axis[1] * mo->axis[1] + mo->axis[2] * mo->axis[2]);
  for (int k = 0; k < 3; k++)
    mo->axis[k] = len > 1e-3 ? mo->axis[k] / len : (k == 2);
  mo->angle0 = rng_unit(rng) * 3;
  mo->freq = 0.05 + rng_unit(rng) * 0.2;
  mo->phase = rng_unit(rng) * 6;
  mo->s0 = 1;
  switch (j % 6) {
  case 0: /* still joint: every channel constant */
    break;
  case 1: /* rotation only */
    mo->aamp = 0.8;
    break;
  case 2: /* translation on a large offset, and rotation */
    mo->t0[0] = 1000.5;
    mo->tamp[0] = 0.01;
    mo->tamp[2] = 0.5;
    mo->aamp = 0.3;
    break;
  case 3: /* tiny ranges: 1e-9 is animated (tiny scale), 5e-11 stays constant */
    mo->tamp[0] = 1e-9;
    mo->tamp[1] = 5e-11;
    mo->aamp = 1.5;
    break;
  case 4: /* scale */
    mo->samp = 0.25;
    mo->tamp[1] = 2;
    break;
  default:
    mo->tamp[0] = mo->tamp[1] = mo->tamp[2] = 0.1;
    mo->aamp = 0.5;
    mo->samp = 1e-3;
    break;
  }
}

static int build_anim(struct model *m, const struct rt_spec *spec, uint64_t *rng)
{
  struct motion mo;
  m->num_poses = spec->poses;
  m->num_anims = spec->anims;
  m->num_frames = spec->anims * spec->frames_per_anim;
  m->pose_parents = arena_calloc(&m->arena, m->num_poses + 1, sizeof *m->pose_parents);
  m->anims = arena_calloc(&m->arena, m->num_anims + 1, sizeof *m->anims);
  m->frames = arena_calloc(&m->arena, (size_t)m->num_frames * m->num_poses + 1, sizeof *m->frames);
  if (!m->pose_parents || !m->anims || !m->frames)
    return -1;
  for (uint32_t a = 0; a < m->num_anims; a++) {
    struct model_anim *an = &m->anims[a];
    an->name = dup_name(m, "anim", a, "");
    an->first_frame = a * spec->frames_per_anim;
    an->num_frames = spec->frames_per_anim;
    an->framerate = 24 + a;
    an->flags = a % 2 ? MODEL_ANIM_LOOP : 0;
  }
  for (uint32_t j = 0; j < m->num_poses; j++) {
    m->pose_parents[j] = j < m->num_joints ? m->joints[j].parent : (j ? (int32_t)(j - 1) : -1);
    motion_init(&mo, j, rng);
    for (uint32_t f = 0; f < m->num_frames; f++)
      motion_eval(&mo, f, &m->frames[(size_t)f * m->num_poses + j]);
    if (j < m->num_joints) { /* the base pose: the first frame, as floats */
      struct trs *b = model_rest_mut(m, j);
      motion_eval(&mo, 0, b);
      for (int k = 0; k < 3; k++) {
        b->t[k] = fl(b->t[k]);
        b->s[k] = fl(b->s[k]);
      }
      for (int k = 0; k < 4; k++)
        b->r[k] = fl(b->r[k]);
    }
  }
  return 0;
}

static void fill_vertex(struct model *m, const struct rt_spec *spec, uint32_t v, uint32_t mesh,
                        uint32_t x, uint32_t y, uint64_t *rng, struct model_varray *va[])
{
  double px = x * 0.125 + mesh * 3.0, py = y * 0.125, pz = 0.25 * sin(px) * cos(py);
  double nx = -0.25 * cos(px) * cos(py), ny = 0.25 * sin(px) * sin(py), nz = 1;
  double nl = sqrt(nx * nx + ny * ny + nz * nz);
  unsigned char *p;
  p = (unsigned char *)va[0]->data + (size_t)v * 12;
  put_f32(p, px); put_f32(p + 4, py); put_f32(p + 8, pz);
  p = (unsigned char *)va[1]->data + (size_t)v * 8;
  put_f32(p, (double)x / spec->grid_w); put_f32(p + 4, 1 - (double)y / spec->grid_h);
  p = (unsigned char *)va[2]->data + (size_t)v * 12;
  put_f32(p, nx / nl); put_f32(p + 4, ny / nl); put_f32(p + 8, nz / nl);
  p = (unsigned char *)va[3]->data + (size_t)v * 16;
  put_f32(p, 1); put_f32(p + 4, 0); put_f32(p + 8, 0); put_f32(p + 12, (v & 1) ? 1 : -1);
  if (va[4]) { /* four distinct joints, weights descending and summing to 255 */
    unsigned char *bi = (unsigned char *)va[4]->data + (size_t)v * 4;
    unsigned char *bw = (unsigned char *)va[5]->data + (size_t)v * 4;
    uint32_t w0 = 128 + (uint32_t)(rng_next(rng) % 128), rem = 255 - w0;
    uint32_t w1 = (rem + 1) / 2, w2 = (rem - w1 + 1) / 2, w3 = rem - w1 - w2;
    uint32_t j0 = (uint32_t)(rng_next(rng) % m->num_joints);
    for (int k = 0; k < 4; k++)
      bi[k] = (unsigned char)((j0 + (uint32_t)k) % m->num_joints);
    bw[0] = (unsigned char)w0; bw[1] = (unsigned char)w1;
    bw[2] = (unsigned char)w2; bw[3] = (unsigned char)w3;
  }
  if (va[6]) {
    unsigned char *c = (unsigned char *)va[6]->data + (size_t)v * 4;
    c[0] = (unsigned char)(x * 7); c[1] = (unsigned char)(y * 5); c[2] = (unsigned char)mesh;
    c[3] = 255;
  }
}

/* Custom arrays in every component format, with finite values (half: exponent below 31). */
static int build_customs(struct model *m, uint64_t *rng)
{
  static const unsigned fsize[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};
  for (uint32_t f = 0; f < VF_COUNT; f++) {
    uint32_t size = 1 + f % 4;
    struct model_varray *va = add_varray(m, VT_CUSTOM, f, size, fsize[f]);
    unsigned char *d;
    size_t n = (size_t)m->num_vertexes * size;
    if (!va)
      return -1;
    va->name = dup_name(m, "custom_fmt", f, "");
    d = (unsigned char *)va->data;
    for (size_t i = 0; i < n; i++) {
      uint64_t r = rng_next(rng);
      if (f == VF_HALF) {
        uint16_t h = (uint16_t)((r % 0x7C00) | ((r >> 20) & 1) << 15);
        d[2 * i] = (unsigned char)h;
        d[2 * i + 1] = (unsigned char)(h >> 8);
      } else if (f == VF_FLOAT) {
        put_f32(d + 4 * i, rng_unit(rng) * 200 - 100);
      } else if (f == VF_DOUBLE) {
        double v = rng_unit(rng) * 2e6 - 1e6;
        uint64_t u;
        memcpy(&u, &v, sizeof u);
        for (int k = 0; k < 8; k++)
          d[8 * i + (size_t)k] = (unsigned char)(u >> (8 * k));
      } else {
        for (unsigned k = 0; k < fsize[f]; k++)
          d[fsize[f] * i + k] = (unsigned char)(r >> (8 * k));
      }
    }
  }
  return 0;
}

static void build_bounds(struct model *m)
{
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, xy = 0, rad = 0;
  const unsigned char *pos = m->num_varrays ? m->varrays[0].data : NULL;
  for (uint32_t v = 0; pos && v < m->num_vertexes; v++) {
    double p[3];
    for (int k = 0; k < 3; k++) {
      float f;
      uint32_t u = (uint32_t)pos[12 * (size_t)v + 4 * (size_t)k] |
                   (uint32_t)pos[12 * (size_t)v + 4 * (size_t)k + 1] << 8 |
                   (uint32_t)pos[12 * (size_t)v + 4 * (size_t)k + 2] << 16 |
                   (uint32_t)pos[12 * (size_t)v + 4 * (size_t)k + 3] << 24;
      memcpy(&f, &u, sizeof f);
      p[k] = f;
      if (v == 0 || p[k] < lo[k])
        lo[k] = p[k];
      if (v == 0 || p[k] > hi[k])
        hi[k] = p[k];
    }
    xy = fmax(xy, sqrt(p[0] * p[0] + p[1] * p[1]));
    rad = fmax(rad, sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
  }
  for (uint32_t f = 0; f < m->num_frames; f++) {
    struct model_bounds *b = &m->bounds[f];
    double e = 0.0625 * (f % 5);
    for (int k = 0; k < 3; k++) {
      b->bbmin[k] = fl(lo[k] - e);
      b->bbmax[k] = fl(hi[k] + e);
    }
    b->xyradius = fl(xy + e);
    b->radius = fl(fmax(rad + e, (double)(float)(xy + e)) + 0.0625);
  }
}

int rt_model_build(struct model *m, const struct rt_spec *spec)
{
  uint64_t rng = spec->seed;
  uint32_t quads = (spec->grid_w - 1) * (spec->grid_h - 1);
  uint32_t verts = spec->grid_w * spec->grid_h;
  struct model_varray *va[7] = {NULL};

  m->num_joints = spec->joints;
  if (model_joints_alloc(m, (size_t)m->num_joints + 1) < 0)
    m->joints = NULL;
  if (!m->joints)
    return -1;
  for (uint32_t j = 0; j < m->num_joints; j++) {
    m->joints[j].name = dup_name(m, "joint", j, "");
    m->joints[j].parent = j ? (int32_t)(rng_next(&rng) % j) : -1;
    trs_identity(model_rest_mut(m, j));
  }
  if (spec->poses && build_anim(m, spec, &rng) < 0)
    return -1;

  if (spec->meshes) {
    m->num_meshes = spec->meshes;
    m->num_vertexes = spec->meshes * verts;
    m->num_triangles = spec->meshes * 2 * quads;
    m->meshes = arena_calloc(&m->arena, m->num_meshes, sizeof *m->meshes);
    m->varrays = arena_calloc(&m->arena, 7 + VF_COUNT, sizeof *m->varrays);
    m->triangles = arena_calloc(&m->arena, m->num_triangles, 12);
    if (spec->adjacency)
      m->adjacency = arena_calloc(&m->arena, m->num_triangles, 12);
    if (!m->meshes || !m->varrays || !m->triangles || (spec->adjacency && !m->adjacency))
      return -1;
    va[0] = add_varray(m, VT_POSITION, VF_FLOAT, 3, 4);
    va[1] = add_varray(m, VT_TEXCOORD, VF_FLOAT, 2, 4);
    va[2] = add_varray(m, VT_NORMAL, VF_FLOAT, 3, 4);
    va[3] = add_varray(m, VT_TANGENT, VF_FLOAT, 4, 4);
    if (!va[0] || !va[1] || !va[2] || !va[3])
      return -1;
    if (m->num_joints) {
      va[4] = add_varray(m, VT_BLENDINDEXES, VF_UBYTE, 4, 1);
      va[5] = add_varray(m, VT_BLENDWEIGHTS, VF_UBYTE, 4, 1);
      if (!va[4] || !va[5])
        return -1;
    }
    if (spec->color && !(va[6] = add_varray(m, VT_COLOR, VF_UBYTE, 4, 1)))
      return -1;
    for (uint32_t i = 0; i < spec->meshes; i++) {
      struct model_mesh *me = &m->meshes[i];
      me->name = dup_name(m, "mesh", i, "");
      me->material = dup_name(m, "material", i % 2, ".tga"); /* shared: deduplicated text */
      me->first_vertex = i * verts;
      me->num_vertexes = verts;
      me->first_triangle = i * 2 * quads;
      me->num_triangles = 2 * quads;
      grid_mesh((unsigned char *)m->triangles, (unsigned char *)m->adjacency, spec->grid_w,
                spec->grid_h, me->first_vertex, me->first_triangle);
      for (uint32_t y = 0; y < spec->grid_h; y++)
        for (uint32_t x = 0; x < spec->grid_w; x++)
          fill_vertex(m, spec, me->first_vertex + y * spec->grid_w + x, i, x, y, &rng, va);
    }
    if (spec->customs && build_customs(m, &rng) < 0)
      return -1;
  }

  if (spec->bounds && m->num_frames) {
    m->bounds = arena_calloc(&m->arena, m->num_frames, sizeof *m->bounds);
    if (!m->bounds)
      return -1;
    build_bounds(m);
  }
  if (spec->comment) {
    m->comment = (const unsigned char *)arena_strndup(&m->arena, spec->comment, strlen(spec->comment));
    if (!m->comment)
      return -1;
    m->comment_size = (uint32_t)strlen(spec->comment);
  }
  if (spec->extensions) {
    m->extensions = arena_calloc(&m->arena, spec->extensions, sizeof *m->extensions);
    if (!m->extensions)
      return -1;
    m->num_extensions = spec->extensions;
    for (uint32_t i = 0; i < spec->extensions; i++) {
      char name[24];
      unsigned char *data;
      snprintf(name, sizeof name, "ext%u", (unsigned)i);
      m->extensions[i].name = arena_strndup(&m->arena, name, strlen(name));
      m->extensions[i].size = i * 3 % 7;
      data = arena_calloc(&m->arena, m->extensions[i].size + 1, 1);
      if (!m->extensions[i].name || !data)
        return -1;
      for (uint32_t k = 0; k < m->extensions[i].size; k++)
        data[k] = (unsigned char)(rng_next(&rng) >> 24);
      m->extensions[i].data = data;
    }
  }
  return 0;
}
