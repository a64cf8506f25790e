/* egg_check_anim.c - characters and animation bundles (notes §4, §5 F1-F3, I1-I10): <Dart>
 * groups and joints, the "<skeleton>" table, xform tables, component letters, order and
 * contents strings, frame counts and rates, and the joint tree against the table tree. */
#include <string.h>

#include "egg.h"
#include "egg_map.h"

static const char letters[] = "ijkabchprxyz";

static const char *node_label(char *buf, size_t cap, const struct egg_node *n)
{
  if (!egg_name(n))
    return "(unnamed)";
  return egg_show(buf, cap, egg_name(n), egg_name_len(n));
}

/* A group is a character when it holds a non-zero <Dart> (the last one wins). */
static int dart_value(const struct egg_node *g)
{
  const struct egg_node *d = NULL;
  if ((g->spec != S_GROUP && g->spec != S_JOINT && g->spec != S_INSTANCE) || !g->has_dart)
    return 0;
  for (const struct egg_node *c = egg_first(g); c; c = egg_next(c))
    if (c->spec == S_DART)
      d = c;
  const char *s;
  uint32_t len;
  if (!d || !egg_nvals(d))
    return 0;
  if ((s = egg_val_str(d, 0, &len)))
    return !egg_name_eq(s, len, "default");
  return egg_val_d(d, 0) != 0;
}

/* Cached per node: ancestors are asked once per descendant joint. */
static int is_dart(const struct egg_node *g)
{
  struct egg_node *w = (struct egg_node *)(uintptr_t)g;
  if (!egg_is_group(g->spec))
    return 0; /* and no write: the cache is for groups */
  if (!w->dart)
    w->dart = (uint8_t)(dart_value(g) ? 2 : 1);
  return w->dart == 2;
}

/* Joints, characters and bundles are in groups and tables only. */
static int anim_descend(const struct egg_node *n)
{
  return egg_in_node_list(n) || n->spec == S_TABLE || n->spec == S_BUNDLE;
}

static const struct egg_node *dart_ancestor(const struct egg_node *n)
{
  for (const struct egg_node *p = egg_parent(n); p; p = egg_parent(p))
    if (is_dart(p))
      return p;
  return NULL;
}

static const struct egg_node *last_v(const struct egg_node *n)
{
  const struct egg_node *v = NULL;
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
    if (c->spec == S_V)
      v = c;
  return v;
}

static void check_order(struct egg_doc *doc, const struct egg_node *x)
{
  const struct egg_node *s = egg_scalar_child(x, "order");
  char buf[96];
  const char *o;
  uint32_t len;
  if (!s || !egg_nvals(s) || !(o = egg_val_str(s, 0, &len)))
    return;
  for (uint32_t i = 0; i < len; i++)
    if (!strchr("shprt", o[i]) || !o[i]) {
      egg_emit_val(doc, RULE_EGG_ORDER_INVALID, s, 0, NULL, "%s", egg_show(buf, sizeof buf, o, len));
      return;
    }
}

struct bundle_state {
  struct egg_doc *doc;
  const struct egg_node *bundle;
  uint32_t frames;         /* first multi-row length seen */
  const struct egg_node *frames_at;
  double fps;
};

static void note_rows(struct bundle_state *bs, const struct egg_node *table, uint32_t rows)
{
  char buf[96], act[160], exp[96];
  if (rows <= 1)
    return;
  if (!bs->frames) {
    bs->frames = rows;
    bs->frames_at = table;
    return;
  }
  if (rows != bs->frames) {
    snprintf(act, sizeof act, "%s has %u frames", node_label(buf, sizeof buf, table), (unsigned)rows);
    snprintf(exp, sizeof exp, "%u like the table at line %u (or 1)", (unsigned)bs->frames,
             egg_node_line(bs->frames_at));
    egg_emit_node(bs->doc, RULE_EGG_FRAME_COUNT, table, exp, "%s", act);
  }
}

static void check_fps(struct bundle_state *bs, const struct egg_node *x)
{
  const struct egg_node *s = egg_scalar_child(x, "fps");
  char buf[96], exp[40];
  double fps = s && egg_nvals(s) && egg_val_is_number(s, 0) ? egg_val_d(s, 0) : 0;
  if (!(fps > 0)) {
    const struct egg_node *owner = egg_parent(x) ? egg_parent(x) : x;
    egg_emit_node(bs->doc, RULE_EGG_FPS_MISSING, x, NULL, "table %s",
             node_label(buf, sizeof buf, owner));
    return;
  }
  if (bs->fps == 0) {
    bs->fps = fps;
  } else if (fps != bs->fps) {
    snprintf(exp, sizeof exp, "%g", bs->fps);
    egg_emit_val(bs->doc, RULE_EGG_FPS_MISMATCH, s, 0, exp, "%g", fps);
  }
}

