#!/bin/sh
# --shard=K/N: the N shares of a selection are disjoint and together are the whole run, every
# job agrees however the directory is spelled, and malformed values are exit 2 at start.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

mdl=$(cd "$(dirname "$MDLCHECK")" && pwd)/$(basename "$MDLCHECK")
tree=$work/assets
mkdir -p "$tree/sub/deeper" "$tree/other" "$work/none"
for f in a.iqm m.iqm z.iqm sub/c.iqm sub/d.iqm sub/deeper/e.iqm other/b.iqm; do
  make_bad_parents_iqm "$tree/$f" 1
done
printf 'not a model\n' >"$work/none/readme.txt"

# paths FILE: the files[] paths of a JSON report, one a line, relative to the assets folder
paths() { "$PYTHON" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["files"]: print(f["path"].split("assets/", 1)[-1])' "$1"; }

run -f json "$tree"
expect_rc 1 "whole run"
paths "$work/out" | sort >"$work/whole"
[ "$(wc -l <"$work/whole")" -eq 7 ] || fail "the whole run selected $(wc -l <"$work/whole") files, not 7"

for n in 1 2 3 7 10; do
  : >"$work/union"
  k=1 smallest=99 largest=0
  while [ $k -le $n ]; do
    run -f json --shard=$k/$n "$tree"
    paths "$work/out" >"$work/share"
    c=$(wc -l <"$work/share")
    [ "$c" -lt "$smallest" ] && smallest=$c
    [ "$c" -gt "$largest" ] && largest=$c
    if [ "$c" -eq 0 ]; then
      expect_rc 0 "an empty share of a selection that has files"
      expect_grep err "shard $k/$n: no file \(the selection has 7, fewer than $n shares\)"
    else
      expect_rc 1 "share $k/$n of invalid files"
    fi
    # every job agrees: the same share from another working directory and spelling
    (cd "$work" && "$mdl" -f json --shard=$k/$n assets/ >"$work/out2" 2>/dev/null)
    paths "$work/out2" | cmp -s - "$work/share" || fail "share $k/$n differs when spelled assets/"
    cat "$work/share" >>"$work/union"
    k=$((k + 1))
  done
  sort "$work/union" | cmp -s - "$work/whole" ||
    fail "the $n shares are not the whole run once each: $(sort "$work/union" | tr '\n' ' ')"
  [ $((largest - smallest)) -le 1 ] || fail "$n shares range from $smallest to $largest files"
done

# files named directly are shared too, keyed by the argument as written
run -f json --shard=1/2 "$tree/a.iqm" "$tree/z.iqm" "$tree/m.iqm"
paths "$work/out" >"$work/s1"
run -f json --shard=2/2 "$tree/a.iqm" "$tree/z.iqm" "$tree/m.iqm"
paths "$work/out" >"$work/s2"
[ "$(cat "$work/s1" "$work/s2" | sort | tr '\n' ' ')" = "a.iqm m.iqm z.iqm " ] ||
  fail "named files: shares $(cat "$work/s1" "$work/s2" | tr '\n' ' ')"

# a selection empty as a whole stays exit 2 in every share
run --shard=1/2 "$work/none"
expect_rc 2 "an empty selection, sharded"
run --shard=1/2 --allow-empty "$work/none"
expect_rc 0 "an empty selection, sharded, --allow-empty"

# malformed or out of range: exit 2 before anything is read
for bad in 0/3 4/3 1/0 1/ /2 a/b 1/2x 2 -1/2 1/-2 " 1/2"; do
  run --shard="$bad" "$tree"
  expect_rc 2 "--shard=$bad"
  expect_lines out 0
  expect_grep err "--shard takes K/N"
done
run poses --shard=1/2 "$tree/a.iqm"
expect_rc 2 "--shard on poses"

# --resources: an external egg (<File>) is validated once across the shards. One in the
# selection belongs to its own shard, not also to the shard of the model naming it; one outside
# the selection to the shard of the model naming it.
eggs=$work/eggs
mkdir -p "$eggs/lib"
printf '<CoordinateSystem> { Z-up }\n<File> { "b" }\n<File> { "lib/c.egg" }\n' >"$eggs/a.egg"
printf '<CoordinateSystem> { Z-up }\n' >"$eggs/b.egg"
printf '<CoordinateSystem> { Z-up }\n' >"$eggs/lib/c.egg"
for n in 1 2; do
  : >"$work/union"
  k=1
  while [ $k -le $n ]; do
    run -f json --resources --shard=$k/$n "$eggs/a.egg" "$eggs/b.egg"
    expect_rc 0 "eggs, share $k/$n"
    "$PYTHON" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["files"]: print(f["path"].split("eggs/", 1)[-1])' "$work/out" >>"$work/union"
    k=$((k + 1))
  done
  [ "$(sort "$work/union" | tr '\n' ' ')" = "a.egg b.egg lib/c.egg " ] ||
    fail "$n shares with --resources validated: $(sort "$work/union" | tr '\n' ' ')"
done
finish
