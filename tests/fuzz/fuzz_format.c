/* fuzz_format.c - one fuzz target per format (FUZZ_FORMAT names it at compile time), in the
 * LLVMFuzzerTestOneInput form used by libFuzzer and AFL++'s driver.
 *
 * FUZZ_ROUNDTRIP: decode, write with the format's writer, decode the output again; the second
 * decode must succeed with no error, or the writer produced something its own decoder rejects.
 *
 * FUZZ_CONVERT "iqm": what `mdlcheck convert x.<fmt> y.iqm` does: decode with frames kept, turn
 * the frames into parent-relative uniform ones (model_frames_to_parent), write as the target
 * format and decode that. A refusal to convert or write is fine (convert reports it); a written
 * file with errors is a finding, as in a round trip: convert would reject its own output.
 * A second decode is then sampled at given framerates, as compare does with the other side's
 * (picked from a table by the input's size, so mutations reach every branch of the sampler).
 *
 * FUZZ_FORMAT "any": what the CLI does with a file of unknown type: format detection, then the
 * diagnostics collected and rendered by every report writer (text, JSON, SARIF, GitHub).
 *
 * FUZZ_EVERY: every entry point past validation (issue 26: a write after free in the Egg
 * geometry builder was out of reach of validation alone): poses, convert to each format (the
 * writer, then the proof: a comparison of the written bytes with the input), compare with
 * itself, and fix (its repaired bytes decoded again), through the library's poses, compare and
 * fix calls. FUZZ_FORMAT names the format assumed,
 * or "any" (detected, as in the sanitizer sweep over every corpus file). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "mdlcheck.h"
#include "model_frames.h"
#include "pipeline.h"
#include "report_tool.h"

#ifndef FUZZ_FORMAT
#error "define FUZZ_FORMAT"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_only(const mdl_diag *d, void *user)
{
  (void)d;
  (*(unsigned long *)user)++;
}

/* A declared X42 layout for the crashers that need one (tests/fuzz/replay.test gives it as
 * $MDLCHECK_X42_LAYOUT): this harness is a face, so it reads the environment the library does
 * not. */
static const char *fuzz_layout(void)
{
  const char *env = getenv("MDLCHECK_X42_LAYOUT");
  return env && *env ? env : NULL;
}

static int fuzz_any(const uint8_t *data, size_t size)
{
  static FILE *sink;
  mdl_options o;
  struct pipeline_run run;
  struct report rep;
  struct report_file *f;

  if (!sink && !(sink = fopen("/dev/null", "w")))
    abort();
  mdl_options_init(&o);
  o.layout_file = fuzz_layout();
  report_init(&rep);
  f = report_add_file(&rep, "fuzz.bin");
  if (!f)
    abort();
  o.on_diag = report_collect;
  o.user = f;
  pipeline_decode(data, size, "fuzz.bin", &o, 0, &run);
  report_set_result(f, &run.result);
  report_write_text(sink, &rep, 0);
  report_write_json(sink, &rep);
  report_write_sarif(sink, &rep);
  report_write_github(sink, &rep);
  report_write_summary(sink, &rep);
  pipeline_release(&run);
  report_free(&rep);
  return 0;
}

#ifdef FUZZ_EVERY
static void note_sink_every(void *user, enum frames_note_level level, uint32_t anim, const char *msg)
{
  (void)level;
  (void)anim;
  *(size_t *)user += strlen(msg);
}
#endif

#ifdef FUZZ_CONVERT
static void note_sink(void *user, enum frames_note_level level, uint32_t anim, const char *msg)
{
  (void)level;
  (void)anim;
  *(size_t *)user += strlen(msg);
}

/* What compare does: frames sampled at the other side's framerates. */
static void fuzz_convert_rates(const uint8_t *data, size_t size, const mdl_options *o)
{
  static const double table[] = {30, 24, 60, 0.5, 1e-3, 1e6, 7.25, 0};
  struct pipeline_run run;
  double *rates;
  size_t noted = 0;
  char why[200];

  pipeline_decode(data, size, NULL, o, 1, &run);
  if (run.decoded && run.model.num_anims &&
      run.result.counts[MDL_FATAL] + run.result.counts[MDL_ERROR] == 0 &&
      (rates = calloc((size_t)run.model.num_anims + 1, sizeof *rates)) != NULL) {
    for (uint32_t a = 0; a < run.model.num_anims; a++)
      rates[a] = table[(size + a) % (sizeof table / sizeof *table)];
    model_frames_to_parent(&run.model, rates, note_sink, &noted, why, sizeof why);
    free(rates);
  }
  pipeline_release(&run);
}

static void fuzz_convert(struct pipeline_run *run, const mdl_options *o)
{
  const struct mdl_format *target = format_find(FUZZ_CONVERT);
  struct byte_buf out;
  struct pipeline_run again;
  mdl_options oo = *o;
  size_t noted = 0;
  char why[200];

  if (!target || !target->write)
    abort();
  if (!run->decoded || !run->format ||
      run->result.counts[MDL_FATAL] + run->result.counts[MDL_ERROR] != 0)
    return;
  if (target != run->format && model_frames_need_parent(&run->model) &&
      model_frames_to_parent(&run->model, NULL, note_sink, &noted, why, sizeof why) < 0)
    return;
  run->model.flags = 0;
  buf_init(&out);
  if (target->write(&run->model, NULL, &out) == 0 && !out.oom) {
    oo.assume_format = target->name;
    pipeline_decode(out.data, out.size, NULL, &oo, 1, &again);
    if (!again.decoded || again.result.counts[MDL_FATAL] + again.result.counts[MDL_ERROR]) {
      fprintf(stderr, "convert: the written %s file does not decode cleanly\n", target->name);
      abort();
    }
    pipeline_release(&again);
  }
  buf_free(&out);
}
#endif

