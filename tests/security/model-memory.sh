#!/bin/sh
# Issue 26 item 8 for the commands that decode a whole model and hold it (fix with its proof,
# compare): what a larger input costs more must be within 3 x the texts it adds, the texts being
# the command's own (IN and the bytes written for OUT; both sides). Two Egg grid meshes of about
# 21 and 43 MB (a pool of vertices with a normal and a UV, two triangles a cell, as exporters
# write them). 11cd453 held each side's parse tree beside its model, and IN's mapped text, while
# the bytes for OUT (or side B) were decoded: 3.4 x the texts added in both; 2.3 x now.
# Skipped in a sanitizer build (shadow memory).
. "${srcdir:-.}/tests/cli/cli-lib.sh"

. "${srcdir:-.}/tests/security/mem-lib.sh"

# grid FILE BYTES: the Egg grid mesh of about BYTES bytes
grid()
{
  "$PYTHON" - "$1" "$2" <<'PY'
import sys
out, want = sys.argv[1], int(sys.argv[2])
w = 256
rows = max(2, want // (w * 150))
with open(out, "w") as f:
    f.write("<CoordinateSystem> { Z-up }\n<Texture> skin { \"skin.png\" }\n<Group> g {\n <VertexPool> p {\n")
    for r in range(rows):
        for c in range(w):
            f.write("  <Vertex> %d { %d %d %d <Normal> { 0 0 1 } <UV> { %.4f %.4f } }\n"
                    % (r * w + c, c, r, (r * c) % 7, c / w, r / rows))
    f.write(" }\n")
    for r in range(rows - 1):
        for c in range(w - 1):
            a = r * w + c
            for t in ((a, a + 1, a + w + 1), (a, a + w + 1, a + w)):
                f.write(" <Polygon> { <TRef> { skin } <VertexRef> { %d %d %d <Ref> { p } } }\n" % t)
    f.write("}\n")
PY
}

# run_peak ARGS...: peak RSS (KiB) of `mdlcheck ARGS` (output dropped), then its exit status
run_peak()
{
  "$PYTHON" - "$MDLCHECK" "$@" <<'PY'
import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc if rc >= 0 else 128 - rc)
PY
}

size() { wc -c <"$1" | tr -d ' '; }

# within NAME PEAK1 PEAK2 TEXTS1 TEXTS2: the second run costs at most 3 x the texts it adds more
# than the first (2 MiB of slack), and is within 3 x its texts + 64 MiB over the baseline
within()
{
  _grew=$(($3 - $2))
  _limit=$(( (3 * ($5 - $4)) / 1024 + 2048 ))
  echo "$1: $(($4 / 1024)) KiB of texts: peak RSS $2 KiB; $(($5 / 1024)) KiB: $3 KiB, $_grew KiB more (limit $_limit KiB)"
  [ "$_grew" -le "$_limit" ] || fail "$1: $_grew KiB more for $((($5 - $4) / 1024)) KiB more text, over 3 x it + 2 MiB"
  [ $(($3 - base)) -le $(( (3 * $5) / 1024 + 65536 )) ] || fail "$1: $(($3 - base)) KiB over the baseline, over 3 x the texts + 64 MiB"
}

printf '<CoordinateSystem> { Z-up }\n' >"$work/tiny.egg"
set -- $(run_peak -q "$work/tiny.egg")
base=$1
echo "baseline: $base KiB"

grid "$work/g1.egg" 14000000
grid "$work/g2.egg" 28000000
in1=$(size "$work/g1.egg")
in2=$(size "$work/g2.egg")

# fix, OUT apart from IN: IN is decoded, written again, and the bytes decoded and compared
set -- $(run_peak fix "$work/g1.egg" "$work/f1.egg") $(run_peak fix "$work/g2.egg" "$work/f2.egg")
[ "$2" -eq 0 ] && [ "$4" -eq 0 ] || fail "fix: exit $2 / $4"
within fix "$1" "$3" $((in1 + $(size "$work/f1.egg"))) $((in2 + $(size "$work/f2.egg")))
rm -f "$work/f1.egg" "$work/f2.egg"

# fix --dry-run: the same decodes, nothing written (the texts as above: IN twice, about)
set -- $(run_peak fix --dry-run "$work/g1.egg") $(run_peak fix --dry-run "$work/g2.egg")
[ "$2" -eq 0 ] && [ "$4" -eq 0 ] || fail "fix --dry-run: exit $2 / $4"
within fix.dry-run "$1" "$3" $((2 * in1)) $((2 * in2))

# compare: both sides decoded and held
cp "$work/g1.egg" "$work/h1.egg"
cp "$work/g2.egg" "$work/h2.egg"
set -- $(run_peak compare "$work/g1.egg" "$work/h1.egg") $(run_peak compare "$work/g2.egg" "$work/h2.egg")
[ "$2" -eq 0 ] && [ "$4" -eq 0 ] || fail "compare: exit $2 / $4"
within compare "$1" "$3" $((2 * in1)) $((2 * in2))

finish
