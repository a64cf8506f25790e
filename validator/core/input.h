/* input.h - bring a file's bytes into memory once: mapped when it is a regular file,
 * read otherwise (pipes, stdin), never more than a caller's limit. */
#ifndef MDL_INPUT_H
#define MDL_INPUT_H

#include <stddef.h>

#include "mdlcheck.h"

struct mdl_input {
  const unsigned char *data;
  size_t size;
  void *owned;  /* malloc'd copy, or NULL */
  void *mapped; /* mmap'd region, or NULL */
  size_t mapped_size;
};

/* path "-" reads standard input. An input longer than max_size bytes (0: the default limit) is
 * refused with EFBIG: a regular file by its size, a pipe or device once max_size + 1 bytes
 * have arrived, so an endless stream stops. Return 0, or an errno value. */
int input_open(const char *path, struct mdl_input *in, unsigned long long max_size);
/* input_open for the files a run is configured by rather than the models it checks (the
 * configuration, a baseline, a report for diff): only a regular file is read, also behind a
 * link. Anything else (a FIFO, a device, a socket, a directory) is refused at once without
 * blocking: a committed FIFO named mdlcheck.yaml must not hang a CI job. Read into memory (no
 * mapping), at most max_size bytes (0: the default limit). Return 0, an errno value (EFBIG),
 * or a negative INPUT_NOT_REGULAR code that input_error_text names. */
int input_open_regular(const char *path, struct mdl_input *in, unsigned long long max_size);
#define INPUT_NOT_REGULAR(err) ((err) < 0)
void input_close(struct mdl_input *in);
/* Hold the input in memory of its own rather than a mapping of the file (a file about to be
 * written over while its model is in use): 0, or ENOMEM. */
int input_own(struct mdl_input *in);
/* The bytes will not be read for a while (a command decoded them and decodes another text
 * before it compares): a mapping's pages are given back to the system, which reads them from
 * the file again when they are next touched (the mapping is read-only: nothing is lost).
 * Bytes held in memory of their own stay as they are. */
void input_idle(struct mdl_input *in);

/* The limit options ask for: max_input_size, or MDL_DEFAULT_MAX_INPUT_SIZE when 0 or NULL. */
unsigned long long input_limit(const mdl_options *options);
/* Parse a size such as "1048576", "512K", "512M", "1G", "2GiB" (binary multiples, case-insensitive
 * suffix). Return 0, or -1 when s is not such a size or is 0 or overflows. */
int input_limit_parse(const char *s, unsigned long long *out);
/* The text the zlib or gzip stream data..size inflates to (core/inflate.c, stb_image's bounded
 * decoder: the inflater of a build without zlib, the WebAssembly one), in *text (malloc'd, the
 * caller frees it; a zero byte follows the text) and *len, and in *consumed how many bytes of data the stream took (size:
 * all). 0; -1 with why when the stream does not inflate or its checksum does not hold; -2 out
 * of memory; -3 when the text is longer than stop bytes (no text). */
int input_inflate(const unsigned char *data, size_t size, size_t stop, unsigned char **text,
                  size_t *len, size_t *consumed, const char **why);
/* Refuse an input over options' size limit as mdl_validate_file does (the fatal MDL-IO-002
 * through options->on_diag, its count in result): for a host that read the input itself (a
 * member of an archive) and found it too large. */
void input_refuse(const mdl_options *options, mdl_result *result);
/* Why input_open or input_open_regular failed, for a message: the size limit for EFBIG, the kind
 * of file for a non-regular one, else strerror. */
const char *input_error_text(int err, unsigned long long max_size, char *buf, size_t cap);

#endif
