/* case_cli.c - run a case through the built mdlcheck binary: the forms whose rules only the tool
 * reports (a configuration file, `mdlcheck compare` of two models, an input that cannot be read).
 *
 * The inputs are written to a temporary folder and mdlcheck runs on them as a user would run it;
 * its JSON report (JSON is YAML, so libyaml reads it) and the configuration's diagnostics, which
 * it prints on stderr as FILE:LINE:COLUMN: SEVERITY[ID]: MESSAGE, become the diagnostics the
 * expectations are matched against. Nothing is synthesised here: a rule the tool does not report
 * cannot be seen. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml.h>

#include "case_check.h"

/* A run that takes longer than this is a hang: the child is killed by SIGALRM. */
#define CLI_TIMEOUT_SECONDS 120

struct tmp_files {
  char dir[4096];
  char input[4200], compare[4200], config[4200], out[4200], err[4200], conv[4200];
};

static int path_join(char *out, size_t cap, const char *a, const char *b)
{
  int n = snprintf(out, cap, "%s/%s", a, b);
  return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* The file name mdlcheck sees (its extension is the name hint): the last component of hint, or
 * `fallback` when there is none. */
void cli_file_name(char *out, size_t cap, const char *hint, const char *fallback)
{
  const char *slash = hint ? strrchr(hint, '/') : NULL;
  const char *base = slash ? slash + 1 : hint;
  if (!base || !*base || !strcmp(base, ".") || !strcmp(base, ".."))
    base = fallback;
  snprintf(out, cap, "%s", base);
}

static int write_file(const char *path, const unsigned char *data, size_t size)
{
  FILE *fp = fopen(path, "wb");
  int bad;
  if (!fp)
    return -1;
  bad = size && fwrite(data, 1, size, fp) != size;
  bad |= fclose(fp) != 0;
  return bad ? -1 : 0;
}

static char *read_text(const char *path)
{
  FILE *fp = fopen(path, "rb");
  char *b = NULL;
  size_t n = 0, cap = 0;
  if (!fp)
    return NULL;
  for (;;) {
    size_t got;
    if (cap - n < 4096) {
      char *nb = realloc(b, cap + 65536);
      if (!nb) {
        fprintf(stderr, "case_run: out of memory\n");
        exit(99);
      }
      b = nb;
      cap += 65536;
    }
    got = fread(b + n, 1, cap - n - 1, fp);
    n += got;
    if (got == 0)
      break;
  }
  fclose(fp);
  b[n] = 0;
  return b;
}

static int tmp_unlink(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)ftw;
  if (flag == FTW_DP)
    rmdir(path);
  else
    unlink(path);
  return 0;
}

/* Everything under the temporary folder (a case's `files` may make sub-folders); links are
 * removed, never followed. */
static void tmp_remove(struct tmp_files *t)
{
  if (t->dir[0])
    nftw(t->dir, tmp_unlink, 16, FTW_DEPTH | FTW_PHYS);
}

/* What the case puts at OUT's path before convert runs (convert-output): a link to a file that
 * must stay as it is (checked by the case's diagnostics: convert must refuse, not follow it), a
 * FIFO, a directory; no-folder needs nothing (the path names a missing folder). */
static int output_place(struct conf_case *c, const struct tmp_files *t)
{
  char target[4200];
  int r = 0;
  if (!strcmp(c->convert_output, "link")) {
    if (path_join(target, sizeof target, t->dir, "link-target") < 0 || write_file(target, (const unsigned char *)"x", 1) < 0)
      return 99;
    r = symlink(target, t->conv);
  } else if (!strcmp(c->convert_output, "fifo")) {
    r = mkfifo(t->conv, 0600);
  } else if (!strcmp(c->convert_output, "directory")) {
    r = mkdir(t->conv, 0700);
  }
  if (r < 0) {
    fprintf(stderr, "%s: cannot make %s (convert-output: %s): %s\n", c->file, t->conv, c->convert_output,
            strerror(errno));
    return 99;
  }
  return 0;
}

