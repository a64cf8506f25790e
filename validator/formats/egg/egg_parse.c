/* egg_parse.c - tokens to a tree of entries, each with its line:column, checked against the
 * grammar table as it is built. Syntax errors are located where Panda3D's LALR parser would
 * see them (the first token that cannot continue a legal entry); unlike Panda3D the parser then
 * skips to the end of the enclosing entry and goes on, so one run reports every problem. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"

struct frame {
  struct egg_node *node;
  int ctx;
  size_t vstart;     /* first of this node's values on the value stack */
  int seen_child;
  int seen_ref;      /* <VertexRef>: its <Ref> has been read */
  int seen_one;      /* <Distance>/<SwitchCondition>: their one child has been read */
  int containers;    /* groups/tables open down to here (Panda3D's stack limit) */
};

struct parser {
  struct egg_doc *doc;
  struct egg_lexer lx;
  struct egg_token tok;
  struct frame stack[EGG_MAX_DEPTH];
  unsigned depth;
  struct egg_value *vals;
  size_t nvals, capvals;
  int oom;
};

const char *egg_show(char *out, size_t cap, const char *s, size_t len)
{
  size_t n = 0;
  if (cap < 8)
    return "";
  for (size_t i = 0; i < len && n + 5 < cap; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f) {
      static const char hex[] = "0123456789abcdef";
      if (n + 9 >= cap)
        break;
      out[n++] = '\\';
      out[n++] = 'x';
      out[n++] = hex[c >> 4];
      out[n++] = hex[c & 15];
    } else {
      out[n++] = (char)c;
    }
    if (i + 1 < len && n + 5 >= cap) {
      memcpy(out + n, "...", 3);
      n += 3;
      break;
    }
  }
  out[n] = 0;
  return out;
}

static const char *tok_show(const struct egg_token *t, char *buf, size_t cap)
{
  switch (t->type) {
  case T_EOF: return "end of file";
  case T_LBRACE: return "{";
  case T_RBRACE: return "}";
  case T_KEYWORD: return egg_kw_spelling(t->kw);
  default: return egg_show(buf, cap, t->s, t->len);
  }
}

static void advance(struct parser *p) { egg_lex_next(&p->lx, &p->tok); }

static void syntax(struct parser *p, enum rule_index rule, const struct egg_token *at,
                   const char *expected)
{
  char buf[96];
  egg_emit(p->doc, rule, at->line, at->col, expected, "%s", tok_show(at, buf, sizeof buf));
  if (!p->doc->syntax_failed) {
    p->doc->syntax_failed = 1;
    p->doc->fail_line = at->line;
    p->doc->fail_col = at->col;
  }
}

static void fail_at(struct parser *p, enum rule_index rule, const struct egg_token *at,
                    const char *expected, const char *actual)
{
  egg_emit(p->doc, rule, at->line, at->col, expected, "%s", actual);
  if (!p->doc->syntax_failed) {
    p->doc->syntax_failed = 1;
    p->doc->fail_line = at->line;
    p->doc->fail_col = at->col;
  }
}

/* Skip a balanced { ... } starting at the current '{'. */
static void skip_block(struct parser *p)
{
  unsigned long level = 0;
  do {
    if (p->tok.type == T_LBRACE)
      level++;
    else if (p->tok.type == T_RBRACE)
      level--;
    else if (p->tok.type == T_EOF)
      return;
    advance(p);
  } while (level);
}

/* After an error inside the body of the top frame: skip to its closing brace (not consumed). */
static void skip_to_close(struct parser *p)
{
  unsigned long level = 0;
  for (;;) {
    if (p->tok.type == T_EOF)
      return;
    if (p->tok.type == T_RBRACE) {
      if (!level)
        return;
      level--;
    } else if (p->tok.type == T_LBRACE) {
      level++;
    }
    advance(p);
  }
}

/* After an error in a header: drop the rest of the header and its block, if any. */
static void skip_header(struct parser *p)
{
  while (p->tok.type != T_EOF && p->tok.type != T_RBRACE && p->tok.type != T_LBRACE &&
         p->tok.type != T_KEYWORD)
    advance(p);
  if (p->tok.type == T_LBRACE)
    skip_block(p);
}

