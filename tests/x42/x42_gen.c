/* x42_gen.c - writes the X42 corpus base files (corpus/x42/base) with the V5 writer and the
 * legacy profile writer. usage: x42_gen OUTDIR [legacy] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "x42_models.h"
#include "x42_legacy.h"

static int save(const char *dir, const char *name, const struct byte_buf *b)
{
  char path[1024];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "wb");
  if (!f || fwrite(b->data, 1, b->size, f) != b->size) {
    perror(path);
    if (f)
      fclose(f);
    return -1;
  }
  printf("%s: %zu bytes\n", path, b->size);
  return fclose(f);
}

static int write_doc(const char *dir, const char *name,
                     int (*make)(struct arena *, struct x42_doc *, char *, size_t), int big)
{
  struct arena a;
  struct x42_doc d;
  struct byte_buf b;
  unsigned char *swapped = NULL;
  int rc;
  arena_init(&a);
  buf_init(&b);
  rc = make(&a, &d, b.error, sizeof b.error);
  if (rc == 0)
    rc = x42_doc_encode(&d, &b);
  if (rc == 0 && big) /* the same file in the byte order the engine swaps on load */
    x42_swap_v5(b.data, swapped = malloc(b.size ? b.size : 1), b.size, 0);
  if (rc == 0 && big && !swapped)
    rc = -1, snprintf(b.error, sizeof b.error, "out of memory");
  if (rc == 0 && big)
    memcpy(b.data, swapped, b.size);
  free(swapped);
  if (rc == 0)
    rc = save(dir, name, &b);
  else
    fprintf(stderr, "x42_gen: %s: %s\n", name, b.error);
  buf_free(&b);
  arena_free(&a);
  return rc;
}

int main(int argc, char **argv)
{
  int rc = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: x42_gen OUTDIR [legacy]\n");
    return 2;
  }
  rc |= write_doc(argv[1], "anim.x42", x42_doc_animated, 0);
  rc |= write_doc(argv[1], "anim-be.x42", x42_doc_animated, 1);
  rc |= write_doc(argv[1], "anim-tags.x42", x42_doc_tagged, 0);
  rc |= write_doc(argv[1], "anim-lods.x42", x42_doc_lods, 0);
  rc |= write_doc(argv[1], "static.x42", x42_doc_static, 0);
  rc |= write_doc(argv[1], "empty.x42", x42_doc_empty, 0);
  if (argc > 2 && !strcmp(argv[2], "legacy"))
    rc |= x42_legacy_generate(argv[1]);
  return rc ? 1 : 0;
}
