/* threads.c - the library's promise that one policy may serve several threads validating at once:
 * 8 threads validate every example, every sample and Eggs with misplaced keywords (their
 * messages name where the keyword may appear) at the same time, through the JSON entry points
 * (validate, poses) and the C entry point with one shared policy, and every answer must equal the
 * single-threaded one byte for byte. Built again with -fsanitize=thread (make check-tsan), where
 * any shared mutable state on these paths is a reported race even when the answers agree.
 *
 * Usage: threads EXAMPLES_DIR [SAMPLES_DIR]; a SAMPLES_DIR that does not exist is skipped with a
 * message (the samples are not in the repository). THREADS_ROUNDS (default 2): how many times
 * each thread goes over every input. */
#define _GNU_SOURCE /* asprintf */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mdlcheck.h"

#define THREADS 8

/* Eggs each with keywords where the grammar does not allow them (EGG-SYN placement): each
 * message lists where the keyword may appear, a different list for each keyword, built while
 * other threads build theirs. Each Egg repeats its misplaced keyword MISPLACED_REPEAT times. */
static const char *const misplaced_kw[] = {
  "<Joint> j { }", "<Table> t { }", "<UV> { 0 0 }", "<Scalar> s { 1 }", "<Bundle> b { }",
  "<Dart> { 1 } <Polygon> { }",
};
#define NMISPLACED_KW (sizeof misplaced_kw / sizeof misplaced_kw[0])
#define MISPLACED_REPEAT 1000
static char *misplaced[NMISPLACED_KW];

static void misplaced_build(void)
{
  for (size_t i = 0; i < NMISPLACED_KW; i++) {
    size_t cap = 64 + MISPLACED_REPEAT * (strlen(misplaced_kw[i]) + 40), n;
    char *t = malloc(cap);
    if (!t) {
      perror("threads");
      exit(99);
    }
    n = (size_t)snprintf(t, cap, "<CoordinateSystem> { Z-up }\n<Group> g {\n");
    for (unsigned k = 0; k < MISPLACED_REPEAT; k++)
      n += (size_t)snprintf(t + n, cap - n, "  <VertexPool> p%u { %s }\n", k, misplaced_kw[(i + k) % NMISPLACED_KW]);
    snprintf(t + n, cap - n, "}\n");
    misplaced[i] = t;
  }
}
#define NMISPLACED NMISPLACED_KW

struct input {
  char *path;            /* NULL: misplaced[index] as a buffer */
  size_t index;
  char *validate, *poses; /* the single-threaded answers */
  char *policy_seen;
};

static struct input *inputs;
static size_t ninputs, capinputs;
static mdl_policy *shared_policy;
static unsigned rounds = 2;

static void add_input(const char *path, size_t index)
{
  if (ninputs == capinputs) {
    capinputs = capinputs ? 2 * capinputs : 64;
    inputs = realloc(inputs, capinputs * sizeof *inputs);
    if (!inputs) {
      perror("threads");
      exit(99);
    }
  }
  memset(&inputs[ninputs], 0, sizeof *inputs);
  inputs[ninputs].path = path ? strdup(path) : NULL;
  inputs[ninputs].index = index;
  ninputs++;
}

static int is_model(const char *name)
{
  static const char *const ext[] = {".iqm", ".iqe", ".egg", ".egg.pz", ".pz", ".qmsh", ".x42"};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
    size_t k = strlen(ext[i]);
    if (n > k && !strcmp(name + n - k, ext[i]))
      return 1;
  }
  return 0;
}

static int by_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every model file under dir (one level of folders, as the samples are laid out), sorted. */
static size_t add_dir(const char *dir, int depth)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, added = 0;
  if (!d)
    return 0;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    names = realloc(names, (n + 1) * sizeof *names);
    if (!names || asprintf(&names[n], "%s/%s", dir, e->d_name) < 0) {
      perror("threads");
      exit(99);
    }
    n++;
  }
  closedir(d);
  if (n)
    qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode) && depth > 0)
      added += add_dir(names[i], depth - 1);
    else if (S_ISREG(st.st_mode) && is_model(names[i])) {
      add_input(names[i], 0);
      added++;
    }
    free(names[i]);
  }
  free(names);
  return added;
}

/* --- the three ways in, each answering text ------------------------------------------------ */

