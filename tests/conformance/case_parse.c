/* case_parse.c - read a conformance case file (corpus/README.md) into struct conf_case.
 *
 * The format is closed: an unknown key, a wrong type or a rule id missing from the catalogue
 * is a mistake in the case, reported with its line, so a typo can never make a case vacuous. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "case.h"

void case_error(struct conf_case *c, int line, const char *fmt, ...)
{
  va_list ap;
  fprintf(stderr, "%s:%d: ", c->file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  c->errors++;
}

static yaml_node_t *node_at(struct conf_case *c, int index)
{
  return yaml_document_get_node(&c->doc, index);
}

static int line_of(const yaml_node_t *n)
{
  return (int)n->start_mark.line + 1;
}

static const char *scalar(const yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *want_scalar(struct conf_case *c, const yaml_node_t *n, const char *what)
{
  const char *s = scalar(n);
  if (!s)
    case_error(c, line_of(n), "%s must be a scalar", what);
  return s;
}

static int want_mapping(struct conf_case *c, const yaml_node_t *n, const char *what)
{
  if (n->type == YAML_MAPPING_NODE)
    return 1;
  case_error(c, line_of(n), "%s must be a mapping", what);
  return 0;
}

static int want_sequence(struct conf_case *c, const yaml_node_t *n, const char *what)
{
  if (n->type == YAML_SEQUENCE_NODE)
    return 1;
  case_error(c, line_of(n), "%s must be a sequence", what);
  return 0;
}

/* Integers: optional sign, decimal or 0x hexadecimal (no octal: "010" is ten). */
static int parse_int(const char *s, int64_t *out)
{
  int neg = 0, base = 10;
  unsigned long long v;
  char *end;
  if (*s == '+' || *s == '-')
    neg = *s++ == '-';
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  }
  if (!*s || *s == '+' || *s == '-' || *s == ' ')
    return -1;
  errno = 0;
  v = strtoull(s, &end, base);
  if (errno || *end)
    return -1;
  if (neg) {
    if (v > (unsigned long long)INT64_MAX + 1)
      return -1;
    *out = v == (unsigned long long)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
  } else {
    if (v > (unsigned long long)INT64_MAX)
      return -1;
    *out = (int64_t)v;
  }
  return 0;
}

/* Floats: YAML's .nan .inf -.inf (any case), or a decimal/scientific number. */
static int parse_double(const char *s, double *out)
{
  const char *p = s;
  int neg = 0;
  char *end;
  if (*p == '+' || *p == '-')
    neg = *p++ == '-';
  if (!strcasecmp(p, ".inf")) {
    *out = neg ? -INFINITY : INFINITY;
    return 0;
  }
  if (!strcasecmp(s, ".nan")) {
    *out = NAN;
    return 0;
  }
  if (!*s)
    return -1;
  errno = 0;
  *out = strtod(s, &end);
  if (*end || end == s || !strcasecmp(p, "nan") || !strncasecmp(p, "inf", 3))
    return -1;
  return 0;
}

static int parse_bool(const char *s, int *out)
{
  if (!strcmp(s, "true") || !strcmp(s, "yes")) {
    *out = 1;
    return 0;
  }
  if (!strcmp(s, "false") || !strcmp(s, "no")) {
    *out = 0;
    return 0;
  }
  return -1;
}

static int get_int(struct conf_case *c, const yaml_node_t *n, const char *what, int64_t lo,
                   int64_t hi, int64_t *out)
{
  const char *s = want_scalar(c, n, what);
  if (!s)
    return -1;
  if (parse_int(s, out) < 0 || *out < lo || *out > hi) {
    case_error(c, line_of(n), "%s: '%s' is not an integer in [%lld, %lld]", what, s, (long long)lo,
               (long long)hi);
    return -1;
  }
  return 0;
}

