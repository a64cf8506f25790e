#!/bin/sh
# run.sh FOLDER GLOB... - validate real sample files with mdlcheck: none may have an error or
# a fatal. FOLDER is the samples subfolder (usually the format name: iqm, egg, qmsh...), each
# GLOB a file pattern inside it ('*.iqm'). The samples live outside the repository
# ($MDL_SAMPLES, else $srcdir/../shared/samples); when they are absent the test is skipped
# (exit 77).
#
# Called by one tests/samples/<fmt>.test wrapper per format, from the top build directory.
srcdir=${srcdir:-.}
mdlcheck=${MDLCHECK:-validator/mdlcheck}
samples=${MDL_SAMPLES:-$srcdir/../shared/samples}

test $# -ge 2 || { echo "usage: run.sh FOLDER GLOB..."; exit 99; }
format=$1
shift
test -x "$mdlcheck" || { echo "samples: $mdlcheck is not built"; exit 99; }
if ! test -d "$samples/$format"; then
  echo "SKIP: no sample folder $samples/$format (set MDL_SAMPLES to the samples location)"
  exit 77
fi

n=0
bad=0
for glob in "$@"; do
  for f in "$samples/$format"/$glob; do
    test -f "$f" || continue
    n=$((n + 1))
    out=$("$mdlcheck" --format=json "$f" 2>&1)
    rc=$?
    errors=$(printf '%s\n' "$out" | sed -n 's/.*"error": *\([0-9]*\).*/\1/p' | head -n 1)
    fatals=$(printf '%s\n' "$out" | sed -n 's/.*"fatal": *\([0-9]*\).*/\1/p' | head -n 1)
    if test $rc -eq 0 && test "${errors:-x}" = 0 && test "${fatals:-x}" = 0; then
      echo "ok: $f"
    else
      echo "FAIL: $f (exit $rc, errors ${errors:-?}, fatals ${fatals:-?})"
      "$mdlcheck" "$f" 2>&1 | head -n 40 | sed 's/^/    /'
      bad=$((bad + 1))
    fi
  done
done
if test $n -eq 0; then
  echo "SKIP: no $format samples match $* in $samples/$format"
  exit 77
fi
echo "samples $format: $((n - bad)) passed, $bad failed"
test $bad -eq 0
