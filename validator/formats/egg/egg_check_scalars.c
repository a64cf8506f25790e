/* egg_check_scalars.c - <Scalar> names per context, enumerated values, the group attribute
 * entries, transforms and the coordinate system (notes §2.5, §3.3, §5 F6-F8, G, H, §6.4).
 * Names and values compare like Panda3D's cmp_nocase_uh: any case, '-' equal to '_'. */
#include <math.h>
#include <string.h>

#include "egg.h"

/* --- enumerations ------------------------------------------------------------------------ */
static const char *const e_alpha[] = {"off", "on", "blend", "blend-no-occlude", "ms", "ms-mask",
  "binary", "dual", "premultiplied", NULL};
static const char *const e_onoff[] = {"on", "off", NULL};
static const char *const e_visibility[] = {"hidden", "normal", NULL};
static const char *const e_textype[] = {"1d", "1d-texture", "1dtexture", "2d", "2d-texture",
  "2dtexture", "3d", "3d-texture", "3dtexture", "cube", "cubemap", "cube-map",
  "2d-texture-array", "2d-array", "cube-map-array", "cube-array", "1d-texture-array",
  "1d-array", "buffer-texture", NULL};
static const char *const e_format[] = {"rgba", "srgb-alpha", "rgbm", "rgba12", "rgba8", "rgba4",
  "rgb", "srgb", "rgb12", "rgb8", "rgb5", "rgba5", "rgb332", "red", "green", "blue", "alpha",
  "luminance", "luminance-alpha", "luminance-alphamask", "sluminance", "sluminance-alpha",
  "rgba16", "rgba32", "rgb16", "rgb32", "r16", "rg16", "r32", "rg32", "rg", "r8", "rg8", NULL};
static const char *const e_compression[] = {"default", "off", "on", "fxt1", "dxt1", "dxt2", "dxt3", "dxt4",
  "dxt5", "pvr1-2bpp", "pvr1-4bpp", "rgtc", "etc1", "etc2", "eac", NULL};
static const char *const e_wrap[] = {"repeat", "clamp", "mirror", "mirror-once", "border-color", NULL};
static const char *const e_filter[] = {"point", "linear", "bilinear", "trilinear", "mipmap",
  "mipmap-point", "mipmap-linear", "mipmap-bilinear", "mipmap-trilinear", "nearest",
  "nearest-mipmap-nearest", "linear-mipmap-nearest", "nearest-mipmap-linear",
  "linear-mipmap-linear", NULL};
static const char *const e_envtype[] = {"modulate", "decal", "blend", "replace", "add",
  "blend-color-scale", "modulate-glow", "modulate-gloss", "normal", "normal-height", "glow",
  "gloss", "height", "metallic-roughness", "selector", "normal-gloss", "emission", "occlusion",
  "occlusion-metallic-roughness", NULL};
static const char *const e_combine[] = {"replace", "modulate", "add", "add-signed",
  "interpolate", "subtract", "dot3-rgb", "dot3-rgba", NULL};
static const char *const e_source[] = {"texture", "constant", "primary-color", "previous",
  "constant-color-scale", "last-saved-result", NULL};
static const char *const e_operand[] = {"src-color", "one-minus-src-color", "src-alpha",
  "one-minus-src-alpha", NULL};
static const char *const e_texgen[] = {"sphere-map", "eye-sphere-map", "world-cube-map",
  "cube-map", "eye-cube-map", "world-normal", "eye-normal", "world-position", "eye-position",
  "point-sprite", NULL};
static const char *const e_quality[] = {"default", "fastest", "normal", "best", NULL};
static const char *const e_blend[] = {"none", "add", "subtract", "inv-subtract", "min", "max", NULL};
static const char *const e_blendop[] = {"zero", "one", "incoming-color",
  "one-minus-incoming-color", "fbuffer-color", "one-minus-fbuffer-color", "incoming-alpha",
  "one-minus-incoming-alpha", "fbuffer-alpha", "one-minus-fbuffer-alpha", "constant-color",
  "one-minus-constant-color", "constant-alpha", "one-minus-constant-alpha",
  "incoming-color-saturate", "color-scale", "one-minus-color-scale", "alpha-scale",
  "one-minus-alpha-scale", "incoming1-color", "one-minus-incoming1-color", "incoming1-alpha",
  "one-minus-incoming1-alpha", NULL};
