/* model_frames.h - a model's frames in IQM's meaning: poses relative to the parent joint,
 * uniform in time at each animation's framerate. Formats that store something else (QMSH:
 * keyframes relative to the bone matrix, each at its own time) say so in the model
 * (frame_space, frame_times); convert and compare call this before handing frames to a
 * format or a side that reads them the IQM way. */
#ifndef MDL_MODEL_FRAMES_H
#define MDL_MODEL_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

enum frames_note_level { FRAMES_INFO, FRAMES_WARNING };

/* Told once per animation whose frames were not kept one to one (anim < num_anims), or once
 * for the whole strip (anim == UINT32_MAX). */
typedef void (*frames_note_fn)(void *user, enum frames_note_level level, uint32_t anim,
                               const char *msg);

/* Most frames x poses a resampled strip may hold; beyond it keys are kept one per frame. */
#define MODEL_FRAMES_MAX_CELLS (1u << 20)

/* 1 when m's frames are not parent-relative and uniform (model_frames_to_parent has work). */
int model_frames_need_parent(const struct model *m);

/* Turn m's frames into parent-relative poses, uniform in time, in place (new arrays from m's
 * arena; afterwards frame_space is MODEL_FRAMES_PARENT and frame_times NULL; channels and
 * bounds, which described the old strip, are dropped).
 *
 * Space: a frame relative to the base pose becomes pose * frame (column vectors), exactly in
 * TRS when the base scale is uniform, else through the matrix (shear is noted, then dropped).
 *
 * Time (only when frame_times is set), per animation: with rates and rates[a] > 0, sampled at
 * that rate; else keys at uniform times are kept one per frame at 1/step (snapped to a whole
 * rate within 1e-4); else, when every key time lies on a common grid (the shortest step / k,
 * k <= 64), sampled on that grid: every key kept exactly, frames between interpolated as the
 * QMSH engine plays them (lerp position and scale, shortest-path slerp rotation, in key space);
 * else sampled at 30 fps (or 1 / the shortest step when keys are closer) with a warning that
 * keys between frames are approximated. Sampling never exceeds MODEL_FRAMES_MAX_CELLS: keys are
 * then kept one per frame at the average rate, with a warning that their timing is lost. Times
 * that do not increase (an invalid file) are kept one per frame likewise.
 *
 * Returns 0, or -1 with a reason in err (frames not decoded, poses not one per joint), or -2
 * when memory ran out (err says so too). */
int model_frames_to_parent(struct model *m, const double *rates, frames_note_fn note, void *user,
                           char *err, size_t errcap);

#endif
