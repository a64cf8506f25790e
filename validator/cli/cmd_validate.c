/* cmd_validate.c - validate files (expanded from files, directories, globs, "-"), in parallel
 * with -j N, and print one report; a progress line on a terminal, a summary for batches. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"
#include "batch.h"
#include "cli.h"
#include "rules_gen.h"
#include "referenced.h"
#include "shard.h"

struct batch_run {
  const struct cli *cli;
  struct report *rep;
  atomic_size_t next;
  atomic_size_t done;
  atomic_int internal_error;
  int progress;
};

static void validate_one(struct batch_run *b, struct report_file *f)
{
  mdl_options o = b->cli->lib;
  mdl_result res;
  mdl_status st;
  o.on_diag = report_collect;
  o.on_resource = report_collect_resource;
  o.user = f;
  f->resources_checked = o.resources != NULL;
  errno = 0;
  st = mdl_validate_file(f->path, &o, &res);
  if (st == MDL_EIO && res.counts[MDL_FATAL]) { /* the library said why (MDL-IO-002) */
    report_set_result(f, &res);
    f->io_failed = 1;
  } else if (st == MDL_EIO)
    report_read_failure(f, errno ? errno : EIO);
  else if (st != MDL_OK)
    atomic_store(&b->internal_error, 1);
  else
    report_set_result(f, &res);
}

static void *worker(void *arg)
{
  struct batch_run *b = arg;
  size_t n = b->rep->nfiles;
  for (;;) {
    size_t i = atomic_fetch_add(&b->next, 1);
    size_t done;
    if (i >= n)
      break;
    validate_one(b, &b->rep->files[i]);
    done = atomic_fetch_add(&b->done, 1) + 1;
    if (b->progress && (done % 16 == 0 || done == n))
      fprintf(stderr, "\rmdlcheck: %zu/%zu files", done, n);
  }
  return NULL;
}

static void run_parallel(struct batch_run *b, unsigned jobs)
{
  pthread_t threads[64];
  unsigned started = 0;
  if (jobs > 64)
    jobs = 64;
  if (jobs > b->rep->nfiles)
    jobs = (unsigned)b->rep->nfiles;
  for (unsigned i = 1; i < jobs; i++)
    if (pthread_create(&threads[started], NULL, worker, b) == 0)
      started++;
  worker(b);
  for (unsigned i = 0; i < started; i++)
    pthread_join(threads[i], NULL);
  if (b->progress)
    fputc('\n', stderr);
}

int cmd_validate(struct cli *c)
{
  struct report rep;
  struct file_list files = {0};
  struct batch_run b;
  struct baseline *base = NULL;
  int rc = EXIT_VALID, io = 0, empty = 0;
  FILE *out;

  if (c->nargs < 1) {
    fprintf(stderr, "mdlcheck: no input files (try 'mdlcheck --help')\n");
    return EXIT_USAGE;
  }
  for (int i = 0; i < c->nargs; i++) {
    size_t count = files.count, skipped = files.skipped;
    int kind = file_list_add(&files, c->args[i]);
    /* an argument that selects nothing is a run that checks nothing: say what was found */
    if (kind < 0)
      fprintf(stderr, "mdlcheck: no file matches %s\n", c->args[i]);
    else if (kind > 0 && files.count == count)
      fprintf(stderr, "mdlcheck: no model files under %s; %zu other file%s skipped\n", c->args[i],
              files.skipped - skipped, files.skipped - skipped == 1 ? "" : "s");
    else
      continue;
    empty = 1;
  }
  if (empty && !c->allow_empty)
    fputs("mdlcheck: an input selected no model file (exit 2; --allow-empty accepts that)\n", stderr);
  if (c->shard_n) {
    size_t total = shard_select(&files, c->shard_k, c->shard_n);
    /* Every job of the matrix ranks the same whole selection, so a share left empty holds
     * nothing the others do not check: said, and no exit 2 (a selection that is empty as a
     * whole still is, in every job, above). */
    if (total && !files.count)
      fprintf(stderr, "mdlcheck: shard %u/%u: no file (the selection has %zu, fewer than %u "
              "shares)\n", c->shard_k, c->shard_n, total, c->shard_n);
    else if (c->verbose)
      fprintf(stderr, "mdlcheck: shard %u/%u: %zu of %zu files\n", c->shard_k, c->shard_n,
              files.count, total);
  }
  if (c->baseline_path) {
    char why[600];
    int too_large = 0;
    if (!(base = baseline_load(c->baseline_path, c->lib.max_input_size, &too_large, why, sizeof why))) {
      fprintf(stderr, "mdlcheck: cannot use baseline: %s\n", why);
      file_list_free(&files);
      return too_large ? EXIT_IO : EXIT_USAGE;
    }
  }
  report_init(&rep);
  rep.fail_on = c->fail_on;
  for (size_t i = 0; i < files.count; i++)
    report_add_file(&rep, files.paths[i]);
  rep.skipped = files.skipped;

  memset(&b, 0, sizeof b);
  b.cli = c;
  b.rep = &rep;
  b.progress = rep.nfiles > 32 && isatty(STDERR_FILENO);
  run_parallel(&b, c->jobs ? c->jobs : 1);
  /* external eggs the models name are inputs of their own, each validated once: rounds until a
   * round names no file not yet in the report (so cycles end) */
  while (c->lib.resources) {
    size_t from = rep.nfiles;
    if (externals_queue(&rep, files.elsewhere, files.nelsewhere) == 0)
      break;
    atomic_store(&b.next, from);
    atomic_store(&b.done, from);
    run_parallel(&b, c->jobs ? c->jobs : 1);
  }
  file_list_free(&files);
  if (c->unreferenced)
    unreferenced_list(&rep, c->args, c->nargs);
  if (base) {
    baseline_apply(base, &rep);
    /* A baseline that matched no input accepted nothing, so the verdict stands on every
     * diagnostic and stays honest; but the user meant it to apply: say so. No exit 2: a run
     * over a subset (the pre-commit hook's staged files) legitimately misses it. */
    if (rep.nfiles && !baseline_files_matched(base)) {
      fprintf(stderr, "mdlcheck: warning: baseline %s records %zu file%s, none of them among the "
              "%zu input%s (paths are matched as the files they name)\n", c->baseline_path,
              baseline_files_recorded(base), baseline_files_recorded(base) == 1 ? "" : "s",
              rep.nfiles, rep.nfiles == 1 ? "" : "s");
    }
    baseline_free(base);
  }

  for (size_t i = 0; i < rep.nfiles; i++) {
    if (rep.files[i].io_failed)
      io = 1;
    else if (report_file_invalid(&rep, &rep.files[i]))
      rc = EXIT_INVALID;
  }
  out = cli_open_output(c);
  if (!out) {
    report_free(&rep);
    return EXIT_IO;
  }
  cli_report(c, out, &rep);
  cli_close_output(c, out);
  report_free(&rep);
  if (atomic_load(&b.internal_error))
    return EXIT_INTERNAL;
  if (empty && !c->allow_empty)
    return EXIT_USAGE;
  return io ? EXIT_IO : rc;
}
