/* model_diff.h - compare two common models part by part, for round trips (decode -> write ->
 * decode) and the conformance runner: exact where a format keeps data losslessly, within the
 * quantization bound (pose.h quant_bound) for animation frames. b is taken to be the copy of a
 * (messages say "X became Y").
 *
 * An array that holds no elements and a missing one are the same (no adjacency and adjacency
 * of 0 triangles); presence is compared only when there would be something in it. */
#ifndef MDL_MODEL_DIFF_H
#define MDL_MODEL_DIFF_H

#include <stdint.h>

#include "model.h"
#include "pose.h"

/* Parts to compare (model_diff_opts.flags). */
#define MODEL_DIFF_HEADER     (1u << 0)  /* format header flags */
#define MODEL_DIFF_JOINTS     (1u << 1)  /* count, names, parents, base poses */
#define MODEL_DIFF_POSES      (1u << 2)  /* count and parents of the animated poses */
#define MODEL_DIFF_ANIMS      (1u << 3)  /* names, frame ranges, framerates, flags */
#define MODEL_DIFF_MESHES     (1u << 4)  /* names, materials, ranges */
#define MODEL_DIFF_VARRAYS    (1u << 5)  /* vertex count, array headers, data byte for byte */
#define MODEL_DIFF_TRIANGLES  (1u << 6)  /* triangles and adjacency byte for byte */
#define MODEL_DIFF_BOUNDS     (1u << 7)  /* per-frame bounds */
#define MODEL_DIFF_COMMENT    (1u << 8)
#define MODEL_DIFF_EXTENSIONS (1u << 9)  /* names, sizes, data byte for byte */
#define MODEL_DIFF_FRAMES     (1u << 10) /* frame count, space and key times (exactly), and
                                          * every frame of every pose */
#define MODEL_DIFF_ALL        ((1u << 11) - 1)

/* How they are compared (also in flags). */
#define MODEL_DIFF_COMMENT_PADDED (1u << 16) /* b's comment may extend a's with NUL bytes (the
                                              * IQM writer NUL-terminates and pads it) */
#define MODEL_DIFF_ROTATIONS      (1u << 17) /* frames: rotations as rotations: both normalised,
                                              * q and -q the same, and each component's bound
                                              * widened by the sum of the four (normalising
                                              * moves one by the others' errors) */

/* When two stored reals are the same (joint base poses, framerates, bounds). */
enum model_diff_real {
  MODEL_DIFF_REAL_BITS,       /* the same bits (0.0 and -0.0 differ) */
  MODEL_DIFF_REAL_EQUAL,      /* a == b, or both NaN */
  MODEL_DIFF_REAL_FLOAT_OF,   /* b is a rounded to float (a source written as float), or both NaN */
  MODEL_DIFF_REAL_NEAR_FLOAT  /* within 2^-23 relative (either side rounded to float); NaN never */
};

/* What a frame channel may move by. */
enum model_diff_frames {
  MODEL_DIFF_FRAMES_BOTH,   /* the larger of the two models' bounds (model_diff_pose_bound) */
  MODEL_DIFF_FRAMES_SECOND, /* b's quantization alone: b is a quantized copy of a, so b must
                             * carry channels and both must hold their frames */
  MODEL_DIFF_FRAMES_EXACT   /* no movement at all */
};

/* The bound of a channel when a model keeps no quantization (decoded in double from exact data). */
#define MODEL_DIFF_SLACK 1e-10

struct model_diff_opts {
  unsigned flags;                  /* MODEL_DIFF_* parts and options */
  enum model_diff_real joint_pose; /* each of the ten channels of a joint's base pose */
  enum model_diff_real anim_rate;
  enum model_diff_real bounds;
  enum model_diff_frames frames;
};

/* Told one line per difference (no newline). */
typedef void (*model_diff_fn)(void *user, const char *what);

struct model_diff_result {
  unsigned mismatches;       /* every difference told */
  unsigned frame_mismatches; /* of which frames beyond their bound (one per frame and pose) */
  double frame_ratio;        /* worst frame |a - b| / bound, 0 when equal (> 1: beyond) */
  double frame_error, frame_bound; /* |a - b| and the bound at the worst place */
  uint32_t frame, pose;            /* the worst place */
  unsigned channel;                /* 0-2 t, 3-6 r, 7-9 s */
};

/* Compare a with b; fn (or NULL) hears each difference, r (or NULL) gets the counts.
 * Return 0 when they are the same, 1 when not. */
int model_diff(const struct model *a, const struct model *b, const struct model_diff_opts *o,
               model_diff_fn fn, void *user, struct model_diff_result *r);

/* The bound of channel c (0-9) of pose p: its quantization (quant_bound of the channel's
 * offset, and of its scale when the mask animates it), or MODEL_DIFF_SLACK when m keeps no
 * channels. With rotations, each rotation channel also gets the sum of the four. */
double model_diff_pose_bound(const struct model *m, uint32_t p, unsigned c);
void model_diff_pose_bounds(const struct model *m, uint32_t p, int rotations,
                            double out[TRS_CHANNELS]);

/* Worst |x - y| / bound over the channels in mask (bit c: channel c). A NaN difference or bound
 * counts as infinitely far; a difference beyond its bound always gives > 1, one within it <= 1.
 * With up_to_sign the rotation channels are compared with y's quaternion and its negation, and
 * the nearer is kept (the same rotation). *channel (when not NULL) gets the worst channel. */
double trs_diff_ratio(const struct trs *x, const struct trs *y, const double bound[TRS_CHANNELS],
                      unsigned mask, int up_to_sign, unsigned *channel);

/* Name of channel c ("Tx" ... "Sz"). */
const char *trs_channel_name(unsigned c);

#endif
