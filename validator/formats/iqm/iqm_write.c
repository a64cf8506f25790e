/* iqm_write.c - the IQM writer: the common model as the reference compiler lays it out.
 *
 * Section order and padding follow lsalzman/iqm iqm.cpp (iqm-notes 1.6): header, text (padded to
 * 4, padding counted), meshes, vertex array headers, zero bytes up to an 8-byte boundary, vertex
 * data (each array aligned to its component size, at least 4), triangles, adjacency, joints,
 * poses, anims, frames (padded to an even number of samples), bounds, comment (NUL-terminated,
 * padded to 4, padding counted), then the model's extensions (data, then the linked nodes; the
 * compiler writes none). Frames are quantized per pose channel over the whole strip as
 * the compiler does (iqm-notes 3.3), or with the channels the model was decoded with when those
 * reproduce every frame within the bound of 3.4. */
#include "arena.h"
#include "iqm_write.h"
#include "write_loss.h"

#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pose.h"

#define IQM_HEADER_SIZE 124
#define IQM_MAGIC "INTERQUAKEMODEL" /* the 16th byte is its NUL */

/* Header field offsets (iqm-notes 1.1). */
enum {
  H_VERSION = 16, H_FILESIZE = 20, H_FLAGS = 24, H_NUM_TEXT = 28, H_OFS_TEXT = 32,
  H_NUM_MESHES = 36, H_OFS_MESHES = 40, H_NUM_VARRAYS = 44, H_NUM_VERTEXES = 48,
  H_OFS_VARRAYS = 52, H_NUM_TRIANGLES = 56, H_OFS_TRIANGLES = 60, H_OFS_ADJACENCY = 64,
  H_NUM_JOINTS = 68, H_OFS_JOINTS = 72, H_NUM_POSES = 76, H_OFS_POSES = 80, H_NUM_ANIMS = 84,
  H_OFS_ANIMS = 88, H_NUM_FRAMES = 92, H_NUM_FRAMECHANNELS = 96, H_OFS_FRAMES = 100,
  H_OFS_BOUNDS = 104, H_NUM_COMMENT = 108, H_OFS_COMMENT = 112, H_NUM_EXTENSIONS = 116,
  H_OFS_EXTENSIONS = 120
};

static const unsigned format_size[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};

/* How one pose's channels are stored. */
struct pose_quant {
  uint32_t mask;
  float offset[TRS_CHANNELS], scale[TRS_CHANNELS];
  int reuse; /* samples come from the model's channels (round to nearest) */
  uint32_t rounded; /* quant_reuse_all: the channels animated with a scale (the rest constant) */
  double bound[TRS_CHANNELS]; /* and their bounds (quant_bound) */
  double inv[TRS_CHANNELS];   /* and 1 / scale (quant_round) */
};

/* The text section, deduplicated through an open-addressing table of offsets + 1. */
struct text_table {
  struct byte_buf text;
  uint32_t *slots;
  size_t cap;
};

static int fail(struct byte_buf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An allocation failed: out->oom says so, so the conversion ends without a verdict (exit 70)
 * rather than as the writer's refusal of the model (MDL-CNV-001, exit 1). */
static int fail_oom(struct byte_buf *out)
{
  out->oom = 1;
  snprintf(out->error, sizeof out->error, "out of memory");
  return -1;
}

static int fail(struct byte_buf *out, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out->error, sizeof out->error, fmt, ap);
  va_end(ap);
  return -1;
}

static uint64_t str_hash(const char *s)
{
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static int text_init(struct text_table *t, size_t max_strings)
{
  buf_init(&t->text);
  t->cap = 16;
  while (t->cap < 2 * max_strings)
    t->cap *= 2;
  t->slots = calloc(t->cap, sizeof *t->slots);
  buf_u8(&t->text, 0); /* text[0] is the empty string */
  return t->slots && !t->text.oom ? 0 : -1;
}

static void text_free(struct text_table *t)
{
  free(t->slots);
  buf_free(&t->text);
}

/* Offset of s in the table, adding it once; NULL and "" are offset 0. */
static uint32_t text_add(struct text_table *t, const char *s)
{
  size_t i, len;
  uint32_t off;
  if (!s || !*s || t->text.oom) /* after a failed append the table's text is incomplete */
    return 0;
  for (i = str_hash(s) & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1))
    if (!strcmp((const char *)t->text.data + t->slots[i] - 1, s))
      return t->slots[i] - 1;
  len = strlen(s);
  if (t->text.size + len + 1 > UINT32_MAX - 4) {
    t->text.oom = 1;
    return 0;
  }
  off = (uint32_t)t->text.size;
  buf_put(&t->text, s, len + 1);
  if (!t->text.oom) /* a slot names only text that is there */
    t->slots[i] = off + 1;
  return off;
}

