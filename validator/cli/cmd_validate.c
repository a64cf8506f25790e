/* cmd_validate.c - validate files (expanded from files, directories, globs, "-"), in parallel
 * with -j N, and print one report; a progress line on a terminal, a summary for batches. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"
#include "archive.h"
#include "cache.h"
#include "input.h"
#include "grow.h"
#include "oom.h"
#include "batch.h"
#include "cli.h"
#include "rules_gen.h"
#include "referenced.h"
#include "shard.h"
#include "text_safe.h"

/* The files of the first round are validated as the walk selects them: with -j above 1 the
 * workers start on the first file while the walk is still reading directories, so the walk, the
 * one serial part of a batch, is off the critical path. Entries live in chunks that never move
 * while workers fill them; once everything is done they become the report's array, in selection
 * order, so the report is the same whatever -j. */
#define SLOT_CHUNK 1024
#define SLOT_CHUNKS_MAX 65536 /* 67 million files; the chunk table is allocated whole */

struct slot {
  struct report_file f;
  struct archive_member member; /* where in an archive, arch_len 0 for a plain file */
  atomic_int state;             /* SLOT_VALIDATED, then SLOT_COPIED into the report's array */
};

enum { SLOT_PENDING, SLOT_VALIDATED, SLOT_COPIED };

struct batch_run {
  const struct cli *cli;
  struct report *rep;
  atomic_size_t next;
  atomic_size_t done;
  atomic_int internal_error;
  atomic_int progress;         /* a progress line on stderr (a terminal, more than 32 files) */
  atomic_size_t total;         /* files in the round, once known (for the progress line) */
  /* The first round: slots published by the walk, taken by the workers without a lock (the
   * walk is the serial part: it must not wait for the workers, nor wake one per file). */
  struct slot **chunks;        /* chunks[i / SLOT_CHUNK] holds slot i; never moves */
  size_t nchunks;              /* chunks allocated (the walk's alone) */
  atomic_size_t published;     /* slots ready to validate: only the walk stores it */
  atomic_size_t taken;         /* slots a worker has taken */
  atomic_uint waiting;         /* workers asleep on `more` (changed under lock) */
  unsigned workers;            /* threads taking slots, the walk's own thread included */
  /* the report's array, once the walk is done and the number of files known: each worker
   * copies the slot it validated into it, so the end of the batch does not copy them all */
  _Atomic(struct report_file *) files;
  pthread_mutex_t lock;
  pthread_cond_t more;
  int walk_done;               /* no slot will be published any more (under lock) */
  struct cache *cache;         /* --cache, or NULL */
};

/* Through the cache when the run has one and the answer depends on the file's bytes alone (not
 * with --resources, not standard input); a file that cannot be read is left to
 * mdl_validate_file, which reports it as always. 1: validated through the cache, *st says how. */
static int validate_cached(struct batch_run *b, struct report_file *f, const mdl_options *o,
                           mdl_status *st)
{
  int done;
  if (!b->cache || o->resources || !strcmp(f->path, "-"))
    return 0;
  if (cache_stat_hit(b->cache, f->path, f)) {
    *st = MDL_OK;
    return 1;
  }
  *st = cache_validate_path(b->cache, f->path, input_limit(o), o, f, &done);
  return done;
}

/* The run's options, set to collect one file's diagnostics and references into its entry. */
static void collect_into(const struct batch_run *b, mdl_options *o, struct report_file *f)
{
  o->on_diag = report_collect;
  o->on_resource = report_collect_resource;
  o->user = f;
  f->resources_checked = o->resources != NULL;
  /* JSON lists every reference and --unreferenced reads every resolved path; the others show
   * only counts and the first few unusable ones */
  f->res_summary = b->cli->output != OUT_JSON && !b->cli->unreferenced;
}

static void validate_one(struct batch_run *b, struct report_file *f)
{
  mdl_options o = b->cli->lib;
  mdl_result res;
  mdl_status st;
  collect_into(b, &o, f);
  fault_guard_input(f->path, NULL);
  errno = 0;
  if (validate_cached(b, f, &o, &st)) {
    if (st != MDL_OK)
      atomic_store(&b->internal_error, 1);
    return;
  }
  mdl_result_init(&res);
  st = mdl_validate_file(f->path, &o, &res);
  if (st == MDL_EIO && res.counts[MDL_FATAL]) { /* the library said why (MDL-IO-002) */
    report_set_unchecked(f, &res);
  } else if (st == MDL_EIO)
    report_read_failure(f, errno ? errno : EIO);
  else if (st == MDL_ENOMEM)
    oom_exit(); /* the library could not finish this file: no report stands */
  else if (st != MDL_OK)
    atomic_store(&b->internal_error, 1);
  else
    report_set_result(f, &res);
}