static int get_double(struct conf_case *c, const yaml_node_t *n, const char *what, double *out)
{
  const char *s = want_scalar(c, n, what);
  if (!s)
    return -1;
  if (parse_double(s, out) < 0) {
    case_error(c, line_of(n), "%s: '%s' is not a number", what, s);
    return -1;
  }
  return 0;
}

static int get_bool(struct conf_case *c, const yaml_node_t *n, const char *what, int *out)
{
  const char *s = want_scalar(c, n, what);
  if (!s)
    return -1;
  if (parse_bool(s, out) < 0) {
    case_error(c, line_of(n), "%s: '%s' is not true or false", what, s);
    return -1;
  }
  return 0;
}

int hex_decode(const char *s, unsigned char **out, size_t *n)
{
  size_t len = strlen(s), k = 0;
  unsigned char *b = malloc(len / 2 + 1);
  int half = -1;
  if (!b)
    return -1;
  for (; *s; s++) {
    int d;
    if (*s == ' ' || *s == '\t' || *s == '\n') {
      if (half >= 0)
        goto bad; /* a blank may only separate whole bytes */
      continue;
    }
    if (*s >= '0' && *s <= '9')
      d = *s - '0';
    else if (*s >= 'a' && *s <= 'f')
      d = *s - 'a' + 10;
    else if (*s >= 'A' && *s <= 'F')
      d = *s - 'A' + 10;
    else
      goto bad;
    if (half < 0) {
      half = d;
    } else {
      b[k++] = (unsigned char)(half << 4 | d);
      half = -1;
    }
  }
  if (half >= 0)
    goto bad;
  *out = b;
  *n = k;
  return 0;
bad:
  free(b);
  return -1;
}

static void *grow(void *p, size_t n, size_t elem)
{
  void *q = realloc(p, n * elem);
  if (!q) {
    fprintf(stderr, "case_run: out of memory\n");
    exit(99);
  }
  return q;
}

/* --- input ---------------------------------------------------------------------------------- */

static const char *const patch_kinds[] = {"u8", "u16", "u32", "i32", "f32", "f64", "hex",
                                          "truncate", "append"};

static void parse_patch(struct conf_case *c, struct case_source *src, yaml_node_t *n)
{
  struct case_patch p;
  yaml_node_t *value = NULL, *at = NULL;
  int kind = -1;
  memset(&p, 0, sizeof p);
  p.line = line_of(n);
  if (!want_mapping(c, n, "a patch"))
    return;
  for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = node_at(c, pr->key), *v = node_at(c, pr->value);
    const char *key = scalar(k);
    int found = -1;
    if (key && !strcmp(key, "at")) {
      at = v;
      continue;
    }
    for (int i = 0; key && i < (int)(sizeof patch_kinds / sizeof patch_kinds[0]); i++)
      if (!strcmp(key, patch_kinds[i]))
        found = i;
    if (found < 0) {
      case_error(c, line_of(k), "unknown patch key '%s' (expected at, u8, u16, u32, i32, f32, "
                 "f64, hex, truncate, append)", key ? key : "?");
      continue;
    }
    if (kind >= 0) {
      case_error(c, line_of(k), "a patch has one kind; '%s' follows '%s'", key, patch_kinds[kind]);
      continue;
    }
    kind = found;
    value = v;
  }
  if (kind < 0) {
    case_error(c, p.line, "a patch needs one of u8, u16, u32, i32, f32, f64, hex, truncate, append");
    return;
  }
  p.kind = (enum patch_kind)kind;
  if (p.kind == PATCH_TRUNCATE || p.kind == PATCH_APPEND) {
    if (at) {
      case_error(c, line_of(at), "'at' does not apply to %s", patch_kinds[kind]);
      return;
    }
  } else {
    int64_t a;
    if (!at) {
      case_error(c, p.line, "a %s patch needs 'at'", patch_kinds[kind]);
      return;
    }
    if (get_int(c, at, "at", 0, INT64_MAX, &a) < 0)
      return;
    p.at = (uint64_t)a;
  }

  switch (p.kind) {
  case PATCH_U8:
  case PATCH_U16:
  case PATCH_U32:
  case PATCH_I32: {
    static const int64_t lo[] = {0, 0, 0, INT32_MIN}, hi[] = {UINT8_MAX, UINT16_MAX, UINT32_MAX,
                                                              INT32_MAX};
    const char *s = scalar(value);
    if (s && !strcmp(s, "size")) {
      p.value_is_size = 1;
      break;
    }
    if (get_int(c, value, patch_kinds[kind], lo[kind], hi[kind], &p.ival) < 0)
      return;
    break;
  }
  case PATCH_F32:
  case PATCH_F64:
    if (get_double(c, value, patch_kinds[kind], &p.fval) < 0)
      return;
    break;
  case PATCH_TRUNCATE:
    if (get_int(c, value, "truncate", 0, INT64_MAX, &p.ival) < 0)
      return;
    break;
  case PATCH_HEX:
  case PATCH_APPEND: {
    const char *s = want_scalar(c, value, patch_kinds[kind]);
    if (!s)
      return;
    if (hex_decode(s, &p.bytes, &p.nbytes) < 0) {
      case_error(c, line_of(value), "%s: '%s' is not hex bytes", patch_kinds[kind], s);
      return;
    }
    break;
  }
  }
  src->patches = grow(src->patches, src->npatches + 1, sizeof *src->patches);
  src->patches[src->npatches++] = p;
}

