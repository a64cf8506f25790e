/* test_writer_layout.c - the IQM writer's bytes, read back by hand (no decoder involved):
 * section order and padding as the reference compiler (iqm-notes 1.6), deduplicated text,
 * the compiler's quantization on hand-made channels, reuse of decoded channels, version 1,
 * vertex arrays put in IQM's order, refusals; and the frame comparison (model_diff) that judges round trips. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iqm_write.h"
#include "model_diff.h"
#include "pose.h"
#include "rt_model.h"

static int failures;

#define CHECK(cond, ...)                                         \
  do {                                                           \
    if (!(cond)) {                                               \
      failures++;                                                \
      fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                              \
      fputc('\n', stderr);                                       \
    }                                                            \
  } while (0)

static uint32_t rd32(const struct byte_buf *b, size_t off)
{
  if (off + 4 > b->size)
    return 0xDEADBEEF;
  return (uint32_t)b->data[off] | (uint32_t)b->data[off + 1] << 8 |
         (uint32_t)b->data[off + 2] << 16 | (uint32_t)b->data[off + 3] << 24;
}

static uint16_t rd16(const struct byte_buf *b, size_t off)
{
  if (off + 2 > b->size)
    return 0xBEEF;
  return (uint16_t)(b->data[off] | b->data[off + 1] << 8);
}

static float rdf(const struct byte_buf *b, size_t off)
{
  uint32_t u = rd32(b, off);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static const char *text_at(const struct byte_buf *b, uint32_t ref)
{
  uint32_t ofs = rd32(b, 32), num = rd32(b, 28);
  if (ref >= num || !memchr(b->data + ofs + ref, 0, num - ref))
    return "<bad reference>";
  return (const char *)b->data + ofs + ref;
}

static size_t up(size_t v, size_t a)
{
  return (v + a - 1) / a * a;
}

static void test_empty(void)
{
  struct model m;
  struct byte_buf b;
  model_init(&m);
  buf_init(&b);
  CHECK(iqm_write(&m, NULL, &b) == 0, "%s", b.error);
  CHECK(b.size == 128, "empty IQM is %zu bytes, the compiler writes 128", b.size);
  CHECK(b.size >= 16 && !memcmp(b.data, "INTERQUAKEMODEL\0", 16), "magic");
  CHECK(rd32(&b, 16) == 2 && rd32(&b, 20) == b.size, "version %u filesize %u", rd32(&b, 16), rd32(&b, 20));
  for (size_t off = 24; off < 124; off += 4)
    CHECK(rd32(&b, off) == 0, "header word at %zu is %u", off, rd32(&b, off));
  buf_free(&b);
  model_free(&m);
}

static const unsigned fsize[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};

static void test_full_layout(void)
{
  struct rt_spec spec = {0};
  struct model m;
  struct byte_buf b;
  size_t pos, end;
  uint32_t sum = 0, nj, np, na, nf, fc, nt, nva, nmesh;

  spec.seed = 7;
  spec.meshes = 3;
  spec.grid_w = 5;
  spec.grid_h = 4;
  spec.adjacency = 1;
  spec.customs = 1;
  spec.color = 1;
  spec.joints = spec.poses = 7;
  spec.anims = 2;
  spec.frames_per_anim = 9;
  spec.bounds = 1;
  spec.comment = "written by test_writer_layout"; /* 29 bytes: a NUL and 2 pad bytes follow */
  model_init(&m);
  buf_init(&b);
  CHECK(rt_model_build(&m, &spec) == 0, "model");
  CHECK(iqm_write(&m, NULL, &b) == 0, "%s", b.error);
  CHECK(rd32(&b, 20) == b.size, "filesize %u, buffer %zu", rd32(&b, 20), b.size);
  nmesh = rd32(&b, 36); nva = rd32(&b, 44); nt = rd32(&b, 56); nj = rd32(&b, 68);
  np = rd32(&b, 76); na = rd32(&b, 84); nf = rd32(&b, 92); fc = rd32(&b, 96);
  CHECK(nmesh == 3 && nva == m.num_varrays && nt == m.num_triangles && nj == 7 && np == 7 &&
        na == 2 && nf == 18, "counts %u %u %u %u %u %u %u", nmesh, nva, nt, nj, np, na, nf);
  CHECK(rd32(&b, 48) == m.num_vertexes, "num_vertexes");

  /* text right after the header, padded to 4 with the padding counted */
  CHECK(rd32(&b, 32) == 124, "ofs_text %u", rd32(&b, 32));
  CHECK(rd32(&b, 28) % 4 == 0 && b.data[124] == 0 && b.data[124 + rd32(&b, 28) - 1] == 0,
        "num_text %u", rd32(&b, 28));
  pos = 124 + rd32(&b, 28);
  CHECK(rd32(&b, 40) == pos, "ofs_meshes %u, expected %zu", rd32(&b, 40), pos);
  for (uint32_t i = 0; i < nmesh; i++) {
    size_t r = pos + 24 * (size_t)i;
    CHECK(!strcmp(text_at(&b, rd32(&b, r)), m.meshes[i].name), "mesh %u name", i);
    CHECK(!strcmp(text_at(&b, rd32(&b, r + 4)), m.meshes[i].material), "mesh %u material", i);
    CHECK(rd32(&b, r + 8) == m.meshes[i].first_vertex && rd32(&b, r + 20) == m.meshes[i].num_triangles,
          "mesh %u ranges", i);
  }
  /* meshes 0 and 2 share a material: one string */
  CHECK(rd32(&b, pos + 4) == rd32(&b, pos + 48 + 4), "material not deduplicated");
  CHECK(rd32(&b, pos + 4) != rd32(&b, pos + 24 + 4), "distinct materials share an offset");
  pos += 24 * (size_t)nmesh;
  CHECK(rd32(&b, 52) == pos, "ofs_vertexarrays %u, expected %zu", rd32(&b, 52), pos);

  /* vertex data 8-aligned after the headers, each array aligned to max(size, 4) */
  end = up(pos + 20 * (size_t)nva, 8);
  for (uint32_t i = 0; i < nva; i++) {
    size_t h = pos + 20 * (size_t)i;
    uint32_t type = rd32(&b, h), format = rd32(&b, h + 8), size = rd32(&b, h + 12);
    uint32_t ofs = rd32(&b, h + 16);
    size_t al = format < VF_COUNT && fsize[format] > 4 ? 8 : 4;
    const struct model_varray *va = &m.varrays[i];
    CHECK(format == va->format && size == va->size, "array %u format/size", i);
    if (va->type >= VT_CUSTOM)
      CHECK(type >= 16 && !strcmp(text_at(&b, type - 16), va->name), "custom array %u name", i);
    else
      CHECK(type == va->type, "array %u type %u", i, type);
    end = up(end, al);
    CHECK(ofs == end, "array %u at %u, expected %zu", i, ofs, end);
    CHECK(ofs % al == 0, "array %u misaligned", i);
    if (format < VF_COUNT && ofs + (size_t)m.num_vertexes * size * fsize[format] <= b.size)
      CHECK(!memcmp(b.data + ofs, va->data, (size_t)m.num_vertexes * size * fsize[format]),
            "array %u data", i);
    end += (size_t)m.num_vertexes * size * (format < VF_COUNT ? fsize[format] : 0);
  }
  end = up(end, 4);
  CHECK(rd32(&b, 60) == end, "ofs_triangles %u, expected %zu", rd32(&b, 60), end);
  CHECK(rd32(&b, 64) == end + 12 * (size_t)nt, "ofs_adjacency %u", rd32(&b, 64));
  end += 24 * (size_t)nt;
  CHECK(rd32(&b, 72) == end, "ofs_joints %u, expected %zu", rd32(&b, 72), end);
  for (uint32_t j = 0; j < nj; j++) {
    size_t r = end + 48 * (size_t)j;
    CHECK(!strcmp(text_at(&b, rd32(&b, r)), m.joints[j].name), "joint %u name", j);
    CHECK((int32_t)rd32(&b, r + 4) == m.joints[j].parent, "joint %u parent", j);
    CHECK(rdf(&b, r + 20 + 12) == (float)model_rest(&m, j)->r[3], "joint %u qw", j);
  }
  end += 48 * (size_t)nj;
  CHECK(rd32(&b, 80) == end, "ofs_poses %u, expected %zu", rd32(&b, 80), end);
  for (uint32_t j = 0; j < np; j++) {
    size_t r = end + 88 * (size_t)j;
    uint32_t mask = rd32(&b, r + 4);
    CHECK(mask < 1024, "pose %u mask %#x", j, mask);
    for (unsigned c = 0; c < 10; c++) {
      if ((mask >> c) & 1)
        sum++;
      else
        CHECK(rdf(&b, r + 48 + 4 * c) == 0, "pose %u constant channel %u has a scale", j, c);
    }
  }
  CHECK(fc == sum && fc > 0, "num_framechannels %u, popcounts %u", fc, sum);
  end += 88 * (size_t)np;
  CHECK(rd32(&b, 88) == end, "ofs_anims %u, expected %zu", rd32(&b, 88), end);
  CHECK(!strcmp(text_at(&b, rd32(&b, end + 20)), "anim1") && rd32(&b, end + 20 + 4) == 9 &&
        rd32(&b, end + 20 + 16) == 1, "anim 1 record");
  end += 20 * (size_t)na;
  CHECK(rd32(&b, 100) == end, "ofs_frames %u, expected %zu", rd32(&b, 100), end);
  end += up(2 * (size_t)fc * nf, 4);
  CHECK(rd32(&b, 104) == end, "ofs_bounds %u, expected %zu", rd32(&b, 104), end);
  CHECK(rdf(&b, end + 32 + 28) == (float)m.bounds[1].radius, "bounds[1].radius");
  end += 32 * (size_t)nf;
  CHECK(rd32(&b, 112) == end && rd32(&b, 108) == 32, "comment at %u (%u bytes), expected %zu, 32",
        rd32(&b, 112), rd32(&b, 108), end);
  CHECK(end + 32 <= b.size && !memcmp(b.data + end, spec.comment, 30), "comment bytes");
  CHECK(end + 32 == b.size, "file ends at %zu, expected %zu", b.size, end + 32);
  CHECK(rd32(&b, 116) == 0 && rd32(&b, 120) == 0 && rd32(&b, 24) == 0, "flags and extensions");

  /* version 1: 44-byte joints with w implied negative, 80-byte poses with 9 channels */
  {
    struct write_opts o = {"1", NULL, NULL, 0};
    struct byte_buf b1;
    buf_init(&b1);
    CHECK(iqm_write(&m, &o, &b1) == 0, "%s", b1.error);
    CHECK(rd32(&b1, 16) == 1 && rd32(&b1, 20) == b1.size, "v1 version/filesize");
    CHECK(rd32(&b1, 80) - rd32(&b1, 72) == 44 * nj, "v1 joints are 44 bytes");
    CHECK(rd32(&b1, 88) - rd32(&b1, 80) == 80 * np, "v1 poses are 80 bytes");
    for (uint32_t j = 0; j < nj; j++) {
      size_t r = rd32(&b1, 72) + 44 * (size_t)j;
      double q[4], x = rdf(&b1, r + 20), y = rdf(&b1, r + 24), z = rdf(&b1, r + 28);
      double w = -sqrt(fmax(0, 1 - (x * x + y * y + z * z)));
      memcpy(q, model_rest(&m, j)->r, sizeof q);
      quat_normalize(q);
      if (q[3] > 0)
        for (int k = 0; k < 4; k++)
          q[k] = -q[k];
      CHECK(fabs(x - q[0]) < 1e-6 && fabs(y - q[1]) < 1e-6 && fabs(z - q[2]) < 1e-6 &&
            fabs(w - q[3]) < 1e-3, "v1 joint %u rotation", j);
    }
    for (uint32_t j = 0; j < np; j++)
      CHECK(rd32(&b1, rd32(&b1, 80) + 80 * (size_t)j + 4) < 512, "v1 pose %u mask", j);
    buf_free(&b1);
  }
  buf_free(&b);
  model_free(&m);
}

