/* model_json.h - the decoded model as JSON for a viewer (mdl_model_*_json): skeleton, meshes,
 * vertices, triangles, where each element is in the source, and the element each diagnostic
 * points at (model_locate). */
#ifndef MDL_MODEL_JSON_H
#define MDL_MODEL_JSON_H

#include <stdio.h>

#include "pipeline.h"

/* Where a diagnostic of the decode is (copied from mdl_diag as it arrived). */
struct model_diag_at {
  char *id, *path, *message;
  long long offset;
  unsigned line, column;
};

/* The document; 0, or -1 when out could not be written. */
int model_write_json(FILE *out, const char *path, const struct pipeline_run *run,
                     const struct model_diag_at *diags, size_t num_diags);

#endif