/* `input` (what: "input") or `compare` (what: "compare", which may carry its own `name` and
 * cannot be missing). */
static void parse_source(struct conf_case *c, struct case_source *src, yaml_node_t *n,
                         const char *what)
{
  int is_compare = !strcmp(what, "compare"), is_extra = !strcmp(what, "files");
  const char *keys = is_compare ? "file, base, patches, text, hex, name"
                     : is_extra ? "path, file, base, patches, text, hex"
                                : "file, base, patches, text, hex, missing";
  yaml_node_t *patches = NULL;
  src->line = line_of(n);
  if (!want_mapping(c, n, what))
    return;
  for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = node_at(c, pr->key), *v = node_at(c, pr->value);
    const char *key = scalar(k);
    enum input_kind kind = INPUT_NONE;
    if (key && !strcmp(key, "patches")) {
      patches = v;
      continue;
    }
    if (key && is_compare && !strcmp(key, "name")) {
      src->name = want_scalar(c, v, "name");
      continue;
    }
    if (key && is_extra && !strcmp(key, "path")) {
      src->name = want_scalar(c, v, "path");
      continue;
    }
    if (key && !strcmp(key, "file"))
      kind = INPUT_FILE;
    else if (key && !strcmp(key, "base"))
      kind = INPUT_BASE;
    else if (key && !strcmp(key, "text"))
      kind = INPUT_TEXT;
    else if (key && !strcmp(key, "hex"))
      kind = INPUT_HEX;
    else if (key && !is_compare && !is_extra && !strcmp(key, "missing"))
      kind = INPUT_MISSING;
    if (kind == INPUT_NONE) {
      case_error(c, line_of(k), "unknown %s key '%s' (expected %s)", what, key ? key : "?", keys);
      continue;
    }
    if (src->kind != INPUT_NONE) {
      case_error(c, line_of(k), "%s takes exactly one of file, base, text, hex%s", what,
                 is_compare || is_extra ? "" : ", missing");
      continue;
    }
    src->kind = kind;
    if (kind == INPUT_MISSING) {
      int yes = 0;
      if (get_bool(c, v, key, &yes) == 0 && !yes)
        case_error(c, line_of(v), "missing: only 'true' means anything (omit it otherwise)");
      continue;
    }
    if (!want_scalar(c, v, key))
      continue;
    if (kind == INPUT_FILE || kind == INPUT_BASE) {
      src->path = scalar(v);
    } else {
      src->text = scalar(v);
      src->text_len = v->data.scalar.length;
    }
  }
  if (src->kind == INPUT_NONE)
    case_error(c, src->line, "%s needs one of file, base, text, hex%s", what,
               is_compare || is_extra ? "" : ", missing");
  /* a file beside the input: a relative path that stays in the case's temporary folder */
  if (is_extra && (!src->name || !*src->name || src->name[0] == '/' || strstr(src->name, "..")))
    case_error(c, src->line, "files: each entry needs a relative path without '..'");
  if (patches) {
    if (src->kind != INPUT_BASE) {
      case_error(c, line_of(patches), "patches apply only to a base input");
      return;
    }
    if (!want_sequence(c, patches, "patches"))
      return;
    for (yaml_node_item_t *it = patches->data.sequence.items.start;
         it < patches->data.sequence.items.top; it++)
      parse_patch(c, src, node_at(c, *it));
  }
}

