#!/bin/sh
# --max-memory on every command that decodes a model (issue 26 item 8): poses, convert, fix and
# compare hold their decodes to the bound as validate does. A small text that decodes to a huge
# model (an animation of a million poses from 40 KB) is stopped with the fatal MDL-MEM-002 and
# exit 3, never a verdict, and convert/fix write nothing (an OUT already there is left as it
# was); --max-memory=none does the whole work. The peak RSS they are held to:
# tests/security/max-memory-rss.sh.
. "$srcdir/tests/cli/cli-lib.sh"

# 1000 joints, one of them animated over 1000 frames: a million poses from 38 KB of text
"$PYTHON" "$srcdir/tests/cli/gen_cells.py" "$work/cells.egg" "$work/cells.iqe"

# stopped FILE WHAT: the last run stopped at the bound: exit 3, MDL-MEM-002, no verdict of valid
stopped()
{
  expect_rc 3 "$2: could not check"
  cat "$work/out" "$work/err" >"$work/both"
  if ! grep -q "MDL-MEM-002" "$work/both"; then
    fail "$2: no MDL-MEM-002"
    sed 's/^/  /' "$work/both" >&2
  fi
  expect_no_grep out "(: valid|lossless|nothing to fix)" "$2: no verdict"
}

for f in cells.egg cells.iqe; do
  ext=${f#cells.}
  # validate checks it within the bound (it builds no frames)
  run -q "$work/$f"
  [ "$rc" -le 1 ] || fail "$f: validate exit $rc"

  # poses: stopped, or (Egg since its frames are computed as they are printed) within the bound
  for how in "" "-f json"; do
    run poses $how "$work/$f"
    if [ "$rc" -eq 3 ]; then stopped "$f" "$f: poses $how"; else expect_rc 0 "$f: poses $how"; fi
  done
  run poses --max-memory=none "$work/$f"
  expect_rc 0 "$f: poses --max-memory=none"

  for to in iqm iqe egg; do
    echo "old" >"$work/out.$to"
    run convert "$work/$f" "$work/out.$to"
    stopped "$f" "$f: convert to $to"
    [ "$(cat "$work/out.$to")" = old ] || fail "$f: convert to $to past the bound replaced OUT"
    rm -f "$work/out.$to"
    run convert "$work/$f" "$work/out.$to"
    [ ! -e "$work/out.$to" ] || fail "$f: convert to $to past the bound left OUT"
    run convert -f json "$work/$f" "$work/out.$to"
    expect_rc 3 "$f: convert -f json"
    expect_grep out '"MDL-MEM-002"' "$f: the JSON report has MDL-MEM-002"
  done
  run convert --max-memory=none "$work/$f" "$work/out.iqm"
  expect_rc 0 "$f: convert --max-memory=none"

  run compare "$work/$f" "$work/$f"
  stopped "$f" "$f: compare"
  run compare -f sarif "$work/$f" "$work/$f"
  expect_rc 3 "$f: compare -f sarif"
  expect_grep out '"executionSuccessful": false' "$f: SARIF says the run did not succeed"
  run compare --max-memory=none "$work/$f" "$work/$f"
  expect_rc 0 "$f: compare --max-memory=none"

  run fix --dry-run "$work/$f"
  stopped "$f" "$f: fix --dry-run"
  cp "$work/$f" "$work/fixme.$ext"
  run fix "$work/fixme.$ext"
  stopped "$f" "$f: fix"
  cmp -s "$work/$f" "$work/fixme.$ext" || fail "$f: fix past the bound changed the file"
  run fix --dry-run --max-memory=none "$work/$f"
  [ "$rc" -le 1 ] || fail "$f: fix --max-memory=none: exit $rc"
done

# the configuration's key reaches every command
printf 'max-memory: none\n' >"$work/cfg.yaml"
run poses --config="$work/cfg.yaml" "$work/cells.egg"
expect_rc 0 "poses with max-memory: none from the configuration"

# the proof's decode of the bytes for OUT shares the bound with IN's: a bound between what IN's
# decode needs and what both need stops the conversion at the proof, and nothing is written
"$PYTHON" - "$work/grid.egg" <<'PY'
import sys
n = 60
o = ["<VertexPool> p {"] + ["<Vertex> %d { %d %d 0 <Normal> { 0 0 1 } }" % (y * n + x, x, y)
                              for y in range(n) for x in range(n)] + ["}"]
o += ["<Polygon> { <VertexRef> { %d %d %d <Ref> { p } } }" % (a, a + 1, a + n)
      for a in (y * n + x for y in range(n - 1) for x in range(n - 1))]
open(sys.argv[1], "w").write("\n".join(o) + "\n")
PY
# passes KIB: convert (to Egg: the proof decodes as much as the source) with --max-memory=KIB K writes OUT
passes() { rm -f "$work/g.egg"; "$MDLCHECK" convert --max-memory="$1K" "$work/grid.egg" "$work/g.egg" >/dev/null 2>&1; }
lo=64 hi=65536
while [ $((hi - lo)) -gt 8 ]; do
  mid=$(((lo + hi) / 2))
  if passes $mid; then hi=$mid; else lo=$mid; fi
done
echo "smallest bound that converts grid.egg: $hi KiB"
found=
for pct in 98 95 90 85 80 75 70 65; do
  run convert --max-memory=$((hi * pct / 100))K "$work/grid.egg" "$work/g.egg"
  if grep -q "convert: $work/g.egg could not be checked" "$work/err"; then
    found=$pct
    stopped grid.egg "grid.egg: the proof past the bound"
    [ ! -e "$work/g.egg" ] || fail "the proof past the bound: OUT written"
    expect_grep err "g.egg: fatal\[MDL-MEM-002\]" "the proof's MDL-MEM-002 is on OUT's entry"
    break
  fi
done
[ -n "$found" ] || fail "no bound stops grid.egg's conversion in the proof"

# the library's settings: the Python and JavaScript faces pass max_memory to the same calls
lib=$top_builddir/validator/.libs/libmdlcheck.so.1
if [ -e "$lib" ] && nm -D "$lib" | grep -q ' U __asan_init'; then
  echo "(the library's setting: skipped, $lib is a sanitizer build)"
elif [ -e "$lib" ]; then
"$PYTHON" - "$lib" "$work/cells.egg" "$work/cells.iqe" <<'PY' || fail "the library's max_memory on poses and compare"
import ctypes, json, sys
lib = ctypes.CDLL(sys.argv[1])
f = sys.argv[2].encode()
def call(fn, args, setting):
    fn.restype = ctypes.c_void_p
    arr = (ctypes.c_char_p * 2)(setting.encode(), None)
    st, err = ctypes.c_int(99), ctypes.create_string_buffer(1 << 20)
    p = fn(*args, arr, ctypes.byref(st), err, 1 << 20)
    text = ctypes.string_at(p).decode() if p else None
    if p:
        lib.mdl_string_free(ctypes.c_void_p(p))
    return st.value, text, err.value.decode()
lib.mdl_string_free.argtypes = [ctypes.c_void_p]
st, text, err = call(lib.mdl_compare_files_json, (f, f), "max_memory=auto")
assert st == 0 and "MDL-MEM-002" in text and '"verdict": "valid"' not in text, (st, err)
st, text, err = call(lib.mdl_compare_files_json, (f, f), "max_memory=none")
assert st == 0 and '"verdict": "valid"' in text, (st, err)
q = sys.argv[3].encode()
st, text, err = call(lib.mdl_poses_file_json, (q,), "max_memory=auto")
assert (st == 0 and text) or (text is None and "MDL-MEM-002" in err), (st, err)  # stopped or whole
st, text, err = call(lib.mdl_poses_file_json, (q,), "max_memory=none")
assert st == 0 and text, (st, err)
print("library: compare and poses stopped at the default bound, whole with none")
PY
fi

finish
