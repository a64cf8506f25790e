/* qmsh_bones.c - the skeleton (v <= 20 and v >= 21 bone records) and the bone groups (after the
 * points in v <= 20, after the bones in v >= 21; v12: 0-based ids, none stored if n_groups < 2). */
#include <stdio.h>
#include <string.h>

#include "qmsh.h"

static void bone_parent_check(struct qmsh_dec *d, uint32_t k, uint64_t off)
{
  const struct qmsh_bone *b = &d->q->bones[k];
  char lim[16];
  if (b->parent > d->q->h.n_bones) {
    struct mdl_loc loc = loc_bin(off, "bones[%u].parent", k);
    snprintf(lim, sizeof lim, "%u", d->q->h.n_bones);
    diag_emit(d->diag, RULE_QMSH_BONE_PARENT_RANGE, &loc, lim, "%u", b->parent);
  } else if (b->parent >= k + 1) {
    struct mdl_loc loc = loc_bin(off, "bones[%u].parent", k);
    snprintf(lim, sizeof lim, "%u", k + 1);
    diag_emit(d->diag, RULE_QMSH_BONE_PARENT_ORDER, &loc, lim, "%u", b->parent);
  }
}

/* Defaults of the v21 fields for an older bone: the 4x4 form of mat, zero head and tail. */
static void bone_v21_defaults(struct qmsh_bone *b)
{
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 3; c++)
      b->raw_mat[r * 4 + c] = b->mat[r * 3 + c];
  b->raw_mat[15] = 1;
}

static int bone_read(struct qmsh_dec *d, uint32_t k)
{
  struct qmsh_bone *b = &d->q->bones[k];
  char path[LOC_PATH_MAX];
  uint64_t parent_off;

  d->bone_off[k] = d->pos;
  if (d->q->h.version >= 21) {
    snprintf(path, sizeof path, "bones[%u].name", k);
    if (qmsh_string(d, &b->name, path) < 0)
      return -1;
    snprintf(path, sizeof path, "bones[%u]", k);
    if (qmsh_need(d, 147, path) < 0)
      return -1;
  } else {
    snprintf(path, sizeof path, "bones[%u]", k);
    if (qmsh_need(d, 51, path) < 0)
      return -1;
  }
  parent_off = d->pos;
  b->parent = qmsh_u16(d);
  snprintf(path, sizeof path, "bones[%u].mat", k);
  qmsh_floats(d, b->mat, 12, path);
  if (d->q->h.version >= 21) {
    uint64_t off;
    snprintf(path, sizeof path, "bones[%u].raw_mat", k);
    qmsh_floats(d, b->raw_mat, 16, path);
    snprintf(path, sizeof path, "bones[%u].head", k);
    qmsh_floats(d, b->head, 4, path);
    snprintf(path, sizeof path, "bones[%u].tail", k);
    qmsh_floats(d, b->tail, 4, path);
    off = d->pos;
    b->connected = qmsh_u8(d);
    if (b->connected > 1) {
      struct mdl_loc loc = loc_bin(off, "bones[%u].connected", k);
      diag_emit(d->diag, RULE_QMSH_BONE_CONNECTED, &loc, "0 or 1", "%u", b->connected);
    }
  } else {
    snprintf(path, sizeof path, "bones[%u].name", k);
    if (qmsh_string(d, &b->name, path) < 0)
      return -1;
    bone_v21_defaults(b);
  }
  bone_parent_check(d, k, parent_off);
  return 0;
}

int qmsh_bones_read(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  uint32_t n = q->h.n_bones;
  if (qmsh_need_array(d, n, q->h.version >= 21 ? 148 : 52, "bones", 12,
                      "header.n_bones") < 0)
    return -1;
  q->bones = arena_calloc(&d->m->arena, (size_t)n + 1, sizeof *q->bones);
  d->bone_off = arena_calloc(&d->m->arena, (size_t)n + 1, sizeof *d->bone_off);
  if (!q->bones || !d->bone_off)
    return -1;
  for (uint32_t k = 0; k < n; k++)
    if (bone_read(d, k) < 0)
      return -1;
  return 0;
}

