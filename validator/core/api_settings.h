/* api_settings.h - what the JSON entry points share: the caller's "key=value" settings read into
 * options and a policy, errors written to the caller's buffer, and text built in memory. */
#ifndef MDL_API_SETTINGS_H
#define MDL_API_SETTINGS_H

#include <stdio.h>

#include "mdlcheck.h"

struct api_settings {
  mdl_options options;
  mdl_policy *policy;
  mdl_severity fail_on;
  char *targets; /* the target settings joined by ',' (options.targets), owned */
};

/* Read settings (NULL or NULL-terminated, as mdlcheck.h describes) over the CLI's defaults.
 * MDL_OK, MDL_EINVAL with a message in error (size bytes, may be NULL), or MDL_ENOMEM. Call
 * api_settings_free whatever it returns. */
mdl_status api_settings_parse(struct api_settings *st, const char *const *settings, char *error,
                              size_t size);
void api_settings_free(struct api_settings *st);

/* Write the message into error (size bytes, may be NULL) and return status. */
mdl_status api_error(char *error, size_t size, mdl_status status, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));

/* Text the library writes for its caller, built in memory. */
struct api_text {
  FILE *out;
  char *text;
  size_t len;
};

/* The stream to write to, or NULL when out of memory. */
FILE *api_text_open(struct api_text *t);
/* The text written (the caller releases it with mdl_string_free), or NULL, everything released,
 * when failed is non-zero or the stream could not be written. */
char *api_text_close(struct api_text *t, int failed);

#endif
