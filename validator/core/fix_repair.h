/* fix_repair.h - what a format's repair hook (struct mdl_format.repair) is given and says:
 * which rules the input broke, and what its repairs change that the proof must expect. */
#ifndef MDL_FIX_REPAIR_H
#define MDL_FIX_REPAIR_H

struct fix_repair {
  /* 1 when the input had a finding of rule (an index of the rule table, RULE_*): a hook
   * repairs only what was found, so a file it does not flag keeps its bytes' meaning */
  int (*found)(const struct fix_repair *fx, int rule);
  const void *user;
  int unit_rotations; /* set by a hook that normalised rotations: the proof compares them as
                       * unit quaternions (the one change such a repair makes) */
  int unit_weights;   /* set by a hook that renormalised blend weights: the proof compares each
                       * vertex's weights as fractions of its total */
};

#endif
