/* x42_sections.c - reading the V5 sections into the document and the rules on their records:
 * names, bone hierarchy, anim groups, values, tags, influences, LODs, groups with their
 * palettes, blend data, vertex attributes and indices. Every section fits the file before
 * anything here runs (x42_format.c checks the layout first). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "x42.h"
#include "x42_fast.h"

#define ALLOC(x, n, T) ((T *)arena_calloc((x)->arena, (size_t)(n) + 1, sizeof(T)))

static void read_affine(struct reader *in, uint64_t off, float m[12])
{
  for (int i = 0; i < 12; i++)
    m[i] = reader_f32_at(in, off + 4u * (unsigned)i);
}

/* A byte section in place: the input outlives the model (the pipeline's contract), and nothing
 * writes through a decoded doc (the writer's docs come from x42_doc_build). */
static uint8_t *byte_section(struct x42_ctx *x, enum x42_section s)
{
  const void *p = reader_ptr(x->in, x->lay.off[s], x->lay.size[s]);
  static const uint8_t empty[1]; /* constant: no state shared between threads' decodes */
  if (!x->lay.size[s])
    return (uint8_t *)(uintptr_t)empty;
  return (uint8_t *)(uintptr_t)p;
}

/* n little-endian u16 in place when the host is little-endian and the section is aligned;
 * otherwise a decoded copy. */
static uint16_t *u16_section(struct x42_ctx *x, enum x42_section s, uint64_t n)
{
  uint64_t off = x->lay.off[s];
  const unsigned char *p = reader_ptr(x->in, off, 2 * n);
  uint16_t *c;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (p && n && ((uintptr_t)p & 1u) == 0)
    return (uint16_t *)(uintptr_t)p;
#endif
  if (!p && n)
    return NULL;
  if (!(c = ALLOC(x, n, uint16_t)))
    return NULL;
  for (uint64_t i = 0; i < n; i++)
    c[i] = reader_u16_at(x->in, off + 2 * i);
  return c;
}

