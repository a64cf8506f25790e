/* egg_anim.c - joints and animation tables into the common model (notes §4).
 *
 * Matrices follow Panda3D's row-vector convention (p' = p * M, translation in row 3) and are
 * composed exactly as EggXfmSAnim::get_value / compose_with_order do, per coordinate system;
 * they are kept in the format-private data, and each is also decomposed into the model's
 * column-vector TRS (exact when the matrix has no shear). */
#include <math.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"
#include "pose.h"

static const char component_letters[] = "ijkabchprxyz";
static const double component_defaults[12] = {1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};

#define MAX_ANIM_CELLS 1000000u /* frames * poses kept in the model (bounded: tables replicate) */
/* Components of a <Transform> past which frames computed as they are read may keep its matrix
 * (a rest pose plays in every frame: composing it again for each would cost its text times
 * the frames); a matrix of 128 bytes then stands for more than 8 entries of text. */
#define HEAVY_TRANSFORM 8u
/* The most such matrices kept (16.5 MiB with their joints' numbers), those of the transforms of
 * the most components: one a joint of 9 `<RotX>{1}` cost 132 bytes for 104 of text, 4.1 x with
 * the tree (issue 26). Past this many, a transform of fewer components than the kept ones' is
 * composed again for each frame, and it is one of more than HEAVY_KEEP joints, so the frames
 * are fewer than MAX_ANIM_CELLS / HEAVY_KEEP (7): its text times 7 at most. */
#define HEAVY_KEEP 131072u
/* Components counted exactly up to this when choosing the ones kept; a transform of more is
 * always kept (132 bytes for more than 9 KB of text) */
#define HEAVY_COUNT_MAX 1024u

static void mat_identity(double m[16])
{
  memset(m, 0, 16 * sizeof *m);
  m[0] = m[5] = m[10] = m[15] = 1;
}

static void rot_axis(double m[16], int axis, double degrees)
{
  double a = degrees * (M_PI / 180.0), c = cos(a), s = sin(a);
  mat_identity(m);
  switch (axis) {
  case 0: m[5] = c; m[6] = s; m[9] = -s; m[10] = c; break;  /* Rx */
  case 1: m[0] = c; m[2] = -s; m[8] = s; m[10] = c; break;  /* Ry */
  default: m[0] = c; m[1] = s; m[4] = -s; m[5] = c; break;  /* Rz */
  }
}

/* Panda3D's ROT(theta, axis) for any unit axis (lmatrix4_src.cxx rotate_mat, right-handed). */
static void rot_general(double m[16], double degrees, double x, double y, double z)
{
  double len = sqrt(x * x + y * y + z * z), a, c, s, t;
  mat_identity(m);
  if (len == 0)
    return;
  x /= len;
  y /= len;
  z /= len;
  a = degrees * (M_PI / 180.0);
  c = cos(a);
  s = sin(a);
  t = 1 - c;
  m[0] = t * x * x + c;     m[1] = t * x * y + s * z; m[2] = t * x * z - s * y;
  m[4] = t * y * x - s * z; m[5] = t * y * y + c;     m[6] = t * y * z + s * x;
  m[8] = t * z * x + s * y; m[9] = t * z * y - s * x; m[10] = t * z * z + c;
}

/* compose_with_order (eggXfmSAnim.cxx:200-251), row-vector. */
static void compose(double out[16], const double v[12], const char *order, size_t olen, int cs)
{
  int zup = cs == CS_ZUP_RIGHT || cs == CS_ZUP_LEFT;
  int left = cs == CS_ZUP_LEFT || cs == CS_YUP_LEFT;
  int reverse_roll = olen == 5 && !memcmp(order, "sphrt", 5);
  double x[16];
  mat_identity(out);
  for (size_t i = 0; i < olen; i++) {
    double sx = v[0], sy = v[1], sz = v[2], a = v[3], b = v[4], c = v[5];
    double h = v[6], p = v[7], r = reverse_roll ? -v[8] : v[8];
    mat_identity(x);
    switch (order[i]) {
    case 's':
      if (zup) {
        x[0] = sx; x[1] = a * sx; x[2] = 0;
        x[4] = 0; x[5] = sy; x[6] = 0;
        x[8] = (left ? -b : b) * sz; x[9] = (left ? -c : c) * sz; x[10] = sz;
      } else {
        x[0] = sx; x[1] = 0; x[2] = (left ? -b : b) * sx;
        x[4] = a * sy; x[5] = sy; x[6] = (left ? -c : c) * sy;
        x[8] = 0; x[9] = 0; x[10] = sz;
      }
      break;
    case 'h': rot_axis(x, zup ? 2 : 1, left ? -h : h); break;
    case 'p': rot_axis(x, 0, left ? -p : p); break;
    case 'r': rot_axis(x, zup ? 1 : 2, zup ? r : -r); break;
    case 't': x[12] = v[9]; x[13] = v[10]; x[14] = v[11]; break;
    default: continue; /* Panda3D warns and skips the letter */
    }
    mat4_mul(out, out, x);
  }
}