static void check_xfms(struct bundle_state *bs, const struct egg_node *x)
{
  struct egg_doc *doc = bs->doc;
  char buf[96];
  check_order(doc, x);
  check_fps(bs, x);
  for (const struct egg_node *c = egg_first(x); c; c = egg_next(c)) {
    const struct egg_node *v;
    if (c->spec != S_SANIM)
      continue;
    v = last_v(c);
    if (!v || !egg_nvals(v))
      egg_emit_node(doc, RULE_EGG_EMPTY_TABLE, c, NULL, "%s", node_label(buf, sizeof buf, c));
    else
      note_rows(bs, c, egg_nvals(v));
  }
}

/* The component letters of an <Xfm$Anim_S$>, wherever it is: one in a plain <Table> (no
 * <Bundle> around it, so Panda3D loads no animation from it) or an empty component is still a
 * component that names no channel, and the animation the author meant is lost. */
static void check_components(struct egg_doc *doc, const struct egg_node *x)
{
  int seen[12] = {0};
  char buf[96];
  for (const struct egg_node *c = egg_first(x); c; c = egg_next(c)) {
    const char *p;
    if (c->spec != S_SANIM)
      continue;
    p = egg_name(c) && egg_name_len(c) == 1 ? strchr(letters, egg_name(c)[0]) : NULL;
    if (!p || !egg_name(c)[0]) {
      egg_emit_node(doc, RULE_EGG_SANIM_NAME, c, "i j k a b c h p r x y z", "%s",
               node_label(buf, sizeof buf, c));
      continue;
    }
    if (seen[p - letters]++)
      egg_emit_node(doc, RULE_EGG_SANIM_DUPLICATE, c, NULL, "%s", node_label(buf, sizeof buf, c));
  }
}

static void check_xfm(struct bundle_state *bs, const struct egg_node *x)
{
  struct egg_doc *doc = bs->doc;
  const struct egg_node *s = egg_scalar_child(x, "contents"), *v = last_v(x);
  char buf[96], act[160], exp[96];
  size_t ncols = 0;
  uint32_t clen = 0;
  check_order(doc, x);
  check_fps(bs, x);
  const char *cs = s && egg_nvals(s) ? egg_val_str(s, 0, &clen) : NULL;
  if (!cs || !clen) {
    egg_emit_node(doc, RULE_EGG_CONTENTS_INVALID, x, "a non-empty string of i j k a b c h p r x y z",
             "%s", "missing or empty");
  } else {
    ncols = clen;
    for (uint32_t i = 0; i < clen; i++)
      if (!cs[i] || !strchr(letters, cs[i])) {
        egg_emit_val(doc, RULE_EGG_CONTENTS_INVALID, s, 0, "letters from i j k a b c h p r x y z",
                     "%s", egg_show(buf, sizeof buf, cs, clen));
        break;
      }
  }
  if (!v || !egg_nvals(v)) {
    egg_emit_node(doc, RULE_EGG_EMPTY_TABLE, x, NULL, "%s", node_label(buf, sizeof buf, x));
    return;
  }
  if (ncols && egg_nvals(v) % ncols) {
    snprintf(act, sizeof act, "%u", (unsigned)egg_nvals(v));
    snprintf(exp, sizeof exp, "a multiple of %zu (the length of contents)", ncols);
    egg_emit_node(doc, RULE_EGG_V_LENGTH, v, exp, "%s", act);
  }
  if (ncols)
    note_rows(bs, x, (uint32_t)(egg_nvals(v) / ncols));
}

static void check_table(struct bundle_state *bs, const struct egg_node *t)
{
  unsigned xforms = 0;
  char buf[96];
  for (const struct egg_node *c = egg_first(t); c; c = egg_next(c)) {
    if (!egg_node_name_is(c, "xform"))
      continue;
    if (c->spec == S_XFMANIM || c->spec == S_XFMSANIM) {
      if (++xforms == 2)
        egg_emit_node(bs->doc, RULE_EGG_DUPLICATE_XFORM, c, NULL, "%s",
                 node_label(buf, sizeof buf, t));
    } else {
      egg_emit_node(bs->doc, RULE_EGG_XFORM_WRONG_TYPE, c, NULL, "%s", egg_specs[c->spec].what);
    }
  }
}

