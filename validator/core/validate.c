/* validate.c - the public validation entry points over the pipeline. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "input.h"
#include "pipeline.h"
#include "resources.h"
#include "targets.h"
#include "text_window.h"

void mdl_options_init(mdl_options *options)
{
  memset(options, 0, sizeof *options);
  options->size = sizeof *options;
  options->max_per_rule = 0;
}

void mdl_result_init(mdl_result *result)
{
  memset(result, 0, sizeof *result);
  result->size = sizeof *result;
  result->format = "unknown";
}

const char *mdl_version(int *major, int *minor, int *patch)
{
  if (major)
    *major = MDL_VERSION_MAJOR;
  if (minor)
    *minor = MDL_VERSION_MINOR;
  if (patch)
    *patch = MDL_VERSION_PATCH;
  return MDL_VERSION_STRING;
}

/* The structs a caller allocates carry the size its header gave them (mdl_options_init,
 * mdl_result_init): a caller built against another layout, or one that never called the init,
 * is refused before any field is read at the wrong place. */
static int abi_ok(const mdl_options *options, const mdl_result *result)
{
  return (!options || options->size == sizeof *options) && (!result || result->size == sizeof *result);
}

void decode_stat(struct decode_ctx *ctx, const char *name, unsigned long long value)
{
  if (ctx->num_extra < MDL_STATS_EXTRA_MAX) {
    ctx->extra[ctx->num_extra].name = name;
    ctx->extra[ctx->num_extra++].value = value;
  }
}

const char *decode_name(struct decode_ctx *ctx)
{
  ctx->name_read = 1;
  return ctx->name_hint;
}

void decode_count(struct decode_ctx *ctx, enum decode_count_kind kind, unsigned long long value)
{
  ctx->counted |= 1u << kind;
  ctx->count[kind] = value;
}

static unsigned long long stat_of(const struct decode_ctx *ctx, enum decode_count_kind kind,
                                  uint32_t in_model)
{
  return ctx->counted & (1u << kind) ? ctx->count[kind] : in_model;
}

/* The counts of a model decoded to its end; a decode that gave up leaves them unknown. */
static void stats_fill(mdl_stats *st, const struct model *m, const struct decode_ctx *ctx)
{
  st->decoded = 1;
  st->joints = stat_of(ctx, DC_JOINTS, m->num_joints);
  st->meshes = stat_of(ctx, DC_MESHES, m->num_meshes);
  st->vertices = stat_of(ctx, DC_VERTICES, m->num_vertexes);
  st->triangles = stat_of(ctx, DC_TRIANGLES, m->num_triangles);
  st->animations = stat_of(ctx, DC_ANIMATIONS, m->num_anims);
  st->frames = stat_of(ctx, DC_FRAMES, m->num_frames);
  st->num_extra = ctx->num_extra;
  memcpy(st->extra, ctx->extra, sizeof st->extra);
}

mdl_status pipeline_decode(const void *data, size_t size, const char *name_hint,
                           const mdl_options *options, int keep_frames, struct pipeline_run *run)
{
  return pipeline_decode_in(data, size, name_hint, options, keep_frames, NULL, run);
}

int pipeline_bound_hit(const struct pipeline_run *run)
{
  return run->bound_hit;
}

mdl_status pipeline_decode_in(const void *data, size_t size, const char *name_hint,
                              const mdl_options *options, int keep_frames, struct mem_bound *shared,
                              struct pipeline_run *run)
{
  struct mdl_input in = {0}; /* bytes of the caller's: none is given back */
  in.data = data;
  in.size = size;
  return pipeline_decode_input(&in, name_hint, options, keep_frames, shared, run);
}

mdl_status pipeline_decode_input(const struct mdl_input *in, const char *name_hint,
                                 const mdl_options *options, int keep_frames, struct mem_bound *shared,
                                 struct pipeline_run *run)
{
  const void *data = in->data;
  size_t size = in->size;
  struct text_window window;
  struct diag_sink sink;
  struct decode_ctx ctx;
  mdl_options defaults;
  struct mem_bound *bound;
  int internal = 0;

