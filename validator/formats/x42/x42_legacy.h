/* x42_legacy.h - V0 ... V4b through layout profiles: data (the spec/x42 YAML files, built in, or the
 * file named by MDLCHECK_X42_LAYOUT) that declare every field, size, alignment and version
 * number, each unknown filled by a named assumption (X42-ASSUME-NNN). */
#ifndef MDL_X42_LEGACY_H
#define MDL_X42_LEGACY_H

#include "x42.h"

/* Write one synthetic file per built-in profile into outdir (x42_gen). 0 or -1. */
int x42_legacy_generate(const char *outdir);

#endif
