/* egg_format.c - Panda3D egg registration: content detection, the decode pipeline (inflate,
 * parse, checks, animation tables and geometry into the model) and profile-aware diagnostics. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "egg.h"
#include "mem_bound.h"
#include "egg_map.h"

static const char *const egg_extensions[] = {".egg", ".egg.pz", ".pz", NULL};

/* Rules that make Panda3D's EggData::read() fail (notes §3.2). Under --profile=panda these
 * stay errors; every other error is a spec-only rule and becomes a warning there. */
static const enum rule_index panda_rejects[] = {
  RULE_EGG_SYNTAX, RULE_EGG_ARITY, RULE_EGG_NOT_A_NUMBER, RULE_EGG_VALUE_ORDER,
  RULE_EGG_PLACEMENT, RULE_EGG_UNKNOWN_KEYWORD, RULE_EGG_UNUSED_KEYWORD, RULE_EGG_GLUED_KEYWORD,
  RULE_EGG_BYTE_ORDER_MARK, RULE_EGG_NESTING_DEPTH, RULE_EGG_UNEXPECTED_EOF,
  RULE_EGG_STRAY_BRACE, RULE_EGG_UNTERMINATED_QUOTE, RULE_EGG_UNCLOSED_COMMENT,
  RULE_EGG_NAME_REQUIRED, RULE_EGG_STRING_REQUIRED, RULE_EGG_LEGACY_FILE_WORD,
  RULE_EGG_VERTEX_INDEX_NEGATIVE, RULE_EGG_TWO_POOLS, RULE_EGG_COMPONENT_NOT_COMPOSITE,
  RULE_EGG_COMPONENT_RANGE, RULE_EGG_UNKNOWN_TEXTURE, RULE_EGG_UNKNOWN_MATERIAL,
  RULE_EGG_UNKNOWN_GROUP, RULE_EGG_REF_OUTSIDE_INSTANCE, RULE_EGG_TEXTURE_SCALE,
  RULE_EGG_NUM_VIEWS, RULE_EGG_UNDEFINED_POOL, RULE_EGG_UNDEFINED_VERTEX,
  RULE_EGG_ZLIB,
  RULE_EGG_PZ_CONTAINER, /* not a parse failure, but Panda3D then reads no egg text at all */
};

static int is_panda_reject(enum rule_index rule)
{
  for (size_t i = 0; i < sizeof panda_rejects / sizeof panda_rejects[0]; i++)
    if (panda_rejects[i] == rule)
      return 1;
  return 0;
}

void egg_emit(struct egg_doc *doc, enum rule_index rule, unsigned line, unsigned col,
              const char *expected, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  egg_vemit(doc, rule, line, col, expected, fmt, ap);
  va_end(ap);
}

void egg_vemit(struct egg_doc *doc, enum rule_index rule, unsigned line, unsigned col,
               const char *expected, const char *fmt, va_list ap)
{
  char actual[256];
  struct mdl_loc loc;
  actual[0] = 0;
  if (fmt)
    vsnprintf(actual, sizeof actual, fmt, ap);
  loc = line ? loc_text(line, col, NULL) : loc_none();
  if (doc->panda) {
    const mdl_rule *r = mdl_rule_at((size_t)rule);
    /* Panda3D stops at its first syntax error: nothing after it is ever reported */
    if (doc->syntax_failed &&
        (!line || line > doc->fail_line || (line == doc->fail_line && col > doc->fail_col)))
      return;
    if (r->severity <= MDL_ERROR && !is_panda_reject(rule)) {
      char msg[512];
      diag_render(msg, sizeof msg, r->message, actual, expected ? expected : "", "");
      diag_emit(doc->ctx->diag, RULE_EGG_SPEC_ONLY, &loc, r->id, "%s", msg);
      return;
    }
  }
  diag_emit(doc->ctx->diag, rule, &loc, expected, "%s", actual);
}

int egg_name_eq(const char *a, size_t alen, const char *b)
{
  size_t blen = strlen(b);
  if (alen != blen)
    return 0;
  for (size_t i = 0; i < alen; i++) {
    unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
    if (x >= 'A' && x <= 'Z')
      x = (unsigned char)(x + 32);
    if (y >= 'A' && y <= 'Z')
      y = (unsigned char)(y + 32);
    if (x == '-')
      x = '_';
    if (y == '-')
      y = '_';
    if (x != y)
      return 0;
  }
  return 1;
}

