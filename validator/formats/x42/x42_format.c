/* x42_format.c - PLACEHOLDER registration: the x42 checker is being written. Until then a
 * recognised file gets MDL-FMT-003 (an error), never a silent pass. */
#include <string.h>

#include "format.h"

static const char *const x42_extensions[] = {".x42", NULL};

static int x42_detect(const unsigned char *data, size_t size)
{
  (void)data; (void)size; return 0;
}

static int x42_decode(struct decode_ctx *ctx, struct model *m)
{
  struct mdl_loc loc = loc_bin(0, NULL);
  (void)m;
  diag_emit(ctx->diag, RULE_CORE_FORMAT_NOT_CHECKED, &loc, NULL, "%s", "x42");
  return -1;
}

const struct mdl_format x42_format = {
  "x42", "X42 skeletal model (binary)", x42_extensions, x42_detect, x42_decode, NULL
};
