/* mdlcheck.h - the public API of libmdlcheck, a strict validator for skeletal model formats.
 *
 * One entry point validates a file or a caller's buffer; every diagnostic reaches the caller
 * through one callback, already filtered and re-graded by the caller's policy. Callers that
 * cannot use C structs (ctypes, WebAssembly) use the JSON entry points instead.
 *
 * Ownership and lifetime:
 * - The strings and the rule of an mdl_diag belong to the library and live only until the
 *   callback returns: copy what you keep.
 * - mdl_rule entries, severity names and format names are static: they live as long as the
 *   library is loaded.
 * - Whatever the library allocates for the caller is released by the matching *_free function
 *   (mdl_policy_free, mdl_string_free); each accepts NULL.
 * - Options and policies are read, never changed, during validation: one policy may serve
 *   several threads validating at once; the callback is called on the validating thread.
 *
 * Status codes (mdl_status) say whether the library could do its work; they are not the CLI's
 * exit codes. Whether a file is valid is in the result's counts, not in the status.
 *
 * The library never ends the process: memory running out while decoding is the fatal
 * MDL-MEM-001 in the file's diagnostics; anywhere else (a report, a comparison) the call
 * returns MDL_ENOMEM and nothing that could read as a complete answer. */
#ifndef MDLCHECK_H
#define MDLCHECK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version, written once here: configure reads MDL_VERSION_STRING (and checks the three
 * numbers against it), mdl_version() answers what the loaded library was built as. */
#define MDL_VERSION_MAJOR 0
#define MDL_VERSION_MINOR 1
#define MDL_VERSION_PATCH 0
#define MDL_VERSION_STRING "0.1.0"

/* The ABI (doc/manual.md, "The library's ABI"): the shared library is libmdlcheck.so.1. The
 * structs a caller allocates (mdl_options, mdl_result) begin with their size, set by
 * mdl_options_init and mdl_result_init from the caller's header: the library refuses
 * (MDL_EINVAL) a size it was not built for instead of reading fields that are not there. */

/* The default of mdl_options.max_input_size: 1 GiB. */
#define MDL_DEFAULT_MAX_INPUT_SIZE (1ULL << 30)
/* mdl_options.max_memory: the automatic bound (the default: twice the text + 48 MiB), or none. */
#define MDL_MAX_MEMORY_AUTO 0ULL
#define MDL_MAX_MEMORY_NONE (~0ULL)

typedef enum mdl_severity {
  MDL_FATAL = 0, /* decoding cannot go on */
  MDL_ERROR,
  MDL_WARNING,
  MDL_INFO,
  MDL_HINT,
  MDL_SEVERITY_COUNT
} mdl_severity;

/* One catalogue entry, generated from spec/rules/<format>.yaml. */
typedef struct mdl_rule {
  const char *id;        /* "IQM-JNT-002": stable, never reused */
  const char *name;      /* "joint-parent-range" */
  const char *format;    /* "iqm", "core", ... */
  mdl_severity severity; /* default severity */
  const char *versions;  /* "1-2", "2" ... */
  const char *source;    /* "iqm.txt:98" */
  const char *text;      /* short normative text */
  const char *message;   /* template with {actual} {expected} {path} */
  const char *rationale;
  const char *tolerance; /* "" unless numeric: the bound and its derivation */
  const char *basis;     /* what grounds the rule: "spec", "writer", "loaders", "inferred", ... */
  mdl_severity strict_severity; /* severity under --strict */
  const char *spec_ref;  /* "spec/formats/iqm.md#iqm-joint-parent": the clause enforced, or "" */
  const char *clause;    /* that clause: "Title [normative; public source]\ntext", or "" */
  const char *alias;     /* a former id still accepted for this rule ("IQE-CMP-001"), or "" */
  const char *fix;       /* how to make a flagged file pass, or "" (added last: older callers
                          * read the fields above where they were) */
  const char *repair;    /* what `mdlcheck fix` (mdl_fix_*) does to a file the rule flags, or ""
                          * when fix does not repair it (added after fix, for the same reason) */
} mdl_rule;

/* Where one folded repeat was: a byte offset (-1: none) and/or a text line and column (0: none). */
typedef struct mdl_position {
  long long offset;
  unsigned line, column;
} mdl_position;

