# tests/loaders - the real loaders as oracles of --target: assimp through its C API (libassimp-dev),
# each corpus case and example in its own process with a time limit (run.py says what it checks).
# `make loaders` writes reports/loaders.md, the per-file table of what each loader did and what
# mdlcheck predicted (SAMPLES=DIR adds the real files of DIR, which are not committed).
if HAVE_ASSIMP
check_PROGRAMS += tests/loaders/assimp_load
tests_loaders_assimp_load_SOURCES = tests/loaders/assimp_load.c
# the harness runs assimp, the oracle, under a 2 GiB address-space cap: never with the sanitizers
# (AddressSanitizer's shadow memory cannot be mapped under that cap, so every load "crashed" in
# the sanitizer build); our own code is not in it
tests_loaders_assimp_load_CFLAGS = -std=c11 $(WARN_CFLAGS) $(ASSIMP_CFLAGS)
tests_loaders_assimp_load_LDFLAGS =
tests_loaders_assimp_load_LDADD = $(ASSIMP_LIBS)
endif
LOADER_TESTS = tests/loaders/assimp.sh
TESTS += $(LOADER_TESTS)
EXTRA_DIST += $(LOADER_TESTS) tests/loaders/run.py tests/loaders/assimp-exceptions.txt

.PHONY: loaders
loaders: validator/mdlcheck$(EXEEXT) tests/conformance/case_run$(EXEEXT)
	@test -z "$(HAVE_ASSIMP_TRUE)" || { echo "make loaders: needs libassimp-dev (configure found no assimp)" >&2; exit 1; }
	$(MAKE) $(AM_MAKEFLAGS) tests/loaders/assimp_load$(EXEEXT)
	@$(MKDIR_P) reports
	$(PYTHON) $(srcdir)/tests/loaders/run.py --srcdir=$(srcdir) --builddir=. \
	  $(if $(SAMPLES),--samples=$(SAMPLES)) --markdown=reports/loaders.md