static void check_bundle(struct egg_doc *doc, const struct egg_node *b)
{
  struct bundle_state bs;
  int skeleton = 0;
  char buf[96];
  memset(&bs, 0, sizeof bs);
  bs.doc = doc;
  bs.bundle = b;
  for (const struct egg_node *c = egg_first(b); c; c = egg_next(c)) {
    if (c->spec == S_TABLE && egg_node_name_is(c, "<skeleton>"))
      skeleton = 1;
    else if (c->spec != S_TABLE)
      egg_emit_node(doc, RULE_EGG_BUNDLE_HOLDS_NON_TABLE, c, NULL, "%s", egg_specs[c->spec].what);
  }
  if (!skeleton)
    egg_emit_node(doc, RULE_EGG_BUNDLE_NO_SKELETON, b, NULL, "%s", node_label(buf, sizeof buf, b));
  for (const struct egg_node *n = egg_first(b); n; n = egg_next_pre(n, b)) {
    switch (n->spec) {
    case S_TABLE: check_table(&bs, n); break;
    case S_XFMSANIM: check_xfms(&bs, n); break;
    case S_XFMANIM: check_xfm(&bs, n); break;
    case S_SANIM:
      if (egg_parent(n)->spec != S_XFMSANIM) {
        const struct egg_node *v = last_v(n);
        if (!v || !egg_nvals(v))
          egg_emit_node(doc, RULE_EGG_EMPTY_TABLE, n, NULL, "%s", node_label(buf, sizeof buf, n));
        else
          note_rows(&bs, n, egg_nvals(v));
      }
      break;
    default:
      break;
    }
  }
}

/* Compare the children of a joint (or the character) with those of a table, by name. */
static int tree_compare(struct egg_doc *doc, const struct egg_node *joint_parent,
                        const struct egg_node *table, int depth)
{
  char a[96], act[200], exp[200];
  if (depth > (int)EGG_MAX_DEPTH)
    return 0;
  /* every joint has a table */
  for (const struct egg_node *n = egg_first(joint_parent); n; n = egg_next_skip(n, joint_parent, egg_in_node_list(n))) {
    const struct egg_node *t, *p;
    if (n->spec != S_JOINT)
      continue;
    for (p = egg_parent(n); p != joint_parent && p->spec != S_JOINT; p = egg_parent(p))
      ;
    if (p != joint_parent)
      continue; /* a deeper joint: checked under its parent */
    for (t = egg_first(table); t; t = egg_next(t))
      if (t->spec == S_TABLE && egg_name(n) && egg_name(t) && egg_name_len(n) == egg_name_len(t) &&
          !memcmp(egg_name(n), egg_name(t), egg_name_len(n)))
        break;
    if (!t) {
      snprintf(act, sizeof act, "<Joint> %s has no <Table> under %s", node_label(a, sizeof a, n),
               egg_name(table) ? egg_name(table) : "(unnamed)");
      snprintf(exp, sizeof exp, "the \"<skeleton>\" table tree to mirror the joint tree");
      egg_emit_node(doc, RULE_EGG_SKELETON_MISMATCH, n, exp, "%s", act);
      return 1;
    }
    if (tree_compare(doc, n, t, depth + 1))
      return 1;
  }
  /* extra tables are tolerated: real exporters write tables for joints they dropped and
   * Panda3D binds such bundles (the remaining channels are simply unused) */
  return 0;
}

static void check_characters(struct egg_doc *doc)
{
  const struct egg_node *darts[64];
  unsigned ndarts = 0, nbundles = 0;
  uint64_t njoints = 0;
  const struct egg_node *bundle = NULL;
  char buf[96];
  for (const struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, anim_descend(n))) {
    switch (n->spec) {
    case S_JOINT:
      njoints++;
      if (!dart_ancestor(n))
        egg_emit_node(doc, RULE_EGG_JOINT_OUTSIDE_DART, n, NULL, "%s", node_label(buf, sizeof buf, n));
      break;
    case S_ANIMPRELOAD:
      if (!is_dart(egg_parent(n)) && !dart_ancestor(n))
        egg_emit_node(doc, RULE_EGG_ANIMPRELOAD_OUTSIDE_DART, n, NULL, "%s",
                 node_label(buf, sizeof buf, n));
      break;
    case S_BUNDLE:
      nbundles++;
      if (!bundle)
        bundle = n;
      break;
    default:
      break;
    }
    if (is_dart(n)) {
      int joints = 0;
      if (dart_ancestor(n))
        egg_emit_node(doc, RULE_EGG_DART_NESTED, n, NULL, "%s", node_label(buf, sizeof buf, n));
      for (const struct egg_node *c = egg_first(n); c && !joints; c = egg_next_skip(c, n, egg_in_node_list(c)))
        joints = c->spec == S_JOINT;
      if (!joints)
        egg_emit_node(doc, RULE_EGG_DART_NO_JOINTS, n, NULL, "%s", node_label(buf, sizeof buf, n));
      if (ndarts < 64)
        darts[ndarts++] = n;
    }
  }
  /* one character and one bundle in the same file: names and trees should agree */
  if (ndarts == 1 && nbundles == 1 && (uint64_t)njoints * doc->nodes < 50000000u) {
    const struct egg_node *d = darts[0], *skel = NULL;
    if (egg_name(bundle) && egg_name(d) && (egg_name_len(bundle) != egg_name_len(d) ||
                                    memcmp(egg_name(bundle), egg_name(d), egg_name_len(d)))) {
      char exp[96];
      egg_emit_node(doc, RULE_EGG_BUNDLE_NAME_MISMATCH, bundle,
               egg_show(exp, sizeof exp, egg_name(d), egg_name_len(d)), "%s", node_label(buf, sizeof buf, bundle));
    }
    for (const struct egg_node *c = egg_first(bundle); c; c = egg_next(c))
      if (c->spec == S_TABLE && egg_node_name_is(c, "<skeleton>"))
        skel = c;
    if (skel)
      tree_compare(doc, d, skel, 0);
  }
}

