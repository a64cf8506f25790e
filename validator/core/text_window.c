/* text_window.c - a mapped input's pages given back behind its readers (text_window.h). */
#include "text_window.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* A give-back every 4 MiB a parser goes on: one madvise call for thousands of pages. */
#define TEXT_WINDOW_STEP ((size_t)4 << 20)
/* What a fault maps: the pages around it that the page cache holds, up to 64 KiB (Linux's
 * fault-around), so a byte read again may bring 64 KiB back into the process. */
#define TEXT_WINDOW_BLOCK ((size_t)65536)
/* The blocks read again (diagnostics' lines, values read again) before they go back. */
#define TEXT_WINDOW_REREAD ((size_t)8 << 20)

void text_window_init(struct text_window *w, const struct mdl_input *in)
{
  long page = sysconf(_SC_PAGESIZE);
  w->map = NULL;
  w->size = 0;
  w->page = page > 0 ? (size_t)page : 4096;
  w->given = w->lo = w->hi = w->blocks = w->last = 0;
#ifdef MADV_DONTNEED
  /* only a mapping's pages come back as they were; its start is a page's, from mmap */
  if (in && in->mapped && in->data == in->mapped && !((uintptr_t)in->mapped & (w->page - 1))) {
    w->map = in->mapped;
    w->size = in->size < in->mapped_size ? in->size : in->mapped_size;
  }
#else
  (void)in;
#endif
}

/* Give back the pages of [from, to) (page aligned from; to is rounded up, as madvise does). */
static void give_back(struct text_window *w, size_t from, size_t to)
{
#ifdef MADV_DONTNEED
  if (to > from)
    (void)madvise((void *)(uintptr_t)(w->map + from), to - from, MADV_DONTNEED); /* advice: a
                                                                                   * refusal keeps them */
#else
  (void)w, (void)from, (void)to;
#endif
}

void text_window_done(struct text_window *w, const void *text, size_t off)
{
  size_t to;
  if (!w || !w->map || text != w->map)
    return;
  if (off >= w->size) {
    to = w->size;
  } else {
    to = off & ~(w->page - 1);
    if (to < w->given + TEXT_WINDOW_STEP)
      return;
  }
  if (to > w->given) {
    give_back(w, w->given, to);
    w->given = to;
  }
}

void text_window_reread(struct text_window *w, const void *text, size_t off, size_t len)
{
  size_t first, last;
  if (!w || !w->map || text != w->map || !len || off >= w->size)
    return;
  if (len > w->size - off)
    len = w->size - off;
  first = off / TEXT_WINDOW_BLOCK;
  last = (off + len - 1) / TEXT_WINDOW_BLOCK;
  if (!w->blocks || first < w->lo)
    w->lo = first;
  if (!w->blocks || last + 1 > w->hi)
    w->hi = last + 1;
  w->blocks += last - first + (w->last == first + 1 ? 0 : 1);
  w->last = last + 1;
  if (w->blocks * TEXT_WINDOW_BLOCK < TEXT_WINDOW_REREAD)
    return;
  give_back(w, (w->lo * TEXT_WINDOW_BLOCK) & ~(w->page - 1), /* a page larger than a block */
            w->hi * TEXT_WINDOW_BLOCK < w->size ? w->hi * TEXT_WINDOW_BLOCK : w->size);
  w->blocks = w->last = 0;
}

void text_window_close(struct text_window *w)
{
  if (!w || !w->map)
    return;
  give_back(w, 0, w->size);
  w->given = w->size;
  w->blocks = w->last = 0;
}
