/* x42_format.c - X42 registration: content detection, the version dispatch (V5 checked byte for
 * byte, V0 ... V4b through layout profiles, anything else refused with what is known), and the
 * V5 pipeline: header, layout against the file length, sections, key stream, model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "x42.h"

static const char *const x42_extensions[] = {".x42", NULL};

static int x42_detect(const unsigned char *data, size_t size)
{
  uint32_t ident, version;
  if (size < 4)
    return 0;
  ident = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24;
  if (ident == X42_IDENT_SWAPPED)
    return 80;
  if (ident != X42_IDENT)
    return 0;
  if (size < 8)
    return 60;
  version = (uint32_t)data[4] | (uint32_t)data[5] << 8 | (uint32_t)data[6] << 16 | (uint32_t)data[7] << 24;
  return version == X42_VERSION_V5 ? 100 : 90;
}

/* Header, layout, sections and every rule over one buffer. Returns 0 when the sections were
 * read (doc filled), -1 when the layout does not fit the file (nothing past the header read). */
static int v5_run(struct x42_ctx *x)
{
  struct x42_doc *d = x->doc;
  x42_header_parse(x->in, d);
  x42_header_check(x);
  x42_layout_compute(d, x42_blend_len_at(x->in, d), &x->lay);
  if (x->lay.end > x->in->size)
    return -1;
  if (x42_sections_read(x) < 0)
    return -1;
  x42_sections_check(x);
  x42_keys_check(x);
  x42_anims_check(x);
  return 0;
}

/* Errors the V5 rules find in data, reported nowhere; ULONG_MAX when the layout does not fit. */
static unsigned long v5_trial(const unsigned char *data, size_t size)
{
  mdl_options quiet;
  struct diag_sink sink;
  struct arena arena;
  struct x42_doc doc;
  struct x42_ctx x;
  unsigned long errors = (unsigned long)-1;
  mdl_options_init(&quiet);
  if (diag_sink_init(&sink, &quiet) < 0)
    return errors;
  arena_init(&arena);
  memset(&doc, 0, sizeof doc);
  memset(&x, 0, sizeof x);
  struct reader in;
  reader_init(&in, data, size);
  x.in = &in;
  x.diag = &sink;
  x.doc = &doc;
  x.arena = &arena;
  if (v5_run(&x) == 0)
    errors = diag_errors(&sink);
  arena_free(&arena);
  return errors;
}

struct length_fix {
  uint64_t off;
  unsigned width; /* 2 or 4 bytes */
  uint32_t value;
  char path[64];
  unsigned long errors;
};

/* Where the sections of data end; blend: the blend section's length, or UINT64_MAX to take
 * it from the groups where this layout puts them. */
static uint64_t layout_end_blend(const unsigned char *data, size_t size, uint64_t blend)
{
  struct reader in;
  struct x42_doc d;
  struct x42_layout lay;
  reader_init(&in, data, size);
  memset(&d, 0, sizeof d);
  x42_header_parse(&in, &d);
  x42_layout_compute(&d, blend == UINT64_MAX ? x42_blend_len_at(&in, &d) : blend, &lay);
  return lay.end;
}

static uint64_t layout_end_of(const unsigned char *data, size_t size)
{
  return layout_end_blend(data, size, UINT64_MAX);
}

static void patch(unsigned char *p, uint64_t off, unsigned width, uint32_t v)
{
  for (unsigned i = 0; i < width; i++)
    p[off + i] = (unsigned char)(v >> (8 * i));
}

struct explain {
  struct x42_ctx *x;
  unsigned char *copy;
  size_t size;
  unsigned trials;
  struct length_fix best[3];
  int nbest;
  struct { uint64_t off; uint32_t value; } tried[128];
  unsigned ntried;
};

/* Try one changed field: kept when the sections then end at the file's end and the content
 * has no more errors than the best so far (ties are all kept, up to 3). */
static void explain_try(struct explain *e, uint64_t off, unsigned width, uint32_t value, const char *path)
{
  uint32_t old = width == 2 ? reader_u16_at(e->x->in, off) : reader_u32_at(e->x->in, off);
  if (value == old || e->trials >= 64)
    return;
  for (unsigned i = 0; i < e->ntried; i++)
    if (e->tried[i].off == off && e->tried[i].value == value)
      return;
  if (e->ntried < sizeof e->tried / sizeof e->tried[0])
    e->tried[e->ntried].off = off, e->tried[e->ntried++].value = value;
  patch(e->copy, off, width, value);
  if (layout_end_of(e->copy, e->size) == e->size) {
    unsigned long errors = v5_trial(e->copy, e->size);
    struct length_fix f;
    e->trials++;
    f.off = off, f.width = width, f.value = value, f.errors = errors;
    snprintf(f.path, sizeof f.path, "%s", path);
    if (e->nbest && errors < e->best[0].errors)
      e->nbest = 0;
    if ((!e->nbest || errors == e->best[0].errors) && e->nbest < 3 && errors != (unsigned long)-1)
      e->best[e->nbest++] = f;
  }
  patch(e->copy, off, width, old);
}

