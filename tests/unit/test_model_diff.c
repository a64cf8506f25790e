/* test_model_diff.c - model_diff must find a change in every part it compares, only there, and
 * nothing in an equal copy; and each option must move its line where it says. */
#include <math.h>
#include <string.h>

#include "model_diff.h"
#include "unit.h"

/* Two joints, one mesh of 3 vertexes (one position array) and one triangle with adjacency,
 * one animation of 2 frames over 2 quantized poses with bounds, a comment, two extensions. */
static void build(struct model *m)
{
  struct arena *a = &m->arena;
  unsigned char *pos, *tri, *adj, *ext;
  model_init(m);
  m->flags = 4;
  m->num_joints = 2;
  ck_assert_int_eq(model_joints_alloc(m, 2), 0);
  ck_assert_ptr_nonnull(m->joints);
  for (uint32_t j = 0; j < 2; j++) {
    m->joints[j].name = j ? "arm" : "root";
    m->joints[j].parent = j ? 0 : -1;
    trs_identity(model_rest_mut(m, j));
    model_rest_mut(m, j)->t[1] = 0.5 * j;
  }

  m->num_vertexes = 3;
  m->num_varrays = 1;
  m->varrays = arena_calloc(a, 1, sizeof *m->varrays);
  pos = arena_calloc(a, 3 * 3, 4);
  ck_assert_ptr_nonnull(m->varrays);
  ck_assert_ptr_nonnull(pos);
  for (int i = 0; i < 36; i++)
    pos[i] = (unsigned char)(i * 7);
  m->varrays[0].type = VT_POSITION;
  m->varrays[0].format = VF_FLOAT;
  m->varrays[0].size = 3;
  m->varrays[0].data = pos;

  m->num_triangles = 1;
  tri = arena_calloc(a, 1, 12);
  adj = arena_calloc(a, 1, 12);
  ck_assert_ptr_nonnull(tri);
  ck_assert_ptr_nonnull(adj);
  tri[4] = 1;
  tri[8] = 2;
  memset(adj, 0xFF, 12);
  m->triangles = tri;
  m->adjacency = adj;
  m->num_meshes = 1;
  m->meshes = arena_calloc(a, 1, sizeof *m->meshes);
  ck_assert_ptr_nonnull(m->meshes);
  m->meshes[0].name = "body";
  m->meshes[0].material = "skin.tga";
  m->meshes[0].num_vertexes = 3;
  m->meshes[0].num_triangles = 1;

  m->num_poses = 2;
  m->pose_parents = arena_calloc(a, 2, sizeof *m->pose_parents);
  m->channels = arena_calloc(a, 2, sizeof *m->channels);
  m->num_frames = 2;
  m->frames = arena_calloc(a, 4, sizeof *m->frames);
  m->bounds = arena_calloc(a, 2, sizeof *m->bounds);
  ck_assert_ptr_nonnull(m->pose_parents);
  ck_assert_ptr_nonnull(m->channels);
  ck_assert_ptr_nonnull(m->frames);
  ck_assert_ptr_nonnull(m->bounds);
  m->pose_parents[0] = -1;
  m->pose_parents[1] = 0;
  for (uint32_t p = 0; p < 2; p++) {
    /* Tx animated from 0 to 1 (scale 1/65535), everything else constant */
    m->channels[p].mask = 1;
    m->channels[p].scale[0] = 1.0 / 65535;
    m->channels[p].offset[6] = -1;
    for (int k = 7; k < 10; k++)
      m->channels[p].offset[k] = 1;
    for (uint32_t f = 0; f < 2; f++) {
      struct trs *t = &m->frames[f * 2 + p];
      trs_identity(t);
      t->r[3] = -1; /* writers store w <= 0 */
      t->t[0] = f;
    }
  }
  for (uint32_t f = 0; f < 2; f++) {
    m->bounds[f].bbmax[0] = 1 + f;
    m->bounds[f].radius = 2;
  }
  m->num_anims = 1;
  m->anims = arena_calloc(a, 1, sizeof *m->anims);
  ck_assert_ptr_nonnull(m->anims);
  m->anims[0].name = "walk";
  m->anims[0].num_frames = 2;
  m->anims[0].framerate = 24;
  m->anims[0].flags = MODEL_ANIM_LOOP;

  m->comment = (const unsigned char *)arena_strndup(a, "hello", 5);
  m->comment_size = 5;
  m->num_extensions = 2;
  m->extensions = arena_calloc(a, 2, sizeof *m->extensions);
  ext = arena_calloc(a, 3, 1);
  ck_assert_ptr_nonnull(m->extensions);
  ck_assert_ptr_nonnull(ext);
  memcpy(ext, "xyz", 3);
  m->extensions[0].name = "empty";
  m->extensions[1].name = "data";
  m->extensions[1].data = ext;
  m->extensions[1].size = 3;
}