static const char *const e_billboard[] = {"axis", "point-eye", "point-world", "point", NULL};
static const char *const e_dcs[] = {"none", "local", "net", "no-touch", "default", NULL};
static const char *const e_dart[] = {"sync", "nosync", "default", "structured", NULL};
static const char *const e_solid[] = {"plane", "polygon", "polyset", "sphere", "box",
  "inv-sphere", "invsphere", "tube", "capsule", "floor-mesh", "floormesh", NULL};
static const char *const e_flags[] = {"intangible", "event", "descend", "keep", "solid",
  "center", "turnstile", "level", NULL};
/* eggSyntax's list, the egg-object-type-* definitions of the configuration Panda3D ships
 * (makepanda/confauto.in = Confauto.prc, panda/src/configfiles/panda.prc.in,
 * direct/src/configfiles/direct.prc.pp) and the loader's built-ins (eggLoader.cxx). */
static const char *const e_objecttype[] = {"portal", "polylight", "seq2", "seq4", "seq6", "seq8",
  "seq10", "seq12", "seq24", "indexed", "binary", "dual", "glass", "model", "dcs", "notouch",
  "barrier", "sphere", "invsphere", "tube", "trigger", "trigger-sphere", "floor", "dupefloor",
  "bubble", "ghost", "glow", "keep-all-uvsets", "direct-widget", "solidpoly", "turnstile", "eye-trigger", "none",
  "backstage", NULL};
static const char *const e_coordsys[] = {"y-up", "z-up", "y-up-right", "z-up-right", "y-up-left",
  "z-up-left", "yup", "zup", "yup-right", "zup-right", "yup-left", "zup-left", "default", NULL};

/* --- scalar names per context ------------------------------------------------------------ */
enum stype { T_NUM, T_INT, T_STR, T_ENUM, T_RGBSCALE, T_NUMVIEWS, T_UNPARSED, T_ORDER_SANIM };

struct scalar_def {
  const char *name;
  uint8_t type;
  const char *const *values;
};

#define RENDER_SCALARS \
  {"alpha", T_ENUM, e_alpha}, {"depth-write", T_ENUM, e_onoff}, \
  {"depth-test", T_ENUM, e_onoff}, {"visibility", T_ENUM, e_visibility}, \
  {"depth-offset", T_INT, NULL}, {"draw-order", T_INT, NULL}, {"bin", T_STR, NULL}