/* Morph targets used by vertices against the slider tables of the bundles. */
static void check_morphs(struct egg_doc *doc)
{
  struct egg_map targets, sliders;
  int any_table = 0;
  char buf[96], act[200];
  if (!doc->spec_count[S_DXYZ] && !doc->spec_count[S_DNORMAL] && !doc->spec_count[S_DRGBA] &&
      !doc->spec_count[S_DUV])
    return; /* no morph target: nothing to report (the report needs one) */
  egg_map_init(&targets, &doc->map_failures, egg_doc_bound(doc));
  egg_map_init(&sliders, &doc->map_failures, egg_doc_bound(doc));
  for (const struct egg_node *n = doc->root; n; n = egg_next_pre(n, doc->root)) {
    if (n->spec == S_DXYZ || n->spec == S_DNORMAL || n->spec == S_DRGBA || n->spec == S_DUV) {
      uint32_t vlen = 0;
      const char *vs = !egg_name(n) && egg_nvals(n) ? egg_val_str(n, 0, &vlen) : NULL;
      const char *s = egg_name(n) ? egg_name(n) : vs;
      size_t len = egg_name(n) ? egg_name_len(n) : vs ? vlen : 0;
      struct egg_map_ent *e;
      if (s && (e = egg_map_at(&targets, s, len)) && !e->val)
        e->val = (void *)(uintptr_t)n;
    } else if (n->spec == S_TABLE && egg_node_name_is(n, "morph") && egg_parent(n)->spec == S_BUNDLE) {
      any_table = 1;
      for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
        if (c->spec == S_SANIM && egg_name(c)) {
          struct egg_map_ent *e = egg_map_at(&sliders, egg_name(c), egg_name_len(c));
          if (e && !e->val)
            e->val = (void *)(uintptr_t)c;
        }
    }
  }
  if (any_table && targets.count) {
    for (size_t i = 0; i < sliders.cap; i++) {
      const struct egg_map_ent *e = egg_map_slot(&sliders, i);
      const struct egg_node *c = e ? e->val : NULL;
      if (!c || egg_map_find(&targets, e->key, e->len))
        continue;
      snprintf(act, sizeof act, "morph slider %s names no morph target in the file",
               egg_show(buf, sizeof buf, e->key, e->len));
      egg_emit_node(doc, RULE_EGG_MORPH_TABLE, c, NULL, "%s", act);
    }
    for (size_t i = 0; i < targets.cap; i++) {
      const struct egg_map_ent *e = egg_map_slot(&targets, i);
      const struct egg_node *c = e ? e->val : NULL;
      if (!c || egg_map_find(&sliders, e->key, e->len))
        continue;
      snprintf(act, sizeof act, "morph target %s has no slider in the morph table",
               egg_show(buf, sizeof buf, e->key, e->len));
      egg_emit_node(doc, RULE_EGG_MORPH_TABLE, c, NULL, "%s", act);
    }
  }
  egg_map_free(&targets);
  egg_map_free(&sliders);
}

void egg_check_anim(struct egg_doc *doc)
{
  if (doc->spec_count[S_BUNDLE])
    for (const struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, anim_descend(n)))
      if (n->spec == S_BUNDLE)
        check_bundle(doc, n);
  if (doc->spec_count[S_XFMSANIM])
    for (const struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, anim_descend(n)))
      if (n->spec == S_XFMSANIM)
        check_components(doc, n);
  check_characters(doc);
  check_morphs(doc);
}