typedef struct mdl_diag {
  const mdl_rule *rule;
  mdl_severity severity; /* after the policy's overrides */
  const char *message;   /* rendered message */
  long long offset;      /* byte offset, or -1 */
  unsigned line, column; /* 1-based text position, or 0 */
  const char *path;      /* structural path such as "joints[3].parent", or "" */
  const char *actual;    /* actual value as text, or "" */
  const char *expected;  /* expected value as text, or "" */
  unsigned long folded;  /* > 0: a summary standing for this many further repeats */
  const mdl_position *folded_at; /* on a summary: where the first folded repeats were */
  size_t num_folded_at;          /* at most MDL_FOLDED_AT of them */
  /* What the position points at, for a report to show (valid during the callback only, like
   * the strings above): for a text position the bytes of line `line` without its line end (a
   * window of at most MDL_CONTEXT_MAX around the column of a longer line), for a byte offset
   * the row of MDL_CONTEXT_ROW bytes holding it; NULL (size 0) when the diagnostic has no
   * position in the input. context_offset: where context[0] is in the input (for an .egg.pz,
   * in the text it inflates to); context_mark: the index in context the position points at
   * (context_size when a column is past the end of its line). Added last, so callers built
   * against the older layout read the fields above where they were. */
  const char *context;
  size_t context_size, context_mark;
  long long context_offset;
} mdl_diag;

/* The longest text-line context of a diagnostic, and the bytes in a binary one's row. */
#define MDL_CONTEXT_MAX 240
#define MDL_CONTEXT_ROW 16

/* How many folded repeats a summary locates. */
#define MDL_FOLDED_AT 8

typedef void (*mdl_diag_fn)(const mdl_diag *diag, void *user);

/* One file a model names, as mdl_options.resources resolved it. Strings live only until the
 * callback returns. */
typedef struct mdl_resource {
  const char *ref;           /* as written in the model */
  const char *kind;          /* "texture" (named by the format), "material" (a material name used
                              * as a texture file name by convention), "model" (an external egg) */
  const char *status;        /* "found", "case-mismatch" (found with another letter case),
                              * "missing", "outside" (leaves the search roots: not followed),
                              * "unreadable" (found, but could not be read or is no image / egg) */
  const char *resolved_path; /* the file it names, or "" */
  const char *image;         /* "png", "jpeg", "tga", "bmp", "dds", "sgi", ..., or "" */
  unsigned width, height, channels; /* of the image, 0 when unknown */
  long long offset;          /* where the model names it: byte offset, or -1 */
  unsigned line, column;     /* or text position, or 0 */
  const char *path;          /* structural path, or "" */
} mdl_resource;

typedef void (*mdl_resource_fn)(const mdl_resource *res, void *user);

/* Files a model's references resolve among instead of the file system: the members of an
 * archive the model itself is a member of. Paths are relative to the tree's root, '/'-separated,
 * without "." or ".." (the library resolves those and keeps references inside the roots, as on
 * disk). */
typedef struct mdl_resource_tree {
  const char *label; /* how reports name the tree: "pack.pk3" shows "pack.pk3:textures/a.png" */
  const char *model; /* the model's own path in the tree ("models/x.iqm"): its folder is searched
                      * first; mdl_options.resources' folders are then folders of the tree */
  /* Whether a file (not a folder) has path; with nocase also one differing only in ASCII letter
   * case. 1 with its stored name copied to name (cap bytes), or 0. */
  int (*find)(void *user, const char *path, int nocase, char *name, size_t cap);
  /* Read up to cap bytes of the file stored as name into buf: the count, or -1 with a reason
   * in why (why_cap bytes). */
  long long (*read)(void *user, const char *name, void *buf, size_t cap, char *why, size_t why_cap);
  void *user;
} mdl_resource_tree;

/* Which rules are reported and at which severity (built from the config file or options). */
typedef struct mdl_policy mdl_policy;

mdl_policy *mdl_policy_new(void);
void mdl_policy_free(mdl_policy *policy);
/* pattern: a rule id, a prefix ending in '*' ("IQM-JNT-*"), or a format name ("iqm").
 * Return 0, -1 when the pattern matches no catalogued rule, -2 when out of memory. */
int mdl_policy_ignore(mdl_policy *policy, const char *pattern);
int mdl_policy_only(mdl_policy *policy, const char *pattern);
int mdl_policy_override(mdl_policy *policy, const char *pattern, mdl_severity severity);
/* The severity a rule is reported at, or MDL_SEVERITY_COUNT when the policy drops it. */
mdl_severity mdl_policy_apply(const mdl_policy *policy, const mdl_rule *rule);

