/* iqm_sections.c - where each section and vertex array lies: offset 0 exactly when empty (R4),
 * 4-byte alignment (R5), inside the file past the header in 64-bit arithmetic (R7), no two
 * claiming the same bytes (R8).
 * Which field broke a bad extent is decided in iqm_layout.c. */
#include <stdio.h>
#include <stdlib.h>

#include "iqm.h"

static const char *const section_names[S_COUNT] = {
  "text", "meshes", "vertexarrays", "triangles", "adjacency", "joints", "poses", "anims",
  "frames", "bounds", "comment"
};

static const char *const header_fields[31] = {
  NULL, NULL, NULL, NULL, "version", "filesize", "flags", "num_text", "ofs_text", "num_meshes",
  "ofs_meshes", "num_vertexarrays", "num_vertexes", "ofs_vertexarrays", "num_triangles",
  "ofs_triangles", "ofs_adjacency", "num_joints", "ofs_joints", "num_poses", "ofs_poses",
  "num_anims", "ofs_anims", "num_frames", "num_framechannels", "ofs_frames", "ofs_bounds",
  "num_comment", "ofs_comment", "num_extensions", "ofs_extensions"
};

/* A structural path for a header field or a vertex array record field. */
static void field_path(const struct iqm *q, uint32_t field, char *out, size_t cap)
{
  if (field < IQM_HEADER_SIZE && field >= 16) {
    snprintf(out, cap, "header.%s", header_fields[field / 4]);
    return;
  }
  if (q->sec[S_VARRAYS].ok && field >= q->sec[S_VARRAYS].ofs) {
    static const char *const va_fields[5] = {"type", "flags", "format", "size", "offset"};
    uint64_t rel = field - q->sec[S_VARRAYS].ofs;
    snprintf(out, cap, "vertexarrays[%llu].%s", (unsigned long long)(rel / 20),
             va_fields[(rel % 20) / 4]);
    return;
  }
  snprintf(out, cap, "header");
}

static void extent_name(const struct iqm_extent *e, char *out, size_t cap)
{
  if (e->index < S_COUNT)
    snprintf(out, cap, "%s", section_names[e->index]);
  else
    snprintf(out, cap, "vertexarrays[%d] data", e->index - S_COUNT);
}

const unsigned char *iqm_section_data(struct iqm *q, enum iqm_section s)
{
  if (!q->sec[s].ok || q->sec[s].len == 0)
    return NULL;
  return reader_ptr(q->in, q->sec[s].ofs, q->sec[s].len);
}

static void extent_set(struct iqm_extent *e, int index, uint64_t ofs, uint64_t count,
                       uint64_t elem, uint32_t ofs_field, uint32_t count_field)
{
  e->index = index;
  e->ofs = ofs;
  /* count may be num_vertexes * size (< 2^64): saturate instead of wrapping */
  e->len = elem && count > UINT64_MAX / elem ? UINT64_MAX : count * elem;
  e->ofs_field = ofs_field;
  e->count_field = count_field;
  e->ok = 0;
  e->overlaps = 0;
}

/* The bytes a vertex array's data claims; the count field blamed for a bad extent is the record
 * field that departs from the recommended layout, else the header's num_vertexes. */
void iqm_varray_extent(struct iqm *q, uint32_t i, uint64_t elem, int recommended_format,
                       int recommended_size)
{
  struct iqm_extent *e = &q->ext[q->next];
  uint64_t rec = q->sec[S_VARRAYS].ofs + (uint64_t)i * 20;
  uint32_t count_field = !recommended_size ? (uint32_t)(rec + 12)
                         : !recommended_format ? (uint32_t)(rec + 8) : H_NUM_VERTEXES;
  extent_set(e, S_COUNT + (int)i, q->va[i].offset, (uint64_t)HV(q, H_NUM_VERTEXES) * q->va[i].size,
             elem, (uint32_t)(rec + 16), count_field);
}