/* struct trs is its ten channels in chan's order, with no padding: quant_reuse_all copies them
 * at once */
_Static_assert(sizeof(struct trs) == TRS_CHANNELS * sizeof(double) && offsetof(struct trs, r) == 3 * sizeof(double) &&
                   offsetof(struct trs, s) == 7 * sizeof(double),
               "struct trs holds t, r and s one after the other");

/* trs_channel, inline: the frame loops read every channel of every frame. */
static inline double chan(const struct trs *p, unsigned c)
{
  return c < 3 ? p->t[c] : c < 7 ? p->r[c - 3] : p->s[c - 7];
}

/* Channel c of a frame as the target version stores it: version 1 has no Qw channel and
 * implies w <= 0 from a unit quaternion, so its rotations are normalised and sign-flipped. */
static double frame_channel(const struct trs *p, unsigned c, int v1)
{
  double q[4];
  if (!v1)
    return chan(p, c);
  if (c < 3)
    return p->t[c];
  if (c >= 6)
    return p->s[c - 6];
  memcpy(q, p->r, sizeof q);
  quat_normalize(q);
  return q[3] > 0 ? -q[c - 3] : q[c - 3];
}

/* Whether a float loader decodes sample 65535 to a float: offset + 65535 * scale, each step
 * rounded to float (the product is exact in double, so each cast rounds once). */
static int scale_fits(float offset, float scale)
{
  float top = (float)(65535.0 * (double)scale);
  return isfinite(top) && isfinite((float)((double)offset + (double)top));
}

/* The reference compiler's encoding of one pose (iqm-notes 3.3): bounds over the strip in float,
 * offset = min, scale = (max - min) / 65535 when the range reaches 1e-10, else constant. */
static int quant_reference(const struct model *m, uint32_t j, int v1, struct pose_quant *q,
                           struct byte_buf *out)
{
  unsigned nch = v1 ? 9 : TRS_CHANNELS;
  memset(q, 0, sizeof *q);
  for (unsigned c = 0; c < nch; c++) {
    float lo = FLT_MAX, hi = -FLT_MAX, range;
    for (uint32_t f = 0; f < m->num_frames; f++) {
      double v = frame_channel(model_frame(m, f, j), c, v1);
      float x = (float)v;
      if (!isfinite(x))
        return fail(out, "frame %u pose %u channel %u: %g does not fit a float", (unsigned)f,
                    (unsigned)j, c, v);
      lo = x < lo ? x : lo;
      hi = x > hi ? x : hi;
    }
    range = hi - lo;
    if (!isfinite(range))
      return fail(out, "pose %u channel %u: range %g..%g does not fit a float", (unsigned)j, c,
                  (double)lo, (double)hi);
    q->offset[c] = lo;
    if (range >= 1e-10f) {
      float scale = range / 65535;
      /* range / 65535 rounded up can make a float loader's offset + 65535 * scale overflow
       * (a range near FLT_MAX): step the scale down, the top sample then clamps to 65535 */
      for (int k = 0; k < 4 && !scale_fits(lo, scale); k++)
        scale = nextafterf(scale, 0);
      if (!scale_fits(lo, scale))
        return fail(out, "pose %u channel %u: range %g..%g cannot be quantized in float",
                    (unsigned)j, c, (double)lo, (double)hi);
      q->mask |= 1u << c;
      q->scale[c] = scale;
    }
  }
  return 0;
}

static int float_exact(double v)
{
  return isfinite(v) && fabs(v) <= FLT_MAX && (double)(float)v == v;
}

static unsigned popcount10(uint32_t mask)
{
  unsigned n = 0;
  for (unsigned c = 0; c < TRS_CHANNELS; c++)
    n += (mask >> c) & 1;
  return n;
}

