/* iqm_skeleton.c - joints (R26, R31, R39) and poses (R27-R30): parents, the base pose, channel
 * masks and the frame channel count. Version 1 records are 44 and 80 bytes with an implicit
 * quaternion w (iqm-notes.md 1.5); they are widened to the v2 model on the way. */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "iqm.h"

int iqm_quat_unit_off(double x, double y, double z, double w, double tolerance)
{
  double n = sqrt(x * x + y * y + z * z + w * w);
  return !(fabs(n - 1.0) <= tolerance);
}

/* NaN or Inf in count floats at p (file offset at); return 1 when all finite. */
static int floats_finite(struct iqm *q, const unsigned char *p, uint64_t at, unsigned count,
                         const char *record, uint32_t index, const char *field)
{
  int ok = 1;
  for (unsigned k = 0; k < count; k++) {
    if (!f32_bits_finite(le32(p + 4 * k))) {
      char path[64];
      struct mdl_loc loc;
      ok = 0;
      if (!iqm_want(q, RULE_IQM_NONFINITE))
        continue;
      snprintf(path, sizeof path, "%s[%u].%s[%u]", record, index, field, k);
      loc = loc_bin(at + 4 * k, "%s", path);
      diag_emit(q->diag, RULE_IQM_NONFINITE, &loc, "a finite number", "%s",
                isnan(lef32(p + 4 * k)) ? "NaN" : "Inf");
      ok = 0;
    }
  }
  return ok;
}

struct parent_rules {
  enum rule_index range, order, below;
  const char *what; /* "joints" or "poses" */
};

/* R26 over a parent array: range, cycles and forward references in O(n), roots below -1. */
static void parents_check(struct iqm *q, const int32_t *parent, uint32_t n, uint64_t base,
                          uint32_t stride, uint32_t field, const struct parent_rules *rules)
{
  uint32_t *walk = arena_calloc(&q->m->arena, n ? n : 1, sizeof *walk);
  unsigned char *cycle = arena_calloc(&q->m->arena, n ? n : 1, 1);
  if (!walk || !cycle)
    return;
  /* label every node with the walk that reached it first; a walk that meets its own label
   * has closed a cycle */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t v = i;
    if (walk[i])
      continue;
    while (v < n && !walk[v]) {
      walk[v] = i + 1;
      if (parent[v] < 0 || (uint32_t)parent[v] >= n)
        break;
      v = (uint32_t)parent[v];
    }
    if (v < n && walk[v] == i + 1 && parent[v] >= 0 && (uint32_t)parent[v] < n && !cycle[v]) {
      uint32_t u = v;
      do {
        cycle[u] = 1;
        u = (uint32_t)parent[u];
      } while (u != v);
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    int32_t p = parent[i];
    uint64_t at = base + (uint64_t)i * stride + field;
    enum rule_index rule;
    struct mdl_loc loc;
    char expected[48];
    if (p >= -1 && (p < 0 || (uint32_t)p < i))
      continue;
    rule = p < -1 ? rules->below : (uint32_t)p >= n ? rules->range : rules->order;
    if (!iqm_want(q, rule))
      continue;
    loc = loc_bin(at, "%s[%u].parent", rules->what, i);
    if (p < -1) {
      diag_emit(q->diag, rule, &loc, "-1 for a root", "%d", p);
    } else if ((uint32_t)p >= n) {
      snprintf(expected, sizeof expected, "< %u (the number of %s)", n, rules->what);
      diag_emit(q->diag, rule, &loc, expected, "%d", p);
    } else {
      snprintf(expected, sizeof expected, "< %u (its own index) or -1", i);
      diag_emit(q->diag, rule, &loc, expected, "%d (%s)", p,
                cycle[i] ? "a cycle: no root above it" : "a forward reference");
    }
  }
}

