/* report_sarif.c - SARIF 2.1.0 output (OASIS standard), for code-scanning dashboards.
 *
 * One run. tool.driver.rules holds the catalogue entries of the rules that fired, in order of
 * first appearance, and each result points at its rule by ruleIndex. Binary locations are byte
 * regions, text locations line/column regions; the structural path is a logical location and,
 * with the file and the rule, the result's partial fingerprint. The subset emitted is described
 * by spec/sarif-subset.schema.json. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "oom.h"
#include "json_write.h"
#include "report_tool.h"

#define SARIF_SCHEMA_URI "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

static const char *sarif_level(mdl_severity s)
{
  switch (s) {
  case MDL_FATAL:
  case MDL_ERROR: return "error";
  case MDL_WARNING: return "warning";
  default: return "note";
  }
}

/* A file path as a URI reference (RFC 3986): absolute paths become file:// URIs, relative ones
 * stay relative; every byte outside the unreserved set and '/' is percent-encoded. */
static char *path_to_uri(const char *path)
{
  static const char hex[] = "0123456789ABCDEF";
  size_t len = strlen(path);
  char *uri = malloc(len * 3 + sizeof "file://");
  char *o = uri;
  if (!uri)
    oom_exit();
  if (path[0] == '/') {
    memcpy(o, "file://", 7);
    o += 7;
  }
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
        *p == '-' || *p == '.' || *p == '_' || *p == '~' || *p == '/') {
      *o++ = (char)*p;
    } else {
      *o++ = '%';
      *o++ = hex[*p >> 4];
      *o++ = hex[*p & 15];
    }
  }
  *o = 0;
  return uri;
}

/* Rules in order of first appearance; slot[i] is the SARIF index of catalogue rule i, or -1. */
struct rule_set {
  const mdl_rule *base;
  size_t count;
  long *slot;
  const mdl_rule **order;
  size_t used;
};

/* The catalogue index of r, or rs->count. Messages point into the one rule table, so the index
 * is an address difference (checked, and done on integers to stay defined for any pointer). */
static size_t rule_catalogue_index(const struct rule_set *rs, const mdl_rule *r)
{
  uintptr_t d = (uintptr_t)r - (uintptr_t)rs->base;
  size_t i = (size_t)(d / sizeof *r);
  if (d % sizeof *r == 0 && i < rs->count && mdl_rule_at(i) == r)
    return i;
  for (i = 0; i < rs->count; i++)
    if (mdl_rule_at(i) == r)
      return i;
  return rs->count;
}

static void rule_set_build(struct rule_set *rs, const struct report *r)
{
  rs->base = mdl_rule_at(0);
  rs->count = mdl_rule_count();
  rs->slot = malloc((rs->count + 1) * sizeof *rs->slot);
  rs->order = malloc((rs->count + 1) * sizeof *rs->order);
  rs->used = 0;
  if (!rs->slot || !rs->order)
    oom_exit();
  for (size_t i = 0; i < rs->count; i++)
    rs->slot[i] = -1;
  for (size_t f = 0; f < r->nfiles; f++) {
    for (size_t k = 0; k < r->files[f].nmsgs; k++) {
      const mdl_rule *rule = r->files[f].msgs[k].rule;
      size_t i = rule_catalogue_index(rs, rule);
      if (i < rs->count && rs->slot[i] < 0) {
        rs->slot[i] = (long)rs->used;
        rs->order[rs->used++] = rule;
      }
    }
  }
}

static long rule_set_index(const struct rule_set *rs, const mdl_rule *rule)
{
  size_t i = rule_catalogue_index(rs, rule);
  return i < rs->count ? rs->slot[i] : -1;
}

static void rule_set_free(struct rule_set *rs)
{
  free(rs->slot);
  free(rs->order);
}

static void write_text(struct json_writer *w, const char *key, const char *text)
{
  json_key(w, key);
  json_object_begin(w);
  json_kv_string(w, "text", text);
  json_object_end(w);
}

