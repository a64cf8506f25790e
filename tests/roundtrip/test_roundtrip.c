/* test_roundtrip.c - decode -> write -> decode through the IQM decoder and writer.
 *
 * Built twice: without RT_SAMPLES it round-trips synthetic models (every vertex format, custom
 * arrays, adjacency, animation-only, single-frame, empty); with RT_SAMPLES it round-trips every
 * real file in the samples folder (exit 77 when there is none). Joints, meshes, vertex data,
 * triangles, adjacency, anims and bounds must come back exactly; frames within the bound of
 * their channels (pose.h quant_bound). The worst error / bound ratio is printed; above 1 fails. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "iqm_write.h"
#include "model_diff.h"
#include "pipeline.h"
#include "pose.h"
#include "rt_model.h"

static int failures;
static double worst_ratio;

static void print_diag(const mdl_diag *d, void *user)
{
  if (d->severity <= MDL_WARNING)
    fprintf(stderr, "    %s: %s[%s] at %lld %s: %s\n", (const char *)user,
            mdl_severity_name(d->severity), d->rule->id, d->offset, d->path, d->message);
}

/* Decode with frames; print warnings and worse. Return the number of errors and warnings. */
static unsigned long decode(const unsigned char *data, size_t size, const char *what,
                            struct pipeline_run *run, unsigned long *errors)
{
  mdl_options o;
  mdl_options_init(&o);
  o.on_diag = print_diag;
  o.user = (void *)what;
  if (pipeline_decode(data, size, "roundtrip.iqm", &o, 1, run) != MDL_OK || !run->decoded) {
    *errors = 1;
    return 1;
  }
  *errors = run->result.counts[MDL_FATAL] + run->result.counts[MDL_ERROR];
  return *errors + run->result.counts[MDL_WARNING];
}

static void fail(const char *name, const char *what)
{
  failures++;
  fprintf(stderr, "FAIL %s: %s\n", name, what);
}

static int write_model(const char *name, const struct model *m, const char *version,
                       unsigned flags, struct byte_buf *b)
{
  struct write_opts o = {version, NULL, NULL, 0};
  buf_init(b);
  if (iqm_write_ex(m, &o, flags, b) < 0) {
    fprintf(stderr, "FAIL %s: writer: %s\n", name, b->error);
    failures++;
    return -1;
  }
  return 0;
}

/* The IQM writer's round trip: everything exact (reals stored as the float of the source),
 * the comment NUL-padded, frames within the quantization of the decoded copy's channels. */
static const struct model_diff_opts rt_opts = {
  MODEL_DIFF_ALL | MODEL_DIFF_COMMENT_PADDED, MODEL_DIFF_REAL_FLOAT_OF, MODEL_DIFF_REAL_FLOAT_OF,
  MODEL_DIFF_REAL_FLOAT_OF, MODEL_DIFF_FRAMES_SECOND
};

static void print_diff(void *user, const char *what)
{
  unsigned *printed = user;
  if (++*printed <= 20)
    fprintf(stderr, "    %s\n", what);
}

/* Compare a with b and account for the result under `what`: frames beyond their bound are
 * judged by the worst ratio, everything else by the exact mismatches. */
static void check_same(const char *name, const char *what, const struct model *a,
                       const struct model *b)
{
  struct model_diff_result d;
  unsigned printed = 0, exact;
  model_diff(a, b, &rt_opts, print_diff, &printed, &d);
  exact = d.mismatches - d.frame_mismatches;
  printf("  %s %s: %u exact mismatches, frame error / bound %.4f\n", name, what, exact,
         d.frame_ratio);
  if (d.frame_ratio > 0)
    printf("    worst frame error %.3g (bound %.3g) at frame %u pose %u channel %s\n",
           d.frame_error, d.frame_bound, (unsigned)d.frame, (unsigned)d.pose,
           trs_channel_name(d.channel));
  if (d.frame_ratio > worst_ratio)
    worst_ratio = d.frame_ratio;
  if (exact)
    fail(name, what);
  if (!(d.frame_ratio <= 1))
    fail(name, "frame error above the quantization bound");
}

/* source (decoded or built) -> write (reused channels) -> decode -> compare; then the same with
 * forced requantization; then decoded -> write again must repeat the first write byte for byte. */
