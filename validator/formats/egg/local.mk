# Panda3D Egg (text, .egg.pz zlib)
RULE_CATALOGUE += $(top_srcdir)/spec/rules/egg.yaml
validator_libmdlcheck_la_SOURCES += \
  validator/formats/egg/egg.h \
  validator/formats/egg/egg_map.h \
  validator/formats/egg/egg_format.c \
  validator/formats/egg/egg_lex.c \
  validator/formats/egg/egg_parse.c \
  validator/formats/egg/egg_tree.c \
  validator/formats/egg/egg_grammar.c \
  validator/formats/egg/egg_map.c \
  validator/formats/egg/egg_check_refs.c \
  validator/formats/egg/egg_resources.c \
  validator/formats/egg/egg_check_vertices.c \
  validator/formats/egg/egg_members.h \
  validator/formats/egg/egg_members.c \
  validator/formats/egg/egg_check_geometry.c \
  validator/formats/egg/egg_check_scalars.c \
  validator/formats/egg/egg_check_nurbs.c \
  validator/formats/egg/egg_check_anim.c \
  validator/formats/egg/egg_anim.c \
  validator/formats/egg/egg_geometry.c \
  validator/formats/egg/egg_geometry_lean.c \
  validator/formats/egg/egg_unheld.c \
  validator/formats/egg/egg_unheld_render.c \
  validator/formats/egg/egg_write.c \
  validator/formats/egg/egg_write_model.c \
  validator/formats/egg/egg_pz.c

# the tree round trip (parse, write, parse) over the samples and the corpus inputs
check_PROGRAMS += validator/formats/egg/egg_rt_test
validator_formats_egg_egg_rt_test_SOURCES = validator/formats/egg/egg_rt_test.c
validator_formats_egg_egg_rt_test_LDADD = $(MDL_LIBS)

# the lexer's word-at-a-time decimals against the byte-by-byte reader and strtod
check_PROGRAMS += validator/formats/egg/egg_lex_test
validator_formats_egg_egg_lex_test_SOURCES = validator/formats/egg/egg_lex_test.c
validator_formats_egg_egg_lex_test_LDADD = $(MDL_LIBS)
TESTS += validator/formats/egg/egg_lex_test

TESTS += tests/samples/egg.test
EXTRA_DIST += tests/samples/egg.test