int x42_sections_read(struct x42_ctx *x)
{
  struct x42_doc *d = x->doc;
  struct reader *in = x->in;
  const struct x42_layout *l = &x->lay;
  uint64_t nv = d->num_verts;
  unsigned scale_n = (d->flags & X42_MF_UNIFORM_SCALE) ? 1u : 3u;

  d->bones = ALLOC(x, d->num_bones, struct x42_bone);
  d->anim_groups = ALLOC(x, d->num_anim_groups, struct x42_anim_group);
  d->pos_values = ALLOC(x, 3u * d->num_pos, uint16_t);
  d->scale_values = ALLOC(x, scale_n * d->num_scale, uint16_t);
  d->rot_values = ALLOC(x, 4u * d->num_rot, int16_t);
  d->keys = ALLOC(x, d->key_len, struct x42_key);
  d->anims = ALLOC(x, d->num_anims, struct x42_anim);
  d->tags = ALLOC(x, d->num_tags, struct x42_tag);
  d->influences = ALLOC(x, d->num_infl, struct x42_influence);
  d->lods = ALLOC(x, d->num_lods, struct x42_lod);
  d->groups = ALLOC(x, d->num_groups, struct x42_group);
  /* the per-vertex sections and the indices are most of the file: the doc points into the
   * input (which outlives the model) instead of holding a second copy */
  d->vert_pos = u16_section(x, XS_VERT_POS, 3 * nv);
  d->blend = byte_section(x, XS_BLEND);
  d->blend_len = l->size[XS_BLEND];
  d->normals = (d->flags & X42_MF_HAS_NORMALS) ? (int8_t *)byte_section(x, XS_NORMALS) : NULL;
  d->tangents = (d->flags & X42_MF_HAS_TANGENT_BASIS) ? (int8_t *)byte_section(x, XS_TANGENTS) : NULL;
  d->texcoords = (d->flags & X42_MF_HAS_TEXTURE_COORDINATES) ? u16_section(x, XS_TEXCOORDS, 2 * nv) : NULL;
  d->colors = (d->flags & X42_MF_HAS_COLORS) ? byte_section(x, XS_COLORS) : NULL;
  d->indices = u16_section(x, XS_INDICES, d->num_indices);
  d->strings = ALLOC(x, (size_t)d->name_blob_len + 1, char);
  if (!d->bones || !d->anim_groups || !d->pos_values || !d->scale_values || !d->rot_values ||
      !d->keys || !d->anims || !d->tags || !d->influences || !d->lods || !d->groups ||
      !d->vert_pos || !d->blend || !d->indices || !d->strings ||
      ((d->flags & X42_MF_HAS_NORMALS) && !d->normals) ||
      ((d->flags & X42_MF_HAS_TANGENT_BASIS) && !d->tangents) ||
      ((d->flags & X42_MF_HAS_TEXTURE_COORDINATES) && !d->texcoords) ||
      ((d->flags & X42_MF_HAS_COLORS) && !d->colors))
    return -1;

  for (uint32_t i = 0; i < d->num_bones; i++) {
    uint64_t o = l->off[XS_BONES] + 12u * (uint64_t)i;
    d->bones[i].name = reader_u16_at(in, o);
    d->bones[i].flags = reader_u16_at(in, o + 2);
    d->bones[i].parent = reader_u16_at(in, o + 4);
    d->bones[i].pad = reader_u16_at(in, o + 6);
    d->bones[i].extent = reader_f32_at(in, o + 8);
  }
  for (uint32_t i = 0; i < d->num_anim_groups; i++) {
    uint64_t o = l->off[XS_ANIM_GROUPS] + 6u * (uint64_t)i;
    d->anim_groups[i].name = reader_u16_at(in, o);
    d->anim_groups[i].begin = reader_u16_at(in, o + 2);
    d->anim_groups[i].end = reader_u16_at(in, o + 4);
  }
  for (uint64_t i = 0; i < 3u * (uint64_t)d->num_pos; i++)
    d->pos_values[i] = reader_u16_at(in, l->off[XS_POS_VALUES] + 2 * i);
  for (uint64_t i = 0; i < scale_n * (uint64_t)d->num_scale; i++)
    d->scale_values[i] = reader_u16_at(in, l->off[XS_SCALE_VALUES] + 2 * i);
  for (uint64_t i = 0; i < 4u * (uint64_t)d->num_rot; i++)
    d->rot_values[i] = (int16_t)reader_u16_at(in, l->off[XS_ROT_VALUES] + 2 * i);
  for (uint32_t i = 0; i < d->key_len; i++) {
    uint64_t o = l->off[XS_KEYS] + 8u * (uint64_t)i;
    d->keys[i].type = reader_u16_at(in, o);
    d->keys[i].bone = reader_u16_at(in, o + 2);
    d->keys[i].frame = reader_u16_at(in, o + 4);
    d->keys[i].value = reader_u16_at(in, o + 6);
  }
  for (uint32_t i = 0; i < d->num_anims; i++) {
    uint64_t o = l->off[XS_ANIMS] + 12u * (uint64_t)i;
    struct x42_anim *a = &d->anims[i];
    a->name = reader_u16_at(in, o);
    a->first = reader_u16_at(in, o + 2);
    a->last = reader_u16_at(in, o + 4);
    a->loop_start = reader_u16_at(in, o + 6);
    a->loop_end = reader_u16_at(in, o + 8);
    a->rate = reader_u16_at(in, o + 10);
  }
  for (uint32_t i = 0; i < d->num_tags; i++) {
    uint64_t o = l->off[XS_TAGS] + 52u * (uint64_t)i;
    d->tags[i].name = reader_u16_at(in, o);
    d->tags[i].bone = reader_u16_at(in, o + 2);
    read_affine(in, o + 4, d->tags[i].m);
  }
  for (uint32_t i = 0; i < d->num_infl; i++) {
    uint64_t o = l->off[XS_INFLUENCES] + 52u * (uint64_t)i;
    d->influences[i].bone = reader_u16_at(in, o);
    d->influences[i].pad = reader_u16_at(in, o + 2);
    read_affine(in, o + 4, d->influences[i].m);
  }
  for (uint32_t i = 0; i < d->num_lods; i++) {
    uint64_t o = l->off[XS_LODS] + 6u * (uint64_t)i;
    d->lods[i].name = reader_u16_at(in, o);
    d->lods[i].first_group = reader_u16_at(in, o + 2);
    d->lods[i].num_groups = reader_u16_at(in, o + 4);
  }
  for (uint32_t i = 0; i < d->num_groups; i++) {
    uint64_t o = l->off[XS_GROUPS] + 148u * (uint64_t)i;
    struct x42_group *g = &d->groups[i];
    g->material = reader_u16_at(in, o);
    g->surface = reader_u16_at(in, o + 2);
    g->max_infl = reader_u16_at(in, o + 4);
    g->num_infl = reader_u16_at(in, o + 6);
    for (unsigned k = 0; k < X42_MAX_PALETTE; k++)
      g->palette[k] = reader_u16_at(in, o + 8 + 2 * k);
    g->prim = reader_u16_at(in, o + 128);
    g->pad = reader_u16_at(in, o + 130);
    g->first_vert = reader_u32_at(in, o + 132);
    g->num_verts = reader_u32_at(in, o + 136);
    g->first_index = reader_u32_at(in, o + 140);
    g->num_elems = reader_u32_at(in, o + 144);
  }
  for (uint32_t i = 0; i < d->name_blob_len; i++)
    d->strings[i] = (char)reader_u8_at(in, l->off[XS_STRINGS] + i);
  /* where each string ends and starts, so every name check is O(1) */
  d->nul_next = ALLOC(x, d->name_blob_len, uint16_t);
  d->str_start = ALLOC(x, d->name_blob_len, uint16_t);
  if (!d->nul_next || !d->str_start)
    return -1;
  for (uint32_t i = d->name_blob_len, next = d->name_blob_len; i-- > 0;) {
    if (d->strings[i] == 0)
      next = i;
    d->nul_next[i] = (uint16_t)next;
  }
  for (uint32_t i = 0, start = 0; i < d->name_blob_len; i++) {
    d->str_start[i] = (uint16_t)start;
    if (d->strings[i] == 0)
      start = i + 1;
  }
  return in->overrun ? -1 : 0;
}

