/* egg_unheld_render.c - the render attributes of an egg that the common model has no place for
 * (CORE 4.13): how a drawn texture is sampled and applied, draw order and depth, transparency and
 * blending, collide masks; recorded into model.unheld so another format's writer announces them.
 * An attribute at the value every loader uses anyway (repeat wrap, linear filtering, modulate)
 * changes nothing drawn and is not recorded; nor is one Panda3D ignores or a hint (compression,
 * priority, stage name), nor one that only matters with another that is recorded. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "egg.h"
#include "egg_map.h"

/* The kinds of render loss, one rule each. */
enum { R_SAMPLING, R_STAGE, R_ORDER, R_BLEND, R_NODE, R_HIDDEN, R_NONE };

/* Where a <Scalar> sits: a texture drawn as a mesh's material, a group, a carried primitive. */
enum { AT_TEXTURE, AT_GROUP, AT_PRIM };

struct render_tally {
  unsigned long n[R_NONE];
  const struct egg_node *first[R_NONE];
  char names[R_NONE][64]; /* the distinct attribute names, for the message */
};

/* Whether n's name is s as Panda3D compares scalar names (any case, '-' equal to '_'). */
static int is(const struct egg_node *n, const char *s)
{
  return egg_name(n) && egg_name_eq(egg_name(n), egg_name_len(n), s);
}

static int val_is(const struct egg_node *n, const char *const *words)
{
  uint32_t len;
  const char *s = egg_nvals(n) ? egg_val_str(n, 0, &len) : NULL;
  for (; s && *words; words++)
    if (egg_name_eq(s, len, *words))
      return 1;
  return 0;
}

/* A number other than def (a word counts as other: the checks report it). */
static int num_not(const struct egg_node *n, double def)
{
  uint32_t len;
  return egg_nvals(n) && (egg_val_str(n, 0, &len) != NULL || egg_val_d(n, 0) != def);
}

/* eggSyntax's defaults of the texture combiner ("The default values if any of these are omitted"). */
static int combine_default(const struct egg_node *n)
{
  static const struct { const char *name, *value; } d[] = {
    {"combine-rgb", "modulate"}, {"combine-alpha", "modulate"},
    {"combine-rgb-source0", "previous"}, {"combine-rgb-operand0", "src-color"},
    {"combine-rgb-source1", "texture"}, {"combine-rgb-operand1", "src-color"},
    {"combine-rgb-source2", "constant"}, {"combine-rgb-operand2", "src-alpha"},
    {"combine-alpha-source0", "previous"}, {"combine-alpha-operand0", "src-alpha"},
    {"combine-alpha-source1", "texture"}, {"combine-alpha-operand1", "src-alpha"},
    {"combine-alpha-source2", "constant"}, {"combine-alpha-operand2", "src-alpha"}};
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
    if (is(n, d[i].name)) {
      const char *w[2] = {d[i].value, NULL};
      return val_is(n, w);
    }
  return 0;
}

/* 1 when uv-name names a UV set the model holds apart from its texture coordinates (a custom
 * array named after the set): the target maps a material's texture with the first set. */
static int uv_set_apart(const struct egg_node *n, const struct model *m)
{
  uint32_t len;
  const char *s = egg_nvals(n) ? egg_val_str(n, 0, &len) : NULL;
  for (uint32_t i = 0; s && i < m->num_varrays; i++)
    if (m->varrays[i].type >= VT_CUSTOM && m->varrays[i].name && strlen(m->varrays[i].name) == len &&
        !memcmp(m->varrays[i].name, s, len))
      return 1;
  return 0;
}

/* Render attributes a group, a primitive and a texture share (eggSyntax: "like the other rendering
 * flags alpha, draw-order, and bin, may be specified at the group level, within the primitive
 * level, or even within a texture"). */
static int render_kind(const struct egg_node *n)
{
  static const char *const hidden[] = {"hidden", NULL}, *const off[] = {"off", NULL};
  if (is(n, "alpha")) /* off (eggSyntax: "not to enable transparency, even if the image contains
                        * an alpha channel") is what every target draws: opaque; any other mode is
                        * transparency the target's loaders decide themselves */
    return val_is(n, off) ? R_NONE : R_BLEND;
  if (is(n, "bin") || is(n, "draw-order"))
    return R_ORDER;
  if (is(n, "depth-offset"))
    return num_not(n, 0) ? R_ORDER : R_NONE;
  if (is(n, "depth-write") || is(n, "depth-test"))
    return val_is(n, off) ? R_ORDER : R_NONE;
  if (is(n, "visibility"))
    return val_is(n, hidden) ? R_HIDDEN : R_NONE;
  return R_NONE;
}

