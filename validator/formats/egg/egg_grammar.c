/* egg_grammar.c - the egg grammar as data: keyword spellings, the shape of every kind of entry,
 * and which entries each kind of body may hold (panda/src/egg/parser.yxx; notes §2). */
#include <string.h>

#include "egg.h"

/* Every spelling the lexer knows (notes §1.4); aliases map to one keyword. */
static const struct { const char *spelling; int kw; } kw_spellings[] = {
  {"<AnimPreload>", KW_ANIMPRELOAD}, {"<Aux>", KW_AUX}, {"<BFace>", KW_BFACE},
  {"<Billboard>", KW_BILLBOARD}, {"<BillboardCenter>", KW_BILLBOARDCENTER},
  {"<Binormal>", KW_BINORMAL}, {"<Bundle>", KW_BUNDLE}, {"<Scalar>", KW_SCALAR},
  {"<Char*>", KW_SCALAR}, {"<Collide>", KW_COLLIDE}, {"<Comment>", KW_COMMENT},
  {"<Component>", KW_COMPONENT}, {"<CoordinateSystem>", KW_COORDSYSTEM}, {"<Dart>", KW_DART},
  {"<DNormal>", KW_DNORMAL}, {"<DRGBA>", KW_DRGBA}, {"<DUV>", KW_DUV}, {"<Dxyz>", KW_DXYZ},
  {"<DCS>", KW_DCS}, {"<Distance>", KW_DISTANCE}, {"<File>", KW_FILE}, {"<Group>", KW_GROUP},
  {"<DefaultPose>", KW_DEFAULTPOSE}, {"<Joint>", KW_JOINT}, {"<Knots>", KW_KNOTS},
  {"<Instance>", KW_INSTANCE}, {"<Line>", KW_LINE}, {"<Loop>", KW_LOOP},
  {"<Material>", KW_MATERIAL}, {"<Matrix3>", KW_MATRIX3}, {"<Matrix4>", KW_MATRIX4},
  {"<Model>", KW_MODEL}, {"<MRef>", KW_MREF}, {"<Normal>", KW_NORMAL},
  {"<NURBSCurve>", KW_NURBSCURVE}, {"<NURBSSurface>", KW_NURBSSURFACE},
  {"<ObjectType>", KW_OBJECTTYPE}, {"<Order>", KW_ORDER}, {"<Patch>", KW_PATCH},
  {"<PointLight>", KW_POINTLIGHT}, {"<Polygon>", KW_POLYGON}, {"<Ref>", KW_REF},
  {"<RGBA>", KW_RGBA}, {"<Rotate>", KW_ROTATE}, {"<RotX>", KW_ROTX}, {"<RotY>", KW_ROTY},
  {"<RotZ>", KW_ROTZ}, {"<S$Anim>", KW_SANIM}, {"<Scale>", KW_SCALE}, {"<Switch>", KW_SWITCH},
  {"<SwitchCondition>", KW_SWITCHCONDITION}, {"<Table>", KW_TABLE}, {"<V>", KW_V},
  {"<Tag>", KW_TAG}, {"<Tangent>", KW_TANGENT}, {"<TexList>", KW_TEXLIST},
  {"<Texture>", KW_TEXTURE}, {"<Transform>", KW_TRANSFORM}, {"<Translate>", KW_TRANSLATE},
  {"<TRef>", KW_TREF}, {"<TriangleFan>", KW_TRIANGLEFAN}, {"<TriangleStrip>", KW_TRIANGLESTRIP},
  {"<Trim>", KW_TRIM}, {"<U-Knots>", KW_UKNOTS}, {"<U_Knots>", KW_UKNOTS}, {"<UV>", KW_UV},
  {"<V-Knots>", KW_VKNOTS}, {"<V_Knots>", KW_VKNOTS}, {"<Vertex>", KW_VERTEX},
  {"<VertexPool>", KW_VERTEXPOOL}, {"<VertexRef>", KW_VERTEXREF}, {"<Xfm$Anim>", KW_XFMANIM},
  {"<Xfm$Anim_S$>", KW_XFMSANIM},
  {"<BezierCurve>", KW_BEZIERCURVE}, {"<Closed>", KW_CLOSED}, {"<CV>", KW_CV},
  {"<DTRef>", KW_DTREF}, {"<DynamicVertexPool>", KW_DYNAMICVERTEXPOOL},
  {"<Include>", KW_INCLUDE}, {"<OutTangent>", KW_OUTTANGENT}, {"<Sequence>", KW_SEQUENCE},
  {"<Shading>", KW_SHADING}, {"<TLengths>", KW_TLENGTHS}, {"<Txt>", KW_TXT},
  {"<VertexAnim>", KW_VERTEXANIM},
};
#define NUM_SPELLINGS (sizeof kw_spellings / sizeof kw_spellings[0])

