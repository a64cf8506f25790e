/* fields_test.c - structured mutation of every binary format and version (IQM v1/v2, QMSH 12-22,
 * X42 V5 and V0-V4b): each count, offset and index field of a base file is set in turn to 0, 1,
 * 0x7fffffff, 0xffffffff, the file's size and size - 1 (truncated to the field's width), and the
 * result is decoded in process (make check runs it in the ASan/UBSan build of CI too).
 *
 * Each decode must finish with a clear verdict: never an internal error, and "valid" only when the
 * decoder finished (no clean verdict without positive evidence). A count of stored records set to
 * a value the file cannot hold (the width's maximum, size, size - 1) must be invalid: corruption
 * of such a count never passes silently.
 *
 * usage: fields_test [-v]   (bases from $srcdir/corpus/<fmt>/base) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "pipeline.h"
#include "x42.h"
#include "x42_profile.h"

/* How a field is judged: COUNT counts records stored in the file (a value the file cannot hold
 * must be invalid); OTHER (offsets, indexes, counts of nothing stored) must only get a clear
 * verdict. */
enum kind { OTHER, COUNT };

struct field {
  uint64_t off;
  unsigned width; /* 1, 2 or 4 */
  enum kind kind;
  char name[48];
};

struct fields {
  struct field v[512];
  unsigned n;
};

static int failures, verbose;
static unsigned long total, invalid;

/* A field named rec (one of record i when i >= 0). */
static void add(struct fields *fs, uint64_t off, unsigned width, enum kind kind, const char *rec, int i)
{
  if (fs->n < sizeof fs->v / sizeof fs->v[0]) {
    struct field *f = &fs->v[fs->n++];
    f->off = off;
    f->width = width;
    f->kind = kind;
    if (i >= 0)
      snprintf(f->name, sizeof f->name, "%s[%d]", rec, i);
    else
      snprintf(f->name, sizeof f->name, "%s", rec);
  }
}

static uint32_t le(const unsigned char *p, unsigned width)
{
  uint32_t v = 0;
  for (unsigned k = 0; k < width; k++)
    v |= (uint32_t)p[k] << (8 * k);
  return v;
}

static void put(unsigned char *p, unsigned width, uint32_t v)
{
  for (unsigned k = 0; k < width; k++)
    p[k] = (unsigned char)(v >> (8 * k));
}

/* --- where the fields are ------------------------------------------------------------------- */

/* IQM: the header's counts and offsets, and the count/offset/index fields of every record of
 * the meshes, vertex arrays, joints, anims and extensions (iqm.txt). */
static void iqm_fields(const unsigned char *b, size_t size, struct fields *fs)
{
  static const char *const hdr[27] = {
    "version", "filesize", "flags", "num_text", "ofs_text", "num_meshes", "ofs_meshes", "num_vertexarrays",
    "num_vertexes", "ofs_vertexarrays", "num_triangles", "ofs_triangles", "ofs_adjacency", "num_joints",
    "ofs_joints", "num_poses", "ofs_poses", "num_anims", "ofs_anims", "num_frames", "num_framechannels",
    "ofs_frames", "ofs_bounds", "num_comment", "ofs_comment", "num_extensions", "ofs_extensions"};
  uint32_t h[27], version = le(b + 16, 4);
  for (unsigned k = 0; k < 27; k++) {
    h[k] = le(b + 16 + 4 * k, 4);
    /* counts of records whose bytes are stored; num_vertexes, num_frames and num_framechannels
     * count nothing by themselves (no array, no channel) */
    int count = !strncmp(hdr[k], "num_", 4) && strcmp(hdr[k], "num_vertexes") && strcmp(hdr[k], "num_frames") &&
                strcmp(hdr[k], "num_framechannels");
    if (k != 0 && k != 2)
      add(fs, 16 + 4 * k, 4, count ? COUNT : OTHER, hdr[k], -1);
  }
  for (uint32_t i = 0; i < h[5] && (uint64_t)h[6] + 24 * (i + 1) <= size; i++)
    for (unsigned k = 0; k < 6; k++)
      add(fs, h[6] + 24 * i + 4 * k, 4, OTHER, "meshes", (int)i);
  for (uint32_t i = 0; i < h[7] && (uint64_t)h[9] + 20 * (i + 1) <= size; i++) {
    add(fs, h[9] + 20 * i + 12, 4, OTHER, "vertexarrays.size", (int)i);
    add(fs, h[9] + 20 * i + 16, 4, OTHER, "vertexarrays.offset", (int)i);
  }
  for (uint32_t i = 0, js = version == 1 ? 44 : 48; i < h[13] && (uint64_t)h[14] + js * (i + 1) <= size; i++) {
    add(fs, h[14] + js * i, 4, OTHER, "joints.name", (int)i);
    add(fs, h[14] + js * i + 4, 4, OTHER, "joints.parent", (int)i);
  }
  for (uint32_t i = 0; i < h[17] && (uint64_t)h[18] + 20 * (i + 1) <= size; i++)
    for (unsigned k = 0; k < 3; k++)
      add(fs, h[18] + 20 * i + 4 * k, 4, OTHER, "anims", (int)i);
  for (uint32_t i = 0, e = h[26]; i < h[25] && e && (uint64_t)e + 16 <= size; i++, e = le(b + e + 12, 4))
    for (unsigned k = 0; k < 4; k++)
      add(fs, e + 4 * k, 4, OTHER, "extensions", (int)i);
}

