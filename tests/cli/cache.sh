#!/bin/sh
# --cache DIR: a second run over the same files prints the same report byte for byte from the
# cache; any change of a file's bytes, of an answer-changing option, of the configuration or of
# the program is a miss, never a stale answer; a damaged entry is a miss; concurrent runs share a
# cache; --no-cache overrides the configuration; --resources is never cached; the size bound
# holds; an unusable cache directory is a warning, not a skipped check.
. "$srcdir/tests/cli/cli-lib.sh"

tree=$work/tree
cache=$work/cache
mkdir -p "$tree/a" "$tree/b"
for f in "$srcdir"/corpus/iqm/base/*.iqm "$srcdir"/corpus/egg/base/*.egg "$srcdir"/examples/*; do
  [ -f "$f" ] && cp "$f" "$tree/a/"
done
cp "$srcdir/corpus/iqe/base/"*.iqe "$tree/b/" 2>/dev/null
rm -f "$tree/a/README.md"
n=$(find "$tree" -type f | wc -l)

# the hits and misses -v reports: "cache DIR: H hits, M misses, S stored"
counts()
{
  sed -n 's/^mdlcheck: cache .*: \([0-9]*\) hits\{0,1\}, \([0-9]*\) miss\(es\)\{0,1\}, \([0-9]*\) stored$/\1 \2 \4/p' "$work/err"
}

for fmt in json text sarif; do
  # -v as the cached runs (they read the hits from it; it adds the text report's stats lines)
  run --no-config -v -f "$fmt" "$tree"
  rc0=$rc
  cp "$work/out" "$work/plain.$fmt"
  run --no-config -v -f "$fmt" --cache "$cache" "$tree"
  [ "$rc" = "$rc0" ] || fail "first cached run exits $rc, uncached $rc0 ($fmt)"
  cmp -s "$work/out" "$work/plain.$fmt" || fail "first cached run's $fmt report differs"
  run --no-config -v -f "$fmt" -j 3 --cache "$cache" "$tree"
  [ "$rc" = "$rc0" ] || fail "second cached run exits $rc, uncached $rc0 ($fmt)"
  cmp -s "$work/out" "$work/plain.$fmt" || fail "the report from the cache differs ($fmt)"
  set -- $(counts)
  [ "${1:-}" = "$n" ] && [ "${2:-}" = 0 ] || fail "second run: expected $n hits, 0 misses; got '$*' ($fmt)"
done

# a changed byte is a miss, and the answer is the new file's
victim=$(ls "$tree/a/"*.iqm | head -1)
printf 'X' | dd of="$victim" bs=1 seek=20 conv=notrunc 2>/dev/null
run --no-config -f json "$tree"
cp "$work/out" "$work/changed.json"
run --no-config -v -f json --cache "$cache" "$tree"
cmp -s "$work/out" "$work/changed.json" || fail "a changed file was answered from the cache"
set -- $(counts)
[ "${2:-}" = 1 ] || fail "one changed file: expected 1 miss, got '$*'"

# an option that changes diagnostics, and the configuration's bytes, key the cache
run --no-config -f json --ignore 'IQM-*' "$tree"
cp "$work/out" "$work/ignored.json"
run --no-config -v -f json --ignore 'IQM-*' --cache "$cache" "$tree"
cmp -s "$work/out" "$work/ignored.json" || fail "--ignore was answered from entries made without it"
set -- $(counts)
[ "${1:-}" = 0 ] || fail "--ignore: expected no hit, got '$*'"
printf 'max-per-rule: 1\n' > "$work/one.yaml"
run --config "$work/one.yaml" -f json "$tree"
cp "$work/out" "$work/one.json"
run --config "$work/one.yaml" -v -f json --cache "$cache" "$tree"
cmp -s "$work/out" "$work/one.json" || fail "a configuration was answered from entries made without it"
printf 'max-per-rule: 2\n' > "$work/one.yaml"
run --config "$work/one.yaml" -f json "$tree"
cp "$work/out" "$work/two.json"
run --config "$work/one.yaml" -v -f json --cache "$cache" "$tree"
cmp -s "$work/out" "$work/two.json" || fail "a changed configuration was answered from the old one's entries"
set -- $(counts)
[ "${1:-}" = 0 ] || fail "changed configuration: expected no hit, got '$*'"

# another program (one byte more) is another cache
cp "$MDLCHECK" "$work/mdlcheck-other"
printf '\n' >> "$work/mdlcheck-other"
"$work/mdlcheck-other" --no-config -v -f json --cache "$cache" "$tree" >"$work/out" 2>"$work/err"
set -- $(counts)
[ "${1:-}" = 0 ] || fail "another build answered from this build's entries: '$*'"

# a damaged entry is a miss, never a wrong answer
for e in $(find "$cache" -type f ! -name '.*' | head -50); do
  printf 'garbage' | dd of="$e" bs=1 seek=60 conv=notrunc 2>/dev/null
done
run --no-config -v -f json --cache "$cache" "$tree"
cmp -s "$work/out" "$work/changed.json" || fail "damaged entries changed the report"

# concurrent runs over one cache
rm -rf "$cache"
for i in 1 2 3 4; do
  "$MDLCHECK" --no-config -f json -j 2 --cache "$cache" "$tree" >"$work/par$i.json" 2>/dev/null &
done
wait
for i in 1 2 3 4; do
  cmp -s "$work/par$i.json" "$work/changed.json" || fail "concurrent run $i's report differs"
done
[ -z "$(find "$cache" -name '.tmp-*')" ] || fail "temporary entries were left in the cache"

# the configuration's cache: (relative to its folder), and --no-cache over it
mkdir -p "$work/cfg"
printf 'cache: c2\n' > "$work/cfg/mdlcheck.yaml"
run --config "$work/cfg/mdlcheck.yaml" -f json "$tree"
[ -d "$work/cfg/c2" ] || fail "cache: in the configuration made no cache beside it"
rm -rf "$work/cfg/c2"
run --config "$work/cfg/mdlcheck.yaml" --no-cache -f json "$tree"
[ ! -e "$work/cfg/c2" ] || fail "--no-cache still used the configuration's cache"

# --resources depends on other files: never cached
rm -rf "$cache"
run --no-config --resources -f json --cache "$cache" "$tree"
[ -z "$(find "$cache" -type f 2>/dev/null)" ] || fail "--resources results were cached"

# the size bound
rm -rf "$cache"
run --no-config --cache "$cache" --cache-max-size=16K "$tree"
size=$(find "$cache" -type f -printf '%b\n' | awk '{ s += $1 * 512 } END { print s + 0 }')
[ "$size" -le 16384 ] || fail "the cache's entries hold $size bytes, bound 16K"
[ "$(find "$cache" -type f | wc -l)" -gt 0 ] || fail "the size bound emptied the whole cache"
run --no-config --cache-max-size=0 --cache "$cache" "$tree"
expect_rc 2 "--cache-max-size=0 is a usage error"

# an unusable cache directory: a warning, and every file still validated
printf 'x' > "$work/notdir"
run --no-config -f json --cache "$work/notdir" "$tree"
cmp -s "$work/out" "$work/changed.json" || fail "an unusable cache changed the report"
expect_grep err 'warning: no result cache this run' "an unusable cache is said"
finish
