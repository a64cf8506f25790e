/* x42.h - X42 (Hermitworks maya2q3 / Space Trader) models: the V5 (version 101) layout as the
 * engine declares it, the decoded document a writer re-encodes, and the legacy profile view.
 * Grades of every statement are in spec/rules/x42.yaml and spec/x42/. */
#ifndef MDL_X42_H
#define MDL_X42_H

#include <stdint.h>

#include "format.h"

#define X42_IDENT 0x32345748u         /* "HW42" */
#define X42_IDENT_SWAPPED 0x48573432u /* "24WH": a big-endian file */
#define X42_VERSION_V5 101u
#define X42_FIXED_SIZE 160u           /* ident 8 + header 80 + pack header 72 */
#define X42_NONE 0xFFFFu              /* "no bone", "no loop" */
#define X42_MAX_ANIM_GROUPS 32u
#define X42_MAX_PALETTE 60u
#define X42_MAX_INFLUENCES 4u
#define X42_RANGE_STEPS 65530.0
#define X42_DOC_MAGIC 0x58343244u     /* tags model.format_data as an x42_doc */
/* Poses decoded at most: numFrames * numBones beyond this is not expanded (80 bytes each). */
#define X42_MAX_POSES (1u << 22)

enum {
  X42_MF_HAS_NORMALS = 0x1,
  X42_MF_HAS_TANGENT_BASIS = 0x2,
  X42_MF_HAS_TEXTURE_COORDINATES = 0x4,
  X42_MF_HAS_COLORS = 0x8,
  X42_MF_UNIFORM_SCALE = 0x100,
  X42_MF_KNOWN = 0x10F
};

enum { X42_TRACK_POS, X42_TRACK_SCALE, X42_TRACK_ROT, X42_TRACKS };

/* Header fields, by byte offset in the file. */
enum {
  X42_OFF_FLAGS = 8, X42_OFF_BASE_FRAME = 10, X42_OFF_NUM_FRAMES = 12, X42_OFF_NAME_BLOB = 14,
  X42_OFF_NUM_BONES = 16, X42_OFF_NUM_ANIM_GROUPS = 18, X42_OFF_NUM_POS = 20, X42_OFF_NUM_ROT = 22,
  X42_OFF_NUM_SCALE = 24, X42_OFF_KEY_LEN = 26, X42_OFF_NUM_ANIMS = 28, X42_OFF_NUM_TAGS = 30,
  X42_OFF_NUM_INFL = 32, X42_OFF_NUM_LODS = 34, X42_OFF_NUM_GROUPS = 36, X42_OFF_PAD = 38,
  X42_OFF_NUM_VERTS = 40, X42_OFF_NUM_INDICES = 44, X42_OFF_BBOX = 48, X42_OFF_SPHERE = 72,
  X42_OFF_PACK = 88
};

/* Sections in file order. */
enum x42_section {
  XS_BONES, XS_ANIM_GROUPS, XS_POS_VALUES, XS_SCALE_VALUES, XS_ROT_VALUES, XS_KEYS, XS_ANIMS,
  XS_TAGS, XS_INFLUENCES, XS_LODS, XS_GROUPS, XS_VERT_POS, XS_BLEND, XS_NORMALS, XS_TANGENTS,
  XS_TEXCOORDS, XS_COLORS, XS_INDICES, XS_STRINGS, XS_COUNT
};

struct x42_bone { uint16_t name, flags, parent, pad; float extent; };
struct x42_anim_group { uint16_t name, begin, end; };
struct x42_key { uint16_t type, bone, frame, value; };
struct x42_anim { uint16_t name, first, last, loop_start, loop_end, rate; };
struct x42_tag { uint16_t name, bone; float m[12]; };
struct x42_influence { uint16_t bone, pad; float m[12]; };
struct x42_lod { uint16_t name, first_group, num_groups; };
struct x42_group {
  uint16_t material, surface, max_infl, num_infl;
  uint16_t palette[X42_MAX_PALETTE];
  uint16_t prim, pad;
  uint32_t first_vert, num_verts, first_index, num_elems;
};

/* A V5 file as stored: header values and every section's raw samples, so re-encoding is
 * byte-exact (padding is written as zeros). Lives in the model's arena as model.format_data.
 * Decoded from a file, the vertex arrays, blend data and indices may point into the input
 * buffer (read-only; it outlives the model), so nothing may write through them. */
struct x42_doc {
  uint32_t magic; /* X42_DOC_MAGIC */
  uint16_t flags;
  int16_t base_frame;
  uint16_t num_frames, name_blob_len, num_bones, num_anim_groups, num_pos, num_rot, num_scale,
    key_len, num_anims, num_tags, num_infl, num_lods, num_groups;
  uint32_t num_verts, num_indices;
  float bbox[6], sphere[4];
  float anim_pos_pack[3][2], anim_scale_pack[2], vert_pos_pack[3][2], vert_tc_pack[2][2];

