/* model.h - the common model every decoder fills and every writer reads:
 * skeleton, base pose, animations with decoded frames, meshes, vertex arrays, triangles. */
#ifndef MDL_MODEL_H
#define MDL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "mdlcheck.h"

/* What a frame of the strip is relative to (model.frame_space). Parent-relative is IQM's
 * meaning, which every writer but the format's own expects; model_frames.h converts. */
enum model_frame_space {
  MODEL_FRAMES_PARENT = 0, /* the joint's local transform in its parent's space (IQM, IQE, ...) */
  MODEL_FRAMES_BIND = 1    /* relative to the joint's base pose: parent-relative = pose * frame
                            * as column-vector matrices (QMSH: key S.R.T times mat, row vectors) */
};

/* A local transform in double precision: output = (input * scale) * rotation + translation. */
struct trs {
  double t[3];
  double r[4]; /* quaternion x, y, z, w */
  double s[3];
};

/* A joint: 16 bytes, its rest pose (base pose) kept apart in the model's rests, which joints
 * may share (issue 26: with the pose inside, a joint cost 96 bytes for an Egg `<Joint> j { }`
 * of 14; an Egg joint without a transform shares one identity). Read a pose with model_rest. */
struct model_joint {
  const char *name;
  int32_t parent; /* < 0: root */
  uint32_t rest;  /* its rest pose: the model's rests[rest] */
};

struct model_anim {
  const char *name;
  uint32_t first_frame, num_frames; /* into the model's global frame strip */
  double framerate;
  uint32_t flags; /* MODEL_ANIM_LOOP (IQM keeps its other bits as stored) */
  /* 1: played from its last frame to its first (X42: lastFrame < firstFrame); the frames stay
   * in the strip in ascending order. Not a flag bit: IQM's flags are kept as stored. */
  uint32_t reverse;
};
#define MODEL_ANIM_LOOP 1u

/* How a QMSH point is displayed beside its frame, which no other format holds: the point type
 * (0 plain axes, 1 sphere, 2 box, 3 arrows, 4 single arrow, 5 circle, 6 cone), its size, its
 * Euler rotation, and the fourth column of its 4x4 matrix (_14 _24 _34 _44), which a frame
 * leaves (0, 0, 0, 1). A tag without a display is plain axes of size 1, unrotated
 * (model_tag_display_plain). */
struct model_tag_display {
  uint32_t type;
  double size[3], rot[3], col4[4];
};

/* An attachment point: a named frame fixed to a joint (X42 tags, QMSH points). */
struct model_tag {
  const char *name;
  int32_t joint; /* < 0: model space */
  /* affine in the joint's space: axis0 xyz, axis1 xyz, axis2 xyz, origin xyz;
   * o = axis0 * x + axis1 * y + axis2 * z + origin */
  double m[12];
  /* absolute error of each m[k] beyond float storage when the decoder derived m from what the
   * file stores (a QMSH point's model-space matrix taken into its bone's space), else 0 */
  double tol[12];
  const struct model_tag_display *display; /* NULL: plain (a format that stores only frames) */
};

/* A level of detail: the meshes drawn at that level, a contiguous run (X42 LODs, in file
 * order). A model without levels draws every mesh, as does one level over all of them. */
struct model_lod {
  const char *name;
  uint32_t first_mesh, num_meshes;
};

/* Component formats, numbered as IQM's (the widest set among the formats). */
enum vformat {
  VF_BYTE, VF_UBYTE, VF_SHORT, VF_USHORT, VF_INT, VF_UINT, VF_HALF, VF_FLOAT, VF_DOUBLE, VF_COUNT
};
/* Vertex array types, numbered as IQM's; VT_CUSTOM and above carry a name. */
enum vtype {
  VT_POSITION, VT_TEXCOORD, VT_NORMAL, VT_TANGENT, VT_BLENDINDEXES, VT_BLENDWEIGHTS, VT_COLOR,
  VT_CUSTOM = 16
};

