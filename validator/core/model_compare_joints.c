/* model_compare_joints.c - joints matched by name: a loader finds a joint by its name, its parent
 * by the parent's, and a vertex's joint through its skin; the order a file lists them in is the
 * writer's choice (IQM files come breadth-first, the Egg writer prints the hierarchy
 * depth-first). When both sides name the same joints, each once, in another order, B is
 * compared as a copy put in A's order: its joints, parents, frames, quantization, blend indexes
 * and tags renumbered; B's places in its own file are found through the map (cmp_b_index). */
#include <stdlib.h>
#include <string.h>

#include "model_compare_ctx.h"
#include "sort.h"

static int name_cmp(uint32_t u, uint32_t v, const void *ctx)
{
  const struct model *m = ctx;
  return strcmp(m->joints[u].name, m->joints[v].name);
}

/* The joints of m sorted by name into order (num_joints); -1 when a name is missing or repeated
 * (no map: the names do not say which joint is which), -2 out of memory. */
static int sorted_names(const struct model *m, uint32_t *order)
{
  for (uint32_t i = 0; i < m->num_joints; i++) {
    if (!m->joints[i].name || !m->joints[i].name[0])
      return -1;
    order[i] = i;
  }
  if (sort_u32(order, m->num_joints, name_cmp, m) < 0)
    return -2;
  for (uint32_t i = 1; i < m->num_joints; i++)
    if (!strcmp(m->joints[order[i - 1]].name, m->joints[order[i]].name))
      return -1;
  return 0;
}

/* Blend index j renumbered through inv, written back in the array's own format; 0 when the
 * format cannot be rewritten here (the map is then not used). */
static int put_index(unsigned char *p, uint32_t format, double j)
{
  switch (format) {
  case VF_UBYTE: case VF_BYTE: *p = (unsigned char)(int)j; return 1;
  case VF_USHORT: case VF_SHORT: {
    uint32_t v = (uint32_t)(int32_t)j;
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
    return 1;
  }
  case VF_UINT: case VF_INT: {
    uint32_t v = (uint32_t)(int64_t)j;
    for (int k = 0; k < 4; k++)
      p[k] = (unsigned char)(v >> (8 * k));
    return 1;
  }
  case VF_FLOAT: {
    float f = (float)j;
    uint32_t v;
    memcpy(&v, &f, 4);
    for (int k = 0; k < 4; k++)
      p[k] = (unsigned char)(v >> (8 * k));
    return 1;
  }
  default: return 0;
  }
}

/* perm: b in A's order (bmap[i]: B's joint of A's joint i; inv the reverse), in arena ar. 0 when
 * built, -1 when b cannot be renumbered (nothing is then mapped), -2 out of memory. */
