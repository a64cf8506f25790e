/* iqm_mesh.c - meshes (R20-R24), triangles (R19, R23) and adjacency (R25). */
#include <stdio.h>

#include "geo_corners4.h"
#include "iqm.h"
#include "iqm_fast.h"
#include "model_geometry.h"


/* Triangles checked as one block by the prechecks below before the reporting loops look at them. */
#define TRI_BLOCK 1024u

/* A header count looks broken when its data no longer ends where the next section starts. */
static int vertexes_suspect(const struct iqm *q)
{
  /* no vertices, yet arrays pointing at data inside the file */
  if (HV(q, H_NUM_VERTEXES) == 0) {
    for (uint32_t i = 0; i < q->num_va; i++)
      if (q->va[i].offset >= IQM_HEADER_SIZE && q->va[i].offset < q->size)
        return 1;
    return 0;
  }
  for (uint32_t i = 0; i < q->num_va; i++) {
    const struct iqm_varray *v = &q->va[i];
    if (v->ext && q->ext[v->ext].ok && q->ext[v->ext].len)
      return !iqm_anchored_end(q, q->ext[v->ext].ofs + q->ext[v->ext].len);
  }
  return 0;
}

static int triangles_suspect(const struct iqm *q)
{
  const struct iqm_extent *e = &q->sec[S_TRIANGLES];
  if (HV(q, H_NUM_TRIANGLES) == 0)
    return HV(q, H_OFS_TRIANGLES) >= IQM_HEADER_SIZE && HV(q, H_OFS_TRIANGLES) < q->size;
  return e->ok && e->len && !iqm_anchored_end(q, e->ofs + e->len);
}

/* Where the neighbouring meshes put this one, if the meshes tile (R22). */
struct mesh_frame {
  uint64_t prev_v, prev_t; /* ends of the previous mesh (0 for the first) */
  uint64_t next_v, next_t; /* starts of the next mesh (the header counts for the last) */
};

/* R21 on one mesh: its triangles stay inside its vertex range. One stray index is reported where
 * it is; a range that disagrees with the neighbouring meshes, or many stray indexes, mean the
 * mesh's own range is wrong, reported once at that field. Returns the work done. */
static uint64_t check_mesh_local(struct iqm *q, uint32_t mi, uint64_t rec, const unsigned char *r,
                                 const struct mesh_frame *fr, const unsigned char *tri)
{
  uint32_t fv = le32(r + 8), nv = le32(r + 12), ft = le32(r + 16), nt = le32(r + 20);
  uint64_t lo = fv, hi = (uint64_t)fv + nv, bad = 0, first_bad = 0;
  uint64_t below = 0, above = 0, in_gap_below = 0, in_gap_above = 0;
  uint64_t field = 0;
  char expected[64];
  /* the mesh's range lies inside num_vertexes (the caller checked): an index inside it passes;
   * with distinct corners too, R19 and R23 (iqm_triangles_check) have nothing to say of these
   * triangles, which it skips when they continue the run of such meshes from triangle 0 */
  unsigned corners = iqm_mesh_corners(tri + (uint64_t)ft * 12, nt, fv, nv);
  if (corners & IQM_CORNERS_WITHIN) {
    if (corners & IQM_CORNERS_DISTINCT && ft == q->tri_proven)
      q->tri_proven += nt;
    return nt;
  }
  snprintf(expected, sizeof expected, "in [%llu, %llu) (meshes[%u])", (unsigned long long)lo,
           (unsigned long long)hi, mi);
  for (uint64_t t = ft; t < (uint64_t)ft + nt; t++) {
    for (int k = 0; k < 3; k++) {
      uint32_t idx = le32(tri + t * 12 + k * 4);
      if ((idx >= lo && idx < hi) || idx >= HV(q, H_NUM_VERTEXES))
        continue;
      if (bad++ == 0)
        first_bad = t;
      if (idx < lo) {
        below++;
        in_gap_below += idx >= fr->prev_v;
      } else {
        above++;
        in_gap_above += idx < fr->next_v;
      }
    }
  }
  if (bad == 0)
    return nt;
  if (ft != fr->prev_t)
    field = rec + 16;
  else if ((uint64_t)ft + nt > fr->next_t)
    field = rec + 20;
  else if (fv != fr->prev_v)
    field = rec + 8; /* the range starts where the previous mesh does not end */
  else if (below && in_gap_below == below && !above)
    field = rec + 8;
  else if (above && in_gap_above == above && !below && hi != fr->next_v)
    field = rec + 12;
  else if (bad > 1)
    field = below > above ? rec + 8 : rec + 12;
  if (field) {
    static const char *const names[] = {"first_vertex", "num_vertexes", "first_triangle", "num_triangles"};
    struct mdl_loc loc = loc_bin(field, "meshes[%u].%s", mi, names[(field - rec - 8) / 4]);
    diag_emit(q->diag, RULE_IQM_MESH_LOCAL_INDEX, &loc, expected,
              "%llu indexes of its triangles outside it, from triangles[%llu]",
              (unsigned long long)bad, (unsigned long long)first_bad);
    return nt;
  }
  for (uint64_t t = ft; t < (uint64_t)ft + nt; t++) {
    for (int k = 0; k < 3; k++) {
      uint32_t idx = le32(tri + t * 12 + k * 4);
      if ((idx >= lo && idx < hi) || idx >= HV(q, H_NUM_VERTEXES) ||
          !iqm_want(q, RULE_IQM_MESH_LOCAL_INDEX))
        continue;
      {
        struct mdl_loc loc = loc_bin(q->sec[S_TRIANGLES].ofs + t * 12 + k * 4,
                                     "triangles[%llu].vertex[%d]", (unsigned long long)t, k);
        diag_emit(q->diag, RULE_IQM_MESH_LOCAL_INDEX, &loc, expected, "%u", idx);
      }
    }
  }
  return 2 * (uint64_t)nt;
}

