/* cli_options.c - the option parsing every subcommand shares. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cache.h"
#include "input.h"
#include "format.h"
#include "grow.h"
#include "oom.h"
#include "settings.h"
#include "shard.h"
#include "text_safe.h"

void cli_usage(FILE *out)
{
  static const struct {
    const char *synopsis, *summary;
  } commands[] = {
#define COMMAND(name, synopsis, summary) {synopsis, summary},
#define OPTION(id, short, long, arg, values, commands, config, setting, python, js, parse, help, doc)
#include "options.def"
#undef OPTION
#undef COMMAND
  };
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    text_printf(out, "%s mdlcheck %s\n", i ? "      " : "usage:", commands[i].synopsis);
    text_printf(out, "           %s\n", commands[i].summary);
  }
  fputs("\noptions:\n", out);
  for (size_t i = 0; i < SETTING_COUNT; i++) {
    char left[64], help[512];
    const struct setting_def *o = &setting_table[i];
    int optional = o->arg && o->arg[0] == '['; /* "[ARG]": spelt --name[=ARG] */
    const char *eq = !o->arg ? "" : optional ? "[=" : "=";
    const char *arg = !o->arg ? "" : optional ? o->arg + 1 : o->arg;
    if (o->short_name)
      snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name, eq, arg);
    else
      snprintf(left, sizeof left, "    --%s%s%s", o->name, eq, arg);
    setting_expand(o->help, ", ", 0, help, sizeof help); /* the registry's formats, profiles */
    text_printf(out, "  %-28s  %s\n", left, help);
  }
  fputs("\nexit codes: 0 valid, 1 some input invalid, 2 usage or configuration error,\n"
        "            3 input could not be read, 70 internal error\n",
        out);
}

/* Edit distance (Levenshtein) of two short words, for "did you mean". */
size_t cli_word_distance(const char *a, const char *b)
{
  size_t row[32], lb = strlen(b);
  if (lb >= sizeof row / sizeof row[0])
    return (size_t)-1;
  for (size_t k = 0; k <= lb; k++)
    row[k] = k;
  for (size_t i = 1; a[i - 1]; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t k = 1; k <= lb; k++) {
      size_t up = row[k], best = diag + (a[i - 1] != b[k - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[k - 1] + 1 < best)
        best = row[k - 1] + 1;
      diag = up;
      row[k] = best;
    }
  }
  return row[lb];
}

static int usage_error(const char *what, const char *arg)
{
  text_printf(stderr, "mdlcheck: %s%s%s\n(try 'mdlcheck --help')\n", what, arg ? ": " : "", arg ? arg : "");
  return EXIT_USAGE;
}

/* The option most like the word `given` (without its dashes and any "=value"), or NULL when
 * none is near enough to be a typo. */
static const struct setting_def *nearest_option(const char *given)
{
  char word[40];
  const struct setting_def *near = NULL;
  size_t best = (size_t)-1, n = strcspn(given, "=");
  if (n >= sizeof word)
    return NULL;
  memcpy(word, given, n);
  word[n] = 0;
  for (size_t i = 0; i < SETTING_COUNT; i++) {
    size_t d = cli_word_distance(word, setting_table[i].name);
    if (d < best) {
      best = d;
      near = &setting_table[i];
    }
  }
  /* a third of the word's letters wrong is still a typo; more is another word */
  return near && best <= (n < 6 ? 1 : n / 3 + 1) ? near : NULL;
}

/* What getopt_long refused (opterr is 0, so it printed nothing): an unknown option, a missing
 * argument, or an argument given to an option that takes none. Returns EXIT_USAGE. */
