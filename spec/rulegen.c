/* rulegen.c - turn the rule catalogue (the YAML files in spec/rules) into the C rule table and the
 * human rule reference. Run by the build; any defect in the catalogue fails the build.
 *
 * usage: rulegen [--top=DIR] OUT.h OUT.c OUT.md CATALOGUE.yaml...
 *
 * Catalogue file: a mapping with `format:` and `rules:`, a sequence of flat mappings with the
 * keys id, name, severity, versions, source, section, text, message, rationale, and optionally
 * strict (severity under --strict), basis, tolerance, derivation, spec_ref, alias (a former id
 * of the rule, still accepted wherever ids are: policy patterns, baselines, lookups), fix (how
 * an exporter author or artist makes a file pass: what to change, never a new spec claim), repair
 * (what `mdlcheck fix` does to a file the rule flags, when it repairs it without changing what a
 * loader sees: a short description; absent, fix refuses an error of the rule and leaves a
 * warning as it is).
 *
 * A target file (spec/targets/NAME.yaml: what one real loader accepts) has `target:` instead of
 * `format:`, the loader's description (loader, repository, commit, versions, formats, run, notes)
 * and `rules:` with id, name, severity, check, param (optional), path, line, fact, text, message,
 * rationale: the rule's versions, source, section, basis and spec_ref are made from these (the
 * clause is the target's in spec/formats/targets.md). With --targets-c/--targets-md the target
 * table and its reference are written too.
 *
 * spec_ref is `spec/formats/<fmt>.md#<anchor>`, relative to DIR (the source tree): the anchor must
 * be a clause heading `### <a id="ANCHOR"></a>Title` of that file (spec/formats/README.md), and
 * the clause's text is copied into the table, so reports can quote it without the file. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

enum field {
  F_ID, F_NAME, F_SEVERITY, F_VERSIONS, F_SOURCE, F_SECTION, F_TEXT, F_MESSAGE,
  F_RATIONALE, F_STRICT, F_BASIS, F_TOLERANCE, F_DERIVATION, F_SPEC_REF, F_ALIAS, F_FIX,
  F_REPAIR, F_CHECK, F_PARAM, F_PATH, F_LINE, F_FACT, F_COUNT /* the last five: target rules only */
};

static const char *const field_names[F_COUNT] = {
  "id", "name", "severity", "versions", "source", "section", "text", "message",
  "rationale", "strict", "basis", "tolerance", "derivation", "spec_ref", "alias", "fix",
  "repair",
  "check", "param", "path", "line", "fact"
};
static const int field_required[F_COUNT] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,
                                            0, 0, 0, 0, 0};
static const char *const severities[] = {"fatal", "error", "warning", "info", "hint"};

struct rule {
  char *f[F_COUNT];
  char *clause; /* the text spec_ref points at, or NULL */
  char *clause_title;
  char *format;
  char *file;
  int line;
  int target; /* index into targets, -1 for a format's rule */
};

/* One real loader (spec/targets/NAME.yaml). */
enum tfield { T_TARGET, T_LOADER, T_REPOSITORY, T_COMMIT, T_VERSIONS, T_FORMATS, T_RUN, T_NOTES,
              T_COUNT };
static const char *const tfield_names[T_COUNT] = {
  "target", "loader", "repository", "commit", "versions", "formats", "run", "notes"
};
struct target {
  char *f[T_COUNT];
  char *file;
};
static struct target targets[64];
static size_t ntargets;

static struct rule *rules;
static size_t nrules, caprules;
static int failed;

static void fail(const char *file, int line, const char *what, const char *detail)
{
  fprintf(stderr, "%s:%d: catalogue error: %s%s%s\n", file, line, what, detail ? ": " : "",
          detail ? detail : "");
  failed = 1;
}

