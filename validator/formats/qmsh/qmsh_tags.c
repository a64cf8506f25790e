/* qmsh_tags.c - QMSH points as the common model's tags, and tags back as points.
 *
 * The engine places a point at `point.mat * skin[bone]` (row vectors), where skin[b] is the
 * model-to-bone matrix of the bind pose times the posed bone-to-model matrix and skin[0], the
 * zero bone, is the identity (carpglib MeshInstance::SetupBones). So `point.mat` is a frame in
 * model space at the bind pose that follows its bone; a tag is a frame in its joint's space
 * (X42: boneMats[bone] * tagMatrix). Hence tag = point.mat * modelToBone[bone] and back
 * point.mat = tag * boneToModel[bone], with boneToModel the chain of the stored bone matrices
 * (bone k's file index + 1 is its QMSH id; joint = id - 1). Bone 0, and any bone of a mesh
 * without its own skeleton (the writer leaves the field uninitialised there), is model space.
 * The 4x4 matrix's fourth column, the type, size and Euler rotation are the tag's display. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qmsh.h"

/* Row-vector bone-to-model matrices of the bind pose, from the stored bone matrices as the
 * engine chains them (a parent out of order stands on its own, as the joints do). */
static void bind_chain(const struct qmsh_mesh *q, double (*w)[12])
{
  for (uint32_t k = 0; k < q->h.n_bones; k++) {
    const struct qmsh_bone *b = &q->bones[k];
    double rows[12];
    for (int i = 0; i < 12; i++)
      rows[i] = b->mat[i];
    if (b->parent >= 1 && b->parent <= k)
      qmsh_rows_mul(rows, w[b->parent - 1], w[k]);
    else
      memcpy(w[k], rows, sizeof rows);
  }
}

/* A point's 4x4 matrix (rows _11.._14, ..) times a row-vector affine a (4x3 with an implied
 * fourth column (0, 0, 0, 1)): out is 4x4; its fourth column is p's. With bound set, also
 * (|p| |a|) per component of the first three columns, the scale of the product's rounding. */
static void mat4_affine(const double p[16], const double a[12], double out[16], double bound[12])
{
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 3; j++) {
      double s = 0, b = 0;
      for (int k = 0; k < 4; k++) {
        s += p[i * 4 + k] * a[k * 3 + j];
        b += fabs(p[i * 4 + k]) * fabs(a[k * 3 + j]);
      }
      out[i * 4 + j] = s;
      if (bound)
        bound[i * 3 + j] = b;
    }
    out[i * 4 + 3] = p[i * 4 + 3];
  }
}

int qmsh_tags_fill(struct qmsh_dec *d)
{
  const struct qmsh_mesh *q = d->q;
  struct model *m = d->m;
  uint32_t n = q->points ? q->h.n_points : 0;
  struct model_tag_display *disp;
  double (*w)[12] = NULL;

  if (!n)
    return 0;
  m->tags = arena_calloc(&m->arena, (size_t)n, sizeof *m->tags);
  disp = arena_calloc(&m->arena, (size_t)n, sizeof *disp);
  if (d->skeletal && q->h.n_bones)
    w = arena_calloc(&m->arena, q->h.n_bones, sizeof *w);
  if (!m->tags || !disp || (d->skeletal && q->h.n_bones && !w))
    return -1;
  if (w)
    bind_chain(q, w);
  m->num_tags = n;
  for (uint32_t i = 0; i < n; i++) {
    const struct qmsh_point *pt = &q->points[i];
    struct model_tag *t = &m->tags[i];
    double p[16], to_bone[12], out[16], bound[12];
    for (int k = 0; k < 16; k++)
      p[k] = pt->mat[k];
    t->name = pt->name.s;
    t->joint = -1;
    disp[i].type = pt->type;
    for (int k = 0; k < 3; k++) {
      disp[i].size[k] = pt->size[k];
      disp[i].rot[k] = pt->rot[k];
    }
    for (int k = 0; k < 4; k++)
      disp[i].col4[k] = p[k * 4 + 3];
    t->display = &disp[i];
    /* a bone past the skeleton (QMSH-PNT-001) or a singular bind pose: model space */
    if (w && pt->bone >= 1 && pt->bone <= q->h.n_bones && qmsh_rows_invert(w[pt->bone - 1], to_bone) == 0) {
      t->joint = (int32_t)pt->bone - 1;
      mat4_affine(p, to_bone, out, bound);
      for (int r = 0; r < 4; r++)
        for (int c = 0; c < 3; c++) {
          t->m[r * 3 + c] = out[r * 4 + c];
          /* the point matrix is a float rounding of such a product when a writer derived it
           * from a tag (2^-24 relative), and the product here rounds in double */
          t->tol[r * 3 + c] = (ldexp(1.0, -24) + ldexp(1.0, -48)) * bound[r * 3 + c];
        }
    } else {
      for (int r = 0; r < 4; r++)
        for (int c = 0; c < 3; c++)
          t->m[r * 3 + c] = p[r * 4 + c];
    }
  }
  return 0;
}