static void roundtrip(const char *name, const struct model *src, int strict_clean)
{
  struct byte_buf w1, w2, w3, wv1;
  struct pipeline_run b, c, v1run;
  unsigned long errs, issues;

  if (write_model(name, src, NULL, 0, &w1) < 0)
    return;
  issues = decode(w1.data, w1.size, name, &b, &errs);
  if (errs || (strict_clean && issues)) {
    fail(name, "the written file does not validate cleanly");
  } else {
    check_same(name, "write/decode", src, &b.model);
    if (write_model(name, &b.model, NULL, 0, &w2) == 0) {
      if (w2.size != w1.size || memcmp(w1.data, w2.data, w1.size))
        fail(name, "writing the decoded model again changes the bytes");
      buf_free(&w2);
    }
    /* the reference compiler's quantization of already-quantized values */
    if (write_model(name, &b.model, NULL, IQM_WRITE_REQUANTIZE, &w3) == 0) {
      issues = decode(w3.data, w3.size, name, &c, &errs);
      if (errs || (strict_clean && issues))
        fail(name, "the requantized file does not validate cleanly");
      else
        check_same(name, "requantized", &b.model, &c.model);
      pipeline_release(&c);
      buf_free(&w3);
    }
  }
  /* version 1 is the legacy layout: it must still validate without errors */
  if (write_model(name, src, "1", 0, &wv1) == 0) {
    decode(wv1.data, wv1.size, name, &v1run, &errs);
    if (errs || strcmp(v1run.result.version, "1"))
      fail(name, "the version 1 file does not decode without errors");
    else
      printf("  %s version 1: decodes without errors (%u joints, %u frames)\n", name,
             (unsigned)v1run.model.num_joints, (unsigned)v1run.model.num_frames);
    pipeline_release(&v1run);
    buf_free(&wv1);
  }
  pipeline_release(&b);
  buf_free(&w1);
}

#ifndef RT_SAMPLES

static void model_case(const char *name, const struct rt_spec *spec)
{
  struct model m;
  model_init(&m);
  printf("%s\n", name);
  if (rt_model_build(&m, spec) < 0)
    fail(name, "out of memory building the model");
  else
    roundtrip(name, &m, 1);
  model_free(&m);
}

