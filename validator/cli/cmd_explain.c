/* cmd_explain.c - one rule in full: the catalogue entry, the clause it enforces, its corpus cases. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "text_safe.h"

#ifndef MDL_PKGDATADIR
#define MDL_PKGDATADIR ""
#endif
#ifndef MDL_SOURCE_DIR
#define MDL_SOURCE_DIR ""
#endif
#ifndef MDL_BUILD_DIR
#define MDL_BUILD_DIR ""
#endif
#ifndef MDL_DOCDIR
#define MDL_DOCDIR ""
#endif

static int is_dir(const char *path)
{
  struct stat st;
  return path[0] && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Levenshtein distance, case-insensitive; ids are short, so the quadratic table is fine. */
static size_t id_distance(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b), row[64], prev;
  if (la >= 64 || lb >= 64)
    return (size_t)-1;
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t cur = row[j];
      size_t sub = prev + ((a[i - 1] | 32) != (b[j - 1] | 32));
      size_t best = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
      row[j] = sub < best ? sub : best;
      prev = cur;
    }
  }
  return row[lb];
}

static void suggest(FILE *err, const char *id)
{
  enum { SHOW = 3 };
  const mdl_rule *best[SHOW] = {NULL};
  size_t dist[SHOW];
  for (size_t i = 0; i < mdl_rule_count(); i++) {
    const mdl_rule *r = mdl_rule_at(i);
    size_t d = id_distance(id, r->id);
    for (int k = 0; k < SHOW; k++) {
      if (!best[k] || d < dist[k]) {
        for (int m = SHOW - 1; m > k; m--) {
          best[m] = best[m - 1];
          dist[m] = dist[m - 1];
        }
        best[k] = r;
        dist[k] = d;
        break;
      }
    }
  }
  text_printf(err, "mdlcheck: explain: no rule '%s' in the catalogue; nearest:", id);
  for (int k = 0; k < SHOW && best[k]; k++)
    text_printf(err, "%s %s", k ? "," : "", best[k]->id);
  fputs(" (mdlcheck rules lists them all)\n", err);
}

/* The directory the spec texts are read from: $MDLCHECK_DATADIR, the installed
 * $(pkgdatadir), or the source tree of an uninstalled build. NULL when none has them. */
static const char *spec_root(char *buf, size_t cap)
{
  const char *env = getenv("MDLCHECK_DATADIR");
  const char *candidates[] = {env ? env : "", MDL_PKGDATADIR, MDL_SOURCE_DIR};
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
    snprintf(buf, cap, "%s/spec/formats", candidates[i]);
    if (candidates[i][0] && is_dir(buf)) {
      snprintf(buf, cap, "%s", candidates[i]);
      return buf;
    }
  }
  return NULL;
}

static const char *corpus_root(char *buf, size_t cap)
{
  const char *env = getenv("MDLCHECK_CORPUS");
  if (env && *env) {
    snprintf(buf, cap, "%s", env);
    return is_dir(buf) ? buf : NULL;
  }
  snprintf(buf, cap, "%s/corpus", MDL_SOURCE_DIR);
  return MDL_SOURCE_DIR[0] && is_dir(buf) ? buf : NULL;
}

/* Does the file name the id as a whole word (cases name the rules they expect as `id: ID`)? */
static int file_names_id(const char *path, const char *id)
{
  FILE *fp = fopen(path, "rb");
  char line[4096];
  size_t n = strlen(id);
  int found = 0;
  if (!fp)
    return 0;
  while (!found && fgets(line, sizeof line, fp)) {
    for (const char *p = strstr(line, id); p && !found; p = strstr(p + 1, id)) {
      char before = p == line ? ' ' : p[-1], after = p[n];
      found = before != '-' && (before < 'A' || before > 'Z') && after != '-' &&
              (after < '0' || after > '9');
    }
  }
  fclose(fp);
  return found;
}