static const char *scalar(yaml_document_t *doc, yaml_node_t *n)
{
  (void)doc;
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int severity_index(const char *s)
{
  for (int i = 0; i < 5; i++)
    if (!strcmp(s, severities[i]))
      return i;
  return -1;
}

static int id_well_formed(const char *id)
{
  /* FMT-AREA-NNN: upper-case letters/digits, a dash, letters/digits, a dash, three digits */
  const char *p = id;
  int parts = 0;
  while (*p) {
    const char *start = p;
    while (*p && *p != '-') {
      if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p))
        return 0;
      p++;
    }
    if (p == start)
      return 0;
    parts++;
    if (*p == '-')
      p++;
    if (parts == 3)
      return *p == 0 && p - start == 3 && isdigit((unsigned char)start[0]) &&
             isdigit((unsigned char)start[1]) && isdigit((unsigned char)start[2]);
  }
  return 0;
}

/* a, b, c, d and e one after the other, in a new string */
static char *str_cat(const char *a, const char *b, const char *c, const char *d, const char *e)
{
  size_t n = strlen(a) + strlen(b) + strlen(c) + strlen(d) + strlen(e) + 1;
  char *s = malloc(n);
  if (!s) {
    perror("rulegen");
    exit(2);
  }
  snprintf(s, n, "%s%s%s%s%s", a, b, c, d, e);
  return s;
}

/* A target rule's catalogue fields, made from the target and the rule's path, line and fact. */
static void target_fill(struct rule *r, const struct target *t, const char *file)
{
  static const int derived[] = {F_VERSIONS, F_SOURCE, F_SECTION, F_BASIS, F_SPEC_REF, F_STRICT,
                                F_TOLERANCE, F_DERIVATION, F_ALIAS};
  char prefix[64];
  size_t i;
  for (i = 0; i < sizeof derived / sizeof *derived; i++)
    if (r->f[derived[i]])
      fail(file, r->line, "a target rule takes this from its target; remove it", field_names[derived[i]]);
  for (i = F_CHECK; i <= F_FACT; i++)
    if (i != F_PARAM && (!r->f[i] || !*r->f[i]))
      fail(file, r->line, "missing required key of a target rule", field_names[i]);
  if (r->f[F_LINE]) {
    char *end;
    long v = strtol(r->f[F_LINE], &end, 10);
    if (*end || v < 1)
      fail(file, r->line, "line is not a line number", r->f[F_LINE]);
  }
  snprintf(prefix, sizeof prefix, "TGT-%s-", t->f[T_TARGET]);
  for (char *p = prefix; *p; p++)
    *p = (char)toupper((unsigned char)*p);
  if (r->f[F_ID] && strncmp(r->f[F_ID], prefix, strlen(prefix)))
    fail(file, r->line, "a target rule's id is TGT-<TARGET>-NNN", r->f[F_ID]);
  if (r->f[F_NAME]) { /* names are unique in the catalogue: the target's name comes first */
    char *n = str_cat(t->f[T_TARGET], "-", r->f[F_NAME], "", "");
    free(r->f[F_NAME]);
    r->f[F_NAME] = n;
  }
  if (!r->f[F_PATH] || !r->f[F_LINE] || !r->f[F_FACT])
    return;
  r->f[F_VERSIONS] = strdup(t->f[T_VERSIONS]);
  r->f[F_SOURCE] = str_cat(t->f[T_REPOSITORY], "@", t->f[T_COMMIT], " ", r->f[F_PATH]);
  r->f[F_SECTION] = str_cat("line ", r->f[F_LINE], ": ", r->f[F_FACT], "");
  r->f[F_BASIS] = strdup("loader");
  r->f[F_SPEC_REF] = str_cat("spec/formats/target.md#target-", t->f[T_TARGET], "", "", "");
}