/* The sections' end grows with every count: search the value that ends them at the file's end. */
static void explain_count(struct explain *e, uint64_t off, unsigned width, const char *path, int in_group)
{
  uint64_t max = width == 2 ? 0xFFFF : 0xFFFFFFFFu;
  uint32_t old = width == 2 ? reader_u16_at(e->x->in, off) : reader_u32_at(e->x->in, off);
  /* the blend section's length depends on where the groups are read, which makes the end
   * jump about; the search holds it at the declared file's length (then at 0) */
  uint64_t blends[2] = {e->x->lay.size[XS_BLEND], 0};
  if (in_group) /* a group's own field moves only the blend section: search the real end */
    blends[0] = blends[1] = UINT64_MAX;
  for (int pass = 0; pass < 2; pass++) {
    uint64_t lo = 0, hi = max;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      patch(e->copy, off, width, (uint32_t)mid);
      if (layout_end_blend(e->copy, e->size, blends[pass]) >= e->size)
        hi = mid;
      else
        lo = mid + 1;
    }
    /* alignment makes several neighbouring values end at the same place: try them all */
    for (uint64_t v = lo >= 4 ? lo - 4 : 0; v < lo + 8 && v <= max; v++) {
      patch(e->copy, off, width, (uint32_t)v);
      if (layout_end_of(e->copy, e->size) == e->size) {
        patch(e->copy, off, width, old);
        explain_try(e, off, width, (uint32_t)v, path);
      }
    }
    patch(e->copy, off, width, old);
    if (blends[0] == 0 || in_group)
      break;
  }
  /* and the values next to the declared one (a count off by one or a flipped low bit) */
  for (int64_t v = (int64_t)old - 2; v <= (int64_t)old + 2; v++) {
    if (v < 0 || (uint64_t)v > max)
      continue;
    patch(e->copy, off, width, (uint32_t)v);
    if (layout_end_of(e->copy, e->size) == e->size) {
      patch(e->copy, off, width, old);
      explain_try(e, off, width, (uint32_t)v, path);
    }
    patch(e->copy, off, width, old);
  }
}

/* The file's length disagrees with what the header declares. Try changing one header count,
 * one flag bit or one group's blend shape: a change that makes the sections end exactly at the
 * file's end and leaves fewer errors than the file as declared names the likely broken field. */
static void length_explain(struct x42_ctx *x, unsigned long baseline)
{
  static const struct { uint16_t off; uint8_t width; const char *path; } fields[] = {
    {X42_OFF_NAME_BLOB, 2, "header.nameBlobLen"}, {X42_OFF_NUM_BONES, 2, "header.numBones"},
    {X42_OFF_NUM_ANIM_GROUPS, 2, "header.numAnimGroups"}, {X42_OFF_NUM_POS, 2, "header.numPosValues"},
    {X42_OFF_NUM_ROT, 2, "header.numRotValues"}, {X42_OFF_NUM_SCALE, 2, "header.numScaleValues"},
    {X42_OFF_KEY_LEN, 2, "header.keyStreamLength"}, {X42_OFF_NUM_ANIMS, 2, "header.numAnims"},
    {X42_OFF_NUM_TAGS, 2, "header.numTags"}, {X42_OFF_NUM_INFL, 2, "header.numInfluences"},
    {X42_OFF_NUM_LODS, 2, "header.numLods"}, {X42_OFF_NUM_GROUPS, 2, "header.numGroups"},
    {X42_OFF_NUM_VERTS, 4, "header.numVerts"}, {X42_OFF_NUM_INDICES, 4, "header.numIndices"},
  };
  struct explain e;
  char path[64];
  if (x->in->size > (8u << 20)) /* each trial decodes the file again: only for files up to 8 MiB */
    return;
  memset(&e, 0, sizeof e);
  e.x = x;
  e.size = x->in->size;
  e.copy = malloc(e.size);
  if (!e.copy)
    return;
  memcpy(e.copy, x->in->data, e.size);
  for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
    explain_count(&e, fields[f].off, fields[f].width, fields[f].path, 0);
  {
    static const uint16_t bits[] = {0x1, 0x2, 0x4, 0x8, 0x100};
    uint16_t flags = reader_u16_at(x->in, X42_OFF_FLAGS);
    for (size_t b = 0; b < sizeof bits / sizeof bits[0]; b++)
      explain_try(&e, X42_OFF_FLAGS, 2, (uint32_t)(flags ^ bits[b]), "header.modelFlags");
  }
  if (reader_has_array(x->in, x->lay.off[XS_GROUPS], x->doc->num_groups, 148)) {
    for (uint32_t g = 0; g < x->doc->num_groups && g < 16; g++) {
      uint64_t rec = x->lay.off[XS_GROUPS] + 148u * (uint64_t)g;
      for (uint32_t k = 0; k <= 4; k++) {
        snprintf(path, sizeof path, "groups[%u].maxVertInfluences", g);
        explain_try(&e, rec + 4, 2, k, path);
      }
      snprintf(path, sizeof path, "groups[%u].numVerts", g);
      explain_count(&e, rec + 136, 4, path, 1);
    }
  }
  free(e.copy);
  for (int i = 0; i < e.nbest; i++) {
    const struct length_fix *f = &e.best[i];
    char exp[96];
    struct mdl_loc loc;
    uint32_t cur = f->width == 2 ? reader_u16_at(x->in, f->off) : reader_u32_at(x->in, f->off);
    if (f->errors >= baseline)
      break;
    loc = loc_bin(f->off, "%s", f->path);
    snprintf(exp, sizeof exp, f->off == X42_OFF_FLAGS ? "0x%x" : "%u", f->value);
    diag_emit(x->diag, RULE_X42_LENGTH_EXPLAINED, &loc, exp, f->off == X42_OFF_FLAGS ? "0x%x" : "%u", cur);
  }
}

