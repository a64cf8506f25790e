/* test_egg_memory.c - what an Egg validation keeps, counted in the model's arena and its tree
 * (deterministic, unlike the peak RSS `make bench` measures): locating a value costs no index of
 * every line, and a pool's vertices keep neither their attributes nor a copy of their names once
 * checked, morph targets apart. */
#include <stdio.h>
#include <string.h>

#include "egg.h"
#include "pipeline.h"
#include "unit.h"


static const char *counted_id;
static unsigned long counted;

static void on_diag(const mdl_diag *d, void *user)
{
  (void)user;
  if (counted_id && !strcmp(d->rule->id, counted_id))
    counted += d->folded ? d->folded : 1;
}

static unsigned long warnings_of(const char *id)
{
  unsigned long n = counted_id && !strcmp(counted_id, id) ? counted : 0;
  return n;
}

/* --resources for the next decode (a validation records references only then), or NULL */
static const char *resources_next;

/* Decoded with pipeline flags (0: validation only, no frames kept, as `mdlcheck FILE` decodes). */
static size_t arena_after_as(const char *text, size_t len, int flags, struct pipeline_run *run)
{
  mdl_options o;
  mdl_options_init(&o);
  o.on_diag = on_diag;
  o.resources = resources_next;
  resources_next = NULL;
  counted = 0;
  ck_assert_int_eq(pipeline_decode(text, len, "t.egg", &o, flags, run), MDL_OK);
  ck_assert(run->decoded);
  return run->model.arena.used_total;
}
static size_t arena_after(const char *text, size_t len, struct pipeline_run *run)
{
  return arena_after_as(text, len, 0, run);
}

static char *text_new(size_t cap)
{
  char *t = malloc(cap);
  ck_assert_ptr_nonnull(t);
  return t;
}

/* What a validation's model.ref_walk yields: each reference copied (its name the tree's, its
 * path the walk's, valid only during the call, copied too). */
struct walked {
  struct model_ref r[4];
  char path[4][96];
  unsigned n;
};
static int walk_into(const struct model_ref *r, void *user)
{
  struct walked *w = user;
  ck_assert_uint_lt(w->n, 4);
  snprintf(w->path[w->n], sizeof w->path[w->n], "%s", r->path);
  w->r[w->n] = *r;
  w->r[w->n].path = w->path[w->n];
  w->n++;
  return 0;
}
static void walk_refs(const struct pipeline_run *run, struct walked *w)
{
  w->n = 0;
  ck_assert_ptr_nonnull(run->model.ref_walk);
  ck_assert_int_eq(run->model.ref_walk(&run->model, NULL, walk_into, w), 0);
}

/* The texture's file name is recorded with its line:column for --resources: finding it must not
 * index the lines of the whole file (8 bytes a line and a pass over it). */
START_TEST(texture_location_indexes_no_lines)
{
  enum { LINES = 200000 };
  static const char head[] = "<CoordinateSystem> { Z-up }\n<Texture> t { \"a.png\" }\n";
  char *text = text_new(sizeof head + LINES);
  struct pipeline_run run;
  size_t used;
  memcpy(text, head, sizeof head - 1);
  memset(text + sizeof head - 1, '\n', LINES);
  resources_next = "/nonexistent";
  struct walked w;
  used = arena_after(text, sizeof head - 1 + LINES, &run);
  ck_assert_uint_eq(run.model.num_refs, 0); /* walked from the tree, not kept */
  walk_refs(&run, &w);
  ck_assert_uint_eq(w.n, 1);
  ck_assert_uint_eq(w.r[0].line, 2);
  ck_assert_uint_eq(w.r[0].column, 15);
  ck_assert_msg(used < LINES * 2, "%zu arena bytes for %d blank lines", used, LINES);
  pipeline_release(&run);
  free(text);
}
END_TEST

/* Validation without --resources reads no reference: none is recorded (issue 26: a <Texture>{a}
 * of 12 bytes kept one of about 100), and with it one per file named (resources_check checks each
 * file once). */
