/* x42_anim.c - the V5 key stream and animations: the stream's rules, and its evaluation into
 * per-frame bone poses the way the engine walks it (tr_x42-pose.c): the first 6*numBones
 * entries are each track's (lower, upper) key pair by position, every later entry pushes a new
 * key onto its track, and a frame between two keys interpolates them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "x42.h"
#include "pose.h"

static uint32_t value_count(const struct x42_doc *d, unsigned type)
{
  return type == X42_TRACK_POS ? d->num_pos : type == X42_TRACK_SCALE ? d->num_scale : d->num_rot;
}

void x42_keys_check(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  uint32_t initial = 6u * d->num_bones;
  uint32_t ntracks = 3u * d->num_bones;
  uint16_t *upper = ntracks ? arena_calloc(x->arena, ntracks, sizeof *upper) : NULL;
  uint32_t last_need = 0, max_frame = 0, bad_frames = 0;
  char exp[64];

  for (uint32_t i = 0; i < d->key_len; i++) {
    const struct x42_key *k = &d->keys[i];
    uint64_t o = x->lay.off[XS_KEYS] + 8u * (uint64_t)i;
    struct mdl_loc loc;
    int ok = 1;
    if (k->type > 2) {
      loc = loc_bin(o, "keyStream[%u].type", i);
      diag_emit(x->diag, RULE_X42_KEY_TYPE, &loc, "0 (position), 1 (scale) or 2 (rotation)", "%u", k->type);
      ok = 0;
    }
    if (k->bone >= d->num_bones) {
      loc = loc_bin(o + 2, "keyStream[%u].bone", i);
      snprintf(exp, sizeof exp, "< %u (numBones)", d->num_bones);
      diag_emit(x->diag, RULE_X42_KEY_BONE, &loc, exp, "%u", k->bone);
      ok = 0;
    }
    if (k->frame >= d->num_frames) {
      loc = loc_bin(o + 4, "keyStream[%u].frame", i);
      snprintf(exp, sizeof exp, "< %u (numFrames)", d->num_frames);
      diag_emit(x->diag, RULE_X42_KEY_FRAME, &loc, exp, "%u", k->frame);
      ok = 0;
      bad_frames++;
      if (k->frame > max_frame)
        max_frame = k->frame;
    }
    if (k->type <= 2 && k->value >= value_count(d, k->type)) {
      static const char *const arr[3] = {"numPosValues", "numScaleValues", "numRotValues"};
      loc = loc_bin(o + 6, "keyStream[%u].value", i);
      snprintf(exp, sizeof exp, "< %u (%s)", value_count(d, k->type), arr[k->type]);
      diag_emit(x->diag, RULE_X42_KEY_VALUE, &loc, exp, "%u", k->value);
      ok = 0;
    }
    if (i < initial) {
      unsigned want_type = (i % 6) / 2, want_bone = i / 6;
      if (ok && (k->type != want_type || k->bone != want_bone)) {
        loc = loc_bin(o + (k->type != want_type ? 0 : 2), "keyStream[%u]", i);
        snprintf(exp, sizeof exp, "type %u, bone %u (read by position)", want_type, want_bone);
        diag_emit(x->diag, RULE_X42_KEY_INITIAL, &loc, exp, "type %u, bone %u", k->type, k->bone);
      }
      if (upper && i % 2 == 1) {
        const struct x42_key *lo = &d->keys[i - 1];
        if (ok && k->frame < lo->frame) {
          loc = loc_bin(o + 4, "keyStream[%u].frame", i);
          snprintf(exp, sizeof exp, ">= %u (the lower key's frame)", lo->frame);
          diag_emit(x->diag, RULE_X42_KEY_TRACK_ORDER, &loc, exp, "%u", k->frame);
        }
        upper[want_bone * 3u + want_type] = k->frame;
      }
      continue;
    }
    if (!ok || !upper)
      continue;
    {
      uint32_t t = k->bone * 3u + k->type;
      uint32_t need = upper[t]; /* the key becomes needed once playback passes the old upper key */
      if (k->frame <= upper[t]) {
        loc = loc_bin(o + 4, "keyStream[%u].frame", i);
        snprintf(exp, sizeof exp, "> %u (the track's previous key)", upper[t]);
        diag_emit(x->diag, RULE_X42_KEY_TRACK_ORDER, &loc, exp, "%u", k->frame);
      } else if (need < last_need) {
        loc = loc_bin(o + 4, "keyStream[%u].frame", i);
        snprintf(exp, sizeof exp, "needed at frame >= %u", last_need);
        diag_emit(x->diag, RULE_X42_KEY_STREAM_ORDER, &loc, exp, "needed at frame %u", need);
      }
      if (need > last_need)
        last_need = need;
      upper[t] = k->frame;
    }
  }
  /* several keys past the end usually mean numFrames itself is wrong: say so there too */
  if (bad_frames > 1) {
    struct mdl_loc loc = loc_bin(X42_OFF_NUM_FRAMES, "header.numFrames");
    snprintf(exp, sizeof exp, "> %u (the last frame a key uses)", max_frame);
    diag_emit(x->diag, RULE_X42_KEY_FRAME, &loc, exp, "%u, with %u keys past it", d->num_frames, bad_frames);
  }
}

