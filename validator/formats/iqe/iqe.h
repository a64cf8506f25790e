/* iqe.h - the IQE (Inter-Quake Export) text checker: lexer, command table, per-area handlers,
 * whole-file checks, the model builder and the canonical writer.
 *
 * The input is read twice: a counting pass sizes every array exactly (no growth, no per-element
 * allocation), then the checking pass parses each command through its table entry. */
#ifndef MDL_IQE_H
#define MDL_IQE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format.h"

/* ---- lexing ----------------------------------------------------------------------------- */

struct iqe_tok {
  const char *s;     /* token text (for a quoted name: inside the quotes) */
  uint32_t len;
  uint32_t col;      /* 1-based byte column of the token's first byte */
  uint8_t quoted, unterminated;
};

struct iqe_line {
  const char *s;     /* line start (no newline, no trailing CR) */
  size_t len;
  uint32_t no;       /* 1-based line number */
  size_t next;       /* offset of the following line */
  uint8_t lone_cr;   /* the line ended in a CR without LF */
};

/* Line cursor over the whole input: a line ends at LF, CR LF or a lone CR. Return 0 at end of
 * input. */
int iqe_line_next(const unsigned char *data, size_t size, size_t *pos, uint32_t *lineno,
                  struct iqe_line *ln);
/* Split a line into tokens; a token starting with '"' runs to the next '"' or end of line.
 * Return the number of tokens (counting beyond cap; only cap are stored). */
uint32_t iqe_tokenize(const struct iqe_line *ln, struct iqe_tok *toks, uint32_t cap);
/* The first cap tokens only (the rest of the line is not read): the window iqe_arg reads
 * through. */
uint32_t iqe_tokenize_some(const struct iqe_line *ln, struct iqe_tok *toks, uint32_t cap);

/* A comment line's first token: an unquoted '#'. A quoted token's text starts inside its quotes,
 * and at the input's end it is empty, so len is tested before the byte is read. */
static inline int iqe_tok_is_comment(const struct iqe_tok *t)
{
  return t->len && t->s[0] == '#' && !t->quoted;
}

/* iqe_tokenize(ln, first, 1), faster: the count pass wants only the first token and how many
 * there are. */
uint32_t iqe_count_tokens(const struct iqe_line *ln, struct iqe_tok *first);

/* The usual line read in one pass, without a line cursor: s[0..avail) runs from a line's start
 * to the input's end; the line's command is its first two bytes, followed by blanks and plain
 * finite decimals only (each converted where it starts, and it must end at a blank or the
 * line's end), then LF or the input's end. At most max values; tokens into toks[0..cap)
 * (toks[0] the command). Return how many values (in vals, as iqe_parse_real gives them) with
 * *len the line's length, or -1 when the line has anything else (more than max values, a bad
 * or non-finite number, a quote, a CR, more than 511 bytes): the general path reads it. */
int iqe_lex_reals(const char *s, size_t avail, size_t *len, struct iqe_tok *toks, uint32_t cap,
                  uint32_t max, double *vals);

/* The counting pass's usual line, without a line cursor: s[0..avail) runs from a line's start
 * to the input's end, the line starts with a two-byte command and a blank. Return the line's
 * token count (as iqe_count_tokens) with *len its length up to its LF, or -1 for anything else
 * (a quote, a CR, no LF in the 16-byte steps before the input's end): the cursor reads it. */
int iqe_count_line(const char *s, size_t avail, size_t *len);

enum iqe_num_status { IQE_NUM_OK, IQE_NUM_BAD, IQE_NUM_NONFINITE };
/* Decimal number: [+-](digits[.digits]|.digits)([eE][+-]digits); nan/inf give NONFINITE. */
enum iqe_num_status iqe_parse_real(const char *s, size_t len, double *out);
/* Base-10 integer within int32. BAD also for a number with a fraction (check with parse_real). */
enum iqe_num_status iqe_parse_int(const char *s, size_t len, long *out);

/* ---- commands --------------------------------------------------------------------------- */

