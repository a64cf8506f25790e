/* yaml_snap.h - the form of the YAML document snapshots web/yaml_snapshot writes and yaml_replay.c
 * reads: every node of one document, in libyaml's order (index i + 1 is node i). */
#ifndef MDL_WEB_YAML_SNAP_H
#define MDL_WEB_YAML_SNAP_H

#include <stddef.h>

struct yaml_snap_node {
  int type;        /* yaml_node_type_t */
  size_t line;     /* start_mark.line (0-based) */
  size_t first;    /* scalar: offset in pool; sequence/mapping: offset in items */
  size_t count;    /* scalar: length; sequence: items; mapping: pairs (2 items each) */
};

struct yaml_snap {
  const char *text; /* the YAML text the snapshot was taken of, matched byte for byte */
  size_t text_len;
  const struct yaml_snap_node *nodes;
  size_t nnodes;
  const int *items; /* node indexes: a sequence's items, a mapping's key, value pairs */
  const char *pool; /* scalar values, each NUL-terminated */
};

extern const struct yaml_snap yaml_snaps[];
extern const size_t yaml_nsnaps;

#endif
