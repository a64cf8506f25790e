/* iqm_vertex.c - vertex array records (type, format, size, order, flags, alignment: R6, R11-R18)
 * and their data: non-finite floats (R39), blend indexes and weights (R37, R38). */
#include <stdio.h>

#include "iqm.h"
#include "iqm_fast.h"
#include "f32_scan.h"

static const unsigned format_size[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};
static const char *const format_names[VF_COUNT] = {
  "byte", "ubyte", "short", "ushort", "int", "uint", "half", "float", "double"
};
static const char *const type_names[7] = {
  "position", "texcoord", "normal", "tangent", "blendindexes", "blendweights", "color"
};
/* recommended format and size per standard type (iqm.txt:43-50) */
static const uint32_t rec_format[7] = {VF_FLOAT, VF_FLOAT, VF_FLOAT, VF_FLOAT, VF_UBYTE, VF_UBYTE, VF_UBYTE};
static const uint32_t rec_size[7] = {3, 2, 3, 4, 4, 4, 4};

static uint32_t type_rank(uint32_t type)
{
  return type >= VT_CUSTOM ? VT_CUSTOM : type;
}

static uint64_t va_record(const struct iqm *q, uint32_t i)
{
  return q->sec[S_VARRAYS].ofs + (uint64_t)i * 20;
}

/* How many of n records at p are nonsense (unknown format or size, data outside the file)? */
static uint32_t records_broken(const struct iqm *q, const unsigned char *p, uint32_t n)
{
  uint32_t bad = 0;
  for (uint32_t i = 0; i < n; i++) {
    const unsigned char *r = p + (size_t)i * 20;
    uint32_t format = le32(r + 8), size = le32(r + 12), offset = le32(r + 16);
    uint64_t len = format < VF_COUNT ? (uint64_t)HV(q, H_NUM_VERTEXES) * size * format_size[format] : 0;
    if (format >= VF_COUNT || size < 1 || size > 4 || offset % 4 || offset > q->size ||
        len > q->size - offset || le32(r + 4) != 0)
      bad++;
  }
  return bad;
}

/* Records that are nonsense where ofs_vertexarrays points but whole a few bytes away: the
 * offset is off (the writer's valign padding hides a shift from the overlap check). */
static void check_shift(struct iqm *q, const unsigned char *p, uint32_t n)
{
  uint64_t ofs = q->sec[S_VARRAYS].ofs, cand[12];
  size_t nc = 0;
  if (n == 0 || records_broken(q, p, n) == 0)
    return;
  /* a few bytes either way, or where the writer puts them: after the meshes or the text */
  for (int64_t d = -16; d <= 16; d += 4)
    if (d && (int64_t)ofs + d >= (int64_t)IQM_HEADER_SIZE)
      cand[nc++] = (uint64_t)((int64_t)ofs + d);
  if (HV(q, H_NUM_MESHES))
    cand[nc++] = (uint64_t)HV(q, H_OFS_MESHES) + (uint64_t)HV(q, H_NUM_MESHES) * 24;
  else if (HV(q, H_NUM_TEXT))
    cand[nc++] = ((uint64_t)HV(q, H_OFS_TEXT) + HV(q, H_NUM_TEXT) + 3) / 4 * 4;
  for (size_t c = 0; c < nc; c++) {
    const unsigned char *alt;
    if (cand[c] == ofs)
      continue;
    alt = reader_ptr(q->in, cand[c], (uint64_t)n * 20);
    if (alt && records_broken(q, alt, n) == 0) {
      struct mdl_loc loc = loc_bin(H_OFS_VARRAYS, "header.ofs_vertexarrays");
      char expected[48];
      snprintf(expected, sizeof expected, "%llu", (unsigned long long)cand[c]);
      diag_emit(q->diag, RULE_IQM_SECTION_SHIFTED, &loc, expected, "%llu", (unsigned long long)ofs);
      return;
    }
  }
}

