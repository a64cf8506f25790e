/* egg_write.c - the canonical egg pretty-printer: one entry per line, two-space indents,
 * names bare only when Panda3D's writer would leave them bare ([A-Za-z0-9_.#-]), numbers in
 * the shortest text that reads back to the same double, and never a bare `nan` (which Panda3D
 * cannot read back: NaNs are written as nan0x<bits>). Parsing the output gives the same tree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "num_format.h"

#define VALUES_PER_LINE 12

static int bare_ok(const char *s, size_t len)
{
  if (!len)
    return 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '.' || c == '#' || c == '-'))
      return 0;
  }
  /* a bare run starting with two slashes would read as a comment */
  return 1;
}

static void put_quoted(struct byte_buf *out, const char *s, size_t len)
{
  buf_put(out, "\"", 1);
  buf_put(out, s, len);
  buf_put(out, "\"", 1);
}

/* A quoted string ends at a NUL byte, so a name holding one (read from a bare token) is written
 * bare again, as long as it has nothing that would split or end a bare token. */
static int bare_with_nul(const char *s, size_t len)
{
  if (!memchr(s, 0, len) || (len >= 2 && s[0] == '/' && (s[1] == '/' || s[1] == '*')))
    return 0;
  for (size_t i = 0; i < len; i++)
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '{' ||
        s[i] == '}' || s[i] == '"')
      return 0;
  return 1;
}

static void put_name(struct byte_buf *out, const char *s, size_t len)
{
  if (bare_ok(s, len) || bare_with_nul(s, len))
    buf_put(out, s, len);
  else
    put_quoted(out, s, len);
}

static void put_number(struct byte_buf *out, double d, unsigned flags)
{
  char tmp[NUM_FORMAT_MAX];
  if (d != d || (flags & TOKF_NANBITS)) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    buf_printf(out, "nan0x%llx", (unsigned long long)bits);
    return;
  }
  if (isinf(d)) {
    buf_printf(out, "%s", d < 0 ? "-inf" : "inf");
    return;
  }
  buf_put(out, tmp, num_format_shortest(tmp, d, 1)); /* shortest text read back as d */
}

static void put_value(struct byte_buf *out, const struct egg_value *v)
{
  switch (v->type) {
  case V_NUMBER: put_number(out, v->d, v->flags); break;
  case V_ULONG: buf_printf(out, "0x%llx", (unsigned long long)v->ul); break;
  case V_QSTRING: put_quoted(out, v->s, v->len); break;
  default: buf_put(out, v->s, v->len); break;
  }
}

static void indent(struct byte_buf *out, unsigned depth)
{
  for (unsigned i = 0; i < depth; i++)
    buf_put(out, "  ", 2);
}

static void put_header(struct byte_buf *out, const struct egg_node *n)
{
  buf_printf(out, "%s", egg_kw_spelling(egg_kw(n)));
  if (egg_name(n)) {
    buf_put(out, " ", 1);
    if (egg_specs[n->spec].name == NAME_INT_OPT || egg_specs[n->spec].name == NAME_INT_REQ)
      buf_printf(out, "%lld", (long long)egg_index(n));
    else
      put_name(out, egg_name(n), egg_name_len(n));
  }
  buf_put(out, " {", 2);
}

static void put_values(struct byte_buf *out, const struct egg_node *n, unsigned depth, int inline_vals)
{
  for (uint32_t i = 0; i < egg_nvals(n); i++) {
    if (!inline_vals && i % VALUES_PER_LINE == 0) {
      buf_put(out, "\n", 1);
      indent(out, depth + 1);
    } else {
      buf_put(out, " ", 1);
    }
    struct egg_value v;
    egg_val(n, i, &v);
    put_value(out, &v);
  }
}

int egg_write_tree(const struct egg_node *root, struct byte_buf *out)
{
  const struct egg_node *n = egg_first(root);
  unsigned depth = 0;
  while (n) {
    int inline_vals = egg_nvals(n) <= VALUES_PER_LINE;
    indent(out, depth);
    put_header(out, n);
    put_values(out, n, depth, inline_vals);
    if (egg_first(n)) {
      buf_put(out, "\n", 1);
      depth++;
      n = egg_first(n);
      continue;
    }
    if (!inline_vals) {
      buf_put(out, "\n", 1);
      indent(out, depth);
      buf_put(out, "}\n", 2);
    } else {
      buf_put(out, " }\n", 3);
    }
    while (n && !egg_next(n)) {
      n = egg_parent(n);
      if (!n || n == root)
        return out->oom ? -1 : 0;
      depth--;
      indent(out, depth);
      buf_put(out, "}\n", 2);
    }
    if (n)
      n = egg_next(n);
  }
  return out->oom ? -1 : 0;
}