/* nearbyint(x) in the default rounding mode, without a call: adding 1.5 * 2^52 leaves no bit
 * below 1, so the sum is x rounded to an integer as nearbyint rounds it (half to even), exactly
 * while |x| < 2^51 (a larger x goes to nearbyint). Only where doubles are evaluated as doubles
 * (not the x87's wider registers, which would keep the fraction). A zero's sign may differ:
 * nothing here tells -0 from 0 (a range test, a product added, a cast). */
static inline double round_half_even(double x)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
  const double big = 6755399441055744.0; /* 1.5 * 2^52 */
  if (fabs(x) < 2251799813685248.0)     /* 2^51 */
    return (x + big) - big;
#endif
  return nearbyint(x);
}

/* round_half_even(x / scale) with a product where that gives the same, inv being 1 / scale
 * rounded: x * inv is within |x / scale| * 3 * 2^-53 of the quotient as divided, so where it is
 * below 2^20 in magnitude and further than 2^-20 from a half, both round to one integer. Else
 * (near a half, large, not finite) the division decides. */
static inline double quant_round(double x, double scale, double inv)
{
  double q = x * inv, r = round_half_even(q);
  if (fabs(q) < 1048576.0 && fabs(q - r) < 0.5 - 1.0 / 1048576.0)
    return r;
  return round_half_even(x / scale);
}

/* Keep the decoded channels when they are floats, the constant ones hold their offset exactly
 * and every animated value comes back within the bound: then a round trip is lossless.
 * ok[j] = 1 when pq[j] holds pose j's channels, 0 when the pose must be quantized afresh. Every
 * pose at once, the frames read in their order (each frame's poses one after the other, 80
 * bytes each), not one pass over all frames per pose and channel, which read a cache line
 * a sample (a frame's poses lie 80 * num_poses bytes apart). The samples the test computes are
 * the ones quant_sample gives: with samples (not NULL, room for every frame's samples of every
 * pose, in the frames section's layout) they are kept there, and when every pose is kept they
 * are that section, not computed a second time. Returns 1 when every pose is kept. */
static int quant_reuse_all(const struct model *m, struct pose_quant *pq, unsigned char *ok,
                           unsigned char *samples)
{
  uint32_t np = m->num_poses, all = 1;
  size_t stride = 0; /* the bytes of one frame's samples, every pose kept */
  for (uint32_t j = 0; j < np; j++) {
    const struct model_channels *ch = &m->channels[j];
    struct pose_quant *q = &pq[j];
    memset(q, 0, sizeof *q);
    ok[j] = !(ch->mask & ~0x3FFu);
    for (unsigned c = 0; ok[j] && c < TRS_CHANNELS; c++) {
      int animated = (ch->mask >> c) & 1;
      double off = ch->offset[c], scale = animated ? ch->scale[c] : 0;
      if (!float_exact(off) || !float_exact(scale))
        ok[j] = 0;
      q->offset[c] = (float)off;
      q->scale[c] = (float)scale;
      if (animated && scale != 0) {
        q->rounded |= 1u << c;
        q->bound[c] = quant_bound(off, scale);
        q->inv[c] = 1.0 / (double)q->scale[c];
      }
    }
    q->mask = ch->mask;
    stride += 2 * (size_t)popcount10(ch->mask);
  }
  for (uint32_t f = 0; f < m->num_frames; f++) {
    const struct trs *p = m->frames + (size_t)f * np; /* model_frame(m, f, 0) */
    unsigned char *w = samples ? samples + f * stride : NULL;
    for (uint32_t j = 0; j < np; j++, p++) {
      const struct pose_quant *q = &pq[j];
      if (!ok[j]) {
        w = NULL; /* the samples are not the section's: not kept */
        continue;
      }
      double ch[TRS_CHANNELS]; /* the pose's channels in chan's order: t, r, s */
      memcpy(ch, p, sizeof ch);
      for (unsigned c = 0; c < TRS_CHANNELS; c++) {
        double v = ch[c], off = q->offset[c], scale = q->scale[c], s = 0;
        if (!((q->rounded >> c) & 1)) { /* not animated, or a scale of 0: the offset itself */
          if (v != off) {
            ok[j] = 0;
            break;
          }
        } else {
          s = quant_round(v - off, scale, q->inv[c]);
          if (!(s >= 0 && s <= 65535) || !(fabs(off + s * scale - v) <= q->bound[c])) {
            ok[j] = 0;
            break;
          }
        }
        if (w && ((q->mask >> c) & 1)) { /* quant_sample's answer: s (0 for a scale of 0) */
          *w++ = (unsigned char)((uint16_t)s & 0xFF);
          *w++ = (unsigned char)((uint16_t)s >> 8);
        }
      }
      if (!ok[j])
        w = NULL;
    }
  }
  for (uint32_t j = 0; j < np; j++) {
    pq[j].reuse = ok[j];
    all &= ok[j];
  }
  return (int)all;
}

