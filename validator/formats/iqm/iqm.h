/* iqm.h - the IQM checker's shared state: the header, the section extents, and one check
 * function per area (header, sections, text, vertex arrays, meshes, skeleton, animation, extras).
 * Layout and validity clauses: spec/formats/iqm.md; rule ids: spec/rules/iqm.yaml. */
#ifndef MDL_IQM_H
#define MDL_IQM_H

#include <stdint.h>
#include <string.h>

#include "format.h"

#define IQM_HEADER_SIZE 124u

/* Header field offsets (iqm-notes.md 1.1). */
enum {
  H_VERSION = 16, H_FILESIZE = 20, H_FLAGS = 24,
  H_NUM_TEXT = 28, H_OFS_TEXT = 32,
  H_NUM_MESHES = 36, H_OFS_MESHES = 40,
  H_NUM_VARRAYS = 44, H_NUM_VERTEXES = 48, H_OFS_VARRAYS = 52,
  H_NUM_TRIANGLES = 56, H_OFS_TRIANGLES = 60, H_OFS_ADJACENCY = 64,
  H_NUM_JOINTS = 68, H_OFS_JOINTS = 72,
  H_NUM_POSES = 76, H_OFS_POSES = 80,
  H_NUM_ANIMS = 84, H_OFS_ANIMS = 88,
  H_NUM_FRAMES = 92, H_NUM_FRAMECHANNELS = 96, H_OFS_FRAMES = 100, H_OFS_BOUNDS = 104,
  H_NUM_COMMENT = 108, H_OFS_COMMENT = 112,
  H_NUM_EXTENSIONS = 116, H_OFS_EXTENSIONS = 120
};

/* The header's sections (extension nodes are walked separately). */
enum iqm_section {
  S_TEXT, S_MESHES, S_VARRAYS, S_TRIANGLES, S_ADJACENCY, S_JOINTS, S_POSES, S_ANIMS,
  S_FRAMES, S_BOUNDS, S_COMMENT, S_COUNT
};

/* One byte range a section or a vertex array claims, with the header or record fields that
 * define it (so a diagnostic can point at the field most likely broken). */
struct iqm_extent {
  uint64_t ofs, len;
  uint32_t ofs_field;   /* file offset of the field holding ofs */
  uint32_t count_field; /* file offset of the field holding the count */
  int index;            /* enum iqm_section, or S_COUNT + vertex array index */
  int ok;               /* inside the file, aligned, starts after the header */
  int overlaps;         /* shares bytes with another extent */
};

struct iqm_varray {
  uint32_t type, flags, format, size, offset;
  size_t ext; /* index of its extent in iqm.ext, 0 when it has none (unknown format) */
  int usable; /* format and size known, data extent inside the file, no overlap */
};

struct iqm {
  struct decode_ctx *ctx;
  struct model *m;
  struct reader *in;
  struct diag_sink *diag;
  uint64_t size;    /* actual input length */
  int version;      /* 1 or 2: the layout used */
  uint32_t hdr[31]; /* header words, hdr[offset / 4] */
  unsigned joint_size, pose_size, nchannels;

  struct iqm_extent sec[S_COUNT];
  uint64_t empty_elem[S_COUNT]; /* element size of an empty section given an offset, else 0 */
  struct iqm_extent *ext; /* S_COUNT sections then one per vertex array */
  size_t next;
  uint64_t *starts, *ends; /* sorted, of non-empty ok extents (anchoring heuristics) */
  size_t nanchor;
  uint64_t *vstarts; /* sorted starts of vertex data */
  size_t nvstarts;
  uint64_t valign_from; /* end of the header, text, meshes and vertex array headers */

  const unsigned char *text; /* NULL when the text section is unusable */
  uint32_t text_len;
  int text_terminated;
  int text_short; /* 1: the table ends before the next section starts (2: already blamed) */

  struct iqm_varray *va;
  uint32_t num_va; /* vertex array headers read */
  uint32_t channel_sum; /* sum of popcount(channelmask) over the poses */
  uint64_t tri_proven;  /* triangles [0, tri_proven): distinct corners below num_vertexes (iqm_mesh.c) */
};

#define HV(q, off) ((q)->hdr[(off) / 4])

