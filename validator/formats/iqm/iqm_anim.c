/* iqm_anim.c - animations (R32, R33), the frame strip decoded in double precision (R31, 3.2) and
 * per-frame bounds (R34). */
#include <math.h>
#include <stdio.h>

#include "iqm.h"

/* The header's frame count looks broken when the frame or bounds data no longer ends where the
 * next section starts. */
static int frames_suspect(const struct iqm *q)
{
  const struct iqm_extent *f = &q->sec[S_FRAMES], *b = &q->sec[S_BOUNDS];
  return (f->ok && f->len && !iqm_anchored_end(q, f->ofs + f->len)) ||
         (b->ok && b->len && !iqm_anchored_end(q, b->ofs + b->len));
}

void iqm_anims_check(struct iqm *q)
{
  const unsigned char *p = iqm_section_data(q, S_ANIMS);
  uint32_t n = HV(q, H_NUM_ANIMS);
  uint64_t hf = HV(q, H_NUM_FRAMES), prev_end = 0;

  if (!p)
    return;
  q->m->anims = arena_calloc(&q->m->arena, n, sizeof *q->m->anims);
  if (!q->m->anims)
    return;
  q->m->num_anims = n;
  for (uint32_t i = 0; i < n; i++) {
    const unsigned char *r = p + (size_t)i * 20;
    uint64_t rec = q->sec[S_ANIMS].ofs + (uint64_t)i * 20;
    struct model_anim *a = &q->m->anims[i];
    uint32_t first = le32(r + 4), count = le32(r + 8), flags = le32(r + 16);
    float rate = lef32(r + 12);

    a->name = iqm_string(q, le32(r), rec, "anims[%u].name", i);
    a->first_frame = first;
    a->num_frames = count;
    a->framerate = rate;
    a->flags = flags;
    if ((uint64_t)first + count > hf) {
      /* writers put the animations back to back: a start that breaks that is the culprit */
      uint64_t field = frames_suspect(q) ? H_NUM_FRAMES : first > hf || first != prev_end ? rec + 4 : rec + 8;
      struct mdl_loc loc = field == H_NUM_FRAMES ? loc_bin(field, "header.num_frames")
                           : loc_bin(field, field == rec + 4 ? "anims[%u].first_frame" : "anims[%u].num_frames", i);
      char expected[48];
      snprintf(expected, sizeof expected, "an end <= %llu (num_frames)", (unsigned long long)hf);
      diag_emit(q->diag, RULE_IQM_ANIM_FRAME_RANGE, &loc, expected, "[%u, %llu) in anims[%u]", first,
                (unsigned long long)first + count, i);
    }
    prev_end = (uint64_t)first + count;
    if (count == 0) {
      struct mdl_loc loc = loc_bin(rec + 8, "anims[%u].num_frames", i);
      diag_emit(q->diag, RULE_IQM_ANIM_EMPTY, &loc, "> 0", "0");
    }
    if (!f32_bits_finite(le32(r + 12))) {
      struct mdl_loc loc = loc_bin(rec + 12, "anims[%u].framerate", i);
      diag_emit(q->diag, RULE_IQM_NONFINITE, &loc, "a finite number", "%s", isnan(rate) ? "NaN" : "Inf");
    } else if (rate < 0) {
      struct mdl_loc loc = loc_bin(rec + 12, "anims[%u].framerate", i);
      diag_emit(q->diag, RULE_IQM_ANIM_FRAMERATE, &loc, ">= 0 (0: unspecified)", "%.9g", (double)rate);
    }
    if (flags & ~1u) {
      struct mdl_loc loc = loc_bin(rec + 16, "anims[%u].flags", i);
      diag_emit(q->diag, RULE_IQM_ANIM_FLAGS, &loc, "0 or 1 (IQM_LOOP)", "0x%08x", flags);
    }
  }
}

/* The decode error bound of one channel (iqm-notes.md 3.4); constants add the 1e-10 threshold. */
static double channel_bound(const struct model_channels *ch, unsigned c)
{
  double scale = fabs(ch->scale[c]), ofs = fabs(ch->offset[c]);
  if (!(ch->mask >> c & 1))
    return 1e-10;
  return 0.5 * scale + 1.5 * ldexp(1.0, -23) * (ofs + 65535.0 * scale);
}

