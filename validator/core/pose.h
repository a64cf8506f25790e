/* pose.h - pose math in double precision: quaternions, TRS, 4x4 matrices. */
#ifndef MDL_POSE_H
#define MDL_POSE_H

#include "model.h"

double quat_norm(const double q[4]);
/* Normalise q in place; a zero quaternion becomes the identity. */
void quat_normalize(double q[4]);
void quat_mul(double out[4], const double a[4], const double b[4]);
/* Column-vector 4x4, row-major storage: m[row*4+col]. */
void trs_to_matrix(const struct trs *p, double m[16]);
void mat4_mul(double out[16], const double a[16], const double b[16]);
void trs_identity(struct trs *p);

#endif