/* Row-vector matrix to the model's column-vector TRS: its transpose is the column-vector form. */
static void matrix_to_trs(const double m[16], struct trs *p)
{
  double t[16];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      t[i * 4 + j] = m[j * 4 + i];
  trs_from_matrix(t, p); /* a shear Panda's matrices may hold is dropped, as before */
}

/* A <Transform>/<DefaultPose> body: components applied in order, each post-multiplied. */
static void transform_matrix(const struct egg_node *t, double out[16])
{
  double x[16];
  mat_identity(out);
  for (const struct egg_node *c = egg_first(t); c; c = egg_next(c)) {
    double v[16] = {0};
    if (c->bad)
      continue;
    for (uint32_t i = 0; i < egg_nvals(c) && i < 16; i++)
      v[i] = egg_val_d(c, i);
    mat_identity(x);
    switch (c->spec) {
    case S_TRANSLATE:
      x[12] = v[0];
      x[13] = v[1];
      x[14] = egg_nvals(c) == 3 ? v[2] : 0;
      break;
    case S_ROTATE:
      if (egg_nvals(c) == 4)
        rot_general(x, v[0], v[1], v[2], v[3]);
      else
        rot_axis(x, 2, v[0]);
      break;
    case S_ROTX: rot_axis(x, 0, v[0]); break;
    case S_ROTY: rot_axis(x, 1, v[0]); break;
    case S_ROTZ: rot_axis(x, 2, v[0]); break;
    case S_SCALE:
      x[0] = v[0];
      x[5] = egg_nvals(c) >= 2 ? v[1] : v[0];
      x[10] = egg_nvals(c) == 3 ? v[2] : egg_nvals(c) == 1 ? v[0] : 1;
      break;
    case S_MATRIX4:
      if (egg_nvals(c) == 16)
        for (int i = 0; i < 16; i++)
          x[i] = v[i];
      break;
    case S_MATRIX3:
      if (egg_nvals(c) == 9) { /* 2-D affine: rows (a b 0) (c d 0) (tx ty 1) */
        x[0] = v[0]; x[1] = v[1]; x[4] = v[3]; x[5] = v[4];
        x[12] = v[6]; x[13] = v[7];
      }
      break;
    default:
      continue;
    }
    mat4_mul(out, out, x);
  }
}

static const struct egg_node *last_v(const struct egg_node *n)
{
  const struct egg_node *v = NULL;
  for (const struct egg_node *c = egg_first(n); c; c = egg_next(c))
    if (c->spec == S_V)
      v = c; /* a second <V> silently replaces the first */
  return v;
}

static void scalar_string(const struct egg_node *n, const char *name, const char **s, size_t *len)
{
  const struct egg_node *sc = egg_scalar_child(n, name);
  *s = "";
  *len = 0;
  uint32_t n32;
  const char *v = sc && egg_nvals(sc) ? egg_val_str(sc, 0, &n32) : NULL;
  if (v) {
    *s = v;
    *len = n32;
  }
}

static int letter_index(char c)
{
  const char *p = c ? strchr(component_letters, c) : NULL;
  return p ? (int)(p - component_letters) : -1;
}

/* Rows of an xform table (notes §4.2). */
uint32_t egg_xform_rows(const struct egg_node *x)
{
  if (x->spec == S_XFMANIM) {
    const char *contents;
    size_t ncols;
    const struct egg_node *v = last_v(x);
    scalar_string(x, "contents", &contents, &ncols);
    return ncols && v ? (uint32_t)(egg_nvals(v) / ncols) : 0;
  }
  {
    uint32_t rows = 1;
    for (const struct egg_node *c = egg_first(x); c; c = egg_next(c)) {
      const struct egg_node *v;
      if (c->spec != S_SANIM)
        continue;
      v = last_v(c);
      if (v && egg_nvals(v) > 1)
        rows = egg_nvals(v); /* the last multi-row child, as get_num_rows really does */
    }
    return rows;
  }
}

/* Matrix of row `row` of an xform table. */
static void xform_row(const struct egg_node *x, uint32_t row, int cs, double out[16])
{
  double v[12];
  const char *order;
  size_t olen;
  memcpy(v, component_defaults, sizeof v);
  scalar_string(x, "order", &order, &olen);
  if (!olen) {
    order = "srpht";
    olen = 5;
  }
  if (x->spec == S_XFMANIM) {
    const char *contents;
    size_t ncols;
    const struct egg_node *vn = last_v(x);
    scalar_string(x, "contents", &contents, &ncols);
    if (vn && ncols && (uint64_t)(row + 1) * ncols <= egg_nvals(vn))
      for (size_t c = 0; c < ncols; c++) {
        int k = letter_index(contents[c]);
        if (k >= 0)
          v[k] = egg_val_d(vn, (uint32_t)((size_t)row * ncols + c));
      }
  } else {
    for (const struct egg_node *c = egg_first(x); c; c = egg_next(c)) {
      const struct egg_node *vn;
      int k;
      if (c->spec != S_SANIM)
        continue;
      vn = last_v(c);
      if (!vn || !egg_nvals(vn))
        break; /* an empty table stops all later columns */
      k = egg_name(c) && egg_name_len(c) ? letter_index(egg_name(c)[0]) : -1;
      if (k < 0)
        continue;
      v[k] = egg_nvals(vn) == 1 ? egg_val_d(vn, 0) : egg_val_d(vn, row < egg_nvals(vn) ? row : egg_nvals(vn) - 1);
    }
  }
  compose(out, v, order, olen, cs);
}