void iqm_joints_check(struct iqm *q)
{
  static const struct parent_rules rules = {
    RULE_IQM_JOINT_PARENT_RANGE, RULE_IQM_JOINT_PARENT_ORDER, RULE_IQM_JOINT_PARENT_BELOW_ROOT, "joints"
  };
  const unsigned char *p = iqm_section_data(q, S_JOINTS);
  uint32_t n = HV(q, H_NUM_JOINTS);
  int32_t *parents;
  int v1 = q->version == 1;

  if (!p)
    return;
  model_joints_alloc(q->m, n); /* out of memory: joints NULL */
  parents = arena_calloc(&q->m->arena, n, sizeof *parents);
  if (!q->m->joints || !parents)
    return;
  q->m->num_joints = n;
  for (uint32_t i = 0; i < n; i++) {
    const unsigned char *r = p + (size_t)i * q->joint_size;
    uint64_t rec = q->sec[S_JOINTS].ofs + (uint64_t)i * q->joint_size;
    struct model_joint *j = &q->m->joints[i];
    unsigned nrot = v1 ? 3 : 4, sofs = v1 ? 32 : 36;
    struct trs *pose = model_rest_mut(q->m, i);
    int finite;
    j->name = iqm_string(q, le32(r), rec, "joints[%u].name", i);
    j->parent = parents[i] = lei32(r + 4);
    finite = floats_finite(q, r + 8, rec + 8, 3, "joints", i, "translate");
    finite &= floats_finite(q, r + 20, rec + 20, nrot, "joints", i, "rotate");
    finite &= floats_finite(q, r + sofs, rec + sofs, 3, "joints", i, "scale");
    for (int k = 0; k < 3; k++) {
      pose->t[k] = lef32(r + 8 + 4 * k);
      pose->r[k] = lef32(r + 20 + 4 * k);
      pose->s[k] = lef32(r + sofs + 4 * k);
    }
    if (v1) {
      /* the upgrader's reconstruction (iqm-notes.md 1.5) */
      double xyz = pose->r[0] * pose->r[0] + pose->r[1] * pose->r[1] + pose->r[2] * pose->r[2];
      pose->r[3] = -sqrt(xyz < 1.0 ? 1.0 - xyz : 0.0);
    } else {
      pose->r[3] = lef32(r + 32);
    }
    if (finite && iqm_quat_unit_off(pose->r[0], pose->r[1], pose->r[2], pose->r[3], 1e-3) &&
        iqm_want(q, RULE_IQM_JOINT_QUATERNION_NORM)) {
      struct mdl_loc loc = loc_bin(rec + 20, "joints[%u].rotate", i);
      double norm = sqrt(pose->r[0] * pose->r[0] + pose->r[1] * pose->r[1] +
                         pose->r[2] * pose->r[2] + pose->r[3] * pose->r[3]);
      diag_emit(q->diag, RULE_IQM_JOINT_QUATERNION_NORM, &loc, "1 +- 1e-3", "%.9g", norm);
    }
  }
  parents_check(q, parents, n, q->sec[S_JOINTS].ofs, q->joint_size, 4, &rules);
}

static unsigned popcount10(uint32_t m)
{
  unsigned c = 0;
  for (; m; m &= m - 1)
    c++;
  return c;
}