static int option_trouble(int opt, int argc, char **argv)
{
  const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "";
  const struct setting_def *o = NULL;
  char what[200];
  for (size_t i = 0; i < SETTING_COUNT; i++)
    if (optopt && ((int)setting_table[i].id == optopt || setting_table[i].short_name == optopt))
      o = &setting_table[i];
  if (opt == ':' && o) {
    if (o->short_name)
      snprintf(what, sizeof what, "-%c/--%s needs a value (%s)", o->short_name, o->name, o->arg);
    else
      snprintf(what, sizeof what, "--%s needs a value (%s)", o->name, o->arg);
    return usage_error(what, NULL);
  }
  if (o && !o->arg && word[0] == '-' && word[1] == '-' && strchr(word, '=')) {
    snprintf(what, sizeof what, "--%s takes no value", o->name);
    return usage_error(what, word);
  }
  if (optopt && optopt < OPT_NONE && !o) {
    snprintf(what, sizeof what, "unknown option '-%c'", optopt);
    return usage_error(what, NULL);
  }
  if (word[0] == '-' && word[1] == '-') {
    const struct setting_def *near = nearest_option(word + 2);
    size_t n = strcspn(word, "=");
    int matches = 0; /* getopt_long takes unique prefixes: --form is --format */
    for (size_t i = 0; i < SETTING_COUNT; i++)
      matches += !strncmp(setting_table[i].name, word + 2, n - 2);
    if (matches > 1)
      snprintf(what, sizeof what, "ambiguous option '%.*s' (%d options begin so)", (int)n, word,
               matches);
    else if (near)
      snprintf(what, sizeof what, "unknown option '%.*s'; did you mean '--%s'?", (int)n, word,
               near->name);
    else
      snprintf(what, sizeof what, "unknown option '%.*s'", (int)n, word);
    return usage_error(what, NULL);
  }
  return usage_error("bad option", word[0] ? word : NULL);
}

/* The report formats each subcommand writes; any other is refused rather than printed as text. */
static int output_check(const struct cli *c)
{
  static const struct {
    const char *command;
    unsigned formats; /* bit per enum output_format */
  } allowed[] = {
    {"validate", 1u << OUT_TEXT | 1u << OUT_JSON | 1u << OUT_SARIF | 1u << OUT_GITHUB},
    {"poses", 1u << OUT_TEXT | 1u << OUT_JSON},
    {"rules", 1u << OUT_TEXT | 1u << OUT_JSON},
    {"diff", 1u << OUT_TEXT | 1u << OUT_JSON | 1u << OUT_MARKDOWN},
    {"compare", 1u << OUT_TEXT | 1u << OUT_JSON | 1u << OUT_SARIF | 1u << OUT_GITHUB},
    {"convert", 1u << OUT_TEXT | 1u << OUT_JSON | 1u << OUT_SARIF | 1u << OUT_GITHUB},
    {"fix", 1u << OUT_TEXT | 1u << OUT_JSON | 1u << OUT_SARIF | 1u << OUT_GITHUB},
    {"explain", 1u << OUT_TEXT}, /* the catalogue as JSON: rules --format=json */
    {"targets", 1u << OUT_TEXT | 1u << OUT_JSON},
  };
  static const char *const names[] = {"text", "json", "sarif", "github", "markdown"};
  const char *command = c->list_rules ? "rules" : c->command;
  for (size_t i = 0; command && i < sizeof allowed / sizeof allowed[0]; i++) {
    char what[160], *w = what;
    if (strcmp(allowed[i].command, command) || (allowed[i].formats >> c->output & 1u))
      continue;
    w += snprintf(what, sizeof what, "%s does not write this report format (it writes", command);
    for (unsigned f = 0, n = 0; f < sizeof names / sizeof names[0]; f++)
      if (allowed[i].formats >> f & 1u)
        w += snprintf(w, sizeof what - (size_t)(w - what), "%s %s", n++ ? "," : "", names[f]);
    snprintf(w, sizeof what - (size_t)(w - what), ")");
    return usage_error(what, names[c->output]);
  }
  return 0;
}

static void print_config_diag(const mdl_diag *d, void *user)
{
  const char *path = user;
  text_printf(stderr, "%s:%u:%u: %s[%s]: %s\n", path, d->line, d->column,
          mdl_severity_name(d->severity), d->rule->id, d->message);
}

/* The config file is applied first; command-line options then override it. */
static int load_config(struct cli *c)
{
  int errors = config_load(&c->config, c->config_path, print_config_diag, (void *)c->config_path);
  if (errors < 0) {
    char why[128];
    text_printf(stderr, "mdlcheck: cannot read configuration %s: %s\n", c->config_path,
                input_error_text(c->config.read_error, 0, why, sizeof why));
    return EXIT_USAGE; /* a configuration error (README: exit codes); 3 means an unreadable input */
  }
  if (errors > 0)
    return EXIT_USAGE;
  return 0;
}