/* One pose, three frames, by hand: Tx 0, 0.5, 1 -> offset 0, scale 1/65535, samples 0, 32768
 * (0.5f + 32767.5f), 65535; Ty varies by 5e-11 < 1e-10 -> constant; the rest constant. */
static void test_quantization(void)
{
  struct model m;
  struct byte_buf b;
  struct trs fr[3];
  int32_t parent = -1;
  size_t pose, frames;
  model_init(&m);
  for (int f = 0; f < 3; f++) {
    trs_identity(&fr[f]);
    fr[f].r[3] = -1;
    fr[f].t[0] = 0.5 * f;
    fr[f].t[1] = 2 + (f == 1 ? 5e-11 : 0);
    fr[f].t[2] = -1;
  }
  m.num_poses = 1;
  m.pose_parents = &parent;
  m.num_frames = 3;
  m.frames = fr;
  buf_init(&b);
  CHECK(iqm_write(&m, NULL, &b) == 0, "%s", b.error);
  pose = rd32(&b, 80);
  frames = rd32(&b, 100);
  CHECK(rd32(&b, 96) == 1 && rd32(&b, pose + 4) == 1, "framechannels %u mask %#x", rd32(&b, 96),
        rd32(&b, pose + 4));
  CHECK(rdf(&b, pose + 8) == 0 && rdf(&b, pose + 48) == 1.0f / 65535, "Tx offset %g scale %g",
        (double)rdf(&b, pose + 8), (double)rdf(&b, pose + 48));
  CHECK(rdf(&b, pose + 12) == 2 && rdf(&b, pose + 52) == 0, "Ty constant");
  CHECK(rdf(&b, pose + 16) == -1 && rdf(&b, pose + 8 + 24) == -1 && rdf(&b, pose + 8 + 28) == 1,
        "constant offsets Tz, Qw, Sx");
  CHECK(rd16(&b, frames) == 0 && rd16(&b, frames + 2) == 32768 && rd16(&b, frames + 4) == 65535,
        "samples %u %u %u", rd16(&b, frames), rd16(&b, frames + 2), rd16(&b, frames + 4));
  CHECK(b.size == frames + 8, "3 samples padded to 4: size %zu, frames at %zu", b.size, frames);

  /* decoded channels are reused when they reproduce the frames: exact samples */
  {
    struct model_channels ch;
    float scale = 1.0f / 65535;
    memset(&ch, 0, sizeof ch);
    ch.mask = 1;
    ch.scale[0] = scale;
    for (unsigned c = 0; c < 10; c++)
      ch.offset[c] = (float)trs_channel(&fr[0], c);
    fr[1].t[1] = 2;
    fr[0].t[0] = 0;
    fr[1].t[0] = 12345 * (double)scale;
    fr[2].t[0] = 65535 * (double)scale;
    m.channels = &ch;
    buf_free(&b);
    CHECK(iqm_write(&m, NULL, &b) == 0, "%s", b.error);
    frames = rd32(&b, 100);
    CHECK(rd16(&b, frames + 2) == 12345 && rdf(&b, rd32(&b, 80) + 48) == scale, "reused sample %u",
          rd16(&b, frames + 2));
    /* forced requantization recomputes the scale from the strip */
    buf_free(&b);
    CHECK(iqm_write_ex(&m, NULL, IQM_WRITE_REQUANTIZE, &b) == 0, "%s", b.error);
    CHECK(rdf(&b, rd32(&b, 80) + 48) == (float)(65535 * scale) / 65535, "requantized scale");
    /* channels that do not match the frames (Ty claimed constant) are not reused */
    fr[1].t[1] = 3;
    buf_free(&b);
    CHECK(iqm_write(&m, NULL, &b) == 0, "%s", b.error);
    CHECK(rd32(&b, rd32(&b, 80) + 4) == 3 && rd32(&b, 96) == 2, "stale channels reused: mask %#x",
          rd32(&b, rd32(&b, 80) + 4));
    m.channels = NULL;
  }
  buf_free(&b);
  m.frames = NULL;
  m.pose_parents = NULL;
  model_free(&m);
}