/* QMSH: the seven header counts, points_offset (v >= 20), and the first submesh's ranges and
 * name length (qmsh-layout.md). */
static void qmsh_fields(const unsigned char *b, size_t size, struct fields *fs)
{
  static const char *const cnt[7] = {"n_verts", "n_tris", "n_subs", "n_bones", "n_anims", "n_points", "n_groups"};
  unsigned ver = b[4], flags = b[5], hs = ver == 12 ? 48 : ver < 15 ? 72 : ver < 20 ? 84 : 88;
  unsigned vs = flags & 8 ? 12 : 32 + (flags & 2 ? 8 : 0) + (flags & 1 ? 24 : 0);
  uint64_t sub = hs + (uint64_t)le(b + 6, 2) * vs + 6ull * le(b + 8, 2);
  /* without its own skeleton (not ANIMATED, or STATIC, or PHYSICS) no bones, animations or
   * groups are stored: those counts count nothing and are only read as numbers */
  int skeletal = (flags & 2) && !(flags & 4) && !(flags & 8);
  for (unsigned k = 0; k < 7; k++)
    add(fs, 6 + 2 * k, 2, skeletal || (k != 3 && k != 4 && k != 6) ? COUNT : OTHER, cnt[k], -1);
  if (ver >= 20)
    add(fs, 48, 4, OTHER, "points_offset", -1);
  if (le(b + 10, 2) && sub + 9 <= size) {
    add(fs, sub, 2, OTHER, "submeshes.first", 0);
    add(fs, sub + 2, 2, OTHER, "submeshes.tris", 0);
    add(fs, sub + 4, 2, OTHER, "submeshes.min_ind", 0);
    add(fs, sub + 6, 2, OTHER, "submeshes.n_ind", 0);
    add(fs, sub + 8, 1, OTHER, "submeshes.name_length", 0);
  }
}

/* X42 V5: the header's counts (nameBlobLen, numBones ... numGroups, numVerts, numIndices),
 * baseFrame, and the index fields of the first record of each section (x42.md). */
