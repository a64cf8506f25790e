#!/bin/sh
# --resources around the rules (their cases are corpus/core/resources/): the JSON "resources"
# list against the schema, the text summary of unusable references, external eggs validated
# once each (a cycle ends), --unreferenced, and the real samples with their textures present.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

png() # png FILE W H: an 8-bit RGBA PNG header (stb_image reads no further)
{
  mkdir -p "$(dirname "$1")"
  printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >"$1"
  printf "$(printf '\\%03o\\%03o\\%03o\\%03o' 0 0 $(($2 / 256)) $(($2 % 256)))" >>"$1"
  printf "$(printf '\\%03o\\%03o\\%03o\\%03o' 0 0 $(($3 / 256)) $(($3 % 256)))" >>"$1"
  printf '\010\006\000\000\000\000\000\000\000' >>"$1"
}

t=$work/tree
mkdir -p "$t/models" "$t/junk"
png "$t/maps/a.png" 64 64
png "$t/maps/unused.png" 8 8
echo notes >"$t/junk/readme.txt"
cat >"$t/models/m.egg" <<'EGG'
<CoordinateSystem> { Z-up }
<Texture> t1 { "../maps/a.png" }
<Texture> t2 { "maps/none.png" }
<File> { "part" }
EGG
cp "$t/models/m.egg" "$t/models/m2.egg"
# part names m back: a cycle
cat >"$t/models/part.egg" <<'EGG'
<CoordinateSystem> { Z-up }
<File> { "m.egg" }
<Texture> t1 { "maps/a.png" }
EGG

# off by default: the model alone, as before
run "$t/models/m.egg"
expect_rc 0 "without --resources nothing outside the model is read"
expect_no_grep out 'MDL-RES|part.egg'

# on: the missing texture is an error, the external egg is validated once as an input
run --resources="$t" "$t/models/m.egg"
expect_rc 1 "a missing texture"
expect_grep out "m.egg:3:16: error\[MDL-RES-001\]"
expect_grep out "m.egg: 1 of 3 referenced files not usable: maps/none.png \(missing\)"
expect_grep out "part.egg: valid egg"
[ "$(grep -c 'part.egg: valid' "$work/out")" -eq 1 ] || fail "part.egg reported more than once"
[ "$(grep -c 'm.egg: invalid' "$work/out")" -eq 1 ] || fail "m.egg validated again through the cycle"

# two models naming the same external egg, in a directory run: each file once
run --resources="$t" -f json "$t/models"
expect_rc 1 "directory run"
cp "$work/out" "$work/dir.json"
"$PYTHON" - "$work/dir.json" <<'PY' || fail "directory report"
import json, sys
d = json.load(open(sys.argv[1]))
paths = [f["path"] for f in d["files"]]
assert len(paths) == len(set(paths)) == 3, paths
m = [f for f in d["files"] if f["path"].endswith("/m.egg")][0]
r = {x["ref"]: x for x in m["resources"]}
assert r["../maps/a.png"]["status"] == "found" and r["../maps/a.png"]["width"] == 64, r
assert r["../maps/a.png"]["image"] == "png" and r["../maps/a.png"]["channels"] == 4, r
assert r["maps/none.png"]["status"] == "missing" and r["maps/none.png"]["resolved_path"] is None, r
assert r["part"]["kind"] == "model" and r["part"]["resolved_path"].endswith("models/part.egg"), r
assert r["part"]["line"] == 4 and r["part"]["column"] == 10, r
assert "unreferenced" not in d
PY
if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
  "$PYTHON" - "$SCHEMA_DIR/report.schema.json" "$work/dir.json" <<'PY' || fail "the report does not follow spec/report.schema.json"
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
PY
fi