void x42_anims_check(struct x42_ctx *x)
{
  const struct x42_doc *d = x->doc;
  char path[64], exp[64];
  snprintf(exp, sizeof exp, "< %u (numFrames)", d->num_frames);
  for (uint32_t i = 0; i < d->num_anims; i++) {
    const struct x42_anim *a = &d->anims[i];
    uint64_t o = x->lay.off[XS_ANIMS] + 12u * (uint64_t)i;
    struct mdl_loc loc;
    unsigned lo = a->first < a->last ? a->first : a->last, hi = a->first < a->last ? a->last : a->first;
    snprintf(path, sizeof path, "animations[%u].name", i);
    x42_check_name(x, a->name, o, path);
    if (a->first >= d->num_frames) {
      loc = loc_bin(o + 2, "animations[%u].firstFrame", i);
      diag_emit(x->diag, RULE_X42_ANIM_FRAME_RANGE, &loc, exp, "%u", a->first);
    }
    if (a->last >= d->num_frames) {
      loc = loc_bin(o + 4, "animations[%u].lastFrame", i);
      diag_emit(x->diag, RULE_X42_ANIM_FRAME_RANGE, &loc, exp, "%u", a->last);
    }
    if (a->loop_start != X42_NONE) {
      int reverse = a->last < a->first;
      if (reverse ? a->loop_end > a->loop_start : a->loop_end < a->loop_start) {
        loc = loc_bin(o + 8, "animations[%u].loopEnd", i);
        diag_emit(x->diag, RULE_X42_ANIM_LOOP_ORDER, &loc,
                  reverse ? "loopEnd <= loopStart (reverse animation)" : "loopEnd >= loopStart",
                  "loopStart %u, loopEnd %u", a->loop_start, a->loop_end);
      } else if (a->loop_start < lo || a->loop_start > hi || a->loop_end < lo || a->loop_end > hi) {
        int start_bad = a->loop_start < lo || a->loop_start > hi;
        char r[48];
        loc = loc_bin(o + (start_bad ? 6 : 8), "animations[%u].%s", i, start_bad ? "loopStart" : "loopEnd");
        snprintf(r, sizeof r, "%u ... %u (the animation's frames)", lo, hi);
        diag_emit(x->diag, RULE_X42_ANIM_LOOP_RANGE, &loc, r, "%u", start_bad ? a->loop_start : a->loop_end);
      }
    }
    if (a->rate == 0) {
      loc = loc_bin(o + 10, "animations[%u].frameRate", i);
      diag_emit(x->diag, RULE_X42_ANIM_FRAME_RATE, &loc, ">= 1", "0");
    }
  }
}

/* --- evaluation ------------------------------------------------------------------------------ */

struct track_keys {
  uint32_t *first; /* 3*numBones + 1 offsets into list */
  uint32_t *list;  /* key indices, per track in stream order */
};

static int tracks_build(const struct x42_doc *d, struct arena *a, struct track_keys *tk)
{
  uint32_t nt = 3u * d->num_bones, initial = 6u * d->num_bones;
  uint32_t *fill;
  tk->first = arena_calloc(a, (size_t)nt + 1, sizeof *tk->first);
  tk->list = arena_calloc(a, (size_t)d->key_len + 1, sizeof *tk->list);
  fill = arena_calloc(a, (size_t)nt + 1, sizeof *fill);
  if (!tk->first || !tk->list || !fill)
    return -1;
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t i = 0; i < d->key_len; i++) {
      const struct x42_key *k = &d->keys[i];
      uint32_t t;
      if (i < initial)
        t = (i / 6) * 3u + (i % 6) / 2;
      else if (k->type <= 2 && k->bone < d->num_bones)
        t = k->bone * 3u + k->type;
      else
        continue;
      if (pass == 0)
        tk->first[t + 1]++;
      else
        tk->list[tk->first[t] + fill[t]++] = i;
    }
    if (pass == 0)
      for (uint32_t t = 0; t < nt; t++)
        tk->first[t + 1] += tk->first[t];
  }
  return 0;
}

static void value_decode(const struct x42_doc *d, unsigned type, uint16_t v, double out[4])
{
  if (type == X42_TRACK_POS) {
    if (v >= d->num_pos)
      v = 0, out[0] = out[1] = out[2] = 0;
    for (int a = 0; a < 3 && d->num_pos; a++)
      out[a] = x42_range_decode(d->pos_values[3u * v + (unsigned)a], d->anim_pos_pack[a][0], d->anim_pos_pack[a][1]);
  } else if (type == X42_TRACK_SCALE) {
    out[0] = out[1] = out[2] = 1;
    if (v >= d->num_scale)
      return;
    if (d->flags & X42_MF_UNIFORM_SCALE)
      out[0] = out[1] = out[2] = x42_range_decode(d->scale_values[v], d->anim_scale_pack[0], d->anim_scale_pack[1]);
    else
      for (int a = 0; a < 3; a++)
        out[a] = x42_range_decode(d->scale_values[3u * v + (unsigned)a], d->anim_scale_pack[0], d->anim_scale_pack[1]);
  } else {
    out[0] = out[1] = out[2] = 0;
    out[3] = 1;
    if (v >= d->num_rot)
      return;
    for (int a = 0; a < 4; a++)
      out[a] = x42_s16n(d->rot_values[4u * v + (unsigned)a]);
  }
}

