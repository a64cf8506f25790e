/* optdoc.c - from validator/core/options.def (the table --help is printed from): the README's
 * usage block and option table, the man page's SYNOPSIS and OPTIONS, and the bash and zsh
 * completions, so none of them can drift from what the parser accepts.
 *
 *   optdoc --check FILE...   exit 1 naming each generated block of FILE that is stale
 *   optdoc --update FILE...  rewrite those blocks in place (make update-docs)
 *   optdoc --bash | --zsh    print a completion script
 *
 * A block is the lines between a line holding "options:NAME begin" and one holding
 * "options:NAME end"; NAME is usage, table (README), synopsis or options (man page). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h" /* setting_expand: the format registry's names */

struct command {
  const char *name, *synopsis, *summary;
};
struct option_doc {
  char short_name;
  const char *name, *arg, *values, *commands, *config, *setting, *python, *js, *help, *doc;
};

static const struct command commands[] = {
#define COMMAND(name, synopsis, summary) {#name, synopsis, summary},
#define OPTION(id, short, long, arg, values, commands, config, setting, python, js, parse, help, doc)
#include "options.def"
#undef OPTION
#undef COMMAND
};
static struct option_doc options[] = {
#define COMMAND(name, synopsis, summary)
#define OPTION(id, short, long, arg, values, commands, config, setting, python, js, parse, help, doc) \
  {short, long, arg, values, commands, config, setting, python, js, help, doc},
#include "options.def"
#undef OPTION
#undef COMMAND
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])
#define NOPTIONS (sizeof options / sizeof options[0])

/* A growing string: the generated text of one block. */
struct text {
  char *s;
  size_t n, cap;
};

static void put(struct text *t, const char *s, size_t n)
{
  if (t->n + n + 1 > t->cap) {
    t->cap = (t->n + n + 1) * 2;
    if (!(t->s = realloc(t->s, t->cap))) {
      perror("optdoc");
      exit(2);
    }
  }
  memcpy(t->s + t->n, s, n);
  t->n += n;
  t->s[t->n] = 0;
}

static void puts_(struct text *t, const char *s) { put(t, s, strlen(s)); }

static void putf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct text *t, const char *fmt, ...)
{
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  puts_(t, line);
}

/* roff: '-' is a hyphen unless escaped, '\' starts an escape; `x` is bold. */
static void roff(struct text *t, const char *s)
{
  int bold = 0;
  for (; *s; s++) {
    if (*s == '-')
      puts_(t, "\\-");
    else if (*s == '\\')
      puts_(t, "\\e");
    else if (*s == '`')
      /* roff \% before a word: never hyphenated (inside one it would be a break point) */
      puts_(t, (bold = !bold) ? (t->n && t->s[t->n - 1] != ' ' ? "\\fB" : "\\fB\\%") : "\\fR");
    else
      put(t, s, 1);
  }
}

/* Markdown table cell: '|' must be escaped even inside a code span. */
static void markdown_cell(struct text *t, const char *s)
{
  for (; *s; s++)
    puts_(t, *s == '|' ? "\\|" : (char[]){*s, 0});
}

/* An argument written "[ARG]" is optional: spelt --name[=ARG]. */
static int arg_optional(const struct option_doc *o)
{
  return o->arg && o->arg[0] == '[';
}

static void option_spelling(struct text *t, const struct option_doc *o)
{
  char s[128];
  const char *eq = !o->arg ? "" : arg_optional(o) ? "[=" : "=";
  const char *arg = !o->arg ? "" : arg_optional(o) ? o->arg + 1 : o->arg;
  if (o->short_name)
    snprintf(s, sizeof s, "-%c, --%s%s%s", o->short_name, o->name, eq, arg);
  else
    snprintf(s, sizeof s, "--%s%s%s", o->name, eq, arg);
  puts_(t, s);
}

static void readme_usage(struct text *t)
{
  puts_(t, "```\n");
  for (size_t i = 0; i < NCOMMANDS; i++) {
    char line[256];
    int n = snprintf(line, sizeof line, "mdlcheck %s", commands[i].synopsis);
    puts_(t, line);
    snprintf(line, sizeof line, "%*s%s\n", n < 50 ? 51 - n : 3, "", commands[i].summary);
    puts_(t, line);
  }
  puts_(t, "```\n");
}