void iqm_meshes_check(struct iqm *q)
{
  const unsigned char *p = iqm_section_data(q, S_MESHES);
  const unsigned char *tri = iqm_section_data(q, S_TRIANGLES);
  uint32_t n = HV(q, H_NUM_MESHES);
  uint64_t hv = HV(q, H_NUM_VERTEXES), ht = HV(q, H_NUM_TRIANGLES);
  uint64_t end_v = 0, end_t = 0, work = 0;
  int tiled = 1, ranges_ok = 1;

  if (!p)
    return;
  q->m->meshes = arena_calloc(&q->m->arena, n, sizeof *q->m->meshes);
  if (!q->m->meshes)
    return;
  q->m->num_meshes = n;
  for (uint32_t i = 0; i < n; i++) {
    const unsigned char *r = p + (size_t)i * 24;
    uint64_t rec = q->sec[S_MESHES].ofs + (uint64_t)i * 24;
    struct model_mesh *mm = &q->m->meshes[i];
    uint32_t fv = le32(r + 8), nv = le32(r + 12), ft = le32(r + 16), nt = le32(r + 20);
    int vok = 1, tok = 1;
    mm->name = iqm_string(q, le32(r), rec, "meshes[%u].name", i);
    mm->material = iqm_string(q, le32(r + 4), rec + 4, "meshes[%u].material", i);
    if (mm->material && mm->material[0]) {
      char path[48];
      snprintf(path, sizeof path, "meshes[%u].material", i);
      (void)model_ref_add(q->m, MODEL_REF_TEXTURE, 1, mm->material, strlen(mm->material),
                          (long long)rec + 4, 0, 0, path);
    }
    mm->first_vertex = fv;
    mm->num_vertexes = nv;
    mm->first_triangle = ft;
    mm->num_triangles = nt;

    if ((uint64_t)fv + nv > hv) {
      char expected[48];
      uint32_t field = vertexes_suspect(q) ? H_NUM_VERTEXES
                       : fv > hv || fv != end_v ? (uint32_t)rec + 8 : (uint32_t)rec + 12;
      struct mdl_loc loc = loc_bin(field, field == H_NUM_VERTEXES ? "header.num_vertexes"
                                   : field == rec + 8 ? "meshes[%u].first_vertex" : "meshes[%u].num_vertexes", i);
      snprintf(expected, sizeof expected, "an end <= %llu (num_vertexes)", (unsigned long long)hv);
      diag_emit(q->diag, RULE_IQM_MESH_VERTEX_RANGE, &loc, expected, "[%u, %llu) in meshes[%u]", fv,
                (unsigned long long)fv + nv, i);
      vok = 0;
    }
    if ((uint64_t)ft + nt > ht) {
      char expected[48];
      uint32_t field = triangles_suspect(q) ? H_NUM_TRIANGLES
                       : ft > ht || ft != end_t ? (uint32_t)rec + 16 : (uint32_t)rec + 20;
      struct mdl_loc loc = loc_bin(field, field == H_NUM_TRIANGLES ? "header.num_triangles"
                                   : field == rec + 16 ? "meshes[%u].first_triangle" : "meshes[%u].num_triangles", i);
      snprintf(expected, sizeof expected, "an end <= %llu (num_triangles)", (unsigned long long)ht);
      diag_emit(q->diag, RULE_IQM_MESH_TRIANGLE_RANGE, &loc, expected, "[%u, %llu) in meshes[%u]", ft,
                (unsigned long long)ft + nt, i);
      tok = 0;
    }
    ranges_ok &= vok & tok;
    if (nv == 0 && nt == 0 && iqm_want(q, RULE_IQM_MESH_EMPTY)) {
      struct mdl_loc loc = loc_bin(rec + 12, "meshes[%u].num_vertexes", i);
      diag_emit(q->diag, RULE_IQM_MESH_EMPTY, &loc, "a mesh with vertices and triangles", "0 and 0");
    }
    if (vok && tok && tiled && (fv != end_v || ft != end_t)) {
      struct mdl_loc loc = loc_bin(fv != end_v ? rec + 8 : rec + 16, fv != end_v ?
                                   "meshes[%u].first_vertex" : "meshes[%u].first_triangle", i);
      diag_emit(q->diag, RULE_IQM_MESH_TILING, &loc, "meshes back to back from 0",
                "first_vertex %u, first_triangle %u after %llu and %llu", fv, ft,
                (unsigned long long)end_v, (unsigned long long)end_t);
      tiled = 0;
    }
    /* overlapping claims could make this quadratic: stop after a few passes over the triangles */
    if (vok && tok && tri && work <= 4 * ht + 1024) {
      struct mesh_frame fr;
      fr.prev_v = end_v; /* not yet advanced: the previous mesh's ends */
      fr.prev_t = end_t;
      fr.next_v = i + 1 < n ? le32(r + 24 + 8) : hv;
      fr.next_t = i + 1 < n ? le32(r + 24 + 16) : ht;
      work += check_mesh_local(q, i, rec, r, &fr, tri);
    }
    end_v = (uint64_t)fv + nv;
    end_t = (uint64_t)ft + nt;
  }
  if (tiled && ranges_ok && n > 0 && (end_v != hv || end_t != ht)) {
    uint64_t rec = q->sec[S_MESHES].ofs + (uint64_t)(n - 1) * 24;
    struct mdl_loc loc = loc_bin(end_v != hv ? rec + 12 : rec + 20, end_v != hv ?
                                 "meshes[%u].num_vertexes" : "meshes[%u].num_triangles", n - 1);
    diag_emit(q->diag, RULE_IQM_MESH_TILING, &loc, "meshes covering every vertex and triangle",
              "meshes end at vertex %llu and triangle %llu of %llu and %llu",
              (unsigned long long)end_v, (unsigned long long)end_t, (unsigned long long)hv,
              (unsigned long long)ht);
  }
}

