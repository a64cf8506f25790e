/* cmd_convert.c - `mdlcheck convert IN OUT [--target-version=V] [--accept-loss=ID,...]`: the
 * library's conversion (core/convert.h: decode IN, announce or refuse losses, write, prove,
 * verdict) run with the command line's options, its report printed in the output format asked for.
 *
 * Exit status: 0 written, valid and the same model; 1 IN has errors, the writer refused the
 * model, the bytes for OUT do not validate (nothing written: the proof runs on them in memory
 * before they are written) or differ from IN (written, to be inspected); 2 usage (no format for
 * OUT, or that format has no writer); 3 IN unreadable or OUT unwritable (MDL-IO-003) or not a
 * regular file (MDL-IO-004); 70 out of memory.
 *
 * OUT is written whole or not at all (core/file_replace.h): a temporary file beside it, flushed,
 * renamed over it; a kill or a full disk mid-write leaves the old OUT as it was. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "convert.h"
#include "convert_face.h"
#include "text_safe.h"

/* Text mode on success: the warnings of an entry, one line each, before the summary line that
 * gives the proof's result: IN's (what its decode gave up, as EGG-VTX-023's fifth influence,
 * which only a model decode reports: "lossless" is about OUT against that model), then the
 * output's (the writer's announcements, what the proof accepted). */
static void warnings_text(FILE *err, const struct report_file *f)
{
  for (size_t k = 0; k < f->nmsgs; k++) {
    const struct report_msg *m = &f->msgs[k];
    if (m->severity != MDL_WARNING)
      continue;
    text_printf(err, "%s: warning[%s]: %s", f->path, m->rule->id, m->message);
    if (m->path[0])
      text_printf(err, " [%s]", m->path);
    fputc('\n', err);
  }
}

int cmd_convert(struct cli *c)
{
  struct convert_request rq;
  struct convert_outcome res;
  struct report rep;
  const struct compare_result *cmp = &res.cmp;
  const struct report_file *fout;
  FILE *to_out = stdout, *to_err = stderr; /* text: both are the -o file when one is named */
  int rc;

  if (c->nargs != 2) {
    text_printf(stderr, "mdlcheck: convert takes IN and OUT (try 'mdlcheck --help')\n");
    return EXIT_USAGE;
  }
  memset(&rq, 0, sizeof rq);
  rq.in_path = c->args[0];
  rq.out_path = c->args[1];
  rq.options = &c->lib;
  rq.fail_on = c->fail_on;
  rq.version = c->version;
  rq.accept_loss = c->accept_loss;
  rq.note = convert_face_note;
  rq.note_user = c;
  if ((rc = convert_face_run(&rq, &rep, &res, c->fail_on)) >= 0)
    return rc;
  rc = (int)res.verdict;
  fout = res.out;
  if (c->output != OUT_TEXT)
    rc = convert_face_structured(c, &rep, rc);
  else if (convert_face_text_open(c, &to_out, &to_err, &rc) < 0)
    ; /* -o FILE cannot be written: said, and the exit is 3 where it would have been 0 */
  else if (rc != EXIT_VALID && rep.nfiles) {
    report_write_text(to_err, &rep, cli_text_flags(c, to_err) & ~REPORT_TEXT_QUIET);
    if (res.hint[0])
      text_printf(to_err, "mdlcheck: convert: the differences are losses announced before writing; to accept "
                  "them: %s\n", res.hint);
  } else if (rc == EXIT_VALID && !c->quiet) {
    if (res.in)
      warnings_text(to_err, res.in);
    warnings_text(to_err, fout);
    /* lossless: every pose channel and vertex component equal, not merely within the bound, and
     * no loss announced (one the caller accepted is a loss all the same) */
    int exact = cmp->worst_ratio == 0 && cmp->vertices_inexact == 0;
    const char *verdict = res.losses_accepted ? "with accepted losses" : exact ? "lossless" : "within the bound";
    text_printf(to_out, "%s -> %s: %s%s%s, %zu byte%s, valid (%lu warning%s), same model as %s, %s (%lu pose%s, "
           "worst %.3g of the bound; %lu vert%s, %lu not bit for bit; %lu triangle%s)\n",
           rq.in_path, rq.out_path, fout->format, fout->version[0] ? " " : "", fout->version, res.size,
           plural_s(res.size), fout->counts[MDL_WARNING], plural_s(fout->counts[MDL_WARNING]), rq.in_path,
           verdict, cmp->poses_checked, plural_s(cmp->poses_checked),
           cmp->worst_ratio, cmp->vertices_checked, cmp->vertices_checked == 1 ? "ex" : "ices",
           cmp->vertices_inexact, cmp->triangles_checked, plural_s(cmp->triangles_checked));
  }
  if (to_out != stdout)
    cli_close_output(c, to_out);
  convert_outcome_free(&res);
  report_free(&rep);
  return rc;
}
