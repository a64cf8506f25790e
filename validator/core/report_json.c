/* report_json.c - the JSON report. Its schema, spec/report.schema.json, closes every object:
 * a key added here must be added (and described) there, or tests/cli/schemas.sh fails. */
#include "json_write.h"
#include "report.h"

void report_json_tool(struct json_writer *w)
{
  json_key(w, "tool");
  json_object_begin(w);
  json_kv_string(w, "name", "mdlcheck");
  json_kv_string(w, "version", MDL_VERSION_STRING);
  json_object_end(w);
}

void report_json_location(struct json_writer *w, unsigned line, unsigned column, long long offset)
{
  if (line) {
    json_kv_uint(w, "line", line);
    json_kv_uint(w, "column", column ? column : 1);
  } else if (offset >= 0) {
    json_kv_int(w, "offset", offset);
  }
}

void report_json_details(struct json_writer *w, const struct report_msg *m)
{
  json_kv_string(w, "spec", m->rule->source);
  if (m->actual[0])
    json_kv_string(w, "actual", m->actual);
  if (m->expected[0])
    json_kv_string(w, "expected", m->expected);
  if (m->folded)
    json_kv_uint(w, "folded", m->folded);
  if (m->nfolded_at) {
    json_key(w, "folded_at");
    json_array_begin(w);
    for (size_t i = 0; i < m->nfolded_at; i++) {
      json_object_begin(w);
      report_json_location(w, m->folded_at[i].line, m->folded_at[i].column, m->folded_at[i].offset);
      json_object_end(w);
    }
    json_array_end(w);
  }
}

static void write_msg(struct json_writer *w, const struct report_msg *m)
{
  json_object_begin(w);
  json_kv_string(w, "id", m->rule->id);
  json_kv_string(w, "severity", mdl_severity_name(m->severity));
  json_kv_string(w, "message", m->message);
  report_json_location(w, m->line, m->column, m->offset);
  json_kv_string(w, "path", m->path);
  report_json_details(w, m);
  if (m->baselined)
    json_kv_bool(w, "baselined", 1);
  json_object_end(w);
}

void report_json_verdict(struct json_writer *w, const struct report *r, const struct report_file *f)
{
  json_kv_string(w, "verdict", report_file_invalid(r, f) ? "invalid" : "valid");
  json_key(w, "counts");
  json_object_begin(w);
  for (int s = 0; s < MDL_SEVERITY_COUNT; s++)
    json_kv_uint(w, mdl_severity_name((mdl_severity)s), f->counts[s]);
  json_object_end(w);
  json_kv_bool(w, "truncated", f->truncated);
}

unsigned long long report_stat_at(const mdl_stats *st, unsigned i, const char **name)
{
  static const char *const names[REPORT_STATS_COUNT] = {"joints", "meshes", "vertices", "triangles",
                                                        "animations", "frames"};
  const unsigned long long values[REPORT_STATS_COUNT] = {st->joints, st->meshes, st->vertices,
                                                         st->triangles, st->animations, st->frames};
  if (i < REPORT_STATS_COUNT) {
    *name = names[i];
    return values[i];
  }
  *name = st->extra[i - REPORT_STATS_COUNT].name;
  return st->extra[i - REPORT_STATS_COUNT].value;
}

void report_json_stats(struct json_writer *w, const mdl_stats *st)
{
  if (!st->decoded)
    return; /* never counts from a decode that gave up */
  json_key(w, "stats");
  json_object_begin(w);
  json_kv_bool(w, "partial", st->partial);
  for (unsigned i = 0; i < REPORT_STATS_COUNT + st->num_extra && i < REPORT_STATS_MAX; i++) {
    const char *name;
    unsigned long long v = report_stat_at(st, i, &name);
    if (v != MDL_STAT_UNKNOWN) /* a count validation did not determine is left out */
      json_kv_uint(w, name, v);
  }
  json_object_end(w);
}

void report_json_resources(struct json_writer *w, const struct report_file *f)
{
  json_key(w, "resources");
  json_array_begin(w);
  for (size_t i = 0; i < f->nres; i++) {
    const struct report_resource *x = &f->res[i];
    json_object_begin(w);
    json_kv_string(w, "ref", x->ref);
    json_kv_string(w, "kind", x->kind);
    json_kv_string(w, "status", x->status);
    json_key(w, "resolved_path");
    if (x->resolved_path[0])
      json_write_string(w, x->resolved_path);
    else
      json_write_null(w);
    if (x->image[0])
      json_kv_string(w, "image", x->image);
    if (x->width && x->height) {
      json_kv_uint(w, "width", x->width);
      json_kv_uint(w, "height", x->height);
    }
    if (x->channels)
      json_kv_uint(w, "channels", x->channels);
    report_json_location(w, x->line, x->column, x->offset);
    json_kv_string(w, "path", x->path);
    json_object_end(w);
  }
  json_array_end(w);
}

void report_json_file(struct json_writer *w, const struct report *r, const struct report_file *f)
{
  json_object_begin(w);
  json_kv_string(w, "path", f->path);
  json_kv_string(w, "format", f->format);
  json_kv_string(w, "version", f->version);
  if (f->compression[0])
    json_kv_string(w, "compression", f->compression);
  if (f->compared_path) {
    json_key(w, "compared_with");
    json_object_begin(w);
    json_kv_string(w, "path", f->compared_path);
    json_kv_string(w, "format", f->compared_format);
    json_kv_string(w, "version", f->compared_version);
    json_object_end(w);
  }
  report_json_verdict(w, r, f);
  report_json_stats(w, &f->stats);
  json_key(w, "messages");
  json_array_begin(w);
  for (size_t k = 0; k < f->nmsgs; k++)
    write_msg(w, &f->msgs[k]);
  json_array_end(w);
  if (f->resources_checked)
    report_json_resources(w, f);
  json_object_end(w);
}

void report_write_json(FILE *out, const struct report *r)
{
  struct json_writer w;
  json_init(&w, out, 1);
  json_object_begin(&w);
  report_json_tool(&w);
  json_kv_string(&w, "fail_on", mdl_severity_name(r->fail_on));
  if (r->targets) /* the real loaders each file was also checked for */
    report_json_targets(&w, r->targets);
  json_key(&w, "files");
  json_array_begin(&w);
  for (size_t i = 0; i < r->nfiles; i++)
    report_json_file(&w, r, &r->files[i]);
  json_array_end(&w);
  if (r->unreferenced_listed) {
    json_key(&w, "unreferenced");
    json_array_begin(&w);
    for (size_t i = 0; i < r->nunreferenced; i++)
      json_write_string(&w, r->unreferenced[i]);
    json_array_end(&w);
  }
  json_object_end(&w);
  json_end(&w);
}