struct model_varray {
  uint32_t type;          /* enum vtype, or >= VT_CUSTOM */
  const char *name;       /* custom name, or NULL */
  uint32_t flags;
  uint32_t format;        /* enum vformat */
  uint32_t size;          /* components per vertex */
  const unsigned char *data; /* num_vertexes * size little-endian components */
  double step[4];         /* the quantization step of components 0-3 as the file stores them
                           * when coarser than format (X42 range packs), else 0 */
  int generated;          /* derived by the decoder, not stated by the file (IQE tangents without
                           * vx, as the IQM compiler derives them): its own writer leaves it out */
};

struct model_extension {
  const char *name;
  const unsigned char *data;        /* size bytes (may be NULL when size is 0) */
  uint32_t size;
};

struct model_mesh {
  const char *name, *material;
  uint32_t first_vertex, num_vertexes;
  uint32_t first_triangle, num_triangles;
};

/* A file the model names: a texture, an external model. Decoders record each where they read it;
 * core/resources.c resolves and checks them when the caller asks (mdl_options.resources). */
enum model_ref_kind { MODEL_REF_TEXTURE, MODEL_REF_MODEL };

struct model_ref {
  struct model_ref *next;
  const char *ref;      /* as written in the file (in the arena, or the decoder's kept text) */
  const char *path;     /* structural path, "" when none */
  const char *format;   /* the format's word for the texture's pixel layout ("rgba", ...), or NULL */
  const char *implied_ext; /* added to a file name without an extension before it is looked up
                            * (Egg <File>: "the extension .egg is implied"), or NULL */
  long long offset;     /* byte offset, or -1 */
  unsigned line, column; /* text position, or 0 */
  unsigned channels;    /* the channels that word asks of the image (set by the decoder, which
                         * knows its format's words), 0 when it asks nothing known */
  /* small fields last, in bytes: a reference is 64 bytes (issue 26: a file may name a million) */
  uint8_t kind;         /* enum model_ref_kind */
  uint8_t conventional; /* a material name engines use as a file name: a convention, not the spec */
  uint8_t alpha_file;   /* an alpha file adds a channel from another image: no channel check */
  uint8_t unused;       /* the format's loader never loads it (an Egg <Texture> no <TRef> names):
                         * no loss when a conversion drops it, no difference when the proof
                         * finds it missing; --resources still looks for the file it names */
};
_Static_assert(sizeof(struct model_ref) <= 64, "a model reference is 64 bytes at most (issue 26)");

/* Content of the source that the common model has no place for (Egg: two-sided polygons,
 * collision solids, switch groups, lines, NURBS ...), recorded by the decoder: a writer of another
 * format announces each (write_loss_unheld), so a conversion never drops it in silence. */
struct model_unheld {
  uint32_t rule;        /* enum rule_index of the announcement (MDL-CNV-*) */
  uint32_t count;       /* how many entries of the source hold it */
  unsigned line, column; /* the first one's place in the source (text), or 0 */
  char what[200];       /* what is lost and how the target shows it instead */
};
#define MODEL_UNHELD_MAX 16

struct model_bounds {
  double bbmin[3], bbmax[3];
  double xyradius, radius;
};

/* Per-channel quantization of a decoded frame strip (IQM-style offset + sample * scale),
 * kept so round trips and comparisons can use the bound the format implies. */
struct model_channels {
  uint32_t mask;
  double offset[10], scale[10];
};

/* Where elements of the model are in their source, for the page's view and locator
 * (mdl_model_*_json): count consecutive elements from index, element k at offset + k * stride
 * (stride bytes long; binary), or one element on lines line..line_end (text, offset -1; count
 * 0: an element the decoder left out, index UINT32_MAX). A
 * decoder records them through model_span_bytes/model_span_lines, which do nothing unless the
 * caller asked (want_spans): validation pays nothing for them. */
enum model_elem { MODEL_EL_JOINT, MODEL_EL_VERTEX, MODEL_EL_TRIANGLE, MODEL_EL_MESH, MODEL_EL_COUNT };