typedef struct mdl_options {
  size_t size;                /* sizeof (mdl_options) as the caller was built: mdl_options_init */
  const char *assume_format;  /* format name, or NULL to detect */
  const char *profile;        /* format profile ("engine", "panda", ...), or NULL */
  int strict;                 /* raise inferred rules to their strict severity */
  const char *layout_file;    /* a user's declared layout profile (X42 legacy), or NULL */
  unsigned long max_issues;   /* stop reporting after this many (0: no limit) */
  unsigned long max_per_rule; /* report this many of one rule, then fold the rest into one
                                 summary with their count and first positions (0: no folding) */
  const mdl_policy *policy;   /* NULL: every rule at its default severity */
  mdl_diag_fn on_diag;
  void *user;
  /* The most bytes read from one input: the file mdl_validate_file reads (a regular file by its
   * size; standard input, a pipe or a device stops once the limit is passed), the buffer
   * mdl_validate_buffer is given (by its size), and the text an
   * .egg.pz decompresses to. 0: MDL_DEFAULT_MAX_INPUT_SIZE. A larger input is not validated:
   * MDL_EIO, with the fatal MDL-IO-002 delivered through on_diag and counted in the result.
   * Last in the struct so callers built against the older layout keep their field offsets. */
  unsigned long long max_input_size;
  /* Resolve and check the files a model names (textures, external eggs): NULL (the default)
   * looks at none of them; otherwise the folders searched after the model's own, separated by
   * ':' ("" for the model's folder alone). Each reference reaches on_resource (may be NULL),
   * called with user like on_diag. Added after max_input_size for the same reason. */
  const char *resources;
  mdl_resource_fn on_resource;
  /* Real loaders to check for besides the specification (mdl_target_find): names separated by
   * ',' ("assimp,raylib"), or NULL for none. Each adds its TGT-* rules (what it refuses or
   * crashes on: errors; what it silently changes: warnings) and removes none. A name no target
   * has makes validation return MDL_EINVAL before anything is read. Added last for the same
   * reason as max_input_size. */
  const char *targets;
  /* With resources set: resolve references among these files instead of the file system (a
   * model read from an archive), or NULL. Added last for the same reason as max_input_size. */
  const mdl_resource_tree *resource_tree;
  /* The most bytes validating one input may hold in the decoder's own structures (its tree,
   * tables and lists; the text itself aside): MDL_MAX_MEMORY_AUTO (0, the default) twice the
   * text (the inflated text of an .egg.pz) + 48 MiB, MDL_MAX_MEMORY_NONE no bound, else the
   * bytes. Checked where the Egg and IQE decoders' structures grow; past it decoding stops:
   * MDL_EIO, with the fatal MDL-MEM-002 delivered through on_diag and counted in the result,
   * never a verdict. Added last for the same reason as max_input_size. */
  unsigned long long max_memory;
} mdl_options;

/* Every field 0 / NULL (the defaults), size set. Call it before setting any field. */
void mdl_options_init(mdl_options *options);

/* The most format-specific counts a model's stats carry. */
#define MDL_STATS_EXTRA_MAX 4

/* A count only some formats have ("groups" of an Egg); the name is static. */
typedef struct mdl_stat {
  const char *name;
  unsigned long long value;
} mdl_stat;

/* A count of mdl_stats that validation alone does not determine (an Egg's triangles: only a
 * full decode, as `poses` or `convert` run, triangulates its polygons). */
#define MDL_STAT_UNKNOWN (~0ULL)

/* What the decoded model holds (the JSON report's "stats"). Counts come only from a decode that
 * went to its end: when the decoder gave up (or no format matched) decoded is 0 and every count
 * is 0, which then means "unknown", not "none". partial: the file has errors (by the catalogue,
 * whatever the policy did with them), so elements the decoder could not read may be missing. */
typedef struct mdl_stats {
  int decoded;
  int partial;
  /* each may be MDL_STAT_UNKNOWN */
  unsigned long long joints, meshes, vertices, triangles, animations;
  unsigned long long frames;   /* the frame strip all animations index (QMSH: keyframes) */
  unsigned num_extra;
  mdl_stat extra[MDL_STATS_EXTRA_MAX]; /* Egg: groups, tables; QMSH: points, bone_groups;
                                        * IQM: extensions */
} mdl_stats;

