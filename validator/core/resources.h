/* resources.h - the files a model names, resolved along a search path and checked by content
 * (mdl_options.resources). */
#ifndef MDL_RESOURCES_H
#define MDL_RESOURCES_H

#include "diag.h"
#include "model.h"

/* Resolve and check every reference of m, named by the model file model_path (NULL or "-": no
 * folder of its own), reporting into sink and options->on_resource. */
void resources_check(struct diag_sink *sink, const struct model *m, const char *model_path,
                     const mdl_options *options);

#endif