static char *validate_json(const struct input *in)
{
  static const char *const settings[] = {"max_per_rule=2", NULL};
  mdl_status st;
  char err[256] = "", *text;
  if (in->path)
    text = mdl_validate_file_json(in->path, settings, &st, err, sizeof err);
  else
    text = mdl_validate_buffer_json(misplaced[in->index], strlen(misplaced[in->index]), "misplaced.egg",
                                    settings, &st, err, sizeof err);
  if (!text) {
    char *e;
    if (asprintf(&e, "status %d: %s", st, err) < 0)
      return NULL;
    return e;
  }
  return text;
}

static char *poses_json(const struct input *in)
{
  mdl_status st;
  char err[2048] = "", *text, *e;
  if (in->path)
    text = mdl_poses_file_json(in->path, NULL, &st, err, sizeof err);
  else
    text = mdl_poses_buffer_json(misplaced[in->index], strlen(misplaced[in->index]), "misplaced.egg",
                                 NULL, &st, err, sizeof err);
  if (text)
    return text;
  /* a file that does not decode cleanly answers its diagnostics: compared as well */
  return asprintf(&e, "status %d: %s", st, err) < 0 ? NULL : e;
}

struct seen {
  char *text;
  size_t len, cap;
};

static void seen_add(const mdl_diag *d, void *user)
{
  struct seen *s = user;
  char line[1024];
  int n = snprintf(line, sizeof line, "%s %s %u:%u @%lld %s | %s | %s | %s | %lu\n", d->rule->id,
                   mdl_severity_name(d->severity), d->line, d->column, d->offset, d->path,
                   d->message, d->actual, d->expected, d->folded);
  if (n < 0)
    return;
  if ((size_t)n >= sizeof line)
    n = sizeof line - 1;
  if (s->len + (size_t)n + 1 > s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 4096;
    while (cap < s->len + (size_t)n + 1)
      cap *= 2;
    char *t = realloc(s->text, cap);
    if (!t)
      return;
    s->text = t;
    s->cap = cap;
  }
  memcpy(s->text + s->len, line, (size_t)n + 1);
  s->len += (size_t)n;
}

/* The C entry point, one policy shared by every thread. */
static char *validate_policy(const struct input *in)
{
  struct seen s = {NULL, 0, 0};
  mdl_options o;
  mdl_result r;
  mdl_status st;
  char *out;
  mdl_options_init(&o);
  mdl_result_init(&r);
  o.policy = shared_policy;
  o.on_diag = seen_add;
  o.user = &s;
  o.max_per_rule = 3;
  if (in->path)
    st = mdl_validate_file(in->path, &o, &r);
  else
    st = mdl_validate_buffer(misplaced[in->index], strlen(misplaced[in->index]), "misplaced.egg", &o, &r);
  if (asprintf(&out, "status %d format %s version %s counts %lu %lu %lu %lu %lu\n%s", st, r.format,
               r.version, r.counts[0], r.counts[1], r.counts[2], r.counts[3], r.counts[4],
               s.text ? s.text : "") < 0)
    out = NULL;
  free(s.text);
  return out;
}

/* --- the run ------------------------------------------------------------------------------- */

struct worker {
  pthread_t id;
  unsigned k;
  unsigned long mismatches, calls;
};

static const char *input_name(const struct input *in)
{
  static const char *const names[] = {"misplaced egg 1", "misplaced egg 2", "misplaced egg 3",
                                      "misplaced egg 4", "misplaced egg 5", "misplaced egg 6"};
  return in->path ? in->path : names[in->index % 6];
}

static void check(struct worker *w, const struct input *in, const char *what, const char *want,
                  char *got)
{
  w->calls++;
  if (!got || strcmp(want, got)) {
    if (w->mismatches++ < 3) {
      const char *a = want, *b = got ? got : "(null)";
      while (*a && *a == *b)
        a++, b++;
      fprintf(stderr, "FAIL: thread %u: %s of %s differs from the single-threaded answer:\n"
              "  expected ...%.160s\n  got      ...%.160s\n", w->k, what, input_name(in), a, b);
    }
  }
  free(got);
}

static pthread_barrier_t start;