enum iqe_cmd {
  CMD_VP, CMD_VT, CMD_VN, CMD_VX, CMD_VB, CMD_VC,
  CMD_V0, CMD_V1, CMD_V2, CMD_V3, CMD_V4, CMD_V5, CMD_V6, CMD_V7, CMD_V8, CMD_V9,
  CMD_VS, CMD_VERTEXARRAY, CMD_MESH, CMD_MATERIAL, CMD_FA, CMD_FM, CMD_FS,
  CMD_SMOOTHUV, CMD_SMOOTHGROUP, CMD_SMOOTHANGLE, CMD_PQ, CMD_PM, CMD_PA, CMD_JOINT,
  CMD_ANIMATION, CMD_LOOP, CMD_FRAMERATE, CMD_FRAME, CMD_COMMENT, CMD_COUNT
};

enum iqe_args { ARGS_NONE, ARGS_REALS, ARGS_INTS, ARGS_NAME, ARGS_TEXT };

#define IQE_UNBOUNDED 255
#define IQE_MAX_VALUES 16
/* Tokens of a line kept at once: more than any bounded command takes (the command, 15 values
 * and the first surplus one) */
#define IQE_TOKS 64
/* vb pairs of a line compared for a repeated joint index (real lines hold a few) */
#define IQE_VB_KEPT 16

struct iqe_parser;

/* A command's handler. vals: parsed values (REALS, with defaults filled up to max_args) or NULL;
 * given: how many the line supplied. */
typedef void iqe_handler(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                         uint32_t nargs, const double *vals, uint32_t given);

struct iqe_command {
  const char *name;
  enum iqe_cmd id;
  enum iqe_args args;
  uint8_t min_args, max_args;      /* values below min: too few (error); above max: surplus */
  double defaults[IQE_MAX_VALUES]; /* for REALS: values of unspecified trailing arguments */
  iqe_handler *handle;
};

extern const struct iqe_command iqe_commands[CMD_COUNT];
const struct iqe_command *iqe_command_find(const char *s, size_t len);

/* ---- parser state ----------------------------------------------------------------------- */

enum iqe_attr {
  ATTR_VP, ATTR_VT, ATTR_VN, ATTR_VX, ATTR_VB, ATTR_VC,
  ATTR_V0, ATTR_V9 = ATTR_V0 + 9, ATTR_VS, ATTR_COUNT
};

/* Ascending line numbers of an array's elements in about one byte each (iqe_lines.c), where a
 * uint32_t each cost more than the values of a short line (`vp`): element k's distance from
 * element k - 1, 255 for a far one (looked up among the far ones), and every IQE_LINES_MARK-th
 * element's line in full. Sized by the counting pass. */
#define IQE_LINES_MARK 64
struct iqe_far_line { uint32_t k, line; };
struct iqe_lines {
  uint8_t *step;
  uint32_t *mark;               /* line of element k * IQE_LINES_MARK */
  struct iqe_far_line *far;     /* ascending k (malloc) */
  uint32_t num_far, far_cap;
  uint32_t last;                /* the line last put */
};
/* Element k's line (k: the count before it). -1 when out of memory. */
int iqe_lines_put(struct iqe_lines *l, uint32_t k, uint32_t line);
/* Element k's line (k < the count put). */
uint32_t iqe_lines_get(const struct iqe_lines *l, uint32_t k);
/* How many of the first n elements have a line before `line`. */
uint32_t iqe_lines_before(const struct iqe_lines *l, uint32_t n, uint32_t line);

/* One per-vertex attribute stream as parsed: count * stride values (none for vb, whose pairs
 * hold its values, nor for vc without a model: v and f NULL), in double (v) when that
 * costs at most twice the bytes of the stream's lines or a `vertexarray` may declare 32-bit
 * integers, else in float (f): memory stays proportional to the file on the shortest lines
 * (`vp 0 0 0`). stride is the most values any line gave; components past it read as the
 * command's defaults. vs keeps its 32-bit integer bit for bit in f. Read through iqe_attr_get
 * (iqe_attr_int for vs); written by iqe_vertex_attr, a line's values at once.
 *
 * Packed instead (pk, v and f NULL; iqe_attr_pack.c) where a value per component would cost
 * more than 1.6 x the text of the lines (short lines after one long one: `vp` lines after a
 * `vp 0 0 0` stored 12 bytes each, 5.5 x the text; 24 with a `vertexarray`, 9.4 x): each element
 * keeps its values up to its last one that is not the default, in float where that holds the
 * value exactly (always, for an array in float), with its count in a nibble. The values read
 * are the same. */
