# tests/spec: the reference specification (spec/formats) against the rule catalogue.
TESTS += tests/spec/spec-refs.sh
EXTRA_DIST += tests/spec/spec-refs.sh