static void readme_table(struct text *t)
{
  puts_(t, "| option | meaning |\n|---|---|\n");
  for (size_t i = 0; i < NOPTIONS; i++) {
    struct text spelling = {0};
    option_spelling(&spelling, &options[i]);
    puts_(t, "| `");
    markdown_cell(t, spelling.s);
    puts_(t, "` | ");
    markdown_cell(t, options[i].doc);
    puts_(t, " |\n");
    free(spelling.s);
  }
}

/* A synopsis word: literal (bold) unless it is a placeholder (italic): "options", or a word
 * from an upper-case letter. Brackets, bars, commas, '=' and "..." stay roman. */
static void man_synopsis_line(struct text *t, const char *syn)
{
  puts_(t, "\\fBmdlcheck\\fR ");
  while (*syn) {
    size_t n = strcspn(syn, "[]|, =");
    if (n == 0 || !strncmp(syn, "...", 3)) {
      n = !strncmp(syn, "...", 3) ? 3 : 1;
      put(t, syn, n);
      syn += n;
      continue;
    }
    if (n >= 3 && !strncmp(syn + n - 3, "...", 3))
      n -= 3; /* FILE... : the dots are roman */
    {
      char word[128];
      snprintf(word, sizeof word, "%.*s", (int)n, syn);
      puts_(t, (word[0] >= 'A' && word[0] <= 'Z') || !strcmp(word, "options") ? "\\fI" : "\\fB");
      roff(t, word);
      puts_(t, "\\fR");
    }
    syn += n;
  }
  puts_(t, "\n");
}

static void man_synopsis(struct text *t)
{
  puts_(t, ".nh\n.ad l\n");
  for (size_t i = 0; i < NCOMMANDS; i++) {
    if (i)
      puts_(t, ".br\n");
    man_synopsis_line(t, commands[i].synopsis);
  }
  puts_(t, ".ad\n.hy\n");
}

static void man_options(struct text *t)
{
  for (size_t i = 0; i < NOPTIONS; i++) {
    const struct option_doc *o = &options[i];
    size_t len = strlen(o->doc);
    puts_(t, ".TP\n");
    if (o->short_name)
      putf(t, "\\fB\\-%s\\fR, ", (char[]){o->short_name, 0});
    puts_(t, "\\fB\\-\\-");
    roff(t, o->name);
    puts_(t, "\\fR");
    if (o->arg) {
      puts_(t, arg_optional(o) ? "[=\\fI" : "=\\fI");
      roff(t, arg_optional(o) ? o->arg + 1 : o->arg);
      puts_(t, "\\fR");
    }
    puts_(t, "\n");
    if (o->doc[0] == '.' || o->doc[0] == '\'')
      puts_(t, "\\&");
    /* a sentence in the man page: capitalised, with its full stop */
    if (o->doc[0] >= 'a' && o->doc[0] <= 'z') {
      put(t, (char[]){(char)(o->doc[0] - 'a' + 'A')}, 1);
      roff(t, o->doc + 1);
    } else {
      roff(t, o->doc);
    }
    puts_(t, len && o->doc[len - 1] == '.' ? "\n" : ".\n");
  }
}

/* The argument of an option is a file when its name says so. */
static int takes_file(const struct option_doc *o)
{
  return o->arg && (strstr(o->arg, "FILE") || strstr(o->arg, ".json"));
}

static void bash_completion(struct text *t)
{
  puts_(t, "# bash completion for mdlcheck, generated from validator/core/options.def by doc/optdoc.\n"
           "_mdlcheck()\n{\n"
           "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
           "  # --opt=value arrives as three words (COMP_WORDBREAKS holds '=')\n"
           "  if [ \"$cur\" = = ]; then\n"
           "    cur=\n"
           "  elif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -ge 2 ]; then\n"
           "    prev=${COMP_WORDS[COMP_CWORD-2]}\n"
           "  fi\n"
           "  case $prev in\n");
  for (size_t i = 0; i < NOPTIONS; i++) {
    const struct option_doc *o = &options[i];
    if (!o->arg || (!o->values[0] && !takes_file(o)))
      continue;
    puts_(t, "  ");
    if (o->short_name)
      putf(t, "-%s|", (char[]){o->short_name, 0});
    putf(t, "--%s)\n", o->name);
    if (o->values[0])
      putf(t, "    COMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n    return ;;\n", o->values);
    else
      puts_(t, "    COMPREPLY=($(compgen -f -- \"$cur\"))\n    return ;;\n");
  }
  {
    int any = 0; /* a value no list can offer (a number, a pattern): offer nothing */
    for (size_t i = 0; i < NOPTIONS; i++) {
      const struct option_doc *o = &options[i];
      if (!o->arg || o->values[0] || takes_file(o))
        continue;
      puts_(t, any++ ? "|" : "  ");
      if (o->short_name)
        putf(t, "-%c|", o->short_name);
      putf(t, "--%s", o->name);
    }
    if (any)
      puts_(t, ")\n    COMPREPLY=()\n    return ;;\n");
  }
  puts_(t, "  esac\n  case $cur in\n  -*)\n    COMPREPLY=($(compgen -W '");
  for (size_t i = 0; i < NOPTIONS; i++) {
    if (options[i].short_name)
      putf(t, "-%s ", (char[]){options[i].short_name, 0});
    putf(t, "--%s%s", options[i].name, i + 1 < NOPTIONS ? " " : "");
  }
  puts_(t, "' -- \"$cur\"))\n    return ;;\n  esac\n"
           "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
           "    COMPREPLY=($(compgen -W '");
  for (size_t i = 0; i < NCOMMANDS; i++)
    putf(t, "%s%s", commands[i].name, i + 1 < NCOMMANDS ? " " : "");
  puts_(t, "' -- \"$cur\") $(compgen -f -- \"$cur\"))\n"
           "  else\n"
           "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
           "  fi\n"
           "}\n"
           "complete -o filenames -F _mdlcheck mdlcheck\n");
}

