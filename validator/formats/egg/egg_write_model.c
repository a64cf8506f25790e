/* egg_write_model.c - an egg file from the common model (any source format): a Z-up character
 * Panda3D loads and egg_geometry.c / egg_anim.c read back to the same model.
 *
 * Layout: <CoordinateSystem> { Z-up }; one <Texture> per mesh material that names a file (named
 * and pointing at it, IQM's texture path), one empty <Material> per other material name; a <Group> holding, when there are joints, <Dart> { 1 },
 * the one <VertexPool> (vertex i is <Vertex> i), the <Joint> tree with each base pose as a
 * <Transform> <Matrix4> (row vectors, Panda's) and its <VertexRef>s (one per membership value),
 * one <Group> per mesh with a <Polygon> per triangle (counterclockwise, egg's winding). Then one
 * <Bundle> per animation: the "<skeleton>" tree of tables mirroring the joints, each an
 * <Xfm$Anim_S$> in the standard order (srpht) with its fps and a table per component that is
 * not constant at its default (a single value when constant). A single animation names both
 * the character and its bundle (EGG-ANM-019); several keep their own names.
 *
 * Not carried: <DefaultPose> (it would equal the <Transform>), the loop flag, adjacency,
 * bounds, comments and extensions, vertices no triangle uses (egg_geometry.c keeps only used
 * ones), custom arrays other than 2-component UV sets, shear. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "num_format.h"
#include "pose.h"
#include "reader.h"
#include "write_loss.h"

#define POOL_NAME "vpool"

struct wm {
  const struct model *m;
  struct byte_buf *out;
  const struct model_varray *pos, *uv, *nrm, *tan, *col, *bi, *bw;
  const struct model_varray *uvx[8];
  unsigned nuvx;
  uint32_t **children;   /* per joint, its children; children[n] the roots */
  uint32_t *nchildren;
  const char *character;
  /* memberships sorted by (joint, weight, vertex) */
  struct member { uint32_t joint, vertex; double w; } *mem;
  size_t nmem;
  size_t *mem_first;     /* num_joints + 1 */
};

static const unsigned format_bytes[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};

/* Component c of vertex v as a real; integer colours, weights, normals and tangents are
 * normalised as IQM defines them, other integers kept as they are. */
static double va_get(const struct model_varray *va, uint32_t v, uint32_t c)
{
  const unsigned char *p;
  uint64_t u = 0;
  int norm = va->type == VT_COLOR || va->type == VT_BLENDWEIGHTS || va->type == VT_NORMAL ||
             va->type == VT_TANGENT;
  if (va->format >= VF_COUNT || c >= va->size)
    return 0;
  p = va->data + ((size_t)v * va->size + c) * format_bytes[va->format];
  for (unsigned i = 0; i < format_bytes[va->format]; i++)
    u |= (uint64_t)p[i] << (8 * i);
  switch (va->format) {
  case VF_UBYTE: return norm ? (double)u / 255.0 : (double)u;
  case VF_USHORT: return norm ? (double)u / 65535.0 : (double)u;
  case VF_UINT: return norm ? (double)u / 4294967295.0 : (double)u;
  case VF_BYTE: { double x = (int8_t)u; return norm ? fmax(x / 127.0, -1) : x; }
  case VF_SHORT: { double x = (int16_t)u; return norm ? fmax(x / 32767.0, -1) : x; }
  case VF_INT: { double x = (int32_t)u; return norm ? fmax(x / 2147483647.0, -1) : x; }
  case VF_HALF: return half_to_float((uint16_t)u);
  case VF_FLOAT: { uint32_t b = (uint32_t)u; float f; memcpy(&f, &b, 4); return f; }
  default: { double d; memcpy(&d, &u, 8); return d; }
  }
}

/* A real as the shortest text that reads back to it; a float-valued one as the shortest text
 * that reads back to the same float (what the decoders store), so 0.1f is written "0.1". */
