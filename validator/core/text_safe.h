/* text_safe.h - the one escaper of every human-readable output: model-derived bytes (names, paths,
 * messages quoting them) can neither start a line of their own nor drive the terminal.
 *
 * Every text writer (reports, summaries, poses, compare, convert, diff) and every note the tool
 * prints on stderr writes through these. A string argument is shown with its control characters
 * escaped: newline, carriage return and tab as \n \r \t, other C0 controls and DEL as \xNN (ESC
 * as \x1b), C1 controls and the characters that reorder or break displayed lines (bidirectional
 * overrides and isolates, U+2028/U+2029) as \uNNNN, and bytes that are not UTF-8 as \xNN. Since
 * no argument can hold a line break, a line starts only with the format's own text; an argument
 * written where a line starts (after nothing but spaces) has its first ':' or '#' escaped too, so
 * no output line reads as a CI workflow command (GitHub's "::error", "##[group]"). JSON and SARIF
 * escape by construction and do not use this. */
#ifndef MDL_TEXT_SAFE_H
#define MDL_TEXT_SAFE_H

#include <stddef.h>
#include <stdio.h>

/* fprintf where each %s and %c argument is data, escaped as above; the format is the program's
 * own text and is written as it is. Supports the flags, widths, precisions ('*' too) and length
 * modifiers of d i u x X o c s p f F e E g G a A and %%. The beginning of the format counts as
 * the beginning of a line. */
void text_printf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as data (fputs without the escapes' gaps); s may be NULL (nothing written). Its beginning
 * counts as the beginning of a line. */
void text_put(FILE *out, const char *s);
/* The first n bytes of s (up to a NUL) as data, in the middle of a line. */
void text_write(FILE *out, const char *s, size_t n);
/* s escaped into dst (cap bytes, NUL-terminated, cut at a whole escape when too small); returns the
 * length the whole escaped text needs (as snprintf). line_start: s begins a line. */
size_t text_escape(char *dst, size_t cap, const char *s, int line_start);

#endif
