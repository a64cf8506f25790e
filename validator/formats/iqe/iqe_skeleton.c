/* iqe_skeleton.c - joints and poses (iqe.txt "Skeleton", "Poses"): pq, pm and pa become one
 * translation / quaternion / scale, with the spec's defaults. Quaternions are stored with
 * w <= 0 (q and -q are one rotation; every IQM writer stores this sign). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iqe.h"
#include "pose.h"

void iqe_skeleton_joint(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                        uint32_t nargs, const double *vals, uint32_t given)
{
  struct iqe_joint *j;
  long parent = -1;
  (void)vals;
  (void)given;
  if (p->num_joints >= p->counts[CMD_JOINT])
    return;
  j = &p->joints[p->num_joints];
  memset(j, 0, sizeof *j);
  if (iqe_lines_put(&p->joint_lines, p->num_joints, ln->no) < 0)
    p->scratch.failed = 1; /* said as the scratch arena's failure: MDL-MEM-001 */
  iqe_arg_name_check(p, ln, args, nargs);
  j->name = iqe_name_set_key(p, &p->joint_set, nargs ? &args[0] : NULL, p->num_joints);
  if (nargs == 0) {
    char path[32];
    snprintf(path, sizeof path, "joint %u", p->num_joints);
    iqe_emit_path(p, RULE_IQE_NAME_MISSING, ln->no, args[-1].col, path,
                  "engines bind joints by name", NULL);
  }
  if (nargs >= 2) {
    if (iqe_arg_int(p, ln, &args[1], &parent) < 0)
      parent = -1;
  }
  j->parent = parent < 0 ? -1 : (int32_t)parent;
  if (parent >= 0 && parent == (long)p->num_joints)
    j->parent = (int32_t)parent; /* self-parent: a cycle, reported at end */
  p->num_joints++;
}

static void flip_negative_w(struct trs *t)
{
  if (t->r[3] > 0)
    for (int i = 0; i < 4; i++)
      t->r[i] = -t->r[i];
}

static void scale_check(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                        const double *s, uint32_t first, uint32_t given)
{
  if (given > first && given < first + 3)
    iqe_emit(p, RULE_IQE_SCALE_PARTIAL, ln->no, args[given - 1].col, NULL, "%u",
             (unsigned)(given - first));
  for (uint32_t k = 0; k < 3 && first + k < given; k++)
    if (s[k] == 0)
      iqe_emit(p, RULE_IQE_SCALE_ZERO, ln->no, args[first + k].col, NULL, "S%c",
               (char)('x' + k));
}

void iqe_pose_from_pq(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                      const double *v, uint32_t given, struct trs *out)
{
  double xyz = v[3] * v[3] + v[4] * v[4] + v[5] * v[5];
  memcpy(out->t, v, 3 * sizeof *v);
  out->r[0] = v[3];
  out->r[1] = v[4];
  out->r[2] = v[5];
  if (given <= 6 || isnan(v[6])) {
    /* Qw unspecified (or unreadable, already reported): generated negative (iqe.txt "Poses") */
    if (!isfinite(xyz))
      iqe_emit(p, RULE_IQE_NON_FINITE, ln->no, args[3].col, NULL, "squared length of Qx Qy Qz (%g)", xyz);
    else if (xyz > 1 + 1e-6 && given == 6)
      iqe_emit(p, RULE_IQE_QUATERNION_XYZ_OVER_ONE, ln->no, args[3].col, NULL, "%.6g", xyz);
    out->r[3] = -sqrt(xyz < 1 ? 1 - xyz : 0);
  } else {
    double n = sqrt(xyz + v[6] * v[6]);
    out->r[3] = v[6];
    if (!isfinite(n))
      /* finite components whose squares overflow: the rotation cannot be normalised */
      iqe_emit(p, RULE_IQE_NON_FINITE, ln->no, args[3].col, NULL, "quaternion norm (%g)", n);
    else if (fabs(n - 1) > 1e-3)
      iqe_emit(p, RULE_IQE_QUATERNION_NOT_UNIT, ln->no, args[3].col, "1e-3", "%.6g", n);
  }
  memcpy(out->s, v + 7, 3 * sizeof *v);
  scale_check(p, ln, args, v + 7, 7, given);
  flip_negative_w(out);
}