static inline uint32_t le32(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint16_t le16(const unsigned char *p)
{
  return (uint16_t)(p[0] | p[1] << 8);
}
static inline float lef32(const unsigned char *p)
{
  uint32_t u = le32(p);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline int32_t lei32(const unsigned char *p)
{
  uint32_t u = le32(p);
  int32_t v;
  memcpy(&v, &u, sizeof v);
  return v;
}
/* an adjacency entry naming no neighbouring triangle */
#define NO_NEIGHBOUR 0xffffffffu

static inline int f32_bits_finite(uint32_t u)
{
  return (u & 0x7f800000u) != 0x7f800000u;
}

/* 1 when a diagnostic of rule r would be shown or located; 0 when it is only counted, which is
 * done here and the caller skips formatting its location and values (hot loops). */
static inline int iqm_want(struct iqm *q, enum rule_index r)
{
  if (!diag_wanted(q->diag, r)) { /* past the repeats a fold summary locates */
    struct mdl_loc none = {-1, 0, 0, {0}};
    diag_emit(q->diag, r, &none, "", "%s", "");
    return 0;
  }
  return 1;
}

/* --profile=engine: what x86 game engines load (IQM-SEC-007 in place of IQM-SEC-002). */
static inline int iqm_profile_engine(const struct iqm *q)
{
  const mdl_options *o = q->diag->options;
  return o && o->profile && !strcmp(o->profile, "engine");
}

/* iqm_header.c: 0, or -1 after a fatal diagnostic. */
int iqm_header_check(struct iqm *q);
/* iqm_sections.c */
void iqm_sections_check(struct iqm *q);
/* after the vertex arrays are read: report extents, find overlaps */
void iqm_extents_finish(struct iqm *q);
void iqm_varray_extent(struct iqm *q, uint32_t i, uint64_t elem, int recommended_format,
                       int recommended_size);
void iqm_extent_align_check(struct iqm *q, struct iqm_extent *e, uint64_t align);
/* iqm_layout.c: the sorted starts and ends of the extents inside the file, then questions on them */
int iqm_anchors_build(struct iqm *q);
int iqm_anchored_start(const struct iqm *q, uint64_t ofs);
int iqm_anchored_end(const struct iqm *q, uint64_t end);
int iqm_starts_at(const struct iqm *q, uint64_t ofs);
/* The first extent start after ofs, or the file size. */
uint64_t iqm_next_start(const struct iqm *q, uint64_t ofs);
/* The header or record field most likely broken when e leaves the file, or a and b overlap. */
uint32_t iqm_blame_outside(const struct iqm *q, const struct iqm_extent *e);
uint32_t iqm_blame_overlap(const struct iqm *q, const struct iqm_extent *a, const struct iqm_extent *b);
/* The extent of section s, or NULL when it is empty or unusable. */
const unsigned char *iqm_section_data(struct iqm *q, enum iqm_section s);
/* iqm_text.c: read before the vertex arrays (custom names), checked once extents are settled */
void iqm_text_read(struct iqm *q);
void iqm_text_check(struct iqm *q);
/* Check a string reference at field offset `field`; return the string, or "" when invalid. */
const char *iqm_string(struct iqm *q, uint32_t ref, uint64_t field, const char *path_fmt, ...)
  __attribute__((format(printf, 4, 5)));
/* iqm_vertex.c */
void iqm_varrays_read(struct iqm *q);
void iqm_varrays_check(struct iqm *q);
/* iqm_mesh.c */
void iqm_meshes_check(struct iqm *q);
/* The shared geometry checks (MDL-GEO-*) over the decoded arrays and triangles. */
void iqm_geometry_check(struct iqm *q);
void iqm_triangles_check(struct iqm *q);
/* iqm_skeleton.c */
void iqm_joints_check(struct iqm *q);
void iqm_poses_check(struct iqm *q);
/* iqm_anim.c */
void iqm_anims_check(struct iqm *q);
void iqm_frames_check(struct iqm *q);
void iqm_bounds_check(struct iqm *q);
/* iqm_extra.c */
void iqm_comment_check(struct iqm *q);
void iqm_extensions_check(struct iqm *q);

/* iqm_skeleton.c, also used for frames: 1 when |q| differs from 1 by more than tolerance
 * (or is NaN). */
int iqm_quat_unit_off(double x, double y, double z, double w, double tolerance);

#endif
