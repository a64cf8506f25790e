/* x42_test.c - X42 tests: synthetic V5 files are clean; decode -> write -> decode is byte-exact
 * through the document and within the packing bounds through the common model; single-field
 * defects are found at their offset; no single-byte mutation crashes the checker.
 * usage: x42_test [--sweep]   (--sweep prints, per mutated byte, whether an error was located) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model_diff.h"
#include "pipeline.h"
#include "pose.h"
#include "x42_models.h"
#include "x42_legacy.h"
#include "x42_profile.h"

static int failures;

#define CHECK(cond, ...)                                                                 \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                               \
      fprintf(stderr, __VA_ARGS__);                                                      \
      fputc('\n', stderr);                                                               \
      failures++;                                                                        \
    }                                                                                    \
  } while (0)

struct seen {
  int n;
  struct { char id[16]; long long offset; mdl_severity sev; } d[512];
  unsigned long errors, warnings;
  int verbose;
};

static void collect(const mdl_diag *d, void *user)
{
  struct seen *s = user;
  if (s->verbose)
    fprintf(stderr, "  %s %s @%lld %s: %s\n", mdl_severity_name(d->severity), d->rule->id, d->offset, d->path, d->message);
  if (d->severity <= MDL_ERROR)
    s->errors++;
  else if (d->severity == MDL_WARNING)
    s->warnings++;
  if (s->n < 512) {
    snprintf(s->d[s->n].id, sizeof s->d[s->n].id, "%s", d->rule->id);
    s->d[s->n].offset = d->offset;
    s->d[s->n].sev = d->severity;
    s->n++;
  }
}

/* The declared layout run() passes (options.layout_file: the library reads no environment). */
static const char *test_layout;

static void run(const unsigned char *data, size_t size, struct seen *s, int verbose)
{
  mdl_options o;
  mdl_result r;
  memset(s, 0, sizeof *s);
  s->verbose = verbose;
  mdl_options_init(&o);
  o.layout_file = test_layout;
  o.on_diag = collect;
  o.user = s;
  mdl_result_init(&r);
  mdl_validate_buffer(data, size, "t.x42", &o, &r);
}

static int has(const struct seen *s, const char *id, long long lo, long long hi)
{
  for (int i = 0; i < s->n; i++)
    if (!strcmp(s->d[i].id, id) && s->d[i].offset >= lo && s->d[i].offset <= hi)
      return 1;
  return 0;
}

static int encode(int (*make)(struct arena *, struct x42_doc *, char *, size_t), struct byte_buf *b)
{
  struct arena a;
  struct x42_doc d;
  int rc;
  arena_init(&a);
  buf_init(b);
  rc = make(&a, &d, b->error, sizeof b->error);
  if (rc == 0)
    rc = x42_doc_encode(&d, b);
  arena_free(&a);
  return rc;
}

static uint32_t u32_at(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t u16_at(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static void set16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void set32(unsigned char *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i)); }

static void test_clean(const char *name, const struct byte_buf *b)
{
  struct seen s;
  run(b->data, b->size, &s, 0);
  CHECK(s.errors == 0 && s.warnings == 0, "%s: %lu errors, %lu warnings on a clean file", name, s.errors, s.warnings);
}

/* What the common model holds beyond the skeleton and geometry survives the generic writer
 * exactly: tags (f32 affine), levels of detail, reverse animations. */
static void tags_lods_same(const char *name, const struct model *a, const struct model *b)
{
  CHECK(a->num_tags == b->num_tags && a->num_lods == b->num_lods, "%s: %u tags, %u lods became %u, %u", name,
        a->num_tags, a->num_lods, b->num_tags, b->num_lods);
  for (uint32_t i = 0; i < a->num_tags && i < b->num_tags; i++)
    CHECK(!strcmp(a->tags[i].name, b->tags[i].name) && a->tags[i].joint == b->tags[i].joint &&
          !memcmp(a->tags[i].m, b->tags[i].m, sizeof a->tags[i].m), "%s: tag %u changed", name, i);
  for (uint32_t i = 0; i < a->num_lods && i < b->num_lods; i++)
    CHECK(!strcmp(a->lods[i].name, b->lods[i].name) && a->lods[i].first_mesh == b->lods[i].first_mesh &&
          a->lods[i].num_meshes == b->lods[i].num_meshes, "%s: lod %u changed", name, i);
  for (uint32_t i = 0; i < a->num_anims && i < b->num_anims; i++)
    CHECK(a->anims[i].flags == b->anims[i].flags && a->anims[i].reverse == b->anims[i].reverse &&
          a->anims[i].first_frame == b->anims[i].first_frame, "%s: animation %u flags %#x reverse %u became %#x %u",
          name, i, a->anims[i].flags, a->anims[i].reverse, b->anims[i].flags, b->anims[i].reverse);
}

