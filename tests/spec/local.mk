# tests/spec: the reference specification (spec/formats) against the rule catalogue, and the rule
# pages made from the catalogue and the corpus.
TESTS += tests/spec/spec-refs.sh tests/spec/rule-pages.sh
EXTRA_DIST += tests/spec/spec-refs.sh tests/spec/rule-pages.sh