static int permute(const struct model *b, const uint32_t *bmap, const uint32_t *inv, struct arena *ar,
                   struct model *perm)
{
  uint32_t n = b->num_joints;
  *perm = *b; /* shares b's arrays but those replaced below; perm's arena is never used */
  if (!(perm->joints = arena_calloc(ar, n, sizeof *perm->joints)))
    return -2;
  for (uint32_t i = 0; i < n; i++) {
    perm->joints[i] = b->joints[bmap[i]];
    if (perm->joints[i].parent >= 0)
      perm->joints[i].parent = (int32_t)inv[perm->joints[i].parent];
  }
  if (b->num_poses) {
    if (b->pose_parents) {
      int32_t *pp = arena_calloc(ar, n, sizeof *pp);
      if (!pp)
        return -2;
      for (uint32_t i = 0; i < n; i++)
        pp[i] = b->pose_parents[bmap[i]] >= 0 && (uint32_t)b->pose_parents[bmap[i]] < n
                  ? (int32_t)inv[b->pose_parents[bmap[i]]] : b->pose_parents[bmap[i]];
      perm->pose_parents = pp;
    }
    if (b->channels) {
      struct model_channels *ch = arena_calloc(ar, n, sizeof *ch);
      if (!ch)
        return -2;
      for (uint32_t i = 0; i < n; i++)
        ch[i] = b->channels[bmap[i]];
      perm->channels = ch;
    }
    if (b->frames && b->num_frames) {
      struct trs *fr = arena_calloc(ar, (size_t)b->num_frames * n, sizeof *fr);
      if (!fr)
        return -2;
      for (size_t f = 0; f < b->num_frames; f++)
        for (uint32_t i = 0; i < n; i++)
          fr[f * n + i] = b->frames[f * n + bmap[i]];
      perm->frames = fr;
    }
  }
  if (b->num_tags) {
    struct model_tag *t = arena_calloc(ar, b->num_tags, sizeof *t);
    if (!t)
      return -2;
    for (uint32_t i = 0; i < b->num_tags; i++) {
      t[i] = b->tags[i];
      if (t[i].joint >= 0 && (uint32_t)t[i].joint < n)
        t[i].joint = (int32_t)inv[t[i].joint];
    }
    perm->tags = t;
  }
  if (b->num_varrays) {
    struct model_varray *va = arena_calloc(ar, b->num_varrays, sizeof *va);
    if (!va)
      return -2;
    memcpy(va, b->varrays, b->num_varrays * sizeof *va);
    perm->varrays = va;
    for (uint32_t k = 0; k < b->num_varrays; k++) {
      uint32_t eb = vformat_bytes(va[k].format);
      size_t count = (size_t)b->num_vertexes * va[k].size;
      unsigned char *d;
      if (va[k].type != VT_BLENDINDEXES || !va[k].data || !count)
        continue;
      if (!eb || !(d = arena_calloc(ar, count, eb)))
        return eb ? -2 : -1;
      memcpy(d, va[k].data, count * eb);
      for (size_t x = 0; x < count; x++) {
        double j = vformat_get(d + x * eb, va[k].format, 0);
        if (j >= 0 && j < n && j == (double)(uint32_t)j && !put_index(d + x * eb, va[k].format, inv[(uint32_t)j]))
          return -1;
      }
      va[k].data = d;
    }
  }
  return 0;
}

int cmp_joints_by_name(struct cmp *c, struct model *perm, struct arena *ar)
{
  const struct model *a = c->a->model, *b = c->b->model;
  uint32_t n = a->num_joints, *oa, *ob, *bmap, *inv, i;
  int rc, same = 1;
  if (!n || n != b->num_joints || (a->num_poses && a->num_poses != n) || (b->num_poses && b->num_poses != n))
    return 0;
  oa = arena_calloc(ar, n, sizeof *oa);
  ob = arena_calloc(ar, n, sizeof *ob);
  bmap = arena_calloc(ar, n, sizeof *bmap);
  inv = arena_calloc(ar, n, sizeof *inv);
  if (!oa || !ob || !bmap || !inv)
    return -2;
  if ((rc = sorted_names(a, oa)) < 0 || (rc = sorted_names(b, ob)) < 0)
    return rc == -2 ? -2 : 0;
  for (i = 0; i < n; i++) {
    if (strcmp(a->joints[oa[i]].name, b->joints[ob[i]].name))
      return 0; /* another set of names: compared by index, each difference found there */
    bmap[oa[i]] = ob[i];
    inv[ob[i]] = oa[i];
    same &= oa[i] == ob[i];
  }
  if (same)
    return 0;
  if ((rc = permute(b, bmap, inv, ar, perm)) < 0)
    return rc == -2 ? -2 : 0;
  c->bmap = bmap;
  return 1;
}

void cmp_b_index(const struct cmp *c, enum format_elem e, uint32_t *n, uint32_t *sub)
{
  if (!c->bmap)
    return;
  if ((e == FMT_EL_JOINT || e == FMT_EL_BASEPOSE) && *n < c->b->model->num_joints)
    *n = c->bmap[*n];
  else if (e == FMT_EL_FRAME && *sub < c->b->model->num_joints)
    *sub = c->bmap[*sub];
}
