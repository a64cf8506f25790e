#!/bin/sh
# Memory proportional to the file on any input (issue 14 item 8): peak RSS of an IQE run stays
# within 3 x the file above what a tiny file needs, on the inputs that cost the most per byte:
# the shortest vertex lines (`vp 0 0 0`) and a warning on every line (a degenerate `fm 0 1 2`,
# IQE-FAC-003: counts are kept, not messages). 16 MB each, generated here. Not under a
# sanitizer, whose shadow memory is not the program's.
. "${srcdir:-.}/tests/cli/cli-lib.sh"
RUN=$top_builddir/tests/bench/bench_run
[ -z "${SAN_CFLAGS:-}" ] || { echo "sanitizer build: RSS is not the program's"; exit 77; }
[ -x "$RUN" ] || { echo "no $RUN" >&2; exit 99; }

# measure ARGS...: peak RSS in KiB of mdlcheck ARGS... in $peak, its exit status in $rc
measure()
{
  set -- $("$RUN" "$MDLCHECK" "$@")
  peak=$2 rc=$3
}

printf '# Inter-Quake Export\nmesh m\nvp 0 0 0\n' >"$work/tiny.iqe"
{ printf '# Inter-Quake Export\nmesh m\n'; yes 'vp 0 0 0' | head -n 1800000; } >"$work/dense.iqe"
{ printf '# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 0 0\n'; yes 'fm 0 1 2' | head -n 1800000; } >"$work/storm.iqe"
measure -q "$work/tiny.iqe"
base=$peak
for f in dense storm; do
  kib=$(( $(wc -c <"$work/$f.iqe") / 1024 ))
  measure -f json -o "$work/$f.json" "$work/$f.iqe"
  echo "+ $f.iqe: $kib KiB, peak RSS $peak KiB (a tiny file: $base KiB), exit $rc"
  [ "$rc" -eq 0 ] || fail "$f.iqe: exit $rc, expected 0 (valid, with warnings)"
  [ "$peak" -le $((base + 3 * kib)) ] ||
    fail "$f.iqe: peak RSS $peak KiB is over 3 x the file ($((3 * kib)) KiB) + $base KiB"
done
# the storm was one: every face warned, and the report kept a count
grep -q '"IQE-FAC-003"' "$work/storm.json" || fail "storm.iqe: no IQE-FAC-003 in the report"
grep -Eq '"warning": 1800000' "$work/storm.json" || fail "storm.iqe: the report does not count 1800000 warnings"
exit $((failures > 0))