int x42_name_ok(const struct x42_doc *d, uint16_t name)
{
  if (name >= d->name_blob_len)
    return 0;
  if (d->nul_next)
    return d->nul_next[name] < d->name_blob_len;
  return memchr(d->strings + name, 0, (size_t)(d->name_blob_len - name)) != NULL;
}

/* A name must index the first char of a NUL-terminated string inside the blob. */
void x42_check_name(struct x42_ctx *x, uint16_t name, uint64_t off, const char *path)
{
  const struct x42_doc *d = x->doc;
  struct mdl_loc loc = loc_bin(off, "%s", path);
  char exp[48];
  if (!x42_name_ok(d, name)) {
    snprintf(exp, sizeof exp, "< %u, before the blob's last NUL", d->name_blob_len);
    diag_emit(x->diag, RULE_X42_NAME_INDEX, &loc, exp, "%u", name);
  } else if (name > 0 && d->strings[name - 1] != 0) {
    /* either this index is damaged, or the NUL before it is: both places are reported */
    uint16_t st = d->str_start ? d->str_start[name] : 0;
    diag_emit(x->diag, RULE_X42_NAME_MID_STRING, &loc, "the index of a string's first char", "%u", name);
    (void)st;
    {
      loc = loc_bin(x->lay.off[XS_STRINGS] + name - 1u, "strings[%u]", name - 1u);
      diag_emit(x->diag, RULE_X42_NAME_MID_STRING, &loc, "a NUL before the string a name starts at",
                "%s indexes %u, after byte 0x%02x", path, name, (unsigned char)d->strings[name - 1]);
    }
  }
}

static void check_affine(struct x42_ctx *x, const float m[12], uint64_t off, const char *what, uint32_t i)
{
  for (int k = 0; k < 12; k++)
    if (!isfinite(m[k])) {
      struct mdl_loc loc = loc_bin(off + 4u * (unsigned)k, "%s[%u].matrix[%d]", what, i, k);
      diag_emit(x->diag, RULE_X42_MATRIX_NOT_FINITE, &loc, "a finite number", "%g", (double)m[k]);
      return;
    }
}

static void check_strings(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  uint64_t off = x->lay.off[XS_STRINGS];
  struct mdl_loc loc;
  if (d->name_blob_len && d->strings[d->name_blob_len - 1] != 0) {
    loc = loc_bin(off + d->name_blob_len - 1u, "strings[%u]", d->name_blob_len - 1u);
    diag_emit(x->diag, RULE_X42_BLOB_UNTERMINATED, &loc, "0 (NUL)", "0x%02x",
              (unsigned char)d->strings[d->name_blob_len - 1]);
  }
  for (uint32_t i = 0; i < d->name_blob_len; i++) {
    unsigned char c = (unsigned char)d->strings[i];
    if ((c && c < 0x20) || c == 0x7f) {
      loc = loc_bin(off + i, "strings[%u]", i);
      diag_emit(x->diag, RULE_X42_NAME_NOT_TEXT, &loc, "printable text", "0x%02x", c);
    }
  }
}

static void check_bones(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  char path[64], exp[48];
  for (uint32_t i = 0; i < d->num_bones; i++) {
    const struct x42_bone *b = &d->bones[i];
    uint64_t o = x->lay.off[XS_BONES] + 12u * (uint64_t)i;
    struct mdl_loc loc;
    snprintf(path, sizeof path, "bones[%u].name", i);
    x42_check_name(x, b->name, o, path);
    if (b->parent != X42_NONE && b->parent >= i) {
      loc = loc_bin(o + 4, "bones[%u].parentIdx", i);
      snprintf(exp, sizeof exp, "< %u or 0xFFFF", i);
      diag_emit(x->diag, RULE_X42_BONE_PARENT, &loc, exp, "%u", b->parent);
    }
    if (b->pad) {
      loc = loc_bin(o + 6, "bones[%u].pad", i);
      diag_emit(x->diag, RULE_X42_PADDING_NONZERO, &loc, "0", "0x%04x", b->pad);
    }
    if (!isfinite(b->extent)) {
      loc = loc_bin(o + 8, "bones[%u].extent", i);
      diag_emit(x->diag, RULE_X42_BONE_EXTENT_NOT_FINITE, &loc, "a finite number", "%g", (double)b->extent);
    } else if (b->extent < 0) {
      loc = loc_bin(o + 8, "bones[%u].extent", i);
      diag_emit(x->diag, RULE_X42_BONE_EXTENT_NEGATIVE, &loc, ">= 0", "%g", (double)b->extent);
    }
  }
}

