/* test_egg_geometry.c - egg vertex pools, primitives and memberships reach the common model:
 * triangulation (fan, strip, concave polygon), winding, meshes per group and texture, the
 * attributes, and soft-skin weights reduced to IQM's 4 ubyte influences. */
#include <math.h>
#include <string.h>

#include "pipeline.h"
#include "unit.h"

static unsigned warnings_023;

static void on_diag(const mdl_diag *d, void *user)
{
  (void)user;
  if (!strcmp(d->rule->id, "EGG-VTX-023"))
    warnings_023++;
}

static void decode(const char *text, struct pipeline_run *run)
{
  mdl_options o;
  mdl_options_init(&o);
  o.on_diag = on_diag;
  warnings_023 = 0;
  ck_assert_int_eq(pipeline_decode(text, strlen(text), "t.egg", &o, 1, run), MDL_OK);
  ck_assert(run->decoded);
  ck_assert_str_eq(run->format->name, "egg");
}

static uint32_t tri(const struct model *m, uint32_t t, int k)
{
  const unsigned char *p = m->triangles + 12 * (size_t)t + 4 * (size_t)k;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const struct model_varray *varray(const struct model *m, uint32_t type)
{
  for (uint32_t i = 0; i < m->num_varrays; i++)
    if (m->varrays[i].type == type)
      return &m->varrays[i];
  return NULL;
}

static float f32(const struct model_varray *va, uint32_t v, uint32_t c)
{
  float f;
  memcpy(&f, va->data + 4 * ((size_t)v * va->size + c), 4);
  return f;
}

static const char quad[] =
  "<VertexPool> p {\n"
  "  <Vertex> 1 { 0 0 0 <Normal> { 0 0 1 } <UV> { 0 0 } }\n"
  "  <Vertex> 2 { 1 0 0 <Normal> { 0 0 1 } <UV> { 1 0 } }\n"
  "  <Vertex> 3 { 1 1 0 <Normal> { 0 0 1 } <UV> { 1 1 } }\n"
  "  <Vertex> 4 { 0 1 0 <Normal> { 0 0 1 } <UV> { 0 1 } }\n"
  "}\n"
  "<Group> sheet { <Polygon> { <VertexRef> { 1 2 3 4 <Ref> { p } } } }\n";

START_TEST(convex_quad_is_a_fan_reversed)
{
  struct pipeline_run run;
  const struct model *m = &run.model;
  decode(quad, &run);
  ck_assert_uint_eq(m->num_meshes, 1);
  ck_assert_str_eq(m->meshes[0].name, "sheet");
  ck_assert_uint_eq(m->num_vertexes, 4);
  ck_assert_uint_eq(m->num_triangles, 2);
  /* egg (1 2 3) (1 3 4) counterclockwise; the model is clockwise */
  ck_assert_uint_eq(tri(m, 0, 0), 0);
  ck_assert_uint_eq(tri(m, 0, 1), 2);
  ck_assert_uint_eq(tri(m, 0, 2), 1);
  ck_assert_uint_eq(tri(m, 1, 0), 0);
  ck_assert_uint_eq(tri(m, 1, 1), 3);
  ck_assert_uint_eq(tri(m, 1, 2), 2);
  ck_assert_ptr_nonnull(varray(m, VT_NORMAL));
  ck_assert(f32(varray(m, VT_NORMAL), 2, 2) == 1.0f);
  ck_assert_ptr_nonnull(varray(m, VT_TEXCOORD));
  ck_assert(f32(varray(m, VT_TEXCOORD), 2, 0) == 1.0f && f32(varray(m, VT_TEXCOORD), 2, 1) == 1.0f);
  ck_assert(f32(varray(m, VT_POSITION), 1, 0) == 1.0f);
  ck_assert_ptr_null(varray(m, VT_BLENDWEIGHTS));
  pipeline_release(&run);
}
END_TEST

/* A concave arrow: no triangle may leave the polygon, and the areas add up to its own. */
START_TEST(concave_polygon_is_ear_clipped)
{
  static const char text[] =
    "<VertexPool> p {\n"
    "  <Vertex> 0 { 0 0 0 } <Vertex> 1 { 4 0 0 } <Vertex> 2 { 4 4 0 }\n"
    "  <Vertex> 3 { 2 1 0 } <Vertex> 4 { 0 4 0 }\n"
    "}\n"
    "<Group> g { <Polygon> { <VertexRef> { 0 1 2 3 4 <Ref> { p } } } }\n";
  struct pipeline_run run;
  const struct model *m = &run.model;
  const struct model_varray *pos;
  double area = 0;
  decode(text, &run);
  ck_assert_uint_eq(m->num_triangles, 3);
  pos = varray(m, VT_POSITION);
  for (uint32_t t = 0; t < 3; t++) {
    uint32_t a = tri(m, t, 0), b = tri(m, t, 1), c = tri(m, t, 2);
    double cr = (f32(pos, b, 0) - f32(pos, a, 0)) * (f32(pos, c, 1) - f32(pos, a, 1)) -
                (f32(pos, b, 1) - f32(pos, a, 1)) * (f32(pos, c, 0) - f32(pos, a, 0));
    ck_assert(cr < 0); /* clockwise, like the rest */
    area += -cr / 2;
    /* the fan from vertex 0 would make (0 2 3), which crosses outside the notch at 3 */
    ck_assert(!(a == 0 && (b == 2 || c == 2) && (b == 3 || c == 3)));
  }
  ck_assert(fabs(area - 10.0) < 1e-9); /* 16 minus the notch (2 + 4) */
  pipeline_release(&run);
}
END_TEST

/* Vertices come in pool order, not in order of first use; the triangle follows them. */
START_TEST(vertices_in_pool_order)
{
  static const char text[] =
    "<VertexPool> p { <Vertex> 1 { 1 0 0 } <Vertex> 2 { 2 0 0 } <Vertex> 3 { 3 0 0 } }\n"
    "<Group> g { <Polygon> { <VertexRef> { 3 1 2 <Ref> { p } } } }\n";
  struct pipeline_run run;
  const struct model *m = &run.model;
  decode(text, &run);
  ck_assert_uint_eq(m->num_vertexes, 3);
  for (uint32_t v = 0; v < 3; v++)
    ck_assert(f32(varray(m, VT_POSITION), v, 0) == (float)(v + 1));
  /* egg (3 1 2) reversed: (3 2 1) */
  ck_assert_uint_eq(tri(m, 0, 0), 2);
  ck_assert_uint_eq(tri(m, 0, 1), 1);
  ck_assert_uint_eq(tri(m, 0, 2), 0);
  pipeline_release(&run);
}
END_TEST

START_TEST(strips_and_fans)
{
  static const char text[] =
    "<VertexPool> p {\n"
    "  <Vertex> 0 { 0 0 0 } <Vertex> 1 { 0 1 0 } <Vertex> 2 { 1 0 0 }\n"
    "  <Vertex> 3 { 1 1 0 } <Vertex> 4 { 2 0 0 }\n"
    "}\n"
    "<Group> s { <TriangleStrip> { <VertexRef> { 0 1 2 3 4 <Ref> { p } } } }\n"
    "<Group> f { <TriangleFan> { <VertexRef> { 0 1 3 4 <Ref> { p } } } }\n";
  struct pipeline_run run;
  const struct model *m = &run.model;
  decode(text, &run);
  ck_assert_uint_eq(m->num_meshes, 2);
  ck_assert_uint_eq(m->meshes[0].num_triangles, 3);
  ck_assert_uint_eq(m->meshes[1].num_triangles, 2);
  ck_assert_uint_eq(m->meshes[1].first_triangle, 3);
  ck_assert_uint_eq(m->meshes[1].first_vertex, 5);
  ck_assert_uint_eq(m->num_vertexes, 9); /* the fan's vertices are its own copies */
  /* strip (0 1 2) (2 1 3) (2 3 4), each reversed */
  ck_assert_uint_eq(tri(m, 1, 0), 2);
  ck_assert_uint_eq(tri(m, 1, 1), 3);
  ck_assert_uint_eq(tri(m, 1, 2), 1);
  /* fan (0 1 3) (0 3 4), reversed, in the fan mesh's own vertices */
  ck_assert_uint_eq(tri(m, 4, 0), 5);
  ck_assert_uint_eq(tri(m, 4, 1), 8);
  ck_assert_uint_eq(tri(m, 4, 2), 7);
  pipeline_release(&run);
}
END_TEST

START_TEST(meshes_by_texture)
{
  static const char text[] =
    "<Texture> wood { \"tex/wood.png\" }\n"
    "<Material> shiny { <Scalar> diffr { 1 } }\n"
    "<VertexPool> p { <Vertex> 0 { 0 0 0 } <Vertex> 1 { 1 0 0 } <Vertex> 2 { 0 1 0 } }\n"
    "<Group> g {\n"
    "  <Polygon> { <TRef> { wood } <VertexRef> { 0 1 2 <Ref> { p } } }\n"
    "  <Polygon> { <MRef> { shiny } <RGBA> { 1 0 0 1 } <VertexRef> { 0 1 2 <Ref> { p } } }\n"
    "  <Polygon> { <TRef> { wood } <VertexRef> { 2 1 0 <Ref> { p } } }\n"
    "}\n";
  struct pipeline_run run;
  const struct model *m = &run.model;
  const struct model_varray *col;
  decode(text, &run);
  ck_assert_uint_eq(m->num_meshes, 2);
  ck_assert_str_eq(m->meshes[0].material, "tex/wood.png");
  ck_assert_uint_eq(m->meshes[0].num_triangles, 2);
  ck_assert_str_eq(m->meshes[1].material, "shiny");
  col = varray(m, VT_COLOR);
  ck_assert_ptr_nonnull(col);
  ck_assert_uint_eq(col->format, VF_UBYTE);
  /* the primitive's colour on its vertices, white where none is given */
  ck_assert_uint_eq(col->data[4 * m->meshes[1].first_vertex + 1], 0);
  ck_assert_uint_eq(col->data[4 * m->meshes[1].first_vertex], 255);
  ck_assert_uint_eq(col->data[1], 255);
  pipeline_release(&run);
}
END_TEST

/* Vertex 0: five joints (0.1 .. 0.5): the smallest is dropped, the rest renormalised;
 * vertex 1: two references of one joint add up; vertex 2: no membership, in joint c. */
static const char skin[] =
  "<VertexPool> p { <Vertex> 0 { 0 0 0 } <Vertex> 1 { 1 0 0 } <Vertex> 2 { 0 1 0 } }\n"
  "<Group> ch {\n"
  "  <Dart> { 1 }\n"
  "  <Joint> a {\n"
  "    <VertexRef> { 0 <Scalar> membership { 0.1 } <Ref> { p } }\n"
  "    <VertexRef> { 1 <Scalar> membership { 0.25 } <Ref> { p } }\n"
  "    <VertexRef> { 1 <Scalar> membership { 0.25 } <Ref> { p } }\n"
  "    <Joint> b { <VertexRef> { 0 <Scalar> membership { 0.2 } <Ref> { p } }\n"
  "                <VertexRef> { 1 <Scalar> membership { 0.5 } <Ref> { p } } }\n"
  "    <Joint> c { <VertexRef> { 0 <Scalar> membership { 0.3 } <Ref> { p } }\n"
  "      <Group> mesh { <Polygon> { <VertexRef> { 0 1 2 <Ref> { p } } } } }\n"
  "    <Joint> d { <VertexRef> { 0 <Scalar> membership { 0.15 } <Ref> { p } } }\n"
  "    <Joint> e { <VertexRef> { 0 <Scalar> membership { 0.25 } <Ref> { p } } }\n"
  "  }\n"
  "}\n";

START_TEST(soft_skin_four_largest)
{
  struct pipeline_run run;
  const struct model *m = &run.model;
  const struct model_varray *bi, *bw;
  decode(skin, &run);
  ck_assert_uint_eq(m->num_joints, 5);
  ck_assert_uint_eq(warnings_023, 1);
  bi = varray(m, VT_BLENDINDEXES);
  bw = varray(m, VT_BLENDWEIGHTS);
  ck_assert_ptr_nonnull(bi);
  ck_assert_ptr_nonnull(bw);
  ck_assert_uint_eq(bw->format, VF_UBYTE);
  /* vertex 0: c 0.3, e 0.25, b 0.2, d 0.15 of 0.9 (a's 0.1 dropped) */
  ck_assert_uint_eq(bi->data[0], 2);
  ck_assert_uint_eq(bi->data[1], 4);
  ck_assert_uint_eq(bi->data[2], 1);
  ck_assert_uint_eq(bi->data[3], 3);
  ck_assert_uint_eq(bw->data[0] + bw->data[1] + bw->data[2] + bw->data[3], 255);
  ck_assert_uint_eq(bw->data[0], 85); /* 0.3 / 0.9 * 255 */
  /* vertex 1: a 0.5 (0.25 + 0.25) and b 0.5 */
  ck_assert_uint_eq(bw->data[4] + bw->data[5], 255);
  ck_assert(bw->data[4] >= 127 && bw->data[5] >= 127);
  ck_assert_uint_eq(bw->data[6], 0);
  /* vertex 2: the enclosing joint c, whole */
  ck_assert_uint_eq(bi->data[8], 2);
  ck_assert_uint_eq(bw->data[8], 255);
  pipeline_release(&run);
}
END_TEST

START_TEST(box_sample)
{
  FILE *f = fopen(SAMPLES "/egg/p3d_box.egg", "rb");
  static char text[65536];
  size_t n;
  struct pipeline_run run;
  if (!f)
    return; /* the sample is absent here */
  n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  decode(text, &run);
  ck_assert_uint_eq(run.model.num_meshes, 1);
  ck_assert_uint_eq(run.model.num_triangles, 12);
  ck_assert_uint_eq(run.model.num_vertexes, 24);
  ck_assert_str_eq(run.model.meshes[0].material, "maps/noise.rgb");
  pipeline_release(&run);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("egg_geometry");
  TCase *tc = tcase_create("decode");
  tcase_add_test(tc, convex_quad_is_a_fan_reversed);
  tcase_add_test(tc, concave_polygon_is_ear_clipped);
  tcase_add_test(tc, vertices_in_pool_order);
  tcase_add_test(tc, strips_and_fans);
  tcase_add_test(tc, meshes_by_texture);
  tcase_add_test(tc, soft_skin_four_largest);
  tcase_add_test(tc, box_sample);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