/* decode -> write (document) -> identical bytes; decode -> write (common model) -> decode within bounds */
static void test_roundtrip(const char *name, const struct byte_buf *b)
{
  mdl_options o;
  struct pipeline_run r1, r2;
  struct byte_buf w1, w2;
  mdl_options_init(&o);
  pipeline_decode(b->data, b->size, "t.x42", &o, 1, &r1);
  CHECK(r1.decoded && r1.format && !strcmp(r1.format->name, "x42"), "%s: not decoded", name);
  if (!r1.decoded)
    return;
  buf_init(&w1);
  CHECK(r1.format->write(&r1.model, NULL, &w1) == 0, "%s: write: %s", name, w1.error);
  CHECK(w1.size == b->size && !memcmp(w1.data, b->data, b->size), "%s: document round trip not byte-exact", name);
  r1.model.format_data = NULL;
  r1.model.format_data_owner = NULL;
  buf_init(&w2);
  CHECK(r1.format->write(&r1.model, NULL, &w2) == 0, "%s: generic write: %s", name, w2.error);
  pipeline_decode(w2.data, w2.size, "t.x42", &o, 1, &r2);
  CHECK(r2.decoded && r2.result.counts[MDL_ERROR] == 0 && r2.result.counts[MDL_WARNING] == 0,
        "%s: generic round trip decodes with %lu errors, %lu warnings", name, r2.result.counts[MDL_ERROR],
        r2.result.counts[MDL_WARNING]);
  if (r2.decoded) {
    CHECK(r1.model.num_joints == r2.model.num_joints && r1.model.num_frames == r2.model.num_frames &&
          r1.model.num_vertexes == r2.model.num_vertexes && r1.model.num_triangles == r2.model.num_triangles &&
          r1.model.num_anims == r2.model.num_anims,
          "%s: generic round trip changed the model's shape", name);
    if (r1.model.num_frames == r2.model.num_frames && r1.model.num_joints == r2.model.num_joints && r1.model.frames) {
      struct model_diff_opts d = {MODEL_DIFF_FRAMES, MODEL_DIFF_REAL_BITS, MODEL_DIFF_REAL_BITS,
                                  MODEL_DIFF_REAL_BITS, MODEL_DIFF_FRAMES_SECOND};
      struct model_diff_result e;
      model_diff(&r1.model, &r2.model, &d, NULL, NULL, &e);
      CHECK(e.mismatches == 0 && e.frame_ratio <= 1.0,
            "%s: frames differ beyond the packing bound: frame %u pose %u channel %u error %g bound %g", name,
            e.frame, e.pose, e.channel, e.frame_error, e.frame_bound);
    }
    tags_lods_same(name, &r1.model, &r2.model);
    for (uint32_t i = 0; i < r1.model.num_varrays && i < r2.model.num_varrays; i++) {
      const struct model_varray *a = &r1.model.varrays[i], *c = &r2.model.varrays[i];
      double tol = a->type == VT_POSITION ? 1e-4 : a->type == VT_BLENDWEIGHTS || a->type == VT_BLENDINDEXES || a->type == VT_COLOR ? 0 : 0.01;
      CHECK(a->type == c->type && a->size == c->size && a->format == c->format, "%s: varray %u differs", name, i);
      if (a->type != c->type || a->size != c->size || a->format != c->format)
        continue;
      for (size_t k = 0; k < (size_t)r1.model.num_vertexes * a->size; k++) {
        double x, y;
        if (a->format == VF_FLOAT) {
          float fx, fy;
          memcpy(&fx, a->data + 4 * k, 4);
          memcpy(&fy, c->data + 4 * k, 4);
          x = fx, y = fy;
        } else {
          x = a->data[k], y = c->data[k];
        }
        if (fabs(x - y) > tol) {
          CHECK(0, "%s: varray type %u component %zu: %g vs %g", name, a->type, k, x, y);
          break;
        }
      }
    }
  }
  buf_free(&w1);
  buf_free(&w2);
  pipeline_release(&r1);
  pipeline_release(&r2);
}

