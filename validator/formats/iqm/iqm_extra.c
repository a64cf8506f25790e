/* iqm_extra.c - the comment (R35) and the extension list (R36); both are kept on the model so
 * that an IQM written back carries them. */
#include <stdio.h>
#include <string.h>

#include "iqm.h"

void iqm_comment_check(struct iqm *q)
{
  const unsigned char *c = iqm_section_data(q, S_COMMENT);
  uint32_t n = HV(q, H_NUM_COMMENT);
  if (!c)
    return;
  q->m->comment = c;
  q->m->comment_size = n;
  if (c[n - 1] != 0) {
    struct mdl_loc loc = loc_bin(q->sec[S_COMMENT].ofs + n - 1, "comment[%u]", n - 1);
    diag_emit(q->diag, RULE_IQM_COMMENT_TERMINATED, &loc, "0 (NUL)", "0x%02x", c[n - 1]);
  }
}

/* Walk exactly num_extensions nodes; a node outside the file, unaligned or seen before ends
 * the walk (a list walker would crash or loop there). */
void iqm_extensions_check(struct iqm *q)
{
  uint32_t n = HV(q, H_NUM_EXTENSIONS);
  uint64_t ofs = HV(q, H_OFS_EXTENSIONS), field = H_OFS_EXTENSIONS;
  unsigned char *seen;
  uint32_t keep;
  char path[48];

  if (n == 0) {
    if (ofs != 0) {
      struct mdl_loc loc = loc_bin(H_OFS_EXTENSIONS, "header.ofs_extensions");
      diag_emit(q->diag, RULE_IQM_EMPTY_OFFSET, &loc, "ofs 0 for an empty section",
                "ofs_extensions %llu with num_extensions 0", (unsigned long long)ofs);
    }
    return;
  }
  /* one bit per 4-byte position: a revisit is found in O(1), the walk is bounded by the file */
  seen = arena_calloc(&q->m->arena, q->size / 32 + 1, 1);
  /* the nodes kept for writers: at most one per 16 bytes of file, whatever num_extensions says
   * (overlapping nodes of a hostile file beyond that are checked, not kept) */
  keep = n < q->size / 16 ? n : (uint32_t)(q->size / 16) + 1;
  q->m->extensions = arena_calloc(&q->m->arena, keep, sizeof *q->m->extensions);
  if (!seen || !q->m->extensions)
    return;
  snprintf(path, sizeof path, "header.ofs_extensions");
  for (uint32_t i = 0; i < n; i++) {
    const unsigned char *node;
    const char *name;
    uint32_t num_data, ofs_data;
    struct mdl_loc loc = loc_bin(field, "%s", path);
    if (ofs % 4) {
      diag_emit(q->diag, RULE_IQM_EXTENSION_ALIGN, &loc, "a multiple of 4", "%llu", (unsigned long long)ofs);
      return;
    }
    if (i == 0 && ofs == 0) {
      /* a count with a null list: the count is the likelier culprit */
      struct mdl_loc nl = loc_bin(H_NUM_EXTENSIONS, "header.num_extensions");
      diag_emit(q->diag, RULE_IQM_EXTENSION_NODE, &nl, "0 (ofs_extensions is 0)", "%u", n);
      return;
    }
    if (ofs < IQM_HEADER_SIZE || !reader_has(q->in, ofs, 16)) {
      char expected[64];
      snprintf(expected, sizeof expected, "a 16-byte node in [124, %llu)", (unsigned long long)q->size);
      diag_emit(q->diag, RULE_IQM_EXTENSION_NODE, &loc, expected, "extensions[%u] at %llu", i,
                (unsigned long long)ofs);
      return;
    }
    if (seen[ofs / 32] >> (ofs / 4 % 8) & 1) {
      diag_emit(q->diag, RULE_IQM_EXTENSION_CYCLE, &loc, "a node not visited before",
                "extensions[%u] at %llu", i, (unsigned long long)ofs);
      return;
    }
    seen[ofs / 32] |= (unsigned char)(1u << (ofs / 4 % 8));
    node = reader_ptr(q->in, ofs, 16);
    name = iqm_string(q, le32(node), ofs, "extensions[%u].name", i);
    num_data = le32(node + 4);
    ofs_data = le32(node + 8);
    if (q->m->num_extensions < keep &&
        (num_data == 0 || (ofs_data >= IQM_HEADER_SIZE && reader_has(q->in, ofs_data, num_data)))) {
      struct model_extension *x = &q->m->extensions[q->m->num_extensions++];
      x->name = name;
      x->size = num_data;
      x->data = num_data ? reader_ptr(q->in, ofs_data, num_data) : NULL;
    }
    if (num_data > 0) {
      if (ofs_data % 4) {
        struct mdl_loc dl = loc_bin(ofs + 8, "extensions[%u].ofs_data", i);
        diag_emit(q->diag, RULE_IQM_EXTENSION_ALIGN, &dl, "a multiple of 4", "%u", ofs_data);
      }
      if (ofs_data < IQM_HEADER_SIZE || !reader_has(q->in, ofs_data, num_data)) {
        int count_bad = num_data > q->size;
        struct mdl_loc dl = loc_bin(ofs + (count_bad ? 4 : 8), "extensions[%u].%s", i,
                                    count_bad ? "num_data" : "ofs_data");
        char expected[64];
        snprintf(expected, sizeof expected, "inside [124, %llu)", (unsigned long long)q->size);
        diag_emit(q->diag, RULE_IQM_EXTENSION_DATA, &dl, expected, "[%u, %llu)", ofs_data,
                  (unsigned long long)ofs_data + num_data);
      }
    }
    field = ofs + 12;
    snprintf(path, sizeof path, "extensions[%u].ofs_extensions", i);
    ofs = le32(node + 12);
  }
  if (ofs != 0) {
    struct mdl_loc loc = loc_bin(field, "%s", path);
    diag_emit(q->diag, RULE_IQM_EXTENSION_END, &loc, "0 (the last node)", "%llu", (unsigned long long)ofs);
  }
  if (q->m->num_extensions && q->m->num_unheld < MODEL_UNHELD_MAX) {
    /* only the IQM writer carries them: a writer of another format announces them (CORE 4.13) */
    struct model_unheld *u = &q->m->unheld[q->m->num_unheld++];
    const char *first = q->m->extensions[0].name ? q->m->extensions[0].name : "";
    memset(u, 0, sizeof *u);
    u->rule = RULE_CORE_CONVERT_EXTENSIONS;
    u->count = q->m->num_extensions;
    snprintf(u->what, sizeof u->what, "%u IQM extensions (the first: '%.40s', %u bytes) are dropped",
             (unsigned)q->m->num_extensions, first, (unsigned)q->m->extensions[0].size);
  }
}
