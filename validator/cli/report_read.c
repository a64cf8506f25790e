/* report_read.c - read a JSON report back (jansson), checking the shape the writer produces:
 * a report that is not one (wrong types, missing keys) is refused with where and why. */
#include "grow.h"
#include "oom.h"
#include "report_read.h"
#include "path_key.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

struct read_ctx {
  char *err;
  size_t errcap;
};

static int fail(struct read_ctx *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct read_ctx *cx, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cx->err, cx->errcap, fmt, ap);
  va_end(ap);
  return -1;
}

static char *dup_text(const char *s)
{
  char *p = strdup(s);
  if (!p)
    oom_exit();
  return p;
}

void report_path_normalize(char *path)
{
  char *w = path;
  const char *s = path;
  while (s[0] == '.' && s[1] == '/') {
    s += 2;
    while (*s == '/')
      s++;
  }
  for (; *s; s++) {
    if (*s == '/' && w > path && w[-1] == '/')
      continue;
    *w++ = *s;
  }
  *w = 0;
}

/* A required string member; NULL (and err set) when absent or not a string. */
static const char *get_string(struct read_ctx *cx, json_t *obj, const char *key, const char *where)
{
  json_t *v = json_object_get(obj, key);
  if (!json_is_string(v)) {
    fail(cx, "%s: \"%s\" %s", where, key, v ? "is not a string" : "is missing");
    return NULL;
  }
  return json_string_value(v);
}

/* jansson reports some allocation failures as syntax errors ("string expected"), and may
 * drop a character of a string without any error when its buffer cannot grow: its
 * allocations go through here so that running out of memory is never taken for a bad report.
 * (This also routes them through this program's malloc, which the allocation-failure tests
 * count.) Reports are read by one thread. */
static int json_alloc_failed;

static void *json_malloc(size_t size)
{
  void *p = malloc(size);
  if (!p)
    json_alloc_failed = 1;
  return p;
}

/* An optional non-negative integer member: 0 absent, 1 read, -1 wrong type. */
static int get_count(struct read_ctx *cx, json_t *obj, const char *key, const char *where,
                     long long *out)
{
  json_t *v = json_object_get(obj, key);
  if (!v)
    return 0;
  if (!json_is_integer(v) || json_integer_value(v) < 0)
    return fail(cx, "%s: \"%s\" is not a non-negative integer", where, key);
  *out = json_integer_value(v);
  return 1;
}

static int read_msg(struct read_ctx *cx, json_t *jm, struct saved_msg *m, const char *where)
{
  const char *id, *sev, *text, *path;
  long long v;
  json_t *b;
  int rc;

  m->offset = -1;
  if (!json_is_object(jm))
    return fail(cx, "%s: not an object", where);
  if (!(id = get_string(cx, jm, "id", where)) || !(sev = get_string(cx, jm, "severity", where)) ||
      !(text = get_string(cx, jm, "message", where)) || !(path = get_string(cx, jm, "path", where)))
    return -1;
  m->severity = mdl_severity_parse(sev);
  if (m->severity == MDL_SEVERITY_COUNT)
    return fail(cx, "%s: unknown severity \"%s\"", where, sev);
  if ((rc = get_count(cx, jm, "offset", where, &v)) < 0)
    return -1;
  if (rc)
    m->offset = v;
  if ((rc = get_count(cx, jm, "line", where, &v)) < 0)
    return -1;
  if (rc)
    m->line = v > 0xffffffffLL ? 0xffffffffu : (unsigned)v;
  if ((rc = get_count(cx, jm, "column", where, &v)) < 0)
    return -1;
  if (rc)
    m->column = v > 0xffffffffLL ? 0xffffffffu : (unsigned)v;
  if ((rc = get_count(cx, jm, "folded", where, &v)) < 0)
    return -1;
  if (rc)
    m->folded = (unsigned long)v;
  b = json_object_get(jm, "baselined");
  if (b && !json_is_boolean(b))
    return fail(cx, "%s: \"baselined\" is not a boolean", where);
  m->baselined = b && json_is_true(b);
  m->id = dup_text(id);
  m->message = dup_text(text);
  m->path = dup_text(path);
  return 0;
}

static int read_file(struct read_ctx *cx, json_t *jf, struct saved_file *f, size_t index)
{
  char where[96];
  const char *path, *format, *version, *verdict;
  json_t *msgs;

  snprintf(where, sizeof where, "files[%zu]", index);
  if (!json_is_object(jf))
    return fail(cx, "%s: not an object", where);
  if (!(path = get_string(cx, jf, "path", where)) || !(format = get_string(cx, jf, "format", where)) ||
      !(version = get_string(cx, jf, "version", where)) ||
      !(verdict = get_string(cx, jf, "verdict", where)))
    return -1;
  if (strcmp(verdict, "valid") && strcmp(verdict, "invalid"))
    return fail(cx, "%s: verdict \"%s\" is neither valid nor invalid", where, verdict);
  msgs = json_object_get(jf, "messages");
  if (!json_is_array(msgs))
    return fail(cx, "%s: \"messages\" %s", where, msgs ? "is not an array" : "is missing");
  f->path = dup_text(path);
  report_path_normalize(f->path);
  f->format = dup_text(format);
  f->version = dup_text(version);
  f->invalid = !strcmp(verdict, "invalid");
  f->truncated = json_is_true(json_object_get(jf, "truncated"));
  f->nmsgs = json_array_size(msgs);
  f->msgs = calloc(f->nmsgs ? f->nmsgs : 1, sizeof *f->msgs);
  if (!f->msgs)
    oom_exit();
  for (size_t k = 0; k < f->nmsgs; k++) {
    char mwhere[128];
    snprintf(mwhere, sizeof mwhere, "%s.messages[%zu]", where, k);
    if (read_msg(cx, json_array_get(msgs, k), &f->msgs[k], mwhere) < 0)
      return -1;
  }
  return 0;
}