static struct egg_node *node_new(struct parser *p, int spec, const struct egg_token *kw)
{
  struct egg_node *n = arena_calloc(p->doc->arena, 1, sizeof *n);
  if (!n) {
    p->oom = 1;
    return NULL;
  }
  n->spec = (uint16_t)spec;
  n->kw = (uint16_t)kw->kw;
  n->line = kw->line;
  n->col = kw->col;
  p->doc->nodes++;
  return n;
}

static void node_attach(struct egg_node *parent, struct egg_node *n)
{
  n->parent = parent;
  if (parent->last)
    parent->last->next = n;
  else
    parent->first = n;
  parent->last = n;
}

static int push_value(struct parser *p, const struct egg_token *t)
{
  struct egg_value *v;
  if (p->nvals == p->capvals) {
    size_t cap = p->capvals ? p->capvals * 2 : 1024;
    struct egg_value *nv = realloc(p->vals, cap * sizeof *nv);
    if (!nv) {
      p->oom = 1;
      return -1;
    }
    p->vals = nv;
    p->capvals = cap;
  }
  v = &p->vals[p->nvals++];
  memset(v, 0, sizeof *v);
  v->line = t->line;
  v->col = t->col;
  v->flags = (uint8_t)(t->flags & (TOKF_INF | TOKF_NANBITS));
  v->d = t->num;
  v->ul = t->ul;
  switch (t->type) {
  case T_NUMBER: v->type = V_NUMBER; break;
  case T_ULONG: v->type = V_ULONG; break;
  default:
    v->type = t->type == T_QSTRING ? V_QSTRING : V_WORD;
    v->len = (uint32_t)(t->len > EGG_MAX_TOKEN ? EGG_MAX_TOKEN : t->len);
    v->s = arena_strndup(p->doc->arena, t->s, v->len);
    if (!v->s)
      p->oom = 1;
    break;
  }
  if (t->flags & TOKF_MULTILINE)
    egg_emit(p->doc, RULE_EGG_MULTILINE_STRING, t->line, t->col, NULL, "%u", p->lx.line);
  return 0;
}

static int is_value_tok(int type)
{
  return type == T_NUMBER || type == T_ULONG || type == T_QSTRING || type == T_WORD;
}

/* Integer slots (notes §2.4): > INT_MAX or fractional numbers are warnings in Panda3D. */
static void check_integer(struct parser *p, const struct egg_token *t)
{
  char buf[64];
  if (t->type != T_NUMBER)
    return;
  if (t->num > 2147483647.0)
    egg_emit(p->doc, RULE_EGG_INTEGER_VALUE, t->line, t->col, "an integer no larger than 2147483647",
             "%s", egg_show(buf, sizeof buf, t->s, t->len));
  else if (t->num != floor(t->num) || t->num != t->num)
    egg_emit(p->doc, RULE_EGG_INTEGER_VALUE, t->line, t->col, "an integer", "%s",
             egg_show(buf, sizeof buf, t->s, t->len));
}

static void check_special_number(struct parser *p, const struct egg_token *t)
{
  char buf[64];
  if (t->flags & (TOKF_INF | TOKF_NANBITS))
    egg_emit(p->doc, RULE_EGG_NONFINITE_LITERAL, t->line, t->col, NULL, "%s",
             egg_show(buf, sizeof buf, t->s, t->len));
}

static size_t frame_nvals(const struct parser *p, const struct frame *f)
{
  return p->nvals - f->vstart;
}

/* Numeric values that count toward arity (a morph may open its body with its name). */
static size_t arity_count(const struct parser *p, const struct frame *f)
{
  size_t n = frame_nvals(p, f);
  if (egg_specs[f->node->spec].vals == VALS_MORPH && !f->node->name && n)
    n--;
  return n;
}

static int count_ok(uint32_t counts, size_t n)
{
  if (counts == COUNTS_ANY)
    return 1;
  if (counts == (COUNTS_ANY & ~1u))
    return n >= 1;
  return n < 32 && (counts >> n) & 1u;
}