/* The kind of loss the <Scalar> n is where it sits, or R_NONE. */
static int scalar_kind(const struct egg_node *n, int at, const struct model *m)
{
  static const char *const repeat[] = {"repeat", NULL};
  /* point sampling (Panda3D's FT_nearest, FT_nearest_mipmap_nearest, FT_nearest_mipmap_linear and
   * the older names it maps to them): texels drawn as blocks where loaders filter linearly */
  static const char *const nearest[] = {"nearest", "point", "nearest-mipmap-nearest",
                                         "nearest-mipmap-linear", "mipmap-point", "mipmap-linear", NULL};
  static const char *const modulate[] = {"modulate", NULL};
  static const char *const two_d[] = {"2d", "2d-texture", "2dtexture", NULL};
  /* one channel: the image's texels go to alpha or one colour, the others constant */
  static const char *const one_channel[] = {"alpha", "red", "green", "blue", NULL};
  static const char *const no_blend[] = {"none", NULL};
  int k;
  if (!egg_name(n) || !egg_nvals(n) || n->bad)
    return R_NONE;
  if ((k = render_kind(n)) != R_NONE)
    return k;
  if (at == AT_TEXTURE) {
    if (is(n, "wrap") || is(n, "wrapu") || is(n, "wrapv"))
      return val_is(n, repeat) ? R_NONE : R_SAMPLING;
    if (is(n, "minfilter") || is(n, "magfilter"))
      return val_is(n, nearest) ? R_SAMPLING : R_NONE;
    if (is(n, "lod-bias"))
      return num_not(n, 0) ? R_SAMPLING : R_NONE;
    if (is(n, "min-lod"))
      return num_not(n, -1000) ? R_SAMPLING : R_NONE;
    if (is(n, "max-lod"))
      return num_not(n, 1000) ? R_SAMPLING : R_NONE;
    if (is(n, "envtype"))
      return val_is(n, modulate) ? R_NONE : R_STAGE;
    if (egg_name_len(n) > 7 && !strncasecmp(egg_name(n), "combine", 7))
      return combine_default(n) ? R_NONE : R_STAGE;
    if (is(n, "tex-gen"))
      return R_STAGE;
    if (is(n, "rgb-scale") || is(n, "alpha-scale"))
      return num_not(n, 1) ? R_STAGE : R_NONE;
    if (is(n, "uv-name"))
      return uv_set_apart(n, m) ? R_STAGE : R_NONE;
    if (is(n, "type"))
      return val_is(n, two_d) ? R_NONE : R_STAGE;
    if (is(n, "multiview") || is(n, "read-mipmaps"))
      return num_not(n, 0) ? R_STAGE : R_NONE;
    if (is(n, "format"))
      return val_is(n, one_channel) ? R_STAGE : R_NONE;
    return R_NONE;
  }
  if (at == AT_GROUP) {
    if (is(n, "decal") || is(n, "direct") || is(n, "no-fog"))
      return num_not(n, 0) ? R_ORDER : R_NONE;
    if (is(n, "blend"))
      return val_is(n, no_blend) ? R_NONE : R_BLEND;
    if (is(n, "collide-mask") || is(n, "from-collide-mask") ||
        is(n, "into-collide-mask"))
      return R_NODE;
    if (is(n, "polylight"))
      return num_not(n, 0) ? R_NODE : R_NONE;
    if (is(n, "scroll-u") || is(n, "scroll-v") || is(n, "scroll-w") ||
        is(n, "scroll-r"))
      return num_not(n, 0) ? R_STAGE : R_NONE;
  }
  return R_NONE;
}

/* Count n (named `what` in the message) as a loss of kind k; the message lists each distinct
 * attribute once, with the value it had first. */
static void tally_add(struct render_tally *t, int k, const struct egg_node *n, const char *what)
{
  char *l = t->names[k], item[48];
  size_t len = strlen(l), il;
  uint32_t vlen = 0;
  const char *v = n->spec == S_SCALAR && egg_nvals(n) ? egg_val_str(n, 0, &vlen) : NULL;
  if (!t->n[k]++ || egg_node_line(n) < egg_node_line(t->first[k])) /* textures are walked last: the earliest is named */
    t->first[k] = n;
  if (v)
    snprintf(item, sizeof item, "%s %.*s", what, (int)(vlen > 20 ? 20 : vlen), v);
  else if (n->spec == S_SCALAR && egg_nvals(n))
    snprintf(item, sizeof item, "%s %g", what, egg_val_d(n, 0));
  else
    snprintf(item, sizeof item, "%s", what);
  il = strlen(item);
  for (const char *p = l; (p = strstr(p, what)) != NULL; p += strlen(what))
    if ((p == l || p[-1] == ' ') && (p[strlen(what)] == ' ' || p[strlen(what)] == ',' || !p[strlen(what)]))
      return; /* named already */
  if (len + il + 3 < sizeof t->names[k]) {
    if (len)
      strcat(l, ", ");
    strcat(l, item);
  } else if (len + 6 < sizeof t->names[k] && !strstr(l, "..."))
    strcat(l, ", ...");
}

static void tally_scalar(struct render_tally *t, const struct egg_node *n, int at, const struct model *m)
{
  int k = scalar_kind(n, at, m);
  if (k != R_NONE)
    tally_add(t, k, n, egg_name(n));
}

/* A primitive the model makes triangles of: its attributes apply to a mesh the target writes. */
static int carried_prim(int spec)
{
  return spec == S_POLYGON || spec == S_TRIFAN || spec == S_TRISTRIP;
}