struct iqe_attr_arr {
  double *v;
  float *f;
  unsigned char *pk;       /* the packed values, element after element */
  unsigned char *pk_n;     /* a nibble per element: how many values (bits 0-2), double (bit 3) */
  uint64_t *pk_mark;       /* byte offset of element k * IQE_LINES_MARK's values */
  uint64_t pk_end;         /* bytes written */
  int pk_double;           /* a value a float does not hold exactly is kept in double */
  const double *defaults;
  uint32_t stride, count, cap;
  uint32_t first_line, last_line;
  struct iqe_lines lines; /* line of each element: locates a length mismatch */
  uint32_t given;    /* from the counting pass: the most values on one line */
  uint64_t bytes;    /* from the counting pass: the bytes of its lines */
};

/* A packed array's component c < stride of element e (iqe_attr_pack.c); its first n components
 * (n <= IQE_MAX_VALUES, past the stride the defaults); element e's values (stride of them)
 * written. */
double iqe_attr_packed(const struct iqe_attr_arr *a, uint32_t e, uint32_t c);
void iqe_attr_packed_n(const struct iqe_attr_arr *a, uint32_t e, double *out, uint32_t n);
void iqe_attr_pack(struct iqe_attr_arr *a, uint32_t e, const double *src);

/* Component c of element e (e < count); past the stride, the command's default. */
static inline double iqe_attr_get(const struct iqe_attr_arr *a, uint32_t e, uint32_t c)
{
  size_t k = (size_t)e * a->stride + c;
  if (c >= a->stride)
    return a->defaults ? a->defaults[c] : 0;
  if (a->pk)
    return iqe_attr_packed(a, e, c);
  return a->v ? a->v[k] : (double)a->f[k];
}

/* The first n components of element e, as iqe_attr_get reads them (a packed element's place
 * found once) */
static inline void iqe_attr_get_n(const struct iqe_attr_arr *a, uint32_t e, double *out, uint32_t n)
{
  if (a->pk) {
    iqe_attr_packed_n(a, e, out, n);
    return;
  }
  for (uint32_t k = 0; k < n; k++)
    out[k] = iqe_attr_get(a, e, k);
}

/* vs: a 32-bit integer per element, exact in either storage */
static inline int32_t iqe_attr_int(const struct iqe_attr_arr *a, uint32_t e)
{
  int32_t i;
  if (a->v)
    return (int32_t)a->v[(size_t)e * a->stride];
  memcpy(&i, &a->f[(size_t)e * a->stride], sizeof i);
  return i;
}

static inline void iqe_attr_put_int(struct iqe_attr_arr *a, uint32_t e, int32_t i)
{
  if (a->v)
    a->v[(size_t)e * a->stride] = i;
  else
    memcpy(&a->f[(size_t)e * a->stride], &i, sizeof i);
}

/* Declared layout from `vertexarray`: per IQM type slot (7 standard + 10 custom). */
struct iqe_layout {
  int declared;
  uint32_t format, size;
  const char *name;
  uint32_t line;
};
#define IQE_SLOTS 17
#define IQE_LINE_MARK 64

struct iqe_pair { int32_t index; double weight; };

/* Names interned once (iqe_names.c): a record holds a 4-byte id, equal names (as C strings: a
 * name ends at a NUL byte for every reader) get one id and one copy in the model arena, so a
 * file repeating `joint a` or `material a` keeps one "a". */
struct iqe_name {
  const char *s;   /* NUL-terminated, in the model arena */
  uint32_t len;
  uint32_t joints; /* bit 31: its material ref is recorded (joint names are not interned) */
};
#define IQE_NAME_REF 0x80000000u
struct iqe_names {
  struct iqe_name *v;   /* by id (malloc); id 0 is "" */
  uint32_t n, cap;
  uint32_t *slot;       /* open addressing: id + 1, 0 empty (malloc) */
  uint32_t slot_cap;
  char *pool;           /* short names are carved from model-arena blocks unaligned */
  size_t pool_left;
};