static void emit_extent(struct iqm *q, const struct iqm_extent *e, uint32_t field, const char *what)
{
  char path[64], name[48];
  struct mdl_loc loc;
  if (!iqm_want(q, !strcmp(what, "header") ? RULE_IQM_SECTION_IN_HEADER
                   : e->index < S_COUNT ? RULE_IQM_SECTION_EXTENT : RULE_IQM_VARRAY_EXTENT))
    return;
  field_path(q, field, path, sizeof path);
  extent_name(e, name, sizeof name);
  loc = loc_bin(field, "%s", path);
  if (!strcmp(what, "header")) {
    diag_emit(q->diag, RULE_IQM_SECTION_IN_HEADER, &loc, ">= 124 (after the header)",
              "%s at [%llu, %llu)", name, (unsigned long long)e->ofs,
              (unsigned long long)(e->ofs + e->len));
  } else {
    char expected[64];
    snprintf(expected, sizeof expected, "an end <= %llu (the file's length)",
             (unsigned long long)q->size);
    diag_emit(q->diag, e->index < S_COUNT ? RULE_IQM_SECTION_EXTENT : RULE_IQM_VARRAY_EXTENT, &loc,
              expected, "%s at [%llu, %llu)", name, (unsigned long long)e->ofs,
              (unsigned long long)(e->ofs + e->len));
  }
}

/* Checks of one extent that do not need its neighbours: alignment, start past the header. */
static void extent_check_alone(struct iqm *q, struct iqm_extent *e, uint64_t align)
{
  char path[64];
  if (e->len == 0)
    return;
  /* x86 engines read unaligned sections: the engine profile reports IQM-SEC-007 (warning) instead */
  enum rule_index sec_rule = iqm_profile_engine(q) ? RULE_IQM_SECTION_ALIGN_ENGINE : RULE_IQM_SECTION_ALIGN;
  if (e->ofs % align && iqm_want(q, e->index < S_COUNT ? sec_rule : RULE_IQM_VARRAY_ALIGN)) {
    struct mdl_loc loc;
    field_path(q, e->ofs_field, path, sizeof path);
    loc = loc_bin(e->ofs_field, "%s", path);
    if (e->index < S_COUNT) {
      diag_emit(q->diag, sec_rule, &loc, "a multiple of 4", "%llu", (unsigned long long)e->ofs);
    } else {
      char expected[40];
      snprintf(expected, sizeof expected, "a multiple of %llu", (unsigned long long)align);
      diag_emit(q->diag, RULE_IQM_VARRAY_ALIGN, &loc, expected, "%llu",
                (unsigned long long)e->ofs);
    }
  }
}

static int cmp_extent(const void *x, const void *y)
{
  const struct iqm_extent *a = *(struct iqm_extent *const *)x, *b = *(struct iqm_extent *const *)y;
  if (a->ofs != b->ofs)
    return a->ofs < b->ofs ? -1 : 1;
  return a->index - b->index;
}

/* R4: an offset for an empty section. When the offset follows another section, starts no
 * other one, and records would fit before the next section, the count was zeroed; else the
 * offset is stray. */
static void report_empty(struct iqm *q)
{
  for (int s = 0; s < S_COUNT; s++) {
    uint32_t ofs_field = q->ext[s].ofs_field, count_field = q->ext[s].count_field, field;
    uint64_t ofs = HV(q, ofs_field), next;
    char path[64];
    struct mdl_loc loc;
    if (!q->empty_elem[s])
      continue;
    if (s == S_FRAMES && HV(q, H_NUM_FRAMES) != 0)
      count_field = H_NUM_FRAMECHANNELS;
    next = iqm_next_start(q, ofs);
    field = !iqm_starts_at(q, ofs) && ofs >= IQM_HEADER_SIZE && ofs < q->size && iqm_anchored_start(q, ofs) &&
            next > ofs && next - ofs >= q->empty_elem[s] ? count_field : ofs_field;
    field_path(q, field, path, sizeof path);
    loc = loc_bin(field, "%s", path);
    diag_emit(q->diag, RULE_IQM_EMPTY_OFFSET, &loc, "ofs 0 for an empty section", "%s %llu with %s 0",
              header_fields[ofs_field / 4], (unsigned long long)ofs, header_fields[count_field / 4]);
  }
}

