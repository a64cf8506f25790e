/* api_alloc_fail.c - fail each allocation of every public entry point in turn, in one process:
 * the library must answer each time (MDL_ENOMEM, or a report carrying the fatal MDL-MEM-001,
 * or exactly the normal answer when the failure was recovered) and never end the process, which
 * the CLI's suite (alloc-fail.sh) cannot tell from the tool's own exit 70.
 *
 * Usage: api_alloc_fail [EXAMPLES_DIR] (default $srcdir/examples). Above ALLOC_FAIL_ALL (200)
 * allocations a scenario fails the first 100, the last 50 and 50 in between, as alloc-fail.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_fail.h"
#include "mdlcheck.h"

static const char *dir;
static unsigned failures, runs;

static char *path_of(const char *name)
{
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s/%s", dir, name);
  return buf;
}

static unsigned char *slurp(const char *name, size_t *n)
{
  FILE *f = fopen(path_of(name), "rb");
  unsigned char *b = NULL;
  long len;
  if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
      !(b = malloc((size_t)len + 1)) || fread(b, 1, (size_t)len, f) != (size_t)len) {
    fprintf(stderr, "api_alloc_fail: cannot read %s\n", path_of(name));
    exit(99);
  }
  fclose(f);
  *n = (size_t)len;
  return b;
}

/* One call of an entry point: text (or NULL), status, error text. */
struct answer {
  char *text;
  mdl_status status;
  char error[4096];
};

typedef void (*call_fn)(const void *arg, struct answer *a);

static void answer_free(struct answer *a)
{
  mdl_string_free(a->text);
  a->text = NULL;
}

/* The answer says memory ran out: MDL-MEM-001, or a fatal (a decoder's MDL-IO-001, convert's
 * MDL-IO-003 for OUT) or note whose reason is memory. */
static int says_oom(const struct answer *a)
{
  return (a->text && (strstr(a->text, "MDL-MEM-001") || strstr(a->text, "out of memory"))) ||
         strstr(a->error, "MDL-MEM-001") || strstr(a->error, "out of memory") ||
         strstr(a->error, "Cannot allocate memory");
}

/* Why the answer under a failed allocation is wrong, or NULL. */
static const char *judge(const struct answer *normal, const struct answer *got)
{
  if (got->status == MDL_ENOMEM)
    return got->text ? "MDL_ENOMEM with text" : NULL;
  if (says_oom(got))
    return NULL;
  if (got->status != normal->status)
    return "another status, without MDL_ENOMEM or MDL-MEM-001";
  if (!normal->text != !got->text || (got->text && strcmp(normal->text, got->text)))
    return "another answer, without MDL_ENOMEM or MDL-MEM-001";
  if (strcmp(normal->error, got->error))
    return "another error text, without MDL_ENOMEM or MDL-MEM-001";
  return NULL; /* recovered: exactly the normal answer */
}

static void scenario(const char *name, call_fn call, const void *arg)
{
  struct answer normal, got;
  unsigned long count, head, tail, stride = 1, n = 1, bad = 0, done = 0;
  memset(&normal, 0, sizeof normal);
  alloc_fail_arm(0);
  call(arg, &normal);
  count = alloc_fail_count();
  if (normal.status != MDL_OK && normal.status != MDL_EDECODE) {
    fprintf(stderr, "FAIL: %s: the normal call returns %d: %s\n", name, normal.status, normal.error);
    failures++;
    answer_free(&normal);
    return;
  }
  head = tail = count;
  if (count > 200) {
    head = 100;
    tail = count - 50;
    stride = (tail - head) / 50 + 1;
  }
  while (n <= count) {
    const char *why;
    memset(&got, 0, sizeof got);
    alloc_fail_arm(n);
    call(arg, &got);
    alloc_fail_arm(0);
    done++;
    if ((why = judge(&normal, &got)) != NULL) {
      if (++bad <= 3)
        fprintf(stderr, "FAIL: %s: allocation %lu of %lu failed: %s (status %d)\n", name, n, count,
                why, got.status);
    }
    answer_free(&got);
    if (n < head || n >= tail)
      n++;
    else if ((n += stride) > tail)
      n = tail;
  }
  runs += done;
  printf("%s: %lu allocations, %lu runs, %lu failed\n", name, count, done, bad);
  failures += bad != 0;
  answer_free(&normal);
}

/* --- the entry points ---------------------------------------------------------------------- */

struct file_call {
  const char *a, *b;
  const char *const *settings;
  const unsigned char *data; /* a's bytes, read before the scenario (not counted) */
  size_t size;
};