/* Joints and animations keep no columns: a diagnostic that needs one reads it again from the
 * line (iqe_line_col), which keeps a file of `joint` lines within a few bytes a line. A joint's
 * line is in joint_lines (a byte), its name in the text: joint names are not interned. */
struct iqe_joint {
  uint32_t name;   /* the name's key in joint_set: equal names, equal keys */
  int32_t parent;
};

/* The names of joints or of animations (iqe_name_set.c), for the duplicate checks and the
 * model: open addressing over where each distinct name first is, sized once by the counting
 * pass (the distinct names a file of such lines can hold) and never grown, so a slot's number
 * is a stable key. A name is read again from the text: a copy and an interned id each cost 3
 * to 4 x the text of a file of unique `joint` or `animation` lines. The empty name's key is
 * cap. */
#define IQE_NAME_SET_FEW 8
struct iqe_name_set {
  uint32_t *slot;       /* text offset of the name's token + 1, or (a text past
                           IQE_NAME_OFF_MAX) its first element + 1; 0: empty (calloc: pages
                           no name reaches are never touched) */
  uint32_t cap;         /* a power of two */
  unsigned char *rep;   /* a bit per key: the name is on more than one element */
  uint32_t num_rep;     /* names on more than one element */
  uint32_t few[IQE_NAME_SET_FEW]; /* the first of them (keys) */
  uint32_t used;
  int empty_seen;
  int anims;            /* the elements are animations, else joints */
};
#ifndef IQE_NAME_OFF_MAX
#define IQE_NAME_OFF_MAX (UINT32_MAX - 1) /* a test build may lower it to read names by line */
#endif

struct iqe_frame {
  uint32_t first_pose, num_poses;
  uint32_t line;
};

/* name: a key in anim_set, or IQE_ANIM_UNNAMED for the dummy name "animation<index>" (made
 * only for the model and for messages: a file of `animation` lines costs no name per line) */
#define IQE_ANIM_UNNAMED UINT32_MAX
struct iqe_anim {
  uint32_t name;
  uint32_t num_frames;
  uint32_t line;
};
/* what only the model reads, kept only when a model is built */
struct iqe_anim_play {
  uint32_t first_frame, flags;
  double framerate;
};

struct iqe_mesh {
  const char *name, *material;
  uint32_t first_vertex, end_vertex;  /* vertices defined inside the mesh's block */
  uint32_t ref_min, ref_max;          /* vertices its faces reference (ref_min > ref_max: none) */
  uint32_t first_triangle, num_triangles;
  uint32_t line;
};

/* Smoothing parameters for the triangles that follow (iqe.txt "Smoothing"): recorded by
 * iqe_face.c, used by iqe_smooth.c when normals are generated. */
struct iqe_smooth_state {
  long key;              /* smoothgroup, default -1 */
  double angle;          /* smoothangle in degrees, default 180 */
  int uv;                /* smoothuv N > 0 (N missing: enabled, as the reference compiler) */
  uint32_t first_vertex; /* vertex count when set: face-less triangles from here on use it */
};

struct iqe_parser {
  struct decode_ctx *ctx;
  struct model *m;
  int keep_geo;                   /* the model gets the geometry (keep_frames, not
                                     skeleton_only): what only it reads is kept */
  struct arena scratch;           /* parse-time arrays, freed after the model is built */
  const unsigned char *data;
  size_t size;

  uint32_t counts[CMD_COUNT];     /* from the counting pass */
  uint32_t vb_pairs, tri_cap;
  int va_not_float;               /* from the counting pass: a `vertexarray` declares a component
                                     format other than float (or none): values kept in double */
  /* The current line's first IQE_TOKS tokens (toks[0]: the command), its token count, and a
   * window on the tokens past them (iqe_arg): a line of millions of values costs no more than
   * a short one, where an array sized to the longest line cost 24 bytes a token (12 x a file
   * of "vp 1 1 1 ..."). Only the unbounded commands (vb, fa, fm, fs) read past IQE_TOKS. */
  struct iqe_tok toks[IQE_TOKS];
  const struct iqe_line *line;
  uint32_t line_toks;
  struct iqe_tok far[IQE_TOKS];   /* tokens far_first .. far_first + far_n - 1 of the line */
  uint32_t far_first, far_n;
  size_t far_end;                 /* line offset just past the window's last token */
  uint32_t *idx_buf;              /* a face's corners past the stack's (malloc, reused) */
  uint32_t idx_cap;