struct model_span {
  uint32_t kind; /* enum model_elem */
  uint32_t index, count, stride;
  long long offset;
  uint32_t line, line_end;
};

/* A walk over a model's joints in order (model_joints_next): the joints a model holds, or those a
 * skeleton-only decode (poses) left unbuilt and its decoder finds again in its own records (issue
 * 26: a model joint of 16 bytes beside its rest pose cost more than an Egg `<Joint>{}`'s text). */
#define MODEL_JOINT_WALK_DEPTH 256 /* joints open at once a decoder's walk may keep */
struct model_joint_cursor {
  uint32_t at;                /* joints given so far */
  struct model_joint joint;   /* the last one given: its name, its parent (rest: unused) */
  const struct trs *rest;     /* its rest pose */
  struct trs own_rest;        /* where a decoder's walk puts a rest pose it computes */
  /* the decoder's walk: where it is, and the joints open there (their places and numbers) */
  size_t pos;
  uint32_t depth;
  uint32_t open[2 * MODEL_JOINT_WALK_DEPTH];
};

struct model {
  struct arena arena;

  int want_spans;                   /* set before decoding: record spans */
  int spans_failed;                 /* a span could not be stored (out of memory) */
  uint32_t num_spans, cap_spans;
  struct model_span *spans;         /* malloc'd, freed by model_free */

  uint32_t num_joints;
  struct model_joint *joints;
  struct trs *rests;                /* the joints' rest poses (model_rest), num_rests of them */
  uint32_t num_rests;
  /* Set by a skeleton-only decode that counted num_joints but left joints NULL: the joint after
   * c's last one into c->joint and c->rest (c->pos, depth and open are the walk's own); 0, or
   * -1 when there is none. Read through model_joints_next. */
  int (*joint_walk)(const struct model *m, struct model_joint_cursor *c);
  /* With joint_walk, set by a decode whose frames name their poses by joint number: the name
   * of joint j, or NULL. Read through model_joint_name. */
  const char *(*joint_name)(const struct model *m, uint32_t j);

  /* Animated transforms: one pose record per animated bone. */
  uint32_t num_poses;
  int32_t *pose_parents;            /* num_poses */
  struct model_channels *channels;  /* num_poses, or NULL when the format does not quantize */
  int rotation_w_derived;           /* frames store x y z only; w = -sqrt(1 - x^2 - y^2 - z^2) (IQM 1) */

  uint32_t num_frames;              /* global strip */
  struct trs *frames;               /* num_frames * num_poses, or NULL when not decoded */
  /* Set by a decode asked for frames one at a time (PIPELINE_FRAMES_LAZY) that left frames NULL:
   * pose p of global frame f into *out (f < num_frames, p < num_poses); 0, or -1. Read through
   * model_frame_get (issue 26: a strip of frames x poses cells of 80 bytes, and the decoder's
   * matrices beside them, is reached from a few KB of text whose tables repeat). */
  int (*frame_get)(const struct model *m, uint32_t f, uint32_t p, struct trs *out);
  /* Where the decoder that set joint_walk, joint_name, frame_get or anim_get keeps why the last of those
   * reads failed (its own state, in format_data, which the reads may change: libyaml's
   * parser.error): MDL_ENOMEM when an allocation of the read failed, else MDL_OK. NULL: its
   * reads allocate nothing. Read through model_read_failure. */
  const mdl_status *read_error;
  uint32_t frame_space;             /* enum model_frame_space; 0 (parent) unless the decoder says */
  const double *frame_times;        /* num_frames key times (s) when frames are keyed by time
                                     * instead of each animation's framerate (QMSH), else NULL */

  uint32_t num_anims;
  struct model_anim *anims;
  /* Set by a skeleton-only decode that counted num_anims but left anims NULL: animation a into
   * *out (its name valid until the next call); 0, or -1. Read through model_anim_get (issue 26:
   * a model animation, its name's copy and the decoder's records beside them cost 4 to 7 x a
   * file of `animation a<N>` lines). */
  int (*anim_get)(const struct model *m, uint32_t a, struct model_anim *out);