  struct x42_bone *bones;
  struct x42_anim_group *anim_groups;
  uint16_t *pos_values;   /* 3 per value */
  uint16_t *scale_values; /* 3 per value, 1 with UNIFORM_SCALE */
  int16_t *rot_values;    /* 4 per value */
  struct x42_key *keys;
  struct x42_anim *anims;
  struct x42_tag *tags;
  struct x42_influence *influences;
  struct x42_lod *lods;
  struct x42_group *groups;
  uint16_t *vert_pos;     /* 3 per vertex */
  uint8_t *blend;         /* blend_len bytes */
  uint64_t blend_len;
  int8_t *normals;        /* 3 per vertex, or NULL */
  int8_t *tangents;       /* 7 per vertex, or NULL */
  uint16_t *texcoords;    /* 2 per vertex, or NULL */
  uint8_t *colors;        /* 4 per vertex, or NULL */
  uint16_t *indices;
  char *strings;          /* name_blob_len bytes */
  uint16_t *nul_next;     /* per blob byte: index of the first NUL at or after it (or the length) */
  uint16_t *str_start;    /* per blob byte: index of the first char of the string holding it */
};

/* Where each section lies in a file. */
struct x42_layout {
  uint64_t off[XS_COUNT], size[XS_COUNT];
  uint64_t end; /* end of the strings */
};

/* The decode state shared by the V5 files. */
struct x42_ctx {
  struct decode_ctx *dc;
  struct diag_sink *diag;
  struct reader *in;
  struct model *m;
  struct x42_doc *doc;
  struct arena *arena; /* where sections are read to */
  unsigned char *name_refs; /* name_blob_len flags: some name starts here */
  /* per group, 1 + its largest index where the group checks went over all of its indices (0:
   * not known), so the zero-area test need not read them a second time; NULL: none known */
  uint32_t *index_top;
  struct x42_layout lay;
};

/* x42_pack.c: the engine's quantizations. */
double x42_range_decode(uint16_t u, float min, float max);
uint16_t x42_range_encode(double f, float min, float max);
double x42_s16n(int16_t s);
double x42_s8n(int8_t s);
double x42_u8n(uint8_t u);
int16_t x42_s16n_encode(double f);
int8_t x42_s8n_encode(double f);
uint8_t x42_u8n_encode(double f);
/* Half the decoded step of a range: the largest error of a correct encoder. */
double x42_range_bound(float min, float max);

/* x42_header.c */
void x42_header_parse(struct reader *in, struct x42_doc *d);
void x42_header_check(struct x42_ctx *x);
void x42_layout_compute(const struct x42_doc *d, uint64_t blend_len, struct x42_layout *lay);
uint64_t x42_blend_len_at(struct reader *in, const struct x42_doc *d);

/* x42_sections.c */
int x42_sections_read(struct x42_ctx *x);
void x42_sections_check(struct x42_ctx *x);
/* 1 when the blob holds a NUL-terminated string at index name. */
int x42_name_ok(const struct x42_doc *d, uint16_t name);
void x42_check_name(struct x42_ctx *x, uint16_t name, uint64_t off, const char *path);

/* x42_anim.c */
void x42_keys_check(struct x42_ctx *x);
void x42_anims_check(struct x42_ctx *x);
/* Evaluate the key stream into m->frames (numFrames x numBones). */
int x42_keys_evaluate(const struct x42_doc *d, struct model *m);
/* Pose of every bone at frame f (out: numBones entries). */
void x42_pose_at(const struct x42_doc *d, struct arena *a, uint32_t f, struct trs *out);

/* x42_model.c */
int x42_model_fill(struct x42_ctx *x);

/* x42_write.c */
int x42_doc_encode(const struct x42_doc *d, struct byte_buf *out);
int x42_write(const struct model *m, const struct write_opts *opts, struct byte_buf *out);
/* x42_build.c: a common model into a document (arrays in a). 0, or -1 with a reason in err (-2:
 * memory ran out, the reason "out of memory": no verdict on the model). What
 * it changes to fit X42 (normals made unit) is announced to losses (NULL: no one listens). */
struct write_losses;
int x42_doc_build(const struct model *m, struct arena *a, struct x42_doc *d, struct write_losses *losses,
                  char *err, size_t errcap);

/* x42_swap.c: in (size bytes) into out (size bytes, another buffer) in the other byte order,
 * field by field of the V5 layout; from_big: in is big-endian (its counts are read swapped). */
void x42_swap_v5(const unsigned char *in, unsigned char *out, size_t size, int from_big);

/* x42_legacy.c */
int x42_legacy_detect_version(uint32_t version, const mdl_options *options);
/* A declared layout's text, read whole into a (NUL-terminated; *len its bytes), or NULL when it
 * is missing, unreadable, not a regular file (a FIFO is refused unread: never waited on) or not
 * under 1 MiB (x42_options.c). */
struct arena;
char *x42_layout_read(const char *path, struct arena *a, size_t *len);
/* The layout profile named by options->profile ("x42-v2a"), or NULL when none is named. */
const char *x42_legacy_forced(const mdl_options *options);
/* The registry's option hooks (x42_options.c): --profile names, and the --x42-layout file. */
int x42_profile_at(const mdl_options *o, size_t i, char *buf, size_t cap);
int x42_options_check(const mdl_options *o, char *err, size_t errcap);
int x42_legacy_decode(struct decode_ctx *ctx, struct model *m, uint32_t version);

#endif
