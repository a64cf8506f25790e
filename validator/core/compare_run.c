/* compare_run.c - two inputs read, decoded and compared into one report entry. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compare_run.h"
#include "input.h"
#include "pipeline.h"

struct side {
  struct compare_side cs;
  struct mdl_input in;
  struct pipeline_run run;
  int opened, decoding;
};

/* Read one side: 0, -1 when unreadable (error says why), -2 when memory ran out reading it. */
static int side_read(struct side *s, const struct compare_input *in, const mdl_options *options,
                     char *error, size_t errcap)
{
  char why[128];
  s->cs.path = in->path;
  if (in->data) {
    s->in.data = in->data;
    s->in.size = in->size;
    return 0;
  }
  int err = input_open(in->path, &s->in, options->max_input_size);
  if (err == ENOMEM)
    return -2;
  if (err) {
    snprintf(error, errcap, "cannot read %s: %s", in->path,
             input_error_text(err, options->max_input_size, why, sizeof why));
    return -1;
  }
  s->opened = 1;
  return 0;
}

/* Decode one side, charged to the comparison's memory bound: 0, 1 when it does not decode (a
 * diagnostic says so), -1 when its inner text is over the size limit (error says why), -3 past
 * the memory bound (MDL-MEM-002 said so). */
static int side_decode(struct diag_sink *sink, struct side *s, const struct compare_input *in,
                       const mdl_options *options, struct mem_bound *bound, char *error, size_t errcap)
{
  mdl_options o = *options;
  s->decoding = 1;
  o.on_diag = NULL; /* validation findings belong to `mdlcheck validate` */
  o.user = NULL;
  o.max_issues = 0;
  if (pipeline_decode_input(&s->in, in->path, &o, 1, bound, &s->run) == MDL_EIO) {
    if (pipeline_bound_hit(&s->run)) { /* not compared for want of memory: "could not check" */
      diag_out_of_memory(sink, in->path);
      return -3;
    }
    snprintf(error, errcap, "cannot read %s: the text it decompresses to is larger than the input "
             "size limit of %llu bytes (--max-input-size)", in->path, input_limit(&o));
    return -1;
  }
  pipeline_release_source(&s->run); /* compared, never written: held while the other decodes */
  s->cs.data = s->in.data;
  s->cs.size = s->in.size;
  s->cs.format = s->run.format;
  s->cs.model = &s->run.model;
  if (s->run.out_of_memory) { /* its own MDL-MEM-001 went with the validation findings */
    diag_out_of_memory(sink, in->path);
    return 1;
  }
  if (!s->run.format || !s->run.decoded) {
    struct mdl_loc loc = loc_none();
    diag_emit(sink, RULE_CORE_COMPARE_UNREADABLE, &loc,
              s->run.format ? "its decoder gave up (run mdlcheck validate on it)" : "its format is not recognised",
              "%s", in->path);
    return 1;
  }
  return 0;
}

static void side_close(struct side *s)
{
  if (s->decoding)
    pipeline_release(&s->run);
  if (s->opened)
    input_close(&s->in);
}

mdl_status compare_run(struct compare_run *cr, const struct compare_input in[2], const mdl_options *o,
                       compare_note_fn note, void *note_user, struct report_file *f)
{
  struct side a, b;
  struct diag_sink sink;
  mdl_options opts = *o;
  mdl_status st = MDL_OK;
  struct mem_bound bound;
  int ra, rb;

  memset(cr, 0, sizeof *cr);
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  if (!f)
    return MDL_ENOMEM; /* report_add_file failed */
  opts.on_diag = report_collect;
  opts.user = f;
  if (diag_sink_init(&sink, &opts) < 0)
    return MDL_EINTERNAL;
  /* both read before either is decoded: the bound (--max-memory) is for both texts, and both
   * decodes are charged to it (both models are held while they are compared) */
  ra = side_read(&a, &in[0], o, cr->error, sizeof cr->error);
  rb = ra < 0 ? -1 : side_read(&b, &in[1], o, cr->error, sizeof cr->error);
  if (ra == 0 && rb == 0) {
    mem_bound_init_model(&bound, o, a.in.size);
    mem_bound_add_text(&bound, b.in.size);
    sink.bound = &bound;
    ra = side_decode(&sink, &a, &in[0], o, &bound, cr->error, sizeof cr->error);
    input_idle(&a.in); /* not read again before the comparison: its pages go while B decodes */
    rb = ra < 0 ? -1 : side_decode(&sink, &b, &in[1], o, &bound, cr->error, sizeof cr->error);
  }
  if (ra == -2 || rb == -2)
    st = MDL_ENOMEM;
  else if (ra == -3 || rb == -3)
    f->io_failed = 1; /* MDL-MEM-002 in the entry: not compared, "could not check" (exit 3) */
  else if (ra < 0 || rb < 0)
    st = MDL_EIO;
  else if (ra == 0 && rb == 0) {
    if (model_compare(&a.cs, &b.cs, &sink, note, note_user, &cr->res) < 0)
      st = MDL_ENOMEM;
    else
      cr->compared = 1;
  }
  diag_sink_finish(&sink);
  if (st == MDL_OK && f->out_of_memory)
    st = MDL_ENOMEM; /* a difference was lost: the rest must not read as the whole answer */
  if (st == MDL_OK) {
    memcpy(f->counts, sink.counts, sizeof f->counts);
    f->truncated = sink.truncated;
    /* Each side keeps its own format and version: one "iqm vs x42" string would be neither a
     * format name the report schema allows nor something a consumer can filter on. */
    f->format = a.run.format ? a.run.format->name : "unknown";
    snprintf(f->version, sizeof f->version, "%s", a.run.decoded ? a.run.result.version : "");
    f->compared_path = in[1].path;
    f->compared_format = b.run.format ? b.run.format->name : "unknown";
    snprintf(f->compared_version, sizeof f->compared_version, "%s", b.run.decoded ? b.run.result.version : "");
  }
  side_close(&a);
  side_close(&b);
  return st;
}