START_TEST(references_only_for_resources)
{
  static const char text[] = "<Texture> t { a.png }\n<Texture> { a.png }\n<File> { b }\n<File> { b }\n";
  struct pipeline_run run;
  struct walked w;
  (void)arena_after(text, sizeof text - 1, &run);
  ck_assert_uint_eq(run.model.num_refs, 0);
  ck_assert_ptr_null(run.model.ref_walk);
  pipeline_release(&run);
  resources_next = "/nonexistent";
  (void)arena_after(text, sizeof text - 1, &run);
  ck_assert_uint_eq(run.model.num_refs, 0); /* walked from the tree as they are checked */
  walk_refs(&run, &w);
  ck_assert_uint_eq(w.n, 2);
  ck_assert_str_eq(w.r[0].ref, "a.png");
  ck_assert_str_eq(w.r[0].path, "<Texture> t");
  ck_assert_str_eq(w.r[1].ref, "b");
  ck_assert_uint_eq(w.r[1].line, 3);
  pipeline_release(&run);
  (void)arena_after_as(text, sizeof text - 1, PIPELINE_FRAMES, &run); /* convert: every one */
  ck_assert_uint_eq(run.model.num_refs, 4);
  pipeline_release(&run);
}
END_TEST

static const struct egg_node *egg_root(const struct pipeline_run *run)
{
  const struct egg_private *priv = run->model.format_data;
  ck_assert_ptr_nonnull(priv);
  ck_assert_uint_eq(priv->magic, EGG_PRIVATE_MAGIC);
  return priv->root;
}

/* A warning on every vertex's colour: each is reported, and the checked vertices give their
 * <RGBA> entries back (the first ones, and those across a new slab, may keep theirs). */
START_TEST(checked_vertices_keep_no_attributes)
{
  enum { VERTICES = 5000 };
  size_t cap = 64 + (size_t)VERTICES * 48, n;
  char *text = text_new(cap);
  struct pipeline_run run;
  unsigned long vertices = 0, with_children = 0, named = 0;
  n = (size_t)snprintf(text, cap, "<VertexPool> p {\n");
  for (int i = 0; i < VERTICES; i++)
    n += (size_t)snprintf(text + n, cap - n, "<Vertex> %d { 0 0 0 <RGBA> { 2 0 0 1 } }\n", i);
  n += (size_t)snprintf(text + n, cap - n, "}\n");
  counted_id = "EGG-VTX-006";
  arena_after(text, n, &run);
  ck_assert_uint_eq(warnings_of("EGG-VTX-006"), VERTICES);
  for (const struct egg_node *v = egg_root(&run); v; v = egg_next_pre(v, egg_root(&run)))
    if (v->spec == S_VERTEX) {
      vertices++;
      with_children += egg_first(v) != NULL;
      named += egg_name(v) == egg_name_elided && egg_index(v) == (int64_t)vertices - 1;
    }
  ck_assert_uint_eq(vertices, VERTICES);
  ck_assert_uint_eq(named, VERTICES);
  ck_assert_msg(with_children * 100 < VERTICES, "%lu of %d vertices kept their <RGBA>", with_children, VERTICES);
  pipeline_release(&run);
  free(text);
}
END_TEST

/* Morph targets under vertices are named by the animation's sliders: they stay in the tree. */
START_TEST(morph_targets_stay)
{
  static const char text[] =
    "<VertexPool> p {\n"
    "  <Vertex> 0 { 0 0 0 <RGBA> { 1 1 1 1 } <Dxyz> frown { 0 -1 0 } }\n"
    "  <Vertex> 1 { 0 0 0 <RGBA> { 1 1 1 1 } <Dxyz> smile { 0 1 0 } }\n"
    "}\n"
    "<Table> {\n"
    "  <Bundle> c {\n"
    "    <Table> \"<skeleton>\" {\n"
    "      <Table> j { <Xfm$Anim_S$> xform { <Scalar> fps { 24 } <S$Anim> x { <V> { 1 } } } }\n"
    "    }\n"
    "    <Table> morph {\n"
    "      <S$Anim> frown { <Scalar> fps { 24 } <V> { 1 } }\n"
    "      <S$Anim> smile { <Scalar> fps { 24 } <V> { 1 } }\n"
    "    }\n"
    "  }\n"
    "}\n";
  struct pipeline_run run;
  counted_id = "EGG-ANM-020";
  arena_after(text, sizeof text - 1, &run);
  ck_assert_uint_eq(warnings_of("EGG-ANM-020"), 0);
  ck_assert_uint_eq(run.result.counts[MDL_WARNING], 0);
  pipeline_release(&run);
}
END_TEST