static void no_member(void *ctx, const char *name, uint64_t index)
{
  (void)ctx, (void)name, (void)index;
}

/* A member of an archive: read into memory (bounded as a file is), then validated as a buffer
 * named by the member, through the cache when there is one. With --resources its references
 * resolve among the archive's members (the reader keeps the archive open): not through the
 * cache, whose key holds no referenced file. */
static void validate_member(struct batch_run *b, struct report_file *f, const struct archive_member *m,
                            struct archive_reader *reader)
{
  mdl_options o = b->cli->lib;
  mdl_resource_tree tree;
  mdl_result res;
  mdl_status st;
  char arch[4096], why[512];
  unsigned char *data = NULL;
  size_t size = 0;
  int rc;
  snprintf(arch, sizeof arch, "%.*s", (int)m->arch_len, f->path);
  collect_into(b, &o, f);
  if (o.resources) {
    tree.label = arch;
    tree.model = f->path + m->arch_len + 1;
    tree.find = archive_tree_find;
    tree.read = archive_tree_read;
    tree.user = reader;
    o.resource_tree = &tree;
  }
  rc = m->index == ARCHIVE_WHOLE ? -1
       : archive_read(reader, arch, m->index, input_limit(&o), &data, &size, why, sizeof why);
  if (m->index == ARCHIVE_WHOLE) { /* listing it failed: list it again to say why */
    size_t skipped = 0;
    if (archive_list(arch, no_member, NULL, &skipped, why, sizeof why) == 0)
      snprintf(why, sizeof why, "the archive changed while it was read");
  }
  if (rc == EFBIG) { /* as a file of that size: the library's own refusal (MDL-IO-002) */
    input_refuse(&o, &res);
    report_set_unchecked(f, &res);
    return;
  }
  if (rc == ENOMEM)
    oom_exit(); /* as validate_one: the member was not read, so no report stands (review C) */
  if (rc != 0) {
    report_read_failure_why(f, why);
    return;
  }
  /* the report path names the member ("pack.pk3:models/x.iqm"): detection reads its extension */
  mdl_result_init(&res);
  if (b->cache && !o.resources) {
    st = cache_validate(b->cache, f->path, data, size, &o, f);
  } else if ((st = mdl_validate_buffer(data, size, f->path, &o, &res)) == MDL_OK) {
    report_set_result(f, &res);
  } else if (st == MDL_EIO && res.counts[MDL_FATAL]) {
    /* the library said why it could not check the member (MDL-IO-002 of an inflated text,
     * MDL-MEM-002): as a file it could not check, exit 3, never a verdict */
    report_set_unchecked(f, &res);
    st = MDL_OK;
  }
  free(data);
  if (st == MDL_ENOMEM)
    oom_exit(); /* the member's entry would read "valid" with nothing checked (review C) */
  if (st != MDL_OK)
    atomic_store(&b->internal_error, 1);
}

static void progress_note(struct batch_run *b, size_t done)
{
  size_t n = atomic_load(&b->total);
  if (atomic_load(&b->progress) && (done % 16 == 0 || done == n))
    text_printf(stderr, "\rmdlcheck: %zu/%zu files", done, n);
}

