/* convert_accept.c - --accept-loss: the losses a conversion's caller expects, re-graded to warnings
 * as the sinks receive them (diag_sink.regrade), so counts, folds and report agree from the start;
 * and, after a failed proof, the --accept-loss that would accept what it found. */
#include <stdio.h>
#include <string.h>

#include "convert_stage.h"

int convert_accepted(const char *list, const mdl_rule *rule)
{
  for (const char *p = list; p && *p;) {
    char id[64];
    size_t n = strcspn(p, ",");
    snprintf(id, sizeof id, "%.*s", (int)(n < sizeof id - 1 ? n : sizeof id - 1), p);
    if (mdl_rule_find(id) == rule)
      return 1;
    p += n + (p[n] == ',');
  }
  return 0;
}

/* 1 when rule is the proof's rule of a loss the writer announced and the caller accepted. */
static int proof_accepted(const struct convert_state *s, const mdl_rule *rule)
{
  const struct write_losses *l = &s->losses;
  for (size_t i = 0; i < l->n; i++)
    if (mdl_rule_at(l->item[i].proof) == rule && convert_accepted(s->rq->accept_loss, mdl_rule_at(l->item[i].rule)))
      return 1;
  return 0;
}

/* An announcement: a loss (a warning by the catalogue) the caller accepted stays a warning
 * whatever the policy made of it; a refusal (an error by the catalogue) is never accepted. */
static mdl_severity regrade_announce(const void *ctx, const mdl_rule *rule, mdl_severity sev)
{
  const struct convert_state *s = ctx;
  if (sev <= MDL_ERROR && rule->severity > MDL_ERROR && convert_accepted(s->rq->accept_loss, rule))
    return MDL_WARNING;
  return sev;
}

/* A proof difference: accepted when named, or when an accepted announcement explains it. */
static mdl_severity regrade_proof(const void *ctx, const mdl_rule *rule, mdl_severity sev)
{
  const struct convert_state *s = ctx;
  if (sev <= MDL_ERROR && (convert_accepted(s->rq->accept_loss, rule) || proof_accepted(s, rule)))
    return MDL_WARNING;
  return sev;
}

void convert_accept_announce(struct convert_state *s, struct diag_sink *sink)
{
  if (s->rq->accept_loss && *s->rq->accept_loss) {
    sink->regrade = regrade_announce;
    sink->regrade_ctx = s;
  }
}

void convert_accept_proof(struct convert_state *s, struct diag_sink *sink)
{
  if (s->rq->accept_loss && *s->rq->accept_loss) {
    sink->regrade = regrade_proof;
    sink->regrade_ctx = s;
  }
}

int convert_losses_accepted(const struct convert_state *s)
{
  for (size_t i = 0; i < s->losses.n; i++)
    if (convert_accepted(s->rq->accept_loss, mdl_rule_at(s->losses.item[i].rule)))
      return 1;
  return 0;
}

void convert_accept_hint(struct convert_state *s)
{
  const struct write_losses *l = &s->losses;
  const struct report_file *f = s->out->out;
  char ids[512] = "";
  size_t n = 0;
  for (size_t i = 0; f && i < l->n; i++) {
    const mdl_rule *rule = mdl_rule_at(l->item[i].rule), *proof = mdl_rule_at(l->item[i].proof);
    int found = 0;
    if (convert_accepted(s->rq->accept_loss, rule) || strstr(ids, rule->id))
      continue;
    found = l->item[i].unseen && !l->refused; /* the announcement is the finding (once written) */
    for (size_t k = 0; k < f->nmsgs && !found; k++)
      found = f->msgs[k].rule == proof && f->msgs[k].severity <= MDL_ERROR;
    if (found && n + strlen(rule->id) + 2 < sizeof ids)
      n += (size_t)snprintf(ids + n, sizeof ids - n, "%s%s", n ? "," : "", rule->id);
  }
  s->out->hint[0] = 0;
  if (n)
    snprintf(s->out->hint, sizeof s->out->hint, "--accept-loss=%s", ids);
}