/* config: exactly one of text (the YAML itself) or file (relative to the case file). */
static void parse_config(struct conf_case *c, yaml_node_t *n)
{
  c->config_line = line_of(n);
  if (!want_mapping(c, n, "config"))
    return;
  for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = node_at(c, pr->key), *v = node_at(c, pr->value);
    const char *key = scalar(k);
    enum config_kind kind = CONFIG_NONE;
    if (key && !strcmp(key, "text"))
      kind = CONFIG_TEXT;
    else if (key && !strcmp(key, "file"))
      kind = CONFIG_FILE;
    if (kind == CONFIG_NONE) {
      case_error(c, line_of(k), "unknown config key '%s' (expected text, file)", key ? key : "?");
      continue;
    }
    if (c->config != CONFIG_NONE) {
      case_error(c, line_of(k), "config takes exactly one of text, file");
      continue;
    }
    c->config = kind;
    if (!want_scalar(c, v, key))
      continue;
    if (kind == CONFIG_FILE) {
      c->config_path = scalar(v);
    } else {
      c->config_text = scalar(v);
      c->config_text_len = v->data.scalar.length;
    }
  }
  if (c->config == CONFIG_NONE)
    case_error(c, c->config_line, "config needs one of text, file");
}

/* --- options, expectations ------------------------------------------------------------------ */

static void parse_options(struct conf_case *c, yaml_node_t *n)
{
  if (!want_mapping(c, n, "options"))
    return;
  for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = node_at(c, pr->key), *v = node_at(c, pr->value);
    const char *key = scalar(k);
    if (key && !strcmp(key, "assume-format"))
      c->assume_format = want_scalar(c, v, key);
    else if (key && !strcmp(key, "profile"))
      c->profile = want_scalar(c, v, key);
    else if (key && !strcmp(key, "target"))
      c->target = want_scalar(c, v, key);
    else if (key && !strcmp(key, "strict"))
      get_bool(c, v, key, &c->strict);
    else if (key && !strcmp(key, "accept-loss"))
      c->accept_loss = want_scalar(c, v, key);
    else if (key && !strcmp(key, "resources")) {
      c->resources = want_scalar(c, v, key);
      c->has_resources = c->resources != NULL;
    } else
      case_error(c, line_of(k), "unknown option '%s' (expected assume-format, profile, target, "
                 "strict, accept-loss, resources)", key ? key : "?");
  }
}