static void *work(void *arg)
{
  struct worker *w = arg;
  /* first every thread on the misplaced-keyword Eggs at once, where messages are built from the
   * grammar most often, then every input */
  pthread_barrier_wait(&start);
  for (unsigned r = 0; r < 4; r++)
    for (size_t j = 0; j < NMISPLACED; j++) {
      const struct input *in = &inputs[ninputs - NMISPLACED + (j + w->k) % NMISPLACED];
      check(w, in, "validate (policy)", in->policy_seen, validate_policy(in));
    }
  for (unsigned r = 0; r < rounds; r++)
    for (size_t j = 0; j < ninputs; j++) {
      /* each thread starts elsewhere: different inputs decode at the same moment */
      const struct input *in = &inputs[(j + (size_t)w->k * 7 + r * 3) % ninputs];
      check(w, in, "validate (JSON)", in->validate, validate_json(in));
      check(w, in, "validate (policy)", in->policy_seen, validate_policy(in));
      check(w, in, "poses (JSON)", in->poses, poses_json(in));
    }
  return NULL;
}

int main(int argc, char **argv)
{
  struct worker w[THREADS];
  unsigned long mismatches = 0, calls = 0;
  size_t nexamples, nsamples = 0, placement = 0;
  const char *env = getenv("THREADS_ROUNDS");
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: threads EXAMPLES_DIR [SAMPLES_DIR]\n");
    return 99;
  }
  if (env && atoi(env) > 0)
    rounds = (unsigned)atoi(env);
  if ((nexamples = add_dir(argv[1], 0)) == 0) {
    fprintf(stderr, "threads: no model file in %s\n", argv[1]);
    return 99;
  }
  if (argc == 3) {
    struct stat st;
    if (stat(argv[2], &st) != 0)
      printf("threads: %s is absent: the samples are skipped\n", argv[2]);
    else
      nsamples = add_dir(argv[2], 1);
  }
  misplaced_build();
  for (size_t i = 0; i < NMISPLACED; i++)
    add_input(NULL, i);

  shared_policy = mdl_policy_new();
  if (!shared_policy || mdl_policy_ignore(shared_policy, "IQE-NUM-*") != 0 ||
      mdl_policy_override(shared_policy, "EGG-*", MDL_WARNING) != 0 ||
      mdl_policy_override(shared_policy, "MDL-RES-*", MDL_INFO) < -1) {
    fprintf(stderr, "threads: cannot build the policy\n");
    return 99;
  }
  /* the single-threaded answers */
  for (size_t i = 0; i < ninputs; i++) {
    inputs[i].validate = validate_json(&inputs[i]);
    inputs[i].poses = poses_json(&inputs[i]);
    inputs[i].policy_seen = validate_policy(&inputs[i]);
    if (!inputs[i].validate || !inputs[i].poses || !inputs[i].policy_seen) {
      fprintf(stderr, "threads: out of memory\n");
      return 99;
    }
    if (!inputs[i].path && strstr(inputs[i].validate, " may appear in "))
      placement++;
  }
  /* the Eggs must reach the message built from the grammar, or the test proves nothing */
  if (placement < NMISPLACED) {
    fprintf(stderr, "FAIL: only %zu of the %zu misplaced-keyword Eggs got a placement message\n",
            placement, (size_t)NMISPLACED);
    return 1;
  }
  if (pthread_barrier_init(&start, NULL, THREADS) != 0) {
    perror("threads: pthread_barrier_init");
    return 99;
  }
  for (unsigned k = 0; k < THREADS; k++) {
    memset(&w[k], 0, sizeof w[k]);
    w[k].k = k;
    if (pthread_create(&w[k].id, NULL, work, &w[k]) != 0) {
      perror("threads: pthread_create");
      return 99;
    }
  }
  for (unsigned k = 0; k < THREADS; k++) {
    pthread_join(w[k].id, NULL);
    mismatches += w[k].mismatches;
    calls += w[k].calls;
  }
  printf("threads: %u threads x %u rounds over %zu examples, %zu samples and %zu misplaced-keyword "
         "Eggs: %lu calls, %lu answers differ from the single-threaded ones\n", THREADS, rounds,
         nexamples, nsamples, (size_t)NMISPLACED, calls, mismatches);
  for (size_t i = 0; i < ninputs; i++) {
    free(inputs[i].path);
    free(inputs[i].validate);
    free(inputs[i].poses);
    free(inputs[i].policy_seen);
  }
  free(inputs);
  for (size_t i = 0; i < NMISPLACED; i++)
    free(misplaced[i]);
  mdl_policy_free(shared_policy);
  return mismatches ? 1 : 0;
}
