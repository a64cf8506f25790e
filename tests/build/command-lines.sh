#!/bin/sh
# The recipes that name every test (automake's mostlyclean-generic and check-TESTS) hand the shell
# command lines that hold the whole list of test logs. Linux caps one argument, and so the
# `sh -c` script of one recipe line, at 128 KiB (MAX_ARG_STRLEN); past it the shell does not start
# ("Argument list too long"). mostlyclean-generic's error is ignored (its leading '-'), so make
# clean and distclean left every log behind when the list, named twice there, passed ~64 KiB
# (Makefile.am: test-logs-clean removes them in pieces). This prints both recipes (make -n; the
# inner make of check-TESTS runs with -n too) and fails when a line passes 100 KB: the limit
# comes near as tests are added, and the list must then be split or grouped before `make check`
# itself breaks. Run by make check from the build directory.
set -u
: "${top_builddir:=.}"
out=$(mktemp "${TMPDIR:-/tmp}/mdl-cmdlines.XXXXXX") || exit 99
trap 'rm -f "$out"' EXIT
# a make of its own: none of the running make's flags or command-line variables (TESTS=...)
env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL ${MAKE:-make} -n -C "$top_builddir" \
  mostlyclean-generic check-TESTS >"$out" 2>&1 || { echo "FAIL: make -n failed"; tail -5 "$out"; exit 1; }
grep -q 'mostlyclean\|test-suite.log\|\.trs' "$out" || { echo "FAIL: make -n printed no test recipe"; exit 1; }
awk 'length > 100000 { printf "FAIL: a recipe line of %d bytes (limit 131072): %.100s...\n", length, $0; bad = 1 }
     length > max { max = length }
     END { printf "longest recipe line: %d bytes\n", max; exit bad }' "$out"