static const struct scalar_def sc_texture[] = {
  {"type", T_ENUM, e_textype}, {"format", T_ENUM, e_format},
  {"compression", T_ENUM, e_compression}, {"wrap", T_ENUM, e_wrap}, {"wrapu", T_ENUM, e_wrap},
  {"wrapv", T_ENUM, e_wrap}, {"minfilter", T_ENUM, e_filter}, {"magfilter", T_ENUM, e_filter},
  {"anisotropic-degree", T_NUM, NULL}, {"envtype", T_ENUM, e_envtype},
  {"combine-rgb", T_ENUM, e_combine}, {"combine-rgb-source0", T_ENUM, e_source},
  {"combine-rgb-operand0", T_ENUM, e_operand}, {"combine-rgb-source1", T_ENUM, e_source},
  {"combine-rgb-operand1", T_ENUM, e_operand}, {"combine-rgb-source2", T_ENUM, e_source},
  {"combine-rgb-operand2", T_ENUM, e_operand}, {"combine-alpha", T_ENUM, e_combine},
  {"combine-alpha-source0", T_ENUM, e_source}, {"combine-alpha-operand0", T_ENUM, e_operand},
  {"combine-alpha-source1", T_ENUM, e_source}, {"combine-alpha-operand1", T_ENUM, e_operand},
  {"combine-alpha-source2", T_ENUM, e_source}, {"combine-alpha-operand2", T_ENUM, e_operand},
  {"saved-result", T_NUM, NULL}, {"tex-gen", T_ENUM, e_texgen},
  {"quality-level", T_ENUM, e_quality}, {"stage-name", T_STR, NULL}, {"priority", T_NUM, NULL},
  {"multiview", T_NUM, NULL}, {"num-views", T_NUMVIEWS, NULL}, {"blendr", T_NUM, NULL},
  {"blendg", T_NUM, NULL}, {"blendb", T_NUM, NULL}, {"blenda", T_NUM, NULL},
  {"borderr", T_NUM, NULL}, {"borderg", T_NUM, NULL}, {"borderb", T_NUM, NULL},
  {"bordera", T_NUM, NULL}, {"uv-name", T_STR, NULL}, {"rgb-scale", T_RGBSCALE, NULL},
  {"alpha-scale", T_RGBSCALE, NULL}, RENDER_SCALARS, {"alpha-file", T_STR, NULL},
  {"alpha-file-channel", T_NUM, NULL}, {"read-mipmaps", T_NUM, NULL}, {"min-lod", T_NUM, NULL},
  {"max-lod", T_NUM, NULL}, {"lod-bias", T_NUM, NULL},
  {"wrapw", T_UNPARSED, NULL}, {"magfilteralpha", T_UNPARSED, NULL},
  {"magfiltercolor", T_UNPARSED, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_material[] = {
  {"baser", T_NUM, NULL}, {"baseg", T_NUM, NULL}, {"baseb", T_NUM, NULL}, {"basea", T_NUM, NULL},
  {"diffr", T_NUM, NULL}, {"diffg", T_NUM, NULL}, {"diffb", T_NUM, NULL}, {"diffa", T_NUM, NULL},
  {"ambr", T_NUM, NULL}, {"ambg", T_NUM, NULL}, {"ambb", T_NUM, NULL}, {"amba", T_NUM, NULL},
  {"emitr", T_NUM, NULL}, {"emitg", T_NUM, NULL}, {"emitb", T_NUM, NULL}, {"emita", T_NUM, NULL},
  {"specr", T_NUM, NULL}, {"specg", T_NUM, NULL}, {"specb", T_NUM, NULL}, {"speca", T_NUM, NULL},
  {"shininess", T_NUM, NULL}, {"roughness", T_NUM, NULL}, {"metallic", T_NUM, NULL},
  {"ior", T_NUM, NULL}, {"local", T_NUM, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_group[] = {
  {"fps", T_NUM, NULL}, {"no-fog", T_NUM, NULL}, {"decal", T_NUM, NULL}, {"direct", T_NUM, NULL},
  RENDER_SCALARS, {"collide-mask", T_INT, NULL}, {"from-collide-mask", T_INT, NULL},
  {"into-collide-mask", T_INT, NULL}, {"portal", T_NUM, NULL}, {"occluder", T_NUM, NULL},
  {"polylight", T_NUM, NULL}, {"indexed", T_NUM, NULL}, {"scroll-u", T_NUM, NULL},
  {"scroll-v", T_NUM, NULL}, {"scroll-w", T_NUM, NULL}, {"scroll-r", T_NUM, NULL},
  {"blend", T_ENUM, e_blend}, {"blendop-a", T_ENUM, e_blendop}, {"blendop-b", T_ENUM, e_blendop},
  {"blendr", T_NUM, NULL}, {"blendg", T_NUM, NULL}, {"blendb", T_NUM, NULL},
  {"blenda", T_NUM, NULL}, {"decalbase", T_UNPARSED, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_membership[] = {{"membership", T_NUM, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_primitive[] = {
  RENDER_SCALARS, {"thick", T_NUM, NULL}, {"perspective", T_NUM, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_surface[] = {
  RENDER_SCALARS, {"u-subdiv", T_NUM, NULL}, {"v-subdiv", T_NUM, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_curve[] = {
  RENDER_SCALARS, {"subdiv", T_NUM, NULL}, {"type", T_STR, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_sanim[] = {
  {"fps", T_NUM, NULL}, {"order", T_ORDER_SANIM, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_xfm[] = {
  {"fps", T_NUM, NULL}, {"order", T_STR, NULL}, {"contents", T_STR, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_xfms[] = {{"fps", T_NUM, NULL}, {"order", T_STR, NULL}, {NULL, 0, NULL}};
static const struct scalar_def sc_preload[] = {
  {"fps", T_NUM, NULL}, {"frames", T_NUM, NULL}, {"num-frames", T_UNPARSED, NULL}, {NULL, 0, NULL}};

static const struct scalar_def *context_scalars(int spec, const char **where)
{
  switch (spec) {
  case S_TEXTURE: *where = "<Texture>"; return sc_texture;
  case S_MATERIAL: *where = "<Material>"; return sc_material;
  case S_GROUP: case S_JOINT: case S_INSTANCE: *where = "a group"; return sc_group;
  case S_VREF_GROUP: *where = "a group <VertexRef>"; return sc_membership;
  case S_POLYGON: case S_PATCH: case S_TRIFAN: case S_TRISTRIP: case S_POINTLIGHT: case S_LINE:
    *where = "a primitive";
    return sc_primitive;
  case S_NURBS_S: *where = "<NURBSSurface>"; return sc_surface;
  case S_NURBS_C: *where = "<NURBSCurve>"; return sc_curve;
  case S_SANIM: *where = "<S$Anim>"; return sc_sanim;
  case S_XFMANIM: *where = "<Xfm$Anim>"; return sc_xfm;
  case S_XFMSANIM: *where = "<Xfm$Anim_S$>"; return sc_xfms;
  case S_ANIMPRELOAD: *where = "<AnimPreload>"; return sc_preload;
  default: *where = "?"; return NULL;
  }
}

static int in_list(const char *s, size_t len, const char *const *list)
{
  for (; *list; list++)
    if (egg_name_eq(s, len, *list))
      return 1;
  return 0;
}

static void list_text(char *out, size_t cap, const char *const *list)
{
  size_t n = 0;
  out[0] = 0;
  for (; *list && n + 4 < cap; list++) {
    int k = snprintf(out + n, cap - n, "%s%s", n ? ", " : "", *list);
    if (k < 0 || (size_t)k >= cap - n) {
      if (cap > 4)
        memcpy(out + cap - 4, "...", 4);
      return;
    }
    n += (size_t)k;
  }
}

/* 1 when some entry of the list could be a number's %.17g spelling (a digit, a sign, a point, or
 * nan / inf): only then is a number spelt out to be looked up. */
static int list_has_number(const char *const *list)
{
  for (; *list; list++)
    if (strchr("0123456789+-.nNiI", (*list)[0]))
      return 1;
  return 0;
}

static void check_enum_value(struct egg_doc *doc, const struct egg_node *n, uint32_t k,
                             const char *const *list)
{
  char buf[96], exp[400];
  struct egg_value vb, *v = &vb;
  egg_val(n, k, &vb);
  if (v->s && in_list(v->s, v->len, list))
    return;
  if (!v->s && list_has_number(list)) {
    char num[40];
    snprintf(num, sizeof num, "%.17g", v->d);
    if (in_list(num, strlen(num), list))
      return;
  }
  /* a value past the rule's located repeats is only counted (egg_emit_val): the list of what is
   * expected is not spelt out for each of millions of them (a <Collide> of 5 million unknown
   * words took 2.2 s, 0.4 s now) */
  exp[0] = 0;
  if (doc->panda || diag_wanted(doc->ctx->diag, RULE_EGG_UNKNOWN_VALUE))
    list_text(exp, sizeof exp, list);
  egg_emit_val(doc, RULE_EGG_UNKNOWN_VALUE, n, k, exp, "%s",
           v->s ? egg_show(buf, sizeof buf, v->s, v->len) : "(a number)");
}

static void check_scalar(struct egg_doc *doc, const struct egg_node *s)
{
  const char *where;
  const struct scalar_def *defs = context_scalars(egg_parent(s)->spec, &where);
  struct egg_value vb, *v = NULL;
  char buf[96], act[200];
  if (!defs || !egg_name(s))
    return;
  for (; defs->name; defs++)
    if (egg_name_eq(egg_name(s), egg_name_len(s), defs->name))
      break;
  if (!defs->name) {
    egg_emit_val(doc, RULE_EGG_UNKNOWN_SCALAR, s, -1, where, "%s",
             egg_show(buf, sizeof buf, egg_name(s), egg_name_len(s)));
    return;
  }
  if (!egg_nvals(s))
    return;
  egg_val(s, 0, &vb);
  v = &vb;
  switch (defs->type) {
  case T_UNPARSED:
    egg_emit_val(doc, RULE_EGG_DOCUMENTED_UNPARSED, s, -1,
             egg_parent(s)->spec == S_ANIMPRELOAD ? "use frames" : "Panda3D warns and ignores it",
             "%s", egg_show(buf, sizeof buf, egg_name(s), egg_name_len(s)));
    break;
  case T_ORDER_SANIM:
    egg_emit_node(doc, RULE_EGG_ORDER_ON_SANIM, s, NULL, "%s",
             egg_name(egg_parent(s)) ? egg_show(buf, sizeof buf, egg_name(egg_parent(s)), egg_name_len(egg_parent(s))) : "");
    break;
  case T_ENUM:
    check_enum_value(doc, s, 0, defs->values);
    break;
  case T_NUM:
  case T_INT:
  case T_RGBSCALE:
  case T_NUMVIEWS:
    if (!egg_value_is_number(v)) {
      snprintf(act, sizeof act, "<Scalar> %s", egg_show(buf, sizeof buf, egg_name(s), egg_name_len(s)));
      egg_emit_val(doc, RULE_EGG_SCALAR_NOT_NUMBER, s, 0, NULL, "%s", act);
      /* Panda3D reads the word as 0, which these two reject */
      if (defs->type == T_RGBSCALE) {
        snprintf(act, sizeof act, "%s value 0 (a word)", egg_show(buf, sizeof buf, egg_name(s), egg_name_len(s)));
        egg_emit_val(doc, RULE_EGG_TEXTURE_SCALE, s, 0, NULL, "%s", act);
      } else if (defs->type == T_NUMVIEWS) {
        egg_emit_val(doc, RULE_EGG_NUM_VIEWS, s, 0, NULL, "%s", "0 (a word)");
      }
      break;
    }
    if (defs->type == T_INT && v->type == V_NUMBER &&
        (v->d != floor(v->d) || v->d < -2147483648.0 || v->d > 4294967295.0)) {
      snprintf(act, sizeof act, "<Scalar> %s { %g }", egg_show(buf, sizeof buf, egg_name(s), egg_name_len(s)), v->d);
      egg_emit_val(doc, RULE_EGG_SCALAR_NOT_INTEGER, s, 0, "an integer", "%s", act);
    }
    if (defs->type == T_RGBSCALE && !(v->d == 1 || v->d == 2 || v->d == 4)) {
      snprintf(act, sizeof act, "%s value %g", egg_show(buf, sizeof buf, egg_name(s), egg_name_len(s)), v->d);
      egg_emit_val(doc, RULE_EGG_TEXTURE_SCALE, s, 0, NULL, "%s", act);
    }
    if (defs->type == T_NUMVIEWS && !(v->d >= 1))
      egg_emit_val(doc, RULE_EGG_NUM_VIEWS, s, 0, NULL, "%g", v->d);
    break;
  default:
    break;
  }
}

/* <Collide> { type [flags] }, <Billboard>, <DCS>, <Dart>, <ObjectType>. */
static void check_group_attr(struct egg_doc *doc, const struct egg_node *n)
{
  struct egg_value vb, *v = &vb;
  char buf[96];
  if (!egg_nvals(n) || n->bad)
    return;
  egg_val(n, 0, &vb);
  switch (n->spec) {
  case S_BILLBOARD: check_enum_value(doc, n, 0, e_billboard); break;
  case S_DCS: if (v->s) check_enum_value(doc, n, 0, e_dcs); break;
  case S_DART: if (v->s) check_enum_value(doc, n, 0, e_dart); break;
  case S_OBJECTTYPE:
    if (v->s && !in_list(v->s, v->len, e_objecttype))
      egg_emit_val(doc, RULE_EGG_UNKNOWN_OBJECT_TYPE, n, 0, NULL, "%s",
               egg_show(buf, sizeof buf, v->s, v->len));
    break;
  case S_COLLIDE: {
    int descend = 0;
    check_enum_value(doc, n, 0, e_solid);
    for (uint32_t i = 1, i_end = egg_nvals(n); i < i_end; i++) {
      uint32_t len;
      const char *s = egg_val_str(n, i, &len);
      check_enum_value(doc, n, i, e_flags);
      if (s && egg_name_eq(s, len, "descend"))
        descend = 1;
    }
    if (!descend)
      egg_emit_node(doc, RULE_EGG_COLLIDE_NO_DESCEND, n, NULL, "%s",
               egg_name(n) ? egg_show(buf, sizeof buf, egg_name(n), egg_name_len(n)) : "unnamed");
    /* a <Line> anywhere in the group: no solid is built from it (EGG-ENUM-016) */
    if (doc->spec_count[S_LINE] && egg_parent(n))
      for (const struct egg_node *c = egg_first(egg_parent(n)); c; c = egg_next_pre(c, egg_parent(n)))
        if (c->spec == S_LINE) {
          egg_emit_node(doc, RULE_EGG_COLLIDE_LINE, c, NULL, "%s",
                   egg_name(n) ? egg_show(buf, sizeof buf, egg_name(n), egg_name_len(n)) : "unnamed");
          break;
        }
    break;
  }
  default:
    break;
  }
}

static void check_transforms(struct egg_doc *doc, const struct egg_node *n)
{
  unsigned k = 0;
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c)) {
    if (c->spec != S_TRANSFORM)
      continue;
    if (++k > 1)
      egg_emit_node(doc, RULE_EGG_REPEATED_TRANSFORM, c, NULL, "%s", "<Transform>");
    if (n->spec == S_TEXTURE)
      continue;
    for (const struct egg_node *t = egg_first(c); t; t = egg_next(t)) {
      int flat = (t->spec == S_TRANSLATE && egg_nvals(t) == 2) || (t->spec == S_ROTATE && egg_nvals(t) == 1) ||
                 (t->spec == S_SCALE && egg_nvals(t) == 2) || t->spec == S_MATRIX3;
      if (flat && !t->bad)
        egg_emit_node(doc, RULE_EGG_TRANSFORM_DIMENSION, t, NULL, "%s",
                 egg_specs[t->spec].what);
    }
  }
}

static void check_coordsys(struct egg_doc *doc)
{
  const struct egg_node *first = NULL;
  int cs = -1, contradictory = 0;
  if (!doc->spec_count[S_COORDSYS]) {
    doc->coordsys = CS_YUP_RIGHT;
    return;
  }
  for (const struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, egg_in_node_list(n))) {
    struct egg_value vb, *v = NULL;
    int this_cs = -1;
    char buf[96], where[48];
    if (n->spec != S_COORDSYS)
      continue;
    if (egg_nvals(n)) {
      egg_val(n, 0, &vb);
      v = &vb;
    }
    if (first) {
      snprintf(where, sizeof where, "line %u", egg_node_line(first));
      egg_emit_node(doc, RULE_EGG_MULTIPLE_COORDSYS, n, where, "%s",
               v && v->s ? egg_show(buf, sizeof buf, v->s, v->len) : "");
    } else {
      const struct egg_node *p;
      first = n;
      for (p = egg_first(doc->root); p && p != n; p = egg_next(p))
        if (p->spec != S_COMMENT)
          break;
      if (p != n)
        egg_emit_node(doc, RULE_EGG_COORDSYS_NOT_FIRST, n, NULL, "line %u", egg_node_line(n));
    }
    if (!v || !v->s) {
      /* an empty entry is EGG-SYN-011 (String required) already */
      if (v)
        egg_emit_val(doc, RULE_EGG_UNKNOWN_COORDSYS, n, 0, NULL, "%g", v->d);
      continue;
    }
    if (!in_list(v->s, v->len, e_coordsys)) {
      egg_emit_val(doc, RULE_EGG_UNKNOWN_COORDSYS, n, 0, NULL, "%s", egg_show(buf, sizeof buf, v->s, v->len));
      continue;
    }
    if (egg_name_eq(v->s, v->len, "default"))
      continue;
    {
      int z = (v->s[0] == 'z' || v->s[0] == 'Z');
      int left = v->len > 4 && egg_name_eq(v->s + v->len - 4, 4, "left");
      this_cs = z ? (left ? CS_ZUP_LEFT : CS_ZUP_RIGHT) : (left ? CS_YUP_LEFT : CS_YUP_RIGHT);
    }
    if (cs >= 0 && cs != this_cs)
      contradictory = 1;
    cs = this_cs;
  }
  doc->coordsys = (cs < 0 || contradictory) ? CS_YUP_RIGHT : cs;
}

/* Vertex pools hold no <Scalar> nor group attribute; in a primitive only a <Scalar> child is
 * looked at here. */
static int scalars_descend(const struct egg_node *n)
{
  switch (n->spec) {
  case S_VPOOL:
    return 0;
  case S_POLYGON: case S_PATCH: case S_TRIFAN: case S_TRISTRIP: case S_POINTLIGHT: case S_LINE:
    return n->has_scalar;
  default:
    return 1;
  }
}

void egg_check_scalars(struct egg_doc *doc)
{
  check_coordsys(doc);
  for (const struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, scalars_descend(n))) {
    switch (n->spec) {
    case S_SCALAR: check_scalar(doc, n); break;
    case S_BILLBOARD: case S_DCS: case S_DART: case S_OBJECTTYPE: case S_COLLIDE:
      check_group_attr(doc, n);
      break;
    case S_DEFAULTPOSE:
      if (egg_parent(n)->spec != S_JOINT)
        egg_emit_node(doc, RULE_EGG_DEFAULTPOSE_OUTSIDE_JOINT, n, NULL, "%s",
                 egg_specs[egg_parent(n)->spec].what);
      break;
    case S_GROUP: case S_JOINT: case S_INSTANCE: case S_TEXTURE:
      check_transforms(doc, n);
      break;
    default:
      break;
    }
  }
}
