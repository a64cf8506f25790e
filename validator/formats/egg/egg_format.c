/* egg_format.c - PLACEHOLDER registration: the egg checker is being written. Until then a
 * recognised file gets MDL-FMT-003 (an error), never a silent pass. */
#include <string.h>

#include "format.h"

static const char *const egg_extensions[] = {".egg", ".egg.pz", ".pz", NULL};

static int egg_detect(const unsigned char *data, size_t size)
{
  (void)data; (void)size; return 0;
}

static int egg_decode(struct decode_ctx *ctx, struct model *m)
{
  struct mdl_loc loc = loc_bin(0, NULL);
  (void)m;
  diag_emit(ctx->diag, RULE_CORE_FORMAT_NOT_CHECKED, &loc, NULL, "%s", "egg");
  return -1;
}

const struct mdl_format egg_format = {
  "egg", "Panda3D Egg (text, .egg.pz zlib)", egg_extensions, egg_detect, egg_decode, NULL
};