static void check_anim_groups(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  char path[64], exp[48];
  uint32_t next = 0;
  int partition_ok = 1;
  for (uint32_t i = 0; i < d->num_anim_groups; i++) {
    const struct x42_anim_group *g = &d->anim_groups[i];
    uint64_t o = x->lay.off[XS_ANIM_GROUPS] + 6u * (uint64_t)i;
    struct mdl_loc loc;
    snprintf(path, sizeof path, "animGroups[%u].name", i);
    x42_check_name(x, g->name, o, path);
    if (g->end > d->num_bones) {
      loc = loc_bin(o + 4, "animGroups[%u].endBone", i);
      snprintf(exp, sizeof exp, "<= %u (numBones)", d->num_bones);
      diag_emit(x->diag, RULE_X42_ANIM_GROUP_RANGE, &loc, exp, "%u", g->end);
      partition_ok = 0;
    } else if (g->begin > g->end) {
      loc = loc_bin(o + 2, "animGroups[%u].beginBone", i);
      snprintf(exp, sizeof exp, "<= %u (endBone)", g->end);
      diag_emit(x->diag, RULE_X42_ANIM_GROUP_RANGE, &loc, exp, "%u", g->begin);
      partition_ok = 0;
    } else if (partition_ok && g->begin != next) {
      loc = loc_bin(o + 2, "animGroups[%u].beginBone", i);
      snprintf(exp, sizeof exp, "%u (previous group's endBone)", next);
      diag_emit(x->diag, RULE_X42_ANIM_GROUP_PARTITION, &loc, exp, "%u", g->begin);
      partition_ok = 0;
    }
    next = g->end;
  }
  if (partition_ok && d->num_anim_groups && next != d->num_bones) {
    uint64_t o = x->lay.off[XS_ANIM_GROUPS] + 6u * (uint64_t)(d->num_anim_groups - 1u) + 4;
    struct mdl_loc loc = loc_bin(o, "animGroups[%u].endBone", d->num_anim_groups - 1u);
    snprintf(exp, sizeof exp, "%u (numBones)", d->num_bones);
    diag_emit(x->diag, RULE_X42_ANIM_GROUP_PARTITION, &loc, exp, "%u", next);
  }
}

static void check_range_samples(struct x42_ctx *x, const uint16_t *v, uint64_t n, uint64_t off, const char *what, unsigned per)
{
  if (x42_u16_max(v, n) <= (uint16_t)X42_RANGE_STEPS)
    return;
  for (uint64_t i = 0; i < n; i++)
    if (v[i] > (uint16_t)X42_RANGE_STEPS) {
      struct mdl_loc loc = loc_bin(off + 2 * i, "%s[%llu][%u]", what, (unsigned long long)(i / per),
                                   (unsigned)(i % per));
      diag_emit(x->diag, RULE_X42_RANGE_SAMPLE_OVER, &loc, "<= 65530", "%u", v[i]);
    }
}

/* Which component of rotation value v is most likely damaged: the one furthest from the same
 * track's neighbouring key value (tracks are smooth); component 0 when no neighbour is known. */
static int rotation_suspect(const struct x42_doc *d, uint32_t v)
{
  for (uint32_t i = 0; i < d->key_len; i++) {
    const struct x42_key *k = &d->keys[i];
    uint32_t nb = UINT32_MAX;
    if (k->type != X42_TRACK_ROT || k->value != v)
      continue;
    /* the nearest other rotation key of the same bone whose value is unit length */
    for (uint32_t j = 0; j < d->key_len; j++) {
      const struct x42_key *o = &d->keys[j];
      double n2 = 0;
      if (j == i || o->type != X42_TRACK_ROT || o->bone != k->bone || o->value >= d->num_rot || o->value == v)
        continue;
      for (int c = 0; c < 4; c++)
        n2 += x42_s16n(d->rot_values[4u * o->value + (unsigned)c]) * x42_s16n(d->rot_values[4u * o->value + (unsigned)c]);
      if (fabs(sqrt(n2) - 1) <= 2.0 / 32767.0) {
        nb = o->value;
        break;
      }
    }
    if (nb != UINT32_MAX) {
      const int16_t *a = d->rot_values + 4u * (size_t)v, *b = d->rot_values + 4u * (size_t)nb;
      double dot = 0, best = -1;
      int which = 0;
      for (int c = 0; c < 4; c++)
        dot += x42_s16n(a[c]) * x42_s16n(b[c]);
      for (int c = 0; c < 4; c++) {
        double diff = fabs(x42_s16n(a[c]) - (dot < 0 ? -1 : 1) * x42_s16n(b[c]));
        if (diff > best)
          best = diff, which = c;
      }
      return which;
    }
  }
  return 0;
}

static void check_values(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  unsigned scale_n = (d->flags & X42_MF_UNIFORM_SCALE) ? 1u : 3u, suspects = 0;
  check_range_samples(x, d->pos_values, 3u * (uint64_t)d->num_pos, x->lay.off[XS_POS_VALUES], "positionValues", 3);
  check_range_samples(x, d->scale_values, scale_n * (uint64_t)d->num_scale, x->lay.off[XS_SCALE_VALUES], "scaleValues", scale_n);
  for (uint32_t i = 0; i < d->num_rot; i++) {
    const int16_t *q = d->rot_values + 4u * (size_t)i;
    uint64_t o = x->lay.off[XS_ROT_VALUES] + 8u * (uint64_t)i;
    double n2 = 0;
    for (int k = 0; k < 4; k++)
      n2 += x42_s16n(q[k]) * x42_s16n(q[k]);
    if (fabs(sqrt(n2) - 1.0) > 2.0 / 32767.0) {
      /* the search is O(keys): only for the first few damaged values */
      struct mdl_loc loc = loc_bin(o + 2u * (unsigned)(suspects++ < 16 ? rotation_suspect(d, i) : 0), "rotationValues[%u]", i);
      diag_emit(x->diag, RULE_X42_ROTATION_NOT_UNIT, &loc, "1 +- 2/32767", "|q| = %.6f", sqrt(n2));
    }
  }
}

