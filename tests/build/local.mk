# tests/build: the build files themselves: the recipes that name every test stay runnable.
TESTS += tests/build/command-lines.sh
EXTRA_DIST += tests/build/command-lines.sh
