/* format.h - what a format plugs in: detection, a decoder into the common model, a writer.
 * A format registers itself in formats.c; nothing else needs to know it exists. */
#ifndef MDL_FORMAT_H
#define MDL_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "diag.h"
#include "model.h"
#include "reader.h"

struct text_window;

struct decode_ctx {
  struct reader in;          /* the whole input */
  struct text_window *text;  /* in's pages, given back as the decoder finishes with them
                              * (text_window.h: a mapped input's), or NULL */
  struct diag_sink *diag;
  const mdl_options *options;
  const char *name_hint;     /* file name or NULL; a decoder reads it through decode_name */
  int name_read;             /* decode_name was called: the findings may depend on the name */
  char version[32];          /* filled by the decoder: the format version as text */
  char compression[8];       /* filled by the decoder: "zlib", "gzip", or "" (not compressed) */
  int keep_frames;           /* decode the animation strip into model.frames */
  int skeleton_only;         /* with keep_frames: the geometry may stay out of the model
                              * (PIPELINE_SKELETON) */
  int frames_lazy;           /* with keep_frames: frames are read only through model_frame_get
                              * (PIPELINE_FRAMES_LAZY): a decoder may set model.frame_get */
  int joints_unread;         /* nothing reads the model's joints (validation without --target):
                              * a decoder may count them (decode_count DC_JOINTS) and build none */
  int refs_unread;           /* nothing reads the model's references (validation without
                              * --resources): a decoder may record none (model_ref_add) */
  int refs_distinct;         /* only the first reference to each file is read (--resources in a
                              * validation: resources_check checks each file once, where the
                              * model first names it): a decoder may skip the later ones */
  int input_too_large;       /* set by a decoder whose inner input (inflated text) passed
                              * options->max_input_size: the run is an I/O failure (MDL_EIO) */
  struct mem_bound *bound;   /* validation's memory bound (--max-memory), or NULL: the model's
                              * arena charges it; a decoder's own arenas and tables charge it
                              * too (arena.bound, mem_bound_grow), and one whose text is not the
                              * input (an inflated .egg.pz) moves it (mem_bound_text) */
  unsigned num_extra;        /* the format's own counts for the report's stats (decode_stat) */
  mdl_stat extra[MDL_STATS_EXTRA_MAX];
  unsigned counted;          /* bits (1 << enum decode_count_kind) the decoder counted itself */
  unsigned long long count[6];
};

/* The model's counts a decoder that skips filling part of the model when only validating
 * (keep_frames 0) states itself: the count, or MDL_STAT_UNKNOWN. */
enum decode_count_kind { DC_JOINTS, DC_MESHES, DC_VERTICES, DC_TRIANGLES, DC_ANIMATIONS, DC_FRAMES };
void decode_count(struct decode_ctx *ctx, enum decode_count_kind kind, unsigned long long value);

/* The input's file name (or NULL), for a decoder whose findings depend on it (Egg: a .pz name on
 * uncompressed bytes); marks the decode as one that read the name (pipeline_run.name_read). */
const char *decode_name(struct decode_ctx *ctx);

/* Report a count only this format has (Egg "groups") in the file's stats; name is static and
 * is the JSON key. Counted only when the decode goes to its end. */
void decode_stat(struct decode_ctx *ctx, const char *name, unsigned long long value);

/* Elements a report may point at in a file (compare names where each side holds them). Those
 * after FMT_EL_NONE only some formats hold: locators that index tables by element stop at NONE. */
enum format_elem { FMT_EL_JOINT, FMT_EL_ANIM, FMT_EL_MESH, FMT_EL_BASEPOSE, FMT_EL_FRAME, FMT_EL_NONE,
                   FMT_EL_TAG, FMT_EL_LOD };

struct format_where {
  long long offset; /* -1: none */
  uint32_t line;    /* 0: none */
};

/* How a format finds its elements in its bytes; every hook may be absent (NULL). */
struct format_locator {
  /* An index of data's elements (data stays valid until close), or NULL when out of memory. */
  void *(*open)(const unsigned char *data, size_t size);
  void (*close)(void *ix);
  /* Where element n is (FMT_EL_FRAME: sub is the pose within the frame); w keeps -1/0 when
   * unknown. */
  void (*where)(const void *ix, enum format_elem e, uint32_t n, uint32_t sub, struct format_where *w);
  /* How far the stored pose may be from the value it stores, per channel (Tx..Sz): printed
   * text's last digit, or a quantization the model's channels do not describe (X42's base
   * pose); 0, or -1 when the element is no such pose. */
  int (*resolution)(const void *ix, enum format_elem e, uint32_t n, uint32_t sub, double res[10]);
};

struct write_losses;
struct fix_repair;

