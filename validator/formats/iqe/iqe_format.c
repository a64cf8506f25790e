/* iqe_format.c - PLACEHOLDER registration: the iqe checker is being written. Until then a
 * recognised file gets MDL-FMT-003 (an error), never a silent pass. */
#include <string.h>

#include "format.h"

static const char *const iqe_extensions[] = {".iqe", NULL};

static int iqe_detect(const unsigned char *data, size_t size)
{
  return size >= 20 && !memcmp(data, "# Inter-Quake Export", 20) ? 100 : 0;
}

static int iqe_decode(struct decode_ctx *ctx, struct model *m)
{
  struct mdl_loc loc = loc_bin(0, NULL);
  (void)m;
  diag_emit(ctx->diag, RULE_CORE_FORMAT_NOT_CHECKED, &loc, NULL, "%s", "iqe");
  return -1;
}

const struct mdl_format iqe_format = {
  "iqe", "Inter-Quake Export (text)", iqe_extensions, iqe_detect, iqe_decode, NULL
};
