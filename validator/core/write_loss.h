/* write_loss.h - what a writer announces before its bytes exist: a field of the model the target
 * format has no place for (a warning, with the proof's rule its loss will trip) or a model it
 * refuses (an error). convert lets --accept-loss of an announcement accept that proof rule too. */
#ifndef MDL_WRITE_LOSS_H
#define MDL_WRITE_LOSS_H

#include "buf.h"
#include "diag.h"
#include "model.h"

#define WRITE_LOSS_MAX 16

struct write_losses {
  struct diag_sink *diag; /* where announcements go */
  size_t n;               /* (announced rule, proof rule) pairs (at most WRITE_LOSS_MAX kept) */
  struct {
    enum rule_index rule, proof;
    int unseen;   /* a loss the proof cannot see (write_loss_unheld): the conversion fails
                   * unless --accept-loss names rule */
  } item[WRITE_LOSS_MAX];
  int refused; /* a refusal was announced */
  int oom;     /* memory ran out while the announcements were made: they are incomplete, so the
                * conversion has no verdict (convert_write: out of memory) */
  int unit_normals; /* the writer stored normals normalised (announced): the proof compares the
                     * source's as unit vectors (compare_side.unit_normals) */
  uint32_t added_attrs; /* 1 << VT_* of each vertex array the writer gave a model without it
                         * (announced, MDL-CNV-014): the proof expects it (compare_side) */
  int materials_as_files; /* the writer wrote material names as texture file names (announced,
                           * MDL-CNV-015): the proof expects those files (compare_side) */
  int empty_meshes_dropped; /* the writer left out the meshes without triangles (announced,
                             * MDL-CNV-018): no loader sees them, the proof expects it */
  int unit_rotations; /* the writer normalised rotations it copied from the source's own bytes (a
                       * QMSH's keys off unit length): the proof compares unit rotations, as
                       * after fix (compare_side.unit_rotations) */
};

/* Announce that the field at loc will not be written (rule, a warning); proof is the comparison
 * rule the loss will trip. Does nothing when l is NULL (a writer used outside convert). */
void write_loss(struct write_losses *l, enum rule_index rule, enum rule_index proof,
                const struct mdl_loc *loc, const char *actual_fmt, ...)
  __attribute__((format(printf, 5, 6)));

/* Announce (rule) every animation of m that loops, for a target with no loop flag. */
void write_loss_loops(struct write_losses *l, const struct model *m, enum rule_index rule);

/* Announce (rule) every reference of m that names a file and is no mesh's material: a target
 * of another format carries file names only as materials. */
void write_loss_refs(struct write_losses *l, const struct model *m, enum rule_index rule);

/* Announce, for a target (its name in the message) with no place for them, m's tags (unless
 * keeps_tags: QMSH writes them as points), its levels of detail beyond one over every mesh, and
 * each animation that plays in reverse. */
void write_loss_tags_lods(struct write_losses *l, const struct model *m, const char *target, int keeps_tags);

/* Announce each tag whose display (a QMSH point's type, size, rotation, fourth matrix column) is
 * not the plain one, for a target whose tags are frames only (X42). */
void write_loss_tag_display(struct write_losses *l, const struct model *m, const char *target);

/* Announce the vertices with more positive blend weights than the target keeps (keep, the
 * heaviest): how many, and the share of their weight dropped. */
void write_loss_influences(struct write_losses *l, const struct model *m, uint32_t keep, const char *target);

/* Announce, for a target (its name in the message) that stores no vertex colours, that m's are
 * dropped, when any is not the opaque white a reader without colours shows. */
void write_loss_colors(struct write_losses *l, const struct model *m, const char *target);

/* Announce that m has no vertex array of type (VT_TEXCOORD, VT_NORMAL) while the target gives
 * every vertex one (`how` says what its readers get), when m has triangles to carry them. */
void write_loss_added(struct write_losses *l, const struct model *m, uint32_t type, const char *target,
                      const char *how);

/* Announce each distinct mesh material of m that names no file, for a target (QMSH) that keeps a
 * texture file name where the model has a material name: the written file names that file. */
void write_loss_material_files(struct write_losses *l, const struct model *m, const char *target);

/* Announce each explicit texture of m (Egg, QMSH) that is a mesh's material but has no image file
 * name, for a target (IQM, IQE, X42) that keeps it as a material name, which names a file only
 * by the image-name convention: the written file names no file. */
void write_loss_texture_names(struct write_losses *l, const struct model *m, const char *target);

/* Announce meshes a target builds only from what they draw (Egg: a group's primitives; X42: a
 * model's vertices): each mesh without triangles, or with `all` every mesh (the caller's model
 * has no vertices to write). */
void write_loss_empty_meshes(struct write_losses *l, const struct model *m, const char *target, int all);

/* Announce each kind of source content m does not hold (model.unheld) for a target of another
 * format (named in the message): losses the proof cannot see, so each item is marked unseen. */
void write_loss_unheld(struct write_losses *l, const struct model *m, const char *target);

/* Refuse (MDL-CNV-028) a model with nothing a loader of the target would see: no triangle, joint,
 * animation or tag (what the source held instead, model.unheld, is named). Returns -1 refused,
 * else 0. */
int write_refuse_nothing(struct write_losses *l, const struct model *m, struct byte_buf *b, const char *target);

/* 1 when l holds an unseen loss (write_loss_unheld) whose rule accepted(user, rule) is 0; the
 * first such rule goes to *rule. */
int write_loss_unseen(const struct write_losses *l, int (*accepted)(const void *user, enum rule_index rule),
                      const void *user, enum rule_index *rule);

/* One more proof rule the announced loss (rule) explains (a vertex moved also unmatches its
 * triangles). */
void write_loss_also(struct write_losses *l, enum rule_index rule, enum rule_index proof);

/* Refuse the model (rule, an error): the reason goes to b->error and, when l is set, out as a
 * diagnostic. Returns -1, the writer's failure. */
int write_refuse(struct write_losses *l, struct byte_buf *b, enum rule_index rule, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));

#endif