struct case_list {
  char **path;
  size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect the cases under dir (skipping shared inputs in base/) that are named for the id
 * or expect it. Return -1 when out of memory. */
static int cases_find(const char *dir, const char *id, struct case_list *out)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  size_t idlen = strlen(id);
  int rc = 0;
  if (!d)
    return 0;
  while (rc == 0 && (e = readdir(d)) != NULL) {
    char path[4096];
    size_t len = strlen(e->d_name);
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "base"))
      continue;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
      continue;
    if (is_dir(path)) {
      rc = cases_find(path, id, out);
    } else if (len > 5 && !strcmp(e->d_name + len - 5, ".yaml") &&
               ((!strncmp(e->d_name, id, idlen) && !strncmp(e->d_name + idlen, "-t", 2)) ||
                file_names_id(path, id))) {
      if (out->n == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 16;
        char **p = realloc(out->path, cap * sizeof *p);
        if (!p) {
          rc = -1;
          break;
        }
        out->path = p;
        out->cap = cap;
      }
      if (!(out->path[out->n] = strdup(path)))
        rc = -1;
      else
        out->n++;
    }
  }
  closedir(d);
  return rc;
}

static void print_indented(FILE *out, const char *text, const char *indent)
{
  while (*text) {
    const char *nl = strchr(text, '\n');
    size_t n = nl ? (size_t)(nl - text) : strlen(text);
    text_printf(out, "%s%.*s\n", n ? indent : "", (int)n, text);
    text += n + (nl != NULL);
  }
}

/* The rule's page (doc/rules/ID.md, made by doc/rulepages from the corpus): the build tree's,
 * else the installed one. Opened, or NULL with the places looked in written to where. */
static FILE *page_open(const mdl_rule *r, char *where, size_t cap)
{
  const char *env = getenv("MDLCHECK_RULE_PAGES");
  char dirs[2][2048], path[2048 + 96];
  size_t n = 0;
  if (env && *env) {
    snprintf(dirs[n++], sizeof dirs[0], "%s", env); /* an explicit choice is the only one */
  } else {
    if (MDL_BUILD_DIR[0])
      snprintf(dirs[n++], sizeof dirs[0], "%s/doc/rules", MDL_BUILD_DIR);
    if (MDL_DOCDIR[0])
      snprintf(dirs[n++], sizeof dirs[0], "%s/rules", MDL_DOCDIR);
  }
  where[0] = 0;
  for (size_t i = 0; i < n; i++) {
    FILE *fp;
    size_t used = strlen(where);
    snprintf(path, sizeof path, "%.2040s/%.64s.md", dirs[i], r->id);
    if ((fp = fopen(path, "r")) != NULL) {
      snprintf(where, cap, "%s", path);
      return fp;
    }
    snprintf(where + used, cap - used, "%s%s", used ? ", " : "", dirs[i]);
  }
  return NULL;
}

/* How to fix, and the page's two examples (its sections from "## Smallest failing case" to the
 * footer), indented as the rest of the entry. */
static void explain_examples(FILE *out, const mdl_rule *r)
{
  char where[8192], line[4096];
  FILE *page;
  int on = 0;
  fputs("  how to fix: ", out);
  fputs(r->fix[0] ? r->fix : "the catalogue has no fix text for this rule yet: change the file so "
                             "that it meets the requirement above", out);
  fputs("\n  mdlcheck fix: ", out);
  fputs(r->repair[0] ? r->repair : "does not repair it (an error of this rule makes fix refuse the "
                                   "file; a warning is left as it is)", out);
  fputs("\n\n", out);
  page = page_open(r, where, sizeof where);
  if (!page) {
    fprintf(out, "  examples:   the rule pages are not here (looked in %s; they are built with "
            "mdlcheck from the corpus, or set MDLCHECK_RULE_PAGES=DIR)\n", where[0] ? where : "nowhere");
    return;
  }
  fprintf(out, "  examples (%s):\n\n", where);
  while (fgets(line, sizeof line, page)) {
    if (!strncmp(line, "## Smallest failing case", 24))
      on = 1;
    else if (!strcmp(line, "---\n"))
      on = 0;
    if (on)
      fprintf(out, "%s%s", line[0] == '\n' ? "" : "    ", line);
  }
  fclose(page);
}