/* getopt's tables from the option table: every option returns its OPT_ id, short or long. */
static void getopt_tables(struct option *longopts, char *shortopts)
{
  *shortopts++ = ':'; /* a missing argument returns ':', not '?' (option_trouble says which) */
  for (size_t i = 0; i < SETTING_COUNT; i++) {
    longopts[i].name = setting_table[i].name;
    /* an argument written "[...]" is optional (--resources[=DIRS]) */
    longopts[i].has_arg = !setting_table[i].arg ? no_argument
                          : setting_table[i].arg[0] == '[' ? optional_argument : required_argument;
    longopts[i].flag = NULL;
    longopts[i].val = setting_table[i].id;
    if (setting_table[i].short_name) {
      *shortopts++ = setting_table[i].short_name;
      if (setting_table[i].arg)
        *shortopts++ = ':';
    }
    /* --version=V is read to refuse convert's former spelling with a pointer to the new one */
    if (setting_table[i].id == OPT_VERSION)
      longopts[i].has_arg = optional_argument;
  }
  memset(&longopts[SETTING_COUNT], 0, sizeof longopts[SETTING_COUNT]);
  *shortopts = 0;
}

static int option_id(int opt)
{
  for (size_t i = 0; opt > 0 && opt < OPT_NONE && i < SETTING_COUNT; i++)
    if (setting_table[i].short_name == opt)
      return setting_table[i].id;
  return opt;
}

/* Append a checked target list to c->targets (repeats add up). */
static int targets_add(struct cli *c, const char *list)
{
  size_t len = c->targets ? strlen(c->targets) : 0;
  char *n = realloc(c->targets, len + strlen(list) + 2);
  if (!n)
    oom_exit();
  sprintf(n + len, "%s%s", len ? "," : "", list);
  c->targets = n;
  return 0;
}

/* An option's value through the parser every face shares (core/settings.c): 0, or the usage
 * error (exit 2) with its reason. */
static int option_value(int id, const char *arg, mdl_policy *policy, struct setting_value *v)
{
  const struct setting_def *d = setting_by_id((enum option_id)id);
  char spelt[64], why[400];
  int rc;
  snprintf(spelt, sizeof spelt, "--%s", d->name);
  rc = setting_parse_value(d, spelt, arg ? arg : "", policy, v, why, sizeof why);
  if (rc == -2)
    oom_exit();
  return rc < 0 ? usage_error(why, NULL) : 0;
}

/* An option given to a subcommand that does not take it (options.def's commands). */
static int option_scope(int id, const char *command)
{
  const struct setting_def *d = setting_by_id((enum option_id)id);
  char what[120];
  if (!d || setting_for_command(d, command ? command : "validate"))
    return 0;
  snprintf(what, sizeof what, "--%s is for %s", d->name, d->commands);
  return usage_error(what, optarg);
}

