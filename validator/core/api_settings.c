/* api_settings.c - the JSON entry points' settings ("key=value", the CLI's long options with '_'),
 * their error messages, and the text they hand back built in memory. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_settings.h"
#include "input.h"

mdl_status api_error(char *error, size_t size, mdl_status status, const char *fmt, ...)
{
  va_list ap;
  if (error && size) {
    va_start(ap, fmt);
    vsnprintf(error, size, fmt, ap);
    va_end(ap);
  }
  return status;
}

#define settings_error(error, size, ...) api_error(error, size, MDL_EINVAL, __VA_ARGS__)

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
mdl_status api_settings_parse(struct api_settings *st, const char *const *settings, char *error,
                              size_t size)
{
  mdl_options_init(&st->options);
  st->targets = NULL;
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
    } else if (KEY("target") || KEY("targets")) { /* may repeat; each NAME or NAME,NAME */
      size_t len = st->targets ? strlen(st->targets) : 0;
      char bad[80], *n;
      if (!*v || mdl_targets_check(v, bad, sizeof bad) < 0)
        return settings_error(error, size, "unknown target '%s' (mdlcheck targets lists them)", *v ? bad : v);
      if (!(n = realloc(st->targets, len + strlen(v) + 2)))
        return MDL_ENOMEM;
      sprintf(n + len, "%s%s", len ? "," : "", v);
      st->targets = n;
      st->options.targets = n;
    } else if (KEY("resources")) {
      st->options.resources = v; /* as --resources=v ("" for the model's folder alone) */
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

void api_settings_free(struct api_settings *st)
{
  mdl_policy_free(st->policy);
  st->policy = NULL;
  free(st->targets);
  st->targets = NULL;
  st->options.targets = NULL;
}

FILE *api_text_open(struct api_text *t)
{
  t->text = NULL;
  t->len = 0;
  t->out = open_memstream(&t->text, &t->len);
  return t->out;
}

char *api_text_close(struct api_text *t, int failed)
{
  if (ferror(t->out))
    failed = 1;
  if (fclose(t->out) != 0)
    failed = 1;
  t->out = NULL;
  if (failed) {
    free(t->text);
    t->text = NULL;
  }
  return t->text;
}
