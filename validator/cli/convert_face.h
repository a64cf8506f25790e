/* convert_face.h - what `convert` and `fix` share as faces of the library's convert_run. */
#ifndef MDL_CONVERT_FACE_H
#define MDL_CONVERT_FACE_H

#include "cli.h"
#include "convert.h"

/* The notes the pipeline gives along the way, on stderr; progress notes not when quiet.
 * user: the struct cli. */
void convert_face_note(void *user, enum convert_note_level level, const char *text);

/* Run rq into rep and res. -1 when the run gave a verdict (res->verdict); otherwise the exit
 * code of a run that gave none (usage or I/O, its reason printed; rep and res released). Out of
 * memory exits 70: memory, not the file, so never a verdict. */
int convert_face_run(const struct convert_request *rq, struct report *rep, struct convert_outcome *res,
                     int fail_on);

/* -f json, sarif or github: rep written where -o says. rc, or EXIT_IO for a valid run whose
 * report could not be written. */
int convert_face_structured(const struct cli *c, const struct report *rep, int rc);

/* Text: with -o FILE, *to_out and *to_err (stdout and stderr: the summary line, the report and
 * warnings) both become FILE, which the caller closes with cli_close_output. 0, or -1 when FILE
 * cannot be opened (said on stderr; *rc becomes EXIT_IO where it was EXIT_VALID). */
int convert_face_text_open(const struct cli *c, FILE **to_out, FILE **to_err, int *rc);

#endif
