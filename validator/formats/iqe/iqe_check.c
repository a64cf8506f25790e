/* iqe_check.c - whole-file checks once every line is read: array lengths, joint hierarchy,
 * base poses, frames, names, smoothing flags and mesh keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iqe.h"
#include "sort.h"

static void arrays_check(struct iqe_parser *p)
{
  iqe_vertex_check_finish(p);
  for (int k = 0; k < 10; k++) {
    const struct iqe_attr_arr *a = &p->attr[ATTR_V0 + k];
    char type[16];
    if (a->count == 0 || p->layout[7 + k].declared)
      continue;
    snprintf(type, sizeof type, "custom%d", k);
    iqe_emit(p, RULE_IQE_CUSTOM_UNUSED, a->first_line, 0, type, "v%d", k);
  }
}

/* A joint name used more than once: each later use is reported, in the order of (name, index),
 * with the one before it. The joint names' set marks each repeated name, so a file without a
 * repeated name sorts nothing, and one with a few repeated names (the usual slip, or a file of
 * `joint` lines) walks the joints once per name instead of holding an index per joint. */
static uint32_t joint_line(const struct iqe_parser *p, uint32_t k)
{
  return iqe_lines_get(&p->joint_lines, k);
}

/* strcmp's order of two names read from the text (neither holds a NUL) */
static int name_order(const char *a, size_t la, const char *b, size_t lb)
{
  int c = memcmp(a, b, la < lb ? la : lb);
  return c ? c : (la > lb) - (la < lb);
}

/* the order of two joint names */
static int joint_name_order(const struct iqe_parser *p, uint32_t x, uint32_t y)
{
  const char *a, *b;
  size_t la, lb;
  if (x == y)
    return 0;
  iqe_name_set_name(p, &p->joint_set, x, &a, &la);
  iqe_name_set_name(p, &p->joint_set, y, &b, &lb);
  return name_order(a, la, b, lb);
}

static void joint_duplicate(struct iqe_parser *p, uint32_t k, uint32_t before)
{
  char first[16];
  const char *s;
  size_t len;
  uint32_t line = joint_line(p, k);
  /* a report past the rule's located repeats is only counted: its column is not read again */
  uint32_t col = diag_wanted(p->ctx->diag, RULE_IQE_JOINT_NAME_DUPLICATE) ? iqe_line_col(p, line, 1) : 1;
  iqe_name_set_name(p, &p->joint_set, p->joints[k].name, &s, &len);
  snprintf(first, sizeof first, "%u", before);
  iqe_emit(p, RULE_IQE_JOINT_NAME_DUPLICATE, line, col, first, "%.*s", (int)len, s);
}

static int joint_key_cmp(uint32_t x, uint32_t y, const void *ctx)
{
  const struct iqe_parser *p = ctx;
  int c = joint_name_order(p, p->joints[x].name, p->joints[y].name);
  return c ? c : (x > y) - (x < y);
}

static void joint_duplicates_check(struct iqe_parser *p)
{
  const struct iqe_name_set *set = &p->joint_set;
  uint32_t few[IQE_NAME_SET_FEW], nfew = set->num_rep;
  if (nfew == 0)
    return;
  if (nfew <= IQE_NAME_SET_FEW) {
    /* the repeated names in order, each one's joints in file order */
    memcpy(few, set->few, nfew * sizeof *few);
    for (uint32_t i = 1; i < nfew; i++)
      for (uint32_t k = i; k > 0 && joint_name_order(p, few[k - 1], few[k]) > 0; k--) {
        uint32_t t = few[k];
        few[k] = few[k - 1];
        few[k - 1] = t;
      }
    for (uint32_t i = 0; i < nfew; i++) {
      uint32_t before = UINT32_MAX;
      for (uint32_t k = 0; k < p->num_joints; k++)
        if (p->joints[k].name == few[i]) {
          if (before != UINT32_MAX)
            joint_duplicate(p, k, before);
          before = k;
        }
    }
    return;
  }
  {
    /* the joints of repeated names, sorted by (name, index) */
    uint32_t n = 0, *v = malloc(((size_t)p->num_joints + 1) * sizeof *v);
    if (!v) {
      p->scratch.failed = 1;
      return;
    }
    for (uint32_t k = 0; k < p->num_joints; k++)
      if (iqe_name_set_repeated(set, p->joints[k].name))
        v[n++] = k;
    if (sort_u32(v, n, joint_key_cmp, p) < 0)
      p->scratch.failed = 1;
    else
      for (uint32_t i = 1; i < n; i++)
        if (p->joints[v[i]].name == p->joints[v[i - 1]].name)
          joint_duplicate(p, v[i], v[i - 1]);
    free(v);
  }
}

