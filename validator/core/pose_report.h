/* pose_report.h - the poses of one file (`mdlcheck poses`, mdl_poses_*_json): the decode that
 * decides whether they may be shown, and their JSON document. */
#ifndef MDL_POSE_REPORT_H
#define MDL_POSE_REPORT_H

#include <stdio.h>

#include "pipeline.h"
#include "report.h"

/* Decode in (input.h: a mapped file's pages go back as the decode reads on; a buffer's are
 * the caller's) with its animation frames, collecting its diagnostics into f (a file of rep, whose
 * fail_on applies). MDL_OK: the poses may be shown. MDL_EDECODE: the input does not decode
 * cleanly, and poses of a broken file mislead (f says why). MDL_EIO: its inflated text passed
 * the size limit (MDL-IO-002 in f). MDL_ENOMEM: f is NULL (report_add_file failed) or lost a
 * diagnostic. MDL_EINTERNAL. Release run with pipeline_release whatever
 * it returns. */
mdl_status poses_decode(const struct mdl_input *in, const char *name, const mdl_options *o,
                        const struct report *rep, struct report_file *f, struct pipeline_run *run);

struct json_writer;
/* The "joints" member of that document: each joint's index, name, parent and base pose (the
 * model JSON of mdl_model_*_json shares it). 0, or -1 when a joint the model counts could not
 * be given (model_joints_next): the document is then unfinished. */
int poses_write_joints(struct json_writer *w, const struct model *m);

/* The JSON document `mdlcheck poses -f json` prints: the skeleton, its base pose and every
 * frame (rotations normalised, xyzw). 0, or -1 when out could not be written or a joint could
 * not be given. */
int poses_write_json(FILE *out, const char *path, const struct pipeline_run *run);

#endif
