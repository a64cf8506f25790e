/* test_egg_write.c - models from every format -> egg -> model: the egg written from a model
 * must decode with no error and give the model back.
 *
 * Sources: synthetic models (rt_model.h: skinned and animated, static, coloured) and, when
 * present, every IQM/IQE sample and the examples (IQM, IQE, X42, QMSH). Compared: joints by
 * name (egg orders them as its tree does) with parents and base poses as matrices; animations
 * (names, ranges, framerates) and every frame as a matrix; meshes, triangles and every standard
 * vertex array (floats exactly, ubyte colours exactly, blend weights per joint within 1/255).
 * Not compared: what the writer documents as not carried (loop flag, adjacency, bounds,
 * custom arrays, comments, extensions). */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "model_frames.h"
#include "pipeline.h"
#include "pose.h"
#include "rt_model.h"

static int failures, checked;

static void fail(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(const char *name, const char *fmt, ...)
{
  va_list ap;
  failures++;
  fprintf(stderr, "FAIL %s: ", name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static void print_diag(const mdl_diag *d, void *user)
{
  if (d->severity <= MDL_ERROR)
    fprintf(stderr, "    %s: %s[%s] at %lld %s: %s\n", (const char *)user,
            mdl_severity_name(d->severity), d->rule->id, d->offset, d->path, d->message);
}

static int decode(const void *data, size_t size, const char *hint, struct pipeline_run *run)
{
  mdl_options o;
  mdl_options_init(&o);
  o.on_diag = print_diag;
  o.user = (void *)hint;
  if (pipeline_decode(data, size, hint, &o, 1, run) != MDL_OK || !run->decoded)
    return -1;
  return (int)(run->result.counts[MDL_FATAL] + run->result.counts[MDL_ERROR]);
}

static void unit_matrix(const struct trs *p, double m[16])
{
  struct trs u = *p;
  quat_normalize(u.r);
  trs_to_matrix(&u, m);
}

static double matrix_diff(const struct trs *a, const struct trs *b)
{
  double x[16], y[16], worst = 0, scale = 1;
  unit_matrix(a, x);
  unit_matrix(b, y);
  for (int i = 0; i < 16; i++) {
    worst = fmax(worst, fabs(x[i] - y[i]));
    scale = fmax(scale, fabs(x[i]));
  }
  return worst / scale;
}

static const struct model_varray *array_of(const struct model *m, uint32_t type)
{
  for (uint32_t i = 0; i < m->num_varrays; i++)
    if (m->varrays[i].type == type)
      return &m->varrays[i];
  return NULL;
}

static double comp(const struct model_varray *va, uint32_t v, uint32_t c)
{
  static const unsigned bytes[VF_COUNT] = {1, 1, 2, 2, 4, 4, 2, 4, 8};
  const unsigned char *p = va->data + ((size_t)v * va->size + c) * bytes[va->format];
  float f;
  switch (va->format) {
  case VF_UBYTE: return va->type == VT_COLOR || va->type == VT_BLENDWEIGHTS ? p[0] / 255.0 : p[0];
  case VF_USHORT: return p[0] | p[1] << 8;
  case VF_FLOAT: memcpy(&f, p, 4); return f;
  default: return NAN; /* not used by these sources */
  }
}

/* Weight of joint j (source numbering) on vertex v, through map (source -> decoded). */
static double weight_of(const struct model *m, uint32_t v, uint32_t j)
{
  const struct model_varray *bi = array_of(m, VT_BLENDINDEXES), *bw = array_of(m, VT_BLENDWEIGHTS);
  double w = 0, sum = 0;
  for (uint32_t c = 0; c < 4; c++)
    sum += comp(bw, v, c);
  for (uint32_t c = 0; c < 4; c++)
    if ((uint32_t)comp(bi, v, c) == j && comp(bw, v, c) > 0)
      w += comp(bw, v, c);
  return sum > 0 ? w / sum : 0;
}

static void compare(const char *name, const struct model *a, const struct model *b)
{
  uint32_t *map = calloc(a->num_joints + 1, sizeof *map);
  static const uint32_t types[] = {VT_POSITION, VT_TEXCOORD, VT_NORMAL, VT_TANGENT, VT_COLOR};
  if (!map)
    return fail(name, "out of memory");
  checked++;
  if (a->num_joints != b->num_joints)
    return (void)free(map), fail(name, "%u joints became %u", (unsigned)a->num_joints, (unsigned)b->num_joints);
  for (uint32_t j = 0; j < a->num_joints; j++) {
    uint32_t k;
    for (k = 0; k < b->num_joints && strcmp(a->joints[j].name, b->joints[k].name); k++)
      ;
    if (k == b->num_joints)
      return (void)free(map), fail(name, "joint %u lost (of %u)", (unsigned)j, (unsigned)a->num_joints);
    map[j] = k;
  }
  for (uint32_t j = 0; j < a->num_joints; j++) {
    int32_t pa = a->joints[j].parent, pb = b->joints[map[j]].parent;
    double d = matrix_diff(model_rest(a, j), model_rest(b, map[j]));
    if (pa < 0 ? pb >= 0 : pb != (int32_t)map[pa])
      fail(name, "joint %u: parent changed (now %d)", (unsigned)j, (int)pb);
    if (!(d <= 1e-9))
      fail(name, "joint %u: base pose moved by %g", (unsigned)j, d);
  }
  if (a->num_anims != b->num_anims)
    fail(name, "%u anims became %u", (unsigned)a->num_anims, (unsigned)b->num_anims);
  /* frames per animation: egg gives each bundle its own rows, so animations sharing frames
   * of the strip (X42) are laid out one after the other */
  for (uint32_t k = 0; k < a->num_anims && k < b->num_anims; k++) {
    const struct model_anim *x = &a->anims[k], *y = &b->anims[k];
    if (x->num_frames != y->num_frames)
      fail(name, "anim %u: %u frames became %u", (unsigned)k, (unsigned)x->num_frames, (unsigned)y->num_frames);
    if (x->framerate > 0 && x->framerate != y->framerate)
      fail(name, "anim framerate %g became %g", x->framerate, y->framerate);
    if (*x->name && strcmp(x->name, y->name))
      fail(name, "anim %u renamed %s", (unsigned)k, y->name);
    for (uint32_t f = 0; a->frames && b->frames && f < x->num_frames && f < y->num_frames; f++)
      for (uint32_t p = 0; p < a->num_poses && p < a->num_joints; p++) {
        double d = matrix_diff(model_frame(a, x->first_frame + f, p), model_frame(b, y->first_frame + f, map[p]));
        if (!(d <= 1e-7))
          fail(name, "anim %u frame %u pose %u moved by %g", (unsigned)k, (unsigned)f, (unsigned)p, d);
      }
  }
  if (a->num_meshes != b->num_meshes || a->num_triangles != b->num_triangles ||
      a->num_vertexes != b->num_vertexes)
    return (void)free(map), fail(name, "geometry counts changed (%u/%u/%u meshes/triangles/vertices became %u/%u/%u)",
                           (unsigned)a->num_meshes, (unsigned)a->num_triangles, (unsigned)a->num_vertexes,
                           (unsigned)b->num_meshes, (unsigned)b->num_triangles, (unsigned)b->num_vertexes);
  for (uint32_t k = 0; k < a->num_meshes; k++) {
    const struct model_mesh *x = &a->meshes[k], *y = &b->meshes[k];
    if (x->first_vertex != y->first_vertex || x->num_vertexes != y->num_vertexes ||
        x->first_triangle != y->first_triangle || x->num_triangles != y->num_triangles ||
        strcmp(x->material, y->material) || (*x->name && strcmp(x->name, y->name)))
      fail(name, "mesh %u changed", (unsigned)k);
  }
  if (a->num_triangles && memcmp(a->triangles, b->triangles, (size_t)a->num_triangles * 12))
    fail(name, "triangles changed");
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    const struct model_varray *x = array_of(a, types[t]), *y = array_of(b, types[t]);
    if (!x)
      continue;
    if (!y) {
      fail(name, "vertex array type %u lost", (unsigned)types[t]);
      continue;
    }
    for (uint32_t v = 0; v < a->num_vertexes; v++)
      for (uint32_t c = 0; c < x->size && c < 4; c++)
        if (comp(x, v, c) != comp(y, v, c)) {
          fail(name, "vertex array type %u: vertex %u changed", (unsigned)types[t], (unsigned)v);
          v = a->num_vertexes;
          break;
        }
  }
  if (array_of(a, VT_BLENDWEIGHTS)) {
    if (!array_of(b, VT_BLENDWEIGHTS))
      fail(name, "blend weights lost");
    else
      for (uint32_t v = 0; v < a->num_vertexes; v++)
        for (uint32_t j = 0; j < a->num_joints; j++)
          if (fabs(weight_of(a, v, j) - weight_of(b, v, map[j])) > 1.0 / 255 + 1e-12) {
            fail(name, "vertex %u: weight of joint %u changed", (unsigned)v, (unsigned)j);
            v = a->num_vertexes;
            break;
          }
  }
  free(map);
}

static void roundtrip(const char *name, struct model *src)
{
  const struct mdl_format *egg = format_find("egg");
  struct write_opts wo = {0};
  struct byte_buf b;
  struct pipeline_run run;
  char why[256];
  int errors;
  if (model_frames_need_parent(src) && model_frames_to_parent(src, NULL, NULL, NULL, why, sizeof why) < 0) {
    fprintf(stderr, "FAIL %s: frames: %s\n", name, why);
    failures++;
    return;
  }
  buf_init(&b);
  if (egg->write(src, &wo, &b) < 0) {
    fprintf(stderr, "FAIL %s: egg writer: %s\n", name, b.error);
    failures++;
    buf_free(&b);
    return;
  }
  errors = decode(b.data, b.size, "roundtrip.egg", &run);
  if (errors != 0) {
    fprintf(stderr, "FAIL %s: the written egg has %d errors\n", name, errors);
    failures++;
  } else {
    compare(name, src, &run.model);
  }
  pipeline_release(&run);
  buf_free(&b);
}

static void roundtrip_file(const char *path)
{
  struct mdl_input in;
  struct pipeline_run run;
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if (input_open(path, &in, 0) != 0)
    return;
  if (decode(in.data, in.size, path, &run) == 0)
    roundtrip(base, &run.model);
  else
    fprintf(stderr, "skip %s (not decodable without errors)\n", base);
  pipeline_release(&run);
  input_close(&in);
}

static void roundtrip_dir(const char *dir, const char *const *exts)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[1024];
  if (!d)
    return;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    for (const char *const *x = exts; *x; x++)
      if (n > strlen(*x) && !strcmp(e->d_name + n - strlen(*x), *x)) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        roundtrip_file(path);
      }
  }
  closedir(d);
}

