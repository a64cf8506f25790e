/* write_loss.c - a writer's announcements of what the target cannot carry (write_loss.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

void write_loss_refs(struct write_losses *l, const struct model *m, enum rule_index rule)
{
  for (const struct model_ref *r = m->refs; l && r; r = r->next) {
    struct mdl_loc loc;
    const struct model_ref *e;
    if (!model_ref_named_file(r) || model_ref_is_material(m, r))
      continue;
    for (e = m->refs; e != r && !(e->kind == r->kind && !strcmp(e->ref, r->ref)); e = e->next)
      ;
    if (e != r)
      continue; /* announced at its first place already */
    if (r->offset >= 0)
      loc = loc_bin((uint64_t)r->offset, "%s", r->path);
    else if (r->line)
      loc = loc_text(r->line, r->column, "%s", r->path);
    else
      loc = loc_none();
    write_loss(l, rule, RULE_CORE_COMPARE_REFERENCE, &loc, "%s '%.200s'",
               r->kind == MODEL_REF_MODEL ? "external model" : "texture", r->ref);
  }
}