static void parse_expect_entry(struct conf_case *c, yaml_node_t *n)
{
  struct case_expect e;
  memset(&e, 0, sizeof e);
  e.line = line_of(n);
  if (n->type == YAML_SCALAR_NODE) {
    e.id = scalar(n); /* shorthand: "- IQM-JNT-002" */
  } else if (want_mapping(c, n, "an expect entry")) {
    for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
      yaml_node_t *k = node_at(c, pr->key), *v = node_at(c, pr->value);
      const char *key = scalar(k);
      int64_t iv;
      if (!key) {
        case_error(c, line_of(k), "expect keys must be scalars");
      } else if (!strcmp(key, "id")) {
        e.id = want_scalar(c, v, "id");
      } else if (!strcmp(key, "severity")) {
        const char *s = want_scalar(c, v, "severity");
        if (s) {
          e.severity = mdl_severity_parse(s);
          e.has_severity = 1;
          if (e.severity >= MDL_SEVERITY_COUNT)
            case_error(c, line_of(v), "unknown severity '%s' (fatal, error, warning, info, hint)", s);
        }
      } else if (!strcmp(key, "offset")) {
        if (get_int(c, v, "offset", 0, INT64_MAX, &iv) == 0) {
          e.offset = iv;
          e.has_offset = 1;
        }
      } else if (!strcmp(key, "line")) {
        if (get_int(c, v, "line", 1, UINT32_MAX, &iv) == 0) {
          e.lineno = (unsigned long)iv;
          e.has_line = 1;
        }
      } else if (!strcmp(key, "column")) {
        if (get_int(c, v, "column", 1, UINT32_MAX, &iv) == 0) {
          e.column = (unsigned long)iv;
          e.has_column = 1;
        }
      } else if (!strcmp(key, "path")) {
        e.path = want_scalar(c, v, "path");
      } else if (!strcmp(key, "compare-line")) {
        if (get_int(c, v, "compare-line", 1, UINT32_MAX, &iv) == 0) {
          e.cmp_line = (unsigned long)iv;
          e.has_cmp_line = 1;
        }
      } else if (!strcmp(key, "compare-offset")) {
        if (get_int(c, v, "compare-offset", 0, INT64_MAX, &iv) == 0) {
          e.cmp_offset = iv;
          e.has_cmp_offset = 1;
        }
      } else if (!strcmp(key, "count")) {
        if (get_int(c, v, "count", 0, INT32_MAX, &iv) == 0) {
          e.count = (unsigned long)iv;
          e.has_count = 1;
        }
      } else {
        case_error(c, line_of(k), "unknown expect key '%s' (expected id, severity, offset, line, "
                   "column, path, compare-line, compare-offset, count)", key);
      }
    }
  }
  if (!e.id) {
    case_error(c, e.line, "an expect entry needs an id");
    return;
  }
  e.rule = mdl_rule_find(e.id);
  if (!e.rule)
    case_error(c, e.line, "rule id '%s' is not in the catalogue", e.id);
  c->expects = grow(c->expects, c->nexpects + 1, sizeof *c->expects);
  c->expects[c->nexpects++] = e;
}

/* --- poses ---------------------------------------------------------------------------------- */

static void get_vector(struct conf_case *c, yaml_node_t *n, const char *what, double *out,
                       size_t count, int *has)
{
  size_t i = 0;
  if (!want_sequence(c, n, what))
    return;
  for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
    if (i < count && get_double(c, node_at(c, *it), what, &out[i]) < 0)
      return;
    i++;
  }
  if (i != count) {
    case_error(c, line_of(n), "%s needs %zu numbers, not %zu", what, count, i);
    return;
  }
  *has = 1;
}