  struct iqe_attr_arr attr[ATTR_COUNT];
  /* vb pairs: all of them when a model is built (keep_frames), with each element's first and
   * count; else the current line's first IQE_VB_KEPT only (vb_first, vb_num NULL), which the
   * repeated-index check reads */
  struct iqe_pair *pairs;
  uint32_t *vb_first, *vb_num;
  uint32_t num_pairs, pairs_cap;
  uint32_t vx_count[2];           /* vx lines of each form: [0] tangent+sign, [1] +bitangent */
  uint32_t vx_first_line[2], vx_first_col[2];
  /* lines of unknown commands (a byte each: a file of `x` lines cost 4 bytes a line here) */
  struct iqe_lines unknown_lines;
  uint32_t num_unknown, unknown_cap;

  struct iqe_layout layout[IQE_SLOTS];

  uint32_t *tris;                 /* 3 per triangle, global indexes (a model only) */
  /* validation's face triangles (the tangent check reads them): each good face's corners, a
   * bit per corner set where a face starts; a fan of n corners costs n, not 3 (n - 2) */
  uint32_t *corners;
  unsigned char *corner_start;
  size_t num_corners, corner_cap;
  uint32_t *tri_line;             /* per triangle its face's line, when spans are asked (else NULL) */
  uint32_t num_tris;
  uint32_t num_faces, num_fs;
  /* the first fs_pairs face commands and fs lines (fs_pairs: the fewer of the two), as pairs;
   * the line of the first face or fs without a partner (the face numbered as many as the fs
   * lines, or the other way round), 0 when none */
  uint32_t fs_pairs;
  uint32_t *face_arity, *face_line;
  uint32_t *fs_arity, *fs_line;
  uint32_t face_unpaired_line, fs_unpaired_line;
  /* a pair is compared when its second half is read, so validation keeps only the half read
   * first (a model keeps both: smoothing reads them); the first pair that differs */
  struct { int found; uint32_t k, face_line, face_arity, fs_line, fs_arity; } fs_mismatch;

  /* smoothing (iqe_face.c): states[0] holds the defaults once any is recorded; per face
   * triangle its state, face command and fan step; per fs paired with a face its flags (0/1),
   * only when a model is built (smoothing reads them) */
  struct iqe_smooth_state *smooth;
  uint32_t num_smooth;
  uint32_t *tri_smooth, *tri_face, *tri_fan;
  unsigned char **fs_flags;

  /* meshes: num_meshes counts every mesh (paths, counts); validation keeps a record only for a
   * mesh a later check reads (iqe_face.c mesh_open), num_mesh_recs of them, the current mesh
   * last; a model keeps every one */
  struct iqe_mesh *meshes;
  uint32_t num_meshes, num_mesh_recs;
  /* in a file without faces, the vertex range and line of each mesh holding vertices, recorded
   * as it closes: what the checks at the end read of it (its incomplete group, its face-less
   * triangles), so validation keeps no mesh record for it; else NULL */
  struct iqe_mesh_span { uint32_t first_vertex, end_vertex, line; } *spans;
  uint32_t num_spans;
  int in_mesh;                    /* a mesh command was seen */
  /* validation without --resources: the current mesh's last `material` name (in the text, not
   * interned), interned when the mesh closes only if its record is kept (it has triangles):
   * a file of unique `material` lines interned each name and recorded a texture reference
   * each (12 x the text) that nothing read */
  const char *mat_s;
  size_t mat_len;
  int mat_set;
  /* the same for the current mesh's own name (a file of unique `mesh` lines: 3.6 x the text) */
  const char *mesh_s;
  size_t mesh_len;
  int mesh_set;
  int mesh_used;                  /* the current mesh has faces */

  struct iqe_joint *joints;
  uint32_t num_joints;
  struct iqe_lines joint_lines;
  struct iqe_name_set joint_set;
  uint32_t joint_long;            /* from the counting pass: joint lines of 9 bytes or more, the
                                     only ones that can name more than 65281 distinct names */

