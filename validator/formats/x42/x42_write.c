/* x42_write.c - the V5 writer. A model decoded from X42 keeps its document (format_data) and is
 * re-encoded sample for sample, so decode -> write -> decode is exact; any other model is
 * built into a document first (x42_build.c), quantizing within the bounds the catalogue states. */
#include <stdio.h>
#include <string.h>

#include "x42.h"
#include "write_loss.h"

static void put_affine(struct byte_buf *b, const float m[12])
{
  for (int i = 0; i < 12; i++)
    buf_f32(b, m[i]);
}

int x42_doc_encode(const struct x42_doc *d, struct byte_buf *b)
{
  uint64_t nv = d->num_verts;
  unsigned scale_n = (d->flags & X42_MF_UNIFORM_SCALE) ? 1u : 3u;
  buf_u32(b, X42_IDENT);
  buf_u32(b, X42_VERSION_V5);
  buf_u16(b, d->flags);
  buf_u16(b, (uint16_t)d->base_frame);
  buf_u16(b, d->num_frames);
  buf_u16(b, d->name_blob_len);
  buf_u16(b, d->num_bones);
  buf_u16(b, d->num_anim_groups);
  buf_u16(b, d->num_pos);
  buf_u16(b, d->num_rot);
  buf_u16(b, d->num_scale);
  buf_u16(b, d->key_len);
  buf_u16(b, d->num_anims);
  buf_u16(b, d->num_tags);
  buf_u16(b, d->num_infl);
  buf_u16(b, d->num_lods);
  buf_u16(b, d->num_groups);
  buf_u16(b, 0);
  buf_u32(b, d->num_verts);
  buf_u32(b, d->num_indices);
  for (int i = 0; i < 6; i++)
    buf_f32(b, d->bbox[i]);
  for (int i = 0; i < 4; i++)
    buf_f32(b, d->sphere[i]);
  for (int a = 0; a < 3; a++)
    buf_f32(b, d->anim_pos_pack[a][0]), buf_f32(b, d->anim_pos_pack[a][1]);
  buf_f32(b, d->anim_scale_pack[0]);
  buf_f32(b, d->anim_scale_pack[1]);
  for (int a = 0; a < 3; a++)
    buf_f32(b, d->vert_pos_pack[a][0]), buf_f32(b, d->vert_pos_pack[a][1]);
  for (int a = 0; a < 2; a++)
    buf_f32(b, d->vert_tc_pack[a][0]), buf_f32(b, d->vert_tc_pack[a][1]);

  buf_align(b, 8);
  for (uint32_t i = 0; i < d->num_bones; i++) {
    buf_u16(b, d->bones[i].name);
    buf_u16(b, d->bones[i].flags);
    buf_u16(b, d->bones[i].parent);
    buf_u16(b, 0);
    buf_f32(b, d->bones[i].extent);
  }
  buf_align(b, 8);
  for (uint32_t i = 0; i < d->num_anim_groups; i++) {
    buf_u16(b, d->anim_groups[i].name);
    buf_u16(b, d->anim_groups[i].begin);
    buf_u16(b, d->anim_groups[i].end);
  }
  buf_align(b, 2);
  for (uint64_t i = 0; i < 3u * (uint64_t)d->num_pos; i++)
    buf_u16(b, d->pos_values[i]);
  for (uint64_t i = 0; i < scale_n * (uint64_t)d->num_scale; i++)
    buf_u16(b, d->scale_values[i]);
  for (uint64_t i = 0; i < 4u * (uint64_t)d->num_rot; i++)
    buf_u16(b, (uint16_t)d->rot_values[i]);
  buf_align(b, 8);
  for (uint32_t i = 0; i < d->key_len; i++) {
    buf_u16(b, d->keys[i].type);
    buf_u16(b, d->keys[i].bone);
    buf_u16(b, d->keys[i].frame);
    buf_u16(b, d->keys[i].value);
  }
  buf_align(b, 8);
  for (uint32_t i = 0; i < d->num_anims; i++) {
    const struct x42_anim *a = &d->anims[i];
    buf_u16(b, a->name);
    buf_u16(b, a->first);
    buf_u16(b, a->last);
    buf_u16(b, a->loop_start);
    buf_u16(b, a->loop_end);
    buf_u16(b, a->rate);
  }
  buf_align(b, 8);
  for (uint32_t i = 0; i < d->num_tags; i++) {
    buf_u16(b, d->tags[i].name);
    buf_u16(b, d->tags[i].bone);
    put_affine(b, d->tags[i].m);
  }
  buf_align(b, 8);
  for (uint32_t i = 0; i < d->num_infl; i++) {
    buf_u16(b, d->influences[i].bone);
    buf_u16(b, 0);
    put_affine(b, d->influences[i].m);
  }
  buf_align(b, 8);
  for (uint32_t i = 0; i < d->num_lods; i++) {
    buf_u16(b, d->lods[i].name);
    buf_u16(b, d->lods[i].first_group);
    buf_u16(b, d->lods[i].num_groups);
  }
  buf_align(b, 8);
  for (uint32_t i = 0; i < d->num_groups; i++) {
    const struct x42_group *g = &d->groups[i];
    buf_u16(b, g->material);
    buf_u16(b, g->surface);
    buf_u16(b, g->max_infl);
    buf_u16(b, g->num_infl);
    for (unsigned k = 0; k < X42_MAX_PALETTE; k++)
      buf_u16(b, g->palette[k]);
    buf_u16(b, g->prim);
    buf_u16(b, 0);
    buf_u32(b, g->first_vert);
    buf_u32(b, g->num_verts);
    buf_u32(b, g->first_index);
    buf_u32(b, g->num_elems);
  }
  buf_align(b, 2);
  for (uint64_t i = 0; i < 3 * nv; i++)
    buf_u16(b, d->vert_pos[i]);
  buf_put(b, d->blend, (size_t)d->blend_len);
  if (d->flags & X42_MF_HAS_NORMALS)
    buf_put(b, d->normals, (size_t)(3 * nv));
  if (d->flags & X42_MF_HAS_TANGENT_BASIS)
    buf_put(b, d->tangents, (size_t)(7 * nv));
  if (d->flags & X42_MF_HAS_TEXTURE_COORDINATES) {
    buf_align(b, 2);
    for (uint64_t i = 0; i < 2 * nv; i++)
      buf_u16(b, d->texcoords[i]);
  }
  if (d->flags & X42_MF_HAS_COLORS) {
    buf_align(b, 4);
    buf_put(b, d->colors, (size_t)(4 * nv));
  }
  buf_align(b, 4);
  for (uint32_t i = 0; i < d->num_indices; i++)
    buf_u16(b, d->indices[i]);
  buf_put(b, d->strings, d->name_blob_len);
  if (b->oom) {
    strcpy(b->error, "out of memory");
    return -1;
  }
  return 0;
}