const char *egg_kw_spelling(int kw)
{
  for (size_t i = 0; i < NUM_SPELLINGS; i++)
    if (kw_spellings[i].kw == kw)
      return kw_spellings[i].spelling;
  return "<?>";
}

/* Slot of a spelling: a hash of its length and three lowercased bytes, collision-free over
 * the spellings above (kw_slots holds 1 + the index in kw_spellings, 0 for none). Adding a
 * spelling means finding new multipliers; egg_kw_selftest() in `make check` catches a clash. */
static unsigned kw_hash(const unsigned char *s, size_t len)
{
#define LC(c) ((c) >= 'A' && (c) <= 'Z' ? (unsigned)(c) + 32 : (unsigned)(c))
  return ((unsigned)len * 55u + LC(s[1]) * 10u + LC(s[2]) * 27u + LC(s[len - 2])) & 255u;
#undef LC
}

static const uint8_t kw_slots[256] = {
   5,  0,  0, 68,  0, 72, 71,  0, 79,  0, 36, 77,  0,  0,  0, 29,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  8,  0,  0,  0, 40,  0,  0,
  51,  0,  0,  0,  0, 34, 55,  0,  0,  0,  0, 50, 78,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0, 62,  0,  0,  0,  0,  0, 54, 60, 26,
   0, 53,  0, 70, 85, 63, 44,  0,  7,  0,  0,  0,  0,  0,  0, 38,
  59,  0,  0,  0, 18,  0, 66,  0, 58,  0,  0,  0,  0,  0, 75,  0,
   0, 73,  0,  0, 12,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 48,
   0,  0, 41, 69,  0,  0,  0,  0,  0,  6,  0,  0,  3,  0,  0,  0,
   0,  9,  0, 57, 39, 83, 20,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0, 56,  1, 42,  0,  0,  0,  0,  0,  0,  0, 35,  0,  0, 30,
  31,  0, 76,  0,  0, 37,  0, 28,  4, 52,  0, 74,  2,  0,  0,  0,
  81,  0,  0, 64,  0, 80,  0, 84,  0,  0,  0,  0, 25, 67, 21, 23,
   0,  0,  0,  0,  0,  0,  0, 61, 17,  0,  0,  0, 82,  0, 24,  0,
  16,  0,  0,  0,  0, 49,  0,  0,  0,  0,  0,  0,  0, 15, 13, 19,
   0, 14,  0,  0, 32,  0,  0, 10,  0,  0,  0, 45, 46, 47,  0,  0,
   0,  0,  0,  0,  0,  0, 11,  0, 33, 65, 27,  0, 43, 22,  0,  0,
};

/* Length of the spelling in each slot. */
static const uint8_t kw_slot_len[256] = {
  17,  0,  0,  9,  0, 10, 11,  0,  9,  0, 14,  7,  0,  0,  0, 10,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  8,  0,  0,  0, 12,  0,  0,
  17,  0,  0,  0,  0,  8,  9,  0,  0,  0,  0,  8, 19,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0, 15,  0,  0,  0,  0,  0,  5,  6, 10,
   0,  3,  0, 12, 12,  6,  8,  0,  8,  0,  0,  0,  0,  0,  0,  7,
  11,  0,  0,  0,  6,  0,  4,  0, 11,  0,  0,  0,  0,  0,  8,  0,
   0, 13,  0,  0, 11,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  8,
   0,  0,  9,  8,  0,  0,  0,  0,  0, 10,  0,  0,  7,  0,  0,  0,
   0,  7,  0,  9,  7, 10, 10,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  9, 13,  5,  0,  0,  0,  0,  0,  0,  0, 12,  0,  0,  9,
   9,  0,  4,  0,  0, 12,  0,  6, 11,  7,  0, 13,  5,  0,  0,  0,
  10,  0,  0,  9,  0, 12,  0,  5,  0,  0,  0,  0,  7,  9,  6, 13,
   0,  0,  0,  0,  0,  0,  0, 13,  5,  0,  0,  0,  9,  0,  7,  0,
   7,  0,  0,  0,  0,  7,  0,  0,  0,  0,  0,  0,  0,  9, 18,  5,
   0,  6,  0,  0,  7,  0,  0,  9,  0,  0,  0,  6,  6,  6,  0,  0,
   0,  0,  0,  0,  0,  0,  9,  0,  6,  9,  6,  0,  6,  7,  0,  0,
};

