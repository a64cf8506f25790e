/* test_qmsh_write.c - the QMSH writer against the corpus bases (written by an independent
 * Python writer, tests/corpus-tools/make_qmsh_bases.py), and the decoder against damage.
 *
 * For every base file:
 *   - writing the decoded file at its own version reproduces its bytes exactly;
 *   - writing it as each newer version gives a file that decodes with no more errors than the
 *     base, and writing that back at the base's version reproduces the base (nothing lost);
 *   - writing it as an older version either succeeds with a file that decodes with no more
 *     errors, or is refused with a reason;
 *   - the common model (joints, frames, meshes) is the same after the upgrade.
 * Then: target versions outside 12-22 are refused naming the range; a v12 skeleton with the
 * implicit group gains a "default" group in v22; and every truncation and many single-byte
 * changes of a few bases decode without crashing (run under the sanitizers in CI). Last, a model
 * built by hand as another format's decoder would (local poses relative to the parent) converts
 * to QMSH whose keyframes, composed with their bone matrices, give back those local poses; and
 * the base's point comes out as a tag in its bone's space (worked by hand), and a model without
 * the file writes it back as the same point.
 *
 * usage: test_qmsh_write [BASE_DIR]   (default: $srcdir/corpus/qmsh/base) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "input.h"
#include "pipeline.h"
#include "pose.h"
#include "qmsh.h"

extern const struct mdl_format qmsh_format;

#define HALF_PI 1.5707963267948966

static int failures, checks;

static int load(const char *dir, const char *file, struct mdl_input *in);

static void fail(const char *name, const char *what, const char *detail)
{
  failures++;
  fprintf(stderr, "FAIL %s: %s%s\n", name, what, detail ? detail : "");
}

static unsigned long decode(const unsigned char *data, size_t size, struct pipeline_run *run)
{
  mdl_options o;
  mdl_options_init(&o);
  o.assume_format = "qmsh";
  pipeline_decode(data, size, "t.qmsh", &o, 1, run);
  return run->result.counts[MDL_FATAL] + run->result.counts[MDL_ERROR];
}

static int write_as(const struct model *m, const char *version, struct byte_buf *b)
{
  struct write_opts wo = {version, NULL, NULL, 0};
  buf_init(b);
  return qmsh_format.write(m, &wo, b) < 0 || b->oom ? -1 : 0;
}

static int same_bytes(const struct byte_buf *b, const unsigned char *data, size_t size)
{
  return b->size == size && !memcmp(b->data, data, size);
}

/* A v12 skeleton with n_groups 0 comes back with n_groups 1: both mean the implicit group. */
static int implicit_zero_groups(const struct qmsh_mesh *q, const struct byte_buf *b,
                                const unsigned char *data, size_t size)
{
  if (q->h.version != 12 || !q->groups_implicit || q->h.n_groups != 0 || b->size != size ||
      size < 20 || b->data[18] != 1 || b->data[19] != 0)
    return 0;
  return !memcmp(b->data, data, 18) && !memcmp(b->data + 20, data + 20, size - 20);
}

static void compare_models(const char *name, const struct model *a, const struct model *b)
{
  checks++;
  if (a->num_joints != b->num_joints || a->num_frames != b->num_frames ||
      a->num_meshes != b->num_meshes || a->num_triangles != b->num_triangles ||
      a->num_vertexes != b->num_vertexes || a->num_anims != b->num_anims) {
    fail(name, "model counts differ after the upgrade", NULL);
    return;
  }
  for (uint32_t j = 0; j < a->num_joints; j++)
    if (a->joints[j].parent != b->joints[j].parent ||
        memcmp(model_rest(a, j), model_rest(b, j), sizeof(struct trs)) ||
        strcmp(a->joints[j].name, b->joints[j].name))
      fail(name, "a joint differs after the upgrade", NULL);
  if (a->frames && b->frames &&
      memcmp(a->frames, b->frames, (size_t)a->num_frames * a->num_poses * sizeof *a->frames))
    fail(name, "the frames differ after the upgrade", NULL);
  if (memcmp(a->triangles, b->triangles, (size_t)a->num_triangles * 12))
    fail(name, "the triangles differ after the upgrade", NULL);
}