static void parse_pose_entry(struct conf_case *c, yaml_node_t *n)
{
  struct case_pose p;
  int have_frame = 0, have_joint = 0;
  memset(&p, 0, sizeof p);
  p.line = line_of(n);
  if (!want_mapping(c, n, "a poses frame entry"))
    return;
  for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = node_at(c, pr->key), *v = node_at(c, pr->value);
    const char *key = scalar(k);
    int64_t iv;
    if (!key) {
      case_error(c, line_of(k), "frame entry keys must be scalars");
    } else if (!strcmp(key, "frame")) {
      const char *s = scalar(v);
      have_frame = 1;
      if (s && !strcmp(s, "base"))
        p.frame = -1;
      else if (get_int(c, v, "frame", 0, UINT32_MAX, &iv) == 0)
        p.frame = iv;
    } else if (!strcmp(key, "anim")) {
      p.anim = want_scalar(c, v, "anim");
    } else if (!strcmp(key, "joint")) {
      have_joint = 1;
      if (get_int(c, v, "joint", 0, UINT32_MAX, &iv) == 0)
        p.joint = (uint32_t)iv;
    } else if (!strcmp(key, "t")) {
      get_vector(c, v, "t", p.t, 3, &p.has[0]);
    } else if (!strcmp(key, "r")) {
      get_vector(c, v, "r", p.r, 4, &p.has[1]);
    } else if (!strcmp(key, "s")) {
      get_vector(c, v, "s", p.s, 3, &p.has[2]);
    } else {
      case_error(c, line_of(k), "unknown frame entry key '%s' (expected frame, anim, joint, t, r, s)",
                 key);
    }
  }
  if (!have_frame || !have_joint)
    case_error(c, p.line, "a frame entry needs frame and joint");
  else if (!p.has[0] && !p.has[1] && !p.has[2])
    case_error(c, p.line, "a frame entry needs at least one of t, r, s");
  else if (p.frame < 0 && p.anim)
    case_error(c, p.line, "'anim' does not apply to the base pose");
  c->poses = grow(c->poses, c->nposes + 1, sizeof *c->poses);
  c->poses[c->nposes++] = p;
}

static void parse_poses(struct conf_case *c, yaml_node_t *n)
{
  int have_tol = 0;
  c->has_poses = 1;
  c->poses_line = line_of(n);
  if (!want_mapping(c, n, "poses"))
    return;
  for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = node_at(c, pr->key), *v = node_at(c, pr->value);
    const char *key = scalar(k);
    if (key && !strcmp(key, "tolerance")) {
      const char *s = want_scalar(c, v, "tolerance");
      have_tol = 1;
      if (s && !strcmp(s, "bound"))
        c->tol_bound = 1;
      else if (s && (get_double(c, v, "tolerance", &c->tol) < 0 || !(c->tol >= 0) || isinf(c->tol)))
        case_error(c, line_of(v), "tolerance must be a finite number >= 0 or \"bound\"");
    } else if (key && !strcmp(key, "frames")) {
      if (!want_sequence(c, v, "frames"))
        continue;
      for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++)
        parse_pose_entry(c, node_at(c, *it));
    } else {
      case_error(c, line_of(k), "unknown poses key '%s' (expected tolerance, frames)",
                 key ? key : "?");
    }
  }
  if (!have_tol)
    case_error(c, c->poses_line, "poses needs a tolerance");
  if (c->nposes == 0)
    case_error(c, c->poses_line, "poses needs at least one frame entry");
}

/* --- the case ------------------------------------------------------------------------------- */

/* Forms that cannot work together: a case run through the mdlcheck binary sees its report, not
 * a model, and compare-* locations exist only in a compare. */
static void check_combinations(struct conf_case *c)
{
  int cli = case_uses_cli(c);
  if (c->convert && (c->has_compare || c->input.kind == INPUT_MISSING))
    case_error(c, c->convert_line, "convert needs a readable input and no compare");
  if (c->fix && (c->convert || c->has_compare || c->input.kind == INPUT_MISSING))
    case_error(c, c->fix_line, "fix needs a readable input, and no compare or convert");
  if (c->accept_loss && !c->convert)
    case_error(c, c->convert_line, "accept-loss applies only to a convert case");
  if (c->convert_output && !c->convert)
    case_error(c, c->convert_output_line, "convert-output applies only to a convert case");
  if (c->has_compare && c->input.kind == INPUT_MISSING)
    case_error(c, c->compare.line, "compare needs a readable input (mdlcheck compare reports an "
               "unreadable file as an I/O error, not a diagnostic)");
  if (cli && c->has_poses)
    case_error(c, c->poses_line, "poses need the decoded model: they do not combine with config, "
               "compare or a missing input");
  if (cli && c->roundtrip)
    case_error(c, c->roundtrip_line, "roundtrip needs the decoded model: it does not combine with "
               "config, compare or a missing input");
  if (cli && c->fail_allocation)
    case_error(c, 1, "fail-allocation applies to the decode in the runner: it does not combine "
               "with config, compare or a missing input");
  if (c->has_exit && !cli)
    case_error(c, c->exit_line, "exit applies only to a case run through mdlcheck (one with "
               "config, compare or a missing input)");
  for (size_t i = 0; i < c->nexpects; i++)
    if (!c->has_compare && (c->expects[i].has_cmp_line || c->expects[i].has_cmp_offset))
      case_error(c, c->expects[i].line, "compare-line and compare-offset need a compare input");
}

