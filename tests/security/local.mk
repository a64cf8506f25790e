# tests/security: one test per finding of the hostile-repository audit (issue 26). Every byte of a
# model, a file name, a link and a configuration file is the attacker's; each script here failed
# on the code before its fix. Each helper adds its own scripts below its own line.
SECURITY_TESTS =
# convert (issue 26 items 7, 10, 12)
SECURITY_TESTS += tests/security/convert-write.sh
TESTS += $(SECURITY_TESTS)
EXTRA_DIST += $(SECURITY_TESTS) tests/security/mem-lib.sh

# sec-mem: memory safety past validation (items 1, 2, 8, 9)
SECURITY_TESTS += tests/security/egg-degenerate-grow.sh
SECURITY_TESTS += tests/security/compare-claimed-counts.sh
SECURITY_TESTS += tests/security/compare-near-linear.sh
SECURITY_TESTS += tests/security/diag-long-line.sh
SECURITY_TESTS += tests/security/sweep.sh

# sec-io: outputs, the resources sandbox, links, non-regular files (items 3, 4, 5, 11, 13, 14)
SECURITY_TESTS += tests/security/output-escape.sh
SECURITY_TESTS += tests/security/diff-markdown.sh
SECURITY_TESTS += tests/security/config-sandbox.sh
SECURITY_TESTS += tests/security/resources-links.sh
SECURITY_TESTS += tests/security/walk-links-out.sh
# coordinator: a FIFO in a walk or on the command line is never waited on
SECURITY_TESTS += tests/security/walk-fifo.sh

# sec-limits: non-regular configuration, baseline and report files (item 13), memory (item 8)
SECURITY_TESTS += tests/security/nonregular.sh
SECURITY_TESTS += tests/security/egg-memory.sh
SECURITY_TESTS += tests/security/convert-renormalise.sh

# iqemem: IQE memory on any input (item 8)
SECURITY_TESTS += tests/security/iqe-memory.sh
# membound: a memory bound for decoding, so item 8 holds on any input
SECURITY_TESTS += tests/security/max-memory-rss.sh
# wholemodel: fix and compare hold whole models, within 3 x their texts (item 8)
SECURITY_TESTS += tests/security/model-memory.sh
# coordinator: a mapped input that shrinks while decoded is exit 3 with a line, not SIGBUS
SECURITY_TESTS += tests/security/input-shrinks.sh
check_LTLIBRARIES += tests/security/shrink_mapped.la
tests_security_shrink_mapped_la_SOURCES = tests/security/shrink_mapped.c
tests_security_shrink_mapped_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
tests_security_shrink_mapped_la_LIBADD = -ldl