static void base_check(const char *name, const unsigned char *data, size_t size)
{
  struct pipeline_run run;
  struct byte_buf b;
  unsigned long base_errors = decode(data, size, &run);
  const struct qmsh_mesh *q;
  char own[8];

  if (!run.decoded) {
    fail(name, "the base does not decode", NULL);
    pipeline_release(&run);
    return;
  }
  q = run.model.format_data;
  snprintf(own, sizeof own, "%u", q->h.version);
  checks++;
  if (write_as(&run.model, own, &b) < 0)
    fail(name, "writing at its own version failed: ", b.error);
  else if (!same_bytes(&b, data, size))
    fail(name, "writing at its own version changed the bytes", NULL);
  buf_free(&b);

  for (unsigned v = QMSH_VERSION_MIN; v <= QMSH_VERSION_MAX; v++) {
    char ver[8], what[160];
    struct pipeline_run again;
    snprintf(ver, sizeof ver, "%u", v);
    snprintf(what, sizeof what, "%s as v%u", name, v);
    checks++;
    if (write_as(&run.model, ver, &b) < 0) {
      if (v >= q->h.version)
        fail(what, "upgrade refused: ", b.error);
      else if (!strstr(b.error, "cannot be written as QMSH version"))
        fail(what, "downgrade refused without a reason: ", b.error);
      buf_free(&b);
      continue;
    }
    if (decode(b.data, b.size, &again) > base_errors || !again.decoded) {
      fail(what, "the written file has new errors", NULL);
    } else if (v >= q->h.version) {
      struct byte_buf back;
      checks++;
      if (write_as(&again.model, own, &back) < 0)
        fail(what, "writing back failed: ", back.error);
      else if (!same_bytes(&back, data, size) && !implicit_zero_groups(q, &back, data, size))
        fail(what, "writing back at the base version changed the bytes", NULL);
      buf_free(&back);
      compare_models(what, &run.model, &again.model);
    }
    pipeline_release(&again);
    buf_free(&b);
  }
  pipeline_release(&run);
}

/* Every truncation, and every byte set to 0x00, 0xff and +1: the decoder must come back. */
static void damage_check(const char *name, const unsigned char *data, size_t size)
{
  unsigned char *copy = malloc(size ? size : 1);
  if (!copy)
    return;
  for (size_t cut = 0; cut < size; cut++) {
    struct pipeline_run run;
    decode(data, cut, &run);
    pipeline_release(&run);
  }
  for (size_t i = 0; i < size; i++) {
    static const int deltas[3] = {-1, -2, 1};
    for (int k = 0; k < 3; k++) {
      struct pipeline_run run;
      memcpy(copy, data, size);
      copy[i] = deltas[k] == -1 ? 0x00 : deltas[k] == -2 ? 0xff : (unsigned char)(data[i] + 1);
      decode(copy, size, &run);
      if (run.decoded) {
        struct byte_buf b; /* a decodable model must also be writable without a crash */
        write_as(&run.model, NULL, &b);
        buf_free(&b);
      }
      pipeline_release(&run);
    }
  }
  checks++;
  free(copy);
  (void)name;
}

static void versions_check(const unsigned char *data, size_t size)
{
  static const char *const bad[] = {"23", "11", "0", "abc", "22x", ""};
  struct pipeline_run run;
  decode(data, size, &run);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct byte_buf b;
    checks++;
    if (write_as(&run.model, bad[i], &b) == 0 || !strstr(b.error, "12-22"))
      fail(bad[i], "version not refused with the known range: ", b.error);
    buf_free(&b);
  }
  pipeline_release(&run);
}

static void implicit_group_check(const unsigned char *data, size_t size)
{
  struct pipeline_run run, again;
  struct byte_buf b;
  decode(data, size, &run);
  checks++;
  if (!run.decoded || write_as(&run.model, "22", &b) < 0) {
    fail("v12-implicit-group", "cannot be written as 22", NULL);
    pipeline_release(&run);
    return;
  }
  if (decode(b.data, b.size, &again) || !again.decoded) {
    fail("v12-implicit-group", "the v22 file has errors", NULL);
  } else {
    const struct qmsh_mesh *q = again.model.format_data;
    if (q->num_groups != 1 || q->groups[0].count != q->h.n_bones ||
        strcmp(q->groups[0].name.s, "default"))
      fail("v12-implicit-group", "v22 lacks the default group holding every bone", NULL);
  }
  pipeline_release(&again);
  pipeline_release(&run);
  buf_free(&b);
}