static const struct egg_node *first_tref(const struct egg_node *prim)
{
  for (const struct egg_node *c = egg_first(prim); c; c = egg_next(c))
    if (c->spec == S_TREF && !c->bad)
      return c;
  return NULL;
}

void egg_unheld_render(struct egg_doc *doc, struct model *m, unsigned long *hidden,
                       const struct egg_node **first_hidden)
{
  struct render_tally t;
  struct egg_map drawn; /* <Texture>s some primitive draws with: its first <TRef> (the mesh's material) */
  struct egg_map last;  /* texture name -> its last <Texture> so far: the one a <TRef> names */
  int failed = 0;
  if (!doc->root || (!doc->spec_count[S_SCALAR] && !doc->spec_count[S_TEXTURE]))
    return;
  memset(&t, 0, sizeof t);
  egg_map_init(&drawn, &doc->map_failures, egg_doc_bound(doc)); /* a failure is counted: the decode says so */
  egg_map_init(&last, &doc->map_failures, egg_doc_bound(doc));
  for (const struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, n->spec != S_VPOOL &&
                                                                   n->spec != S_TABLE && n->spec != S_BUNDLE)) {
    const struct egg_node *p = egg_parent(n);
    struct egg_map_ent *e;
    uint32_t len;
    const char *s;
    if (n->spec == S_TEXTURE && egg_name(n)) {
      if ((e = egg_map_at(&last, egg_name(n), egg_name_len(n))) != NULL)
        e->val = (void *)(uintptr_t)n;
      else
        failed = 1;
    } else if (n->spec == S_SCALAR && p && egg_is_group(p->spec)) {
      if (scalar_kind(n, AT_GROUP, m) != R_HIDDEN) /* hidden groups: egg_unheld.c counts them */
        tally_scalar(&t, n, AT_GROUP, m);
    } else if (n->spec == S_SCALAR && p && carried_prim(p->spec))
      tally_scalar(&t, n, AT_PRIM, m);
    else if (n->spec == S_TREF && p && carried_prim(p->spec) && first_tref(p) == n && egg_nvals(n) &&
             (s = egg_val_str(n, 0, &len)) != NULL && (e = egg_map_find(&last, s, len)) != NULL &&
             e->val && !egg_map_pair(&drawn, (uintptr_t)e->val, 0))
      failed = 1;
  }
  /* the attributes of each texture drawn as a mesh's material: one a primitive uses after its
   * first, or none uses, is no material of the target (MDL-CNV-008 or no loss at all) */
  for (const struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, n->spec == S_ROOT || egg_is_group(n->spec))) {
    if (n->spec != S_TEXTURE || n->bad || (!failed && !egg_map_pair_find(&drawn, (uintptr_t)n, 0)))
      continue;
    for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
      if (c->spec == S_SCALAR)
        tally_scalar(&t, c, AT_TEXTURE, m);
      else if (c->spec == S_TRANSFORM && egg_first(c) && !c->bad)
        tally_add(&t, R_STAGE, c, "<Transform>"); /* a texture matrix: UVs moved before sampling */
  }
  egg_map_free(&drawn);
  egg_map_free(&last);
  if (t.n[R_HIDDEN]) { /* hidden primitives and textures join hidden groups (MDL-CNV-029) */
    if (!*hidden || (egg_node_line(t.first[R_HIDDEN]) < egg_node_line(*first_hidden)))
      *first_hidden = t.first[R_HIDDEN];
    *hidden += t.n[R_HIDDEN];
  }
  egg_unheld_add(m, RULE_CORE_CONVERT_TEXTURE_SAMPLING, t.n[R_SAMPLING], t.first[R_SAMPLING],
                 "%lu sampling settings of textures drawn as materials (%s) are dropped: the target's "
                 "loaders repeat and filter a texture linearly", t.n[R_SAMPLING], t.names[R_SAMPLING]);
  egg_unheld_add(m, RULE_CORE_CONVERT_TEXTURE_STAGE, t.n[R_STAGE], t.first[R_STAGE],
                 "%lu texture application settings (%s) are dropped: the target modulates a material's "
                 "texture, unmoved, on the first UV set", t.n[R_STAGE], t.names[R_STAGE]);
  egg_unheld_add(m, RULE_CORE_CONVERT_DRAW_ORDER, t.n[R_ORDER], t.first[R_ORDER],
                 "%lu draw order, depth and fog settings (%s) are dropped: the target draws its meshes "
                 "in its own order, depth-tested", t.n[R_ORDER], t.names[R_ORDER]);
  egg_unheld_add(m, RULE_CORE_CONVERT_BLEND_MODE, t.n[R_BLEND], t.first[R_BLEND],
                 "%lu transparency and blend modes (%s) are dropped: the target's loaders decide "
                 "transparency themselves", t.n[R_BLEND], t.names[R_BLEND]);
  egg_unheld_add(m, RULE_CORE_CONVERT_COLLIDE_MASK, t.n[R_NODE], t.first[R_NODE],
                 "%lu collide masks and polylights (%s) are dropped", t.n[R_NODE], t.names[R_NODE]);
}