static void check_tags_influences(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  char path[64], exp[48];
  snprintf(exp, sizeof exp, "< %u (numBones) or 0xFFFF", d->num_bones);
  for (uint32_t i = 0; i < d->num_tags; i++) {
    uint64_t o = x->lay.off[XS_TAGS] + 52u * (uint64_t)i;
    snprintf(path, sizeof path, "tags[%u].name", i);
    x42_check_name(x, d->tags[i].name, o, path);
    if (d->tags[i].bone != X42_NONE && d->tags[i].bone >= d->num_bones) {
      struct mdl_loc loc = loc_bin(o + 2, "tags[%u].bone", i);
      diag_emit(x->diag, RULE_X42_TAG_BONE, &loc, exp, "%u", d->tags[i].bone);
    }
    check_affine(x, d->tags[i].m, o + 4, "tags", i);
  }
  for (uint32_t i = 0; i < d->num_infl; i++) {
    uint64_t o = x->lay.off[XS_INFLUENCES] + 52u * (uint64_t)i;
    if (d->influences[i].bone != X42_NONE && d->influences[i].bone >= d->num_bones) {
      struct mdl_loc loc = loc_bin(o, "influences[%u].bone", i);
      diag_emit(x->diag, RULE_X42_INFLUENCE_BONE, &loc, exp, "%u", d->influences[i].bone);
    }
    if (d->influences[i].pad) {
      struct mdl_loc loc = loc_bin(o + 2, "influences[%u].pad", i);
      diag_emit(x->diag, RULE_X42_PADDING_NONZERO, &loc, "0", "0x%04x", d->influences[i].pad);
    }
    check_affine(x, d->influences[i].m, o + 4, "influences", i);
  }
}

static void check_lods(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  char path[64], exp[48];
  for (uint32_t i = 0; i < d->num_lods; i++) {
    const struct x42_lod *l = &d->lods[i];
    uint64_t o = x->lay.off[XS_LODS] + 6u * (uint64_t)i;
    snprintf(path, sizeof path, "lods[%u].lodName", i);
    x42_check_name(x, l->name, o, path);
    if ((uint32_t)l->first_group + l->num_groups > d->num_groups) {
      int first_bad = (l->first_group >= d->num_groups && l->num_groups != 0) || l->num_groups <= d->num_groups;
      struct mdl_loc loc = loc_bin(o + (first_bad ? 2 : 4), "lods[%u].%s", i, first_bad ? "firstGroup" : "numGroups");
      snprintf(exp, sizeof exp, "firstGroup + numGroups <= %u", d->num_groups);
      diag_emit(x->diag, RULE_X42_LOD_RANGE, &loc, exp, "%u + %u", l->first_group, l->num_groups);
    }
  }
}

static int prim_known(unsigned p)
{
  return p == 0 || p == 1 || p == 3 || p == 4 || p == 5 || p == 6;
}

static void check_group_elems(struct x42_ctx *x, const struct x42_group *g, uint64_t o, uint32_t i)
{
  unsigned n = g->num_elems;
  int bad = 0;
  switch (g->prim) {
  case 1: bad = n % 2 != 0; break;
  case 3: bad = n == 1; break;
  case 4: bad = n % 3 != 0; break;
  case 5: case 6: bad = n == 1 || n == 2; break;
  default: break;
  }
  if (bad) {
    struct mdl_loc loc = loc_bin(o + 144, "groups[%u].numElems", i);
    diag_emit(x->diag, RULE_X42_GROUP_ELEMS_PRIM, &loc, "a whole number of primitives", "%u elements of primType %u",
              n, g->prim);
  }
}

