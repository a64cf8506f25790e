# tests/oom: allocation-failure injection. mdlcheck_oom is mdlcheck linked so that every
# allocation goes through tests/oom/alloc_fail.c; alloc-fail.sh fails each allocation in turn
# over one small file per format and per subcommand. The conformance runner links it too, for
# the cases that name `fail-allocation`.
WRAP_ALLOC_FLAGS = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=realpath,--wrap=getcwd
check_PROGRAMS += tests/oom/mdlcheck_oom
tests_oom_mdlcheck_oom_SOURCES = $(MDLCHECK_CLI_SOURCES) tests/oom/alloc_fail.c tests/oom/alloc_fail.h
tests_oom_mdlcheck_oom_LDFLAGS = $(AM_LDFLAGS) $(WRAP_ALLOC_FLAGS)
tests_oom_mdlcheck_oom_LDADD = $(MDL_TOOL_LIBS) $(NETTLE_LIBS) $(ZIP_LINK_LIBS) -ldl
TESTS += tests/oom/alloc-fail.sh
EXTRA_DIST += tests/oom/alloc-fail.sh
# convert and fix under each failed allocation: OUT's entry never valid, the old OUT kept
TESTS += tests/oom/convert-verdicts.sh
EXTRA_DIST += tests/oom/convert-verdicts.sh
# the same for every public entry point, in one process: the library never ends it
check_PROGRAMS += tests/oom/api_alloc_fail
tests_oom_api_alloc_fail_SOURCES = tests/oom/api_alloc_fail.c tests/oom/alloc_fail.c tests/oom/alloc_fail.h
tests_oom_api_alloc_fail_LDFLAGS = $(AM_LDFLAGS) $(WRAP_ALLOC_FLAGS)
tests_oom_api_alloc_fail_LDADD = $(MDL_LIBS)
TESTS += tests/oom/api_alloc_fail
# nothing in the library can end the process: no exit, _exit, _Exit or abort is linked in
TESTS += tests/oom/no-exit.sh
EXTRA_DIST += tests/oom/no-exit.sh
