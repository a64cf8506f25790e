# tests/conformance - every corpus/<fmt>/<area>/*.yaml and corpus/<fmt>/*.yaml is one test,
# run by case_run (corpus/README.md). Shared inputs (corpus/<fmt>/base/) and fuzz seeds
# (corpus/fuzz/) are not cases. The list is found with GNU make's $(wildcard) at make time,
# relative to $(srcdir), so a new case needs no edit here and VPATH builds work. Cases with a
# config, a compare input or a missing input run validator/mdlcheck (built by `all`, which check
# builds first), found from case_run's own path or $MDLCHECK.
check_PROGRAMS += tests/conformance/case_run
tests_conformance_case_run_SOURCES = \
  tests/conformance/case.h \
  tests/conformance/case_check.h \
  tests/conformance/case_run.c \
  tests/conformance/case_parse.c \
  tests/conformance/case_input.c \
  tests/conformance/case_check.c \
  tests/conformance/case_cli.c \
  tests/conformance/case_model.c \
  tests/oom/alloc_fail.c tests/oom/alloc_fail.h
tests_conformance_case_run_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
# cases with `fail-allocation` fail one allocation of the decode (tests/oom/alloc_fail.c)
tests_conformance_case_run_LDFLAGS = $(AM_LDFLAGS) $(WRAP_ALLOC_FLAGS)
tests_conformance_case_run_LDADD = $(MDL_LIBS)

# Automake must not see the list: it splits TESTS into words at automake time and would make
# a rule per word of the $(...) calls; `override` lines it only passes through. ${srcdir} in
# braces: automake also rejects "$(srcdir)/" inside anything TESTS names.
CONFORMANCE_FOUND = $(wildcard ${srcdir}/corpus/*/*.yaml ${srcdir}/corpus/*/*/*.yaml)
CONFORMANCE_SKIPPED = $(wildcard ${srcdir}/corpus/*/base/*.yaml) \
  $(filter ${srcdir}/corpus/fuzz/%,$(CONFORMANCE_FOUND))
override CONFORMANCE_CASES = $(patsubst ${srcdir}/%,%,$(filter-out $(CONFORMANCE_SKIPPED),$(CONFORMANCE_FOUND)))

TEST_EXTENSIONS = .yaml
YAML_LOG_COMPILER = tests/conformance/case_run$(EXEEXT)
# Appended past automake (which rewrites TESTS and would drop a variable it cannot see);
# `make check TESTS=...` on the command line still runs just what it names.
override CONFORMANCE_TESTS := $(if $(filter command line,$(origin TESTS)),,$(CONFORMANCE_CASES))
override TESTS += $(CONFORMANCE_TESTS)

# The runner's own tests: cases that must fail with a given message, inputs that patches must
# build byte for byte, and the catalogue-coverage check.
TESTS += tests/conformance/selftest.test tests/conformance/coverage.test
EXTRA_DIST += corpus tests/conformance/selftest tests/conformance/selftest.test \
  tests/conformance/coverage.test tests/conformance/shell-covered.txt

# The build tree has corpus/ too (the cases' .log/.trs files), and distdir copies a directory
# from both trees: keep only the sources.
dist-hook: dist-hook-corpus
.PHONY: dist-hook-corpus
dist-hook-corpus:
	find $(distdir)/corpus \( -name '*.log' -o -name '*.trs' \) -exec rm -f {} +