static void put_real(struct byte_buf *out, double d, int as_float)
{
  char tmp[NUM_FORMAT_MAX];
  if (!isfinite(d)) {
    egg_put_number(out, d);
    return;
  }
  if (as_float && (double)(float)d == d) {
    for (int p = 1; p <= 9; p++) {
      int n = snprintf(tmp, sizeof tmp, "%.*g", p, d);
      if (strtof(tmp, NULL) == (float)d) {
        if (p < 6) /* the same digits, in plain notation where %g allows it (90, not 9e+01) */
          n = snprintf(tmp, sizeof tmp, "%.6g", d);
        buf_put(out, tmp, (size_t)n);
        return;
      }
    }
  }
  buf_put(out, tmp, num_format_shortest(tmp, d, 6));
}

static void put_reals(struct byte_buf *out, const double *v, unsigned n, int as_float)
{
  for (unsigned i = 0; i < n; i++) {
    buf_put(out, " ", 1);
    put_real(out, v[i], as_float);
  }
}

static void indent(struct byte_buf *out, unsigned depth)
{
  for (unsigned i = 0; i < depth; i++)
    buf_put(out, "  ", 2);
}

static void put_name(struct byte_buf *out, const char *s)
{
  egg_put_name(out, s, strlen(s));
}

static const struct model_varray *find_array(const struct model *m, uint32_t type)
{
  for (uint32_t i = 0; i < m->num_varrays; i++)
    if (m->varrays[i].type == type && m->varrays[i].format < VF_COUNT && m->varrays[i].size)
      return &m->varrays[i];
  return NULL;
}

/* Column-vector TRS to Panda's row-vector 4x4 (the transpose). */
static void trs_to_rows(const struct trs *p, double out[16])
{
  double c[16];
  struct trs u = *p;
  quat_normalize(u.r); /* a matrix holds a rotation: an unnormalised quaternion would scale */
  trs_to_matrix(&u, c);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      out[i * 4 + j] = c[j * 4 + i];
}

/* Heading, pitch, roll (degrees) of a rotation for a Z-up table in the standard order:
 * R = Rz(h) Rx(p) Ry(r) as column-vector matrices (egg_anim.c compose, srpht). */
static void quat_to_hpr(const double q[4], double hpr[3])
{
  struct trs t;
  double m[16], cp;
  trs_identity(&t);
  memcpy(t.r, q, sizeof t.r);
  quat_normalize(t.r);
  trs_to_matrix(&t, m);
  /* R = Rz(h) Rx(p) Ry(r): row 2 is (-cp sr, sp, cp cr). The pitch from atan2 of sp and cp
   * (asin of sp loses half the digits near the poles, and a cp of rounding noise then gave
   * the heading and roll from noise: a ball spinning through pitch 90 was caught by the proof) */
  cp = hypot(m[2 * 4 + 0], m[2 * 4 + 2]);
  hpr[1] = atan2(m[2 * 4 + 1], cp);
  if (cp > 1e-7) {
    hpr[2] = atan2(-m[2 * 4 + 0], m[2 * 4 + 2]);
    hpr[0] = atan2(-m[0 * 4 + 1], m[1 * 4 + 1]);
  } else {
    /* gimbal lock (pitch +-90 within 1e-7 rad): only h + r (pitch 90) or h - r (pitch -90)
     * is defined, and rows 0-1 hold it as (cos, sin) in column 0 for both; roll 0 takes it
     * whole into the heading, leaving an error of the order of cp */
    hpr[2] = 0;
    hpr[0] = atan2(m[1 * 4 + 0], m[0 * 4 + 0]);
  }
  for (int k = 0; k < 3; k++)
    hpr[k] *= 180.0 / M_PI;
}

