/* api_json.c - one input's report as JSON text, for callers that cannot use C structs (Python
 * through ctypes, JavaScript through WebAssembly): settings are "key=value" strings. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "json_write.h"
#include "report.h"

struct api_settings {
  mdl_options options;
  mdl_policy *policy;
  mdl_severity fail_on;
};

static mdl_status settings_error(char *error, size_t size, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));

static mdl_status settings_error(char *error, size_t size, const char *fmt, ...)
{
  va_list ap;
  if (error && size) {
    va_start(ap, fmt);
    vsnprintf(error, size, fmt, ap);
    va_end(ap);
  }
  return MDL_EINVAL;
}

static int parse_count(const char *s, unsigned long *out)
{
  char *end;
  errno = 0;
  *out = strtoul(s, &end, 10);
  return *s && !*end && !errno && *s != '-' ? 0 : -1;
}

static int parse_flag(const char *s, int *out)
{
  if (!strcmp(s, "1") || !strcmp(s, "true") || !strcmp(s, "yes"))
    *out = 1;
  else if (!strcmp(s, "0") || !strcmp(s, "false") || !strcmp(s, "no"))
    *out = 0;
  else
    return -1;
  return 0;
}

/* The keys are the CLI's long options with '_' for '-'; defaults are the CLI's, so a caller of
 * the library gets the report the command line would print. */
static mdl_status settings_parse(struct api_settings *st, const char *const *settings, char *error,
                                 size_t size)
{
  mdl_options_init(&st->options);
  st->options.max_per_rule = MDL_DEFAULT_MAX_PER_RULE;
  st->fail_on = MDL_ERROR;
  st->policy = mdl_policy_new();
  if (!st->policy)
    return MDL_ENOMEM;
  st->options.policy = st->policy;
  for (; settings && *settings; settings++) {
    const char *kv = *settings, *eq = strchr(kv, '=');
    size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
    const char *v = eq ? eq + 1 : "";
    int flag;
#define KEY(name) (klen == sizeof name - 1 && !strncmp(kv, name, klen))
    if (!eq)
      return settings_error(error, size, "setting '%s' has no '='", kv);
    if (KEY("ignore") || KEY("only")) {
      int rc = KEY("ignore") ? mdl_policy_ignore(st->policy, v) : mdl_policy_only(st->policy, v);
      if (rc < 0)
        return settings_error(error, size, "pattern '%s' matches no catalogued rule", v);
    } else if (KEY("severity")) {
      const char *sep = strrchr(v, '=');
      char pattern[256];
      mdl_severity sev = sep ? mdl_severity_parse(sep + 1) : MDL_SEVERITY_COUNT;
      if (!sep || sev == MDL_SEVERITY_COUNT || (size_t)(sep - v) >= sizeof pattern)
        return settings_error(error, size, "severity takes PATTERN=SEVERITY, not '%s'", v);
      memcpy(pattern, v, (size_t)(sep - v));
      pattern[sep - v] = 0;
      if (mdl_policy_override(st->policy, pattern, sev) < 0)
        return settings_error(error, size, "pattern '%s' matches no catalogued rule", pattern);
    } else if (KEY("fail_on")) {
      st->fail_on = mdl_severity_parse(v);
      if (st->fail_on == MDL_SEVERITY_COUNT)
        return settings_error(error, size, "unknown severity '%s' for fail_on", v);
    } else if (KEY("max_issues")) {
      if (parse_count(v, &st->options.max_issues) < 0)
        return settings_error(error, size, "max_issues takes a count, not '%s'", v);
    } else if (KEY("max_per_rule")) {
      if (parse_count(v, &st->options.max_per_rule) < 0)
        return settings_error(error, size, "max_per_rule takes a count, not '%s'", v);
    } else if (KEY("max_input_size")) {
      if (input_limit_parse(v, &st->options.max_input_size) < 0)
        return settings_error(error, size, "max_input_size takes a size such as 1048576, 512M or 1G, not '%s'", v);
    } else if (KEY("strict")) {
      if (parse_flag(v, &flag) < 0)
        return settings_error(error, size, "strict takes true or false, not '%s'", v);
      st->options.strict = flag;
    } else if (KEY("profile")) {
      st->options.profile = v;
    } else if (KEY("assume_format") || KEY("format")) {
      const char *const *n = mdl_format_names();
      while (*n && strcmp(*n, v))
        n++;
      if (!*n)
        return settings_error(error, size, "unknown format '%s'", v);
      st->options.assume_format = v;
    } else {
      return settings_error(error, size, "unknown setting '%.*s'", (int)klen, kv);
    }
#undef KEY
  }
  return MDL_OK;
}

static char *entry_json(const struct report *r, const struct report_file *f)
{
  char *text = NULL;
  size_t len = 0;
  struct json_writer w;
  FILE *out = open_memstream(&text, &len);
  if (!out)
    return NULL;
  json_init(&w, out, 0);
  report_json_file(&w, r, f);
  if (json_end(&w) != 0 || fclose(out) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

static char *validate_json(const char *path, const void *data, size_t size, const char *name,
                           const char *const *settings, mdl_status *status, char *error,
                           size_t error_size)
{
  struct api_settings st;
  struct report rep;
  struct report_file *f;
  mdl_result res;
  mdl_status rc;
  char *json = NULL;

  if (error && error_size)
    error[0] = 0;
  rc = settings_parse(&st, settings, error, error_size);
  report_init(&rep);
  if (rc == MDL_OK) {
    rep.fail_on = st.fail_on;
    f = report_add_file(&rep, path ? path : name ? name : "-");
    st.options.on_diag = report_collect;
    st.options.user = f;
    errno = 0;
    rc = path ? mdl_validate_file(path, &st.options, &res)
              : mdl_validate_buffer(data, size, name, &st.options, &res);
    if (rc == MDL_EIO && res.counts[MDL_FATAL]) { /* over max_input_size: MDL-IO-002 says so */
      report_set_result(f, &res);
      f->io_failed = 1;
      rc = MDL_OK;
    } else if (rc == MDL_EIO) {
      report_read_failure(f, errno ? errno : EIO);
      rc = MDL_OK; /* the entry says so, as the CLI's report does */
    } else if (rc == MDL_OK) {
      report_set_result(f, &res);
    }
    if (rc == MDL_OK && !(json = entry_json(&rep, f)))
      rc = MDL_ENOMEM;
  }
  report_free(&rep);
  mdl_policy_free(st.policy);
  if (status)
    *status = rc;
  return json;
}

char *mdl_validate_file_json(const char *path, const char *const *settings, mdl_status *status,
                             char *error, size_t error_size)
{
  return validate_json(path, NULL, 0, NULL, settings, status, error, error_size);
}

char *mdl_validate_buffer_json(const void *data, size_t size, const char *name,
                               const char *const *settings, mdl_status *status, char *error,
                               size_t error_size)
{
  return validate_json(NULL, data, size, name, settings, status, error, error_size);
}

void mdl_string_free(char *text)
{
  free(text);
}