int main(void)
{
  static const struct rt_spec specs[] = {
    /* seed meshes w h adj customs color joints poses anims frames bounds comment ext */
    {1, 2, 4, 3, 0, 0, 1, 5, 5, 2, 4, 0, NULL, 0},
    {2, 1, 3, 3, 1, 1, 0, 0, 0, 0, 0, 0, NULL, 0},
    {3, 3, 2, 2, 0, 0, 1, 9, 9, 1, 1, 0, NULL, 0},
  };
  static const char *const model_exts[] = {".iqm", ".iqe", ".x42", ".qmsh", NULL};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    struct model m;
    char name[32];
    model_init(&m);
    snprintf(name, sizeof name, "synthetic-%u", (unsigned)i);
    if (rt_model_build(&m, &specs[i]) < 0) {
      fprintf(stderr, "FAIL %s: out of memory\n", name);
      failures++;
    } else {
      roundtrip(name, &m);
    }
    model_free(&m);
  }
  roundtrip_dir(SRCDIR "/examples", model_exts);
  roundtrip_dir(SRCDIR "/../shared/samples/iqm", model_exts);
  roundtrip_dir(SRCDIR "/../shared/samples/qmsh", model_exts);
  printf("%d models through egg, %d failures\n", checked, failures);
  return failures || checked < 3 ? 1 : 0;
}