/* zsh: a quote ends the single-quoted spec; the characters in `special` are its syntax there
 * (']' inside [explanation], ':' inside a message). */
static void zsh_text(struct text *t, const char *s, const char *special)
{
  for (; *s; s++) {
    if (*s == '\'')
      puts_(t, "'\\''");
    else if (strchr(special, *s))
      putf(t, "\\%c", *s);
    else
      put(t, s, 1);
  }
}

static void zsh_completion(struct text *t)
{
  puts_(t, "#compdef mdlcheck\n"
           "# zsh completion for mdlcheck, generated from validator/core/options.def by doc/optdoc.\n"
           "local -a mdlcheck_commands  # not commands: zsh/parameter owns that name\nmdlcheck_commands=(\n");
  for (size_t i = 0; i < NCOMMANDS; i++) {
    puts_(t, "  '");
    zsh_text(t, commands[i].name, ":");
    puts_(t, ":");
    zsh_text(t, commands[i].summary, "");
    puts_(t, "'\n");
  }
  puts_(t, ")\nlocal curcontext=\"$curcontext\" state line ret=1\ntypeset -A opt_args\n"
           "_arguments -C -s -S \\\n");
  for (size_t i = 0; i < NOPTIONS; i++) {
    const struct option_doc *o = &options[i];
    puts_(t, "  ");
    if (o->short_name)
      putf(t, "'(-%s --%s)'{", (char[]){o->short_name, 0}, o->name);
    if (o->short_name)
      putf(t, "-%s%s,", (char[]){o->short_name, 0}, o->arg ? "+" : "");
    putf(t, "%s--%s", o->short_name ? "" : "'", o->name);
    puts_(t, o->arg ? "=" : "");
    puts_(t, o->short_name ? "}'[" : "[");
    zsh_text(t, o->help, "[]");
    puts_(t, "]");
    if (o->arg) {
      puts_(t, ":");
      zsh_text(t, o->arg, ":");
      if (o->values[0])
        putf(t, ":(%s)", o->values);
      else
        puts_(t, takes_file(o) ? ":_files" : ": ");
    }
    puts_(t, "' \\\n");
  }
  /* the first word is a subcommand or already a file; _describe is called here, not as an
   * _alternative action, which would hand it options it does not take */
  puts_(t, "  '1: :->first' \\\n"
           "  '*:file:_files' && ret=0\n"
           "if [[ $state == first ]]; then\n"
           "  _describe -t commands 'mdlcheck command' mdlcheck_commands && ret=0\n"
           "  _files && ret=0\n"
           "fi\n"
           "return ret\n");
}

/* One option under every face's name: the command line, the configuration file, the library's
 * key=value settings, Python's keyword and JavaScript's option, and the subcommands taking it. */
static void faces_table(struct text *t)
{
  puts_(t, "| option | configuration | library | Python | JavaScript | subcommands |\n"
           "|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < NOPTIONS; i++) {
    const struct option_doc *o = &options[i];
    const char *cells[] = {o->config, o->setting, o->python, o->js};
    if (!o->config && !o->setting)
      continue; /* the tool's alone: the table above */
    putf(t, "| `--%s` |", o->name);
    for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++)
      putf(t, cells[k] ? " `%s` |" : " - |", cells[k] ? cells[k] : "");
    putf(t, " %s |\n", o->commands);
  }
}