static void write_rule(struct json_writer *w, const mdl_rule *r)
{
  size_t len = strlen(r->text) + strlen(r->rationale) + strlen(r->tolerance) + strlen(r->source) +
               strlen(r->versions) + strlen(r->spec_ref) + strlen(r->clause) + 96;
  char *full = malloc(len), *help = malloc(len);

  if (!full || !help)
    oom_exit();
  snprintf(full, len, "%s%s%s", r->text, r->rationale[0] ? " " : "", r->rationale);
  /* the clause the rule enforces, quoted, so a dashboard shows it without the spec file */
  snprintf(help, len, "%s%s%s Spec: %s (versions %s).%s%s%s%s", full,
           r->tolerance[0] ? " Tolerance: " : "", r->tolerance, r->source, r->versions,
           r->spec_ref[0] ? "\n\nClause " : "", r->spec_ref, r->spec_ref[0] ? ": " : "", r->clause);
  json_object_begin(w);
  json_kv_string(w, "id", r->id);
  json_kv_string(w, "name", r->name);
  write_text(w, "shortDescription", r->text);
  write_text(w, "fullDescription", full);
  write_text(w, "help", help);
  free(full);
  free(help);
  json_key(w, "defaultConfiguration");
  json_object_begin(w);
  json_kv_string(w, "level", sarif_level(r->severity));
  json_object_end(w);
  json_key(w, "properties");
  json_object_begin(w);
  json_kv_string(w, "severity", mdl_severity_name(r->severity));
  json_kv_string(w, "strictSeverity", mdl_severity_name(r->strict_severity));
  json_kv_string(w, "format", r->format);
  json_kv_string(w, "source", r->source);
  json_kv_string(w, "versions", r->versions);
  json_kv_string(w, "basis", r->basis);
  if (r->tolerance[0])
    json_kv_string(w, "tolerance", r->tolerance);
  if (r->spec_ref[0])
    json_kv_string(w, "specRef", r->spec_ref);
  json_key(w, "tags");
  json_array_begin(w);
  json_write_string(w, r->format);
  json_array_end(w);
  json_object_end(w);
  json_object_end(w);
}

/* FNV-1a, 64 bits, over s and its terminating NUL (so "ab","c" and "a","bc" differ). */
static uint64_t fnv1a(uint64_t h, const char *s)
{
  do {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ull;
  } while (*s++);
  return h;
}

struct print_key {
  uint64_t hash;
  size_t msg;
};

static int print_key_order(const void *pa, const void *pb)
{
  const struct print_key *a = pa, *b = pb;
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  return a->msg < b->msg ? -1 : a->msg > b->msg;
}

/* Each result's partialFingerprints value (SARIF 3.27.17): the file, the rule and the structural
 * path, never a line or an offset, so an edit elsewhere in the file keeps it and dashboards
 * match the result across runs; repeats of one rule at one path are told apart by their order
 * among themselves, which such an edit does not change. */
static uint64_t *fingerprints_build(const struct report_file *f)
{
  uint64_t *out = calloc(f->nmsgs + 1, sizeof *out);
  struct print_key *keys = calloc(f->nmsgs + 1, sizeof *keys);
  if (!out || !keys)
    oom_exit();
  for (size_t k = 0; k < f->nmsgs; k++) {
    uint64_t h = fnv1a(0xcbf29ce484222325ull, f->path);
    h = fnv1a(h, f->msgs[k].rule->id);
    keys[k].hash = fnv1a(h, f->msgs[k].path);
    keys[k].msg = k;
  }
  if (f->nmsgs > 1)
    qsort(keys, f->nmsgs, sizeof *keys, print_key_order);
  for (size_t k = 0, nth = 0; k < f->nmsgs; k++) {
    char ordinal[24];
    nth = k && keys[k].hash == keys[k - 1].hash ? nth + 1 : 0;
    snprintf(ordinal, sizeof ordinal, "%zu", nth);
    out[keys[k].msg] = fnv1a(keys[k].hash, ordinal);
  }
  free(keys);
  return out;
}

static void write_result(struct json_writer *w, const struct rule_set *rs, const char *uri,
                         size_t file_index, const struct report_msg *m, uint64_t print)
{
  char hex[17];
  json_object_begin(w);
  json_kv_string(w, "ruleId", m->rule->id);
  json_kv_int(w, "ruleIndex", rule_set_index(rs, m->rule));
  json_kv_string(w, "level", sarif_level(m->severity));
  if (m->baselined)
    json_kv_string(w, "baselineState", "unchanged");
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)print);
  json_key(w, "partialFingerprints");
  json_object_begin(w);
  json_kv_string(w, "mdlcheck/v1", hex);
  json_object_end(w);
  write_text(w, "message", m->message);
  json_key(w, "locations");
  json_array_begin(w);
  json_object_begin(w);
  json_key(w, "physicalLocation");
  json_object_begin(w);
  json_key(w, "artifactLocation");
  json_object_begin(w);
  json_kv_string(w, "uri", uri);
  json_kv_uint(w, "index", file_index);
  json_object_end(w);
  if (m->line) {
    json_key(w, "region");
    json_object_begin(w);
    json_kv_uint(w, "startLine", m->line);
    json_kv_uint(w, "startColumn", m->column ? m->column : 1);
    json_object_end(w);
  } else if (m->offset >= 0) {
    json_key(w, "region");
    json_object_begin(w);
    json_kv_int(w, "byteOffset", m->offset);
    json_kv_uint(w, "byteLength", 1);
    json_object_end(w);
  }
  json_object_end(w);
  if (m->path[0]) {
    json_key(w, "logicalLocations");
    json_array_begin(w);
    json_object_begin(w);
    json_kv_string(w, "fullyQualifiedName", m->path);
    json_object_end(w);
    json_array_end(w);
  }
  json_object_end(w);
  json_array_end(w);
  json_key(w, "properties");
  json_object_begin(w);
  json_kv_string(w, "severity", mdl_severity_name(m->severity));
  report_json_details(w, m);
  json_object_end(w);
  json_object_end(w);
}