static int build_children(struct wm *w)
{
  uint32_t n = w->m->num_joints;
  uint32_t *count = calloc((size_t)n + 1, sizeof *count);
  if (!count)
    return -1;
  w->nchildren = count;
  w->children = calloc((size_t)n + 1, sizeof *w->children);
  if (!w->children)
    return -1;
  for (uint32_t j = 0; j < n; j++) {
    int32_t p = w->m->joints[j].parent;
    count[p >= 0 && (uint32_t)p < n && (uint32_t)p != j ? (uint32_t)p : n]++;
  }
  for (uint32_t j = 0; j <= n; j++) {
    w->children[j] = count[j] ? malloc(count[j] * sizeof **w->children) : NULL;
    if (count[j] && !w->children[j])
      return -1;
    count[j] = 0;
  }
  for (uint32_t j = 0; j < n; j++) {
    int32_t p = w->m->joints[j].parent;
    uint32_t at = p >= 0 && (uint32_t)p < n && (uint32_t)p != j ? (uint32_t)p : n;
    w->children[at][count[at]++] = j;
  }
  return 0;
}

static int member_cmp(const void *a, const void *b)
{
  const struct member *x = a, *y = b;
  if (x->joint != y->joint)
    return x->joint < y->joint ? -1 : 1;
  if (x->w != y->w)
    return x->w < y->w ? -1 : 1;
  return x->vertex < y->vertex ? -1 : x->vertex > y->vertex;
}

static int build_members(struct wm *w)
{
  const struct model *m = w->m;
  size_t k = 0;
  w->mem_first = calloc((size_t)m->num_joints + 1, sizeof *w->mem_first);
  if (!w->mem_first)
    return -1;
  if (!w->bi || !w->bw || !m->num_joints)
    return 0;
  w->mem = malloc((size_t)m->num_vertexes * 4 * sizeof *w->mem + 1);
  if (!w->mem)
    return -1;
  for (uint32_t v = 0; v < m->num_vertexes; v++)
    for (uint32_t c = 0; c < 4 && c < w->bi->size && c < w->bw->size; c++) {
      double x = va_get(w->bw, v, c), j = va_get(w->bi, v, c);
      if (!(x > 0) || !(j >= 0) || j >= m->num_joints)
        continue;
      w->mem[k].joint = (uint32_t)j;
      w->mem[k].vertex = v;
      w->mem[k].w = x;
      k++;
    }
  w->nmem = k;
  qsort(w->mem, k, sizeof *w->mem, member_cmp);
  for (size_t i = 0; i < k; i++)
    w->mem_first[w->mem[i].joint + 1]++;
  for (uint32_t j = 0; j < m->num_joints; j++)
    w->mem_first[j + 1] += w->mem_first[j];
  return 0;
}

static void write_vertexrefs(struct wm *w, uint32_t j, unsigned depth)
{
  struct byte_buf *out = w->out;
  for (size_t i = w->mem_first[j]; i < w->mem_first[j + 1];) {
    size_t e = i, n = 0;
    while (e < w->mem_first[j + 1] && w->mem[e].w == w->mem[i].w)
      e++;
    indent(out, depth);
    buf_printf(out, "<VertexRef> {");
    for (size_t k = i; k < e; k++, n++) {
      if (n && n % 16 == 0) {
        buf_put(out, "\n", 1);
        indent(out, depth + 1);
      } else {
        buf_put(out, " ", 1);
      }
      buf_printf(out, "%u", (unsigned)w->mem[k].vertex);
    }
    buf_printf(out, " <Scalar> membership {");
    put_reals(out, &w->mem[i].w, 1, 0);
    buf_printf(out, " } <Ref> { %s } }\n", POOL_NAME);
    i = e;
  }
}