static const struct egg_node *find_xform(const struct egg_node *table)
{
  for (const struct egg_node *c = egg_first(table); c; c = egg_next(c))
    if ((c->spec == S_XFMANIM || c->spec == S_XFMSANIM) && egg_node_name_is(c, "xform"))
      return c;
  return NULL;
}

static const struct egg_node *skeleton_of(const struct egg_node *bundle)
{
  for (const struct egg_node *c = egg_first(bundle); c; c = egg_next(c))
    if (c->spec == S_TABLE && egg_node_name_is(c, "<skeleton>"))
      return c;
  return NULL;
}

/* Bundle fps as the loader picks it: the first non-zero, the minimum on conflict, else 24. */
double egg_bundle_fps(const struct egg_node *bundle)
{
  double fps = 0;
  for (const struct egg_node *n = egg_first(bundle); n; n = egg_next_pre(n, bundle)) {
    const struct egg_node *s;
    if (n->spec != S_XFMANIM && n->spec != S_XFMSANIM && n->spec != S_SANIM)
      continue;
    s = egg_scalar_child(n, "fps");
    if (s && egg_nvals(s) && egg_val_is_number(s, 0) && egg_val_d(s, 0) > 0 &&
        (fps == 0 || egg_val_d(s, 0) < fps))
      fps = egg_val_d(s, 0);
  }
  return fps > 0 ? fps : 24;
}

/* Frames of a bundle: the common length of its multi-row tables (the minimum on conflict). */
uint32_t egg_bundle_frames(const struct egg_node *bundle)
{
  uint32_t frames = 0;
  for (const struct egg_node *n = egg_first(bundle); n; n = egg_next_pre(n, bundle)) {
    uint32_t rows;
    if (n->spec == S_XFMANIM || n->spec == S_XFMSANIM)
      rows = egg_xform_rows(n);
    else if (n->spec == S_SANIM && egg_parent(n)->spec != S_XFMSANIM && last_v(n))
      rows = egg_nvals(last_v(n));
    else
      continue;
    if (rows > 1 && (frames == 0 || rows < frames))
      frames = rows;
  }
  return frames ? frames : 1;
}

/* A joint's rest transform: its <Transform> (the last one), or identity (a table standing in for
 * a joint has none); 1 when a <Transform> was read, 0 for the identity. */
static const struct egg_node *rest_transform(const struct egg_node *jn)
{
  const struct egg_node *t = NULL;
  if (jn->spec != S_JOINT)
    return NULL;
  for (const struct egg_node *c = egg_first(jn); c; c = egg_next(c))
    if (c->spec == S_TRANSFORM)
      t = c;
  return t;
}

static int joint_rest(const struct egg_node *jn, double r[16])
{
  const struct egg_node *t = rest_transform(jn);
  mat_identity(r);
  if (!t)
    return 0;
  transform_matrix(t, r);
  return 1;
}

/* Whether joint_rest finds a <Transform> to read (else the rest is the identity). */
static int joint_has_transform(const struct egg_node *jn)
{
  if (jn->spec != S_JOINT)
    return 0;
  for (const struct egg_node *c = egg_first(jn); c; c = egg_next(c))
    if (c->spec == S_TRANSFORM)
      return 1;
  return 0;
}

/* The joints (or tables standing in for them) in model order: their entries as offsets from
 * the root (4 bytes a joint, not a pointer's 8), and the model's joints, whose parents are set
 * as they are found (no list of parents beside them). */
struct joint_list {
  const struct egg_node *root;
  uint32_t *nodes;
  struct model_joint *joints;
  uint32_t count;
};
#define JL_NODE(jl, j) ((jl)->root + (jl)->nodes[j])

/* Room for n entries: 1, or 0 when n is 0 (nothing to collect), -1 when out of memory. */
static int joint_list_alloc(struct egg_doc *doc, struct model *m, struct joint_list *jl, uint32_t n)
{
  jl->count = 0;
  jl->root = doc->root;
  if (!n)
    return 0;
  jl->nodes = arena_calloc(doc->arena, n, sizeof *jl->nodes);
  jl->joints = arena_calloc(&m->arena, n, sizeof *jl->joints);
  return jl->nodes && jl->joints ? 1 : -1;
}

static int is_dart_joint_parent(const struct egg_node *n)
{
  return n->spec == S_JOINT;
}

