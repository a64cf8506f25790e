# Fuzzing: one target per format (+ round trip), replayed on seeds and kept crashers by
# `make check`, and run under AFL++ by `make fuzz`.
FUZZ_FORMATS = iqm iqe egg qmsh x42
FUZZ_COMMON = tests/fuzz/fuzz_format.c tests/fuzz/replay_main.c
FUZZ_LDADD = $(MDL_TOOL_LIBS) $(ZLIB_LIBS)

check_PROGRAMS += tests/fuzz/replay_iqm tests/fuzz/replay_iqe tests/fuzz/replay_egg \
  tests/fuzz/replay_qmsh tests/fuzz/replay_x42 tests/fuzz/replay_roundtrip_iqm \
  tests/fuzz/replay_roundtrip_iqe tests/fuzz/replay_roundtrip_egg tests/fuzz/replay_roundtrip_qmsh \
  tests/fuzz/replay_roundtrip_x42 tests/fuzz/replay_any tests/fuzz/replay_convert_qmsh
tests_fuzz_replay_any_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_any_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"any"'
tests_fuzz_replay_any_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_iqm_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_iqm_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"iqm"'
tests_fuzz_replay_iqm_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_iqe_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_iqe_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"iqe"'
tests_fuzz_replay_iqe_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_egg_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_egg_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"egg"'
tests_fuzz_replay_egg_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_qmsh_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_qmsh_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"qmsh"'
tests_fuzz_replay_qmsh_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_x42_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_x42_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"x42"'
tests_fuzz_replay_x42_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_roundtrip_iqm_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_roundtrip_iqm_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"iqm"' -DFUZZ_ROUNDTRIP
tests_fuzz_replay_roundtrip_iqm_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_roundtrip_iqe_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_roundtrip_iqe_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"iqe"' -DFUZZ_ROUNDTRIP
tests_fuzz_replay_roundtrip_iqe_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_roundtrip_egg_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_roundtrip_egg_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"egg"' -DFUZZ_ROUNDTRIP
tests_fuzz_replay_roundtrip_egg_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_roundtrip_qmsh_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_roundtrip_qmsh_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"qmsh"' -DFUZZ_ROUNDTRIP
tests_fuzz_replay_roundtrip_qmsh_LDADD = $(FUZZ_LDADD)
tests_fuzz_replay_roundtrip_x42_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_roundtrip_x42_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"x42"' -DFUZZ_ROUNDTRIP
tests_fuzz_replay_roundtrip_x42_LDADD = $(FUZZ_LDADD)
# convert_qmsh: QMSH frames turned parent-relative (model_frames_to_parent), written as IQM.
tests_fuzz_replay_convert_qmsh_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_convert_qmsh_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"qmsh"' -DFUZZ_CONVERT='"iqm"'
tests_fuzz_replay_convert_qmsh_LDADD = $(FUZZ_LDADD)

# every: poses, convert to each format with its proof, and compare, on a detected format (the
# sanitizer sweep, tests/security/sweep.sh); every_<fmt> under AFL++ on each format.
check_PROGRAMS += tests/fuzz/replay_every
tests_fuzz_replay_every_SOURCES = $(FUZZ_COMMON)
tests_fuzz_replay_every_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) -DFUZZ_FORMAT='"any"' -DFUZZ_EVERY
tests_fuzz_replay_every_LDADD = $(FUZZ_LDADD)

TESTS += tests/fuzz/replay.test tests/fuzz/bounds.test
EXTRA_DIST += tests/fuzz/replay.test tests/fuzz/bounds.test tests/fuzz/run.sh tests/fuzz/dict

# Everything the instrumented fuzz build compiles: the library's sources and the tool's report
# writers (the targets write every report format).
FUZZ_LIB_SRCS = $(validator_libmdlcheck_la_SOURCES) $(nodist_validator_libmdlcheck_la_SOURCES) \
  $(validator_cli_libmdltool_la_SOURCES)

# make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="iqm qmsh"]: a bounded AFL++ campaign per target.
FUZZ_SECONDS = 60
FUZZ_TARGETS = $(FUZZ_FORMATS) any roundtrip_iqm roundtrip_iqe roundtrip_egg roundtrip_qmsh roundtrip_x42 \
  convert_qmsh every_iqm every_iqe every_egg every_qmsh every_x42
.PHONY: fuzz
fuzz: $(BUILT_SOURCES)
	srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	  CPPFLAGS='$(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) $(YAML_CFLAGS) $(ZLIB_CFLAGS) $(JANSSON_CFLAGS) $(STB_CFLAGS)' \
	  LIBS='$(YAML_LIBS) $(ZLIB_LIBS) $(JANSSON_LIBS) $(STB_LIBS) -lm' \
	  LIB_SOURCES='$(FUZZ_LIB_SRCS)' \
	  $(SHELL) $(srcdir)/tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# make fuzz-build: only build the instrumented targets into fuzz-out/bin/ (for parallel campaigns).
.PHONY: fuzz-build
fuzz-build: $(BUILT_SOURCES)
	srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	  CPPFLAGS='$(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) $(YAML_CFLAGS) $(ZLIB_CFLAGS) $(JANSSON_CFLAGS) $(STB_CFLAGS)' \
	  LIBS='$(YAML_LIBS) $(ZLIB_LIBS) $(JANSSON_LIBS) $(STB_LIBS) -lm' \
	  LIB_SOURCES='$(FUZZ_LIB_SRCS)' \
	  $(SHELL) $(srcdir)/tests/fuzz/run.sh --build $(FUZZ_TARGETS)

# make fuzz-seeds [FUZZ_SEED_FORMATS="iqe egg"]: regenerate corpus/fuzz/<fmt>/seed/ in the source
# tree from the conformance inputs, minimised with afl-cmin (needs afl++ and xxd).
FUZZ_SEED_FORMATS = $(FUZZ_FORMATS)
.PHONY: fuzz-seeds
fuzz-seeds: $(BUILT_SOURCES) tests/conformance/case_run$(EXEEXT)
	srcdir='$(srcdir)' top_builddir='$(top_builddir)' \
	  CASE_RUN='$(top_builddir)/tests/conformance/case_run$(EXEEXT)' \
	  CPPFLAGS='$(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS) $(YAML_CFLAGS) $(ZLIB_CFLAGS) $(JANSSON_CFLAGS) $(STB_CFLAGS)' \
	  LIBS='$(YAML_LIBS) $(ZLIB_LIBS) $(JANSSON_LIBS) $(STB_LIBS) -lm' \
	  LIB_SOURCES='$(FUZZ_LIB_SRCS)' \
	  $(SHELL) $(srcdir)/tests/fuzz/run.sh --seeds $(FUZZ_SEED_FORMATS)

# fields_test: every count/offset field of every binary format and version set to 0, 1,
# 0x7fffffff, 0xffffffff, size and size - 1; a clear verdict each time (also under the sanitizers).
check_PROGRAMS += tests/fuzz/fields_test
tests_fuzz_fields_test_SOURCES = tests/fuzz/fields_test.c
tests_fuzz_fields_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/validator/formats/x42
tests_fuzz_fields_test_LDADD = $(MDL_LIBS)
TESTS += tests/fuzz/fields_test
