/* zip_load_test.c - the loader of libzip's functions: a library that does not load, and one
 * that lacks the functions, each give -1 and a reason naming it (the archive is then a fatal
 * MDL-IO-001, exit 3, never read as empty); the library configure found loads, and its table
 * works (a missing archive is ZIP_ER_NOENT). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "zip_load.h"

static int failures;

static void expect(int ok, const char *what)
{
  if (!ok) {
    fprintf(stderr, "FAIL: %s\n", what);
    failures++;
  }
}

/* A name that must not load: -1, a reason that names it, and no pointer filled in. */
static void refused(const char *soname, const char *reason)
{
  struct zip_fns t;
  char why[512] = "";
  memset(&t, 0, sizeof t);
  expect(zip_fns_load(&t, soname, why, sizeof why) == -1, soname);
  expect(strstr(why, soname) != NULL && strstr(why, reason) != NULL, why);
  printf("%s: %s\n", soname, why);
}

int main(void)
{
  struct zip_fns t;
  const struct zip_fns *shared;
  char why[512] = "";
  int err = 0;
  refused("libmdlcheck-no-such-zip.so.4", "could not be loaded");
#ifdef MDL_ZIP_SONAME
  refused("libc.so.6", "has no zip_open"); /* loads, but is no libzip */
  expect(zip_fns_load(&t, MDL_ZIP_SONAME, why, sizeof why) == 0, why);
#else
  expect(zip_fns_load(&t, "libzip (linked in)", why, sizeof why) == 0, why);
#endif
  expect(t.zip_open("/nonexistent/mdlcheck.pk3", ZIP_RDONLY, &err) == NULL && err == ZIP_ER_NOENT,
         "the loaded zip_open reports a missing archive");
  shared = zip_fns(why, sizeof why);
  expect(shared != NULL && shared == zip_fns(NULL, 0), "zip_fns loads once and keeps the table");
  if (shared)
    expect(shared->zip_fread != NULL && shared->zip_error_fini != NULL, "every function is resolved");
  return failures ? 1 : 0;
}
