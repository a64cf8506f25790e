/* pose.h - pose math in double precision: quaternions, TRS, 4x4 matrices, and the channel view
 * (Tx Ty Tz Qx Qy Qz Qw Sx Sy Sz) that quantizing formats store. */
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
/* The quaternion (x y z w, not normalised) of a column-vector rotation matrix r[row][col]
 * (Shepperd's method: the largest of w, x, y, z is taken from the diagonal). */
void quat_from_rotation(const double r[3][3], double q[4]);
/* A column-vector affine m = T R S (row-major) as TRS: scale = column lengths, a mirror negates
 * the first; rotation from the normalised columns, normalised. Returns 1 when the columns are
 * not orthogonal within 1e-6 (a shear TRS cannot hold, dropped). */
int trs_from_matrix(const double m[16], struct trs *p);

/* The ten channels of a transform, numbered as IQM's pose channels. */
#define TRS_CHANNELS 10
double trs_channel(const struct trs *p, unsigned c);
void trs_set_channel(struct trs *p, unsigned c, double v);

/* Largest distance between a source value and its decoding from a channel quantized like the
 * IQM reference compiler (offset = min, scale = range / 65535 in float, samples rounded half up,
 * decoded as offset + sample * scale): 0.5*scale + 1.5*2^-23*(|offset| + 65535*scale).
 * A constant channel (scale 0) adds the compiler's 1e-10 range threshold. */
double quant_bound(double offset, double scale);

#endif
