/* rules.c - access to the generated rule table, and severity names. */
#include <string.h>

#include "mdlcheck.h"
#include "rules_gen.h"

extern const mdl_rule mdl_rule_table[RULE_COUNT];

static const char *const severity_names[MDL_SEVERITY_COUNT] = {
  "fatal", "error", "warning", "info", "hint"
};

size_t mdl_rule_count(void)
{
  return RULE_COUNT;
}

const mdl_rule *mdl_rule_at(size_t index)
{
  return index < RULE_COUNT ? &mdl_rule_table[index] : NULL;
}

const mdl_rule *mdl_rule_find(const char *id)
{
  for (size_t i = 0; i < RULE_COUNT; i++)
    if (!strcmp(mdl_rule_table[i].id, id) || (mdl_rule_table[i].alias && !strcmp(mdl_rule_table[i].alias, id)))
      return &mdl_rule_table[i];
  return NULL;
}

const char *mdl_severity_name(mdl_severity severity)
{
  return (unsigned)severity < MDL_SEVERITY_COUNT ? severity_names[severity] : "none";
}

mdl_severity mdl_severity_parse(const char *name)
{
  for (int i = 0; i < MDL_SEVERITY_COUNT; i++)
    if (!strcmp(severity_names[i], name))
      return (mdl_severity)i;
  return MDL_SEVERITY_COUNT;
}
