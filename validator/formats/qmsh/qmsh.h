/* qmsh.h - CaRpg QMSH versions 12-22: the decoded file (kept whole for exact round trips),
 * the decoder state, and the pieces the decoder and writer share.
 * Layout: ../shared/specs/qmsh-layout.md (authoritative over the wiki page qmsh.txt). */
#ifndef MDL_QMSH_H
#define MDL_QMSH_H

#include <stdint.h>

#include "format.h"

#define QMSH_VERSION_MIN 12
#define QMSH_VERSION_MAX 22

#define QMSH_F_TANGENTS 0x01u
#define QMSH_F_ANIMATED 0x02u
#define QMSH_F_STATIC 0x04u
#define QMSH_F_PHYSICS 0x08u
#define QMSH_F_SPLIT 0x10u
#define QMSH_F_KNOWN 0x1fu

#define QMSH_MAX_BONES 64
#define QMSH_SAFE_BONES 63
#define QMSH_MAX_ANIMS 255
#define QMSH_POINT_TYPES 7  /* 0..6 */
#define QMSH_OLD_POINT_TYPES 3 /* 0..2 up to version 20 */
/* The last version whose writers wrote only types 0..2: a v21 file of 2019 has types 3 and 4. */
#define QMSH_OLD_POINT_TYPES_LAST 20

/* Containment slack (see QMSH-HDR-009) and quaternion length tolerance (QMSH-KEY-003). */
#define QMSH_BOUND_EPS (1.0 / 1048576.0)
#define QMSH_QUAT_TOL 1e-4         /* rounding bound: QMSH-KEY-004 beyond it */
#define QMSH_QUAT_VISIBLE_TOL 1e-3 /* visible-effect threshold: QMSH-KEY-003 beyond it */

struct qmsh_str {
  const char *s; /* arena copy, not terminated by the file (a terminator is added) */
  uint32_t len;  /* 0..255 */
};

struct qmsh_header {
  uint8_t version, flags;
  uint16_t n_verts, n_tris, n_subs, n_bones, n_anims, n_points, n_groups;
  float radius;
  float bbox[6]; /* min xyz, max xyz */
  uint32_t points_offset;
  float cam_pos[3], cam_target[3], cam_up[3];
};

struct qmsh_sub {
  uint16_t first, tris, min_ind, n_ind;
  struct qmsh_str name, tex;
  float spec_color[3], spec_intensity;
  int32_t spec_hardness;
  struct qmsh_str normal_tex, specular_tex;
  float normal_factor, specular_factor, specular_color_factor;
};

struct qmsh_bone {
  struct qmsh_str name;
  uint16_t parent;   /* 1-based, 0 = none */
  float mat[12];     /* Matrix33: _11 _12 _13 _21 .. _43 */
  float raw_mat[16]; /* v >= 21 */
  float head[4], tail[4];
  uint8_t connected;
};

struct qmsh_key {
  float pos[3], rot[4], scale[3]; /* v <= 21: scale[0] = scale[1] = scale[2] */
};

struct qmsh_frame {
  float time;
  struct qmsh_key *keys; /* n_bones; NULL when decoded without keep_frames */
};

struct qmsh_anim {
  struct qmsh_str name;
  float length;
  uint16_t n_frames;
  struct qmsh_frame *frames;
};

struct qmsh_point {
  struct qmsh_str name;
  float mat[16];
  uint32_t bone; /* 1-based as in v >= 13 (a v12 file's value + 1) */
  uint16_t type;
  float size[3], rot[3];
};

struct qmsh_group {
  struct qmsh_str name;
  uint16_t parent;
  uint8_t count;
  uint8_t *bones; /* 1-based ids (a v12 file's values + 1) */
};

struct qmsh_split {
  float pos[3], radius, box[6];
};

/* One decoded file. Header counts are kept as read; groups_implicit marks a v12 skeleton with
 * n_groups < 2, which stores no groups (one implicit group holds every bone). */
struct qmsh_mesh {
  struct qmsh_header h;
  uint32_t vertex_size;
  unsigned char *verts; /* n_verts * vertex_size, as in the file */
  uint16_t *tris;       /* n_tris * 3 */
  struct qmsh_sub *subs;
  struct qmsh_bone *bones;
  struct qmsh_anim *anims;
  struct qmsh_point *points;
  struct qmsh_group *groups;
  uint32_t num_groups;   /* records present */
  int groups_implicit;
  struct qmsh_split *splits;
};

/* Decoder state. */
struct qmsh_dec {
  struct decode_ctx *ctx;
  struct reader *in;
  struct diag_sink *diag;
  struct model *m;
  struct qmsh_mesh *q;
  uint64_t pos;          /* cursor */
  int fatal;
  int misfit;            /* the sections do not end where the file does (or points_offset) */
  int skeletal;          /* ANIMATED and not STATIC: bones, groups, animations present */
  uint64_t vert_off, tri_off;
  uint64_t *sub_off;     /* n_subs record offsets */
  uint64_t *bone_off;    /* n_bones record offsets */
};

/* Byte offsets of the vertex fields for a flag set; -1 when absent. */
struct qmsh_vlayout {
  int pos, weight, idx, normal, tex, tangent, binormal;
};

