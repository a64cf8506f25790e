/* compare_run.h - `compare A B` from inputs to one report entry: both sides read and decoded,
 * then compared (model_compare.h says what agreeing means). The CLI's `compare` and the
 * library's mdl_compare_*_json share it. */
#ifndef MDL_COMPARE_RUN_H
#define MDL_COMPARE_RUN_H

#include "model_compare.h"
#include "report.h"

/* One side: a file (data NULL: read from path, "-" standard input) or a caller's buffer, which
 * path then names. */
struct compare_input {
  const char *path;
  const void *data;
  size_t size;
};

struct compare_run {
  struct compare_result res;
  int compared;    /* both sides decoded and were compared (res is meaningful) */
  char error[512]; /* MDL_EIO: which side could not be read, and why */
};

/* Compare in[0] with in[1] into f: the comparison's diagnostics under o's policy (validation
 * findings belong to validate and are not reported), counts, the first file's format and version,
 * and the second's as compared_* (in[1].path must outlive f). note (may be NULL)
 * hears what frame conversion did. MDL_OK (f->io_failed: a side passed the memory bound,
 * MDL-MEM-002 is in f and nothing was compared), MDL_EIO (cr->error says why; f holds nothing),
 * MDL_ENOMEM (the comparison is incomplete: never report agreement), MDL_EINTERNAL. */
mdl_status compare_run(struct compare_run *cr, const struct compare_input in[2], const mdl_options *o,
                       compare_note_fn note, void *note_user, struct report_file *f);

#endif