/* Publish the file the walk just selected (its path is taken from the list). */
static void slot_publish(struct file_list *l, void *ctx)
{
  struct batch_run *b = ctx;
  struct report_file *f;
  struct slot *sl;
  size_t i = atomic_load_explicit(&b->published, memory_order_relaxed);
  unsigned asleep;
  if (i / SLOT_CHUNK == b->nchunks) {
    if (b->nchunks == SLOT_CHUNKS_MAX) {
      text_printf(stderr, "mdlcheck: more than %zu files selected: not supported\n",
                  (size_t)SLOT_CHUNKS_MAX * SLOT_CHUNK);
      exit(EXIT_IO); /* the CLI's own limit: never a report that leaves files out */
    }
    if (!(b->chunks[b->nchunks] = malloc(SLOT_CHUNK * sizeof **b->chunks)))
      oom_exit(); /* the selection itself: nothing sensible to report without memory */
    b->nchunks++;
  }
  sl = &b->chunks[i / SLOT_CHUNK][i % SLOT_CHUNK];
  memset(sl, 0, sizeof *sl);
  f = &sl->f;
  if (l->members)
    sl->member = l->members[l->count - 1];
  f->path = l->paths[l->count - 1]; /* the slot's from here: one copy less on the walk */
  l->paths[l->count - 1] = NULL;
  f->format = "unknown";
  atomic_store(&b->published, i + 1); /* the slot, filled, is the workers' from here */
  /* Waking a worker costs the walk a system call: one every 8 files keeps enough of them busy
   * (a woken one takes slots until none is left), and when all sleep each file wakes one. A
   * worker that went to sleep before this store is seen here as waiting (both sequentially
   * consistent), so none sleeps past a file published for it. */
  asleep = atomic_load(&b->waiting);
  if (asleep && (asleep == b->workers - 1 || i % 8 == 7)) {
    pthread_mutex_lock(&b->lock);
    pthread_cond_signal(&b->more);
    pthread_mutex_unlock(&b->lock);
  }
}

/* The next published slot for this worker (its index in *at), or NULL once the walk is done and
 * none is left. */
static struct slot *slot_take(struct batch_run *b, size_t *at)
{
  for (;;) {
    size_t i = atomic_load(&b->taken);
    int done;
    while (i < atomic_load(&b->published))
      if (atomic_compare_exchange_weak(&b->taken, &i, i + 1)) {
        *at = i;
        return &b->chunks[i / SLOT_CHUNK][i % SLOT_CHUNK];
      }
    pthread_mutex_lock(&b->lock);
    atomic_fetch_add(&b->waiting, 1);
    while (atomic_load(&b->taken) >= atomic_load(&b->published) && !b->walk_done)
      pthread_cond_wait(&b->more, &b->lock);
    atomic_fetch_sub(&b->waiting, 1);
    done = b->walk_done && atomic_load(&b->taken) >= atomic_load(&b->published);
    pthread_mutex_unlock(&b->lock);
    if (done)
      return NULL;
  }
}

/* Copy a validated slot into the report's array: by the worker that validated it when the array
 * exists by then, else by the thread that allocates the array. Whichever moves the slot from
 * SLOT_VALIDATED to SLOT_COPIED copies it; a worker stores SLOT_VALIDATED before it looks for
 * the array and the allocating thread publishes the array before it looks at the slots (all
 * sequentially consistent), so one of the two always sees the other and the slot is copied
 * exactly once. */
static void slot_copy(struct report_file *files, struct slot *sl, size_t i)
{
  int validated = SLOT_VALIDATED;
  if (files && atomic_compare_exchange_strong(&sl->state, &validated, SLOT_COPIED))
    files[i] = sl->f;
}

/* Validate published slots until the walk is done and none is left. */
static void *first_round_worker(void *arg)
{
  struct batch_run *b = arg;
  struct archive_reader reader = {0}; /* kept open while members of one archive follow */
  struct slot *sl;
  size_t i;
  while ((sl = slot_take(b, &i)) != NULL) {
    if (sl->member.arch_len)
      validate_member(b, &sl->f, &sl->member, &reader);
    else
      validate_one(b, &sl->f);
    atomic_store(&sl->state, SLOT_VALIDATED);
    slot_copy(atomic_load(&b->files), sl, i);
    progress_note(b, atomic_fetch_add(&b->done, 1) + 1);
  }
  archive_reader_close(&reader);
  return NULL;
}

/* The report's array, allocated once the walk is done (the number of files known) while the
 * workers still validate; the slots validated by then are copied into it here, the others by
 * their workers: the serial end of a batch copies nothing (40,000 files: 11 of its 32 ms on
 * 16 cores). */
static void report_files_ready(struct batch_run *b, struct report *rep)
{
  size_t n = atomic_load(&b->published);
  rep->files = malloc((n ? n : 1) * sizeof *rep->files);
  if (!rep->files)
    oom_exit();
  atomic_store(&b->files, rep->files);
  for (size_t i = 0; i < n; i++)
    slot_copy(rep->files, &b->chunks[i / SLOT_CHUNK][i % SLOT_CHUNK], i);
}

