/* number.h - exact decimal text to double, shared by the text formats.
 *
 * The format decides which spellings are legal; this only converts. Decimals take an exact
 * fast path (Clinger, then Eisel-Lemire); everything else goes to strtod, so the result is
 * always bit-identical to glibc's strtod (round to nearest, ties to even) in the C locale. */
#ifndef MDL_NUMBER_H
#define MDL_NUMBER_H

#include <stddef.h>

/* Convert the longest prefix of s[0..n) that strtod would accept (no leading whitespace).
 * Returns the number of bytes consumed, or 0 (and *out = 0) when there is no number.
 * Overflow gives ±HUGE_VAL and underflow ±0 or a subnormal, as strtod does. */
size_t number_parse_double(const char *s, size_t n, double *out);

#endif
