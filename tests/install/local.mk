# tests/install: what an adopter does with `make install`: build and run a program against the
# installed header, shared and static library through pkg-config.
TESTS += tests/install/installed.sh
EXTRA_DIST += tests/install/installed.sh doc/examples/validate.c