int saved_report_load(struct saved_report *r, const char *path, unsigned long long max_size,
                      char *err, size_t errcap)
{
  struct read_ctx cx = {err, errcap};
  struct mdl_input in;
  json_error_t jerr;
  json_t *root, *files, *tool;
  int rc = 0, ioerr;

  memset(r, 0, sizeof *r);
  json_set_alloc_funcs(json_malloc, free);
  json_alloc_failed = 0;
  /* read whole and bounded first: jansson's own readers would follow an endless stream; a
   * named report must be a regular file (a committed FIFO as the baseline would block the run) */
  if ((ioerr = !strcmp(path, "-") ? input_open(path, &in, max_size) : input_open_regular(path, &in, max_size)) != 0) {
    char why[128];
    fail(&cx, "%s: %s", path, input_error_text(ioerr, max_size, why, sizeof why));
    return ioerr == EFBIG ? -2 : -1;
  }
  root = json_loadb((const char *)in.data, in.size, JSON_REJECT_DUPLICATES, &jerr);
  input_close(&in);
  if (json_alloc_failed) /* even with a document: jansson may drop a character and go on */
    oom_exit();
  if (!root) {
    if (json_error_code(&jerr) == json_error_out_of_memory)
      oom_exit();
    if (jerr.line > 0)
      return fail(&cx, "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column, jerr.text);
    return fail(&cx, "%s: %s", path, jerr.text);
  }
  tool = json_object_get(root, "tool");
  files = json_object_get(root, "files");
  if (!json_is_object(root) || !json_is_object(tool) ||
      !json_is_string(json_object_get(tool, "name")) ||
      strcmp(json_string_value(json_object_get(tool, "name")), "mdlcheck") || !json_is_array(files)) {
    json_decref(root);
    return fail(&cx, "%s: not an mdlcheck JSON report (no tool.name \"mdlcheck\" or no files array)",
                path);
  }
  r->nfiles = json_array_size(files);
  r->files = calloc(r->nfiles ? r->nfiles : 1, sizeof *r->files);
  if (!r->files)
    oom_exit();
  for (size_t i = 0; i < r->nfiles && rc == 0; i++)
    rc = read_file(&cx, json_array_get(files, i), &r->files[i], i);
  json_decref(root);
  if (rc < 0) {
    char why[512];
    snprintf(why, sizeof why, "%s", err);
    fail(&cx, "%s: %s", path, why);
    saved_report_free(r);
  }
  return rc;
}

static int by_key_cmp(const void *a, const void *b)
{
  return strcmp((*(struct saved_file *const *)a)->key, (*(struct saved_file *const *)b)->key);
}

static int by_path_cmp(const void *a, const void *b)
{
  return strcmp((*(struct saved_file *const *)a)->path, (*(struct saved_file *const *)b)->path);
}

void saved_report_anchor(struct saved_report *r, const char *report_path)
{
  free(r->by_key);
  free(r->by_path);
  r->by_key = calloc(r->nfiles ? r->nfiles : 1, sizeof *r->by_key);
  r->by_path = calloc(r->nfiles ? r->nfiles : 1, sizeof *r->by_path);
  if (!r->by_key || !r->by_path)
    oom_exit();
  for (size_t i = 0; i < r->nfiles; i++) {
    free(r->files[i].key);
    r->files[i].key = path_key_saved(r->files[i].path, report_path);
    r->by_key[i] = r->by_path[i] = &r->files[i];
  }
  qsort(r->by_key, r->nfiles, sizeof *r->by_key, by_key_cmp);
  qsort(r->by_path, r->nfiles, sizeof *r->by_path, by_path_cmp);
}

const struct saved_file *saved_report_find(const struct saved_report *r, const char *key,
                                           const char *path)
{
  struct saved_file probe, *pp = &probe, **hit;
  char *spelled = dup_text(path);
  report_path_normalize(spelled);
  memset(&probe, 0, sizeof probe);
  probe.key = (char *)key;
  probe.path = spelled;
  hit = r->by_key ? bsearch(&pp, r->by_key, r->nfiles, sizeof *r->by_key, by_key_cmp) : NULL;
  if (!hit && r->by_path)
    hit = bsearch(&pp, r->by_path, r->nfiles, sizeof *r->by_path, by_path_cmp);
  free(spelled);
  return hit ? *hit : NULL;
}

void saved_report_free(struct saved_report *r)
{
  for (size_t i = 0; i < r->nfiles; i++) {
    struct saved_file *f = &r->files[i];
    for (size_t k = 0; f->msgs && k < f->nmsgs; k++) {
      free(f->msgs[k].id);
      free(f->msgs[k].message);
      free(f->msgs[k].path);
    }
    free(f->msgs);
    free(f->path);
    free(f->key);
    free(f->format);
    free(f->version);
  }
  free(r->files);
  free(r->by_key);
  free(r->by_path);
  memset(r, 0, sizeof *r);
}
