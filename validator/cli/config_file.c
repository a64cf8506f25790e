/* config_file.c - load the YAML configuration file with libyaml.
 *
 * The file is parsed into a libyaml document so every node keeps its mark; each mistake becomes
 * one MDL-CFG-* diagnostic at the line:column of the offending node, and loading goes on so one
 * run reports every mistake in the file. */
#include "grow.h"
#include "oom.h"
#include "config_file.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "diag.h"
#include "input.h"
#include "path_key.h"
#include "settings.h"

/* A configuration is a handful of lines; the cap bounds what a hostile file can make us allocate. */
#define CONFIG_MAX_BYTES (1024 * 1024)
/* libyaml's scanner is quadratic in flow nesting, so depth is checked first (a configuration
 * needs 2 levels); lists are capped so duplicate checks and policy building stay cheap. */
#define CONFIG_MAX_DEPTH 16
#define CONFIG_MAX_ENTRIES 1024
#define ACTUAL_MAX 80

/* Unknown keys reported one by one; the rest are counted in one summary, as --max-per-rule folds
 * repeats of a rule, so a generated file with 100 000 stray keys gives a readable answer. */
#define CONFIG_UNKNOWN_SHOWN 10

struct config_ctx {
  struct mdl_config *c;
  yaml_document_t *doc;
  const unsigned char *text;
  size_t size;
  mdl_diag_fn on_diag;
  void *user;
  int errors;
  unsigned long unknown_keys; /* MDL-CFG-002 met so far */
  const char *dir;            /* the file's folder ("." for a bare name); NULL for a buffer */
};

