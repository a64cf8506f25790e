/* convert_prove.c - a conversion's third stage: the bytes for OUT, still in memory, decoded as the
 * target and held to every rule, then compared with IN (the comparator of `compare`). */
#include <string.h>

#include "convert_stage.h"
#include "fix.h"

static void proof_note(void *user, const char *path, enum frames_note_level level, const char *msg)
{
  struct convert_state *s = user;
  convert_note(s, level == FRAMES_INFO ? CONVERT_NOTE_INFO : CONVERT_NOTE_WARNING, "proof: %s: %s: %s",
               level == FRAMES_INFO ? "note" : "warning", path, msg);
}

/* convert_accepted for write_loss_unseen: user is the state. */
static int loss_accepted(const void *user, enum rule_index rule)
{
  const struct convert_state *s = user;
  return convert_accepted(s->rq->accept_loss, mdl_rule_at(rule));
}

/* 1 when the bytes written are IN's own, in IN's format, and IN's decode did not depend on its
 * name: decoding them is then IN's decode again (one decoder, the same options, the same bytes)
 * and would find exactly what it found. */
static int written_as_read(const struct convert_state *s)
{
  return s->target == s->run.format && !s->run.name_read && buf_equals(&s->b, s->in.data, s->in.size);
}

/* Decode what was written (its diagnostics into OUT's entry) and compare it with the source
 * model. When what was written is the input byte for byte (written_as_read), the output's decode
 * is the input's: its findings are collected again as the output's, in their order, and its
 * model is compared as the output's side, rather than decoding the same bytes a second time. */
/* fix: a repaired finding still in the bytes' entry is MDL-FIX-002 there; 0, or -1. */
static int convert_fix_proved(struct convert_state *s, struct report_file *fout)
{
  struct diag_sink sink;
  mdl_options o = *s->rq->options;
  int rc;
  o.on_diag = report_collect;
  o.on_resource = NULL;
  o.user = fout;
  diag_sink_init(&sink, &o);
  rc = fix_proved(s->rq->fix, fout, &sink);
  diag_sink_finish(&sink);
  for (int i = 0; i < MDL_SEVERITY_COUNT; i++)
    fout->counts[i] += sink.counts[i];
  fout->truncated |= sink.truncated;
  return rc;
}

enum convert_verdict convert_prove(struct convert_state *s)
{
  const struct convert_request *rq = s->rq;
  struct report_file *fout = s->out->out;
  const char *outpath = rq->out_path, *inpath = rq->in_path;
  struct byte_buf *b = &s->b;
  struct pipeline_run out, *outp = &out;
  struct compare_side sa, sb;
  struct diag_sink sink;
  mdl_options o = *rq->options;
  mdl_result result;
  enum convert_verdict rc = CONVERT_OK;
  enum rule_index unseen;
  int same = written_as_read(s);