static int v5_decode(struct decode_ctx *ctx, struct model *m)
{
  struct x42_doc *doc = arena_calloc(&m->arena, 1, sizeof *doc);
  struct x42_ctx x;
  size_t size = ctx->in.size;
  if (!doc)
    return -1;
  doc->magic = X42_DOC_MAGIC;
  memset(&x, 0, sizeof x);
  x.dc = ctx;
  x.diag = ctx->diag;
  x.in = &ctx->in;
  x.m = m;
  x.doc = doc;
  x.arena = &m->arena;
  snprintf(ctx->version, sizeof ctx->version, "V5 (101)");
  if (size < X42_FIXED_SIZE) {
    struct mdl_loc loc = loc_bin(size, "header");
    diag_emit(ctx->diag, RULE_X42_FILE_TOO_SHORT, &loc, ">= 160 bytes (ident, header, pack header)", "%zu bytes", size);
    return -1;
  }
  if (v5_run(&x) < 0) {
    int s = 0;
    struct mdl_loc loc;
    char exp[64];
    if (x.lay.end <= size) /* the sections fit but could not be held in memory */
      return -1;
    while (s < XS_COUNT - 1 && x.lay.off[s] + x.lay.size[s] <= size)
      s++;
    loc = loc_bin(x.lay.off[s] < size ? x.lay.off[s] : size, "sections[%d]", s);
    snprintf(exp, sizeof exp, ">= %llu bytes", (unsigned long long)x.lay.end);
    diag_emit(ctx->diag, RULE_X42_SECTIONS_PAST_END, &loc, exp, "%zu bytes", size);
    /* a group asking for more than 4 influences inflates the blend data past the end */
    if (reader_has_array(x.in, x.lay.off[XS_GROUPS], doc->num_groups, 148))
      for (uint32_t g = 0; g < doc->num_groups; g++) {
        uint64_t rec = x.lay.off[XS_GROUPS] + 148u * (uint64_t)g;
        uint16_t mi = reader_u16_at(x.in, rec + 4);
        if (mi > X42_MAX_INFLUENCES) {
          loc = loc_bin(rec + 4, "groups[%u].maxVertInfluences", g);
          diag_emit(ctx->diag, RULE_X42_GROUP_MAX_INFLUENCES, &loc, "0 ... 4", "%u", mi);
        }
      }
    length_explain(&x, (unsigned long)-1);
    return -1;
  }
  if (x.lay.end < size) {
    struct mdl_loc loc = loc_bin(x.lay.end, "trailing");
    char exp[64];
    snprintf(exp, sizeof exp, "%llu bytes", (unsigned long long)x.lay.end);
    diag_emit(ctx->diag, RULE_X42_TRAILING_BYTES, &loc, exp, "%llu bytes after the strings",
              (unsigned long long)(size - x.lay.end));
  }
  /* a wrong count can shift later sections so that they still seem to fit: when the file has
   * errors, see whether one header field explains them */
  if (diag_errors(ctx->diag))
    length_explain(&x, v5_trial(ctx->in.data, size));
  return x42_model_fill(&x) < 0 ? -1 : 0;
}

