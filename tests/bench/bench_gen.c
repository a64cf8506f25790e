/* bench_gen.c - write a benchmark file of any format: a deterministic, seeded model from
 * rt_model_build serialised by the format's own writer (struct mdl_format.write).
 *
 * usage: bench_gen FORMAT OUT [UNITS [SEED]]
 *   FORMAT  iqm, iqe, egg, qmsh, x42, small-<fmt> (a tiny model) or mid-<fmt> (~0.5 MB)
 *   UNITS   size in halves of the standard file (default 2; 1 with 2 makes the linearity row)
 * or:    bench_gen batch DIR [COUNT]  (COUNT small files of every format, default 10,000)
 * The file is written to OUT.tmp and renamed, so an interrupted run never leaves a truncated OUT
 * behind for the harness to reuse. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gen.h"
#include "format.h"
#include "rt_model.h"

/* little-endian f32, as model arrays hold them */
static float get_f32(const unsigned char *p)
{
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static void set_f32(unsigned char *p, float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(u >> (8 * i));
}

/* rt_model's tangents are (1, 0, 0) on a curved surface; make them orthogonal to the normal,
 * so formats that store a bitangent (X42) see a unit one and warn about nothing. */
static void tangents_orthogonalize(struct model *m)
{
  const struct model_varray *n = NULL, *t = NULL;
  for (uint32_t i = 0; i < m->num_varrays; i++) {
    const struct model_varray *va = &m->varrays[i];
    if (va->format == VF_FLOAT && va->type == VT_NORMAL && va->size == 3)
      n = va;
    if (va->format == VF_FLOAT && va->type == VT_TANGENT && va->size == 4)
      t = va;
  }
  if (!n || !t)
    return;
  for (uint32_t v = 0; v < m->num_vertexes; v++) {
    float nv[3], tv[3], d, len;
    unsigned char *tp = (unsigned char *)t->data + (size_t)v * 16;
    for (int k = 0; k < 3; k++) {
      nv[k] = get_f32(n->data + (size_t)v * 12 + 4u * (unsigned)k);
      tv[k] = get_f32(tp + 4u * (unsigned)k);
    }
    d = nv[0] * tv[0] + nv[1] * tv[1] + nv[2] * tv[2];
    for (int k = 0; k < 3; k++)
      tv[k] -= d * nv[k];
    len = sqrtf(tv[0] * tv[0] + tv[1] * tv[1] + tv[2] * tv[2]);
    for (int k = 0; k < 3; k++)
      set_f32(tp + 4u * (unsigned)k, tv[k] / len);
  }
}

static int write_file(const char *path, const struct byte_buf *b, int (*egg)(FILE *, void *), void *arg)
{
  char tmp[4096];
  FILE *fp;
  int ok;
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  fp = fopen(tmp, "wb");
  if (!fp) {
    fprintf(stderr, "bench_gen: cannot write %s: %s\n", tmp, strerror(errno));
    return -1;
  }
  setvbuf(fp, NULL, _IOFBF, 1 << 20);
  ok = b ? fwrite(b->data, 1, b->size, fp) == b->size : egg(fp, arg) == 0;
  ok = fclose(fp) == 0 && ok;
  if (!ok || rename(tmp, path) != 0) {
    fprintf(stderr, "bench_gen: cannot write %s: %s\n", path, strerror(errno));
    remove(tmp);
    return -1;
  }
  return 0;
}

struct egg_args {
  unsigned units;
  uint64_t seed;
  struct bench_egg_info info;
};

static int egg_write_cb(FILE *f, void *arg)
{
  struct egg_args *a = arg;
  return bench_egg_write(f, a->units, a->seed, &a->info);
}

/* Sizes per format, each near what the format can hold. A size is given in units of half the
 * standard file: 2 is the benchmark file, 1 and 2 make the linearity row. */
static int spec_for(const char *fmt, unsigned units, struct rt_spec *s)
{
  memset(s, 0, sizeof *s);
  s->comment = "mdlcheck benchmark model (tests/bench/bench_gen.c)";
  s->joints = s->poses = 100;
  s->bounds = 1;
  s->frames_per_anim = 250;
  if (!strcmp(fmt, "iqm")) {
    /* 64 grids of 128 x 128: 1,048,576 vertices in 7 arrays, 2,064,512 triangles with
     * adjacency, 100 joints, 2000 frames with bounds: ~115 MB */
    s->meshes = 32 * units;
    s->grid_w = s->grid_h = 128;
    s->adjacency = 1;
    s->color = 1;
    s->anims = 4 * units;
  } else if (!strcmp(fmt, "iqe")) {
    /* the same kind of model as text (IQE has no adjacency or bounds): 262,144 vertices,
     * 516,128 triangles, 100 joints, 2000 frames: ~117 MB */
    s->meshes = 8 * units;
    s->grid_w = s->grid_h = 128;
    s->color = 1;
    s->anims = 4 * units;
  } else if (!strcmp(fmt, "qmsh")) {
    /* u16 counts: one grid of 182 x 182 = 33,124 vertices and 65,522 triangles (the triangle
     * count is the u16 that binds), 63 bones (64 overflows the engine: QMSH-LIM-004), 108
     * animations of 250 frames: ~72 MB */
    s->meshes = 1;
    s->grid_w = s->grid_h = 182;
    s->joints = s->poses = 63;
    s->anims = 54 * units;
  } else if (!strcmp(fmt, "x42")) {
    /* the key stream is a u16 count, so the bulk is geometry: 150 groups of 128 x 128 (each
     * group's u16 indices reach 16,384 vertices), 2.4M vertices with every attribute; 60
     * bones (a group's palette holds 60) and 200 frames keep the key stream under 65,535 */
    s->meshes = 75 * units;
    s->grid_w = s->grid_h = 128;
    s->color = 1;
    s->joints = s->poses = 60;
    s->anims = 4;
    s->frames_per_anim = 50;
  } else if (!strncmp(fmt, "mid-", 4)) {
    /* tests/cli/bulk-checks.sh: past the blocks of 1024 the checks take at once (2 meshes of
     * 48 x 48: 4,608 vertices, 8,836 triangles with adjacency), yet small (~0.5 MB) */
    s->meshes = 2;
    s->grid_w = s->grid_h = 48;
    s->adjacency = 1;
    s->joints = s->poses = 8;
    s->anims = 1;
    s->frames_per_anim = 4;
    s->bounds = 0;
  } else if (!strncmp(fmt, "small-", 6)) {
    /* one file of the batch directory */
    s->meshes = 1;
    s->grid_w = s->grid_h = 4 + units % 4;
    s->joints = s->poses = 4;
    s->anims = 1;
    s->frames_per_anim = 4;
    s->bounds = 0;
  } else {
    return -1;
  }
  return 0;
}

/* batch DIR COUNT: COUNT small files, the formats in turn, each from its own seed */
static int batch_write(const char *dir, unsigned long count)
{
  static const char *const fmts[] = {"iqm", "iqe", "egg", "qmsh", "x42"};
  for (unsigned long i = 0; i < count; i++) {
    const char *fmt = fmts[i % 5];
    const struct mdl_format *f = format_find(fmt);
    char path[4096];
    snprintf(path, sizeof path, "%s/%05lu.%s", dir, i, fmt);
    if (!strcmp(fmt, "egg")) {
      struct egg_args a = {0, i, {0, 0, 0, 0}};
      if (write_file(path, NULL, egg_write_cb, &a) < 0)
        return -1;
    } else {
      struct rt_spec spec;
      struct model m;
      struct byte_buf b;
      struct write_opts wo = {0};
      int rc;
      spec_for("small-", (unsigned)(i / 5), &spec);
      spec.seed = i;
      model_init(&m);
      buf_init(&b);
      rc = rt_model_build(&m, &spec);
      if (rc == 0) {
        tangents_orthogonalize(&m);
        rc = f->write(&m, &wo, &b) < 0 || b.oom ? -1 : write_file(path, &b, NULL, NULL);
        if (rc < 0)
          fprintf(stderr, "bench_gen: %s: %s\n", path, b.oom ? "out of memory" : b.error);
      }
      buf_free(&b);
      model_free(&m);
      if (rc < 0)
        return -1;
    }
  }
  printf("bench_gen: %lu small files in %s\n", count, dir);
  return 0;
}

int main(int argc, char **argv)
{
  struct rt_spec spec;
  struct model m;
  struct byte_buf b;
  struct write_opts wo = {0};
  const struct mdl_format *f;
  const char *fmt, *base;
  unsigned units;
  uint64_t seed;

  if (argc < 3 || argc > 5) {
    fprintf(stderr, "usage: bench_gen FORMAT OUT [UNITS [SEED]]\n");
    return 2;
  }
  fmt = argv[1];
  if (!strcmp(fmt, "batch"))
    return batch_write(argv[2], argc > 3 ? strtoul(argv[3], NULL, 10) : 10000) < 0;
  base = !strncmp(fmt, "small-", 6) ? fmt + 6 : !strncmp(fmt, "mid-", 4) ? fmt + 4 : fmt;
  units = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 2;
  seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 20240601;
  if (!strcmp(base, "egg")) {
    struct egg_args a = {base == fmt ? units : 0, seed, {0, 0, 0, 0}};
    if (write_file(argv[2], NULL, egg_write_cb, &a) < 0)
      return 1;
    if (base == fmt)
      printf("bench_gen: %s: %u vertices, %u triangles, %u joints, %u frames (seed %llu)\n", argv[2],
             a.info.vertices, a.info.triangles, a.info.joints, a.info.frames,
             (unsigned long long)seed);
    return 0;
  }
  if (units < 1 || units > 8 || spec_for(fmt, units, &spec) < 0) {
    fprintf(stderr, "bench_gen: unknown format or size: %s %u\n", fmt, units);
    return 2;
  }
  spec.seed = seed;
  f = format_find(base);
  if (!f || !f->write) {
    fprintf(stderr, "bench_gen: no writer for %s\n", fmt);
    return 2;
  }

  model_init(&m);
  buf_init(&b);
  if (rt_model_build(&m, &spec) < 0) {
    fprintf(stderr, "bench_gen: out of memory\n");
    return 1;
  }
  tangents_orthogonalize(&m);
  if (f->write(&m, &wo, &b) < 0 || b.oom) {
    fprintf(stderr, "bench_gen: %s writer: %s\n", f->name, b.oom ? "out of memory" : b.error);
    return 1;
  }
  if (write_file(argv[2], &b, NULL, NULL) < 0)
    return 1;
  if (base == fmt)
    printf("bench_gen: %s: %zu bytes, %u vertices, %u triangles, %u joints, %u frames (seed %llu)\n",
           argv[2], b.size, (unsigned)m.num_vertexes, (unsigned)m.num_triangles,
           (unsigned)m.num_joints, (unsigned)m.num_frames, (unsigned long long)seed);
  buf_free(&b);
  model_free(&m);
  return 0;
}
