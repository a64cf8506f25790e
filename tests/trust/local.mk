# tests/trust: shell tests that no run ends clean without positive evidence (issue 14):
# bounded input, .egg.pz containers, line ends; empty selections, link loops in directory walks,
# baselines run from another directory, typos as usage errors, -q never hiding what failed the
# run, and the smaller edges (config key floods, -j, report formats per subcommand).
TRUST_TESTS = \
  tests/trust/input-limit.sh \
  tests/trust/input-line-ends.sh \
  tests/trust/input-pz.sh \
  tests/trust/empty-selection.sh \
  tests/trust/walk-links.sh \
  tests/trust/baseline-paths.sh \
  tests/trust/typos.sh \
  tests/trust/quiet.sh \
  tests/trust/small-edges.sh \
  tests/trust/memory-bound.sh
TESTS += $(TRUST_TESTS)
EXTRA_DIST += $(TRUST_TESTS)
