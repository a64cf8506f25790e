/* settings.c - the option table (options.def) looked up by each face's name for an option, and
 * the one parser of option values that the CLI, the configuration reader and the library's
 * key=value settings share. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "input.h"
#include "settings.h"

const struct setting_def setting_table[] = {
#define COMMAND(name, synopsis, summary)
#define OPTION(id, short, long, arg, values, commands, config, setting, python, js, parse, help, doc) \
  {OPT_##id, short, long, arg, commands, config, setting, python, js, parse, help},
#include "options.def"
#undef OPTION
#undef COMMAND
};
const size_t setting_count = SETTING_COUNT;
_Static_assert(sizeof setting_table / sizeof setting_table[0] == SETTING_COUNT, "one row per id");

/* Whether len bytes of key spell the configuration key c with '_' for '-' ("targets"). */
static int config_spelling(const char *c, const char *key, size_t len)
{
  if (!c || strlen(c) != len)
    return 0;
  for (size_t i = 0; i < len; i++)
    if (key[i] != (c[i] == '-' ? '_' : c[i]))
      return 0;
  return 1;
}

const struct setting_def *setting_by_key(const char *key, size_t len)
{
  for (size_t i = 0; i < setting_count; i++) {
    const char *k = setting_table[i].key;
    if (k && strlen(k) == len && !strncmp(k, key, len))
      return &setting_table[i];
  }
  /* the configuration's name, as the library spells keys, is accepted too (targets=) */
  for (size_t i = 0; i < setting_count; i++)
    if (setting_table[i].key && config_spelling(setting_table[i].config, key, len))
      return &setting_table[i];
  return NULL;
}

const struct setting_def *setting_by_config(const char *key)
{
  for (size_t i = 0; i < setting_count; i++)
    if (setting_table[i].config && !strcmp(setting_table[i].config, key))
      return &setting_table[i];
  return NULL;
}

const struct setting_def *setting_by_js(const char *name)
{
  for (size_t i = 0; i < setting_count; i++)
    if (setting_table[i].js && !strcmp(setting_table[i].js, name))
      return &setting_table[i];
  return NULL;
}

const struct setting_def *setting_by_id(enum option_id id)
{
  for (size_t i = 0; i < setting_count; i++)
    if (setting_table[i].id == id)
      return &setting_table[i];
  return NULL;
}

int setting_for_command(const struct setting_def *d, const char *command)
{
  size_t n = strlen(command);
  if (!strcmp(d->commands, "all"))
    return 1;
  for (const char *p = d->commands; *p;) {
    size_t k = strcspn(p, " ");
    if (k == n && !strncmp(p, command, n))
      return 1;
    p += k + (p[k] == ' ');
  }
  return 0;
}

const char *setting_expected(enum setting_parse parse)
{
  switch (parse) {
  case SP_FLAG: return "true or false";
  case SP_COUNT: return "a non-negative whole number";
  case SP_SIZE: return "a size above 0 such as 1048576, 512M or 1G";
  case SP_MEMORY: return "auto, none, or a size above 0 such as 512M or 4G";
  case SP_SEVERITY: return "one of fatal, error, warning, info, hint";
  case SP_PATTERN: return "a rule id, a prefix ending in *, or a format name";
  case SP_SEVERITY_PATTERN: return "PATTERN=SEVERITY";
  case SP_PROFILE: return "a profile name of letters, digits, '-' or '_' (at most 31)";
  case SP_TARGETS: return "a target name (mdlcheck targets)";
  case SP_FORMAT: return "a format name";
  case SP_DIRS: return "folders separated by ':'";
  case SP_DIR: return "a folder name";
  case SP_FILE: return "a file name";
  case SP_JOBS: return "a number of jobs from 1 to 64";
  case SP_SHARD: return "K/N with 1 <= K <= N";
  case SP_RULES: return "rule ids separated by ','";
  case SP_WORD: return "one of the option's values";
  case SP_NONE: break;
  }
  return "no value";
}