static void test_refusals(void)
{
  struct model m;
  struct byte_buf b;
  struct write_opts o = {"3", NULL, NULL, 0};
  struct model_varray va;
  unsigned char data[4] = {0};
  model_init(&m);
  buf_init(&b);
  CHECK(iqm_write(&m, &o, &b) < 0 && strstr(b.error, "version"), "version 3 accepted");
  buf_free(&b);
  m.num_poses = 2;
  m.num_frames = 5; /* frames not decoded */
  CHECK(iqm_write(&m, NULL, &b) < 0 && strstr(b.error, "frames"), "missing frames accepted");
  buf_free(&b);
  m.num_poses = m.num_frames = 0;
  memset(&va, 0, sizeof va);
  va.type = VT_CUSTOM;
  va.format = VF_UBYTE;
  va.size = 4;
  va.data = data;
  m.num_vertexes = 1;
  m.num_varrays = 1;
  m.varrays = &va;
  CHECK(iqm_write(&m, NULL, &b) == 0 && rd32(&b, rd32(&b, 52)) == 16 && rd32(&b, 28) == 4,
        "a nameless custom array is type 16 (the empty string): %s", b.error);
  buf_free(&b);
  va.format = 9;
  va.type = VT_POSITION;
  CHECK(iqm_write(&m, NULL, &b) < 0 && strstr(b.error, "format"), "format 9 accepted");
  buf_free(&b);
  m.varrays = NULL;
  model_free(&m);
}

