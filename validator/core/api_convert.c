/* api_convert.c - mdl_convert_*_json: one conversion (core/convert.h) as the JSON report
 * `mdlcheck convert -f json IN OUT` prints, for callers that cannot use C structs. */
#include <stdlib.h>
#include <string.h>

#include "api_settings.h"
#include "convert.h"

/* The settings only a conversion takes, taken out of the list before the shared parser reads the
 * rest (which refuses them, as validate does). */
struct convert_settings {
  const char **rest; /* the other settings, NULL-terminated */
  const char *version;
  char *accept_loss; /* every accept_loss joined by ',', owned */
};

static mdl_status convert_settings_take(struct convert_settings *cs, const char *const *settings)
{
  size_t n = 0, k = 0, len = 0;
  memset(cs, 0, sizeof *cs);
  cs->version = NULL;
  cs->accept_loss = NULL;
  while (settings && settings[n])
    n++;
  if (!(cs->rest = calloc(n + 1, sizeof *cs->rest)))
    return MDL_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    const char *kv = settings[i];
    if (!strncmp(kv, "target_version=", 15)) {
      cs->version = kv + 15;
    } else if (!strncmp(kv, "accept_loss=", 12)) { /* may repeat; each ID or ID,ID */
      const char *v = kv + 12;
      char *m = realloc(cs->accept_loss, len + strlen(v) + 2);
      if (!m)
        return MDL_ENOMEM;
      len += (size_t)sprintf(m + len, "%s%s", len ? "," : "", v);
      cs->accept_loss = m;
    } else {
      cs->rest[k++] = kv;
    }
  }
  return MDL_OK;
}

static void convert_settings_free(struct convert_settings *cs)
{
  free(cs->rest);
  free(cs->accept_loss);
}

/* The notes joined by newlines into the caller's error buffer (what the CLI prints on stderr). */
struct notes {
  char *buf;
  size_t size, len;
};

static void note_keep(void *user, enum convert_note_level level, const char *text)
{
  struct notes *n = user;
  size_t k;
  (void)level;
  if (!n->buf || n->len + 1 >= n->size)
    return;
  k = strlen(text);
  if (n->len && n->len + 1 < n->size)
    n->buf[n->len++] = '\n';
  if (k > n->size - 1 - n->len)
    k = n->size - 1 - n->len;
  memcpy(n->buf + n->len, text, k);
  n->len += k;
  n->buf[n->len] = 0;
}

char *convert_json(struct convert_request *rq, const char *const *settings, void **out_bytes,
                   size_t *out_size, mdl_status *status, char *error, size_t error_size)
{
  struct convert_settings cs;
  struct api_settings st;
  struct convert_outcome out;
  struct notes notes = {error, error_size, 0};
  struct report rep;
  char *json = NULL;
  mdl_status rc;

  if (error && error_size)
    error[0] = 0;
  if (out_bytes)
    *out_bytes = NULL;
  if (out_size)
    *out_size = 0;
  memset(&out, 0, sizeof out);
  buf_init(&out.bytes);
  report_init(&rep);
  memset(&st, 0, sizeof st);
  rc = convert_settings_take(&cs, settings);
  if (rc == MDL_OK)
    rc = api_settings_parse(&st, cs.rest, error, error_size);
  if (rc == MDL_OK) {
    rep.fail_on = st.fail_on;
    rq->options = &st.options;
    rq->fail_on = st.fail_on;
    rq->version = cs.version;
    rq->accept_loss = cs.accept_loss;
    rq->note = note_keep;
    rq->note_user = &notes;
    rc = convert_run(rq, &rep, &out);
    if (rc == MDL_OK && out.verdict == CONVERT_INTERNAL)
      rc = MDL_ENOMEM; /* memory ran out while checking: no verdict to report */
    if (rc == MDL_OK) {
      struct api_text t;
      if (api_text_open(&t)) {
        report_write_json(t.out, &rep);
        json = api_text_close(&t, 0);
      }
      if (!json)
        rc = MDL_ENOMEM;
    } else if (rc == MDL_EINVAL || rc == MDL_EIO) {
      api_error(error, error_size, rc, "%s", out.error);
    }
    if (json && out.held && out_bytes) {
      *out_bytes = out.bytes.data; /* malloc'd by buf: mdl_bytes_free releases it */
      if (out_size)
        *out_size = out.bytes.size;
      buf_init(&out.bytes);
    }
  }
  convert_outcome_free(&out);
  report_free(&rep);
  api_settings_free(&st);
  convert_settings_free(&cs);
  if (status)
    *status = rc;
  return json;
}

char *mdl_convert_file_json(const char *in_path, const char *out_path, const char *const *settings,
                            mdl_status *status, char *error, size_t error_size)
{
  struct convert_request rq;
  if (!in_path || !out_path) {
    if (status)
      *status = api_error(error, error_size, MDL_EINVAL, "convert takes an input and an output file name");
    return NULL;
  }
  memset(&rq, 0, sizeof rq);
  rq.in_path = in_path;
  rq.out_path = out_path;
  return convert_json(&rq, settings, NULL, NULL, status, error, error_size);
}

char *mdl_convert_buffer_json(const void *data, size_t size, const char *name, const char *target_format,
                              const char *const *settings, void **out_bytes, size_t *out_size,
                              mdl_status *status, char *error, size_t error_size)
{
  static const unsigned char empty[1]; /* a zero-sized buffer may come with a NULL pointer */
  struct convert_request rq;
  const struct mdl_format *target = NULL;
  char out_name[512];
  const char *in_name = name && *name ? name : "-", *dot, *slash;
  size_t stem;
  char *json;

  for (size_t i = 0; target_format && mdl_format_table[i] && !target; i++)
    if (!strcmp(mdl_format_table[i]->name, target_format))
      target = mdl_format_table[i];
  if (!target) {
    if (out_bytes)
      *out_bytes = NULL;
    if (status)
      *status = api_error(error, error_size, MDL_EINVAL, "unknown format '%s' to convert to",
                          target_format ? target_format : "");
    return NULL;
  }
  /* OUT's name in the report: IN's, its extension the target's */
  dot = strrchr(in_name, '.');
  slash = strrchr(in_name, '/');
  stem = dot && dot != in_name && (!slash || dot > slash + 1) ? (size_t)(dot - in_name) : strlen(in_name);
  if (!strcmp(in_name, "-"))
    stem = strlen("out"), in_name = "out";
  snprintf(out_name, sizeof out_name, "%.*s%s", (int)(stem < 400 ? stem : 400), in_name,
           target->extensions && target->extensions[0] ? target->extensions[0] : "");
  memset(&rq, 0, sizeof rq);
  rq.in_path = name && *name ? name : "-";
  rq.data = data ? data : empty;
  rq.size = data ? size : 0;
  rq.out_path = out_name;
  rq.no_write = 1;
  rq.target = target;
  json = convert_json(&rq, settings, out_bytes, out_size, status, error, error_size);
  return json;
}

void mdl_bytes_free(void *bytes)
{
  free(bytes);
}