static void validate_file(const void *arg, struct answer *x)
{
  const struct file_call *c = arg;
  x->text = mdl_validate_file_json(path_of(c->a), c->settings, &x->status, x->error, sizeof x->error);
}

static void validate_buffer(const void *arg, struct answer *x)
{
  const struct file_call *c = arg;
  x->text = mdl_validate_buffer_json(c->data, c->size, c->a, c->settings, &x->status, x->error,
                                     sizeof x->error);
}

static void poses_file(const void *arg, struct answer *x)
{
  const struct file_call *c = arg;
  x->text = mdl_poses_file_json(path_of(c->a), c->settings, &x->status, x->error, sizeof x->error);
}

static void model_file(const void *arg, struct answer *x)
{
  const struct file_call *c = arg;
  x->text = mdl_model_file_json(path_of(c->a), c->settings, &x->status, x->error, sizeof x->error);
}

static void compare_files(const void *arg, struct answer *x)
{
  const struct file_call *c = arg;
  char a[4096];
  snprintf(a, sizeof a, "%s", path_of(c->a));
  x->text = mdl_compare_files_json(a, path_of(c->b), c->settings, &x->status, x->error, sizeof x->error);
}

/* A conversion in memory: the answer is the report, the notes and the bytes (their size and a
 * checksum, after the notes in the error text). b is the target format. */
static void convert_buffer(const void *arg, struct answer *x)
{
  const struct file_call *c = arg;
  void *out = NULL;
  size_t n = 0, k;
  unsigned long sum = 0;
  x->text = mdl_convert_buffer_json(c->data, c->size, c->a, c->b, c->settings, &out, &n, &x->status,
                                    x->error, sizeof x->error);
  for (size_t i = 0; i < n; i++)
    sum = sum * 31 + ((const unsigned char *)out)[i];
  k = strlen(x->error);
  snprintf(x->error + k, sizeof x->error - k, "\n%s %zu bytes, sum %lx", out ? "held" : "none", n, sum);
  mdl_bytes_free(out);
}

/* A conversion to a file in a fresh folder (b: OUT's name in it). */
static const char *out_dir;

static void convert_file(const void *arg, struct answer *x)
{
  const struct file_call *c = arg;
  char in[4096], out[4096];
  snprintf(in, sizeof in, "%s", path_of(c->a));
  snprintf(out, sizeof out, "%s/%s", out_dir, c->b);
  x->text = mdl_convert_file_json(in, out, c->settings, &x->status, x->error, sizeof x->error);
  remove(out);
}

static void rules(const void *arg, struct answer *x)
{
  (void)arg;
  x->text = mdl_rules_json();
  x->status = x->text ? MDL_OK : MDL_ENOMEM;
}

/* The C entry point with a policy: the answer is the diagnostics seen, as text. */
struct collected {
  char text[8192];
  size_t n;
};

static void collect(const mdl_diag *d, void *user)
{
  struct collected *c = user;
  int k = snprintf(c->text + c->n, sizeof c->text - c->n, "%s %s %s\n", d->rule->id,
                   mdl_severity_name(d->severity), d->message);
  if (k > 0 && (size_t)k < sizeof c->text - c->n)
    c->n += (size_t)k;
}

static void validate_policy(const void *arg, struct answer *x)
{
  const struct file_call *c = arg;
  struct collected seen = {"", 0};
  mdl_policy *p = mdl_policy_new();
  mdl_options o;
  mdl_result r;
  if (!p) {
    x->status = MDL_ENOMEM;
    return;
  }
  if (mdl_policy_ignore(p, "IQE-NUM-*") == -2 || mdl_policy_override(p, "MDL-*", MDL_INFO) == -2) {
    x->status = MDL_ENOMEM;
    mdl_policy_free(p);
    return;
  }
  mdl_options_init(&o);
  o.policy = p;
  o.on_diag = collect;
  o.user = &seen;
  o.max_per_rule = 2;
  mdl_result_init(&r);
  x->status = mdl_validate_file(path_of(c->a), &o, &r);
  mdl_policy_free(p);
  if (x->status == MDL_OK) {
    size_t k = strlen(seen.text);
    snprintf(seen.text + k, sizeof seen.text - k, "format %s, %lu errors\n", r.format,
             r.counts[MDL_ERROR]);
    x->text = strdup(seen.text);
    if (!x->text)
      x->status = MDL_ENOMEM; /* the test's own copy; counted, so judged as the library's */
  }
}