/* The place of off in the ascending offs[0..n), or -1. */
static int64_t offs_find(const uint32_t *offs, uint32_t n, uint32_t off)
{
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (offs[mid] < off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && offs[lo] == off ? (int64_t)lo : -1;
}

static int collect_joints(struct egg_doc *doc, struct model *m, struct joint_list *jl)
{
  /* every <Joint> is in a group (the grammar), so the parser's count is the walk's */
  uint32_t n = (uint32_t)doc->spec_count[S_JOINT], k = 0;
  int rc;
  if ((rc = joint_list_alloc(doc, m, jl, n)) <= 0)
    return rc;
  for (const struct egg_node *x = doc->root; x; x = egg_next_skip(x, doc->root, egg_in_node_list(x))) {
    const struct egg_node *p;
    if (x->spec != S_JOINT)
      continue;
    jl->nodes[k] = (uint32_t)(x - jl->root);
    jl->joints[k].parent = -1;
    for (p = egg_parent(x); p && !is_dart_joint_parent(p); p = egg_parent(p))
      ;
    if (p) /* pre-order: the parent joint is already in the list */
      jl->joints[k].parent = (int32_t)offs_find(jl->nodes, k, (uint32_t)(p - jl->root));
    k++;
  }
  jl->count = k;
  doc->joint_offs = jl->nodes;
  doc->njoints = k;
  return 0;
}

int64_t egg_joint_number(const struct egg_doc *doc, const struct egg_node *j)
{
  if (!doc->root || j < doc->root || j >= doc->root + doc->root->size)
    return -1;
  return offs_find(doc->joint_offs, doc->njoints, (uint32_t)(j - doc->root));
}

static int collect_tables(struct egg_doc *doc, struct model *m, const struct egg_node *skel,
                          struct joint_list *jl)
{
  uint32_t n = 0, k = 0;
  int rc;
  for (const struct egg_node *x = egg_first(skel); x; x = egg_next_pre(x, skel))
    n += x->spec == S_TABLE;
  if ((rc = joint_list_alloc(doc, m, jl, n)) <= 0)
    return rc;
  for (const struct egg_node *x = egg_first(skel); x; x = egg_next_pre(x, skel)) {
    if (x->spec != S_TABLE)
      continue;
    const struct egg_node *p = egg_parent(x);
    jl->nodes[k] = (uint32_t)(x - jl->root);
    /* pre-order: the parent table is already in the list */
    jl->joints[k].parent = p != skel && p->spec == S_TABLE ?
                           (int32_t)offs_find(jl->nodes, k, (uint32_t)(p - jl->root)) : -1;
    k++;
  }
  jl->count = k;
  return 0;
}

int egg_joint_offs(struct egg_doc *doc)
{
  uint32_t n = (uint32_t)doc->spec_count[S_JOINT], k = 0;
  uint32_t *offs;
  if (doc->joint_offs || !n)
    return 0;
  if (!(offs = arena_calloc(doc->arena, n, sizeof *offs)))
    return -1;
  for (const struct egg_node *x = doc->root; x && k < n; x = egg_next_skip(x, doc->root, egg_in_node_list(x)))
    if (x->spec == S_JOINT)
      offs[k++] = (uint32_t)(x - doc->root);
  doc->joint_offs = offs;
  doc->njoints = k;
  return 0;
}

/* The joints as collect_joints or collect_tables list them (or how many: the joint after last,
 * NULL to start), without their list: the next <Joint> of the node list, or table of skel. */
static const struct egg_node *walk_next(const struct egg_node *root, const struct egg_node *skel,
                                        const struct egg_node *last)
{
  const struct egg_node *x;
  if (skel) {
    for (x = last ? egg_next_pre(last, skel) : egg_first(skel); x && x->spec != S_TABLE; x = egg_next_pre(x, skel))
      ;
    return x;
  }
  for (x = last ? egg_next_skip(last, root, egg_in_node_list(last)) : root; x && x->spec != S_JOINT;
       x = egg_next_skip(x, root, egg_in_node_list(x)))
    ;
  return x;
}

_Static_assert(EGG_MAX_DEPTH <= MODEL_JOINT_WALK_DEPTH, "a walk keeps every open joint");

/* model.joint_walk of poses without frames: the joint after c's last one, its parent the nearest
 * open <Joint> (collect_joints), or the table holding it (collect_tables); its rest computed as
 * egg_anim_decode computes the rests it keeps. c->open holds the open joints' entries and
 * numbers, innermost last. */
static int egg_joint_walk(const struct model *m, struct model_joint_cursor *c)
{
  const struct egg_private *priv = m->format_data;
  const struct egg_node *root = priv->root, *skel = priv->walk_skel, *x;
  double r[16];
  x = walk_next(root, skel, c->at ? root + c->pos : NULL);
  if (!x)
    return -1;
  while (c->depth) {
    const struct egg_node *o = root + c->open[2 * (c->depth - 1)];
    if (x < o + o->size)
      break; /* inside o: every one below is open too */
    c->depth--;
  }
  c->joint.parent = -1;
  if (c->depth && (!skel || root + c->open[2 * (c->depth - 1)] == egg_parent(x)))
    c->joint.parent = (int32_t)c->open[2 * c->depth - 1];
  if (c->depth < MODEL_JOINT_WALK_DEPTH) {
    c->open[2 * c->depth] = (uint32_t)(x - root);
    c->open[2 * c->depth + 1] = c->at;
    c->depth++;
  }
  c->pos = (size_t)(x - root);
  c->joint.name = egg_name(x) ? egg_name(x) : "";
  c->joint.rest = 0;
  c->rest = &m->rests[0];
  if (joint_rest(x, r)) {
    matrix_to_trs(r, &c->own_rest);
    c->rest = &c->own_rest;
  }
  return 0;
}

/* model.frame_get of poses (ctx.frames_lazy): pose p of global frame f, computed exactly as the
 * strip egg_anim_decode would hold has it (the same matrix, the same decomposition); its matrix
 * stays in priv->last_mat for egg_pose_matrix. */
static int egg_frame_get(const struct model *m, uint32_t f, uint32_t p, struct trs *out)
{
  struct egg_private *priv = m->format_data;
  uint32_t lo = 0, hi = m->num_anims, fl, xo;
  double *mat = priv->last_mat;
  if (!hi || !priv->lazy_tf)
    return -1;
  while (hi - lo > 1) { /* the animation of f: the last to start at or before it */
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->anims[mid].first_frame <= f)
      lo = mid;
    else
      hi = mid;
  }
  fl = f - m->anims[lo].first_frame;
  xo = priv->lazy_xf ? priv->lazy_xf[(size_t)lo * priv->num_poses + p] : 0;
  priv->last_ok = 0;
  if (xo) {
    const struct egg_node *x = priv->root + xo;
    uint32_t rows = egg_xform_rows(x);
    xform_row(x, rows > 1 ? (fl < rows ? fl : rows - 1) : 0, priv->coordsys, mat);
  } else if (!priv->lazy_tf[p]) {
    mat_identity(mat);
  } else {
    int64_t h = offs_find(priv->heavy_joints, priv->num_heavy, p);
    if (h >= 0)
      memcpy(mat, priv->heavy_mats + 16 * (size_t)h, 16 * sizeof *mat);
    else
      transform_matrix(priv->root + priv->lazy_tf[p], mat);
  }
  matrix_to_trs(mat, out);
  priv->last_f = f;
  priv->last_p = p;
  priv->last_ok = 1;
  return 0;
}

