/* qmsh_write.c - the QMSH writer for every version 12-22 from a decoded QMSH file.
 *
 * Writing a file at its own version reproduces its bytes (points_offset recomputed). Writing a
 * newer version keeps every field; a v12 skeleton without stored groups gets its implicit
 * "default" group. Writing an older version drops fields that version lacks (camera, material
 * extras, v21 bone extras; a single group in v12, which then is the implicit one) and refuses
 * what would change the mesh: non-uniform keyframe scale before 22, non-uniform point size
 * before 14, point rotation before 19, and a skeletal point without a bone in v12. Flags are
 * kept as they are: PHYSICS before 13 and SPLIT before 18 still decode by the layout
 * (QMSH-HDR-004 warns). A model from another format is first turned into a QMSH file by
 * qmsh_convert.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmsh.h"
#include "write_loss.h"

struct qmsh_out {
  const struct qmsh_mesh *q;
  unsigned ver;
  int skeletal;
  struct byte_buf *b;
};

static void put_str(struct byte_buf *b, const struct qmsh_str *s)
{
  buf_u8(b, (uint8_t)s->len);
  buf_put(b, s->s, s->len);
}

static void put_floats(struct byte_buf *b, const float *f, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    buf_f32(b, f[i]);
}

static int refuse(struct byte_buf *b, const char *why, unsigned ver)
{
  snprintf(b->error, sizeof b->error, "%s cannot be written as QMSH version %u", why, ver);
  return -1;
}

/* Refuse what the target version cannot hold without changing the mesh. */
static int representable(const struct qmsh_out *o)
{
  const struct qmsh_mesh *q = o->q;
  if (o->skeletal && o->ver < 22) {
    for (uint32_t a = 0; a < q->h.n_anims; a++)
      for (uint32_t f = 0; f < q->anims[a].n_frames; f++)
        for (uint32_t k = 0; k < q->h.n_bones; k++) {
          const float *s = q->anims[a].frames[f].keys[k].scale;
          if (s[0] != s[1] || s[0] != s[2])
            return refuse(o->b, "a non-uniform keyframe scale", o->ver);
        }
  }
  for (uint32_t p = 0; p < q->h.n_points; p++) {
    const struct qmsh_point *pt = &q->points[p];
    if (o->ver < 14 && (pt->size[0] != pt->size[1] || pt->size[0] != pt->size[2]))
      return refuse(o->b, "a non-uniform point size", o->ver);
    if (o->ver < 19 && (pt->rot[0] != 0 || pt->rot[1] != 0 || pt->rot[2] != 0))
      return refuse(o->b, "a point rotation", o->ver);
    if (o->ver == 12 && o->skeletal && pt->bone == 0)
      return refuse(o->b, "a point without a bone (0-based ids)", o->ver);
  }
  return 0;
}

/* The group count the target stores: v12 keeps its n_groups (< 2 means none stored); a newer
 * version needs at least the implicit default group. */
static uint16_t groups_count(const struct qmsh_out *o)
{
  const struct qmsh_mesh *q = o->q;
  if (o->skeletal && o->ver >= 13 && q->groups_implicit)
    return 1;
  return q->h.n_groups;
}

static void header_put(const struct qmsh_out *o, size_t *points_offset_at)
{
  const struct qmsh_header *h = &o->q->h;
  struct byte_buf *b = o->b;
  buf_put(b, "QMSH", 4);
  buf_u8(b, (uint8_t)o->ver);
  buf_u8(b, h->flags);
  buf_u16(b, h->n_verts);
  buf_u16(b, h->n_tris);
  buf_u16(b, h->n_subs);
  buf_u16(b, h->n_bones);
  buf_u16(b, h->n_anims);
  buf_u16(b, h->n_points);
  buf_u16(b, groups_count(o));
  buf_f32(b, h->radius);
  put_floats(b, h->bbox, 6);
  *points_offset_at = b->size;
  if (o->ver >= 20)
    buf_u32(b, 0); /* patched when the points start */
  if (o->ver >= 13) {
    put_floats(b, h->cam_pos, 3);
    put_floats(b, h->cam_target, 3);
  }
  if (o->ver >= 15)
    put_floats(b, h->cam_up, 3);
}

static void subs_put(const struct qmsh_out *o)
{
  const struct qmsh_mesh *q = o->q;
  struct byte_buf *b = o->b;
  for (uint32_t s = 0; s < q->h.n_subs; s++) {
    const struct qmsh_sub *sb = &q->subs[s];
    buf_u16(b, sb->first);
    buf_u16(b, sb->tris);
    buf_u16(b, sb->min_ind);
    buf_u16(b, sb->n_ind);
    put_str(b, &sb->name);
    put_str(b, &sb->tex);
    if (o->ver >= 18) {
      put_floats(b, sb->spec_color, 3);
      buf_f32(b, sb->spec_intensity);
      buf_i32(b, sb->spec_hardness);
    }
    if (o->ver >= 16) {
      if (q->h.flags & QMSH_F_TANGENTS) {
        put_str(b, &sb->normal_tex);
        if (sb->normal_tex.len)
          buf_f32(b, sb->normal_factor);
      }
      put_str(b, &sb->specular_tex);
      if (sb->specular_tex.len) {
        buf_f32(b, sb->specular_factor);
        buf_f32(b, sb->specular_color_factor);
      }
    }
  }
}

