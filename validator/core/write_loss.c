/* write_loss.c - a writer's announcements of what the target cannot carry (write_loss.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_info.h"
#include "write_loss.h"

void write_loss(struct write_losses *l, enum rule_index rule, enum rule_index proof,
                const struct mdl_loc *loc, const char *actual_fmt, ...)
{
  char actual[256];
  va_list ap;
  if (!l)
    return;
  va_start(ap, actual_fmt);
  vsnprintf(actual, sizeof actual, actual_fmt, ap);
  va_end(ap);
  if (l->diag)
    diag_emit(l->diag, rule, loc, NULL, "%s", actual);
  write_loss_also(l, rule, proof);
}

void write_loss_also(struct write_losses *l, enum rule_index rule, enum rule_index proof)
{
  size_t i;
  if (!l)
    return;
  for (i = 0; i < l->n && (l->item[i].rule != rule || l->item[i].proof != proof); i++)
    ;
  if (i == l->n && l->n < WRITE_LOSS_MAX) {
    l->item[l->n].rule = rule;
    l->item[l->n].proof = proof;
    l->n++;
  }
}

int write_refuse(struct write_losses *l, struct byte_buf *b, enum rule_index rule, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->error, sizeof b->error, fmt, ap);
  va_end(ap);
  if (l && l->diag) {
    struct mdl_loc loc = loc_none();
    diag_emit(l->diag, rule, &loc, NULL, "%s", b->error);
  }
  if (l)
    l->refused = 1;
  return -1;
}

void write_loss_loops(struct write_losses *l, const struct model *m, enum rule_index rule)
{
  for (uint32_t i = 0; l && i < m->num_anims; i++) {
    struct mdl_loc loc = loc_none();
    if (!(m->anims[i].flags & MODEL_ANIM_LOOP))
      continue;
    snprintf(loc.path, sizeof loc.path, "anims[%u]", (unsigned)i);
    write_loss(l, rule, RULE_CORE_COMPARE_ANIM_LOOP, &loc, "%u '%.60s'", (unsigned)i,
               m->anims[i].name ? m->anims[i].name : "");
  }
}

/* The references a walk of m->refs has met, loaded ones by kind and name, and the meshes'
 * material names: whether a reference is the first to its file, or a material, in constant time
 * (a scan from the list's head for each reference, and of every mesh, was quadratic in a file
 * naming a million). Without memory for the tables the announcements are not made and the
 * losses say so (oom): the conversion then has no verdict. */
struct ref_walk {
  const struct model_ref **seen; /* open addressing, mask + 1 slots */
  const char **mats;
  size_t mask, mat_mask;
};

static size_t name_hash(const char *s, unsigned kind)
{
  uint64_t h = 1469598103934665603ull ^ kind; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (size_t)(h ^ (h >> 29));
}

static size_t table_size(size_t n)
{
  size_t cap = 16;
  while (cap < 2 * n && cap < ((size_t)-1 >> 2))
    cap <<= 1;
  return cap;
}

static int ref_walk_init(struct ref_walk *w, const struct model *m)
{
  size_t n = 0;
  memset(w, 0, sizeof *w);
  for (const struct model_ref *r = m->refs; r; r = r->next)
    n++;
  w->seen = calloc(table_size(n), sizeof *w->seen);
  w->mats = calloc(table_size(m->num_meshes), sizeof *w->mats);
  if (!w->seen || !w->mats) {
    free(w->seen);
    free(w->mats);
    return -1;
  }
  w->mask = table_size(n) - 1;
  w->mat_mask = table_size(m->num_meshes) - 1;
  for (uint32_t i = 0; i < m->num_meshes; i++) {
    const char *mat = m->meshes[i].material;
    size_t h;
    if (!mat)
      continue;
    for (h = name_hash(mat, 0) & w->mat_mask; w->mats[h] && strcmp(w->mats[h], mat); h = (h + 1) & w->mat_mask)
      ;
    w->mats[h] = mat;
  }
  return 0;
}

static void ref_walk_free(struct ref_walk *w)
{
  free(w->seen);
  free(w->mats);
}

/* model_ref_is_material through the table. */
static int ref_walk_material(const struct ref_walk *w, const struct model_ref *r)
{
  for (size_t h = name_hash(r->ref, 0) & w->mat_mask; w->mats[h]; h = (h + 1) & w->mat_mask)
    if (!strcmp(w->mats[h], r->ref))
      return 1;
  return 0;
}

