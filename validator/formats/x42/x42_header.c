/* x42_header.c - the V5 header and pack header: reading, the header rules, and the section
 * layout the counts and flags imply (alignment is to absolute file offsets). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "x42.h"

void x42_header_parse(struct reader *in, struct x42_doc *d)
{
  d->flags = reader_u16_at(in, X42_OFF_FLAGS);
  d->base_frame = (int16_t)reader_u16_at(in, X42_OFF_BASE_FRAME);
  d->num_frames = reader_u16_at(in, X42_OFF_NUM_FRAMES);
  d->name_blob_len = reader_u16_at(in, X42_OFF_NAME_BLOB);
  d->num_bones = reader_u16_at(in, X42_OFF_NUM_BONES);
  d->num_anim_groups = reader_u16_at(in, X42_OFF_NUM_ANIM_GROUPS);
  d->num_pos = reader_u16_at(in, X42_OFF_NUM_POS);
  d->num_rot = reader_u16_at(in, X42_OFF_NUM_ROT);
  d->num_scale = reader_u16_at(in, X42_OFF_NUM_SCALE);
  d->key_len = reader_u16_at(in, X42_OFF_KEY_LEN);
  d->num_anims = reader_u16_at(in, X42_OFF_NUM_ANIMS);
  d->num_tags = reader_u16_at(in, X42_OFF_NUM_TAGS);
  d->num_infl = reader_u16_at(in, X42_OFF_NUM_INFL);
  d->num_lods = reader_u16_at(in, X42_OFF_NUM_LODS);
  d->num_groups = reader_u16_at(in, X42_OFF_NUM_GROUPS);
  d->num_verts = reader_u32_at(in, X42_OFF_NUM_VERTS);
  d->num_indices = reader_u32_at(in, X42_OFF_NUM_INDICES);
  for (int i = 0; i < 6; i++)
    d->bbox[i] = reader_f32_at(in, X42_OFF_BBOX + 4u * (unsigned)i);
  for (int i = 0; i < 4; i++)
    d->sphere[i] = reader_f32_at(in, X42_OFF_SPHERE + 4u * (unsigned)i);
  for (int a = 0; a < 3; a++)
    for (int k = 0; k < 2; k++) {
      d->anim_pos_pack[a][k] = reader_f32_at(in, X42_OFF_PACK + 8u * (unsigned)a + 4u * (unsigned)k);
      d->vert_pos_pack[a][k] = reader_f32_at(in, X42_OFF_PACK + 32 + 8u * (unsigned)a + 4u * (unsigned)k);
    }
  for (int k = 0; k < 2; k++) {
    d->anim_scale_pack[k] = reader_f32_at(in, X42_OFF_PACK + 24 + 4u * (unsigned)k);
    d->vert_tc_pack[0][k] = reader_f32_at(in, X42_OFF_PACK + 56 + 4u * (unsigned)k);
    d->vert_tc_pack[1][k] = reader_f32_at(in, X42_OFF_PACK + 64 + 4u * (unsigned)k);
  }
}

static uint64_t align_up(uint64_t off, uint64_t a)
{
  return a > 1 ? (off + a - 1) / a * a : off;
}

void x42_layout_compute(const struct x42_doc *d, uint64_t blend_len, struct x42_layout *lay)
{
  static const unsigned align[XS_COUNT] = {8, 8, 2, 1, 1, 8, 8, 8, 8, 8, 8, 2, 1, 1, 1, 2, 4, 4, 1};
  uint64_t nv = d->num_verts, off = X42_FIXED_SIZE;
  uint64_t size[XS_COUNT];
  size[XS_BONES] = 12u * (uint64_t)d->num_bones;
  size[XS_ANIM_GROUPS] = 6u * (uint64_t)d->num_anim_groups;
  size[XS_POS_VALUES] = 6u * (uint64_t)d->num_pos;
  size[XS_SCALE_VALUES] = ((d->flags & X42_MF_UNIFORM_SCALE) ? 2u : 6u) * (uint64_t)d->num_scale;
  size[XS_ROT_VALUES] = 8u * (uint64_t)d->num_rot;
  size[XS_KEYS] = 8u * (uint64_t)d->key_len;
  size[XS_ANIMS] = 12u * (uint64_t)d->num_anims;
  size[XS_TAGS] = 52u * (uint64_t)d->num_tags;
  size[XS_INFLUENCES] = 52u * (uint64_t)d->num_infl;
  size[XS_LODS] = 6u * (uint64_t)d->num_lods;
  size[XS_GROUPS] = 148u * (uint64_t)d->num_groups;
  size[XS_VERT_POS] = 6u * nv;
  size[XS_BLEND] = blend_len;
  size[XS_NORMALS] = (d->flags & X42_MF_HAS_NORMALS) ? 3u * nv : 0;
  size[XS_TANGENTS] = (d->flags & X42_MF_HAS_TANGENT_BASIS) ? 7u * nv : 0;
  size[XS_TEXCOORDS] = (d->flags & X42_MF_HAS_TEXTURE_COORDINATES) ? 4u * nv : 0;
  size[XS_COLORS] = (d->flags & X42_MF_HAS_COLORS) ? 4u * nv : 0;
  size[XS_INDICES] = 2u * (uint64_t)d->num_indices;
  size[XS_STRINGS] = d->name_blob_len;
  for (int s = 0; s < XS_COUNT; s++) {
    /* flag-dependent sections that are absent take no padding either; since the indices
     * align to 4 anyway, either reading gives the same offsets */
    int absent = (s == XS_NORMALS && !(d->flags & X42_MF_HAS_NORMALS)) ||
                 (s == XS_TANGENTS && !(d->flags & X42_MF_HAS_TANGENT_BASIS)) ||
                 (s == XS_TEXCOORDS && !(d->flags & X42_MF_HAS_TEXTURE_COORDINATES)) ||
                 (s == XS_COLORS && !(d->flags & X42_MF_HAS_COLORS));
    if (!absent)
      off = align_up(off, align[s]);
    lay->off[s] = off;
    lay->size[s] = size[s];
    off += size[s];
  }
  lay->end = off;
}