#ifdef FUZZ_EVERY
static void every(const uint8_t *data, size_t size)
{
  static const char *const targets[] = {"iqm", "iqe", "egg", "qmsh", "x42"};
  const char *any = FUZZ_FORMAT[0] == 'a' ? NULL : "assume_format=" FUZZ_FORMAT;
  const char *settings[3] = {NULL, NULL, NULL};
  char layout_kv[4200];
  size_t ns = 0;
  mdl_status st;
  char err[256], *json;
  mdl_options o;
  struct pipeline_run run;
  size_t noted = 0;
  char why[200];

  if (any)
    settings[ns++] = any;
  if (fuzz_layout() && snprintf(layout_kv, sizeof layout_kv, "x42_layout=%s", fuzz_layout()) < (int)sizeof layout_kv)
    settings[ns++] = layout_kv;
  json = mdl_poses_buffer_json(data, size, "fuzz", settings, &st, err, sizeof err);
  mdl_string_free(json);
  json = mdl_compare_buffers_json(data, size, "fuzz", data, size, "fuzz", settings, &st, err, sizeof err);
  mdl_string_free(json);
  mdl_options_init(&o);
  o.layout_file = fuzz_layout();
  o.assume_format = any ? FUZZ_FORMAT : NULL;
  for (size_t t = 0; t < sizeof targets / sizeof *targets; t++) {
    const struct mdl_format *target = format_find(targets[t]);
    struct byte_buf out;
    pipeline_decode(data, size, "fuzz", &o, 1, &run);
    if (!target || !target->write)
      abort();
    if (run.decoded && run.format && run.result.counts[MDL_FATAL] + run.result.counts[MDL_ERROR] == 0 &&
        (target == run.format || !model_frames_need_parent(&run.model) ||
         model_frames_to_parent(&run.model, NULL, note_sink_every, &noted, why, sizeof why) == 0)) {
      run.model.flags = 0;
      buf_init(&out);
      if (target->write(&run.model, NULL, &out) == 0 && !out.oom) {
        /* the proof: the written bytes against the input, as convert compares them */
        if (buf_flatten(&out) == 0 && !out.oom) {
          char name[16];
          snprintf(name, sizeof name, "out.%s", targets[t]);
          json = mdl_compare_buffers_json(data, size, "fuzz", out.data, out.size, name, settings, &st, err, sizeof err);
          mdl_string_free(json);
        }
      }
      buf_free(&out);
    }
    pipeline_release(&run);
  }
  /* fix, in memory (mdl_fix_buffer_json writes nothing to disk): the library proves what it
   * repaired; the bytes it hands back are decoded again here as a check of that proof, and a
   * repair with an error in it is a finding, as a conversion's output is above */
  {
    void *fixed = NULL;
    size_t fixed_size = 0;
    json = mdl_fix_buffer_json(data, size, "fuzz", settings, &fixed, &fixed_size, &st, err, sizeof err);
    mdl_string_free(json);
    if (fixed) {
      pipeline_decode(fixed, fixed_size, "fuzz", &o, 1, &run);
      if (!run.out_of_memory &&
          (!run.decoded || run.result.counts[MDL_FATAL] + run.result.counts[MDL_ERROR] != 0)) {
        fprintf(stderr, "fix: the repaired bytes do not decode cleanly\n");
        abort();
      }
      pipeline_release(&run);
      mdl_bytes_free(fixed);
    }
  }
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  mdl_options o;
  struct pipeline_run run;
  unsigned long n = 0;

#ifdef FUZZ_EVERY
  every(data, size);
  return 0;
#endif
  if (FUZZ_FORMAT[0] == 'a')
    return fuzz_any(data, size);
  mdl_options_init(&o);
  o.layout_file = fuzz_layout();
  o.assume_format = FUZZ_FORMAT;
  o.on_diag = count_only;
  o.user = &n;
  pipeline_decode(data, size, NULL, &o, 1, &run);
#ifdef FUZZ_ROUNDTRIP
  if (run.decoded && run.format && run.format->write &&
      run.result.counts[MDL_FATAL] + run.result.counts[MDL_ERROR] == 0) {
    struct byte_buf out;
    struct pipeline_run again;
    buf_init(&out);
    if (run.format->write(&run.model, NULL, &out) == 0 && !out.oom) {
      pipeline_decode(out.data, out.size, NULL, &o, 1, &again);
      if (!again.decoded || again.result.counts[MDL_FATAL] + again.result.counts[MDL_ERROR]) {
        fprintf(stderr, "roundtrip: the written file does not decode cleanly\n");
        abort();
      }
      pipeline_release(&again);
    }
    buf_free(&out);
  }
#endif
#ifdef FUZZ_CONVERT
  {
    int animated = run.decoded && run.model.num_anims &&
                   run.result.counts[MDL_FATAL] + run.result.counts[MDL_ERROR] == 0;
    fuzz_convert(&run, &o);
    if (animated)
      fuzz_convert_rates(data, size, &o);
  }
#endif
  pipeline_release(&run);
  return 0;
}