/* Joints (issue 26 item 8: two million cost 18-25 times the file), a line each. */
static char *joints_text(int joints, size_t *len)
{
  static const char head[] = "<Group> root { <Dart> { 1 }\n", tail[] = "}\n";
  char *text = text_new(sizeof head + sizeof tail + (size_t)joints * 24), *p = text;
  p += sprintf(p, "%s", head);
  for (int i = 0; i < joints; i++)
    p += sprintf(p, "<Joint> j%d { }\n", i);
  p += sprintf(p, "%s", tail);
  *len = (size_t)(p - text);
  return text;
}

/* A decode that builds the joints (convert, compare): a joint's model entry names it by the
 * tree's copy of its name and keeps no matrix besides its pose (a rest matrix and a copy of the
 * name were 160 bytes more a joint, for a <Joint> of 20 bytes of text). */
START_TEST(joints_keep_no_copies)
{
  enum { JOINTS = 100000 };
  struct pipeline_run run;
  size_t used, len;
  char *text = joints_text(JOINTS, &len);
  used = arena_after_as(text, len, PIPELINE_FRAMES, &run);
  ck_assert_uint_eq(run.model.num_joints, JOINTS);
  ck_assert_str_eq(run.model.joints[JOINTS - 1].name, "j99999");
  /* the tree's entry (16 bytes) with its name (4 bytes, then 12 in the strings), the model's
   * joint (16 bytes, its rest pose the shared identity) and its place in the joint list (4): 55
   * bytes a joint of 16 bytes here with the pools' room to grow (64 with a 28-byte entry, 176
   * with the pose in the joint, a joint list of pointers and parents, and a number slot a joint;
   * a rest matrix and a copy of the name made it 336) */
  ck_assert_uint_eq(run.model.num_rests, 1);
  ck_assert_msg(used < (size_t)JOINTS * 60, "%zu arena bytes for %d joints (%zu a joint)", used, JOINTS,
                used / JOINTS);
  pipeline_release(&run);
  free(text);
}
END_TEST

/* poses without frames (a skeleton-only decode) builds no joints: the model counts them and
 * the output walks the tree's (model_joints_next), 20 bytes a joint less than the decode above */
START_TEST(joints_poses_walked)
{
  enum { JOINTS = 100000 };
  struct pipeline_run run;
  struct model_joint_cursor c;
  size_t used, len;
  uint32_t n = 0;
  char *text = joints_text(JOINTS, &len);
  used = arena_after_as(text, len, PIPELINE_FRAMES | PIPELINE_SKELETON, &run);
  ck_assert_uint_eq(run.model.num_joints, JOINTS);
  ck_assert_ptr_null(run.model.joints);
  model_joints_begin(&c);
  while (model_joints_next(&run.model, &c) == 1) {
    ck_assert_int_eq(c.joint.parent, -1);
    n++;
  }
  ck_assert_uint_eq(n, JOINTS);
  ck_assert_str_eq(c.joint.name, "j99999");
  ck_assert_msg(used < (size_t)JOINTS * 40, "%zu arena bytes for %d joints (%zu a joint)", used, JOINTS,
                used / JOINTS);
  pipeline_release(&run);
  free(text);
}
END_TEST

/* Validation alone reads the joints' count only (the report's stats): it builds neither the
 * model's joints nor their list, 20 bytes a joint less than the decode above. */
START_TEST(joints_validation_counts)
{
  enum { JOINTS = 100000 };
  struct pipeline_run run;
  size_t used, len;
  char *text = joints_text(JOINTS, &len);
  used = arena_after(text, len, &run);
  ck_assert_uint_eq(run.result.stats.joints, JOINTS);
  ck_assert_uint_eq(run.model.num_joints, 0);
  ck_assert_ptr_null(run.model.joints);
  /* the tree's entry with its name: 35 bytes a joint with the pools' room to grow, 55 before */
  ck_assert_msg(used < (size_t)JOINTS * 40, "%zu arena bytes for %d joints (%zu a joint)", used, JOINTS,
                used / JOINTS);
  pipeline_release(&run);
  free(text);
}
END_TEST