static uint16_t quant_sample(const struct pose_quant *q, unsigned c, double v)
{
  if (q->reuse) {
    double s = q->scale[c] == 0 ? 0 : quant_round(v - q->offset[c], q->scale[c], q->inv[c]);
    return (uint16_t)(s < 0 ? 0 : s > 65535 ? 65535 : s);
  } else {
    /* QUANTIZE of iqm.cpp: ushort(0.5f + (float(v) - offset) / scale), all in float */
    float s = 0.5f + ((float)v - q->offset[c]) / q->scale[c];
    return (uint16_t)(!(s >= 0) ? 0 : s >= 65535.0f ? 65535 : s);
  }
}

/* The base values of a pose without frames: the decoded channels, else the joint's pose. */
static void quant_static(const struct model *m, uint32_t j, int v1, struct pose_quant *q)
{
  struct trs base;
  memset(q, 0, sizeof *q);
  trs_identity(&base);
  if (m->channels && !v1) {
    for (unsigned c = 0; c < TRS_CHANNELS; c++)
      q->offset[c] = (float)m->channels[j].offset[c];
    return;
  }
  if (j < m->num_joints)
    base = *model_rest(m, j);
  for (unsigned c = 0; c < (v1 ? 9u : TRS_CHANNELS); c++)
    q->offset[c] = (float)frame_channel(&base, c, v1);
}

/* Reject what cannot be written before allocating anything; *size gets about how large the
 * file will be (the text section aside). */
static int model_check(const struct model *m, struct byte_buf *out, uint64_t *size)
{
  uint64_t total = IQM_HEADER_SIZE + 8;
  if (m->num_meshes && !m->meshes)
    return fail(out, "model has %u meshes but no mesh records", (unsigned)m->num_meshes);
  if (m->num_joints && !m->joints)
    return fail(out, "model has %u joints but no joint records", (unsigned)m->num_joints);
  if (m->num_anims && !m->anims)
    return fail(out, "model has %u animations but no records", (unsigned)m->num_anims);
  if (m->num_varrays && !m->varrays)
    return fail(out, "model has %u vertex arrays but no headers", (unsigned)m->num_varrays);
  if (m->num_triangles && !m->triangles)
    return fail(out, "model has %u triangles but no index data", (unsigned)m->num_triangles);
  if (m->num_poses && m->num_frames && !m->frames)
    return fail(out, "animation frames were not decoded (decode with keep_frames)");
  for (uint32_t i = 0; i < m->num_varrays; i++) {
    const struct model_varray *va = &m->varrays[i];
    if (va->format >= VF_COUNT)
      return fail(out, "vertex array %u: unknown component format %u", (unsigned)i,
                  (unsigned)va->format);
    if (!va->data && m->num_vertexes && va->size)
      return fail(out, "vertex array %u has no data", (unsigned)i);
    total += 8 + 20 + (uint64_t)m->num_vertexes * va->size * format_size[va->format];
  }
  total += (uint64_t)m->num_meshes * 24 + (uint64_t)m->num_triangles * 24 +
           (uint64_t)m->num_joints * 48 + (uint64_t)m->num_poses * 88 +
           (uint64_t)m->num_anims * 20 + (uint64_t)m->num_frames * 32 +
           (uint64_t)m->num_frames * m->num_poses * TRS_CHANNELS * 2 + m->comment_size + 8;
  for (uint32_t i = 0; i < m->num_extensions; i++) {
    if (m->extensions[i].size && !m->extensions[i].data)
      return fail(out, "extension %u has no data", (unsigned)i);
    total += 16 + (uint64_t)m->extensions[i].size + 3;
  }
  if (total > UINT32_MAX)
    return fail(out, "the model needs about %llu bytes; IQM files end at 4 GiB",
                (unsigned long long)total);
  *size = total;
  return 0;
}