/* num_vertexes is blamed for a vertex array extent only when it breaks two arrays or more; a
 * single broken array is more likely its own size field. */
static void single_array_counts(struct iqm *q)
{
  size_t broken = 0;
  for (size_t i = S_COUNT; i < q->next; i++) {
    const struct iqm_extent *e = &q->ext[i];
    if (!e->len)
      continue;
    if (e->ofs > q->size || e->len > q->size - e->ofs || iqm_next_start(q, e->ofs) < e->ofs + e->len)
      broken++; /* outside, or runs over the next start */
  }
  if (broken >= 2)
    return;
  for (size_t i = S_COUNT; i < q->next; i++) {
    struct iqm_extent *e = &q->ext[i];
    if (e->count_field == H_NUM_VERTEXES)
      e->count_field = (uint32_t)(q->sec[S_VARRAYS].ofs + (uint64_t)(e->index - S_COUNT) * 20 + 12);
  }
}

/* After the vertex arrays are read: build the anchors, report the extents, find overlaps. */
void iqm_extents_finish(struct iqm *q)
{
  size_t n = q->next, k;
  struct iqm_extent **sorted;
  uint64_t claimed = IQM_HEADER_SIZE;

  sorted = arena_calloc(&q->m->arena, n ? n : 1, sizeof *sorted);
  if (!sorted || iqm_anchors_build(q) < 0)
    return;

  report_empty(q);
  single_array_counts(q);
  for (size_t i = 0; i < q->nanchor; i++)
    claimed += q->ends[i] - q->starts[i]; /* sorted separately: the sum is still the total */
  k = 0;
  for (size_t i = 0; i < n; i++) {
    struct iqm_extent *e = &q->ext[i];
    e->ok = 0;
    if (e->len == 0) {
      e->ok = 1;
      continue;
    }
    if (e->ofs < IQM_HEADER_SIZE) {
      /* ofs 0 is how writers say "empty": with a count, the offset was zeroed if the file has
       * room for the section besides the others, else the count is bogus */
      emit_extent(q, e, e->ofs || claimed + e->len <= q->size ? e->ofs_field : e->count_field,
                  "header");
      continue;
    }
    if (e->ofs > q->size || e->len > q->size - e->ofs) {
      emit_extent(q, e, iqm_blame_outside(q, e), "outside");
      continue;
    }
    e->ok = 1;
    sorted[k++] = e;
  }
  /* R8: a sweep over the extents by start, remembering the one reaching furthest */
  qsort(sorted, k, sizeof *sorted, cmp_extent);
  {
    struct iqm_extent *reach = NULL;
    for (size_t i = 0; i < k; i++) {
      struct iqm_extent *b = sorted[i];
      if (reach && b->ofs < reach->ofs + reach->len && !iqm_want(q, RULE_IQM_SECTION_OVERLAP)) {
        reach->overlaps = b->overlaps = 1;
      } else if (reach && b->ofs < reach->ofs + reach->len) {
        uint32_t field = iqm_blame_overlap(q, reach, b);
        char path[64], na[48], nb[48];
        struct mdl_loc loc;
        field_path(q, field, path, sizeof path);
        extent_name(reach, na, sizeof na);
        extent_name(b, nb, sizeof nb);
        loc = loc_bin(field, "%s", path);
        diag_emit(q->diag, RULE_IQM_SECTION_OVERLAP, &loc, "disjoint sections",
                  "%s [%llu, %llu) overlaps %s [%llu, %llu)", na, (unsigned long long)reach->ofs,
                  (unsigned long long)(reach->ofs + reach->len), nb, (unsigned long long)b->ofs,
                  (unsigned long long)(b->ofs + b->len));
        reach->overlaps = b->overlaps = 1;
      }
      if (!reach || b->ofs + b->len > reach->ofs + reach->len)
        reach = b;
    }
  }
  for (int s = 0; s < S_COUNT; s++)
    q->sec[s] = q->ext[s];
}

