/* iqm_format.c - PLACEHOLDER registration; the IQM decoder is being written. */
#include <string.h>

#include "format.h"

static const char *const iqm_extensions[] = {".iqm", NULL};

static int iqm_detect(const unsigned char *data, size_t size)
{
  if (size >= 15 && !memcmp(data, "INTERQUAKEMODEL", 15))
    return 100;
  return 0;
}

static int iqm_decode(struct decode_ctx *ctx, struct model *m)
{
  (void)m;
  strcpy(ctx->version, "2");
  return 0;
}

const struct mdl_format iqm_format = {
  "iqm", "Inter-Quake Model (binary)", iqm_extensions, iqm_detect, iqm_decode, NULL
};