/* The case's `files`, each under DIR/input/ at its path (folders made as needed). */
static int extra_write(struct conf_case *c, const struct tmp_files *t)
{
  for (size_t i = 0; i < c->nfiles; i++) {
    char path[4400];
    unsigned char *data = NULL;
    size_t size = 0;
    int rc;
    if (snprintf(path, sizeof path, "%s/input/%s", t->dir, c->files[i].name) >= (int)sizeof path)
      return 99;
    for (char *p = path + strlen(t->dir) + 7; (p = strchr(p, '/')) != NULL; p++) {
      *p = 0;
      if (mkdir(path, 0700) < 0 && errno != EEXIST) {
        fprintf(stderr, "%s: cannot make %s: %s\n", c->file, path, strerror(errno));
        return 99;
      }
      *p = '/';
    }
    if (case_build_input(c, &c->files[i], &data, &size) < 0) {
      fprintf(stderr, "%s: FAIL: files entry %s could not be built\n", c->file, c->files[i].name);
      return 1;
    }
    rc = write_file(path, data, size);
    free(data);
    if (rc < 0) {
      fprintf(stderr, "%s: cannot write %s: %s\n", c->file, path, strerror(errno));
      return 99;
    }
  }
  return 0;
}

/* --resources[=DIRS]: each relative folder of the case is one inside DIR/input. */
static int resources_option(const struct conf_case *c, const struct tmp_files *t, char *out, size_t cap)
{
  size_t n = (size_t)snprintf(out, cap, "--resources");
  for (const char *s = c->resources; *s && n < cap;) {
    size_t len = strcspn(s, ":");
    n += (size_t)snprintf(out + n, cap - n, "%s%s%s%.*s", s == c->resources ? "=" : ":",
                          s[0] == '/' ? "" : t->dir, s[0] == '/' ? "" : "/input/", (int)len, s);
    s += len + (s[len] == ':');
  }
  return n < cap ? 0 : -1;
}

/* Build one side's bytes and write them to DIR/SUB/NAME. */
static int side_write(struct conf_case *c, const struct case_source *src, const char *name_hint,
                      const char *fallback, const struct tmp_files *t, const char *sub, char *path,
                      size_t cap)
{
  char dir[4200], name[256];
  unsigned char *data = NULL;
  size_t size = 0;
  int rc;
  cli_file_name(name, sizeof name, name_hint, fallback);
  if (path_join(dir, sizeof dir, t->dir, sub) < 0 || mkdir(dir, 0700) < 0 ||
      path_join(path, cap, dir, name) < 0) {
    fprintf(stderr, "%s: cannot make %s/%s: %s\n", c->file, t->dir, sub, strerror(errno));
    return 99;
  }
  if (src->kind == INPUT_MISSING)
    return 0; /* the path names nothing: that is the point */
  if (case_build_input(c, src, &data, &size) < 0) {
    fprintf(stderr, "%s: FAIL: the %s could not be built\n", c->file, sub);
    path[0] = 0;
    return 1;
  }
  rc = write_file(path, data, size);
  free(data);
  if (rc < 0) {
    fprintf(stderr, "%s: cannot write %s: %s\n", c->file, path, strerror(errno));
    path[0] = 0;
    return 99;
  }
  return 0;
}

static int config_write(struct conf_case *c, const struct tmp_files *t, char *path, size_t cap)
{
  unsigned char *data = NULL;
  size_t size = 0;
  int rc;
  if (c->config == CONFIG_FILE) {
    if (case_read_file(c, c->config_line, c->config_path, &data, &size) < 0) {
      fprintf(stderr, "%s: FAIL: the config could not be read\n", c->file);
      return 1;
    }
  }
  if (path_join(path, cap, t->dir, "mdlcheck.yaml") < 0)
    return 99;
  if (c->config == CONFIG_FILE)
    rc = write_file(path, data, size);
  else
    rc = write_file(path, (const unsigned char *)c->config_text, c->config_text_len);
  free(data);
  if (rc < 0) {
    fprintf(stderr, "%s: cannot write %s: %s\n", c->file, path, strerror(errno));
    path[0] = 0;
    return 99;
  }
  return 0;
}

static int spawn(const char *const *argv, const char *out, const char *err, int *exit_code)
{
  pid_t pid;
  int status;
  fflush(NULL); /* nothing buffered may be written twice */
  pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int fi = open("/dev/null", O_RDONLY);
    if (fo < 0 || fe < 0 || fi < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0 || dup2(fi, 0) < 0)
      _exit(127);
    alarm(CLI_TIMEOUT_SECONDS);
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  /* a signal is told apart from any exit status: -1000 - its number */
  if (WIFEXITED(status))
    *exit_code = WEXITSTATUS(status);
  else
    *exit_code = -(WIFSIGNALED(status) ? WTERMSIG(status) : 0) - 1000;
  return 0;
}

