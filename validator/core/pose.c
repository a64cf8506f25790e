/* pose.c - pose math in double precision. */
#include "pose.h"

#include <math.h>
#include <string.h>

double quat_norm(const double q[4])
{
  return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

void quat_normalize(double q[4])
{
  double n = quat_norm(q);
  if (n == 0 || !isfinite(n)) {
    q[0] = q[1] = q[2] = 0;
    q[3] = 1;
    return;
  }
  for (int i = 0; i < 4; i++)
    q[i] /= n;
}

void quat_mul(double o[4], const double a[4], const double b[4])
{
  double r[4];
  r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
  r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
  r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
  r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
  memcpy(o, r, sizeof r);
}

void trs_identity(struct trs *p)
{
  memset(p, 0, sizeof *p);
  p->r[3] = 1;
  p->s[0] = p->s[1] = p->s[2] = 1;
}

void trs_to_matrix(const struct trs *p, double m[16])
{
  double q[4] = {p->r[0], p->r[1], p->r[2], p->r[3]};
  double x, y, z, w;
  quat_normalize(q);
  x = q[0]; y = q[1]; z = q[2]; w = q[3];
  /* rotation columns scaled by the pre-scale: M = T * R * S */
  m[0] = (1 - 2 * (y * y + z * z)) * p->s[0];
  m[1] = (2 * (x * y - z * w)) * p->s[1];
  m[2] = (2 * (x * z + y * w)) * p->s[2];
  m[3] = p->t[0];
  m[4] = (2 * (x * y + z * w)) * p->s[0];
  m[5] = (1 - 2 * (x * x + z * z)) * p->s[1];
  m[6] = (2 * (y * z - x * w)) * p->s[2];
  m[7] = p->t[1];
  m[8] = (2 * (x * z - y * w)) * p->s[0];
  m[9] = (2 * (y * z + x * w)) * p->s[1];
  m[10] = (1 - 2 * (x * x + y * y)) * p->s[2];
  m[11] = p->t[2];
  m[12] = m[13] = m[14] = 0;
  m[15] = 1;
}

void mat4_mul(double o[16], const double a[16], const double b[16])
{
  double r[16];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      r[i * 4 + j] = a[i * 4 + 0] * b[0 * 4 + j] + a[i * 4 + 1] * b[1 * 4 + j] +
                     a[i * 4 + 2] * b[2 * 4 + j] + a[i * 4 + 3] * b[3 * 4 + j];
  memcpy(o, r, sizeof r);
}