static void check_groups(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  char path[64], exp[64];
  uint64_t next_vert = 0, next_index = 0;
  /* groups may overlap: bound the index checks so overlapping ranges cannot multiply the work */
  uint64_t budget = 4 * (uint64_t)d->num_indices + (1u << 20);
  x->index_top = arena_calloc(x->arena, (size_t)d->num_groups + 1, sizeof *x->index_top);
  for (uint32_t i = 0; i < d->num_groups; i++) {
    const struct x42_group *g = &d->groups[i];
    uint64_t o = x->lay.off[XS_GROUPS] + 148u * (uint64_t)i;
    struct mdl_loc loc;
    if (i) {
      const struct x42_group *p = &d->groups[i - 1];
      next_vert = (uint64_t)p->first_vert + p->num_verts;
      if (p->first_index != 0xFFFFFFFFu)
        next_index = (uint64_t)p->first_index + p->num_elems;
    }
    /* material is assumed to be a name like surfaceName (x42.md gives only its type); past the
     * blob a reader of that name reads out of bounds whatever it means */
    if (!x42_name_ok(d, g->material)) {
      loc = loc_bin(o, "groups[%u].material", i);
      snprintf(exp, sizeof exp, "< %u, before the blob's last NUL", d->name_blob_len);
      diag_emit(x->diag, RULE_X42_GROUP_MATERIAL_PAST_BLOB, &loc, exp, "%u", g->material);
    } else if (g->material && d->strings[g->material - 1]) {
      loc = loc_bin(o, "groups[%u].material", i);
      diag_emit(x->diag, RULE_X42_GROUP_MATERIAL_NAME, &loc, "the index of a name in the blob", "%u", g->material);
    }
    if (g->pad) {
      loc = loc_bin(o + 130, "groups[%u].pad", i);
      diag_emit(x->diag, RULE_X42_PADDING_NONZERO, &loc, "0", "0x%04x", g->pad);
    }
    snprintf(path, sizeof path, "groups[%u].surfaceName", i);
    x42_check_name(x, g->surface, o + 2, path);
    if (g->max_infl > X42_MAX_INFLUENCES) {
      loc = loc_bin(o + 4, "groups[%u].maxVertInfluences", i);
      diag_emit(x->diag, RULE_X42_GROUP_MAX_INFLUENCES, &loc, "0 ... 4", "%u", g->max_infl);
    }
    if (g->num_infl > X42_MAX_PALETTE) {
      loc = loc_bin(o + 6, "groups[%u].numInfluences", i);
      diag_emit(x->diag, RULE_X42_GROUP_PALETTE_SIZE, &loc, "<= 60", "%u", g->num_infl);
    } else {
      for (unsigned k = 0; k < g->num_infl; k++)
        if (g->palette[k] >= d->num_infl) {
          loc = loc_bin(o + 8 + 2 * k, "groups[%u].influences[%u]", i, k);
          snprintf(exp, sizeof exp, "< %u (numInfluences)", d->num_infl);
          diag_emit(x->diag, RULE_X42_GROUP_PALETTE_ENTRY, &loc, exp, "%u", g->palette[k]);
        }
    }
    if (g->max_infl && !g->num_infl && g->num_verts) {
      loc = loc_bin(o + 6, "groups[%u].numInfluences", i);
      diag_emit(x->diag, RULE_X42_GROUP_PALETTE_EMPTY, &loc, ">= 1 (maxVertInfluences > 0)", "0");
    }
    if (!prim_known(g->prim)) {
      loc = loc_bin(o + 128, "groups[%u].primType", i);
      diag_emit(x->diag, RULE_X42_GROUP_PRIM_TYPE, &loc, "0, 1, 3, 4, 5 or 6", "%u", g->prim);
    } else {
      check_group_elems(x, g, o, i);
    }
    if ((uint64_t)g->first_vert + g->num_verts > d->num_verts) {
      /* groups normally follow one another: a start off that chain is the likely damage */
      int first_bad = g->first_vert >= d->num_verts || (g->first_vert != next_vert && g->num_verts <= d->num_verts);
      loc = loc_bin(o + (first_bad ? 132 : 136), "groups[%u].%s", i, first_bad ? "firstVert" : "numVerts");
      snprintf(exp, sizeof exp, "firstVert + numVerts <= %u", d->num_verts);
      diag_emit(x->diag, RULE_X42_GROUP_VERT_RANGE, &loc, exp, "%u + %u", g->first_vert, g->num_verts);
    }
    if (g->first_index == 0xFFFFFFFFu) {
      if (g->num_elems > g->num_verts) {
        loc = loc_bin(o + 144, "groups[%u].numElems", i);
        snprintf(exp, sizeof exp, "<= %u (numVerts, unindexed)", g->num_verts);
        diag_emit(x->diag, RULE_X42_GROUP_INDEX_RANGE, &loc, exp, "%u", g->num_elems);
      }
    } else if ((uint64_t)g->first_index + g->num_elems > d->num_indices) {
      int first_bad = (g->first_index >= d->num_indices && g->num_elems) ||
                      (g->first_index != next_index && g->num_elems <= d->num_indices);
      loc = loc_bin(o + (first_bad ? 140 : 144), "groups[%u].%s", i, first_bad ? "firstIndex" : "numElems");
      snprintf(exp, sizeof exp, "firstIndex + numElems <= %u", d->num_indices);
      diag_emit(x->diag, RULE_X42_GROUP_INDEX_RANGE, &loc, exp, "%u + %u", g->first_index, g->num_elems);
    } else {
      uint32_t bad = 0, max = 0, n = g->num_elems < budget ? g->num_elems : (uint32_t)budget;
      /* the common case first: a plain max over the group's indices (vectorises); the loop
       * below, which reports, runs only when some index is out of range */
      uint16_t top = n ? x42_u16_max(d->indices + g->first_index, n) : 0;
      if (x->index_top && n && n == g->num_elems)
        x->index_top[i] = 1u + top;
      if (!n || top < g->num_verts) {
        budget -= n;
        continue;
      }
      for (uint32_t k = 0; k < g->num_elems && budget; k++, budget--) {
        uint32_t at = g->first_index + k;
        if (d->indices[at] >= g->num_verts) {
          loc = loc_bin(x->lay.off[XS_INDICES] + 2u * (uint64_t)at, "indices[%u]", at);
          snprintf(exp, sizeof exp, "< %u (groups[%u].numVerts)", g->num_verts, i);
          diag_emit(x->diag, RULE_X42_INDEX_RANGE, &loc, exp, "%u", d->indices[at]);
          bad++;
          max = d->indices[at] > max ? d->indices[at] : max;
        }
      }
      /* several indices past the group usually mean its numVerts is wrong: say so there too */
      if (bad > 1) {
        loc = loc_bin(o + 136, "groups[%u].numVerts", i);
        snprintf(exp, sizeof exp, "> %u (the largest index)", max);
        diag_emit(x->diag, RULE_X42_INDEX_RANGE, &loc, exp, "%u, with %u indices past it", g->num_verts, bad);
      }
    }
  }
}