static void bones_put(const struct qmsh_out *o)
{
  const struct qmsh_mesh *q = o->q;
  struct byte_buf *b = o->b;
  for (uint32_t k = 0; k < q->h.n_bones; k++) {
    const struct qmsh_bone *bn = &q->bones[k];
    if (o->ver >= 21) {
      put_str(b, &bn->name);
      buf_u16(b, bn->parent);
      put_floats(b, bn->mat, 12);
      put_floats(b, bn->raw_mat, 16);
      put_floats(b, bn->head, 4);
      put_floats(b, bn->tail, 4);
      buf_u8(b, bn->connected);
    } else {
      buf_u16(b, bn->parent);
      put_floats(b, bn->mat, 12);
      put_str(b, &bn->name);
    }
  }
}

static void groups_put(const struct qmsh_out *o)
{
  const struct qmsh_mesh *q = o->q;
  struct byte_buf *b = o->b;
  int v12 = o->ver == 12;
  if (v12 && q->h.n_groups < 2)
    return; /* the implicit group: nothing stored */
  if (q->groups_implicit) {
    static const struct qmsh_str name = {"default", 7};
    put_str(b, &name);
    buf_u16(b, 0);
    buf_u8(b, (uint8_t)q->h.n_bones);
    for (uint32_t k = 0; k < q->h.n_bones; k++)
      buf_u8(b, (uint8_t)(k + 1));
    return;
  }
  for (uint32_t g = 0; g < q->num_groups; g++) {
    const struct qmsh_group *gr = &q->groups[g];
    put_str(b, &gr->name);
    buf_u16(b, gr->parent);
    buf_u8(b, gr->count);
    for (uint32_t i = 0; i < gr->count; i++)
      buf_u8(b, (uint8_t)(gr->bones[i] - (v12 ? 1 : 0)));
  }
}

static void anims_put(const struct qmsh_out *o)
{
  const struct qmsh_mesh *q = o->q;
  struct byte_buf *b = o->b;
  for (uint32_t a = 0; a < q->h.n_anims; a++) {
    const struct qmsh_anim *an = &q->anims[a];
    put_str(b, &an->name);
    buf_f32(b, an->length);
    buf_u16(b, an->n_frames);
    for (uint32_t f = 0; f < an->n_frames; f++) {
      buf_f32(b, an->frames[f].time);
      for (uint32_t k = 0; k < q->h.n_bones; k++) {
        const struct qmsh_key *key = &an->frames[f].keys[k];
        put_floats(b, key->pos, 3);
        put_floats(b, key->rot, 4);
        put_floats(b, key->scale, o->ver >= 22 ? 3 : 1);
      }
    }
  }
}

static void points_put(const struct qmsh_out *o)
{
  const struct qmsh_mesh *q = o->q;
  struct byte_buf *b = o->b;
  for (uint32_t p = 0; p < q->h.n_points; p++) {
    const struct qmsh_point *pt = &q->points[p];
    put_str(b, &pt->name);
    put_floats(b, pt->mat, 16);
    buf_u16(b, (uint16_t)(o->ver == 12 ? pt->bone - 1 : pt->bone));
    buf_u16(b, pt->type);
    put_floats(b, pt->size, o->ver >= 14 ? 3 : 1);
    if (o->ver >= 19)
      put_floats(b, pt->rot, 3);
  }
}

/* A limit of the engine the model exceeds: the writer's refusal (MDL-CNV-001 with this reason). */
static int limit_refuse(struct byte_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int limit_refuse(struct byte_buf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->error, sizeof b->error, fmt, ap);
  va_end(ap);
  return -1;
}

static int target_version(const struct write_opts *opts, struct byte_buf *b, unsigned *ver)
{
  char *end;
  unsigned long v;
  *ver = QMSH_VERSION_MAX;
  if (!opts || !opts->version)
    return 0;
  v = strtoul(opts->version, &end, 10);
  if (end == opts->version || *end || v < QMSH_VERSION_MIN || v > QMSH_VERSION_MAX) {
    snprintf(b->error, sizeof b->error,
             "unknown QMSH version '%.40s': the writer knows versions 12-22", opts->version);
    return -1;
  }
  *ver = (unsigned)v;
  return 0;
}

static int write_mesh(struct qmsh_out *o);