# a symbolic link in the tree that leads out of it is reported and not followed (decided on the
# real path, not the path's text); one that stays inside is followed. TIFF and EXR headers are
# read (dimensions, channels), not taken for broken images.
l=$work/links
mkdir -p "$l/maps" "$work/outside"
png "$work/outside/secret.png" 16 16
png "$l/maps/real.png" 32 32
ln -s "$work/outside/secret.png" "$l/maps/out.png"
ln -s real.png "$l/maps/in.png"
hex() { "$PYTHON" -c 'import sys; open(sys.argv[2], "wb").write(bytes.fromhex(sys.argv[1]))' "$@"; }
hex '4d4d002a00000008000201000004000000010000002001010003000000010020000000000000' "$l/maps/be.tiff"
hex '762f3101020000006368616e6e656c730063686c697374004900000041000100000000000000010000000100000042000100000000000000010000000100000047000100000000000000010000000100000052000100000000000000010000000100000000636f6d7072657373696f6e00636f6d7072657373696f6e0001000000006461746157696e646f7700626f783269001000000000000000000000003f0000001f00000000' \
  "$l/maps/hdr.exr"
cat >"$l/m.egg" <<'EGG'
<CoordinateSystem> { Z-up }
<Texture> t1 { "maps/out.png" }
<Texture> t2 { "maps/in.png" }
<Texture> t3 { "maps/be.tiff" }
<Texture> t4 { "maps/hdr.exr" }
EGG
run --resources "$l/m.egg"
expect_rc 0 "a link leading out is a warning"
expect_grep out "m.egg:2:16: warning\[MDL-RES-004\]: 'maps/out.png' leaves the search roots .*maps/out.png is a symbolic link that leads out"
[ "$(grep -c 'MDL-RES' "$work/out")" -eq 1 ] || fail "more than the link's diagnostic"
run --resources -f json "$l/m.egg"
"$PYTHON" - "$work/out" <<'PY' || fail "links and TIFF/EXR in the JSON report"
import json, sys
r = {x["ref"]: x for x in json.load(open(sys.argv[1]))["files"][0]["resources"]}
assert r["maps/out.png"]["status"] == "outside" and r["maps/out.png"]["resolved_path"] is None, r
assert r["maps/in.png"]["status"] == "found" and r["maps/in.png"]["width"] == 32, r
t, e = r["maps/be.tiff"], r["maps/hdr.exr"]
assert (t["image"], t["width"], t["height"], t["channels"]) == ("tiff", 32, 32, 1), t
assert (e["image"], e["width"], e["height"], e["channels"]) == ("exr", 64, 32, 4), e
PY

# --unreferenced: the files of the folder nothing names (models and named textures are not)
run --resources="$t" --unreferenced "$t"
expect_rc 1
expect_grep out "junk/readme.txt: note: no model names this file"
expect_grep out "maps/unused.png: note: no model names this file"
expect_no_grep out "maps/a.png: note|m.egg: note|part.egg: note"
expect_grep out "^unreferenced: 2 files"
run --resources="$t" --unreferenced -f json "$t"
"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); u=sorted(p.rsplit("/",2)[-2]+"/"+p.rsplit("/",1)[-1] for p in d["unreferenced"]); assert u==["junk/readme.txt","maps/unused.png"], u' "$work/out" ||
  fail "JSON unreferenced list"
run --unreferenced "$t"
expect_rc 2 "--unreferenced without --resources"
expect_grep err "needs --resources"

# the real samples: with every file they name present (tiny images, the egg <File>s none), no
# error and no warning but the power-of-two and format ones the placeholders cannot avoid
if [ -d "$SAMPLES" ]; then
  s=$work/samples
  mkdir -p "$s"
  cp -R "$SAMPLES/." "$s/"
  run --resources="$s" -f json "$s"
  "$PYTHON" - "$work/out" "$s" <<'PY' >"$work/refs" || fail "reading the samples' references"
import json, os, sys
d = json.load(open(sys.argv[1]))
for f in d["files"]:
    for r in f["resources"]:
        if r["status"] == "missing":
            base = os.path.dirname(f["path"])
            print(os.path.normpath(os.path.join(base, r["ref"])))
PY
  [ -s "$work/refs" ] || fail "the samples name no missing texture (they ship none)"
  while read -r p; do
    case $p in "$s"/*) png "$p" 64 64 ;; *) fail "a sample names $p outside the tree" ;; esac
  done <"$work/refs"
  run --resources="$s" "$s"
  expect_no_grep out "error\[|fatal\[" "a sample has an error with its textures present"
  expect_no_grep out "MDL-RES-00[1-6]" "a sample's reference is not resolved"
fi
finish
