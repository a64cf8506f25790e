/* iqe_name_set.c - joint and animation names by where they are in the text: the set the
 * duplicate checks and the model read them through, without a copy or an interned id each. */
#include <stdlib.h>
#include <string.h>

#include "iqe.h"

/* Distinct names of at most 2 bytes, counted generously (any byte but NUL): 1 + 255 + 255 * 255.
 * A longer name needs a longer line (the command, a blank and 3 bytes). */
#define SHORT_NAMES 65281u

int iqe_name_set_alloc(struct iqe_name_set *s, int anims, uint32_t count, uint32_t longs)
{
  uint64_t distinct = count, bound = (uint64_t)SHORT_NAMES + longs, cap = 16;
  s->anims = anims;
  if (count == 0)
    return 0; /* no element: no name is ever looked up */
  if (distinct > bound)
    distinct = bound;
  /* at most 3/4 full: a miss stays a few probes */
  while (cap < (distinct + 1) * 4 / 3 + 1)
    cap *= 2;
  if (cap > UINT32_MAX / 2)
    return -1; /* cannot happen: fewer names than lines */
  s->cap = (uint32_t)cap;
  /* calloc, not the arena: its big blocks are huge pages, where one name would touch 2 MiB */
  s->slot = calloc(cap, sizeof *s->slot);
  s->rep = calloc(cap / 8 + 1, 1);
  return s->slot && s->rep ? 0 : -1;
}

void iqe_name_set_free(struct iqe_name_set *s)
{
  free(s->slot);
  free(s->rep);
  memset(s, 0, sizeof *s);
}

static uint32_t name_hash(const char *s, size_t len)
{
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

/* What every reader of a name sees: up to its first NUL */
static void nul_cut(const char *s, size_t *len)
{
  const char *nul = *len ? memchr(s, 0, *len) : NULL;
  if (nul)
    *len = (size_t)(nul - s);
}

/* The name token starting at text offset off (at its opening quote when quoted), as the
 * tokenizer reads it: a quoted one to its closing quote or the line's end (LF or CR), another
 * to a blank or the line's end. */
static void name_at(const struct iqe_parser *p, size_t off, const char **s, size_t *len)
{
  const char *d = (const char *)p->data;
  size_t i;
  if (d[off] == '"') {
    for (i = ++off; i < p->size && d[i] != '"' && d[i] != '\n' && d[i] != '\r'; i++)
      ;
  } else {
    for (i = off; i < p->size && d[i] != ' ' && !(d[i] >= '\t' && d[i] <= '\r'); i++)
      ;
  }
  *s = d + off;
  *len = i - off;
  nul_cut(*s, len);
}

/* The name of element e (a joint or an animation), read again from its line: a text too large
 * for 32-bit offsets */
static void name_of_elem(const struct iqe_parser *p, const struct iqe_name_set *set, uint32_t e,
                         const char **s, size_t *len)
{
  struct iqe_line ln;
  struct iqe_tok t[2];
  uint32_t line = set->anims ? p->anims[e].line : iqe_lines_get(&p->joint_lines, e);
  *s = "";
  *len = 0;
  if (!iqe_line_find(p, line, &ln) || iqe_tokenize_some(&ln, t, 2) < 2)
    return; /* cannot happen for a line with a name */
  *s = t[1].s;
  *len = t[1].len;
  nul_cut(*s, len);
}

void iqe_name_set_name(const struct iqe_parser *p, const struct iqe_name_set *set, uint32_t key,
                       const char **s, size_t *len)
{
  *s = "";
  *len = 0;
  if (key >= set->cap || !set->slot[key])
    return; /* the empty name */
  if (p->size <= IQE_NAME_OFF_MAX)
    name_at(p, set->slot[key] - 1, s, len);
  else
    name_of_elem(p, set, set->slot[key] - 1, s, len);
}

int iqe_name_set_repeated(const struct iqe_name_set *set, uint32_t key)
{
  return key <= set->cap && set->rep && ((set->rep[key / 8] >> (key % 8)) & 1);
}

static void repeated(struct iqe_name_set *set, uint32_t key)
{
  if (iqe_name_set_repeated(set, key))
    return;
  set->rep[key / 8] |= (unsigned char)(1u << (key % 8));
  if (set->num_rep < IQE_NAME_SET_FEW)
    set->few[set->num_rep] = key;
  set->num_rep++;
}

uint32_t iqe_name_set_key(struct iqe_parser *p, struct iqe_name_set *set, const struct iqe_tok *t,
                          uint32_t e)
{
  const char *s = t ? t->s : "";
  size_t len = t ? t->len : 0;
  uint32_t k;
  nul_cut(s, &len);
  if (len == 0) {
    if (set->empty_seen)
      repeated(set, set->cap);
    set->empty_seen = 1;
    return set->cap;
  }
  for (k = name_hash(s, len) & (set->cap - 1); set->slot[k]; k = (k + 1) & (set->cap - 1)) {
    const char *o;
    size_t olen;
    iqe_name_set_name(p, set, k, &o, &olen);
    if (olen == len && !memcmp(o, s, len)) {
      repeated(set, k);
      return k;
    }
  }
  if (set->used + 1 >= set->cap) {
    p->scratch.failed = 1; /* cannot happen: sized for every name the file can hold */
    return set->cap;
  }
  set->used++;
  if (p->size <= IQE_NAME_OFF_MAX)
    set->slot[k] = (uint32_t)(t->s - t->quoted - (const char *)p->data) + 1;
  else
    set->slot[k] = e + 1;
  return k;
}
