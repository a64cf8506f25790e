# X42 skeletal model (binary): V5 byte for byte, V0 ... V4b through layout profiles (spec/x42)
RULE_CATALOGUE += $(top_srcdir)/spec/rules/x42.yaml
validator_libmdlcheck_la_SOURCES += \
  validator/formats/x42/x42.h \
  validator/formats/x42/x42_format.c \
  validator/formats/x42/x42_header.c \
  validator/formats/x42/x42_sections.c \
  validator/formats/x42/x42_fast.c validator/formats/x42/x42_fast.h \
  validator/formats/x42/x42_anim.c \
  validator/formats/x42/x42_pack.c \
  validator/formats/x42/x42_model.c \
  validator/formats/x42/x42_write.c \
  validator/formats/x42/x42_build.c \
  validator/formats/x42/x42_locate.c \
  validator/formats/x42/x42_swap.c \
  validator/formats/x42/x42_legacy.c validator/formats/x42/x42_legacy.h \
  validator/formats/x42/x42_profile.c validator/formats/x42/x42_profile.h \
  validator/formats/x42/x42_options.c
EXTRA_DIST += spec/x42

# the default legacy layout profiles, compiled in as text
X42_PROFILES = $(top_srcdir)/spec/x42/v0.yaml $(top_srcdir)/spec/x42/v1.yaml $(top_srcdir)/spec/x42/v2a.yaml \
  $(top_srcdir)/spec/x42/v2b.yaml $(top_srcdir)/spec/x42/v3.yaml $(top_srcdir)/spec/x42/v4a.yaml \
  $(top_srcdir)/spec/x42/v4b.yaml
nodist_validator_libmdlcheck_la_SOURCES += validator/formats/x42/x42_profiles_gen.c
BUILT_SOURCES += validator/formats/x42/x42_profiles_gen.c
CLEANFILES += validator/formats/x42/x42_profiles_gen.c
validator/formats/x42/x42_profiles_gen.c: $(X42_PROFILES)
	@$(MKDIR_P) validator/formats/x42
	$(AM_V_GEN){ echo '/* Generated from spec/x42 by the build. Do not edit. */'; \
	  echo '#include <stddef.h>'; \
	  echo 'extern const char *const x42_builtin_profiles[], *const x42_builtin_profile_names[];'; \
	  i=0; for f in $(X42_PROFILES); do \
	    echo "static const char profile_$$i[] ="; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/  "/' -e 's/$$/\\n"/' $$f; \
	    echo ';'; i=`expr $$i + 1`; done; \
	  echo 'const char *const x42_builtin_profiles[] = {'; \
	  i=0; for f in $(X42_PROFILES); do echo "  profile_$$i,"; i=`expr $$i + 1`; done; \
	  echo '  NULL};'; \
	  echo 'const char *const x42_builtin_profile_names[] = {'; \
	  for f in $(X42_PROFILES); do echo "  \"`basename $$f .yaml`\","; done; \
	  echo '  NULL};'; \
	} > $@-t && mv $@-t $@

# the corpus generator and the X42 tests (tests/x42)
X42_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/validator/formats/x42 -I$(top_srcdir)/tests/x42
noinst_PROGRAMS += tests/x42/x42_gen
tests_x42_x42_gen_SOURCES = tests/x42/x42_gen.c tests/x42/x42_models.c tests/x42/x42_models.h
tests_x42_x42_gen_CPPFLAGS = $(X42_TEST_CPPFLAGS)
tests_x42_x42_gen_LDADD = $(MDL_LIBS)
check_PROGRAMS += tests/x42/x42_test
TESTS += tests/x42/x42_test tests/x42/convert.sh
EXTRA_DIST += tests/x42/convert.sh
tests_x42_x42_test_SOURCES = tests/x42/x42_test.c tests/x42/x42_models.c tests/x42/x42_models.h
tests_x42_x42_test_CPPFLAGS = $(X42_TEST_CPPFLAGS)
tests_x42_x42_test_LDADD = $(MDL_LIBS)
# the many-at-a-time vertex and triangle tests against the exact ones (SSE2 and portable)
check_PROGRAMS += validator/formats/x42/x42_fast_test
validator_formats_x42_x42_fast_test_SOURCES = validator/formats/x42/x42_fast_test.c
validator_formats_x42_x42_fast_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/validator/formats/x42
validator_formats_x42_x42_fast_test_LDADD = $(MDL_LIBS)
TESTS += validator/formats/x42/x42_fast_test