int main(int argc, char **argv)
{
  static const char *const json_settings[] = {"max_per_rule=1", "profile=engine", NULL};
  static const char *const fail_warn[] = {"fail_on=warning", NULL};
  static const char *const examples[] = {"walk.iqm", "broken-parent.iqm", "skinned.iqe", "broken.iqe",
                                         "dancer.egg", "broken.egg", "crate.qmsh", "walker.x42"};
  char *env = getenv("srcdir"), buf[4096];
  if (argc > 1)
    dir = argv[1];
  else {
    snprintf(buf, sizeof buf, "%s/examples", env ? env : ".");
    dir = buf;
  }
  dir = strdup(dir);
  for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
    struct file_call c = {examples[i], NULL, NULL, NULL, 0};
    unsigned char *data = slurp(examples[i], &c.size);
    char name[128];
    c.data = data;
    snprintf(name, sizeof name, "mdl_validate_file_json %s", examples[i]);
    scenario(name, validate_file, &c);
    snprintf(name, sizeof name, "mdl_validate_buffer_json %s", examples[i]);
    scenario(name, validate_buffer, &c);
    free(data);
    snprintf(name, sizeof name, "mdl_validate_file (policy) %s", examples[i]);
    scenario(name, validate_policy, &c);
  }
  {
    struct file_call c = {"broken.iqe", NULL, json_settings, NULL, 0};
    scenario("mdl_validate_file_json broken.iqe (settings)", validate_file, &c);
  }
  {
    static const char *const poses[] = {"walk.iqm", "skinned.iqe", "dancer.egg", "crate.qmsh",
                                        "walker.x42", "broken.egg"};
    for (size_t i = 0; i < sizeof poses / sizeof poses[0]; i++) {
      struct file_call c = {poses[i], NULL, NULL, NULL, 0};
      char name[128];
      snprintf(name, sizeof name, "mdl_poses_file_json %s", poses[i]);
      scenario(name, poses_file, &c);
      snprintf(name, sizeof name, "mdl_model_file_json %s", poses[i]);
      scenario(name, model_file, &c);
    }
  }
  {
    struct file_call c1 = {"walk.iqm", "walk.iqm", NULL, NULL, 0},
                     c2 = {"skinned.iqe", "skinned.iqe", NULL, NULL, 0},
                     c3 = {"walker.x42", "crate.qmsh", fail_warn, NULL, 0},
                     c4 = {"dancer.egg", "dancer.egg", NULL, NULL, 0};
    scenario("mdl_compare_files_json walk.iqm walk.iqm", compare_files, &c1);
    scenario("mdl_compare_files_json skinned.iqe skinned.iqe", compare_files, &c2);
    scenario("mdl_compare_files_json walker.x42 crate.qmsh", compare_files, &c3);
    scenario("mdl_compare_files_json dancer.egg dancer.egg", compare_files, &c4);
  }
  {
    static const char *const accept[] = {"accept_loss=MDL-CNV-002", NULL};
    static const char *const convs[][3] = {{"walk.iqm", "egg", "accept"}, {"skinned.iqe", "iqm", ""},
                                           {"crate.qmsh", "iqm", ""}, {"dancer.egg", "x42", ""},
                                           {"walker.x42", "iqe", ""}, {"broken.egg", "iqe", ""},
                                           {"walk.iqm", "qmsh", ""}};
    char tmpl[] = "/tmp/mdl-oom-convert.XXXXXX";
    for (size_t i = 0; i < sizeof convs / sizeof convs[0]; i++) {
      struct file_call c = {convs[i][0], convs[i][1], *convs[i][2] ? accept : NULL, NULL, 0};
      unsigned char *data = slurp(convs[i][0], &c.size);
      char name[128];
      c.data = data;
      snprintf(name, sizeof name, "mdl_convert_buffer_json %s to %s", convs[i][0], convs[i][1]);
      scenario(name, convert_buffer, &c);
      free(data);
    }
    if ((out_dir = mkdtemp(tmpl)) != NULL) {
      struct file_call c1 = {"walk.iqm", "out.iqe", NULL, NULL, 0},
                       c2 = {"walk.iqm", "out.egg", accept, NULL, 0};
      scenario("mdl_convert_file_json walk.iqm out.iqe", convert_file, &c1);
      scenario("mdl_convert_file_json walk.iqm out.egg (accept_loss)", convert_file, &c2);
      remove(out_dir); /* empty: each call removed its file */
    } else {
      fprintf(stderr, "FAIL: no temporary folder for the conversions\n");
      failures++;
    }
  }
  scenario("mdl_rules_json", rules, NULL);
  printf("api_alloc_fail: %u runs, %u scenario%s failed\n", runs, failures, failures == 1 ? "" : "s");
  return failures ? 1 : 0;
}
