/* cmd_convert.c - PLACEHOLDER: conversion is being written (see issue 2). */
#include <stdio.h>

#include "cli.h"

int cmd_convert(struct cli *c)
{
  (void)c;
  fprintf(stderr, "mdlcheck: convert: not implemented yet\n");
  return EXIT_USAGE;
}