void iqm_varrays_read(struct iqm *q)
{
  const unsigned char *p = iqm_section_data(q, S_VARRAYS);
  uint32_t n = HV(q, H_NUM_VARRAYS);
  uint32_t max_rank = 0, prev_max = 0, max_i = 0;
  uint32_t type_count[7] = {0, 0, 0, 0, 0, 0, 0};
  int seen[7] = {0, 0, 0, 0, 0, 0, 0};

  q->m->num_vertexes = HV(q, H_NUM_VERTEXES);
  if (!p || n == 0) {
    iqm_extents_finish(q);
    if (n == 0 && HV(q, H_NUM_VERTEXES) > 0 && HV(q, H_NUM_MESHES) > 0) {
      struct mdl_loc loc = loc_bin(H_NUM_VARRAYS, "header.num_vertexarrays");
      diag_emit(q->diag, RULE_IQM_VARRAY_NO_POSITION, &loc, "a position array",
                "no vertex arrays for %u vertices", HV(q, H_NUM_VERTEXES));
    } else if (n == 0 && HV(q, H_NUM_VERTEXES) > 0) {
      /* no mesh: readers never look at vertices, the count is only stale */
      struct mdl_loc loc = loc_bin(H_NUM_VERTEXES, "header.num_vertexes");
      diag_emit(q->diag, RULE_IQM_VARRAY_STALE_VERTEX_COUNT, &loc, "0 (no meshes, no vertex arrays)", "%u",
                HV(q, H_NUM_VERTEXES));
    }
    return;
  }
  q->va = arena_calloc(&q->m->arena, n, sizeof *q->va);
  q->m->varrays = arena_calloc(&q->m->arena, n, sizeof *q->m->varrays);
  if (!q->va || !q->m->varrays) {
    iqm_extents_finish(q);
    return;
  }
  q->num_va = n;
  q->m->num_varrays = n;
  check_shift(q, p, n);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t t = le32(p + (size_t)i * 20);
    if (t <= VT_COLOR)
      type_count[t]++;
  }
  for (uint32_t i = 0; i < n; i++) {
    const unsigned char *r = p + (size_t)i * 20;
    struct iqm_varray *v = &q->va[i];
    struct model_varray *mv = &q->m->varrays[i];
    uint64_t rec = va_record(q, i);
    uint32_t rank;
    int known_format, known_size;
    struct mdl_loc loc;

    v->type = le32(r);
    v->flags = le32(r + 4);
    v->format = le32(r + 8);
    v->size = le32(r + 12);
    v->offset = le32(r + 16);
    mv->type = v->type;
    mv->flags = v->flags;
    mv->format = v->format;
    mv->size = v->size;

    if (v->type >= VT_CUSTOM) {
      mv->name = iqm_string(q, v->type - VT_CUSTOM, rec, "vertexarrays[%u].type", i);
    } else if (v->type > VT_COLOR && iqm_want(q, RULE_IQM_VARRAY_TYPE_RESERVED)) {
      loc = loc_bin(rec, "vertexarrays[%u].type", i);
      diag_emit(q->diag, RULE_IQM_VARRAY_TYPE_RESERVED, &loc, "0-6 or >= 16 (custom)", "%u", v->type);
    }
    /* R15: position < texcoord < ... < color < custom; reserved types keep their number */
    rank = type_rank(v->type);
    if (rank < max_rank) {
      /* the record out of place: a peak (the one before, the holder of the maximum) or a dip
       * (this one); a type that duplicates another array is the likelier retyped one */
      uint32_t tm = le32(p + (size_t)max_i * 20), blamed = i;
      int dup_m = tm <= VT_COLOR && type_count[tm] > 1, dup_i = v->type <= VT_COLOR && type_count[v->type] > 1;
      int next_ok = i + 1 == n || type_rank(le32(r + 20)) >= max_rank;
      if ((dup_m && !dup_i) || (!next_ok && rank >= prev_max))
        blamed = max_i;
      if (iqm_want(q, RULE_IQM_VARRAY_ORDER)) {
        loc = loc_bin(va_record(q, blamed), "vertexarrays[%u].type", blamed);
        diag_emit(q->diag, RULE_IQM_VARRAY_ORDER, &loc, "types in the order position, texcoord, "
                  "normal, tangent, blendindexes, blendweights, color, custom",
                  "%u after %u", blamed == i ? v->type : tm, blamed == i ? max_rank : prev_max);
      }
      if (blamed != i) {
        /* the peak is out of the way: carry on from this record */
        max_rank = rank > prev_max ? rank : prev_max;
        max_i = i;
      }
    } else {
      if (rank > max_rank)
        prev_max = max_rank;
      max_rank = rank;
      max_i = i;
    }
    if (v->type <= VT_COLOR) {
      if (seen[v->type] && iqm_want(q, RULE_IQM_VARRAY_DUPLICATE)) {
        loc = loc_bin(rec, "vertexarrays[%u].type", i);
        diag_emit(q->diag, RULE_IQM_VARRAY_DUPLICATE, &loc, "one array per standard type",
                  "a second %s array", type_names[v->type]);
      }
      seen[v->type] = 1;
    }
    if (v->flags && iqm_want(q, RULE_IQM_VARRAY_FLAGS)) {
      loc = loc_bin(rec + 4, "vertexarrays[%u].flags", i);
      diag_emit(q->diag, RULE_IQM_VARRAY_FLAGS, &loc, "0", "0x%08x", v->flags);
    }
    known_format = v->format < VF_COUNT;
    known_size = v->size >= 1 && v->size <= 4;
    if (!known_format && iqm_want(q, RULE_IQM_VARRAY_FORMAT)) {
      loc = loc_bin(rec + 8, "vertexarrays[%u].format", i);
      diag_emit(q->diag, RULE_IQM_VARRAY_FORMAT, &loc, "0-8 (byte ... double)", "%u", v->format);
    }
    if (!known_size && iqm_want(q, RULE_IQM_VARRAY_SIZE)) {
      loc = loc_bin(rec + 12, "vertexarrays[%u].size", i);
      diag_emit(q->diag, RULE_IQM_VARRAY_SIZE, &loc, "1-4", "%u", v->size);
    }
    if (v->type <= VT_COLOR && known_format && known_size &&
        (v->format != rec_format[v->type] || v->size != rec_size[v->type]) &&
        iqm_want(q, RULE_IQM_VARRAY_NONPORTABLE)) {
      if (v->format != rec_format[v->type]) {
        char expected[32];
        loc = loc_bin(rec + 8, "vertexarrays[%u].format", i);
        snprintf(expected, sizeof expected, "%s", format_names[rec_format[v->type]]);
        diag_emit(q->diag, RULE_IQM_VARRAY_NONPORTABLE, &loc, expected, "%s %s",
                  type_names[v->type], format_names[v->format]);
      } else if (v->size != rec_size[v->type]) {
        char expected[16];
        loc = loc_bin(rec + 12, "vertexarrays[%u].size", i);
        snprintf(expected, sizeof expected, "%u", rec_size[v->type]);
        diag_emit(q->diag, RULE_IQM_VARRAY_NONPORTABLE, &loc, expected, "%s with %u components",
                  type_names[v->type], v->size);
      }
    }
    if (known_format && q->ext != q->sec) {
      struct iqm_extent *e = &q->ext[q->next];
      int rf = v->type > VT_COLOR || v->format == rec_format[v->type];
      int rs = known_size && (v->type > VT_COLOR || v->size == rec_size[v->type]);
      unsigned align = format_size[v->format] > 4 ? format_size[v->format] : 4;
      v->ext = q->next;
      iqm_varray_extent(q, i, format_size[v->format], rf, rs);
      q->next++;
      iqm_extent_align_check(q, e, align);
    }
  }
  iqm_extents_finish(q);

  /* R18: arrays a loader needs (to draw meshes: without one no reader touches vertices) */
  if (HV(q, H_NUM_VERTEXES) > 0 && HV(q, H_NUM_MESHES) > 0) {
    struct mdl_loc loc = loc_bin(va_record(q, 0), "vertexarrays[0].type");
    if (!seen[VT_POSITION])
      diag_emit(q->diag, RULE_IQM_VARRAY_NO_POSITION, &loc, "a position array", "none");
    if (!seen[VT_NORMAL] || !seen[VT_TEXCOORD])
      diag_emit(q->diag, RULE_IQM_VARRAY_NO_NORMAL_TEXCOORD, &loc, "normal and texcoord arrays",
                "%s%s", seen[VT_NORMAL] ? "" : "no normal ", seen[VT_TEXCOORD] ? "" : "no texcoord");
    if (HV(q, H_NUM_JOINTS) > 0 && (!seen[VT_BLENDINDEXES] || !seen[VT_BLENDWEIGHTS])) {
      struct mdl_loc jl = loc_bin(H_NUM_JOINTS, "header.num_joints");
      diag_emit(q->diag, RULE_IQM_VARRAY_NO_BLEND, &jl, "blendindexes and blendweights arrays",
                "%u joints, %s%s", HV(q, H_NUM_JOINTS), seen[VT_BLENDINDEXES] ? "" : "no blendindexes ",
                seen[VT_BLENDWEIGHTS] ? "" : "no blendweights");
    }
  }
  if (HV(q, H_NUM_JOINTS) == 0 && (seen[VT_BLENDINDEXES] || seen[VT_BLENDWEIGHTS])) {
    struct mdl_loc loc = loc_bin(H_NUM_JOINTS, "header.num_joints");
    diag_emit(q->diag, RULE_IQM_BLEND_WITHOUT_JOINTS, &loc, "> 0 with blend arrays", "0");
  }
}