/* A non-negative decimal whole number: an optional '+', digits, no overflow. */
static int parse_count(const char *s, unsigned long *out)
{
  unsigned long v = 0;
  if (*s == '+')
    s++;
  if (!*s)
    return -1;
  for (; *s; s++) {
    unsigned d;
    if (!isdigit((unsigned char)*s))
      return -1;
    d = (unsigned)(*s - '0');
    if (v > (~0UL - d) / 10)
      return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

/* YAML 1.2's core schema booleans (the configuration's): "yes", "1" are no booleans there. */
static int parse_flag(const char *s, int *out)
{
  static const char *const yes[] = {"true", "True", "TRUE"};
  static const char *const no[] = {"false", "False", "FALSE"};
  for (size_t i = 0; i < 3; i++) {
    if (!strcmp(s, yes[i]) || !strcmp(s, no[i])) {
      *out = !strcmp(s, yes[i]);
      return 0;
    }
  }
  return -1;
}

/* A profile name: 1 to 31 letters, digits, '-' or '_' (which exist: format_options_check). */
static int profile_form(const char *s)
{
  size_t n = strlen(s);
  if (n == 0 || n > 31)
    return -1;
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
      return -1;
  return 0;
}

static int apply_pattern(const struct setting_def *d, mdl_policy *policy, const char *pattern,
                         mdl_severity sev)
{
  if (!policy)
    return 0;
  if (d->parse == SP_SEVERITY_PATTERN)
    return mdl_policy_override(policy, pattern, sev);
  return d->id == OPT_ONLY ? mdl_policy_only(policy, pattern) : mdl_policy_ignore(policy, pattern);
}

#define REFUSE(...) (snprintf(why, why_size, __VA_ARGS__), -1)

int setting_parse_value(const struct setting_def *d, const char *spelt, const char *text,
                        mdl_policy *policy, struct setting_value *out, char *why, size_t why_size)
{
  int rc;
  memset(out, 0, sizeof *out);
  switch (d->parse) {
  case SP_COUNT:
    if (parse_count(text, &out->count) < 0)
      return REFUSE("%s takes a count, not '%s'", spelt, text);
    return 0;
  case SP_SIZE:
    if (input_limit_parse(text, &out->size) < 0)
      return REFUSE("%s takes a size above 0 such as 1048576, 512M or 1G, not '%s'", spelt, text);
    return 0;
  case SP_MEMORY: /* auto: follows the text; none: no bound; 0 is refused as for any size */
    if (!strcmp(text, "auto"))
      out->size = MDL_MAX_MEMORY_AUTO;
    else if (!strcmp(text, "none"))
      out->size = MDL_MAX_MEMORY_NONE;
    else if (input_limit_parse(text, &out->size) < 0 || out->size == MDL_MAX_MEMORY_NONE)
      return REFUSE("%s takes auto, none, or a size above 0 such as 512M or 4G, not '%s'", spelt, text);
    return 0;
  case SP_SEVERITY:
    out->severity = mdl_severity_parse(text);
    if (out->severity == MDL_SEVERITY_COUNT)
      return REFUSE("unknown severity '%s' for %s (fatal, error, warning, info, hint)", text, spelt);
    return 0;
  case SP_FLAG:
    if (parse_flag(text, &out->flag) < 0)
      return REFUSE("%s takes true or false, not '%s'", spelt, text);
    return 0;
  case SP_PATTERN:
    if (!*text)
      return REFUSE("%s takes a rule id, a prefix ending in *, or a format name, not ''", spelt);
    if ((rc = apply_pattern(d, policy, text, MDL_SEVERITY_COUNT)) == -2)
      return -2;
    if (rc < 0)
      return REFUSE("pattern '%s' matches no catalogued rule", text);
    return 0;
  case SP_SEVERITY_PATTERN: {
    const char *eq = strrchr(text, '=');
    char pattern[256];
    if (!eq || eq == text || (size_t)(eq - text) >= sizeof pattern)
      return REFUSE("%s takes PATTERN=SEVERITY, not '%s'", spelt, text);
    memcpy(pattern, text, (size_t)(eq - text));
    pattern[eq - text] = 0;
    out->severity = mdl_severity_parse(eq + 1);
    if (out->severity == MDL_SEVERITY_COUNT)
      return REFUSE("unknown severity '%s' for %s (fatal, error, warning, info, hint)", eq + 1, spelt);
    if ((rc = apply_pattern(d, policy, pattern, out->severity)) == -2)
      return -2;
    if (rc < 0)
      return REFUSE("pattern '%s' matches no catalogued rule", pattern);
    return 0;
  }
  case SP_PROFILE:
    if (profile_form(text) < 0)
      return REFUSE("%s takes a profile name of letters, digits, '-' or '_' (at most 31), not '%s'",
                    spelt, text);
    return 0;
  case SP_TARGETS: {
    char bad[80];
    if (!*text)
      return REFUSE("unknown target '' for %s (mdlcheck targets lists them)", spelt);
    if (mdl_targets_check(text, bad, sizeof bad) < 0)
      return REFUSE("unknown target '%s' (mdlcheck targets lists them)", bad);
    return 0;
  }
  case SP_FORMAT: {
    char known[128] = "";
    size_t used = 0;
    if (format_find(text))
      return 0;
    for (size_t i = 0; mdl_format_table[i] && used + 1 < sizeof known; i++)
      used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                               mdl_format_table[i]->name);
    return REFUSE("unknown format '%s' for %s (known: %s)", text, spelt, known);
  }
  case SP_NONE: case SP_WORD: case SP_JOBS: case SP_FILE: case SP_DIR: case SP_DIRS:
  case SP_SHARD: case SP_RULES:
    return 0; /* read as they are here; the tool checks its own */
  }
  return 0;
}

struct out_buf {
  char *s;
  size_t cap, n;
};

static void out_put(struct out_buf *o, const char *s, size_t len)
{
  for (size_t i = 0; i < len && o->n + 1 < o->cap; i++)
    o->s[o->n++] = s[i];
  o->s[o->n] = 0;
}

static void out_word(struct out_buf *o, const char *w, const char *sep, int code, int *first)
{
  if (!*first)
    out_put(o, sep, strlen(sep));
  *first = 0;
  if (code)
    out_put(o, "`", 1);
  out_put(o, w, strlen(w));
  if (code)
    out_put(o, "`", 1);
}

/* Whether name is among the profiles of the formats before table index f (listed already). */
static int profile_seen(size_t f, const char *name, const mdl_options *o)
{
  char p[80];
  for (size_t i = 0; i < f; i++)
    for (size_t k = 0; mdl_format_table[i]->profile_at &&
                       mdl_format_table[i]->profile_at(o, k, p, sizeof p) == 0; k++)
      if (!strcmp(p, name))
        return 1;
  return 0;
}

void setting_expand(const char *text, const char *sep, int code, char *out, size_t cap)
{
  struct out_buf o = {out, cap, 0};
  mdl_options defaults;
  mdl_options_init(&defaults);
  if (!cap)
    return;
  out[0] = 0;
  while (*text) {
    const char *at = strchr(text, '@');
    int first = 1;
    if (!at) {
      out_put(&o, text, strlen(text));
      break;
    }
    out_put(&o, text, (size_t)(at - text));
    if (!strncmp(at, "@formats", 8)) {
      for (size_t i = 0; mdl_format_table[i]; i++)
        out_word(&o, mdl_format_table[i]->name, sep, code, &first);
      text = at + 8;
    } else if (!strncmp(at, "@profile-docs", 13)) {
      for (size_t i = 0; mdl_format_table[i]; i++)
        for (const struct format_profile *p = mdl_format_table[i]->profile_docs; p && p->name; p++) {
          out_word(&o, p->name, "; ", code, &first);
          out_put(&o, " (", 2);
          out_put(&o, p->meaning, strlen(p->meaning));
          out_put(&o, ")", 1);
        }
      text = at + 13;
    } else if (!strncmp(at, "@profiles", 9)) {
      for (size_t i = 0; mdl_format_table[i]; i++) {
        char p[80];
        for (size_t k = 0; mdl_format_table[i]->profile_at &&
                           mdl_format_table[i]->profile_at(&defaults, k, p, sizeof p) == 0; k++)
          if (!profile_seen(i, p, &defaults))
            out_word(&o, p, sep, code, &first);
      }
      text = at + 9;
    } else {
      out_put(&o, "@", 1);
      text = at + 1;
    }
  }
}