static void put_u32(unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static void put_f(unsigned char *p, float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  put_u32(p, u);
}

static void set_trs(struct trs *p, double ty, double angle_z, double scale)
{
  trs_identity(p);
  p->t[1] = ty;
  p->r[2] = sin(angle_z / 2);
  p->r[3] = cos(angle_z / 2);
  p->s[0] = p->s[1] = p->s[2] = scale;
}

/* A skinned, animated quad with two joints: the model convert_check and limits_check write. */
struct quad {
  struct model m;
  struct model_varray va[3];
  struct model_joint joints[2];
  struct trs rests[2];
  struct model_anim anim;
  struct model_mesh mesh;
  struct trs frames[4];
  unsigned char pd[48], bi[16], bw[16], td[24];
};

static void quad_build(struct quad *q)
{
  static const float pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  static const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
  struct model_varray *va = q->va;
  struct model_joint *joints = q->joints;
  struct trs *frames = q->frames;
  unsigned char *pd = q->pd, *bi = q->bi, *bw = q->bw, *td = q->td;
  struct model *mp = &q->m;

  model_init(mp);
  memset(va, 0, sizeof q->va);
  for (int v = 0; v < 4; v++) {
    for (int c = 0; c < 3; c++)
      put_f(pd + 12 * v + 4 * c, pos[v][c]);
    bi[4 * v] = 0;
    bi[4 * v + 1] = 1;
    bi[4 * v + 2] = bi[4 * v + 3] = 0;
    bw[4 * v] = v < 2 ? 255 : 64;
    bw[4 * v + 1] = v < 2 ? 0 : 191;
    bw[4 * v + 2] = bw[4 * v + 3] = 0;
  }
  for (int i = 0; i < 6; i++)
    put_u32(td + 4 * i, tri[i]);
  va[0] = (struct model_varray){VT_POSITION, NULL, 0, VF_FLOAT, 3, pd, {0}, 0};
  va[1] = (struct model_varray){VT_BLENDINDEXES, NULL, 0, VF_UBYTE, 4, bi, {0}, 0};
  va[2] = (struct model_varray){VT_BLENDWEIGHTS, NULL, 0, VF_UBYTE, 4, bw, {0}, 0};
  joints[0].name = "root";
  joints[0].parent = -1;
  joints[0].rest = 0;
  set_trs(&q->rests[0], 1, 0, 1);
  joints[1].name = "arm";
  joints[1].parent = 0;
  joints[1].rest = 1;
  set_trs(&q->rests[1], 0.5, HALF_PI, 1);
  set_trs(&frames[0], 1, 0, 1);
  set_trs(&frames[1], 0.5, HALF_PI, 1);
  set_trs(&frames[2], 1.25, 0.1, 1);
  set_trs(&frames[3], 0.75, HALF_PI + 0.5, 2);
  q->anim = (struct model_anim){"swing", 0, 2, 10, 0, 0};
  q->mesh = (struct model_mesh){"quad", "quad.png", 0, 4, 0, 2};
  mp->num_vertexes = 4;
  mp->num_varrays = 3;
  mp->varrays = va;
  mp->num_triangles = 2;
  mp->triangles = td;
  mp->num_meshes = 1;
  mp->meshes = &q->mesh;
  mp->num_joints = mp->num_poses = 2;
  mp->joints = joints;
  mp->rests = q->rests;
  mp->num_rests = 2;
  mp->num_anims = 1;
  mp->anims = &q->anim;
  mp->num_frames = 2;
  mp->frames = frames;
}

/* A limit of the writer is refused with a message naming what overflows: the count's own noun
 * (joints, not vertices, for 125k joints), never "out of memory". */
static void limits_check(void)
{
  static char long_name[300];
  static const struct {
    const char *what, *want;
  } cases[] = {
    {"125000 joints", "125000 joints"}, {"300 joints", "300 joints"}, {"70000 animations", "70000 animations"},
    {"70000 vertices", "70000 vertices"}, {"70000 meshes", "70000 meshes"}, {"a 300-byte joint name", "joint 1"},
    {"a 300-byte animation name", "animation 0"}, {"a 300-byte mesh name", "mesh 0"},
  };
  memset(long_name, 'x', sizeof long_name - 1);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct quad q;
    struct byte_buf b;
    quad_build(&q);
    switch (i) {
    case 0: q.m.num_joints = q.m.num_poses = 125000; break;
    case 1: q.m.num_joints = q.m.num_poses = 300; break;
    case 2: q.m.num_anims = 70000; break;
    case 3: q.m.num_vertexes = 70000; break;
    case 4: q.m.num_meshes = 70000; break;
    case 5: q.joints[1].name = long_name; break;
    case 6: q.anim.name = long_name; break;
    default: q.mesh.name = long_name; break;
    }
    checks++;
    buf_init(&b);
    if (i == 1) { /* 300 joints that exist: only the bone group limit applies */
      static struct model_joint many[300];
      for (int k = 0; k < 300; k++) {
        many[k] = q.joints[k ? 1 : 0];
        many[k].parent = k - 1;
      }
      q.m.joints = many;
      q.m.num_anims = 0;
    }
    if (qmsh_format.write(&q.m, NULL, &b) == 0)
      fail(cases[i].what, "written, expected a refusal", NULL);
    else if (!strstr(b.error, cases[i].want) || strstr(b.error, "out of memory"))
      fail(cases[i].what, "refused without naming it: ", b.error);
    buf_free(&b);
  }
}

