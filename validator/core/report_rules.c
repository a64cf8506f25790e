/* report_rules.c - the rule catalogue as JSON (`mdlcheck rules -f json`, mdl_rules_json), and the
 * targets (`mdlcheck targets -f json`, a report's "targets"). */
#include <string.h>

#include "diag.h"
#include "json_write.h"
#include "report.h"
#include "targets.h"

static void write_rule(struct json_writer *w, const mdl_rule *r)
{
  json_object_begin(w);
  json_kv_string(w, "id", r->id);
  json_kv_string(w, "name", r->name);
  json_kv_string(w, "format", r->format);
  json_kv_string(w, "severity", mdl_severity_name(r->severity));
  json_kv_string(w, "strict_severity", mdl_severity_name(r->strict_severity));
  json_kv_string(w, "versions", r->versions);
  json_kv_string(w, "source", r->source);
  json_kv_string(w, "basis", r->basis);
  json_kv_string(w, "text", r->text);
  json_kv_string(w, "message", r->message);
  json_kv_string(w, "rationale", r->rationale);
  if (r->tolerance[0])
    json_kv_string(w, "tolerance", r->tolerance);
  if (r->spec_ref[0]) {
    json_kv_string(w, "spec_ref", r->spec_ref);
    json_kv_string(w, "clause", r->clause);
  }
  if (r->alias[0])
    json_kv_string(w, "alias", r->alias);
  if (r->fix[0])
    json_kv_string(w, "fix", r->fix);
  if (r->repair[0])
    json_kv_string(w, "repair", r->repair);
  json_object_end(w);
}

int report_rule_selected(const mdl_rule *r, const char *const *patterns, size_t npatterns)
{
  for (size_t k = 0; k < npatterns; k++)
    if (policy_pattern_matches(patterns[k], r))
      return 1;
  return npatterns == 0;
}

int report_write_rules(FILE *out, const char *const *patterns, size_t npatterns)
{
  struct json_writer w;
  json_init(&w, out, 1);
  json_object_begin(&w);
  report_json_tool(&w);
  json_key(&w, "rules");
  json_array_begin(&w);
  for (size_t i = 0; i < mdl_rule_count(); i++)
    if (report_rule_selected(mdl_rule_at(i), patterns, npatterns))
      write_rule(&w, mdl_rule_at(i));
  json_array_end(&w);
  json_object_end(&w);
  return json_end(&w);
}

static void write_target(struct json_writer *w, const mdl_target *t, int with_rules)
{
  json_object_begin(w);
  json_kv_string(w, "name", t->name);
  json_kv_string(w, "loader", t->loader);
  json_kv_string(w, "versions", t->versions);
  json_kv_string(w, "repository", t->repository);
  json_kv_string(w, "commit", t->commit);
  json_kv_string(w, "formats", t->formats);
  if (with_rules) {
    json_kv_string(w, "run", t->run);
    if (t->notes[0])
      json_kv_string(w, "notes", t->notes);
    json_key(w, "rules");
    json_array_begin(w);
    for (const struct target_rule *r = target_rule_table; r->rule != RULE_COUNT; r++)
      if (&mdl_target_table[r->target] == t)
        json_write_string(w, mdl_rule_at(r->rule)->id);
    json_array_end(w);
  }
  json_object_end(w);
}

void report_json_targets(struct json_writer *w, const char *list)
{
  json_key(w, "targets");
  json_array_begin(w);
  for (const char *p = list; p && *p;) {
    size_t n = strcspn(p, ",");
    for (size_t i = 0; i < mdl_target_count(); i++)
      if (strlen(mdl_target_at(i)->name) == n && !strncmp(mdl_target_at(i)->name, p, n))
        write_target(w, mdl_target_at(i), 0);
    p += n + (p[n] == ',');
  }
  json_array_end(w);
}

int report_write_targets(FILE *out)
{
  struct json_writer w;
  json_init(&w, out, 1);
  json_object_begin(&w);
  report_json_tool(&w);
  json_key(&w, "targets");
  json_array_begin(&w);
  for (size_t i = 0; i < mdl_target_count(); i++)
    write_target(&w, mdl_target_at(i), 1);
  json_array_end(&w);
  json_object_end(&w);
  return json_end(&w);
}
