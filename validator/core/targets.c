/* targets.c - the real loaders' checks: each target rule (spec/targets/NAME.yaml) names one of the
 * checks below and its parameter; they read the decoded common model, never a format's bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "model.h"
#include "targets.h"

size_t mdl_target_count(void)
{
  return mdl_target_table_count;
}

const mdl_target *mdl_target_at(size_t index)
{
  return index < mdl_target_table_count ? &mdl_target_table[index] : NULL;
}

/* The target named by the n bytes at name, or NULL. */
static const mdl_target *target_find_n(const char *name, size_t n)
{
  for (size_t i = 0; i < mdl_target_table_count; i++)
    if (strlen(mdl_target_table[i].name) == n && !strncmp(mdl_target_table[i].name, name, n))
      return &mdl_target_table[i];
  return NULL;
}

const mdl_target *mdl_target_find(const char *name)
{
  return name ? target_find_n(name, strlen(name)) : NULL;
}

int mdl_targets_check(const char *list, char *err, size_t errcap)
{
  const char *p = list;
  while (p && *p) {
    size_t n = strcspn(p, ",");
    if (!target_find_n(p, n)) {
      if (err && errcap)
        snprintf(err, errcap, "%.*s", (int)(n > 64 ? 64 : n), p);
      return -1;
    }
    p += n + (p[n] == ',');
  }
  return 0;
}

/* Whether list (names separated by ',') names the target. */
static int list_has(const char *list, const char *name)
{
  size_t len = strlen(name);
  for (const char *p = list; p && *p;) {
    size_t n = strcspn(p, ",");
    if (n == len && !strncmp(p, name, n))
      return 1;
    p += n + (p[n] == ',');
  }
  return 0;
}

/* --- parameters ------------------------------------------------------------------------- */

static const char *const vtype_names[] = {"position", "texcoord", "normal", "tangent",
                                          "blendindexes", "blendweights", "color"};
static const char *const vformat_names[VF_COUNT] = {"byte", "ubyte", "short", "ushort", "int",
                                                    "uint", "half", "float", "double"};

/* One "type/formats/sizes" token: type -1 in varray-any ("formats/sizes"); formats and sizes
 * are bit sets (0: any); size_min: "N+" takes N and more. */
struct vspec {
  int type;
  unsigned formats, sizes, size_min;
};

static int word_index(const char *s, size_t n, const char *const *names, size_t count)
{
  for (size_t i = 0; i < count; i++)
    if (strlen(names[i]) == n && !strncmp(names[i], s, n))
      return (int)i;
  return -1;
}

/* Parse the n bytes at s: "TYPE[/FORMAT,...[/SIZE,...|N+]]", or with typed 0 "FORMAT,.../SIZE,...".
 * 0, or -1 when malformed. */
static int vspec_parse(const char *s, size_t n, int typed, struct vspec *v)
{
  const char *end = s + n, *p = s;
  int part = typed ? 0 : 1;
  memset(v, 0, sizeof *v);
  v->type = -1;
  while (p <= end && part < 3) {
    const char *q = p;
    while (q < end && *q != '/')
      q++;
    for (const char *w = p; w < q;) { /* the comma-separated words of this part */
      const char *c = w;
      while (c < q && *c != ',')
        c++;
      if (part == 0) {
        if ((v->type = word_index(w, (size_t)(c - w), vtype_names, 7)) < 0)
          return -1;
      } else if (part == 1) {
        int f = word_index(w, (size_t)(c - w), vformat_names, VF_COUNT);
        if (f < 0)
          return -1;
        v->formats |= 1u << f;
      } else {
        char num[8];
        size_t len = (size_t)(c - w);
        int plus = len > 1 && w[len - 1] == '+';
        long k;
        char *e;
        if (plus)
          len--;
        if (!len || len >= sizeof num)
          return -1;
        memcpy(num, w, len);
        num[len] = 0;
        k = strtol(num, &e, 10);
        if (*e || k < 1 || k > 16)
          return -1;
        if (plus)
          v->size_min = (unsigned)k;
        else
          v->sizes |= 1u << k;
      }
      w = c < q ? c + 1 : c;
    }
    part++;
    p = q + 1;
    if (q >= end)
      break;
  }
  return typed && v->type < 0 ? -1 : 0;
}