void iqm_triangles_check(struct iqm *q)
{
  const unsigned char *tri = iqm_section_data(q, S_TRIANGLES);
  const unsigned char *adj = iqm_section_data(q, S_ADJACENCY);
  uint64_t nt = HV(q, H_NUM_TRIANGLES);
  uint32_t nv = HV(q, H_NUM_VERTEXES);

  if (!tri)
    return;
  q->m->num_triangles = (uint32_t)nt;
  q->m->triangles = tri;
  /* triangles [0, tri_proven) have three distinct corners inside their mesh's vertex range,
   * itself inside num_vertexes (check_mesh_local): nothing below would report them */
  for (uint64_t t = q->tri_proven < nt ? q->tri_proven : nt; t < nt; t++) {
    const unsigned char *r = tri + t * 12;
    uint32_t a, b, c;
    if (t % TRI_BLOCK == 0 && nt - t >= TRI_BLOCK && geo_corners_clean(r, TRI_BLOCK / 4, nv)) {
      t += TRI_BLOCK - 1; /* the whole block passes the tests below */
      continue;
    }
    a = le32(r), b = le32(r + 4), c = le32(r + 8);
    if (a >= nv || b >= nv || c >= nv) {
      for (int k = 0; k < 3; k++) {
        uint32_t idx = le32(r + k * 4);
        if (idx >= nv && iqm_want(q, RULE_IQM_TRIANGLE_INDEX)) {
          char expected[32];
          struct mdl_loc loc = loc_bin(q->sec[S_TRIANGLES].ofs + t * 12 + k * 4,
                                       "triangles[%llu].vertex[%d]", (unsigned long long)t, k);
          snprintf(expected, sizeof expected, "< %u (num_vertexes)", nv);
          diag_emit(q->diag, RULE_IQM_TRIANGLE_INDEX, &loc, expected, "%u", idx);
        }
      }
    }
    if ((a == b || b == c || a == c) && iqm_want(q, RULE_IQM_TRIANGLE_DEGENERATE)) {
      struct mdl_loc loc = loc_bin(q->sec[S_TRIANGLES].ofs + t * 12, "triangles[%llu]",
                                   (unsigned long long)t);
      diag_emit(q->diag, RULE_IQM_TRIANGLE_DEGENERATE, &loc, "three distinct vertices",
                "%u %u %u", a, b, c);
    }
  }
  if (!adj)
    return;
  q->m->adjacency = adj;
  for (uint64_t t = 0; t < nt; t++) {
    if (t % TRI_BLOCK == 0 && nt - t >= TRI_BLOCK && iqm_adjacency_clean(adj, t, TRI_BLOCK, nt)) {
      t += TRI_BLOCK - 1; /* the whole block passes the tests below */
      continue;
    }
    for (int k = 0; k < 3; k++) {
      uint32_t o = le32(adj + t * 12 + k * 4);
      uint64_t at = q->sec[S_ADJACENCY].ofs + t * 12 + k * 4;
      if (o == NO_NEIGHBOUR)
        continue;
      if (o >= nt) {
        char expected[48];
        if (!iqm_want(q, RULE_IQM_ADJACENCY_RANGE))
          continue;
        struct mdl_loc loc = loc_bin(at, "adjacency[%llu].triangle[%d]", (unsigned long long)t, k);
        snprintf(expected, sizeof expected, "< %llu (num_triangles) or 0xffffffff", (unsigned long long)nt);
        diag_emit(q->diag, RULE_IQM_ADJACENCY_RANGE, &loc, expected, "%u", o);
        continue;
      }
      /* R25 symmetry: O(1) per entry, the neighbour's three entries */
      {
        const unsigned char *back = adj + (uint64_t)o * 12;
        if (le32(back) != t && le32(back + 4) != t && le32(back + 8) != t &&
            iqm_want(q, RULE_IQM_ADJACENCY_SYMMETRY)) {
          char expected[48];
          struct mdl_loc loc = loc_bin(at, "adjacency[%llu].triangle[%d]", (unsigned long long)t, k);
          snprintf(expected, sizeof expected, "adjacency[%u] listing %llu", o, (unsigned long long)t);
          diag_emit(q->diag, RULE_IQM_ADJACENCY_SYMMETRY, &loc, expected, "%u", o);
        }
      }
    }
  }
}

/* Where the shared geometry checks point: a vertex's element in its array, a triangle's record. */
static void geo_vertex_at(const void *ctx, uint32_t a, uint32_t v, struct mdl_loc *loc)
{
  const struct iqm *q = ctx;
  const struct iqm_varray *va = &q->va[a];
  *loc = loc_bin((uint64_t)va->offset + (uint64_t)v * va->size * vformat_bytes(va->format),
                 "vertexarrays[%u][%u]", a, v);
}

static void geo_triangle_at(const void *ctx, uint32_t t, struct mdl_loc *loc)
{
  const struct iqm *q = ctx;
  *loc = loc_bin(q->sec[S_TRIANGLES].ofs + (uint64_t)t * 12, "triangles[%u]", t);
}

void iqm_geometry_check(struct iqm *q)
{
  struct geo_where w = {geo_vertex_at, geo_triangle_at, q};
  /* arrays are read only where iqm_varrays_check found their bytes whole (data set) */
  geo_check_model(q->diag, q->m, &w);
}

