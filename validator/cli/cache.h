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
/* The stat index, for files of the file system (not archive members, not standard input): a
 * second run over a file whose stat is exactly as when it was indexed reuses its entry without
 * reading or hashing the file again. Sound because a file is indexed only when (1) it was read
 * under a read lease (F_SETLEASE: granted only while no one holds the file open for writing or
 * mapped writable, and any open for writing waits until it is given back), so the bytes hashed
 * are the bytes of the stat taken under it; (2) its ctime was more than 2 s older than the read,
 * so the next change, which the kernel stamps with the current time, cannot leave ctime as it
 * was; (3) the file system is a local one whose ctime only the kernel sets and that stamps it
 * on the first write through each writable mapping (ext2/3/4, xfs, btrfs; not tmpfs, where a
 * mapping that read a page first writes it without a stamp; never a network or FUSE one); (4) this boot: the index names the boot id,
 * so a reboot (where clocks are set) starts it again. Every change of bytes after that goes
 * through an open for writing (each write(2) stamps ctime) or a new writable mapping, whose
 * first write to each page faults and stamps it; no user
 * can set ctime. What remains is root setting the clock back and writing the file within the same
 * clock tick as its indexed change - root, who can also write the cache. Files that fail any
 * condition are hashed each run, as before. Call cache_ready once the settings are given. */
void cache_ready(struct cache *k);
/* 1 when path's stat matches its index record: its entry replayed into f (a hit). */
int cache_stat_hit(struct cache *k, const char *path, struct report_file *f);
/* Read the regular file at path into memory (at most limit bytes; never mapped, so the hashed
 * bytes are the validated ones) and cache_validate it, indexing it when it may be (above). *done
 * 0 when it was not validated (unreadable, not regular, over limit, changing): the caller
 * validates it the usual way, which reports why. */
mdl_status cache_validate_path(struct cache *k, const char *path, unsigned long long limit,
                               const mdl_options *o, struct report_file *f, int *done);
/* Keep the cache under its size bound (oldest entries first), report the run's hits and misses
 * on stderr when verbose, and free k. Return -1 when the directory could not be trimmed. */
int cache_close(struct cache *k, int verbose);

#endif
