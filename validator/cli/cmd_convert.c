/* cmd_convert.c - `mdlcheck convert IN OUT [--version V]`: decode IN, write it in the format
 * named by OUT's extension, then validate the bytes written.
 *
 * Frames go to another format in IQM's meaning (parent-relative, uniform at a framerate):
 * a source whose frames are stored otherwise (QMSH: keyframes relative to the bone matrix, at
 * their own times) is converted first by model_frames_to_parent, which prints what it did to
 * the timing (a note when every key is kept, a warning when keys or their timing are
 * approximated). Writing a file's own format keeps its frames as stored.
 *
 * Exit status: 0 written and valid; 1 IN has errors, the writer refused the model, or the
 * written file does not validate; 2 usage (no format for OUT, or that format has no writer);
 * 3 IN unreadable or OUT unwritable. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "model_frames.h"
#include "pipeline.h"

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

static int write_file(const char *path, const struct byte_buf *b)
{
  FILE *f = fopen(path, "wb");
  int ok;
  if (!f)
    return errno ? errno : EIO;
  ok = fwrite(b->data, 1, b->size, f) == b->size;
  if (fclose(f) != 0)
    ok = 0;
  return ok ? 0 : (errno ? errno : EIO);
}

static void frames_note(void *user, enum frames_note_level level, uint32_t anim, const char *msg)
{
  const struct cli *c = user;
  (void)anim;
  if (level == FRAMES_INFO && c->quiet)
    return;
  fprintf(stderr, "mdlcheck: convert: %s: %s\n", level == FRAMES_INFO ? "note" : "warning", msg);
}

int cmd_convert(struct cli *c)
{
  const struct mdl_format *target;
  struct mdl_input in;
  struct pipeline_run run;
  struct report rep_in, rep_out;
  struct report_file *fin, *fout;
  struct write_opts wo;
  struct byte_buf b;
  mdl_options o = c->lib;
  mdl_result res;
  const char *inpath, *outpath;
  int err, rc = EXIT_VALID;
  mdl_status st;

  if (c->nargs != 2) {
    fprintf(stderr, "mdlcheck: convert takes IN and OUT (try 'mdlcheck --help')\n");
    return EXIT_USAGE;
  }
  inpath = c->args[0];
  outpath = c->args[1];
  target = format_for_path(outpath);
  if (!target) {
    fprintf(stderr, "mdlcheck: convert: no known format has the extension of %s\n", outpath);
    return EXIT_USAGE;
  }
  if (!target->write) {
    fprintf(stderr, "mdlcheck: convert: there is no writer for %s (%s) yet\n", target->name,
            target->description);
    return EXIT_USAGE;
  }
  if ((err = input_open(inpath, &in, c->lib.max_input_size)) != 0) {
    char why[128];
    fprintf(stderr, "mdlcheck: cannot read %s: %s\n", inpath,
            input_error_text(err, c->lib.max_input_size, why, sizeof why));
    return EXIT_IO;
  }

  report_init(&rep_in);
  report_init(&rep_out);
  rep_in.fail_on = rep_out.fail_on = c->fail_on;
  buf_init(&b);
  fin = report_add_file(&rep_in, inpath);
  o.on_diag = report_collect;
  o.user = fin;
  st = pipeline_decode(in.data, in.size, inpath, &o, 1, &run);
  if (st != MDL_OK && st != MDL_EIO) {
    rc = EXIT_INTERNAL;
    goto done;
  }
  report_set_result(fin, &run.result);
  if (st == MDL_EIO) { /* an inner input over --max-input-size: MDL-IO-002 says so */
    report_write_text(stderr, &rep_in, 0);
    rc = EXIT_IO;
    goto done;
  }
  if (!run.format || !run.decoded || report_file_invalid(&rep_in, fin)) {
    report_write_text(stderr, &rep_in, 0);
    fprintf(stderr, "mdlcheck: convert: %s has errors; nothing written\n", inpath);
    rc = EXIT_INVALID;
    goto done;
  }

  if (target != run.format && model_frames_need_parent(&run.model)) {
    char why[200] = "";
    if (model_frames_to_parent(&run.model, NULL, frames_note, c, why, sizeof why) < 0) {
      fprintf(stderr, "mdlcheck: convert: cannot turn the frames of %s into %s's: %s\n", inpath,
              target->name, why);
      rc = EXIT_INVALID;
      goto done;
    }
  }
  if (target != run.format)
    run.model.flags = 0; /* header flags mean something else in every format */
  wo.version = c->version;
  wo.path = outpath;
  if (target->write(&run.model, &wo, &b) < 0 || b.oom) {
    fprintf(stderr, "mdlcheck: convert: cannot write %s as %s: %s\n", inpath, target->name,
            b.error[0] ? b.error : "out of memory");
    rc = EXIT_INVALID;
    goto done;
  }
  if ((err = write_file(outpath, &b)) != 0) {
    fprintf(stderr, "mdlcheck: cannot write %s: %s\n", outpath, strerror(err));
    rc = EXIT_IO;
    goto done;
  }

  /* What was written must validate: the writer's own output is held to every rule. */
  fout = report_add_file(&rep_out, outpath);
  o = c->lib;
  o.assume_format = target->name;
  o.on_diag = report_collect;
  o.user = fout;
  if (mdl_validate_buffer(b.data, b.size, outpath, &o, &res) != MDL_OK) {
    rc = EXIT_INTERNAL;
    goto done;
  }
  report_set_result(fout, &res);
  if (report_file_invalid(&rep_out, fout)) {
    report_write_text(stderr, &rep_out, 0);
    fprintf(stderr, "mdlcheck: convert: the written %s does not validate\n", outpath);
    rc = EXIT_INVALID;
    goto done;
  }
  if (!c->quiet)
    printf("%s -> %s: %s%s%s, %zu bytes, valid (%lu warnings)\n", inpath, outpath, res.format,
           res.version[0] ? " " : "", res.version, b.size, res.counts[MDL_WARNING]);
done:
  buf_free(&b);
  pipeline_release(&run);
  report_free(&rep_out);
  report_free(&rep_in);
  input_close(&in);
  return rc;
}
