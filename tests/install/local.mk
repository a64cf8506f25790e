# tests/install: what an adopter does with `make install`: build and run a program against the
# installed header, shared and static library through pkg-config; and what a Python user does:
# a wheel or pip install ./python from a fresh copy of the tree; and the Debian packages (debian/).
TESTS += tests/install/installed.sh tests/install/python-pip.sh tests/install/debian.sh
EXTRA_DIST += tests/install/installed.sh tests/install/python-pip.sh tests/install/debian.sh debian doc/examples/validate.c
