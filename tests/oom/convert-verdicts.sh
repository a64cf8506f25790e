#!/bin/sh
# convert-verdicts.sh - every allocation of `convert` and `fix` failed in turn (mdlcheck_oom, as
# alloc-fail.sh), in text and JSON: a run must never end with OUT's entry "valid" (its result
# never set read as valid, format "unknown", exit 70 and no word of memory: review of fix's
# allocation 17), nor without an out-of-memory message, nor with OUT (or IN fixed in place)
# replaced: a conversion that fails leaves the old file as it was (issue 26 item 7), so every
# step that can fail, the proof's included, comes before the rename. The exit is 70, or 1 where
# an entry holds the fatal MDL-MEM-001 (a file whose check ran out of memory counts as invalid,
# as in validate), never 1 for a writer's "refusal" out of memory; compare too. (3 where the
# temporary file beside OUT could not be named: MDL-IO-003, "Cannot allocate memory".)
set -u
: "${srcdir:=.}"
: "${top_builddir:=.}"
OOM=${MDLCHECK_OOM:-$top_builddir/tests/oom/mdlcheck_oom}
[ -x "$OOM" ] || { echo "no $OOM" >&2; exit 99; }
case $OOM in /*) ;; *) OOM=$(pwd)/$OOM ;; esac
ex=$(cd "$srcdir/examples" && pwd) || exit 99
iqm=$(cd "$srcdir/corpus/iqm/base" && pwd)/anim.iqm

work=$(mktemp -d "${TMPDIR:-/tmp}/mdl-oomv.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
cp "$ex/skinned.iqe" "$ex/dancer.egg" "$ex/walk.iqm" . || exit 99
# anim.iqm with its comment at offset 1633: IQM-SEC-002, which fix repairs (tests/cli/fix.sh)
"${PYTHON:-python3}" - "$iqm" mis.iqm <<'PY' || exit 99
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<I', d, 112, 1633)
struct.pack_into('<I', d, 108, 27)
open(sys.argv[2], 'wb').write(d)
PY
echo 'the old OUT' >old

failures=0

# scenario NAME KEEP SOURCE ARGS...: the normal run exits 0 and replaces KEEP (OUT, or IN fixed
# in place; - for none), which holds SOURCE's bytes (or old's) before each run
scenario()
{
  name=$1 keep=$2 from=$3
  shift 3
  [ "$keep" = - ] || { cp "$from" "$keep" && cp "$from" keep.before; } || exit 99
  rc=0
  MDL_ALLOC_COUNT=1 "$OOM" "$@" >out 2>err || rc=$?
  count=$(sed -n 's/^alloc_fail: \([0-9]*\) allocations$/\1/p' err)
  if [ "$rc" -ne 0 ] || [ -z "$count" ] || { [ "$keep" != - ] && cmp -s "$keep" keep.before; }; then
    echo "FAIL: $name: the normal run exits $rc, counts ${count:-no} allocations, or leaves $keep as it was" >&2
    failures=$((failures + 1))
    return
  fi
  n=1 bad=0
  while [ "$n" -le "$count" ]; do
    [ "$keep" = - ] || cp keep.before "$keep" || exit 99
    rc=0
    MDL_ALLOC_FAIL=$n "$OOM" "$@" >out 2>err || rc=$?
    why=
    if [ "$rc" -eq 0 ]; then
      why="exit 0"
    elif [ "$rc" -ne 70 ] && [ "$rc" -ne 3 ] && ! { [ "$rc" -eq 1 ] && grep -q 'MDL-MEM-001' out err; }; then
      why="exit $rc, not 70 (or 1 with MDL-MEM-001, or 3: no temporary file for OUT)"
    elif [ "$rc" -ge 128 ]; then
      why="killed by signal $((rc - 128))"
    elif ! grep -Eq 'MDL-MEM-00[12]|out of memory|Cannot allocate memory' out err; then
      why="exit $rc without an out-of-memory diagnostic"
    elif [ "$keep" != - ] && ! cmp -s "$keep" keep.before; then
      why="exit $rc with $keep replaced"
    elif grep -q "^$keep: valid" out err; then
      why="exit $rc with $keep said valid"
    elif awk -v p="\"path\": \"$keep\"," 'index($0, p) { on = 1 } on && /"verdict"/ { print; on = 0 }' out |
         grep -q '"valid"'; then
      why="exit $rc with $keep's entry \"valid\""
    fi
    if [ -n "$why" ]; then
      bad=$((bad + 1))
      if [ "$bad" -le 3 ]; then
        echo "FAIL: $name: allocation $n of $count failed: $why" >&2
        head -n 6 out err | sed 's/^/  /' >&2
      fi
    fi
    n=$((n + 1))
  done
  echo "$name: $count allocations, $bad failed"
  [ "$bad" -eq 0 ] || failures=$((failures + 1))
}

scenario "fix iqe (nothing to fix) into OUT" f.iqe old fix skinned.iqe f.iqe
scenario "fix iqe (nothing to fix) into OUT, json" f.iqe old fix -f json skinned.iqe f.iqe
scenario "fix egg (nothing to fix) into OUT, json" f.egg old fix -f json dancer.egg f.egg
scenario "fix iqm (repaired) into OUT, json" g.iqm old fix -f json mis.iqm g.iqm
scenario "fix iqm (repaired) in place" in.iqm mis.iqm fix in.iqm
scenario "convert iqe -> iqm" o.iqm old convert skinned.iqe o.iqm
scenario "convert iqm -> iqe, json" o.iqe old convert -f json walk.iqm o.iqe
scenario "convert egg -> egg, json" o.egg old convert -f json dancer.egg o.egg
scenario "convert egg -> x42 (the X42 builder)" o.x42 old convert --accept-loss=MDL-CNV-013 dancer.egg o.x42
scenario "convert iqe -> x42, json" o.x42 old convert -f json skinned.iqe o.x42
# IN's own check running out (exit 1, MDL-MEM-001 in its entry) with the report in a file (-o):
# the terminal's note names memory, not "has errors" (review B)
n=1 seen=0
while [ "$n" -le 40 ]; do
  rc=0
  MDL_ALLOC_FAIL=$n "$OOM" convert -o rep.txt skinned.iqe o2.iqm >out 2>err || rc=$?
  if [ "$rc" -eq 1 ] && grep -q 'MDL-MEM-001' rep.txt 2>/dev/null; then
    seen=$((seen + 1))
    if ! grep -q 'memory' err; then
      echo "FAIL: convert -o: allocation $n: IN ran out of memory, but stderr says: $(cat err)" >&2
      failures=$((failures + 1))
    fi
  fi
  n=$((n + 1))
done
[ "$seen" -gt 0 ] || { echo "FAIL: convert -o: no allocation made IN's check run out of memory" >&2; failures=$((failures + 1)); }
echo "convert -o, IN out of memory: $seen allocations"
scenario "compare iqe" - - compare skinned.iqe skinned.iqe
scenario "compare egg, json" - - compare -f json dancer.egg dancer.egg
[ "$failures" -eq 0 ]