/* The strictest comparison of every part. */
static const struct model_diff_opts strict = {
  MODEL_DIFF_ALL, MODEL_DIFF_REAL_EQUAL, MODEL_DIFF_REAL_EQUAL, MODEL_DIFF_REAL_EQUAL,
  MODEL_DIFF_FRAMES_SECOND
};

struct lines {
  unsigned n;
  char text[2048];
};

static void collect(void *user, const char *what)
{
  struct lines *l = user;
  size_t len = strlen(l->text);
  l->n++;
  snprintf(l->text + len, sizeof l->text - len, "%s\n", what);
}

static struct model a, b;
static struct lines lines;
static struct model_diff_result res;

static void setup(void)
{
  build(&a);
  build(&b);
  memset(&lines, 0, sizeof lines);
}

static void teardown(void)
{
  model_free(&a);
  model_free(&b);
}

/* Exactly one difference, told with a line containing want. */
static void expect_one(const struct model_diff_opts *o, const char *want)
{
  int rc = model_diff(&a, &b, o, collect, &lines, &res);
  ck_assert_msg(rc == 1 && res.mismatches == 1 && lines.n == 1,
                "expected one difference (%s), got rc %d, %u: %s", want, rc, res.mismatches,
                lines.text);
  ck_assert_msg(strstr(lines.text, want) != NULL, "'%s' not in: %s", want, lines.text);
}

static void expect_none(const struct model_diff_opts *o)
{
  int rc = model_diff(&a, &b, o, collect, &lines, &res);
  ck_assert_msg(rc == 0 && res.mismatches == 0 && lines.n == 0, "unexpected differences: %s",
                lines.text);
}

START_TEST(test_equal)
{
  struct model_diff_opts o = strict;
  expect_none(&o);
  ck_assert(res.frame_ratio == 0);
  o.frames = MODEL_DIFF_FRAMES_EXACT;
  o.flags |= MODEL_DIFF_ROTATIONS;
  expect_none(&o);
  o.frames = MODEL_DIFF_FRAMES_BOTH;
  o.joint_pose = o.anim_rate = o.bounds = MODEL_DIFF_REAL_BITS;
  expect_none(&o);
  /* a model against itself, without a result or a listener */
  ck_assert_int_eq(model_diff(&a, &a, &strict, NULL, NULL, NULL), 0);
}
END_TEST

START_TEST(test_joint_parent)
{
  b.joints[1].parent = -1;
  expect_one(&strict, "joints[1].parent 0 became -1");
}
END_TEST

START_TEST(test_joint_name)
{
  b.joints[0].name = "Root";
  expect_one(&strict, "joints[0].name 'root' became 'Root'");
}
END_TEST

START_TEST(test_joint_count)
{
  b.num_joints = 1;
  expect_one(&strict, "num_joints 2 became 1");
}
END_TEST