static uint64_t load_n(const unsigned char *p, size_t n)
{
  uint64_t x = 0;
  memcpy(&x, p, n);
  return x;
}

/* a[0..len) == b[0..len) for 3 <= len <= 20 (both readable that far), in at most three
 * overlapping word compares: no loop with a branch a byte */
static int same_bytes(const unsigned char *a, const unsigned char *b, size_t len)
{
  if (len < 8) /* two overlapping 4-byte halves (3 bytes: one byte twice) */
    return len < 4 ? a[0] == b[0] && a[1] == b[1] && a[2] == b[2]
                   : load_n(a, 4) == load_n(b, 4) && load_n(a + len - 4, 4) == load_n(b + len - 4, 4);
  if (load_n(a, 8) != load_n(b, 8) || load_n(a + len - 8, 8) != load_n(b + len - 8, 8))
    return 0;
  return len <= 16 || load_n(a + 8, 8) == load_n(b + 8, 8);
}

int egg_kw_lookup(const char *s, size_t len)
{
  const unsigned char *u = (const unsigned char *)s;
  const char *k;
  unsigned slot;
  if (len < 3 || len > 20 || s[0] != '<' || s[len - 1] != '>')
    return KW_NONE; /* every spelling is "<...>" of 3 to 20 bytes */
  slot = kw_hash(u, len);
  if (!kw_slots[slot] || kw_slot_len[slot] != len)
    return KW_NONE;
  k = kw_spellings[kw_slots[slot] - 1].spelling;
  slot = kw_slots[slot];
  if (same_bytes(u, (const unsigned char *)k, len)) /* the usual spelling, exactly */
    return kw_spellings[slot - 1].kw;
  for (size_t j = 0; j < len; j++) {
    unsigned char a = u[j], b = (unsigned char)k[j];
    if (!b)
      return KW_NONE;
    if (a >= 'A' && a <= 'Z')
      a = (unsigned char)(a + 32);
    if (b >= 'A' && b <= 'Z')
      b = (unsigned char)(b + 32);
    if (a != b)
      return KW_NONE;
  }
  return k[len] ? KW_NONE : kw_spellings[slot - 1].kw;
}

int egg_kw_selftest(void)
{
  for (size_t i = 0; i < NUM_SPELLINGS; i++)
    if (egg_kw_lookup(kw_spellings[i].spelling, strlen(kw_spellings[i].spelling)) != kw_spellings[i].kw)
      return -1;
  /* an entry keeps its kind, and its keyword is its kind's: one keyword each */
  for (int c = 0; c < C_COUNT; c++)
    for (int k = 1; k < KW_COUNT; k++) {
      int spec = egg_grammar_child(c, k);
      if (spec >= 0 && egg_spec_kw[spec] != k)
        return -1;
    }
  return 0;
}

#define N(n) (1u << (n))