static void write_joint(struct wm *w, uint32_t j, unsigned depth)
{
  struct byte_buf *out = w->out;
  double rows[16];
  indent(out, depth);
  buf_printf(out, "<Joint> ");
  put_name(out, w->m->joints[j].name ? w->m->joints[j].name : "");
  buf_printf(out, " {\n");
  indent(out, depth + 1);
  buf_printf(out, "<Transform> { <Matrix4> {");
  trs_to_rows(model_rest(w->m, j), rows);
  for (int r = 0; r < 4; r++) {
    buf_put(out, "\n", 1);
    indent(out, depth + 2);
    put_reals(out, rows + 4 * r, 4, 0);
  }
  buf_put(out, "\n", 1);
  indent(out, depth + 1);
  buf_printf(out, "} }\n");
  write_vertexrefs(w, j, depth + 1);
  for (uint32_t c = 0; c < w->nchildren[j]; c++)
    write_joint(w, w->children[j][c], depth + 1);
  indent(out, depth);
  buf_printf(out, "}\n");
}

static void write_vertex(struct wm *w, uint32_t v)
{
  struct byte_buf *out = w->out;
  double x[4];
  buf_printf(out, "    <Vertex> %u {", (unsigned)v);
  for (uint32_t c = 0; c < 3; c++)
    x[c] = va_get(w->pos, v, c);
  put_reals(out, x, 3, w->pos->format == VF_FLOAT);
  if (w->nrm) {
    for (uint32_t c = 0; c < 3; c++)
      x[c] = va_get(w->nrm, v, c);
    buf_printf(out, "\n      <Normal> {");
    put_reals(out, x, 3, w->nrm->format == VF_FLOAT);
    buf_printf(out, " }");
  }
  if (w->col) {
    x[3] = 1;
    for (uint32_t c = 0; c < 4; c++)
      x[c] = c < w->col->size ? va_get(w->col, v, c) : 1;
    buf_printf(out, "\n      <RGBA> {");
    put_reals(out, x, 4, w->col->format == VF_FLOAT);
    buf_printf(out, " }");
  }
  if (w->uv) {
    x[0] = va_get(w->uv, v, 0);
    x[1] = va_get(w->uv, v, 1);
    buf_printf(out, "\n      <UV> {");
    put_reals(out, x, 2, w->uv->format == VF_FLOAT);
    if (w->tan) {
      double t[4], n[3] = {0, 0, 0}, b[3];
      for (uint32_t c = 0; c < 4; c++)
        t[c] = c < w->tan->size ? va_get(w->tan, v, c) : 1;
      buf_printf(out, " <Tangent> {");
      put_reals(out, t, 4, w->tan->format == VF_FLOAT);
      buf_printf(out, " }");
      if (w->nrm) { /* Panda3D reads the binormal: w times n x t */
        for (uint32_t c = 0; c < 3; c++)
          n[c] = va_get(w->nrm, v, c);
        b[0] = (float)(t[3] * (n[1] * t[2] - n[2] * t[1]));
        b[1] = (float)(t[3] * (n[2] * t[0] - n[0] * t[2]));
        b[2] = (float)(t[3] * (n[0] * t[1] - n[1] * t[0]));
        buf_printf(out, " <Binormal> {");
        put_reals(out, b, 3, 1);
        buf_printf(out, " }");
      }
    }
    buf_printf(out, " }");
  }
  for (unsigned k = 0; k < w->nuvx; k++) {
    x[0] = va_get(w->uvx[k], v, 0);
    x[1] = va_get(w->uvx[k], v, 1);
    buf_printf(out, "\n      <UV> ");
    put_name(out, w->uvx[k]->name);
    buf_printf(out, " {");
    put_reals(out, x, 2, w->uvx[k]->format == VF_FLOAT);
    buf_printf(out, " }");
  }
  buf_printf(out, "\n    }\n");
}

