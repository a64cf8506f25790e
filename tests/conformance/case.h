/* case.h - one conformance case (corpus/README.md) as the runner holds it after parsing.
 *
 * Every element keeps the line it came from so a mistake in a case file is reported as
 * file:line, like a compiler error. Strings point into the loaded YAML document. */
#ifndef CASE_H
#define CASE_H

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "mdlcheck.h"

enum patch_kind {
  PATCH_U8, PATCH_U16, PATCH_U32, PATCH_I32, PATCH_F32, PATCH_F64, PATCH_HEX,
  PATCH_TRUNCATE, PATCH_APPEND
};

struct case_patch {
  enum patch_kind kind;
  int line;
  uint64_t at;        /* write position (write kinds) */
  int value_is_size;  /* integer value `size`: the data's length when the patch applies */
  int64_t ival;       /* integer kinds; truncate length */
  double fval;        /* f32, f64 */
  unsigned char *bytes; /* hex, append */
  size_t nbytes;
};

/* INPUT_MISSING: a path that does not exist is given to mdlcheck (MDL-IO-001). */
enum input_kind { INPUT_NONE, INPUT_FILE, INPUT_BASE, INPUT_TEXT, INPUT_HEX, INPUT_MISSING };

/* Where a model's bytes come from: the case's `input`, or its `compare` (the second model). */
struct case_source {
  enum input_kind kind;
  int line;
  const char *path;     /* file, base: relative to the case's folder */
  const char *text;     /* text, hex */
  size_t text_len;
  struct case_patch *patches;
  size_t npatches;
  const char *name;     /* compare only: its own name hint, or NULL */
};

enum config_kind { CONFIG_NONE, CONFIG_TEXT, CONFIG_FILE };

struct case_expect {
  int line;
  const char *id;
  const mdl_rule *rule; /* NULL when the id is not catalogued (the case then fails) */
  int has_severity, has_offset, has_line, has_column, has_count;
  mdl_severity severity;
  long long offset;
  unsigned long lineno, column, count;
  const char *path; /* NULL: not checked */
  int has_cmp_line, has_cmp_offset; /* where the compare input holds its side */
  unsigned long cmp_line;
  long long cmp_offset;
  unsigned long matched;
};

/* One expected decoded transform. frame < 0: the base (bind) pose of the joint. */
struct case_pose {
  int line;
  long long frame;
  const char *anim; /* frame counts from this animation's first frame, or NULL */
  uint32_t joint;
  int has[3];       /* t, r, s given */
  double t[3], r[4], s[3];
};

enum others_mode { OTHERS_NONE, OTHERS_ERRORS, OTHERS_ANY };

struct conf_case {
  const char *file; /* the case file as given */
  char *dir;        /* its folder, for relative input paths */
  yaml_document_t doc;
  int doc_loaded;
  int errors;       /* mistakes found in the case file itself */

  const char *description;
  struct case_source input;
  const char *name;

  /* Run through the mdlcheck binary (case_cli.c) when any of these is given. */
  int has_compare;
  struct case_source compare;
  enum config_kind config;
  int config_line;
  const char *config_path; /* file: relative to dir */
  const char *config_text; /* text */
  size_t config_text_len;
  int has_exit, exit_line, exit_code;
  const char *convert;     /* `mdlcheck convert` to a file of this extension (egg, qmsh, ...): the
                            * output's diagnostics are checked (the writer's announcements and
                            * the proof), or NULL */
  int convert_line;
  const char *accept_loss; /* options: accept-loss, passed to convert */
  const char *convert_output; /* convert-output: what is already at OUT's path before convert runs
                               * (link, fifo, directory) or "no-folder" (OUT's folder is missing),
                               * or NULL (nothing there) */
  int convert_output_line;
  int fix, fix_line;       /* fix: true runs `mdlcheck fix INPUT OUTPUT` (OUTPUT: the input's
                            * extension); when it exits 0, OUTPUT is validated again and must hold
                            * none of the expected rules the catalogue says fix repairs */

  const char *assume_format, *profile;
  const char *target; /* option target: --target=NAMES (real loaders' rules), or NULL */
  int strict;
  /* option resources: --resources[=DIRS] (relative folders are taken inside the case's
   * temporary input folder) */
  const char *resources;
  int has_resources;
  /* files written beside the input (name: the path under the input's folder) */
  struct case_source *files;
  size_t nfiles;

  struct case_expect *expects;
  size_t nexpects;
  enum others_mode others;
  int verdict; /* -1: not checked, 0: valid, 1: invalid */

  int has_poses, poses_line;
  int tol_bound;  /* tolerance: "bound" */
  double tol;
  struct case_pose *poses;
  size_t nposes;

  int roundtrip, roundtrip_line;

  unsigned long fail_allocation; /* fail the decode's nth allocation (tests/oom); 0: none */
};

/* Report a mistake in the case file (file:line: message) and count it. */
void case_error(struct conf_case *c, int line, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));

/* Load and check the case file. Return 0 when it was read (mistakes, YAML syntax included,
 * are counted in c->errors), -1 when it could not be opened. */
int case_load(struct conf_case *c, const char *file);
void case_free(struct conf_case *c);

/* Whether the case runs through the mdlcheck binary rather than the library: it gives a config,
 * a compare input, a missing input, files beside the input or the resources option. */
int case_uses_cli(const struct conf_case *c);

/* Build a source's bytes (file, base + patches, text, hex). Return 0, or -1 after case_error. */
int case_build_input(struct conf_case *c, const struct case_source *src, unsigned char **data,
                     size_t *size);
/* Read a file named relative to the case's folder; errors are reported at `line`. */
int case_read_file(struct conf_case *c, int line, const char *rel, unsigned char **data,
                   size_t *size);

/* Parse hex digits (blanks between bytes allowed). Return 0, or -1 on a bad digit or odd count. */
int hex_decode(const char *s, unsigned char **out, size_t *n);

#endif