/* The shape of every kind of entry. */
const struct egg_spec_info egg_specs[S_COUNT] = {
  [S_ROOT] = {"the file", NAME_NONE, VALS_NONE, N(0), C_TOP, 0},
  [S_COORDSYS] = {"<CoordinateSystem>", NAME_NONE, VALS_STRING, N(0) | N(1), C_LEAF, 1},
  [S_COMMENT] = {"<Comment>", NAME_OPT, VALS_STRING, COUNTS_ANY, C_LEAF, 0},
  [S_TEXTURE] = {"<Texture>", NAME_REQ, VALS_STRING, N(0) | N(1), C_TEXTURE, 1},
  [S_TEXTURE_INLINE] = {"inline <Texture> of a primitive", NAME_NONE, VALS_STRING, N(0) | N(1), C_LEAF, 2},
  [S_MATERIAL] = {"<Material>", NAME_REQ, VALS_NONE, N(0), C_MATERIAL, 0},
  [S_FILE] = {"<File>", NAME_OPT, VALS_STRING, N(0) | N(1), C_LEAF, 1},
  [S_VPOOL] = {"<VertexPool>", NAME_REQ, VALS_NONE, N(0), C_VPOOL, 0},
  [S_VERTEX] = {"<Vertex>", NAME_INT_OPT, VALS_REAL, N(1) | N(2) | N(3) | N(4), C_VERTEX, 0},
  [S_UV] = {"<UV>", NAME_OPT, VALS_REAL, N(2) | N(3), C_UV, 0},
  [S_AUX] = {"<Aux>", NAME_REQ, VALS_REAL, N(0) | N(4), C_LEAF, 0},
  [S_NORMAL] = {"<Normal>", NAME_NONE, VALS_REAL, N(3), C_NORMAL, 0},
  [S_RGBA] = {"<RGBA>", NAME_NONE, VALS_REAL, N(4), C_RGBA, 0},
  [S_TANGENT] = {"<Tangent>", NAME_NONE, VALS_REAL, N(3) | N(4), C_LEAF, 0},
  [S_BINORMAL] = {"<Binormal>", NAME_NONE, VALS_REAL, N(3), C_LEAF, 0},
  [S_DXYZ] = {"<Dxyz>", NAME_OPT, VALS_MORPH, N(3), C_LEAF, 0},
  [S_DNORMAL] = {"<DNormal>", NAME_OPT, VALS_MORPH, N(3), C_LEAF, 0},
  [S_DRGBA] = {"<DRGBA>", NAME_OPT, VALS_MORPH, N(4), C_LEAF, 0},
  [S_DUV] = {"<DUV>", NAME_OPT, VALS_MORPH, N(2) | N(3), C_LEAF, 0},
  [S_GROUP] = {"<Group>", NAME_OPT, VALS_NONE, N(0), C_GROUP, 0},
  [S_JOINT] = {"<Joint>", NAME_OPT, VALS_NONE, N(0), C_GROUP, 0},
  [S_INSTANCE] = {"<Instance>", NAME_OPT, VALS_NONE, N(0), C_GROUP, 0},
  [S_POLYGON] = {"<Polygon>", NAME_OPT, VALS_NONE, N(0), C_PRIM, 0},
  [S_PATCH] = {"<Patch>", NAME_OPT, VALS_NONE, N(0), C_PRIM, 0},
  [S_TRIFAN] = {"<TriangleFan>", NAME_OPT, VALS_NONE, N(0), C_PRIM, 0},
  [S_TRISTRIP] = {"<TriangleStrip>", NAME_OPT, VALS_NONE, N(0), C_PRIM, 0},
  [S_POINTLIGHT] = {"<PointLight>", NAME_OPT, VALS_NONE, N(0), C_PRIM, 0},
  [S_LINE] = {"<Line>", NAME_OPT, VALS_NONE, N(0), C_PRIM, 0},
  [S_NURBS_S] = {"<NURBSSurface>", NAME_OPT, VALS_NONE, N(0), C_NURBS_S, 0},
  [S_NURBS_C] = {"<NURBSCurve>", NAME_OPT, VALS_NONE, N(0), C_NURBS_C, 0},
  [S_TABLE] = {"<Table>", NAME_OPT, VALS_NONE, N(0), C_TABLE, 0},
  [S_BUNDLE] = {"<Bundle>", NAME_OPT, VALS_NONE, N(0), C_TABLE, 0},
  [S_ANIMPRELOAD] = {"<AnimPreload>", NAME_OPT, VALS_NONE, N(0), C_PRELOAD, 0},
  [S_SCALAR] = {"<Scalar>", NAME_REQ, VALS_ONE, N(1), C_LEAF, 0},
  [S_BILLBOARD] = {"<Billboard>", NAME_NONE, VALS_STRING, N(1), C_LEAF, 0},
  [S_BILLBOARDCENTER] = {"<BillboardCenter>", NAME_NONE, VALS_REAL, N(3), C_LEAF, 0},
  [S_COLLIDE] = {"<Collide>", NAME_OPT, VALS_STRING, COUNTS_ANY & ~N(0), C_LEAF, 0},
  [S_DCS] = {"<DCS>", NAME_NONE, VALS_INT_OR_WORD, N(1), C_LEAF, 0},
  [S_DART] = {"<Dart>", NAME_NONE, VALS_INT_OR_WORD, N(1), C_LEAF, 0},
  [S_SWITCH] = {"<Switch>", NAME_NONE, VALS_INT, N(1), C_LEAF, 0},
  [S_MODEL] = {"<Model>", NAME_NONE, VALS_INT, N(1), C_LEAF, 0},
  [S_TEXLIST] = {"<TexList>", NAME_NONE, VALS_INT, N(1), C_LEAF, 0},
  [S_OBJECTTYPE] = {"<ObjectType>", NAME_NONE, VALS_STRING, N(0) | N(1), C_LEAF, 1},
  [S_TAG] = {"<Tag>", NAME_OPT, VALS_STRING, COUNTS_ANY, C_LEAF, 0},
  [S_TRANSFORM] = {"<Transform>", NAME_NONE, VALS_NONE, N(0), C_TRANSFORM, 0},
  [S_DEFAULTPOSE] = {"<DefaultPose>", NAME_NONE, VALS_NONE, N(0), C_TRANSFORM, 0},
  [S_TRANSLATE] = {"<Translate>", NAME_NONE, VALS_REAL, N(2) | N(3), C_LEAF, 0},
  [S_ROTATE] = {"<Rotate>", NAME_NONE, VALS_REAL, N(1) | N(4), C_LEAF, 0},
  [S_ROTX] = {"<RotX>", NAME_NONE, VALS_REAL, N(1), C_LEAF, 0},
  [S_ROTY] = {"<RotY>", NAME_NONE, VALS_REAL, N(1), C_LEAF, 0},
  [S_ROTZ] = {"<RotZ>", NAME_NONE, VALS_REAL, N(1), C_LEAF, 0},
  [S_SCALE] = {"<Scale>", NAME_NONE, VALS_REAL, N(1) | N(2) | N(3), C_LEAF, 0},
  [S_MATRIX3] = {"<Matrix3>", NAME_NONE, VALS_REAL, N(0) | N(9), C_LEAF, 0},
  [S_MATRIX4] = {"<Matrix4>", NAME_NONE, VALS_REAL, N(0) | N(16), C_LEAF, 0},
  [S_VREF_GROUP] = {"<VertexRef> of a group", NAME_NONE, VALS_INT, COUNTS_ANY, C_VREF_GROUP, 0},
  [S_VREF_PRIM] = {"<VertexRef> of a primitive", NAME_NONE, VALS_INT, COUNTS_ANY, C_VREF_PRIM, 0},
  [S_REF] = {"<Ref>", NAME_NONE, VALS_STRING, N(0) | N(1), C_LEAF, 2},
  [S_SWITCHCOND] = {"<SwitchCondition>", NAME_NONE, VALS_NONE, N(0), C_SWITCHCOND, 0},
  [S_DISTANCE] = {"<Distance>", NAME_NONE, VALS_REAL, N(2) | N(3), C_DISTANCE, 0},
  [S_DIST_VERTEX] = {"<Vertex> of a <Distance>", NAME_NONE, VALS_REAL, N(3), C_LEAF, 0},
  [S_TREF] = {"<TRef>", NAME_NONE, VALS_STRING, N(0) | N(1), C_LEAF, 2},
  [S_MREF] = {"<MRef>", NAME_NONE, VALS_STRING, N(0) | N(1), C_LEAF, 2},
  [S_BFACE] = {"<BFace>", NAME_NONE, VALS_INT, N(1), C_LEAF, 0},
  [S_COMPONENT] = {"<Component>", NAME_INT_REQ, VALS_NONE, N(0), C_COMPONENT, 0},
  [S_ORDER_C] = {"<Order> of a <NURBSCurve>", NAME_NONE, VALS_INT, N(1), C_LEAF, 0},
  [S_ORDER_S] = {"<Order> of a <NURBSSurface>", NAME_NONE, VALS_INT, N(2), C_LEAF, 0},
  [S_KNOTS] = {"<Knots>", NAME_NONE, VALS_REAL, COUNTS_ANY, C_LEAF, 0},
  [S_UKNOTS] = {"<U-Knots>", NAME_NONE, VALS_REAL, COUNTS_ANY, C_LEAF, 0},
  [S_VKNOTS] = {"<V-Knots>", NAME_NONE, VALS_REAL, COUNTS_ANY, C_LEAF, 0},
  [S_TRIM] = {"<Trim>", NAME_NONE, VALS_NONE, N(0), C_TRIM, 0},
  [S_LOOP] = {"<Loop>", NAME_NONE, VALS_NONE, N(0), C_LOOP, 0},
  [S_SANIM] = {"<S$Anim>", NAME_OPT, VALS_NONE, N(0), C_SANIM, 0},
  [S_XFMANIM] = {"<Xfm$Anim>", NAME_OPT, VALS_NONE, N(0), C_XFM, 0},
  [S_XFMSANIM] = {"<Xfm$Anim_S$>", NAME_OPT, VALS_NONE, N(0), C_XFMS, 0},
  [S_V] = {"<V>", NAME_NONE, VALS_REAL, COUNTS_ANY, C_LEAF, 0},
};