static void load_rule(yaml_document_t *doc, yaml_node_t *map, const char *format, const char *file,
                      int target)
{
  struct rule r;
  memset(&r, 0, sizeof r);
  r.target = target;
  r.file = strdup(file);
  r.line = (int)map->start_mark.line + 1;
  r.format = strdup(format);
  if (map->type != YAML_MAPPING_NODE) {
    fail(file, r.line, "rule is not a mapping", NULL);
    return;
  }
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    const char *k = scalar(doc, yaml_document_get_node(doc, p->key));
    yaml_node_t *vn = yaml_document_get_node(doc, p->value);
    const char *v = scalar(doc, vn);
    int found = 0;
    if (!k || !v) {
      fail(file, (int)vn->start_mark.line + 1, "rule keys and values must be scalars", k);
      continue;
    }
    for (int i = 0; i < F_COUNT; i++) {
      if (!strcmp(k, field_names[i])) {
        if (r.f[i])
          fail(file, (int)vn->start_mark.line + 1, "duplicate key", k);
        free(r.f[i]);
        r.f[i] = strdup(v);
        found = 1;
      }
    }
    if (!found)
      fail(file, (int)vn->start_mark.line + 1, "unknown key", k);
  }
  if (target >= 0) {
    target_fill(&r, &targets[target], file);
  } else {
    for (int i = F_CHECK; i <= F_FACT; i++)
      if (r.f[i])
        fail(file, r.line, "only a target rule has this key", field_names[i]);
  }
  for (int i = 0; i < F_COUNT; i++)
    if (field_required[i] && (!r.f[i] || !*r.f[i]))
      fail(file, r.line, "missing required key", field_names[i]);
  if (r.f[F_ID] && !id_well_formed(r.f[F_ID]))
    fail(file, r.line, "id is not of the form FMT-AREA-NNN", r.f[F_ID]);
  if (r.f[F_ALIAS] && !id_well_formed(r.f[F_ALIAS]))
    fail(file, r.line, "alias is not of the form FMT-AREA-NNN", r.f[F_ALIAS]);
  if (r.f[F_SEVERITY] && severity_index(r.f[F_SEVERITY]) < 0)
    fail(file, r.line, "unknown severity", r.f[F_SEVERITY]);
  if (r.f[F_STRICT] && severity_index(r.f[F_STRICT]) < 0)
    fail(file, r.line, "unknown strict severity", r.f[F_STRICT]);
  if (r.f[F_DERIVATION] && !r.f[F_TOLERANCE])
    fail(file, r.line, "derivation without tolerance", NULL);
  if (r.f[F_TOLERANCE] && !r.f[F_DERIVATION])
    fail(file, r.line, "tolerance without derivation", NULL);
  for (size_t i = 0; i < nrules; i++) {
    if (r.f[F_ID] && rules[i].f[F_ID] && !strcmp(r.f[F_ID], rules[i].f[F_ID]))
      fail(file, r.line, "duplicate rule id", r.f[F_ID]);
    /* an alias is an id too: never the id or alias of another rule */
    for (int x = F_ID; x <= F_ALIAS; x += F_ALIAS - F_ID)
      for (int y = F_ID; y <= F_ALIAS; y += F_ALIAS - F_ID)
        if ((x != F_ID || y != F_ID) && r.f[x] && rules[i].f[y] && !strcmp(r.f[x], rules[i].f[y]))
          fail(file, r.line, "id or alias already used", r.f[x]);
    if (r.f[F_NAME] && rules[i].f[F_NAME] && !strcmp(r.format, rules[i].format) &&
        !strcmp(r.f[F_NAME], rules[i].f[F_NAME]))
      fail(file, r.line, "duplicate rule name in format", r.f[F_NAME]);
  }
  if (nrules == caprules) {
    caprules = caprules ? caprules * 2 : 256;
    rules = realloc(rules, caprules * sizeof *rules);
    if (!rules) {
      perror("rulegen");
      exit(2);
    }
  }
  rules[nrules++] = r;
}