int qmsh_points_build(const struct model *m, struct arena *a, struct qmsh_mesh *q, char *err, size_t cap)
{
  int skeletal = qmsh_is_skeletal(q->h.flags);
  double (*w)[12] = NULL;
  double (*jw)[12] = NULL;

  if (!m->num_tags)
    return 0;
  if (m->num_tags > 65535) {
    snprintf(err, cap, "%u tags: QMSH counts are 16-bit (at most 65535)", m->num_tags);
    return -1;
  }
  q->points = arena_calloc(a, m->num_tags, sizeof *q->points);
  if (skeletal && q->h.n_bones)
    w = arena_calloc(a, q->h.n_bones, sizeof *w);
  if (!skeletal && m->num_joints)
    jw = arena_calloc(a, m->num_joints, sizeof *jw);
  if (!q->points || (skeletal && q->h.n_bones && !w) || (!skeletal && m->num_joints && !jw))
    return -1;
  if (w)
    bind_chain(q, w);
  /* no skeleton written (no blend arrays): a tag on a joint becomes a model-space point at the
   * joint's base pose, and the proof reports the joint it no longer names */
  for (uint32_t k = 0; jw && k < m->num_joints; k++) {
    double rows[12];
    qmsh_trs_rows(model_rest(m, k), rows);
    if (m->joints[k].parent >= 0 && (uint32_t)m->joints[k].parent < k)
      qmsh_rows_mul(rows, jw[m->joints[k].parent], jw[k]);
    else
      memcpy(jw[k], rows, sizeof rows);
  }
  q->h.n_points = (uint16_t)m->num_tags;
  for (uint32_t i = 0; i < m->num_tags; i++) {
    const struct model_tag *t = &m->tags[i];
    const struct model_tag_display *dp = t->display;
    struct qmsh_point *pt = &q->points[i];
    size_t len = t->name ? strlen(t->name) : 0;
    double tag[16], out[16];
    const double *to_model = NULL;
    if (len > 255) {
      snprintf(err, cap, "tag %u's name is %zu bytes: QMSH strings hold at most 255", i, len);
      return -1;
    }
    pt->name.s = arena_strndup(a, t->name ? t->name : "", len);
    pt->name.len = (uint32_t)len;
    if (!pt->name.s)
      return -1;
    for (int r = 0; r < 4; r++) {
      for (int c = 0; c < 3; c++)
        tag[r * 4 + c] = t->m[r * 3 + c];
      tag[r * 4 + 3] = dp ? dp->col4[r] : r == 3;
    }
    pt->bone = 0;
    if (t->joint >= 0 && w && (uint32_t)t->joint < q->h.n_bones) {
      pt->bone = (uint32_t)t->joint + 1;
      to_model = w[t->joint]; /* the float bone matrices as written: the decoder inverts these */
    } else if (t->joint >= 0 && jw && (uint32_t)t->joint < m->num_joints) {
      to_model = jw[t->joint];
    }
    if (to_model)
      mat4_affine(tag, to_model, out, NULL);
    else
      memcpy(out, tag, sizeof out);
    for (int k = 0; k < 16; k++)
      pt->mat[k] = (float)out[k];
    pt->type = (uint16_t)(dp ? dp->type : 0);
    for (int k = 0; k < 3; k++) {
      pt->size[k] = dp ? (float)dp->size[k] : 1.0f;
      pt->rot[k] = dp ? (float)dp->rot[k] : 0.0f;
    }
  }
  return 0;
}
