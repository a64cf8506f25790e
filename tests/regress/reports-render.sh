#!/bin/sh
# The report page renders in headless Chromium: the DOM holds the matrix table and the charts,
# and a screenshot is a real picture (not blank). Skipped (77) when chromium is not installed.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "chromium is not installed: skipped"
  exit 77
fi
POSE_MARGIN=$BUILD/tests/reports/pose_margin
"$PYTHON" "$SRC/tests/reports/make_reports.py" --srcdir "$SRC" --mdlcheck "$MDLCHECK" \
  --case-run "$CASE_RUN" --pose-margin "$POSE_MARGIN" --samples "$SRC/../shared/samples" \
  --out "$work/r" >/dev/null || exit 99

chrome()
{
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile" \
    --window-size=1280,1600 "$@" "file://$work/r/index.html"
}

rc=0; chrome --dump-dom >"$work/out" 2>"$work/err" || rc=$?
expect_rc 0 "chromium --dump-dom"
rules=$(grep -c '<tr class=' "$work/r/index.html")
expect_count out '<table id="matrix">' 1 "the rendered DOM"
expect_count out '<tr class="(covered|covered-cli|uncovered)">' "$rules" "matrix rows in the DOM"
expect_count out '<td>IQM-JNT-002</td>' 1
charts=$(grep -o '<svg class="margin"' "$work/r/index.html" | wc -l)
checks=$((checks + 1))
[ "$(grep -o '<svg class="margin"' "$work/out" | wc -l)" -eq "$charts" ] || fail "charts in the DOM"

rc=0; chrome --screenshot="$work/shot.png" >"$work/out" 2>"$work/err" || rc=$?
expect_rc 0 "chromium --screenshot"
checks=$((checks + 1))
"$PYTHON" - "$work/shot.png" <<'PY' || fail "the screenshot"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, size = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        size = struct.unpack(">II", body[:8])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
pixels = zlib.decompress(idat)
distinct = len(set(pixels[i:i + 3] for i in range(0, len(pixels) - 3, 997)))
print("screenshot %dx%d, %d bytes, %d distinct sampled colours" % (size[0], size[1], len(data), distinct))
assert size == (1280, 1600), size
assert len(data) > 20000, "too small to hold the page"
assert distinct > 20, "a blank or near-blank picture"
PY

finish