/* Copy s for a message: bounded, one line, no control characters. */
static void actual_copy(char *out, size_t cap, const char *s)
{
  size_t n = 0, len = strlen(s);
  for (size_t i = 0; i < len && n + 1 < cap; i++) {
    unsigned char ch = (unsigned char)s[i];
    out[n++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
  }
  out[n] = 0;
  if (len >= cap && cap > 4)
    memcpy(out + cap - 4, "...", 4);
}

static void report(struct config_ctx *x, enum rule_index rule, unsigned line, unsigned column,
                   const char *path, const char *actual, const char *expected)
{
  const mdl_rule *r = mdl_rule_at((size_t)rule);
  char act[ACTUAL_MAX + 1];
  char message[512];
  mdl_diag d;

  actual_copy(act, sizeof act, actual ? actual : "");
  if (!expected)
    expected = "";
  if (!path)
    path = "";
  diag_render(message, sizeof message, r->message, act, expected, path);
  memset(&d, 0, sizeof d);
  d.rule = r;
  d.severity = r->severity;
  d.message = message;
  d.offset = -1;
  d.line = line;
  d.column = column;
  d.path = path;
  d.actual = act;
  d.expected = expected;
  if (r->severity <= MDL_ERROR)
    x->errors++;
  if (x->on_diag)
    x->on_diag(&d, x->user);
}

/* One summary standing for `extra` further diagnostics of rule (counted as that many errors). */
static void report_folded(struct config_ctx *x, enum rule_index rule, unsigned long extra)
{
  const mdl_rule *r = mdl_rule_at((size_t)rule);
  char message[128];
  mdl_diag d;
  snprintf(message, sizeof message, "%lu more diagnostics of this rule were folded", extra);
  memset(&d, 0, sizeof d);
  d.rule = r;
  d.severity = r->severity;
  d.message = message;
  d.offset = -1;
  d.path = d.actual = d.expected = "";
  d.folded = extra;
  if (r->severity <= MDL_ERROR)
    x->errors++;
  if (x->on_diag)
    x->on_diag(&d, x->user);
}

static void report_at(struct config_ctx *x, enum rule_index rule, const yaml_node_t *n,
                      const char *path, const char *actual, const char *expected)
{
  report(x, rule, (unsigned)n->start_mark.line + 1, (unsigned)n->start_mark.column + 1, path, actual,
         expected);
}

static const char *node_kind(const yaml_node_t *n)
{
  switch (n->type) {
  case YAML_SEQUENCE_NODE: return "a list";
  case YAML_MAPPING_NODE: return "a mapping";
  default: return "nothing";
  }
}

static const char *scalar_text(const yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* What a node is, for a message: the scalar itself (quoted when it was quoted, so "5" reads as
 * the string it is), or its kind. */
static const char *node_text(const yaml_node_t *n, char *buf, size_t cap)
{
  const char *s = scalar_text(n);
  if (!s)
    return node_kind(n);
  if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
    return *s ? s : "null";
  snprintf(buf, cap, "\"%.*s\"", ACTUAL_MAX, s);
  return buf;
}

static int scalar_is_plain(const yaml_node_t *n)
{
  return n->type == YAML_SCALAR_NODE && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* A value of the configuration read by the parser every face shares (core/settings.c): the
 * scalar's text, after YAML's own typing (a quoted "10" is a string, not a count). 0, or -1. */
static int value_of(const char *key, const yaml_node_t *n, struct setting_value *out)
{
  const struct setting_def *d = setting_by_config(key);
  const char *s = scalar_text(n);
  char why[400];
  int typed = d && (d->parse == SP_COUNT || d->parse == SP_SIZE || d->parse == SP_FLAG);
  if (!d || !s || (typed && !scalar_is_plain(n)))
    return -1;
  return setting_parse_value(d, key, s, NULL, out, why, sizeof why) == 0 ? 0 : -1;
}

static int parse_bool(const yaml_node_t *n, int *out)
{
  struct setting_value v;
  if (value_of("strict", n, &v) < 0)
    return -1;
  *out = v.flag;
  return 0;
}

static mdl_policy *policy_of(struct config_ctx *x)
{
  if (!x->c->policy)
    x->c->policy = mdl_policy_new();
  if (!x->c->policy)
    oom_exit();
  return x->c->policy;
}

static int too_many(struct config_ctx *x, const yaml_node_t *n, const char *key, ptrdiff_t count)
{
  char what[48];
  if (count <= CONFIG_MAX_ENTRIES)
    return 0;
  snprintf(what, sizeof what, "%td entries", count);
  report_at(x, RULE_CORE_CONFIG_BAD_VALUE, n, key, what, "at most 1024 entries");
  return 1;
}

/* ignore: / only: a list of rule patterns. */
static void load_patterns(struct config_ctx *x, const char *key, const yaml_node_t *value, int only)
{
  char path[64], tb[ACTUAL_MAX + 3];
  int i = 0;
  if (value->type != YAML_SEQUENCE_NODE) {
    report_at(x, RULE_CORE_CONFIG_BAD_VALUE, value, key, node_text(value, tb, sizeof tb),
              "a list of rule patterns, e.g. [IQM-JNT-002, IQM-VA-*]");
    return;
  }
  if (too_many(x, value, key, value->data.sequence.items.top - value->data.sequence.items.start))
    return;
  for (yaml_node_item_t *it = value->data.sequence.items.start;
       it < value->data.sequence.items.top; it++, i++) {
    const yaml_node_t *item = yaml_document_get_node(x->doc, *it);
    const char *pattern = scalar_text(item);
    int rc;
    snprintf(path, sizeof path, "%s[%d]", key, i);
    if (!item)
      continue;
    if (!pattern || !*pattern) {
      report_at(x, RULE_CORE_CONFIG_BAD_VALUE, item, path, node_text(item, tb, sizeof tb),
                "a rule id, a prefix ending in *, or a format name");
      continue;
    }
    rc = only ? mdl_policy_only(policy_of(x), pattern) : mdl_policy_ignore(policy_of(x), pattern);
    if (rc == -2)
      oom_exit();
    if (rc < 0)
      report_at(x, RULE_CORE_CONFIG_UNKNOWN_RULE, item, path, pattern, NULL);
  }
}

/* Duplicate keys make a mapping ill-formed YAML (YAML 1.2, 3.2.1.1). Return 1 when reported. */
static int duplicate_key(struct config_ctx *x, const yaml_node_t *map, const yaml_node_pair_t *pair)
{
  const char *k = scalar_text(yaml_document_get_node(x->doc, pair->key));
  if (!k)
    return 0;
  for (const yaml_node_pair_t *p = map->data.mapping.pairs.start; p < pair; p++) {
    const char *other = scalar_text(yaml_document_get_node(x->doc, p->key));
    if (other && !strcmp(other, k)) {
      char what[ACTUAL_MAX + 32];
      snprintf(what, sizeof what, "duplicate key '%.*s'", ACTUAL_MAX, k);
      report_at(x, RULE_CORE_CONFIG_SYNTAX, yaml_document_get_node(x->doc, pair->key), k, what, NULL);
      return 1;
    }
  }
  return 0;
}

/* severity: a mapping pattern -> severity name. */
static void load_severity(struct config_ctx *x, const yaml_node_t *value)
{
  char path[128], tb[ACTUAL_MAX + 3];
  if (value->type != YAML_MAPPING_NODE) {
    report_at(x, RULE_CORE_CONFIG_BAD_VALUE, value, "severity", node_text(value, tb, sizeof tb),
              "a mapping of rule pattern to severity, e.g. {IQM-VA-005: error}");
    return;
  }
  if (too_many(x, value, "severity", value->data.mapping.pairs.top - value->data.mapping.pairs.start))
    return;
  for (yaml_node_pair_t *p = value->data.mapping.pairs.start; p < value->data.mapping.pairs.top; p++) {
    const yaml_node_t *k = yaml_document_get_node(x->doc, p->key);
    const yaml_node_t *v = yaml_document_get_node(x->doc, p->value);
    const char *pattern = scalar_text(k);
    const char *sevname = scalar_text(v);
    mdl_severity sev;
    int rc;
    if (!k || !v)
      continue;
    if (duplicate_key(x, value, p))
      continue;
    if (!pattern || !*pattern) {
      report_at(x, RULE_CORE_CONFIG_BAD_VALUE, k, "severity", node_text(k, tb, sizeof tb),
                "a rule id, a prefix ending in *, or a format name as key");
      continue;
    }
    snprintf(path, sizeof path, "severity.%.100s", pattern);
    sev = sevname ? mdl_severity_parse(sevname) : MDL_SEVERITY_COUNT;
    if (sev == MDL_SEVERITY_COUNT) {
      report_at(x, RULE_CORE_CONFIG_BAD_VALUE, v, path, node_text(v, tb, sizeof tb),
                "one of fatal, error, warning, info, hint");
      continue;
    }
    rc = mdl_policy_override(policy_of(x), pattern, sev);
    if (rc == -2)
      oom_exit();
    if (rc < 0)
      report_at(x, RULE_CORE_CONFIG_UNKNOWN_RULE, k, path, pattern, NULL);
  }
}

/* Whether path (a real path) is root or below it. */
static int real_under(const char *path, const char *root)
{
  size_t n = strlen(root);
  return n == 1 || (!strncmp(path, root, n) && (path[n] == 0 || path[n] == '/'));
}

/* A search folder the file names (len bytes of folder) stays inside the file's own folder: it is
 * relative, never climbs above it with "..", and, where it exists, its real path (links
 * resolved) is under the real path of the file's folder. The repository holds the file, so a
 * folder outside would let it make any file of the machine a search root; such folders come
 * only from the command line. Reports MDL-CFG-005 at n and returns -1 when not. */
static int folder_inside(struct config_ctx *x, const yaml_node_t *n, const char *folder, size_t len)
{
  char shown[ACTUAL_MAX + 1], why[ACTUAL_MAX + 160];
  char *norm = malloc(len + 1); /* the folder with "." and ".." folded, as resources.c reads it */
  size_t nlen = 0;
  int depth = 0;
  if (!norm)
    oom_exit();
  snprintf(shown, sizeof shown, "%.*s", (int)(len < ACTUAL_MAX ? len : ACTUAL_MAX), folder);
  if (folder[0] == '/') {
    report_at(x, RULE_CORE_CONFIG_RESOURCES_OUTSIDE, n, "resources", shown, "an absolute path");
    free(norm);
    return -1;
  }
  for (size_t i = 0; i < len;) {
    size_t c = i;
    while (c < len && folder[c] != '/')
      c++;
    if (c - i == 2 && folder[i] == '.' && folder[i + 1] == '.') {
      if (--depth < 0) {
        report_at(x, RULE_CORE_CONFIG_RESOURCES_OUTSIDE, n, "resources", shown,
                  "'..' climbs above the configuration's folder");
        free(norm);
        return -1;
      }
      while (nlen > 0 && norm[nlen - 1] != '/')
        nlen--;
      nlen -= nlen > 0; /* the slash before the dropped component */
    } else if (c > i && !(c - i == 1 && folder[i] == '.')) {
      depth++;
      if (nlen)
        norm[nlen++] = '/';
      memcpy(norm + nlen, folder + i, c - i);
      nlen += c - i;
    }
    i = c + 1;
  }
  norm[nlen] = 0;
  if (x->dir) {
    size_t cap = strlen(x->dir) + nlen + 2;
    char *joined = malloc(cap), *base, *real;
    if (!joined)
      oom_exit();
    snprintf(joined, cap, "%s/%s", x->dir, norm);
    base = path_resolve(x->dir);
    real = path_resolve(joined);
    free(joined);
    if (base && real && !real_under(real, base)) {
      snprintf(why, sizeof why, "a symbolic link on the way leads to %.*s", ACTUAL_MAX, real);
      report_at(x, RULE_CORE_CONFIG_RESOURCES_OUTSIDE, n, "resources", shown, why);
      free(base);
      free(real);
      free(norm);
      return -1;
    }
    free(base);
    free(real);
  }
  free(norm);
  return 0;
}

/* resources: true | false | "DIR:DIR" | [DIR, ...], each DIR inside the file's folder */
static void load_resources(struct config_ctx *x, const yaml_node_t *value)
{
  struct mdl_config *c = x->c;
  char tb[ACTUAL_MAX + 3];
  const char *s;
  int b;
  free(c->resources);
  c->resources = NULL;
  if (value->type == YAML_SCALAR_NODE && parse_bool(value, &b) == 0) {
    c->resources = b ? strdup("") : NULL;
    return;
  }
  if (value->type == YAML_SCALAR_NODE && (s = scalar_text(value)) != NULL && *s) {
    int bad = 0;
    for (const char *p = s; *p;) {
      size_t len = strcspn(p, ":");
      bad |= len && folder_inside(x, value, p, len) < 0;
      p += len + (p[len] == ':');
    }
    if (!bad)
      c->resources = strdup(s);
    return;
  }
  if (value->type == YAML_SEQUENCE_NODE) {
    size_t len = 0;
    int bad = 0;
    for (yaml_node_item_t *i = value->data.sequence.items.start; i < value->data.sequence.items.top; i++) {
      const yaml_node_t *it = yaml_document_get_node(x->doc, *i);
      if (!it || it->type != YAML_SCALAR_NODE || !(s = scalar_text(it)) || !*s || strchr(s, ':')) {
        report_at(x, RULE_CORE_CONFIG_BAD_VALUE, it ? it : value, "resources",
                  it ? node_text(it, tb, sizeof tb) : "", "a folder name without ':'");
        free(c->resources);
        c->resources = NULL;
        return;
      }
      if (folder_inside(x, it, s, strlen(s)) < 0) {
        bad = 1;
        continue; /* every folder that leaves is reported */
      }
      char *n = realloc(c->resources, len + strlen(s) + 2);
      if (!n)
        return;
      c->resources = n;
      len += (size_t)sprintf(n + len, "%s%s", len ? ":" : "", s);
    }
    if (bad) {
      free(c->resources);
      c->resources = NULL;
    } else if (!c->resources) {
      c->resources = strdup("");
    }
    return;
  }
  report_at(x, RULE_CORE_CONFIG_BAD_VALUE, value, "resources", node_text(value, tb, sizeof tb),
            "true, false, folders separated by ':' or a list of folders");
}

/* A relative cache folder of the configuration is relative to its own folder (too long: unset,
 * so no cache is used rather than another folder). */
static void cache_rebase(struct mdl_config *c, const char *path)
{
  const char *slash = strrchr(path, '/');
  char out[sizeof c->cache];
  if (!c->cache[0] || c->cache[0] == '/' || !slash)
    return;
  if ((size_t)snprintf(out, sizeof out, "%.*s/%s", (int)(slash - path), path, c->cache) >= sizeof out)
    c->cache[0] = 0;
  else
    strcpy(c->cache, out);
}

/* targets: NAME | "NAME,NAME" | [NAME, ...]: each a target of spec/targets */
static void load_targets(struct config_ctx *x, const yaml_node_t *value)
{
  struct mdl_config *c = x->c;
  char tb[ACTUAL_MAX + 3], why[80];
  const char *s;
  size_t len = 0;
  const yaml_node_item_t *i = NULL, *end = NULL;
  free(c->targets);
  c->targets = NULL;
  if (value->type == YAML_SEQUENCE_NODE) {
    i = value->data.sequence.items.start;
    end = value->data.sequence.items.top;
  } else if (value->type != YAML_SCALAR_NODE || !(s = scalar_text(value)) || !*s) {
    report_at(x, RULE_CORE_CONFIG_BAD_VALUE, value, "targets", node_text(value, tb, sizeof tb),
              "a target name or a list of them (mdlcheck targets)");
    return;
  }
  for (;;) {
    const yaml_node_t *it = i ? yaml_document_get_node(x->doc, *i) : value;
    char *n;
    if (i && i == end)
      break;
    s = it && it->type == YAML_SCALAR_NODE ? scalar_text(it) : NULL;
    if (!s || !*s || mdl_targets_check(s, why, sizeof why) < 0) {
      report_at(x, RULE_CORE_CONFIG_BAD_VALUE, it ? it : value, "targets",
                it ? node_text(it, tb, sizeof tb) : "", "a target name (mdlcheck targets)");
      free(c->targets);
      c->targets = NULL;
      return;
    }
    n = realloc(c->targets, len + strlen(s) + 2);
    if (!n)
      oom_exit();
    c->targets = n;
    len += (size_t)sprintf(n + len, "%s%s", len ? "," : "", s);
    if (!i)
      break;
    i++;
  }
}

/* Relative search folders of the configuration are relative to its own folder. */
static void resources_rebase(struct mdl_config *c, const char *path)
{
  const char *slash = strrchr(path, '/');
  size_t dlen = slash ? (size_t)(slash - path) : 0, cap;
  char *out;
  if (!c->resources || !*c->resources || !slash)
    return;
  cap = strlen(c->resources) * (dlen + 2) + dlen + 2;
  if (!(out = malloc(cap)))
    return;
  out[0] = 0;
  for (const char *s = c->resources; *s;) {
    size_t len = strcspn(s, ":"), at = strlen(out);
    snprintf(out + at, cap - at, "%s%.*s%.*s", at ? ":" : "", s[0] == '/' ? 0 : (int)dlen + 1,
             path, (int)len, s);
    s += len + (s[len] == ':');
  }
  free(c->resources);
  c->resources = out;
}

static void load_key(struct config_ctx *x, const struct setting_def *d, const yaml_node_t *value)
{
  struct mdl_config *c = x->c;
  const char *key = d->config;
  char tb[ACTUAL_MAX + 3];
  struct setting_value v;

  switch (d->id) {
  case OPT_IGNORE: case OPT_ONLY: load_patterns(x, key, value, d->id == OPT_ONLY); return;
  case OPT_SEVERITY: load_severity(x, value); return;
  case OPT_RESOURCES: load_resources(x, value); return;
  case OPT_TARGET: load_targets(x, value); return;
  case OPT_CACHE: {
    const char *s = scalar_text(value);
    if (!s || !*s || strlen(s) >= sizeof c->cache)
      break;
    strcpy(c->cache, s);
    return;
  }
  default: /* one scalar, read by the shared parser */
    if (value_of(key, value, &v) < 0)
      break;
    switch (d->id) {
    case OPT_MAX_ISSUES: c->max_issues = v.count; break;
    case OPT_MAX_PER_RULE: c->max_per_rule = v.count; break;
    case OPT_MAX_INPUT_SIZE: c->max_input_size = v.size; break;
    case OPT_MAX_MEMORY: c->max_memory = v.size; c->max_memory_set = 1; break;
    case OPT_CACHE_MAX_SIZE: c->cache_max_size = v.size; break;
    case OPT_FAIL_ON: c->fail_on = (int)v.severity; break;
    case OPT_STRICT: c->strict = v.flag; break;
    case OPT_ALLOW_EMPTY: c->allow_empty = v.flag; break;
    case OPT_PROFILE: strcpy(c->profile, scalar_text(value)); break;
    default: break;
    }
    return;
  }
  report_at(x, RULE_CORE_CONFIG_BAD_VALUE, value, key, node_text(value, tb, sizeof tb),
            setting_expected(d->parse));
}

/* The configuration's keys as a message lists them, in the table's order. */
static void config_keys(char *out, size_t cap)
{
  size_t used = 0;
  out[0] = 0;
  for (size_t i = 0; i < setting_count && used + 1 < cap; i++)
    if (setting_table[i].config)
      used += (size_t)snprintf(out + used, cap - used, "%s%s", used ? ", " : "",
                               setting_table[i].config);
}

static void load_root(struct config_ctx *x, const yaml_node_t *root)
{
  char tb[ACTUAL_MAX + 3];
  unsigned char seen[SETTING_COUNT] = {0}; /* an option's key already given */
  if (root->type == YAML_SCALAR_NODE && scalar_is_plain(root) && !root->data.scalar.value[0])
    return; /* an explicit empty document ("---") configures nothing */
  if (root->type != YAML_MAPPING_NODE) {
    char what[ACTUAL_MAX + 48];
    snprintf(what, sizeof what, "the top level is %s, not a mapping of keys",
             root->type == YAML_SCALAR_NODE ? "a scalar" : node_kind(root));
    report_at(x, RULE_CORE_CONFIG_SYNTAX, root, "", what, NULL);
    return;
  }
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
    const yaml_node_t *k = yaml_document_get_node(x->doc, p->key);
    const yaml_node_t *v = yaml_document_get_node(x->doc, p->value);
    const char *key = scalar_text(k);
    const struct setting_def *d;
    size_t i;
    if (!k || !v)
      continue;
    d = key ? setting_by_config(key) : NULL;
    if (!d) {
      char keys[400];
      config_keys(keys, sizeof keys);
      if (++x->unknown_keys <= CONFIG_UNKNOWN_SHOWN)
        report_at(x, RULE_CORE_CONFIG_UNKNOWN_KEY, k, "", node_text(k, tb, sizeof tb), keys);
      continue;
    }
    i = (size_t)(d - setting_table);
    if (seen[i]) { /* ill-formed YAML (keys are unique, YAML 1.2 3.2.1.1) */
      char what[64];
      snprintf(what, sizeof what, "duplicate key '%s'", key);
      report_at(x, RULE_CORE_CONFIG_SYNTAX, k, key, what, NULL);
      continue;
    }
    seen[i] = 1;
    load_key(x, d, v);
  }
  if (x->unknown_keys > CONFIG_UNKNOWN_SHOWN)
    report_folded(x, RULE_CORE_CONFIG_UNKNOWN_KEY, x->unknown_keys - CONFIG_UNKNOWN_SHOWN);
}

/* libyaml gives reader errors (bad encoding) as a byte offset only: turn it into line:column. */
static void offset_position(const unsigned char *text, size_t size, size_t offset, unsigned *line,
                            unsigned *column)
{
  unsigned l = 1, col = 1;
  if (offset > size)
    offset = size;
  for (size_t i = 0; i < offset; i++) {
    if (text[i] == '\n') {
      l++;
      col = 1;
    } else if ((text[i] & 0xc0) != 0x80) {
      col++; /* count characters, not UTF-8 continuation bytes */
    }
  }
  *line = l;
  *column = col;
}

static void report_parser_error(struct config_ctx *x, const yaml_parser_t *parser)
{
  char what[256];
  unsigned line, column;
  const char *problem = parser->problem ? parser->problem : "cannot parse";
  if (parser->error == YAML_READER_ERROR) {
    offset_position(x->text, x->size, parser->problem_offset, &line, &column);
    snprintf(what, sizeof what, "%s", problem);
  } else if (parser->error == YAML_MEMORY_ERROR) {
    line = column = 1;
    snprintf(what, sizeof what, "out of memory");
  } else {
    line = (unsigned)parser->problem_mark.line + 1;
    column = (unsigned)parser->problem_mark.column + 1;
    if (parser->context)
      snprintf(what, sizeof what, "%s %s", problem, parser->context);
    else
      snprintf(what, sizeof what, "%s", problem);
  }
  report(x, RULE_CORE_CONFIG_SYNTAX, line, column, "", what, NULL);
}

/* First pass over the events: refuse nesting deeper than CONFIG_MAX_DEPTH before libyaml's
 * loader meets it. Return 1 when reported; syntax errors are left to the loader to report. */
static int depth_exceeded(struct config_ctx *x)
{
  yaml_parser_t parser;
  yaml_event_t ev;
  int depth = 0, found = 0;
  if (!yaml_parser_initialize(&parser))
    return 0;
  yaml_parser_set_input_string(&parser, x->text, x->size);
  while (yaml_parser_parse(&parser, &ev)) {
    yaml_event_type_t type = ev.type;
    if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) {
      if (++depth > CONFIG_MAX_DEPTH) {
        char what[64];
        snprintf(what, sizeof what, "nesting deeper than %d levels", CONFIG_MAX_DEPTH);
        report(x, RULE_CORE_CONFIG_SYNTAX, (unsigned)ev.start_mark.line + 1,
               (unsigned)ev.start_mark.column + 1, "", what, NULL);
        found = 1;
      }
    } else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
      depth--;
    }
    yaml_event_delete(&ev);
    if (found || type == YAML_STREAM_END_EVENT)
      break;
  }
  yaml_parser_delete(&parser);
  return found;
}

