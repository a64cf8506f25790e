/* x42_pack.c - the quantizations X42 V5 declares (tr_x42.h): range packing over 65530 steps,
 * S16N, S8N and U8N, with the encoders the writer uses. Decoding runs in double so the
 * validator's own error stays far below the packing step. */
#include <math.h>

#include "x42.h"

double x42_range_decode(uint16_t u, float min, float max)
{
  return (double)u * (((double)max - (double)min) / X42_RANGE_STEPS) + (double)min;
}

uint16_t x42_range_encode(double f, float min, float max)
{
  double span = (double)max - (double)min, u;
  if (!(span > 0))
    return 0;
  u = floor((f - (double)min) * X42_RANGE_STEPS / span + 0.5);
  if (!(u > 0))
    return 0;
  return u > X42_RANGE_STEPS ? (uint16_t)X42_RANGE_STEPS : (uint16_t)u;
}

double x42_range_bound(float min, float max)
{
  double span = fabs((double)max - (double)min);
  /* half a step, plus the float rounding of min and max the engine decodes with */
  return 0.5 * span / X42_RANGE_STEPS + 2.0 * ldexp(fabs((double)min) + fabs((double)max), -24);
}

double x42_s16n(int16_t s) { return (double)s / 32767.0; }
double x42_s8n(int8_t s) { return (double)s / 127.0; }
double x42_u8n(uint8_t u) { return (double)u / 255.0; }

static double clamp_round(double f, double lo, double hi)
{
  double r = floor(f + 0.5);
  if (!(r >= lo))
    return lo;
  return r > hi ? hi : r;
}

int16_t x42_s16n_encode(double f) { return (int16_t)clamp_round(f * 32767.0, -32767, 32767); }
int8_t x42_s8n_encode(double f) { return (int8_t)clamp_round(f * 127.0, -127, 127); }
uint8_t x42_u8n_encode(double f) { return (uint8_t)clamp_round(f * 255.0, 0, 255); }
