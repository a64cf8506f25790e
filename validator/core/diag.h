/* diag.h - the diagnostic sink: decoders and checks emit here; the sink applies the policy,
 * folds repeats, counts, truncates and forwards to the caller's callback. */
#ifndef MDL_DIAG_H
#define MDL_DIAG_H

#include <stdint.h>

#include "mdlcheck.h"
#include "rules_gen.h"

struct mem_bound;

#define LOC_PATH_MAX 128

/* Where a diagnostic points: a byte offset (binary), a line and column (text), or both. */
struct mdl_loc {
  long long offset; /* -1 when none */
  unsigned line, column;
  char path[LOC_PATH_MAX];
};

struct mdl_loc loc_bin(uint64_t offset, const char *path_fmt, ...)
  __attribute__((format(printf, 2, 3)));
struct mdl_loc loc_text(unsigned line, unsigned column, const char *path_fmt, ...)
  __attribute__((format(printf, 3, 4)));
struct mdl_loc loc_none(void);

/* Rules of one file whose folded repeats are located (beyond them a summary has a count only).
 * Fixed storage: the sink never allocates, so it can still report running out of memory. */
#define DIAG_FOLD_SLOTS 32

struct diag_sink {
  const mdl_options *options;
  unsigned long counts[MDL_SEVERITY_COUNT];
  unsigned long reported;             /* forwarded to the callback */
  unsigned long per_rule[RULE_COUNT]; /* occurrences per rule index */
  unsigned char fold_slot[RULE_COUNT]; /* 1 + index into fold_at, 0: none yet */
  unsigned nslots;
  mdl_position fold_at[DIAG_FOLD_SLOTS][MDL_FOLDED_AT];
  int truncated;
  int fatal_seen;
  unsigned long flaws;      /* diagnostics whose catalogue severity is fatal or error, whatever
                             * the policy made of them: what was decoded may be incomplete */
  int proof;                /* a conversion's proof: `only` hides none of its differences */
  /* A second grading after the policy, as each diagnostic arrives (convert's --accept-loss makes
   * an accepted loss a warning), or NULL: the counts, folds and the report then agree. */
  mdl_severity (*regrade)(const void *ctx, const mdl_rule *rule, mdl_severity sev);
  const void *regrade_ctx;
  /* the input positions point into (diag_source), for each diagnostic's context; the cursor
   * remembers the last line found, so diagnostics in line order find theirs in one pass */
  const unsigned char *source;
  size_t source_size;
  unsigned cursor_line;     /* 0: none yet */
  size_t cursor_start;
  size_t cursor_end;      /* where line cursor_line ends, once looked for (0: not yet) */
  int lf_cr_one;            /* LF CR is one line end (Egg, as Panda3D reads it), not two */
  /* the decode's input, whose pages the lines read for a context are given back through
   * (text_window_reread), or NULL */
  struct text_window *window;
  /* the decode's memory bound (--max-memory), or NULL: an allocation that failed because the
   * bound refused it is said as MDL-MEM-002, not MDL-MEM-001 (diag_out_of_memory) */
  const struct mem_bound *bound;
};

/* mdl_policy_apply without the `only` selection (ignore and severity still apply): a proof's
 * difference hidden by an unrelated --only would read as "same model"; --accept-loss and an
 * explicit --ignore are the ways to accept one. */
/* 1 when a policy pattern (an id or former id, a prefix ending in '*', a format name) names the
 * rule: what --ignore, --only and `rules PATTERN` select. */
int policy_pattern_matches(const char *pattern, const mdl_rule *rule);

mdl_severity policy_apply_unselected(const mdl_policy *policy, const mdl_rule *rule);

/* Return 0 (the sink needs no allocation; the int is kept for callers that check it). */
int diag_sink_init(struct diag_sink *sink, const mdl_options *options);
/* The bytes positions point into from now on (the decoder's input, or the text an .egg.pz
 * inflates to), kept by reference for the diagnostics' context: they must outlive the sink's
 * emissions. NULL: no context. Lines end at \n, \r\n or a lone \r (as the IQE reader counts
 * them); diag_source_lf_cr makes \n\r one line end too (as the Egg lexer counts them). */
void diag_source(struct diag_sink *sink, const void *data, size_t size);
void diag_source_lf_cr(struct diag_sink *sink);

/* Emit the fold summaries and release the sink. */
void diag_sink_finish(struct diag_sink *sink);

/* Emit one diagnostic for catalogue rule `rule`. `expected` is plain text (may be NULL);
 * the actual value is formatted from actual_fmt (may be NULL). */
void diag_emit(struct diag_sink *sink, enum rule_index rule, const struct mdl_loc *loc,
               const char *expected, const char *actual_fmt, ...)
  __attribute__((format(printf, 5, 6)));

/* The fatal MDL-MEM-001: an allocation failed, so checking stopped before the end. `what` says
 * what was being allocated (may be NULL). */
void diag_out_of_memory(struct diag_sink *sink, const char *what);

/* 0 when the next diagnostic of `rule` would only be counted (folded past the repeats whose
 * positions a summary keeps): an emitter may then skip formatting it. */
int diag_wanted(const struct diag_sink *sink, enum rule_index rule);

/* Number of diagnostics of severity error or fatal seen so far (after the policy). */
unsigned long diag_errors(const struct diag_sink *sink);

/* Render a catalogue template, replacing {actual}, {expected} and {path}. */
void diag_render(char *out, size_t cap, const char *tmpl, const char *actual,
                 const char *expected, const char *path);

#endif
