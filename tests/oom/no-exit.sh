#!/bin/sh
# no-exit.sh - the library never ends the process (out of memory is MDL_ENOMEM, a bug is
# MDL_EINTERNAL): neither the shared library nor the archive's objects may call exit, _exit,
# _Exit or abort (assert's __assert_fail aborts too). Only the tool (validator/cli/oom.c) exits.
set -u
: "${top_builddir:=.}"
lib=$top_builddir/validator/.libs
found=0 checked=0
banned='^(exit|_exit|_Exit|abort|quick_exit|__assert_fail)(@.*)?$'
if [ -f "$lib/libmdlcheck.so" ]; then
  checked=1
  bad=$(nm -D --undefined-only "$lib/libmdlcheck.so" | awk '{print $NF}' | grep -E "$banned")
  if [ -n "$bad" ]; then
    echo "FAIL: libmdlcheck.so links $(echo $bad)" >&2
    found=1
  fi
fi
if [ -f "$lib/libmdlcheck.a" ]; then
  checked=1
  # per object, to name where the call is
  bad=$(nm -A --undefined-only "$lib/libmdlcheck.a" 2>/dev/null | awk '{print $1, $NF}' |
        while read -r where sym; do
          echo "$sym" | grep -Eq "$banned" && echo "$where$sym"
        done)
  if [ -n "$bad" ]; then
    echo "FAIL: libmdlcheck.a objects call:" >&2
    echo "$bad" | sed 's/^/  /' >&2
    found=1
  fi
fi
[ "$checked" -eq 1 ] || { echo "no libmdlcheck.so or .a under $lib" >&2; exit 99; }
[ "$found" -eq 0 ] && echo "no-exit: the library calls no exit, _exit, _Exit, abort"
exit "$found"
