/* fix.c - what `mdlcheck fix` adds to a conversion of IN to its own format (core/fix.h): which of
 * IN's findings it repairs (the catalogue's repair:), the refusals, the list of repairs, the
 * format's repair hook, and the checks that the repaired bytes hold none of the findings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"
#include "fix_repair.h"
#include "write_loss.h"

/* The rule table's index of r (a table entry: report messages point into the table). */
static int rule_index_of(const mdl_rule *r)
{
  const mdl_rule *r0 = mdl_rule_at(0);
  if (r && r >= r0 && r < r0 + RULE_COUNT)
    return (int)(r - r0);
  r = r ? mdl_rule_find(r->id) : NULL;
  return r ? (int)(r - r0) : -1;
}

/* 1 when the message counts against the file (the report's fail_on, not baselined). */
static int failing(const struct report *rep, const struct report_msg *m)
{
  return m->severity <= rep->fail_on && m->severity < MDL_SEVERITY_COUNT && !m->baselined;
}

int fix_source_check(struct convert_fix *fx, const struct report *rep, const struct report_file *in,
                     int decoded)
{
  memset(fx->found, 0, sizeof fx->found);
  fx->repairs = fx->unrepairable = 0;
  for (size_t k = 0; k < in->nmsgs; k++) {
    const struct report_msg *m = &in->msgs[k];
    int i = rule_index_of(m->rule);
    unsigned long n = m->folded ? m->folded : 1;
    if (i < 0 || m->severity >= MDL_INFO)
      continue; /* info and hints ask nothing of the file */
    fx->found[i] = 1;
    if (m->rule->repair[0])
      fx->repairs += n;
    else if (failing(rep, m))
      fx->unrepairable += n;
  }
  return decoded;
}

static int hook_found(const struct fix_repair *r, int rule)
{
  const struct convert_fix *fx = r->user;
  return rule >= 0 && rule < RULE_COUNT && fx->found[rule];
}

/* Where IN holds the finding m, as a location of the list. */
static struct mdl_loc msg_loc(const struct report_msg *m)
{
  struct mdl_loc loc = loc_none();
  loc.offset = m->offset;
  loc.line = m->line;
  loc.column = m->column;
  snprintf(loc.path, sizeof loc.path, "%s", m->path ? m->path : "");
  return loc;
}