START_TEST(test_joint_pose)
{
  struct model_diff_opts o = strict;
  model_rest_mut(&b, 1)->t[1] = nextafter(0.5, 1); /* within a float ulp, not equal */
  expect_one(&o, "joints[1].pose.Ty");
  memset(&lines, 0, sizeof lines);
  o.joint_pose = MODEL_DIFF_REAL_NEAR_FLOAT;
  expect_none(&o);
  o.joint_pose = MODEL_DIFF_REAL_FLOAT_OF; /* the float of 0.5 is 0.5, not its neighbour */
  expect_one(&o, "joints[1].pose.Ty");
  model_rest_mut(&b, 1)->t[1] = 0.5;
  model_rest_mut(&a, 1)->t[1] = nextafter(0.5, 1); /* b holds a rounded to float */
  memset(&lines, 0, sizeof lines);
  expect_none(&o);
  model_rest_mut(&a, 1)->t[1] = 0.5 + 1e-6; /* beyond a float ulp */
  o.joint_pose = MODEL_DIFF_REAL_NEAR_FLOAT;
  expect_one(&o, "joints[1].pose.Ty");
}
END_TEST

START_TEST(test_nan_pose)
{
  struct model_diff_opts o = strict;
  model_rest_mut(&a, 0)->s[2] = model_rest_mut(&b, 0)->s[2] = NAN;
  expect_none(&o); /* EQUAL: both NaN is the same */
  o.joint_pose = MODEL_DIFF_REAL_NEAR_FLOAT; /* a tolerance never holds NaN */
  expect_one(&o, "joints[0].pose.Sz");
}
END_TEST

START_TEST(test_pose_parent)
{
  b.pose_parents[1] = 1;
  expect_one(&strict, "poses[1].parent 0 became 1");
}
END_TEST

START_TEST(test_pose_parents_dropped)
{
  b.pose_parents = NULL;
  expect_one(&strict, "pose parents: dropped");
}
END_TEST

START_TEST(test_anim)
{
  struct model_diff_opts o = strict;
  b.anims[0].framerate = 24.000001;
  expect_one(&o, "anims[0].framerate");
  b.anims[0].framerate = 24;
  b.anims[0].flags = 0;
  memset(&lines, 0, sizeof lines);
  expect_one(&o, "anims[0].flags 1 became 0");
}
END_TEST

START_TEST(test_mesh)
{
  b.meshes[0].material = "skin.png";
  expect_one(&strict, "meshes[0] name/material");
}
END_TEST

START_TEST(test_varray_byte)
{
  ((unsigned char *)b.varrays[0].data)[17] ^= 0x10;
  expect_one(&strict, "varrays[0] data: byte 17 differs");
}
END_TEST

START_TEST(test_varray_header)
{
  b.varrays[0].format = VF_HALF;
  expect_one(&strict, "varrays[0] header");
}
END_TEST

START_TEST(test_varray_custom_name)
{
  /* custom arrays are matched by name whatever their type number */
  a.varrays[0].type = VT_CUSTOM;
  b.varrays[0].type = VT_CUSTOM + 40;
  a.varrays[0].name = b.varrays[0].name = "weights2";
  expect_none(&strict);
  b.varrays[0].name = "weights3";
  expect_one(&strict, "varrays[0] header");
}
END_TEST

START_TEST(test_triangle_index)
{
  ((unsigned char *)b.triangles)[8] = 3;
  expect_one(&strict, "triangles: byte 8 differs (0x02 became 0x03)");
}
END_TEST

START_TEST(test_adjacency)
{
  ((unsigned char *)b.adjacency)[0] = 0;
  expect_one(&strict, "adjacency: byte 0 differs");
}
END_TEST

START_TEST(test_adjacency_presence)
{
  b.adjacency = NULL;
  expect_one(&strict, "adjacency: dropped");
  /* without triangles an absent and an empty adjacency are the same */
  a.num_triangles = b.num_triangles = 0;
  a.meshes[0].num_triangles = b.meshes[0].num_triangles = 0;
  memset(&lines, 0, sizeof lines);
  expect_none(&strict);
}
END_TEST