/* IQM requires arrays ordered position < texcoord < ... < color < custom (iqm.txt:38-39);
 * other formats store them in any order. A stable sort keeps an IQM's own order untouched. */
static uint32_t varray_rank(uint32_t type)
{
  return type < VT_CUSTOM ? type : VT_CUSTOM;
}

static void varray_order(const struct model *m, uint32_t *order)
{
  for (uint32_t i = 0; i < m->num_varrays; i++) {
    uint32_t k = i, r = varray_rank(m->varrays[i].type);
    for (; k > 0 && varray_rank(m->varrays[order[k - 1]].type) > r; k--)
      order[k] = order[k - 1];
    order[k] = i;
  }
}

static int has_custom(const struct model *m)
{
  for (uint32_t i = 0; i < m->num_varrays; i++)
    if (m->varrays[i].type >= VT_CUSTOM)
      return 1;
  return 0;
}

static size_t count_strings(const struct model *m)
{
  return 2 * (size_t)m->num_meshes + m->num_joints + m->num_anims + m->num_varrays +
         m->num_extensions;
}

static void put_f32s(struct byte_buf *out, const double *v, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    buf_f32(out, (float)v[i]);
}

static void write_joint(struct byte_buf *out, const struct model_joint *jt, const struct trs *pose,
                        uint32_t name, int v1)
{
  buf_u32(out, name);
  buf_i32(out, jt->parent);
  put_f32s(out, pose->t, 3);
  if (v1) {
    double q[4];
    memcpy(q, pose->r, sizeof q);
    quat_normalize(q);
    for (int k = 0; k < 3; k++)
      buf_f32(out, (float)(q[3] > 0 ? -q[k] : q[k]));
  } else {
    put_f32s(out, pose->r, 4);
  }
  put_f32s(out, pose->s, 3);
}

static int32_t pose_parent(const struct model *m, uint32_t j)
{
  if (m->pose_parents)
    return m->pose_parents[j];
  return j < m->num_joints ? m->joints[j].parent : -1;
}

static int iqm_write_model(const struct model *m, const struct write_opts *opts, unsigned flags,
                           struct byte_buf *out)
{
  struct text_table tt;
  struct pose_quant *pq = NULL;
  uint32_t *name_mesh = NULL, *name_joint, *name_anim, *name_va, *name_ext;
  size_t base = out->size, vdata, *va_ofs = NULL;
  uint32_t *order = NULL;
  unsigned char *reused = NULL, *samples = NULL;
  uint32_t version = 2, framechannels = 0, nch;
  uint64_t nsamples, total = 0;
  int v1, reuse, rc = -1;

  out->error[0] = 0;
  if (opts && opts->version && *opts->version) {
    if (!strcmp(opts->version, "1"))
      version = 1;
    else if (strcmp(opts->version, "2"))
      return fail(out, "IQM has versions 1 and 2, not '%s'", opts->version);
  }
  v1 = version == 1;
  nch = v1 ? 9 : TRS_CHANNELS;
  if (base != 0)
    return fail(out, "the IQM writer needs an empty buffer (offsets count from the header)");
  if (model_check(m, out, &total) < 0)
    return -1;

  /* Names first: every record refers to the finished text section. */
  if (text_init(&tt, count_strings(m)) < 0) {
    text_free(&tt);
    return fail_oom(out);
  }
  name_mesh = calloc(count_strings(m) + 1, sizeof *name_mesh);
  va_ofs = calloc((size_t)m->num_varrays + 1, sizeof *va_ofs);
  order = calloc((size_t)m->num_varrays + 1, sizeof *order);
  pq = calloc((size_t)m->num_poses + 1, sizeof *pq);
  if (!name_mesh || !va_ofs || !order || !pq) {
    fail_oom(out);
    goto done;
  }
  name_joint = name_mesh + 2 * (size_t)m->num_meshes;
  name_anim = name_joint + m->num_joints;
  name_va = name_anim + m->num_anims;
  name_ext = name_va + m->num_varrays;
  for (uint32_t i = 0; i < m->num_meshes; i++) {
    name_mesh[2 * (size_t)i] = text_add(&tt, m->meshes[i].name);
    name_mesh[2 * (size_t)i + 1] = text_add(&tt, m->meshes[i].material);
  }
  for (uint32_t i = 0; i < m->num_varrays; i++)
    name_va[i] = m->varrays[i].type >= VT_CUSTOM ? text_add(&tt, m->varrays[i].name) : 0;
  for (uint32_t i = 0; i < m->num_joints; i++)
    name_joint[i] = text_add(&tt, m->joints[i].name);
  for (uint32_t i = 0; i < m->num_anims; i++)
    name_anim[i] = text_add(&tt, m->anims[i].name);
  for (uint32_t i = 0; i < m->num_extensions; i++)
    name_ext[i] = text_add(&tt, m->extensions[i].name ? m->extensions[i].name : "");
  if (tt.text.oom) {
    fail(out, "text section too large or out of memory");
    goto done;
  }

