/* policy.c - which rules are reported, and at which severity.
 * Patterns: an exact rule id, a prefix ending in '*', or a format name; a rule's former id (its
 * alias) matches as its id does, so configs written before a rename keep working. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grow.h"
#include "mdlcheck.h"
#include "rules_gen.h"

enum policy_action { POLICY_IGNORE, POLICY_ONLY, POLICY_OVERRIDE };

struct policy_entry {
  enum policy_action action;
  char *pattern;
  mdl_severity severity;
};

struct mdl_policy {
  struct policy_entry *entries;
  size_t count, cap;
  int has_only;
};

mdl_policy *mdl_policy_new(void)
{
  return calloc(1, sizeof(mdl_policy));
}

void mdl_policy_free(mdl_policy *policy)
{
  if (!policy)
    return;
  for (size_t i = 0; i < policy->count; i++)
    free(policy->entries[i].pattern);
  free(policy->entries);
  free(policy);
}

int policy_pattern_matches(const char *pattern, const mdl_rule *rule)
{
  size_t n = strlen(pattern);
  if (n && pattern[n - 1] == '*')
    return !strncmp(pattern, rule->id, n - 1) || (rule->alias && rule->alias[0] && !strncmp(pattern, rule->alias, n - 1));
  return !strcmp(pattern, rule->id) || (rule->alias && rule->alias[0] && !strcmp(pattern, rule->alias)) ||
         !strcmp(pattern, rule->format);
}

static int pattern_known(const char *pattern)
{
  for (size_t i = 0; i < mdl_rule_count(); i++)
    if (policy_pattern_matches(pattern, mdl_rule_at(i)))
      return 1;
  return 0;
}

static int add(mdl_policy *p, enum policy_action action, const char *pattern, mdl_severity sev)
{
  struct policy_entry *e;
  if (!pattern_known(pattern))
    return -1;
  if (grow_one(&p->entries, &p->cap, p->count, sizeof *p->entries, 8) < 0)
    return -2;
  e = &p->entries[p->count];
  e->pattern = strdup(pattern);
  if (!e->pattern)
    return -2;
  e->action = action;
  e->severity = sev;
  p->count++;
  if (action == POLICY_ONLY)
    p->has_only = 1;
  return 0;
}

int mdl_policy_ignore(mdl_policy *policy, const char *pattern)
{
  return add(policy, POLICY_IGNORE, pattern, MDL_SEVERITY_COUNT);
}

int mdl_policy_only(mdl_policy *policy, const char *pattern)
{
  return add(policy, POLICY_ONLY, pattern, MDL_SEVERITY_COUNT);
}

int mdl_policy_override(mdl_policy *policy, const char *pattern, mdl_severity severity)
{
  if ((unsigned)severity >= MDL_SEVERITY_COUNT)
    return -1;
  return add(policy, POLICY_OVERRIDE, pattern, severity);
}

/* Whether rule says an input (or the run) was not checked: unknown format, unreadable input, out of
 * memory, a bad configuration, a compare side that does not decode, a conversion the writer
 * refused. `only` narrows what is reported; it never turns "not checked" into "valid". The tool's
 * other rules are findings (compare differences, announced conversion losses, resources) and are
 * selected by `only` like any format's. */
static int rule_reports_unchecked(const mdl_rule *rule)
{
  static const char *const families[] = {"MDL-FMT-", "MDL-IO-", "MDL-MEM-", "MDL-CFG-"};
  if (strcmp(rule->format, "core"))
    return 0;
  for (size_t i = 0; i < sizeof families / sizeof *families; i++)
    if (!strncmp(rule->id, families[i], strlen(families[i])))
      return 1;
  /* by id: the sink hands over a copy of the rule carrying its graded severity */
  return !strcmp(rule->id, mdl_rule_at(RULE_CORE_COMPARE_UNREADABLE)->id) ||
         !strcmp(rule->id, mdl_rule_at(RULE_CORE_CONVERT_WRITER_REFUSED)->id);
}

static mdl_severity apply(const mdl_policy *policy, const mdl_rule *rule, int use_only)
{
  mdl_severity sev = rule->severity;
  int selected = !use_only || !policy->has_only;
  for (size_t i = 0; i < policy->count; i++) {
    const struct policy_entry *e = &policy->entries[i];
    if (!policy_pattern_matches(e->pattern, rule))
      continue;
    if (e->action == POLICY_IGNORE)
      return MDL_SEVERITY_COUNT;
    if (e->action == POLICY_ONLY)
      selected = 1;
    else
      sev = e->severity;
  }
  if (!selected && !rule_reports_unchecked(rule))
    return MDL_SEVERITY_COUNT;
  return sev;
}

mdl_severity mdl_policy_apply(const mdl_policy *policy, const mdl_rule *rule)
{
  return apply(policy, rule, 1);
}

mdl_severity policy_apply_unselected(const mdl_policy *policy, const mdl_rule *rule)
{
  return apply(policy, rule, 0);
}