static int vspec_matches(const struct vspec *v, const struct model_varray *a)
{
  if (v->formats && (a->format >= VF_COUNT || !(v->formats & (1u << a->format))))
    return 0;
  if (v->size_min)
    return a->size >= v->size_min;
  return !v->sizes || (a->size < 32 && (v->sizes & (1u << a->size)));
}

/* "float x3", "ubyte,float x3+" */
static void vspec_text(const struct vspec *v, char *out, size_t cap)
{
  size_t len = 0;
  out[0] = 0;
  for (int f = 0; f < VF_COUNT && len < cap; f++)
    if (v->formats & (1u << f))
      len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? "," : "", vformat_names[f]);
  if (!v->formats && len < cap)
    len += (size_t)snprintf(out + len, cap - len, "any format");
  if (v->size_min && len < cap)
    snprintf(out + len, cap - len, " x%u+", v->size_min);
  else if (v->sizes && len < cap) {
    len += (size_t)snprintf(out + len, cap - len, " x");
    for (int k = 1, first = 1; k < 17 && len < cap; k++)
      if (v->sizes & (1u << k)) {
        len += (size_t)snprintf(out + len, cap - len, "%s%d", first ? "" : ",", k);
        first = 0;
      }
  }
}

static void varray_text(const struct model_varray *a, char *out, size_t cap)
{
  snprintf(out, cap, "%s x%u", a->format < VF_COUNT ? vformat_names[a->format] : "unknown", a->size);
}

static const char *vtype_name(uint32_t t)
{
  return t < 7 ? vtype_names[t] : "custom";
}

/* The tokens of a parameter, each with its length; "when=X" is kept apart. */
#define MAX_TOKENS 12
struct params {
  size_t n;
  const char *tok[MAX_TOKENS];
  size_t len[MAX_TOKENS];
  const char *when;
  size_t when_len;
};

static int params_split(const char *param, struct params *ps)
{
  const char *p = param;
  memset(ps, 0, sizeof *ps);
  while (*p) {
    size_t n;
    while (*p == ' ')
      p++;
    if (!*p)
      break;
    n = strcspn(p, " ");
    if (n > 5 && !strncmp(p, "when=", 5)) {
      ps->when = p + 5;
      ps->when_len = n - 5;
    } else if (ps->n == MAX_TOKENS) {
      return -1;
    } else {
      ps->tok[ps->n] = p;
      ps->len[ps->n++] = n;
    }
    p += n;
  }
  return 0;
}

static int param_number(const char *param, unsigned long long *out)
{
  char *end;
  *out = strtoull(param, &end, 10);
  return *param && !*end ? 0 : -1;
}

/* --- the checks --------------------------------------------------------------------------- */

struct tctx {
  struct diag_sink *sink;
  const struct model *m;
  const char *format, *version;
  unsigned long long size;
  const mdl_target *target;
  enum rule_index rule;
  const char *param;
  /* MDL_OK, or why a check could not read what the model counts (model_read_failure): the
   * checks stop there, and targets_run says so rather than answer for less */
  mdl_status failed;
};

/* A read of the model failed: stop the checks; for want of memory, the file's MDL-MEM-001 */
static void read_failed(struct tctx *c, const char *what)
{
  c->failed = model_read_failure(c->m);
  if (c->failed == MDL_ENOMEM)
    diag_out_of_memory(c->sink, what);
}

/* A location by structural path alone: "meshes[3]", "joints[0].name" */
static struct mdl_loc loc_path(const char *table, unsigned long k, const char *field)
{
  struct mdl_loc loc = loc_none();
  snprintf(loc.path, sizeof loc.path, "%s[%lu]%s", table, k, field);
  return loc;
}

/* The version's number: "2" -> 2, "V5 (101)" -> 101, "v3 (7, assumed)" -> 7; -1 when none. */
static long version_number(const char *v)
{
  const char *paren = strchr(v, '(');
  const char *p = paren ? paren + 1 : v;
  char *end;
  long n;
  if (*p < '0' || *p > '9')
    return -1;
  n = strtol(p, &end, 10);
  return n;
}

/* Whether the target's "fmt[:lo[-hi]] ..." takes this format and version. */
static int format_read(const char *formats, const char *format, const char *version)
{
  const char *p = formats;
  while (*p) {
    size_t n;
    const char *colon;
    while (*p == ' ')
      p++;
    n = strcspn(p, " ");
    if (!n)
      break;
    colon = memchr(p, ':', n);
    if ((size_t)((colon ? colon : p + n) - p) == strlen(format) && !strncmp(p, format, strlen(format))) {
      long lo, hi, v = version_number(version);
      char *e;
      if (!colon)
        return 1;
      lo = strtol(colon + 1, &e, 10);
      hi = *e == '-' ? strtol(e + 1, &e, 10) : lo;
      if (v >= lo && v <= hi)
        return 1;
    }
    p += n;
  }
  return 0;
}

