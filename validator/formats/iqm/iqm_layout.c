/* iqm_layout.c - where the writer would have put each section, and so which field broke an extent.
 *
 * A bad extent is caused by one broken field, its offset or its count. Writers pack sections back
 * to back (iqm-notes.md 1.6): an intact start follows the end of another section (padded to 4, or
 * to 8 for vertex data and after the valign), and an intact end is followed by another section's
 * start or the end of the file. A count that grew by k records leaves an end k records past such
 * an anchor; a moved offset leaves a start that follows nothing. */
#include <stdlib.h>

#include "iqm.h"

static uint64_t round_up(uint64_t v, uint64_t a)
{
  return (v + a - 1) / a * a;
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Largest element <= v in a sorted array, or 0 when none; found says whether one exists. */
static uint64_t floor_of(const uint64_t *a, size_t n, uint64_t v, int *found)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= v)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = lo > 0;
  return lo > 0 ? a[lo - 1] : 0;
}

/* Vertex data may start at the next multiple of 8 (the writer's valign, double arrays);
 * every other section starts at the next multiple of 4. */
static int is_vertex_start(const struct iqm *q, uint64_t ofs)
{
  int found;
  return floor_of(q->vstarts, q->nvstarts, ofs, &found) == ofs && found;
}

/* May a section start at s after another ends at e? At the next multiple of 4; or of 8 for
 * vertex data and for whatever follows the writer's valign after the vertex array headers. */
static int gap_ok(const struct iqm *q, uint64_t e, uint64_t s)
{
  if (s == round_up(e, 4))
    return 1;
  return s == round_up(e, 8) && (is_vertex_start(q, s) || e == q->valign_from);
}

int iqm_anchored_start(const struct iqm *q, uint64_t ofs)
{
  int found;
  uint64_t e;
  if (gap_ok(q, IQM_HEADER_SIZE, ofs))
    return 1;
  e = floor_of(q->ends, q->nanchor, ofs, &found);
  return found && gap_ok(q, e, ofs);
}

int iqm_anchored_end(const struct iqm *q, uint64_t end)
{
  int found;
  uint64_t s;
  if (end == q->size || round_up(end, 4) == q->size)
    return 1;
  s = floor_of(q->starts, q->nanchor, round_up(end, 8), &found);
  return found && s >= end && gap_ok(q, end, s);
}

int iqm_starts_at(const struct iqm *q, uint64_t ofs)
{
  int found;
  return floor_of(q->starts, q->nanchor, ofs, &found) == ofs && found;
}

uint64_t iqm_next_start(const struct iqm *q, uint64_t ofs)
{
  size_t lo = 0, hi = q->nanchor;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (q->starts[mid] <= ofs)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < q->nanchor ? q->starts[lo] : q->size;
}

int iqm_anchors_build(struct iqm *q)
{
  size_t n = q->next, k = 0;
  q->starts = arena_calloc(&q->m->arena, n ? n : 1, sizeof *q->starts);
  q->ends = arena_calloc(&q->m->arena, n ? n : 1, sizeof *q->ends);
  if (!q->starts || !q->ends)
    return -1;
  for (size_t i = 0; i < n; i++) {
    struct iqm_extent *e = &q->ext[i];
    if (e->len && e->ofs >= IQM_HEADER_SIZE && e->ofs <= q->size && e->len <= q->size - e->ofs) {
      q->starts[k] = e->ofs;
      q->ends[k] = e->ofs + e->len;
      k++;
    }
  }
  q->nanchor = k;
  qsort(q->starts, k, sizeof *q->starts, cmp_u64);
  qsort(q->ends, k, sizeof *q->ends, cmp_u64);
  q->vstarts = arena_calloc(&q->m->arena, n ? n : 1, sizeof *q->vstarts);
  if (!q->vstarts)
    return -1;
  k = 0;
  for (size_t i = S_COUNT; i < n; i++)
    if (q->ext[i].len)
      q->vstarts[k++] = q->ext[i].ofs;
  q->nvstarts = k;
  qsort(q->vstarts, k, sizeof *q->vstarts, cmp_u64);
  /* the writer's valign follows the header, text, meshes and vertex array headers */
  q->valign_from = IQM_HEADER_SIZE;
  for (int s = S_TEXT; s <= S_VARRAYS; s++) {
    const struct iqm_extent *e = &q->ext[s];
    if (e->len && e->ofs >= IQM_HEADER_SIZE && e->ofs <= q->size && e->len <= q->size - e->ofs &&
        e->ofs + e->len > q->valign_from)
      q->valign_from = e->ofs + e->len;
  }

  return 0;
}