/* 1 when r, the next reference of the walk (every one is passed, in order), is the first of m
 * to its file that a loader loads (each is announced once, at the place the model first names
 * it; an unused one before it does not count), else 0. */
static int ref_walk_first(struct ref_walk *w, const struct model_ref *r)
{
  size_t h;
  for (h = name_hash(r->ref, r->kind) & w->mask; w->seen[h]; h = (h + 1) & w->mask)
    if (w->seen[h]->kind == r->kind && !strcmp(w->seen[h]->ref, r->ref))
      return 0;
  if (!r->unused)
    w->seen[h] = r;
  return 1;
}

/* Where r is in the file. */
static struct mdl_loc ref_place(const struct model_ref *r)
{
  if (r->offset >= 0)
    return loc_bin((uint64_t)r->offset, "%s", r->path);
  if (r->line)
    return loc_text(r->line, r->column, "%s", r->path);
  return loc_none();
}

void write_loss_refs(struct write_losses *l, const struct model *m, enum rule_index rule)
{
  struct ref_walk w;
  if (!l)
    return;
  if (ref_walk_init(&w, m) < 0) {
    l->oom = 1;
    return;
  }
  for (const struct model_ref *r = m->refs; r; r = r->next) {
    struct mdl_loc loc;
    if (!ref_walk_first(&w, r) || !model_ref_loaded_file(r) || ref_walk_material(&w, r))
      continue;
    loc = ref_place(r);
    write_loss(l, rule, RULE_CORE_COMPARE_REFERENCE, &loc, "%s '%.200s'",
               r->kind == MODEL_REF_MODEL ? "external model" : "texture", r->ref);
  }
  ref_walk_free(&w);
}

void write_loss_tags_lods(struct write_losses *l, const struct model *m, const char *target, int keeps_tags)
{
  struct mdl_loc loc = loc_none();
  if (!l)
    return;
  if (m->num_tags && !keeps_tags) {
    const struct model_tag *t = &m->tags[0];
    snprintf(loc.path, sizeof loc.path, "tags[0]");
    write_loss(l, RULE_CORE_CONVERT_TAGS, RULE_CORE_COMPARE_TAG_COUNT, &loc,
               "%u tags (the first: '%.60s' on joint %d); %s has no attachment points", (unsigned)m->num_tags,
               t->name ? t->name : "", t->joint < 0 ? -1 : t->joint, target);
  }
  if (!model_lods_trivial(m)) {
    snprintf(loc.path, sizeof loc.path, "lods");
    write_loss(l, RULE_CORE_CONVERT_LODS, RULE_CORE_COMPARE_LOD_COUNT, &loc,
               "%u levels of detail; %s has none", (unsigned)m->num_lods, target);
    write_loss_also(l, RULE_CORE_CONVERT_LODS, RULE_CORE_COMPARE_LOD);
  }
  for (uint32_t i = 0; i < m->num_anims; i++) {
    if (!m->anims[i].reverse)
      continue;
    snprintf(loc.path, sizeof loc.path, "anims[%u]", (unsigned)i);
    write_loss(l, RULE_CORE_CONVERT_ANIM_REVERSE, RULE_CORE_COMPARE_ANIM_REVERSE, &loc, "%u '%.60s' (%s)",
               (unsigned)i, m->anims[i].name ? m->anims[i].name : "", target);
  }
}

void write_loss_influences(struct write_losses *l, const struct model *m, uint32_t keep, const char *target)
{
  const struct model_varray *bw = model_varray_find(m, VT_BLENDWEIGHTS, 1);
  uint32_t eb, n = 0, first = 0;
  double total = 0, worst = 0;
  struct mdl_loc loc = loc_none();
  if (!l || !bw || bw->size <= keep || !(eb = vformat_bytes(bw->format)))
    return;
  for (uint32_t v = 0; v < m->num_vertexes; v++) {
    double w[16], sum = 0, kept = 0;
    uint32_t k, nw = bw->size < 16 ? bw->size : 16, used = 0;
    for (k = 0; k < nw; k++) {
      w[k] = vformat_get(bw->data + ((size_t)v * bw->size + k) * eb, bw->format, 1);
      if (w[k] > 0) {
        sum += w[k];
        used++;
      } else {
        w[k] = 0;
      }
    }
    if (used <= keep || sum <= 0)
      continue;
    /* the heaviest keep weights stay (the writers keep those) */
    for (uint32_t s = 0; s < keep; s++) {
      uint32_t best = 0;
      for (k = 1; k < nw; k++)
        if (w[k] > w[best])
          best = k;
      kept += w[best];
      w[best] = 0;
    }
    if (!n++)
      first = v;
    total += (sum - kept) / sum;
    if ((sum - kept) / sum > worst)
      worst = (sum - kept) / sum;
  }
  if (!n)
    return;
  snprintf(loc.path, sizeof loc.path, "vertexes[%u]", (unsigned)first);
  write_loss(l, RULE_CORE_CONVERT_INFLUENCES, RULE_CORE_COMPARE_VERTEX, &loc,
             "%u vertices (the first: %u) have more than the %u influences %s keeps: %.3g of their weight is "
             "dropped in all, at most %.3g of one vertex", (unsigned)n, (unsigned)first, (unsigned)keep, target,
             total, worst);
  write_loss_also(l, RULE_CORE_CONVERT_INFLUENCES, RULE_CORE_COMPARE_TRIANGLES);
}