START_TEST(test_bounds)
{
  struct model_diff_opts o = strict;
  b.bounds[1].bbmax[0] = 2.0000001;
  expect_one(&o, "bounds[1].bbmax[0]");
  b.bounds[1].bbmax[0] = 2;
  b.bounds[0].bbmin[2] = -0.0; /* the same value, other bits */
  memset(&lines, 0, sizeof lines);
  expect_none(&o);
  o.bounds = MODEL_DIFF_REAL_BITS;
  expect_one(&o, "bounds[0].bbmin[2]");
  b.bounds = NULL;
  memset(&lines, 0, sizeof lines);
  expect_one(&o, "bounds: dropped");
}
END_TEST

START_TEST(test_frame_beyond_bound)
{
  double bound = quant_bound(0, 1.0 / 65535);
  struct model_diff_opts o = strict;
  b.frames[2].t[0] += 0.9 * bound; /* frame 1 pose 0: within */
  expect_none(&o);
  ck_assert(res.frame_ratio > 0.89 && res.frame_ratio <= 1);
  ck_assert(res.frame == 1 && res.pose == 0 && res.channel == 0);
  b.frames[3].t[0] += 1.1 * bound; /* frame 1 pose 1: beyond */
  expect_one(&o, "frames[1] pose 1 Tx");
  ck_assert_uint_eq(res.frame_mismatches, 1);
  ck_assert(res.frame_ratio > 1.09 && res.frame == 1 && res.pose == 1);
  o.frames = MODEL_DIFF_FRAMES_EXACT; /* now both move too far */
  memset(&lines, 0, sizeof lines);
  model_diff(&a, &b, &o, collect, &lines, &res);
  ck_assert_uint_eq(res.frame_mismatches, 2);
  ck_assert_uint_eq(res.mismatches, 2);
}
END_TEST

START_TEST(test_frame_constant_channel)
{
  /* Sz is constant (mask bit clear): its stored scale (1 here) plays no part */
  struct model_diff_opts o = strict;
  a.channels[0].scale[9] = b.channels[0].scale[9] = 1;
  b.frames[0].s[2] += 1e-7; /* within quant_bound(1, 0), about 1.8e-7 */
  expect_none(&o);
  b.frames[0].s[2] += 1e-6;
  expect_one(&o, "frames[0] pose 0 Sz");
}
END_TEST

START_TEST(test_frame_nan)
{
  b.frames[1].r[0] = NAN;
  expect_one(&strict, "frames[0] pose 1 Qx");
  ck_assert(isinf(res.frame_ratio));
}
END_TEST

START_TEST(test_frame_rotation_sign)
{
  struct model_diff_opts o = strict;
  for (int k = 0; k < 4; k++)
    b.frames[1].r[k] = -b.frames[1].r[k]; /* -q: the same rotation */
  expect_one(&o, "frames[0] pose 1 Qw");
  o.flags |= MODEL_DIFF_ROTATIONS;
  memset(&lines, 0, sizeof lines);
  expect_none(&o);
  b.frames[1].r[3] *= 2; /* normalised, still the same rotation */
  expect_none(&o);
  b.frames[1].r[0] = 0.01; /* another rotation */
  expect_one(&o, "frames[0] pose 1 Q");
}
END_TEST

START_TEST(test_frames_need_channels)
{
  struct model_diff_opts o = strict;
  b.channels = NULL;
  expect_one(&o, "no quantization channels on the second side");
  /* judged by both sides, a side without channels gets the slack */
  o.frames = MODEL_DIFF_FRAMES_BOTH;
  memset(&lines, 0, sizeof lines);
  expect_none(&o);
  b.frames[0].t[0] += 2 * quant_bound(0, 1.0 / 65535);
  expect_one(&o, "frames[0] pose 0 Tx");
}
END_TEST