static void check_blend(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  uint64_t pos = 0;
  char exp[64];
  for (uint32_t i = 0; i < d->num_groups; i++) {
    const struct x42_group *g = &d->groups[i];
    unsigned m = g->max_infl, stride = m ? 2 * m - 1 : 0, bad = 0, max = 0;
    /* a palette of 0 or more than 60 entries is reported on the group; no index is then
     * checked (256: above every byte) */
    unsigned lim = g->num_infl && g->num_infl <= X42_MAX_PALETTE ? g->num_infl : 256;
    if (!m)
      continue;
    {
      /* the entries the loop below visits: up to numVerts, while whole inside the blend data */
      uint64_t nv = pos + (uint64_t)stride * g->num_verts <= d->blend_len ? g->num_verts
                    : pos <= d->blend_len ? (d->blend_len - pos) / stride : 0;
      if (d->blend && x42_blend_clean(d->blend + pos, nv, m, lim)) {
        pos += (uint64_t)stride * nv;
        continue;
      }
    }
    for (uint32_t v = 0; v < g->num_verts && pos + stride <= d->blend_len; v++, pos += stride) {
      const uint8_t *e = d->blend + pos;
      unsigned sum = 0;
      uint64_t o = x->lay.off[XS_BLEND] + pos;
      for (unsigned k = 0; k < m; k++) {
        unsigned idx = e[2 * k];
        if (idx >= lim) {
          struct mdl_loc loc = loc_bin(o + 2 * k, "groups[%u].blend[%u].index[%u]", i, v, k);
          snprintf(exp, sizeof exp, "< %u (the group's numInfluences)", g->num_infl);
          diag_emit(x->diag, RULE_X42_BLEND_INDEX, &loc, exp, "%u", idx);
          bad++;
          max = idx > max ? idx : max;
        }
        if (k + 1 < m)
          sum += e[2 * k + 1];
      }
      if (sum > 255) {
        struct mdl_loc loc = loc_bin(o + 1, "groups[%u].blend[%u].weight", i, v);
        diag_emit(x->diag, RULE_X42_BLEND_WEIGHT_SUM, &loc, "stored weights sum <= 255 (1.0)", "%u/255", sum);
      }
    }
    /* several slots past the palette usually mean the group's numInfluences is wrong */
    if (bad > 1) {
      struct mdl_loc loc = loc_bin(x->lay.off[XS_GROUPS] + 148u * (uint64_t)i + 6, "groups[%u].numInfluences", i);
      snprintf(exp, sizeof exp, "> %u (the largest blend index)", max);
      diag_emit(x->diag, RULE_X42_BLEND_INDEX, &loc, exp, "%u, with %u blend indices past it", g->num_infl, bad);
    }
  }
}

