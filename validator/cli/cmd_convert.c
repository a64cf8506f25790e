/* cmd_convert.c - `mdlcheck convert IN OUT [--target-version=V]`: decode IN, write it in the format
 * named by OUT's extension, then prove what was written: it must validate, and it must say what
 * IN says (core/model_compare.h, the comparator of `mdlcheck compare`, with OUT as the first
 * side: each difference is located in OUT and names where IN holds its side).
 *
 * Frames go to another format in IQM's meaning (parent-relative, uniform at a framerate):
 * a source whose frames are stored otherwise (QMSH: keyframes relative to the bone matrix, at
 * their own times) is converted first by model_frames_to_parent, which prints what it did to
 * the timing (a note when every key is kept, a warning when keys or their timing are
 * approximated). Writing a file's own format keeps its frames as stored.
 *
 * Before writing, the writer announces what the target has no place for (core/write_loss.h):
 * a loss is a warning naming the field, a refusal an error (MDL-CNV-*); a writer's refusal
 * without its own rule is MDL-CNV-001 with the writer's reason. Announcements are reported as
 * the output's diagnostics, and --accept-loss of one accepts the proof's difference it explains.
 *
 * Exit status: 0 written, valid and the same model; 1 IN has errors, the writer refused the
 * model, the bytes for OUT do not validate (nothing written: the proof runs on them in memory
 * before they are written) or differ from IN (written, to be inspected); 2 usage (no format for
 * OUT, or that format has no writer); 3 IN unreadable or OUT unwritable (MDL-IO-003) or not a
 * regular file (MDL-IO-004).
 *
 * OUT is written whole or not at all (core/file_replace.h): a temporary file beside it, flushed,
 * renamed over it; a kill or a full disk mid-write leaves the old OUT as it was. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "file_replace.h"
#include "oom.h"
#include "input.h"
#include "model_compare.h"
#include "model_frames.h"
#include "pipeline.h"
#include "write_loss.h"
#include "text_safe.h"

static int ends_with_ci(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);
  if (k > n)
    return 0;
  for (size_t i = 0; i < k; i++)
    if (tolower((unsigned char)s[n - k + i]) != tolower((unsigned char)suffix[i]))
      return 0;
  return 1;
}

static const struct mdl_format *format_for_path(const char *path)
{
  for (size_t i = 0; mdl_format_table[i]; i++)
    for (const char *const *e = mdl_format_table[i]->extensions; e && *e; e++)
      if (ends_with_ci(path, *e))
        return mdl_format_table[i];
  return NULL;
}

/* 1 when path b names the file a is (a link, another spelling): writing OUT would change IN
 * under the model decoded from it. */