void iqm_sections_check(struct iqm *q)
{
  uint64_t nframes = HV(q, H_NUM_FRAMES);
  struct {
    uint32_t count_field, ofs_field;
    uint64_t count, elem;
    int optional; /* ofs 0 with a non-zero count means absent (adjacency, bounds) */
  } t[S_COUNT] = {
    {H_NUM_TEXT, H_OFS_TEXT, HV(q, H_NUM_TEXT), 1, 0},
    {H_NUM_MESHES, H_OFS_MESHES, HV(q, H_NUM_MESHES), 24, 0},
    {H_NUM_VARRAYS, H_OFS_VARRAYS, HV(q, H_NUM_VARRAYS), 20, 0},
    {H_NUM_TRIANGLES, H_OFS_TRIANGLES, HV(q, H_NUM_TRIANGLES), 12, 0},
    {H_NUM_TRIANGLES, H_OFS_ADJACENCY, HV(q, H_NUM_TRIANGLES), 12, 1},
    {H_NUM_JOINTS, H_OFS_JOINTS, HV(q, H_NUM_JOINTS), q->joint_size, 0},
    {H_NUM_POSES, H_OFS_POSES, HV(q, H_NUM_POSES), q->pose_size, 0},
    {H_NUM_ANIMS, H_OFS_ANIMS, HV(q, H_NUM_ANIMS), 20, 0},
    {H_NUM_FRAMES, H_OFS_FRAMES, nframes * HV(q, H_NUM_FRAMECHANNELS), 2, 0},
    {H_NUM_FRAMES, H_OFS_BOUNDS, nframes, 32, 1},
    {H_NUM_COMMENT, H_OFS_COMMENT, HV(q, H_NUM_COMMENT), 1, 0},
  };
  /* the vertex arrays' extents follow the sections; their count is bounded by the file
   * (checked in iqm_varrays_read before anything is allocated) */
  uint64_t nva = HV(q, H_NUM_VARRAYS);
  if (!reader_has_array(q->in, HV(q, H_OFS_VARRAYS), nva, 20))
    nva = 0;
  q->ext = arena_calloc(&q->m->arena, S_COUNT + nva, sizeof *q->ext);
  if (!q->ext) {
    q->ext = q->sec;
    nva = 0;
    diag_out_of_memory(q->ctx->diag, "the section table"); /* overlaps go unchecked */
  }
  q->next = S_COUNT;

  for (int s = 0; s < S_COUNT; s++) {
    uint64_t ofs = HV(q, t[s].ofs_field);
    uint64_t count = t[s].count;
    /* frames: the channel count is the likelier culprit when it disagrees with the masks,
     * but that is only known later; num_frames is blamed here */
    q->empty_elem[s] = 0;
    if (count == 0 && ofs != 0)
      q->empty_elem[s] = t[s].elem; /* reported once the neighbours are known */
    if (t[s].optional && ofs == 0)
      count = 0;
    extent_set(&q->ext[s], s, count ? ofs : 0, count, t[s].elem, t[s].ofs_field,
               t[s].count_field);
    extent_check_alone(q, &q->ext[s], 4);
  }
  /* provisional: usable when inside the file; iqm_extents_finish settles it */
  for (int s = 0; s < S_COUNT; s++) {
    struct iqm_extent *e = &q->ext[s];
    e->ok = e->len == 0 || (e->ofs >= IQM_HEADER_SIZE && reader_has(q->in, e->ofs, e->len));
    q->sec[s] = *e;
  }
}

void iqm_extent_align_check(struct iqm *q, struct iqm_extent *e, uint64_t align)
{
  extent_check_alone(q, e, align);
}
