/* fuzz_format.c - one fuzz target per format (FUZZ_FORMAT names it at compile time), in the
 * LLVMFuzzerTestOneInput form used by libFuzzer and AFL++'s driver.
 *
 * FUZZ_ROUNDTRIP: decode, write with the format's writer, decode the output again; the second
 * decode must succeed with no error, or the writer produced something its own decoder rejects.
 *
 * FUZZ_FORMAT "any": what the CLI does with a file of unknown type: format detection, then the
 * diagnostics collected and rendered by every report writer (text, JSON, SARIF, GitHub). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pipeline.h"
#include "report.h"

#ifndef FUZZ_FORMAT
#error "define FUZZ_FORMAT"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_only(const mdl_diag *d, void *user)
{
  (void)d;
  (*(unsigned long *)user)++;
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  mdl_options o;
  struct pipeline_run run;
  unsigned long n = 0;

  if (FUZZ_FORMAT[0] == 'a')
    return fuzz_any(data, size);
  mdl_options_init(&o);
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
  pipeline_release(&run);
  return 0;
}