/* A joint's <Transform> builds its rest pose, which validation alone does not build: its
 * components' values are counted, not kept (a <Matrix4>'s 16 numbers were 136 bytes). */
START_TEST(transforms_validation_drops_values)
{
  enum { JOINTS = 50000 };
  static const char head[] = "<Group> root { <Dart> { 1 }\n", tail[] = "}\n";
  char *text = text_new(sizeof head + sizeof tail + (size_t)JOINTS * 96), *p = text;
  struct pipeline_run run;
  size_t used;
  p += sprintf(p, "%s", head);
  for (int i = 0; i < JOINTS; i++)
    p += sprintf(p, "<Joint>{<Transform>{<Matrix4>{1 0 0 0 0 1 0 0 0 0 1 0 %d 2 3 1}<Translate>{1 2 3}}}\n", i % 10);
  p += sprintf(p, "%s", tail);
  used = arena_after(text, (size_t)(p - text), &run);
  ck_assert_uint_eq(run.result.stats.joints, JOINTS);
  ck_assert_uint_eq(run.result.counts[MDL_ERROR], 0);
  /* four entries (64 bytes) and two value counts: 90 bytes a joint of 83 bytes of text with the
   * pools' room to grow; 295 with the values kept (and 100 more with the model's joint and its
   * rest pose before validation stopped building them) */
  ck_assert_msg(used < (size_t)JOINTS * 120, "%zu arena bytes for %d joints (%zu a joint)", used, JOINTS,
                used / JOINTS);
  pipeline_release(&run);
  free(text);
}
END_TEST

/* Tables standing in for joints (an animation file without <Joint>s): a table keeps no number
 * slot (20 bytes a `<Table>{}` of 9 before); the poses decode finds a nested table's parent
 * joint in the list of joints. */
START_TEST(tables_keep_no_number)
{
  enum { TABLES = 100000 };
  static const char head[] = "<Table> { <Bundle> b { <Table> \"<skeleton>\" {\n", tail[] = "} } }\n";
  static const char nested[] =
    "<Table> { <Bundle> b { <Table> \"<skeleton>\" { <Table> a { <Table> b { } <Table> c { <Table> d { } } }"
    " <Table> e { } } } }\n";
  static const int32_t parents[] = {-1, 0, 0, 2, -1};
  char *text = text_new(sizeof head + sizeof tail + (size_t)TABLES * 24), *p = text;
  struct pipeline_run run;
  size_t used;
  p += sprintf(p, "%s", head);
  for (int i = 0; i < TABLES; i++)
    p += sprintf(p, "<Table> j%d { }\n", i);
  p += sprintf(p, "%s", tail);
  used = arena_after(text, (size_t)(p - text), &run);
  ck_assert_uint_eq(run.result.stats.joints, TABLES);
  /* the entry and its name: 35 bytes a table with the pools' room to grow, 55 before */
  ck_assert_msg(used < (size_t)TABLES * 40, "%zu arena bytes for %d tables (%zu a table)", used, TABLES,
                used / TABLES);
  pipeline_release(&run);
  free(text);
  arena_after_as(nested, sizeof nested - 1, PIPELINE_FRAMES | PIPELINE_SKELETON, &run);
  ck_assert_uint_eq(run.model.num_joints, 5);
  for (uint32_t j = 0; j < 5; j++)
    ck_assert_int_eq(run.model.joints[j].parent, parents[j]);
  ck_assert_str_eq(run.model.joints[3].name, "d");
  pipeline_release(&run);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("egg_memory");
  TCase *tc = tcase_create("validate");
  tcase_add_test(tc, texture_location_indexes_no_lines);
  tcase_add_test(tc, references_only_for_resources);
  tcase_add_test(tc, checked_vertices_keep_no_attributes);
  tcase_add_test(tc, morph_targets_stay);
  tcase_add_test(tc, joints_keep_no_copies);
  tcase_add_test(tc, joints_poses_walked);
  tcase_add_test(tc, joints_validation_counts);
  tcase_add_test(tc, transforms_validation_drops_values);
  tcase_add_test(tc, tables_keep_no_number);
  suite_add_tcase(s, tc);
  return unit_run(s);
}
