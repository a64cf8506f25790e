/* text_window.h - the pages of a mapped input given back as a decode finishes with them, so that
 * the text counts in the peak as a window rather than whole (issue 26 item 8). */
#ifndef MDL_TEXT_WINDOW_H
#define MDL_TEXT_WINDOW_H

#include <stddef.h>

#include "input.h"

/* A mapped input (input_open maps a regular file read-only and private) gives a page back with
 * MADV_DONTNEED, and the page is read from the file again, the same bytes, when next touched:
 * nothing a reader holds is lost, a page given back too early only costs a fault. Bytes held in
 * memory of their own (standard input, an inflated .egg.pz, a caller's buffer) would read as
 * zeros: they are never given back, and cost the whole text as before. */
struct text_window {
  const unsigned char *map; /* the mapped text (page aligned), or NULL: nothing is given back */
  size_t size;
  size_t page;
  size_t given;   /* [0, given) went back after a reader in order went past it (text_window_done) */
  size_t lo, hi;  /* the blocks read again since the last give-back (text_window_reread) */
  size_t blocks;  /* how many: one read again twice in a row counts once */
  size_t last;    /* the block read again last, + 1 (0: none) */
};

/* A window over in's text: one that gives back only when in is mapped. */
void text_window_init(struct text_window *w, const struct mdl_input *in);
/* The reader in order through text (a parser) will not come back below off: the pages before
 * it go back, a few MiB at a time (off: the text's size gives back all of them). Nothing
 * happens when text is not the window's (an inflated text) or w is NULL. */
void text_window_done(struct text_window *w, const void *text, size_t off);
/* [off, off + len) of text was read again after the parser went by (a diagnostic's line and
 * context, an entry's values read again): once the blocks read again since the last give-back
 * are some MiB, they go back, so that diagnostics on every line of a text do not bring the whole
 * of it back into memory. */
void text_window_reread(struct text_window *w, const void *text, size_t off, size_t len);
/* The decode is over: every page of the text goes back (input_idle's). */
void text_window_close(struct text_window *w);

#endif