/* Scan one array's data for NaN and Inf (R39). */
static void scan_nonfinite(struct iqm *q, uint32_t i, const unsigned char *d, uint64_t count)
{
  const struct iqm_varray *v = &q->va[i];
  uint64_t k;
  switch (v->format) {
  case VF_FLOAT:
    /* sixteen at a time (iqm_fast.c), then from the start of the block that holds one */
    for (k = f32_finite_prefix(d, count); k < count; k++)
      if (!f32_bits_finite(le32(d + k * 4)))
        break;
    break;
  case VF_HALF:
    for (k = 0; k < count; k++)
      if ((le16(d + k * 2) & 0x7c00u) == 0x7c00u)
        break;
    break;
  case VF_DOUBLE:
    for (k = 0; k < count; k++)
      if ((d[k * 8 + 7] & 0x7fu) == 0x7fu && (d[k * 8 + 6] & 0xf0u) == 0xf0u)
        break;
    break;
  default:
    return;
  }
  /* report each bad component; the scan above finds the first quickly on clean data */
  for (; k < count; k++) {
    int bad;
    const unsigned char *c = d + k * format_size[v->format];
    if (v->format == VF_FLOAT)
      bad = !f32_bits_finite(le32(c));
    else if (v->format == VF_HALF)
      bad = (le16(c) & 0x7c00u) == 0x7c00u;
    else
      bad = (c[7] & 0x7fu) == 0x7fu && (c[6] & 0xf0u) == 0xf0u;
    if (bad && iqm_want(q, RULE_IQM_NONFINITE)) {
      struct mdl_loc loc = loc_bin(v->offset + k * format_size[v->format],
                                   "vertexarrays[%u].data[%llu][%llu]", i,
                                   (unsigned long long)(k / v->size), (unsigned long long)(k % v->size));
      diag_emit(q->diag, RULE_IQM_NONFINITE, &loc, "a finite number", "%s",
                v->format == VF_HALF ? "half NaN/Inf" : "NaN or Inf");
    }
  }
}

