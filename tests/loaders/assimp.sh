#!/bin/sh
# assimp as the oracle of --target=assimp: the harness tells a load, a rejection and a crash apart
# (a file whose vertex array count runs past its end makes assimp 5.2.5 write past its buffer), then every
# corpus case and example is loaded and held against mdlcheck's prediction (tests/loaders/run.py).
. "${srcdir:-.}/tests/cli/cli-lib.sh"

load="$top_builddir/tests/loaders/assimp_load"
if [ ! -x "$load" ] || [ ! -x "$PYTHON" ]; then
  echo "SKIP: assimp_load is not built (libassimp-dev missing) or no $PYTHON"
  exit 77
fi

base="$srcdir/corpus/iqm/base/static.iqm"
cp "$base" "$work/ok.iqm"
cp "$base" "$work/crash.iqm"
printf 'not a model' >"$work/junk.iqm"
# num_vertexarrays (offset 44) far past the file: the importer swaps that many records unchecked
"$PYTHON" -c 'import struct,sys; p=sys.argv[1]; d=bytearray(open(p,"rb").read()); struct.pack_into("<I",d,44,0x7fff0000); open(p,"wb").write(d)' "$work/crash.iqm"
"$load" --timeout=5 "$work/ok.iqm" "$work/junk.iqm" "$work/crash.iqm" >"$work/said" 2>&1 || fail "assimp_load failed: $(cat "$work/said")"
grep -q "ok.iqm	load	" "$work/said" || fail "a valid IQM did not load: $(cat "$work/said")"
grep -q "junk.iqm	reject	" "$work/said" || fail "junk was not rejected: $(cat "$work/said")"
grep -q "crash.iqm	crash	" "$work/said" || fail "the out-of-file offset did not crash assimp: $(cat "$work/said")"

"$PYTHON" "$srcdir/tests/loaders/run.py" --srcdir="$srcdir" --builddir="$top_builddir" >"$work/run" 2>&1
rc=$?
cat "$work/run"
[ $rc -eq 0 ] || fail "assimp and --target=assimp disagree (above)"
finish
