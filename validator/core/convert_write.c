/* convert_write.c - a conversion's second stage: OUT's entry, checked to be writable, then the
 * writer's announcements (losses, refusals) and the bytes for OUT, held in memory. Also the
 * last step, OUT replaced on disk, once the proof has run. */
#include <ctype.h>
#include <string.h>

#include "convert_stage.h"
#include "file_replace.h"
#include "fix.h"

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

const struct mdl_format *convert_format_for_path(const char *path)
{
  for (size_t i = 0; mdl_format_table[i]; i++)
    for (const char *const *e = mdl_format_table[i]->extensions; e && *e; e++)
      if (ends_with_ci(path, *e))
        return mdl_format_table[i];
  return NULL;
}

void convert_out_unwritten(struct convert_state *s)
{
  mdl_result r;
  memset(&r, 0, sizeof r);
  r.format = s->target->name;
  memcpy(r.counts, s->announce.counts, sizeof r.counts);
  r.truncated = s->announce.truncated;
  report_set_result(s->out->out, &r);
}

/* OUT may be written only where it is absent or a regular file (MDL-IO-004): a link is never
 * followed, a FIFO or device never opened (it would block). Checked before the writer runs. */
static enum convert_verdict output_check(struct convert_state *s)
{
  char why[200];
  struct mdl_loc none = loc_none();
  const char *outpath = s->rq->out_path;
  enum file_replace_status st;
  if (s->rq->no_write)
    return CONVERT_OK;
  if ((st = file_replace_check(outpath, why, sizeof why)) == FILE_REPLACE_OK)
    return CONVERT_OK;
  diag_emit(&s->announce, st == FILE_REPLACE_NOT_REGULAR ? RULE_CORE_OUTPUT_NOT_REGULAR : RULE_CORE_OUTPUT_NOT_WRITTEN,
            &none, why, "%s", outpath);
  convert_out_unwritten(s);
  convert_note(s, CONVERT_NOTE_FAILURE, "%s is not written: %s", outpath, why);
  return CONVERT_IO;
}

/* fix (core/fix.h): the refusals into OUT's entry, the list of repairs into IN's, the format's
 * repairs. 0 to write, 1 to keep IN's bytes, -1 stopped (the verdict set). */
static int convert_fix_prepare(struct convert_state *s)
{
  const struct convert_request *rq = s->rq;
  struct convert_outcome *out = s->out;
  struct diag_sink list;
  mdl_options lo = *rq->options;
  char why[400] = "";
  int k;
  lo.on_diag = report_collect;
  lo.on_resource = NULL;
  lo.user = out->in;
  diag_sink_init(&list, &lo);
  k = fix_prepare(rq->fix, out->in, &s->announce, &list, &s->run.model, s->run.format, why, sizeof why);
  diag_sink_finish(&list);
  for (int i = 0; i < MDL_SEVERITY_COUNT; i++) /* the list joins IN's findings */
    out->in->counts[i] += list.counts[i];
  out->in->truncated |= list.truncated;
  if (k == -2) {
    fix_restore(rq->fix, &s->run.model);
    convert_note(s, CONVERT_NOTE_FAILURE, "%s; nothing written", why);
    out->verdict = CONVERT_INTERNAL;
    return -1;
  }
  if (k == -1) {
    convert_out_unwritten(s);
    convert_note(s, CONVERT_NOTE_FAILURE, "%s has errors mdlcheck fix does not repair (%s); nothing "
                 "written", rq->in_path, why);
    out->verdict = CONVERT_INVALID;
    return -1;
  }
  return k;
}

