/* x42_profile.c - reading a legacy layout profile (YAML, libyaml's document API) into the
 * profile model. Every key is known and every reference checked here, so the checker never
 * meets a half-valid profile (X42-LEG-002). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "x42_profile.h"

const unsigned lp_type_size[LP_TYPE_COUNT] = {1, 1, 2, 2, 4, 4, 4, 1};
static const char *const type_names[LP_TYPE_COUNT] = {"u8", "s8", "u16", "s16", "u32", "s32", "f32", "char"};

struct pctx {
  yaml_document_t *doc;
  struct arena *a;
  char *err;
  size_t errcap;
  int failed;
};

static int bad(struct pctx *c, const yaml_node_t *n, const char *what, const char *detail)
{
  if (!c->failed)
    snprintf(c->err, c->errcap, "line %lu: %s%s%s", n ? (unsigned long)n->start_mark.line + 1 : 0UL, what,
             detail ? ": " : "", detail ? detail : "");
  c->failed = 1;
  return -1;
}

static const char *scalar(const yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *dup(struct pctx *c, const char *s)
{
  return s ? arena_strndup(c->a, s, strlen(s)) : NULL;
}

static int to_u32(struct pctx *c, const yaml_node_t *n, uint32_t *out)
{
  const char *s = scalar(n);
  char *end;
  unsigned long long v;
  if (!s || !*s)
    return bad(c, n, "expected a number", NULL);
  v = strtoull(s, &end, 0);
  if (*end || v > 0xFFFFFFFFull)
    return bad(c, n, "expected a 32-bit unsigned number", s);
  *out = (uint32_t)v;
  return 0;
}

#define FOR_PAIRS(node, p) \
  for (yaml_node_pair_t *p = (node)->data.mapping.pairs.start; p < (node)->data.mapping.pairs.top; p++)
#define KEY(p) scalar(yaml_document_get_node(c->doc, (p)->key))
#define VAL(p) yaml_document_get_node(c->doc, (p)->value)

static int parse_field(struct pctx *c, yaml_node_t *n, struct lp_field *f)
{
  int have_type = 0;
  if (n->type != YAML_MAPPING_NODE)
    return bad(c, n, "a field is a mapping", NULL);
  memset(f, 0, sizeof *f);
  f->count = 1;
  FOR_PAIRS(n, p) {
    const char *k = KEY(p), *v = scalar(VAL(p));
    if (!k || !v)
      return bad(c, VAL(p), "field keys and values are scalars", k);
    if (!strcmp(k, "name")) f->name = dup(c, v);
    else if (!strcmp(k, "role")) f->role = dup(c, v);
    else if (!strcmp(k, "of")) f->of = dup(c, v);
    else if (!strcmp(k, "span")) f->span = dup(c, v);
    else if (!strcmp(k, "range")) f->range = dup(c, v);
    else if (!strcmp(k, "cond")) f->cond = dup(c, v);
    else if (!strcmp(k, "assume")) f->assume = dup(c, v);
    else if (!strcmp(k, "count")) {
      if (to_u32(c, VAL(p), &f->count) < 0 || f->count == 0 || f->count > 4096)
        return bad(c, VAL(p), "count must be 1 ... 4096", v);
    } else if (!strcmp(k, "type")) {
      int t;
      for (t = 0; t < LP_TYPE_COUNT && strcmp(type_names[t], v); t++)
        ;
      if (t == LP_TYPE_COUNT)
        return bad(c, VAL(p), "unknown type (u8 s8 u16 s16 u32 s32 f32 char)", v);
      f->type = (enum lp_type)t;
      have_type = 1;
    } else
      return bad(c, VAL(p), "unknown field key", k);
  }
  if (!f->name || !have_type)
    return bad(c, n, "a field needs name and type", NULL);
  if (!f->role)
    f->role = "";
  return 0;
}

static int parse_fields(struct pctx *c, yaml_node_t *n, struct lp_fields *out)
{
  size_t count;
  if (!n || n->type != YAML_SEQUENCE_NODE)
    return bad(c, n, "fields are a sequence", NULL);
  count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
  if (count == 0 || count > 256)
    return bad(c, n, "1 ... 256 fields", NULL);
  out->v = arena_calloc(c->a, count, sizeof *out->v);
  out->n = 0;
  if (!out->v)
    return bad(c, n, "out of memory", NULL);
  for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
    if (parse_field(c, yaml_document_get_node(c->doc, *it), &out->v[out->n++]) < 0)
      return -1;
  return 0;
}

static int parse_section(struct pctx *c, yaml_node_t *n, struct lp_section *s)
{
  memset(s, 0, sizeof *s);
  if (n->type != YAML_MAPPING_NODE)
    return bad(c, n, "a section is a mapping", NULL);
  FOR_PAIRS(n, p) {
    const char *k = KEY(p);
    yaml_node_t *v = VAL(p);
    if (!k)
      return bad(c, v, "section keys are scalars", NULL);
    if (!strcmp(k, "name")) s->name = dup(c, scalar(v));
    else if (!strcmp(k, "count")) s->count = dup(c, scalar(v));
    else if (!strcmp(k, "cond")) s->cond = dup(c, scalar(v));
    else if (!strcmp(k, "fields")) {
      if (parse_fields(c, v, &s->fields) < 0)
        return -1;
    } else if (!strcmp(k, "variants")) {
      size_t nv;
      if (v->type != YAML_SEQUENCE_NODE)
        return bad(c, v, "variants are a sequence", NULL);
      nv = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
      s->variants = arena_calloc(c->a, nv + 1, sizeof *s->variants);
      if (!s->variants)
        return bad(c, v, "out of memory", NULL);
      for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        yaml_node_t *vn = yaml_document_get_node(c->doc, *it);
        struct lp_variant *var = &s->variants[s->nvariants++];
        if (vn->type != YAML_MAPPING_NODE)
          return bad(c, vn, "a variant is a mapping with cond and fields", NULL);
        FOR_PAIRS(vn, q) {
          const char *vk = KEY(q);
          if (vk && !strcmp(vk, "cond"))
            var->cond = dup(c, scalar(VAL(q)));
          else if (vk && !strcmp(vk, "fields")) {
            if (parse_fields(c, VAL(q), &var->fields) < 0)
              return -1;
          } else
            return bad(c, VAL(q), "unknown variant key", vk);
        }
        if (!var->cond || !var->fields.n)
          return bad(c, vn, "a variant needs cond and fields", NULL);
      }
    } else
      return bad(c, v, "unknown section key", k);
  }
  if (!s->name || !s->count || !s->fields.n)
    return bad(c, n, "a section needs name, count and fields", NULL);
  return 0;
}

static int find_field(const struct lp_fields *fs, const char *name)
{
  for (uint32_t i = 0; i < fs->n; i++)
    if (!strcmp(fs->v[i].name, name))
      return (int)i;
  return -1;
}

static int known_cond(const struct x42_profile *p, const char *cond)
{
  if (!cond)
    return 1;
  if (*cond == '!')
    cond++;
  for (uint32_t i = 0; i < p->nflags; i++)
    if (!strcmp(p->flags[i].name, cond))
      return 1;
  return 0;
}

/* Every name a profile uses must resolve: counts to header fields, conditions to flags,
 * `of` to sections, assumptions to the profile's list. */