/* The components of <Transform> t, counted up to HEAVY_COUNT_MAX + 1. */
static uint32_t transform_size(const struct egg_node *t)
{
  uint32_t comps = 0;
  for (const struct egg_node *c = egg_first(t); c && comps <= HEAVY_COUNT_MAX; c = egg_next(c))
    comps++;
  return comps;
}

/* The fewest components (at least HEAVY_TRANSFORM) past which a transform's matrix is kept:
 * the lowest that leaves at most HEAVY_KEEP kept, or HEAVY_COUNT_MAX. by_size[k]: how many of
 * the transforms have k components (HEAVY_COUNT_MAX + 1: that many or more). */
static uint32_t heavy_threshold(const uint32_t *by_size, uint32_t *kept)
{
  uint32_t h = HEAVY_TRANSFORM, over = 0;
  for (uint32_t k = HEAVY_TRANSFORM + 1; k <= HEAVY_COUNT_MAX + 1; k++)
    over += by_size[k];
  while (over > HEAVY_KEEP && h < HEAVY_COUNT_MAX)
    over -= by_size[++h];
  *kept = over;
  return h;
}

/* model.joint_name of a model whose joints are walked (poses): the name of joint j. */
static const char *egg_pose_name(const struct model *m, uint32_t j)
{
  const struct egg_private *priv = m->format_data;
  const struct egg_node *x;
  if (!priv->lazy_nodes || j >= priv->num_poses)
    return NULL;
  x = priv->root + priv->lazy_nodes[j];
  return egg_name(x) ? egg_name(x) : "";
}

/* Frames computed as they are read (ctx.frames_lazy: poses), for the n joints (or tables
 * standing in for them) at nodes[] below the root, in model order: per bundle an animation and
 * the xform table it binds to each joint (4 bytes a joint and bundle, where the strip held
 * 208 a joint and frame), per joint its last <Transform> and, for the heavy ones, its matrix;
 * egg_frame_get computes each frame from them as the strip's loop below does. 0, or -1 when
 * out of memory. */