  uint32_t num_vertexes;
  uint32_t num_varrays;
  struct model_varray *varrays;

  uint32_t num_triangles;
  const unsigned char *triangles;   /* num_triangles * 3 little-endian u32 */
  const unsigned char *adjacency;   /* same shape, or NULL */

  uint32_t num_meshes;
  struct model_mesh *meshes;

  uint32_t num_tags;
  struct model_tag *tags;
  uint32_t num_lods;                /* 0: no levels (every mesh is drawn) */
  struct model_lod *lods;

  struct model_bounds *bounds;      /* num_frames, or NULL */

  const unsigned char *comment;
  uint32_t comment_size;

  /* Opaque named data blocks a format carries along (IQM extensions), kept for round trips. */
  uint32_t num_extensions;
  struct model_extension *extensions;

  /* Files the model names, in file order (in the arena); model_ref_add appends. */
  struct model_ref *refs, *refs_tail;
  uint32_t num_refs;
  /* Set, in place of refs, by a decode whose references only resources_check reads
   * (decode_ctx.refs_distinct): each distinct file, where the model first names it, in file order,
   * to fn (r valid during the call); walking stops at fn's first non-zero return. What the walk
   * holds is charged to bound (--max-memory; may be NULL). 0, that return, or -1 out of memory
   * (issue 26: a reference kept is 64 bytes and its path, a million files named cost 3 x their
   * text). */
  int (*ref_walk)(const struct model *m, struct mem_bound *bound,
                  int (*fn)(const struct model_ref *r, void *user), void *user);

  /* Source content the model does not hold (model_unheld), at most MODEL_UNHELD_MAX kinds. */
  uint32_t num_unheld;
  struct model_unheld unheld[MODEL_UNHELD_MAX];

  uint32_t flags;                   /* format header flags, kept for byte-exact round trips */
  void *format_data;                /* decoder-private data a writer may use (in the arena), or NULL */
  const char *format_data_owner;    /* name of the format that set format_data (writers check it) */
};

void model_init(struct model *m);
void model_free(struct model *m);

/* Record a reference (ref: len bytes, not terminated). The returned entry may take format and
 * alpha_file; NULL when out of memory (the reference is then not checked, and the run says so
 * only when resources are checked: a decoder need not report it). */
struct model_ref *model_ref_add(struct model *m, enum model_ref_kind kind, int conventional,
                                const char *ref, size_t len, long long offset, unsigned line,
                                unsigned column, const char *path);
/* The same without copies: ref and path (NUL-terminated) must last as long as the model (its
 * arena, a static string, a decoder's text in the arena). */
struct model_ref *model_ref_add_kept(struct model *m, enum model_ref_kind kind, int conventional,
                                     const char *ref, long long offset, unsigned line,
                                     unsigned column, const char *path);
/* Whether r names a file for conversion and comparison: an external model, an explicit texture
 * (Egg, QMSH), or a material name with an image extension (a material named "BoxMat" is a name,
 * not a file; every writer keeps it as a material, the Egg writer as a <Material>). */
int model_ref_named_file(const struct model_ref *r);
/* The same, for a file a loader reads: not an unused Egg <Texture> (no <TRef> resolves to it). */
int model_ref_loaded_file(const struct model_ref *r);
/* Whether a mesh material names a file: a texture the source names explicitly (Egg, QMSH), or a
 * name that looks like an image file (IQM's convention); any other material is only a name. */
int model_material_names_file(const struct model *m, const char *mat);
/* 1 when no mesh before mesh k has mesh k's material (each material is written or announced
 * once, at its first mesh). */
int model_material_first(const struct model *m, uint32_t k);
/* Whether r's text is some mesh's material, the one place every writer carries a name to. */
int model_ref_is_material(const struct model *m, const struct model_ref *r);

