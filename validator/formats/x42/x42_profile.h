/* x42_profile.h - legacy X42 layout profiles: the data model of the spec/x42 YAML files and its loader. */
#ifndef MDL_X42_PROFILE_H
#define MDL_X42_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

enum lp_type { LP_U8, LP_S8, LP_U16, LP_S16, LP_U32, LP_S32, LP_F32, LP_CHAR, LP_TYPE_COUNT };

struct lp_field {
  const char *name, *role, *of, *span, *range, *cond, *assume;
  enum lp_type type;
  uint32_t count;
};

struct lp_fields {
  struct lp_field *v;
  uint32_t n;
};

struct lp_variant {
  const char *cond;
  struct lp_fields fields;
};

struct lp_section {
  const char *name, *count, *cond;
  struct lp_fields fields;
  struct lp_variant *variants;
  uint32_t nvariants;
};

struct lp_flag {
  const char *name, *field;
  uint32_t value;
};

struct lp_assumption {
  const char *id, *what, *why;
};

struct lp_sample {
  const char *field;
  uint32_t value;
};

struct x42_profile {
  const char *name, *origin; /* "V2a"; "built-in" or the file's path */
  const char *version_assumption, *align_assumption, *changes;
  uint32_t version, ident, align;
  struct lp_fields header;
  struct lp_section *sections;
  uint32_t nsections;
  struct lp_flag *flags;
  uint32_t nflags;
  struct lp_assumption *assumptions;
  uint32_t nassumptions;
  struct lp_sample *sample;
  uint32_t nsample;
  const char **sample_flags;
  uint32_t nsample_flags;
};

extern const unsigned lp_type_size[LP_TYPE_COUNT];

/* Parse one profile from YAML text; arrays live in a. 0, or -1 with a reason in err. */
int x42_profile_parse(const char *text, size_t len, const char *origin, struct arena *a,
                      struct x42_profile *p, char *err, size_t errcap);

/* The built-in profiles (the spec/x42 files compiled in), NULL-terminated. */
extern const char *const x42_builtin_profiles[];
extern const char *const x42_builtin_profile_names[];

#endif
