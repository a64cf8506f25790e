/* le32.h - a little-endian 32-bit word read from any byte address (no alignment, any host): the
 * binary formats' words, for the core helpers that read them. */
#ifndef MDL_LE32_H
#define MDL_LE32_H

#include <stdint.h>

static inline uint32_t le32_read(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