static int check_format(struct tctx *c)
{
  struct mdl_loc loc = loc_none();
  if (format_read(c->target->formats, c->format, c->version))
    return 0;
  diag_emit(c->sink, c->rule, &loc, c->target->formats, "%s%s%s", c->format,
            c->version[0] ? " version " : "", c->version);
  return 1;
}

static void check_varray(struct tctx *c, int any)
{
  struct params ps;
  params_split(c->param, &ps);
  for (uint32_t i = 0; i < c->m->num_varrays; i++) {
    const struct model_varray *a = &c->m->varrays[i];
    char want[160] = "", have[48];
    size_t wl = 0;
    int seen = 0, ok = 0;
    for (size_t t = 0; t < ps.n; t++) {
      struct vspec v;
      if (vspec_parse(ps.tok[t], ps.len[t], !any, &v) < 0 || (!any && (uint32_t)v.type != a->type))
        continue;
      seen = 1;
      ok |= vspec_matches(&v, a);
      if (wl < sizeof want) {
        char one[64];
        vspec_text(&v, one, sizeof one);
        wl += (size_t)snprintf(want + wl, sizeof want - wl, "%s%s", wl ? " or " : "", one);
      }
    }
    if (!seen || ok)
      continue;
    varray_text(a, have, sizeof have);
    {
      struct mdl_loc loc = loc_path("varrays", i, "");
      char actual[64];
      snprintf(actual, sizeof actual, "%s %s", vtype_name(a->type), have);
      diag_emit(c->sink, c->rule, &loc, want, "%s", actual);
    }
  }
}

/* Whether the model is what a "when=" condition names. */
static int condition_holds(const struct model *m, const char *w, size_t n)
{
  int animated = m->num_anims > 0 || m->num_frames > 0;
#define IS(s) (n == sizeof s - 1 && !strncmp(w, s, n))
  if (!w || IS("always"))
    return 1;
  if (IS("vertices"))
    return m->num_vertexes > 0;
  if (IS("meshes"))
    return m->num_meshes > 0;
  if (IS("animated"))
    return m->num_vertexes > 0 && animated;
  if (IS("meshes+joints"))
    return m->num_meshes > 0 && m->num_joints > 0;
  if (IS("meshes+skeleton"))
    return m->num_meshes > 0 && (m->num_joints > 0 || animated);
#undef IS
  return -1;
}

static void check_varray_required(struct tctx *c)
{
  struct params ps;
  params_split(c->param, &ps);
  if (condition_holds(c->m, ps.when, ps.when_len) != 1)
    return;
  for (size_t t = 0; t < ps.n; t++) {
    struct vspec v;
    const struct model_varray *other = NULL;
    int found = 0;
    if (vspec_parse(ps.tok[t], ps.len[t], 1, &v) < 0)
      continue;
    for (uint32_t i = 0; i < c->m->num_varrays && !found; i++) {
      const struct model_varray *a = &c->m->varrays[i];
      if (a->type != (uint32_t)v.type)
        continue;
      found = vspec_matches(&v, a);
      other = a;
    }
    if (!found) {
      struct mdl_loc loc = loc_none();
      char want[96], spec[64], have[48];
      vspec_text(&v, spec, sizeof spec);
      snprintf(want, sizeof want, "a %s array (%s)", vtype_names[v.type], spec);
      if (other) {
        varray_text(other, have, sizeof have);
        diag_emit(c->sink, c->rule, &loc, want, "the %s array is %s", vtype_names[v.type], have);
      } else {
        diag_emit(c->sink, c->rule, &loc, want, "no %s array", vtype_names[v.type]);
      }
    }
  }
}

