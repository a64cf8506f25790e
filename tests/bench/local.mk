# tests/bench: `make bench` (not part of make check). The programs are built by make check so
# they stay warning-free; the data files are generated once into $(builddir)/bench-data.
check_PROGRAMS += tests/bench/bench_gen tests/bench/bench_baseline tests/bench/bench_run \
  tests/bench/bench_text
tests_bench_bench_gen_SOURCES = tests/bench/bench_gen.c tests/bench/bench_gen.h \
  tests/bench/bench_egg.c tests/roundtrip/rt_model.c tests/roundtrip/rt_model.h
tests_bench_bench_gen_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/roundtrip
tests_bench_bench_gen_LDADD = $(MDL_LIBS)
tests_bench_bench_baseline_SOURCES = tests/bench/bench_baseline.c
tests_bench_bench_run_SOURCES = tests/bench/bench_run.c
tests_bench_bench_text_SOURCES = tests/bench/bench_text.c
EXTRA_DIST += tests/bench/bench.sh tests/bench/wasm_bench.mjs tests/bench/scaling.sh

BENCH_RUNS = 5
BENCH_SAVE = 0
BENCH_REPORT = $(top_srcdir)/reports/bench.md
BENCH_BASELINE_JSON = $(top_srcdir)/reports/bench-baseline.json

.PHONY: bench bench-clean
bench: validator/mdlcheck$(EXEEXT) tests/bench/bench_gen$(EXEEXT) \
    tests/bench/bench_baseline$(EXEEXT) tests/bench/bench_run$(EXEEXT) \
    tests/bench/bench_text$(EXEEXT) $(BENCH_WEB_DIST)
	MDLCHECK=validator/mdlcheck$(EXEEXT) BENCH_GEN=tests/bench/bench_gen$(EXEEXT) \
	BENCH_BASELINE=tests/bench/bench_baseline$(EXEEXT) BENCH_RUN=tests/bench/bench_run$(EXEEXT) \
	BENCH_TEXT=tests/bench/bench_text$(EXEEXT) BENCH_DATA=$(builddir)/bench-data \
	BENCH_REPORT=$(BENCH_REPORT) BENCH_BASELINE_JSON=$(BENCH_BASELINE_JSON) \
	BENCH_RUNS=$(BENCH_RUNS) BENCH_SAVE=$(BENCH_SAVE) BENCH_WEB_DIST=web/dist \
	BENCH_WASM=$(top_srcdir)/tests/bench/wasm_bench.mjs $(SHELL) $(top_srcdir)/tests/bench/bench.sh
bench-clean:
	rm -rf $(builddir)/bench-data
