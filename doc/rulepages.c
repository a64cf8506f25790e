/* rulepages.c - one page per rule (doc/rules/ID.md) from the catalogue and the conformance
 * corpus: what the rule requires, the clause it enforces, why, how to fix a file it flags, and
 * the smallest failing case of the corpus with its passing twin, each with what mdlcheck says.
 *
 * usage: rulepages [--check] CORPUS_DIR OUT_DIR
 *
 * The examples are the corpus's own cases (corpus/README.md), built and validated here with the
 * library as `mdlcheck` validates a file, so a page shows the tool's real output. --check: exit
 * 1 when a failing example no longer triggers its rule or a passing twin does (the pages are
 * written either way, saying so); tests/spec/rule-pages.sh runs it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../tests/conformance/case.h"
#include "mdlcheck.h"
#include "pipeline.h"
#include "report.h"

struct case_file {
  char *path;     /* CORPUS_DIR/... */
  const char *id; /* points into path: the file name, "ID-tNN-fail.yaml" */
  int fail;       /* -fail.yaml (1) or -pass.yaml (0) */
};

static struct case_file *cases;
static size_t ncases, capcases;

static void *xrealloc(void *p, size_t n)
{
  p = realloc(p, n);
  if (!p) {
    fputs("rulepages: out of memory\n", stderr);
    exit(2);
  }
  return p;
}

static int ends_with(const char *s, const char *tail)
{
  size_t n = strlen(s), k = strlen(tail);
  return n >= k && !strcmp(s + n - k, tail);
}

/* Collect the cases about one rule (ID-tNN-fail/pass.yaml) under dir; base/ and fuzz/ hold
 * inputs, not cases. */
static void walk(const char *dir)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  if (!d)
    return;
  while ((e = readdir(d)) != NULL) {
    char path[4096];
    struct stat st;
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "base") || !strcmp(e->d_name, "fuzz"))
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (stat(path, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      walk(path);
    } else if (strstr(e->d_name, "-t") && (ends_with(e->d_name, "-fail.yaml") || ends_with(e->d_name, "-pass.yaml"))) {
      struct case_file *c;
      if (ncases == capcases) {
        capcases = capcases ? 2 * capcases : 256;
        cases = xrealloc(cases, capcases * sizeof *cases);
      }
      c = &cases[ncases++];
      c->path = strdup(path);
      if (!c->path)
        exit(2);
      c->id = strrchr(c->path, '/') + 1;
      c->fail = ends_with(e->d_name, "-fail.yaml");
    }
  }
  closedir(d);
}

static int by_path(const void *a, const void *b)
{
  return strcmp(((const struct case_file *)a)->id, ((const struct case_file *)b)->id);
}

/* Does the case file's name say it is about this rule ("ID-tNN-...")? */
static int about(const struct case_file *c, const char *id)
{
  size_t n = strlen(id);
  return !strncmp(c->id, id, n) && !strncmp(c->id + n, "-t", 2);
}

/* One example: the case, its built input and what mdlcheck reported about it. */
struct example {
  const struct case_file *file;
  struct conf_case c;
  int loaded;
  unsigned char *data;
  size_t size;
  int library;    /* validated here (not a configuration, compare, convert or missing case) */
  char *report;   /* the text report */
  size_t report_len;
  int fired;      /* the rule was reported */
  int full;       /* decoded in full (poses, round trip), not only validated */
};

static void example_free(struct example *x)
{
  if (x->loaded)
    case_free(&x->c);
  free(x->data);
  free(x->report);
  memset(x, 0, sizeof *x);
}

