/* iqe_write.c - the canonical IQE writer: every value in the shortest text that reads back to
 * the same double, names quoted, meshes with their own vertices and `fm` faces when the
 * model's meshes tile its vertices (else all vertices first and global `fa` faces). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iqe.h"
#include "write_loss.h"
#include "num_format.h"

/* One value after a space: the shortest text that reads back to the same double (num_format),
 * laid out as %.9g would lay it out. */
static void put_num(struct byte_buf *b, double v)
{
  char s[NUM_FORMAT_MAX + 1];
  s[0] = ' ';
  buf_put(b, s, 1 + num_format_shortest(s + 1, v, 9));
}

/* " %.0f" without printf for integral values (blend indexes, face indexes). */
static void put_int(struct byte_buf *b, double v)
{
  char s[24], *o = s + sizeof s;
  uint64_t u;
  if (!(v > -1e15 && v < 1e15) || v != floor(v)) {
    buf_printf(b, " %.0f", v);
    return;
  }
  u = (uint64_t)(v < 0 ? -v : v);
  do
    *--o = (char)('0' + u % 10);
  while ((u /= 10) != 0);
  if (v < 0 || (v == 0 && signbit(v)))
    *--o = '-';
  *--o = ' ';
  buf_put(b, o, (size_t)(s + sizeof s - o));
}

static int name_check(struct byte_buf *b, const char *cmd, const char *name)
{
  if (strchr(name, '"') || strchr(name, '\n') || strchr(name, '\r')) {
    snprintf(b->error, sizeof b->error, "%s name '%.60s' holds a quote or newline, which IQE cannot express",
             cmd, name);
    return -1;
  }
  return 0;
}

static int put_name(struct byte_buf *b, const char *cmd, const char *name)
{
  if (name_check(b, cmd, name) < 0)
    return -1;
  buf_printf(b, "%s \"%s\"\n", cmd, name);
  return 0;
}

static void put_pose(struct byte_buf *b, const struct trs *t)
{
  buf_put(b, "pq", 2);
  for (int k = 0; k < 3; k++)
    put_num(b, t->t[k]);
  for (int k = 0; k < 4; k++)
    put_num(b, t->r[k]);
  for (int k = 0; k < 3; k++)
    put_num(b, t->s[k]);
  buf_put(b, "\n", 1);
}

static const char *const type_names[7] = {
  "position", "texcoord", "normal", "tangent", "blendindexes", "blendweights", "color"
};
static const char *const component_names[VF_COUNT] = {
  "byte", "ubyte", "short", "ushort", "int", "uint", "half", "float", "double"
};
static const uint32_t default_format[7] = {VF_FLOAT, VF_FLOAT, VF_FLOAT, VF_FLOAT, VF_UBYTE, VF_UBYTE, VF_UBYTE};
static const uint32_t default_size[7] = {3, 2, 3, 4, 4, 4, 3};
static const char *const commands[7] = {"vp", "vt", "vn", "vx", NULL, NULL, "vc"};

struct layout {
  const struct model_varray *std[7];
  const struct model_varray *custom[10];
  uint32_t ncustom;
};

static int layout_write(const struct model *m, struct layout *l, struct byte_buf *b)
{
  memset(l, 0, sizeof *l);
  for (uint32_t i = 0; i < m->num_varrays; i++) {
    const struct model_varray *va = &m->varrays[i];
    if (va->format >= VF_COUNT || va->size < 1 || va->size > 4) {
      snprintf(b->error, sizeof b->error, "vertex array %u has format %u size %u", i, va->format, va->size);
      return -1;
    }
    if (va->type < 7) {
      if (l->std[va->type])
        continue; /* IQE has one array per type: the first one wins */
      /* a derived array (tangents of an IQE without vx) is derived again when read: its layout
       * is declared, its values are not written (the compiler would misplace vx lines) */
      if (!va->generated)
        l->std[va->type] = va;
      if (va->format != default_format[va->type] || va->size != default_size[va->type])
        buf_printf(b, "vertexarray %s %s %u\n", type_names[va->type], component_names[va->format], va->size);
    } else if (va->type >= VT_CUSTOM) {
      char name[32];
      if (l->ncustom == 10) {
        snprintf(b->error, sizeof b->error, "more than 10 custom vertex arrays");
        return -1;
      }
      snprintf(name, sizeof name, "custom%u", l->ncustom);
      buf_printf(b, "vertexarray %s %s %u", name, component_names[va->format], va->size);
      if (va->name && (strchr(va->name, '"') || strchr(va->name, '\n'))) {
        snprintf(b->error, sizeof b->error, "custom array name holds a quote or newline");
        return -1;
      }
      buf_printf(b, " \"%s\"\n", va->name ? va->name : name);
      l->custom[l->ncustom++] = va;
    }
  }
  return 0;
}