/* Section offsets of the animated file, read back through the decoder's layout. */
static void layout_of(const struct byte_buf *b, struct x42_layout *lay)
{
  struct reader in;
  struct x42_doc d;
  reader_init(&in, b->data, b->size);
  memset(&d, 0, sizeof d);
  x42_header_parse(&in, &d);
  x42_layout_compute(&d, x42_blend_len_at(&in, &d), lay);
}

struct mutation {
  const char *what;
  int section;        /* XS_*, or -1 for an absolute offset */
  uint32_t at;        /* offset in the section (or file) */
  int width;          /* 1, 2 or 4 */
  uint32_t value;
  const char *rule;
};

static void test_mutations(const struct byte_buf *b)
{
  static const struct mutation muts[] = {
    {"ident", -1, 0, 4, 0x12345678, "X42-HDR-002"},
    {"version 6", -1, 4, 4, 102, "X42-HDR-004"},
    {"version of V4b on a V5 body", -1, 4, 4, 100, "X42-HDR-016"},
    {"unknown flag", -1, 8, 2, 0x1F, "X42-HDR-005"},
    {"numAnimGroups 0", -1, 18, 2, 0, "X42-HDR-006"},
    {"keyStreamLength short", -1, 26, 2, 6, "X42-HDR-008"},
    {"numLods 0", -1, 34, 2, 0, "X42-HDR-009"},
    {"numTags +1", -1, 30, 2, 2, "X42-HDR-015"},
    {"numIndices -1", -1, 44, 4, 41, "X42-HDR-015"},
    {"bbox NaN", -1, 52, 4, 0x7FC00000, "X42-HDR-011"},
    {"pack NaN", -1, 92, 4, 0x7F800000, "X42-PCK-001"},
    {"bone parent self", XS_BONES, 12 + 4, 2, 1, "X42-BON-001"},
    {"bone name past blob", XS_BONES, 0, 2, 0x7FFF, "X42-STR-001"},
    {"bone name mid-string", XS_BONES, 12, 2, 2, "X42-STR-002"},
    {"anim group end", XS_ANIM_GROUPS, 6 + 4, 2, 9, "X42-AGR-001"},
    {"key type", XS_KEYS, 8 * 7, 2, 3, "X42-KEY-001"},
    {"key bone", XS_KEYS, 8 * 30 + 2, 2, 4, "X42-KEY-002"},
    {"key frame", XS_KEYS, 8 * 1 + 4, 2, 8, "X42-KEY-003"},
    {"key value", XS_KEYS, 8 * 2 + 6, 2, 500, "X42-KEY-004"},
    {"key initial bone", XS_KEYS, 8 * 6 + 2, 2, 2, "X42-KEY-005"},
    {"anim last frame", XS_ANIMS, 4, 2, 8, "X42-ANM-001"},
    {"anim loop order", XS_ANIMS, 12 + 8, 2, 7, "X42-ANM-002"},
    {"tag bone", XS_TAGS, 2, 2, 4, "X42-TAG-001"},
    {"influence bone", XS_INFLUENCES, 0, 2, 7, "X42-INF-001"},
    {"lod numGroups", XS_LODS, 4, 2, 3, "X42-LOD-001"},
    {"group maxVertInfluences", XS_GROUPS, 4, 2, 5, "X42-HDR-015"},
    {"group numInfluences", XS_GROUPS, 6, 2, 61, "X42-GRP-002"},
    {"group palette", XS_GROUPS, 8, 2, 9, "X42-GRP-003"},
    {"group primType", XS_GROUPS, 128, 2, 2, "X42-GRP-005"},
    {"group firstVert", XS_GROUPS, 132, 4, 10, "X42-GRP-006"},
    {"group numElems", XS_GROUPS, 144, 4, 60, "X42-GRP-007"},
    {"index", XS_INDICES, 4, 2, 8, "X42-IDX-001"},
    {"blend index", XS_BLEND, 0, 1, 7, "X42-BLD-001"},
    {"blend weight sum", XS_BLEND, 1, 1, 250, "X42-BLD-002"},
    {"blend weight", XS_BLEND, 1, 1, 0, "X42-LEN-000"},
    {"rotation value", XS_ROT_VALUES, 0, 2, 20000, "X42-VAL-001"},
    {"blob NUL", XS_STRINGS, 5, 1, 'x', "X42-STR-002"},
    {"blob control char", XS_STRINGS, 2, 1, 1, "X42-STR-004"},
  };
  struct x42_layout lay;
  layout_of(b, &lay);
  for (size_t i = 0; i < sizeof muts / sizeof muts[0]; i++) {
    const struct mutation *mu = &muts[i];
    unsigned char *copy = malloc(b->size);
    uint64_t off = (mu->section < 0 ? 0 : lay.off[mu->section]) + mu->at;
    struct seen s;
    if (!strcmp(mu->rule, "X42-LEN-000")) { /* a valid change: no error may appear */
      memcpy(copy, b->data, b->size);
      copy[off] = (unsigned char)mu->value;
      run(copy, b->size, &s, 0);
      CHECK(s.errors == 0, "%s: clean change reported %lu errors", mu->what, s.errors);
      free(copy);
      continue;
    }
    memcpy(copy, b->data, b->size);
    if (mu->width == 1)
      copy[off] = (unsigned char)mu->value;
    else if (mu->width == 2)
      set16(copy + off, (uint16_t)mu->value);
    else
      set32(copy + off, mu->value);
    run(copy, b->size, &s, 0);
    CHECK(has(&s, mu->rule, (long long)off, (long long)off + mu->width - 1), "%s: %s not reported at %llu", mu->what,
          mu->rule, (unsigned long long)off);
    if (!has(&s, mu->rule, (long long)off, (long long)off + mu->width - 1))
      run(copy, b->size, &s, 1);
    free(copy);
  }
  {
    /* truncation and a short file */
    struct seen s;
    run(b->data, b->size - 10, &s, 0);
    CHECK(s.errors > 0, "truncated file passed");
    run(b->data, 100, &s, 0);
    CHECK(has(&s, "X42-HDR-001", 0, 160), "short file: X42-HDR-001 missing");
  }
  (void)u32_at;
  (void)u16_at;
}

