/* convert_face.c - what `convert` and `fix` share as faces of the library's convert_run. */
#include <stdio.h>

#include "convert_face.h"
#include "oom.h"
#include "text_safe.h"

void convert_face_note(void *user, enum convert_note_level level, const char *text)
{
  const struct cli *c = user;
  if (level == CONVERT_NOTE_INFO && c->quiet)
    return;
  text_printf(stderr, "mdlcheck: %s\n", text);
}

int convert_face_run(const struct convert_request *rq, struct report *rep, struct convert_outcome *res,
                     int fail_on)
{
  mdl_status st;
  report_init(rep);
  rep->fail_on = fail_on;
  fault_guard_input(rq->in_path, NULL);
  st = convert_run(rq, rep, res);
  if (st == MDL_ENOMEM)
    oom_exit();
  if (st == MDL_OK)
    return -1;
  text_printf(stderr, "mdlcheck: %s\n", res->error);
  convert_outcome_free(res);
  report_free(rep);
  return st == MDL_EINVAL ? EXIT_USAGE : EXIT_IO;
}

int convert_face_structured(const struct cli *c, const struct report *rep, int rc)
{
  FILE *out = cli_open_output(c);
  if (!out)
    return rc == EXIT_VALID ? EXIT_IO : rc;
  cli_report(c, out, rep);
  cli_close_output(c, out);
  return rc;
}

int convert_face_text_open(const struct cli *c, FILE **to_out, FILE **to_err, int *rc)
{
  FILE *f;
  if (!c->output_path)
    return 0;
  if (!(f = cli_open_output(c))) {
    if (*rc == EXIT_VALID)
      *rc = EXIT_IO;
    return -1;
  }
  *to_out = *to_err = f;
  return 0;
}
