/* iqm_fast.h - IQM's per-triangle checks decided many at a time: a block of adjacency records
 * proven to hold nothing the exact R25 loop (iqm_mesh.c) would report. */
#ifndef MDL_IQM_FAST_H
#define MDL_IQM_FAST_H

#include <stdint.h>

/* 1 when each of the n adjacency records (three little-endian uint32) from triangle t0 of the
 * section at adj names no neighbour (0xffffffff), or a triangle below nt whose record lists t0's
 * triangle back; 0 otherwise. The 4 bytes before adj must be readable (the section starts after
 * the header). SSE2 compares a neighbour's three entries at once; _portable one at a time (the
 * tests compare them). */
int iqm_adjacency_clean(const unsigned char *adj, uint64_t t0, uint64_t n, uint64_t nt);
int iqm_adjacency_clean_portable(const unsigned char *adj, uint64_t t0, uint64_t n, uint64_t nt);


/* The n triangles at p (three little-endian uint32 corners each) of a mesh whose vertex range is
 * [lo, lo + span): IQM_CORNERS_WITHIN when every corner lies in it (R21), IQM_CORNERS_DISTINCT
 * when no triangle repeats a corner (R23), both in one pass over them. SSE2 four triangles at a
 * time; _portable one at a time (the tests compare them). */
enum { IQM_CORNERS_WITHIN = 1, IQM_CORNERS_DISTINCT = 2 };
unsigned iqm_mesh_corners(const unsigned char *p, uint64_t n, uint32_t lo, uint32_t span);
unsigned iqm_mesh_corners_portable(const unsigned char *p, uint64_t n, uint32_t lo, uint32_t span);

/* 1 when none of the n vertices of four ubyte blend indexes at pi and four ubyte weights at pw
 * would make check_blend (iqm_vertex.c) report: every index below lim (1..256), weights summing
 * to 255 that never rise by more than 1 from one slot to the next. SSE2 four vertices at a time;
 * _portable one at a time. */
int iqm_blend_clean4(const unsigned char *pi, const unsigned char *pw, uint64_t n, unsigned lim);
int iqm_blend_clean4_portable(const unsigned char *pi, const unsigned char *pw, uint64_t n, unsigned lim);

#endif
