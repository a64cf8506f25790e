/* cache.h - validation results kept by the SHA-256 of what decides them (--cache DIR). */
#ifndef MDL_CACHE_H
#define MDL_CACHE_H

#include <stddef.h>

#include "mdlcheck.h"
#include "report.h"

/* What an entry's key covers, so that a stored answer is only ever given to the same question:
 * the bytes of the file and its name (detection and .pz read it); the program and the library
 * that answer, by the SHA-256 of their own files (any rebuild is a new cache, not only a new
 * version number); every option of the run that can change a file's diagnostics, as written;
 * the bytes of the configuration file and of an X42 layout file. Runs with --resources, standard
 * input and unreadable files are never cached: their answer depends on more than these. */
struct cache;

/* The bound of a cache directory when neither --cache-max-size nor the configuration sets one. */
#define CACHE_DEFAULT_MAX (256ULL << 20)

/* Open (create) the cache in dir for a run whose answer-changing settings are given by `put`
 * calls the caller makes through cache_setting before the first lookup. Return NULL with why. */
struct cache *cache_open(const char *dir, unsigned long long max_bytes, char *why, size_t cap);
/* Add one setting (an option and its value, or a file's content) to the run's fingerprint. */
void cache_setting(struct cache *k, const char *name, const void *value, size_t len);
/* The file `path` (its bytes data..size) as the run's options validate it: from the cache when
 * an entry for exactly these inputs exists (its diagnostics collected into f, in their order,
 * and its result set), else validated with `o` and stored. Returns what mdl_validate_buffer
 * returns (MDL_OK on a hit). Safe from several threads. */
mdl_status cache_validate(struct cache *k, const char *path, const unsigned char *data, size_t size,
                          const mdl_options *o, struct report_file *f);
/* Keep the cache under its size bound (oldest entries first), report the run's hits and misses
 * on stderr when verbose, and free k. Return -1 when the directory could not be trimmed. */
int cache_close(struct cache *k, int verbose);

#endif