int cli_parse(struct cli *c, int argc, char **argv)
{
  const char *command = c->command;
  int converting = command && !strcmp(command, "convert");
  struct option opts[SETTING_COUNT + 1];
  char shortopts[2 * SETTING_COUNT + 2];
  int opt, rc, no_config = 0, verbose = 0, help_or_version = 0;
  int set_max_issues = 0, set_max_per_rule = 0, set_fail_on = 0, set_strict = 0, set_max_memory = 0;
  const char *profile = NULL, *version_arg = NULL, *shard = NULL;
  int want_version = 0, no_cache = 0;
  char **first;

  getopt_tables(opts, shortopts);
  memset(c, 0, sizeof *c);
  c->command = command;
  c->argc = argc;
  c->argv = argv;
  mdl_options_init(&c->lib);
  config_init(&c->config);
  c->policy = mdl_policy_new();
  c->fail_on = MDL_ERROR;
  c->lib.max_per_rule = MDL_DEFAULT_MAX_PER_RULE;
  if (!c->policy)
    oom_exit();

  /* First pass: only --config, so the file is applied before the options that override it.
   * It reads a copy: getopt_long permutes what it reads, and with `FILE -o` (no value) the
   * first pass would move FILE behind -o for the second to take as -o's value. */
  /* optind = 0 makes glibc reinitialise fully (ordering and permutation state) between passes */
  first = malloc(((size_t)argc + 1) * sizeof *first);
  if (!first)
    oom_exit();
  memcpy(first, argv, ((size_t)argc + 1) * sizeof *first);
  opterr = 0;
  optind = 0;
  while ((opt = getopt_long(argc, first, shortopts, opts, NULL)) != -1) {
    opt = option_id(opt);
    if (opt == OPT_CONFIG)
      c->config_path = optarg;
    no_config |= opt == OPT_NO_CONFIG;
    verbose |= opt == OPT_VERBOSE;
    /* --help and --version answer whatever configuration lies around */
    help_or_version |= opt == OPT_HELP || (opt == OPT_VERSION && !converting);
  }
  free(first);
  if (!help_or_version && (rc = config_choose(c, no_config, verbose)) != 0)
    return rc;
  if (help_or_version)
    c->config_path = NULL;
  if (c->config_path && (rc = load_config(c)) != 0)
    return rc;
  if (c->config.policy) {
    mdl_policy_free(c->policy);
    c->policy = c->config.policy;
    c->config.policy = NULL;
  }

  opterr = 0; /* option_trouble says what went wrong, under one program name */
  optind = 0;
  while ((opt = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
    struct setting_value v;
    opt = option_id(opt);
    if ((rc = option_scope(opt, command)) != 0)
      return rc;
    /* the value of an option the library reads too: the one parser (a usage error here) */
    if (opt > OPT_NONE && opt < OPT_END && setting_by_id((enum option_id)opt)->arg &&
        (rc = option_value(opt, optarg, c->policy, &v)) != 0)
      return rc;
    switch (opt) {
    case OPT_FORMAT:
      if (!strcmp(optarg, "text"))
        c->output = OUT_TEXT;
      else if (!strcmp(optarg, "json"))
        c->output = OUT_JSON;
      else if (!strcmp(optarg, "sarif"))
        c->output = OUT_SARIF;
      else if (!strcmp(optarg, "github"))
        c->output = OUT_GITHUB;
      else if (!strcmp(optarg, "markdown"))
        c->output = OUT_MARKDOWN; /* diff's; output_check refuses it elsewhere */
      else
        return usage_error("unknown report format (text, json, sarif, github, markdown)", optarg);
      break;
    case OPT_OUTPUT:
      /* `-o -f json` would write the report to a file named "-f": an option word is no FILE */
      if (optarg[0] == '-' && optarg[1])
        return usage_error("-o/--output needs a FILE; the next word is an option", optarg);
      /* `-o a.iqm b.iqm` would overwrite the model a.iqm with b.iqm's report */
      if (format_by_extension(optarg) && access(optarg, F_OK) == 0)
        return usage_error("-o/--output would overwrite a model file with the report", optarg);
      c->output_path = optarg;
      break;
    case OPT_QUIET: c->quiet = 1; break;
    case OPT_COLOR:
      if (!optarg || !strcmp(optarg, "always"))
        c->color = COLOR_ALWAYS; /* --color alone, as ls and grep read it */
      else if (!strcmp(optarg, "auto"))
        c->color = COLOR_AUTO;
      else if (!strcmp(optarg, "never"))
        c->color = COLOR_NEVER;
      else
        return usage_error("--color takes auto, always or never", optarg);
      break;
    case OPT_JOBS: {
      char *end;
      unsigned long j = optarg[0] >= '0' && optarg[0] <= '9' ? strtoul(optarg, &end, 10) : 0;
      if (j < 1 || *end)
        return usage_error("-j takes a number of jobs from 1 to 64", optarg);
      if (j > CLI_MAX_JOBS) {
        text_printf(stderr, "mdlcheck: note: -j %s is more than %d; using %d jobs\n", optarg,
                CLI_MAX_JOBS, CLI_MAX_JOBS);
        j = CLI_MAX_JOBS;
      }
      c->jobs = (unsigned)j;
      break;
    }
    case OPT_HELP: cli_usage(stdout); return -1;
    case OPT_ASSUME: c->lib.assume_format = optarg; break;
    case OPT_CONFIG:
    case OPT_NO_CONFIG:
      break; /* read by the first pass */
    case OPT_VERBOSE: c->verbose = 1; break;
    case OPT_SHARD: shard = optarg; break;
    case OPT_TARGET_VERSION:
      c->version = optarg;
      break;
    case OPT_BASELINE: c->baseline_path = optarg; break;
    case OPT_CACHE: c->cache_dir = optarg; break;
    case OPT_NO_CACHE: no_cache = 1; break;
    case OPT_CACHE_MAX_SIZE: c->cache_max = v.size; break;
    case OPT_ALLOW_EMPTY: c->allow_empty = 1; break;
    case OPT_RESOURCES: c->lib.resources = optarg ? optarg : ""; break;
    case OPT_UNREFERENCED: c->unreferenced = 1; break;
    case OPT_FOLLOW_LINKS: c->follow_links = 1; break;
    case OPT_MAX_ISSUES: c->lib.max_issues = v.count; set_max_issues = 1; break;
    case OPT_MAX_INPUT_SIZE: c->lib.max_input_size = v.size; break;
    case OPT_MAX_MEMORY: c->lib.max_memory = v.size; set_max_memory = 1; break;
    case OPT_MAX_PER_RULE: c->lib.max_per_rule = v.count; set_max_per_rule = 1; break;
    case OPT_FAIL_ON: c->fail_on = v.severity; set_fail_on = 1; break;
    case OPT_IGNORE:
    case OPT_ONLY:
    case OPT_SEVERITY:
      break; /* applied to the policy by the parser */
    case OPT_STRICT: c->lib.strict = 1; set_strict = 1; break;
    case OPT_PROFILE: profile = optarg; break;
    case OPT_TARGET: targets_add(c, optarg); break;
    case OPT_LIST_RULES: c->list_rules = 1; break;
    case OPT_X42_LAYOUT: c->lib.layout_file = optarg; break;
    case OPT_DRY_RUN:
      if (!command || strcmp(command, "fix"))
        return usage_error("--dry-run is for fix", NULL);
      c->dry_run = 1;
      break;
    case OPT_ACCEPT_LOSS:
      /* RULE,...: each must name a catalogued rule (its id or former id) */
      c->accept_loss = optarg;
      for (const char *p = optarg; *p;) {
        char id[64];
        size_t n = strcspn(p, ",");
        snprintf(id, sizeof id, "%.*s", (int)(n < sizeof id - 1 ? n : sizeof id - 1), p);
        if (!mdl_rule_find(id))
          return usage_error("--accept-loss names no catalogued rule", id);
        p += n + (p[n] == ',');
      }
      break;
    case OPT_VERSION:
      if (!converting) {
        text_printf(stdout, "mdlcheck %s\n", MDL_VERSION_STRING);
        return -1;
      }
      want_version = 1; /* convert: its former --version V is told apart below */
      version_arg = optarg;
      break;
    default:
      return option_trouble(opt, argc, argv);
    }
  }
  if (!set_max_issues && c->config.max_issues)
    c->lib.max_issues = c->config.max_issues;
  if (!c->lib.max_input_size && c->config.max_input_size)
    c->lib.max_input_size = c->config.max_input_size;
  if (!set_max_memory && c->config.max_memory_set)
    c->lib.max_memory = c->config.max_memory;
  if (!set_max_per_rule && c->config.max_per_rule)
    c->lib.max_per_rule = c->config.max_per_rule;
  if (!set_fail_on && c->config.fail_on >= 0)
    c->fail_on = (mdl_severity)c->config.fail_on;
  if (!set_strict && c->config.strict > 0)
    c->lib.strict = 1;
  if (!profile && c->config.profile[0])
    profile = c->config.profile;
  if (c->config.allow_empty > 0)
    c->allow_empty = 1;
  if (!c->lib.resources && c->config.resources)
    c->lib.resources = c->config.resources;
  if (!c->cache_dir && c->config.cache[0])
    c->cache_dir = c->config.cache;
  if (!c->lib.layout_file) { /* the tool reads the environment; the library does not */
    const char *env = getenv("MDLCHECK_X42_LAYOUT");
    c->lib.layout_file = env && *env ? env : NULL;
  }
  if (!c->cache_max && c->config.cache_max_size)
    c->cache_max = c->config.cache_max_size;
  if (no_cache)
    c->cache_dir = NULL;
  if (c->unreferenced && !c->lib.resources)
    return usage_error("--unreferenced needs --resources (or resources: in the configuration)", NULL);
  c->lib.profile = profile;
  c->lib.policy = c->policy;
  if (!c->targets && c->config.targets)
    targets_add(c, c->config.targets); /* checked by the configuration reader */
  /* targets speak of whether a file loads: validation's question, not poses', compare's or
   * convert's (their reports carry no validation findings) */
  if (!command || !strcmp(command, "validate"))
    c->lib.targets = c->targets;
  if ((rc = output_check(c)) != 0)
    return rc;
  {
    /* typos in format options are usage errors before any file is read, not per-file fatals */
    char why[600];
    if (format_options_check(&c->lib, why, sizeof why) < 0)
      return usage_error(why, profile == c->config.profile ? "(from --config)" : NULL);
  }
  c->args = (const char **)argv + optind;
  c->nargs = argc - optind;
  if (want_version) {
    /* `convert --version 20 IN OUT` once chose the QMSH version; printing the program version
     * and exiting 0 would make such a script "succeed" without writing anything */
    if (version_arg || c->nargs > 0)
      return usage_error("convert's --version V was renamed --target-version=V "
                         "(--version alone prints the program version)", version_arg);
    text_printf(stdout, "mdlcheck %s\n", MDL_VERSION_STRING);
    return -1;
  }
  if (shard) {
    if (strcmp(command ? command : "validate", "validate") || c->list_rules)
      return usage_error("--shard is for validate", shard);
    if (shard_parse(shard, &c->shard_k, &c->shard_n) < 0)
      return usage_error("--shard takes K/N with 1 <= K <= N (e.g. 2/4)", shard);
  }
  return 0;
}

/* Options that change no file's diagnostics: what is written where, which files, how many at
 * once, the exit code's threshold, the cache itself. Any other option keys the cache. */
static int answer_neutral(int id)
{
  switch (id) {
  case OPT_FORMAT: case OPT_OUTPUT: case OPT_QUIET: case OPT_JOBS: case OPT_VERBOSE:
  case OPT_ALLOW_EMPTY: case OPT_SHARD: case OPT_BASELINE: case OPT_FAIL_ON: case OPT_CACHE:
  case OPT_NO_CACHE: case OPT_CACHE_MAX_SIZE: case OPT_CONFIG: case OPT_NO_CONFIG:
    return 1;
  default:
    return 0;
  }
}

/* A file the answer depends on: its name and its bytes (none when it cannot be read). */
static void cache_file_setting(struct cache *k, const char *name, const char *path)
{
  FILE *f = path ? fopen(path, "rb") : NULL;
  char buf[65536];
  size_t n;
  cache_setting(k, name, path, path ? strlen(path) : 0);
  while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
    cache_setting(k, "+", buf, n);
  if (f)
    fclose(f);
}

void cli_cache_settings(const struct cli *c, struct cache *k)
{
  struct option opts[SETTING_COUNT + 1];
  char shortopts[2 * SETTING_COUNT + 1];
  const char *layout = c->lib.layout_file;
  int opt;
  getopt_tables(opts, shortopts);
  cache_setting(k, "command", c->command ? c->command : "", c->command ? strlen(c->command) : 0);
  opterr = 0;
  optind = 0;
  while ((opt = getopt_long(c->argc, c->argv, shortopts, opts, NULL)) != -1) {
    char id[16];
    opt = option_id(opt);
    if (answer_neutral(opt))
      continue;
    snprintf(id, sizeof id, "option %d", opt);
    cache_setting(k, id, optarg, optarg ? strlen(optarg) : 0);
  }
  cache_file_setting(k, "configuration", c->config_path);
  cache_file_setting(k, "layout file", layout);
}

void cli_free(struct cli *c)
{
  free(c->config_found);
  mdl_policy_free(c->policy);
  config_free(&c->config);
  free(c->targets);
}

FILE *cli_open_output(const struct cli *c)
{
  FILE *out;
  if (!c->output_path)
    return stdout;
  out = fopen(c->output_path, "w");
  if (!out)
    text_printf(stderr, "mdlcheck: cannot write %s: %s\n", c->output_path, strerror(errno));
  return out;
}

unsigned cli_text_flags(const struct cli *c, FILE *out)
{
  const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
  unsigned flags = (c->quiet ? REPORT_TEXT_QUIET : 0) | (c->verbose ? REPORT_TEXT_STATS : 0);
  int to_file = c->output_path && out != stdout && out != stderr;
  int color;
  if (to_file || c->color == COLOR_NEVER)
    color = 0; /* a report file is read by tools and editors: never escape sequences */
  else if (c->color == COLOR_ALWAYS)
    color = 1;
  else /* https://no-color.org: set and not empty disables */
    color = isatty(fileno(out)) && !(no_color && no_color[0]) && !(term && !strcmp(term, "dumb"));
  return flags | (color ? REPORT_TEXT_COLOR : 0);
}

void cli_close_output(const struct cli *c, FILE *out)
{
  if (c->output_path && out)
    fclose(out);
  else
    fflush(out);
}
