/* bench_gen.h - generators of benchmark files that do not go through a format's writer. */
#ifndef BENCH_GEN_H
#define BENCH_GEN_H

#include <stdint.h>
#include <stdio.h>

struct bench_egg_info {
  unsigned vertices, triangles, joints, frames;
};

/* Write the benchmark egg file of the given size (units of half the standard file, 0 a tiny
 * one) to f;
 * 0, or -1 on a write error. */
int bench_egg_write(FILE *f, unsigned units, uint64_t seed, struct bench_egg_info *info);

#endif