/* Animations: each later use of a name reported with the one before it, in the order of (name,
 * index). The dummy names ("animation<index>") differ from each other, so a file naming no
 * animation sorts nothing. */
static int anim_key_cmp(uint32_t x, uint32_t y, const void *ctx)
{
  const struct iqe_parser *p = ctx;
  char bx[32], by[32];
  size_t lx, ly;
  const char *sx = iqe_anim_name(p, x, bx, &lx), *sy = iqe_anim_name(p, y, by, &ly);
  int c = name_order(sx, lx, sy, ly);
  return c ? c : (x > y) - (x < y);
}

/* The unnamed animation a name stands for ('animation<a>' exactly as iqe_anim_name writes it,
 * a below n and unnamed), or UINT32_MAX. */
static uint32_t anim_default_named(const struct iqe_parser *p, const char *name, size_t len, uint32_t n)
{
  uint64_t a = 0;
  const char *d = name + 9, *end = name + len;
  if (len < 10 || memcmp(name, "animation", 9) || (d[0] == '0' && len > 10))
    return UINT32_MAX;
  for (; d < end; d++) {
    if (*d < '0' || *d > '9' || (a = a * 10 + (uint64_t)(*d - '0')) >= n)
      return UINT32_MAX;
  }
  return p->anims[a].name == IQE_ANIM_UNNAMED ? (uint32_t)a : UINT32_MAX;
}

static void anim_duplicates_check(struct iqe_parser *p)
{
  uint32_t n = p->num_anims, named = 0, k = 0, *v;
  uint8_t *pick;
  for (uint32_t a = 0; a < n && !named; a++)
    named = p->anims[a].name != IQE_ANIM_UNNAMED;
  if (n < 2 || !named)
    return;
  /* Two unnamed animations never share a name ('animation<index>'), so only the named ones
   * whose name repeats and the pairs of a name and the unnamed one it spells are sorted: an
   * animation in no pair of equals reports nothing, and leaving it out keeps the others' order
   * (a file of unique names sorts nothing; thousands of unnamed ones would otherwise be
   * formatted in every comparison of the sort). */
  pick = calloc(n, 1);
  if (!pick) {
    p->scratch.failed = 1;
    return;
  }
  for (uint32_t a = 0; a < n; a++)
    if (p->anims[a].name != IQE_ANIM_UNNAMED) {
      char buf[32];
      size_t len;
      const char *s = iqe_anim_name(p, a, buf, &len);
      uint32_t u = anim_default_named(p, s, len, n);
      if (u != UINT32_MAX)
        pick[a] = pick[u] = 1;
      else if (iqe_name_set_repeated(&p->anim_set, p->anims[a].name))
        pick[a] = 1;
    }
  for (uint32_t a = 0; a < n; a++)
    k += pick[a];
  v = k ? malloc((size_t)k * sizeof *v) : NULL;
  if (k && !v) {
    free(pick);
    p->scratch.failed = 1;
    return;
  }
  k = 0;
  for (uint32_t a = 0; a < n; a++)
    if (pick[a])
      v[k++] = a;
  free(pick);
  if (k && sort_u32(v, k, anim_key_cmp, p) < 0)
    p->scratch.failed = 1;
  else
    for (uint32_t i = 1; i < k; i++) {
      char first[16], bx[32], by[32];
      size_t len, len0;
      const char *name = iqe_anim_name(p, v[i], bx, &len), *name0 = iqe_anim_name(p, v[i - 1], by, &len0);
      if (len != len0 || memcmp(name, name0, len))
        continue;
      snprintf(first, sizeof first, "%u", v[i - 1]);
      iqe_emit(p, RULE_IQE_ANIMATION_NAME_DUPLICATE, p->anims[v[i]].line, 0, first, "%.*s", (int)len, name);
    }
  free(v);
}