/* 1 when some vertex colour of m is not opaque white (what a reader without colours shows). */
static int colors_not_white(const struct model *m, const struct model_varray *c, uint32_t *first)
{
  uint32_t eb = vformat_bytes(c->format);
  for (uint32_t v = 0; eb && v < m->num_vertexes; v++)
    for (uint32_t k = 0; k < c->size && k < 4; k++)
      if (vformat_get(c->data + ((size_t)v * c->size + k) * eb, c->format, 1) != 1.0) {
        *first = v;
        return 1;
      }
  return 0;
}

void write_loss_colors(struct write_losses *l, const struct model *m, const char *target)
{
  const struct model_varray *c = model_varray_find(m, VT_COLOR, 1);
  uint32_t first = 0;
  struct mdl_loc loc = loc_none();
  if (!l || !c || !colors_not_white(m, c, &first))
    return;
  snprintf(loc.path, sizeof loc.path, "vertexes[%u]", (unsigned)first);
  write_loss(l, RULE_CORE_CONVERT_ATTRIBUTE_DROPPED, RULE_CORE_COMPARE_VERTEX, &loc,
             "vertex colours (the first not opaque white: vertex %u); %s stores none, its readers show "
             "white", (unsigned)first, target);
  write_loss_also(l, RULE_CORE_CONVERT_ATTRIBUTE_DROPPED, RULE_CORE_COMPARE_TRIANGLES);
}

void write_loss_added(struct write_losses *l, const struct model *m, uint32_t type, const char *target,
                      const char *how)
{
  static const char *const names[] = {"positions", "texture coordinates", "normals"};
  struct mdl_loc loc = loc_none();
  if (!l || type > VT_NORMAL || !m->num_vertexes || !m->num_triangles || model_varray_find(m, type, 1))
    return;
  snprintf(loc.path, sizeof loc.path, "vertexarrays");
  write_loss(l, RULE_CORE_CONVERT_ATTRIBUTE_ADDED, RULE_CORE_COMPARE_VERTEX_ATTRIBUTE, &loc,
             "the model has no %s; %s %s", names[type], target, how);
  l->added_attrs |= 1u << type; /* the proof expects the array it adds (compare_side) */
}

void write_loss_material_files(struct write_losses *l, const struct model *m, const char *target)
{
  for (uint32_t i = 0; l && i < m->num_meshes; i++) {
    const char *mat = m->meshes[i].material;
    struct mdl_loc loc = loc_none();
    if (!mat || !*mat || !model_material_first(m, i) || model_material_names_file(m, mat))
      continue;
    snprintf(loc.path, sizeof loc.path, "meshes[%u].material", (unsigned)i);
    write_loss(l, RULE_CORE_CONVERT_MATERIAL_AS_FILE, RULE_CORE_COMPARE_REFERENCE, &loc,
               "material '%.100s' names no file; %s keeps only a texture file name, the written file "
               "names the file '%.100s'", mat, target, mat);
    l->materials_as_files = 1; /* the proof expects the file it names (compare_side) */
  }
}

void write_loss_texture_names(struct write_losses *l, const struct model *m, const char *target)
{
  struct ref_walk w;
  if (!l)
    return;
  if (ref_walk_init(&w, m) < 0) {
    l->oom = 1;
    return;
  }
  for (const struct model_ref *r = m->refs; r; r = r->next) {
    struct mdl_loc loc;
    if (!ref_walk_first(&w, r) || r->kind != MODEL_REF_TEXTURE || r->conventional ||
        image_file_named(r->ref) || !ref_walk_material(&w, r))
      continue;
    loc = ref_place(r);
    write_loss(l, RULE_CORE_CONVERT_TEXTURE_AS_MATERIAL, RULE_CORE_COMPARE_REFERENCE, &loc,
               "texture '%.100s' has no image file name; %s keeps it as a material name, which names a "
               "file only when it looks like one: the written file names no file", r->ref, target);
  }
  ref_walk_free(&w);
}