  /* base poses then animation poses, in file order: the line of each, and its transform when
   * a model is built (keep_frames; else NULL: validation reads the values once, in place) */
  uint32_t *pose_lines;
  struct trs *pose_trs;
  /* poses (of a file without animations, or read one frame at a time): no pose_trs, each rest
   * and frame pose computed again from its line as the output reads it (iqe_poses.c; issue 26: a pose of 80 bytes for a `pq 0 0 0 0 0 0` line
   * of 15, a model joint of 16 and an interned name for a `joint` line of 6), and each animation
   * read again from its line (no play record). The joint, frame and animation records and the
   * line tables the walk reads are then in the model's arena. */
  int by_line;
  uint32_t num_poses;
  /* pose_trs holds only the poses the model reads: with joints, the first base pose per joint
   * and the first pose per joint of each frame (surplus ones are reported, not built); each
   * frame's first in frame_kept */
  uint32_t num_kept;
  uint32_t poses_cap;     /* pose_trs's room, and one more: the spare last the model's identity rest */
  uint32_t *frame_kept;
  uint32_t num_base_poses;
  int in_animation;

  struct iqe_frame *frames;
  uint32_t num_frames;
  int frame_open;                 /* the last frame accepts poses */
  struct iqe_anim *anims;
  struct iqe_anim_play *anim_play; /* per animation, when a model is built; else NULL */
  struct iqe_name_set anim_set;
  uint32_t anim_long;             /* animation lines of 13 bytes or more (as joint_long) */
  uint32_t num_anims;
  int frame_number_noted;         /* a "frame N" with another N was reported for the current
                                     animation */
  struct iqe_names names;

  const unsigned char *comment;
  size_t comment_size;

  size_t *line_marks;             /* offset of lines 1, 1 + IQE_LINE_MARK, ... (column 0 is
                                     placed by reading on from the mark: no array per line) */
  uint32_t num_lines;
};

/* Value i of the current line (its token i + 1); args is p->toks + 1. Past the stored tokens it
 * is read again from the line through a window (sequential reads cost the line once, going
 * back restarts the window); the pointer holds until the next call. */
const struct iqe_tok *iqe_arg_far(struct iqe_parser *p, uint32_t i);
static inline const struct iqe_tok *iqe_arg(struct iqe_parser *p, const struct iqe_tok *args,
                                            uint32_t i)
{
  return i + 1 < IQE_TOKS ? &args[i] : iqe_arg_far(p, i);
}

/* Argument helpers: parse one token, emitting IQE-NUM-001/002/005 at its column on failure.
 * Return 0 when *out holds the value. */
int iqe_arg_real(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *t,
                 double *out);
int iqe_arg_int(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *t,
                long *out);
/* A name argument's checks (an unterminated quote, its characters), as iqe_arg_name makes them
 * before it interns the name. */
void iqe_arg_name_check(struct iqe_parser *p, const struct iqe_line *ln,
                        const struct iqe_tok *args, uint32_t nargs);
/* A name argument (quoted or one token) interned (iqe_name_id); id 0 ("") when absent. */
uint32_t iqe_arg_name(struct iqe_parser *p, const struct iqe_line *ln,
                      const struct iqe_tok *args, uint32_t nargs);
/* The id of s[0..len) up to its first NUL (iqe_names.c); id 0 ("") when out of memory (the
 * scratch arena is marked failed: MDL-MEM-001). */
uint32_t iqe_name_id(struct iqe_parser *p, const char *s, size_t len);
static inline const char *iqe_name(const struct iqe_parser *p, uint32_t id)
{
  return id < p->names.n ? p->names.v[id].s : "";
}
void iqe_names_free(struct iqe_names *n);
/* A name set (iqe_name_set.c): sized for count elements, longs of them on lines long enough for
 * a name of 3 bytes (-1 when out of memory); the key of element e's name token (NULL: none;
 * e: the element being read); the name of a key (s[0..*len), no NUL in it); whether a key's
 * name is on more than one element; freed. */
int iqe_name_set_alloc(struct iqe_name_set *set, int anims, uint32_t count, uint32_t longs);
uint32_t iqe_name_set_key(struct iqe_parser *p, struct iqe_name_set *set, const struct iqe_tok *t,
                          uint32_t e);