static void joints_check(struct iqe_parser *p)
{
  uint32_t n = p->num_joints;
  uint8_t *state;
  if (n == 0)
    return;
  state = arena_calloc(&p->scratch, n, 1);
  if (!state)
    return;
  for (uint32_t i = 0; i < n; i++) {
    struct iqe_joint *j = &p->joints[i];
    if (j->parent >= (int32_t)n) {
      char path[32], why[64];
      uint32_t line = joint_line(p, i);
      snprintf(path, sizeof path, "joint %u", i);
      snprintf(why, sizeof why, "the file has %u joints", n);
      iqe_emit_path(p, RULE_IQE_JOINT_PARENT_RANGE, line, iqe_line_col(p, line, 2), path, why, "%d",
                    j->parent);
      j->parent = -1;
      state[i] = 2;
    }
  }
  /* walk each chain; 1 = on the current walk, 2 = known to reach a root */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t k = i;
    while (state[k] == 0) {
      state[k] = 1;
      if (p->joints[k].parent < 0) {
        break;
      }
      k = (uint32_t)p->joints[k].parent;
    }
    {
      uint32_t cyc = state[k] == 1 && p->joints[k].parent >= 0 ? k : UINT32_MAX;
      /* mark this walk done while its parents are intact (the walk ends at a done joint) */
      for (k = i; state[k] == 1; k = (uint32_t)p->joints[k].parent) {
        state[k] = 2;
        if (p->joints[k].parent < 0)
          break;
      }
      if (cyc != UINT32_MAX) {
        /* cyc is on a cycle, which has a joint whose parent is not listed before it (a cycle
         * cannot only go back): the likely slip, so report the first such joint and cut there */
        char path[32];
        struct iqe_joint *j;
        uint32_t start = cyc, steps = 0, best = UINT32_MAX, line;
        k = start;
        do {
          if (p->joints[k].parent >= (int32_t)k && k < best)
            best = k;
          k = (uint32_t)p->joints[k].parent;
        } while (k != start && ++steps < n);
        if (best != UINT32_MAX)
          cyc = best;
        j = &p->joints[cyc];
        line = joint_line(p, cyc);
        snprintf(path, sizeof path, "joint %u", cyc);
        iqe_emit_path(p, RULE_IQE_JOINT_PARENT_CYCLE, line, iqe_line_col(p, line, 2), path, NULL,
                      "parent %d leads back to joint %u", j->parent, cyc);
        j->parent = -1;
      }
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    const struct iqe_joint *j = &p->joints[i];
    if (j->parent > (int32_t)i) {
      char path[32];
      uint32_t line = joint_line(p, i);
      snprintf(path, sizeof path, "joint %u", i);
      iqe_emit_path(p, RULE_IQE_JOINT_PARENT_FORWARD, line, iqe_line_col(p, line, 2), path,
                    "an IQM compiled from it breaks loaders that build poses in one forward pass",
                    "%d", j->parent);
    }
  }
  joint_duplicates_check(p);
}

static void poses_check(struct iqe_parser *p)
{
  uint32_t nj = p->num_joints;
  if (nj == 0) {
    if (p->num_poses > 0)
      iqe_emit(p, RULE_IQE_POSE_WITHOUT_JOINT, p->pose_lines[0], 0, NULL, "%u", p->num_poses);
  } else if (p->num_base_poses > nj) {
    iqe_emit(p, RULE_IQE_BASE_POSE_COUNT, p->pose_lines[nj], 0, "one base pose per joint",
             "%u base poses for %u joints: this one has no joint", p->num_base_poses, nj);
  } else if (p->num_base_poses < nj && (p->num_base_poses > 0 || p->num_frames == 0)) {
    char actual[96];
    snprintf(actual, sizeof actual, "%u base poses for %u joints: joint %u has none",
             p->num_base_poses, nj, p->num_base_poses);
    iqe_emit(p, RULE_IQE_BASE_POSE_COUNT, joint_line(p, p->num_base_poses), 0,
             "one base pose per joint", "%s", actual);
  }
  for (uint32_t f = 0; f < p->num_frames && nj > 0; f++) {
    const struct iqe_frame *fr = &p->frames[f];
    char expected[48];
    if (fr->num_poses == nj)
      continue;
    snprintf(expected, sizeof expected, "one pose for each of the %u joints", nj);
    if (fr->num_poses > nj)
      iqe_emit(p, RULE_IQE_FRAME_POSE_COUNT, p->pose_lines[fr->first_pose + nj], 0, expected,
               "frame %u has %u poses", f, fr->num_poses);
    else
      iqe_emit(p, RULE_IQE_FRAME_POSE_COUNT, fr->line, 0, expected, "frame %u has %u poses", f,
               fr->num_poses);
  }
  for (uint32_t a = 0; a < p->num_anims; a++)
    if (p->anims[a].num_frames == 0) {
      char buf[32];
      size_t len;
      const char *name = iqe_anim_name(p, a, buf, &len);
      iqe_emit(p, RULE_IQE_ANIMATION_EMPTY, p->anims[a].line, 0, NULL, "'%.*s'", (int)len, name);
    }
  anim_duplicates_check(p);
}

