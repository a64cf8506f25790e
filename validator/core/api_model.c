/* api_model.c - mdl_model_*_json: one input's decoded model as JSON for a viewer (the page),
 * with where each element is in the source and the element each diagnostic points at. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api_settings.h"
#include "input.h"
#include "model_json.h"

/* The diagnostics' positions as they arrive (copied: mdl_diag's strings live for the callback). */
struct diag_list {
  struct model_diag_at *at;
  size_t n, cap;
  int oom;
};

static char *dup_or_empty(const char *s, int *oom)
{
  char *c = strdup(s ? s : "");
  if (!c)
    *oom = 1;
  return c;
}

static void diag_keep(const mdl_diag *d, void *user)
{
  struct diag_list *l = user;
  struct model_diag_at *a;
  if (l->oom)
    return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    struct model_diag_at *grown = realloc(l->at, cap * sizeof *grown);
    if (!grown) {
      l->oom = 1;
      return;
    }
    l->at = grown;
    l->cap = cap;
  }
  a = &l->at[l->n];
  a->id = dup_or_empty(d->rule ? d->rule->id : "", &l->oom);
  a->path = dup_or_empty(d->path, &l->oom);
  a->message = dup_or_empty(d->message, &l->oom);
  a->offset = d->offset;
  a->line = d->line;
  a->column = d->column;
  l->n++;
}

static void diag_list_free(struct diag_list *l)
{
  for (size_t i = 0; i < l->n; i++) {
    free(l->at[i].id);
    free(l->at[i].path);
    free(l->at[i].message);
  }
  free(l->at);
}

static char *model_json(const char *path, const void *data, size_t size, const char *name,
                        const char *const *settings, mdl_status *status, char *error,
                        size_t error_size)
{
  struct api_settings st;
  struct mdl_input in = {0};
  struct pipeline_run run;
  struct diag_list diags = {0};
  const char *label = path ? path : name ? name : "-";
  char *json = NULL;
  mdl_status rc;
  int err, read = 0, decoded = 0;

  if (error && error_size)
    error[0] = 0;
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
    data = in.data;
    size = in.size;
  } else if (rc == MDL_OK && (unsigned long long)size > input_limit(&st.options)) {
    char why[128]; /* a buffer is bounded as a file of its size */
    rc = api_error(error, error_size, MDL_EIO, "cannot read %s: %s", label,
                   input_error_text(EFBIG, st.options.max_input_size, why, sizeof why));
  }
  if (rc == MDL_OK) {
    mdl_options opts = st.options;
    opts.on_diag = diag_keep;
    opts.user = &diags;
    rc = pipeline_decode(data, size, label, &opts, PIPELINE_FRAMES | PIPELINE_SPANS | PIPELINE_BOUNDED, &run);
    decoded = 1;
    if (rc == MDL_EIO)
      rc = api_error(error, error_size, MDL_EIO, "cannot read %s: %s", label,
                     pipeline_bound_hit(&run) ? "its decode needs more memory than --max-memory allows (MDL-MEM-002)"
                                              : "the text it decompresses to is over the size limit");
  }
  if (rc == MDL_OK && (diags.oom || run.model.spans_failed || run.out_of_memory))
    rc = MDL_ENOMEM; /* a model or a list of positions that is not whole: no answer */
  if (rc == MDL_OK) {
    struct api_text t;
    FILE *out = api_text_open(&t);
    if (!out || !(json = api_text_close(&t, model_write_json(out, label, &run, diags.at, diags.n) != 0)))
      rc = MDL_ENOMEM;
  }
  if (decoded)
    pipeline_release(&run);
  diag_list_free(&diags);
  if (read)
    input_close(&in);
  api_settings_free(&st);
  if (status)
    *status = rc;
  return json;
}

char *mdl_model_file_json(const char *path, const char *const *settings, mdl_status *status,
                          char *error, size_t error_size)
{
  if (!path) {
    if (status)
      *status = api_error(error, error_size, MDL_EINVAL, "no file name");
    return NULL;
  }
  return model_json(path, NULL, 0, NULL, settings, status, error, error_size);
}

char *mdl_model_buffer_json(const void *data, size_t size, const char *name,
                            const char *const *settings, mdl_status *status, char *error,
                            size_t error_size)
{
  return model_json(NULL, data, size, name, settings, status, error, error_size);
}
