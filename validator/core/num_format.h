/* num_format.h - double to the shortest decimal text that reads back to the same double, for
 * the text writers.
 *
 * The text is what `for p in 1..17: "%.{p}g"` loops print when they stop at the first
 * precision strtod reads back exactly, computed in one pass instead of up to 17 snprintf +
 * strtod rounds. */
#ifndef MDL_NUM_FORMAT_H
#define MDL_NUM_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* Longest text num_format_shortest writes, with its NUL ("-1.2345678901234567e-308"). */
#define NUM_FORMAT_MAX 32

/* Write v to buf (NUM_FORMAT_MAX bytes) and return the length (NUL not counted).
 *
 * Digits: the fewest significant digits (at most 17) of any decimal that strtod reads back as
 * exactly v; among decimals with that many digits the one nearest v (ties to an even last
 * digit). Layout: that of printf "%.{P}g" with P = max(digits, min_prec): plain notation for a
 * decimal exponent E in [-4, P), else d.ddde+XX; no trailing zeros. Zero is "0" or "-0", and
 * non-finite values "inf", "-inf", "nan" or "-nan". */
size_t num_format_shortest(char *buf, double v, int min_prec);

/* The same digits as k * 10^e (k without trailing zeros) for finite v != 0 with |v| in
 * [1e-10, 1e36), exact 128-bit arithmetic; 0 outside that range or without a 128-bit integer
 * type. num_format_shortest's fast path, which it checks by reading its text back. */
int num_format_digits(double v, uint64_t *k, int *e);

#endif