mdl_status convert_write(struct convert_state *s)
{
  const struct convert_request *rq = s->rq;
  struct convert_outcome *out = s->out;
  struct write_opts wo;
  int wrc;

  /* The writer's announcements are reported as the output's diagnostics. */
  if (!(out->out = report_add_file(s->rep, rq->out_path)))
    return MDL_ENOMEM;
  s->announce_opts = *rq->options;
  s->announce_opts.on_diag = report_collect;
  s->announce_opts.on_resource = NULL;
  s->announce_opts.user = out->out;
  memset(&s->losses, 0, sizeof s->losses);
  if (diag_sink_init(&s->announce, &s->announce_opts) < 0) {
    out->verdict = CONVERT_INTERNAL;
    return MDL_OK;
  }
  s->announcing = 1;
  convert_accept_announce(s, &s->announce);
  s->losses.diag = &s->announce;
  if ((out->verdict = output_check(s)) != CONVERT_OK)
    return MDL_OK;
  if (rq->fix) {
    int k = convert_fix_prepare(s);
    if (k < 0)
      return MDL_OK;
    if (k == 1) { /* nothing to repair: IN's own bytes, proven as they are */
      buf_put(&s->b, s->in.data, s->in.size);
      out->size = s->b.size;
      out->verdict = s->b.oom ? CONVERT_INTERNAL : CONVERT_OK;
      return MDL_OK;
    }
  }
  if (rq->transform) {
    char why[200] = "";
    if (rq->transform(rq->transform_user, &s->run.model, s->run.format, &s->announce, why, sizeof why) < 0) {
      convert_out_unwritten(s);
      convert_note(s, CONVERT_NOTE_FAILURE, "cannot change %s: %s; nothing written", rq->in_path, why);
      out->verdict = CONVERT_INVALID;
      return MDL_OK;
    }
  }
  memset(&wo, 0, sizeof wo);
  wo.version = rq->version;
  wo.path = rq->out_path;
  wo.losses = &s->losses;
  wo.foreign = s->target != s->run.format;
  if (wo.foreign)
    write_loss_refs(&s->losses, &s->run.model, RULE_CORE_CONVERT_REFERENCE_DROPPED);
  wrc = s->target->write(&s->run.model, &wo, &s->b);
  if (rq->fix)
    fix_restore(rq->fix, &s->run.model); /* the proof compares with IN's model as decoded */
  if (wrc < 0 || s->b.oom || s->losses.oom) {
    if (s->b.oom || s->losses.oom) { /* the bytes, or the announcements, incomplete */
      convert_note(s, CONVERT_NOTE_FAILURE, "out of memory writing %s as %s", rq->in_path,
                   s->target->name);
      out->verdict = CONVERT_INTERNAL;
      return MDL_OK;
    }
    if (!s->losses.refused) { /* a refusal the writer gave no rule of its own */
      struct mdl_loc none = loc_none();
      diag_emit(&s->announce, RULE_CORE_CONVERT_WRITER_REFUSED, &none, s->target->name, "%s", s->b.error);
    }
    convert_out_unwritten(s);
    convert_note(s, CONVERT_NOTE_FAILURE, "cannot write %s as %s: %s; nothing written", rq->in_path,
                 s->target->name, s->b.error);
    out->verdict = CONVERT_INVALID;
    return MDL_OK;
  }
  if (rq->fix) {
    char why[300];
    if (fix_written(rq->fix, &s->losses, &s->announce, why, sizeof why) < 0) {
      convert_out_unwritten(s);
      convert_note(s, CONVERT_NOTE_FAILURE, "%s cannot be rewritten as it is: %s; nothing written",
                   rq->in_path, why);
      out->verdict = CONVERT_INVALID;
      return MDL_OK;
    }
  }
  out->size = s->b.size;
  out->verdict = CONVERT_OK;
  return MDL_OK;
}

/* Write OUT whole or not at all (core/file_replace.h), once the proof has run on the bytes in
 * memory: a failure is the output's fatal MDL-IO-003 (or MDL-IO-004 for a non-regular file put
 * there meanwhile), added to what the proof found, OUT as it was. With no_write the bytes are
 * handed over instead, whole. */
enum convert_verdict convert_output(struct convert_state *s)
{
  char why[400];
  struct mdl_loc none = loc_none();
  const char *outpath = s->rq->out_path;
  enum file_replace_status st;
  unsigned long fatal = s->announce.counts[MDL_FATAL];
  if (s->rq->no_write) {
    if (buf_flatten(&s->b) < 0) {
      convert_note(s, CONVERT_NOTE_FAILURE, "out of memory; the bytes for %s are not kept", outpath);
      return CONVERT_INTERNAL;
    }
    s->out->bytes = s->b;
    buf_init(&s->b);
    s->out->held = 1;
    return CONVERT_OK;
  }
  if (s->rq->fix && s->rq->fix->kept && s->rq->fix->in_place)
    return CONVERT_OK; /* fix, nothing to repair, IN in place: left as it was */
  if ((st = file_replace(outpath, &s->b, why, sizeof why)) == FILE_REPLACE_OK) {
    s->out->written = 1;
    return CONVERT_OK;
  }
  diag_emit(&s->announce, st == FILE_REPLACE_NOT_REGULAR ? RULE_CORE_OUTPUT_NOT_REGULAR : RULE_CORE_OUTPUT_NOT_WRITTEN,
            &none, why, "%s", outpath);
  /* the proof's findings stay: the failure joins them (unless a configuration ignores it) */
  s->out->out->counts[MDL_FATAL] += s->announce.counts[MDL_FATAL] - fatal;
  convert_note(s, CONVERT_NOTE_FAILURE, "cannot write %s: %s; it is left as it was", outpath, why);
  return CONVERT_IO;
}