/* Bone id checks of one group; owner[id] = group index + 1 of the group that listed it. */
static void group_bones_check(struct qmsh_dec *d, uint32_t g, uint64_t ids_off, uint32_t *owner)
{
  struct qmsh_mesh *q = d->q;
  struct qmsh_group *gr = &q->groups[g];
  int v12 = q->h.version == 12;
  for (uint32_t i = 0; i < gr->count; i++) {
    uint32_t id = gr->bones[i]; /* already 1-based */
    struct mdl_loc loc = loc_bin(ids_off + i, "groups[%u].bones[%u]", g, i);
    if (id < 1 || id > q->h.n_bones) {
      char want[32];
      if (v12)
        snprintf(want, sizeof want, "0..%d (0-based in v12)", (int)q->h.n_bones - 1);
      else
        snprintf(want, sizeof want, "1..%u", q->h.n_bones);
      diag_emit(d->diag, RULE_QMSH_GROUP_BONE_RANGE, &loc, want, "%u",
                (unsigned)(uint8_t)(v12 ? id - 1 : id));
      continue;
    }
    if (owner[id]) {
      char where[32];
      snprintf(where, sizeof where, "groups[%u]", owner[id] - 1);
      diag_emit(d->diag, RULE_QMSH_GROUP_BONE_DUPLICATE, &loc, where, "%u",
                (unsigned)(uint8_t)(v12 ? id - 1 : id));
      continue;
    }
    owner[id] = g + 1;
  }
}

int qmsh_groups_read(struct qmsh_dec *d)
{
  struct qmsh_mesh *q = d->q;
  uint32_t n = q->h.n_groups, *owner;
  char path[LOC_PATH_MAX], ng[16];
  int v12 = q->h.version == 12;

  if (v12 && n < 2) {
    q->groups_implicit = 1; /* one implicit group holds every bone */
    return 0;
  }
  if (qmsh_need_array(d, n, 4, "groups", 18, "header.n_groups") < 0)
    return -1;
  q->groups = arena_calloc(&d->m->arena, (size_t)n + 1, sizeof *q->groups);
  owner = arena_calloc(&d->m->arena, (size_t)q->h.n_bones + 1, sizeof *owner);
  if (!q->groups || !owner)
    return -1;
  snprintf(ng, sizeof ng, "%u", n);
  for (uint32_t g = 0; g < n; g++) {
    struct qmsh_group *gr = &q->groups[g];
    uint64_t parent_off, ids_off;
    snprintf(path, sizeof path, "groups[%u].name", g);
    if (qmsh_string(d, &gr->name, path) < 0)
      return -1;
    snprintf(path, sizeof path, "groups[%u]", g);
    if (qmsh_need(d, 3, path) < 0)
      return -1;
    parent_off = d->pos;
    gr->parent = qmsh_u16(d);
    gr->count = qmsh_u8(d);
    /* a group's bone list is short: a cut inside it is unlikely, a wrong count is not */
    if (!reader_has(d->in, d->pos, gr->count)) {
      snprintf(path, sizeof path, "groups[%u].count", g);
      qmsh_truncated(d, parent_off + 2, gr->count, path);
      return -1;
    }
    ids_off = d->pos;
    gr->bones = arena_calloc(&d->m->arena, (size_t)gr->count + 1, 1);
    if (!gr->bones)
      return -1;
    for (uint32_t i = 0; i < gr->count; i++)
      gr->bones[i] = (uint8_t)(qmsh_u8(d) + (v12 ? 1 : 0));
    q->num_groups = g + 1;
    if (gr->parent >= n) {
      struct mdl_loc loc = loc_bin(parent_off, "groups[%u].parent", g);
      diag_emit(d->diag, RULE_QMSH_GROUP_PARENT_RANGE, &loc, ng, "%u", gr->parent);
    }
    /* v12 id 255 + 1 wraps to 0, which the range check reports as out of range */
    group_bones_check(d, g, ids_off, owner);
  }
  /* with no groups at all QMSH-LIM-008 has said it once */
  for (uint32_t k = 0; k < q->h.n_bones && n > 0; k++) {
    if (!owner[k + 1]) {
      struct mdl_loc loc = loc_bin(d->bone_off[k], "bones[%u]", k);
      diag_emit(d->diag, RULE_QMSH_GROUP_BONE_MISSING, &loc, NULL, "%u", v12 ? k : k + 1);
    }
  }
  return 0;
}