static size_t count_max(uint32_t counts)
{
  size_t m = 0;
  if ((counts & 0x80000000u))
    return (size_t)-1;
  for (size_t i = 0; i < 32; i++)
    if ((counts >> i) & 1u)
      m = i;
  return m;
}

static void expected_counts(char *out, size_t cap, uint32_t counts, int vals)
{
  size_t n = 0;
  const char *what = vals == VALS_INT ? "integer" : vals == VALS_REAL || vals == VALS_MORPH ? "number" : "value";
  out[0] = 0;
  if (counts == (COUNTS_ANY & ~1u)) {
    snprintf(out, cap, "at least one %s", what);
    return;
  }
  for (unsigned i = 0; i < 32 && n + 8 < cap; i++)
    if ((counts >> i) & 1u)
      n += (size_t)snprintf(out + n, cap - n, "%s%u", n ? " or " : "", i);
  snprintf(out + n, cap - n, " %s%s", what, "(s)");
}

/* A value or `}` or a child arrives with the node's values already complete: check arity. */
static int values_complete(struct parser *p, struct frame *f, const struct egg_token *at)
{
  const struct egg_spec_info *si = &egg_specs[f->node->spec];
  size_t n = arity_count(p, f);
  char exp[96];
  if (si->vals == VALS_NONE || f->seen_child)
    return 1;
  if (si->vals == VALS_MORPH && !f->node->name && frame_nvals(p, f) == 0) {
    expected_counts(exp, sizeof exp, si->counts, si->vals);
    syntax(p, RULE_EGG_ARITY, at, "a morph target name, then the numbers");
    return 0;
  }
  if (n == 0 && si->req_string) { /* Panda3D's required_name / required_string: not fatal */
    egg_emit(p->doc, si->req_string == 2 ? RULE_EGG_NAME_REQUIRED : RULE_EGG_STRING_REQUIRED,
             at->line, at->col, NULL, "%s", si->what);
    return 1;
  }
  if (count_ok(si->counts, n))
    return 1;
  expected_counts(exp, sizeof exp, si->counts, si->vals);
  {
    char buf[96], act[160];
    snprintf(act, sizeof act, "%s with %zu value(s) at '%s'", si->what, n, tok_show(at, buf, sizeof buf));
    egg_emit(p->doc, RULE_EGG_ARITY, at->line, at->col, exp, "%s", act);
    if (!p->doc->syntax_failed) {
      p->doc->syntax_failed = 1;
      p->doc->fail_line = at->line;
      p->doc->fail_col = at->col;
    }
  }
  return 0;
}

static void close_node(struct parser *p, int bad)
{
  struct frame *f = &p->stack[p->depth - 1];
  struct egg_node *n = f->node;
  size_t count = frame_nvals(p, f);
  n->close_line = p->tok.line;
  n->close_col = p->tok.col;
  n->bad = (uint8_t)(n->bad | bad);
  if (count) {
    n->vals = arena_calloc(p->doc->arena, count, sizeof *n->vals);
    if (n->vals) {
      memcpy(n->vals, p->vals + f->vstart, count * sizeof *n->vals);
      n->nvals = (uint32_t)count;
    } else {
      p->oom = 1;
    }
  }
  p->nvals = f->vstart;
  p->depth--;
}

static int is_container(int spec)
{
  return spec == S_GROUP || spec == S_JOINT || spec == S_INSTANCE || spec == S_TABLE ||
         spec == S_BUNDLE;
}