START_TEST(test_frames_second_side)
{
  /* the source's own quantization is coarser: only the copy's channels judge in SECOND */
  struct model_diff_opts o = strict;
  a.channels[0].scale[0] = 0.01;
  b.frames[2].t[0] += 2 * quant_bound(0, 1.0 / 65535);
  expect_one(&o, "frames[1] pose 0 Tx");
  o.frames = MODEL_DIFF_FRAMES_BOTH;
  memset(&lines, 0, sizeof lines);
  expect_none(&o);
}
END_TEST

START_TEST(test_frame_space_and_times)
{
  static const double ta[2] = {0, 0.5}, tb[2] = {0, 0.25};
  b.frame_space = MODEL_FRAMES_BIND;
  expect_one(&strict, "frame_space 0 became 1");
  b.frame_space = MODEL_FRAMES_PARENT;
  b.frame_times = tb;
  memset(&lines, 0, sizeof lines);
  expect_one(&strict, "frame_times: appeared");
  a.frame_times = ta;
  memset(&lines, 0, sizeof lines);
  expect_one(&strict, "frame_times[1] 0.5 became 0.25");
  b.frame_times = ta;
  memset(&lines, 0, sizeof lines);
  expect_none(&strict);
}
END_TEST

START_TEST(test_frame_count)
{
  b.num_frames = 1;
  b.anims[0].num_frames = 1;
  /* frames and bounds both hold num_frames entries */
  ck_assert_int_eq(model_diff(&a, &b, &strict, collect, &lines, &res), 1);
  ck_assert_msg(strstr(lines.text, "num_frames 2 became 1") && strstr(lines.text, "bounds: 2 became 1"),
                "%s", lines.text);
}
END_TEST

START_TEST(test_extension_byte)
{
  ((unsigned char *)b.extensions[1].data)[2] = 'Z';
  expect_one(&strict, "extensions[1] data: byte 2 differs");
}
END_TEST

START_TEST(test_extension_header)
{
  b.extensions[0].name = "empty2";
  expect_one(&strict, "extensions[0] 'empty' (0 bytes) became 'empty2'");
  b.extensions[0].name = "empty";
  b.num_extensions = 1;
  memset(&lines, 0, sizeof lines);
  expect_one(&strict, "num_extensions 2 became 1");
}
END_TEST

START_TEST(test_comment_byte)
{
  ((unsigned char *)b.comment)[1] = 'a';
  expect_one(&strict, "comment: byte 1 differs");
}
END_TEST

START_TEST(test_comment_padding)
{
  struct model_diff_opts o = strict;
  unsigned char *padded = arena_calloc(&b.arena, 8, 1);
  ck_assert_ptr_nonnull(padded);
  memcpy(padded, "hello", 5);
  b.comment = padded;
  b.comment_size = 8;
  expect_one(&o, "comment size 5 became 8");
  o.flags |= MODEL_DIFF_COMMENT_PADDED;
  memset(&lines, 0, sizeof lines);
  expect_none(&o);
  padded[7] = '!';
  expect_one(&o, "byte 7 past the original 5 is not padding");
  b.comment_size = 4; /* shorter is never padding */
  memset(&lines, 0, sizeof lines);
  expect_one(&o, "comment size 5 became 4");
}
END_TEST

START_TEST(test_header_flags)
{
  b.flags = 0;
  expect_one(&strict, "header flags 4 became 0");
}
END_TEST

START_TEST(test_parts)
{
  /* a part left out is not compared; every part alone still sees its own change */
  struct model_diff_opts o = strict;
  b.joints[1].parent = -1;
  ((unsigned char *)b.varrays[0].data)[0] ^= 1;
  o.flags = MODEL_DIFF_ALL & ~(MODEL_DIFF_JOINTS | MODEL_DIFF_VARRAYS);
  expect_none(&o);
  o.flags = MODEL_DIFF_JOINTS;
  expect_one(&o, "joints[1].parent");
  o.flags = MODEL_DIFF_VARRAYS;
  memset(&lines, 0, sizeof lines);
  expect_one(&o, "varrays[0] data");
}
END_TEST