int qmsh_write(const struct model *m, const struct write_opts *opts, struct byte_buf *out)
{
  struct qmsh_out o;
  struct qmsh_mesh conv;
  struct arena a;
  int rc;

  if (target_version(opts, out, &o.ver) < 0)
    return -1;
  o.b = out;
  if (m->format_data && m->format_data_owner && !strcmp(m->format_data_owner, "qmsh")) {
    o.q = m->format_data;
    if (!qmsh_keys_off_unit(o.q, QMSH_QUAT_TOL))
      return write_mesh(&o);
    /* key rotations off unit length beyond a float writer's rounding (QMSH-KEY-004) are written
     * normalised, as qmsh_from_model writes every rotation of another format's model: the
     * engine's slerp expects unit quaternions, and the decoded mesh itself stays as read */
    arena_init(&a);
    rc = qmsh_keys_unit_copy(o.q, &a, &conv, QMSH_QUAT_TOL);
    if (rc == 0) {
      o.q = &conv;
      rc = write_mesh(&o);
      if (opts && opts->losses)
        opts->losses->unit_rotations = 1;
    } else {
      out->oom = 1; /* no verdict, not a refusal of the model */
      snprintf(out->error, sizeof out->error, "out of memory");
    }
    arena_free(&a);
    return rc;
  }
  /* another format's model: build a QMSH file from the common model first */
  write_loss_unheld(opts ? opts->losses : NULL, m, "QMSH");
  if (opts && opts->foreign && write_refuse_nothing(opts->losses, m, out, "QMSH") < 0)
    return -1; /* a conversion of nothing */
  if (!qmsh_va_find(m, VT_POSITION))
    return write_refuse(opts ? opts->losses : NULL, out, RULE_CORE_CONVERT_QMSH_NO_MESH,
                        "the model has no vertex positions");
  /* the engine's limits (QMSH-LIM-003, -005, -006), refused before writing rather than found in
   * the written file: the file would be one the engine cannot load */
  if (!m->num_meshes)
    return write_refuse(opts ? opts->losses : NULL, out, RULE_CORE_CONVERT_QMSH_NO_MESH,
                        "the model has no mesh; QMSH holds at least one submesh");
  if (m->num_joints > QMSH_MAX_BONES && qmsh_va_find(m, VT_BLENDINDEXES) && qmsh_va_find(m, VT_BLENDWEIGHTS))
    return limit_refuse(out, "%u joints; the engine loads at most %u bones (QMSH-LIM-003)",
                        (unsigned)m->num_joints, (unsigned)QMSH_MAX_BONES);
  if (m->num_anims > 255)
    return limit_refuse(out, "%u animations; the engine loads at most 255 (QMSH-LIM-005)",
                        (unsigned)m->num_anims);
  write_loss_loops(opts ? opts->losses : NULL, m, RULE_CORE_CONVERT_QMSH_LOOP_FLAG);
  write_loss_tags_lods(opts ? opts->losses : NULL, m, "QMSH", 1);
  write_loss_influences(opts ? opts->losses : NULL, m, 2, "QMSH");
  write_loss_colors(opts ? opts->losses : NULL, m, "QMSH");
  write_loss_material_files(opts ? opts->losses : NULL, m, "QMSH");
  write_loss_added(opts ? opts->losses : NULL, m, VT_NORMAL, "QMSH",
                   "stores a normal in every vertex: written as (0 1 0)");
  write_loss_added(opts ? opts->losses : NULL, m, VT_TEXCOORD, "QMSH",
                   "stores texture coordinates in every vertex: written as (0 0)");
  arena_init(&a);
  rc = qmsh_from_model(m, &a, &conv, out->error, sizeof out->error);
  if (rc == 0) {
    o.q = &conv;
    rc = write_mesh(&o);
  } else if (!out->error[0]) { /* no reason given: an allocation failed */
    out->oom = 1;
    snprintf(out->error, sizeof out->error, "out of memory");
  }
  arena_free(&a);
  return rc;
}

static int write_mesh(struct qmsh_out *po)
{
  struct qmsh_out o = *po;
  struct byte_buf *out = o.b;
  size_t po_at;
  uint16_t ng;

  o.skeletal = qmsh_is_skeletal(o.q->h.flags);
  if (representable(&o) < 0)
    return -1;
  ng = groups_count(&o);
  if (o.skeletal && o.q->groups_implicit && o.ver >= 13 && o.q->h.n_bones > 255)
    return refuse(out, "an implicit group of more than 255 bones", o.ver);

  header_put(&o, &po_at);
  buf_put(out, o.q->verts, (size_t)o.q->h.n_verts * o.q->vertex_size);
  for (size_t i = 0; i < (size_t)o.q->h.n_tris * 3; i++)
    buf_u16(out, o.q->tris[i]);
  subs_put(&o);
  if (o.skeletal) {
    bones_put(&o);
    if (o.ver >= 21)
      groups_put(&o);
    anims_put(&o);
  }
  if (o.ver >= 20)
    buf_patch_u32(out, po_at, (uint32_t)out->size);
  points_put(&o);
  if (o.skeletal && o.ver <= 20 && !(o.ver == 12 && ng < 2))
    groups_put(&o);
  if (o.q->h.flags & QMSH_F_SPLIT)
    for (uint32_t s = 0; s < o.q->h.n_subs; s++) {
      put_floats(out, o.q->splits[s].pos, 3);
      buf_f32(out, o.q->splits[s].radius);
      put_floats(out, o.q->splits[s].box, 6);
    }
  return out->oom ? -1 : 0;
}