void iqe_name_set_name(const struct iqe_parser *p, const struct iqe_name_set *set, uint32_t key,
                       const char **s, size_t *len);
int iqe_name_set_repeated(const struct iqe_name_set *set, uint32_t key);
void iqe_name_set_free(struct iqe_name_set *set);
/* Line `line` of the text (0 when there is none), found from its line mark; the same from the
 * marks alone (marks[k]: the offset of line k * IQE_LINE_MARK + 1). */
int iqe_line_find(const struct iqe_parser *p, uint32_t line, struct iqe_line *ln);
int iqe_line_at(const unsigned char *data, size_t size, const size_t *marks, uint32_t num_lines,
                uint32_t line, struct iqe_line *ln);
/* Animation a's name (*len bytes, no NUL in them): its own, or the dummy "animation<a>" written
 * into buf. */
const char *iqe_anim_name(const struct iqe_parser *p, uint32_t a, char buf[32], size_t *len);
/* The column of token k (0: the command) of line `line`, read again from the text; that of the
 * command when the line has no token k. */
uint32_t iqe_line_col(struct iqe_parser *p, uint32_t line, uint32_t k);

/* Diagnostics at a token (line, column) with an optional structural path. */
void iqe_emit(struct iqe_parser *p, enum rule_index rule, uint32_t line, uint32_t col,
              const char *expected, const char *actual_fmt, ...)
  __attribute__((format(printf, 6, 7)));
void iqe_emit_path(struct iqe_parser *p, enum rule_index rule, uint32_t line, uint32_t col,
                   const char *path, const char *expected, const char *actual_fmt, ...)
  __attribute__((format(printf, 7, 8)));

/* Area handlers (the command table points at these). */
iqe_handler iqe_vertex_attr, iqe_vertex_blend, iqe_vertex_smooth, iqe_vertex_array;
iqe_handler iqe_face_mesh, iqe_face_material, iqe_face_add, iqe_face_smooth_flags;
iqe_handler iqe_face_smoothing;
iqe_handler iqe_skeleton_joint, iqe_skeleton_pose;
iqe_handler iqe_anim_begin, iqe_anim_setting, iqe_anim_frame;

/* At end of input: every present array as long as the vertex count, a mismatch located where
 * the array leaves step with the vp lines (IQE-VTX-001, IQE-VTX-010); one vx form. */
void iqe_vertex_check_finish(struct iqe_parser *p);
/* The vertex count faces index: vp count, or the longest array without vp. */
uint32_t iqe_vertex_count(const struct iqe_parser *p);
/* Close the open frame at `line` (the command that ends it): an empty frame is reported and
 * dropped, as the reference compiler drops it. */
void iqe_anim_close_frame(struct iqe_parser *p, uint32_t line);
/* Build a pose from pq / pm / pa values with the spec's defaults; checks emit at ln (p NULL:
 * nothing is emitted). */
void iqe_pose_from_pq(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                      const double *v, uint32_t given, struct trs *out);
void iqe_pose_from_pm(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                      const double *v, uint32_t given, struct trs *out);
void iqe_pose_from_pa(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                      const double *v, uint32_t given, struct trs *out);

/* The current mesh ends (at a mesh command or the end of the file): its vertex range is known. */
void iqe_mesh_close(struct iqe_parser *p);

/* The k-th face command and the k-th fs, both read: the first pair whose counts differ is kept
 * for faces_check (iqe_face.c). */
void iqe_face_pair(struct iqe_parser *p, uint32_t k, uint32_t face_line, uint32_t face_arity,
                   uint32_t fs_line, uint32_t fs_arity);

/* Degenerate check (IQE-FAC-003) of the face-less triangle of vertices v, v+1, v+2, located
 * at the vp line of v (iqe_face.c). */
void iqe_face_check_implicit(struct iqe_parser *p, uint32_t v);
/* The shared geometry checks on the parsed vn and vx (MDL-GEO-001, MDL-GEO-003; iqe_geometry.c). */
void iqe_geometry_check(struct iqe_parser *p);
/* Smoothing state (index into p->smooth, or UINT32_MAX for the defaults) of parser triangle t,
 * or of a face-less triangle starting at vertex v when t is UINT32_MAX (iqe_face.c). */