static uint32_t tri_index(const struct model *m, size_t t, int k)
{
  const unsigned char *p = m->triangles + 12 * t + 4 * (size_t)k;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void write_meshes(struct wm *w)
{
  const struct model *m = w->m;
  struct byte_buf *out = w->out;
  for (uint32_t k = 0; k < m->num_meshes; k++) {
    const struct model_mesh *mm = &m->meshes[k];
    const char *mat = mm->material ? mm->material : "";
    buf_printf(out, "  <Group> ");
    put_name(out, mm->name && *mm->name ? mm->name : "mesh");
    buf_printf(out, " {\n");
    for (uint32_t t = mm->first_triangle;
         t < m->num_triangles && (uint64_t)t < (uint64_t)mm->first_triangle + mm->num_triangles; t++) {
      uint32_t a = tri_index(m, t, 0), b = tri_index(m, t, 1), c = tri_index(m, t, 2);
      if (a >= m->num_vertexes || b >= m->num_vertexes || c >= m->num_vertexes)
        continue;
      buf_printf(out, "    <Polygon> {");
      if (*mat) {
        buf_printf(out, model_material_names_file(m, mat) ? " <TRef> { " : " <MRef> { ");
        put_name(out, mat);
        buf_printf(out, " }");
      }
      /* the model is clockwise (IQM's), egg counterclockwise */
      buf_printf(out, " <VertexRef> { %u %u %u <Ref> { %s } } }\n", (unsigned)a, (unsigned)c, (unsigned)b,
                 POOL_NAME);
    }
    buf_printf(out, "  }\n");
  }
}

/* Components of a frame: i j k (scale), h p r (degrees), x y z. */
static void frame_components(const struct trs *f, double v[9])
{
  double hpr[3];
  quat_to_hpr(f->r, hpr);
  v[0] = f->s[0];
  v[1] = f->s[1];
  v[2] = f->s[2];
  v[3] = hpr[0];
  v[4] = hpr[1];
  v[5] = hpr[2];
  v[6] = f->t[0];
  v[7] = f->t[1];
  v[8] = f->t[2];
}

static const char comp_letter[9] = {'i', 'j', 'k', 'h', 'p', 'r', 'x', 'y', 'z'};

static void write_table(struct wm *w, const struct model_anim *a, uint32_t j, unsigned depth, int force)
{
  const struct model *m = w->m;
  struct byte_buf *out = w->out;
  uint32_t nf = a->num_frames;
  indent(out, depth);
  buf_printf(out, "<Table> ");
  put_name(out, m->joints[j].name ? m->joints[j].name : "");
  buf_printf(out, " {\n");
  indent(out, depth + 1);
  buf_printf(out, "<Xfm$Anim_S$> xform {\n");
  if (a->framerate > 0 && isfinite(a->framerate)) {
    indent(out, depth + 2);
    buf_printf(out, "<Scalar> fps {");
    put_reals(out, &a->framerate, 1, 0);
    buf_printf(out, " }\n");
  }
  for (int c = 0; c < 9; c++) {
    double first[9], v[9];
    int constant = 1;
    frame_components(&m->frames[(size_t)a->first_frame * m->num_poses + j], first);
    for (uint32_t f = 1; f < nf && constant; f++) {
      frame_components(&m->frames[((size_t)a->first_frame + f) * m->num_poses + j], v);
      constant = v[c] == first[c];
    }
    if (force && c == 6)
      constant = 0; /* one table of the bundle must hold every frame */
    if (constant && first[c] == (c < 3 ? 1 : 0))
      continue;
    indent(out, depth + 2);
    buf_printf(out, "<S$Anim> %c { <V> {", comp_letter[c]);
    for (uint32_t f = 0; f < (constant ? 1 : nf); f++) {
      frame_components(&m->frames[((size_t)a->first_frame + f) * m->num_poses + j], v);
      if (f && f % 8 == 0) {
        buf_put(out, "\n", 1);
        indent(out, depth + 3);
      } else {
        buf_put(out, " ", 1);
      }
      put_real(out, v[c], 0);
    }
    buf_printf(out, " } }\n");
  }
  indent(out, depth + 1);
  buf_printf(out, "}\n");
  for (uint32_t c = 0; c < w->nchildren[j]; c++)
    write_table(w, a, w->children[j][c], depth + 1, 0);
  indent(out, depth);
  buf_printf(out, "}\n");
}

/* 1 when some component of some pose changes over the animation (a multi-row table exists). */
static int anim_moves(const struct model *m, const struct model_anim *a)
{
  for (uint32_t j = 0; j < m->num_poses; j++) {
    double first[9], v[9];
    frame_components(&m->frames[(size_t)a->first_frame * m->num_poses + j], first);
    for (uint32_t f = 1; f < a->num_frames; f++) {
      frame_components(&m->frames[((size_t)a->first_frame + f) * m->num_poses + j], v);
      if (memcmp(v, first, sizeof v))
        return 1;
    }
  }
  return 0;
}

static void write_bundles(struct wm *w)
{
  const struct model *m = w->m;
  struct byte_buf *out = w->out;
  for (uint32_t k = 0; k < m->num_anims; k++) {
    const struct model_anim *a = &m->anims[k];
    const char *name = m->num_anims == 1 ? w->character : a->name && *a->name ? a->name : "anim";
    int force = a->num_frames > 1 && !anim_moves(m, a);
    if (!a->num_frames || (uint64_t)a->first_frame + a->num_frames > m->num_frames)
      continue;
    buf_printf(out, "<Table> {\n  <Bundle> ");
    put_name(out, name);
    buf_printf(out, " {\n    <Table> \"<skeleton>\" {\n");
    for (uint32_t c = 0; c < w->nchildren[m->num_joints]; c++)
      write_table(w, a, w->children[m->num_joints][c], 3, force && c == 0);
    buf_printf(out, "    }\n  }\n}\n");
  }
}

/* A name holding '"' cannot be written: an egg string has no escape (egg-notes.md: a quoted
 * string runs to the next quote, and a quote ends a bare one), so the name would end early and
 * the rest be read as egg structure. Refused before writing, as the IQE writer refuses, naming
 * the first such name (0 when every name the writer puts can be written). */
static int name_unwritable(struct byte_buf *out, const char *what, uint32_t i, const char *name)
{
  if (!name || !strchr(name, '"'))
    return 0;
  snprintf(out->error, sizeof out->error,
           "%s %u: name '%.40s' holds a quote, which egg cannot hold (no escape)",
           what, (unsigned)i, name);
  return 1;
}

static int names_unwritable(const struct model *m, struct byte_buf *out)
{
  for (uint32_t j = 0; j < m->num_joints; j++)
    if (name_unwritable(out, "joint", j, m->joints[j].name))
      return 1;
  for (uint32_t k = 0; k < m->num_meshes; k++)
    if (name_unwritable(out, "mesh", k, m->meshes[k].name) ||
        name_unwritable(out, "the material of mesh", k, m->meshes[k].material))
      return 1;
  for (uint32_t a = 0; a < m->num_anims; a++)
    if (name_unwritable(out, "animation", a, m->anims[a].name))
      return 1;
  for (uint32_t i = 0; i < m->num_varrays; i++)
    if (m->varrays[i].type >= VT_CUSTOM && name_unwritable(out, "vertex array", i, m->varrays[i].name))
      return 1;
  return 0;
}

int egg_write_model(const struct model *m, struct write_losses *losses, struct byte_buf *out)
{
  struct wm w;
  int rc = -1;
  memset(&w, 0, sizeof w);
  w.m = m;
  w.out = out;
  if (m->num_frames && m->num_anims && !m->frames) {
    snprintf(out->error, sizeof out->error, "%s", "the animation frames were not decoded");
    return -1;
  }
  if (m->num_frames && m->num_anims && m->num_poses != m->num_joints)
    return write_refuse(losses, out, RULE_CORE_CONVERT_EGG_ANIM_JOINTS,
                        "%u animated poses per frame, %u joints", (unsigned)m->num_poses,
                        (unsigned)m->num_joints);
  if (m->frame_space != MODEL_FRAMES_PARENT || m->frame_times) {
    snprintf(out->error, sizeof out->error, "%s", "the frames are not parent-relative poses at a framerate");
    return -1;
  }
  if (names_unwritable(m, out))
    return -1;
  write_loss_unheld(losses, m, "Egg");
  if (losses && write_refuse_nothing(losses, m, out, "Egg") < 0)
    return -1; /* a conversion of nothing (losses: inside convert) */
  write_loss_loops(losses, m, RULE_CORE_CONVERT_EGG_LOOP_FLAG);
  /* Egg's <SwitchCondition> levels need distances X42's have not: no place for them either */
  write_loss_tags_lods(losses, m, "Egg", 0);
  write_loss_empty_meshes(losses, m, "Egg", 0);
  w.pos = find_array(m, VT_POSITION);
  w.uv = find_array(m, VT_TEXCOORD);
  w.nrm = find_array(m, VT_NORMAL);
  w.tan = find_array(m, VT_TANGENT);
  w.col = find_array(m, VT_COLOR);
  w.bi = find_array(m, VT_BLENDINDEXES);
  w.bw = find_array(m, VT_BLENDWEIGHTS);
  for (uint32_t i = 0; i < m->num_varrays && w.nuvx < 8; i++)
    if (m->varrays[i].type >= VT_CUSTOM && m->varrays[i].name && *m->varrays[i].name &&
        m->varrays[i].size == 2)
      w.uvx[w.nuvx++] = &m->varrays[i];
  w.character = m->num_anims == 1 && m->anims[0].name && *m->anims[0].name ? m->anims[0].name : "character";
  if (build_children(&w) < 0 || build_members(&w) < 0) {
    out->oom = 1; /* no verdict, not a refusal of the model */
    snprintf(out->error, sizeof out->error, "%s", "out of memory");
    goto done;
  }

  buf_printf(out, "<CoordinateSystem> { Z-up }\n\n");
  for (uint32_t k = 0; k < m->num_meshes; k++) {
    const char *mat = m->meshes[k].material;
    if (!mat || !*mat || !model_material_first(m, k))
      continue; /* none, or written already */
    if (!model_material_names_file(m, mat)) {
      buf_printf(out, "<Material> ");
      put_name(out, mat);
      buf_printf(out, " { }\n");
      continue;
    }
    buf_printf(out, "<Texture> ");
    put_name(out, mat);
    buf_printf(out, " {\n  ");
    egg_put_quoted(out, mat, strlen(mat));
    buf_printf(out, "\n}\n");
  }
  buf_printf(out, "<Group> ");
  put_name(out, w.character);
  buf_printf(out, " {\n");
  if (m->num_joints)
    buf_printf(out, "  <Dart> { 1 }\n");
  /* the pool before the joints: a reference to a pool defined later is EGG-REF-012 */
  if (w.pos && m->num_vertexes && m->num_triangles) {
    buf_printf(out, "  <VertexPool> %s {\n", POOL_NAME);
    for (uint32_t v = 0; v < m->num_vertexes; v++)
      write_vertex(&w, v);
    buf_printf(out, "  }\n");
  }
  for (uint32_t c = 0; c < w.nchildren[m->num_joints]; c++)
    write_joint(&w, w.children[m->num_joints][c], 1);
  if (w.pos && m->num_vertexes && m->num_triangles)
    write_meshes(&w);
  buf_printf(out, "}\n");
  if (m->num_joints && m->frames)
    write_bundles(&w);
  rc = out->oom ? -1 : 0;
  if (out->oom)
    snprintf(out->error, sizeof out->error, "%s", "out of memory");
done:
  for (uint32_t j = 0; w.children && j <= m->num_joints; j++)
    free(w.children[j]);
  free(w.children);
  free(w.nchildren);
  free(w.mem);
  free(w.mem_first);
  return rc;
}
