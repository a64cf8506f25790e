/* test_random.h - the tests' deterministic random numbers: the same sequence on every machine, so a failing seed fails again. */
#ifndef MDL_TEST_RANDOM_H
#define MDL_TEST_RANDOM_H

#include <stdint.h>

/* xorshift64 (shifts 13, 7, 17): the state is the number; a zero state stays zero, so seeds are odd constants */
static inline uint64_t random_xorshift(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* xorshift64* (shifts 12, 25, 27 and Vigna's multiplier): better low bits than plain xorshift64 */
static inline uint64_t random_xorshift_star(uint64_t *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}

/* a double in [-1, 1) from the top 53 bits of one xorshift64* draw */
static inline double random_signed_unit(uint64_t *s)
{
  return (double)(random_xorshift_star(s) >> 11) / 9007199254740992.0 * 2 - 1;
}

#endif
