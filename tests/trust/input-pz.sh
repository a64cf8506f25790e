#!/bin/sh
# .egg.pz: convert writes the zlib container Panda3D reads, and what it writes decodes to the same
# model; a .pz that is not compressed, or bytes after the stream, are never valid; the JSON
# version is the same for compressed and plain Egg, the compression is its own field.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

egg=$srcdir/examples/dancer.egg

# egg -> .egg.pz: a zlib stream (RFC 1950 header 0x78) whose text is what egg -> egg writes
run convert "$egg" "$work/d.egg.pz"
expect_rc 0 "convert to .egg.pz"
run convert "$egg" "$work/d.egg"
expect_rc 0 "convert to .egg"
"$PYTHON" - "$work/d.egg.pz" "$work/d.egg" <<'PY' || fail "the .egg.pz is not the zlib-compressed egg text"
import sys, zlib
packed = open(sys.argv[1], "rb").read()
assert packed[:1] == b"\x78", packed[:2]
d = zlib.decompressobj()
text = d.decompress(packed) + d.flush()
assert d.eof and not d.unused_data, "not exactly one zlib stream"
assert text == open(sys.argv[2], "rb").read(), "inflated text differs from the .egg writer's"
PY

# ... validates, reads back as the same model, and compares equal to its source
run -f json "$work/d.egg.pz"
expect_rc 0 "validate the written .egg.pz"
expect_grep out '"compression": "zlib"'
expect_grep out '"version": ""'
run -f json "$egg"
expect_grep out '"version": ""'
expect_no_grep out '"compression"'
run poses -f json "$egg"
sed 1,3d "$work/out" >"$work/a.poses"
run poses -f json "$work/d.egg.pz"
expect_rc 0 "poses of the .egg.pz"
sed 1,3d "$work/out" >"$work/b.poses"
cmp -s "$work/a.poses" "$work/b.poses" || fail "the .egg.pz decodes to other poses than its source"
run compare "$egg" "$work/d.egg.pz"
expect_rc 0 "compare source and .egg.pz"
run "$work/d.egg.pz"
expect_grep out "valid egg \(zlib\): 0 errors"

# the container must match the name, and nothing may follow the stream
: >"$work/empty.egg.pz"
run "$work/empty.egg.pz"
expect_rc 1 "0-byte .egg.pz"
expect_grep out "error\[EGG-LEX-012\]: the file is named .pz but is not compressed \(it is empty\)"
cp "$work/d.egg.pz" "$work/junk.egg.pz"
printf 'junk' >>"$work/junk.egg.pz"
run "$work/junk.egg.pz"
expect_rc 1 "junk after the stream"
expect_grep out "error\[EGG-LEX-013\]: 4 bytes at compressed byte [0-9]+ \(not compressed data\) after the end"
cat "$work/d.egg.pz" "$work/d.egg.pz" >"$work/two.egg.pz"
run "$work/two.egg.pz"
expect_rc 1 "two streams"
expect_grep out "EGG-LEX-013.*a second compressed stream"

finish
