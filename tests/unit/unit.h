/* unit.h - what every check suite under tests/unit shares. */
#ifndef MDL_UNIT_H
#define MDL_UNIT_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* Run one suite; the exit status is what Automake's test driver expects. */
static inline int unit_run(Suite *s)
{
  SRunner *sr = srunner_create(s);
  int failed;
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Everything a test wrote to a memory stream, NUL-terminated; the caller frees it. */
struct unit_capture {
  FILE *f;
  char *buf;
  size_t len;
};

static inline FILE *unit_capture_begin(struct unit_capture *c)
{
  c->buf = NULL;
  c->len = 0;
  c->f = open_memstream(&c->buf, &c->len);
  ck_assert_ptr_nonnull(c->f);
  return c->f;
}

static inline char *unit_capture_end(struct unit_capture *c)
{
  ck_assert_int_eq(fclose(c->f), 0);
  return c->buf;
}

#endif