/* Children per context: (keyword, kind) pairs. Top level and group bodies share the node list. */
struct child { uint8_t kw, spec; };

#define NODES \
  {KW_COORDSYSTEM, S_COORDSYS}, {KW_COMMENT, S_COMMENT}, {KW_TEXTURE, S_TEXTURE}, \
  {KW_MATERIAL, S_MATERIAL}, {KW_FILE, S_FILE}, {KW_VERTEXPOOL, S_VPOOL}, \
  {KW_GROUP, S_GROUP}, {KW_JOINT, S_JOINT}, {KW_INSTANCE, S_INSTANCE}, \
  {KW_POLYGON, S_POLYGON}, {KW_TRIANGLEFAN, S_TRIFAN}, {KW_TRIANGLESTRIP, S_TRISTRIP}, \
  {KW_PATCH, S_PATCH}, {KW_POINTLIGHT, S_POINTLIGHT}, {KW_LINE, S_LINE}, \
  {KW_NURBSSURFACE, S_NURBS_S}, {KW_NURBSCURVE, S_NURBS_C}, {KW_TABLE, S_TABLE}, \
  {KW_ANIMPRELOAD, S_ANIMPRELOAD}

#define PRIM_ATTRS \
  {KW_TREF, S_TREF}, {KW_TEXTURE, S_TEXTURE_INLINE}, {KW_MREF, S_MREF}, \
  {KW_VERTEXREF, S_VREF_PRIM}, {KW_NORMAL, S_NORMAL}, {KW_RGBA, S_RGBA}, \
  {KW_BFACE, S_BFACE}, {KW_SCALAR, S_SCALAR}