static void load_file(const char *file)
{
  FILE *fp = fopen(file, "rb");
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_node_t *root;
  const char *format = NULL;
  yaml_node_t *list = NULL;
  struct target t;
  int is_target = 0;

  if (!fp) {
    perror(file);
    exit(2);
  }
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_file(&parser, fp);
  if (!yaml_parser_load(&parser, &doc)) {
    fprintf(stderr, "%s:%lu:%lu: YAML error: %s\n", file, (unsigned long)parser.problem_mark.line + 1,
            (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "?");
    exit(2);
  }
  root = yaml_document_get_root_node(&doc);
  memset(&t, 0, sizeof t);
  if (!root || root->type != YAML_MAPPING_NODE) {
    fail(file, 1, "top level must be a mapping with format and rules", NULL);
  } else {
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
      const char *k = scalar(&doc, yaml_document_get_node(&doc, p->key));
      yaml_node_t *v = yaml_document_get_node(&doc, p->value);
      if (k && !strcmp(k, "format"))
        format = scalar(&doc, v);
      else if (k && !strcmp(k, "rules"))
        list = v;
      else if (k && !strcmp(k, "notes") && !is_target && !t.f[T_TARGET])
        ; /* free text for readers of the catalogue */
      else {
        int i;
        for (i = 0; i < T_COUNT; i++)
          if (k && !strcmp(k, tfield_names[i]))
            break;
        if (i == T_COUNT || !scalar(&doc, v))
          fail(file, (int)v->start_mark.line + 1, "unknown top-level key", k);
        else
          t.f[i] = strdup(scalar(&doc, v));
        is_target |= i == T_TARGET;
      }
    }
  }
  if (is_target) {
    for (int i = 0; i < T_COUNT; i++)
      if (i != T_NOTES && (!t.f[i] || !*t.f[i]))
        fail(file, 1, "a target needs this key", tfield_names[i]);
    if (format)
      fail(file, 1, "a target file has `target:`, not `format:`", NULL);
    for (size_t i = 0; t.f[T_TARGET] && i < ntargets; i++)
      if (!strcmp(targets[i].f[T_TARGET], t.f[T_TARGET]))
        fail(file, 1, "duplicate target", t.f[T_TARGET]);
    if (ntargets == sizeof targets / sizeof *targets) {
      fail(file, 1, "too many targets", NULL);
      is_target = 0;
    }
  }
  if (is_target && !failed) {
    t.file = strdup(file);
    if (!t.f[T_NOTES])
      t.f[T_NOTES] = strdup("");
    targets[ntargets++] = t;
    if (!list || list->type != YAML_SEQUENCE_NODE)
      fail(file, 1, "needs a `rules:` sequence", NULL);
    else
      for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++)
        load_rule(&doc, yaml_document_get_node(&doc, *it), "target", file, (int)ntargets - 1);
  } else if (is_target) {
    ;
  } else if (!format || !list || list->type != YAML_SEQUENCE_NODE) {
    fail(file, 1, "needs `format:` and a `rules:` sequence", NULL);
  } else {
    for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++)
      load_rule(&doc, yaml_document_get_node(&doc, *it), format, file, -1);
  }
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  fclose(fp);
}

/* --- spec_ref: the clause of spec/formats/<fmt>.md a rule enforces ----------------------- */

static const char *top_dir = ".";

struct spec_file {
  char *path;  /* as written in spec_ref, before '#' */
  char **line; /* NULL when the file cannot be read */
  size_t nline;
};
static struct spec_file spec_files[32];
static size_t nspec_files;

static struct spec_file *spec_file_load(const char *path)
{
  struct spec_file *sf;
  char full[4096], buf[8192];
  FILE *fp;
  size_t cap = 0;
  for (size_t i = 0; i < nspec_files; i++)
    if (!strcmp(spec_files[i].path, path))
      return &spec_files[i];
  if (nspec_files == sizeof spec_files / sizeof spec_files[0])
    return NULL;
  sf = &spec_files[nspec_files++];
  memset(sf, 0, sizeof *sf);
  sf->path = strdup(path);
  snprintf(full, sizeof full, "%s/%s", top_dir, path);
  fp = fopen(full, "r");
  if (!fp)
    return sf;
  while (fgets(buf, sizeof buf, fp)) {
    size_t len = strlen(buf);
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
      buf[--len] = 0;
    if (sf->nline == cap) {
      cap = cap ? cap * 2 : 512;
      sf->line = realloc(sf->line, cap * sizeof *sf->line);
      if (!sf->line) {
        perror("rulegen");
        exit(2);
      }
    }
    sf->line[sf->nline++] = strdup(buf);
  }
  fclose(fp);
  if (!sf->line)
    sf->line = calloc(1, sizeof *sf->line); /* read, but empty */
  return sf;
}