/* Every byte of the file mutated three ways: never a crash; report how often an error appears
 * within 4 bytes of the change. */
static void sweep(const struct byte_buf *b, int print)
{
  unsigned char *copy = malloc(b->size);
  unsigned long total = 0, invalid = 0, located = 0;
  static const unsigned char kinds[3] = {0xFF, 0x01, 0x80};
  for (size_t off = 0; off < b->size; off++)
    for (int k = 0; k < 3; k++) {
      struct seen s;
      int near = 0;
      memcpy(copy, b->data, b->size);
      if (k == 1)
        copy[off] ^= kinds[k];
      else if (copy[off] == kinds[k])
        continue;
      else
        copy[off] = kinds[k];
      run(copy, b->size, &s, 0);
      total++;
      for (int i = 0; i < s.n; i++)
        if (s.d[i].sev <= MDL_ERROR && s.d[i].offset >= (long long)off - 3 && s.d[i].offset <= (long long)off + 3)
          near = 1;
      invalid += s.errors > 0;
      located += near;
      if (print)
        printf("%zu kind %d: %s%s\n", off, k, s.errors ? "invalid" : "VALID", near ? " located" : "");
    }
  printf("sweep: %lu mutations, %lu invalid, %lu located near the change\n", total, invalid, located);
  free(copy);
}