static const struct child ch_top[] = {NODES, {0, 0}};
static const struct child ch_group[] = {
  NODES, {KW_SCALAR, S_SCALAR}, {KW_BILLBOARD, S_BILLBOARD},
  {KW_BILLBOARDCENTER, S_BILLBOARDCENTER}, {KW_COLLIDE, S_COLLIDE}, {KW_DCS, S_DCS},
  {KW_DART, S_DART}, {KW_SWITCH, S_SWITCH}, {KW_OBJECTTYPE, S_OBJECTTYPE}, {KW_MODEL, S_MODEL},
  {KW_TAG, S_TAG}, {KW_TEXLIST, S_TEXLIST}, {KW_TRANSFORM, S_TRANSFORM},
  {KW_DEFAULTPOSE, S_DEFAULTPOSE}, {KW_VERTEXREF, S_VREF_GROUP},
  {KW_SWITCHCONDITION, S_SWITCHCOND}, {KW_REF, S_REF}, {0, 0}};
static const struct child ch_texture[] = {{KW_SCALAR, S_SCALAR}, {KW_TRANSFORM, S_TRANSFORM}, {0, 0}};
static const struct child ch_scalars[] = {{KW_SCALAR, S_SCALAR}, {0, 0}};
static const struct child ch_vpool[] = {{KW_VERTEX, S_VERTEX}, {0, 0}};
static const struct child ch_vertex[] = {
  {KW_UV, S_UV}, {KW_AUX, S_AUX}, {KW_NORMAL, S_NORMAL}, {KW_RGBA, S_RGBA}, {KW_DXYZ, S_DXYZ},
  {0, 0}};
static const struct child ch_uv[] = {
  {KW_TANGENT, S_TANGENT}, {KW_BINORMAL, S_BINORMAL}, {KW_DUV, S_DUV}, {0, 0}};
static const struct child ch_normal[] = {{KW_DNORMAL, S_DNORMAL}, {0, 0}};
static const struct child ch_rgba[] = {{KW_DRGBA, S_DRGBA}, {0, 0}};
static const struct child ch_prim[] = {PRIM_ATTRS, {KW_COMPONENT, S_COMPONENT}, {0, 0}};
static const struct child ch_component[] = {{KW_NORMAL, S_NORMAL}, {KW_RGBA, S_RGBA}, {0, 0}};
static const struct child ch_nurbs_s[] = {
  PRIM_ATTRS, {KW_ORDER, S_ORDER_S}, {KW_UKNOTS, S_UKNOTS}, {KW_VKNOTS, S_VKNOTS},
  {KW_NURBSCURVE, S_NURBS_C}, {KW_TRIM, S_TRIM}, {0, 0}};
static const struct child ch_nurbs_c[] = {PRIM_ATTRS, {KW_ORDER, S_ORDER_C}, {KW_KNOTS, S_KNOTS}, {0, 0}};
static const struct child ch_trim[] = {{KW_LOOP, S_LOOP}, {0, 0}};
static const struct child ch_loop[] = {{KW_NURBSCURVE, S_NURBS_C}, {0, 0}};
static const struct child ch_transform[] = {
  {KW_TRANSLATE, S_TRANSLATE}, {KW_ROTATE, S_ROTATE}, {KW_ROTX, S_ROTX}, {KW_ROTY, S_ROTY},
  {KW_ROTZ, S_ROTZ}, {KW_SCALE, S_SCALE}, {KW_MATRIX3, S_MATRIX3}, {KW_MATRIX4, S_MATRIX4},
  {0, 0}};
