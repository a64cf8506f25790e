/* input.h - bring a file's bytes into memory once: mapped when it is a regular file,
 * read otherwise (pipes, stdin). */
#ifndef MDL_INPUT_H
#define MDL_INPUT_H

#include <stddef.h>

struct mdl_input {
  const unsigned char *data;
  size_t size;
  void *owned;  /* malloc'd copy, or NULL */
  void *mapped; /* mmap'd region, or NULL */
  size_t mapped_size;
};

/* path "-" reads standard input. Return 0, or an errno value. */
int input_open(const char *path, struct mdl_input *in);
void input_close(struct mdl_input *in);

#endif