static void write_artifact(struct json_writer *w, const struct report *r, const struct report_file *f,
                           const char *uri)
{
  json_object_begin(w);
  json_key(w, "location");
  json_object_begin(w);
  json_kv_string(w, "uri", uri);
  json_object_end(w);
  json_key(w, "roles");
  json_array_begin(w);
  json_write_string(w, "analysisTarget");
  json_array_end(w);
  json_key(w, "properties");
  json_object_begin(w);
  json_kv_string(w, "path", f->path);
  json_kv_string(w, "format", f->format);
  json_kv_string(w, "version", f->version);
  report_json_verdict(w, r, f);
  json_object_end(w);
  json_object_end(w);
}

void report_write_sarif(FILE *out, const struct report *r)
{
  struct json_writer w;
  struct rule_set rs;
  char **uris = calloc(r->nfiles + 1, sizeof *uris);
  int io_failed = 0;

  if (!uris)
    oom_exit();
  for (size_t i = 0; i < r->nfiles; i++) {
    uris[i] = path_to_uri(r->files[i].path);
    io_failed |= r->files[i].io_failed;
  }
  rule_set_build(&rs, r);

  json_init(&w, out, 1);
  json_object_begin(&w);
  json_kv_string(&w, "$schema", SARIF_SCHEMA_URI);
  json_kv_string(&w, "version", "2.1.0");
  json_key(&w, "runs");
  json_array_begin(&w);
  json_object_begin(&w);

  json_key(&w, "tool");
  json_object_begin(&w);
  json_key(&w, "driver");
  json_object_begin(&w);
  json_kv_string(&w, "name", "mdlcheck");
  json_kv_string(&w, "version", MDL_VERSION_STRING);
  json_kv_string(&w, "semanticVersion", MDL_VERSION_STRING);
  /* informationUri is optional (SARIF 3.19.17) and the project has no public home yet: better
   * absent than a placeholder that dashboards would turn into a dead link */
  json_key(&w, "rules");
  json_array_begin(&w);
  for (size_t i = 0; i < rs.used; i++)
    write_rule(&w, rs.order[i]);
  json_array_end(&w);
  json_object_end(&w);
  json_object_end(&w);

  json_key(&w, "invocations");
  json_array_begin(&w);
  json_object_begin(&w);
  /* a file that could not be read is a failed execution, not merely an invalid file */
  json_kv_bool(&w, "executionSuccessful", !io_failed);
  json_object_end(&w);
  json_array_end(&w);

  /* the text decoders count columns in bytes, which SARIF cannot name; for the ASCII the text
   * formats are written in, bytes and code points agree */
  json_kv_string(&w, "columnKind", "unicodeCodePoints");

  json_key(&w, "artifacts");
  json_array_begin(&w);
  for (size_t i = 0; i < r->nfiles; i++)
    write_artifact(&w, r, &r->files[i], uris[i]);
  json_array_end(&w);

  json_key(&w, "results");
  json_array_begin(&w);
  for (size_t i = 0; i < r->nfiles; i++) {
    uint64_t *prints = fingerprints_build(&r->files[i]);
    for (size_t k = 0; k < r->files[i].nmsgs; k++)
      write_result(&w, &rs, uris[i], i, &r->files[i].msgs[k], prints[k]);
    free(prints);
  }
  json_array_end(&w);

  json_key(&w, "properties");
  json_object_begin(&w);
  json_kv_string(&w, "failOn", mdl_severity_name(r->fail_on));
  if (r->targets)
    report_json_targets(&w, r->targets);
  json_object_end(&w);

  json_object_end(&w);
  json_array_end(&w);
  json_object_end(&w);
  json_end(&w);

  rule_set_free(&rs);
  for (size_t i = 0; i < r->nfiles; i++)
    free(uris[i]);
  free(uris);
}