static const struct child ch_vref_group[] = {{KW_SCALAR, S_SCALAR}, {KW_REF, S_REF}, {0, 0}};
static const struct child ch_vref_prim[] = {{KW_REF, S_REF}, {0, 0}};
static const struct child ch_switchcond[] = {{KW_DISTANCE, S_DISTANCE}, {0, 0}};
static const struct child ch_distance[] = {{KW_VERTEX, S_DIST_VERTEX}, {0, 0}};
static const struct child ch_table[] = {
  {KW_TABLE, S_TABLE}, {KW_BUNDLE, S_BUNDLE}, {KW_SANIM, S_SANIM}, {KW_XFMANIM, S_XFMANIM},
  {KW_XFMSANIM, S_XFMSANIM}, {0, 0}};
static const struct child ch_xfms[] = {{KW_SCALAR, S_SCALAR}, {KW_SANIM, S_SANIM}, {0, 0}};
static const struct child ch_sanim[] = {{KW_SCALAR, S_SCALAR}, {KW_V, S_V}, {0, 0}};
static const struct child ch_leaf[] = {{0, 0}};

static const struct child *const ctx_children[C_COUNT] = {
  [C_LEAF] = ch_leaf, [C_TOP] = ch_top, [C_GROUP] = ch_group, [C_TEXTURE] = ch_texture,
  [C_MATERIAL] = ch_scalars, [C_VPOOL] = ch_vpool, [C_VERTEX] = ch_vertex, [C_UV] = ch_uv,
  [C_NORMAL] = ch_normal, [C_RGBA] = ch_rgba, [C_PRIM] = ch_prim,
  [C_COMPONENT] = ch_component, [C_NURBS_S] = ch_nurbs_s, [C_NURBS_C] = ch_nurbs_c,
  [C_TRIM] = ch_trim, [C_LOOP] = ch_loop, [C_TRANSFORM] = ch_transform,
  [C_VREF_GROUP] = ch_vref_group, [C_VREF_PRIM] = ch_vref_prim, [C_SWITCHCOND] = ch_switchcond,
  [C_DISTANCE] = ch_distance, [C_TABLE] = ch_table, [C_XFMS] = ch_xfms, [C_SANIM] = ch_sanim,
  [C_XFM] = ch_sanim, [C_PRELOAD] = ch_scalars,
};

/* Where each keyword may appear, for the placement message. */
static const char *const ctx_names[C_COUNT] = {
  [C_LEAF] = "nothing", [C_TOP] = "the top level", [C_GROUP] = "<Group>/<Joint>/<Instance>",
  [C_TEXTURE] = "<Texture>", [C_MATERIAL] = "<Material>", [C_VPOOL] = "<VertexPool>",
  [C_VERTEX] = "<Vertex>", [C_UV] = "<UV>", [C_NORMAL] = "<Normal>", [C_RGBA] = "<RGBA>",
  [C_PRIM] = "primitives", [C_COMPONENT] = "<Component>", [C_NURBS_S] = "<NURBSSurface>",
  [C_NURBS_C] = "<NURBSCurve>", [C_TRIM] = "<Trim>", [C_LOOP] = "<Loop>",
  [C_TRANSFORM] = "<Transform>/<DefaultPose>", [C_VREF_GROUP] = "<VertexRef>",
  [C_VREF_PRIM] = "<VertexRef>", [C_SWITCHCOND] = "<SwitchCondition>",
  [C_DISTANCE] = "<Distance>", [C_TABLE] = "<Table>/<Bundle>", [C_XFMS] = "<Xfm$Anim_S$>",
  [C_SANIM] = "<S$Anim>", [C_XFM] = "<Xfm$Anim>", [C_PRELOAD] = "<AnimPreload>",
};

/* The keyword of each kind of entry (an entry keeps its kind, not its keyword): one each, as
 * ctx_children gives them; egg_lex_test checks the two agree. */
