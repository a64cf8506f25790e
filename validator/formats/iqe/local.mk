# Inter-Quake Export (text): checker, model builder, canonical writer.
RULE_CATALOGUE += $(top_srcdir)/spec/rules/iqe.yaml $(top_srcdir)/spec/rules/compare.yaml
validator_libmdlcheck_a_SOURCES += \
  validator/formats/iqe/iqe.h \
  validator/formats/iqe/iqe_format.c \
  validator/formats/iqe/iqe_lex.c \
  validator/formats/iqe/iqe_commands.c \
  validator/formats/iqe/iqe_vertex.c \
  validator/formats/iqe/iqe_face.c \
  validator/formats/iqe/iqe_skeleton.c \
  validator/formats/iqe/iqe_anim.c \
  validator/formats/iqe/iqe_check.c \
  validator/formats/iqe/iqe_model.c \
  validator/formats/iqe/iqe_write.c

# The number lexer against strtod.
check_PROGRAMS += validator/formats/iqe/iqe_lex_test
validator_formats_iqe_iqe_lex_test_SOURCES = validator/formats/iqe/iqe_lex_test.c
validator_formats_iqe_iqe_lex_test_LDADD = $(MDL_LIBS)
TESTS += validator/formats/iqe/iqe_lex_test

# Samples (skipped with a message when ../shared/samples is absent).
TESTS += tests/samples/iqe.test tests/cli/compare.sh
EXTRA_DIST += tests/samples/iqe.test tests/cli/compare.sh
