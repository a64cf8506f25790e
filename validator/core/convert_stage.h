/* convert_stage.h - what the stages of one conversion (convert_source.c, convert_write.c,
 * convert_prove.c, convert_accept.c, run in order by convert_run.c) hand each other. */
#ifndef MDL_CONVERT_STAGE_H
#define MDL_CONVERT_STAGE_H

#include "convert.h"
#include "input.h"
#include "pipeline.h"
#include "write_loss.h"

struct convert_state {
  const struct convert_request *rq;
  struct convert_outcome *out;
  struct report *rep;
  const struct mdl_format *target;
  struct mdl_input in;        /* IN's bytes (the caller's, or read) */
  int in_open;
  struct mem_bound bound;     /* --max-memory over IN's decode and the proof's, together: the
                               * automatic one is sized for IN's text, then for it and OUT's */
  struct pipeline_run run;    /* IN decoded */
  int run_open;
  int converted;              /* IN's frames were made parent-relative */
  struct write_losses losses; /* the writer's announcements (losses.diag: announce) */
  struct diag_sink announce;
  int announcing;
  mdl_options announce_opts;
  struct byte_buf b;          /* the bytes for OUT */
  int unfit;                  /* the bytes do not validate: never written */
  int failure_noted;          /* a CONVERT_NOTE_FAILURE said why the run stopped */
};

/* Printf into a note for the request's callback, after the command's name ("fix: " or "convert: "). */
void convert_note(struct convert_state *s, enum convert_note_level level, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));

/* Stage 1: read IN (MDL_EIO, MDL_ENOMEM) and decode it into s->run and the report's IN entry;
 * MDL_OK with out->verdict set when IN cannot be converted (errors, frames). */
mdl_status convert_source(struct convert_state *s);

/* OUT's entry when nothing was written: its format, the writer's refusal and announcements. */
void convert_out_unwritten(struct convert_state *s);

/* Stage 2: OUT's entry, the announcements, the writer: CONVERT_OK with the bytes in s->b, or
 * the verdict (refused, OUT not writable, memory); MDL_ENOMEM when the report lost its entry. */
mdl_status convert_write(struct convert_state *s);

/* Last: OUT replaced on disk (or, with no_write, the bytes handed to out->bytes): CONVERT_OK,
 * CONVERT_IO (MDL-IO-003/004 added to OUT's entry), CONVERT_INTERNAL. */
enum convert_verdict convert_output(struct convert_state *s);

/* Stage 3: the bytes re-decoded and validated, then compared with IN (unless no_proof): the
 * verdict so far (s->unfit when they do not validate). */
enum convert_verdict convert_prove(struct convert_state *s);

/* --accept-loss: 1 when rule (id or alias) is in the ','-separated list. */
int convert_accepted(const char *list, const mdl_rule *rule);
/* Make sink re-grade as diagnostics arrive: the announce sink accepts the accepted losses (never
 * a refusal: an error by the catalogue stays one), the proof's sink also the differences an
 * accepted announcement explains. */
void convert_accept_announce(struct convert_state *s, struct diag_sink *sink);
void convert_accept_proof(struct convert_state *s, struct diag_sink *sink);
/* 1 when the caller accepted a loss the writer announced (the verdict is then never lossless). */
int convert_losses_accepted(const struct convert_state *s);
/* After a failed proof: the announced losses whose proof rule the proof found, as the
 * --accept-loss that accepts them (each id once), into out->hint. */
void convert_accept_hint(struct convert_state *s);

#endif
