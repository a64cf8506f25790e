/* cmd_rules.c - print the rule catalogue (text or JSON). */
#include <stdio.h>

#include "cli.h"
#include "json_write.h"

int cmd_rules(struct cli *c)
{
  FILE *out = cli_open_output(c);
  size_t n = mdl_rule_count();
  if (!out)
    return EXIT_IO;
  if (c->output == OUT_JSON) {
    struct json_writer w;
    json_init(&w, out, 1);
    json_object_begin(&w);
    report_json_tool(&w);
    json_key(&w, "rules");
    json_array_begin(&w);
    for (size_t i = 0; i < n; i++) {
      const mdl_rule *r = mdl_rule_at(i);
      json_object_begin(&w);
      json_kv_string(&w, "id", r->id);
      json_kv_string(&w, "name", r->name);
      json_kv_string(&w, "format", r->format);
      json_kv_string(&w, "severity", mdl_severity_name(r->severity));
      json_kv_string(&w, "strict_severity", mdl_severity_name(r->strict_severity));
      json_kv_string(&w, "versions", r->versions);
      json_kv_string(&w, "source", r->source);
      json_kv_string(&w, "basis", r->basis);
      json_kv_string(&w, "text", r->text);
      json_kv_string(&w, "message", r->message);
      json_kv_string(&w, "rationale", r->rationale);
      if (r->tolerance[0])
        json_kv_string(&w, "tolerance", r->tolerance);
      if (r->spec_ref[0]) {
        json_kv_string(&w, "spec_ref", r->spec_ref);
        json_kv_string(&w, "clause", r->clause);
      }
      if (r->alias[0])
        json_kv_string(&w, "alias", r->alias);
      json_object_end(&w);
    }
    json_array_end(&w);
    json_object_end(&w);
    json_end(&w);
  } else {
    for (size_t i = 0; i < n; i++) {
      const mdl_rule *r = mdl_rule_at(i);
      fprintf(out, "%-12s %-8s %-5s %s  [%s; %s]", r->id, mdl_severity_name(r->severity), r->format,
              r->text, r->source, r->versions);
      if (r->alias[0])
        fprintf(out, " (alias %s)", r->alias);
      fputc('\n', out);
    }
  }
  cli_close_output(c, out);
  return EXIT_VALID;
}