int fix_prepare(struct convert_fix *fx, const struct report_file *in, struct diag_sink *sink,
                struct diag_sink *list, struct model *m, const struct mdl_format *format, char *why,
                size_t why_size)
{
  struct fix_repair hook;
  if (fx->unrepairable) {
    unsigned char named[RULE_COUNT];
    size_t len = 0;
    memset(named, 0, sizeof named);
    why[0] = 0;
    for (size_t k = 0; k < in->nmsgs; k++) {
      const struct report_msg *msg = &in->msgs[k];
      int i = rule_index_of(msg->rule);
      struct mdl_loc loc;
      if (i < 0 || named[i] || msg->rule->repair[0] || msg->severity > MDL_ERROR || msg->baselined)
        continue;
      named[i] = 1;
      loc = msg_loc(msg);
      diag_emit(sink, RULE_CORE_FIX_NOT_REPAIRABLE, &loc, NULL, "%s (%s%s%s)", msg->rule->id,
                msg->path && msg->path[0] ? msg->path : "", msg->path && msg->path[0] ? ": " : "",
                msg->actual ? msg->actual : "");
      if (len + strlen(msg->rule->id) + 3 < why_size)
        len += (size_t)snprintf(why + len, why_size - len, "%s%s", len ? ", " : "", msg->rule->id);
    }
    if (!len) /* findings failing under --fail-on=warning: their rules, graded below error */
      snprintf(why, why_size, "%lu finding%s fix does not repair fail the check", fx->unrepairable,
               fx->unrepairable == 1 ? "" : "s");

    return -1;
  }
  if (!fx->repairs) {
    fx->kept = 1;
    return 1;
  }
  for (size_t k = 0; k < in->nmsgs; k++) {
    const struct report_msg *msg = &in->msgs[k];
    struct mdl_loc loc;
    if (!msg->rule->repair[0] || msg->severity >= MDL_INFO)
      continue;
    loc = msg_loc(msg);
    diag_emit(list, RULE_CORE_FIX_REPAIRED, &loc, msg->rule->repair, "%s was %s%s", msg->rule->id,
              msg->actual && msg->actual[0] ? msg->actual : "flagged",
              msg->folded > 1 ? " (and its repeats)" : "");
  }
  /* the repairs may replace arrays the proof compares: keep IN's to put back (fix_restore) */
  if (m->num_varrays) {
    fx->saved_varrays = malloc((size_t)m->num_varrays * sizeof *m->varrays);
    if (!fx->saved_varrays) {
      snprintf(why, why_size, "out of memory repairing the model");
      return -2;
    }
    memcpy(fx->saved_varrays, m->varrays, (size_t)m->num_varrays * sizeof *m->varrays);
  }
  fx->saved_nvarrays = m->num_varrays;
  fx->saved_adjacency = m->adjacency;
  fx->saved = 1;
  memset(&hook, 0, sizeof hook);
  hook.found = hook_found;
  hook.user = fx;
  if (format->repair && format->repair(m, &hook) < 0) {
    snprintf(why, why_size, "out of memory repairing the model");
    return -2;
  }
  if (m->arena.failed) {
    snprintf(why, why_size, "out of memory repairing the model");
    return -2;
  }
  fx->unit_rotations = hook.unit_rotations;
  fx->unit_weights = hook.unit_weights;
  return 0;
}

void fix_restore(struct convert_fix *fx, struct model *m)
{
  if (!fx->saved)
    return;
  if (fx->saved_varrays && m->num_varrays == fx->saved_nvarrays)
    memcpy(m->varrays, fx->saved_varrays, (size_t)m->num_varrays * sizeof *m->varrays);
  m->adjacency = fx->saved_adjacency;
  free(fx->saved_varrays);
  fx->saved_varrays = NULL;
  fx->saved = 0;
}

int fix_written(struct convert_fix *fx, const struct write_losses *losses, struct diag_sink *sink,
                char *why, size_t why_size)
{
  size_t len = 0;
  struct mdl_loc none = loc_none();
  (void)fx;
  if (!losses->n)
    return 0;
  why[0] = 0;
  for (size_t i = 0; i < losses->n; i++) {
    const mdl_rule *r = mdl_rule_at(losses->item[i].rule);
    if (r && !strstr(why, r->id) && len + strlen(r->id) + 3 < why_size)
      len += (size_t)snprintf(why + len, why_size - len, "%s%s", len ? ", " : "", r->id);
  }
  diag_emit(sink, RULE_CORE_FIX_REWRITE_CHANGES, &none, NULL,
            "would lose what its own format's writer announced (%s)", why);
  return -1;
}

int fix_proved(struct convert_fix *fx, const struct report_file *out, struct diag_sink *sink)
{
  int left = 0;
  unsigned char named[RULE_COUNT];
  memset(named, 0, sizeof named);
  for (size_t k = 0; k < out->nmsgs; k++) {
    const struct report_msg *m = &out->msgs[k];
    int i = rule_index_of(m->rule);
    struct mdl_loc loc;
    if (i < 0 || !fx->found[i] || !m->rule->repair[0] || named[i] || m->severity >= MDL_INFO)
      continue;
    named[i] = 1;
    loc = msg_loc(m);
    diag_emit(sink, RULE_CORE_FIX_REWRITE_CHANGES, &loc, NULL, "still has %s (%s)", m->rule->id, m->message);
    left = 1;
  }
  return left ? -1 : 0;
}