struct mesh_key { const struct iqe_mesh *me; uint32_t order; };

static int mesh_key_cmp(const void *a, const void *b)
{
  const struct mesh_key *x = a, *y = b;
  int c = strcmp(x->me->name, y->me->name);
  if (!c)
    c = strcmp(x->me->material, y->me->material);
  return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The compiler merges a repeated (name, material) into the earlier mesh entry and loses the
 * block's triangles unless it directly follows (among meshes with faces) one with that key. */
static void meshes_repeated_check(struct iqe_parser *p)
{
  struct mesh_key *k = arena_calloc(&p->scratch, (size_t)p->num_mesh_recs + 1, sizeof *k);
  uint32_t n = 0;
  if (!k)
    return;
  for (uint32_t i = 0; i < p->num_mesh_recs; i++)
    if (p->meshes[i].num_triangles > 0) {
      k[n].me = &p->meshes[i];
      k[n].order = n;
      n++;
    }
  qsort(k, n, sizeof *k, mesh_key_cmp);
  for (uint32_t i = 1; i < n; i++) {
    char first[16];
    if (strcmp(k[i].me->name, k[i - 1].me->name) || strcmp(k[i].me->material, k[i - 1].me->material) ||
        k[i].order == k[i - 1].order + 1)
      continue;
    snprintf(first, sizeof first, "%u", k[i - 1].me->line);
    iqe_emit(p, RULE_IQE_MESH_REPEATED, k[i].me->line, 0, first, "'%s' / '%s'", k[i].me->name,
             k[i].me->material);
  }
}

static void faces_check(struct iqe_parser *p)
{
  uint32_t faces = p->num_faces, fs = p->num_fs;
  if (fs > 0) {
    if (p->fs_mismatch.found) {
      /* the first fs whose flag count is not its face's index count (iqe_face_pair) */
      char expected[64];
      snprintf(expected, sizeof expected, "face %u (line %u) has %u indexes", p->fs_mismatch.k,
               p->fs_mismatch.face_line, p->fs_mismatch.face_arity);
      iqe_emit(p, RULE_IQE_SMOOTH_FLAGS_MISMATCH, p->fs_mismatch.fs_line, 0, expected,
               "fs %u has %u flags", p->fs_mismatch.k, p->fs_mismatch.fs_arity);
    }
    if (fs != faces) {
      char expected[48];
      snprintf(expected, sizeof expected, "one fs per face command (%u)", faces);
      iqe_emit(p, RULE_IQE_SMOOTH_FLAGS_MISMATCH, fs > faces ? p->fs_unpaired_line : p->face_unpaired_line,
               0, expected, "%u fs commands", fs);
    }
  }
  meshes_repeated_check(p);
  if (p->counts[CMD_FA] + p->counts[CMD_FM] == 0 && iqe_vertex_count(p) > 0) {
    uint32_t nv = iqe_vertex_count(p), first = 0, last = 0;
    for (int i = 0; i < ATTR_COUNT; i++)
      if (p->attr[i].count == nv) {
        first = p->attr[i].first_line;
        last = p->attr[i].last_line;
        break;
      }
    iqe_emit(p, RULE_IQE_NO_TRIANGLE_DATA, first, 0, NULL, "%u", nv);
    if (p->num_meshes == 0) {
      if (nv % 3)
        iqe_emit(p, RULE_IQE_VERTEX_GROUPS_INCOMPLETE, last, 0,
                 "a multiple of 3 (the last vertexes form no triangle)", "%u", nv);
    } else {
      /* the meshes holding vertices (the vertex count can shrink once vp appears: a mesh with
       * an inverted range holds none) */
      for (uint32_t i = 0; i < p->num_spans; i++) {
        const struct iqe_mesh_span *me = &p->spans[i];
        uint32_t k = me->end_vertex - me->first_vertex;
        if (k % 3)
          iqe_emit(p, RULE_IQE_VERTEX_GROUPS_INCOMPLETE, me->line, 0,
                   "a multiple of 3 (the last vertexes form no triangle)", "%u", k);
      }
    }
  }
}

void iqe_check_finish(struct iqe_parser *p)
{
  iqe_anim_close_frame(p, 0);
  iqe_mesh_close(p);
  arrays_check(p);
  joints_check(p);
  poses_check(p);
  faces_check(p);
}