/* The slots, all validated and copied, become the report's files in selection order. */
static void slots_to_report(struct batch_run *b, struct report *rep)
{
  size_t n = atomic_load(&b->published);
  for (size_t i = 0; i < n; i++) /* none is left by the protocol above; a guard costs nothing */
    slot_copy(rep->files, &b->chunks[i / SLOT_CHUNK][i % SLOT_CHUNK], i);
  rep->nfiles = rep->capfiles = n;
  for (size_t c = 0; c < b->nchunks; c++)
    free(b->chunks[c]);
  free(b->chunks);
  b->chunks = NULL;
  b->nchunks = 0;
}

/* Later rounds (external eggs the models name): files already in the report from index next. */
static void *worker(void *arg)
{
  struct batch_run *b = arg;
  size_t n = b->rep->nfiles;
  for (;;) {
    size_t i = atomic_fetch_add(&b->next, 1);
    if (i >= n)
      break;
    validate_one(b, &b->rep->files[i]);
    progress_note(b, atomic_fetch_add(&b->done, 1) + 1);
  }
  return NULL;
}

static unsigned start_threads(pthread_t *threads, unsigned jobs, void *(*fn)(void *), void *arg)
{
  unsigned started = 0;
  if (jobs > 64)
    jobs = 64;
  for (unsigned i = 1; i < jobs; i++)
    if (pthread_create(&threads[started], NULL, fn, arg) == 0)
      started++;
  return started;
}

static void join_threads(struct batch_run *b, pthread_t *threads, unsigned started)
{
  for (unsigned i = 0; i < started; i++)
    pthread_join(threads[i], NULL);
  if (atomic_load(&b->progress))
    fputc('\n', stderr);
}

static void run_parallel(struct batch_run *b, unsigned jobs)
{
  pthread_t threads[64];
  unsigned started;
  if (jobs > b->rep->nfiles)
    jobs = (unsigned)b->rep->nfiles;
  started = start_threads(threads, jobs, worker, b);
  worker(b);
  join_threads(b, threads, started);
}