  reuse = m->num_frames && m->channels && !v1 && !(flags & IQM_WRITE_REQUANTIZE);
  if (reuse) {
    uint64_t room = 0;
    if (!(reused = calloc((size_t)m->num_poses + 1, 1))) {
      fail_oom(out);
      goto done;
    }
    for (uint32_t j = 0; j < m->num_poses; j++)
      room += 2 * (uint64_t)popcount10(m->channels[j].mask);
    room *= m->num_frames;
    /* the frames section's size, which the output holds anyway (a size_t too small for it:
     * the samples are computed as they are written, as for a pose quantized afresh) */
    samples = room && room <= SIZE_MAX ? malloc((size_t)room) : NULL;
    if (room && room <= SIZE_MAX && !samples) {
      fail_oom(out);
      goto done;
    }
    if (!quant_reuse_all(m, pq, reused, samples)) {
      free(samples);
      samples = NULL;
    }
  }
  for (uint32_t j = 0; j < m->num_poses; j++) {
    if (!m->num_frames)
      quant_static(m, j, v1, &pq[j]);
    else if (reuse && reused[j])
      ;
    else if (quant_reference(m, j, v1, &pq[j], out) < 0)
      goto done;
    framechannels += popcount10(pq[j].mask);
  }
  nsamples = (uint64_t)framechannels * m->num_frames;

  /* one allocation: growing by doubling would copy (and page in) what is written so far */
  buf_reserve(out, (size_t)total + tt.text.size + 4);

  /* 1. header, patched at the end */
  buf_put(out, IQM_MAGIC, sizeof IQM_MAGIC);
  buf_zero(out, IQM_HEADER_SIZE - sizeof IQM_MAGIC);
  buf_patch_u32(out, H_VERSION, version);
  buf_patch_u32(out, H_FLAGS, m->flags);

  /* 2. text: only when some record names a string; NUL-padded to 4, padding counted */
  if (m->num_meshes || m->num_joints || m->num_anims || has_custom(m)) {
    buf_align(&tt.text, 4);
    buf_patch_u32(out, H_NUM_TEXT, (uint32_t)tt.text.size);
    buf_patch_u32(out, H_OFS_TEXT, (uint32_t)out->size);
    buf_put(out, tt.text.data, tt.text.size);
  }

  /* 3. meshes */
  buf_patch_u32(out, H_NUM_MESHES, m->num_meshes);
  if (m->num_meshes)
    buf_patch_u32(out, H_OFS_MESHES, (uint32_t)out->size);
  for (uint32_t i = 0; i < m->num_meshes; i++) {
    const struct model_mesh *me = &m->meshes[i];
    buf_u32(out, name_mesh[2 * (size_t)i]);
    buf_u32(out, name_mesh[2 * (size_t)i + 1]);
    buf_u32(out, me->first_vertex);
    buf_u32(out, me->num_vertexes);
    buf_u32(out, me->first_triangle);
    buf_u32(out, me->num_triangles);
  }

  /* 4. vertex array headers; their data offsets are patched once known */
  buf_patch_u32(out, H_NUM_VARRAYS, m->num_varrays);
  buf_patch_u32(out, H_NUM_VERTEXES, m->num_vertexes);
  if (m->num_varrays)
    buf_patch_u32(out, H_OFS_VARRAYS, (uint32_t)out->size);
  varray_order(m, order);
  for (uint32_t k = 0; k < m->num_varrays; k++) {
    uint32_t i = order[k];
    const struct model_varray *va = &m->varrays[i];
    /* a custom array without a name gets the empty string, as an IQM whose type is 16 */
    buf_u32(out, va->type >= VT_CUSTOM ? VT_CUSTOM + name_va[i] : va->type);
    buf_u32(out, va->flags);
    buf_u32(out, va->format);
    buf_u32(out, va->size);
    va_ofs[i] = out->size;
    buf_u32(out, 0);
  }

