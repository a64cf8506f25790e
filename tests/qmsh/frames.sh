#!/bin/sh
# frames.sh - QMSH keyframes mean the same motion after `mdlcheck convert` to IQM and IQE, and
# back: world-space equality checked by tests/qmsh/test_qmsh_frames (its own QMSH writer and
# IQM/IQE readers), IQM -> QMSH -> IQM within the quantization bound, QMSH -> QMSH unchanged,
# and `mdlcheck compare` across the formats. Run by make check from the build directory.
set -u
MDLCHECK=${MDLCHECK:-./validator/mdlcheck}
FRAMES=${FRAMES:-./tests/qmsh/test_qmsh_frames}
CORPUS=${top_srcdir:-${srcdir:-.}}/corpus
SAMPLES=${MDL_SAMPLES_IQM:-${srcdir:-.}/../shared/samples/iqm}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdl-qframes.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run WANT CMD...: CMD's output in $tmp/out and $tmp/err, its status checked
run() {
  want=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  cat "$tmp/out" "$tmp/err"
  [ "$got" -eq "$want" ] || { fail "$* exited $got, expected $want"; return 1; }
  return 0
}

"$FRAMES" gen "$tmp/m.qmsh" || exit 99
run 0 "$MDLCHECK" "$tmp/m.qmsh" && { grep -q 'warning\[' "$tmp/out" && fail "the generated QMSH has warnings"; }

# poses prints the keyframes as stored and says so: relative to the base pose, with key times (float seconds)
if run 0 "$MDLCHECK" poses "$tmp/m.qmsh"; then
  grep -q 'frames (relative to the base pose)' "$tmp/out" || fail "poses does not name the frame space"
  grep -q 'frame 2 (global 6, time 0.3000000' "$tmp/out" || fail "poses does not print key times"
fi

# QMSH -> IQM (quantized) and -> IQE (exact decimals): world matrices equal at every frame
if run 0 "$MDLCHECK" convert "$tmp/m.qmsh" "$tmp/m.iqm"; then
  grep -q "note: animation 'sparse': 3 keys at non-uniform times on a 0.1 s grid; written as 4 frames at 10 fps" "$tmp/err" ||
    fail "convert did not say how the sparse keys were timed"
  run 0 "$FRAMES" check "$tmp/m.iqm" 2e-4
fi
if run 0 "$MDLCHECK" convert "$tmp/m.qmsh" "$tmp/m.iqe"; then
  # the bone matrices are floats, not exactly orthonormal: as translation-rotation-scale
  # poses they are that far (2^-23 per level of the chain) from the file's
  run 0 "$FRAMES" check "$tmp/m.iqe" 1e-6
fi

# keys on no common grid: sampled at 30 fps (stretched to end on the last key), with a warning;
# frames between keys follow the engine's interpolation
"$FRAMES" --odd gen "$tmp/odd.qmsh" || exit 99
if run 0 "$MDLCHECK" convert "$tmp/odd.qmsh" "$tmp/odd.iqe"; then
  grep -q "warning: animation 'sparse': its 3 key times share no frame grid; sampled at 29.95" "$tmp/err" ||
    fail "convert did not warn that the odd keys are approximated"
  run 0 "$FRAMES" --odd check "$tmp/odd.iqe" 1e-6
fi

# compare converts the QMSH side to the other side's meaning and rates, either way round
for pair in "m.qmsh m.iqm" "m.iqm m.qmsh" "m.qmsh m.iqe"; do
  set -- $pair
  run 0 "$MDLCHECK" compare "$tmp/$1" "$tmp/$2" &&
    { grep -q 'every pose within bound' "$tmp/out" || fail "compare $pair: poses out of bound"; }
done

# QMSH -> QMSH keeps the file as it is (its keys are not converted, once or twice)
for vf in "22 $tmp/m.qmsh" "22 $CORPUS/qmsh/base/v22-f03.qmsh" "21 $CORPUS/qmsh/base/v21-f03.qmsh" \
          "12 $CORPUS/qmsh/base/v12-f03.qmsh"; do
  set -- $vf
  run 0 "$MDLCHECK" convert "$2" "$tmp/same.qmsh" --target-version "$1" &&
    { cmp -s "$2" "$tmp/same.qmsh" || fail "$2 -> QMSH $1 changed the bytes"; }
done

# IQM -> QMSH -> IQM: the poses come back within the quantization bound (the loop flag, which
# QMSH lacks, and a material name that QMSH can only keep as a texture file name, MDL-CNV-015,
# are the only allowed differences)
for f in "$CORPUS/iqm/base/anim.iqm" "$CORPUS/iqm/base/v1.iqm" "$SAMPLES/bend_box.iqm"; do
  [ -f "$f" ] || { echo "SKIP: $f absent"; continue; }
  n=$(basename "$f" .iqm)
  run 0 "$MDLCHECK" convert --accept-loss=MDL-CMP-008,MDL-CNV-015 "$f" "$tmp/$n.qmsh" || continue
  run 0 "$MDLCHECK" convert --accept-loss=MDL-CNV-016 "$tmp/$n.qmsh" "$tmp/$n-back.iqm" || continue
  for other in "$tmp/$n-back.iqm" "$tmp/$n.qmsh"; do
    "$MDLCHECK" compare "$f" "$other" >"$tmp/out" 2>"$tmp/err"
    cat "$tmp/out"
    grep -q 'every pose within bound' "$tmp/out" || fail "compare $f $other: poses out of bound"
    grep 'error\[' "$tmp/out" | grep -v -e 'loop flag' -e "names texture '[^.']*' (submeshes" && fail "compare $f $other: differences beyond the loop flag"
    grep -q 'poses, worst' "$tmp/out" || fail "compare $f $other: no pose summary"
  done
done

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
exit 0
