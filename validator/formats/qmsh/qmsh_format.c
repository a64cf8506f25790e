/* qmsh_format.c - QMSH registration, the decode driver (sections in the version's file order) and
 * the bounded cursor helpers every section reader uses. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qmsh.h"

static const char *const qmsh_extensions[] = {".qmsh", NULL};

uint32_t qmsh_vertex_size(uint8_t flags)
{
  /* PHYSICS overrides the other flags; STATIC and SPLIT never change the layout */
  if (flags & QMSH_F_PHYSICS)
    return 12;
  if (flags & QMSH_F_ANIMATED)
    return (flags & QMSH_F_TANGENTS) ? 64 : 40;
  return (flags & QMSH_F_TANGENTS) ? 56 : 32;
}

void qmsh_vertex_layout(uint8_t flags, struct qmsh_vlayout *l)
{
  l->pos = 0;
  l->weight = l->idx = l->normal = l->tex = l->tangent = l->binormal = -1;
  if (flags & QMSH_F_PHYSICS)
    return;
  if (flags & QMSH_F_ANIMATED) {
    l->weight = 12;
    l->idx = 16;
    l->normal = 20;
    l->tex = 32;
  } else {
    l->normal = 12;
    l->tex = 24;
  }
  if (flags & QMSH_F_TANGENTS) {
    l->tangent = l->tex + 8;
    l->binormal = l->tex + 20;
  }
}

int qmsh_outside(double v, double lo, double hi)
{
  double slo = QMSH_BOUND_EPS * fmax(1.0, fmax(fabs(lo), fabs(v)));
  double shi = QMSH_BOUND_EPS * fmax(1.0, fmax(fabs(hi), fabs(v)));
  return v < lo - slo || v > hi + shi;
}

int qmsh_header_size(unsigned version)
{
  if (version < 13)
    return 48;
  if (version < 15)
    return 72;
  if (version < 20)
    return 84;
  return 88;
}

int qmsh_is_skeletal(uint8_t flags)
{
  return (flags & QMSH_F_ANIMATED) && !(flags & QMSH_F_STATIC);
}

void qmsh_truncated(struct qmsh_dec *d, uint64_t off, uint64_t len, const char *path)
{
  struct mdl_loc loc = loc_bin(off, "%s", path);
  char want[64];
  snprintf(want, sizeof want, "%llu bytes at offset %llu", (unsigned long long)len,
           (unsigned long long)d->pos);
  diag_emit(d->diag, RULE_QMSH_TRUNCATED, &loc, want, "the file ends at %llu",
            (unsigned long long)d->in->size);
  d->fatal = 1;
}

int qmsh_need(struct qmsh_dec *d, uint64_t len, const char *path)
{
  if (reader_has(d->in, d->pos, len))
    return 0;
  /* the last byte present lies inside the cut record; at EOF the record starts there */
  qmsh_truncated(d, d->pos < d->in->size ? d->in->size - 1 : d->pos, len, path);
  return -1;
}

int qmsh_need_array(struct qmsh_dec *d, uint64_t count, uint64_t elem, const char *path,
                    uint64_t count_off, const char *count_path)
{
  uint64_t k;
  char p[LOC_PATH_MAX];
  if (reader_has_array(d->in, d->pos, count, elem))
    return 0;
  /* a count far beyond what the file could hold is the defect itself, not a cut (a cut file
   * misses at most what it had: less than twice its size for any plausible cut) */
  if (count_path && count * elem > 2 * (uint64_t)d->in->size + 4096) {
    qmsh_truncated(d, count_off, count * elem, count_path);
    return -1;
  }
  /* name the first element that is not whole */
  k = (d->in->size - d->pos) / elem;
  snprintf(p, sizeof p, "%s[%llu]", path, (unsigned long long)k);
  qmsh_truncated(d, d->pos + k * elem < d->in->size ? d->in->size - 1 : d->pos + k * elem,
                 count * elem, p);
  return -1;
}

float qmsh_f32(struct qmsh_dec *d)
{
  float v = reader_f32_at(d->in, d->pos);
  d->pos += 4;
  return v;
}

uint16_t qmsh_u16(struct qmsh_dec *d)
{
  uint16_t v = reader_u16_at(d->in, d->pos);
  d->pos += 2;
  return v;
}

uint8_t qmsh_u8(struct qmsh_dec *d)
{
  uint8_t v = reader_u8_at(d->in, d->pos);
  d->pos += 1;
  return v;
}