/* The blend section's length is set by the groups, read where the layout puts them. */
uint64_t x42_blend_len_at(struct reader *in, const struct x42_doc *d)
{
  struct x42_layout lay;
  uint64_t len = 0;
  x42_layout_compute(d, 0, &lay);
  if (!reader_has_array(in, lay.off[XS_GROUPS], d->num_groups, 148))
    return 0;
  for (uint32_t g = 0; g < d->num_groups; g++) {
    uint64_t rec = lay.off[XS_GROUPS] + 148u * (uint64_t)g;
    uint64_t m = reader_u16_at(in, rec + 4);
    if (m)
      len += (2 * m - 1) * (uint64_t)reader_u32_at(in, rec + 136);
  }
  return len;
}

static int finite_all(const float *v, int n)
{
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i]))
      return 0;
  return 1;
}

static void check_pack(struct x42_ctx *x, const float *mm, uint64_t off, const char *name)
{
  struct mdl_loc loc = loc_bin(off, "packHeader.%s", name);
  if (!finite_all(mm, 2)) {
    loc.offset = (long long)off + (isfinite(mm[0]) ? 4 : 0);
    diag_emit(x->diag, RULE_X42_PACK_RANGE_NOT_FINITE, &loc, "finite min and max", "{%g, %g}",
              (double)mm[0], (double)mm[1]);
    return;
  }
  if (mm[0] > mm[1]) {
    loc.offset = (long long)off + 4;
    diag_emit(x->diag, RULE_X42_PACK_RANGE_INVERTED, &loc, "min <= max", "{%g, %g}", (double)mm[0],
              (double)mm[1]);
  }
}