static void x42_fields(const unsigned char *b, size_t size, struct fields *fs)
{
  static const struct { uint64_t off; unsigned w; enum kind k; const char *name; } hdr[] = {
    {10, 2, OTHER, "baseFrame"}, {12, 2, OTHER, "numFrames"}, {14, 2, COUNT, "nameBlobLen"},
    {16, 2, COUNT, "numBones"}, {18, 2, OTHER, "numAnimGroups"}, {20, 2, COUNT, "numPosValues"},
    {22, 2, COUNT, "numRotValues"}, {24, 2, COUNT, "numScaleValues"}, {26, 2, COUNT, "keyStreamLength"},
    {28, 2, COUNT, "numAnims"}, {30, 2, COUNT, "numTags"}, {32, 2, COUNT, "numInfluences"},
    {34, 2, COUNT, "numLods"}, {36, 2, COUNT, "numGroups"}, {40, 4, COUNT, "numVerts"},
    {44, 4, COUNT, "numIndices"}};
  static const struct { int sec; unsigned n; unsigned at[8]; unsigned w[8]; const char *name; } rec[] = {
    {XS_BONES, 2, {0, 4}, {2, 2}, "bones[0] name/parentIdx"},
    {XS_ANIM_GROUPS, 3, {0, 2, 4}, {2, 2, 2}, "animGroups[0] name/begin/end"},
    {XS_KEYS, 4, {0, 2, 4, 6}, {2, 2, 2, 2}, "keys[0] type/bone/frame/value"},
    {XS_ANIMS, 5, {0, 2, 4, 6, 8}, {2, 2, 2, 2, 2}, "anims[0] name/frames/loop"},
    {XS_TAGS, 2, {0, 2}, {2, 2}, "tags[0] name/bone"},
    {XS_INFLUENCES, 1, {0}, {2}, "influences[0].bone"},
    {XS_LODS, 3, {0, 2, 4}, {2, 2, 2}, "lods[0] name/firstGroup/numGroups"},
    {XS_GROUPS, 8, {0, 2, 4, 6, 132, 136, 140, 144}, {2, 2, 2, 2, 4, 4, 4, 4}, "groups[0] names/counts/ranges"},
  };
  struct reader in;
  struct x42_doc d;
  struct x42_layout lay;
  for (unsigned k = 0; k < sizeof hdr / sizeof hdr[0]; k++)
    add(fs, hdr[k].off, hdr[k].w, hdr[k].k, hdr[k].name, -1);
  reader_init(&in, b, size);
  memset(&d, 0, sizeof d);
  x42_header_parse(&in, &d);
  x42_layout_compute(&d, x42_blend_len_at(&in, &d), &lay);
  for (unsigned r = 0; r < sizeof rec / sizeof rec[0]; r++)
    if (lay.size[rec[r].sec])
      for (unsigned k = 0; k < rec[r].n; k++)
        add(fs, lay.off[rec[r].sec] + rec[r].at[k], rec[r].w[k], OTHER, rec[r].name, 0);
}

/* X42 V0-V4b: every integer header field of the built-in layout profile the version names
 * (the YAML files of spec/x42), walked as the profile declares it (conditional fields by their flags). */
static void x42_legacy_fields(const unsigned char *b, size_t size, struct fields *fs)
{
  uint32_t version = le(b + 4, 4);
  for (unsigned i = 0; x42_builtin_profiles[i]; i++) {
    struct arena a;
    struct x42_profile p;
    char err[200];
    arena_init(&a);
    if (x42_profile_parse(x42_builtin_profiles[i], strlen(x42_builtin_profiles[i]), "built-in", &a, &p, err,
                          sizeof err) == 0 && p.version == version) {
      uint64_t off = 8;
      uint64_t at[256];
      for (uint32_t f = 0; f < p.header.n && f < 256; f++) {
        const struct lp_field *fd = &p.header.v[f];
        int present = 1;
        at[f] = off;
        if (fd->cond) {
          const char *c = fd->cond + (*fd->cond == '!');
          present = *fd->cond == '!';
          for (uint32_t k = 0; k < p.nflags; k++)
            if (!strcmp(p.flags[k].name, c))
              for (uint32_t g = 0; g < f; g++)
                if (!strcmp(p.header.v[g].name, p.flags[k].field) && at[g] + 4 <= size)
                  present = ((le(b + at[g], lp_type_size[p.header.v[g].type]) & p.flags[k].value) != 0) !=
                            (*fd->cond == '!');
        }
        if (!present)
          continue;
        if (fd->type != LP_F32 && fd->type != LP_CHAR && strcmp(fd->role, "pad") && strcmp(fd->role, "flags") &&
            lp_type_size[fd->type] > 1)
          add(fs, off, lp_type_size[fd->type], !strncmp(fd->name, "num", 3) && strcmp(fd->name, "numFrames") ? COUNT : OTHER,
              fd->name, -1);
        off += (uint64_t)lp_type_size[fd->type] * fd->count;
      }
    }
    arena_free(&a);
  }
}

/* --- the mutations ---------------------------------------------------------------------------- */

