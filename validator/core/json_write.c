/* json_write.c - streaming JSON output. */
#include "json_write.h"
#include "num_format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_init(struct json_writer *w, FILE *out, int pretty)
{
  memset(w, 0, sizeof *w);
  w->out = out;
  w->pretty = pretty;
}

static void indent(struct json_writer *w)
{
  if (!w->pretty)
    return;
  fputc('\n', w->out);
  for (int i = 0; i < w->depth; i++)
    fputs("  ", w->out);
}

/* Separator and indentation before a value or key at the current depth. */
static void before_item(struct json_writer *w)
{
  if (w->after_key) {
    w->after_key = 0;
    return;
  }
  if (w->depth > 0) {
    if (w->count[w->depth]++)
      fputc(',', w->out);
    indent(w);
  }
}

static void container_open(struct json_writer *w, char c)
{
  before_item(w);
  fputc(c, w->out);
  if (w->depth + 1 < JSON_MAX_DEPTH)
    w->depth++;
  else
    w->misuse = 1;
  w->count[w->depth] = 0;
}

static void container_close(struct json_writer *w, char c)
{
  int had = w->count[w->depth];
  if (w->depth > 0)
    w->depth--;
  else
    w->misuse = 1;
  if (had)
    indent(w);
  fputc(c, w->out);
}

void json_object_begin(struct json_writer *w) { container_open(w, '{'); }
void json_object_end(struct json_writer *w) { container_close(w, '}'); }
void json_array_begin(struct json_writer *w) { container_open(w, '['); }
void json_array_end(struct json_writer *w) { container_close(w, ']'); }

/* Length of the well-formed UTF-8 sequence starting at p (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF), or 0 when ill-formed. p[0] >= 0x80. */
static size_t utf8_sequence(const unsigned char *p)
{
  size_t len;
  unsigned lo = 0x80, hi = 0xbf;
  if (p[0] >= 0xc2 && p[0] <= 0xdf)
    len = 2;
  else if (p[0] >= 0xe0 && p[0] <= 0xef)
    len = 3;
  else if (p[0] >= 0xf0 && p[0] <= 0xf4)
    len = 4;
  else
    return 0;
  if (p[0] == 0xe0)
    lo = 0xa0;
  else if (p[0] == 0xed)
    hi = 0x9f;
  else if (p[0] == 0xf0)
    lo = 0x90;
  else if (p[0] == 0xf4)
    hi = 0x8f;
  if (p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < len; i++) /* a NUL stops here too: it is not a continuation byte */
    if (p[i] < 0x80 || p[i] > 0xbf)
      return 0;
  return len;
}

static void put_string(FILE *out, const char *s)
{
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p >= 0x80) {
      size_t len = utf8_sequence(p);
      if (len) {
        fwrite(p, 1, len, out);
        p += len - 1;
      } else {
        fputs("\\ufffd", out); /* one replacement per ill-formed byte */
      }
      continue;
    }
    switch (*p) {
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    case '\n': fputs("\\n", out); break;
    case '\r': fputs("\\r", out); break;
    case '\t': fputs("\\t", out); break;
    default:
      if (*p < 0x20 || *p == 0x7f)
        fprintf(out, "\\u%04x", *p);
      else
        fputc(*p, out);
    }
  }
  fputc('"', out);
}

void json_key(struct json_writer *w, const char *key)
{
  before_item(w);
  put_string(w->out, key);
  fputs(w->pretty ? ": " : ":", w->out);
  w->after_key = 1;
}

void json_write_string(struct json_writer *w, const char *s)
{
  before_item(w);
  put_string(w->out, s);
}

void json_int(struct json_writer *w, long long v)
{
  before_item(w);
  fprintf(w->out, "%lld", v);
}

void json_uint(struct json_writer *w, unsigned long long v)
{
  before_item(w);
  fprintf(w->out, "%llu", v);
}

void json_double(struct json_writer *w, double v)
{
  char tmp[NUM_FORMAT_MAX];
  before_item(w);
  if (!isfinite(v)) {
    fputs("null", w->out);
    return;
  }
  /* the shortest digits that read back, laid out plainly up to 17 digits: 30, not 3e+01 */
  num_format_shortest(tmp, v, 17);
  fputs(tmp, w->out);
}

void json_bool(struct json_writer *w, int v)
{
  before_item(w);
  fputs(v ? "true" : "false", w->out);
}

void json_write_null(struct json_writer *w)
{
  before_item(w);
  fputs("null", w->out);
}

int json_end(struct json_writer *w)
{
  fputc('\n', w->out);
  return w->misuse || w->depth != 0 || ferror(w->out) ? -1 : 0;
}

void json_kv_string(struct json_writer *w, const char *key, const char *s) { json_key(w, key); json_write_string(w, s); }
void json_kv_int(struct json_writer *w, const char *key, long long v) { json_key(w, key); json_int(w, v); }
void json_kv_uint(struct json_writer *w, const char *key, unsigned long long v) { json_key(w, key); json_uint(w, v); }
void json_kv_double(struct json_writer *w, const char *key, double v) { json_key(w, key); json_double(w, v); }
void json_kv_bool(struct json_writer *w, const char *key, int v) { json_key(w, key); json_bool(w, v); }
