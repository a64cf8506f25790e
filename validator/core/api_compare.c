/* api_compare.c - mdl_compare_*_json: whether two inputs agree, as the JSON report
 * `mdlcheck compare -f json` prints. */
#include <string.h>

#include "api_settings.h"
#include "compare_run.h"

static char *compare_json(const struct compare_input in[2], const char *const *settings,
                          mdl_status *status, char *error, size_t error_size)
{
  struct api_settings st;
  struct compare_run cr;
  struct report rep;
  char *json = NULL;
  mdl_status rc;

  if (error && error_size)
    error[0] = 0;
  report_init(&rep);
  rc = api_settings_parse(&st, settings, error, error_size);
  if (rc == MDL_OK) {
    struct report_file *f;
    rep.fail_on = st.fail_on;
    f = report_add_file(&rep, in[0].path);
    rc = compare_run(&cr, in, &st.options, NULL, NULL, f);
    if (rc == MDL_OK) {
      struct api_text t;
      if (api_text_open(&t)) {
        report_write_json(t.out, &rep);
        json = api_text_close(&t, 0);
      }
      if (!json)
        rc = MDL_ENOMEM;
    } else if (rc == MDL_EIO) {
      api_error(error, error_size, rc, "%s", cr.error);
    }
  }
  report_free(&rep);
  api_settings_free(&st);
  if (status)
    *status = rc;
  return json;
}

char *mdl_compare_files_json(const char *a, const char *b, const char *const *settings,
                             mdl_status *status, char *error, size_t error_size)
{
  struct compare_input in[2];
  if (!a || !b) {
    if (status)
      *status = api_error(error, error_size, MDL_EINVAL, "compare takes two file names");
    return NULL;
  }
  memset(in, 0, sizeof in);
  in[0].path = a;
  in[1].path = b;
  return compare_json(in, settings, status, error, error_size);
}

char *mdl_compare_buffers_json(const void *a, size_t a_size, const char *a_name, const void *b,
                               size_t b_size, const char *b_name, const char *const *settings,
                               mdl_status *status, char *error, size_t error_size)
{
  struct compare_input in[2];
  /* a zero-sized buffer may come with a NULL pointer; compare_input reads data == NULL as
   * "read the file", so give it an address */
  static const unsigned char empty[1];
  in[0].path = a_name ? a_name : "-";
  in[0].data = a ? a : empty;
  in[0].size = a ? a_size : 0;
  in[1].path = b_name ? b_name : "-";
  in[1].data = b ? b : empty;
  in[1].size = b ? b_size : 0;
  return compare_json(in, settings, status, error, error_size);
}
