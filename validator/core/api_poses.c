/* api_poses.c - mdl_poses_*_json: one input's poses as the JSON `mdlcheck poses -f json` prints,
 * or, for an input that does not decode cleanly, its diagnostics in the caller's error buffer. */
#include <errno.h>
#include <stdlib.h>

#include "api_settings.h"
#include "input.h"
#include "pose_report.h"

/* The text report of f's diagnostics into error: what the CLI prints to stderr. */
static mdl_status report_to_error(const struct report *rep, mdl_status st, char *error, size_t size)
{
  struct api_text t;
  char *text;
  if (!api_text_open(&t))
    return MDL_ENOMEM;
  report_write_text(t.out, rep, 0);
  if (!(text = api_text_close(&t, 0)))
    return MDL_ENOMEM;
  api_error(error, size, st, "%s", text);
  free(text);
  return st;
}

static char *poses_json(const char *path, const void *data, size_t size, const char *name,
                        const char *const *settings, mdl_status *status, char *error,
                        size_t error_size)
{
  struct api_settings st;
  struct mdl_input in = {0};
  struct pipeline_run run;
  struct report rep;
  const char *label = path ? path : name ? name : "-";
  char *json = NULL;
  mdl_status rc;
  int err, read = 0;

  if (error && error_size)
    error[0] = 0;
  report_init(&rep);
  rc = api_settings_parse(&st, settings, error, error_size);
  if (rc == MDL_OK && path) {
    char why[128];
    if ((err = input_open(path, &in, st.options.max_input_size)) == ENOMEM)
      rc = MDL_ENOMEM;
    else if (err != 0)
      rc = api_error(error, error_size, MDL_EIO, "cannot read %s: %s", path,
                     input_error_text(err, st.options.max_input_size, why, sizeof why));
    else
      read = 1;
  } else if (rc == MDL_OK && (unsigned long long)size > input_limit(&st.options)) {
    char why[128]; /* a buffer is bounded as a file of its size */
    rc = api_error(error, error_size, MDL_EIO, "cannot read %s: %s", label,
                   input_error_text(EFBIG, st.options.max_input_size, why, sizeof why));
  }
  if (rc == MDL_OK) {
    struct report_file *f;
    rep.fail_on = st.fail_on;
    f = report_add_file(&rep, label);
    if (!read) { /* the caller's bytes: none is given back */
      in.data = data;
      in.size = size;
    }
    rc = poses_decode(&in, label, &st.options, &rep, f, &run);
    if (rc == MDL_OK) {
      struct api_text t;
      if (!api_text_open(&t)) {
        rc = MDL_ENOMEM;
      } else {
        int failed = poses_write_json(t.out, label, &run) != 0;
        /* written to memory: a stream that failed ran out of it; else a joint or frame computed
         * as it is written could not be (model_read_failure: memory, or a bug) */
        int read_failed = failed && !ferror(t.out);
        if (!(json = api_text_close(&t, failed)))
          rc = read_failed ? model_read_failure(&run.model) : MDL_ENOMEM;
      }
    } else if (rc == MDL_EDECODE || rc == MDL_EIO) {
      rc = report_to_error(&rep, rc, error, error_size);
    }
    pipeline_release(&run);
  }
  if (read)
    input_close(&in);
  report_free(&rep);
  api_settings_free(&st);
  if (status)
    *status = rc;
  return json;
}

char *mdl_poses_file_json(const char *path, const char *const *settings, mdl_status *status,
                          char *error, size_t error_size)
{
  if (!path) {
    if (status)
      *status = api_error(error, error_size, MDL_EINVAL, "no file name");
    return NULL;
  }
  return poses_json(path, NULL, 0, NULL, settings, status, error, error_size);
}

char *mdl_poses_buffer_json(const void *data, size_t size, const char *name,
                            const char *const *settings, mdl_status *status, char *error,
                            size_t error_size)
{
  return poses_json(NULL, data, size, name, settings, status, error, error_size);
}
