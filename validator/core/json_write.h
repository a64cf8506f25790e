/* json_write.h - a small streaming JSON emitter (objects, arrays, escaped strings, numbers).
 * Strings are written as valid UTF-8 JSON whatever bytes they hold: ill-formed UTF-8 (names
 * taken from a hostile file, paths) becomes U+FFFD, control characters are escaped. */
#ifndef MDL_JSON_WRITE_H
#define MDL_JSON_WRITE_H

#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
  FILE *out;
  int pretty;
  int depth;
  int count[JSON_MAX_DEPTH]; /* members written at each depth */
  int after_key;
  int misuse; /* nesting beyond JSON_MAX_DEPTH or an unbalanced end: a bug in the caller */
};

void json_init(struct json_writer *w, FILE *out, int pretty);
void json_object_begin(struct json_writer *w);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w);
void json_array_end(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_write_string(struct json_writer *w, const char *s);
void json_int(struct json_writer *w, long long v);
void json_uint(struct json_writer *w, unsigned long long v);
/* Shortest text that reads back to the same double; non-finite values become null. */
void json_double(struct json_writer *w, double v);
void json_bool(struct json_writer *w, int v);
void json_write_null(struct json_writer *w);
/* Finish the document with a newline. Return 0, or -1 when the nesting was unbalanced or too
 * deep, or the stream reported an error. */
int json_end(struct json_writer *w);

/* key + value shorthands */
void json_kv_string(struct json_writer *w, const char *key, const char *s);
void json_kv_int(struct json_writer *w, const char *key, long long v);
void json_kv_uint(struct json_writer *w, const char *key, unsigned long long v);
void json_kv_double(struct json_writer *w, const char *key, double v);
void json_kv_bool(struct json_writer *w, const char *key, int v);

#endif
