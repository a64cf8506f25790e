/* yaml_replay.c - libyaml's document API for the WebAssembly build, answered from the snapshots
 * taken at build time (yaml_snap.h): a text that is no snapshot's does not load, so a layout
 * profile this build cannot read is an error, never an empty profile. */
#include <stdlib.h>
#include <string.h>

#include "yaml.h"
#include "yaml_snap.h"

int yaml_parser_initialize(yaml_parser_t *parser)
{
  memset(parser, 0, sizeof *parser);
  return 1;
}

void yaml_parser_delete(yaml_parser_t *parser)
{
  memset(parser, 0, sizeof *parser);
}

void yaml_parser_set_input_string(yaml_parser_t *parser, const unsigned char *input, size_t size)
{
  parser->input = input;
  parser->size = size;
}

static const struct yaml_snap *snap_find(const unsigned char *text, size_t size)
{
  for (size_t i = 0; i < yaml_nsnaps; i++)
    if (yaml_snaps[i].text_len == size && !memcmp(yaml_snaps[i].text, text, size))
      return &yaml_snaps[i];
  return NULL;
}

/* One block holds the nodes, then the item indexes (pairs are two of them), then the scalars. */
int yaml_parser_load(yaml_parser_t *parser, yaml_document_t *document)
{
  const struct yaml_snap *s = snap_find(parser->input, parser->size);
  size_t nitems = 0, pool = 0;
  yaml_node_t *nodes;
  int *items;
  char *strings;
  memset(document, 0, sizeof *document);
  if (!s) {
    parser->problem = "this WebAssembly build reads only the built-in layout profiles";
    return 0;
  }
  for (size_t i = 0; i < s->nnodes; i++) {
    const struct yaml_snap_node *n = &s->nodes[i];
    if (n->type == YAML_SCALAR_NODE)
      pool += n->count + 1;
    else
      nitems += n->type == YAML_MAPPING_NODE ? 2 * n->count : n->count;
  }
  nodes = calloc(1, s->nnodes * sizeof *nodes + nitems * sizeof *items + pool + 1);
  if (!nodes) {
    parser->problem = "out of memory";
    return 0;
  }
  items = (int *)(nodes + s->nnodes);
  strings = (char *)(items + nitems);
  for (size_t i = 0; i < s->nnodes; i++) {
    const struct yaml_snap_node *n = &s->nodes[i];
    yaml_node_t *y = &nodes[i];
    y->type = (yaml_node_type_t)n->type;
    y->start_mark.line = n->line;
    if (n->type == YAML_SCALAR_NODE) {
      memcpy(strings, s->pool + n->first, n->count);
      y->data.scalar.value = (yaml_char_t *)strings;
      y->data.scalar.length = n->count;
      strings += n->count + 1;
    } else {
      size_t k = n->type == YAML_MAPPING_NODE ? 2 * n->count : n->count;
      memcpy(items, s->items + n->first, k * sizeof *items);
      if (n->type == YAML_MAPPING_NODE) {
        y->data.mapping.pairs.start = (yaml_node_pair_t *)items;
        y->data.mapping.pairs.top = y->data.mapping.pairs.end = y->data.mapping.pairs.start + n->count;
      } else {
        y->data.sequence.items.start = items;
        y->data.sequence.items.top = y->data.sequence.items.end = items + n->count;
      }
      items += k;
    }
  }
  document->nodes.start = nodes;
  document->nodes.top = document->nodes.end = nodes + s->nnodes;
  document->storage = nodes;
  return 1;
}

void yaml_document_delete(yaml_document_t *document)
{
  free(document->storage);
  memset(document, 0, sizeof *document);
}

yaml_node_t *yaml_document_get_node(yaml_document_t *document, int index)
{
  if (index < 1 || index > document->nodes.top - document->nodes.start)
    return NULL;
  return &document->nodes.start[index - 1];
}

yaml_node_t *yaml_document_get_root_node(yaml_document_t *document)
{
  return document->nodes.top > document->nodes.start ? document->nodes.start : NULL;
}