static double comp(const struct model_varray *va, uint32_t v, uint32_t c, int normalized)
{
  uint32_t bytes = iqe_format_bytes(va->format);
  return vformat_get(va->data + ((size_t)v * va->size + c) * bytes, va->format, normalized);
}

static void vertex_write(const struct layout *l, uint32_t v, struct byte_buf *b)
{
  for (int t = 0; t < 7; t++) {
    const struct model_varray *va = l->std[t];
    if (!va || !va->data)
      continue;
    if (t == VT_BLENDINDEXES) {
      const struct model_varray *wa = l->std[VT_BLENDWEIGHTS];
      buf_put(b, "vb", 2);
      for (uint32_t c = 0; c < va->size; c++) {
        double w = wa && wa->data && c < wa->size ? comp(wa, v, c, 1) : (c == 0 ? 1 : 0);
        if (w == 0)
          continue;
        put_int(b, comp(va, v, c, 0));
        put_num(b, w);
      }
      buf_put(b, "\n", 1);
      continue;
    }
    if (t == VT_BLENDWEIGHTS)
      continue;
    buf_put(b, commands[t], 2);
    for (uint32_t c = 0; c < va->size; c++)
      put_num(b, comp(va, v, c, 1));
    buf_put(b, "\n", 1);
  }
  for (uint32_t k = 0; k < l->ncustom; k++) {
    const struct model_varray *va = l->custom[k];
    buf_printf(b, "v%u", k);
    for (uint32_t c = 0; c < va->size; c++)
      put_num(b, comp(va, v, c, 1));
    buf_printf(b, "\n");
  }
}