int case_load(struct conf_case *c, const char *file)
{
  yaml_parser_t parser;
  FILE *fp;
  yaml_node_t *root;
  const char *slash;

  memset(c, 0, sizeof *c);
  c->file = file;
  c->verdict = -1;
  c->others = OTHERS_NONE;
  slash = strrchr(file, '/');
  c->dir = slash ? strndup(file, (size_t)(slash - file)) : strdup(".");
  if (!c->dir)
    return -1;

  fp = fopen(file, "rb");
  if (!fp) {
    fprintf(stderr, "%s: cannot open: %s\n", file, strerror(errno));
    return -1;
  }
  if (!yaml_parser_initialize(&parser)) {
    fclose(fp);
    return -1;
  }
  yaml_parser_set_input_file(&parser, fp);
  if (!yaml_parser_load(&parser, &c->doc)) {
    fprintf(stderr, "%s:%zu:%zu: YAML error: %s %s\n", file, parser.problem_mark.line + 1,
            parser.problem_mark.column + 1, parser.problem ? parser.problem : "",
            parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    fclose(fp);
    c->errors++;
    return 0;
  }
  yaml_parser_delete(&parser);
  fclose(fp);
  c->doc_loaded = 1;

  root = yaml_document_get_root_node(&c->doc);
  if (!root) {
    case_error(c, 1, "the case file is empty");
    return 0;
  }
  if (!want_mapping(c, root, "a case"))
    return 0;
  for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = node_at(c, pr->key), *v = node_at(c, pr->value);
    const char *key = scalar(k);
    if (!key) {
      case_error(c, line_of(k), "case keys must be scalars");
    } else if (!strcmp(key, "description")) {
      c->description = want_scalar(c, v, "description");
    } else if (!strcmp(key, "input")) {
      parse_source(c, &c->input, v, "input");
    } else if (!strcmp(key, "compare")) {
      c->has_compare = 1;
      parse_source(c, &c->compare, v, "compare");
    } else if (!strcmp(key, "config")) {
      parse_config(c, v);
    } else if (!strcmp(key, "convert")) {
      c->convert_line = line_of(k);
      c->convert = want_scalar(c, v, "convert");
      if (c->convert && (!*c->convert || strspn(c->convert, "abcdefghijklmnopqrstuvwxyz.0123456789") !=
                                               strlen(c->convert)))
        case_error(c, line_of(v), "convert: '%s' is not a file extension (e.g. egg)", c->convert);
    } else if (!strcmp(key, "fix")) {
      c->fix_line = line_of(k);
      get_bool(c, v, "fix", &c->fix);
    } else if (!strcmp(key, "convert-output")) {
      c->convert_output_line = line_of(k);
      c->convert_output = want_scalar(c, v, "convert-output");
      if (c->convert_output && strcmp(c->convert_output, "link") && strcmp(c->convert_output, "fifo") &&
          strcmp(c->convert_output, "directory") && strcmp(c->convert_output, "no-folder"))
        case_error(c, line_of(v), "convert-output: '%s' is not link, fifo, directory or no-folder",
                   c->convert_output);
    } else if (!strcmp(key, "exit")) {
      int64_t iv;
      c->has_exit = 1;
      c->exit_line = line_of(k);
      if (get_int(c, v, "exit", 0, 255, &iv) == 0)
        c->exit_code = (int)iv;
    } else if (!strcmp(key, "name")) {
      c->name = want_scalar(c, v, "name");
    } else if (!strcmp(key, "options")) {
      parse_options(c, v);
    } else if (!strcmp(key, "files")) {
      if (want_sequence(c, v, "files"))
        for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
             it++) {
          struct case_source *f;
          void *nf = realloc(c->files, (c->nfiles + 1) * sizeof *c->files);
          if (!nf) {
            fprintf(stderr, "case_run: out of memory\n");
            exit(99);
          }
          c->files = nf;
          f = &c->files[c->nfiles++];
          memset(f, 0, sizeof *f);
          parse_source(c, f, node_at(c, *it), "files");
        }
    } else if (!strcmp(key, "expect")) {
      if (want_sequence(c, v, "expect"))
        for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
             it++)
          parse_expect_entry(c, node_at(c, *it));
    } else if (!strcmp(key, "others")) {
      const char *s = want_scalar(c, v, "others");
      if (s && !strcmp(s, "none"))
        c->others = OTHERS_NONE;
      else if (s && !strcmp(s, "errors"))
        c->others = OTHERS_ERRORS;
      else if (s && !strcmp(s, "any"))
        c->others = OTHERS_ANY;
      else if (s)
        case_error(c, line_of(v), "others: '%s' is not none, errors or any", s);
    } else if (!strcmp(key, "verdict")) {
      const char *s = want_scalar(c, v, "verdict");
      if (s && !strcmp(s, "valid"))
        c->verdict = 0;
      else if (s && !strcmp(s, "invalid"))
        c->verdict = 1;
      else if (s)
        case_error(c, line_of(v), "verdict: '%s' is not valid or invalid", s);
    } else if (!strcmp(key, "poses")) {
      parse_poses(c, v);
    } else if (!strcmp(key, "fail-allocation")) {
      int64_t iv;
      if (get_int(c, v, "fail-allocation", 1, 1000000, &iv) == 0)
        c->fail_allocation = (unsigned long)iv;
    } else if (!strcmp(key, "roundtrip")) {
      c->roundtrip_line = line_of(k);
      get_bool(c, v, "roundtrip", &c->roundtrip);
    } else {
      case_error(c, line_of(k), "unknown key '%s' (expected description, input, compare, convert, convert-output, fix, "
                 "config, name, options, files, expect, others, verdict, exit, poses, roundtrip, "
                 "fail-allocation)", key);
    }
  }
  if (!c->description || !*c->description)
    case_error(c, 1, "a case needs a description");
  if (c->input.kind == INPUT_NONE && c->input.line == 0)
    case_error(c, 1, "a case needs an input");
  check_combinations(c);
  return 0;
}

int case_uses_cli(const struct conf_case *c)
{
  return c->has_compare || c->convert || c->fix || c->config != CONFIG_NONE || c->input.kind == INPUT_MISSING ||
         c->nfiles || c->has_resources;
}

void case_free(struct conf_case *c)
{
  for (size_t i = 0; i < c->input.npatches; i++)
    free(c->input.patches[i].bytes);
  free(c->input.patches);
  for (size_t i = 0; i < c->compare.npatches; i++)
    free(c->compare.patches[i].bytes);
  free(c->compare.patches);
  for (size_t i = 0; i < c->nfiles; i++) {
    for (size_t k = 0; k < c->files[i].npatches; k++)
      free(c->files[i].patches[k].bytes);
    free(c->files[i].patches);
  }
  free(c->files);
  free(c->expects);
  free(c->poses);
  free(c->dir);
  if (c->doc_loaded)
    yaml_document_delete(&c->doc);
  memset(c, 0, sizeof *c);
}
