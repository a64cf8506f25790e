# tests/trust: shell tests that no run ends clean without positive evidence (issue 14):
# bounded input, .egg.pz containers, line ends.
TRUST_TESTS = \
  tests/trust/input-limit.sh \
  tests/trust/input-line-ends.sh \
  tests/trust/input-pz.sh
TESTS += $(TRUST_TESTS)
EXTRA_DIST += $(TRUST_TESTS)
