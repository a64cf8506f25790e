/* mdlcheck_web.c - what the WebAssembly module adds to the library for its JavaScript: the text
 * an .egg.pz inflated to in JS (this build has no zlib), handed over before each validation, and
 * the CLI's size syntax for the bound JS inflates under. */
#include <emscripten/emscripten.h>
#include <stddef.h>

#include "input.h"
#include "settings.h"

/* exported to the JS (api.js), which is their only caller */
void mdl_web_inflated(const unsigned char *text, size_t len, size_t consumed, const char *why);
double mdl_web_size_parse(const char *s);
const char *mdl_web_setting_key(const char *js);

static struct {
  int set;
  const unsigned char *text;
  size_t len, consumed;
  const char *why;
} pending;

/* JS calls this before validating an .egg.pz: text (len bytes, at most the bound + 1) and the
 * compressed bytes the stream took (input_host_inflate), or NULL with why (the inflater's error);
 * mdl_web_inflated(NULL, 0, 0, NULL) after, so nothing is reused. */
EMSCRIPTEN_KEEPALIVE void mdl_web_inflated(const unsigned char *text, size_t len, size_t consumed,
                                           const char *why)
{
  pending.set = text || why;
  pending.text = text;
  pending.len = len;
  pending.consumed = consumed;
  pending.why = why;
}

int input_host_inflate(const unsigned char *data, size_t size, size_t stop, const unsigned char **text,
                       size_t *len, size_t *consumed, const char **why)
{
  (void)data;
  *text = NULL;
  *len = 0;
  *consumed = size;
  if (!pending.set) {
    *why = "nothing inflated this .egg.pz: its text was not read";
    return -1;
  }
  if (!pending.text) {
    *why = pending.why;
    return -1;
  }
  *text = pending.text;
  *len = pending.len < stop ? pending.len : stop;
  *consumed = pending.consumed;
  return 0;
}

/* --max-input-size's syntax ("512M"): the bound in bytes, or 0 when s is no size. */
EMSCRIPTEN_KEEPALIVE double mdl_web_size_parse(const char *s)
{
  unsigned long long v;
  return input_limit_parse(s, &v) < 0 ? 0 : (double)v;
}

/* The library's key=value name of a JavaScript option (options.def's js column), or NULL when
 * the table has no such option (the JS refuses it): no list of options lives in the JS. */
EMSCRIPTEN_KEEPALIVE const char *mdl_web_setting_key(const char *js)
{
  const struct setting_def *d = setting_by_js(js);
  return d ? d->key : NULL;
}