/* 1 when t's display is the plain one a bare frame means (NULL, or plain axes of size 1, no
 * rotation, fourth column (0, 0, 0, 1)). */
int model_tag_display_plain(const struct model_tag *t);
/* 1 when m's levels of detail say nothing: none, or one over every mesh. */
int model_lods_trivial(const struct model *m);
/* m's first usable array of type (data, a known format, at least max(min_size, 1) components),
 * or NULL. */
const struct model_varray *model_varray_find(const struct model *m, uint32_t type, uint32_t min_size);

/* Bytes of one component of format f (0 when f is no enum vformat). */
uint32_t vformat_bytes(uint32_t format);
/* One little-endian component as a real: integers as they are, or normalised (IQM's mapping:
 * unsigned u / max, signed (2c + 1) / (2^bits - 1)); half and float exactly. */
double vformat_get(const unsigned char *src, uint32_t format, int normalized);

/* Record count elements of kind from index at offset, stride bytes each (binary sources). */
void model_span_bytes(struct model *m, enum model_elem kind, uint32_t index, uint32_t count,
                      uint64_t offset, uint32_t stride);
/* Record element index of kind on lines line..line_end (text sources). */
void model_span_lines(struct model *m, enum model_elem kind, uint32_t index, uint32_t line,
                      uint32_t line_end);

/* Record lines line..line_end as an element of kind the decoder left out of the model (a face
 * naming a missing vertex): a diagnostic there concerns no element the model holds. */
void model_span_dropped(struct model *m, enum model_elem kind, uint32_t line, uint32_t line_end);

/* The rest pose of joint j (< num_joints). */
static inline const struct trs *model_rest(const struct model *m, uint32_t j)
{
  return &m->rests[m->joints[j].rest];
}
/* The same, to be set: only where each joint has a rest pose of its own (model_joints_alloc). */
static inline struct trs *model_rest_mut(struct model *m, uint32_t j)
{
  return &m->rests[m->joints[j].rest];
}
/* n joints (zeroed, parents and names to be set) with a rest pose each (zeroed; joint j's is
 * rests[j]), in m's arena: 0, or -1 (and m->joints NULL) when out of memory. */
int model_joints_alloc(struct model *m, size_t n);

/* Start a walk over m's joints. */
void model_joints_begin(struct model_joint_cursor *c);
/* The next of m's joints into c->joint and c->rest: 1, or 0 after the last, -1 when the
 * decoder's walk cannot give it (a model that holds no such joint: never a clean output). */
int model_joints_next(const struct model *m, struct model_joint_cursor *c);

/* Frame f of pose p (global strip), or NULL. */
const struct trs *model_frame(const struct model *m, uint32_t f, uint32_t p);
/* The name of joint j (the model's, or its walk's: model.joint_name), "" when it has none;
 * NULL when the walk could not read it (model_read_failure says why). */
const char *model_joint_name(const struct model *m, uint32_t j);
/* model_frame, or the pose the decoder computes into *buf (model.frame_get); NULL when none
 * (a computed one: model_read_failure says why). */
const struct trs *model_frame_get(const struct model *m, uint32_t f, uint32_t p, struct trs *buf);
/* Animation a (< num_anims): the model's, or the one the decoder gives into *buf (model.anim_get);
 * NULL when it cannot be given (model_read_failure says why). */
const struct model_anim *model_anim_get(const struct model *m, uint32_t a, struct model_anim *buf);
/* Why the last of m's reads that failed (model_joints_next, model_joint_name, model_frame_get,
 * model_anim_get)
 * failed: MDL_ENOMEM when memory ran out (the caller reports it as any out-of-memory: MDL-MEM-001,
 * MDL_ENOMEM, exit 70), else MDL_EINTERNAL (the model does not hold what it counts: a bug).
 * Ask only after a read failed. */
mdl_status model_read_failure(const struct model *m);
/* 1 when the model has a frame strip to read (held, or computed as it is read). */
static inline int model_has_frames(const struct model *m)
{
  return m->frames != NULL || m->frame_get != NULL;
}

#endif