static int read_file(const char *path, struct byte_buf *b)
{
  FILE *f = fopen(path, "rb");
  unsigned char tmp[4096];
  size_t n;
  buf_init(b);
  if (!f)
    return -1;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
    buf_put(b, tmp, n);
  fclose(f);
  return 0;
}

static void test_legacy_poses(const char *dir);

static void write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "wb");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* Legacy: every built-in profile's synthetic file is clean and names its assumptions; a V2a
 * defect is found; a user profile replaces the layout, a broken one is refused. */
static void test_legacy(void)
{
  char dir[] = "/tmp/x42testXXXXXX", path[256], prof[256];
  struct byte_buf b;
  struct seen s;
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp");
    return;
  }
  CHECK(x42_legacy_generate(dir) == 0, "legacy generator failed");
  for (unsigned i = 0; x42_builtin_profile_names[i]; i++) {
    snprintf(path, sizeof path, "%s/legacy-%s.x42", dir, x42_builtin_profile_names[i]);
    CHECK(read_file(path, &b) == 0, "%s not written", path);
    run(b.data, b.size, &s, 0);
    CHECK(s.errors == 0 && s.warnings == 0 && has(&s, "X42-LEG-001", 4, 4), "%s: %lu errors, %lu warnings, assumptions %s",
          path, s.errors, s.warnings, has(&s, "X42-LEG-001", 4, 4) ? "named" : "missing");
    if (!strcmp(x42_builtin_profile_names[i], "v2a")) {
      run(b.data, b.size, &s, 0);
      CHECK(has(&s, "X42-LEG-008", 0, (long long)b.size), "v2a: sign loss not reported");
    }
    buf_free(&b);
  }
  /* a user profile: the built-in V2a text with another version number */
  snprintf(prof, sizeof prof, "%s/user.yaml", dir);
  for (unsigned i = 0; x42_builtin_profile_names[i]; i++)
    if (!strcmp(x42_builtin_profile_names[i], "v2a")) {
      const char *t = x42_builtin_profiles[i], *v = strstr(t, "version: 96");
      FILE *f = fopen(prof, "wb");
      if (f && v) {
        fwrite(t, 1, (size_t)(v - t), f);
        fputs("version: 200", f);
        fputs(v + strlen("version: 96"), f);
      }
      if (f)
        fclose(f);
    }
  snprintf(path, sizeof path, "%s/legacy-v2a.x42", dir);
  CHECK(read_file(path, &b) == 0, "v2a file");
  b.data[4] = 200;
  test_layout = prof;
  run(b.data, b.size, &s, 0);
  CHECK(s.errors == 0 && has(&s, "X42-LEG-001", 4, 4), "user profile not used: %lu errors", s.errors);
  write_text(prof, "profile: V2a\nversion: [1\n");
  run(b.data, b.size, &s, 0);
  CHECK(has(&s, "X42-LEG-002", -1, -1), "broken user profile not refused");
  write_text(prof, "profile: V0\nversion: 200\nheader: [{name: numBones, type: u16}]\n"
                   "sections: [{name: tags, count: numBones, fields: [{name: a, type: u8}]}]\n");
  run(b.data, b.size, &s, 0);
  CHECK(has(&s, "X42-LEG-002", -1, -1), "profile against the change log's order not refused");
  test_layout = NULL;
  b.data[4] = 150;
  run(b.data, b.size, &s, 0);
  CHECK(has(&s, "X42-HDR-004", 4, 4), "unknown version 150 not refused");
  buf_free(&b);
  test_legacy_poses(dir);
  for (unsigned i = 0; x42_builtin_profile_names[i]; i++) {
    snprintf(path, sizeof path, "%s/legacy-%s.x42", dir, x42_builtin_profile_names[i]);
    remove(path);
  }
  remove(prof);
  rmdir(dir);
}

/* Poses from the key stream: values at keys exact within the packing step, interpolation
 * between keys, held values after a track's last key; and legacy tracks decoded per profile. */
