/* iqm_write.h - serialise the common model as IQM (version 2, or the legacy version 1). */
#ifndef MDL_IQM_WRITE_H
#define MDL_IQM_WRITE_H

#include "format.h"

/* Always quantize frames the way the reference compiler does, even when the model carries the
 * channels it was decoded with (which otherwise are reused when they reproduce every frame). */
#define IQM_WRITE_REQUANTIZE 1u

/* The format's writer (struct mdl_format.write): opts->version "1" or "2" (default). */
int iqm_write(const struct model *m, const struct write_opts *opts, struct byte_buf *out);
/* mdlcheck fix's repairs of a decoded model (iqm_repair.c; struct mdl_format.repair). */
int iqm_repair(struct model *m, struct fix_repair *fx);
int iqm_write_ex(const struct model *m, const struct write_opts *opts, unsigned flags,
                 struct byte_buf *out);

struct arena;
struct write_losses;
/* m's vertex arrays made to meet IQM's rules (iqm_write_fit.c): 1 with the fitted model in fit
 * (its arrays in a), 0 when m meets them as it is, -1 out of memory. */
int iqm_model_fit(const struct model *m, struct arena *a, struct model *fit, struct write_losses *l);

#endif