int egg_node_name_is(const struct egg_node *n, const char *s)
{
  return egg_name(n) && egg_name_len(n) == strlen(s) && !memcmp(egg_name(n), s, egg_name_len(n));
}

uint32_t egg_node_last_line(const struct egg_node *n)
{
  /* the last entry in the subtree is the furthest in the text: its line is the most any of
   * them start on; the last to close are that one and the entries it is in, each after the one
   * below it, so the highest of them without values that kept its closing line closed last */
  const struct egg_node *e = n + n->size - 1;
  uint32_t last = egg_node_line(e), close = 0;
  for (;; e = egg_parent(e)) {
    uint32_t c = e->vform == VF_NONE ? egg_close_line(e) : 0;
    if (c)
      close = c;
    if (e == n)
      break;
  }
  return close > last ? close : last;
}

struct egg_node *egg_next_pre(const struct egg_node *n, const struct egg_node *root)
{
  return egg_next_skip(n, root, 1);
}

const struct egg_node *egg_scalar_child(const struct egg_node *n, const char *name)
{
  const struct egg_node *found = NULL;
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
    if (c->spec == S_SCALAR && egg_name(c) && egg_name_eq(egg_name(c), egg_name_len(c), name))
      found = c; /* the later one wins */
  return found;
}

/* Text egg: optional whitespace and comments, then a `<Keyword>`. */
static int detect_text(const unsigned char *d, size_t n)
{
  size_t i = 0;
  if (n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF)
    i = 3; /* recognised, so the byte order mark can be reported (EGG-LEX-004) */
  for (;;) {
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n'))
      i++;
    if (i + 1 < n && d[i] == '/' && d[i + 1] == '/') {
      while (i < n && d[i] != '\n' && d[i] != '\r')
        i++;
      continue;
    }
    if (i + 2 < n && d[i] == '/' && d[i + 1] == '*' &&
        (d[i + 2] == ' ' || d[i + 2] == '\t' || d[i + 2] == '\n' || d[i + 2] == '\r')) {
      i += 2;
      while (i + 1 < n && !(d[i] == '*' && d[i + 1] == '/'))
        i++;
      if (i + 1 >= n)
        return 0;
      i += 2;
      continue;
    }
    break;
  }
  if (i < n && d[i] == '<') {
    size_t j = i + 1;
    while (j < n && j - i < 24 && d[j] != '>')
      j++;
    if (j < n && d[j] == '>' && egg_kw_lookup((const char *)d + i, j - i + 1))
      return 90;
    return 40;
  }
  return 0;
}

static int egg_detect(const unsigned char *data, size_t size)
{
  if (egg_pz_is_zlib(data, size))
    return 60; /* a zlib stream: egg is the only zlib-wrapped format we know */
  return detect_text(data, size);
}

/* Panda3D picks text or zlib by the name's extension alone (.pz, .gz), so a name that says the
 * other thing than the bytes makes it read something else. No name (stdin, a buffer): no check. */
static void pz_name_check(struct egg_doc *doc, const char *name, int compressed, size_t size)
{
  size_t n = name ? strlen(name) : 0;
  int named = n >= 3 && (!strcmp(name + n - 3, ".pz") || !strcmp(name + n - 3, ".gz"));
  if (!name || !strcmp(name, "-") || named == compressed)
    return;
  if (named)
    egg_emit(doc, RULE_EGG_PZ_CONTAINER, 0, 0, "a zlib stream (or a name without .pz)",
             "the file is named %s but is not compressed (%s)", name + n - 3,
             size ? "it holds uncompressed bytes" : "it is empty");
  else
    egg_emit(doc, RULE_EGG_PZ_CONTAINER, 0, 0, "a name ending in .pz (or .gz), or uncompressed text",
             "%s", "the file is compressed but its name does not end in .pz");
}

/* The report's Egg counts: <Group> entries (scene nodes, joints apart) and <Table> entries
 * (animation tables, nested ones included); the geometry's are unknown unless it was built. */
static void stats_count(struct decode_ctx *ctx, const struct egg_doc *doc)
{
  const struct egg_node *root = doc->root;
  unsigned long long groups = 0, tables = 0;
  if (doc->dropped || !doc->keep_values) {
    /* geometry is built (polygons triangulated, vertices shared) only by a full decode */
    decode_count(ctx, DC_MESHES, MDL_STAT_UNKNOWN);
    decode_count(ctx, DC_VERTICES, MDL_STAT_UNKNOWN);
    decode_count(ctx, DC_TRIANGLES, MDL_STAT_UNKNOWN);
  }
  /* <Group> and <Table> are the only kinds of entry those keywords make (egg_grammar.c), and
   * the parser counts every entry it attaches: no walk over the tree */
  if (root) {
    groups = doc->spec_count[S_GROUP];
    tables = doc->spec_count[S_TABLE];
  }
  decode_stat(ctx, "groups", groups);
  decode_stat(ctx, "tables", tables);
}

