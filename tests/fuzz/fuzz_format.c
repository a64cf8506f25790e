/* fuzz_format.c - one fuzz target per format (FUZZ_FORMAT names it at compile time), in the
 * LLVMFuzzerTestOneInput form used by libFuzzer and AFL++'s driver.
 *
 * FUZZ_ROUNDTRIP: decode, write with the format's writer, decode the output again; the second
 * decode must succeed with no error, or the writer produced something its own decoder rejects. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pipeline.h"

#ifndef FUZZ_FORMAT
#error "define FUZZ_FORMAT"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_only(const mdl_diag *d, void *user)
{
  (void)d;
  (*(unsigned long *)user)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  mdl_options o;
  struct pipeline_run run;
  unsigned long n = 0;

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