static int lazy_frames(struct egg_doc *doc, struct model *m, const uint32_t *nodes, uint32_t n,
                       uint32_t nbundles)
{
  struct egg_private *priv = m->format_data;
  const struct egg_node *root = doc->root;
  uint32_t nheavy = 0, k = 0, a = 0, first = 0, heavy;
  uint32_t by_size[HEAVY_COUNT_MAX + 2] = {0};
  priv->lazy_nodes = nodes;
  priv->lazy_tf = arena_calloc(&m->arena, n, sizeof *priv->lazy_tf);
  m->anims = arena_calloc(&m->arena, nbundles, sizeof *m->anims);
  if (!priv->lazy_tf || !m->anims)
    return -1;
  for (uint32_t j = 0; j < n; j++) {
    const struct egg_node *t = rest_transform(root + nodes[j]);
    if (!t)
      continue;
    priv->lazy_tf[j] = (uint32_t)(t - root);
    by_size[transform_size(t)]++;
  }
  heavy = heavy_threshold(by_size, &nheavy);
  if (nheavy) {
    priv->heavy_joints = arena_calloc(&m->arena, nheavy, sizeof *priv->heavy_joints);
    priv->heavy_mats = arena_calloc(&m->arena, nheavy, 16 * sizeof *priv->heavy_mats);
    if (!priv->heavy_joints || !priv->heavy_mats)
      return -1;
    for (uint32_t j = 0; j < n && k < nheavy; j++)
      if (priv->lazy_tf[j] && transform_size(root + priv->lazy_tf[j]) > heavy) {
        priv->heavy_joints[k] = j;
        transform_matrix(root + priv->lazy_tf[j], priv->heavy_mats + 16 * (size_t)k);
        k++;
      }
    priv->num_heavy = k;
  }
  /* tables bind to joints by name: the first joint of a name gets the first table of that name
   * that has an xform (as egg_anim_decode binds them for the strip); the maps hold a bundle's
   * tables, 4 bytes a name, not the joints */
  for (const struct egg_node *b = root; b;
       b = egg_next_skip(b, root, egg_in_node_list(b) || b->spec == S_TABLE || b->spec == S_BUNDLE)) {
    const struct egg_node *skel, *unnamed = NULL, *prev;
    struct egg_names tables, claimed;
    int rc = -1, unnamed_claimed = 0;
    if (b->spec != S_BUNDLE)
      continue;
    /* the tree's name (NUL-terminated, in the model's arena), not a copy: a bundle can be an
     * animation of one frame for 22 bytes of text */
    m->anims[a].name = egg_name(b) ? egg_name(b) : "";
    m->anims[a].first_frame = first;
    m->anims[a].num_frames = egg_bundle_frames(b);
    m->anims[a].framerate = egg_bundle_fps(b);
    egg_names_init(&tables, root, &doc->map_failures, egg_doc_bound(doc));
    egg_names_init(&claimed, root, &doc->map_failures, egg_doc_bound(doc));
    skel = skeleton_of(b);
    for (const struct egg_node *t = skel ? egg_first(skel) : NULL; t; t = egg_next_pre(t, skel)) {
      if (t->spec != S_TABLE || !find_xform(t))
        continue;
      if (!egg_name(t) || !egg_name_len(t)) {
        if (!unnamed)
          unnamed = t;
      } else if (!egg_names_find(&tables, egg_name(t), egg_name_len(t)) && egg_names_set(&tables, t, &prev) < 0) {
        goto next;
      }
    }
    for (uint32_t jx = 0; (unnamed || tables.count) && jx < n; jx++) {
      const struct egg_node *jn = root + nodes[jx], *t;
      if (!egg_name(jn) || !egg_name_len(jn)) {
        t = unnamed_claimed ? NULL : unnamed;
        unnamed_claimed = 1; /* the first unnamed joint only */
      } else if ((t = egg_names_find(&tables, egg_name(jn), egg_name_len(jn))) != NULL) {
        if (egg_names_find(&claimed, egg_name(jn), egg_name_len(jn)))
          t = NULL; /* an earlier joint of this name has it */
        else if (egg_names_set(&claimed, jn, &prev) < 0)
          goto next;
      }
      if (!t)
        continue;
      /* (nbundles * n is at most the frames * n that MAX_ANIM_CELLS bounds) */
      if (!priv->lazy_xf && !(priv->lazy_xf = arena_calloc(&m->arena, (size_t)nbundles * n, sizeof *priv->lazy_xf)))
        goto next;
      priv->lazy_xf[(size_t)a * n + jx] = (uint32_t)(find_xform(t) - root);
    }
    rc = 0;
  next:
    egg_names_free(&tables);
    egg_names_free(&claimed);
    if (rc < 0) { /* the map's failure is counted, but the decode ends here: say so now */
      diag_out_of_memory(doc->ctx->diag, "binding the egg animation tables");
      return -1;
    }
    first += m->anims[a].num_frames;
    a++;
  }
  priv->coordsys = doc->coordsys;
  priv->num_poses = n;
  priv->num_frames = first;
  m->num_poses = n;
  m->num_anims = nbundles;
  m->num_frames = first;
  m->frame_get = egg_frame_get;
  return 0;
}