static void check_vertex_attrs(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  int has_static = 0;
  uint32_t nfrom, tfrom;
  for (uint32_t i = 0; i < d->num_groups; i++)
    has_static |= d->groups[i].max_infl == 0;
  if ((d->flags & X42_MF_HAS_TANGENT_BASIS) && !(d->flags & X42_MF_HAS_NORMALS) && has_static) {
    struct mdl_loc loc = loc_bin(X42_OFF_FLAGS, "header.modelFlags");
    diag_emit(x->diag, RULE_X42_TANGENTS_NEED_NORMALS, &loc, "HAS_NORMALS with HAS_TANGENT_BASIS", "0x%x",
              d->flags);
  }
  check_range_samples(x, d->vert_pos, 3u * (uint64_t)d->num_verts, x->lay.off[XS_VERT_POS], "vertexPositions", 3);
  if (d->texcoords)
    check_range_samples(x, d->texcoords, 2u * (uint64_t)d->num_verts, x->lay.off[XS_TEXCOORDS], "texCoords", 2);
  /* S8N: each component is off by at most 0.5/127, so a unit vector's length is within
   * sqrt(3)*0.5/127 = 0.0069 of 1; 0.014 admits encoders that truncate */
  /* the exact loops start at the first vertex the integer tests (x42_fast.c) do not clear:
   * those before it would be skipped one by one */
  x42_vertex_prefixes(d->normals, d->tangents, d->num_verts, &nfrom, &tfrom);
  for (uint32_t v = nfrom; d->normals && v < d->num_verts; v++) {
    const int8_t *n = d->normals + 3u * (size_t)v;
    double len;
    if (x42_s8_surely_unit(n[0], n[1], n[2]))
      continue;
    len = sqrt(x42_s8n(n[0]) * x42_s8n(n[0]) + x42_s8n(n[1]) * x42_s8n(n[1]) + x42_s8n(n[2]) * x42_s8n(n[2]));
    if (fabs(len - 1) > 0.014) {
      struct mdl_loc loc = loc_bin(x->lay.off[XS_NORMALS] + 3u * (uint64_t)v, "normals[%u]", v);
      diag_emit(x->diag, RULE_X42_NORMAL_NOT_UNIT, &loc, "1 +- 0.014", "|n| = %.4f", len);
    }
  }
  for (uint32_t v = tfrom; d->tangents && v < d->num_verts; v++) {
    const int8_t *t = d->tangents + 7u * (size_t)v;
    uint64_t o = x->lay.off[XS_TANGENTS] + 7u * (uint64_t)v;
    double tv[3], bv[3], c[3], lt, lb, lc;
    /* the common case decided in integers: both unit, and the basis agrees with the normal */
    if (x42_tangent_surely_ok(t, d->normals ? d->normals + 3u * (size_t)v : NULL))
      continue;
    for (int k = 0; k < 3; k++) {
      tv[k] = x42_s8n(t[k]);
      bv[k] = x42_s8n(t[4 + k]);
    }
    lt = sqrt(tv[0] * tv[0] + tv[1] * tv[1] + tv[2] * tv[2]);
    lb = sqrt(bv[0] * bv[0] + bv[1] * bv[1] + bv[2] * bv[2]);
    if (fabs(lt - 1) > 0.014 || fabs(lb - 1) > 0.014) {
      struct mdl_loc loc = loc_bin(o + (fabs(lt - 1) > 0.014 ? 0 : 4), "tangentBasis[%u]", v);
      diag_emit(x->diag, RULE_X42_TANGENT_NOT_UNIT, &loc, "1 +- 0.014", "|t| = %.4f, |b| = %.4f", lt, lb);
      continue;
    }
    if (t[3] != 127 && t[3] != -127) {
      struct mdl_loc loc = loc_bin(o + 3, "tangentBasis[%u].nfac", v);
      diag_emit(x->diag, RULE_X42_TANGENT_NFAC, &loc, "+127 or -127 (+-1)", "%d", t[3]);
      continue;
    }
    if (!d->normals)
      continue;
    /* the normal the basis implies: nfac * (t x b), against the stored normal */
    c[0] = tv[1] * bv[2] - tv[2] * bv[1];
    c[1] = tv[2] * bv[0] - tv[0] * bv[2];
    c[2] = tv[0] * bv[1] - tv[1] * bv[0];
    lc = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    if (lc > 1e-9) {
      const int8_t *n = d->normals + 3u * (size_t)v;
      double dot = 0;
      for (int k = 0; k < 3; k++)
        dot += c[k] / lc * x42_s8n(n[k]) * (t[3] > 0 ? 1 : -1);
      if (dot < 0.9) {
        struct mdl_loc loc = loc_bin(o + 3, "tangentBasis[%u].nfac", v);
        diag_emit(x->diag, RULE_X42_TANGENT_BASIS_MISMATCH, &loc, "cos >= 0.9", "cos(normal, nfac*(t x b)) = %.3f", dot);
      }
    }
  }
}

static void mark_name(struct x42_ctx *x, uint16_t name)
{
  if (name < x->doc->name_blob_len && (name == 0 || x->doc->strings[name - 1] == 0))
    x->name_refs[name] = 1;
}

/* Which blob offsets some name uses as a string start. */
static void name_refs_build(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  x->name_refs = arena_calloc(x->arena, (size_t)d->name_blob_len + 1, 1);
  if (!x->name_refs)
    return;
  for (uint32_t i = 0; i < d->num_bones; i++)
    mark_name(x, d->bones[i].name);
  for (uint32_t i = 0; i < d->num_anim_groups; i++)
    mark_name(x, d->anim_groups[i].name);
  for (uint32_t i = 0; i < d->num_anims; i++)
    mark_name(x, d->anims[i].name);
  for (uint32_t i = 0; i < d->num_tags; i++)
    mark_name(x, d->tags[i].name);
  for (uint32_t i = 0; i < d->num_lods; i++)
    mark_name(x, d->lods[i].name);
  for (uint32_t i = 0; i < d->num_groups; i++)
    mark_name(x, d->groups[i].surface);
}

void x42_sections_check(struct x42_ctx *x)
{
  name_refs_build(x);
  check_strings(x);
  check_bones(x);
  check_anim_groups(x);
  check_values(x);
  check_tags_influences(x);
  check_lods(x);
  check_groups(x);
  check_blend(x);
  check_vertex_attrs(x);
}