static int same_file(const char *a, const char *b)
{
  struct stat sa, sb;
  return strcmp(a, "-") && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

static void frames_note(void *user, enum frames_note_level level, uint32_t anim, const char *msg)
{
  const struct cli *c = user;
  (void)anim;
  if (level == FRAMES_INFO && c->quiet)
    return;
  text_printf(stderr, "mdlcheck: convert: %s: %s\n", level == FRAMES_INFO ? "note" : "warning", msg);
}

/* 1 when rule (id or alias) is one of c's --accept-loss list. */
static int loss_accepted(const struct cli *c, const mdl_rule *rule)
{
  for (const char *p = c->accept_loss; p && *p;) {
    char id[64];
    size_t n = strcspn(p, ",");
    const mdl_rule *r;
    snprintf(id, sizeof id, "%.*s", (int)(n < sizeof id - 1 ? n : sizeof id - 1), p);
    r = mdl_rule_find(id);
    if (r == rule)
      return 1;
    p += n + (p[n] == ',');
  }
  return 0;
}

/* 1 when rule is the proof's rule of a loss the writer announced and the user accepted. */
static int proof_accepted(const struct cli *c, const struct write_losses *l, const mdl_rule *rule)
{
  for (size_t i = 0; l && i < l->n; i++)
    if (mdl_rule_at(l->item[i].proof) == rule && loss_accepted(c, mdl_rule_at(l->item[i].rule)))
      return 1;
  return 0;
}

/* Differences the user expects (--accept-loss) stay in the report, as warnings. */
static void losses_accept(const struct cli *c, const struct write_losses *l, struct report_file *f,
                          mdl_result *res)
{
  for (size_t i = 0; i < f->nmsgs; i++) {
    struct report_msg *m = &f->msgs[i];
    unsigned long n = m->folded ? m->folded : 1;
    if (m->severity > MDL_ERROR || !(loss_accepted(c, m->rule) || proof_accepted(c, l, m->rule)))
      continue;
    res->counts[m->severity] -= res->counts[m->severity] < n ? res->counts[m->severity] : n;
    res->counts[MDL_WARNING] += n;
    m->severity = MDL_WARNING;
  }
}

static void convert_note(void *user, const char *path, enum frames_note_level level, const char *msg)
{
  const struct cli *c = user;
  if (level == FRAMES_INFO && c->quiet)
    return;
  text_printf(stderr, "mdlcheck: convert: proof: %s: %s: %s\n", level == FRAMES_INFO ? "note" : "warning",
          path, msg);
}

/* 1 when the bytes written are IN's own, in IN's format, and IN's decode did not depend on its
 * name: decoding them is then IN's decode again (one decoder, the same options, the same bytes)
 * and would find exactly what it found. */
static int written_as_read(const struct byte_buf *b, const struct mdl_input *in,
                           const struct pipeline_run *src, const struct mdl_format *target)
{
  return target == src->format && !src->name_read && buf_equals(b, in->data, in->size);
}

/* Decode what was written (its diagnostics into fout) and compare it with the source model.
 * When what was written is the input byte for byte (written_as_read), the output's decode is
 * the input's: its findings (fin) are collected again as the output's, in their order, and its
 * model is compared as the output's side, rather than decoding the same bytes a second time.
 * Return the exit status so far: EXIT_VALID, EXIT_INVALID, or EXIT_INTERNAL. */
static int convert_prove(struct cli *c, struct byte_buf *b, const char *outpath,
                         const struct mdl_format *target, struct pipeline_run *src,
                         const char *inpath, const struct mdl_input *in, int src_converted,
                         const struct write_losses *losses, struct report *rep,
                         const struct report_file *fin, struct report_file *fout,
                         struct compare_result *res, int *unfit)
{
  struct pipeline_run out, *outp = &out;
  struct compare_side sa, sb;
  struct diag_sink sink;
  mdl_options o = c->lib;
  mdl_result result;
  int rc = EXIT_VALID, same = written_as_read(b, in, src, target);

  o.assume_format = target->name;
  o.on_diag = report_collect;
  o.user = fout;
  if (same) {
    report_replay(fout, fin);
    outp = src;
  } else if (buf_flatten(b) < 0) { /* the decoder reads the bytes in one piece */
    text_printf(stderr, "mdlcheck: convert: out of memory; %s was not checked, nothing written\n", outpath);
    return EXIT_INTERNAL;
  } else if (pipeline_decode(b->data, b->size, outpath, &o, 1, &out) != MDL_OK) {
    return EXIT_INTERNAL;
  }
  result = outp->result;
  for (int s = 0; s < MDL_SEVERITY_COUNT; s++) /* the writer's announcements are the output's */
    result.counts[s] += losses->diag->counts[s];
  result.truncated |= losses->diag->truncated;
  report_set_result(fout, &result);
  if (!outp->decoded || report_file_invalid(rep, fout)) {
    if (!same)
      pipeline_release(&out);
    text_printf(stderr, "mdlcheck: convert: the bytes written for %s do not validate (see its diagnostics); "
                "nothing written\n", outpath);
    *unfit = 1;
    return EXIT_INVALID;
  }
  memset(&sa, 0, sizeof sa);
  memset(&sb, 0, sizeof sb);
  sa.path = outpath;
  sa.data = same ? in->data : b->data; /* equal bytes; b's are in pieces when same */
  sa.size = b->size;
  sa.format = target;
  sa.model = &outp->model; /* IN's own model when the bytes are IN's: one model, both sides */
  sb.path = inpath;
  sb.data = in->data;
  sb.size = in->size;
  sb.format = src->format;
  sb.model = &src->model;
  sb.converted = src_converted;
  sb.unit_normals = losses->unit_normals;
  o = c->lib;
  o.on_diag = report_collect;
  o.user = fout;
  if (diag_sink_init(&sink, &o) < 0) {
    if (!same)
      pipeline_release(&out);
    return EXIT_INTERNAL;
  }
  sink.proof = 1;
  if (model_compare(&sa, &sb, &sink, convert_note, c, res) < 0) {
    text_printf(stderr, "mdlcheck: convert: out of memory; %s was not compared with %s\n", outpath, inpath);
    rc = EXIT_INTERNAL;
  }
  diag_sink_finish(&sink);
  for (int s = 0; s < MDL_SEVERITY_COUNT; s++)
    result.counts[s] += sink.counts[s];
  result.truncated |= sink.truncated;
  losses_accept(c, losses, fout, &result);
  report_set_result(fout, &result); /* again: the differences join, sorted by position */
  if (rc == EXIT_VALID && report_file_invalid(rep, fout)) {
    text_printf(stderr, "mdlcheck: convert: the written %s does not say what %s says (see the differences)\n",
            outpath, inpath);
    rc = EXIT_INVALID;
  }
  if (!same)
    pipeline_release(&out);
  return rc;
}

/* The output's entry when nothing was written: the writer's refusal and announcements. */
static void refused_report(struct report_file *fout, const struct diag_sink *announced,
                           const struct mdl_format *target)
{
  mdl_result r;
  memset(&r, 0, sizeof r);
  r.format = target->name;
  memcpy(r.counts, announced->counts, sizeof r.counts);
  r.truncated = announced->truncated;
  report_set_result(fout, &r);
}

/* OUT may be written only where it is absent or a regular file (MDL-IO-004): a link is never
 * followed, a FIFO or device never opened (it would block). Checked before the writer runs. */
static int output_check(const char *outpath, struct diag_sink *announce, struct report_file *fout,
                        const struct mdl_format *target)
{
  char why[200];
  struct mdl_loc none = loc_none();
  enum file_replace_status st = file_replace_check(outpath, why, sizeof why);
  if (st == FILE_REPLACE_OK)
    return EXIT_VALID;
  diag_emit(announce, st == FILE_REPLACE_NOT_REGULAR ? RULE_CORE_OUTPUT_NOT_REGULAR : RULE_CORE_OUTPUT_NOT_WRITTEN,
            &none, why, "%s", outpath);
  refused_report(fout, announce, target);
  text_printf(stderr, "mdlcheck: convert: %s is not written: %s\n", outpath, why);
  return EXIT_IO;
}

/* Write OUT whole or not at all (core/file_replace.h), once the proof has run on the bytes in
 * memory: a failure is the output's fatal MDL-IO-003 (or MDL-IO-004 for a non-regular file put
 * there meanwhile), added to what the proof found, OUT as it was, exit 3. */
static int output_write(const char *outpath, const struct byte_buf *b, struct diag_sink *announce,
                        struct report_file *fout)
{
  char why[400];
  struct mdl_loc none = loc_none();
  enum file_replace_status st = file_replace(outpath, b, why, sizeof why);
  unsigned long fatal = announce->counts[MDL_FATAL];
  if (st == FILE_REPLACE_OK)
    return EXIT_VALID;
  diag_emit(announce, st == FILE_REPLACE_NOT_REGULAR ? RULE_CORE_OUTPUT_NOT_REGULAR : RULE_CORE_OUTPUT_NOT_WRITTEN,
            &none, why, "%s", outpath);
  /* the proof's findings stay: the failure joins them (unless a configuration ignores it) */
  fout->counts[MDL_FATAL] += announce->counts[MDL_FATAL] - fatal;
  text_printf(stderr, "mdlcheck: cannot write %s: %s; it is left as it was\n", outpath, why);
  return EXIT_IO;
}

/* Text mode on success: the warnings of the output's entry (the writer's announcements, what
 * the proof accepted), one line each, before the summary line that gives the proof's result. */
static void warnings_text(const struct report_file *f)
{
  for (size_t k = 0; k < f->nmsgs; k++) {
    const struct report_msg *m = &f->msgs[k];
    if (m->severity != MDL_WARNING)
      continue;
    text_printf(stderr, "%s: warning[%s]: %s", f->path, m->rule->id, m->message);
    if (m->path[0])
      text_printf(stderr, " [%s]", m->path);
    fputc('\n', stderr);
  }
}

/* After a failed proof: the announced losses whose proof rule the proof found, as the
 * --accept-loss that accepts them (each id once). */
static void accept_hint(const struct cli *c, const struct write_losses *l, const struct report_file *f)
{
  char ids[512] = "";
  size_t n = 0;
  for (size_t i = 0; l && i < l->n; i++) {
    const mdl_rule *rule = mdl_rule_at(l->item[i].rule), *proof = mdl_rule_at(l->item[i].proof);
    int found = 0;
    if (loss_accepted(c, rule) || strstr(ids, rule->id))
      continue;
    for (size_t k = 0; k < f->nmsgs && !found; k++)
      found = f->msgs[k].rule == proof && f->msgs[k].severity <= MDL_ERROR;
    if (found && n + strlen(rule->id) + 2 < sizeof ids)
      n += (size_t)snprintf(ids + n, sizeof ids - n, "%s%s", n ? "," : "", rule->id);
  }
  if (n)
    text_printf(stderr, "mdlcheck: convert: the differences are losses announced before writing; to accept "
                "them: --accept-loss=%s\n", ids);
}

int cmd_convert(struct cli *c)
{
  const struct mdl_format *target;
  struct mdl_input in;
  struct pipeline_run run;
  struct report rep;
  struct report_file *fin, *fout = NULL;
  struct write_opts wo = {0};
  struct compare_result res;
  struct write_losses losses;
  struct diag_sink announce;
  int announcing = 0;
  struct byte_buf b;
  mdl_options o = c->lib;
  const char *inpath, *outpath;
  int err, rc = EXIT_VALID, converted = 0, unfit = 0;
  mdl_status st;
  FILE *out;

  if (c->nargs != 2) {
    text_printf(stderr, "mdlcheck: convert takes IN and OUT (try 'mdlcheck --help')\n");
    return EXIT_USAGE;
  }
  inpath = c->args[0];
  outpath = c->args[1];
  target = format_for_path(outpath);
  if (!target) {
    text_printf(stderr, "mdlcheck: convert: no known format has the extension of %s\n", outpath);
    return EXIT_USAGE;
  }
  if (!target->write) {
    text_printf(stderr, "mdlcheck: convert: there is no writer for %s (%s) yet\n", target->name,
            target->description);
    return EXIT_USAGE;
  }
  if ((err = input_open(inpath, &in, c->lib.max_input_size)) != 0 ||
      (same_file(inpath, outpath) && (err = input_own(&in)) != 0)) {
    char why[128];
    if (err == ENOMEM)
      oom_exit(); /* memory, not the file: exit 70, not 3 */
    text_printf(stderr, "mdlcheck: cannot read %s: %s\n", inpath,
            input_error_text(err, c->lib.max_input_size, why, sizeof why));
    input_close(&in);
    return EXIT_IO;
  }

  report_init(&rep);
  rep.fail_on = c->fail_on;
  buf_init(&b);
  b.gather = 1; /* the model's large arrays go to the file from where they are (buf_put_ref) */
  memset(&res, 0, sizeof res);
  fin = cli_add_file(&rep, inpath);
  o.on_diag = report_collect;
  o.user = fin;
  st = pipeline_decode(in.data, in.size, inpath, &o, 1, &run);
  if (st != MDL_OK && st != MDL_EIO) {
    rc = EXIT_INTERNAL;
    goto done;
  }
  report_set_result(fin, &run.result);
  cli_report_whole(&rep); /* a finding lost: nothing is written on an incomplete check */
  if (st == MDL_EIO) { /* an inner input over --max-input-size: MDL-IO-002 says so */
    rc = EXIT_IO;
    goto done;
  }
  if (!run.format || !run.decoded || report_file_invalid(&rep, fin)) {
    text_printf(stderr, "mdlcheck: convert: %s has errors; nothing written\n", inpath);
    rc = EXIT_INVALID;
    goto done;
  }

  if (target != run.format && model_frames_need_parent(&run.model)) {
    char why[200] = "";
    if (model_frames_to_parent(&run.model, NULL, frames_note, c, why, sizeof why) < 0) {
      text_printf(stderr, "mdlcheck: convert: cannot turn the frames of %s into %s's: %s\n", inpath,
              target->name, why);
      rc = EXIT_INVALID;
      goto done;
    }
    converted = 1;
  }
  if (target != run.format)
    run.model.flags = 0; /* header flags mean something else in every format */
  /* The writer's announcements are reported as the output's diagnostics. */
  fout = cli_add_file(&rep, outpath);
  o = c->lib;
  o.on_diag = report_collect;
  o.user = fout;
  memset(&losses, 0, sizeof losses);
  if (diag_sink_init(&announce, &o) < 0) {
    rc = EXIT_INTERNAL;
    goto done;
  }
  announcing = 1;
  losses.diag = &announce;
  if ((rc = output_check(outpath, &announce, fout, target)) != EXIT_VALID)
    goto done;
  wo.version = c->version;
  wo.path = outpath;
  wo.losses = &losses;
  wo.foreign = target != run.format;
  if (wo.foreign)
    write_loss_refs(&losses, &run.model, RULE_CORE_CONVERT_REFERENCE_DROPPED);
  if (target->write(&run.model, &wo, &b) < 0 || b.oom) {
    if (b.oom) {
      text_printf(stderr, "mdlcheck: convert: out of memory writing %s as %s\n", inpath, target->name);
      rc = EXIT_INTERNAL;
      goto done;
    }
    if (!losses.refused) { /* a refusal the writer gave no rule of its own */
      struct mdl_loc none = loc_none();
      diag_emit(&announce, RULE_CORE_CONVERT_WRITER_REFUSED, &none, target->name, "%s", b.error);
    }
    refused_report(fout, &announce, target);
    text_printf(stderr, "mdlcheck: convert: cannot write %s as %s: %s; nothing written\n", inpath,
            target->name, b.error);
    rc = EXIT_INVALID;
    goto done;
  }
  /* What is to be written is held to every rule, then to the source, before it is written:
   * bytes that do not validate are never left on disk (a limit the writer missed); bytes that
   * validate but differ from IN are written, to be inspected. */
  rc = convert_prove(c, &b, outpath, target, &run, inpath, &in, converted, &losses, &rep, fin, fout,
                     &res, &unfit);
  if (rc != EXIT_INTERNAL && !unfit) {
    int wrc = output_write(outpath, &b, &announce, fout);
    if (wrc != EXIT_VALID)
      rc = wrc;
  }
done:
  if (announcing)
    diag_sink_finish(&announce);
  cli_report_whole(&rep); /* a finding or announcement lost: no verdict, whichever it would be */
  if (c->output != OUT_TEXT) {
    out = cli_open_output(c);
    if (!out) {
      if (rc == EXIT_VALID)
        rc = EXIT_IO;
    } else {
      cli_report(c, out, &rep);
      cli_close_output(c, out);
    }
  } else if (rc != EXIT_VALID && rc != EXIT_USAGE && rep.nfiles) {
    report_write_text(stderr, &rep, cli_text_flags(c, stderr) & ~REPORT_TEXT_QUIET);
    if (rc == EXIT_INVALID && fout && announcing)
      accept_hint(c, &losses, fout);
  } else if (rc == EXIT_VALID && !c->quiet) {
    warnings_text(fout);
    /* lossless: every pose channel and vertex component equal, not merely within the bound */
    int exact = res.worst_ratio == 0 && res.vertices_inexact == 0;
    text_printf(stdout, "%s -> %s: %s%s%s, %zu byte%s, valid (%lu warning%s), same model as %s, %s (%lu pose%s, "
           "worst %.3g of the bound; %lu vert%s, %lu not bit for bit; %lu triangle%s)\n",
           inpath, outpath, fout->format, fout->version[0] ? " " : "", fout->version, b.size,
           plural_s(b.size), fout->counts[MDL_WARNING], plural_s(fout->counts[MDL_WARNING]), inpath,
           exact ? "lossless" : "within the bound", res.poses_checked, plural_s(res.poses_checked),
           res.worst_ratio, res.vertices_checked, res.vertices_checked == 1 ? "ex" : "ices",
           res.vertices_inexact, res.triangles_checked, plural_s(res.triangles_checked));
  }
  buf_free(&b);
  pipeline_release(&run);
  report_free(&rep);
  input_close(&in);
  return rc;
}