void x42_header_check(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  static const char *const axis[3] = {"x", "y", "z"};
  struct mdl_loc loc;
  char name[32];

  if (d->flags & ~X42_MF_KNOWN) {
    loc = loc_bin(X42_OFF_FLAGS, "header.modelFlags");
    diag_emit(x->diag, RULE_X42_FLAGS_UNKNOWN, &loc, "only bits 0x1 0x2 0x4 0x8 0x100", "0x%x",
              (unsigned)(d->flags & ~X42_MF_KNOWN));
  }
  if (reader_u16_at(x->in, X42_OFF_PAD)) {
    loc = loc_bin(X42_OFF_PAD, "header.pad");
    diag_emit(x->diag, RULE_X42_PADDING_NONZERO, &loc, "0", "0x%04x", reader_u16_at(x->in, X42_OFF_PAD));
  }
  if ((d->num_anim_groups == 0) != (d->num_bones == 0)) {
    loc = loc_bin(X42_OFF_NUM_ANIM_GROUPS, "header.numAnimGroups");
    diag_emit(x->diag, RULE_X42_ANIM_GROUPS_BONES, &loc, d->num_bones ? ">= 1 (the model has bones)" : "0 (no bones)",
              "%u", d->num_anim_groups);
  }
  if (d->num_anim_groups > X42_MAX_ANIM_GROUPS) {
    loc = loc_bin(X42_OFF_NUM_ANIM_GROUPS, "header.numAnimGroups");
    diag_emit(x->diag, RULE_X42_ANIM_GROUPS_MAX, &loc, "<= 32", "%u", d->num_anim_groups);
  }
  if ((uint32_t)d->key_len < 6u * d->num_bones) {
    loc = loc_bin(X42_OFF_KEY_LEN, "header.keyStreamLength");
    snprintf(name, sizeof name, ">= %u", 6u * d->num_bones);
    diag_emit(x->diag, RULE_X42_KEY_STREAM_SHORT, &loc, name, "%u", d->key_len);
  }
  if ((d->num_lods == 0) != (d->num_groups == 0)) {
    loc = loc_bin(X42_OFF_NUM_LODS, "header.numLods");
    diag_emit(x->diag, RULE_X42_LODS_GROUPS, &loc, d->num_groups ? ">= 1 (the model has groups)" : "0 (no groups)",
              "%u", d->num_lods);
  }
  if (d->num_verts == 0 && d->num_groups != 0) {
    loc = loc_bin(X42_OFF_NUM_VERTS, "header.numVerts");
    diag_emit(x->diag, RULE_X42_VERTS_GROUPS, &loc, ">= 1 (the model has groups)", "0");
  }
  for (int i = 0; i < 6; i++)
    if (!isfinite(d->bbox[i])) {
      loc = loc_bin(X42_OFF_BBOX + 4u * (unsigned)i, "header.boundingBox[%d]", i);
      diag_emit(x->diag, RULE_X42_BOUNDS_NOT_FINITE, &loc, "a finite number", "%g", (double)d->bbox[i]);
    }
  for (int i = 0; i < 4; i++)
    if (!isfinite(d->sphere[i])) {
      loc = loc_bin(X42_OFF_SPHERE + 4u * (unsigned)i, "header.boundingSphere[%d]", i);
      diag_emit(x->diag, RULE_X42_BOUNDS_NOT_FINITE, &loc, "a finite number", "%g", (double)d->sphere[i]);
    }
  for (int a = 0; a < 3; a++)
    if (d->bbox[a] > d->bbox[a + 3]) {
      loc = loc_bin(X42_OFF_BBOX + 12u + 4u * (unsigned)a, "header.boundingBox.maxs[%d]", a);
      diag_emit(x->diag, RULE_X42_BBOX_INVERTED, &loc, "mins <= maxs", "min %g > max %g",
                (double)d->bbox[a], (double)d->bbox[a + 3]);
    }
  if (d->sphere[3] < 0) {
    loc = loc_bin(X42_OFF_SPHERE + 12u, "header.boundingSphere.radius");
    diag_emit(x->diag, RULE_X42_SPHERE_RADIUS, &loc, ">= 0", "%g", (double)d->sphere[3]);
  }
  if (d->base_frame < -1 || (d->base_frame >= 0 && d->base_frame >= (int)d->num_frames && d->num_frames)) {
    loc = loc_bin(X42_OFF_BASE_FRAME, "header.baseFrame");
    snprintf(name, sizeof name, "-1 ... %d", (int)d->num_frames - 1);
    diag_emit(x->diag, RULE_X42_BASE_FRAME_RANGE, &loc, name, "%d", d->base_frame);
  }
  for (int a = 0; a < 3; a++) {
    snprintf(name, sizeof name, "animPosPack.%s", axis[a]);
    check_pack(x, d->anim_pos_pack[a], X42_OFF_PACK + 8u * (unsigned)a, name);
    snprintf(name, sizeof name, "vertPosPack.%s", axis[a]);
    check_pack(x, d->vert_pos_pack[a], X42_OFF_PACK + 32u + 8u * (unsigned)a, name);
  }
  check_pack(x, d->anim_scale_pack, X42_OFF_PACK + 24u, "animScalePack");
  check_pack(x, d->vert_tc_pack[0], X42_OFF_PACK + 56u, "vertTcPack.u");
  check_pack(x, d->vert_tc_pack[1], X42_OFF_PACK + 64u, "vertTcPack.v");
}
