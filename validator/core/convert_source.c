/* convert_source.c - a conversion's first stage: IN read and decoded into the report's IN entry,
 * and its frames made parent-relative when the target is another format. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "convert_stage.h"
#include "fix.h"
#include "model_frames.h"

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
  struct convert_state *s = user;
  (void)anim;
  convert_note(s, level == FRAMES_INFO ? CONVERT_NOTE_INFO : CONVERT_NOTE_WARNING, "%s: %s",
               level == FRAMES_INFO ? "note" : "warning", msg);
}

/* IN's bytes: the caller's, or the file read (a private copy when OUT is the same file, which
 * the write replaces). 0, or an errno value. */
static int source_read(struct convert_state *s)
{
  const struct convert_request *rq = s->rq;
  int err;
  memset(&s->in, 0, sizeof s->in);
  if (rq->data) { /* over the limit as a file of its size would be: not read */
    s->in.data = rq->data;
    s->in.size = rq->size;
    return rq->size > input_limit(rq->options) ? EFBIG : 0;
  }
  s->in_open = 1;
  if ((err = input_open(rq->in_path, &s->in, rq->options->max_input_size)) != 0)
    return err;
  if (!rq->no_write && same_file(rq->in_path, rq->out_path))
    return input_own(&s->in);
  return 0;
}

mdl_status convert_source(struct convert_state *s)
{
  const struct convert_request *rq = s->rq;
  struct convert_outcome *out = s->out;
  mdl_options o = *rq->options;
  mdl_status st;
  int err;

  if ((err = source_read(s)) != 0) {
    char why[128];
    if (err == ENOMEM)
      return MDL_ENOMEM; /* memory, not the file: not an I/O verdict */
    snprintf(out->error, sizeof out->error, "cannot read %s: %s", rq->in_path,
             input_error_text(err, rq->options->max_input_size, why, sizeof why));
    return MDL_EIO;
  }
  if (!(out->in = report_add_file(s->rep, rq->in_path)))
    return MDL_ENOMEM;
  o.on_diag = report_collect;
  o.on_resource = NULL;
  o.user = out->in;
  s->run_open = 1;
  mem_bound_init_model(&s->bound, rq->options, s->in.size);
  st = pipeline_decode_input(&s->in, rq->in_path, &o, 1, &s->bound, &s->run);
  if (st != MDL_OK && st != MDL_EIO) {
    out->verdict = CONVERT_INTERNAL;
    return MDL_OK;
  }
  report_set_result(out->in, &s->run.result);
  if (report_out_of_memory(s->rep))
    return MDL_ENOMEM; /* a finding lost: nothing is written on an incomplete check */
  if (st == MDL_EIO) { /* an inner input over max_input_size (MDL-IO-002), or past the memory
                        * bound (MDL-MEM-002): not checked, so never converted */
    if (pipeline_bound_hit(&s->run))
      convert_note(s, CONVERT_NOTE_FAILURE, "%s could not be checked within --max-memory; nothing written",
                   rq->in_path);
    out->verdict = CONVERT_IO;
    return MDL_OK;
  }
  if (rq->fix) { /* IN's errors fix repairs do not stop it; the others are refused later */
    if (s->run.format && fix_source_check(rq->fix, s->rep, out->in, s->run.decoded)) {
      s->target = s->run.format;
      out->verdict = CONVERT_OK;
      return MDL_OK;
    }
    convert_note(s, CONVERT_NOTE_FAILURE, "%s %s; nothing written", rq->in_path,
                 s->run.format ? "could not be decoded to its end" : "is no model of a known format");
    out->verdict = CONVERT_INVALID;
    return MDL_OK;
  }
  if (!s->run.format || !s->run.decoded || report_file_invalid(s->rep, out->in)) {
    /* IN's check ran out of memory (MDL-MEM-001 in its entry, exit 1 as in validate): said as
     * such, for the report may be in a file (-o) and "has errors" would be all the terminal shows */
    convert_note(s, CONVERT_NOTE_FAILURE,
                 s->run.out_of_memory ? "%s could not be checked to its end: memory ran out (MDL-MEM-001); "
                                        "nothing written"
                                      : "%s has errors; nothing written",
                 rq->in_path);
    out->verdict = CONVERT_INVALID;
    return MDL_OK;
  }
  if (s->target != s->run.format && model_frames_need_parent(&s->run.model)) {
    char why[200] = "";
    if (model_frames_to_parent(&s->run.model, NULL, frames_note, s, why, sizeof why) < 0) {
      convert_note(s, CONVERT_NOTE_FAILURE, "cannot turn the frames of %s into %s's: %s",
                   rq->in_path, s->target->name, why);
      out->verdict = CONVERT_INVALID;
      return MDL_OK;
    }
    s->converted = 1;
  }
  if (s->target != s->run.format)
    s->run.model.flags = 0; /* header flags mean something else in every format */
  out->verdict = CONVERT_OK;
  return MDL_OK;
}
