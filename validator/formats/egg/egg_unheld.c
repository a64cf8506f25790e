/* egg_unheld.c - what an egg holds that the common model has no place for (model.unheld): two-sided
 * polygons, collision solids, switch and level-of-detail groups, billboards, points, lines,
 * patches, NURBS, morph targets, group tags and object types, groups Panda3D does not draw, the
 * colours of used materials, per-component attributes of strips and fans, and render attributes (egg_unheld_render.c). Recorded when the model
 * is built,
 * so a writer of another format announces each (core/write_loss.h) rather than dropping it in
 * silence; the egg's own writer prints the tree and keeps them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"

/* One kind of loss: its rule, the entry kinds it counts, and what it says. */
enum { K_BFACE, K_COLLIDE, K_SWITCH, K_PRIMS, K_NURBS, K_MORPHS, K_BILLBOARD, K_NODE_DATA, K_HIDDEN, K_MATERIAL,
       K_COUNT };

struct tally {
  unsigned long n[S_COUNT];               /* entries of each kind that count */
  const struct egg_node *first[K_COUNT];  /* the first entry of each loss, in file order */
  unsigned long collide_hidden;           /* <Collide> without keep: its polygons were invisible */
  unsigned long hidden;                   /* groups Panda3D does not draw (visibility, occluder, portal) */
  unsigned long materials;                /* used <Material>s with properties (colours, shininess) */
};

/* 1 when the group attribute n (a <Scalar>) makes Panda3D leave the group's polygons undrawn:
 * visibility { hidden }, occluder { 1 } (an occlusion polygon), portal { 1 } (a portal). */
static int scalar_hides(const struct egg_node *n)
{
  uint32_t len;
  const char *s;
  if (!egg_parent(n) || !egg_is_group(egg_parent(n)->spec) || !egg_name(n) || !egg_nvals(n) || n->bad)
    return 0;
  if (egg_node_name_is(n, "visibility"))
    return (s = egg_val_str(n, 0, &len)) != NULL && egg_name_eq(s, len, "hidden");
  if (egg_node_name_is(n, "occluder") || egg_node_name_is(n, "portal"))
    return egg_val_int(n, 0) != 0;
  return 0;
}

static int kind_of(int spec)
{
  switch (spec) {
  case S_BFACE: return K_BFACE;
  case S_COLLIDE: return K_COLLIDE;
  case S_SWITCH: case S_SWITCHCOND: return K_SWITCH;
  case S_POINTLIGHT: case S_LINE: case S_PATCH: return K_PRIMS;
  case S_NURBS_C: case S_NURBS_S: return K_NURBS;
  case S_DXYZ: case S_DNORMAL: case S_DRGBA: case S_DUV: case S_SANIM: case S_AUX: return K_MORPHS;
  case S_BILLBOARD: return K_BILLBOARD;
  case S_TAG: case S_OBJECTTYPE: return K_NODE_DATA;
  default: return -1;
  }
}

/* 1 when the <Collide> entry c lists the flag `keep` (its geometry stays visible). */
static int collide_keeps(const struct egg_node *c)
{
  for (uint32_t i = 1; i < egg_nvals(c); i++) {
    uint32_t len;
    const char *s = egg_val_str(c, i, &len);
    if (s && egg_name_eq(s, len, "keep"))
      return 1;
  }
  return 0;
}

/* Whether entry n is one the model drops: a <BFace> or <Switch> says so only when it is set. */
static int counts(const struct egg_node *n)
{
  if (n->bad)
    return 0;
  if (n->spec == S_BFACE || n->spec == S_SWITCH)
    return egg_nvals(n) && egg_val_int(n, 0) != 0;
  if (n->spec == S_SANIM) /* a joint's channel (in <Xfm$Anim_S$>) is carried; a slider is not */
    return !egg_parent(n) || egg_parent(n)->spec != S_XFMSANIM;
  return 1;
}

void egg_unheld_add(struct model *m, uint32_t rule, unsigned long count, const struct egg_node *first,
                const char *fmt, ...)
{
  struct model_unheld *u;
  va_list ap;
  if (!count || m->num_unheld >= MODEL_UNHELD_MAX)
    return;
  u = &m->unheld[m->num_unheld++];
  u->rule = rule;
  u->count = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
  u->line = u->column = 0;
  if (first)
    egg_node_loc(first, &u->line, &u->column);
  va_start(ap, fmt);
  vsnprintf(u->what, sizeof u->what, fmt, ap);
  va_end(ap);
}

