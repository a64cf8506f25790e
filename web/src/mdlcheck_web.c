/* mdlcheck_web.c - what the WebAssembly module adds to the library for its JavaScript: the text
 * a compressed input inflates to, for the page's source view (the library's own inflater, as
 * .egg.pz validates with), the registry's description of the formats, and the options table's
 * key for a JS option name. */
#include <emscripten/emscripten.h>
#include <stddef.h>
#include <stdlib.h>

#include "api_settings.h"
#include "format.h"
#include "input.h"
#include "json_write.h"
#include "settings.h"

/* exported to the JS (api.js), which is their only caller */
unsigned char *mdl_web_inflate(const unsigned char *data, size_t size, size_t stop, size_t *len);
char *mdl_web_formats_json(void);
const char *mdl_web_setting_key(const char *js);

/* The registry's description of every format (name, description, extensions, up axis) as a
 * JSON array, for a face that must know which files are models without naming any format (the
 * page's drop); NULL when out of memory. */
EMSCRIPTEN_KEEPALIVE char *mdl_web_formats_json(void)
{
  struct api_text t;
  struct json_writer w;
  if (!api_text_open(&t))
    return NULL;
  json_init(&w, t.out, 0);
  json_array_begin(&w);
  for (const struct mdl_format *const *f = mdl_format_table; *f; f++) {
    json_object_begin(&w);
    json_kv_string(&w, "name", (*f)->name);
    json_kv_string(&w, "description", (*f)->description);
    json_key(&w, "extensions");
    json_array_begin(&w);
    for (const char *const *e = (*f)->extensions; e && *e; e++)
      json_write_string(&w, *e);
    json_array_end(&w);
    json_kv_string(&w, "up_axis", (*f)->up_axis ? (*f)->up_axis : "z");
    json_object_end(&w);
  }
  json_array_end(&w);
  return api_text_close(&t, json_end(&w) != 0);
}

/* The text of the zlib or gzip stream data..size, at most stop bytes (malloc'd, *len bytes; the
 * caller frees it), or NULL when it does not inflate (the report says why). */
EMSCRIPTEN_KEEPALIVE unsigned char *mdl_web_inflate(const unsigned char *data, size_t size, size_t stop,
                                                    size_t *len)
{
  unsigned char *text = NULL;
  size_t consumed;
  const char *why;
  *len = 0;
  if (input_inflate(data, size, stop, &text, len, &consumed, &why) < 0)
    return NULL;
  return text;
}

/* The library's key=value name of a JavaScript option (options.def's js column), or NULL when
 * the table has no such option (the JS refuses it): no list of options lives in the JS. */
EMSCRIPTEN_KEEPALIVE const char *mdl_web_setting_key(const char *js)
{
  const struct setting_def *d = setting_by_js(js);
  return d ? d->key : NULL;
}