/* Value of one track at frame f between its keys lo and hi (key indices); equal values copy. */
static void track_interp(const struct x42_doc *d, unsigned type, const struct x42_key *lo,
                         const struct x42_key *hi, uint32_t f, double out[4])
{
  double a[4], b[4], t;
  value_decode(d, type, lo->value, out);
  if (!hi || lo->value == hi->value || f <= lo->frame || hi->frame <= lo->frame)
    return;
  if (f >= hi->frame) {
    value_decode(d, type, hi->value, out);
    return;
  }
  memcpy(a, out, sizeof a);
  value_decode(d, type, hi->value, b);
  t = (double)(f - lo->frame) / (double)(hi->frame - lo->frame);
  if (type == X42_TRACK_ROT) {
    /* normalised lerp on the shorter arc (assumed: the engine's own blend is not published) */
    double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], sg = dot < 0 ? -1 : 1;
    for (int k = 0; k < 4; k++)
      out[k] = a[k] + (sg * b[k] - a[k]) * t;
    quat_normalize(out);
  } else {
    for (int k = 0; k < 3; k++)
      out[k] = a[k] + (b[k] - a[k]) * t;
  }
}

static void pose_set(struct trs *p, unsigned type, const double v[4])
{
  if (type == X42_TRACK_POS)
    memcpy(p->t, v, 3 * sizeof *v);
  else if (type == X42_TRACK_SCALE)
    memcpy(p->s, v, 3 * sizeof *v);
  else
    memcpy(p->r, v, 4 * sizeof *v);
}

/* Pose of every bone at one frame, scanning each track (used for the base pose). */
void x42_pose_at(const struct x42_doc *d, struct arena *a, uint32_t f, struct trs *out)
{
  struct track_keys tk;
  for (uint32_t b = 0; b < d->num_bones; b++)
    trs_identity(&out[b]);
  if (!d->num_bones || tracks_build(d, a, &tk) < 0)
    return;
  for (uint32_t t = 0; t < 3u * d->num_bones; t++) {
    const struct x42_key *lo = NULL, *hi = NULL;
    double v[4];
    for (uint32_t k = tk.first[t]; k < tk.first[t + 1]; k++) {
      const struct x42_key *key = &d->keys[tk.list[k]];
      if (key->frame <= f && (!lo || key->frame >= lo->frame))
        lo = key;
      else if (key->frame > f && (!hi || key->frame < hi->frame))
        hi = key;
    }
    if (!lo)
      lo = hi, hi = NULL;
    if (!lo)
      continue;
    track_interp(d, t % 3, lo, hi, f, v);
    pose_set(&out[t / 3], t % 3, v);
  }
}

int x42_keys_evaluate(const struct x42_doc *d, struct model *m)
{
  struct track_keys tk;
  uint32_t nt = 3u * d->num_bones, *cur;
  if (!d->num_bones || !d->num_frames)
    return 0;
  if ((uint64_t)d->num_frames * d->num_bones > X42_MAX_POSES)
    return -1;
  m->frames = arena_calloc(&m->arena, (size_t)d->num_frames * d->num_bones, sizeof *m->frames);
  cur = arena_calloc(&m->arena, nt, sizeof *cur);
  if (!m->frames || !cur || tracks_build(d, &m->arena, &tk) < 0)
    return -1;
  m->num_frames = d->num_frames;
  for (uint32_t t = 0; t < nt; t++)
    cur[t] = tk.first[t];
  for (uint32_t f = 0; f < d->num_frames; f++) {
    struct trs *row = &m->frames[(size_t)f * d->num_bones];
    for (uint32_t b = 0; b < d->num_bones; b++)
      trs_identity(&row[b]);
    for (uint32_t t = 0; t < nt; t++) {
      uint32_t end = tk.first[t + 1];
      const struct x42_key *lo, *hi;
      double v[4];
      if (tk.first[t] == end)
        continue;
      /* keys of a track come in frame order (X42-KEY-006); step past the ones behind f */
      while (cur[t] + 1 < end && d->keys[tk.list[cur[t] + 1]].frame <= f)
        cur[t]++;
      lo = &d->keys[tk.list[cur[t]]];
      hi = cur[t] + 1 < end ? &d->keys[tk.list[cur[t] + 1]] : NULL;
      track_interp(d, t % 3, lo, hi, f, v);
      pose_set(&row[t / 3], t % 3, v);
    }
  }
  return 0;
}