void iqe_pose_from_pm(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                      const double *v, uint32_t given, struct trs *out)
{
  double m[9], col[3], det;
  int zero = 0;
  memcpy(out->t, v, 3 * sizeof *v);
  memcpy(m, v + 3, sizeof m);
  for (int c = 0; c < 3; c++) {
    col[c] = sqrt(m[c] * m[c] + m[3 + c] * m[3 + c] + m[6 + c] * m[6 + c]);
    if (!isfinite(col[c])) {
      /* finite entries whose squares overflow: no scale or rotation can be derived */
      iqe_emit(p, RULE_IQE_NON_FINITE, ln->no, args[3 + c].col, NULL,
               "length of matrix column %c (%g)", (char)('x' + c), col[c]);
      col[c] = 0;
      zero = 1;
    } else if (col[c] == 0) {
      iqe_emit(p, RULE_IQE_MATRIX_ZERO_COLUMN, ln->no, args[3 + c].col, NULL, "%c",
               (char)('x' + c));
      zero = 1;
    }
  }
  det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
        m[2] * (m[3] * m[7] - m[4] * m[6]);
  if (!zero) {
    double worst = 0;
    for (int a = 0; a < 3; a++)
      for (int b = a + 1; b < 3; b++) {
        double d = (m[a] * m[b] + m[3 + a] * m[3 + b] + m[6 + a] * m[6 + b]) / (col[a] * col[b]);
        if (fabs(d) > worst)
          worst = fabs(d);
      }
    if (worst > 1e-3)
      iqe_emit(p, RULE_IQE_MATRIX_NOT_ORTHOGONAL, ln->no, args[3].col, "1e-3",
               "largest |cos| between columns %.3g", worst);
    if (det < 0)
      iqe_emit(p, RULE_IQE_MATRIX_REFLECTION, ln->no, args[3].col, NULL, "%.6g", det);
    if (fabs(col[0] - 1) > 1e-3 || fabs(col[1] - 1) > 1e-3 || fabs(col[2] - 1) > 1e-3)
      iqe_emit(p, RULE_IQE_MATRIX_SCALE, ln->no, args[3].col, NULL, "(%.6g %.6g %.6g)",
               col[0], col[1], col[2]);
  }
  if (det < 0)
    for (int c = 0; c < 3; c++)
      col[c] = -col[c];
  for (int c = 0; c < 3; c++)
    if (col[c] != 0)
      for (int r = 0; r < 3; r++)
        m[r * 3 + c] /= col[c];
  if (zero) {
    out->r[0] = out->r[1] = out->r[2] = 0;
    out->r[3] = -1;
  } else {
    double r[3][3]; /* rows A B C, column vectors */
    memcpy(r, m, sizeof r);
    quat_from_rotation(r, out->r);
  }
  for (int k = 0; k < 3; k++)
    out->s[k] = v[12 + k] * (zero ? 1 : col[k]);
  scale_check(p, ln, args, v + 12, 12, given);
  flip_negative_w(out);
}

void iqe_pose_from_pa(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                      const double *v, uint32_t given, struct trs *out)
{
  double cx = cos(v[3] / 2), sx = sin(v[3] / 2), cy = cos(v[4] / 2), sy = sin(v[4] / 2);
  double cz = cos(v[5] / 2), sz = sin(v[5] / 2);
  for (int k = 0; k < 3; k++)
    if (fabs(v[3 + k]) > 2 * M_PI + 1e-6) {
      iqe_emit(p, RULE_IQE_EULER_DEGREES, ln->no, args[3 + k].col, NULL, "%g", v[3 + k]);
      break;
    }
  memcpy(out->t, v, 3 * sizeof *v);
  /* q = qz * qy * qx: X is applied first */
  out->r[0] = sx * cy * cz - cx * sy * sz;
  out->r[1] = cx * sy * cz + sx * cy * sz;
  out->r[2] = cx * cy * sz - sx * sy * cz;
  out->r[3] = cx * cy * cz + sx * sy * sz;
  memcpy(out->s, v + 6, 3 * sizeof *v);
  scale_check(p, ln, args, v + 6, 6, given);
  flip_negative_w(out);
}

/* Pose k of its frame (or of the base poses) into the model's poses when the model reads it:
 * with joints only the first one per joint (a file without joints pads every frame to the
 * longest, so it reads them all) */
static void pose_keep(struct iqe_parser *p, const struct trs *pose, uint32_t k)
{
  if (p->pose_trs && (p->counts[CMD_JOINT] == 0 || k < p->counts[CMD_JOINT]))
    p->pose_trs[p->num_kept++] = *pose;
}

void iqe_skeleton_pose(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                       uint32_t nargs, const double *vals, uint32_t given)
{
  struct trs pose, *ps = &pose;
  const struct iqe_tok *cmd = args - 1;
  (void)nargs;
  if (p->num_poses >= p->counts[CMD_PQ] + p->counts[CMD_PM] + p->counts[CMD_PA])
    return;
  p->pose_lines[p->num_poses] = ln->no;
  if (cmd->s[1] == 'q')
    iqe_pose_from_pq(p, ln, args, vals, given, ps);
  else if (cmd->s[1] == 'm')
    iqe_pose_from_pm(p, ln, args, vals, given, ps);
  else
    iqe_pose_from_pa(p, ln, args, vals, given, ps);
  p->num_poses++;
  if (!p->in_animation) {
    pose_keep(p, &pose, p->num_base_poses);
    p->num_base_poses++;
    return;
  }
  if (!p->frame_open) {
    /* poses right after `animation` start its first keyframe */
    struct iqe_frame *f;
    if (p->num_frames >= p->counts[CMD_FRAME] + p->counts[CMD_ANIMATION])
      return; /* cannot happen: at most one implicit frame per animation */
    f = &p->frames[p->num_frames++];
    f->first_pose = p->num_poses - 1;
    f->num_poses = 0;
    f->line = ln->no;
    if (p->frame_kept)
      p->frame_kept[p->num_frames - 1] = p->num_kept;
    p->anims[p->num_anims - 1].num_frames++;
    p->frame_open = 1;
  }
  pose_keep(p, &pose, p->frames[p->num_frames - 1].num_poses);
  p->frames[p->num_frames - 1].num_poses++;
}
