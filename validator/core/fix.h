/* fix.h - `mdlcheck fix IN [OUT]`: a conversion of IN to its own format (core/convert.h) in which
 * IN may have the errors the catalogue says fix repairs (a rule's `repair:`), the format's repair
 * hook (struct mdl_format.repair) changes what writing again does not, and the proof also holds
 * the bytes to having none of the repaired findings (spec/formats/core.md section 7).
 *
 * The stages (convert_run) call in here when the request carries a struct convert_fix:
 * fix_source_check after IN is decoded (instead of refusing every error), fix_prepare before the
 * writer (refusals MDL-FIX-001, the list MDL-FIX-003, the repairs; IN's own bytes when there is
 * nothing to repair), fix_written after it (a loss announced in its own format is MDL-FIX-002),
 * fix_proved on the re-decoded bytes (a repaired finding left is MDL-FIX-002). */
#ifndef MDL_FIX_H
#define MDL_FIX_H

#include "diag.h"
#include "format.h"
#include "report.h"
#include "rules_gen.h"

struct write_losses;

struct convert_fix {
  int in_place;                     /* OUT is IN: with nothing to repair, nothing is written */
  /* filled by the stages */
  unsigned char found[RULE_COUNT];  /* 1: IN had a finding of the rule (after the policy) */
  unsigned long repairs;            /* IN's findings fix repairs (0: nothing to fix) */
  unsigned long unrepairable;       /* IN's errors it does not repair: refused */
  int unit_rotations;               /* the repair normalised rotations: the proof compares unit ones */
  int unit_weights;                 /* the repair renormalised blend weights: compared as fractions */
  int kept;                         /* nothing to repair: the bytes are IN's own */
  /* what the repairs replaced in the model, put back once it is written (fix_restore), so the
   * proof compares the bytes with IN's model as decoded, not with the repaired one */
  struct model_varray *saved_varrays;
  uint32_t saved_nvarrays;
  const unsigned char *saved_adjacency;
  int saved;
};

/* After IN is decoded into its entry `in` (graded by rep's fail_on): what fix repairs, what it
 * cannot. 1 when fix may go on (IN decoded to its end), 0 when not. */
int fix_source_check(struct convert_fix *fx, const struct report *rep, const struct report_file *in,
                     int decoded);

/* Before the writer: each unrepairable error's rule once as MDL-FIX-001 into sink (OUT's entry),
 * each repaired finding as MDL-FIX-003 into list (IN's entry), then the format's repairs on m.
 * 0 to write, 1 when nothing needs repairing (write IN's own bytes), -1 refused (why says it),
 * -2 out of memory. */
int fix_prepare(struct convert_fix *fx, const struct report_file *in, struct diag_sink *sink,
                struct diag_sink *list, struct model *m, const struct mdl_format *format, char *why,
                size_t why_size);

/* After the writer (whatever it answered): the model's arrays as IN decoded them again. */
void fix_restore(struct convert_fix *fx, struct model *m);

/* After the writer: a loss it announced in its own format is MDL-FIX-002 into sink; 0, or -1
 * refused (why says it). */
int fix_written(struct convert_fix *fx, const struct write_losses *losses, struct diag_sink *sink,
                char *why, size_t why_size);

/* On the decoded bytes' entry `out`: a finding of a rule fix repaired is MDL-FIX-002 into sink;
 * 0, or -1 (not repaired: nothing written). */
int fix_proved(struct convert_fix *fx, const struct report_file *out, struct diag_sink *sink);

#endif
