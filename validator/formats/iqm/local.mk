# IQM (Inter-Quake Model), versions 1 and 2.
RULE_CATALOGUE += $(top_srcdir)/spec/rules/iqm.yaml
validator_libmdlcheck_la_SOURCES += \
  validator/formats/iqm/iqm.h \
  validator/formats/iqm/iqm_format.c \
  validator/formats/iqm/iqm_locate.c \
  validator/formats/iqm/iqm_header.c \
  validator/formats/iqm/iqm_sections.c \
  validator/formats/iqm/iqm_layout.c \
  validator/formats/iqm/iqm_text.c \
  validator/formats/iqm/iqm_vertex.c \
  validator/formats/iqm/iqm_mesh.c \
  validator/formats/iqm/iqm_fast.c validator/formats/iqm/iqm_fast.h \
  validator/formats/iqm/iqm_skeleton.c \
  validator/formats/iqm/iqm_anim.c \
  validator/formats/iqm/iqm_extra.c \
  validator/formats/iqm/iqm_write.c validator/formats/iqm/iqm_write_fit.c \
  validator/formats/iqm/iqm_write.h validator/formats/iqm/iqm_repair.c

check_PROGRAMS += validator/formats/iqm/iqm_fast_test
validator_formats_iqm_iqm_fast_test_SOURCES = validator/formats/iqm/iqm_fast_test.c
validator_formats_iqm_iqm_fast_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/validator/formats/iqm
validator_formats_iqm_iqm_fast_test_LDADD = $(MDL_LIBS)
TESTS += validator/formats/iqm/iqm_fast_test