static void check_meshes(struct tctx *c, const char *check)
{
  const struct model *m = c->m;
  unsigned long long limit = 0;
  param_number(c->param, &limit);
  for (uint32_t k = 0; k < m->num_meshes; k++) {
    const struct model_mesh *me = &m->meshes[k];
    struct mdl_loc loc = loc_path("meshes", k, "");
    char lim[24];
    snprintf(lim, sizeof lim, "%llu", limit);
    if (!strcmp(check, "mesh-empty")) {
      if (!me->num_vertexes || !me->num_triangles)
        diag_emit(c->sink, c->rule, &loc, "vertices and triangles", "%u vertices and %u triangles",
                  me->num_vertexes, me->num_triangles);
    } else if (!strcmp(check, "mesh-at-end")) {
      if (me->first_vertex >= m->num_vertexes)
        diag_emit(c->sink, c->rule, &loc, "first_vertex < num_vertexes",
                  "first_vertex %u of %u vertices", me->first_vertex, m->num_vertexes);
      else if (me->first_triangle >= m->num_triangles)
        diag_emit(c->sink, c->rule, &loc, "first_triangle < num_triangles",
                  "first_triangle %u of %u triangles", me->first_triangle, m->num_triangles);
    } else if (!strcmp(check, "mesh-max-vertices")) {
      if (me->num_vertexes > limit)
        diag_emit(c->sink, c->rule, &loc, lim, "%u", me->num_vertexes);
    } else if (!strcmp(check, "mesh-max-triangles")) {
      if (me->num_triangles > limit)
        diag_emit(c->sink, c->rule, &loc, lim, "%u", me->num_triangles);
    } else if (!strcmp(check, "mesh-local-index") && m->triangles) {
      uint64_t worst = 0;
      for (uint64_t t = me->first_triangle;
           t < (uint64_t)me->first_triangle + me->num_triangles && t < m->num_triangles; t++)
        for (int j = 0; j < 3; j++) {
          const unsigned char *p = m->triangles + (t * 3 + (uint64_t)j) * 4;
          uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
          if (v >= me->first_vertex && v - me->first_vertex > worst)
            worst = v - me->first_vertex;
        }
      if (worst > limit)
        diag_emit(c->sink, c->rule, &loc, lim, "%llu", (unsigned long long)worst);
    }
  }
}

static void check_counts(struct tctx *c, const char *check)
{
  const struct model *m = c->m;
  struct mdl_loc loc = loc_none();
  unsigned long long limit = 0;
  char lim[24];
  param_number(c->param, &limit);
  snprintf(lim, sizeof lim, "%llu", limit);
  if (!strcmp(check, "no-meshes")) {
    if (!m->num_meshes)
      diag_emit(c->sink, c->rule, &loc, "at least 1", "%u", m->num_meshes);
  } else if (!strcmp(check, "max-joints")) {
    uint32_t n = m->num_joints > m->num_poses ? m->num_joints : m->num_poses;
    if (n > limit)
      diag_emit(c->sink, c->rule, &loc, lim, "%u", n);
  } else if (!strcmp(check, "max-anims")) {
    if (m->num_anims > limit)
      diag_emit(c->sink, c->rule, &loc, lim, "%u", m->num_anims);
  } else if (!strcmp(check, "max-size")) {
    if (c->size > limit)
      diag_emit(c->sink, c->rule, &loc, lim, "%llu", c->size);
  } else if (!strcmp(check, "poses-joints")) {
    int any = !strcmp(c->param, "any");
    if (m->num_poses && m->num_poses != m->num_joints && (any || m->num_joints)) {
      char j[24];
      snprintf(j, sizeof j, "%u", m->num_joints);
      diag_emit(c->sink, c->rule, &loc, j, "%u", m->num_poses);
    }
  } else if (!strcmp(check, "skeleton-ignored")) {
    if (m->num_joints || m->num_anims)
      diag_emit(c->sink, c->rule, &loc, NULL, "%u joints and %u animations", m->num_joints, m->num_anims);
  } else if (!strcmp(check, "joints-none")) {
    if (!m->num_joints)
      diag_emit(c->sink, c->rule, &loc, "at least 1", "%u", m->num_joints);
  }
}

static void check_joints(struct tctx *c, const char *check)
{
  const struct model *m = c->m;
  for (uint32_t j = 0; j < m->num_joints; j++) {
    const double *s = model_rest(m, j)->s;
    struct mdl_loc loc = loc_path("joints", j, "");
    if (!strcmp(check, "joint-scale")) {
      if (fabs(s[0] - 1) > 1e-5 || fabs(s[1] - 1) > 1e-5 || fabs(s[2] - 1) > 1e-5)
        diag_emit(c->sink, c->rule, &loc, "1 1 1", "%.9g %.9g %.9g", s[0], s[1], s[2]);
    } else { /* joint-scale-uniform, in the loader's float arithmetic */
      float x = (float)s[0], y = (float)s[1], z = (float)s[2];
      if (x < 0.0f || (int)(x - y) || (int)(y - z))
        diag_emit(c->sink, c->rule, &loc, "non-negative, uniform within 1", "%.9g %.9g %.9g",
                  s[0], s[1], s[2]);
    }
  }
}

