#!/bin/sh
# pytest.sh - runs tests/python/test_mdlcheck.py with pytest on the module in python/ and the build
# tree's libmdlcheck.so.1 and mdlcheck; 77 (skipped) when pytest is not installed.
set -u
: "${srcdir:=.}"
: "${top_builddir:=.}"
SRC=$(cd "$srcdir" && pwd) || exit 99
BUILD=$(cd "$top_builddir" && pwd) || exit 99
# the python configure found first, then the system's (where Debian's python3-pytest lives)
PY=
for p in ${MDL_PYTHON:-} python3 /usr/bin/python3; do
  [ "$p" != : ] && "$p" -c 'import pytest' 2>/dev/null && { PY=$p; break; }
done
if [ -z "$PY" ]; then
  echo "SKIP: no python3 with pytest (Debian: apt-get install python3-pytest)"
  exit 77
fi
lib=$BUILD/validator/.libs/libmdlcheck.so.1
for f in "$lib" "$BUILD/validator/mdlcheck"; do
  [ -e "$f" ] || { echo "no $f (build it first)" >&2; exit 99; }
done
# a sanitizer build's library needs its runtime loaded first, which a python process has not
if nm -D "$lib" | grep -q ' U __asan_init'; then
  echo "SKIP: $lib is a sanitizer build; python cannot load it"
  exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mdl-python.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
unset MDLCHECK_LIBRARY
# MDLCHECK_BUILDDIR: the library of this build, in-tree or not; the others tell the tests where
# the examples and the CLI they compare against are
PYTHONPATH=$SRC/python MDLCHECK_BUILDDIR=$BUILD MDLCHECK_SRCDIR=$SRC \
  MDLCHECK_CLI=$BUILD/validator/mdlcheck PYTHONDONTWRITEBYTECODE=1 \
  exec "$PY" -m pytest -q -p no:cacheprovider "$SRC/tests/python"
