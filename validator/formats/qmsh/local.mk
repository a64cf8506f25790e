# CaRpg QMSH (binary), versions 12-22: checker, writer, keyframe poses.
RULE_CATALOGUE += $(top_srcdir)/spec/rules/qmsh.yaml
validator_libmdlcheck_la_SOURCES += \
  validator/formats/qmsh/qmsh.h \
  validator/formats/qmsh/qmsh_format.c \
  validator/formats/qmsh/qmsh_header.c \
  validator/formats/qmsh/qmsh_mesh.c \
  validator/formats/qmsh/qmsh_bones.c \
  validator/formats/qmsh/qmsh_anim.c \
  validator/formats/qmsh/qmsh_points.c \
  validator/formats/qmsh/qmsh_model.c \
  validator/formats/qmsh/qmsh_tags.c \
  validator/formats/qmsh/qmsh_convert.c \
  validator/formats/qmsh/qmsh_write.c \
  validator/formats/qmsh/qmsh_repair.c

# Tests: the writer against the corpus bases and damaged inputs; the real samples.
check_PROGRAMS += tests/qmsh/test_qmsh_write
tests_qmsh_test_qmsh_write_SOURCES = tests/qmsh/test_qmsh_write.c
tests_qmsh_test_qmsh_write_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/validator/formats/qmsh
tests_qmsh_test_qmsh_write_LDADD = $(MDL_LIBS)
TESTS += tests/qmsh/test_qmsh_write tests/samples/qmsh.test
EXTRA_DIST += tests/samples/qmsh.test tests/corpus-tools/make_qmsh_bases.py

# Keyframes against the IQM/IQE frames they convert to, in world space (independent reader).
check_PROGRAMS += tests/qmsh/test_qmsh_frames
tests_qmsh_test_qmsh_frames_SOURCES = tests/qmsh/test_qmsh_frames.c
tests_qmsh_test_qmsh_frames_LDADD = -lm
TESTS += tests/qmsh/frames.sh
EXTRA_DIST += tests/qmsh/frames.sh
check_PROGRAMS += tests/qmsh/test_model_frames
tests_qmsh_test_model_frames_SOURCES = tests/qmsh/test_model_frames.c
tests_qmsh_test_model_frames_LDADD = $(MDL_LIBS)
TESTS += tests/qmsh/test_model_frames

# The keyframe precheck (SSE2 float quaternion lengths) against the per-key double test.
check_PROGRAMS += tests/qmsh/test_qmsh_keys
tests_qmsh_test_qmsh_keys_SOURCES = tests/qmsh/test_qmsh_keys.c
tests_qmsh_test_qmsh_keys_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/validator/formats/qmsh
tests_qmsh_test_qmsh_keys_LDADD = $(MDL_LIBS)
TESTS += tests/qmsh/test_qmsh_keys
