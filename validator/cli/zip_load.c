/* zip_load.c - libzip loaded with dlopen at the first archive, not at startup (issue 32); linked
 * in directly where configure was told --disable-zip-dlopen. */
#include "config.h"

#include "zip_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* zip.h's own prototypes, declared again through the table's types: a mismatch is an error */
#define ZIP_LOAD_REDECLARE(name, ret, args) name##_fn name;
ZIP_LOAD_FUNCTIONS(ZIP_LOAD_REDECLARE)
#undef ZIP_LOAD_REDECLARE

/* the name zip_fns loads: the SONAME configure found, or the functions linked in */
#ifdef MDL_ZIP_SONAME
#define ZIP_LOAD_NAME MDL_ZIP_SONAME
#else
#define ZIP_LOAD_NAME "libzip (linked in)"
#endif

int zip_fns_load(struct zip_fns *t, const char *soname, char *why, size_t cap)
{
#ifdef MDL_ZIP_SONAME
  const char *err;
  void *lib;
  dlerror();
  if (!(lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL))) {
    err = dlerror();
    /* the one thing the user can do about it: the package that ships the library */
    snprintf(why, cap, "the archive library %s could not be loaded (install libzip: on Debian, the libzip4 package): %s",
             soname, err ? err : "dlopen failed");
    return -1;
  }
  /* dlsym's object pointer becomes a function pointer by its bytes (POSIX guarantees they fit) */
#define ZIP_LOAD_SYMBOL(name, ret, args)                                                              \
  {                                                                                                   \
    void *sym = dlsym(lib, #name);                                                                    \
    if (!sym) {                                                                                       \
      snprintf(why, cap, "the archive library %s could not be loaded: it has no %s", soname, #name); \
      dlclose(lib);                                                                                   \
      return -1;                                                                                      \
    }                                                                                                 \
    memcpy(&t->name, &sym, sizeof sym);                                                               \
  }
  ZIP_LOAD_FUNCTIONS(ZIP_LOAD_SYMBOL)
#undef ZIP_LOAD_SYMBOL
  return 0; /* the library stays loaded for the process: the table points into it */
#else
  if (strcmp(soname, ZIP_LOAD_NAME)) {
    snprintf(why, cap, "the archive library %s could not be loaded: this build links libzip in", soname);
    return -1;
  }
#define ZIP_LOAD_LINKED(name, ret, args) t->name = name;
  ZIP_LOAD_FUNCTIONS(ZIP_LOAD_LINKED)
#undef ZIP_LOAD_LINKED
  return 0;
#endif
}

/* Loaded once for the process: the walk and every worker share it, and dlopen's cost is paid once. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct zip_fns table;
static int loaded;
static char failure[512];

static void load_once(void)
{
  loaded = zip_fns_load(&table, ZIP_LOAD_NAME, failure, sizeof failure) == 0;
}

const struct zip_fns *zip_fns(char *why, size_t cap)
{
  pthread_once(&once, load_once);
  if (loaded)
    return &table;
  if (why && cap)
    snprintf(why, cap, "%s", failure);
  return NULL;
}