int egg_anim_decode(struct egg_doc *doc, struct model *m)
{
  struct egg_private *priv = m->format_data;
  struct joint_list jl;
  const struct egg_node **xf;
  uint32_t nbundles = 0, total = 0, a = 0, first = 0;
  const struct egg_node *first_bundle = NULL;
  memset(&jl, 0, sizeof jl);

  for (const struct egg_node *n = doc->spec_count[S_BUNDLE] ? doc->root : NULL; n;
       n = egg_next_skip(n, doc->root, egg_in_node_list(n) || n->spec == S_TABLE || n->spec == S_BUNDLE))
    if (n->spec == S_BUNDLE) {
      if (!first_bundle)
        first_bundle = n;
      nbundles++;
      total += egg_bundle_frames(n);
    }
  if (doc->ctx->joints_unread) {
    /* validation alone (no --target): the report's stats want only how many joints the model
     * would have, so neither the model's joints (16 bytes each) nor their list (4) is built;
     * the checks of the joints read the tree (issue 26: `<Joint>{}` of 9 bytes cost 45 with
     * its text) */
    uint32_t n = (uint32_t)doc->spec_count[S_JOINT];
    const struct egg_node *skel = !n && first_bundle ? skeleton_of(first_bundle) : NULL;
    for (const struct egg_node *x = skel ? egg_first(skel) : NULL; x; x = egg_next_pre(x, skel))
      n += x->spec == S_TABLE;
    decode_count(doc->ctx, DC_JOINTS, n);
    if (nbundles && n && (uint64_t)total * n <= MAX_ANIM_CELLS) {
      decode_count(doc->ctx, DC_ANIMATIONS, nbundles);
      decode_count(doc->ctx, DC_FRAMES, total);
    }
    return 0;
  }
  if (doc->keep_anim && !doc->keep_values) {
    /* poses: without frames, which read the joints by number, nothing but the output reads
     * them, in order: they are counted here and walked there (model.joint_walk), not built */
    const struct egg_node *skel = NULL;
    uint32_t n = 0;
    for (const struct egg_node *x = walk_next(doc->root, NULL, NULL); x; x = walk_next(doc->root, NULL, x))
      n++;
    if (!n && first_bundle && (skel = skeleton_of(first_bundle)) != NULL)
      for (const struct egg_node *x = walk_next(doc->root, skel, NULL); x; x = walk_next(doc->root, skel, x))
        n++;
    int frames = nbundles && n && (uint64_t)total * n <= MAX_ANIM_CELLS;
    if (!frames || doc->ctx->frames_lazy) {
      /* with frames computed as they are printed, the joints are walked too: the frames need
       * only each joint's place (4 bytes), not a model joint (16) and a rest pose (80) */
      double r[16];
      uint32_t *nodes, k = 0;
      if (n) {
        if (!(m->rests = arena_calloc(&m->arena, 1, sizeof *m->rests)))
          return -1;
        mat_identity(r);
        matrix_to_trs(r, &m->rests[0]);
        m->num_rests = 1;
        m->num_joints = n;
        m->joint_walk = egg_joint_walk;
        priv->walk_skel = skel;
      }
      if (!frames)
        return 0;
      if (!(nodes = arena_calloc(&m->arena, n, sizeof *nodes)))
        return -1;
      for (const struct egg_node *x = walk_next(doc->root, skel, NULL); x && k < n; x = walk_next(doc->root, skel, x))
        nodes[k++] = (uint32_t)(x - doc->root);
      m->joint_name = egg_pose_name;
      return lazy_frames(doc, m, nodes, k, nbundles);
    }
  }
  if (collect_joints(doc, m, &jl) < 0)
    return -1;
  if (!jl.count && first_bundle && skeleton_of(first_bundle) &&
      collect_tables(doc, m, skeleton_of(first_bundle), &jl) < 0)
    return -1;

  /* joints and their rest transforms (computed again where frames need them: a matrix kept per
   * joint cost 128 bytes for a <Joint> of 20); the joints without a <Transform> share one
   * identity, rests[0] */
  if (jl.count) {
    uint32_t nrest = 1, k = 1;
    double r[16];
    for (uint32_t j = 0; j < jl.count; j++)
      nrest += joint_has_transform(JL_NODE(&jl, j));
    m->rests = arena_calloc(&m->arena, nrest, sizeof *m->rests);
    if (!m->rests)
      return -1;
    m->joints = jl.joints; /* joint_list_alloc gave a count only with the joints' room */
    m->num_joints = jl.count;
    m->num_rests = nrest;
    mat_identity(r);
    matrix_to_trs(r, &m->rests[0]);
    for (uint32_t j = 0; j < jl.count; j++) {
      const struct egg_node *jn = JL_NODE(&jl, j);
      /* the tree's copy: NUL-terminated, in the same arena as the model */
      m->joints[j].name = egg_name(jn) ? egg_name(jn) : "";
      if (joint_rest(jn, r)) {
        matrix_to_trs(r, &m->rests[k]);
        m->joints[j].rest = k++;
      }
      if (m->want_spans)
        model_span_lines(m, MODEL_EL_JOINT, j, egg_node_line(jn), egg_node_last_line(jn));
    }
  }
  if (!doc->ctx->keep_frames && nbundles && jl.count && (uint64_t)total * jl.count <= MAX_ANIM_CELLS) {
    /* validation alone builds no frames: the report's stats get the counts a full decode has */
    decode_count(doc->ctx, DC_ANIMATIONS, nbundles);
    decode_count(doc->ctx, DC_FRAMES, total);
  }
  if (!nbundles || !jl.count || !doc->ctx->keep_frames)
    return 0;

  /* one animation per bundle, all on one global frame strip */
  if ((uint64_t)total * jl.count > MAX_ANIM_CELLS)
    return 0;
  m->pose_parents = arena_calloc(&m->arena, jl.count, sizeof *m->pose_parents);
  if (!m->pose_parents)
    return -1;
  for (uint32_t j = 0; j < jl.count; j++)
    m->pose_parents[j] = m->joints[j].parent;
  if (doc->ctx->frames_lazy) /* poses with --target: the joints built, the frames computed */
    return lazy_frames(doc, m, jl.nodes, jl.count, nbundles);
  m->num_poses = jl.count;
  m->anims = arena_calloc(&m->arena, nbundles, sizeof *m->anims);
  xf = arena_calloc(doc->arena, jl.count, sizeof *xf);
  m->frames = arena_calloc(&m->arena, (size_t)total * jl.count, sizeof *m->frames);
  priv->matrices = arena_calloc(&m->arena, (size_t)total * jl.count, 16 * sizeof *priv->matrices);
  if (!m->anims || !xf || !m->frames || !priv->matrices)
    return -1;
  m->num_anims = nbundles;
  m->num_frames = total;
  priv->num_poses = jl.count;
  priv->num_frames = total;
  for (const struct egg_node *b = doc->root; b;
       b = egg_next_skip(b, doc->root, egg_in_node_list(b) || b->spec == S_TABLE || b->spec == S_BUNDLE)) {
    const struct egg_node *skel;
    struct egg_map names;
    uint32_t frames;
    if (b->spec != S_BUNDLE)
      continue;
    frames = egg_bundle_frames(b);
    m->anims[a].name = egg_name(b) ? arena_strndup(&m->arena, egg_name(b), egg_name_len(b)) : "";
    m->anims[a].first_frame = first;
    m->anims[a].num_frames = frames;
    m->anims[a].framerate = egg_bundle_fps(b);
    memset(xf, 0, jl.count * sizeof *xf);
    /* tables bind to joints by name (the first table of a name wins) */
    egg_map_init(&names, &doc->map_failures, egg_doc_bound(doc));
    for (uint32_t j = 0; j < jl.count; j++) {
      const struct egg_node *jn = JL_NODE(&jl, j);
      struct egg_map_ent *e = egg_map_at(&names, egg_name(jn) ? egg_name(jn) : "", egg_name_len(jn));
      if (e && !e->val)
        e->val = (void *)(uintptr_t)(j + 1);
    }
    skel = skeleton_of(b);
    for (const struct egg_node *t = skel ? egg_first(skel) : NULL; t; t = egg_next_pre(t, skel)) {
      struct egg_map_ent *e;
      if (t->spec != S_TABLE)
        continue;
      e = egg_map_find(&names, egg_name(t) ? egg_name(t) : "", egg_name_len(t));
      if (e && e->val && !xf[(uintptr_t)e->val - 1])
        xf[(uintptr_t)e->val - 1] = find_xform(t);
    }
    egg_map_free(&names);
    for (uint32_t j = 0; j < jl.count; j++) {
      double r[16];
      if (!xf[j])
        joint_rest(JL_NODE(&jl, j), r);
      for (uint32_t f = 0; f < frames; f++) {
        size_t cell = (size_t)(first + f) * jl.count + j;
        double *mat = priv->matrices + 16 * cell;
        if (xf[j]) {
          uint32_t rows = egg_xform_rows(xf[j]);
          xform_row(xf[j], rows > 1 ? (f < rows ? f : rows - 1) : 0, doc->coordsys, mat);
        } else {
          memcpy(mat, r, 16 * sizeof *mat);
        }
        matrix_to_trs(mat, &m->frames[cell]);
      }
    }
    first += frames;
    a++;
  }
  return 0;
}

int egg_pose_matrix(const struct model *m, uint32_t f, uint32_t p, double out[16])
{
  const struct egg_private *priv = m->format_data;
  struct trs pose;
  if (!priv || !m->format_data_owner || strcmp(m->format_data_owner, "egg") ||
      priv->magic != EGG_PRIVATE_MAGIC || (!priv->matrices && !priv->lazy_tf) || f >= priv->num_frames ||
      p >= priv->num_poses)
    return -1;
  if (priv->lazy_tf) { /* the frame just computed (poses read its pose, then its matrix) */
    if (!(priv->last_ok && priv->last_f == f && priv->last_p == p) && egg_frame_get(m, f, p, &pose) < 0)
      return -1;
    memcpy(out, priv->last_mat, 16 * sizeof *out);
    return 0;
  }
  memcpy(out, priv->matrices + 16 * ((size_t)f * priv->num_poses + p), 16 * sizeof *out);
  return 0;
}
