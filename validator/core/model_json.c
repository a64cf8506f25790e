/* model_json.c - the decoded model as JSON for a viewer (mdl_model_*_json): what the page draws,
 * taken from the common model every decoder fills, so the picture is the library's reading of
 * the file and no format is read twice. */
#include <string.h>

#include "json_write.h"
#include "model_json.h"
#include "model_locate.h"
#include "pose_report.h"

static void write_meshes(struct json_writer *w, const struct model *m)
{
  json_key(w, "meshes");
  json_array_begin(w);
  for (uint32_t k = 0; k < m->num_meshes; k++) {
    const struct model_mesh *me = &m->meshes[k];
    json_object_begin(w);
    json_kv_string(w, "name", me->name ? me->name : "");
    json_kv_string(w, "material", me->material ? me->material : "");
    json_kv_uint(w, "first_vertex", me->first_vertex);
    json_kv_uint(w, "num_vertexes", me->num_vertexes);
    json_kv_uint(w, "first_triangle", me->first_triangle);
    json_kv_uint(w, "num_triangles", me->num_triangles);
    json_object_end(w);
  }
  json_array_end(w);
}

/* Components 0..n-1 of every vertex of array a (missing ones 0), as reals. */
static void write_components(struct json_writer *w, const char *key, const struct model *m,
                             const struct model_varray *a, uint32_t n, int normalized)
{
  uint32_t bytes = a ? vformat_bytes(a->format) : 0;
  json_key(w, key);
  json_array_begin(w);
  for (uint32_t v = 0; bytes && v < m->num_vertexes; v++)
    for (uint32_t c = 0; c < n; c++)
      json_double(w, c < a->size ? vformat_get(a->data + ((size_t)v * a->size + c) * bytes, a->format, normalized) : 0);
  json_array_end(w);
}

static void write_vertices(struct json_writer *w, const struct model *m)
{
  const struct model_varray *pos = model_varray_find(m, VT_POSITION, 1);
  const struct model_varray *bi = model_varray_find(m, VT_BLENDINDEXES, 1);
  const struct model_varray *bw = model_varray_find(m, VT_BLENDWEIGHTS, 1);
  uint32_t blend = bi && bw ? (bi->size < bw->size ? bi->size : bw->size) : 0;
  json_kv_uint(w, "num_vertexes", pos ? m->num_vertexes : 0);
  write_components(w, "positions", m, pos, 3, 0);
  json_kv_uint(w, "blend_size", blend);
  write_components(w, "blend_indexes", m, blend ? bi : NULL, blend, 0);
  /* integer weights are fractions of their range (IQM's ubyte 255 = 1) */
  write_components(w, "blend_weights", m, blend ? bw : NULL, blend, 1);
}

static void write_triangles(struct json_writer *w, const struct model *m)
{
  uint32_t n = m->triangles ? m->num_triangles : 0;
  json_kv_uint(w, "num_triangles", n);
  json_key(w, "triangles");
  json_array_begin(w);
  for (size_t i = 0; i < (size_t)n * 3; i++) {
    const unsigned char *p = m->triangles + 4 * i;
    json_uint(w, (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
  }
  json_array_end(w);
}

static void write_spans(struct json_writer *w, const struct model *m)
{
  json_key(w, "spans");
  json_array_begin(w);
  for (uint32_t i = 0; i < m->num_spans; i++) {
    const struct model_span *sp = &m->spans[i];
    json_object_begin(w);
    json_kv_string(w, "kind", model_elem_name((enum model_elem)sp->kind));
    if (sp->count)
      json_kv_uint(w, "index", sp->index);
    json_kv_uint(w, "count", sp->count);
    if (sp->offset >= 0) {
      json_kv_int(w, "offset", sp->offset);
      json_kv_uint(w, "stride", sp->stride);
    } else {
      json_kv_uint(w, "line", sp->line);
      json_kv_uint(w, "line_end", sp->line_end);
    }
    json_object_end(w);
  }
  json_array_end(w);
}

/* Each diagnostic's position and the element it falls in (null: none the decoder recorded). */
static void write_diagnostics(struct json_writer *w, const struct model *m,
                              const struct model_diag_at *d, size_t n)
{
  json_key(w, "diagnostics");
  json_array_begin(w);
  for (size_t i = 0; i < n; i++) {
    struct model_hit hit;
    json_object_begin(w);
    json_kv_string(w, "id", d[i].id);
    if (d[i].offset >= 0)
      json_kv_int(w, "offset", d[i].offset);
    if (d[i].line) {
      json_kv_uint(w, "line", d[i].line);
      json_kv_uint(w, "column", d[i].column);
    }
    json_kv_string(w, "path", d[i].path);
    json_kv_string(w, "message", d[i].message);
    json_key(w, "element");
    if (model_locate(m, d[i].offset, d[i].line, &hit) == 0) {
      json_object_begin(w);
      json_kv_string(w, "kind", model_elem_name(hit.kind));
      if (hit.kept)
        json_kv_uint(w, "index", hit.index);
      else
        json_kv_bool(w, "dropped", 1); /* an element the decoder left out: no index */
      json_object_end(w);
    } else {
      json_write_null(w);
    }
    json_object_end(w);
  }
  json_array_end(w);
}

int model_write_json(FILE *out, const char *path, const struct pipeline_run *run,
                     const struct model_diag_at *diags, size_t num_diags)
{
  const struct model *m = &run->model, *shown = m;
  struct model none;
  struct json_writer w;
  /* a decode that gave up leaves a model that was not fully built: none of it is drawn, but
   * the spans recorded up to there still locate its diagnostics */
  memset(&none, 0, sizeof none);
  if (!run->decoded)
    shown = &none;
  json_init(&w, out, 0);
  json_object_begin(&w);
  json_kv_string(&w, "file", path);
  json_kv_string(&w, "format", run->result.format);
  json_kv_string(&w, "version", run->result.version);
  json_kv_string(&w, "compression", run->result.compression);
  json_kv_string(&w, "up_axis", run->format && run->format->up_axis ? run->format->up_axis : "z");
  json_kv_bool(&w, "decoded", run->decoded);
  if (poses_write_joints(&w, shown) < 0)
    return -1; /* the model's own joints (no skeleton-only decode here): cannot happen */
  write_meshes(&w, shown);
  write_vertices(&w, shown);
  write_triangles(&w, shown);
  write_spans(&w, m);
  write_diagnostics(&w, m, diags, num_diags);
  json_object_end(&w);
  return json_end(&w);
}