/* ---- reading the report ------------------------------------------------------------------- */

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
  if (!map || map->type != YAML_MAPPING_NODE)
    return NULL;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(doc, p->key);
    if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
      return yaml_document_get_node(doc, p->value);
  }
  return NULL;
}

static const char *map_str(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
  yaml_node_t *n = map_get(doc, map, key);
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int map_num(yaml_document_t *doc, yaml_node_t *map, const char *key, long long *out)
{
  const char *s = map_str(doc, map, key);
  char *end;
  if (!s || !*s)
    return -1;
  errno = 0;
  *out = strtoll(s, &end, 10);
  return errno || *end ? -1 : 0;
}

/* compare: mdlcheck writes where the compare input holds its side at the end of `expected`:
 * "... (PATH:LINE)", "... (PATH@OFFSET)" or "... (PATH)". */
static void compare_location(struct seen_diag *d, const char *expected, const char *bpath)
{
  size_t blen = strlen(bpath);
  const char *at = NULL, *p = expected;
  char *end;
  long long v;
  if (!expected)
    return;
  while ((p = strstr(p, bpath)) != NULL) {
    if (p > expected && p[-1] == '(')
      at = p;
    p++;
  }
  if (!at)
    return;
  at += blen;
  if ((*at == ':' || *at == '@') && at[1] >= '0' && at[1] <= '9') {
    errno = 0;
    v = strtoll(at + 1, &end, 10);
    if (errno || strcmp(end, ")"))
      return;
    if (*at == ':')
      d->cmp_line = (unsigned)v;
    else
      d->cmp_offset = v;
  }
}

/* One file entry of mdlcheck's JSON report into seen and res. Return 0, or -1 after saying why. */
static int report_file_read(struct conf_case *c, yaml_document_t *doc, yaml_node_t *file,
                            const char *bpath, struct seen_list *seen, mdl_result *res,
                            struct cli_outcome *out)
{
  yaml_node_t *counts = map_get(doc, file, "counts"), *msgs = map_get(doc, file, "messages");
  const char *fmt = map_str(doc, file, "format");

  if (!counts || !msgs || msgs->type != YAML_SEQUENCE_NODE || !fmt) {
    fprintf(stderr, "%s: FAIL: mdlcheck's report lacks format, counts or messages\n", c->file);
    return -1;
  }
  snprintf(out->format, sizeof out->format, "%s", fmt);
  for (int s = 0; s < MDL_SEVERITY_COUNT; s++) {
    long long v;
    if (map_num(doc, counts, mdl_severity_name((mdl_severity)s), &v) < 0 || v < 0) {
      fprintf(stderr, "%s: FAIL: mdlcheck's report has no count of %s\n", c->file,
              mdl_severity_name((mdl_severity)s));
      return -1;
    }
    res->counts[s] += (unsigned long)v; /* after any configuration diagnostics */
  }
  for (yaml_node_item_t *it = msgs->data.sequence.items.start; it < msgs->data.sequence.items.top;
       it++) {
    yaml_node_t *m = yaml_document_get_node(doc, *it);
    const char *id = map_str(doc, m, "id"), *sev = map_str(doc, m, "severity");
    const char *message = map_str(doc, m, "message"), *path = map_str(doc, m, "path");
    const mdl_rule *rule = id ? mdl_rule_find(id) : NULL;
    mdl_severity severity = sev ? mdl_severity_parse(sev) : MDL_SEVERITY_COUNT;
    struct seen_diag *d;
    long long v;
    if (!rule || severity == MDL_SEVERITY_COUNT || !message) {
      fprintf(stderr, "%s: FAIL: a message in mdlcheck's report has no known id or severity "
              "(%s, %s)\n", c->file, id ? id : "?", sev ? sev : "?");
      return -1;
    }
    d = seen_add(seen, rule, severity, message, path);
    if (map_num(doc, m, "offset", &v) == 0)
      d->offset = v;
    if (map_num(doc, m, "line", &v) == 0)
      d->line = (unsigned)v;
    if (map_num(doc, m, "column", &v) == 0)
      d->column = (unsigned)v;
    if (map_num(doc, m, "folded", &v) == 0)
      d->folded = (unsigned long)v;
    if (bpath)
      compare_location(d, map_str(doc, m, "expected"), bpath);
  }
  return 0;
}

/* Read mdlcheck's JSON report into seen and res: its one file, or for convert the input and
 * (unless the input itself was refused) the output, or with resources the input (the external
 * eggs it names follow it as inputs of their own and are not read). Return 0, or -1 after
 * saying why. */
static int report_read(struct conf_case *c, const char *text, const char *bpath,
                       struct seen_list *seen, mdl_result *res, struct cli_outcome *out, int two)
{
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_node_t *root, *files;
  long nfiles;
  int status = -1;

  if (!yaml_parser_initialize(&parser))
    return -1;
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
  if (!yaml_parser_load(&parser, &doc)) {
    fprintf(stderr, "%s: FAIL: mdlcheck's report is not JSON: %s\n", c->file,
            parser.problem ? parser.problem : "?");
    yaml_parser_delete(&parser);
    return -1;
  }
  yaml_parser_delete(&parser);
  root = yaml_document_get_root_node(&doc);
  files = map_get(&doc, root, "files");
  nfiles = files && files->type == YAML_SEQUENCE_NODE
               ? (long)(files->data.sequence.items.top - files->data.sequence.items.start) : -1;
  if (two ? nfiles < 1 || nfiles > 2 : c->has_resources ? nfiles < 1 : nfiles != 1) {
    fprintf(stderr, "%s: FAIL: mdlcheck's report does not hold %s\n", c->file,
            two ? "the input and the output" : "exactly one file");
    goto done;
  }
  for (yaml_node_item_t *fi = files->data.sequence.items.start;
       fi < (c->has_resources && !c->convert ? files->data.sequence.items.start + 1
                                             : files->data.sequence.items.top);
       fi++)
    if (report_file_read(c, &doc, yaml_document_get_node(&doc, *fi), bpath, seen, res, out) < 0)
      goto done;
  status = 0;
done:
  yaml_document_delete(&doc);
  return status;
}

/* The configuration's diagnostics: "CONFIG:LINE:COLUMN: SEVERITY[ID]: MESSAGE" lines on stderr.
 * Return how many were read, or -1 when a line that starts so is malformed. */
static int config_diags_read(struct conf_case *c, const char *err, const char *cfg,
                             struct seen_list *seen, mdl_result *res)
{
  size_t clen = strlen(cfg);
  int n = 0;
  for (const char *line = err; *line;) {
    const char *eol = strchr(line, '\n');
    size_t len = eol ? (size_t)(eol - line) : strlen(line);
    if (len > clen && !strncmp(line, cfg, clen) && line[clen] == ':') {
      char buf[1024], sev[16], id[32];
      unsigned ln, col;
      int used = 0;
      const mdl_rule *rule;
      mdl_severity severity;
      struct seen_diag *d;
      snprintf(buf, sizeof buf, "%.*s", (int)(len - clen - 1), line + clen + 1);
      if (sscanf(buf, "%u:%u: %15[a-z][%31[A-Z0-9-]]: %n", &ln, &col, sev, id, &used) != 4 ||
          !used || !(rule = mdl_rule_find(id)) ||
          (severity = mdl_severity_parse(sev)) == MDL_SEVERITY_COUNT) {
        fprintf(stderr, "%s: FAIL: cannot read mdlcheck's configuration diagnostic: %.*s\n",
                c->file, (int)len, line);
        return -1;
      }
      d = seen_add(seen, rule, severity, buf + used, "");
      d->line = ln;
      d->column = col;
      res->counts[severity]++;
      n++;
    }
    line += len + (eol ? 1 : 0);
  }
  return n;
}

/* After `mdlcheck fix` exited 0: OUTPUT validated on its own (the options of the fix run, from
 * argv[2..nopts)) must hold none of the case's expected rules that the catalogue says fix repairs.
 * Return 0, or 1 after saying which are left. */
static int fix_after(struct conf_case *c, const char *mdlcheck, const struct tmp_files *t,
                     const char *const *fix_argv, int nopts)
{
  const char *argv[24];
  char out_path[4200], err_path[4200];
  struct seen_list after = {NULL, 0};
  struct cli_outcome o;
  mdl_result r;
  int argc = 0, rc = 0, code = -1;
  memset(&o, 0, sizeof o);
  memset(&r, 0, sizeof r);
  argv[argc++] = mdlcheck;
  argv[argc++] = "validate";
  for (int i = 2; i < nopts && argc < 22; i++)
    argv[argc++] = fix_argv[i];
  argv[argc++] = t->conv;
  argv[argc] = NULL;
  if (path_join(out_path, sizeof out_path, t->dir, "after.out") < 0 ||
      path_join(err_path, sizeof err_path, t->dir, "after.err") < 0 ||
      spawn(argv, out_path, err_path, &code) < 0) {
    fprintf(stderr, "%s: FAIL: cannot validate what fix wrote\n", c->file);
    return 1;
  }
  o.out = read_text(out_path);
  o.err = read_text(err_path);
  remove(out_path);
  remove(err_path);
  if (!o.out || (code != 0 && code != 1) ||
      report_read(c, o.out, NULL, &after, &r, &o, 0) < 0) {
    fprintf(stderr, "%s: FAIL: validating what fix wrote gave no report (exit %d)\n", c->file, code);
    rc = 1;
  }
  for (size_t i = 0; rc == 0 && i < c->nexpects; i++) {
    const mdl_rule *rule = c->expects[i].rule;
    if (!rule || !rule->repair[0])
      continue;
    for (size_t k = 0; k < after.count; k++)
      if (after.items[k].rule == rule) {
        fprintf(stderr, "%s: FAIL: fix exited 0 but what it wrote still has %s: %s\n", c->file, rule->id,
                after.items[k].message);
        rc = 1;
        break;
      }
  }
  if (rc == 0 && code != 0) {
    fprintf(stderr, "%s: FAIL: fix exited 0 but what it wrote is invalid\n", c->file);
    rc = 1;
  }
  if (rc)
    seen_print(&after, "what fix wrote, validated");
  seen_free(&after);
  cli_outcome_free(&o);
  return rc;
}

int cli_run(struct conf_case *c, const char *mdlcheck, struct seen_list *seen, mdl_result *res,
            struct cli_outcome *out)
{
  struct tmp_files t;
  const char *argv[20];
  char opt_config[4300], opt_assume[256], opt_profile[256], opt_accept[256], opt_res[8192];
  char opt_target[256];
  const char *tmp = getenv("TMPDIR");
  int argc = 0, rc, ncfg = 0, argc_opts = 0;

  memset(&t, 0, sizeof t);
  memset(out, 0, sizeof *out);
  memset(res, 0, sizeof *res);
  res->format = out->format;
  out->exit_code = -1;
  if (snprintf(t.dir, sizeof t.dir, "%s/case_run.XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
          (int)sizeof t.dir || !mkdtemp(t.dir)) {
    fprintf(stderr, "%s: cannot make a temporary folder: %s\n", c->file, strerror(errno));
    t.dir[0] = 0;
    return 99;
  }
  rc = side_write(c, &c->input, c->name ? c->name : c->input.path, "input", &t, "input", t.input,
                  sizeof t.input);
  if (rc == 0 && c->has_compare)
    rc = side_write(c, &c->compare, c->compare.name ? c->compare.name : c->compare.path,
                    "compare", &t, "compare", t.compare, sizeof t.compare);
  if (rc == 0 && c->config != CONFIG_NONE)
    rc = config_write(c, &t, t.config, sizeof t.config);
  if (rc == 0 && c->nfiles)
    rc = extra_write(c, &t);
  if (rc == 0 && c->has_resources && resources_option(c, &t, opt_res, sizeof opt_res) < 0)
    rc = 99;
  if (rc == 0 && (path_join(t.out, sizeof t.out, t.dir, "stdout") < 0 ||
                  path_join(t.err, sizeof t.err, t.dir, "stderr") < 0))
    rc = 99;
  if (rc)
    goto done;

  if (c->fix) { /* OUT beside the input, with its extension (the name hint of its decode) */
    const char *dot = strrchr(t.input, '.'), *slash = strrchr(t.input, '/');
    if (snprintf(t.conv, sizeof t.conv, "%s/output%s", t.dir, dot && (!slash || dot > slash) ? dot : "") >=
        (int)sizeof t.conv) {
      rc = 99;
      goto done;
    }
  }
  if (c->convert && snprintf(t.conv, sizeof t.conv, "%s/%soutput.%s", t.dir,
                             c->convert_output && !strcmp(c->convert_output, "no-folder") ? "missing/" : "",
                             c->convert) >= (int)sizeof t.conv) {
    rc = 99;
    goto done;
  }
  if (c->convert_output && (rc = output_place(c, &t)) != 0)
    goto done;
  argv[argc++] = mdlcheck;
  argv[argc++] = c->has_compare ? "compare" : c->convert ? "convert" : c->fix ? "fix" : "validate";
  argv[argc++] = "--format=json";
  argv[argc++] = "--max-per-rule=0"; /* every occurrence is seen: counts are exact */
  if (c->config != CONFIG_NONE) {
    snprintf(opt_config, sizeof opt_config, "--config=%s", t.config);
    argv[argc++] = opt_config;
  }
  if (c->assume_format) {
    snprintf(opt_assume, sizeof opt_assume, "--assume-format=%s", c->assume_format);
    argv[argc++] = opt_assume;
  }
  if (c->profile) {
    snprintf(opt_profile, sizeof opt_profile, "--profile=%s", c->profile);
    argv[argc++] = opt_profile;
  }
  if (c->target) {
    snprintf(opt_target, sizeof opt_target, "--target=%s", c->target);
    argv[argc++] = opt_target;
  }
  if (c->strict)
    argv[argc++] = "--strict";
  if (c->accept_loss) {
    snprintf(opt_accept, sizeof opt_accept, "--accept-loss=%s", c->accept_loss);
    argv[argc++] = opt_accept;
  }
  if (c->has_resources)
    argv[argc++] = opt_res;
  argc_opts = argc;
  argv[argc++] = t.input;
  if (c->has_compare)
    argv[argc++] = t.compare;
  if (c->convert || c->fix)
    argv[argc++] = t.conv;
  argv[argc] = NULL;

  if (spawn(argv, t.out, t.err, &out->exit_code) < 0) {
    fprintf(stderr, "%s: cannot run %s: %s\n", c->file, mdlcheck, strerror(errno));
    rc = 99;
    goto done;
  }
  out->out = read_text(t.out);
  out->err = read_text(t.err);
  if (!out->out || !out->err) {
    fprintf(stderr, "%s: cannot read mdlcheck's output\n", c->file);
    rc = 99;
    goto done;
  }
  if (out->exit_code == 127 && !out->out[0]) {
    fprintf(stderr, "%s: cannot run %s (is it built? MDLCHECK names another)\n", c->file,
            mdlcheck);
    rc = 99;
    goto done;
  }
  if (c->config != CONFIG_NONE) {
    ncfg = config_diags_read(c, out->err, t.config, seen, res);
    if (ncfg < 0) {
      rc = 1;
      goto done;
    }
  }
  /* Exit 2 with configuration diagnostics: the tool stopped before validating, as documented.
   * Anything else must be a report; a usage error or a crash never passes as "no diagnostics". */
  if (out->exit_code == 2 && ncfg > 0 && !out->out[0]) {
    snprintf(out->format, sizeof out->format, "config");
    rc = 0;
  } else if (out->exit_code < 0) {
    fprintf(stderr, "%s: FAIL: mdlcheck was killed by signal %d\n", c->file,
            -out->exit_code - 1000);
    rc = 1;
  } else if (out->exit_code > 3) {
    fprintf(stderr, "%s: FAIL: mdlcheck failed (exit %d)\n", c->file, out->exit_code);
    rc = 1;
  } else if (!out->out[0]) {
    fprintf(stderr, "%s: FAIL: mdlcheck printed no report (exit %d)\n", c->file, out->exit_code);
    rc = 1;
  } else {
    rc = report_read(c, out->out, c->has_compare ? t.compare : NULL, seen, res, out,
                     c->convert || c->fix) < 0 ? 1 : 0;
    if (rc == 0 && c->fix && out->exit_code == 0)
      rc = fix_after(c, mdlcheck, &t, argv, argc_opts);
  }
  if (rc == 1 && out->err[0])
    fprintf(stderr, "mdlcheck's stderr:\n%s", out->err);
done:
  tmp_remove(&t);
  return rc;
}

void cli_outcome_free(struct cli_outcome *out)
{
  free(out->out);
  free(out->err);
  out->out = out->err = NULL;
}

unsigned check_exit(struct conf_case *c, const struct cli_outcome *out)
{
  if (!c->has_exit || out->exit_code == c->exit_code)
    return 0;
  fprintf(stderr, "%s:%d: FAIL: mdlcheck exited with %d, expected %d\n", c->file, c->exit_line,
          out->exit_code, c->exit_code);
  return 1;
}