static void block_text(struct text *t, const char *name)
{
  if (!strcmp(name, "faces"))
    faces_table(t);
  else
  if (!strcmp(name, "usage"))
    readme_usage(t);
  else if (!strcmp(name, "table"))
    readme_table(t);
  else if (!strcmp(name, "synopsis"))
    man_synopsis(t);
  else if (!strcmp(name, "options"))
    man_options(t);
}

static char *read_all(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  struct text t = {0};
  char buf[65536];
  size_t n;
  if (!f) {
    perror(path);
    exit(2);
  }
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    put(&t, buf, n);
  fclose(f);
  *size = t.n;
  return t.s ? t.s : calloc(1, 1);
}

/* Rebuild path's text with every block regenerated; return the number of stale blocks, or -1
 * when a block is unterminated or unknown. */
static int regenerate(const char *path, struct text *out)
{
  size_t size;
  char *text = read_all(path, &size), *p = text;
  int stale = 0, blocks = 0;
  while (*p) {
    char *eol = strchr(p, '\n'), *mark, name[32], end[48], *q;
    struct text fresh = {0};
    eol = eol ? eol + 1 : p + strlen(p);
    put(out, p, (size_t)(eol - p));
    mark = strstr(p, "options:");
    if (!mark || mark > eol || sscanf(mark, "options:%31[a-z] begin", name) != 1 ||
        !strstr(mark, " begin") || strstr(mark, " begin") > eol) {
      p = eol;
      continue;
    }
    block_text(&fresh, name);
    if (!fresh.n) {
      fprintf(stderr, "%s: unknown generated block options:%s\n", path, name);
      return -1;
    }
    snprintf(end, sizeof end, "options:%s end", name);
    if (!(q = strstr(eol, end))) {
      fprintf(stderr, "%s: options:%s begin has no end\n", path, name);
      return -1;
    }
    while (q > eol && q[-1] != '\n')
      q--;
    blocks++;
    if ((size_t)(q - eol) != fresh.n || memcmp(eol, fresh.s, fresh.n)) {
      fprintf(stderr, "%s: the options:%s block is stale (run: make update-docs)\n", path, name);
      stale++;
    }
    put(out, fresh.s, fresh.n);
    free(fresh.s);
    p = q;
  }
  free(text);
  if (!blocks) {
    fprintf(stderr, "%s: no generated options block\n", path);
    return -1;
  }
  return stale;
}

/* The table names no format: "@formats", "@profiles" and "@profile-docs" become what the format
 * registry says (the library's setting_expand), as --help prints them. */
static const char *expanded(const char *text, const char *sep, int code)
{
  char buf[4096];
  char *copy;
  if (!strchr(text, '@'))
    return text;
  setting_expand(text, sep, code, buf, sizeof buf);
  if (!(copy = strdup(buf))) {
    perror("optdoc");
    exit(2);
  }
  return copy;
}

int main(int argc, char **argv)
{
  struct text t = {0};
  int rc = 0;
  for (size_t i = 0; i < NOPTIONS; i++) {
    options[i].values = expanded(options[i].values, " ", 0);
    options[i].help = expanded(options[i].help, ", ", 0);
    options[i].doc = expanded(options[i].doc, ", ", 1);
  }
  if (argc == 2 && (!strcmp(argv[1], "--bash") || !strcmp(argv[1], "--zsh"))) {
    (argv[1][2] == 'b' ? bash_completion : zsh_completion)(&t);
    fputs(t.s, stdout);
    free(t.s);
    return fflush(stdout) ? 2 : 0;
  }
  if (argc < 3 || (strcmp(argv[1], "--check") && strcmp(argv[1], "--update"))) {
    fputs("usage: optdoc --check|--update FILE... | --bash | --zsh\n", stderr);
    return 2;
  }
  for (int i = 2; i < argc; i++) {
    int stale;
    t.n = 0;
    stale = regenerate(argv[i], &t);
    if (stale < 0)
      return 2;
    if (stale && argv[1][2] == 'u') {
      FILE *f = fopen(argv[i], "wb");
      if (!f || fwrite(t.s, 1, t.n, f) != t.n || fclose(f)) {
        perror(argv[i]);
        return 2;
      }
      fprintf(stderr, "%s: updated\n", argv[i]);
    } else if (stale) {
      rc = 1;
    }
  }
  free(t.s);
  return rc;
}
