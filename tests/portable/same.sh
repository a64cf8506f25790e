#!/bin/sh
# The portable fallbacks of the SSE2 paths answer as the SSE2 paths do: every file below goes
# through validate (JSON) and poses (JSON) of the normal build and of validator/mdlcheck_portable
# (the library compiled with -U__SSE2__, tests/portable/local.mk), and both outputs and exit
# codes must be byte-identical. The inputs are large enough for the bulk paths (bench_gen's
# ~0.5 MB models of every format), the same with single bytes changed (so the fast checks find
# something and hand over to the exact ones), the examples, the corpus's shared inputs and,
# when present, the real samples.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

PORTABLE=$top_builddir/validator/mdlcheck_portable
GEN=$top_builddir/tests/bench/bench_gen
[ -x "$PORTABLE" ] || { echo "no $PORTABLE" >&2; exit 99; }
[ -x "$GEN" ] || { echo "no $GEN" >&2; exit 99; }

mkdir "$work/in"
for fmt in iqm iqe egg qmsh x42; do
  "$GEN" "mid-$fmt" "$work/in/mid.$fmt" >/dev/null || fail "bench_gen mid-$fmt"
done
# 24 copies of each with one byte changed, at places drawn with a fixed seed
"$PYTHON" - "$work/in" <<'PY'
import os, random, sys
d = sys.argv[1]
rng = random.Random(26)
for name in sorted(os.listdir(d)):
    data = open(os.path.join(d, name), "rb").read()
    ext = name.rsplit(".", 1)[1]
    for k in range(24):
        b = bytearray(data)
        at = rng.randrange(len(b))
        if ext in ("iqe", "egg"):
            b[at] = ord(rng.choice("0123456789-.e{} \n"))
        else:
            b[at] ^= 1 << rng.randrange(8)
        open(os.path.join(d, "flip%02d.%s" % (k, ext)), "wb").write(b)
PY
for f in "$srcdir"/examples/* "$srcdir"/corpus/*/base/*; do
  case $f in *.iqm|*.iqe|*.egg|*.qmsh|*.x42) cp "$f" "$work/in/" ;; esac
done
samples=$srcdir/../shared/samples
if [ -d "$samples" ]; then
  find "$samples" -type f \( -name '*.iqm' -o -name '*.iqe' -o -name '*.egg' -o -name '*.qmsh' -o -name '*.x42' \) |
    while read -r f; do cp "$f" "$work/in/sample-$(basename "$f")"; done
else
  echo "SKIP (part): no samples at $samples"
fi

n=0
for f in "$work"/in/*; do
  for sub in validate poses; do
    r1=0; r2=0
    "$MDLCHECK" $sub --no-config -f json "$f" >"$work/a" 2>"$work/ae" || r1=$?
    "$PORTABLE" $sub --no-config -f json "$f" >"$work/b" 2>"$work/be" || r2=$?
    n=$((n + 1))
    if [ "$r1" != "$r2" ] || ! cmp -s "$work/a" "$work/b" || ! cmp -s "$work/ae" "$work/be"; then
      fail "$sub $(basename "$f"): the portable build answers otherwise (exit $r1 / $r2)"
      diff "$work/a" "$work/b" | head -5 >&2
    fi
  done
done
echo "$n runs compared"
[ "$n" -ge 250 ] || fail "only $n runs"
[ "$failures" -eq 0 ]