/* Read the whole file once, never blocking (input_open_regular); NULL with *err set when it
 * cannot be read. A file over CONFIG_MAX_BYTES is read as its first bytes with *too_big set. */
static unsigned char *file_slurp(const char *path, size_t *size, int *too_big, int *err)
{
  struct mdl_input in;
  *too_big = 0;
  if ((*err = input_open_regular(path, &in, CONFIG_MAX_BYTES)) == EFBIG) {
    unsigned char *one = malloc(1);
    if (!one) {
      *err = ENOMEM;
      return NULL;
    }
    *too_big = 1;
    *size = 0;
    return one;
  }
  if (*err)
    return NULL;
  *size = in.size;
  return in.owned; /* read, not mapped: the caller frees it */
}

void config_init(struct mdl_config *c)
{
  memset(c, 0, sizeof *c);
  c->fail_on = -1;
  c->strict = -1;
  c->allow_empty = -1;
}

void config_free(struct mdl_config *c)
{
  mdl_policy_free(c->policy);
  c->policy = NULL;
  free(c->resources);
  c->resources = NULL;
  free(c->targets);
  c->targets = NULL;
}

/* Load the bytes of the configuration found in dir (NULL: no file, folders checked lexically). */
static int config_load_in(struct mdl_config *c, const void *data, size_t size, const char *dir,
                          mdl_diag_fn on_diag, void *user)
{
  struct config_ctx x;
  yaml_parser_t parser;
  yaml_document_t doc;
  int documents = 0;

  memset(&x, 0, sizeof x);
  x.dir = dir;
  x.c = c;
  x.text = data;
  x.size = size;
  x.on_diag = on_diag;
  x.user = user;
  if (depth_exceeded(&x))
    return x.errors;
  if (!yaml_parser_initialize(&parser)) {
    report(&x, RULE_CORE_CONFIG_SYNTAX, 1, 1, "", "out of memory", NULL);
    return x.errors;
  }
  yaml_parser_set_input_string(&parser, x.text, size);
  for (;;) {
    yaml_node_t *root;
    if (!yaml_parser_load(&parser, &doc)) {
      report_parser_error(&x, &parser);
      break;
    }
    root = yaml_document_get_root_node(&doc);
    if (!root) { /* end of the stream */
      yaml_document_delete(&doc);
      break;
    }
    if (documents++ == 0) {
      x.doc = &doc;
      load_root(&x, root);
      x.doc = NULL;
    } else {
      report(&x, RULE_CORE_CONFIG_SYNTAX, (unsigned)doc.start_mark.line + 1,
             (unsigned)doc.start_mark.column + 1, "",
             "a second YAML document; the configuration is one document", NULL);
      yaml_document_delete(&doc);
      break;
    }
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&parser);
  return x.errors;
}

int config_load_buffer(struct mdl_config *c, const void *data, size_t size, mdl_diag_fn on_diag,
                       void *user)
{
  return config_load_in(c, data, size, NULL, on_diag, user);
}

int config_load(struct mdl_config *c, const char *path, mdl_diag_fn on_diag, void *user)
{
  size_t size = 0;
  int too_big, errors;
  unsigned char *text = file_slurp(path, &size, &too_big, &c->read_error);
  if (!text)
    return -1;
  if (too_big) {
    struct config_ctx x;
    char what[64];
    memset(&x, 0, sizeof x);
    x.on_diag = on_diag;
    x.user = user;
    snprintf(what, sizeof what, "the file is larger than %d bytes", CONFIG_MAX_BYTES);
    report(&x, RULE_CORE_CONFIG_SYNTAX, 1, 1, "", what, NULL);
    free(text);
    return x.errors;
  }
  {
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
      oom_exit();
    errors = config_load_in(c, text, size, dir, on_diag, user);
    free(dir);
  }
  free(text);
  resources_rebase(c, path);
  cache_rebase(c, path);
  return errors;
}