void qmsh_floats(struct qmsh_dec *d, float *out, unsigned n, const char *path)
{
  for (unsigned i = 0; i < n; i++) {
    uint64_t off = d->pos;
    out[i] = qmsh_f32(d);
    if (!isfinite(out[i])) {
      struct mdl_loc loc = n > 1 ? loc_bin(off, "%s[%u]", path, i) : loc_bin(off, "%s", path);
      diag_emit(d->diag, RULE_QMSH_NON_FINITE, &loc, "finite", "%g", (double)out[i]);
    }
  }
}

int qmsh_string(struct qmsh_dec *d, struct qmsh_str *out, const char *path)
{
  uint8_t len;
  if (qmsh_need(d, 1, path) < 0)
    return -1;
  len = qmsh_u8(d);
  d->pos--;
  if (!reader_has(d->in, d->pos, 1u + (uint64_t)len)) {
    qmsh_truncated(d, d->pos, 1u + (uint64_t)len, path); /* the length byte is at fault */
    return -1;
  }
  out->s = arena_strndup(&d->m->arena, (const char *)reader_ptr(d->in, d->pos + 1, len), len);
  out->len = len;
  d->pos += 1u + len;
  return out->s ? 0 : -1;
}

/* The section sequence of the file's version; stops at the first fatal. */
static void qmsh_sections_read(struct qmsh_dec *d)
{
  const struct qmsh_header *h = &d->q->h;
  if (qmsh_vertices_read(d) < 0 || qmsh_triangles_read(d) < 0 || qmsh_submeshes_read(d) < 0)
    return;
  if (d->skeletal) {
    if (qmsh_bones_read(d) < 0)
      return;
    if (h->version >= 21 && qmsh_groups_read(d) < 0)
      return;
    if (qmsh_anims_read(d) < 0)
      return;
  }
  if (qmsh_points_read(d) < 0)
    return;
  if (d->skeletal && h->version <= 20 && qmsh_groups_read(d) < 0)
    return;
  if ((h->flags & QMSH_F_SPLIT) && qmsh_splits_read(d) < 0)
    return;
  if (d->pos < d->in->size) {
    struct mdl_loc loc = loc_bin(d->pos, "trailing");
    char end[32];
    d->misfit = 1;
    snprintf(end, sizeof end, "%llu", (unsigned long long)d->pos);
    diag_emit(d->diag, RULE_QMSH_TRAILING_BYTES, &loc, end, "%llu",
              (unsigned long long)(d->in->size - d->pos));
  }
}

/* Where each vertex, triangle and bone the sections read is: model.spans, for the page. */
static void spans_record(const struct qmsh_dec *d)
{
  const struct qmsh_mesh *q = d->q;
  if (d->vert_off)
    model_span_bytes(d->m, MODEL_EL_VERTEX, 0, q->h.n_verts, d->vert_off, q->vertex_size);
  if (d->tri_off)
    model_span_bytes(d->m, MODEL_EL_TRIANGLE, 0, q->h.n_tris, d->tri_off, 6);
  for (uint32_t k = 0; d->bone_off && k < q->h.n_bones && d->bone_off[k]; k++) {
    uint64_t end = k + 1 < q->h.n_bones && d->bone_off[k + 1] ? d->bone_off[k + 1] : d->bone_off[k] + 1;
    uint64_t len = end - d->bone_off[k];
    model_span_bytes(d->m, MODEL_EL_JOINT, k, 1, d->bone_off[k], len < UINT32_MAX ? (uint32_t)len : UINT32_MAX);
  }
}

/* 1 when the sections, read with header h and no diagnostics, end exactly at the end of the
 * file with no error. */
static int sections_fit(const struct qmsh_dec *orig, const struct qmsh_header *h)
{
  struct qmsh_dec d;
  struct qmsh_mesh q;
  struct diag_sink sink;
  struct model scratch;
  mdl_options quiet;
  int fit;

  mdl_options_init(&quiet);
  quiet.max_per_rule = 1; /* repeats are counted, not formatted */
  if (diag_sink_init(&sink, &quiet) < 0)
    return 0;
  model_init(&scratch);
  memset(&d, 0, sizeof d);
  memset(&q, 0, sizeof q);
  q.h = *h;
  d.ctx = orig->ctx;
  d.in = orig->in;
  d.diag = &sink;
  d.m = &scratch;
  d.q = &q;
  d.skeletal = orig->skeletal;
  d.pos = (uint64_t)qmsh_header_size(h->version);
  qmsh_sections_read(&d);
  fit = !d.fatal && !d.misfit && d.pos == d.in->size && diag_errors(&sink) == 0;
  diag_sink_finish(&sink);
  model_free(&scratch);
  return fit;
}

