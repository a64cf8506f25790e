/* egg_rt_test.c - round trip of the egg tree: parse, write canonically, parse again; the two
 * trees must be equal, the written text must have no error, and writing the second tree must
 * give the same bytes (the writer is canonical). Usage: egg_rt_test FILE... */
#include <stdio.h>
#include <string.h>

#include "egg.h"
#include "input.h"
#include "pipeline.h"

static int decode(const void *data, size_t size, struct pipeline_run *run)
{
  mdl_options o;
  mdl_options_init(&o);
  o.assume_format = "egg";
  /* keep_frames: the tree keeps every value (validation alone keeps only counts of some) */
  if (pipeline_decode(data, size, "x.egg", &o, 1, run) != MDL_OK || !run->decoded)
    return -1;
  return 0;
}

static int round_trip(const char *path)
{
  struct mdl_input in;
  struct pipeline_run a, b;
  struct byte_buf w1, w2;
  const struct egg_private *pa, *pb;
  char why[256];
  int rc = 1;
  if (input_open(path, &in, 0)) {
    fprintf(stderr, "%s: cannot read\n", path);
    return 1;
  }
  buf_init(&w1);
  buf_init(&w2);
  if (decode(in.data, in.size, &a) < 0) {
    fprintf(stderr, "%s: FAIL: not decoded\n", path);
    pipeline_release(&a);
    goto out_in;
  }
  pa = a.model.format_data;
  if (egg_write(&a.model, NULL, &w1) < 0) {
    fprintf(stderr, "%s: FAIL: writer: %s\n", path, w1.error);
    goto out_a;
  }
  if (decode(w1.data, w1.size, &b) < 0 || b.result.counts[MDL_ERROR] || b.result.counts[MDL_FATAL]) {
    fprintf(stderr, "%s: FAIL: the written text has errors\n", path);
    goto out_b;
  }
  pb = b.model.format_data;
  if (!egg_tree_equal(pa->root, pb->root, why, sizeof why)) {
    fprintf(stderr, "%s: FAIL: trees differ: %s\n", path, why);
    goto out_b;
  }
  if (egg_write(&b.model, NULL, &w2) < 0 || w1.size != w2.size ||
      (w1.size && memcmp(w1.data, w2.data, w1.size))) {
    fprintf(stderr, "%s: FAIL: writing the re-read tree gives different text\n", path);
    goto out_b;
  }
  printf("%s: round trip ok (%zu bytes written)\n", path, w1.size);
  rc = 0;
out_b:
  pipeline_release(&b);
out_a:
  pipeline_release(&a);
out_in:
  buf_free(&w1);
  buf_free(&w2);
  input_close(&in);
  return rc;
}

int main(int argc, char **argv)
{
  int failed = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: egg_rt_test FILE...\n");
    return 99;
  }
  if (egg_kw_selftest() < 0) {
    fprintf(stderr, "FAIL: a keyword spelling does not look up to its keyword\n");
    return 1;
  }
  for (int i = 1; i < argc; i++)
    failed += round_trip(argv[i]);
  return failed ? 1 : 0;
}