static uint64_t mix(uint64_t *x)
{
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void quiet_diag(const mdl_diag *d, void *user)
{
  (void)d;
  (void)user;
}

/* Damaged files: whatever the decoder makes of them, the writer must not crash, and a file that
 * still decodes without errors must be written back into one that does too. */
static void mutate_case(const struct rt_spec *spec, unsigned rounds)
{
  static const uint32_t values[] = {0, 1, 2, 3, 4, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 124, 16};
  struct model m;
  struct byte_buf w, again;
  unsigned char *copy;
  uint64_t rng = 99;
  unsigned clean = 0, written = 0;
  mdl_options o;

  mdl_options_init(&o);
  o.on_diag = quiet_diag;
  model_init(&m);
  if (rt_model_build(&m, spec) < 0 || write_model("mutate", &m, NULL, 0, &w) < 0) {
    fail("mutate", "cannot build the base file");
    model_free(&m);
    return;
  }
  copy = malloc(w.size);
  for (unsigned r = 0; copy && r < rounds; r++) {
    struct pipeline_run a, b;
    memcpy(copy, w.data, w.size);
    for (unsigned k = 1 + (unsigned)(mix(&rng) % 3); k > 0; k--) {
      size_t at = (size_t)(mix(&rng) % (w.size - 3)) & ~(size_t)3;
      uint32_t v = values[mix(&rng) % (sizeof values / sizeof values[0])];
      if (mix(&rng) % 2)
        v = (uint32_t)mix(&rng);
      for (int i = 0; i < 4; i++)
        copy[at + (size_t)i] = (unsigned char)(v >> (8 * i));
    }
    pipeline_decode(copy, w.size, "mutated.iqm", &o, 1, &a);
    if (a.decoded) {
      unsigned long errs = a.result.counts[MDL_FATAL] + a.result.counts[MDL_ERROR];
      struct write_opts wo = {0};
      buf_init(&again);
      if (iqm_write(&a.model, &wo, &again) == 0 && !again.oom) {
        written++;
        pipeline_decode(again.data, again.size, "rewritten.iqm", &o, 1, &b);
        if (!errs && (b.result.counts[MDL_FATAL] + b.result.counts[MDL_ERROR] || !b.decoded)) {
          char what[96];
          snprintf(what, sizeof what, "round %u: a clean damaged file was rewritten with errors", r);
          fail("mutate", what);
        }
        pipeline_release(&b);
      } else if (!errs) {
        char what[256];
        snprintf(what, sizeof what, "round %u: the writer refused a clean file: %s", r, again.error);
        fail("mutate", what);
      }
      clean += !errs;
      buf_free(&again);
    }
    pipeline_release(&a);
  }
  printf("mutate: %u damaged files, %u decoded clean, %u rewritten\n", rounds, clean, written);
  free(copy);
  buf_free(&w);
  model_free(&m);
}

int main(void)
{
  struct rt_spec s;

  memset(&s, 0, sizeof s); /* everything: every component format, adjacency, bounds, comment */
  s.seed = 1;
  s.meshes = 3;
  s.grid_w = 6;
  s.grid_h = 5;
  s.adjacency = s.customs = s.color = s.bounds = 1;
  s.joints = s.poses = 12;
  s.anims = 3;
  s.frames_per_anim = 20;
  s.comment = "round trip";
  s.extensions = 4;
  model_case("full", &s);
  s.extensions = 0;

  s.seed = 2; /* no adjacency, no bounds, odd sample count */
  s.adjacency = s.customs = s.bounds = 0;
  s.comment = NULL;
  s.joints = s.poses = 3;
  s.anims = 1;
  s.frames_per_anim = 5;
  model_case("plain", &s);

  memset(&s, 0, sizeof s); /* a static mesh */
  s.seed = 3;
  s.meshes = 2;
  s.grid_w = s.grid_h = 4;
  s.adjacency = 1;
  model_case("static", &s);

  memset(&s, 0, sizeof s); /* animation only: poses without joints or meshes */
  s.seed = 4;
  s.poses = 6;
  s.anims = 2;
  s.frames_per_anim = 15;
  s.bounds = 1;
  model_case("animation-only", &s);

  memset(&s, 0, sizeof s); /* one frame: every channel constant, no frame data at all */
  s.seed = 5;
  s.meshes = 1;
  s.grid_w = s.grid_h = 3;
  s.joints = s.poses = 4;
  s.anims = 1;
  s.frames_per_anim = 1;
  model_case("single-frame", &s);

  memset(&s, 0, sizeof s); /* nothing */
  model_case("empty", &s);

  memset(&s, 0, sizeof s); /* a small full model, damaged 600 times */
  s.seed = 6;
  s.meshes = 2;
  s.grid_w = s.grid_h = 3;
  s.adjacency = s.customs = s.color = s.bounds = 1;
  s.joints = s.poses = 4;
  s.anims = 2;
  s.frames_per_anim = 3;
  s.comment = "x";
  /* RT_MUTATE_ROUNDS=N runs a longer search by hand */
  mutate_case(&s, getenv("RT_MUTATE_ROUNDS") ? (unsigned)strtoul(getenv("RT_MUTATE_ROUNDS"), NULL, 10) : 600);

  printf("worst frame error / bound: %.4f\n", worst_ratio);
  if (failures)
    fprintf(stderr, "test_roundtrip: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}

#else

static int by_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
  const char *dir = getenv("MDL_SAMPLES_IQM");
  char *names[256];
  size_t n = 0;
  DIR *d;
  struct dirent *e;

  if (!dir)
    dir = RT_SAMPLES;
  d = opendir(dir);
  if (!d) {
    printf("SKIP: no IQM samples at %s\n", dir);
    return 77;
  }
  while ((e = readdir(d)) && n < sizeof names / sizeof names[0]) {
    size_t len = strlen(e->d_name);
    if (len > 4 && !strcmp(e->d_name + len - 4, ".iqm"))
      names[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (!n) {
    printf("SKIP: no .iqm file in %s\n", dir);
    return 77;
  }
  qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    struct mdl_input in;
    struct pipeline_run a;
    unsigned long errs;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    printf("%s\n", path);
    if (input_open(path, &in, 0) != 0) {
      fail(names[i], "cannot read");
      continue;
    }
    decode(in.data, in.size, names[i], &a, &errs);
    if (errs) {
      fail(names[i], "the sample does not decode without errors");
    } else {
      struct byte_buf w;
      /* the writer lays files out as the reference compiler: its files come back unchanged */
      if (write_model(names[i], &a.model, NULL, 0, &w) == 0) {
        printf("  %s: rewritten %s the original bytes\n", names[i],
               w.size == in.size && !memcmp(w.data, in.data, in.size) ? "equals" : "differs from");
        buf_free(&w);
      }
      roundtrip(names[i], &a.model, 0);
    }
    pipeline_release(&a);
    input_close(&in);
    free(names[i]);
  }
  printf("worst frame error / bound: %.4f\n", worst_ratio);
  if (failures)
    fprintf(stderr, "test_roundtrip_samples: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}

#endif
