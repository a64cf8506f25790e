/* x42_options.c - what X42 checks of the options before any file is read: the user's declared
 * layout (--x42-layout or $MDLCHECK_X42_LAYOUT) reads and parses, and the --profile names
 * (x42-NAME for every built-in layout and the user's). A typo there is a usage error at start,
 * not a fatal in each legacy file (and silence when no legacy file is given). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "input.h"
#include "x42.h"
#include "x42_profile.h"

#define LAYOUT_MAX_BYTES (1L << 20) /* as the decoder reads it (x42_legacy.c) */

char *x42_layout_read(const char *path, struct arena *a, size_t *len)
{
  struct mdl_input in;
  char *text = NULL;
  if (input_open_regular(path, &in, LAYOUT_MAX_BYTES - 1) != 0)
    return NULL;
  if ((text = arena_calloc(a, in.size + 1, 1)) != NULL) {
    memcpy(text, in.data, in.size);
    *len = in.size;
  }
  input_close(&in);
  return text;
}

static const char *user_layout(const mdl_options *o)
{
  const char *user = o ? o->layout_file : NULL; /* the library reads no environment */
  return user && *user ? user : NULL;
}

/* Parse the user's layout; its name ("" when none) lower-cased into name. 0, or -1 with err. */
static int user_layout_load(const mdl_options *o, char *name, size_t namecap, char *err, size_t errcap)
{
  const char *path = user_layout(o);
  struct arena a;
  struct x42_profile p;
  char why[200] = "";
  char *text;
  size_t len = 0;
  int rc = -1;

  *name = 0;
  if (!path)
    return 0;
  arena_init(&a);
  if ((text = x42_layout_read(path, &a, &len)) != NULL) {
    memset(&p, 0, sizeof p);
    if (x42_profile_parse(text, len, path, &a, &p, why, sizeof why) == 0) {
      size_t i = 0;
      for (; p.name && p.name[i] && i + 1 < namecap; i++)
        name[i] = (char)tolower((unsigned char)p.name[i]);
      name[i] = 0;
      rc = 0;
    } else {
      snprintf(err, errcap, "--x42-layout %s does not parse: %s", path, why);
    }
  } else {
    snprintf(err, errcap, "cannot read the --x42-layout file %s (missing, unreadable, not a regular file "
             "or over 1 MiB)", path);
  }
  arena_free(&a);
  return rc;
}

int x42_options_check(const mdl_options *o, char *err, size_t errcap)
{
  char name[64];
  return user_layout_load(o, name, sizeof name, err, errcap);
}

int x42_profile_at(const mdl_options *o, size_t i, char *buf, size_t cap)
{
  char user[64], err[8];
  size_t n = 0;
  while (x42_builtin_profile_names[n])
    n++;
  if (i < n) {
    snprintf(buf, cap, "x42-%s", x42_builtin_profile_names[i]);
    return 0;
  }
  /* after the built-in layouts, the user's declared one (read again: nothing is kept between
   * calls, so threads with other options never see it) */
  if (i == n && user_layout_load(o, user, sizeof user, err, sizeof err) == 0 && user[0]) {
    snprintf(buf, cap, "x42-%s", user);
    return 0;
  }
  return -1;
}