/* A big-endian file: the engine swaps it on load, so it is checked as the little-endian file the
 * engine sees (every offset is the same in both). The legacy layouts are assumed little-endian,
 * so a big-endian file of another version has no layout to check it against. */
static int big_decode(struct decode_ctx *ctx, struct model *m, uint32_t version)
{
  struct reader orig = ctx->in;
  struct mdl_loc loc;
  unsigned char *copy;
  int rc;
  if (version != X42_VERSION_V5) {
    loc = loc_bin(4, "version");
    snprintf(ctx->version, sizeof ctx->version, "%u", version);
    diag_emit(ctx->diag, RULE_X42_VERSION_UNKNOWN, &loc,
              "101 (V5) in a big-endian file (the legacy layouts are assumed little-endian)", "%u, read big-endian", version);
    return -1;
  }
  loc = loc_bin(0, "ident");
  diag_emit(ctx->diag, RULE_X42_IDENT_BYTE_SWAPPED, &loc, "\"HW42\" (little-endian)",
            "\"24WH\" (big-endian; checked as the engine swaps it)");
  copy = arena_calloc(&m->arena, orig.size, 1); /* the document may point into it: it lives with the model */
  if (!copy)
    return -1;
  x42_swap_v5(orig.data, copy, orig.size, 1);
  reader_init(&ctx->in, copy, orig.size);
  rc = v5_decode(ctx, m);
  ctx->in = orig;
  return rc;
}

static int x42_decode(struct decode_ctx *ctx, struct model *m)
{
  struct reader *in = &ctx->in;
  uint32_t ident, version;
  struct mdl_loc loc;
  if (in->size < 8) {
    loc = loc_bin(in->size, "ident");
    diag_emit(ctx->diag, RULE_X42_FILE_TOO_SHORT, &loc, ">= 160 bytes (ident, header, pack header)", "%zu bytes", in->size);
    return -1;
  }
  ident = reader_u32_at(in, 0);
  version = reader_u32_at(in, 4);
  if (ident == X42_IDENT_SWAPPED)
    return big_decode(ctx, m, (version & 0xFF) << 24 | (version & 0xFF00) << 8 | (version >> 8 & 0xFF00) | version >> 24);
  if (ident != X42_IDENT) {
    loc = loc_bin(0, "ident");
    diag_emit(ctx->diag, RULE_X42_IDENT, &loc, "0x32345748 (\"HW42\")", "0x%08x", ident);
    return -1;
  }
  if (version == X42_VERSION_V5)
    return v5_decode(ctx, m);
  /* a legacy number on a file that is laid out exactly as a clean V5 file: the version field is
   * the damage (legacy numbers are assumed, a V5 body is not) */
  if (!x42_legacy_forced(ctx->options) && x42_legacy_detect_version(version, ctx->options) && in->size >= X42_FIXED_SIZE &&
      layout_end_of(in->data, in->size) == in->size && v5_trial(in->data, in->size) == 0) {
    loc = loc_bin(4, "version");
    diag_emit(ctx->diag, RULE_X42_VERSION_MISMATCH, &loc, "101 (the file is laid out as V5 and checks clean as V5)",
              "%u (a legacy number)", version);
    return v5_decode(ctx, m);
  }
  /* --profile=x42-NAME names the legacy layout to check against, whatever the version says */
  if (x42_legacy_detect_version(version, ctx->options) || x42_legacy_forced(ctx->options))
    return x42_legacy_decode(ctx, m, version);
  loc = loc_bin(4, "version");
  snprintf(ctx->version, sizeof ctx->version, "%u", version);
  diag_emit(ctx->diag, RULE_X42_VERSION_UNKNOWN, &loc,
            "101 (V5, known byte for byte) or a legacy profile's number (V0 ... V4b, all < 101, assumed)", "%u", version);
  return -1;
}

extern const struct format_locator x42_locator;

static const struct format_profile x42_profile_docs[] = {
  {"x42-v0 ... x42-v4b", "force an X42 legacy layout (also x42- and the name of your --x42-layout)"},
  {NULL, NULL}
};

const struct mdl_format x42_format = {
  .name = "x42", /* the registry and the rule catalogue (rules_gen.c) point here */
  .description = "X42 skeletal model (binary)",
  .extensions = x42_extensions,
  .precision = FMT_PRECISION_OWN,
  .up_axis = "y", /* a Direct3D engine */
  .profile_docs = x42_profile_docs,
  .detect = x42_detect,
  .decode = x42_decode,
  .write = x42_write,
  .profile_at = x42_profile_at,
  .options_check = x42_options_check,
  .locator = &x42_locator,
};