/* Return EXIT_VALID, or EXIT_INTERNAL when the corpus could not be listed. */
static int explain_one(FILE *out, const mdl_rule *r)
{
  char root[4096], corpus[4096], rel[256], file[4096 + 256 + 8];
  const char *spec = NULL, *cdir;
  struct case_list cases = {NULL, 0, 0};
  int rc = EXIT_VALID;

  text_printf(out, "%s  %s  (%s)\n", r->id, r->name, r->format);
  text_printf(out, "  severity:   %s", mdl_severity_name(r->severity));
  if (r->strict_severity != r->severity)
    text_printf(out, " (under --strict: %s)", mdl_severity_name(r->strict_severity));
  text_printf(out, "\n  versions:   %s\n  basis:      %s\n", r->versions, r->basis);
  text_printf(out, "  requires:   %s\n  message:    %s\n  rationale:  %s\n", r->text, r->message,
          r->rationale);
  if (r->tolerance[0])
    text_printf(out, "  tolerance:  %s\n", r->tolerance);
  text_printf(out, "  upstream:   %s\n", r->source);
  if (r->spec_ref[0]) {
    const char *hash = strchr(r->spec_ref, '#');
    text_printf(out, "  clause:     %s\n", r->spec_ref);
    size_t rlen = hash ? (size_t)(hash - r->spec_ref) : 0;
    if (rlen >= sizeof rel)
      rlen = sizeof rel - 1;
    memcpy(rel, r->spec_ref, rlen);
    rel[rlen] = 0;
    if (hash && (spec = spec_root(root, sizeof root)) != NULL) {
      snprintf(file, sizeof file, "%s/%s", spec, rel);
      text_printf(out, "  document:   %s%s\n", file, is_file(file) ? "" : " (missing)");
    } else {
      text_printf(out, "  document:   not found (looked in $MDLCHECK_DATADIR, %s)\n", MDL_PKGDATADIR);
    }
    fputs("\n", out);
    print_indented(out, r->clause, "    ");
  } else {
    fputs("  clause:     none yet: the format's reference text (spec/formats/) does not cover this "
          "rule; the upstream source above is its citation\n", out);
  }

  fputs("\n", out);
  cdir = corpus_root(corpus, sizeof corpus);
  if (!cdir) {
    fputs("  corpus cases: the conformance corpus is not here (it ships with the source, not the "
          "installed tool; set MDLCHECK_CORPUS=SOURCE/corpus to list them)\n\n", out);
    explain_examples(out, r);
    return rc;
  }
  snprintf(file, sizeof file, "%s/%.32s", cdir, r->format);
  if (cases_find(file, r->id, &cases) < 0) {
    fputs("mdlcheck: explain: out of memory while listing the corpus\n", stderr);
    rc = EXIT_INTERNAL;
  } else if (cases.n == 0) {
    text_printf(out, "  corpus cases: none in %s\n", file);
  } else {
    size_t plen = strlen(cdir);
    qsort(cases.path, cases.n, sizeof *cases.path, cmp_str);
    text_printf(out, "  corpus cases (%zu, in %s):\n", cases.n, cdir);
    for (size_t i = 0; i < cases.n; i++) {
      const char *p = cases.path[i] + plen + 1;
      size_t len = strlen(p);
      const char *kind = len > 10 && !strcmp(p + len - 10, "-fail.yaml") ? "triggers it"
                         : len > 10 && !strcmp(p + len - 10, "-pass.yaml") ? "clean look-alike"
                                                                           : "names it";
      text_printf(out, "    %-56s %s\n", p, kind);
    }
  }
  for (size_t i = 0; i < cases.n; i++)
    free(cases.path[i]);
  free(cases.path);
  fputs("\n", out);
  explain_examples(out, r);
  return rc;
}

int cmd_explain(struct cli *c)
{
  FILE *out;
  int rc = EXIT_VALID;
  if (c->nargs == 0) {
    fputs("mdlcheck: explain: name a rule id, e.g. mdlcheck explain IQM-JNT-002\n", stderr);
    return EXIT_USAGE;
  }
  for (int i = 0; i < c->nargs; i++) {
    const mdl_rule *r = NULL;
    for (size_t k = 0; k < mdl_rule_count() && !r; k++)
      if (!strcasecmp(mdl_rule_at(k)->id, c->args[i]))
        r = mdl_rule_at(k);
    if (!r) {
      suggest(stderr, c->args[i]);
      rc = EXIT_USAGE;
    }
  }
  if (rc != EXIT_VALID)
    return rc;
  if (!(out = cli_open_output(c)))
    return EXIT_IO;
  for (int i = 0; i < c->nargs && rc == EXIT_VALID; i++) {
    const mdl_rule *r = NULL;
    for (size_t k = 0; k < mdl_rule_count() && !r; k++)
      if (!strcasecmp(mdl_rule_at(k)->id, c->args[i]))
        r = mdl_rule_at(k);
    if (i)
      fputs("\n", out);
    rc = explain_one(out, r);
  }
  cli_close_output(c, out);
  return rc;
}