static int decode_doc(struct decode_ctx *ctx, struct model *m, struct egg_doc *doc)
{
  struct egg_private *priv = arena_calloc(&m->arena, 1, sizeof *priv);
  const unsigned char *data;
  size_t size = ctx->in.size;
  int compressed;
  if (!priv)
    return -1;
  doc->ctx = ctx;
  doc->window = ctx->text;
  doc->walk_window = ctx->refs_distinct ? ctx->text : NULL;
  doc->arena = &m->arena;
  doc->panda = ctx->options && ctx->options->profile && !strcmp(ctx->options->profile, "panda");
  /* validation alone reads no vertex or animation samples: keep their counts only; poses
   * (skeleton_only) read the animation samples, not the vertices' */
  doc->keep_values = ctx->keep_frames && !ctx->skeleton_only;
  doc->keep_anim = ctx->keep_frames;
  doc->drop_transforms = !ctx->keep_frames && ctx->joints_unread;
  data = size ? reader_ptr(&ctx->in, 0, size) : (const unsigned char *)"";
  compressed = egg_pz_is_zlib(data, size);
  pz_name_check(doc, decode_name(ctx), compressed, size);
  if (compressed) {
    /* the container is reported apart from the version: Egg has none, compressed or not */
    snprintf(ctx->compression, sizeof ctx->compression, "%s", data[0] == 0x1f ? "gzip" : "zlib");
    size_t file_size = size;
    data = egg_pz_inflate(doc, data, size, &size);
    if (!data)
      return -1;
    diag_source(ctx->diag, data, size); /* lines and columns now count in the inflated text */
    mem_bound_text(ctx->bound, file_size, size); /* --max-memory's default follows the text */
  }
  diag_source_lf_cr(ctx->diag); /* the lexer counts LF CR as one line end */
  if (size > UINT32_MAX) {
    /* the tree keeps 32-bit text offsets (issue 26: 16-byte entries), so a larger text (only
     * with --max-input-size over 4G) is refused as too large, not passed off as out of memory */
    struct mdl_loc loc = loc_none();
    diag_emit(ctx->diag, RULE_CORE_INPUT_TOO_LARGE, &loc, "4294967295", "%s",
              "the Egg text (its tree addresses 4 GiB at most)");
    ctx->input_too_large = 1; /* nothing was checked: exit 3 as for any input over the limit */
    return -1;
  }
  if (egg_parse(doc, data, size) < 0) {
    diag_out_of_memory(ctx->diag, "parsing the egg text");
    return -1;
  }
  egg_check_refs(doc);
  egg_check_vertices(doc);
  egg_check_geometry(doc);
  egg_check_scalars(doc);
  egg_check_nurbs(doc);
  egg_check_anim(doc);
  priv->magic = EGG_PRIVATE_MAGIC;
  priv->root = doc->root;
  priv->dropped = doc->dropped;
  m->format_data = priv;
  m->format_data_owner = "egg";
  if (!ctx->refs_unread)
    egg_collect_refs(doc, m); /* or walked from the tree, for validation (model.ref_walk) */
  if (egg_anim_decode(doc, m) < 0)
    return -1;
  /* after the joints: memberships name them by the index egg_anim_decode gave each <Joint> */
  if (egg_geometry_decode(doc, m) < 0)
    return -1;
  if (doc->keep_values && !doc->dropped)
    egg_unheld_record(doc, m); /* what the model holds is built: what it does not is named */
  stats_count(ctx, doc);
  /* a check that could not allocate skipped part of the file (the model's arena remembers its
   * own failures, and the pipeline reports them) */
  if (doc->map_failures) {
    diag_out_of_memory(ctx->diag, "an egg check");
    return -1;
  }
  return 0;
}

static int egg_decode(struct decode_ctx *ctx, struct model *m)
{
  struct egg_doc *doc = arena_calloc(&m->arena, 1, sizeof *doc);
  int rc;
  if (!doc)
    return -1;
  rc = decode_doc(ctx, m, doc);
  doc->window = NULL; /* the decode's: what reads the text later (spans) reads it as it is */
  return rc;
}

