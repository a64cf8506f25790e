/* zip_load.h - the libzip functions the archive code calls, through a table loaded at the first
 * archive (so that a run without one does not load libzip, libcrypto and libbz2 at startup). */
#ifndef MDL_ZIP_LOAD_H
#define MDL_ZIP_LOAD_H

#include <stddef.h>
#include <zip.h>

/* Every function archive.c calls: name, return type, parameters, as zip.h declares them (each is
 * redeclared through its typedef in zip_load.c, so a prototype that differs does not compile). */
#define ZIP_LOAD_FUNCTIONS(F)                                                                \
  F(zip_open, zip_t *, (const char *, int, int *))                                           \
  F(zip_discard, void, (zip_t *))                                                            \
  F(zip_get_num_entries, zip_int64_t, (zip_t *, zip_flags_t))                                \
  F(zip_get_name, const char *, (zip_t *, zip_uint64_t, zip_flags_t))                        \
  F(zip_name_locate, zip_int64_t, (zip_t *, const char *, zip_flags_t))                      \
  F(zip_stat_init, void, (zip_stat_t *))                                                     \
  F(zip_stat_index, int, (zip_t *, zip_uint64_t, zip_flags_t, zip_stat_t *))                 \
  F(zip_fopen_index, zip_file_t *, (zip_t *, zip_uint64_t, zip_flags_t))                     \
  F(zip_fread, zip_int64_t, (zip_file_t *, void *, zip_uint64_t))                            \
  F(zip_fclose, int, (zip_file_t *))                                                         \
  F(zip_strerror, const char *, (zip_t *))                                                   \
  F(zip_file_strerror, const char *, (zip_file_t *))                                         \
  F(zip_error_init_with_code, void, (zip_error_t *, int))                                    \
  F(zip_error_strerror, const char *, (zip_error_t *))                                       \
  F(zip_error_fini, void, (zip_error_t *))

#define ZIP_LOAD_TYPEDEF(name, ret, args) typedef ret name##_fn args;
ZIP_LOAD_FUNCTIONS(ZIP_LOAD_TYPEDEF)
#undef ZIP_LOAD_TYPEDEF

struct zip_fns {
#define ZIP_LOAD_MEMBER(name, ret, args) name##_fn *name;
  ZIP_LOAD_FUNCTIONS(ZIP_LOAD_MEMBER)
#undef ZIP_LOAD_MEMBER
};

/* The table, loaded once for the process (thread-safe); NULL with why when the library cannot be
 * loaded or lacks a function: the archive cannot be read (MDL-IO-001, exit 3). */
const struct zip_fns *zip_fns(char *why, size_t cap);

/* Fill *t from the shared library soname: 0, or -1 with why (zip_fns's step, and the unit test's
 * way to a name that does not load). Without dlopen (a static build) only MDL_ZIP_SONAME is
 * known: the linked functions. */
int zip_fns_load(struct zip_fns *t, const char *soname, char *why, size_t cap);

#endif
