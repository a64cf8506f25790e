/* pipeline.h - bytes -> detection -> decoder (diagnostics + model) -> result.
 * Shared by validation, pose decoding, conversion and comparison. */
#ifndef MDL_PIPELINE_H
#define MDL_PIPELINE_H

#include "format.h"
#include "input.h"
#include "mem_bound.h"

struct pipeline_run {
  const struct mdl_format *format; /* NULL when none matched */
  struct model model;
  int decoded;                     /* the whole input was checked and the model is usable */
  int out_of_memory;               /* MDL-MEM-001 or MDL-MEM-002 was reported: decoded is 0 */
  struct mem_bound bound;          /* the decode's memory bound (PIPELINE_BOUNDED) */
  int bound_hit;                   /* the decode stopped at its bound: MDL-MEM-002 (MDL_EIO) */
  int name_read;                   /* the findings may depend on the file's name (the decoder
                                    * read it, or --resources resolved files next to it): the
                                    * same bytes under another name may decode otherwise */
  mdl_result result;
};

/* What pipeline_decode keeps beyond the checks (its keep argument, bits): the animation strip
 * in double precision, and where each element is in the source (model.spans). */
#define PIPELINE_FRAMES 1
#define PIPELINE_SPANS 2
/* With PIPELINE_FRAMES: the caller reads only the skeleton and the animations (poses), so a
 * decoder may leave the geometry out of the model; every check still runs */
#define PIPELINE_SKELETON 4
/* Hold the decoder's structures within options->max_memory: past it the decode stops with
 * MDL-MEM-002 and pipeline_decode answers MDL_EIO. Every caller asks for it (validation, poses,
 * convert, fix, compare): a command's decodes share one bound (pipeline_decode_in). */
#define PIPELINE_BOUNDED 8
/* With PIPELINE_FRAMES: the caller reads the frames only through model_frame_get, one at a time
 * (poses), so a decoder may compute each as it is read instead of holding the strip */
#define PIPELINE_FRAMES_LAZY 16

/* Decode data into run->model, reporting through options. keep_frames: PIPELINE_* bits. MDL_EIO when the decoder's inner input (an inflated
 * .egg.pz) passed options->max_input_size (MDL-IO-002 was emitted), or the decode passed its
 * memory bound (PIPELINE_BOUNDED; MDL-MEM-002 was emitted). Always call
 * pipeline_release afterwards. */
mdl_status pipeline_decode(const void *data, size_t size, const char *name_hint,
                           const mdl_options *options, int keep_frames, struct pipeline_run *run);
/* As pipeline_decode with PIPELINE_BOUNDED, the decode's structures charged to bound: a command's
 * own (convert's source and proof, compare's two sides), which it sized for the texts involved
 * (mem_bound_init, mem_bound_text). run->bound is then unused. */
mdl_status pipeline_decode_in(const void *data, size_t size, const char *name_hint,
                              const mdl_options *options, int keep_frames, struct mem_bound *bound,
                              struct pipeline_run *run);
/* pipeline_decode_in over an input input_open read: the pages of a mapped one are given back as
 * the decode finishes with them, and all of them at its end (text_window.h), so its text is not
 * held whole beside the decoder's structures; bound may be NULL (pipeline_decode's own). Bytes
 * held in memory of their own (standard input) are decoded as pipeline_decode_in decodes. */
mdl_status pipeline_decode_input(const struct mdl_input *in, const char *name_hint,
                                 const mdl_options *options, int keep_frames, struct mem_bound *bound,
                                 struct pipeline_run *run);
/* 1 when the decode stopped at its memory bound (MDL-MEM-002 was emitted). */
int pipeline_bound_hit(const struct pipeline_run *run);
void pipeline_release(struct pipeline_run *run);
/* The decoded model will not be written: its format lets go of what only its writer reads
 * (format.h, release_source); the model stays whole for comparisons. */
void pipeline_release_source(struct pipeline_run *run);

#endif