/* When the sections do not fit the file, try each header count one or two off: a single value
 * that makes everything fit exactly is most likely the defect, and is worth naming. */
static void counts_guess(struct qmsh_dec *d)
{
  static const char *const names[7] = {"n_verts", "n_tris", "n_subs", "n_bones", "n_anims",
                                       "n_points", "n_groups"};
  static const int deltas[4] = {-1, 1, -2, 2};
  const struct qmsh_header *h = &d->q->h;
  const uint16_t cur[7] = {h->n_verts, h->n_tris, h->n_subs, h->n_bones, h->n_anims,
                           h->n_points, h->n_groups};

  if (d->in->size > (1u << 20))
    return; /* each guess re-reads the file: keep it cheap */
  for (int i = 0; i < 7; i++) {
    if (i >= 3 && i != 5 && !d->skeletal)
      continue; /* bones, animations and groups are only read for a skeleton */
    for (int k = 0; k < 4; k++) {
      struct qmsh_header alt = *h;
      uint16_t *c[7] = {&alt.n_verts, &alt.n_tris, &alt.n_subs, &alt.n_bones, &alt.n_anims,
                        &alt.n_points, &alt.n_groups};
      int v = (int)cur[i] + deltas[k];
      if (v < 0 || v > 65535)
        continue;
      *c[i] = (uint16_t)v;
      if (sections_fit(d, &alt)) {
        struct mdl_loc loc = loc_bin(6 + 2u * (uint64_t)i, "header.%s", names[i]);
        char want[16];
        snprintf(want, sizeof want, "%d", v);
        diag_emit(d->diag, RULE_QMSH_COUNT_MISMATCH, &loc, want, "%u", cur[i]);
        return;
      }
    }
  }
}

static int qmsh_decode(struct decode_ctx *ctx, struct model *m)
{
  struct qmsh_dec d;

  memset(&d, 0, sizeof d);
  d.ctx = ctx;
  d.in = &ctx->in;
  d.diag = ctx->diag;
  d.m = m;
  d.q = arena_calloc(&m->arena, 1, sizeof *d.q);
  if (!d.q)
    return -1;
  if (qmsh_header_read(&d) < 0)
    return -1;
  snprintf(ctx->version, sizeof ctx->version, "%u", d.q->h.version);
  d.skeletal = qmsh_is_skeletal(d.q->h.flags);
  qmsh_header_check(&d);
  qmsh_sections_read(&d);
  if (m->want_spans)
    spans_record(&d);
  if (d.fatal || d.misfit)
    counts_guess(&d);
  if (d.fatal)
    return -1;
  qmsh_bounds_check(&d);
  if (qmsh_model_fill(&d) < 0)
    return -1;
  /* counted only when their section was read; a v12 skeleton with fewer than two groups
   * stores none, and its one implicit group holds every bone */
  if (d.q->points)
    decode_stat(ctx, "points", d.q->h.n_points);
  if (d.skeletal && (d.q->groups || d.q->groups_implicit))
    decode_stat(ctx, "bone_groups", d.q->groups_implicit ? 1 : d.q->num_groups);
  return 0;
}

static int qmsh_detect(const unsigned char *data, size_t size)
{
  return size >= 4 && !memcmp(data, "QMSH", 4) ? 100 : 0;
}

/* --profile=engine: what the CaRpg engine itself loads (versions 20-22) */
static int qmsh_profile_at(const mdl_options *o, size_t i, char *buf, size_t cap)
{
  static const char *const names[] = {"engine", NULL};
  (void)o;
  if (i >= sizeof names / sizeof names[0] - 1)
    return -1;
  snprintf(buf, cap, "%s", names[i]);
  return 0;
}

static const struct format_profile qmsh_profile_docs[] = {
  {"engine", "QMSH: what the CaRpg engine itself loads (versions 20-22)"},
  {NULL, NULL}
};

const struct mdl_format qmsh_format = {
  .name = "qmsh", /* the registry and the rule catalogue (rules_gen.c) point here */
  .description = "CaRpg QMSH mesh (binary, versions 12-22)",
  .extensions = qmsh_extensions,
  .precision = FMT_PRECISION_OWN,
  .up_axis = "y", /* a Direct3D engine */
  .profile_docs = qmsh_profile_docs,
  .detect = qmsh_detect,
  .decode = qmsh_decode,
  .write = qmsh_write,
  .profile_at = qmsh_profile_at,
  .repair = qmsh_repair,
};