typedef struct mdl_result {
  size_t size;                              /* sizeof (mdl_result) as the caller was built:
                                             * mdl_result_init */
  const char *format;                       /* detected or assumed format name, or "unknown" */
  char version[32];                         /* format version as text, or "" */
  unsigned long counts[MDL_SEVERITY_COUNT]; /* reported diagnostics per severity (incl. folded) */
  int truncated;                            /* max_issues was reached */
  /* The compression the model was wrapped in: "zlib" or "gzip" (an .egg.pz), "" for none.
   * Reported apart from version, which names the format version alone. Last in the struct. */
  char compression[8];
  mdl_stats stats; /* what the model holds; last in the struct */
} mdl_result;

/* Empty, size set: call it before handing the result to mdl_validate_file / _buffer. */
void mdl_result_init(mdl_result *result);

typedef enum mdl_status {
  MDL_OK = 0,         /* validated (the file may still be invalid: see counts) */
  MDL_EIO = -1,       /* the file could not be read (errno says why), or exceeds
                       * options->max_input_size (EFBIG; MDL-IO-002 delivered and counted),
                       * or needs more memory than options->max_memory (MDL-MEM-002 likewise) */
  MDL_EINTERNAL = -2, /* a bug: please report it */
  MDL_EINVAL = -3,    /* a setting the library does not understand, or an mdl_options /
                       * mdl_result whose size is not the one this library was built with */
  MDL_ENOMEM = -4,    /* memory ran out */
  MDL_EDECODE = -5    /* poses: the input does not decode cleanly, so it has no poses to show */
} mdl_status;

/* The CLI's default for mdl_options.max_per_rule (mdl_options_init leaves it 0: no folding):
 * a few repeats in full show what the rule found, one summary per rule counts the rest and
 * locates the first MDL_FOLDED_AT of them. */
#define MDL_DEFAULT_MAX_PER_RULE 3

mdl_status mdl_validate_file(const char *path, const mdl_options *options, mdl_result *result);
mdl_status mdl_validate_buffer(const void *data, size_t size, const char *name_hint,
                               const mdl_options *options, mdl_result *result);

/* The report of one input as JSON text: exactly one entry of the "files" array of the CLI's
 * JSON report (spec/report.schema.json), with the CLI's defaults. settings: NULL or a
 * NULL-terminated list of "key=value" strings, keys as the CLI's long options with '_':
 * ignore=PATTERN, only=PATTERN, severity=PATTERN=SEV (each may repeat), fail_on=SEV,
 * profile=NAME, strict=true|false, max_issues=N, max_per_rule=N, assume_format=FMT,
 * max_input_size=SIZE (as --max-input-size: over it the entry has the fatal MDL-IO-002),
 * max_memory=auto|none|SIZE (as --max-memory: past it the entry has the fatal MDL-MEM-002),
 * resources=DIRS (as --resources=DIRS, "" for the model's folder alone: the entry then has
 * "resources"), target=NAME[,NAME...] (as --target; may repeat; also spelt targets=).
 * Returns the text (release it with mdl_string_free) and MDL_OK in *status; an unreadable file
 * is an entry with a fatal MDL-IO-001, as in the CLI's report. Returns NULL with MDL_EINVAL and
 * a message in error (error_size bytes, may be NULL) for a bad setting, or MDL_ENOMEM. */
char *mdl_validate_file_json(const char *path, const char *const *settings, mdl_status *status,
                             char *error, size_t error_size);
char *mdl_validate_buffer_json(const void *data, size_t size, const char *name,
                               const char *const *settings, mdl_status *status, char *error,
                               size_t error_size);
void mdl_string_free(char *text);
/* The same input's report as the text `mdlcheck FILE` prints (the diagnostics, then the verdict
 * line), same settings, statuses and ownership: what a test helper shows when a file fails. */
char *mdl_validate_file_text(const char *path, const char *const *settings, mdl_status *status,
                             char *error, size_t error_size);
char *mdl_validate_buffer_text(const void *data, size_t size, const char *name,
                               const char *const *settings, mdl_status *status, char *error,
                               size_t error_size);

/* The poses of one input as JSON text: exactly what `mdlcheck poses -f json FILE` prints (the
 * skeleton, its base pose and every animation frame in double precision, rotations normalised,
 * xyzw). settings as for mdl_validate_file_json (fail_on decides what "decodes cleanly" means).
 * Returns the text (release it with mdl_string_free) and MDL_OK. Returns NULL with:
 * MDL_EDECODE when the input does not decode cleanly (any diagnostic at or above fail_on:
 * poses of a broken file mislead), error then holding its diagnostics as the CLI's text report
 * (cut to error_size; mdl_validate_*_json gives them all); MDL_EIO when the file cannot be read
 * or is over max_input_size (error says which); MDL_EINVAL for a bad setting; MDL_ENOMEM. */
