/* qmsh_format.c - PLACEHOLDER registration: the qmsh checker is being written. Until then a
 * recognised file gets MDL-FMT-003 (an error), never a silent pass. */
#include <string.h>

#include "format.h"

static const char *const qmsh_extensions[] = {".qmsh", NULL};

static int qmsh_detect(const unsigned char *data, size_t size)
{
  return size >= 4 && !memcmp(data, "QMSH", 4) ? 100 : 0;
}

static int qmsh_decode(struct decode_ctx *ctx, struct model *m)
{
  struct mdl_loc loc = loc_bin(0, NULL);
  (void)m;
  diag_emit(ctx->diag, RULE_CORE_FORMAT_NOT_CHECKED, &loc, NULL, "%s", "qmsh");
  return -1;
}

const struct mdl_format qmsh_format = {
  "qmsh", "CaRpg QMSH (binary)", qmsh_extensions, qmsh_detect, qmsh_decode, NULL
};