/* *s, when it is in the tree's strings (egg_name, egg_val_str), as a copy in the model's arena:
 * 0, or -1 when out of memory (*s then unchanged). */
static int own_string(struct model *m, const struct egg_doc *doc, const char **s)
{
  char *copy;
  if (!*s || !doc->strs || *s < doc->strs || *s >= doc->strs + doc->strs_used)
    return 0; /* no strings at all: NULL + 0 is undefined (UBSan, AFL every_egg) */
  if (!(copy = arena_strndup(&m->arena, *s, egg_str_len(*s))))
    return -1;
  *s = copy;
  return 0;
}

/* release_source (format.h): the tree and its pools go, once the model's names that point
 * into them are copies of their own (joints, animations, files); the model's arrays are its
 * own already. A copy that cannot be made keeps everything (the arena's failure undone: the
 * model is whole). */
static void egg_release_source(struct model *m)
{
  struct egg_private *priv = m->format_data;
  struct egg_doc *doc;
  int failed = m->arena.failed, rc = 0;
  if (!priv || !m->format_data_owner || strcmp(m->format_data_owner, "egg") ||
      priv->magic != EGG_PRIVATE_MAGIC || !priv->root || priv->lazy_tf || priv->walk_skel ||
      m->joint_walk || m->frame_get || m->joint_name || m->ref_walk)
    return; /* frames, joints or files read from the tree as they are asked for */
  doc = egg_tree_of(priv->root)->doc;
  for (uint32_t j = 0; rc == 0 && m->joints && j < m->num_joints; j++)
    rc = own_string(m, doc, &m->joints[j].name);
  for (uint32_t a = 0; rc == 0 && m->anims && a < m->num_anims; a++)
    rc = own_string(m, doc, &m->anims[a].name);
  for (struct model_ref *r = m->refs; rc == 0 && r; r = r->next)
    if ((rc = own_string(m, doc, &r->ref)) == 0)
      rc = own_string(m, doc, &r->format);
  if (rc < 0) {
    m->arena.failed = failed;
    return;
  }
  priv->root = NULL;
  priv->dropped = 1; /* egg_write refuses it now: the values it would write are gone */
  doc->root = doc->node_arr = NULL;
  arena_release(&m->arena, doc->tree);
  doc->tree = NULL;
  arena_release(&m->arena, doc->strs);
  arena_release(&m->arena, doc->nums);
  arena_release(&m->arena, doc->f32);
  arena_release(&m->arena, doc->i8);
  arena_release(&m->arena, doc->rich);
  arena_release(&m->arena, doc->far);
  arena_release(&m->arena, doc->vertex_attrs);
  for (int c = 0; c < 2; c++) {
    struct egg_col *col = c ? &doc->vals : &doc->names;
    arena_release(&m->arena, col->vals);
    arena_release(&m->arena, col->mask);
    arena_release(&m->arena, col->base);
  }
  doc->strs = NULL;
  doc->nums = NULL;
  doc->f32 = NULL;
  doc->i8 = NULL;
  doc->rich = NULL;
  doc->far = NULL;
  doc->vertex_attrs = NULL;
  memset(&doc->names, 0, sizeof doc->names);
  memset(&doc->vals, 0, sizeof doc->vals);
}

/* --profile=panda: what Panda3D's loader accepts beyond the documented syntax */
static int egg_profile_at(const mdl_options *o, size_t i, char *buf, size_t cap)
{
  static const char *const names[] = {"panda", NULL};
  (void)o;
  if (i >= sizeof names / sizeof names[0] - 1)
    return -1;
  snprintf(buf, cap, "%s", names[i]);
  return 0;
}

static const struct format_profile egg_profile_docs[] = {
  {"panda", "what Panda3D's loader accepts beyond the documented syntax"},
  {NULL, NULL}
};

const struct mdl_format egg_format = {
  .name = "egg", /* the registry and the rule catalogue (rules_gen.c) point here */
  .description = "Panda3D Egg (text, .egg.pz zlib)",
  .extensions = egg_extensions,
  .text = 1,
  .precision = FMT_PRECISION_PRINTED,
  .up_axis = "z", /* <CoordinateSystem> may say otherwise; Z-up is the default */
  .profile_docs = egg_profile_docs,
  .detect = egg_detect,
  .decode = egg_decode,
  .write = egg_write,
  .release_source = egg_release_source,
  .pose_matrix = egg_pose_matrix,
  .profile_at = egg_profile_at,
};