static void test_poses(const struct byte_buf *anim)
{
  mdl_options o;
  struct pipeline_run r;
  const struct trs *p;
  mdl_options_init(&o);
  pipeline_decode(anim->data, anim->size, "t.x42", &o, 1, &r);
  CHECK(r.decoded && r.model.frames && r.model.num_frames == 8 && r.model.num_poses == 4, "poses: no frames decoded");
  if (r.decoded && r.model.frames) {
    p = model_frame(&r.model, 2, 0);
    CHECK(fabs(p->t[0] - 1.0) < 1e-4 && fabs(p->t[2] - 0.25) < 1e-4, "root t at frame 2: %g %g %g", p->t[0], p->t[1], p->t[2]);
    p = model_frame(&r.model, 2, 1);
    CHECK(fabs(p->r[2] - sin(0.1745329)) < 1e-4 && fabs(p->r[3] - cos(0.1745329)) < 1e-4, "spine r at frame 2: %g %g", p->r[2], p->r[3]);
    p = model_frame(&r.model, 6, 1);
    CHECK(fabs(p->r[2] - sin(0.3490658)) < 1e-4, "spine r held after frame 4: %g", p->r[2]);
    p = model_frame(&r.model, 6, 2);
    CHECK(fabs(p->s[0] - 1.75) < 1e-3 && fabs(p->s[1] - 1) < 1e-3, "head s at frame 6: %g %g", p->s[0], p->s[1]);
  }
  pipeline_release(&r);
}

static void test_legacy_poses(const char *dir)
{
  static const char *const names[] = {"v0", "v2a", "v2b", "v4a", "v4b"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char path[256];
    struct byte_buf b;
    mdl_options o;
    struct pipeline_run r;
    snprintf(path, sizeof path, "%s/legacy-%s.x42", dir, names[i]);
    if (read_file(path, &b) < 0)
      continue;
    mdl_options_init(&o);
    pipeline_decode(b.data, b.size, "t.x42", &o, 1, &r);
    CHECK(r.decoded && r.model.num_joints == 3 && r.model.frames && r.model.num_frames == 4, "%s: no legacy frames", names[i]);
    if (r.decoded && r.model.frames) {
      /* bone 1's position keys: x = 0.5 at the first frame, 0.75 at the last (linear between) */
      const struct trs *f0 = model_frame(&r.model, 0, 1), *f3 = model_frame(&r.model, 3, 1), *f1 = model_frame(&r.model, 1, 1);
      double tol = i >= 3 ? 4.0 / 65530 + 1e-6 : 1e-6;
      CHECK(fabs(f0->t[0] - 0.5) <= tol && fabs(f3->t[0] - 0.75) <= tol && fabs(f1->t[0] - (0.5 + 0.25 / 3)) <= tol + 1e-4,
            "%s: bone 1 x at frames 0, 1, 3: %g %g %g", names[i], f0->t[0], f1->t[0], f3->t[0]);
      /* rotation keys about z: 0.1 then 0.3 rad */
      CHECK(fabs(f0->r[2] - sin(0.05)) <= 1e-4 && fabs(f3->r[2] - sin(0.15)) <= 1e-4, "%s: bone 1 rotation %g %g", names[i],
            f0->r[2], f3->r[2]);
    }
    pipeline_release(&r);
    buf_free(&b);
  }
}

int main(int argc, char **argv)
{
  struct byte_buf anim, stat, empty;
  int do_sweep = argc > 1 && !strcmp(argv[1], "--sweep");
  CHECK(encode(x42_doc_animated, &anim) == 0, "animated: %s", anim.error);
  CHECK(encode(x42_doc_static, &stat) == 0, "static: %s", stat.error);
  CHECK(encode(x42_doc_empty, &empty) == 0, "empty: %s", empty.error);
  test_clean("animated", &anim);
  test_clean("static", &stat);
  test_clean("empty", &empty);
  test_roundtrip("animated", &anim);
  test_roundtrip("static", &stat);
  test_roundtrip("empty", &empty);
  test_mutations(&anim);
  test_poses(&anim);
  test_legacy();
  sweep(&anim, do_sweep);
  sweep(&stat, 0);
  buf_free(&anim);
  buf_free(&stat);
  buf_free(&empty);
  if (failures)
    fprintf(stderr, "%d failures\n", failures);
  return failures ? 1 : 0;
}
