/* cmd_fix.c - `mdlcheck fix [--dry-run] IN [OUT]`: the library's repair (core/fix.h: IN decoded,
 * the catalogue's repairs made, written again in IN's format, proven as a conversion) run with the
 * command line's options, its report printed in the output format asked for.
 *
 * Exit status, as convert's: 0 repaired (or nothing to repair in a file without errors), written,
 * valid and the same model (--dry-run: would be; nothing written); 1 IN has an error fix does not
 * repair (MDL-FIX-001), the rewrite would lose something or keeps a finding (MDL-FIX-002), or the
 * bytes do not validate or differ from IN (nothing written); 2 usage; 3 IN unreadable or OUT
 * unwritable (MDL-IO-003) or not a regular file (MDL-IO-004); 70 out of memory.
 *
 * Without OUT, IN itself is replaced the way OUT is written (core/file_replace.h): a temporary
 * file beside it, flushed, renamed over it; a kill mid-write leaves IN as it was. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "convert.h"
#include "convert_face.h"
#include "fix.h"
#include "text_safe.h"

/* Text mode: the messages of one rule family of an entry (the repairs of IN's, the warnings of
 * OUT's), one line each. */
static void lines_text(FILE *err, const struct report_file *f, mdl_severity sev, const char *only_id)
{
  for (size_t k = 0; k < f->nmsgs; k++) {
    const struct report_msg *m = &f->msgs[k];
    if (m->severity != sev || (only_id && strcmp(m->rule->id, only_id)))
      continue;
    text_printf(err, "%s", f->path);
    if (m->offset >= 0)
      text_printf(err, ":%lld", m->offset);
    else if (m->line)
      text_printf(err, ":%u:%u", m->line, m->column);
    text_printf(err, ": %s[%s]: %s\n", mdl_severity_name(m->severity), m->rule->id, m->message);
  }
}

int cmd_fix(struct cli *c)
{
  struct convert_request rq;
  struct convert_outcome res;
  struct convert_fix fx;
  struct report rep;
  const struct compare_result *cmp = &res.cmp;
  FILE *to_out = stdout, *to_err = stderr; /* text: both are the -o file when one is named */
  int rc;

  if (c->nargs != 1 && c->nargs != 2) {
    text_printf(stderr, "mdlcheck: fix takes IN and an optional OUT (try 'mdlcheck --help')\n");
    return EXIT_USAGE;
  }
  if (c->nargs == 1 && !strcmp(c->args[0], "-") && !c->dry_run) {
    text_printf(stderr, "mdlcheck: fix: standard input cannot be replaced; name OUT (or use --dry-run)\n");
    return EXIT_USAGE;
  }
  memset(&fx, 0, sizeof fx);
  memset(&rq, 0, sizeof rq);
  rq.in_path = c->args[0];
  rq.out_path = c->nargs == 2 ? c->args[1] : c->args[0];
  fx.in_place = c->nargs == 1;
  rq.no_write = c->dry_run;
  rq.options = &c->lib;
  rq.fail_on = c->fail_on;
  rq.fix = &fx;
  rq.note = convert_face_note;
  rq.note_user = c;
  if ((rc = convert_face_run(&rq, &rep, &res, c->fail_on)) >= 0)
    return rc;
  rc = (int)res.verdict;
  if (c->output != OUT_TEXT)
    rc = convert_face_structured(c, &rep, rc);
  else if (convert_face_text_open(c, &to_out, &to_err, &rc) < 0)
    ; /* -o FILE cannot be written: said, and the exit is 3 where it would have been 0 */
  else if (rc != EXIT_VALID && rep.nfiles) {
    report_write_text(to_err, &rep, cli_text_flags(c, to_err) & ~REPORT_TEXT_QUIET);
  } else if (rc == EXIT_VALID && !c->quiet) {
    const struct report_file *fin = res.in, *fout = res.out;
    const char *verb = c->dry_run ? "would be" : "";
    if (fx.kept) {
      text_printf(to_out, "%s: nothing to fix (valid%s)%s%s%s\n", rq.in_path,
                  fin->counts[MDL_WARNING] ? ", with warnings fix does not repair" : "",
                  fx.in_place ? "; left as it was" : c->dry_run ? "; " : "; ",
                  fx.in_place ? "" : c->dry_run ? "OUT would be a copy of it: " : "copied to ",
                  fx.in_place ? "" : rq.out_path);
    } else {
      lines_text(to_err, fin, MDL_INFO, "MDL-FIX-003");
      lines_text(to_err, fout, MDL_WARNING, NULL);
      text_printf(to_out, "%s -> %s: %lu finding%s repaired, %s%s%s, %zu byte%s, valid (%lu warning%s), same model "
                  "as %s (%lu pose%s, worst %.3g of the bound; %lu vert%s; %lu triangle%s)%s%s\n",
                  rq.in_path, rq.out_path, fx.repairs, plural_s(fx.repairs), fout->format,
                  fout->version[0] ? " " : "", fout->version, res.size, plural_s(res.size),
                  fout->counts[MDL_WARNING], plural_s(fout->counts[MDL_WARNING]), rq.in_path,
                  cmp->poses_checked, plural_s(cmp->poses_checked), cmp->worst_ratio,
                  cmp->vertices_checked, cmp->vertices_checked == 1 ? "ex" : "ices",
                  cmp->triangles_checked, plural_s(cmp->triangles_checked), verb[0] ? "; " : "",
                  c->dry_run ? "nothing written (--dry-run)" : "");
    }
  }
  if (to_out != stdout)
    cli_close_output(c, to_out);
  convert_outcome_free(&res);
  report_free(&rep);
  return rc;
}