/* Arrays stored out of IQM's order by another format are written in the order IQM requires. */
static void test_varray_order(void)
{
  static const uint32_t types[4] = {VT_NORMAL, VT_CUSTOM, VT_POSITION, VT_TEXCOORD};
  static const uint32_t want[4] = {VT_POSITION, VT_TEXCOORD, VT_NORMAL, VT_CUSTOM};
  float data[4][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}};
  struct model_varray va[4];
  struct model m;
  struct byte_buf b;
  model_init(&m);
  memset(va, 0, sizeof va);
  for (int i = 0; i < 4; i++) {
    va[i].type = types[i];
    va[i].name = types[i] == VT_CUSTOM ? "extra" : NULL;
    va[i].format = VF_FLOAT;
    va[i].size = 3;
    va[i].data = (const unsigned char *)data[i];
  }
  m.num_vertexes = 1;
  m.num_varrays = 4;
  m.varrays = va;
  buf_init(&b);
  CHECK(iqm_write(&m, NULL, &b) == 0, "%s", b.error);
  for (uint32_t k = 0; k < 4; k++) {
    size_t h = rd32(&b, 52) + 20 * (size_t)k;
    uint32_t type = rd32(&b, h), ofs = rd32(&b, h + 16);
    CHECK(type == want[k] || (want[k] == VT_CUSTOM && type >= 16 && !strcmp(text_at(&b, type - 16), "extra")),
          "array %u has type %u, expected %u", k, type, want[k]);
    for (int i = 0; i < 4; i++)
      if (types[i] == want[k])
        CHECK(rdf(&b, ofs) == data[i][0] && rdf(&b, ofs + 8) == data[i][2], "array %u data", k);
  }
  buf_free(&b);
  m.varrays = NULL;
  model_free(&m);
}

