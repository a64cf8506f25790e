#!/bin/bash
# scaling.sh - -j scaling of a batch on a many-core machine (issue 32 item 2): 40,000 small files
# (bench_gen batch) in one folder and in 16 folders, -j 1 against -j 16, runs interleaved, best
# and median of R; the hardware's own scaling (16 processes over the 16 folders, no coordinator);
# -j 2 against -j 1 on two pinned cores over 20,000 files. With a second mdlcheck (OLD) both run
# in turn on the same files, so a change is measured against its base on the same machine.
# Usage: OUT=DIR scaling.sh MDLCHECK BENCH_GEN [OLD_MDLCHECK]   (R=5 runs by default, NM/NF/NT
# change the 40,000 / 16 x 2,500 / 20,000 files for a quick try; figures in
# DIR/scaling.txt, every run in DIR/scaling.raw). Needs no build tools: carry statically linked
# binaries to the machine (configure --disable-shared; make LDFLAGS=-all-static), see
# reports/scaling.md.
set -u
NEW=$(realpath "$1"); GEN=$(realpath "$2"); OLD=${3:+$(realpath "$3")}
R=${R:-5}; W=$(mktemp -d); O=${OUT:?set OUT to a folder}/scaling.txt; RAW=$OUT/scaling.raw
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/split" "$W/many" "$W/two"; : > "$RAW"
{ echo "cores $(nproc)"; lscpu 2>/dev/null | grep -E 'Model name|Thread\(s\)'; } > "$O"
for k in $(seq 1 16); do d=$W/split/$(printf d%02d $k); mkdir -p $d; "$GEN" batch $d ${NF:-2500} >/dev/null; done
"$GEN" batch $W/many ${NM:-40000} >/dev/null; "$GEN" batch $W/two ${NT:-20000} >/dev/null; sync
now() { date +%s.%N; }
run1() { local s; s=$(now); "$@" >/dev/null 2>&1; awk "BEGIN{printf \"%.4f\", $(now) - $s}"; }
bins="new"; [ -n "$OLD" ] && bins="old new"
bin() { [ "$1" = old ] && echo "$OLD" || echo "$NEW"; }
# label dir jobs-a jobs-b [taskset cpus]
compare() {
  local lab=$1 dir=$2 ja=$3 jb=$4 cpus=${5:-}; cd "$dir"
  for b in $bins; do "$(bin $b)" -q -j $jb . >/dev/null 2>&1; done # warm the page cache
  for r in $(seq 1 $R); do for b in $bins; do for j in $ja $jb; do
    echo "$lab $b $j $(run1 ${cpus:+taskset -c $cpus} "$(bin $b)" -q -j $j .)" >> "$RAW"
  done; done; done
  for b in $bins; do
    awk -v lab="$lab" -v b="$b" -v ja="$ja" -v jb="$jb" '
      function med(a, n,  i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
      $1 == lab && $2 == b && $3 == ja { x[++nx] = $4 } $1 == lab && $2 == b && $3 == jb { y[++ny] = $4 }
      END { bx = med(x, nx); by = med(y, ny); printf "%s %s: -j %s best %.4f median %.4f s, -j %s best %.4f median %.4f s: %.2f x best, %.2f x median\n",
            lab, b, ja, x[1], bx, jb, y[1], by, x[1] / y[1], bx / by }' "$RAW" >> "$O"
  done
}
compare many $W/many 1 16
compare split $W/split 1 16
cd $W/split; for r in $(seq 1 $R); do
  echo "procs new 16 $(run1 bash -c 'for k in $(seq 1 16); do "$0" -q $(printf d%02d $k) & done; wait' "$NEW")" >> "$RAW"; done
awk '$1 == "procs" { if (!b || $4 < b) b = $4 } END { printf "16 processes over the 16 folders (no coordinator): best %.4f s\n", b }' "$RAW" >> "$O"
cd $W/many; cmp -s <("$NEW" -f json -j 1 . 2>&1) <("$NEW" -f json -j 16 . 2>&1) &&
  echo "JSON reports of -j 1 and -j 16 identical" >> "$O" || echo "JSON reports of -j 1 and -j 16 DIFFER" >> "$O"
compare two-cpus $W/two 1 2 0,1
cat "$O"
