/* iqm_text.c - the string table (R9) and every reference into it (R10). */
#include <stdarg.h>
#include <stdio.h>

#include "iqm.h"

void iqm_text_read(struct iqm *q)
{
  const unsigned char *t = iqm_section_data(q, S_TEXT);
  uint32_t n = HV(q, H_NUM_TEXT);
  if (!t)
    return;
  q->text = t;
  q->text_len = n;
  q->text_terminated = t[n - 1] == 0;
}

void iqm_text_check(struct iqm *q)
{
  const unsigned char *t = q->text;
  uint32_t n = q->text_len;
  if (!t || !q->sec[S_TEXT].ok)
    return;
  /* a table that stops short of where the next section starts has a broken num_text */
  q->text_short = !iqm_anchored_end(q, q->sec[S_TEXT].ofs + n);
  if (t[0] != 0) {
    struct mdl_loc loc = loc_bin(q->sec[S_TEXT].ofs, "text[0]");
    diag_emit(q->diag, RULE_IQM_TEXT_FIRST_EMPTY, &loc, "0 (the empty string)", "0x%02x", t[0]);
  }
  if (!q->text_terminated) {
    int short_count = q->text_short;
    struct mdl_loc loc = short_count ? loc_bin(H_NUM_TEXT, "header.num_text")
                                     : loc_bin(q->sec[S_TEXT].ofs + n - 1, "text[%u]", n - 1);
    diag_emit(q->diag, RULE_IQM_TEXT_TERMINATED, &loc, "0 (NUL)", "0x%02x", t[n - 1]);
  }
}

const char *iqm_string(struct iqm *q, uint32_t ref, uint64_t field, const char *path_fmt, ...)
{
  struct mdl_loc loc;
  va_list ap;
  char path[LOC_PATH_MAX];

  if (q->text && ref < q->text_len) {
    const char *s = (const char *)q->text + ref;
    if (ref > 0 && q->text[ref - 1] != 0 && iqm_want(q, RULE_IQM_STRING_MID)) {
      va_start(ap, path_fmt);
      vsnprintf(path, sizeof path, path_fmt, ap);
      va_end(ap);
      loc = loc_bin(field, "%s", path);
      diag_emit(q->diag, RULE_IQM_STRING_MID, &loc, "the start of a string", "%u", ref);
    }
    if (q->text_terminated)
      return s;
    {
      const char *copy = arena_strndup(&q->m->arena, s, q->text_len - ref);
      return copy ? copy : "";
    }
  }
  /* an unusable text section has been reported already; say nothing more about it */
  if ((HV(q, H_NUM_TEXT) != 0 && !q->text) || !iqm_want(q, RULE_IQM_STRING_RANGE))
    return "";
  va_start(ap, path_fmt);
  vsnprintf(path, sizeof path, path_fmt, ap);
  va_end(ap);
  loc = loc_bin(field, "%s", path);
  if (q->text_short == 1) {
    /* the first reference past a table cut short points at the broken count */
    loc = loc_bin(H_NUM_TEXT, "header.num_text");
    q->text_short = 2;
  }
  {
    char expected[48];
    snprintf(expected, sizeof expected, "< %u (num_text)", HV(q, H_NUM_TEXT));
    diag_emit(q->diag, RULE_IQM_STRING_RANGE, &loc, expected, "%u", ref);
  }
  return "";
}
