/* iqe_joints.c - joint names by where they are in the text: the set the duplicate check and the
 * model read them through, without a copy or an interned id per name. */
#include <stdlib.h>
#include <string.h>

#include "iqe.h"

/* Distinct names of at most 2 bytes, counted generously (any byte but NUL): 1 + 255 + 255 * 255.
 * A longer name needs a joint line of 9 bytes or more ("joint", a blank and 3 bytes). */
#define SHORT_NAMES 65281u

int iqe_joint_names_alloc(struct iqe_parser *p)
{
  struct iqe_joint_names *jn = &p->joint_names;
  uint64_t distinct = p->counts[CMD_JOINT], bound = (uint64_t)SHORT_NAMES + p->joint_long, cap = 16;
  if (distinct > bound)
    distinct = bound;
  /* at most 3/4 full: a miss stays a few probes */
  while (cap < (distinct + 1) * 4 / 3 + 1)
    cap *= 2;
  if (cap > UINT32_MAX / 2)
    return -1; /* cannot happen: fewer joints than lines */
  jn->cap = (uint32_t)cap;
  /* calloc, not the arena: its big blocks are huge pages, where one name would touch 2 MiB */
  jn->slot = calloc(cap, sizeof *jn->slot);
  jn->rep = calloc(cap / 8 + 1, 1);
  return jn->slot && jn->rep ? 0 : -1;
}

void iqe_joint_names_free(struct iqe_joint_names *jn)
{
  free(jn->slot);
  free(jn->rep);
  memset(jn, 0, sizeof *jn);
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

/* The name of joint j, read again from its line (a text too large for 32-bit offsets) */
static void name_of_joint(const struct iqe_parser *p, uint32_t j, const char **s, size_t *len)
{
  struct iqe_line ln;
  struct iqe_tok t[2];
  *s = "";
  *len = 0;
  if (!iqe_line_find(p, iqe_lines_get(&p->joint_lines, j), &ln) || iqe_tokenize_some(&ln, t, 2) < 2)
    return; /* cannot happen for a line with a name */
  *s = t[1].s;
  *len = t[1].len;
  nul_cut(*s, len);
}

void iqe_joint_name(const struct iqe_parser *p, uint32_t key, const char **s, size_t *len)
{
  const struct iqe_joint_names *jn = &p->joint_names;
  *s = "";
  *len = 0;
  if (key >= jn->cap || !jn->slot[key])
    return; /* the empty name */
  if (p->size <= IQE_JOINT_OFF_MAX)
    name_at(p, jn->slot[key] - 1, s, len);
  else
    name_of_joint(p, jn->slot[key] - 1, s, len);
}

static void repeated(struct iqe_joint_names *jn, uint32_t key)
{
  if (jn->rep[key / 8] & (1u << (key % 8)))
    return;
  jn->rep[key / 8] |= (unsigned char)(1u << (key % 8));
  if (jn->num_rep < IQE_JOINT_FEW)
    jn->few[jn->num_rep] = key;
  jn->num_rep++;
}

uint32_t iqe_joint_name_key(struct iqe_parser *p, const struct iqe_tok *t)
{
  struct iqe_joint_names *jn = &p->joint_names;
  const char *s = t ? t->s : "";
  size_t len = t ? t->len : 0;
  uint32_t k;
  nul_cut(s, &len);
  if (len == 0) {
    if (jn->empty_seen)
      repeated(jn, jn->cap);
    jn->empty_seen = 1;
    return jn->cap;
  }
  for (k = name_hash(s, len) & (jn->cap - 1); jn->slot[k]; k = (k + 1) & (jn->cap - 1)) {
    const char *o;
    size_t olen;
    iqe_joint_name(p, k, &o, &olen);
    if (olen == len && !memcmp(o, s, len)) {
      repeated(jn, k);
      return k;
    }
  }
  if (jn->used + 1 >= jn->cap) {
    p->scratch.failed = 1; /* cannot happen: sized for every name the file can hold */
    return jn->cap;
  }
  jn->used++;
  if (p->size <= IQE_JOINT_OFF_MAX)
    jn->slot[k] = (uint32_t)(t->s - t->quoted - (const char *)p->data) + 1;
  else
    jn->slot[k] = p->num_joints + 1;
  return k;
}
