/* api_fix.c - mdl_fix_*_json: `mdlcheck fix` (core/fix.h, a repairing same-format conversion) as
 * the JSON report `mdlcheck fix -f json` prints, for callers that cannot use C structs. */
#include <stdlib.h>
#include <string.h>

#include "api_settings.h"
#include "convert.h"
#include "fix.h"
#include "settings.h"

/* The settings fix takes beyond validation's: dry_run (options.def's row and parser, taken out
 * here because validation's settings refuse it); a conversion's
 * target_version and accept_loss are refused (fix writes IN's own format and version and accepts
 * no loss). 0, or -1 with why in error. */
static int fix_settings_take(const char *const *settings, const char ***rest, int *dry_run,
                             char *error, size_t error_size)
{
  size_t n = 0, k = 0;
  while (settings && settings[n])
    n++;
  *dry_run = 0;
  if (!(*rest = calloc(n + 1, sizeof **rest)))
    return -2;
  for (size_t i = 0; i < n; i++) {
    const char *kv = settings[i];
    if (!strncmp(kv, "dry_run=", 8)) {
      const struct setting_def *d = setting_by_key("dry_run", 7);
      struct setting_value val;
      char why[400];
      int rc = d ? setting_parse_value(d, d->key, kv + 8, NULL, &val, why, sizeof why) : -1;
      if (rc == -2)
        return -2;
      if (rc < 0) {
        api_error(error, error_size, MDL_EINVAL, "%s", d ? why : "dry_run: not in the option table");
        return -1;
      }
      *dry_run = val.flag;
    } else if (!strncmp(kv, "target_version=", 15) || !strncmp(kv, "accept_loss=", 12)) {
      api_error(error, error_size, MDL_EINVAL, "fix writes IN's own format and version and accepts no "
                "loss: '%s' is a conversion's setting", kv);
      return -1;
    } else {
      (*rest)[k++] = kv;
    }
  }
  return 0;
}

static char *fix_json(struct convert_request *rq, const char *const *settings, void **out_bytes,
                      size_t *out_size, mdl_status *status, char *error, size_t error_size)
{
  const char **rest = NULL;
  struct convert_fix fx;
  int dry = 0, k;
  char *json = NULL;
  memset(&fx, 0, sizeof fx);
  if (out_bytes)
    *out_bytes = NULL;
  if (out_size)
    *out_size = 0;
  if ((k = fix_settings_take(settings, &rest, &dry, error, error_size)) < 0) {
    free(rest);
    if (status)
      *status = k == -2 ? MDL_ENOMEM : MDL_EINVAL;
    return NULL;
  }
  fx.in_place = !strcmp(rq->in_path, rq->out_path) && !rq->data;
  rq->fix = &fx;
  rq->no_write |= dry;
  json = convert_json(rq, rest, out_bytes, out_size, status, error, error_size);
  free(rest);
  return json;
}

char *mdl_fix_file_json(const char *in_path, const char *out_path, const char *const *settings,
                        mdl_status *status, char *error, size_t error_size)
{
  struct convert_request rq;
  if (!in_path || !*in_path || (out_path && !*out_path)) {
    if (status)
      *status = api_error(error, error_size, MDL_EINVAL, "fix takes an input file name (and an optional output)");
    return NULL;
  }
  if (!out_path && !strcmp(in_path, "-")) {
    if (status)
      *status = api_error(error, error_size, MDL_EINVAL, "standard input cannot be replaced: name the output");
    return NULL;
  }
  memset(&rq, 0, sizeof rq);
  rq.in_path = in_path;
  rq.out_path = out_path ? out_path : in_path;
  return fix_json(&rq, settings, NULL, NULL, status, error, error_size);
}

char *mdl_fix_buffer_json(const void *data, size_t size, const char *name, const char *const *settings,
                          void **out_bytes, size_t *out_size, mdl_status *status, char *error,
                          size_t error_size)
{
  static const unsigned char empty[1]; /* a zero-sized buffer may come with a NULL pointer */
  struct convert_request rq;
  memset(&rq, 0, sizeof rq);
  rq.in_path = name && *name ? name : "-";
  rq.out_path = rq.in_path; /* the report names the repaired bytes after IN */
  rq.data = data ? data : empty;
  rq.size = data ? size : 0;
  rq.no_write = 1;
  return fix_json(&rq, settings, out_bytes, out_size, status, error, error_size);
}