/* Bytes per unit of an extent's count field (for telling growth from a moved offset). */
static uint64_t extent_unit(const struct iqm *q, const struct iqm_extent *e)
{
  static const unsigned sizes[S_COUNT] = {1, 24, 20, 12, 12, 0, 0, 20, 0, 32, 1};
  if (e->index >= S_COUNT) {
    /* per unit of the blamed field: a component (size), or a vertex (num_vertexes) */
    uint64_t nv = HV(q, H_NUM_VERTEXES), comp;
    const struct iqm_varray *v = &q->va[e->index - S_COUNT];
    if (!nv || !v->size)
      return 0;
    comp = e->len / nv / v->size;
    if (e->count_field == H_NUM_VERTEXES)
      return e->len / nv;
    return e->count_field == q->sec[S_VARRAYS].ofs + (uint64_t)(e->index - S_COUNT) * 20 + 12
           ? nv * comp : 1;
  }
  if (e->index == S_JOINTS)
    return q->joint_size;
  if (e->index == S_POSES)
    return q->pose_size;
  if (e->index == S_FRAMES)
    return (uint64_t)HV(q, H_NUM_FRAMECHANNELS) * 2;
  return sizes[e->index];
}

/* Would a end where the next section starts with k fewer units (k the fewest that bring its end
 * back to limit, keeping at least one)? That is the signature of a count grown by k. */
static int grew_into(const struct iqm *q, const struct iqm_extent *a, uint64_t limit, uint64_t *k_out)
{
  uint64_t unit = extent_unit(q, a), end = a->ofs + a->len, k;
  if (!unit || end <= limit)
    return 0;
  k = (end - limit + unit - 1) / unit;
  *k_out = k;
  return k < a->len / unit && (gap_ok(q, end - k * unit, limit) || iqm_anchored_end(q, end - k * unit));
}

/* Starts after another section and ends where one starts: where the writer put it. */
static int intact(const struct iqm *q, const struct iqm_extent *e)
{
  return iqm_anchored_start(q, e->ofs) && iqm_anchored_end(q, e->ofs + e->len);
}

/* Which field broke an extent that reaches past the end of the file. */
uint32_t iqm_blame_outside(const struct iqm *q, const struct iqm_extent *e)
{
  uint64_t k;
  if (e->ofs > q->size)
    return e->ofs_field;
  if (e->len > q->size)
    return e->count_field;
  /* a count shared with an earlier section that now runs into this one grew them both */
  for (size_t i = 0; i < S_COUNT && e->index < S_COUNT; i++) {
    const struct iqm_extent *f = &q->ext[i];
    if (f != e && f->count_field == e->count_field && f->len && f->ofs < e->ofs &&
        f->ofs + f->len > e->ofs)
      return e->count_field;
  }
  return iqm_anchored_start(q, e->ofs) && grew_into(q, e, q->size, &k) ? e->count_field
                                                                      : e->ofs_field;
}

/* Which field made a (earlier start) and b overlap: the one of the two that is no longer where
 * the writer put it; a grew (its count) when its end minus whole records meets b's start. */
uint32_t iqm_blame_overlap(const struct iqm *q, const struct iqm_extent *a,
                              const struct iqm_extent *b)
{
  uint64_t ub = extent_unit(q, b), k = 0;
  int a_grew = grew_into(q, a, b->ofs, &k) && iqm_anchored_start(q, a->ofs);
  int a_ok = intact(q, a), b_ok = intact(q, b);
  uint64_t b0 = round_up(a->ofs + a->len, 4);
  /* a's end minus whole records meets b's start, and b still ends at an anchor: a grew */
  if (a_grew && iqm_anchored_end(q, b->ofs + b->len))
    return a->count_field;
  /* a moved forward: put right before b, it would start where the previous section ends */
  if (!iqm_anchored_start(q, a->ofs) && b->ofs >= a->len && iqm_anchored_start(q, b->ofs - a->len))
    return a->ofs_field;
  /* b moved back: put where a ends, it would end where the next section starts */
  if (!b_ok && b0 > b->ofs && b->len && iqm_anchored_end(q, b0 + b->len) &&
      (b0 + b->len != q->size || b->ofs + b->len < q->size))
    return b->ofs_field;
  if (b_ok && !a_ok)
    return a_grew ? a->count_field : a->ofs_field;
  if (a_ok && !b_ok)
    return b->ofs_field;
  /* neither intact: a count shared by both (num_vertexes, num_triangles) grew them both */
  if (a_grew && a->count_field == b->count_field && ub && k * ub <= b->len &&
      iqm_anchored_end(q, b->ofs + b->len - k * ub))
    return a->count_field;
  if (a_grew)
    return a->count_field;
  return iqm_anchored_end(q, b->ofs + b->len) ? a->ofs_field : b->ofs_field;
}