/* Parse `<Kw> [name] {` for an entry of kind spec; push its frame, or recover and return -1. */
static int open_entry(struct parser *p, int spec, struct egg_token kwtok, int legacy)
{
  const struct egg_spec_info *si = &egg_specs[spec];
  struct frame *parent = &p->stack[p->depth - 1];
  struct egg_node *n;
  struct egg_token name;
  int has_name = 0;
  int containers = parent->containers + is_container(spec);

  if (p->depth >= EGG_MAX_DEPTH || containers >= (int)EGG_PANDA_DEPTH ||
      (spec == S_VREF_PRIM && parent->containers >= (int)EGG_PANDA_DEPTH - 3)) {
    char lim[64];
    snprintf(lim, sizeof lim, "at most %u nested groups/tables", EGG_PANDA_DEPTH - 1);
    syntax(p, RULE_EGG_NESTING_DEPTH, &kwtok, lim);
    advance(p);
    skip_header(p);
    return -1;
  }
  advance(p);
  memset(&name, 0, sizeof name);
  if (is_value_tok(p->tok.type)) {
    name = p->tok;
    has_name = 1;
    advance(p);
  }
  if (has_name && si->name == NAME_NONE) {
    syntax(p, RULE_EGG_SYNTAX, &name, "'{' (this entry takes no name)");
    skip_header(p);
    return -1;
  }
  if (has_name && (si->name == NAME_INT_OPT || si->name == NAME_INT_REQ) &&
      name.type != T_NUMBER && name.type != T_ULONG) {
    syntax(p, RULE_EGG_NOT_A_NUMBER, &name, "an integer index");
    skip_header(p);
    return -1;
  }
  if (p->tok.type != T_LBRACE) {
    syntax(p, RULE_EGG_SYNTAX, &p->tok, has_name ? "'{'" : "a name or '{'");
    skip_header(p);
    return -1;
  }
  if (!has_name && si->name == NAME_INT_REQ) {
    syntax(p, RULE_EGG_SYNTAX, &p->tok, "an integer index before '{'");
    skip_block(p);
    return -1;
  }
  n = node_new(p, spec, &kwtok);
  if (!n)
    return -1;
  n->legacy_group = (uint8_t)legacy;
  if (has_name) {
    n->name_len = (uint32_t)(name.len > EGG_MAX_TOKEN ? EGG_MAX_TOKEN : name.len);
    n->name = arena_strndup(p->doc->arena, name.s, n->name_len);
    n->name_line = name.line;
    n->name_col = name.col;
    n->name_quoted = name.type == T_QSTRING;
    n->name_numeric = name.type == T_NUMBER || name.type == T_ULONG;
    if (si->name == NAME_INT_OPT || si->name == NAME_INT_REQ) {
      check_integer(p, &name);
      n->index = name.type == T_ULONG ? (int64_t)(name.ul > INT64_MAX ? INT64_MAX : name.ul)
                 : !(name.num == name.num) || name.num < -9.2e18 ? INT64_MIN
                 : name.num > 9.2e18 ? INT64_MAX : (int64_t)name.num;
    }
    if (name.flags & TOKF_CONTROL)
      egg_emit(p->doc, RULE_EGG_CONTROL_BYTE, name.line, name.col, NULL, "%s", "a name");
  } else if (si->name == NAME_REQ) {
    egg_emit(p->doc, RULE_EGG_NAME_REQUIRED, p->tok.line, p->tok.col, NULL, "%s", si->what);
  } else {
    n->index = -1;
  }
  node_attach(parent->node, n);
  memset(&p->stack[p->depth], 0, sizeof p->stack[p->depth]);
  p->stack[p->depth].node = n;
  p->stack[p->depth].ctx = si->body;
  p->stack[p->depth].vstart = p->nvals;
  p->stack[p->depth].containers = containers;
  p->depth++;
  advance(p); /* past '{' */
  return 0;
}