/* Decode pose j of one frame (samples point at its first sample; NULL for none). */
static void decode_pose(const struct model_channels *ch, const unsigned char *samples, int v1,
                        struct trs *out)
{
  double v[10];
  for (unsigned c = 0; c < 10; c++) {
    v[c] = ch->offset[c];
    if (ch->mask >> c & 1) {
      v[c] += (double)le16(samples) * ch->scale[c];
      samples += 2;
    }
  }
  if (v1) {
    double xyz = v[3] * v[3] + v[4] * v[4] + v[5] * v[5];
    v[6] = -sqrt(xyz < 1.0 ? 1.0 - xyz : 0.0);
  }
  for (int k = 0; k < 3; k++) {
    out->t[k] = v[k];
    out->s[k] = v[7 + k];
  }
  for (int k = 0; k < 4; k++)
    out->r[k] = v[3 + k];
}

/* Only the rotation of pose j in one frame, as decode_pose computes it (samples point at the
 * pose's first rotation sample): what later frames check when no strip is kept. */
static void decode_rotation(const struct model_channels *ch, const unsigned char *samples, int v1, double r[4])
{
  for (unsigned c = 3; c < 7; c++) {
    r[c - 3] = ch->offset[c];
    if (ch->mask >> c & 1) {
      r[c - 3] += (double)le16(samples) * ch->scale[c];
      samples += 2;
    }
  }
  if (v1) {
    double xyz = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    r[3] = -sqrt(xyz < 1.0 ? 1.0 - xyz : 0.0);
  }
}

void iqm_frames_check(struct iqm *q)
{
  struct model *m = q->m;
  uint32_t np = m->num_poses, nf = HV(q, H_NUM_FRAMES), fc = HV(q, H_NUM_FRAMECHANNELS);
  const unsigned char *data = iqm_section_data(q, S_FRAMES);
  uint64_t *first_sample; /* per pose, its first sample's index inside a frame */
  uint64_t *rot_sample;   /* per pose, its first rotation sample's index (when it has one) */
  double *tol;
  unsigned char *rot_animated;
  uint32_t *rot_list, nrot = 0; /* the poses whose rotation changes from frame to frame */
  int v1 = q->version == 1;
  struct trs one;

  m->num_frames = nf; /* the strip's length even when it cannot be decoded (bounds use it) */
  m->rotation_w_derived = v1;
  if (!m->channels || np == 0 || nf == 0 || q->channel_sum != fc || (fc && !data) ||
      np != HV(q, H_NUM_POSES))
    return;
  first_sample = arena_calloc(&m->arena, np, sizeof *first_sample);
  tol = arena_calloc(&m->arena, np, sizeof *tol);
  rot_animated = arena_calloc(&m->arena, np, 1);
  rot_list = arena_calloc(&m->arena, np, sizeof *rot_list);
  rot_sample = arena_calloc(&m->arena, np, sizeof *rot_sample);
  if (!first_sample || !tol || !rot_animated || !rot_list || !rot_sample)
    return;
  {
    uint64_t k = 0;
    for (uint32_t j = 0; j < np; j++) {
      const struct model_channels *ch = &m->channels[j];
      double e2 = 0;
      first_sample[j] = k;
      for (unsigned c = 0; c < 10; c++) {
        if (c == 3)
          rot_sample[j] = k;
        k += ch->mask >> c & 1;
      }
      for (unsigned c = 3; c < 7; c++) {
        double e = channel_bound(ch, c);
        e2 += e * e;
      }
      tol[j] = 1e-3 + sqrt(e2);
      rot_animated[j] = (ch->mask & 0x78u) != 0;
      if (rot_animated[j])
        rot_list[nrot++] = j;
    }
  }
  /* keep the decoded strip when asked and when its size stays proportionate to the input */
  if (q->ctx->keep_frames && (uint64_t)nf * np <= q->size + (1u << 20))
    m->frames = arena_calloc(&m->arena, (size_t)nf * np, sizeof *m->frames);

  for (uint64_t f = 0; f < nf; f++) {
    const unsigned char *fr = fc ? data + f * fc * 2 : NULL;
    /* without animated channels every frame is the first: check it once */
    if (!fc && f > 0 && !m->frames)
      break;
    /* without a strip to fill, later frames only need the poses whose rotation changes: the
     * work stays within the frame data (at most one pose per sample) */
    int all = m->frames || f == 0;
    for (uint32_t idx = 0; idx < (all ? np : nrot); idx++) {
      uint32_t j = all ? idx : rot_list[idx];
      const struct model_channels *ch = &m->channels[j];
      struct trs *out = m->frames ? &m->frames[f * np + j] : &one;
      if (all)
        decode_pose(ch, fr ? fr + first_sample[j] * 2 : NULL, v1, out);
      else /* a rotation-animated pose of a later frame (fc > 0): its rotation is all we look at */
        decode_rotation(ch, fr + rot_sample[j] * 2, v1, out->r);
      /* a NaN here comes from a non-finite offset or scale, reported with the pose */
      if ((f == 0 || rot_animated[j]) && !isnan(out->r[0] + out->r[1] + out->r[2] + out->r[3]) &&
          iqm_quat_unit_off(out->r[0], out->r[1], out->r[2], out->r[3], tol[j]) &&
          iqm_want(q, RULE_IQM_FRAME_QUATERNION_NORM)) {
        uint64_t at;
        struct mdl_loc loc;
        char expected[48];
        double norm = sqrt(out->r[0] * out->r[0] + out->r[1] * out->r[1] + out->r[2] * out->r[2] +
                           out->r[3] * out->r[3]);
        if (rot_animated[j]) {
          /* the first rotation sample of this pose in this frame */
          uint64_t k = first_sample[j];
          for (unsigned c = 0; c < 3; c++)
            k += ch->mask >> c & 1;
          at = q->sec[S_FRAMES].ofs + (f * fc + k) * 2;
          loc = loc_bin(at, "frames[%llu].poses[%u].rotate", (unsigned long long)f, j);
        } else {
          at = q->sec[S_POSES].ofs + (uint64_t)j * q->pose_size + 8 + 12;
          loc = loc_bin(at, "poses[%u].channeloffset[3]", j);
        }
        snprintf(expected, sizeof expected, "1 +- %.3g", tol[j]);
        diag_emit(q->diag, RULE_IQM_FRAME_QUATERNION_NORM, &loc, expected, "%.9g", norm);
      }
    }
  }
}

