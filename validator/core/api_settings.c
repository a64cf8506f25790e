/* api_settings.c - the JSON entry points' settings ("key=value", the CLI's long options with '_'),
 * their error messages, and the text they hand back built in memory. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_settings.h"
#include "format.h"
#include "input.h"
#include "settings.h"

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

/* The keys are the library names of options.def (the CLI's long options with '_'), each value
 * read by the parser the CLI and the configuration use (settings.c); defaults are the CLI's, so
 * a caller of the library gets the report the command line would print, and a value the command
 * line refuses is refused here too (MDL_EINVAL with the same reason). */
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
    const struct setting_def *d = setting_by_key(kv, klen);
    struct setting_value val;
    char why[400];
    int rc;
    if (!eq)
      return settings_error(error, size, "setting '%s' has no '='", kv);
    /* a conversion's own settings (target_version, accept_loss) are taken out by api_convert.c
     * before these are read: anywhere else they are unknown */
    if (!d || !setting_for_command(d, "validate"))
      return settings_error(error, size, "unknown setting '%.*s'", (int)klen, kv);
    rc = setting_parse_value(d, d->key, v, st->policy, &val, why, sizeof why);
    if (rc == -2)
      return MDL_ENOMEM;
    if (rc < 0)
      return settings_error(error, size, "%s", why);
    switch (d->id) {
    case OPT_FAIL_ON: st->fail_on = val.severity; break;
    case OPT_MAX_ISSUES: st->options.max_issues = val.count; break;
    case OPT_MAX_PER_RULE: st->options.max_per_rule = val.count; break;
    case OPT_MAX_INPUT_SIZE: st->options.max_input_size = val.size; break;
    case OPT_MAX_MEMORY: st->options.max_memory = val.size; break;
    case OPT_STRICT: st->options.strict = val.flag; break;
    case OPT_PROFILE: st->options.profile = v; break;
    case OPT_RESOURCES: st->options.resources = v; break; /* "" for the model's folder alone */
    case OPT_ASSUME: st->options.assume_format = v; break;
    case OPT_X42_LAYOUT: st->options.layout_file = v; break;
    case OPT_TARGET: { /* may repeat; each NAME or NAME,NAME */
      size_t len = st->targets ? strlen(st->targets) : 0;
      char *n = realloc(st->targets, len + strlen(v) + 2);
      if (!n)
        return MDL_ENOMEM;
      sprintf(n + len, "%s%s", len ? "," : "", v);
      st->targets = n;
      st->options.targets = n;
      break;
    }
    default: /* ignore, only, severity: applied to the policy by the parser */
      break;
    }
  }
  {
    /* as the CLI before any file is read: a profile no format knows, a format's own options */
    char why[600];
    if (format_options_check(&st->options, why, sizeof why) < 0)
      return settings_error(error, size, "%s", why);
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