struct write_opts {
  const char *version; /* target version, or NULL for the format's current one */
  const char *path;    /* the file the bytes go to, or NULL: a writer may pick its container
                        * from the name (Egg: ".pz" is written zlib-compressed) */
  struct write_losses *losses; /* where the writer announces what it cannot carry
                                * (core/write_loss.h); NULL: no one listens */
  int foreign; /* the model was decoded from another format: the writer fits it to its own
                * format's rules; 0 keeps what a file of this format stored (round trips) */
};

/* How a format stores poses and vertex values, so a comparison knows the bound of what it reads:
 * 32-bit floats, printed decimals (each value's last digit), or the format's own quantization
 * (the locator's resolution hook says how much). */
enum format_precision { FMT_PRECISION_OWN, FMT_PRECISION_FLOAT32, FMT_PRECISION_PRINTED };

/* One --profile name a format gives a meaning to, and that meaning (for --help and the docs). */
struct format_profile {
  const char *name, *meaning;
};

/* A format describes itself: core, the tool and the faces look these up instead of a name.
 * Written with designated initialisers; what a format leaves out is 0 / NULL. */
struct mdl_format {
  /* an array, not a pointer: its address is a constant, so the list of names is a constant
   * table (formats.c) that no call writes */
  const char name[16];
  const char *description;
  const char *const *extensions; /* lower case, with the dot; NULL-terminated */
  int text;                      /* a text format (positions are line:column), else binary */
  enum format_precision precision;
  /* The profiles it gives a meaning to, as documented (the names profile_at gives, the
   * user's declared ones aside), NULL-terminated by name; NULL when none. */
  const struct format_profile *profile_docs;
  /* Confidence 0..100 that data is this format, from content alone. */
  int (*detect)(const unsigned char *data, size_t size);
  /* Decode and check. Return 0 only when the whole input was checked and the model is usable;
   * -1 when decoding gave up: after an error or fatal diagnostic about the input, or on an
   * allocation failure (the pipeline reports MDL-MEM-001 for a -1 with no error, and whenever
   * the model's arena failed). A check that cannot allocate must make the decoder return -1
   * or emit MDL-MEM-001 itself (diag_out_of_memory). */
  int (*decode)(struct decode_ctx *ctx, struct model *m);
  /* Serialise the model; 0 or -1 (with a reason in out->error). NULL when unsupported. */
  int (*write)(const struct model *m, const struct write_opts *opts, struct byte_buf *out);
  /* Let go of what the decode kept for write alone (Egg: its tree, which the Egg writer writes
   * again), once m will not be written; what the model holds stays valid (issue 26: convert,
   * fix and compare held a source's tree beside its model and the proof's decode). NULL: the
   * model holds nothing only a writer reads. */
  void (*release_source)(struct model *m);
  /* The format's own 4x4 for frame f of pose p when TRS cannot express it exactly (shear,
   * arbitrary order strings), row-major as the format defines it; 0, or -1 when it has none.
   * NULL for formats whose frames are TRS. */
  int (*pose_matrix)(const struct model *m, uint32_t f, uint32_t p, double out[16]);
  /* The i-th --profile name this format gives a meaning to, written into buf (cap bytes): 0, or
   * -1 past the last. NULL when it has none. The options are passed because X42 also accepts
   * the name of the user's declared layout; the caller's buffer because names may be built. */
  int (*profile_at)(const mdl_options *o, size_t i, char *buf, size_t cap);
  /* Check, before any file is read, the options only this format reads (X42: the --x42-layout
   * file reads and parses). 0, or -1 with a one-line reason in err. NULL: nothing to check. */
  int (*options_check)(const mdl_options *o, char *err, size_t errcap);
  const struct format_locator *locator; /* NULL: diagnostics about the file name no place */
  /* The axis a model of this format stands along, "y" or "z": a viewer's up (the page). */
  const char *up_axis;
  /* Repair in m (and its format_data) what `mdlcheck fix` repairs beyond what writing the
   * model again with this writer does (core/fix_repair.h); NULL: the rewrite alone repairs. */
  int (*repair)(struct model *m, struct fix_repair *fx);
};

extern const struct mdl_format *const mdl_format_table[];

const struct mdl_format *format_find(const char *name);
/* Check the options before any file is read: every format's own options, and that a --profile
 * is known to some format (err then lists the known names). 0, or -1 with a reason in err. */
int format_options_check(const mdl_options *o, char *err, size_t errcap);
/* The format whose extension the name ends with, or NULL. */
const struct mdl_format *format_by_extension(const char *name);
/* Best match by content, then by the name's extension; NULL when nothing matches. */
const struct mdl_format *format_detect(const unsigned char *data, size_t size, const char *name_hint);

#endif