static int validate(struct pctx *c, const struct x42_profile *p)
{
  char what[96];
  for (uint32_t i = 0; i < p->nflags; i++)
    if (find_field(&p->header, p->flags[i].field) < 0) {
      snprintf(what, sizeof what, "flag %s lives in unknown header field", p->flags[i].name);
      return bad(c, NULL, what, p->flags[i].field);
    }
  for (uint32_t i = 0; i < p->header.n; i++)
    if (!known_cond(p, p->header.v[i].cond))
      return bad(c, NULL, "header field condition names no flag", p->header.v[i].cond);
  for (uint32_t s = 0; s < p->nsections; s++) {
    const struct lp_section *sec = &p->sections[s];
    if (strcmp(sec->count, "blend") && find_field(&p->header, sec->count) < 0)
      return bad(c, NULL, "section count names no header field", sec->count);
    if (!known_cond(p, sec->cond))
      return bad(c, NULL, "section condition names no flag", sec->cond);
    for (uint32_t v = 0; v < sec->nvariants; v++)
      if (!known_cond(p, sec->variants[v].cond))
        return bad(c, NULL, "variant condition names no flag", sec->variants[v].cond);
    for (uint32_t f = 0; f < sec->fields.n; f++) {
      const struct lp_field *fd = &sec->fields.v[f];
      if (fd->of) {
        uint32_t t;
        for (t = 0; t < p->nsections && strcmp(p->sections[t].name, fd->of); t++)
          ;
        if (t == p->nsections)
          return bad(c, NULL, "field `of` names no section", fd->of);
        if (fd->span && find_field(&sec->fields, fd->span) < 0)
          return bad(c, NULL, "field `span` names no field of its section", fd->span);
      }
    }
  }
  {
    const char *refs[3] = {p->version_assumption, p->align_assumption, NULL};
    for (int r = 0; r < 2; r++) {
      uint32_t i;
      if (!refs[r])
        continue;
      for (i = 0; i < p->nassumptions && strcmp(p->assumptions[i].id, refs[r]); i++)
        ;
      if (i == p->nassumptions)
        return bad(c, NULL, "assumption not listed", refs[r]);
    }
  }
  return 0;
}