static void convert_check(void)
{
  struct quad q;
  struct model_joint *joints;
  struct trs *frames;
  struct byte_buf b;
  struct pipeline_run run;
  double worst = 0;
  struct model *mp = &q.m;

  quad_build(&q);
  joints = q.joints;
  frames = q.frames;
  (void)joints;
  checks++;
  buf_init(&b);
  if (qmsh_format.write(mp, NULL, &b) < 0) {
    fail("convert", "the writer refused a plain skeletal model: ", b.error);
    buf_free(&b);
    return;
  }
  if (decode(b.data, b.size, &run) || !run.decoded || run.model.num_frames != 2 ||
      run.model.num_joints != 2) {
    fail("convert", "the converted file does not decode cleanly", NULL);
  } else {
    for (uint32_t f = 0; f < 2; f++)
      for (uint32_t k = 0; k < 2; k++) {
        double mat[16], key[16], got[16], want[16];
        trs_to_matrix(model_rest(&run.model, k), mat);
        trs_to_matrix(model_frame(&run.model, f, k), key);
        mat4_mul(got, mat, key); /* local = mat * key (column vectors) */
        trs_to_matrix(&frames[f * 2 + k], want);
        for (int i = 0; i < 16; i++)
          worst = fmax(worst, fabs(got[i] - want[i]));
      }
    if (!(worst < 1e-5))
      fail("convert", "keyframes composed with the bone matrices miss the local poses", NULL);
  }
  pipeline_release(&run);
  buf_free(&b);
}

/* The base's point 'hand' (identity axes at (0, 2, 0) in model space, on bone 2 = bone1, whose
 * bind pose is 90 degrees about z at (0, 1.5, 0): make_qmsh_bases.py), worked by hand into
 * bone1's space: axes (0 -1 0), (1 0 0), (0 0 1), origin (0.5 0 0). */
static const double hand_in_bone1[12] = {0, -1, 0, 1, 0, 0, 0, 0, 1, 0.5, 0, 0};
static const double hand_in_model[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0};

static void tag_expect(const char *name, const struct model *m, int32_t joint, const double want[12],
                       double rot_y)
{
  const struct model_tag *t = m->tags;
  checks++;
  if (m->num_tags != 1 || !t->name || strcmp(t->name, "hand")) {
    fail(name, "the point is not the model's one tag 'hand'", NULL);
    return;
  }
  if (t->joint != joint)
    fail(name, "the tag is on the wrong joint", NULL);
  for (int k = 0; k < 12; k++)
    if (fabs(t->m[k] - want[k]) > 1e-12 + t->tol[k])
      fail(name, "the tag's frame is not the point taken into its bone's space", NULL);
  if (!t->display || t->display->type != 1 || t->display->size[0] != 0.5f || t->display->size[2] != 0.5f ||
      t->display->rot[1] != (float)rot_y || t->display->col4[3] != 1 || t->display->col4[0] != 0)
    fail(name, "the tag's display is not the point's type, size, rotation and column", NULL);
}

/* Points are the model's tags: in their bone's space on a skeleton, in model space without one
 * (bone 0 or an uninitialised bone), with their display; a model from another format (no
 * format_data) writes them back as the same points. */
