/* convert_run.c - one conversion, its stages in order (convert.h): source, writer, proof, OUT
 * written, verdict. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "convert_stage.h"
#include "fix.h"

void convert_note(struct convert_state *s, enum convert_note_level level, const char *fmt, ...)
{
  char text[1024];
  va_list ap;
  /* named for the command the user ran: fix runs these stages too, and a message of its own
   * run that begins "convert:" sends its reader to a command they did not run */
  int n = snprintf(text, sizeof text, "%s: ", s->rq->fix ? "fix" : "convert");
  if (level == CONVERT_NOTE_FAILURE)
    s->failure_noted = 1;
  if (!s->rq->note)
    return;
  va_start(ap, fmt);
  vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
  va_end(ap);
  s->rq->note(s->rq->note_user, level, text);
}

/* The target: the request's, or the format OUT's extension names; it must have a writer. */
static mdl_status target_find(struct convert_state *s)
{
  const struct convert_request *rq = s->rq;
  if (rq->fix)
    return MDL_OK; /* IN's own format, known once IN is decoded (convert_source) */
  s->target = rq->target ? rq->target : convert_format_for_path(rq->out_path);
  if (!s->target) {
    snprintf(s->out->error, sizeof s->out->error, "convert: no known format has the extension of %s",
             rq->out_path);
    return MDL_EINVAL;
  }
  if (!s->target->write) {
    snprintf(s->out->error, sizeof s->out->error, "convert: there is no writer for %s (%s) yet",
             s->target->name, s->target->description);
    return MDL_EINVAL;
  }
  return MDL_OK;
}

/* fix: bytes that validate but differ from IN are MDL-FIX-002 on OUT's entry and never written
 * (a conversion writes them, to be inspected; a repair that changed the model is no repair). */
static int fix_differs(struct convert_state *s)
{
  struct diag_sink sink;
  mdl_options o = *s->rq->options;
  struct mdl_loc none = loc_none();
  o.on_diag = report_collect;
  o.on_resource = NULL;
  o.user = s->out->out;
  diag_sink_init(&sink, &o);
  diag_emit(&sink, RULE_CORE_FIX_REWRITE_CHANGES, &none, NULL, "%s",
            "does not say what IN says (see the differences)");
  diag_sink_finish(&sink);
  for (int i = 0; i < MDL_SEVERITY_COUNT; i++)
    s->out->out->counts[i] += sink.counts[i];
  convert_note(s, CONVERT_NOTE_FAILURE, "the repaired %s differs from what %s says; nothing written",
               s->rq->out_path, s->rq->in_path);
  return 1;
}

/* 1 when f holds MDL-MEM-001 or MDL-MEM-002 (its decode said its memory ran out). */
static int holds_memory_rule(const struct report_file *f)
{
  for (size_t k = 0; k < f->nmsgs; k++)
    if (f->msgs[k].rule == mdl_rule_at(RULE_CORE_OUT_OF_MEMORY) ||
        f->msgs[k].rule == mdl_rule_at(RULE_CORE_MEMORY_BOUND))
      return 1;
  return 0;
}

/* Memory ran out in a stage (the verdict CONVERT_INTERNAL): the last entry (OUT's, or IN's before
 * OUT had one) carries a fatal MDL-MEM-001 unless its decode said so already, and a note says
 * what became of OUT unless a stage said why it stopped. Without them an entry whose result was
 * never set read as "valid" (format "unknown") beside an exit of 70 and no word of memory. */
static void internal_said(struct convert_state *s)
{
  struct convert_outcome *out = s->out;
  struct report_file *f = out->out ? out->out : out->in;
  if (f) {
    if (f == out->out && !strcmp(f->format, "unknown"))
      convert_out_unwritten(s); /* its format and announcements, as any entry of an unwritten OUT */
    if (holds_memory_rule(f)) {
      if (!f->counts[MDL_FATAL])
        f->counts[MDL_FATAL] = 1; /* said, its count not yet set with the decode's result */
    } else {
      struct diag_sink sink;
      mdl_options o = *s->rq->options;
      o.on_diag = report_collect;
      o.on_resource = NULL;
      o.user = f;
      diag_sink_init(&sink, &o);
      diag_out_of_memory(&sink, f == out->out ? "while the output was made or proven; nothing written"
                                              : "while the input was checked; nothing written");
      diag_sink_finish(&sink);
      for (int i = 0; i < MDL_SEVERITY_COUNT; i++)
        f->counts[i] += sink.counts[i];
    }
  }
  if (!s->failure_noted)
    convert_note(s, CONVERT_NOTE_FAILURE, "out of memory; %s not written", s->rq->out_path);
}

mdl_status convert_run(const struct convert_request *rq, struct report *rep, struct convert_outcome *out)
{
  struct convert_state s;
  mdl_status st;

  memset(out, 0, sizeof *out);
  buf_init(&out->bytes);
  out->verdict = CONVERT_INTERNAL;
  memset(&s, 0, sizeof s);
  s.rq = rq;
  s.out = out;
  s.rep = rep;
  buf_init(&s.b);
  s.b.gather = 1; /* the model's large arrays go to the file from where they are (buf_put_ref) */

  if ((st = target_find(&s)) != MDL_OK)
    return st;
  if ((st = convert_source(&s)) != MDL_OK || out->verdict != CONVERT_OK)
    goto done;
  /* IN's text is not read again before the proof's comparison (a writer that reads it brings
   * back what it reads): its pages go while the bytes are written and decoded */
  input_idle(&s.in);
  if ((st = convert_write(&s)) != MDL_OK || out->verdict != CONVERT_OK)
    goto done;
  pipeline_release_source(&s.run); /* written: IN's model is compared, never written again */
  input_idle(&s.in);                /* again: the Egg writer reads the text it writes again */
  /* What is to be written is held to every rule, then to the source, before it is written:
   * bytes that do not validate are never left on disk (a limit the writer missed); bytes that
   * validate but differ from IN are written, to be inspected. */
  out->verdict = convert_prove(&s);
  if (rq->fix && out->verdict == CONVERT_INVALID && !s.unfit)
    s.unfit = fix_differs(&s); /* a repair is written only when proven: never to be inspected */
  if (out->verdict == CONVERT_INVALID)
    convert_accept_hint(&s);
  /* Everything that can fail is done before OUT is replaced (the announcements' folded counts,
   * the report's last entries): a failure after the rename would leave a new OUT behind an exit
   * of 70, where a failed conversion must leave the old OUT as it was. */
  diag_sink_finish(&s.announce);
  s.announcing = 0;
  if (report_out_of_memory(rep)) {
    st = MDL_ENOMEM; /* a finding or announcement lost: no verdict, nothing written */
    goto done;
  }
  if (out->verdict != CONVERT_INTERNAL && !s.unfit) {
    enum convert_verdict w = convert_output(&s);
    if (w != CONVERT_OK)
      out->verdict = w;
  }
done:
  if (s.announcing)
    diag_sink_finish(&s.announce);
  if (st == MDL_OK && out->verdict == CONVERT_INTERNAL)
    internal_said(&s);
  if (st == MDL_OK && report_out_of_memory(rep))
    st = MDL_ENOMEM; /* a finding or announcement lost: no verdict, whichever it would be */
  buf_free(&s.b);
  if (s.run_open)
    pipeline_release(&s.run);
  if (s.in_open)
    input_close(&s.in);
  return st;
}

void convert_outcome_free(struct convert_outcome *out)
{
  buf_free(&out->bytes);
}
