/* convert.h - one conversion from request to report: decode the source, let the writer announce
 * or refuse what the target cannot hold, write, prove what was written (re-decoded, validated,
 * compared with the source), and say the verdict. The CLI's `convert`, the library's
 * mdl_convert_*_json (and a same-format rewrite with repairs, through `transform`) share it.
 *
 * What the proof compares: the written bytes decoded as the target (core/model_compare.h, the
 * comparator of `compare`, with OUT as the first side: each difference is located in OUT and
 * names where IN holds its side). Frames go to another format in IQM's meaning (parent-relative,
 * uniform at a framerate): a source whose frames are stored otherwise (QMSH) is converted first
 * by model_frames_to_parent, which notes what it did to the timing. Writing a file's own format
 * keeps its frames as stored.
 *
 * Before writing, the writer announces what the target has no place for (core/write_loss.h): a
 * loss is a warning naming the field, a refusal an error (MDL-CNV-*); a writer's refusal without
 * its own rule is MDL-CNV-001 with the writer's reason. Announcements are the output's
 * diagnostics. accept_loss re-grades as each diagnostic arrives (diag_sink.regrade): an accepted
 * announcement, and each proof difference an accepted announcement explains, is a warning.
 *
 * OUT is written whole or not at all (core/file_replace.h), and only once the proof has run on
 * the bytes in memory: bytes that do not validate are never written; bytes that validate but
 * differ from IN are written, to be inspected. Nothing is left on disk after a refusal. */
#ifndef MDL_CONVERT_H
#define MDL_CONVERT_H

#include "buf.h"
#include "format.h"
#include "model_compare.h"
#include "report.h"

/* What the conversion says along the way, one line each (the CLI prints them after "mdlcheck: "
 * on stderr): INFO lines are progress a quiet run leaves out, WARNING what was approximated,
 * FAILURE why the conversion stopped or what its verdict means. */
enum convert_note_level { CONVERT_NOTE_INFO, CONVERT_NOTE_WARNING, CONVERT_NOTE_FAILURE };
typedef void (*convert_note_fn)(void *user, enum convert_note_level level, const char *text);

/* Called on the decoded source model just before the writer runs (after the frames were made
 * parent-relative for another format): change it (a repair), announce into sink. Return 0, or -1
 * with why (the conversion then stops, nothing written, verdict CONVERT_INVALID). */
typedef int (*convert_transform_fn)(void *user, struct model *m, const struct mdl_format *source,
                                    struct diag_sink *sink, char *why, size_t why_size);

struct convert_request {
  const char *in_path;   /* IN's name in the report; read when data is NULL ("-": standard input) */
  const void *data;      /* IN's bytes held by the caller, or NULL */
  size_t size;
  const char *out_path;  /* OUT's name in the report, and the file written unless no_write */
  int no_write;          /* keep the bytes in memory (convert_outcome.bytes): nothing on disk */
  const struct mdl_format *target; /* NULL: the format out_path's extension names */
  const mdl_options *options;      /* decoding options; on_diag, user, on_resource are not used */
  mdl_severity fail_on;            /* what makes an entry invalid (the report's fail_on) */
  const char *version;   /* the format version to write (--target-version), or NULL */
  const char *accept_loss; /* ','-separated rule ids (or former ids) accepted, or NULL */
  int no_proof;          /* write without re-decoding and comparing (the output's entry then holds
                          * the announcements alone) */
  convert_transform_fn transform; /* NULL: none */
  void *transform_user;
  struct convert_fix *fix; /* NULL, or `mdlcheck fix` (core/fix.h): IN rewritten in its own
                            * format with the catalogue's repairs; target and transform unused */
  convert_note_fn note;  /* NULL: the notes are dropped */
  void *note_user;
};

/* The verdict, numerically the CLI's exit status. */
enum convert_verdict {
  CONVERT_OK = 0,       /* written (or held, no_write), valid, and says what IN says */
  CONVERT_INVALID = 1,  /* IN has errors, the writer refused, the bytes do not validate (nothing
                         * written), or they differ from IN (written, to be inspected) */
  CONVERT_IO = 3,       /* IN's inner input over the size limit, OUT not writable or not regular */
  CONVERT_INTERNAL = 70 /* memory ran out while checking: no verdict */
};

struct convert_outcome {
  enum convert_verdict verdict;
  int written;                /* OUT was replaced on disk */
  int proved;                 /* the proof compared both sides (cmp is meaningful) */
  int losses_accepted;        /* accept_loss accepted a loss the writer announced: however exact
                               * the comparison, the conversion is not lossless */
  struct compare_result cmp;
  struct byte_buf bytes;      /* with no_write and a verdict of CONVERT_OK or a written-to-be-
                               * inspected CONVERT_INVALID (held set): the file's bytes, whole */
  int held;                   /* bytes holds what would have been written */
  size_t size;                /* how many bytes were (or would have been) written */
  struct report_file *in, *out; /* the entries added to the report (out NULL before the writer) */
  char hint[600];             /* after a failed proof: "--accept-loss=ID,..." accepting the
                               * announced losses it found, or "" */
  char error[512];            /* MDL_EINVAL, MDL_EIO: why (no entry was added) */
};

/* Run the request, adding IN's and OUT's entries to rep (rep->fail_on should be rq->fail_on).
 * MDL_OK: out->verdict says the rest. MDL_EINVAL: OUT names no format, or its format has no
 * writer (out->error). MDL_EIO: IN could not be read (out->error; nothing added). MDL_ENOMEM: IN
 * could not be held, or the report lost something (never a verdict). Release with
 * convert_outcome_free whatever it returns. */
mdl_status convert_run(const struct convert_request *rq, struct report *rep, struct convert_outcome *out);
void convert_outcome_free(struct convert_outcome *out);

/* The request run with the library's settings (api_convert.c: as mdl_convert_*_json; fix's
 * mdl_fix_*_json too): the report as JSON text, the held bytes into *out_bytes. */
char *convert_json(struct convert_request *rq, const char *const *settings, void **out_bytes,
                   size_t *out_size, mdl_status *status, char *error, size_t error_size);

/* The format whose extension ends path (case-insensitive), or NULL. */
const struct mdl_format *convert_format_for_path(const char *path);

#endif