  if (!options) {
    mdl_options_init(&defaults);
    options = &defaults;
  }
  memset(run, 0, sizeof *run);
  memset(&ctx, 0, sizeof ctx);
  model_init(&run->model);
  mdl_result_init(&run->result);
  if (diag_sink_init(&sink, options) < 0)
    return MDL_EINTERNAL;
  diag_source(&sink, data, size);
  text_window_init(&window, in);
  sink.window = &window;
  /* a decode that keeps every vertex's values (poses under --target, the page's model) has the
   * bound of convert's and compare's (mem_bound_init_model); validation and poses keep less */
  if ((keep_frames & PIPELINE_FRAMES) && !(keep_frames & PIPELINE_SKELETON))
    mem_bound_init_model(&run->bound, options, size);
  else
    mem_bound_init(&run->bound, options, size);
  bound = shared ? shared : &run->bound;
  if (shared || (keep_frames & PIPELINE_BOUNDED)) {
    run->model.arena.bound = bound;
    ctx.bound = bound;
    sink.bound = bound;
  }

  if (options->assume_format) {
    run->format = format_find(options->assume_format);
    if (!run->format) {
      struct mdl_loc loc = loc_none();
      diag_emit(&sink, RULE_CORE_UNKNOWN_ASSUMED_FORMAT, &loc, NULL, "%s", options->assume_format);
    }
  } else {
    run->format = format_detect(data, size, name_hint);
    if (!run->format) {
      struct mdl_loc loc = loc_bin(0, NULL);
      diag_emit(&sink, RULE_CORE_UNRECOGNISED_FORMAT, &loc, NULL, "%s", size ? "unrecognised content" : "empty input");
    }
  }

  if (run->format) {
    reader_init(&ctx.in, data, size);
    ctx.text = &window;
    ctx.diag = &sink;
    ctx.options = options;
    ctx.name_hint = name_hint;
    ctx.keep_frames = (keep_frames & PIPELINE_FRAMES) != 0;
    ctx.skeleton_only = (keep_frames & PIPELINE_SKELETON) != 0;
    ctx.frames_lazy = ctx.keep_frames && (keep_frames & PIPELINE_FRAMES_LAZY) != 0;
    run->model.want_spans = (keep_frames & PIPELINE_SPANS) != 0;
    /* the report's stats take a count; --target's checks and every other caller read joints */
    ctx.joints_unread = !ctx.keep_frames && !run->model.want_spans && !options->targets;
    /* only --resources, convert and compare read the files a model names */
    ctx.refs_unread = !ctx.keep_frames && !run->model.want_spans && !options->resources;
    ctx.refs_distinct = !ctx.keep_frames && !run->model.want_spans;
    run->result.format = run->format->name;
    run->decoded = run->format->decode(&ctx, &run->model) == 0;
    /* A decoder gives up after an error or a fatal about what it found in the input; giving
     * up without one means an allocation failed. Either way the file was not checked to the
     * end, and that must never read as a clean verdict. */
    if ((!run->decoded && !diag_errors(&sink)) || run->model.arena.failed || bound->hit)
      diag_out_of_memory(&sink, run->format->name);
    run->model.arena.bound = NULL; /* the bound is the decode's: what a caller adds is its own */
    run->out_of_memory = sink.per_rule[RULE_CORE_OUT_OF_MEMORY] > 0 ||
                         sink.per_rule[RULE_CORE_MEMORY_BOUND] > 0;
    if (run->out_of_memory)
      run->decoded = 0; /* whatever the model holds was not fully built or checked */
    if (run->decoded && !ctx.input_too_large) {
      stats_fill(&run->result.stats, &run->model, &ctx);
      run->result.stats.partial = sink.flaws > 0;
    }
    /* references are followed only from a model that decoded: a partial one names a partial
     * list, and the fatal that stopped it already makes the file invalid */
    if (run->decoded && options->resources)
      resources_check(&sink, &run->model, name_hint, options);
    /* what the real loaders named by --target do with it: only adds findings */
    if (!run->out_of_memory) {
      mdl_status ts = targets_run(&sink, run->decoded ? &run->model : NULL, run->format->name,
                                  ctx.version, size, options);
      if (ts == MDL_ENOMEM) { /* MDL-MEM-001 (or -002) added: as a decode out of memory */
        run->out_of_memory = 1;
        run->decoded = 0;
      } else if (ts != MDL_OK) {
        internal = 1; /* a model that does not hold what it counts: no verdict */
      }
    }
    run->name_read = ctx.name_read || options->resources != NULL;
    memcpy(run->result.version, ctx.version, sizeof run->result.version);
    run->result.version[sizeof run->result.version - 1] = 0;
    memcpy(run->result.compression, ctx.compression, sizeof run->result.compression);
    run->result.compression[sizeof run->result.compression - 1] = 0;
  }

