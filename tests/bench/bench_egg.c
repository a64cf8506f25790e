/* bench_egg.c - the benchmark egg file, written as text directly (the egg writer prints only
 * trees decoded from egg): a skinned character of grid meshes in one vertex pool, a joint tree
 * whose <VertexRef>s give every vertex two memberships summing to 1, and one animation bundle
 * of long <Xfm$Anim_S$> tables (nine channels per joint). Deterministic for a given seed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_gen.h"


struct egg_out {
  FILE *f;
  uint64_t rng;
  unsigned grid;   /* vertices per grid side */
  unsigned joints; /* joint k's parent is (k - 1) / 3 */
};

static uint64_t rng_next(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* " v" with v rounded to 1e-6 and trailing zeros dropped: short, exact decimal text */
static void put_num(FILE *f, double v)
{
  char s[32], *p = s + sizeof s;
  long long q = llround(v * 1e6);
  unsigned long long a = q < 0 ? (unsigned long long)-q : (unsigned long long)q;
  unsigned long long ip = a / 1000000, fp = a % 1000000;
  int digits = 6;
  while (digits && fp % 10 == 0) {
    fp /= 10;
    digits--;
  }
  *--p = 0;
  for (int i = 0; i < digits; i++) {
    *--p = (char)('0' + fp % 10);
    fp /= 10;
  }
  if (digits)
    *--p = '.';
  do {
    *--p = (char)('0' + ip % 10);
    ip /= 10;
  } while (ip);
  if (q < 0)
    *--p = '-';
  *--p = ' ';
  fputs(p, f);
}

static void put_vertices(struct egg_out *o, unsigned grids)
{
  fputs("  <VertexPool> body {\n", o->f);
  for (unsigned g = 0; g < grids; g++)
    for (unsigned y = 0; y < o->grid; y++)
      for (unsigned x = 0; x < o->grid; x++) {
        double px = x * 0.125 + g * 3.0, py = y * 0.125, pz = 0.25 * sin(px) * cos(py);
        double nx = -0.25 * cos(px) * cos(py), ny = 0.25 * sin(px) * sin(py), nz = 1;
        double nl = sqrt(nx * nx + ny * ny + nz * nz);
        fprintf(o->f, "    <Vertex> %u {", (g * o->grid + y) * o->grid + x);
        put_num(o->f, px);
        put_num(o->f, py);
        put_num(o->f, pz);
        fputs("\n      <Normal> {", o->f);
        put_num(o->f, nx / nl);
        put_num(o->f, ny / nl);
        put_num(o->f, nz / nl);
        fputs(" }\n      <UV> {", o->f);
        put_num(o->f, (double)x / o->grid);
        put_num(o->f, 1 - (double)y / o->grid);
        fputs(" }\n    }\n", o->f);
      }
  fputs("  }\n", o->f);
}

static void put_polygons(struct egg_out *o, unsigned grids)
{
  for (unsigned g = 0; g < grids; g++) {
    fprintf(o->f, "  <Group> mesh%u {\n", g);
    for (unsigned y = 0; y + 1 < o->grid; y++)
      for (unsigned x = 0; x + 1 < o->grid; x++) {
        unsigned v = (g * o->grid + y) * o->grid + x;
        fprintf(o->f, "    <Polygon> { <TRef> { skin } <VertexRef> { %u %u %u <Ref> { body } } }\n",
                v, v + 1, v + o->grid + 1);
        fprintf(o->f, "    <Polygon> { <TRef> { skin } <VertexRef> { %u %u %u <Ref> { body } } }\n",
                v, v + o->grid + 1, v + o->grid);
      }
    fputs("  }\n", o->f);
  }
}

static void put_vertex_ref(FILE *f, unsigned first, unsigned count, double membership)
{
  fputs("<VertexRef> {", f);
  for (unsigned i = 0; i < count; i++)
    fprintf(f, "%s%u", i % 16 ? " " : "\n", first + i);
  fprintf(f, "\n<Scalar> membership {");
  put_num(f, membership);
  fputs(" } <Ref> { body } }\n", f);
}

static void put_joint(struct egg_out *o, unsigned j, unsigned nverts)
{
  unsigned block = nverts / o->joints, prev = (j + o->joints - 1) % o->joints;
  fprintf(o->f, "<Joint> joint%u {\n<Transform> { <Translate> {", j);
  put_num(o->f, j ? 0.5 + (double)(rng_next(&o->rng) % 1000) / 1000 : 0);
  put_num(o->f, 0);
  put_num(o->f, j ? 0.25 : 0);
  fputs(" } }\n", o->f);
  /* every vertex of block j: 0.75 to joint j, 0.25 to joint j + 1 */
  put_vertex_ref(o->f, j * block, j + 1 == o->joints ? nverts - j * block : block, 0.75);
  put_vertex_ref(o->f, prev * block, prev + 1 == o->joints ? nverts - prev * block : block, 0.25);
  for (unsigned k = 3 * j + 1; k <= 3 * j + 3 && k < o->joints; k++)
    put_joint(o, k, nverts);
  fputs("}\n", o->f);
}

static void put_channel(struct egg_out *o, char name, unsigned frames, double base, double amp)
{
  double phase = (double)(rng_next(&o->rng) % 6283) / 1000, rate = 0.01 + (double)(rng_next(&o->rng) % 50) / 1000;
  fprintf(o->f, "<S$Anim> %c { <V> {", name);
  for (unsigned i = 0; i < frames; i++) {
    if (i % 12 == 0)
      fputc('\n', o->f);
    put_num(o->f, base + amp * sin(phase + rate * i));
  }
  fputs("\n} }\n", o->f);
}

static void put_table(struct egg_out *o, unsigned j, unsigned frames)
{
  fprintf(o->f, "<Table> joint%u {\n<Xfm$Anim_S$> xform {\n<Scalar> fps { 30 }\n", j);
  for (const char *c = "ijk"; *c; c++)
    put_channel(o, *c, frames, 1, 0.05);
  for (const char *c = "hpr"; *c; c++)
    put_channel(o, *c, frames, 0, 45);
  for (const char *c = "xyz"; *c; c++)
    put_channel(o, *c, frames, *c == 'x' && j ? 0.75 : 0, 0.25);
  fputs("}\n", o->f);
  for (unsigned k = 3 * j + 1; k <= 3 * j + 3 && k < o->joints; k++)
    put_table(o, k, frames);
  fputs("}\n", o->f);
}

int bench_egg_write(FILE *f, unsigned units, uint64_t seed, struct bench_egg_info *info)
{
  /* units 0: a tiny character for the batch directory (still one vertex per joint or more) */
  struct egg_out o = {f, seed, units ? 128 : 6, units ? 100 : 4};
  unsigned grids = units ? 8 * units : 1, frames = units ? 3000 * units : 8;
  unsigned nverts = grids * o.grid * o.grid;

  fputs("<CoordinateSystem> { Z-up }\n"
        "<Comment> { \"mdlcheck benchmark character (tests/bench/bench_egg.c)\" }\n"
        "<Texture> skin { \"skin.png\" }\n"
        "<Group> character {\n  <Dart> { 1 }\n", f);
  put_vertices(&o, grids);
  put_polygons(&o, grids);
  put_joint(&o, 0, nverts);
  fputs("}\n<Table> {\n<Bundle> character {\n<Table> \"<skeleton>\" {\n", f);
  put_table(&o, 0, frames);
  fputs("}\n}\n}\n", f);
  info->vertices = nverts;
  info->triangles = grids * 2 * (o.grid - 1) * (o.grid - 1);
  info->joints = o.joints;
  info->frames = frames;
  return ferror(f) ? -1 : 0;
}