void write_loss_tag_display(struct write_losses *l, const struct model *m, const char *target)
{
  for (uint32_t i = 0; l && i < m->num_tags; i++) {
    const struct model_tag *t = &m->tags[i];
    const struct model_tag_display *d = t->display;
    struct mdl_loc loc = loc_none();
    if (model_tag_display_plain(t))
      continue;
    snprintf(loc.path, sizeof loc.path, "tags[%u]", (unsigned)i);
    write_loss(l, RULE_CORE_CONVERT_TAG_DISPLAY, RULE_CORE_COMPARE_TAG, &loc,
               "tag %u '%.60s' is displayed as type %u, size %g %g %g, rotation %g %g %g, matrix column %g %g %g %g; "
               "%s tags are frames only", (unsigned)i, t->name ? t->name : "", (unsigned)d->type, d->size[0],
               d->size[1], d->size[2], d->rot[0], d->rot[1], d->rot[2], d->col4[0], d->col4[1], d->col4[2], d->col4[3],
               target);
  }
}

void write_loss_empty_meshes(struct write_losses *l, const struct model *m, const char *target, int all)
{
  uint32_t n = 0, first = 0;
  struct mdl_loc loc = loc_none();
  if (!l)
    return;
  for (uint32_t i = 0; i < m->num_meshes; i++)
    if (all || !m->meshes[i].num_triangles) {
      if (!n++)
        first = i;
    }
  if (!n)
    return;
  l->empty_meshes_dropped = 1; /* what no loader draws: the proof expects it (compare_side) */
  snprintf(loc.path, sizeof loc.path, "meshes[%u]", (unsigned)first);
  write_loss(l, RULE_CORE_CONVERT_EMPTY_MESH, RULE_CORE_COMPARE_MESH_COUNT, &loc,
             "%u meshes (the first: %u '%.60s') %s; %s builds meshes from what they draw, the written "
             "file will not hold them", (unsigned)n, (unsigned)first,
             m->meshes[first].name ? m->meshes[first].name : "", all ? "in a model without vertices" :
             "without triangles", target);
}

void write_loss_unheld(struct write_losses *l, const struct model *m, const char *target)
{
  for (uint32_t i = 0; l && i < m->num_unheld && i < MODEL_UNHELD_MAX; i++) {
    const struct model_unheld *u = &m->unheld[i];
    struct mdl_loc loc = loc_none();
    size_t k;
    if (u->line) /* a place in the source, not in the file written: named as such */
      snprintf(loc.path, sizeof loc.path, "source line %u column %u", u->line, u->column);
    write_loss(l, (enum rule_index)u->rule, (enum rule_index)u->rule, &loc, "%s; %s has no place for %s",
               u->what, target, u->count == 1 ? "it" : "them");
    for (k = 0; k < l->n; k++)
      if (l->item[k].rule == (enum rule_index)u->rule && l->item[k].proof == (enum rule_index)u->rule)
        l->item[k].unseen = 1;
  }
}

int write_refuse_nothing(struct write_losses *l, const struct model *m, struct byte_buf *b, const char *target)
{
  char held[200] = "";
  size_t n = 0;
  if (m->num_triangles || m->num_joints || m->num_anims || m->num_tags)
    return 0;
  for (uint32_t i = 0; i < m->num_unheld && i < MODEL_UNHELD_MAX && n < sizeof held; i++)
    n += (size_t)snprintf(held + n, sizeof held - n, "%s%s", n ? ", " : "", mdl_rule_at(m->unheld[i].rule)->id);
  return write_refuse(l, b, RULE_CORE_CONVERT_NOTHING_TO_WRITE,
                      "the model has no triangle, joint, animation or tag for %s to write%s%s%s", target,
                      n ? " (what the source holds instead is announced: " : "", held, n ? ")" : "");
}

int write_loss_unseen(const struct write_losses *l, int (*accepted)(const void *user, enum rule_index rule),
                      const void *user, enum rule_index *rule)
{
  for (size_t i = 0; l && i < l->n; i++)
    if (l->item[i].unseen && !accepted(user, l->item[i].rule)) {
      *rule = l->item[i].rule;
      return 1;
    }
  return 0;
}