static void check_anims(struct tctx *c, const char *check)
{
  const struct model *m = c->m;
  if (!strcmp(check, "anim-empty")) {
    for (uint32_t a = 0; a < m->num_anims; a++)
      if (!m->anims[a].num_frames) {
        struct mdl_loc loc = loc_path("anims", a, "");
        diag_emit(c->sink, c->rule, &loc, "at least 1", "%u", m->anims[a].num_frames);
      }
    return;
  }
  /* anim-scale: a pose whose scale channels move, or stay away from 1 */
  for (uint32_t p = 0; p < m->num_poses && m->num_frames; p++) {
    struct mdl_loc loc = loc_path("poses", p, "");
    if (m->channels) {
      const struct model_channels *ch = &m->channels[p];
      if (ch->mask & (7u << 7))
        diag_emit(c->sink, c->rule, &loc, "constant 1", "%s", "animated scale channels");
      else if (fabs(ch->offset[7] - 1) > 1e-5 || fabs(ch->offset[8] - 1) > 1e-5 ||
               fabs(ch->offset[9] - 1) > 1e-5)
        diag_emit(c->sink, c->rule, &loc, "constant 1", "constant %.9g %.9g %.9g", ch->offset[7],
                  ch->offset[8], ch->offset[9]);
    } else if (model_has_frames(m)) {
      for (uint32_t f = 0; f < m->num_frames; f++) {
        struct trs buf;
        const struct trs *pose = model_frame_get(m, f, p, &buf);
        const double *s;
        if (!pose) {
          read_failed(c, "a frame of the model, for --target");
          return;
        }
        s = pose->s;
        if (fabs(s[0] - 1) > 1e-5 || fabs(s[1] - 1) > 1e-5 || fabs(s[2] - 1) > 1e-5) {
          diag_emit(c->sink, c->rule, &loc, "1 1 1", "%.9g %.9g %.9g in frame %u", s[0], s[1], s[2], f);
          break;
        }
      }
    }
  }
}

static void check_weights(struct tctx *c, const char *check)
{
  const struct model *m = c->m;
  const struct model_varray *w = model_varray_find(m, VT_BLENDWEIGHTS, 1);
  double tol = strtod(c->param[0] ? c->param : "0", NULL);
  uint32_t bytes;
  if (!w || !w->data)
    return;
  bytes = vformat_bytes(w->format);
  for (uint32_t v = 0; v < m->num_vertexes; v++) {
    double sum = 0;
    for (uint32_t k = 0; k < w->size; k++)
      sum += vformat_get(w->data + ((size_t)v * w->size + k) * bytes, w->format, 1);
    if (!strcmp(check, "weights-zero") ? sum == 0 : sum != 0 && fabs(sum - 1) > tol) {
      struct mdl_loc loc;
      if (!diag_wanted(c->sink, c->rule)) { /* only counted: skip formatting it */
        struct mdl_loc none = loc_none();
        diag_emit(c->sink, c->rule, &none, "", "%s", "");
        continue;
      }
      loc = loc_path("vertexes", v, "");
      diag_emit(c->sink, c->rule, &loc, "1", "%.6g", sum);
    }
  }
}

static void check_names(struct tctx *c)
{
  const struct model *m = c->m;
  unsigned long long limit = 0;
  const char *sp = strchr(c->param, ' ');
  char lim[24];
  int joints = !strncmp(c->param, "joints ", 7);
  if (!sp || param_number(sp + 1, &limit) < 0)
    return;
  snprintf(lim, sizeof lim, "%llu", limit);
  if (joints) {
    for (uint32_t j = 0; j < m->num_joints; j++)
      if (m->joints[j].name && strlen(m->joints[j].name) > limit) {
        struct mdl_loc loc = loc_path("joints", j, ".name");
        diag_emit(c->sink, c->rule, &loc, lim, "%zu", strlen(m->joints[j].name));
      }
  } else {
    for (uint32_t k = 0; k < m->num_meshes; k++)
      if (m->meshes[k].material && strlen(m->meshes[k].material) > limit) {
        struct mdl_loc loc = loc_path("meshes", k, ".material");
        diag_emit(c->sink, c->rule, &loc, lim, "%zu", strlen(m->meshes[k].material));
      }
  }
}