  diag_sink_finish(&sink);
  text_window_close(&window); /* what was read again goes back too: the model holds the rest */
  memcpy(run->result.counts, sink.counts, sizeof sink.counts);
  run->result.truncated = sink.truncated;
  if (internal)
    return MDL_EINTERNAL;
  /* not checked to the end for want of the memory it was allowed: as an input over the size
   * limit, "could not check" (exit 3), never a verdict */
  if (sink.per_rule[RULE_CORE_MEMORY_BOUND]) {
    run->bound_hit = 1;
    errno = ENOMEM;
    return MDL_EIO;
  }
  return ctx.input_too_large ? MDL_EIO : MDL_OK;
}

/* An input over the size limit is refused before detection: one fatal says so, and nothing
 * else is reported about it. */
void input_refuse(const mdl_options *options, mdl_result *result)
{
  struct diag_sink sink;
  struct mdl_loc loc = loc_none();
  char limit[32];
  mdl_result_init(result);
  if (diag_sink_init(&sink, options) < 0)
    return;
  snprintf(limit, sizeof limit, "%llu", input_limit(options));
  diag_emit(&sink, RULE_CORE_INPUT_TOO_LARGE, &loc, limit, "%s", "the input");
  diag_sink_finish(&sink);
  memcpy(result->counts, sink.counts, sizeof sink.counts);
}

void pipeline_release(struct pipeline_run *run)
{
  model_free(&run->model);
}

void pipeline_release_source(struct pipeline_run *run)
{
  if (run->format && run->format->release_source)
    run->format->release_source(&run->model);
}

/* mdl_validate_buffer over an input: a mapped file's pages go back as the decode reads on */
static mdl_status validate_input(const struct mdl_input *in, const char *name_hint,
                                 const mdl_options *options, mdl_result *result)
{
  struct pipeline_run run;
  mdl_status st;
  mdl_result refused;
  if (!abi_ok(options, result))
    return MDL_EINVAL;
  if ((unsigned long long)in->size > input_limit(options)) { /* as a file of that size */
    input_refuse(options, result ? result : &refused);
    errno = EFBIG;
    return MDL_EIO;
  }
  if (options && mdl_targets_check(options->targets, NULL, 0) < 0)
    return MDL_EINVAL; /* a loader no target describes: nothing could be checked for it */
  st = pipeline_decode_input(in, name_hint, options, PIPELINE_BOUNDED, NULL, &run);
  if (result)
    *result = run.result;
  pipeline_release(&run);
  return st;
}

mdl_status mdl_validate_buffer(const void *data, size_t size, const char *name_hint,
                               const mdl_options *options, mdl_result *result)
{
  struct mdl_input in = {0}; /* the caller's bytes: none is given back */
  in.data = data;
  in.size = size;
  return validate_input(&in, name_hint, options, result);
}

mdl_status mdl_validate_file(const char *path, const mdl_options *options, mdl_result *result)
{
  struct mdl_input in;
  mdl_status st;
  mdl_result refused;
  int err;
  if (!abi_ok(options, result))
    return MDL_EINVAL;
  err = input_open(path, &in, input_limit(options));
  if (err == EFBIG) {
    input_refuse(options, result ? result : &refused);
    errno = err;
    return MDL_EIO;
  }
  if (err != 0) {
    if (result)
      mdl_result_init(result);
    errno = err;
    return err == ENOMEM ? MDL_ENOMEM : MDL_EIO; /* memory, not the file: no I/O verdict */
  }
  st = validate_input(&in, path, options, result);
  input_close(&in);
  return st;
}