/* "N <what>" when N is not 0, else "" (the parts of one loss's message). */
static const char *part(char *buf, size_t cap, unsigned long n, const char *what)
{
  if (n)
    snprintf(buf, cap, "%lu %s", n, what);
  else
    buf[0] = 0;
  return buf;
}

static void list3(char *out, size_t cap, const char *a, const char *b, const char *c)
{
  const char *v[3] = {a, b, c};
  size_t k = 0;
  out[0] = 0;
  for (int i = 0; i < 3; i++)
    if (v[i][0] && k < cap)
      k += (size_t)snprintf(out + k, cap - k, "%s%s", k ? ", " : "", v[i]);
}

void egg_unheld_record(struct egg_doc *doc, struct model *m)
{
  static const int specs[] = {S_BFACE, S_COLLIDE, S_SWITCH, S_SWITCHCOND, S_POINTLIGHT, S_LINE, S_PATCH,
                              S_NURBS_C, S_NURBS_S, S_DXYZ, S_DNORMAL, S_DRGBA, S_DUV, S_SANIM, S_AUX,
                              S_BILLBOARD, S_TAG, S_OBJECTTYPE};
  struct tally t;
  struct egg_map last;  /* material name -> its last <Material> so far: the one an <MRef> names */
  struct egg_map mrefs; /* <Material>s <MRef>s use */
  char a[96], b[96], c[96], l[300];
  int any = 0;
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    any |= doc->spec_count[specs[i]] != 0;
  any |= doc->spec_count[S_SCALAR] != 0 || doc->spec_count[S_MATERIAL] != 0 || doc->spec_count[S_TEXTURE] != 0 ||
         doc->components_lost != 0;
  if (!any || !doc->root)
    return; /* most files: nothing to walk for */
  memset(&t, 0, sizeof t);
  egg_map_init(&mrefs, &doc->map_failures, egg_doc_bound(doc)); /* a failure is counted: the decode says so */
  egg_map_init(&last, &doc->map_failures, egg_doc_bound(doc));
  for (const struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, 1)) {
    int k = kind_of(n->spec);
    uint32_t len;
    const char *s;
    if (n->spec == S_SCALAR && scalar_hides(n)) {
      if (!t.hidden++)
        t.first[K_HIDDEN] = n;
      continue;
    }
    /* Panda3D's parser resolves an <MRef> to the last <Material> of its name read before it,
     * at any depth (one name table for the file) */
    if (n->spec == S_MATERIAL && egg_name(n)) {
      struct egg_map_ent *e = egg_map_at(&last, egg_name(n), egg_name_len(n));
      if (e)
        e->val = (void *)(uintptr_t)n;
    }
    if (n->spec == S_MREF && egg_nvals(n) && (s = egg_val_str(n, 0, &len)) != NULL) {
      const struct egg_map_ent *e = egg_map_find(&last, s, len);
      if (e && e->val)
        (void)egg_map_pair(&mrefs, (uintptr_t)e->val, 0);
    }
    if (k < 0 || !counts(n))
      continue;
    t.n[n->spec]++;
    if (!t.first[k])
      t.first[k] = n;
    if (n->spec == S_COLLIDE && !collide_keeps(n))
      t.collide_hidden++;
  }
  /* materials whose colours or shininess a primitive uses: the target keeps the name only */
  for (const struct egg_node *n = mrefs.count ? doc->root : NULL; n;
       n = egg_next_skip(n, doc->root, n->spec == S_ROOT || egg_is_group(n->spec)))
    if (n->spec == S_MATERIAL && n->has_scalar && !n->bad && egg_map_pair_find(&mrefs, (uintptr_t)n, 0) &&
        !t.materials++)
      t.first[K_MATERIAL] = n;
  egg_map_free(&mrefs);
  egg_map_free(&last);
  egg_unheld_add(m, RULE_CORE_CONVERT_TWO_SIDED, t.n[S_BFACE], t.first[K_BFACE],
      "%lu two-sided polygons (<BFace> { 1 }) are written one-sided", t.n[S_BFACE]);
  egg_unheld_add(m, RULE_CORE_CONVERT_COLLISION, t.n[S_COLLIDE], t.first[K_COLLIDE],
      "%lu collision solids (<Collide>) are dropped%s", t.n[S_COLLIDE],
      t.collide_hidden ? "; the invisible polygons that defined them are written as visible geometry" : "");
  list3(l, sizeof l, part(a, sizeof a, t.n[S_SWITCH], "switch groups (<Switch> { 1 }: one child shown at a time)"),
        part(b, sizeof b, t.n[S_SWITCHCOND], "level-of-detail groups (<SwitchCondition>)"), "");
  egg_unheld_add(m, RULE_CORE_CONVERT_SWITCH, t.n[S_SWITCH] + t.n[S_SWITCHCOND], t.first[K_SWITCH],
      "%s: every child is written as meshes drawn at once", l);
  list3(l, sizeof l, part(a, sizeof a, t.n[S_POINTLIGHT], "points (<PointLight>)"),
        part(b, sizeof b, t.n[S_LINE], "lines (<Line>)"), part(c, sizeof c, t.n[S_PATCH], "patches (<Patch>)"));
  egg_unheld_add(m, RULE_CORE_CONVERT_PRIMITIVES_DROPPED, t.n[S_POINTLIGHT] + t.n[S_LINE] + t.n[S_PATCH],
      t.first[K_PRIMS], "%s are dropped (only polygons are written)", l);
  list3(l, sizeof l, part(a, sizeof a, t.n[S_NURBS_C], "NURBS curves"),
        part(b, sizeof b, t.n[S_NURBS_S], "NURBS surfaces"), "");
  egg_unheld_add(m, RULE_CORE_CONVERT_NURBS_DROPPED, t.n[S_NURBS_C] + t.n[S_NURBS_S], t.first[K_NURBS],
      "%s are dropped", l);
  list3(l, sizeof l,
        part(a, sizeof a, t.n[S_DXYZ] + t.n[S_DNORMAL] + t.n[S_DRGBA] + t.n[S_DUV],
             "morph offsets (<Dxyz>, <DNormal>, <DRGBA>, <DUV>)"),
        part(b, sizeof b, t.n[S_SANIM], "morph slider tables (<S$Anim>)"),
        part(c, sizeof c, t.n[S_AUX], "<Aux> vertex data"));
  egg_unheld_add(m, RULE_CORE_CONVERT_MORPHS_DROPPED,
      t.n[S_DXYZ] + t.n[S_DNORMAL] + t.n[S_DRGBA] + t.n[S_DUV] + t.n[S_SANIM] + t.n[S_AUX], t.first[K_MORPHS],
      "%s are dropped", l);
  egg_unheld_add(m, RULE_CORE_CONVERT_BILLBOARD, t.n[S_BILLBOARD], t.first[K_BILLBOARD],
      "%lu billboard groups (<Billboard>: turned to face the camera) are written fixed", t.n[S_BILLBOARD]);
  list3(l, sizeof l, part(a, sizeof a, t.n[S_TAG], "group tags (<Tag>)"),
        part(b, sizeof b, t.n[S_OBJECTTYPE], "object types (<ObjectType>)"), "");
  egg_unheld_add(m, RULE_CORE_CONVERT_NODE_DATA, t.n[S_TAG] + t.n[S_OBJECTTYPE], t.first[K_NODE_DATA],
      "%s are dropped", l);
  /* a strip's or fan's triangle with its own normal or colour that its vertices do not carry
   * (egg_geometry.c decides; a line's components go with the line, MDL-CNV-023) */
  egg_unheld_add(m, RULE_CORE_CONVERT_COMPONENT_ATTRIBUTES, doc->components_lost, doc->component_lost_first,
      "%lu per-triangle normals or colours of strips and fans (<Component>) are dropped: each "
      "triangle is written with its vertices' or its primitive's", doc->components_lost);
  egg_unheld_render(doc, m, &t.hidden, &t.first[K_HIDDEN]);
  egg_unheld_add(m, RULE_CORE_CONVERT_HIDDEN_GEOMETRY, t.hidden, t.first[K_HIDDEN],
      "%lu groups or primitives Panda3D does not draw (<Scalar> visibility { hidden }, occluder, portal) "
      "are written as visible meshes", t.hidden);
  egg_unheld_add(m, RULE_CORE_CONVERT_MATERIAL_PROPERTIES, t.materials, t.first[K_MATERIAL],
      "%lu materials' colours and shininess (<Material> scalars) are dropped: the written file keeps "
      "their names only", t.materials);
}
