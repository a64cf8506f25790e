/* egg_check_refs.c - names and references (notes §5 C): textures, materials and groups resolve
 * backwards in file order (groups once closed); vertex pools and vertex numbers may be
 * forward references and are resolved at the end, as Panda3D's parser does. */
#include <stdlib.h>
#include <string.h>

#include "egg.h"
#include "egg_map.h"

struct pool_info {
  int64_t *index; /* sorted vertex numbers */
  size_t count;
  int reported;
};

struct refs {
  struct egg_doc *doc;
  struct egg_map textures, materials, groups, pools, inline_tex;
  struct egg_node **vrefs;
  size_t nvrefs, capvrefs;
  int oom;
};

static const char *show_name(char *buf, size_t cap, const struct egg_node *n)
{
  if (!n->name)
    return "(unnamed)";
  return egg_show(buf, cap, n->name, n->name_len);
}

static void define(struct refs *r, struct egg_map *map, struct egg_node *n, const char *kind)
{
  struct egg_map_ent *e;
  char buf[96], what[160];
  if (!n->name)
    return;
  if (n->name_len == 0) {
    snprintf(what, sizeof what, "%s", egg_specs[n->spec].what);
    egg_emit(r->doc, RULE_EGG_EMPTY_NAME, n->name_line, n->name_col, NULL, "%s", what);
  }
  e = egg_map_at(map, n->name, n->name_len);
  if (!e) {
    r->oom = 1;
    return;
  }
  if (e->val) {
    const struct egg_node *prev = e->val;
    snprintf(what, sizeof what, "%s name %s (first at line %u)", kind,
             show_name(buf, sizeof buf, n), (unsigned)prev->line);
    egg_emit(r->doc, RULE_EGG_DUPLICATE_NAME, n->line, n->col, NULL, "%s", what);
  }
  e->val = n;
}

static const struct egg_value *first_string(const struct egg_node *n)
{
  return n->nvals ? &n->vals[0] : NULL;
}

static void value_text(const struct egg_value *v, const char **s, size_t *len, char *tmp, size_t cap)
{
  if (v->s) {
    *s = v->s;
    *len = v->len;
  } else {
    /* a numeric name: compare by the shortest text that reads back */
    snprintf(tmp, cap, "%.17g", v->d);
    *s = tmp;
    *len = strlen(tmp);
  }
}

static void lookup(struct refs *r, struct egg_map *map, const struct egg_node *n, enum rule_index rule)
{
  const struct egg_value *v = first_string(n);
  const char *s;
  size_t len;
  char tmp[40], buf[96];
  if (!v)
    return;
  value_text(v, &s, &len, tmp, sizeof tmp);
  if (!egg_map_find(map, s, len))
    egg_emit(r->doc, rule, v->line, v->col, NULL, "%s", egg_show(buf, sizeof buf, s, len));
}

static int is_primitive(int spec)
{
  return spec == S_POLYGON || spec == S_PATCH || spec == S_TRIFAN || spec == S_TRISTRIP ||
         spec == S_POINTLIGHT || spec == S_LINE || spec == S_NURBS_S || spec == S_NURBS_C;
}

static void check_two_pools(struct refs *r, const struct egg_node *prim)
{
  const struct egg_value *first = NULL;
  char a[96], b[96], both[200];
  for (const struct egg_node *c = prim->first; c; c = c->next) {
    const struct egg_node *ref;
    const struct egg_value *v;
    if (c->spec != S_VREF_PRIM)
      continue;
    for (ref = c->first; ref && ref->spec != S_REF; ref = ref->next)
      ;
    if (!ref || !(v = first_string(ref)) || !v->s)
      continue;
    if (!first) {
      first = v;
    } else if (v->len != first->len || memcmp(v->s, first->s, v->len)) {
      snprintf(both, sizeof both, "%s and %s", egg_show(a, sizeof a, first->s, first->len),
               egg_show(b, sizeof b, v->s, v->len));
      egg_emit(r->doc, RULE_EGG_TWO_POOLS, v->line, v->col, NULL, "%s", both);
      return;
    }
  }
}