const uint8_t egg_spec_kw[S_COUNT] = {
  [S_ROOT] = KW_NONE,
  [S_COORDSYS] = KW_COORDSYSTEM,
  [S_COMMENT] = KW_COMMENT,
  [S_TEXTURE] = KW_TEXTURE,
  [S_TEXTURE_INLINE] = KW_TEXTURE,
  [S_MATERIAL] = KW_MATERIAL,
  [S_FILE] = KW_FILE,
  [S_VPOOL] = KW_VERTEXPOOL,
  [S_VERTEX] = KW_VERTEX,
  [S_UV] = KW_UV,
  [S_AUX] = KW_AUX,
  [S_NORMAL] = KW_NORMAL,
  [S_RGBA] = KW_RGBA,
  [S_TANGENT] = KW_TANGENT,
  [S_BINORMAL] = KW_BINORMAL,
  [S_DXYZ] = KW_DXYZ,
  [S_DNORMAL] = KW_DNORMAL,
  [S_DRGBA] = KW_DRGBA,
  [S_DUV] = KW_DUV,
  [S_GROUP] = KW_GROUP,
  [S_JOINT] = KW_JOINT,
  [S_INSTANCE] = KW_INSTANCE,
  [S_POLYGON] = KW_POLYGON,
  [S_PATCH] = KW_PATCH,
  [S_TRIFAN] = KW_TRIANGLEFAN,
  [S_TRISTRIP] = KW_TRIANGLESTRIP,
  [S_POINTLIGHT] = KW_POINTLIGHT,
  [S_LINE] = KW_LINE,
  [S_NURBS_S] = KW_NURBSSURFACE,
  [S_NURBS_C] = KW_NURBSCURVE,
  [S_TABLE] = KW_TABLE,
  [S_BUNDLE] = KW_BUNDLE,
  [S_ANIMPRELOAD] = KW_ANIMPRELOAD,
  [S_SCALAR] = KW_SCALAR,
  [S_BILLBOARD] = KW_BILLBOARD,
  [S_BILLBOARDCENTER] = KW_BILLBOARDCENTER,
  [S_COLLIDE] = KW_COLLIDE,
  [S_DCS] = KW_DCS,
  [S_DART] = KW_DART,
  [S_SWITCH] = KW_SWITCH,
  [S_MODEL] = KW_MODEL,
  [S_TEXLIST] = KW_TEXLIST,
  [S_OBJECTTYPE] = KW_OBJECTTYPE,
  [S_TAG] = KW_TAG,
  [S_TRANSFORM] = KW_TRANSFORM,
  [S_DEFAULTPOSE] = KW_DEFAULTPOSE,
  [S_TRANSLATE] = KW_TRANSLATE,
  [S_ROTATE] = KW_ROTATE,
  [S_ROTX] = KW_ROTX,
  [S_ROTY] = KW_ROTY,
  [S_ROTZ] = KW_ROTZ,
  [S_SCALE] = KW_SCALE,
  [S_MATRIX3] = KW_MATRIX3,
  [S_MATRIX4] = KW_MATRIX4,
  [S_VREF_GROUP] = KW_VERTEXREF,
  [S_VREF_PRIM] = KW_VERTEXREF,
  [S_REF] = KW_REF,
  [S_SWITCHCOND] = KW_SWITCHCONDITION,
  [S_DISTANCE] = KW_DISTANCE,
  [S_DIST_VERTEX] = KW_VERTEX,
  [S_TREF] = KW_TREF,
  [S_MREF] = KW_MREF,
  [S_BFACE] = KW_BFACE,
  [S_COMPONENT] = KW_COMPONENT,
  [S_ORDER_C] = KW_ORDER,
  [S_ORDER_S] = KW_ORDER,
  [S_KNOTS] = KW_KNOTS,
  [S_UKNOTS] = KW_UKNOTS,
  [S_VKNOTS] = KW_VKNOTS,
  [S_TRIM] = KW_TRIM,
  [S_LOOP] = KW_LOOP,
  [S_SANIM] = KW_SANIM,
  [S_XFMANIM] = KW_XFMANIM,
  [S_XFMSANIM] = KW_XFMSANIM,
  [S_V] = KW_V
};

int egg_grammar_child(int ctx, int kw)
{
  if (ctx < 0 || ctx >= C_COUNT || !ctx_children[ctx])
    return -1;
  for (const struct child *c = ctx_children[ctx]; c->kw; c++)
    if (c->kw == kw)
      return c->spec;
  return -1;
}

const char *egg_grammar_where(int kw, char *buf, size_t cap)
{
  size_t n = 0;
  if (!cap)
    return "";
  buf[0] = 0;
  if (kw >= KW_FIRST_UNUSED)
    return "nowhere (Panda3D lexes it but no grammar rule uses it)";
  for (int c = 0; c < C_COUNT; c++) {
    if (c == C_XFM && egg_grammar_child(C_SANIM, kw) >= 0)
      continue; /* same list as <S$Anim> */
    if (egg_grammar_child(c, kw) >= 0 && c != C_VREF_PRIM) {
      size_t k = strlen(ctx_names[c]);
      if (n + k + 3 >= cap)
        break;
      if (n) {
        memcpy(buf + n, ", ", 2);
        n += 2;
      }
      memcpy(buf + n, ctx_names[c], k);
      n += k;
      buf[n] = 0;
    }
  }
  return n ? buf : "nowhere";
}