int x42_profile_parse(const char *text, size_t len, const char *origin, struct arena *a,
                      struct x42_profile *p, char *err, size_t errcap)
{
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_node_t *root;
  struct pctx cs, *c = &cs;
  int rc = 0;
  memset(p, 0, sizeof *p);
  memset(c, 0, sizeof *c);
  c->doc = &doc;
  c->a = a;
  c->err = err;
  c->errcap = errcap;
  p->origin = origin;
  p->ident = 0x32345748u;
  p->align = 16;
  if (!yaml_parser_initialize(&parser))
    return snprintf(err, errcap, "out of memory"), -1;
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  if (!yaml_parser_load(&parser, &doc)) {
    snprintf(err, errcap, "line %lu: YAML error: %s", (unsigned long)parser.problem_mark.line + 1,
             parser.problem ? parser.problem : "?");
    yaml_parser_delete(&parser);
    return -1;
  }
  root = yaml_document_get_root_node(&doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    rc = bad(c, root, "a profile is a mapping", NULL);
    goto done;
  }
  FOR_PAIRS(root, q) {
    const char *k = KEY(q);
    yaml_node_t *v = VAL(q);
    if (!k) {
      rc = bad(c, v, "keys are scalars", NULL);
      break;
    }
    if (!strcmp(k, "profile")) p->name = dup(c, scalar(v));
    else if (!strcmp(k, "version")) rc = to_u32(c, v, &p->version);
    else if (!strcmp(k, "ident")) rc = to_u32(c, v, &p->ident);
    else if (!strcmp(k, "align")) rc = to_u32(c, v, &p->align);
    else if (!strcmp(k, "version_assumption")) p->version_assumption = dup(c, scalar(v));
    else if (!strcmp(k, "align_assumption")) p->align_assumption = dup(c, scalar(v));
    else if (!strcmp(k, "changes")) p->changes = dup(c, scalar(v));
    else if (!strcmp(k, "header")) rc = parse_fields(c, v, &p->header);
    else if (!strcmp(k, "assumptions") || !strcmp(k, "flags") || !strcmp(k, "sections")) {
      size_t n;
      if (v->type != YAML_SEQUENCE_NODE) {
        rc = bad(c, v, "expected a sequence", k);
        break;
      }
      n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
      if (!strcmp(k, "sections"))
        p->sections = arena_calloc(a, n + 1, sizeof *p->sections);
      else if (!strcmp(k, "flags"))
        p->flags = arena_calloc(a, n + 1, sizeof *p->flags);
      else
        p->assumptions = arena_calloc(a, n + 1, sizeof *p->assumptions);
      for (yaml_node_item_t *it = v->data.sequence.items.start; rc == 0 && it < v->data.sequence.items.top; it++) {
        yaml_node_t *e = yaml_document_get_node(&doc, *it);
        if (!strcmp(k, "sections")) {
          if (!p->sections)
            rc = bad(c, e, "out of memory", NULL);
          else
            rc = parse_section(c, e, &p->sections[p->nsections++]);
          continue;
        }
        if (e->type != YAML_MAPPING_NODE || (!p->flags && !p->assumptions)) {
          rc = bad(c, e, "expected a mapping", k);
          break;
        }
        if (!strcmp(k, "flags")) {
          struct lp_flag *fl = &p->flags[p->nflags++];
          FOR_PAIRS(e, r) {
            const char *fk = KEY(r);
            if (fk && !strcmp(fk, "name")) fl->name = dup(c, scalar(VAL(r)));
            else if (fk && !strcmp(fk, "field")) fl->field = dup(c, scalar(VAL(r)));
            else if (fk && !strcmp(fk, "value")) rc = to_u32(c, VAL(r), &fl->value);
            else rc = bad(c, VAL(r), "unknown flag key", fk);
          }
          if (!rc && (!fl->name || !fl->field || !fl->value))
            rc = bad(c, e, "a flag needs name, field and a non-zero value", NULL);
        } else {
          struct lp_assumption *as = &p->assumptions[p->nassumptions++];
          FOR_PAIRS(e, r) {
            const char *ak = KEY(r);
            if (ak && !strcmp(ak, "id")) as->id = dup(c, scalar(VAL(r)));
            else if (ak && !strcmp(ak, "what")) as->what = dup(c, scalar(VAL(r)));
            else if (ak && !strcmp(ak, "why")) as->why = dup(c, scalar(VAL(r)));
            else rc = bad(c, VAL(r), "unknown assumption key", ak);
          }
          if (!rc && (!as->id || !as->what || !as->why || strncmp(as->id, "X42-ASSUME-", 11)))
            rc = bad(c, e, "an assumption needs id (X42-ASSUME-NNN), what and why", NULL);
        }
      }
    } else if (!strcmp(k, "sample")) {
      size_t n = v->type == YAML_MAPPING_NODE ? (size_t)(v->data.mapping.pairs.top - v->data.mapping.pairs.start) : 0;
      p->sample = arena_calloc(a, n + 1, sizeof *p->sample);
      if (v->type != YAML_MAPPING_NODE || !p->sample) {
        rc = bad(c, v, "sample is a mapping", NULL);
        break;
      }
      FOR_PAIRS(v, r) {
        const char *sk = KEY(r);
        yaml_node_t *sv = VAL(r);
        if (sk && !strcmp(sk, "flags") && sv->type == YAML_SEQUENCE_NODE) {
          size_t nf = (size_t)(sv->data.sequence.items.top - sv->data.sequence.items.start);
          p->sample_flags = arena_calloc(a, nf + 1, sizeof *p->sample_flags);
          for (yaml_node_item_t *it = sv->data.sequence.items.start; p->sample_flags && it < sv->data.sequence.items.top; it++)
            p->sample_flags[p->nsample_flags++] = dup(c, scalar(yaml_document_get_node(&doc, *it)));
        } else if (sk) {
          p->sample[p->nsample].field = dup(c, sk);
          rc = to_u32(c, sv, &p->sample[p->nsample++].value);
        }
        if (rc)
          break;
      }
    } else
      rc = bad(c, v, "unknown profile key", k);
    if (rc || c->failed)
      break;
  }
  if (!rc && !c->failed && (!p->name || !p->version || !p->header.n || !p->nsections))
    rc = bad(c, root, "a profile needs profile, version, header and sections", NULL);
  if (!rc && !c->failed && (p->align == 0 || p->align > 4096))
    rc = bad(c, root, "align must be 1 ... 4096", NULL);
  if (!rc && !c->failed)
    rc = validate(c, p);
done:
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  return rc || c->failed ? -1 : 0;
}