void iqm_bounds_check(struct iqm *q)
{
  const unsigned char *p = iqm_section_data(q, S_BOUNDS);
  uint32_t n = HV(q, H_NUM_FRAMES);
  if (!p)
    return;
  q->m->bounds = arena_calloc(&q->m->arena, n, sizeof *q->m->bounds);
  if (!q->m->bounds)
    return;
  for (uint32_t i = 0; i < n; i++) {
    const unsigned char *r = p + (size_t)i * 32;
    uint64_t rec = q->sec[S_BOUNDS].ofs + (uint64_t)i * 32;
    struct model_bounds *b = &q->m->bounds[i];
    int finite = 1;
    for (int k = 0; k < 8; k++) {
      if (!f32_bits_finite(le32(r + 4 * k))) {
        finite = 0;
        if (!iqm_want(q, RULE_IQM_NONFINITE))
          continue;
        static const char *const names[8] = {
          "bbmins[0]", "bbmins[1]", "bbmins[2]", "bbmaxs[0]", "bbmaxs[1]", "bbmaxs[2]", "xyradius", "radius"
        };
        struct mdl_loc loc = loc_bin(rec + 4 * k, "bounds[%u].%s", i, names[k]);
        diag_emit(q->diag, RULE_IQM_NONFINITE, &loc, "a finite number", "%s",
                  isnan(lef32(r + 4 * k)) ? "NaN" : "Inf");
        finite = 0;
      }
    }
    for (int k = 0; k < 3; k++) {
      b->bbmin[k] = lef32(r + 4 * k);
      b->bbmax[k] = lef32(r + 12 + 4 * k);
    }
    b->xyradius = lef32(r + 24);
    b->radius = lef32(r + 28);
    if (!finite)
      continue;
    for (int k = 0; k < 3; k++) {
      if (b->bbmin[k] > b->bbmax[k] && iqm_want(q, RULE_IQM_BOUNDS_BOX)) {
        struct mdl_loc loc = loc_bin(rec + 4 * k, "bounds[%u].bbmins[%d]", i, k);
        char expected[48];
        snprintf(expected, sizeof expected, "<= %.9g (bbmaxs[%d])", b->bbmax[k], k);
        diag_emit(q->diag, RULE_IQM_BOUNDS_BOX, &loc, expected, "%.9g", b->bbmin[k]);
      }
    }
    if ((b->xyradius < 0 || b->radius < b->xyradius) && iqm_want(q, RULE_IQM_BOUNDS_RADIUS)) {
      int xy = b->xyradius < 0;
      struct mdl_loc loc = loc_bin(rec + (xy ? 24 : 28), "bounds[%u].%s", i, xy ? "xyradius" : "radius");
      diag_emit(q->diag, RULE_IQM_BOUNDS_RADIUS, &loc, "0 <= xyradius <= radius", "xyradius %.9g, radius %.9g",
                b->xyradius, b->radius);
    }
  }
}
