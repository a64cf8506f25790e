# tests/samples - mdlcheck over the real sample files in ../shared/samples (skipped when the
# folder is absent). One <fmt>.test wrapper per format around run.sh.
TESTS += tests/samples/iqm.test
EXTRA_DIST += tests/samples/run.sh tests/samples/iqm.test