static const char *base_name(const char *p)
{
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* The name the file is shown (and detected) under: the case's `name`, else its input's. */
static const char *shown_name(const struct conf_case *c)
{
  if (c->name)
    return c->name;
  if (c->input.path)
    return base_name(c->input.path);
  return "model";
}

/* Load a case and, when the library can run it, validate it as `mdlcheck FILE` would. Return 0,
 * or -1 when the case could not be used (a mistake in it: the conformance suite reports it). */
static int example_load(struct example *x, const struct case_file *f, const mdl_rule *rule)
{
  struct report rep;
  struct report_file *rf;
  mdl_options opts;
  mdl_result res;
  struct pipeline_run run;
  FILE *mem;
  memset(x, 0, sizeof *x);
  x->file = f;
  if (case_load(&x->c, f->path) < 0)
    return -1;
  x->loaded = 1;
  if (x->c.errors)
    return -1;
  x->library = !case_uses_cli(&x->c) && !x->c.convert && !x->c.fail_allocation;
  if (!x->library)
    return 0;
  if (case_build_input(&x->c, &x->c.input, &x->data, &x->size) < 0)
    return -1;
  report_init(&rep);
  rf = report_add_file(&rep, shown_name(&x->c));
  mdl_options_init(&opts);
  opts.assume_format = x->c.assume_format;
  opts.profile = x->c.profile;
  opts.strict = x->c.strict;
  opts.targets = x->c.target; /* a target rule's case names its loader (target:) */
  opts.on_diag = report_collect;
  opts.user = rf;
  /* a case with poses or a round trip decodes the model in full, as `poses` and `convert` do:
   * some rules (influences kept, triangulation) speak only then */
  x->full = x->c.has_poses || x->c.roundtrip;
  if (pipeline_decode(x->data, x->size, x->c.name ? x->c.name : x->c.input.path, &opts, x->full,
                      &run) != MDL_OK) {
    pipeline_release(&run);
    report_free(&rep);
    return -1;
  }
  res = run.result;
  pipeline_release(&run);
  report_set_result(rf, &res);
  for (size_t k = 0; k < rf->nmsgs; k++)
    x->fired |= rf->msgs[k].rule == rule;
  mem = open_memstream(&x->report, &x->report_len);
  if (!mem)
    exit(2);
  report_write_text(mem, &rep, 0);
  fclose(mem);
  report_free(&rep);
  return 0;
}

/* Only printable text (and tabs, line ends, well-formed UTF-8 of the text formats' names). */
static int is_text(const unsigned char *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\t' && p[i] != '\r')
      return 0;
    else if (p[i] == 0x7f)
      return 0;
  return n > 0;
}

/* A fenced block that no line of the text can close early. */
static void fenced(FILE *out, const char *lang, const char *text, size_t n)
{
  const char *fence = "```";
  for (size_t i = 0; i + 3 <= n; i++)
    if (!memcmp(text + i, "```", 3))
      fence = "~~~~";
  fprintf(out, "%s%s\n", fence, lang);
  fwrite(text, 1, n, out);
  if (n && text[n - 1] != '\n')
    fputc('\n', out);
  fprintf(out, "%s\n", fence);
}

static void hex_rows(FILE *out, const unsigned char *p, size_t n, size_t limit)
{
  fputs("```\n", out);
  for (size_t row = 0; row < n && row < limit; row += 16) {
    fprintf(out, "%08zx ", row);
    for (size_t k = row; k < row + 16; k++)
      fprintf(out, k < n ? " %02x" : "   ", k < n ? p[k] : 0);
    fputs("  |", out);
    for (size_t k = row; k < row + 16 && k < n; k++)
      fputc(p[k] >= 0x20 && p[k] < 0x7f ? p[k] : '.', out);
    fputs("|\n", out);
  }
  if (n > limit)
    fprintf(out, "... (%zu bytes in all)\n", n);
  fputs("```\n", out);
}

static const char *patch_kind_name(enum patch_kind k)
{
  static const char *const names[] = {"u8", "u16", "u32", "i32", "f32", "f64", "hex", "truncate", "append"};
  return names[k];
}

/* The path of a case-relative file as the corpus names it (corpus/<fmt>/base/anim.iqm). */
static void corpus_rel(char *buf, size_t cap, const char *case_path, const char *rel, const char *corpus)
{
  size_t skip = strlen(corpus);
  char joined[8192];
  const char *dir_end = strrchr(case_path, '/');
  snprintf(joined, sizeof joined, "%.*s/%s", (int)(dir_end - case_path), case_path, rel);
  /* fold "x/../" so the link reads as the corpus lays files out */
  for (char *up; (up = strstr(joined, "/../")) != NULL;) {
    char *prev = up;
    while (prev > joined && prev[-1] != '/')
      prev--;
    memmove(prev, up + 4, strlen(up + 4) + 1);
  }
  snprintf(buf, cap, "corpus%s", !strncmp(joined, corpus, skip) ? joined + skip : joined);
}

static void write_example(FILE *out, const struct example *x, const char *corpus, const mdl_rule *rule)
{
  const struct conf_case *c = &x->c;
  const char *rel = x->file->path + strlen(corpus);
  fprintf(out, "[`corpus%s`](../../corpus%s): %s\n\n", rel, rel, c->description);
  if (!x->library) {
    /* a configuration, a second model, a conversion or a missing file: the case says it all */
    FILE *fp = fopen(x->file->path, "rb");
    char buf[8192];
    size_t n = fp ? fread(buf, 1, sizeof buf, fp) : 0;
    if (fp)
      fclose(fp);
    fputs("This case runs the `mdlcheck` command (a configuration, a second model, a conversion, a repair "
          "or an unreadable input); the conformance suite checks it as written:\n\n", out);
    fenced(out, "yaml", buf, n);
    return;
  }
  if (c->input.kind == INPUT_BASE) {
    char base[8200];
    corpus_rel(base, sizeof base, x->file->path, c->input.path, corpus);
    fprintf(out, "The input is [`%s`](../../%s) with %s:\n\n", base, base,
            c->input.npatches == 1 ? "one change" : "these changes");
    for (size_t i = 0; i < c->input.npatches; i++) {
      const struct case_patch *p = &c->input.patches[i];
      if (p->kind == PATCH_TRUNCATE)
        fprintf(out, "- cut to %lld bytes\n", (long long)p->ival);
      else if (p->kind == PATCH_APPEND)
        fprintf(out, "- %zu bytes appended\n", p->nbytes);
      else if (p->value_is_size)
        fprintf(out, "- at byte %llu: %s = the file's length\n", (unsigned long long)p->at, patch_kind_name(p->kind));
      else if (p->kind == PATCH_F32 || p->kind == PATCH_F64)
        fprintf(out, "- at byte %llu: %s %g\n", (unsigned long long)p->at, patch_kind_name(p->kind), p->fval);
      else if (p->kind == PATCH_HEX)
        fprintf(out, "- at byte %llu: %zu raw bytes\n", (unsigned long long)p->at, p->nbytes);
      else
        fprintf(out, "- at byte %llu: %s %lld\n", (unsigned long long)p->at, patch_kind_name(p->kind), (long long)p->ival);
    }
    if (is_text(x->data, x->size) && x->size <= 3000) {
      fputc('\n', out);
      fenced(out, "", (const char *)x->data, x->size);
    }
  } else if (is_text(x->data, x->size) && x->size <= 6000) {
    fprintf(out, "`%s`:\n\n", shown_name(c));
    fenced(out, "", (const char *)x->data, x->size);
  } else {
    fprintf(out, "`%s` (%zu bytes):\n\n", shown_name(c), x->size);
    hex_rows(out, x->data, x->size, 256);
  }
  fputs("\n", out);
  if (x->full) /* `poses` prints only what fails a file; `convert` needs a target */
    fputs("Decoded in full, as `mdlcheck convert` and `poses` decode it, ", out);
  fprintf(out, "%s%s%s%s%s%s%s%s%s %s`%s\n\n", x->full ? "the check of `" : "`", "mdlcheck",
          c->assume_format ? " --assume-format=" : "", c->assume_format ? c->assume_format : "",
          c->profile ? " --profile=" : "", c->profile ? c->profile : "",
          c->target ? " --target=" : "", c->target ? c->target : "",
          c->strict ? " --strict" : "", shown_name(c),
          x->file->fail == x->fired ? " says:"
          : x->file->fail ? " no longer reports the rule (the corpus and the catalogue disagree):"
                          : " now reports the rule (the corpus and the catalogue disagree):");
  fenced(out, "", x->report, x->report_len);
  (void)rule;
}

/* Does the case expect the rule (by its id or former id)? */
static int expects(const struct conf_case *c, const mdl_rule *r)
{
  for (size_t k = 0; k < c->nexpects; k++)
    if (!strcmp(c->expects[k].id, r->id) || (r->alias[0] && !strcmp(c->expects[k].id, r->alias)))
      return 1;
  return 0;
}

/* Is the case test number `want` ("-t01")? */
static int numbered(const struct case_file *f, const mdl_rule *r, const char *want)
{
  return want && !strncmp(f->id + strlen(r->id), want, 4);
}

/* The example of a kind (fail or pass) to show: test number `want` first (the twin of the failing
 * one), then one the library runs (its output is shown), then the smallest input. */
static int pick(struct example *best, const mdl_rule *r, int fail, const char *want)
{
  int have = 0;
  for (size_t i = 0; i < ncases; i++) {
    struct example x;
    const struct case_file *f = &cases[i];
    int better = !have;
    if (!about(f, r->id) || f->fail != fail)
      continue;
    if (example_load(&x, f, r) < 0 || (fail && !expects(&x.c, r))) {
      example_free(&x); /* a case named for the rule that expects another (a profile's variant) */
      continue;
    }
    if (have && numbered(f, r, want) != numbered(best->file, r, want))
      better = numbered(f, r, want);
    else if (have && x.library != best->library)
      better = x.library;
    else if (have)
      better = x.size < best->size;
    if (better) {
      if (have)
        example_free(best);
      *best = x;
      have = 1;
    } else {
      example_free(&x);
    }
  }
  return have;
}

static void md_text(FILE *out, const char *s)
{
  fputs(s, out);
}

/* Return 1 when an example disagrees with the rule (for --check). */
static int write_page(const char *dir, const mdl_rule *r, const char *corpus)
{
  char path[4096], want[8] = "";
  struct example fail, pass;
  int have_fail, have_pass, bad = 0;
  FILE *out;
  snprintf(path, sizeof path, "%s/%s.md", dir, r->id);
  out = fopen(path, "w");
  if (!out) {
    perror(path);
    exit(2);
  }
  fprintf(out, "# %s · %s\n\n", r->id, r->name);
  fprintf(out, "**%s**", mdl_severity_name(r->severity));
  if (r->strict_severity != r->severity)
    fprintf(out, " (under `--strict`: %s)", mdl_severity_name(r->strict_severity));
  fprintf(out, " · %s, versions %s · basis: %s", r->format, r->versions, r->basis);
  if (r->alias[0])
    fprintf(out, " · former id %s", r->alias);
  fprintf(out, "\n\n");
  md_text(out, r->text);
  fprintf(out, "\n\nReported as: *%s*\n\n", r->message);

  fputs("## The clause\n\n", out);
  if (r->clause[0]) {
    const char *p = r->clause, *nl = strchr(p, '\n');
    fprintf(out, "> **%.*s**\n>\n", (int)(nl ? nl - p : (long)strlen(p)), p);
    for (p = nl ? nl + 1 : ""; *p;) {
      nl = strchr(p, '\n');
      size_t n = nl ? (size_t)(nl - p) : strlen(p);
      fprintf(out, ">%s%.*s\n", n ? " " : "", (int)n, p);
      p += n + (nl != NULL);
    }
    fprintf(out, "\nFrom [`%s`](../../%s); upstream: %s.\n\n", r->spec_ref, r->spec_ref, r->source);
  } else {
    fprintf(out, "The reference text (`spec/formats/`) has no clause for this rule yet; its "
            "citation is the upstream source: %s.\n\n", r->source);
  }
  fputs("## Why\n\n", out);
  md_text(out, r->rationale);
  fputs("\n\n", out);
  if (r->tolerance[0]) {
    fputs("## Tolerance\n\n", out);
    md_text(out, r->tolerance);
    fputs("\n\n", out);
  }
  fputs("## How to fix\n\n", out);
  if (r->fix[0])
    md_text(out, r->fix);
  else
    fputs("The catalogue has no fix text for this rule yet: change the file so that it meets the "
          "requirement above (the clause says what a correct file holds).", out);
  fputs("\n\n", out);
  fputs("## mdlcheck fix\n\n", out);
  if (r->repair[0])
    md_text(out, r->repair);
  else
    fputs("`mdlcheck fix` does not repair it: an error of this rule makes fix refuse the file, "
          "nothing written; a warning is left as it is.", out);
  fputs("\n\n", out);

  have_fail = pick(&fail, r, 1, NULL);
  if (have_fail) {
    const char *t = fail.file->id + strlen(r->id); /* "-tNN-..." */
    snprintf(want, sizeof want, "%.4s", t);
  }
  have_pass = pick(&pass, r, 0, have_fail ? want : NULL);
  fputs("## Smallest failing case\n\n", out);
  if (have_fail) {
    write_example(out, &fail, corpus, r);
    bad |= fail.library && !fail.fired;
  } else {
    fputs("The corpus has no case named for this rule that fails.\n", out);
  }
  fputs("\n## Passing twin\n\n", out);
  if (have_pass) {
    write_example(out, &pass, corpus, r);
    bad |= pass.library && pass.fired;
  } else {
    fputs("The corpus has no passing look-alike named for this rule.\n", out);
  }
  fprintf(out, "\n---\nGenerated by `doc/rulepages` from `spec/rules/%s.yaml` and `corpus/`; "
          "`mdlcheck explain %s` prints the same.\n", r->format, r->id);
  if (have_fail)
    example_free(&fail);
  if (have_pass)
    example_free(&pass);
  if (fclose(out) != 0) {
    perror(path);
    exit(2);
  }
  if (bad)
    fprintf(stderr, "rulepages: %s: an example disagrees with the rule (see %s)\n", r->id, path);
  return bad;
}

int main(int argc, char **argv)
{
  int check = 0, first = 1, bad = 0;
  char corpus[4096];
  if (argc > 1 && !strcmp(argv[1], "--check")) {
    check = 1;
    first = 2;
  }
  if (argc != first + 2) {
    fputs("usage: rulepages [--check] CORPUS_DIR OUT_DIR\n", stderr);
    return 2;
  }
  snprintf(corpus, sizeof corpus, "%s", argv[first]);
  if (ends_with(corpus, "/"))
    corpus[strlen(corpus) - 1] = 0;
  mkdir(argv[first + 1], 0777);
  walk(corpus);
  if (ncases == 0) {
    fprintf(stderr, "rulepages: no cases under %s\n", corpus);
    return 2;
  }
  qsort(cases, ncases, sizeof *cases, by_path);
  for (size_t i = 0; i < mdl_rule_count(); i++)
    bad += write_page(argv[first + 1], mdl_rule_at(i), corpus);
  if (bad)
    fprintf(stderr, "rulepages: %d rule%s with an example that disagrees\n", bad, bad == 1 ? "" : "s");
  return check && bad ? 1 : 0;
}
