/* formats.c - the one registration table of formats, and detection over it. */
#include "format.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The registry: one line per format (its struct is <name>_format, in validator/formats/<name>/). */
#define MDL_FORMATS(X) X(iqm) X(iqe) X(egg) X(qmsh) X(x42)

#define DECLARE(f) extern const struct mdl_format f##_format;
MDL_FORMATS(DECLARE)
#undef DECLARE

#define ENTRY(f) &f##_format,
const struct mdl_format *const mdl_format_table[] = {MDL_FORMATS(ENTRY) NULL};
#undef ENTRY

/* Constant, built by the compiler: nothing is written when a caller asks (several threads may). */
#define NAME(f) f##_format.name,
static const char *const format_names[] = {MDL_FORMATS(NAME) NULL};
#undef NAME

const char *const *mdl_format_names(void)
{
  return format_names;
}

const struct mdl_format *format_find(const char *name)
{
  for (size_t i = 0; mdl_format_table[i]; i++)
    if (!strcmp(mdl_format_table[i]->name, name))
      return mdl_format_table[i];
  return NULL;
}

static int profile_known(const char *name, const mdl_options *o, char *known, size_t cap)
{
  int found = 0;
  size_t used = strlen(known);
  for (size_t i = 0; mdl_format_table[i]; i++) {
    char p[80];
    for (size_t k = 0; mdl_format_table[i]->profile_at &&
                       mdl_format_table[i]->profile_at(o, k, p, sizeof p) == 0; k++) {
      size_t n = strlen(p);
      found |= !strcmp(p, name);
      if (used + n + 3 < cap) {
        used += (size_t)snprintf(known + used, cap - used, "%s%s", used ? ", " : "", p);
      }
    }
  }
  return found;
}

int format_options_check(const mdl_options *o, char *err, size_t errcap)
{
  char known[512] = "";
  for (size_t i = 0; mdl_format_table[i]; i++)
    if (mdl_format_table[i]->options_check && mdl_format_table[i]->options_check(o, err, errcap) < 0)
      return -1;
  if (o->profile && !profile_known(o->profile, o, known, sizeof known)) {
    snprintf(err, errcap, "unknown profile '%s' (known: %s)", o->profile, known);
    return -1;
  }
  return 0;
}

static int has_suffix_ci(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);
  if (k > n)
    return 0;
  for (size_t i = 0; i < k; i++)
    if (tolower((unsigned char)s[n - k + i]) != suffix[i])
      return 0;
  return 1;
}

const struct mdl_format *format_by_extension(const char *name)
{
  for (size_t i = 0; mdl_format_table[i]; i++)
    for (const char *const *e = mdl_format_table[i]->extensions; e && *e; e++)
      if (has_suffix_ci(name, *e))
        return mdl_format_table[i];
  return NULL;
}

const struct mdl_format *format_detect(const unsigned char *data, size_t size, const char *name_hint)
{
  const struct mdl_format *best = NULL;
  int best_score = 0;
  for (size_t i = 0; mdl_format_table[i]; i++) {
    int score = mdl_format_table[i]->detect(data, size);
    if (score > best_score) {
      best = mdl_format_table[i];
      best_score = score;
    }
  }
  if (best && best_score >= 50)
    return best;
  if (name_hint) {
    const struct mdl_format *by_name = format_by_extension(name_hint);
    if (by_name)
      return by_name;
  }
  return best;
}