const struct iqe_smooth_state *iqe_face_smooth_state(const struct iqe_parser *p, uint32_t t,
                                                     uint32_t v);
/* Smoothing flags (bit k: the edge from corner k to corner k+1 smooths) of parser triangle t;
 * 7 when the file has no fs or the triangle is face-less (iqe_face.c). */
unsigned iqe_face_smooth_edges(const struct iqe_parser *p, uint32_t t);
/* Normals by smoothing when the file gives none (iqe_smooth.c): adds the normal array to the
 * built model, splitting vertices that need more than one normal. tri_src: per model triangle
 * its parser triangle, or UINT32_MAX for a face-less one. Return 0, or -1 on allocation
 * failure. */
int iqe_smooth_normals(struct iqe_parser *p, const uint32_t *tri_src);
/* A vertex array the decoder derived (type VT_NORMAL or VT_TANGENT; vals: 3 or 4 doubles a
 * vertex, as many as the type's default size) in the layout the file declared for it, else
 * IQM's default; inserted in IQM's type order, marked generated when the writer must leave it
 * out. 0, or -1 when out of memory. */
int iqe_varray_derived(struct iqe_parser *p, uint32_t type, int generated, const double *vals, uint32_t nv);

/* The pose of a pq / pm / pa line, as the parser computed it (iqe_poses.c): 0, or -1 when the
 * line is no pose. */
int iqe_pose_read(const struct iqe_line *ln, struct trs *out);
/* A poses decode's model (by_line): its joints walked (model.joint_walk), its rests computed and
 * its animations read (model.anim_get) from the parser's tables, which stay in the model's
 * arena; 0, or -1 when out of memory. */
int iqe_poses_attach(struct iqe_parser *p);
/* The same for the frames (after iqe_poses_attach): model.frame_get, and the joints'
 * names by number, model.joint_name */
void iqe_poses_frames(struct iqe_parser *p);

/* Whole-file checks after the last line, then the model. Return 0, or -1 on allocation failure. */
void iqe_check_finish(struct iqe_parser *p);
int iqe_model_build(struct iqe_parser *p);

/* Component conversion shared by the model builder and the writer (the reference compiler's
 * normalised integer mapping; half truncates). */
void iqe_component_put(unsigned char *dst, uint32_t format, double v, int normalized);
uint32_t iqe_format_bytes(uint32_t format);

/* The canonical writer. */
int iqe_write(const struct model *m, const struct write_opts *opts, struct byte_buf *out);

/* Lines of an IQE file's elements, for reports that point into it (compare), numbered as the
 * model numbers them: frames of the global strip (implicit first frames counted, empty ones
 * dropped) and their poses. Built in one pass; free with iqe_index_free. */
enum iqe_elem { IQE_EL_JOINT, IQE_EL_ANIM, IQE_EL_MESH, IQE_EL_BASEPOSE, IQE_EL_FRAME,
                IQE_EL_POSE, IQE_EL_COUNT };
struct iqe_index {
  uint32_t *lines[IQE_EL_COUNT];
  uint32_t count[IQE_EL_COUNT];
  uint32_t *frame_first_pose;      /* per frame: index into lines[IQE_EL_POSE] */
  size_t *line_offsets;            /* per line number (1-based): its first byte */
  uint32_t num_lines;
};
int iqe_index_build(const unsigned char *data, size_t size, struct iqe_index *ix);
void iqe_index_free(struct iqe_index *ix);
/* Line of element n (for IQE_EL_FRAME with pose > 0: line of its pose-th pose, 1-based); 0 when
 * there is none. */
uint32_t iqe_index_line(const struct iqe_index *ix, enum iqe_elem e, uint32_t n, uint32_t pose);
/* Half the last decimal place of each of the ten channel values (Tx Ty Tz Qx Qy Qz Qw Sx Sy Sz)
 * on pose line `line` (pq: per value; pm, pa: the coarsest on the line): how far the printed
 * text may be from the value it was printed from. Return 0, or -1 when line is no pose. */
int iqe_index_resolution(const struct iqe_index *ix, const unsigned char *data, size_t size,
                         uint32_t line, double res[10]);

#endif