/* Every check by its key; a model check runs only on a model decoded to its end. */
static const char *const check_keys[] = {
  "format", "varray", "varray-any", "varray-required", "no-meshes", "mesh-empty", "mesh-at-end",
  "mesh-local-index", "mesh-max-vertices", "mesh-max-triangles", "max-joints", "max-anims",
  "max-size", "poses-joints", "skeleton-ignored", "joints-none", "joint-scale",
  "joint-scale-uniform", "anim-scale", "anim-empty", "weights-zero", "weights-sum", "name-length"
};

int target_check_known(const char *check)
{
  return word_index(check, strlen(check), check_keys, sizeof check_keys / sizeof *check_keys) >= 0;
}

static void check_run(struct tctx *c, const char *check)
{
  if (!strcmp(check, "varray") || !strcmp(check, "varray-any"))
    check_varray(c, !strcmp(check, "varray-any"));
  else if (!strcmp(check, "varray-required"))
    check_varray_required(c);
  else if (!strncmp(check, "mesh-", 5))
    check_meshes(c, check);
  else if (!strncmp(check, "joint-", 6))
    check_joints(c, check);
  else if (!strncmp(check, "anim-", 5))
    check_anims(c, check);
  else if (!strncmp(check, "weights-", 8))
    check_weights(c, check);
  else if (!strcmp(check, "name-length"))
    check_names(c);
  else
    check_counts(c, check);
}

mdl_status targets_run(struct diag_sink *sink, const struct model *m, const char *format,
                       const char *version, unsigned long long size, const mdl_options *options)
{
  struct tctx c;
  if (!options || !options->targets || !format)
    return MDL_OK;
  memset(&c, 0, sizeof c);
  c.sink = sink;
  c.m = m;
  c.format = format;
  c.version = version ? version : "";
  c.size = size;
  for (size_t t = 0; t < mdl_target_table_count; t++) {
    int refused = 0;
    if (!list_has(options->targets, mdl_target_table[t].name))
      continue;
    c.target = &mdl_target_table[t];
    /* first whether the loader reads the file at all: its other rules describe how it reads one */
    for (const struct target_rule *r = target_rule_table; r->rule != RULE_COUNT; r++)
      if (r->target == t && !strcmp(r->check, "format")) {
        c.rule = r->rule;
        c.param = r->param;
        refused |= check_format(&c);
      }
    if (refused || !m)
      continue;
    for (const struct target_rule *r = target_rule_table; r->rule != RULE_COUNT; r++)
      if (r->target == t && strcmp(r->check, "format")) {
        c.rule = r->rule;
        c.param = r->param;
        check_run(&c, r->check);
        if (c.failed != MDL_OK)
          return c.failed;
      }
  }
  return MDL_OK;
}

int targets_self_check(char *err, size_t errcap)
{
  for (const struct target_rule *r = target_rule_table; r->rule != RULE_COUNT; r++) {
    const mdl_rule *rule = mdl_rule_at(r->rule);
    struct params ps;
    const char *bad = NULL;
    if (!target_check_known(r->check))
      bad = "unknown check";
    else if (params_split(r->param, &ps) < 0)
      bad = "too many parameter words";
    else if (!strcmp(r->check, "varray") || !strcmp(r->check, "varray-any") ||
             !strcmp(r->check, "varray-required")) {
      struct vspec v;
      for (size_t t = 0; t < ps.n && !bad; t++)
        if (vspec_parse(ps.tok[t], ps.len[t], strcmp(r->check, "varray-any") != 0, &v) < 0)
          bad = "malformed array parameter";
      if (!bad && !strcmp(r->check, "varray-required") && ps.when) {
        struct model empty;
        memset(&empty, 0, sizeof empty);
        if (condition_holds(&empty, ps.when, ps.when_len) < 0)
          bad = "unknown when= condition";
      }
    }
    if (bad) {
      snprintf(err, errcap, "%s: %s (check %s, param '%s')", rule ? rule->id : "?", bad, r->check,
               r->param);
      return -1;
    }
  }
  return 0;
}