int x42_write(const struct model *m, const struct write_opts *opts, struct byte_buf *out)
{
  const struct x42_doc *d = m->format_data;
  struct arena scratch;
  struct x42_doc built;
  int rc;
  if (opts && opts->version && strcmp(opts->version, "5") && strcmp(opts->version, "101") &&
      strcmp(opts->version, "V5")) {
    snprintf(out->error, sizeof out->error, "x42: can write V5 (101) only, not '%s'", opts->version);
    return -1;
  }
  /* the document is re-encoded only when X42 decoded it (owner, or the document's tag) */
  if (d && (m->format_data_owner ? !strcmp(m->format_data_owner, "x42") : d->magic == X42_DOC_MAGIC))
    return x42_doc_encode(d, out);
  write_loss_unheld(opts ? opts->losses : NULL, m, "X42");
  if (opts && opts->foreign && write_refuse_nothing(opts->losses, m, out, "X42") < 0)
    return -1; /* a conversion of nothing; the writer itself writes an empty model */
  write_loss_influences(opts ? opts->losses : NULL, m, X42_MAX_INFLUENCES, "X42");
  write_loss_texture_names(opts ? opts->losses : NULL, m, "X42");
  write_loss_tag_display(opts ? opts->losses : NULL, m, "X42");
  write_loss_empty_meshes(opts ? opts->losses : NULL, m, "X42",
                          !m->num_vertexes || !model_varray_find(m, VT_POSITION, 3));
  arena_init(&scratch);
  rc = x42_doc_build(m, &scratch, &built, opts ? opts->losses : NULL, out->error, sizeof out->error);
  if (rc == -2) { /* memory ran out: no verdict (exit 70), not the writer's refusal (MDL-CNV-001) */
    out->oom = 1;
    rc = -1;
  }
  if (rc == 0)
    rc = x42_doc_encode(&built, out);
  arena_free(&scratch);
  return rc;
}