static void tags_check(const char *dir)
{
  static const struct {
    const char *file;
    int skeletal;
    double rot_y;
  } cases[] = {{"v22-f02.qmsh", 1, 0.5}, {"v12-f02.qmsh", 1, 0}, {"v19-f03.qmsh", 1, 0.5},
               {"v22-f00.qmsh", 0, 0.5}, {"v22-f06.qmsh", 0, 0.5}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct mdl_input in;
    struct pipeline_run run, again;
    struct byte_buf b;
    struct model foreign;
    const double *want = cases[i].skeletal ? hand_in_bone1 : hand_in_model;
    int32_t joint = cases[i].skeletal ? 1 : -1;
    char what[96];
    if (load(dir, cases[i].file, &in) < 0) {
      fail(cases[i].file, "missing base", NULL);
      continue;
    }
    decode(in.data, in.size, &run);
    if (!run.decoded) {
      fail(cases[i].file, "the base does not decode", NULL);
      pipeline_release(&run);
      input_close(&in);
      continue;
    }
    tag_expect(cases[i].file, &run.model, joint, want, cases[i].rot_y);
    /* as another format's model: the writer builds the points from the tags */
    foreign = run.model;
    foreign.format_data = NULL;
    foreign.format_data_owner = NULL;
    snprintf(what, sizeof what, "%s from its tags", cases[i].file);
    checks++;
    if (write_as(&foreign, NULL, &b) < 0) {
      fail(what, "the writer refused: ", b.error);
    } else if (decode(b.data, b.size, &again), !again.decoded) {
      fail(what, "the written file does not decode", NULL);
      pipeline_release(&again);
    } else {
      const struct qmsh_mesh *q0 = run.model.format_data, *q1 = again.model.format_data;
      tag_expect(what, &again.model, joint, want, cases[i].rot_y);
      checks++;
      /* the bone matrices go through the joints' TRS (a rotation of 90 degrees picks up 6e-17
       * where the base has 0), so the point matrix is the base's within float rounding */
      if (q1->h.n_points != 1 || (cases[i].skeletal && q1->points[0].bone != q0->points[0].bone))
        fail(what, "the written point's bone differs from the base's", NULL);
      for (int k = 0; k < 16 && q1->h.n_points == 1; k++)
        if (fabs(q1->points[0].mat[k] - q0->points[0].mat[k]) > 4 * ldexp(1.0, -24)) {
          char d[64];
          snprintf(d, sizeof d, " (component %d: %.9g, base %.9g)", k, q1->points[0].mat[k], q0->points[0].mat[k]);
          fail(what, "the written point's matrix differs from the base's", d);
          break;
        }
      pipeline_release(&again);
    }
    buf_free(&b);
    pipeline_release(&run);
    input_close(&in);
  }
}

static int load(const char *dir, const char *file, struct mdl_input *in)
{
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, file) >= sizeof path ||
      input_open(path, in, 0) != 0) {
    fprintf(stderr, "cannot read %s\n", path);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv)
{
  char dirbuf[4096];
  const char *dir = argc > 1 ? argv[1] : NULL;
  DIR *d;
  struct dirent *e;
  int bases = 0;

  if (!dir) {
    snprintf(dirbuf, sizeof dirbuf, "%s/corpus/qmsh/base", getenv("srcdir") ? getenv("srcdir") : ".");
    dir = dirbuf;
  }
  d = opendir(dir);
  if (!d) {
    fprintf(stderr, "cannot open %s\n", dir);
    return 99;
  }
  while ((e = readdir(d)) != NULL) {
    struct mdl_input in;
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 5, ".qmsh") || load(dir, e->d_name, &in) < 0)
      continue;
    bases++;
    base_check(e->d_name, in.data, in.size);
    /* damage on a spread of layouts: both bone record kinds, v12 groups, splits, physics */
    if (!strcmp(e->d_name, "v22-f13.qmsh") || !strcmp(e->d_name, "v20-f13.qmsh") ||
        !strcmp(e->d_name, "v12-f03.qmsh") || !strcmp(e->d_name, "v18-f18.qmsh") ||
        !strcmp(e->d_name, "v21-f06.qmsh"))
      damage_check(e->d_name, in.data, in.size);
    if (!strcmp(e->d_name, "v22-f00.qmsh"))
      versions_check(in.data, in.size);
    if (!strcmp(e->d_name, "v12-implicit-group.qmsh"))
      implicit_group_check(in.data, in.size);
    input_close(&in);
  }
  closedir(d);
  convert_check();
  tags_check(dir);
  limits_check();
  if (bases < 300) {
    fprintf(stderr, "FAIL: only %d base files in %s (expected the whole grid)\n", bases, dir);
    failures++;
  }
  printf("qmsh writer: %d bases, %d checks, %d failures\n", bases, checks, failures);
  return failures ? 1 : 0;
}
