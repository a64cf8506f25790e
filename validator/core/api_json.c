/* api_json.c - one input's report as JSON (or as the CLI's text report), for callers that cannot
 * use C structs (Python through ctypes, JavaScript through WebAssembly): settings are "key=value"
 * strings. */
#include <errno.h>
#include <stdlib.h>

#include "api_settings.h"
#include "json_write.h"
#include "report.h"

static char *entry_json(const struct report *r, const struct report_file *f)
{
  struct api_text t;
  struct json_writer w;
  if (!api_text_open(&t))
    return NULL;
  json_init(&w, t.out, 0);
  report_json_file(&w, r, f);
  return api_text_close(&t, json_end(&w) != 0);
}

/* The report as `mdlcheck FILE` prints it: what a test helper shows when a file fails. */
static char *entry_text(const struct report *r)
{
  struct api_text t;
  if (!api_text_open(&t))
    return NULL;
  report_write_text(t.out, r, 0);
  return api_text_close(&t, 0);
}

static char *validate_json(const char *path, const void *data, size_t size, const char *name,
                           const char *const *settings, mdl_status *status, char *error,
                           size_t error_size, int text)
{
  struct api_settings st;
  struct report rep;
  struct report_file *f;
  mdl_result res;
  mdl_status rc;
  char *json = NULL;

  if (error && error_size)
    error[0] = 0;
  rc = api_settings_parse(&st, settings, error, error_size);
  report_init(&rep);
  if (rc == MDL_OK) {
    rep.fail_on = st.fail_on;
    f = report_add_file(&rep, path ? path : name ? name : "-");
    if (!f)
      goto done;
    st.options.on_diag = report_collect;
    st.options.on_resource = report_collect_resource;
    st.options.user = f;
    f->resources_checked = st.options.resources != NULL;
    errno = 0;
    mdl_result_init(&res);
    rc = path ? mdl_validate_file(path, &st.options, &res)
              : mdl_validate_buffer(data, size, name, &st.options, &res);
    if (rc == MDL_EIO && res.counts[MDL_FATAL]) { /* over max_input_size or max_memory: MDL-IO-002 or MDL-MEM-002 says so */
      report_set_result(f, &res);
      f->io_failed = 1;
      rc = MDL_OK;
    } else if (rc == MDL_EIO) {
      report_read_failure(f, errno ? errno : EIO);
      rc = MDL_OK; /* the entry says so, as the CLI's report does */
    } else if (rc == MDL_OK) {
      report_set_result(f, &res);
    }
    if (rc == MDL_OK && f->out_of_memory)
      rc = MDL_ENOMEM; /* a diagnostic was lost: the entry would read as complete */
    if (rc == MDL_OK && !(json = text ? entry_text(&rep) : entry_json(&rep, f)))
      rc = MDL_ENOMEM;
  }
done:
  if (rc == MDL_OK && report_out_of_memory(&rep))
    rc = MDL_ENOMEM;
  report_free(&rep);
  api_settings_free(&st);
  if (status)
    *status = rc;
  return json;
}

char *mdl_validate_file_json(const char *path, const char *const *settings, mdl_status *status,
                             char *error, size_t error_size)
{
  return validate_json(path, NULL, 0, NULL, settings, status, error, error_size, 0);
}

char *mdl_validate_buffer_json(const void *data, size_t size, const char *name,
                               const char *const *settings, mdl_status *status, char *error,
                               size_t error_size)
{
  return validate_json(NULL, data, size, name, settings, status, error, error_size, 0);
}

char *mdl_validate_file_text(const char *path, const char *const *settings, mdl_status *status,
                             char *error, size_t error_size)
{
  return validate_json(path, NULL, 0, NULL, settings, status, error, error_size, 1);
}

char *mdl_validate_buffer_text(const void *data, size_t size, const char *name,
                               const char *const *settings, mdl_status *status, char *error,
                               size_t error_size)
{
  return validate_json(NULL, data, size, name, settings, status, error, error_size, 1);
}

void mdl_string_free(char *text)
{
  free(text);
}

char *mdl_rules_json(void)
{
  struct api_text t;
  if (!api_text_open(&t))
    return NULL;
  return api_text_close(&t, report_write_rules(t.out, NULL, 0) != 0);
}
