/* x42_fast.h - the common case of X42's per-vertex and per-triangle checks decided many at a
 * time: how far from the start an array certainly holds nothing the exact checks would report. */
#ifndef MDL_X42_FAST_H
#define MDL_X42_FAST_H

#include <stdint.h>

/* The integer tests the exact checks (x42_sections.c) skip a vertex on: an S8N vector (a, b, c)
 * surely of length 1 +- 0.014, and a tangent record t (7 bytes) whose nfac * (t x b) surely
 * agrees with normal n (cos >= 0.9). */
int x42_s8_surely_unit(int a, int b, int c);
int x42_basis_surely_agrees(const int8_t *t, const int8_t *n);
/* A tangent record t (with normal n, or NULL) the exact tangent check surely passes: nfac +-1, t and b
 * surely unit, and with a normal the basis surely agrees. */
int x42_tangent_surely_ok(const int8_t *t, const int8_t *n);

/* The number of leading vertices (of nv) whose normal (3 bytes each) passes x42_s8_surely_unit
 * (*np), and whose tangent record (7 bytes each) the exact loop would skip (*tp: nfac +-127, t
 * and b surely unit, and with normals the basis surely agrees): the exact loops start there.
 * n or t may be NULL (no such array: its prefix is 0). SSE2 decides eight vertices at a time,
 * with the portable loops' answer (_portable, which the tests compare it with). */
void x42_vertex_prefixes(const int8_t *n, const int8_t *t, uint32_t nv, uint32_t *np, uint32_t *tp);
uint32_t x42_normals_unit_prefix_portable(const int8_t *n, uint32_t nv);
uint32_t x42_tangents_ok_prefix_portable(const int8_t *t, const int8_t *n, uint32_t nv);

#ifdef __SSE2__
/* For the tests: which of the eight vertices at t (8 bytes readable at each 7-byte record) and
 * n (4 bytes readable at each 3-byte normal; NULL: none) the SSE2 block test passes, one bit
 * each; and the same test written in scalar C with the same float operations. */
unsigned x42_tangents8_mask_sse2(const int8_t *t, const int8_t *n);
int x42_tangent_float_ok(const int8_t *t, const int8_t *n);
#endif

/* 1 when none of the nv blend entries of m (1..4) slots at e (2m - 1 bytes each) has an index
 * at or past lim or stored weights summing past 255; 0 otherwise (and for any other m). SSE2
 * decides eight entries at a time; _portable one at a time (the tests compare them). */
int x42_blend_clean(const uint8_t *e, uint64_t nv, unsigned m, unsigned lim);
int x42_blend_clean_portable(const uint8_t *e, uint64_t nv, unsigned m, unsigned lim);

/* The largest of n 16-bit values (0 when n is 0). */
uint16_t x42_u16_max(const uint16_t *v, uint64_t n);

/* Indexed triangle list ix[0..3 * ntri) over positions vp (3 per vertex) from vertex fv, every
 * corner known to be below nv - 1 (the caller checked the group's largest index): the first
 * triangle at or after `from` that may be flat (every component of e0 x e1 is 0 modulo 2^16,
 * axes with mask 0 dropped; a repeated corner is one), or ntri when none is. The caller runs
 * its exact test on that one and goes on after it. Portable: returns `from` (all exact). */
uint32_t x42_list_next_maybe_flat(const uint16_t *ix, uint32_t ntri, const uint16_t *vp, uint64_t fv,
                                  const int64_t mask[3], uint32_t from);

#endif