static int64_t component_int(const unsigned char *c, uint32_t format)
{
  switch (format) {
  case VF_BYTE: return (int8_t)c[0];
  case VF_UBYTE: return c[0];
  case VF_SHORT: return (int16_t)le16(c);
  case VF_USHORT: return le16(c);
  case VF_INT: return lei32(c);
  case VF_UINT: return le32(c);
  default: return 0;
  }
}

static int component_nonzero(const unsigned char *c, uint32_t format)
{
  switch (format) {
  case VF_HALF: return (le16(c) & 0x7fffu) != 0;
  case VF_FLOAT: return (le32(c) & 0x7fffffffu) != 0;
  case VF_DOUBLE: {
    for (int b = 0; b < 7; b++)
      if (c[b])
        return 1;
    return (c[7] & 0x7f) != 0;
  }
  default: return component_int(c, format) != 0;
  }
}

/* Vertices checked as one block by iqm_blend_clean4 before check_blend's reporting loop. */
#define BLEND_BLOCK 1024u

/* R37 and R38 over the last blendindexes and blendweights arrays (the ones loaders use). */
static void check_blend(struct iqm *q, int bi, int bw)
{
  const struct iqm_varray *vi = &q->va[bi], *vw = &q->va[bw];
  uint64_t nv = HV(q, H_NUM_VERTEXES);
  uint32_t nj = HV(q, H_NUM_JOINTS);
  uint32_t slots = vi->size < vw->size ? vi->size : vw->size;
  unsigned si = format_size[vi->format], sw = format_size[vw->format];
  const unsigned char *di = reader_ptr(q->in, vi->offset, nv * vi->size * si);
  const unsigned char *dw = reader_ptr(q->in, vw->offset, nv * vw->size * sw);
  int index_float = vi->format >= VF_HALF;

  /* the layout iqm_blend_clean4 takes; indexes are checked below only with joints, as integers */
  int four = vi->format == VF_UBYTE && vw->format == VF_UBYTE && vi->size == 4 && vw->size == 4;
  unsigned lim = nj > 0 && !index_float ? (nj < 256 ? nj : 256) : 256;

  if (!di || !dw)
    return;
  for (uint64_t v = 0; v < nv; v++) {
    const unsigned char *pi = di + v * vi->size * si, *pw = dw + v * vw->size * sw;
    if (four && v % BLEND_BLOCK == 0 && nv - v >= BLEND_BLOCK && iqm_blend_clean4(pi, pw, BLEND_BLOCK, lim)) {
      v += BLEND_BLOCK - 1; /* the whole block passes the tests below */
      continue;
    }
    if (nj > 0 && !index_float) {
      for (uint32_t s = 0; s < slots; s++) {
        /* bytes, as nearly every exporter writes them: no conversion per slot */
        int64_t idx = vi->format == VF_UBYTE ? pi[s] : component_int(pi + s * si, vi->format);
        if (idx >= 0 && idx < nj)
          continue;
        {
          int used = s == 0 || component_nonzero(pw + s * sw, vw->format);
          if (!iqm_want(q, used ? RULE_IQM_BLEND_INDEX_RANGE : RULE_IQM_BLEND_INDEX_UNUSED))
            continue;
          struct mdl_loc loc = loc_bin(vi->offset + (v * vi->size + s) * si,
                                       "vertexarrays[%d].data[%llu][%u]", bi, (unsigned long long)v, s);
          char expected[32];
          snprintf(expected, sizeof expected, "< %u (num_joints)", nj);
          diag_emit(q->diag, used ? RULE_IQM_BLEND_INDEX_RANGE : RULE_IQM_BLEND_INDEX_UNUSED, &loc,
                    expected, "%lld", (long long)idx);
        }
      }
    }
    if (vw->format == VF_UBYTE) {
      unsigned sum = 0, desc = 1;
      for (uint32_t s = 0; s < vw->size; s++) {
        sum += pw[s];
        /* a rounding tie leaves the writer's (127, 128): only a rise above 1 is out of order */
        if (s > 0 && pw[s] > pw[s - 1] + 1)
          desc = 0;
      }
      if (sum == 0) {
        if (iqm_want(q, RULE_IQM_BLEND_WEIGHTS_ZERO)) {
          struct mdl_loc loc = loc_bin(vw->offset + v * vw->size, "vertexarrays[%d].data[%llu]", bw,
                                       (unsigned long long)v);
          diag_emit(q->diag, RULE_IQM_BLEND_WEIGHTS_ZERO, &loc, "a non-zero weight", "all 0");
        }
      } else if (sum != 255 && iqm_want(q, RULE_IQM_BLEND_WEIGHT_SUM)) {
        struct mdl_loc loc = loc_bin(vw->offset + v * vw->size, "vertexarrays[%d].data[%llu]", bw,
                                     (unsigned long long)v);
        diag_emit(q->diag, RULE_IQM_BLEND_WEIGHT_SUM, &loc, "255", "%u", sum);
      }
      if (!desc && iqm_want(q, RULE_IQM_BLEND_WEIGHT_ORDER)) {
        struct mdl_loc loc = loc_bin(vw->offset + v * vw->size, "vertexarrays[%d].data[%llu]", bw,
                                     (unsigned long long)v);
        diag_emit(q->diag, RULE_IQM_BLEND_WEIGHT_ORDER, &loc, "weights in decreasing order",
                  "%u %u %u %u", pw[0], vw->size > 1 ? pw[1] : 0, vw->size > 2 ? pw[2] : 0,
                  vw->size > 3 ? pw[3] : 0);
      }
    }
  }
}

void iqm_varrays_check(struct iqm *q)
{
  int bi = -1, bw = -1;
  uint64_t nv = HV(q, H_NUM_VERTEXES);
  for (uint32_t i = 0; i < q->num_va; i++) {
    struct iqm_varray *v = &q->va[i];
    const struct iqm_extent *e;
    if (v->format >= VF_COUNT)
      continue;
    e = v->ext ? &q->ext[v->ext] : NULL;
    if (!e || !e->ok)
      continue;
    q->m->varrays[i].data = reader_ptr(q->in, v->offset, e->len);
    /* an array sharing bytes with another is not scanned: that bounds the work by the file */
    v->usable = !e->overlaps && v->size >= 1 && v->size <= 4;
    if (!v->usable || e->len == 0)
      continue;
    scan_nonfinite(q, i, q->m->varrays[i].data, nv * v->size);
    if (v->type == VT_BLENDINDEXES)
      bi = (int)i;
    else if (v->type == VT_BLENDWEIGHTS)
      bw = (int)i;
  }
  if (bi >= 0 && bw >= 0)
    check_blend(q, bi, bw);
}