  /* 5. valign: vertex data starts 8-aligned, even when there is none */
  buf_align(out, 8);

  /* 6. vertex data, each array aligned to max(component size, 4) */
  vdata = out->size;
  for (uint32_t k = 0; k < m->num_varrays; k++) {
    uint32_t i = order[k];
    const struct model_varray *va = &m->varrays[i];
    size_t fsize = format_size[va->format], align = fsize > 4 ? fsize : 4;
    size_t len = (size_t)m->num_vertexes * va->size * fsize;
    if ((out->size - vdata) % align)
      buf_zero(out, align - (out->size - vdata) % align);
    buf_patch_u32(out, va_ofs[i], (uint32_t)out->size);
    buf_put_ref(out, va->data, len); /* the model's memory outlives out (iqm_write_ex) */
  }
  buf_align(out, 4);

  /* 7, 8. triangles and adjacency */
  buf_patch_u32(out, H_NUM_TRIANGLES, m->num_triangles);
  if (m->num_triangles) {
    buf_patch_u32(out, H_OFS_TRIANGLES, (uint32_t)out->size);
    buf_put_ref(out, m->triangles, (size_t)m->num_triangles * 12);
    if (m->adjacency) {
      buf_patch_u32(out, H_OFS_ADJACENCY, (uint32_t)out->size);
      buf_put_ref(out, m->adjacency, (size_t)m->num_triangles * 12);
    }
  }

  /* 9. joints (version 1: 44 bytes, w implied) */
  buf_patch_u32(out, H_NUM_JOINTS, m->num_joints);
  if (m->num_joints)
    buf_patch_u32(out, H_OFS_JOINTS, (uint32_t)out->size);
  for (uint32_t i = 0; i < m->num_joints; i++)
    write_joint(out, &m->joints[i], model_rest(m, i), name_joint[i], v1);

  /* 10. poses (version 1: 9 channels, 80 bytes) */
  buf_patch_u32(out, H_NUM_POSES, m->num_poses);
  if (m->num_poses)
    buf_patch_u32(out, H_OFS_POSES, (uint32_t)out->size);
  for (uint32_t j = 0; j < m->num_poses; j++) {
    buf_i32(out, pose_parent(m, j));
    buf_u32(out, pq[j].mask);
    for (unsigned c = 0; c < nch; c++)
      buf_f32(out, pq[j].offset[c]);
    for (unsigned c = 0; c < nch; c++)
      buf_f32(out, pq[j].scale[c]);
  }

  /* 11. anims */
  buf_patch_u32(out, H_NUM_ANIMS, m->num_anims);
  if (m->num_anims)
    buf_patch_u32(out, H_OFS_ANIMS, (uint32_t)out->size);
  for (uint32_t i = 0; i < m->num_anims; i++) {
    const struct model_anim *a = &m->anims[i];
    buf_u32(out, name_anim[i]);
    buf_u32(out, a->first_frame);
    buf_u32(out, a->num_frames);
    buf_f32(out, (float)a->framerate);
    buf_u32(out, a->flags);
  }

  /* 12. frames: for each frame, pose and animated channel one sample; even count */
  buf_patch_u32(out, H_NUM_FRAMES, m->num_frames);
  buf_patch_u32(out, H_NUM_FRAMECHANNELS, framechannels);
  if (nsamples) {
    const struct trs *p = m->frames;
    unsigned char *w;
    buf_patch_u32(out, H_OFS_FRAMES, (uint32_t)out->size);
    w = buf_extend(out, (size_t)nsamples * 2); /* one reservation, not one a sample */
    if (w && samples) { /* every pose kept its channels: the samples its test computed */
      memcpy(w, samples, (size_t)nsamples * 2);
      w = NULL;
    }
    for (uint32_t f = 0; w && f < m->num_frames; f++) {
      for (uint32_t j = 0; j < m->num_poses; j++, p++) { /* model_frame(m, f, j) */
        for (unsigned c = 0; c < nch; c++)
          if ((pq[j].mask >> c) & 1) {
            uint16_t v = quant_sample(&pq[j], c, frame_channel(p, c, v1));
            *w++ = (unsigned char)v;
            *w++ = (unsigned char)(v >> 8);
          }
      }
    }
    if (nsamples & 1)
      buf_u16(out, 0);
  }

