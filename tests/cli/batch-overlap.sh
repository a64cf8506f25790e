#!/bin/sh
# The walk and the workers overlap (-j above 1 validates files while the walk still selects
# them): over a tree of every corpus model, in nested folders with links and other files, the
# report is the same byte for byte at -j 1, 3 and 8, in text, JSON and with --resources, and a
# --shard share validates the same files with or without -j.
. "$srcdir/tests/cli/cli-lib.sh"

tree=$work/tree
n=0
for f in $(find "$srcdir/corpus" "$srcdir/examples" -type f \( -name '*.iqm' -o -name '*.iqe' -o -name '*.egg' \
    -o -name '*.qmsh' -o -name '*.x42' -o -name '*.pz' \) | sort); do
  d="$tree/d$((n % 7))/e$((n % 3))"
  mkdir -p "$d"
  cp "$f" "$d/$n-$(basename "$f")"
  n=$((n + 1))
done
[ "$n" -gt 100 ] || fail "the corpus gave only $n models"
printf 'not a model\n' > "$tree/d1/notes.txt"
ln -s ../d2 "$tree/d1/again"

for fmt in text json; do
  run -f "$fmt" -j 1 --no-config "$tree"
  rc1=$rc
  cp "$work/out" "$work/serial.$fmt"
  for j in 3 8; do
    run -f "$fmt" -j "$j" --no-config "$tree"
    [ "$rc" = "$rc1" ] || fail "-j $j exits $rc, -j 1 exits $rc1 ($fmt)"
    cmp -s "$work/out" "$work/serial.$fmt" || fail "-j $j and -j 1 $fmt reports differ"
  done
done
expect_grep serial.text "^summary: $n files" "every copied model is in the report"

run -f json -j 1 --no-config --resources "$tree"
cp "$work/out" "$work/serial-res.json"
run -f json -j 8 --no-config --resources "$tree"
cmp -s "$work/out" "$work/serial-res.json" || fail "-j 8 and -j 1 reports differ with --resources"

run -f json -j 1 --no-config --shard=2/3 "$tree"
cp "$work/out" "$work/shard1.json"
run -f json -j 4 --no-config --shard=2/3 "$tree"
cmp -s "$work/out" "$work/shard1.json" || fail "-j 4 and -j 1 reports differ for --shard=2/3"
finish