static void inline_texture(struct refs *r, const struct egg_node *n)
{
  const struct egg_value *v = first_string(n);
  const char *base;
  struct egg_map_ent *e;
  char buf[96];
  if (!v || !v->s)
    return;
  base = v->s;
  for (uint32_t i = 0; i < v->len; i++)
    if (v->s[i] == '/' || v->s[i] == '\\')
      base = v->s + i + 1;
  e = egg_map_at(&r->inline_tex, base, (size_t)(v->s + v->len - base));
  if (!e)
    return;
  if (e->val) {
    const struct egg_value *prev = e->val;
    if (prev->len != v->len || memcmp(prev->s, v->s, v->len))
      egg_emit(r->doc, RULE_EGG_INLINE_TEXTURE_CLASH, v->line, v->col, NULL, "%s",
               egg_show(buf, sizeof buf, v->s, v->len));
  } else {
    e->val = (void *)(uintptr_t)v;
  }
}

static void visit(struct egg_node *n, int leaving, void *user)
{
  struct refs *r = user;
  char buf[96];
  if (leaving) {
    if ((n->spec == S_GROUP || n->spec == S_INSTANCE) && n->name) {
      struct egg_map_ent *e = egg_map_at(&r->groups, n->name, n->name_len);
      if (!e) {
        r->oom = 1;
        return;
      }
      if (e->val)
        egg_emit(r->doc, RULE_EGG_DUPLICATE_GROUP_NAME, n->line, n->col, NULL, "%s",
                 show_name(buf, sizeof buf, n));
      e->val = n;
    }
    if (is_primitive(n->spec))
      check_two_pools(r, n);
    return;
  }
  switch (n->spec) {
  case S_TEXTURE: define(r, &r->textures, n, "texture"); break;
  case S_MATERIAL: define(r, &r->materials, n, "material"); break;
  case S_VPOOL: define(r, &r->pools, n, "vertex pool"); break;
  case S_TREF: lookup(r, &r->textures, n, RULE_EGG_UNKNOWN_TEXTURE); break;
  case S_MREF: lookup(r, &r->materials, n, RULE_EGG_UNKNOWN_MATERIAL); break;
  case S_TEXTURE_INLINE: inline_texture(r, n); break;
  case S_REF:
    if (n->parent->spec == S_VREF_GROUP || n->parent->spec == S_VREF_PRIM)
      break;
    if (n->parent->spec != S_INSTANCE) {
      const struct egg_value *v = first_string(n);
      egg_emit(r->doc, RULE_EGG_REF_OUTSIDE_INSTANCE, n->line, n->col, NULL, "%s",
               v && v->s ? egg_show(buf, sizeof buf, v->s, v->len) : "");
    } else {
      lookup(r, &r->groups, n, RULE_EGG_UNKNOWN_GROUP);
    }
    break;
  case S_VREF_GROUP:
  case S_VREF_PRIM:
    if (r->nvrefs == r->capvrefs) {
      size_t cap = r->capvrefs ? r->capvrefs * 2 : 256;
      struct egg_node **nv = realloc(r->vrefs, cap * sizeof *nv);
      if (!nv) {
        r->oom = 1;
        return;
      }
      r->vrefs = nv;
      r->capvrefs = cap;
    }
    r->vrefs[r->nvrefs++] = n;
    break;
  default:
    break;
  }
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* Number the vertices of a pool as Panda3D does (notes §5 D1) and check the numbers. */
static struct pool_info *pool_index(struct refs *r, struct egg_node *pool)
{
  struct pool_info *pi = arena_calloc(r->doc->arena, 1, sizeof *pi);
  size_t n = 0, k = 0;
  int64_t highest = 0;
  int any = 0;
  if (!pi)
    return NULL;
  for (struct egg_node *v = pool->first; v; v = v->next)
    n++;
  pi->index = n ? arena_calloc(r->doc->arena, n, sizeof *pi->index) : NULL;
  if (n && !pi->index)
    return NULL;
  for (struct egg_node *v = pool->first; v; v = v->next) {
    int64_t idx;
    if (v->spec != S_VERTEX)
      continue;
    if (v->name) {
      idx = v->index;
      if (idx < 0) {
        egg_emit(r->doc, RULE_EGG_VERTEX_INDEX_NEGATIVE, v->name_line, v->name_col, NULL,
                 "%lld", (long long)idx);
        continue;
      }
      if (idx > 2147483647) {
        egg_emit(r->doc, RULE_EGG_VERTEX_INDEX_INVALID, v->name_line, v->name_col,
                 "0..2147483647", "%lld", (long long)idx);
        continue;
      }
    } else {
      idx = any ? highest + 1 : 1;
    }
    v->index = idx;
    if (!any || idx > highest)
      highest = idx;
    any = 1;
    pi->index[k++] = idx;
  }
  if (k)
    qsort(pi->index, k, sizeof *pi->index, cmp_i64);
  /* duplicates: report each at the later vertex in file order */
  if (k > 1) {
    size_t dups = 0;
    for (size_t i = 1; i < k; i++)
      dups += pi->index[i] == pi->index[i - 1];
    if (dups) {
      struct egg_map seen;
      egg_map_init(&seen);
      for (struct egg_node *v = pool->first; v; v = v->next) {
        struct egg_map_ent *e;
        if (v->spec != S_VERTEX || v->index < 0 || v->index > 2147483647)
          continue;
        e = egg_map_pair(&seen, (uintptr_t)pool, v->index);
        if (!e)
          break;
        if (e->val)
          egg_emit(r->doc, RULE_EGG_DUPLICATE_VERTEX, v->line, v->col, NULL, "%lld",
                   (long long)v->index);
        e->val = v;
      }
      egg_map_free(&seen);
    }
  }
  pi->count = k;
  return pi;
}

static int has_index(const struct pool_info *pi, int64_t idx)
{
  size_t lo = 0, hi = pi->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (pi->index[mid] < idx)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < pi->count && pi->index[lo] == idx;
}

static void resolve_vertex_refs(struct refs *r)
{
  struct egg_map reported;
  char buf[96], what[256];
  egg_map_init(&reported);
  for (size_t i = 0; i < r->nvrefs; i++) {
    struct egg_node *vr = r->vrefs[i], *ref;
    const struct egg_value *pv;
    struct egg_map_ent *pe, *re;
    struct pool_info *pi;
    for (ref = vr->first; ref && ref->spec != S_REF; ref = ref->next)
      ;
    if (!ref || !(pv = first_string(ref)) || !pv->s)
      continue;
    pe = egg_map_find(&r->pools, pv->s, pv->len);
    re = egg_map_at(&reported, pv->s, pv->len);
    if (!re)
      break;
    if (!pe || !pe->val || !((struct egg_node *)pe->val)->first) {
      if (!re->val)
        egg_emit(r->doc, RULE_EGG_UNDEFINED_POOL, r->doc->panda ? 0 : pv->line,
                 r->doc->panda ? 0 : pv->col, NULL, "%s", egg_show(buf, sizeof buf, pv->s, pv->len));
      re->val = vr;
      continue;
    }
    {
      struct egg_map_ent *ie = egg_map_pair(&r->pools, (uintptr_t)pe->val, -1);
      pi = ie ? ie->val : NULL;
    }
    if (!pi)
      continue;
    if (!re->val) {
      size_t n = 0, missing = 0;
      what[0] = 0;
      n = (size_t)snprintf(what, sizeof what, "%s; undefined vertex index numbers:",
                           egg_show(buf, sizeof buf, pv->s, pv->len));
      for (uint32_t k = 0; k < vr->nvals; k++) {
        int64_t idx = egg_value_int(&vr->vals[k]);
        if (!has_index(pi, idx)) {
          if (n + 24 < sizeof what)
            n += (size_t)snprintf(what + n, sizeof what - n, " %lld", (long long)idx);
          missing++;
        }
      }
      if (missing) {
        egg_emit(r->doc, RULE_EGG_UNDEFINED_VERTEX, r->doc->panda ? 0 : vr->line,
                 r->doc->panda ? 0 : vr->col, NULL, "%s", what);
        re->val = vr;
      }
    }
  }
  egg_map_free(&reported);
}

void egg_check_refs(struct egg_doc *doc)
{
  struct refs r;
  memset(&r, 0, sizeof r);
  r.doc = doc;
  egg_map_init(&r.textures);
  egg_map_init(&r.materials);
  egg_map_init(&r.groups);
  egg_map_init(&r.pools);
  egg_map_init(&r.inline_tex);
  egg_walk(doc->root, visit, &r);
  /* number every pool (in file order) before resolving references to them */
  for (struct egg_node *n = doc->root; n; n = egg_next_pre(n, doc->root))
    if (n->spec == S_VPOOL) {
      struct egg_map_ent *ie = egg_map_pair(&r.pools, (uintptr_t)n, -1);
      if (ie && !ie->val)
        ie->val = pool_index(&r, n);
    }
  resolve_vertex_refs(&r);
  free(r.vrefs);
  egg_map_free(&r.textures);
  egg_map_free(&r.materials);
  egg_map_free(&r.groups);
  egg_map_free(&r.pools);
  egg_map_free(&r.inline_tex);
}