void iqm_poses_check(struct iqm *q)
{
  static const struct parent_rules rules = {
    RULE_IQM_POSE_PARENT_RANGE, RULE_IQM_POSE_PARENT_ORDER, RULE_IQM_POSE_PARENT_BELOW_ROOT, "poses"
  };
  const unsigned char *p = iqm_section_data(q, S_POSES);
  uint32_t n = HV(q, H_NUM_POSES), nj = HV(q, H_NUM_JOINTS);
  if (n && !nj) {
    /* animation-only (R27): legitimate, but no names to bind the poses by (IQM-ANM-005) */
    struct mdl_loc loc = loc_bin(H_NUM_JOINTS, "header.num_joints");
    diag_emit(q->diag, RULE_IQM_ANIM_ONLY_NO_JOINT_NAMES, &loc, NULL, "%u", n);
  }
  uint32_t nch = q->nchannels, valid = (1u << nch) - 1;
  unsigned sofs = 8 + 4 * nch;
  int32_t *parents;
  uint64_t sum = 0;
  uint32_t suspect = 0, nsuspect = 0;

  if (n && nj && n != nj) {
    /* whichever section no longer ends where the next one starts has the broken count */
    const struct iqm_extent *je = &q->sec[S_JOINTS];
    int joints_broken = je->ok && je->len && !iqm_anchored_end(q, je->ofs + je->len);
    struct mdl_loc loc = loc_bin(joints_broken ? H_NUM_JOINTS : H_NUM_POSES,
                                 joints_broken ? "header.num_joints" : "header.num_poses");
    char expected[48];
    snprintf(expected, sizeof expected, "%u (num_joints) or 0", nj);
    diag_emit(q->diag, RULE_IQM_POSE_COUNT, &loc, expected, "%u", n);
  }
  if (n == 0 && HV(q, H_NUM_FRAMECHANNELS) != 0) {
    struct mdl_loc loc = loc_bin(H_NUM_FRAMECHANNELS, "header.num_framechannels");
    diag_emit(q->diag, RULE_IQM_FRAME_CHANNELS, &loc, "0 (there are no poses)", "%u",
              HV(q, H_NUM_FRAMECHANNELS));
  }
  if (!p)
    return;
  q->m->pose_parents = parents = arena_calloc(&q->m->arena, n, sizeof *parents);
  q->m->channels = arena_calloc(&q->m->arena, n, sizeof *q->m->channels);
  if (!parents || !q->m->channels)
    return;
  q->m->num_poses = n;
  for (uint32_t i = 0; i < n; i++) {
    const unsigned char *r = p + (size_t)i * q->pose_size;
    uint64_t rec = q->sec[S_POSES].ofs + (uint64_t)i * q->pose_size;
    uint32_t mask = le32(r + 4);
    struct model_channels *ch = &q->m->channels[i];
    int odd = 0;

    parents[i] = lei32(r);
    if (i < nj && q->m->joints && q->m->num_joints == nj && parents[i] != q->m->joints[i].parent &&
        iqm_want(q, RULE_IQM_POSE_PARENT_JOINT)) {
      struct mdl_loc loc = loc_bin(rec, "poses[%u].parent", i);
      char expected[40];
      snprintf(expected, sizeof expected, "%d (joints[%u].parent)", q->m->joints[i].parent, i);
      diag_emit(q->diag, RULE_IQM_POSE_PARENT_JOINT, &loc, expected, "%d", parents[i]);
    }
    if ((mask & ~valid) && iqm_want(q, RULE_IQM_POSE_MASK_BITS)) {
      struct mdl_loc loc = loc_bin(rec + 4, "poses[%u].channelmask", i);
      char expected[32];
      snprintf(expected, sizeof expected, "bits 0-%u only", nch - 1);
      diag_emit(q->diag, RULE_IQM_POSE_MASK_BITS, &loc, expected, "0x%08x", mask);
    }
    sum += popcount10(mask & valid);
    floats_finite(q, r + 8, rec + 8, nch, "poses", i, "channeloffset");
    floats_finite(q, r + sofs, rec + sofs, nch, "poses", i, "channelscale");
    for (unsigned c = 0; c < nch; c++) {
      float scale = lef32(r + sofs + 4 * c), off = lef32(r + 8 + 4 * c);
      float peak = (float)(65535.0 * (double)scale); /* exact in double: rounds once, as in float */
      if (!(mask >> c & 1) && scale != 0.0f) {
        odd = 1;
        if (iqm_want(q, RULE_IQM_POSE_CONSTANT_SCALE)) {
          struct mdl_loc loc = loc_bin(rec + sofs + 4 * c, "poses[%u].channelscale[%u]", i, c);
          diag_emit(q->diag, RULE_IQM_POSE_CONSTANT_SCALE, &loc, "0 (channel not animated)", "%.9g",
                    (double)scale);
        }
      }
      /* a float loader computes offset + sample * scale, rounding each step to float: at
       * sample 65535 neither the product nor the sum may overflow (the bottom is the offset; an
       * offset and scale of opposite signs, as for a range from -1e38 to 0, are fine) */
      if ((mask >> c & 1) && isfinite(scale) && isfinite(off) &&
          (!isfinite(peak) || !isfinite((float)((double)off + (double)peak))) &&
          iqm_want(q, RULE_IQM_POSE_CHANNEL_RANGE)) {
        struct mdl_loc loc = loc_bin(rec + sofs + 4 * c, "poses[%u].channelscale[%u]", i, c);
        diag_emit(q->diag, RULE_IQM_POSE_CHANNEL_RANGE, &loc,
                  "65535 * channelscale and channeloffset + 65535 * channelscale finite in float "
                  "(|x| <= 3.40282347e+38)", "%.9g", (double)scale);
      }
      if ((mask >> c & 1) && scale == 0.0f) {
        odd = 1;
        if (!iqm_want(q, RULE_IQM_POSE_ANIMATED_ZERO_SCALE))
          continue;
        struct mdl_loc loc = loc_bin(rec + 4, "poses[%u].channelmask", i);
        diag_emit(q->diag, RULE_IQM_POSE_ANIMATED_ZERO_SCALE, &loc,
                  "a non-zero channelscale for an animated channel", "bit %u set, channelscale[%u] 0", c, c);
        odd = 1;
      }
    }
    if (odd) {
      suspect = i;
      nsuspect++;
    }
    /* the model keeps ten v2 channels; v1 scale bits 6-8 move to 7-9, w is rebuilt per frame */
    for (unsigned c = 0; c < nch; c++) {
      unsigned d = q->version == 1 && c >= 6 ? c + 1 : c;
      ch->offset[d] = lef32(r + 8 + 4 * c);
      ch->scale[d] = lef32(r + sofs + 4 * c);
      if (mask >> c & 1)
        ch->mask |= 1u << d;
    }
  }
  q->channel_sum = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
  if (sum != HV(q, H_NUM_FRAMECHANNELS)) {
    /* one pose whose mask disagrees with its scales, and frame data of the declared size:
     * the mask is the broken field; otherwise the header count */
    const struct iqm_extent *fe = &q->sec[S_FRAMES];
    int frames_intact = fe->len == 0 || (fe->ok && iqm_anchored_end(q, fe->ofs + fe->len));
    uint64_t at = nsuspect == 1 && frames_intact ? q->sec[S_POSES].ofs + (uint64_t)suspect * q->pose_size + 4
                                                 : H_NUM_FRAMECHANNELS;
    struct mdl_loc loc = at == H_NUM_FRAMECHANNELS ? loc_bin(at, "header.num_framechannels")
                                                   : loc_bin(at, "poses[%u].channelmask", suspect);
    char expected[64];
    snprintf(expected, sizeof expected, "%llu (the channels the pose masks select)",
             (unsigned long long)sum);
    diag_emit(q->diag, RULE_IQM_FRAME_CHANNELS, &loc, expected, "%u", HV(q, H_NUM_FRAMECHANNELS));
  }
  parents_check(q, parents, n, q->sec[S_POSES].ofs, q->pose_size, 0, &rules);
}
