/* case_input.c - build a model's bytes (the case's input or its compare input): a file, a base
 * file with patches, text or hex.
 *
 * Patches never grow the data by writing past its end (only `append` does), so a patch
 * whose offset went stale after a base file changed fails loudly instead of padding. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"

int case_read_file(struct conf_case *c, int line, const char *rel, unsigned char **data,
                   size_t *size)
{
  char *path;
  FILE *fp;
  unsigned char *b = NULL;
  size_t n = 0, cap = 0;
  size_t need = strlen(c->dir) + strlen(rel) + 2;

  path = malloc(need);
  if (!path)
    return -1;
  if (rel[0] == '/')
    snprintf(path, need, "%s", rel);
  else
    snprintf(path, need, "%s/%s", c->dir, rel);
  fp = fopen(path, "rb");
  if (!fp) {
    case_error(c, line, "cannot open input '%s': %s", path, strerror(errno));
    free(path);
    return -1;
  }
  for (;;) {
    size_t got;
    if (n == cap) {
      unsigned char *nb;
      cap = cap ? cap * 2 : 65536;
      nb = realloc(b, cap);
      if (!nb) {
        fprintf(stderr, "case_run: out of memory\n");
        exit(99);
      }
      b = nb;
    }
    got = fread(b + n, 1, cap - n, fp);
    n += got;
    if (got == 0)
      break;
  }
  if (ferror(fp)) {
    case_error(c, line, "cannot read input '%s'", path);
    fclose(fp);
    free(path);
    free(b);
    return -1;
  }
  fclose(fp);
  free(path);
  *data = b;
  *size = n;
  return 0;
}

static void put_le(unsigned char *p, uint64_t v, size_t width)
{
  for (size_t i = 0; i < width; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static int apply_patch(struct conf_case *c, const struct case_patch *p, unsigned char **data,
                       size_t *size)
{
  static const size_t widths[] = {1, 2, 4, 4, 4, 8};
  uint64_t v = 0;
  size_t width;

  switch (p->kind) {
  case PATCH_TRUNCATE:
    if ((uint64_t)p->ival > *size) {
      case_error(c, p->line, "bad patch: truncate to %lld bytes, but the data has only %zu",
                 (long long)p->ival, *size);
      return -1;
    }
    *size = (size_t)p->ival;
    return 0;
  case PATCH_APPEND: {
    unsigned char *nb = realloc(*data, *size + p->nbytes + 1);
    if (!nb) {
      fprintf(stderr, "case_run: out of memory\n");
      exit(99);
    }
    if (p->nbytes)
      memcpy(nb + *size, p->bytes, p->nbytes);
    *data = nb;
    *size += p->nbytes;
    return 0;
  }
  case PATCH_HEX:
    width = p->nbytes;
    break;
  default:
    width = widths[p->kind];
    break;
  }
  if (p->at > *size || width > *size - p->at) {
    case_error(c, p->line, "bad patch: %zu bytes at offset %llu lie past the end of the data "
               "(%zu bytes)", width, (unsigned long long)p->at, *size);
    return -1;
  }
  switch (p->kind) {
  case PATCH_U8:
  case PATCH_U16:
  case PATCH_U32:
  case PATCH_I32:
    if (p->value_is_size) {
      uint64_t limit = p->kind == PATCH_U8 ? 0xff : p->kind == PATCH_U16 ? 0xffff
                     : p->kind == PATCH_U32 ? 0xffffffffu : 0x7fffffff;
      if ((uint64_t)*size > limit) {
        case_error(c, p->line, "bad patch: size %zu does not fit the field", *size);
        return -1;
      }
      v = (uint64_t)*size;
    } else {
      v = (uint64_t)p->ival; /* two's complement for i32: the low 32 bits are written */
    }
    put_le(*data + p->at, v, width);
    break;
  case PATCH_F32: {
    float f = (float)p->fval;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    put_le(*data + p->at, bits, 4);
    break;
  }
  case PATCH_F64: {
    uint64_t bits;
    memcpy(&bits, &p->fval, sizeof bits);
    put_le(*data + p->at, bits, 8);
    break;
  }
  case PATCH_HEX:
    if (width)
      memcpy(*data + p->at, p->bytes, width);
    break;
  default:
    break;
  }
  return 0;
}

int case_build_input(struct conf_case *c, const struct case_source *src, unsigned char **data,
                     size_t *size)
{
  *data = NULL;
  *size = 0;
  switch (src->kind) {
  case INPUT_FILE:
  case INPUT_BASE:
    if (case_read_file(c, src->line, src->path, data, size) < 0)
      return -1;
    break;
  case INPUT_TEXT:
    *data = malloc(src->text_len + 1);
    if (!*data)
      return -1;
    memcpy(*data, src->text, src->text_len);
    *size = src->text_len;
    break;
  case INPUT_HEX:
    if (hex_decode(src->text, data, size) < 0) {
      case_error(c, src->line, "hex: not hex bytes");
      return -1;
    }
    break;
  case INPUT_MISSING:
    case_error(c, src->line, "a missing input has no bytes");
    return -1;
  case INPUT_NONE:
    return -1;
  }
  for (size_t i = 0; i < src->npatches; i++)
    if (apply_patch(c, &src->patches[i], data, size) < 0) {
      free(*data);
      *data = NULL;
      return -1;
    }
  return 0;
}
