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

#endif
