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

void quat_from_rotation(const double r[3][3], double q[4])
{
  double tr = r[0][0] + r[1][1] + r[2][2];
  if (tr > 0) {
    double k = sqrt(tr + 1) * 2;
    q[3] = k / 4;
    q[0] = (r[2][1] - r[1][2]) / k;
    q[1] = (r[0][2] - r[2][0]) / k;
    q[2] = (r[1][0] - r[0][1]) / k;
  } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
    double k = sqrt(1 + r[0][0] - r[1][1] - r[2][2]) * 2;
    q[3] = (r[2][1] - r[1][2]) / k;
    q[0] = k / 4;
    q[1] = (r[0][1] + r[1][0]) / k;
    q[2] = (r[0][2] + r[2][0]) / k;
  } else if (r[1][1] > r[2][2]) {
    double k = sqrt(1 + r[1][1] - r[0][0] - r[2][2]) * 2;
    q[3] = (r[0][2] - r[2][0]) / k;
    q[0] = (r[0][1] + r[1][0]) / k;
    q[1] = k / 4;
    q[2] = (r[1][2] + r[2][1]) / k;
  } else {
    double k = sqrt(1 + r[2][2] - r[0][0] - r[1][1]) * 2;
    q[3] = (r[1][0] - r[0][1]) / k;
    q[0] = (r[0][2] + r[2][0]) / k;
    q[1] = (r[1][2] + r[2][1]) / k;
    q[2] = k / 4;
  }
}

int trs_from_matrix(const double m[16], struct trs *p)
{
  double c[3][3], s[3];
  int shear = 0;
  for (int j = 0; j < 3; j++) {
    s[j] = sqrt(m[j] * m[j] + m[4 + j] * m[4 + j] + m[8 + j] * m[8 + j]);
    p->t[j] = m[j * 4 + 3];
  }
  if (m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
        m[2] * (m[4] * m[9] - m[5] * m[8]) < 0)
    s[0] = -s[0];
  for (int j = 0; j < 3; j++) {
    p->s[j] = s[j];
    for (int i = 0; i < 3; i++)
      c[i][j] = s[j] != 0 ? m[i * 4 + j] / s[j] : (i == j);
  }
  for (int a = 0; a < 3; a++)
    for (int b = a + 1; b < 3; b++)
      if (fabs(c[0][a] * c[0][b] + c[1][a] * c[1][b] + c[2][a] * c[2][b]) > 1e-6)
        shear = 1;
  quat_from_rotation((const double(*)[3])c, p->r);
  quat_normalize(p->r);
  return shear;
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

double trs_channel(const struct trs *p, unsigned c)
{
  if (c < 3)
    return p->t[c];
  if (c < 7)
    return p->r[c - 3];
  return c < TRS_CHANNELS ? p->s[c - 7] : 0;
}

void trs_set_channel(struct trs *p, unsigned c, double v)
{
  if (c < 3)
    p->t[c] = v;
  else if (c < 7)
    p->r[c - 3] = v;
  else if (c < TRS_CHANNELS)
    p->s[c - 7] = v;
}

double quant_bound(double offset, double scale)
{
  /* half a step, plus float rounding of offset, scale and the decode sum (iqm-notes 3.4);
   * a negative scale (legal, if odd) steps downwards by as much */
  double b;
  scale = fabs(scale);
  b = 0.5 * scale + 1.5 * ldexp(1.0, -23) * (fabs(offset) + 65535.0 * scale);
  if (scale == 0)
    b += 1e-10;
  return b;
}
