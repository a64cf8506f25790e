/* model_compare.h - do two models of one scene agree? The comparator behind `mdlcheck compare A B`
 * and the proof that ends `mdlcheck convert` (A the source, B what was written): skeleton,
 * animations, every decoded pose within the bound of the quantization involved, and geometry by
 * content (vertex attributes within the bound of each side's storage, triangles as index triples
 * up to rotation, per mesh; vertex and triangle order may differ). Each mismatch is a diagnostic
 * located in A that also names where B holds its side (through the formats' locators).
 *
 * Frames are compared in one meaning: when one side stores them otherwise than IQM (QMSH:
 * keyframes relative to the bone matrix, at their own times), that side is turned into
 * parent-relative frames sampled at the other side's framerates (model_frames_to_parent) and its
 * poses get the slack of that float arithmetic. Two sides that store them alike are compared as
 * stored. */
#ifndef MDL_MODEL_COMPARE_H
#define MDL_MODEL_COMPARE_H

#include <stddef.h>

#include "diag.h"
#include "format.h"
#include "model_frames.h"

struct compare_side {
  const char *path;
  const unsigned char *data; /* the file's bytes, for locations (may be NULL) */
  size_t size;
  const struct mdl_format *format;
  struct model *model;       /* frames may be converted in place */
  int converted;             /* in and out: its frames were made parent-relative (model_frames.h) */
  int unit_normals;          /* its normals are compared as unit vectors: the other side's writer
                              * stored them normalised and announced it (write_loss.h) */
  int unit_rotations;        /* its rotations (frames and base poses) are compared as unit
                              * quaternions: the other side is its repair, whose rotations fix
                              * normalised */
  int unit_weights;          /* each vertex's blend weights are compared as fractions of its total
                              * weight: the other side is its repair, whose weights fix renormalised */
  uint32_t added_attrs;      /* 1 << VT_* of arrays it lacks that the other side's writer added
                              * (announced, write_loss.h): their presence there is expected */
  int materials_as_files;    /* the other side's writer wrote its materials that name no file as
                              * texture file names (announced): those files are expected */
  int empty_meshes_dropped;  /* the other side's writer left out its meshes without triangles
                              * (announced): they are not compared, no loader draws them */
  void *ix;                  /* the format's locator index, kept by model_compare */
};

/* Told what frame conversion did to a side (path names it). */
typedef void (*compare_note_fn)(void *user, const char *path, enum frames_note_level level,
                                const char *msg);

struct compare_result {
  unsigned long poses_checked;
  double worst_ratio;              /* worst pose |a - b| / bound */
  unsigned long vertices_checked;  /* vertices of A matched by content */
  unsigned long vertices_inexact;  /* of those, matched within the bound but not exactly */
  unsigned long triangles_checked;
};

/* Compare a with b, emitting mismatches to sink. Return 0, or -1 when memory ran out (the
 * comparison is then incomplete: the caller must not report agreement). */
int model_compare(struct compare_side *a, struct compare_side *b, struct diag_sink *sink,
                  compare_note_fn note, void *note_user, struct compare_result *r);

#endif