  /* 13. bounds, one per frame */
  if (m->bounds && m->num_frames) {
    buf_patch_u32(out, H_OFS_BOUNDS, (uint32_t)out->size);
    for (uint32_t f = 0; f < m->num_frames; f++) {
      const struct model_bounds *b = &m->bounds[f];
      put_f32s(out, b->bbmin, 3);
      put_f32s(out, b->bbmax, 3);
      buf_f32(out, (float)b->xyradius);
      buf_f32(out, (float)b->radius);
    }
  }

  /* 14. comment: NUL-terminated, padded to 4, padding counted */
  if (m->comment_size) {
    size_t start = out->size;
    buf_patch_u32(out, H_OFS_COMMENT, (uint32_t)start);
    buf_put(out, m->comment, m->comment_size);
    if (m->comment[m->comment_size - 1] != 0)
      buf_u8(out, 0);
    buf_align(out, 4);
    buf_patch_u32(out, H_NUM_COMMENT, (uint32_t)(out->size - start));
  }

  /* 15. extensions (the compiler writes none): each one's data padded to 4, then the nodes,
   * linked in the model's order */
  if (m->num_extensions) {
    size_t data_at = out->size, nodes;
    for (uint32_t i = 0; i < m->num_extensions; i++) {
      if (m->extensions[i].size)
        buf_put(out, m->extensions[i].data, m->extensions[i].size);
      buf_align(out, 4);
    }
    nodes = out->size;
    buf_patch_u32(out, H_NUM_EXTENSIONS, m->num_extensions);
    buf_patch_u32(out, H_OFS_EXTENSIONS, (uint32_t)nodes);
    for (uint32_t i = 0; i < m->num_extensions; i++) {
      uint32_t size = m->extensions[i].size;
      buf_u32(out, name_ext[i]);
      buf_u32(out, size);
      buf_u32(out, size ? (uint32_t)data_at : 0);
      buf_u32(out, i + 1 < m->num_extensions ? (uint32_t)(nodes + 16 * ((size_t)i + 1)) : 0);
      data_at += ((size_t)size + 3) / 4 * 4;
    }
  }

  if (out->oom) {
    fail_oom(out);
    goto done;
  }
  if (out->size > UINT32_MAX) {
    fail(out, "the file would be %zu bytes; IQM files end at 4 GiB", out->size);
    goto done;
  }
  buf_patch_u32(out, H_FILESIZE, (uint32_t)out->size);
  rc = 0;
done:
  free(samples);
  free(reused);
  free(pq);
  free(order);
  free(va_ofs);
  free(name_mesh);
  text_free(&tt);
  return rc;
}

int iqm_write_ex(const struct model *m, const struct write_opts *opts, unsigned flags,
                 struct byte_buf *out)
{
  struct arena a;
  struct model fit;
  int rc, gather = out->gather;
  if (opts && opts->foreign) { /* what the source held beyond the model; a model of nothing */
    write_loss_unheld(opts->losses, m, "IQM");
    if (write_refuse_nothing(opts->losses, m, out, "IQM") < 0)
      return -1;
  }
  arena_init(&a);
  write_loss_tags_lods(opts ? opts->losses : NULL, m, "IQM", 0);
  write_loss_texture_names(opts ? opts->losses : NULL, m, "IQM");
  rc = opts && opts->foreign ? iqm_model_fit(m, &a, &fit, opts->losses) : 0;
  if (rc < 0) {
    out->oom = 1;
    snprintf(out->error, sizeof out->error, "out of memory");
  } else {
    if (rc)
      out->gather = 0; /* the fitted model's arrays are freed below: copy them */
    rc = iqm_write_model(rc ? &fit : m, opts, flags, out);
    out->gather = gather;
  }
  arena_free(&a);
  return rc;
}

int iqm_write(const struct model *m, const struct write_opts *opts, struct byte_buf *out)
{
  return iqm_write_ex(m, opts, 0, out);
}