/* model_diff with b's bound (MODEL_DIFF_FRAMES_SECOND), the judge of every IQM round trip,
 * must see an error beyond the bound. Returns the number of differences. */
static unsigned frames_diff(const struct model *a, const struct model *b, struct model_diff_result *e)
{
  struct model_diff_opts o = {MODEL_DIFF_FRAMES, MODEL_DIFF_REAL_BITS, MODEL_DIFF_REAL_BITS,
                              MODEL_DIFF_REAL_BITS, MODEL_DIFF_FRAMES_SECOND};
  model_diff(a, b, &o, NULL, NULL, e);
  return e->mismatches;
}

static void test_frames_diff(void)
{
  struct model a, b;
  struct trs fa[2], fb[2];
  struct model_channels ch[1];
  struct model_diff_result e;
  double bound;
  model_init(&a);
  model_init(&b);
  for (int f = 0; f < 2; f++) {
    trs_identity(&fa[f]);
    fa[f].t[0] = f;
  }
  memcpy(fb, fa, sizeof fb);
  memset(ch, 0, sizeof ch);
  ch[0].mask = 1;
  ch[0].scale[0] = 1.0 / 65535;
  ch[0].offset[3] = ch[0].offset[4] = ch[0].offset[5] = 0;
  a.num_frames = b.num_frames = 2;
  a.num_poses = b.num_poses = 1;
  a.frames = fa;
  b.frames = fb;
  b.channels = ch;
  bound = quant_bound(0, 1.0 / 65535);
  CHECK(frames_diff(&a, &b, &e) == 0 && e.frame_ratio == 0, "equal strips: ratio %g", e.frame_ratio);
  fb[1].t[0] = 1 + 0.5 * bound;
  CHECK(frames_diff(&a, &b, &e) == 0 && fabs(e.frame_ratio - 0.5) < 1e-9 && e.frame == 1 &&
          e.channel == 0,
        "half the bound: ratio %g frame %u channel %u", e.frame_ratio, (unsigned)e.frame, e.channel);
  fb[1].t[0] = 1 + 2 * bound;
  CHECK(frames_diff(&a, &b, &e) == 1 && e.frame_ratio > 1.99, "twice the bound: ratio %g",
        e.frame_ratio);
  fb[1].t[0] = 1;
  fb[0].s[2] = 1 + 1e-9; /* constant channel: bound 1e-10 + float rounding */
  CHECK(frames_diff(&a, &b, &e) == 1 && e.frame_ratio > 1 && e.channel == 9,
        "constant channel: ratio %g", e.frame_ratio);
  fb[0].s[2] = NAN;
  CHECK(frames_diff(&a, &b, &e) == 1 && isinf(e.frame_ratio), "NaN: ratio %g", e.frame_ratio);
  fb[0].s[2] = 1;
  b.num_frames = 1;
  CHECK(frames_diff(&a, &b, &e) > 0, "shape mismatch accepted");
  b.num_frames = 2;
  b.channels = NULL;
  CHECK(frames_diff(&a, &b, &e) > 0, "missing channels accepted");
  a.frames = b.frames = NULL;
  model_free(&a);
  model_free(&b);
}

int main(void)
{
  test_empty();
  test_full_layout();
  test_quantization();
  test_refusals();
  test_varray_order();
  test_frames_diff();
  if (failures) {
    fprintf(stderr, "test_writer_layout: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_writer_layout: all checks passed\n");
  return 0;
}