char *mdl_poses_file_json(const char *path, const char *const *settings, mdl_status *status,
                          char *error, size_t error_size);
char *mdl_poses_buffer_json(const void *data, size_t size, const char *name,
                            const char *const *settings, mdl_status *status, char *error,
                            size_t error_size);

/* The decoded model of one input as JSON, for a viewer (the page draws it): "format", "version",
 * "compression", "up_axis" (the format's description: "y" or "z"), "decoded" (whether the
 * decoder got to the end: when false, no element is given), "joints" (as `poses`: name, parent,
 * base pose t, r xyzw normalised, s), "meshes", "num_vertexes" with "positions" (3 reals a
 * vertex) and "blend_size", "blend_indexes", "blend_weights" (blend_size a vertex, weights as
 * fractions), "num_triangles" with "triangles" (3 vertex indexes each), "spans" (where elements
 * are in the source: {kind, index, count, offset, stride} for bytes, {kind, index, count, line,
 * line_end} for lines; count 0: an element the decoder left out) and "diagnostics" (each
 * diagnostic's id, offset or line and column, path, message, and the "element" {kind, index} its
 * position falls in, {kind, dropped: true} for one the decoder left out, or null). Unlike poses, a file with errors still answers: the view
 * shows what was decoded and where each diagnostic points. settings as for
 * mdl_validate_file_json. NULL with MDL_EIO (unreadable, or over max_input_size), MDL_EINVAL,
 * MDL_ENOMEM. */
char *mdl_model_file_json(const char *path, const char *const *settings, mdl_status *status,
                          char *error, size_t error_size);
char *mdl_model_buffer_json(const void *data, size_t size, const char *name,
                            const char *const *settings, mdl_status *status, char *error,
                            size_t error_size);

/* Whether two inputs agree (skeleton, animations, every pose within the bound of the
 * quantization involved, geometry by content), as JSON text: exactly what `mdlcheck compare -f
 * json A B` prints, a whole report (spec/report.schema.json) with one entry, named after a and
 * with the format "A vs B", whose messages are the differences (validation findings are not
 * reported: that is mdl_validate_*_json's work). An input that does not decode is the entry's
 * MDL-CMP-013 (not a status). settings as for mdl_validate_file_json. Returns the text (release
 * it with mdl_string_free) and MDL_OK; or NULL with MDL_EIO when a file cannot be read (error
 * says which), MDL_EINVAL for a bad setting, MDL_ENOMEM (a comparison cut short is never
 * reported as agreement). For buffers, a_name and b_name name the inputs (their extensions
 * help detect the format); NULL stands for "-". */
char *mdl_compare_files_json(const char *a, const char *b, const char *const *settings,
                             mdl_status *status, char *error, size_t error_size);
char *mdl_compare_buffers_json(const void *a, size_t a_size, const char *a_name, const void *b,
                               size_t b_size, const char *b_name, const char *const *settings,
                               mdl_status *status, char *error, size_t error_size);

/* Convert one input to another format, as `mdlcheck convert -f json IN OUT` does: decode IN,
 * let the writer announce (MDL-CNV-* warnings) or refuse (errors) what the target cannot hold,
 * write, then prove what was written (decoded again, validated, compared with IN). Returns the
 * JSON text that command prints: a whole report (spec/report.schema.json) whose first entry is IN
 * and second OUT (the announcements, the output's findings, the proof's differences). The
 * verdict is the CLI's: every entry "valid" means written and the same model; otherwise IN had
 * errors or the writer refused (nothing written), the bytes did not validate (nothing written),
 * or they differ from IN (written, to be inspected), or OUT could not be written (MDL-IO-003/004:
 * left as it was). OUT is written whole or not at all (a temporary file beside it, renamed).
 * settings as for mdl_validate_file_json, plus target_version=V (the format version written, as
 * --target-version) and accept_loss=ID[,ID...] (may repeat; as --accept-loss: each announced
 * loss named, and the proof's differences it explains, are warnings). On MDL_OK, error (when
 * given) holds what the CLI says on stderr about the conversion, one line each (why nothing was
 * written, frame timing notes), or "". Returns NULL with MDL_EINVAL (a bad setting, OUT's
 * extension names no format with a writer), MDL_EIO (IN cannot be read, or is over
 * max_input_size, a buffer by its size; error says why, nothing written) or MDL_ENOMEM (no
 * verdict: a conversion cut short is never reported). */