static void mutate(const char *base, const unsigned char *data, size_t size, const struct fields *fs)
{
  unsigned char *copy = malloc(size);
  unsigned long n = 0, bad = 0;
  if (!copy) {
    fprintf(stderr, "FAIL %s: out of memory\n", base);
    failures++;
    return;
  }
  for (unsigned i = 0; i < fs->n; i++) {
    const struct field *f = &fs->v[i];
    uint32_t max = f->width == 4 ? 0xffffffffu : (1u << (8 * f->width)) - 1;
    uint32_t vals[6] = {0, 1, 0x7fffffff, 0xffffffff, (uint32_t)size, (uint32_t)size - 1};
    if (f->off + f->width > size)
      continue;
    for (unsigned k = 0; k < 6; k++) {
      /* narrower fields take the value's low bits for 0x7fffffff and 0xffffffff, the value
       * itself capped at the width's maximum for the size */
      uint32_t v = k < 4 ? vals[k] & max : vals[k] > max ? max : vals[k];
      struct pipeline_run run;
      mdl_options o;
      mdl_status st;
      unsigned long errors;
      if (v == le(data + f->off, f->width))
        continue;
      memcpy(copy, data, size);
      put(copy + f->off, f->width, v);
      mdl_options_init(&o);
      st = pipeline_decode(copy, size, base, &o, 1, &run);
      errors = run.result.counts[MDL_FATAL] + run.result.counts[MDL_ERROR];
      n++;
      bad += errors > 0;
      if (st != MDL_OK) {
        fprintf(stderr, "FAIL %s: %s = 0x%x: status %d (expected a verdict)\n", base, f->name, v, (int)st);
        failures++;
      } else if (!errors && !run.decoded) {
        fprintf(stderr, "FAIL %s: %s = 0x%x: valid although the decoder did not finish\n", base, f->name, v);
        failures++;
      } else if (!errors && f->kind == COUNT && (k >= 2 || v == max)) {
        fprintf(stderr, "FAIL %s: %s = 0x%x (a count the file cannot hold) passed as valid\n", base, f->name, v);
        failures++;
      } else if (verbose) {
        printf("%s: %s = 0x%x: %s\n", base, f->name, v, errors ? "invalid" : "valid");
      }
      pipeline_release(&run);
    }
  }
  free(copy);
  total += n;
  invalid += bad;
  printf("%s: %u fields, %lu mutations, %lu invalid\n", base, fs->n, n, bad);
}

static void one(const char *fmt, const char *file, void (*where)(const unsigned char *, size_t, struct fields *))
{
  char path[4096];
  struct mdl_input in;
  static struct fields fs;
  const char *srcdir = getenv("srcdir") ? getenv("srcdir") : ".";
  snprintf(path, sizeof path, "%s/corpus/%s/base/%s", srcdir, fmt, file);
  if (input_open(path, &in, 0) != 0) {
    fprintf(stderr, "FAIL: cannot read %s\n", path);
    failures++;
    return;
  }
  fs.n = 0;
  where(in.data, in.size, &fs);
  if (fs.n < 5) {
    fprintf(stderr, "FAIL %s: only %u fields found\n", file, fs.n);
    failures++;
  }
  mutate(file, in.data, in.size, &fs);
  input_close(&in);
}

int main(int argc, char **argv)
{
  static const char *const iqm[] = {"v1.iqm", "anim.iqm", "static.iqm", "animonly.iqm", "formats.iqm"};
  static const char *const legacy[] = {"legacy-v0.x42", "legacy-v1.x42", "legacy-v2a.x42", "legacy-v2b.x42",
                                       "legacy-v3.x42", "legacy-v4a.x42", "legacy-v4b.x42"};
  char name[32];
  verbose = argc > 1 && !strcmp(argv[1], "-v");
  for (unsigned i = 0; i < sizeof iqm / sizeof iqm[0]; i++)
    one("iqm", iqm[i], iqm_fields);
  for (unsigned v = 12; v <= 22; v++) {
    snprintf(name, sizeof name, "v%u-f03.qmsh", v); /* skinned, tangents: every section present */
    one("qmsh", name, qmsh_fields);
    snprintf(name, sizeof name, "v%u-f08.qmsh", v); /* physics: the shortest vertex */
    one("qmsh", name, qmsh_fields);
  }
  one("x42", "anim.x42", x42_fields);
  one("x42", "static.x42", x42_fields);
  for (unsigned i = 0; i < sizeof legacy / sizeof legacy[0]; i++)
    one("x42", legacy[i], x42_legacy_fields);
  printf("fields: %lu mutations, %lu invalid, %d failures\n", total, invalid, failures);
  return failures ? 1 : 0;
}
