/* model_tangents.h - per-vertex tangents with the bitangent's sign, derived from positions,
 * texture coordinates, normals and triangles as the IQM reference compiler derives them for
 * an IQE without `vx` (iqm-notes.md: generated data; lsalzman/iqm iqm.cpp calctangents). */
#ifndef MDL_MODEL_TANGENTS_H
#define MDL_MODEL_TANGENTS_H

#include "model.h"

/* Tangents of m's vertices into out (4 doubles a vertex: x y z and w = +-1, the sign of the
 * bitangent against normal x tangent). Per triangle the texture-space directions are summed,
 * area-weighted, into every corner; vertices the compiler would merge (equal in every array but
 * the tangent, within one mesh) share their sums, and a triangle that repeats a merged vertex
 * counts for none. The tangent is the sum made perpendicular to the vertex's normal, normalised.
 * Where that is zero (a vertex no triangle uses, or texture coordinates without area), where the
 * compiler writes NaN, the tangent is a unit vector perpendicular to the normal with w = 1.
 * Returns 1 when derived, 0 when m lacks what it needs (positions, 2 texture coordinates,
 * 3 normal components, triangles) or already has tangents, -1 when out of memory. */
int model_tangents_derive(const struct model *m, double *out);

#endif