void egg_put_name(struct byte_buf *out, const char *s, size_t len) { put_name(out, s, len); }
void egg_put_quoted(struct byte_buf *out, const char *s, size_t len) { put_quoted(out, s, len); }
void egg_put_number(struct byte_buf *out, double d) { put_number(out, d, 0); }

/* The output is compressed when its name says .pz (or .gz): Panda3D decides by the name. */
static int path_wants_pz(const struct write_opts *opts)
{
  size_t n = opts && opts->path ? strlen(opts->path) : 0;
  return n >= 3 && (!strcmp(opts->path + n - 3, ".pz") || !strcmp(opts->path + n - 3, ".gz"));
}

/* The egg text of m: its own tree when it was decoded from an egg, else built from the model. */
static int egg_write_text(const struct model *m, struct write_losses *losses, struct byte_buf *out)
{
  const struct egg_private *priv = m->format_data;
  if (!priv || !m->format_data_owner || strcmp(m->format_data_owner, "egg") ||
      priv->magic != EGG_PRIVATE_MAGIC || !priv->root)
    return egg_write_model(m, losses, out); /* from another format: written from the model */
  if (priv->dropped) {
    snprintf(out->error, sizeof out->error, "%s",
             "the egg tree was decoded for validation only (without its vertex and animation values)");
    return -1;
  }
  return egg_write_tree(priv->root, out);
}

int egg_write(const struct model *m, const struct write_opts *opts, struct byte_buf *out)
{
  struct byte_buf text;
  int rc;
  if (!path_wants_pz(opts))
    return egg_write_text(m, opts ? opts->losses : NULL, out);
  buf_init(&text);
  rc = egg_write_text(m, opts ? opts->losses : NULL, &text);
  if (rc == 0 && !text.oom)
    rc = egg_pz_deflate(text.data, text.size, out);
  else
    snprintf(out->error, sizeof out->error, "%s", text.error[0] ? text.error : "out of memory writing the egg text");
  if (text.oom)
    rc = -1;
  buf_free(&text);
  return rc;
}

static int value_equal(const struct egg_value *a, const struct egg_value *b)
{
  if (a->type != b->type)
    return 0;
  switch (a->type) {
  case V_NUMBER: return a->d == b->d || (a->d != a->d && b->d != b->d);
  case V_ULONG: return a->ul == b->ul;
  default: return a->len == b->len && !memcmp(a->s, b->s, a->len);
  }
}

int egg_tree_equal(const struct egg_node *a, const struct egg_node *b, char *why, size_t cap)
{
  const struct egg_node *ra = a, *rb = b;
  a = egg_first(a);
  b = egg_first(b);
  while (a && b) {
    int names = (!egg_name(a) && !egg_name(b)) ||
                (egg_name(a) && egg_name(b) && egg_name_len(a) == egg_name_len(b) && !memcmp(egg_name(a), egg_name(b), egg_name_len(a)));
    if (a->spec != b->spec || egg_kw(a) != egg_kw(b) || !names || egg_nvals(a) != egg_nvals(b)) {
      snprintf(why, cap, "entry %s at line %u differs from %s at line %u", egg_kw_spelling(egg_kw(a)),
               egg_node_line(a), egg_kw_spelling(egg_kw(b)), egg_node_line(b));
      return 0;
    }
    for (uint32_t i = 0; i < egg_nvals(a); i++) {
      struct egg_value va, vb;
      egg_val(a, i, &va);
      egg_val(b, i, &vb);
      if (!value_equal(&va, &vb)) {
        snprintf(why, cap, "value %u of %s at line %u differs", (unsigned)i, egg_kw_spelling(egg_kw(a)),
                 egg_node_line(a));
        return 0;
      }
    }
    if (!egg_first(a) != !egg_first(b)) {
      snprintf(why, cap, "children of %s at line %u differ", egg_kw_spelling(egg_kw(a)), egg_node_line(a));
      return 0;
    }
    if (egg_first(a)) {
      a = egg_first(a);
      b = egg_first(b);
      continue;
    }
    while (a && b && !egg_next(a) && !egg_next(b)) {
      a = egg_parent(a);
      b = egg_parent(b);
      if (a == ra || b == rb)
        return a == ra && b == rb;
    }
    if (!a || !b || !egg_next(a) || !egg_next(b)) {
      snprintf(why, cap, "%s", "the trees have different numbers of entries");
      return 0;
    }
    a = egg_next(a);
    b = egg_next(b);
  }
  if (a || b) {
    snprintf(why, cap, "%s", "the trees have different numbers of entries");
    return 0;
  }
  return 1;
}
