/* yaml.h - the WebAssembly build's stand-in for libyaml's document API (no libyaml exists for WASM
 * here): the few types and functions x42_profile.c uses, answering from snapshots of the built-in
 * layout profiles that web/yaml_snapshot (linked with the real libyaml) took at build time. Any
 * other text fails to load with a problem saying so; names and fields follow libyaml's yaml.h. */
#ifndef MDL_WEB_YAML_H
#define MDL_WEB_YAML_H

#include <stddef.h>

typedef unsigned char yaml_char_t;

typedef struct yaml_mark_s {
  size_t index, line, column;
} yaml_mark_t;

typedef enum yaml_node_type_e {
  YAML_NO_NODE,
  YAML_SCALAR_NODE,
  YAML_SEQUENCE_NODE,
  YAML_MAPPING_NODE
} yaml_node_type_t;

typedef int yaml_node_item_t;

typedef struct yaml_node_pair_s {
  int key, value;
} yaml_node_pair_t;

typedef struct yaml_node_s {
  yaml_node_type_t type;
  union {
    struct {
      yaml_char_t *value;
      size_t length;
    } scalar;
    struct {
      struct {
        yaml_node_item_t *start, *end, *top;
      } items;
    } sequence;
    struct {
      struct {
        yaml_node_pair_t *start, *end, *top;
      } pairs;
    } mapping;
  } data;
  yaml_mark_t start_mark, end_mark;
} yaml_node_t;

typedef struct yaml_document_s {
  struct {
    yaml_node_t *start, *end, *top;
  } nodes;
  void *storage; /* what yaml_document_delete releases */
} yaml_document_t;

typedef struct yaml_parser_s {
  const char *problem;
  yaml_mark_t problem_mark;
  const unsigned char *input;
  size_t size;
} yaml_parser_t;

int yaml_parser_initialize(yaml_parser_t *parser);
void yaml_parser_delete(yaml_parser_t *parser);
void yaml_parser_set_input_string(yaml_parser_t *parser, const unsigned char *input, size_t size);
int yaml_parser_load(yaml_parser_t *parser, yaml_document_t *document);
void yaml_document_delete(yaml_document_t *document);
yaml_node_t *yaml_document_get_node(yaml_document_t *document, int index);
yaml_node_t *yaml_document_get_root_node(yaml_document_t *document);

#endif
