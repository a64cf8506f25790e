/* model.c - lifetime of the common model, the source spans of its elements, and reading its
 * vertex components. */
#include "model.h"

#include "reader.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void model_init(struct model *m)
{
  memset(m, 0, sizeof *m);
  arena_init(&m->arena);
}

void model_free(struct model *m)
{
  free(m->spans);
  arena_free(&m->arena);
  memset(m, 0, sizeof *m);
}

int model_joints_alloc(struct model *m, size_t n)
{
  m->joints = arena_calloc(&m->arena, n, sizeof *m->joints);
  m->rests = arena_calloc(&m->arena, n, sizeof *m->rests);
  if (!m->joints || !m->rests || n > UINT32_MAX) {
    m->joints = NULL; /* the decoders test the joints, not this answer */
    return -1;
  }
  for (size_t i = 0; i < n; i++)
    m->joints[i].rest = (uint32_t)i;
  m->num_rests = (uint32_t)n;
  return 0;
}

static void span_add(struct model *m, const struct model_span *sp)
{
  if (!m->want_spans || m->spans_failed)
    return;
  if (m->num_spans == m->cap_spans) {
    uint32_t cap = m->cap_spans ? m->cap_spans * 2 : 64;
    struct model_span *grown = cap > m->cap_spans ? realloc(m->spans, (size_t)cap * sizeof *grown) : NULL;
    if (!grown) {
      m->spans_failed = 1;
      return;
    }
    m->spans = grown;
    m->cap_spans = cap;
  }
  m->spans[m->num_spans++] = *sp;
}

void model_span_bytes(struct model *m, enum model_elem kind, uint32_t index, uint32_t count,
                      uint64_t offset, uint32_t stride)
{
  struct model_span sp = {(uint32_t)kind, index, count, stride, (long long)offset, 0, 0};
  if (count && offset <= (uint64_t)LLONG_MAX)
    span_add(m, &sp);
}

void model_span_lines(struct model *m, enum model_elem kind, uint32_t index, uint32_t line,
                      uint32_t line_end)
{
  struct model_span sp = {(uint32_t)kind, index, 1, 0, -1, line, line_end < line ? line : line_end};
  if (line)
    span_add(m, &sp);
}

void model_span_dropped(struct model *m, enum model_elem kind, uint32_t line, uint32_t line_end)
{
  struct model_span sp = {(uint32_t)kind, UINT32_MAX, 0, 0, -1, line, line_end < line ? line : line_end};
  if (line)
    span_add(m, &sp);
}

void model_joints_begin(struct model_joint_cursor *c)
{
  c->at = 0;
  c->pos = 0;
  c->depth = 0;
  c->rest = NULL;
}

int model_joints_next(const struct model *m, struct model_joint_cursor *c)
{
  if (c->at >= m->num_joints)
    return 0;
  if (m->joints) {
    c->joint = m->joints[c->at];
    c->rest = model_rest(m, c->at);
  } else if (!m->joint_walk || m->joint_walk(m, c) < 0) {
    return -1;
  }
  c->at++;
  return 1;
}

const struct trs *model_frame(const struct model *m, uint32_t f, uint32_t p)
{
  if (!m->frames || f >= m->num_frames || p >= m->num_poses)
    return NULL;
  return &m->frames[(size_t)f * m->num_poses + p];
}

const char *model_joint_name(const struct model *m, uint32_t j)
{
  const char *name = NULL;
  if (j >= m->num_joints)
    return "";
  if (m->joints)
    name = m->joints[j].name;
  else if (m->joint_name)
    return m->joint_name(m, j); /* NULL: not read */
  return name ? name : "";
}

const struct trs *model_frame_get(const struct model *m, uint32_t f, uint32_t p, struct trs *buf)
{
  if (m->frames || !m->frame_get)
    return model_frame(m, f, p);
  if (f >= m->num_frames || p >= m->num_poses || m->frame_get(m, f, p, buf) < 0)
    return NULL;
  return buf;
}

const struct model_anim *model_anim_get(const struct model *m, uint32_t a, struct model_anim *buf)
{
  if (a >= m->num_anims)
    return NULL;
  if (m->anims)
    return &m->anims[a];
  if (!m->anim_get || m->anim_get(m, a, buf) < 0)
    return NULL;
  return buf;
}

mdl_status model_read_failure(const struct model *m)
{
  return m->read_error && *m->read_error == MDL_ENOMEM ? MDL_ENOMEM : MDL_EINTERNAL;
}

uint32_t vformat_bytes(uint32_t format)
{
  static const uint32_t bytes[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};
  return format < VF_COUNT ? bytes[format] : 0;
}

double vformat_get(const unsigned char *s, uint32_t format, int normalized)
{
  uint64_t u = 0;
  for (unsigned i = 0; i < vformat_bytes(format); i++)
    u |= (uint64_t)s[i] << (8 * i);
  switch (format) {
  case VF_UBYTE: return normalized ? u / 255.0 : (double)u;
  case VF_USHORT: return normalized ? u / 65535.0 : (double)u;
  case VF_UINT: return normalized ? u / 4294967295.0 : (double)u;
  case VF_BYTE: return normalized ? (2.0 * (int8_t)u + 1) / 255.0 : (int8_t)u;
  case VF_SHORT: return normalized ? (2.0 * (int16_t)u + 1) / 65535.0 : (int16_t)u;
  case VF_INT: return normalized ? (2.0 * (int32_t)(uint32_t)u + 1) / 4294967295.0 : (int32_t)(uint32_t)u;
  case VF_HALF: return half_to_float((uint16_t)u);
  case VF_FLOAT: {
    uint32_t x = (uint32_t)u;
    float f;
    memcpy(&f, &x, 4);
    return f;
  }
  case VF_DOUBLE: {
    double d;
    memcpy(&d, &u, 8);
    return d;
  }
  default: return 0;
  }
}

const struct model_varray *model_varray_find(const struct model *m, uint32_t type, uint32_t min_size)
{
  for (uint32_t i = 0; i < m->num_varrays; i++)
    if (m->varrays[i].type == type && m->varrays[i].data && m->varrays[i].format < VF_COUNT &&
        m->varrays[i].size >= (min_size ? min_size : 1))
      return &m->varrays[i];
  return NULL;
}

int model_tag_display_plain(const struct model_tag *t)
{
  const struct model_tag_display *d = t->display;
  if (!d)
    return 1;
  for (int i = 0; i < 3; i++)
    if (d->size[i] != 1 || d->rot[i] != 0 || d->col4[i] != 0)
      return 0;
  return d->type == 0 && d->col4[3] == 1;
}

int model_lods_trivial(const struct model *m)
{
  return m->num_lods == 0 ||
         (m->num_lods == 1 && m->lods[0].first_mesh == 0 && m->lods[0].num_meshes == m->num_meshes);
}