char *mdl_convert_file_json(const char *in_path, const char *out_path, const char *const *settings,
                            mdl_status *status, char *error, size_t error_size);
/* The same for a buffer converted in memory to target_format (a name mdl_format_names lists):
 * nothing is written to disk; OUT is named in the report after name with the target's
 * extension. *out_bytes (release with mdl_bytes_free) and *out_size receive the converted
 * file's bytes when they validated (also when the proof found differences, to be inspected);
 * NULL and 0 when nothing would have been written. */
char *mdl_convert_buffer_json(const void *data, size_t size, const char *name,
                              const char *target_format, const char *const *settings,
                              void **out_bytes, size_t *out_size, mdl_status *status, char *error,
                              size_t error_size);
void mdl_bytes_free(void *bytes);

/* Repair one input as `mdlcheck fix -f json IN [OUT]` does: decode IN, refuse it when it has an
 * error the catalogue does not say fix repairs (MDL-FIX-001, nothing written), make the repairs
 * (each listed as MDL-FIX-003 in IN's entry), write IN's model again in its own format, then
 * prove the bytes as a conversion is proven (they validate, hold none of the repaired findings,
 * and say what IN says; else MDL-FIX-002 or the proof's differences, nothing written). Returns the
 * JSON text that command prints: IN's entry, then OUT's. out_path NULL: IN itself is replaced
 * (whole or not at all). A file with nothing to repair and no error is written unchanged (not at
 * all in place). settings as for mdl_validate_file_json, plus dry_run=1 (prove, write nothing);
 * target_version and accept_loss are refused (MDL_EINVAL). The verdict is the CLI's: every entry
 * "valid" means repaired (or nothing to repair) and written. On MDL_OK, error (when given) holds
 * what the CLI says on stderr, one line each, or "". NULL with MDL_EINVAL, MDL_EIO (IN cannot be
 * read) or MDL_ENOMEM, as mdl_convert_file_json. */
char *mdl_fix_file_json(const char *in_path, const char *out_path, const char *const *settings,
                        mdl_status *status, char *error, size_t error_size);
/* The same for a buffer repaired in memory: nothing is written to disk; *out_bytes (release with
 * mdl_bytes_free) and *out_size receive the repaired file's bytes (IN's own when there was
 * nothing to repair) when the fix succeeded; NULL and 0 otherwise. */
char *mdl_fix_buffer_json(const void *data, size_t size, const char *name, const char *const *settings,
                          void **out_bytes, size_t *out_size, mdl_status *status, char *error,
                          size_t error_size);

/* The version the loaded library was built as: MDL_VERSION_STRING, and each number where the
 * pointer is not NULL. A caller compares it with the MDL_VERSION_* it was compiled against. */
const char *mdl_version(int *major, int *minor, int *patch);

/* The rule catalogue as JSON text: exactly what `mdlcheck rules -f json` prints. Release it
 * with mdl_string_free; NULL when memory ran out. */
char *mdl_rules_json(void);

/* The catalogue. */
size_t mdl_rule_count(void);
const mdl_rule *mdl_rule_at(size_t index);
const mdl_rule *mdl_rule_find(const char *id);

const char *mdl_severity_name(mdl_severity severity);
/* Parse "fatal", "error", ...; return MDL_SEVERITY_COUNT when unknown. */
mdl_severity mdl_severity_parse(const char *name);

/* Names of the formats this build knows, NULL-terminated. */
const char *const *mdl_format_names(void);

/* A real loader a file can be checked for (spec/targets/NAME.yaml); static strings. */
typedef struct mdl_target {
  const char *name;       /* "assimp": what --target and mdl_options.targets take */
  const char *loader;     /* the loader, in words */
  const char *repository; /* where its source was read ("assimp/assimp") */
  const char *commit;     /* the tag or commit read */
  const char *versions;   /* the loader versions the rules describe */
  const char *formats;    /* what it reads: "iqm:2 x42:101 qmsh:20-22" (format[:versions]) */
  const char *run;        /* how tests/loaders runs it, or why it is not run */
  const char *notes;      /* or "" */
} mdl_target;

size_t mdl_target_count(void);
const mdl_target *mdl_target_at(size_t index);
/* The target of that name, or NULL. */
const mdl_target *mdl_target_find(const char *name);
/* 0 when every ','-separated name of list (NULL: none) is a target; else -1 and the first
 * unknown name in err (errcap bytes). */
int mdl_targets_check(const char *list, char *err, size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