  o.assume_format = s->target->name;
  o.on_diag = report_collect;
  o.on_resource = NULL;
  o.user = fout;
  if (same) {
    report_replay(fout, s->out->in);
    outp = &s->run;
  } else if (buf_flatten(b) < 0) { /* the decoder reads the bytes in one piece */
    convert_note(s, CONVERT_NOTE_FAILURE, "out of memory; %s was not checked, nothing written", outpath);
    return CONVERT_INTERNAL;
  } else {
    /* the bytes are a text of the command's too: the automatic bound grows by what it allows
     * them, and their decode is charged with IN's (both are held while they are compared) */
    mdl_status st;
    mem_bound_add_text(&s->bound, b->size);
    st = pipeline_decode_in(b->data, b->size, outpath, &o, 1, &s->bound, &out);
    if (st == MDL_EIO && pipeline_bound_hit(&out)) { /* MDL-MEM-002: not checked, not written */
      report_set_result(fout, &out.result);
      pipeline_release(&out);
      convert_note(s, CONVERT_NOTE_FAILURE, "%s could not be checked within --max-memory; nothing written",
                   outpath);
      s->unfit = 1;
      return CONVERT_IO;
    }
    if (st != MDL_OK) {
      pipeline_release(&out);
      return CONVERT_INTERNAL;
    }
  }
  if (!same && out.out_of_memory) { /* not checked to the end: no verdict on the bytes */
    pipeline_release(&out);
    convert_note(s, CONVERT_NOTE_FAILURE, "out of memory; %s was not checked, nothing written", outpath);
    return CONVERT_INTERNAL;
  }
  if (!same)
    pipeline_release_source(&out); /* the proof compares its model, never writes it */
  result = outp->result;
  for (int i = 0; i < MDL_SEVERITY_COUNT; i++) /* the writer's announcements are the output's */
    result.counts[i] += s->announce.counts[i];
  result.truncated |= s->announce.truncated;
  report_set_result(fout, &result);
  if (!outp->decoded || report_file_invalid(s->rep, fout)) {
    if (!same)
      pipeline_release(&out);
    convert_note(s, CONVERT_NOTE_FAILURE, "the bytes written for %s do not validate (see its diagnostics); "
                 "nothing written", outpath);
    s->unfit = 1;
    return CONVERT_INVALID;
  }
  if (rq->fix && convert_fix_proved(s, fout) < 0) {
    if (!same)
      pipeline_release(&out);
    convert_note(s, CONVERT_NOTE_FAILURE, "the bytes written for %s still have findings fix repairs "
                 "(see its diagnostics); nothing written", outpath);
    s->unfit = 1;
    return CONVERT_INVALID;
  }
  if (rq->no_proof) {
    if (!same)
      pipeline_release(&out);
    return CONVERT_OK;
  }
  memset(&sa, 0, sizeof sa);
  memset(&sb, 0, sizeof sb);
  sa.path = outpath;
  sa.data = same ? s->in.data : b->data; /* equal bytes; b's are in pieces when same */
  sa.size = b->size;
  sa.format = s->target;
  sa.model = &outp->model; /* IN's own model when the bytes are IN's: one model, both sides */
  sb.path = inpath;
  sb.data = s->in.data;
  sb.size = s->in.size;
  sb.format = s->run.format;
  sb.model = &s->run.model;
  sb.converted = s->converted;
  sb.unit_normals = s->losses.unit_normals;
  sb.unit_rotations = (rq->fix && rq->fix->unit_rotations) || s->losses.unit_rotations;
  sb.unit_weights = rq->fix && rq->fix->unit_weights;
  sb.added_attrs = s->losses.added_attrs;
  sb.materials_as_files = s->losses.materials_as_files;
  sb.empty_meshes_dropped = s->losses.empty_meshes_dropped;
  o = *rq->options;
  o.on_diag = report_collect;
  o.on_resource = NULL;
  o.user = fout;
  if (diag_sink_init(&sink, &o) < 0) {
    if (!same)
      pipeline_release(&out);
    return CONVERT_INTERNAL;
  }
  sink.proof = 1;
  convert_accept_proof(s, &sink); /* accepted differences arrive as warnings */
  if (model_compare(&sa, &sb, &sink, proof_note, s, &s->out->cmp) < 0) {
    convert_note(s, CONVERT_NOTE_FAILURE, "out of memory; %s was not compared with %s", outpath, inpath);
    rc = CONVERT_INTERNAL;
  } else {
    s->out->proved = 1;
  }
  diag_sink_finish(&sink);
  for (int i = 0; i < MDL_SEVERITY_COUNT; i++)
    result.counts[i] += sink.counts[i];
  result.truncated |= sink.truncated;
  report_set_result(fout, &result); /* again: the differences join, sorted by position */
  if (rc == CONVERT_OK && report_file_invalid(s->rep, fout)) {
    convert_note(s, CONVERT_NOTE_FAILURE, "the written %s does not say what %s says (see the differences)",
                 outpath, inpath);
    rc = CONVERT_INVALID;
  } else if (rc == CONVERT_OK && write_loss_unseen(&s->losses, loss_accepted, s, &unseen)) {
    /* a loss no comparison can find (write_loss_unheld) fails the proof until it is accepted */
    convert_note(s, CONVERT_NOTE_FAILURE, "the written %s lacks what %s holds (%s, see the warnings)",
                 outpath, inpath, mdl_rule_at(unseen)->id);
    rc = CONVERT_INVALID;
  }
  s->out->losses_accepted = convert_losses_accepted(s);
  if (!same)
    pipeline_release(&out);
  return rc;
}