/* The value of a clause's metadata line "- Key: value", or NULL. */
static const char *meta_value(const char *line, const char *key)
{
  size_t n = strlen(key);
  if (strncmp(line, "- ", 2) || strncmp(line + 2, key, n) || line[2 + n] != ':')
    return NULL;
  line += 3 + n;
  while (*line == ' ')
    line++;
  return line;
}

static void text_append(char **buf, size_t *len, size_t *cap, const char *s)
{
  size_t n = strlen(s);
  if (*len + n + 1 > *cap) {
    *cap = (*len + n + 1) * 2;
    *buf = realloc(*buf, *cap);
    if (!*buf) {
      perror("rulegen");
      exit(2);
    }
  }
  memcpy(*buf + *len, s, n + 1);
  *len += n;
}

/* Find the clause heading with the anchor; copy its title, status, source and body. */
static void clause_resolve(struct rule *r)
{
  const char *ref = r->f[F_SPEC_REF], *hash = strchr(ref, '#');
  char path[1024], want[512];
  struct spec_file *sf;
  size_t at = 0, end, len = 0, cap = 0;
  int in_fence = 0, found = 0;
  const char *status = NULL, *source = NULL;
  char *text = NULL;

  if (!hash || hash == ref || !hash[1] || strncmp(ref, "spec/formats/", 13) ||
      (size_t)(hash - ref) >= sizeof path) {
    fail(r->file, r->line, "spec_ref is not spec/formats/<file>.md#<anchor>", ref);
    return;
  }
  memcpy(path, ref, (size_t)(hash - ref));
  path[hash - ref] = 0;
  sf = spec_file_load(path);
  if (!sf || !sf->line) {
    fail(r->file, r->line, "spec_ref names a file that cannot be read", path);
    return;
  }
  snprintf(want, sizeof want, "<a id=\"%s\"></a>", hash + 1);
  for (at = 0; at < sf->nline; at++) {
    const char *l = sf->line[at];
    if (!strncmp(l, "```", 3))
      in_fence = !in_fence;
    if (!in_fence && l[0] == '#' && strstr(l, want)) {
      found = 1;
      break;
    }
  }
  if (!found) {
    fail(r->file, r->line, "spec_ref anchor is not a clause heading of its file", ref);
    return;
  }
  r->clause_title = strdup(strstr(sf->line[at], want) + strlen(want));
  in_fence = 0;
  for (end = at + 1; end < sf->nline; end++) {
    const char *l = sf->line[end];
    if (!strncmp(l, "```", 3))
      in_fence = !in_fence;
    if (!in_fence && l[0] == '#')
      break;
  }
  for (size_t i = at + 1; i < end; i++) {
    const char *l = sf->line[i], *v;
    if ((v = meta_value(l, "Status")) != NULL)
      status = v;
    else if ((v = meta_value(l, "Source")) != NULL)
      source = v;
    else if (meta_value(l, "Rules"))
      ;
    else if (*l || (len && !(len > 1 && text[len - 2] == '\n'))) { /* one blank line between paragraphs */
      text_append(&text, &len, &cap, l);
      text_append(&text, &len, &cap, "\n");
    }
  }
  while (len && text[len - 1] == '\n')
    text[--len] = 0;
  if (!status || (strcmp(status, "normative") && strcmp(status, "informative")))
    fail(r->file, r->line, "the clause spec_ref names has no `- Status: normative|informative` line", ref);
  if (!len)
    fail(r->file, r->line, "the clause spec_ref names has no text", ref);
  {
    char head[2048];
    char *clause = NULL;
    size_t clen = 0, ccap = 0;
    snprintf(head, sizeof head, "%s [%s%s%s]\n", r->clause_title, status ? status : "?",
             source ? "; " : "", source ? source : "");
    text_append(&clause, &clen, &ccap, head);
    text_append(&clause, &clen, &ccap, text ? text : "");
    r->clause = clause;
  }
  free(text);
}

