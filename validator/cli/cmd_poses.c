/* cmd_poses.c - PLACEHOLDER: pose decoding output is being written (see issue 2). */
#include <stdio.h>

#include "cli.h"

int cmd_poses(struct cli *c)
{
  (void)c;
  fprintf(stderr, "mdlcheck: poses: not implemented yet\n");
  return EXIT_USAGE;
}