START_TEST(test_trs_diff_ratio)
{
  struct trs x, y;
  double bound[TRS_CHANNELS];
  unsigned c = 99;
  for (int k = 0; k < TRS_CHANNELS; k++)
    bound[k] = 0.5;
  trs_identity(&x);
  trs_identity(&y);
  y.t[1] = 0.25;
  ck_assert(trs_diff_ratio(&x, &y, bound, 0x3FFu, 0, &c) == 0.5 && c == 1);
  y.t[1] = 0.5; /* at the bound: within */
  ck_assert(trs_diff_ratio(&x, &y, bound, 0x3FFu, 0, &c) == 1);
  y.t[1] = nextafter(0.5, 1); /* beyond by an ulp: above 1 */
  ck_assert(trs_diff_ratio(&x, &y, bound, 0x3FFu, 0, &c) > 1);
  ck_assert(trs_diff_ratio(&x, &y, bound, 0x3F8u, 0, &c) == 0); /* t left out */
  y.r[3] = -1;
  ck_assert(trs_diff_ratio(&x, &y, bound, 0x78u, 0, &c) == 4 && c == 6);
  ck_assert(trs_diff_ratio(&x, &y, bound, 0x78u, 1, &c) == 0);
  bound[7] = 0;
  y.s[0] = 1;
  ck_assert(trs_diff_ratio(&x, &y, bound, 0x80u, 0, &c) == 0); /* no bound, no difference */
  y.s[0] = 1.5;
  ck_assert(isinf(trs_diff_ratio(&x, &y, bound, 0x80u, 0, &c)));
}
END_TEST

static Suite *model_diff_suite(void)
{
  Suite *s = suite_create("model_diff");
  TCase *t = tcase_create("parts");
  tcase_add_checked_fixture(t, setup, teardown);
  tcase_add_test(t, test_equal);
  tcase_add_test(t, test_joint_parent);
  tcase_add_test(t, test_joint_name);
  tcase_add_test(t, test_joint_count);
  tcase_add_test(t, test_joint_pose);
  tcase_add_test(t, test_nan_pose);
  tcase_add_test(t, test_pose_parent);
  tcase_add_test(t, test_pose_parents_dropped);
  tcase_add_test(t, test_anim);
  tcase_add_test(t, test_mesh);
  tcase_add_test(t, test_varray_byte);
  tcase_add_test(t, test_varray_header);
  tcase_add_test(t, test_varray_custom_name);
  tcase_add_test(t, test_triangle_index);
  tcase_add_test(t, test_adjacency);
  tcase_add_test(t, test_adjacency_presence);
  tcase_add_test(t, test_bounds);
  tcase_add_test(t, test_frame_beyond_bound);
  tcase_add_test(t, test_frame_constant_channel);
  tcase_add_test(t, test_frame_nan);
  tcase_add_test(t, test_frame_rotation_sign);
  tcase_add_test(t, test_frames_need_channels);
  tcase_add_test(t, test_frames_second_side);
  tcase_add_test(t, test_frame_space_and_times);
  tcase_add_test(t, test_frame_count);
  tcase_add_test(t, test_extension_byte);
  tcase_add_test(t, test_extension_header);
  tcase_add_test(t, test_comment_byte);
  tcase_add_test(t, test_comment_padding);
  tcase_add_test(t, test_header_flags);
  tcase_add_test(t, test_parts);
  tcase_add_test(t, test_trs_diff_ratio);
  suite_add_tcase(s, t);
  return s;
}

int main(void)
{
  return unit_run(model_diff_suite());
}