static void c_string(FILE *out, const char *s)
{
  fputc('"', out);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", out);
    else if (c < 0x20)
      fprintf(out, "\\%03o", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static void enum_name(FILE *out, const struct rule *r)
{
  fputs("RULE_", out);
  for (const char *s = r->format; *s; s++)
    fputc(isalnum((unsigned char)*s) ? toupper((unsigned char)*s) : '_', out);
  fputc('_', out);
  for (const char *s = r->f[F_NAME]; *s; s++)
    fputc(isalnum((unsigned char)*s) ? toupper((unsigned char)*s) : '_', out);
}

static const char *sev_enum(const char *s)
{
  static const char *const names[] = {"MDL_FATAL", "MDL_ERROR", "MDL_WARNING", "MDL_INFO", "MDL_HINT"};
  return names[severity_index(s)];
}

static void md_cell(FILE *out, const char *s)
{
  for (; s && *s; s++) {
    if (*s == '|')
      fputs("\\|", out);
    else if (*s == '\n')
      fputc(' ', out);
    else
      fputc(*s, out);
  }
}

/* Whether a rule's format is a format of the registry (it has its room, validator/formats/NAME):
 * its rules then name it through the format's own description (NAME_format.name, an array whose
 * address is a constant), so the table holds no format name of its own
 * (tests/style/format-names.py). */
static int format_room(const char *format)
{
  char path[4096];
  struct stat st;
  snprintf(path, sizeof path, "%s/validator/formats/%s", top_dir, format);
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void write_outputs(const char *h, const char *c, const char *md)
{
  FILE *oh = fopen(h, "w"), *oc = fopen(c, "w"), *om = fopen(md, "w");
  const char *last_format = "";
  if (!oh || !oc || !om) {
    perror("rulegen: output");
    exit(2);
  }
  fputs("/* Generated by spec/rulegen from the spec/rules catalogue. Do not edit. */\n"
        "#ifndef MDL_RULES_GEN_H\n#define MDL_RULES_GEN_H\n\nenum rule_index {\n", oh);
  for (size_t i = 0; i < nrules; i++) {
    fputs("  ", oh);
    enum_name(oh, &rules[i]);
    fprintf(oh, ", /* %s */\n", rules[i].f[F_ID]);
  }
  fprintf(oh, "  RULE_COUNT\n};\n\n#endif\n");

  fputs("/* Generated by spec/rulegen from the spec/rules catalogue. Do not edit. */\n"
        "#include \"mdlcheck.h\"\n#include \"format.h\"\n#include \"rules_gen.h\"\n\n", oc);
  for (size_t i = 0; i < nrules; i++) /* each format room's name, declared once */
    if (format_room(rules[i].format) && (i == 0 || strcmp(rules[i - 1].format, rules[i].format)))
      fprintf(oc, "extern const struct mdl_format %s_format;\n", rules[i].format);
  fputs("\nconst mdl_rule mdl_rule_table[RULE_COUNT] = {\n", oc);
  for (size_t i = 0; i < nrules; i++) {
    const struct rule *r = &rules[i];
    char tol[8192];
    snprintf(tol, sizeof tol, "%s%s%s", r->f[F_TOLERANCE] ? r->f[F_TOLERANCE] : "",
             r->f[F_DERIVATION] ? " -- derivation: " : "", r->f[F_DERIVATION] ? r->f[F_DERIVATION] : "");
    char source[1024];
    snprintf(source, sizeof source, "%s %s", r->f[F_SOURCE], r->f[F_SECTION]);
    fputs("  {", oc);
    c_string(oc, r->f[F_ID]);
    fputs(", ", oc);
    c_string(oc, r->f[F_NAME]);
    fputs(", ", oc);
    if (format_room(r->format))
      fprintf(oc, "%s_format.name", r->format);
    else
      c_string(oc, r->format);
    fprintf(oc, ", %s,\n   ", sev_enum(r->f[F_SEVERITY]));
    c_string(oc, r->f[F_VERSIONS]);
    fputs(", ", oc);
    c_string(oc, source);
    fputs(",\n   ", oc);
    c_string(oc, r->f[F_TEXT]);
    fputs(",\n   ", oc);
    c_string(oc, r->f[F_MESSAGE]);
    fputs(",\n   ", oc);
    c_string(oc, r->f[F_RATIONALE]);
    fputs(",\n   ", oc);
    c_string(oc, tol);
    fputs(", ", oc);
    c_string(oc, r->f[F_BASIS] ? r->f[F_BASIS] : "spec");
    fprintf(oc, ", %s,\n   ", sev_enum(r->f[F_STRICT] ? r->f[F_STRICT] : r->f[F_SEVERITY]));
    c_string(oc, r->f[F_SPEC_REF] ? r->f[F_SPEC_REF] : "");
    fputs(",\n   ", oc);
    c_string(oc, r->clause ? r->clause : "");
    fputs(", ", oc);
    c_string(oc, r->f[F_ALIAS] ? r->f[F_ALIAS] : "");
    fputs(",\n   ", oc);
    c_string(oc, r->f[F_FIX] ? r->f[F_FIX] : "");
    fputs(",\n   ", oc);
    c_string(oc, r->f[F_REPAIR] ? r->f[F_REPAIR] : "");
    fputs("},\n", oc);
  }
  fputs("};\n", oc);

  fputs("# mdlcheck rule reference\n\nGenerated from `spec/rules/*.yaml` by `spec/rulegen`; "
        "do not edit. Each rule: id, default severity (and under `--strict`), versions, the clause "
        "of the project's reference specification (`spec/formats/`) it enforces, the public "
        "source it rests on, what it requires, why, and how to fix a file it flags. Each id links to "
        "the rule's page (`doc/rules/ID.md`: the clause, the smallest failing case of the corpus and "
        "its passing twin); `mdlcheck explain ID` prints the same.\n", om);
  for (size_t i = 0; i < nrules; i++) {
    const struct rule *r = &rules[i];
    if (strcmp(last_format, r->format)) {
      fprintf(om, "\n## %s\n\n| id | name | severity | versions | clause | source | rule |\n"
                  "|---|---|---|---|---|---|---|\n", r->format);
      last_format = r->format;
    }
    fprintf(om, "| [%s](rules/%s.md)", r->f[F_ID], r->f[F_ID]);
    if (r->f[F_ALIAS])
      fprintf(om, " (alias %s)", r->f[F_ALIAS]);
    fprintf(om, " | %s | %s", r->f[F_NAME], r->f[F_SEVERITY]);
    if (r->f[F_STRICT] && strcmp(r->f[F_STRICT], r->f[F_SEVERITY]))
      fprintf(om, " (strict: %s)", r->f[F_STRICT]);
    fprintf(om, " | %s | ", r->f[F_VERSIONS]);
    if (r->f[F_SPEC_REF]) {
      fputs("[", om);
      md_cell(om, r->clause_title);
      fprintf(om, "](../%s)", r->f[F_SPEC_REF]);
    } else {
      fputs("(no clause yet)", om);
    }
    fprintf(om, " | `%s` %s | ", r->f[F_SOURCE], r->f[F_SECTION]);
    md_cell(om, r->f[F_TEXT]);
    fputs(" *Why:* ", om);
    md_cell(om, r->f[F_RATIONALE]);
    if (r->f[F_FIX]) {
      fputs(" *Fix:* ", om);
      md_cell(om, r->f[F_FIX]);
    }
    if (r->f[F_REPAIR]) {
      fputs(" *Repaired by `mdlcheck fix`:* ", om);
      md_cell(om, r->f[F_REPAIR]);
    }
    if (r->f[F_TOLERANCE]) {
      fputs(" *Tolerance:* ", om);
      md_cell(om, r->f[F_TOLERANCE]);
      fputs(" *Derivation:* ", om);
      md_cell(om, r->f[F_DERIVATION]);
    }
    fputs(" |\n", om);
  }
  fclose(oh);
  fclose(oc);
  fclose(om);
}

/* The target table (validator/core/targets.h declares it) and the targets' reference. */
static void write_targets(const char *c, const char *md)
{
  FILE *oc = fopen(c, "w"), *om = fopen(md, "w");
  if (!oc || !om) {
    perror("rulegen: targets output");
    exit(2);
  }
  fputs("/* Generated by spec/rulegen from spec/targets. Do not edit. */\n"
        "#include \"targets.h\"\n\n", oc);
  fprintf(oc, "const size_t mdl_target_table_count = %zu;\n"
              "const mdl_target mdl_target_table[%zu] = {\n", ntargets, ntargets ? ntargets : 1);
  for (size_t i = 0; i < ntargets; i++) {
    fputs("  {", oc);
    for (int k = 0; k < T_COUNT; k++) {
      c_string(oc, targets[i].f[k]);
      fputs(k + 1 < T_COUNT ? ",\n   " : "},\n", oc);
    }
  }
  if (!ntargets)
    fputs("  {0}\n", oc);
  fputs("};\n\nconst struct target_rule target_rule_table[] = {\n", oc);
  for (size_t i = 0; i < nrules; i++) {
    const struct rule *r = &rules[i];
    if (r->target < 0)
      continue;
    fputs("  {", oc);
    enum_name(oc, r);
    fprintf(oc, ", %d, ", r->target);
    c_string(oc, r->f[F_CHECK]);
    fputs(", ", oc);
    c_string(oc, r->f[F_PARAM] ? r->f[F_PARAM] : "");
    fputs("},\n", oc);
  }
  fputs("  {RULE_COUNT, 0, NULL, NULL}\n};\n", oc);

  fputs("# mdlcheck targets\n\nGenerated from `spec/targets/*.yaml` by `spec/rulegen`; do not edit. "
        "A target is one real loader: `--target=NAME` adds its rules (what it refuses or crashes "
        "on: errors; what it silently changes: warnings) to the specification's, and never removes "
        "one. Every rule cites the line of the loader's source it was read from.\n", om);
  for (size_t t = 0; t < ntargets; t++) {
    const struct target *tg = &targets[t];
    fprintf(om, "\n## %s\n\n- Loader: %s\n- Versions: %s\n- Source: `%s` at `%s`\n"
                "- Formats read: `%s`\n- Run here: %s\n", tg->f[T_TARGET], tg->f[T_LOADER],
            tg->f[T_VERSIONS], tg->f[T_REPOSITORY], tg->f[T_COMMIT], tg->f[T_FORMATS], tg->f[T_RUN]);
    if (*tg->f[T_NOTES])
      fprintf(om, "- Notes: %s\n", tg->f[T_NOTES]);
    fputs("\n| id | severity | read from | what the loader does |\n|---|---|---|---|\n", om);
    for (size_t i = 0; i < nrules; i++) {
      const struct rule *r = &rules[i];
      if (r->target != (int)t)
        continue;
      fprintf(om, "| %s | %s | `%s:%s` | ", r->f[F_ID], r->f[F_SEVERITY], r->f[F_PATH], r->f[F_LINE]);
      md_cell(om, r->f[F_FACT]);
      fputs(" |\n", om);
    }
  }
  fclose(oc);
  fclose(om);
}

int main(int argc, char **argv)
{
  int first = 1;
  const char *targets_c = NULL, *targets_md = NULL;
  if (argc > 1 && !strncmp(argv[1], "--top=", 6)) {
    top_dir = argv[1] + 6;
    first = 2;
  }
  while (argc > first && (!strncmp(argv[first], "--targets-c=", 12) ||
                          !strncmp(argv[first], "--targets-md=", 13))) {
    if (argv[first][10] == 'c')
      targets_c = argv[first] + 12;
    else
      targets_md = argv[first] + 13;
    first++;
  }
  if (argc < first + 4) {
    fprintf(stderr, "usage: rulegen [--top=DIR] [--targets-c=OUT.c --targets-md=OUT.md] OUT.h OUT.c OUT.md CATALOGUE.yaml...\n");
    return 2;
  }
  for (int i = first + 3; i < argc; i++)
    load_file(argv[i]);
  for (size_t i = 0; i < nrules; i++)
    if (rules[i].f[F_SPEC_REF])
      clause_resolve(&rules[i]);
  if (failed)
    return 1;
  write_outputs(argv[first], argv[first + 1], argv[first + 2]);
  if (targets_c && targets_md)
    write_targets(targets_c, targets_md);
  return 0;
}
