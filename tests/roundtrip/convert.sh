#!/bin/sh
# mdlcheck convert and mdlcheck poses end to end: samples convert to files that validate with no
# error (as version 2 and 1), and the refusals carry their documented exit codes.
# Run by make check from the build directory.
set -u
MDLCHECK=${MDLCHECK:-./validator/mdlcheck}
SAMPLES=${MDL_SAMPLES_IQM:-${srcdir:-.}/../shared/samples/iqm}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdl-convert.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect CODE CMD...: run CMD, keep its output in $tmp/out and $tmp/err, check the exit status
expect() {
  want=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$* exited $got, expected $want"
    sed 's/^/  | /' "$tmp/err" | head -20
    return 1
  fi
  return 0
}

# An IQM header that claims a larger file than there is: must be refused, nothing written.
printf 'INTERQUAKEMODEL\000\002\000\000\000\377\377\000\000' >"$tmp/broken.iqm"
head -c 200 /dev/zero >>"$tmp/broken.iqm"
if expect 1 "$MDLCHECK" convert "$tmp/broken.iqm" "$tmp/never.iqm"; then
  [ -e "$tmp/never.iqm" ] && fail "convert wrote output for an invalid input"
  grep -q 'IQM-' "$tmp/err" || fail "convert of an invalid input printed no diagnostics"
fi
expect 1 "$MDLCHECK" poses "$tmp/broken.iqm" && { grep -q 'IQM-' "$tmp/err" || fail "poses printed no diagnostics"; }
expect 2 "$MDLCHECK" convert "$tmp/broken.iqm" "$tmp/out.unknownext"
expect 2 "$MDLCHECK" convert "$tmp/broken.iqm"
expect 3 "$MDLCHECK" convert "$tmp/missing.iqm" "$tmp/x.iqm"
expect 2 "$MDLCHECK" convert "$tmp/broken.iqm" "$tmp/x.iqm" --target-version
# the former spelling is refused with the new one named, never read as "print the version"
for old in "--version 2" "--version=2"; do
  expect 2 "$MDLCHECK" convert "$tmp/broken.iqm" "$tmp/x.iqm" $old &&
    { grep -q 'renamed --target-version' "$tmp/err" || fail "convert $old: no pointer to --target-version"; }
done
[ -e "$tmp/x.iqm" ] && fail "convert --version 2 wrote an output"
expect 0 "$MDLCHECK" convert --version

found=0
for f in "$SAMPLES"/*.iqm; do
  [ -f "$f" ] || continue
  found=1
  name=$(basename "$f" .iqm)
  for v in 2 1; do
    out="$tmp/$name-v$v.iqm"
    if expect 0 "$MDLCHECK" convert "$f" "$out" --target-version "$v"; then  # the issue's order
      cat "$tmp/out"
      expect 0 "$MDLCHECK" "$out" || continue
      grep -q 'error\[' "$tmp/out" && fail "$out: validation printed errors"
      [ "$v" = 1 ] || expect 0 "$MDLCHECK" poses --format=json "$out"
    fi
  done
  # a version the writer does not have: refused with a reason, exit 1
  if expect 1 "$MDLCHECK" convert "$f" "$tmp/v3.iqm" --target-version 3; then
    grep -q 'version' "$tmp/err" || fail "convert --target-version 3 gave no reason"
  fi
  # poses: one entry per joint, valid looking JSON with the joints, anims and frames keys
  if expect 0 "$MDLCHECK" poses --format=json "$f"; then
    for key in '"joints"' '"anims"' '"parent"' '"r"'; do
      grep -q "$key" "$tmp/out" || fail "poses --format=json $f: no $key"
    done
    cp "$tmp/out" "$tmp/$name.json"
    if command -v python3 >/dev/null 2>&1; then
      python3 - "$tmp/$name.json" <<'PY' || fail "poses --format=json $f: structure"
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["frame_space"] == "parent", d["frame_space"]  # IQM frames are parent-relative
for i, j in enumerate(d["joints"]):
    assert j["index"] == i and j["parent"] < i, j
    assert abs(math.sqrt(sum(x * x for x in j["r"])) - 1) < 1e-12, j
for a in d["anims"]:
    assert len(a["frames"]) == a["num_frames"], a["name"]
    for k, fr in enumerate(a["frames"]):
        assert fr["frame"] == k and fr["global"] == a["first_frame"] + k
        assert len(fr["joints"]) == d["num_poses"]
        for p in fr["joints"]:
            assert len(p["t"]) == 3 and len(p["s"]) == 3 and len(p["r"]) == 4
            assert abs(math.sqrt(sum(x * x for x in p["r"])) - 1) < 1e-12, p
PY
    fi
    expect 0 "$MDLCHECK" poses --format=json "$tmp/$name-v2.iqm" &&
      { cmp -s "$tmp/out" "$tmp/$name.json" || sed "s|$tmp/$name-v2.iqm|$f|" "$tmp/out" | cmp -s - "$tmp/$name.json" ||
        fail "poses of $f and of its conversion differ"; }
  fi
  expect 0 "$MDLCHECK" poses "$f" && { head -n 1 "$tmp/out" | grep -q 'joints' || fail "poses text header"; }
done

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
if [ "$found" -eq 0 ]; then
  echo "SKIP: the refusals pass; no IQM samples at $SAMPLES"
  exit 77
fi
echo "convert and poses: all checks passed"
exit 0