/* A value token in a body. */
static void body_value(struct parser *p, struct frame *f)
{
  const struct egg_spec_info *si = &egg_specs[f->node->spec];
  struct egg_token t = p->tok;
  char buf[96];
  size_t n;

  if (si->vals == VALS_NONE) {
    if (t.type == T_WORD && (t.flags & TOKF_GLUED))
      fail_at(p, RULE_EGG_GLUED_KEYWORD, &t, NULL, egg_show(buf, sizeof buf, t.s, t.len));
    else if (t.type == T_WORD && t.len && t.s[0] == '<')
      fail_at(p, RULE_EGG_UNKNOWN_KEYWORD, &t, NULL, egg_show(buf, sizeof buf, t.s, t.len));
    else
      syntax(p, RULE_EGG_SYNTAX, &t, f->ctx == C_LEAF ? "'}'" : "an entry keyword or '}'");
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  if (f->seen_child) {
    syntax(p, RULE_EGG_VALUE_ORDER, &t, "values before the nested entries");
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  n = frame_nvals(p, f);
  switch (si->vals) {
  case VALS_MORPH:
    if (!f->node->name && n == 0)
      break; /* the target name */
    /* fall through */
  case VALS_REAL:
  case VALS_INT:
    if (t.type != T_NUMBER && t.type != T_ULONG) {
      syntax(p, RULE_EGG_NOT_A_NUMBER, &t, si->vals == VALS_INT ? "an integer" : "a number");
      skip_to_close(p);
      f->node->bad = 1;
      return;
    }
    if (si->vals == VALS_INT)
      check_integer(p, &t);
    check_special_number(p, &t);
    break;
  case VALS_INT_OR_WORD:
    if (t.type == T_NUMBER || t.type == T_ULONG)
      check_integer(p, &t);
    break;
  default:
    if (t.type == T_NUMBER)
      check_special_number(p, &t);
    break;
  }
  if (count_max(si->counts) != (size_t)-1 && arity_count(p, f) + 1 > count_max(si->counts) &&
      si->counts != (COUNTS_ANY & ~1u)) {
    char exp[96], act[160];
    expected_counts(exp, sizeof exp, si->counts, si->vals);
    snprintf(act, sizeof act, "%s with more values at '%s'", si->what, tok_show(&t, buf, sizeof buf));
    egg_emit(p->doc, RULE_EGG_ARITY, t.line, t.col, exp, "%s", act);
    if (!p->doc->syntax_failed) {
      p->doc->syntax_failed = 1;
      p->doc->fail_line = t.line;
      p->doc->fail_col = t.col;
    }
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  if (t.type == T_WORD && (t.flags & TOKF_CONTROL))
    egg_emit(p->doc, RULE_EGG_CONTROL_BYTE, t.line, t.col, NULL, "%s", "a value");
  push_value(p, &t);
  advance(p);
}

/* A bare word in a node list: the legacy `group <File> ...` or an error at the next token. */
static void node_list_word(struct parser *p)
{
  struct egg_token word = p->tok;
  char buf[96];
  advance(p);
  if (p->tok.type == T_KEYWORD && p->tok.kw == KW_FILE) {
    struct egg_token kw = p->tok;
    if (!egg_name_eq(word.s, word.len, "group")) {
      egg_emit(p->doc, RULE_EGG_LEGACY_FILE_WORD, word.line, word.col, "group", "%s",
               egg_show(buf, sizeof buf, word.s, word.len));
    } else {
      egg_emit(p->doc, RULE_EGG_LEGACY_FILE, word.line, word.col, NULL, NULL);
    }
    open_entry(p, S_FILE, kw, 1);
    return;
  }
  /* Panda3D shifts the word as a string and fails on the token after it */
  if (word.flags & TOKF_BOM)
    fail_at(p, RULE_EGG_BYTE_ORDER_MARK, &p->tok, NULL, egg_show(buf, sizeof buf, word.s, word.len));
  else if (word.flags & TOKF_GLUED)
    fail_at(p, RULE_EGG_GLUED_KEYWORD, &p->tok, NULL, egg_show(buf, sizeof buf, word.s, word.len));
  else if (word.type == T_WORD && word.len && word.s[0] == '<')
    fail_at(p, RULE_EGG_UNKNOWN_KEYWORD, &p->tok, NULL, egg_show(buf, sizeof buf, word.s, word.len));
  else
    syntax(p, RULE_EGG_SYNTAX, &p->tok, "an entry keyword");
  if (is_value_tok(p->tok.type))
    advance(p);
  if (p->tok.type == T_LBRACE)
    skip_block(p);
}

static void body_keyword(struct parser *p, struct frame *f)
{
  struct egg_token kw = p->tok;
  int spec;
  char buf[96];

  if (kw.kw >= KW_FIRST_UNUSED) {
    syntax(p, RULE_EGG_UNUSED_KEYWORD, &kw, NULL);
    advance(p);
    skip_header(p);
    return;
  }
  spec = egg_grammar_child(f->ctx, kw.kw);
  if (spec < 0) {
    char where[300];
    snprintf(where, sizeof where, "%s may appear in %s", egg_kw_spelling(kw.kw), egg_grammar_where(kw.kw));
    egg_emit(p->doc, RULE_EGG_PLACEMENT, kw.line, kw.col, where, "%s in %s",
             tok_show(&kw, buf, sizeof buf), egg_specs[f->node->spec].what);
    if (!p->doc->syntax_failed) {
      p->doc->syntax_failed = 1;
      p->doc->fail_line = kw.line;
      p->doc->fail_col = kw.col;
    }
    advance(p);
    skip_header(p);
    return;
  }
  if (!f->seen_child && !values_complete(p, f, &kw)) {
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  if (f->seen_ref || ((f->ctx == C_DISTANCE || f->ctx == C_SWITCHCOND) && f->seen_one)) {
    syntax(p, RULE_EGG_SYNTAX, &kw, "'}'");
    skip_to_close(p);
    f->node->bad = 1;
    return;
  }
  f->seen_child = 1;
  if (spec == S_REF && (f->ctx == C_VREF_GROUP || f->ctx == C_VREF_PRIM))
    f->seen_ref = 1;
  if (f->ctx == C_DISTANCE || f->ctx == C_SWITCHCOND)
    f->seen_one = 1;
  open_entry(p, spec, kw, 0);
}

static void body_close(struct parser *p, struct frame *f)
{
  if (f->node->bad) { /* already reported: its contents are incomplete */
    close_node(p, 1);
    advance(p);
    return;
  }
  if (!values_complete(p, f, &p->tok)) {
    close_node(p, 1);
    advance(p);
    return;
  }
  if ((f->ctx == C_VREF_GROUP || f->ctx == C_VREF_PRIM) && !f->seen_ref) {
    syntax(p, RULE_EGG_SYNTAX, &p->tok, "<Ref> { pool } before '}' of a <VertexRef>");
    close_node(p, 1);
    advance(p);
    return;
  }
  if ((f->ctx == C_DISTANCE || f->ctx == C_SWITCHCOND) && !f->seen_one) {
    syntax(p, RULE_EGG_SYNTAX, &p->tok,
           f->ctx == C_DISTANCE ? "<Vertex> { x y z } in <Distance>" : "<Distance> in <SwitchCondition>");
    close_node(p, 1);
    advance(p);
    return;
  }
  close_node(p, 0);
  advance(p);
}

int egg_parse(struct egg_doc *doc, const unsigned char *data, size_t size)
{
  struct parser *p = calloc(1, sizeof *p);
  struct egg_token rootkw;
  int rc = 0;
  if (!p)
    return -1;
  p->doc = doc;
  egg_lex_init(&p->lx, data, size, doc);
  memset(&rootkw, 0, sizeof rootkw);
  rootkw.line = 1;
  rootkw.col = 1;
  doc->root = node_new(p, S_ROOT, &rootkw);
  if (!doc->root) {
    free(p);
    return -1;
  }
  p->stack[0].node = doc->root;
  p->stack[0].ctx = C_TOP;
  p->depth = 1;
  advance(p);
  while (!p->oom) {
    struct frame *f = &p->stack[p->depth - 1];
    switch (p->tok.type) {
    case T_EOF:
      if (p->depth > 1) {
        syntax(p, RULE_EGG_UNEXPECTED_EOF, &p->tok, NULL);
        while (p->depth > 1)
          close_node(p, 1);
      }
      close_node(p, 0);
      goto done;
    case T_RBRACE:
      if (p->depth == 1) {
        syntax(p, RULE_EGG_STRAY_BRACE, &p->tok, NULL);
        advance(p);
      } else {
        body_close(p, f);
      }
      break;
    case T_LBRACE:
      syntax(p, RULE_EGG_SYNTAX, &p->tok, "an entry keyword or a value before '{'");
      skip_block(p);
      break;
    case T_KEYWORD:
      body_keyword(p, f);
      break;
    default:
      if (f->ctx == C_TOP || f->ctx == C_GROUP)
        node_list_word(p);
      else
        body_value(p, f);
      break;
    }
  }
  rc = -1;
done:
  doc->eof_line = p->lx.line;
  free(p->vals);
  free(p);
  return rc;
}