/* Float component c at byte offset off of vertex v, from the file's bytes (qmsh_mesh.c). */
float qmsh_vertex_f32(const struct qmsh_mesh *q, uint32_t v, int off, int c);

/* Shared helpers (qmsh_format.c). */
uint32_t qmsh_vertex_size(uint8_t flags);
void qmsh_vertex_layout(uint8_t flags, struct qmsh_vlayout *l);
/* 1 when v lies outside [lo, hi] beyond the containment slack of QMSH-HDR-009. */
int qmsh_outside(double v, double lo, double hi);
int qmsh_header_size(unsigned version);
int qmsh_is_skeletal(uint8_t flags);
/* 1 when the nb keys of kn floats (8 or 10) at p are all finite with quaternions surely of unit
 * length (qmsh_anim.c): nothing for key_read to report. */
int qmsh_frame_keys_clean(const unsigned char *p, uint32_t nb, const unsigned kn);
/* Emit the fatal QMSH-LIM-001 for len bytes missing, at off under path. */
void qmsh_truncated(struct qmsh_dec *d, uint64_t off, uint64_t len, const char *path);
/* 0 when len bytes are present at the cursor; else a fatal QMSH-LIM-001 naming path. */
int qmsh_need(struct qmsh_dec *d, uint64_t len, const char *path);
/* The same for count records of elem bytes (elem > 0); the path gets the first cut index. When
 * count_path is given and count * elem exceeds the whole file, the count field is blamed. */
int qmsh_need_array(struct qmsh_dec *d, uint64_t count, uint64_t elem, const char *path,
                    uint64_t count_off, const char *count_path);
float qmsh_f32(struct qmsh_dec *d);
uint16_t qmsh_u16(struct qmsh_dec *d);
uint8_t qmsh_u8(struct qmsh_dec *d);
/* Read n floats at the cursor into out, reporting non-finite ones (QMSH-NUM-001) under path. */
void qmsh_floats(struct qmsh_dec *d, float *out, unsigned n, const char *path);
/* string1 at the cursor; -1 (fatal emitted) when cut. */
int qmsh_string(struct qmsh_dec *d, struct qmsh_str *out, const char *path);

/* Sections, in file order (each returns -1 after a fatal). */
int qmsh_header_read(struct qmsh_dec *d);
void qmsh_header_check(struct qmsh_dec *d);
int qmsh_vertices_read(struct qmsh_dec *d);
int qmsh_triangles_read(struct qmsh_dec *d);
int qmsh_submeshes_read(struct qmsh_dec *d);
int qmsh_bones_read(struct qmsh_dec *d);
int qmsh_groups_read(struct qmsh_dec *d);
int qmsh_anims_read(struct qmsh_dec *d);
int qmsh_points_read(struct qmsh_dec *d);
int qmsh_splits_read(struct qmsh_dec *d);
void qmsh_bounds_check(struct qmsh_dec *d);

/* The common model from a decoded file. */
int qmsh_model_fill(struct qmsh_dec *d);
/* A row-vector affine (Matrix33 order: three scaled axis rows, then the translation row) as
 * TRS: scale = row lengths (a mirror negates the first), rotation as a quaternion. */
void qmsh_affine_trs(const double mat[12], struct trs *p);
/* Row-vector affines in Matrix33 order (qmsh_convert.c): a TRS as one; the inverse (-1 when
 * singular); the product "first a, then b". */
void qmsh_trs_rows(const struct trs *p, double rows[12]);
int qmsh_rows_invert(const double a[12], double out[12]);
void qmsh_rows_mul(const double a[12], const double b[12], double out[12]);
/* Points as the model's tags, and a built file's points from the model's tags (qmsh_tags.c). */
int qmsh_tags_fill(struct qmsh_dec *d);
int qmsh_points_build(const struct model *m, struct arena *a, struct qmsh_mesh *q, char *err, size_t cap);
/* The model's vertex array of type (VT_*) that holds data, or NULL. */
const struct model_varray *qmsh_va_find(const struct model *m, uint32_t type);
/* A QMSH file built from a model another format decoded (qmsh_convert.c); 0, or -1 with a
 * reason in err. Allocations come from arena. */
int qmsh_from_model(const struct model *m, struct arena *arena, struct qmsh_mesh *q, char *err,
                    size_t errcap);

/* Writer (qmsh_write.c). */
int qmsh_write(const struct model *m, const struct write_opts *opts, struct byte_buf *out);
/* mdlcheck fix's repairs of a decoded mesh (qmsh_repair.c; struct mdl_format.repair). */
int qmsh_repair(struct model *m, struct fix_repair *fx);
/* Whether some key rotation of q is off unit length by more than tol; then *out is q with its
 * animations copied into arena a and those rotations normalised (0, or -1 out of memory): what
 * the writer writes of a decoded QMSH, as it normalises every rotation of another model. */
int qmsh_keys_off_unit(const struct qmsh_mesh *q, double tol);
int qmsh_keys_unit_copy(const struct qmsh_mesh *q, struct arena *a, struct qmsh_mesh *out, double tol);

#endif