int cmd_validate(struct cli *c)
{
  struct report rep;
  struct file_list files = {0};
  struct batch_run b;
  struct baseline *base = NULL;
  pthread_t threads[64];
  unsigned jobs = c->jobs ? c->jobs : 1, started = 0;
  int rc = EXIT_VALID, io = 0, empty = 0;
  FILE *out;

  if (c->nargs < 1) {
    if (c->output_path) /* `mdlcheck -o report.txt`: the only file named became the report's */
      text_printf(stderr, "mdlcheck: no input files (-o took '%s' as the report's FILE; "
              "write -o REPORT FILE...)\n", c->output_path);
    else
      fputs("mdlcheck: no input files\n", stderr);
    fputs("(try 'mdlcheck --help')\n", stderr);
    return EXIT_USAGE;
  }
  if (c->baseline_path) {
    char why[600];
    int too_large = 0;
    if (!(base = baseline_load(c->baseline_path, c->lib.max_input_size, &too_large, why, sizeof why))) {
      text_printf(stderr, "mdlcheck: cannot use baseline: %s\n", why);
      return too_large ? EXIT_IO : EXIT_USAGE;
    }
  }
  memset(&b, 0, sizeof b);
  b.cli = c;
  b.rep = &rep;
  if (c->cache_dir) {
    char why[600];
    /* a cache is a speed-up: without it every file is still validated, so the run goes on */
    if (!(b.cache = cache_open(c->cache_dir, c->cache_max ? c->cache_max : CACHE_DEFAULT_MAX, why,
                               sizeof why)))
      fprintf(stderr, "mdlcheck: warning: no result cache this run: %s\n", why);
    else {
      cli_cache_settings(c, b.cache);
      cache_ready(b.cache);
    }
  }
  if (!(b.chunks = calloc(SLOT_CHUNKS_MAX, sizeof *b.chunks)))
    oom_exit();
  pthread_mutex_init(&b.lock, NULL);
  pthread_cond_init(&b.more, NULL);
  report_init(&rep);
  rep.fail_on = c->fail_on;
  rep.targets = c->lib.targets;
  /* --shard ranks the whole selection before keeping its share: no file is published before */
  files.follow_links = c->follow_links;
  if (!c->shard_n) {
    files.added = slot_publish;
    files.added_ctx = &b;
  }
  if (jobs > 1)
    started = start_threads(threads, jobs, first_round_worker, &b);
  b.workers = started + 1; /* read by the walk (this thread) alone */
  for (int i = 0; i < c->nargs; i++) {
    size_t count = files.count, skipped = files.skipped;
    int kind = file_list_add(&files, c->args[i]);
    /* an argument that selects nothing is a run that checks nothing: say what was found */
    if (kind < 0)
      text_printf(stderr, "mdlcheck: no file matches %s\n", c->args[i]);
    else if (kind > 0 && files.count == count)
      text_printf(stderr, "mdlcheck: no model files under %s; %zu other file%s skipped\n", c->args[i],
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
      text_printf(stderr, "mdlcheck: shard %u/%u: no file (the selection has %zu, fewer than %u "
              "shares)\n", c->shard_k, c->shard_n, total, c->shard_n);
    else if (c->verbose)
      text_printf(stderr, "mdlcheck: shard %u/%u: %zu of %zu file%s\n", c->shard_k, c->shard_n,
              files.count, total, plural_s(total));
    for (size_t i = 0; i < files.count; i++) {
      size_t n = files.count;
      files.count = i + 1; /* slot_publish takes the list's last path */
      slot_publish(&files, &b);
      files.count = n;
    }
  }
  rep.skipped = files.skipped;
  pthread_mutex_lock(&b.lock);
  b.walk_done = 1;
  atomic_store(&b.total, atomic_load(&b.published));
  atomic_store(&b.progress, atomic_load(&b.published) > 32 && isatty(STDERR_FILENO));
  pthread_cond_broadcast(&b.more);
  pthread_mutex_unlock(&b.lock);
  file_list_drop_selection(&files);
  report_files_ready(&b, &rep);
  first_round_worker(&b);
  join_threads(&b, threads, started);
  slots_to_report(&b, &rep);
  cli_report_whole(&rep);
  /* links the walks did not follow: inputs that were not checked (rule 1), each reported */
  for (size_t i = 0; i < files.noutside; i++)
    report_link_outside(cli_add_file(&rep, files.outside[i]));
  atomic_store(&b.next, rep.nfiles);
  atomic_store(&b.done, rep.nfiles);
  /* external eggs the models name are inputs of their own, each validated once: rounds until a
   * round names no file not yet in the report (so cycles end) */
  while (c->lib.resources) {
    size_t from = rep.nfiles;
    if (externals_queue(&rep, files.elsewhere, files.nelsewhere) == 0)
      break;
    atomic_store(&b.next, from);
    atomic_store(&b.done, from);
    atomic_store(&b.total, rep.nfiles);
    run_parallel(&b, c->jobs ? c->jobs : 1);
    cli_report_whole(&rep);
  }
  file_list_free(&files);
  pthread_mutex_destroy(&b.lock);
  pthread_cond_destroy(&b.more);
  if (c->unreferenced)
    unreferenced_list(&rep, c->args, c->nargs);
  cli_report_whole(&rep);
  if (base) {
    baseline_apply(base, &rep);
    /* A baseline that matched no input accepted nothing, so the verdict stands on every
     * diagnostic and stays honest; but the user meant it to apply: say so. No exit 2: a run
     * over a subset (the pre-commit hook's staged files) legitimately misses it. */
    if (rep.nfiles && !baseline_files_matched(base)) {
      text_printf(stderr, "mdlcheck: warning: baseline %s records %zu file%s, none of them among the "
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
    cache_close(b.cache, 0);
    return EXIT_IO;
  }
  cli_report(c, out, &rep);
  cli_close_output(c, out);
  report_free(&rep);
  if (cache_close(b.cache, c->verbose) < 0)
    fprintf(stderr, "mdlcheck: warning: cache %s could not be kept under its size bound\n", c->cache_dir);
  if (atomic_load(&b.internal_error))
    return EXIT_INTERNAL;
  if (empty && !c->allow_empty)
    return EXIT_USAGE;
  return io ? EXIT_IO : rc;
}