static uint32_t tri_index(const struct model *m, uint32_t t, int k)
{
  const unsigned char *p = m->triangles + (size_t)t * 12 + (size_t)k * 4;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* 1 when meshes are contiguous in order over [0, num_vertexes) and every triangle stays in its
 * own mesh: then each mesh block carries its vertices and mesh-relative faces. */
static int meshes_tile(const struct model *m)
{
  uint32_t next = 0, tri_next = 0;
  for (uint32_t i = 0; i < m->num_meshes; i++) {
    const struct model_mesh *me = &m->meshes[i];
    if (me->first_vertex != next || me->first_triangle != tri_next)
      return 0;
    if ((uint64_t)me->first_triangle + me->num_triangles > m->num_triangles)
      return 0;
    for (uint32_t t = me->first_triangle; t < me->first_triangle + me->num_triangles; t++)
      for (int k = 0; k < 3; k++) {
        uint32_t x = tri_index(m, t, k);
        if (x < me->first_vertex || x - me->first_vertex >= me->num_vertexes)
          return 0;
      }
    next += me->num_vertexes;
    tri_next += me->num_triangles;
  }
  return next == m->num_vertexes && tri_next == m->num_triangles && m->num_meshes > 0;
}

int iqe_write(const struct model *m, const struct write_opts *opts, struct byte_buf *b)
{
  struct layout l;
  int tiled = meshes_tile(m);
  if (opts && opts->foreign) { /* what the source held beyond the model; a model of nothing */
    write_loss_unheld(opts->losses, m, "IQE");
    if (write_refuse_nothing(opts->losses, m, b, "IQE") < 0)
      return -1;
  }
  write_loss_tags_lods(opts ? opts->losses : NULL, m, "IQE", 0);
  write_loss_texture_names(opts ? opts->losses : NULL, m, "IQE");
  write_loss_added(opts ? opts->losses : NULL, m, VT_NORMAL, "IQE",
                   "readers smooth normals for a mesh without vn (iqe.txt, Smoothing)");
  buf_printf(b, "# Inter-Quake Export\n\n");
  for (uint32_t j = 0; j < m->num_joints; j++) {
    const char *name = m->joints[j].name ? m->joints[j].name : "";
    if (name_check(b, "joint", name) < 0)
      return -1;
    buf_printf(b, "joint \"%s\" %d\n", name, m->joints[j].parent < 0 ? -1 : m->joints[j].parent);
    put_pose(b, model_rest(m, j));
  }
  if (layout_write(m, &l, b) < 0)
    return -1;
  if (!tiled)
    for (uint32_t v = 0; v < m->num_vertexes; v++)
      vertex_write(&l, v, b);
  for (uint32_t i = 0; i < m->num_meshes; i++) {
    const struct model_mesh *me = &m->meshes[i];
    if (put_name(b, "mesh", me->name ? me->name : "") < 0 ||
        put_name(b, "material", me->material ? me->material : "") < 0)
      return -1;
    if (tiled)
      for (uint32_t v = me->first_vertex; v < me->first_vertex + me->num_vertexes; v++)
        vertex_write(&l, v, b);
    if ((uint64_t)me->first_triangle + me->num_triangles > m->num_triangles)
      continue;
    for (uint32_t t = me->first_triangle; t < me->first_triangle + me->num_triangles; t++) {
      uint32_t base = tiled ? me->first_vertex : 0;
      buf_put(b, tiled ? "fm" : "fa", 2);
      for (int k = 0; k < 3; k++)
        put_int(b, (double)(tri_index(m, t, k) - base));
      buf_put(b, "\n", 1);
    }
  }
  if (m->num_frames > 0 && m->num_poses > 0 && !m->frames) {
    snprintf(b->error, sizeof b->error, "animation frames were not decoded");
    return -1;
  }
  for (uint32_t a = 0; a < m->num_anims; a++) {
    const struct model_anim *an = &m->anims[a];
    buf_printf(b, "\n");
    if (put_name(b, "animation", an->name ? an->name : "") < 0)
      return -1;
    buf_printf(b, "framerate");
    put_num(b, an->framerate);
    buf_printf(b, "\n");
    if (an->flags & MODEL_ANIM_LOOP)
      buf_printf(b, "loop\n");
    for (uint32_t f = an->first_frame; f < an->first_frame + an->num_frames && f < m->num_frames; f++) {
      buf_printf(b, "frame\n");
      for (uint32_t j = 0; j < m->num_poses; j++)
        put_pose(b, model_frame(m, f, j));
    }
  }
  if (m->comment && m->comment_size) {
    uint32_t n = m->comment_size;
    if (m->comment[n - 1] == 0)
      n--;
    buf_printf(b, "comment\n");
    buf_put(b, m->comment, n);
  }
  if (b->oom) {
    snprintf(b->error, sizeof b->error, "out of memory");
    return -1;
  }
  return 0;
}

/* ---- element lines, for compare -------------------------------------------------------- */

static int index_push(struct iqe_index *ix, enum iqe_elem e, uint32_t line, uint32_t cap)
{
  if (!ix->lines[e]) {
    ix->lines[e] = calloc((size_t)cap + 1, sizeof *ix->lines[e]);
    if (!ix->lines[e])
      return -1;
  }
  if (ix->count[e] < cap)
    ix->lines[e][ix->count[e]++] = line;
  return 0;
}

int iqe_index_build(const unsigned char *data, size_t size, struct iqe_index *ix)
{
  size_t pos = 0;
  uint32_t lineno = 0, cap = 0, open_frame = 0, in_anim = 0, frame_poses = 0;
  struct iqe_line ln;
  memset(ix, 0, sizeof *ix);
  /* every element is one line: the line count bounds every list */
  while (iqe_line_next(data, size, &pos, &lineno, &ln))
    cap++;
  ix->frame_first_pose = calloc((size_t)cap + 1, sizeof *ix->frame_first_pose);
  ix->line_offsets = calloc((size_t)cap + 2, sizeof *ix->line_offsets);
  if (!ix->frame_first_pose || !ix->line_offsets) {
    iqe_index_free(ix);
    return -1;
  }
  ix->num_lines = cap;
  pos = 0;
  lineno = 0;
  while (iqe_line_next(data, size, &pos, &lineno, &ln)) {
    struct iqe_tok t;
    const struct iqe_command *c;
    int rc = 0;
    if (ln.no <= cap)
      ix->line_offsets[ln.no] = (size_t)((const unsigned char *)ln.s - data);
    if (iqe_tokenize(&ln, &t, 1) == 0 || iqe_tok_is_comment(&t))
      continue;
    c = iqe_command_find(t.s, t.len);
    if (!c)
      continue;
    if (c->id == CMD_COMMENT)
      break;
    switch (c->id) {
    case CMD_JOINT: rc = index_push(ix, IQE_EL_JOINT, ln.no, cap); break;
    case CMD_MESH: rc = index_push(ix, IQE_EL_MESH, ln.no, cap); break;
    case CMD_ANIMATION:
    case CMD_FRAME:
      if (c->id == CMD_FRAME && !in_anim)
        break;
      if (open_frame && frame_poses == 0)
        ix->count[IQE_EL_FRAME]--; /* empty frames are dropped, as the parser drops them */
      open_frame = 0;
      if (c->id == CMD_ANIMATION) {
        in_anim = 1;
        rc = index_push(ix, IQE_EL_ANIM, ln.no, cap);
        break;
      }
      if ((rc = index_push(ix, IQE_EL_FRAME, ln.no, cap)) < 0)
        break;
      ix->frame_first_pose[ix->count[IQE_EL_FRAME] - 1] = ix->count[IQE_EL_POSE];
      open_frame = 1;
      frame_poses = 0;
      break;
    case CMD_PQ: case CMD_PM: case CMD_PA:
      if (!in_anim) {
        rc = index_push(ix, IQE_EL_BASEPOSE, ln.no, cap);
        break;
      }
      if (!open_frame) {
        if ((rc = index_push(ix, IQE_EL_FRAME, ln.no, cap)) < 0)
          break;
        ix->frame_first_pose[ix->count[IQE_EL_FRAME] - 1] = ix->count[IQE_EL_POSE];
        open_frame = 1;
        frame_poses = 0;
      }
      frame_poses++;
      rc = index_push(ix, IQE_EL_POSE, ln.no, cap);
      break;
    default:
      break;
    }
    if (rc < 0) {
      iqe_index_free(ix);
      return -1;
    }
  }
  if (open_frame && frame_poses == 0)
    ix->count[IQE_EL_FRAME]--;
  return 0;
}

void iqe_index_free(struct iqe_index *ix)
{
  for (int e = 0; e < IQE_EL_COUNT; e++)
    free(ix->lines[e]);
  free(ix->frame_first_pose);
  free(ix->line_offsets);
  memset(ix, 0, sizeof *ix);
}

static double token_resolution(const struct iqe_tok *t)
{
  /* 0.5 in the last printed decimal place, scaled by an exponent when there is one */
  uint32_t i = 0, frac = 0;
  long e = 0;
  int in_frac = 0, eneg = 0;
  for (; i < t->len && t->s[i] != 'e' && t->s[i] != 'E'; i++) {
    if (t->s[i] == '.')
      in_frac = 1;
    else if (in_frac)
      frac++;
  }
  if (i == t->len && !in_frac)
    return 0; /* an integer: exact as written */
  if (i < t->len) {
    i++;
    if (i < t->len && (t->s[i] == '-' || t->s[i] == '+'))
      eneg = t->s[i++] == '-';
    for (; i < t->len && t->s[i] >= '0' && t->s[i] <= '9' && e < 400; i++)
      e = e * 10 + (t->s[i] - '0');
  }
  return 0.5 * pow(10.0, (double)((eneg ? -e : e) - (long)frac));
}

int iqe_index_resolution(const struct iqe_index *ix, const unsigned char *data, size_t size,
                         uint32_t line, double res[10])
{
  struct iqe_line ln;
  struct iqe_tok toks[17];
  size_t pos;
  uint32_t lineno, n;
  const struct iqe_command *c;
  double coarse = 0;
  if (!ix->line_offsets || line == 0 || line > ix->num_lines)
    return -1;
  pos = ix->line_offsets[line];
  lineno = line - 1;
  if (!iqe_line_next(data, size, &pos, &lineno, &ln))
    return -1;
  n = iqe_tokenize(&ln, toks, 17);
  if (n == 0 || !(c = iqe_command_find(toks[0].s, toks[0].len)) ||
      (c->id != CMD_PQ && c->id != CMD_PM && c->id != CMD_PA))
    return -1;
  if (n > 17)
    n = 17;
  for (uint32_t k = 1; k < n; k++) {
    double r = token_resolution(&toks[k]);
    if (r > coarse)
      coarse = r;
  }
  for (int k = 0; k < 10; k++)
    res[k] = coarse;
  if (c->id == CMD_PQ) {
    /* value k is token k + 1; a generated Qw inherits the coarsest rounding */
    for (uint32_t k = 0; k < 10 && k + 1 < n; k++)
      res[k] = token_resolution(&toks[k + 1]);
  }
  return 0;
}

uint32_t iqe_index_line(const struct iqe_index *ix, enum iqe_elem e, uint32_t n, uint32_t pose)
{
  if (e >= IQE_EL_COUNT || n >= ix->count[e] || !ix->lines[e])
    return 0;
  if (e == IQE_EL_FRAME && pose > 0) {
    uint32_t first = ix->frame_first_pose[n], end;
    end = n + 1 < ix->count[IQE_EL_FRAME] ? ix->frame_first_pose[n + 1] : ix->count[IQE_EL_POSE];
    if (first + pose - 1 >= end || first + pose - 1 >= ix->count[IQE_EL_POSE])
      return 0;
    return ix->lines[IQE_EL_POSE][first + pose - 1];
  }
  return ix->lines[e][n];
}
