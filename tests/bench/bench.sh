#!/bin/sh
# bench.sh - `make bench`: time mdlcheck on a large generated file of every format against the
# floor for reading it (map + sum for all; tokenize, and tokenize + strtod, for text formats),
# check linearity (a half-size file), batch throughput (10,000 small files with -j 2), convert +
# proof of the IQM against validating it alone, compare
# with the baseline file and write the report.
#
# Environment (set by tests/bench/local.mk): MDLCHECK, BENCH_GEN, BENCH_BASELINE, BENCH_RUN,
# BENCH_TEXT, BENCH_DATA (directory for generated files, reused when present), BENCH_REPORT
# (markdown report), BENCH_BASELINE_JSON (results to compare against; written when missing or
# when BENCH_SAVE=1), BENCH_RUNS (timed runs per program, at least 5; medians are reported),
# BENCH_FORMATS (default: all), BENCH_BATCH (number of small files, default 10000),
# BENCH_PEERS (default 1: time the peers found on PATH, e.g. assimp for IQM; 0: skip them),
# BENCH_WEB_DIST (web/dist: when make web built it and node runs, validate() of the WebAssembly
# module times the same files, BENCH_WASM being tests/bench/wasm_bench.mjs),
# BENCH_PEER_RUNS (timed runs per peer, default 3: a peer takes seconds per run),
# BENCH_STRESS_MB (size of each dense-line and warning-storm input, default 100; 0 skips them).
set -eu
: "${MDLCHECK:=./validator/mdlcheck}" "${BENCH_GEN:=./tests/bench/bench_gen}"
: "${BENCH_BASELINE:=./tests/bench/bench_baseline}" "${BENCH_RUN:=./tests/bench/bench_run}"
: "${BENCH_TEXT:=./tests/bench/bench_text}" "${BENCH_DATA:=./bench-data}"
: "${BENCH_REPORT:=./reports/bench.md}" "${BENCH_BASELINE_JSON:=./reports/bench-baseline.json}"
: "${BENCH_RUNS:=5}" "${BENCH_FORMATS:=iqm iqe egg qmsh x42}" "${BENCH_BATCH:=10000}"
: "${BENCH_SAVE:=0}" "${BENCH_PEERS:=1}" "${BENCH_PEER_RUNS:=3}" "${BENCH_STRESS_MB:=100}"
[ "$BENCH_RUNS" -ge 5 ] || BENCH_RUNS=5
mkdir -p "$BENCH_DATA"
# absolute paths: the batch run works inside its directory
abs() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
MDLCHECK=$(abs "$MDLCHECK") BENCH_RUN=$(abs "$BENCH_RUN") BENCH_DATA=$(abs "$BENCH_DATA")
tab="$BENCH_DATA/results.txt" # one "key value" per line: the numbers of this run
: >"$tab"

minof() { echo "$1" | tr ' ' '\n' | grep . | sort -n | head -n 1; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
put() { echo "$1 $2" >>"$tab"; }
get() { sed -n "s/^$1 //p" "$tab" | head -n 1; }

# gen FMT UNITS FILE: generate once; a file of the current generator is kept between runs
gen() {
  if [ -s "$3" ]; then
    echo "bench: reusing $3"
  else
    echo "bench: generating $3 (once)"
    "$BENCH_GEN" "$1" "$3" "$2"
  fi
}

# measure CMD...: BENCH_RUNS timed runs after one warm-up (page cache); prints
# "median_cpu_seconds median_rss_kib median_wall_seconds all_cpu_seconds". CPU time (user +
# system of the child) is the measure: wall time on a loaded shared machine is mostly waiting.
measure() {
  "$BENCH_RUN" "$@" >/dev/null
  i=0
  : >"$BENCH_DATA/runs.txt"
  while [ "$i" -lt "$BENCH_RUNS" ]; do
    "$BENCH_RUN" "$@" >>"$BENCH_DATA/runs.txt"
    i=$((i + 1))
  done
  mid=$(( (BENCH_RUNS + 1) / 2 ))
  t=$(sort -n -k4,4 "$BENCH_DATA/runs.txt" | sed -n "${mid}p" | cut -d' ' -f4)
  r=$(sort -n -k2,2 "$BENCH_DATA/runs.txt" | sed -n "${mid}p" | cut -d' ' -f2)
  w=$(sort -n -k1,1 "$BENCH_DATA/runs.txt" | sed -n "${mid}p" | cut -d' ' -f1)
  all=$(cut -d' ' -f4 "$BENCH_DATA/runs.txt" | tr '\n' ' ')
  echo "$t $r $w $all"
}

# verdict FILE: "valid (exit 0); counts ..." - the timing is of a full validation of a valid file
verdict() {
  set +e
  "$MDLCHECK" -q "$1" >"$BENCH_DATA/verdict.txt" 2>&1
  st=$?
  set -e
  c=$("$MDLCHECK" --format=json "$1" 2>/dev/null | tr -d ' \n' |
    sed -n 's/.*"counts":{\([^}]*\)}.*/\1/p' | tr -d '"' | sed 's/,/, /g')
  ids=$("$MDLCHECK" "$1" 2>/dev/null | grep -o '\(error\|warning\|fatal\)\[[A-Za-z0-9-]*\]' |
    sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')
  [ -z "$ids" ] || c="$c ($ids)"
  case $st in
    0) v="valid (exit 0)" ;;
    1) v="INVALID (exit 1)" ;;
    *) v="mdlcheck failed (exit $st)" ;;
  esac
  [ "$st" -eq 0 ] || head -n 20 "$BENCH_DATA/verdict.txt" >&2
  echo "$v; counts: ${c:-?}"
}

for fmt in $BENCH_FORMATS; do
  file="$BENCH_DATA/bench.$fmt"
  half="$BENCH_DATA/bench-half.$fmt"
  gen "$fmt" 2 "$file"
  gen "$fmt" 1 "$half"
  bytes=$(wc -c <"$file" | tr -d ' ')
  put "$fmt.bytes" "$bytes"
  put "$fmt.half_bytes" "$(wc -c <"$half" | tr -d ' ')"
  v=$(verdict "$file")
  put "$fmt.verdict" "$v"
  echo "bench: $fmt: $v"

  set -- $(measure "$MDLCHECK" -q "$file")
  put "$fmt.mdlcheck_s" "$1"; put "$fmt.mdlcheck_rss" "$2"; put "$fmt.mdlcheck_wall" "$3"
  shift 3; put "$fmt.mdlcheck_all" "$*"
  set -- $(measure "$BENCH_BASELINE" "$file")
  put "$fmt.sum_s" "$1"; put "$fmt.sum_rss" "$2"; shift 3; put "$fmt.sum_all" "$*"
  case $fmt in
    iqe | egg)
      set -- $(measure "$BENCH_TEXT" tokens "$file")
      put "$fmt.tok_s" "$1"; shift 3; put "$fmt.tok_all" "$*"
      set -- $(measure "$BENCH_TEXT" strtod "$file")
      put "$fmt.strtod_s" "$1"; shift 3; put "$fmt.strtod_all" "$*"
      ;;
  esac
  set -- $(measure "$MDLCHECK" -q "$half")
  put "$fmt.half_s" "$1"; shift 3; put "$fmt.half_all" "$*"
  echo "bench: $fmt: mdlcheck $(get "$fmt.mdlcheck_s") s, map+sum $(get "$fmt.sum_s") s," \
    "half-size file $(get "$fmt.half_s") s"
done

# WebAssembly: the same files through the JS API's validate() in node (one process, the module
# loaded once), against the native CLI; the target is at most 2 x its CPU time.
wasm=""
if [ -n "${BENCH_WEB_DIST:-}" ] && [ -f "$BENCH_WEB_DIST/mdlcheck.mjs" ] && command -v node >/dev/null 2>&1; then
  files=""
  for fmt in $BENCH_FORMATS; do files="$files $BENCH_DATA/bench.$fmt"; done
  node "$BENCH_WASM" "$BENCH_WEB_DIST" "$BENCH_RUNS" $files >"$BENCH_DATA/wasm.txt"
  for fmt in $BENCH_FORMATS; do
    set -- $(grep "/bench\.$fmt " "$BENCH_DATA/wasm.txt")
    put "$fmt.wasm_s" "$2"; put "$fmt.wasm_wall" "$3"; put "$fmt.wasm_verdict" "$4"
    echo "bench: $fmt: WebAssembly validate() in node $2 CPU s ($(calc "%.2f" "$2 / $(get "$fmt.mdlcheck_s")") x the CLI)"
  done
  wasm="node $(node --version)"
fi

# Convert + proof: the IQM rewritten as IQM, decoded again and compared with the source (what
# `mdlcheck convert` does), against validating it alone. Goal: at most 3 x.
if [ -s "$BENCH_DATA/bench.iqm" ] && case " $BENCH_FORMATS " in *" iqm "*) true ;; *) false ;; esac; then
  set +e
  "$MDLCHECK" convert -q "$BENCH_DATA/bench.iqm" "$BENCH_DATA/convert-out.iqm"
  put convert.exit "$?"
  set -e
  set -- $(measure "$MDLCHECK" convert -q "$BENCH_DATA/bench.iqm" "$BENCH_DATA/convert-out.iqm")
  put convert.s "$1"; put convert.rss "$2"; put convert.wall "$3"; shift 3; put convert.all "$*"
  put convert.ratio "$(calc "%.1f" "$(get convert.s) / $(get iqm.mdlcheck_s)")"
  rm -f "$BENCH_DATA/convert-out.iqm"
  echo "bench: convert + proof of bench.iqm: $(get convert.s) CPU s (exit $(get convert.exit))," \
    "$(get convert.ratio) x validating it alone"
fi

# Memory on adversarial text: the bound is peak RSS <= 3 x the file + 64 MiB on any input, so
# the inputs are the ones that cost the most per byte: the shortest vertex lines (IQE `vp 0 0 0`,
# Egg `<Vertex>` pools) and one warning repeated millions of times (IQE degenerate faces
# IQE-FAC-003, Egg colours out of range EGG-VTX-006; the report keeps counts, not messages).
# Generated here, about BENCH_STRESS_MB each, and run once each (the full JSON report is built).
# stress_gen KIND FILE
stress_gen() {
  n=$((BENCH_STRESS_MB * 1000000))
  case $1 in
    iqe-dense) { printf '# Inter-Quake Export\nmesh m\n'; yes 'vp 0 0 0' | head -n $((n / 9)); } ;;
    iqe-storm) { printf '# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 0 0\n'; yes 'fm 0 1 2' | head -n $((n / 9)); } ;;
    egg-dense) awk -v n=$((n / 26)) 'BEGIN { print "<CoordinateSystem> { Z-up }\n<VertexPool> p {"
      for (i = 0; i < n; i++) printf "<Vertex> %d { 0 0 0 }\n", i; print "}" }' ;;
    egg-storm) awk -v n=$((n / 45)) 'BEGIN { print "<CoordinateSystem> { Z-up }\n<VertexPool> p {"
      for (i = 0; i < n; i++) printf "<Vertex> %d { 0 0 0 <RGBA> { 2 0 0 1 } }\n", i; print "}" }' ;;
  esac >"$2.tmp" && mv "$2.tmp" "$2"
}
stress_kinds=""
[ "$BENCH_STRESS_MB" -gt 0 ] && for kind in iqe-dense iqe-storm egg-dense egg-storm; do
  case " $BENCH_FORMATS " in *" ${kind%-*} "*) ;; *) continue ;; esac
  file="$BENCH_DATA/stress-$BENCH_STRESS_MB.$kind.${kind%-*}"
  if [ -s "$file" ]; then echo "bench: reusing $file"; else echo "bench: generating $file (once)"; stress_gen "$kind" "$file"; fi
  set -- $("$BENCH_RUN" "$MDLCHECK" -f json -o "$BENCH_DATA/stress.json" "$file")
  bytes=$(wc -c <"$file" | tr -d ' ')
  c=$(tr -d ' \n' <"$BENCH_DATA/stress.json" | sed -n 's/.*"counts":{\([^}]*\)}.*/\1/p' | tr -d '"' | sed 's/,/, /g')
  put "stress.$kind.bytes" "$bytes"; put "stress.$kind.rss" "$2"; put "stress.$kind.exit" "$3"
  put "stress.$kind.s" "$4"; put "stress.$kind.counts" "${c:-?}"
  stress_kinds="$stress_kinds $kind"
  echo "bench: $kind: $(calc "%.1f" "$bytes / 1e6") MB, peak RSS $(calc "%.1f" "$2 / 1024") MiB" \
    "($(calc "%.2f" "$2 * 1024 / $bytes") x the file), exit $3, $4 CPU s"
done

# Peers: other readers of the same file, when installed (assimp-utils reads IQM). `assimp info`
# imports and post-processes, `-r` imports raw (meshes, no post-processing).
peers=""
if [ "$BENCH_PEERS" = 1 ] && command -v assimp >/dev/null 2>&1 &&
  [ -s "$BENCH_DATA/bench.iqm" ] && case " $BENCH_FORMATS " in *" iqm "*) true ;; *) false ;; esac; then
  runs=$BENCH_RUNS
  BENCH_RUNS=$BENCH_PEER_RUNS
  for mode in info raw; do
    if [ "$mode" = raw ]; then flag=-r; else flag=; fi
    set -- $(measure "$(command -v assimp)" info "$BENCH_DATA/bench.iqm" $flag)
    put "peer.assimp_$mode.s" "$1"; put "peer.assimp_$mode.rss" "$2"; shift 3
    put "peer.assimp_$mode.all" "$*"
    echo "bench: peer: assimp info${flag:+ $flag} on bench.iqm: $(get "peer.assimp_$mode.s") CPU s"
  done
  BENCH_RUNS=$runs
  peers="assimp $(assimp version 2>/dev/null | sed -n 's/.*[Vv]ersion \([0-9.]*\).*/\1/p' | head -n 1)"
fi

# Batch: BENCH_BATCH small files of every format, validated in one -j 2 run.
batch="$BENCH_DATA/batch"
if [ ! -f "$batch/.done-$BENCH_BATCH" ]; then
  echo "bench: generating $BENCH_BATCH small files in $batch (once)"
  rm -rf "$batch"
  mkdir -p "$batch"
  "$BENCH_GEN" batch "$batch" "$BENCH_BATCH"
  : >"$batch/.done-$BENCH_BATCH"
fi
bv=$(cd "$batch" && { "$MDLCHECK" -q -j 2 ./* >"$BENCH_DATA/verdict.txt" 2>&1; echo $?; })
[ "$bv" -eq 0 ] || head -n 20 "$BENCH_DATA/verdict.txt" >&2
set -- $(cd "$batch" && measure "$MDLCHECK" -q -j 2 ./*)
put batch.s "$1"; put batch.rss "$2"; put batch.wall "$3"; shift 3; put batch.all "$*"
put batch.exit "$bv"
echo "bench: batch: $BENCH_BATCH files in $(get batch.s) s (exit $bv)"

# Scale (issue 32), each against its goal:
# - -j scaling: the same batch at -j 1, 2, 4, ... up to the machine's cores, by wall time (what -j
#   is for; meaningful only on an otherwise idle machine, so the load average is reported beside
#   it). Goal: -j 2 >= 1.7 x -j 1 on two cores, -j 16 >= 12 x on sixteen: 0.75 x N in between.
# - the result cache: a first run into an empty cache, then a second over the unchanged files
#   (CPU time; goal: the second >= 10 x faster than the first), the report identical to a run
#   without the cache.
# - archives: the batch read from one .pk3 (libzip) against the loose files, CPU time.
ncpu=$(nproc 2>/dev/null || echo 1)
jlist=1
j=2
while [ "$j" -le "$ncpu" ]; do jlist="$jlist $j"; j=$((j * 2)); done
case " $jlist " in *" $ncpu "*) ;; *) jlist="$jlist $ncpu" ;; esac
put jobs.list "$jlist"
for j in $jlist; do
  set -- $(cd "$batch" && measure "$MDLCHECK" -q -j "$j" ./*)
  put "jobs.$j.wall" "$3"; put "jobs.$j.s" "$1"
done
put batch1.s "$(get jobs.1.s)"; put batch1.wall "$(get jobs.1.wall)"
cache="$BENCH_DATA/cache"
: >"$BENCH_DATA/cache-runs.txt"
i=0
while [ "$i" -lt "$BENCH_RUNS" ]; do
  rm -rf "$cache"
  set -- $(cd "$batch" && "$BENCH_RUN" "$MDLCHECK" -q -j 2 --no-config --cache "$cache" ./*)
  c1=$4
  set -- $(cd "$batch" && "$BENCH_RUN" "$MDLCHECK" -q -j 2 --no-config --cache "$cache" ./*)
  echo "$c1 $4 $1" >>"$BENCH_DATA/cache-runs.txt"
  i=$((i + 1))
done
mid=$(( (BENCH_RUNS + 1) / 2 ))
put cache.first_s "$(sort -n -k1,1 "$BENCH_DATA/cache-runs.txt" | sed -n "${mid}p" | cut -d' ' -f1)"
put cache.s "$(sort -n -k2,2 "$BENCH_DATA/cache-runs.txt" | sed -n "${mid}p" | cut -d' ' -f2)"
put cache.wall "$(sort -n -k3,3 "$BENCH_DATA/cache-runs.txt" | sed -n "${mid}p" | cut -d' ' -f3)"
same=$( [ "$(cd "$batch" && "$MDLCHECK" -f json -j 2 --no-config ./* 2>/dev/null | md5sum)" = \
          "$(cd "$batch" && "$MDLCHECK" -f json -j 2 --no-config --cache "$cache" ./* 2>/dev/null | md5sum)" ] &&
        echo "identical" || echo "DIFFERENT")
put cache.same "$same"
pk3="$BENCH_DATA/batch-$BENCH_BATCH.pk3"
[ -s "$pk3" ] || python3 -c 'import sys, os, zipfile
z = zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED)
for n in sorted(os.listdir(sys.argv[1])):
    if not n.startswith("."):
        z.write(os.path.join(sys.argv[1], n), "models/" + n)
z.close()' "$batch" "$pk3"
put batch.bytes "$(cat "$batch"/* | wc -c | tr -d ' ')"
put archive.bytes "$(wc -c <"$pk3" | tr -d ' ')"
set -- $(measure "$MDLCHECK" -q -j 2 --no-config "$pk3")
put archive.s "$1"; put archive.wall "$3"
echo "bench: scale: -j $(echo $jlist | sed 's/ /, /g'): $(for j in $jlist; do printf '%s ' "$(get "jobs.$j.wall")"; done)s wall;" \
  "cache first $(get cache.first_s) / second $(get cache.s) CPU s ($same); archive $(get archive.s) CPU s"

# ---- report ---------------------------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$cpu" ] || cpu=$(uname -p)
date=$(date -u '+%Y-%m-%d %H:%M UTC')
version=$("$MDLCHECK" --version 2>/dev/null || echo "mdlcheck ?")
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)

# old KEY: the value in the baseline file, or empty
old() {
  [ -f "$BENCH_BASELINE_JSON" ] || return 0
  sed -n "s/^ *\"$1\": *\([0-9.e+-]*\),*$/\1/p" "$BENCH_BASELINE_JSON" | head -n 1
}
# change KEY NEW: "+12.3%" against the baseline file, or "new"
change() {
  o=$(old "$1")
  if [ -z "$o" ]; then echo "new"; else calc "%+.1f%%" "($2 - $o) / $o * 100"; fi
}

md="$BENCH_DATA/report.md"
{
  echo "# mdlcheck benchmark"
  echo
  echo "Generated by \`make bench\` (tests/bench/bench.sh) on $date."
  echo
  echo "| machine | |"
  echo "|---|---|"
  echo "| uname | $(uname -srvm) |"
  echo "| CPU | $cpu |"
  echo "| nproc | $(nproc 2>/dev/null || echo ?) |"
  echo "| load average at the end | $load |"
  echo "| tool | $version |"
  echo
  echo "Each program ran once to warm the page cache, then $BENCH_RUNS times; medians below. Times"
  echo "are **CPU seconds** (user + system of the child, tests/bench/bench_run): this machine is"
  echo "shared with other builds, and wall time there mostly measures the wait for a core (the"
  echo "median wall time of mdlcheck is listed too). Peak RSS is the child's \`ru_maxrss\`."
  echo "*map+sum* (bench_baseline) maps the file and sums it as 8-byte words; *tokens*"
  echo "(bench_text) splits a text file into tokens;"
  echo "*tok+strtod* also converts every numeric token with \`strtod\`. Inputs come from"
  echo "\`tests/bench/bench_gen\` (fixed seed) and are cached in bench-data/."
  echo
  echo "## Per format"
  echo
  echo "| format | MB | mdlcheck CPU s | MB/s | wall s | peak RSS MiB | RSS target MiB | map+sum s | ratio to map+sum | tokens s | tok+strtod s | ratio to tok+strtod | target met | vs baseline file | RSS / size |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$md"
for fmt in $BENCH_FORMATS; do
  bytes=$(get "$fmt.bytes"); t=$(get "$fmt.mdlcheck_s"); s=$(get "$fmt.sum_s")
  rss=$(get "$fmt.mdlcheck_rss")
  mb=$(calc "%.1f" "$bytes / 1e6"); mbs=$(calc "%.0f" "$bytes / 1e6 / $t")
  rmib=$(calc "%.1f" "$rss / 1024"); ratio=$(calc "%.1f" "$t / $s")
  case $fmt in
    iqe | egg)
      tok=$(get "$fmt.tok_s"); sd=$(get "$fmt.strtod_s")
      rt=$(calc "%.2f" "$t / $sd")
      rlim=$(calc "%.1f" "3 * $bytes / 1048576")
      met=$(awk "BEGIN { print ($t < $sd ? \"time yes\" : \"time NO\") \", \" ($rss / 1024 <= $rlim ? \"RSS yes\" : \"RSS NO\") }")
      ;;
    *)
      tok="-"; sd="-"; rt="-"
      rlim=$(calc "%.1f" "$bytes / 1048576 + 32")
      met=$(awk "BEGIN { print ($t <= 10 * $s ? \"time yes\" : \"time NO\") \", \" ($rss / 1024 <= $rlim ? \"RSS yes\" : \"RSS NO\") }")
      ;;
  esac
  echo "| $fmt | $mb | $t | $mbs | $(get "$fmt.mdlcheck_wall") | $rmib | $rlim | $s | $ratio | $tok | $sd | $rt | $met | $(change "$fmt.mdlcheck_s" "$t") | $(calc "%.2f" "$rss * 1024 / $bytes") |" >>"$md"
done
{
  echo
  echo "Targets: binary (iqm, qmsh, x42) ≤ 10 × map+sum and RSS ≤ file + 32 MiB; text (iqe, egg)"
  echo "faster than tok+strtod and RSS ≤ 3 × file. *vs baseline file* is the change of the median"
  echo "mdlcheck CPU time against reports/bench-baseline.json (negative is faster). CPU times on"
  echo "this shared machine still move by up to ±30 % between runs with the load of other jobs."
  echo
  echo "## Single file against issue 32's goals"
  echo
  echo "Binary formats: validation at most 2 × the map+sum pass over the same bytes; IQE at least"
  echo "400 MB/s and Egg at least 300 MB/s on one thread (CPU time), beside their ratio to the"
  echo "tokenize-only pass (*tokens*)."
  echo
  echo "| format | measure | value | goal | met |"
  echo "|---|---|---|---|---|"
} >>"$md"
for fmt in $BENCH_FORMATS; do
  bytes=$(get "$fmt.bytes"); t=$(get "$fmt.mdlcheck_s")
  case $fmt in
    iqe | egg)
      goal=$( [ "$fmt" = iqe ] && echo 400 || echo 300 )
      mbs=$(calc "%.0f" "$bytes / 1e6 / $t")
      echo "| $fmt | MB/s (CPU), $(calc "%.2f" "$t / $(get "$fmt.tok_s")") × tokens | $mbs | >= $goal MB/s | $(awk "BEGIN { print ($mbs >= $goal ? \"yes\" : \"NO\") }") |" ;;
    *)
      r=$(calc "%.2f" "$t / $(get "$fmt.sum_s")")
      echo "| $fmt | × map+sum | $r | <= 2 | $(awk "BEGIN { print ($r <= 2 ? \"yes\" : \"NO\") }") |" ;;
  esac
done >>"$md"
{
  if [ -n "$stress_kinds" ]; then
    echo
    echo "## Memory on dense lines and warning storms"
    echo
    echo "Generated by bench.sh (not committed), one run each of \`mdlcheck -f json -o FILE\`: the"
    echo "shortest vertex lines (*dense*: IQE \`vp 0 0 0\`, Egg \`<Vertex> N { 0 0 0 }\`) and one"
    echo "warning on every line (*storm*: IQE \`fm 0 1 2\` on a degenerate triangle, IQE-FAC-003;"
    echo "Egg \`<RGBA> { 2 0 0 1 }\`, EGG-VTX-006). Target: peak RSS ≤ 3 × the file + 64 MiB."
    echo
    echo "| input | MB | peak RSS MiB | RSS / size | target MiB | target met | CPU s | exit | counts |"
    echo "|---|---|---|---|---|---|---|---|---|"
  fi
} >>"$md"
for kind in $stress_kinds; do
  b=$(get "stress.$kind.bytes"); r=$(get "stress.$kind.rss")
  lim=$(calc "%.1f" "3 * $b / 1048576 + 64")
  met=$(awk "BEGIN { print ($r / 1024 <= $lim ? \"yes\" : \"NO\") }")
  [ "$(get "stress.$kind.exit")" -le 1 ] || met="NO (mdlcheck failed)"
  echo "| $kind | $(calc "%.1f" "$b / 1e6") | $(calc "%.1f" "$r / 1024") | $(calc "%.2f" "$r * 1024 / $b") | $lim | $met | $(get "stress.$kind.s") | $(get "stress.$kind.exit") | $(get "stress.$kind.counts") |" >>"$md"
done
{
  echo
  echo "## Linearity"
  echo
  echo "The fastest of the $BENCH_RUNS runs of each file (the least disturbed by other jobs): the"
  echo "median of runs under 0.1 s moves by more than the 10 % this row tests."
  echo
  echo "| format | half-size MB | half-size s (min) | full MB | full s (min) | size ratio | time ratio | ≤ 1.1 × size ratio |"
  echo "|---|---|---|---|---|---|---|---|"
} >>"$md"
for fmt in $BENCH_FORMATS; do
  hb=$(get "$fmt.half_bytes"); fb=$(get "$fmt.bytes")
  ht=$(minof "$(get "$fmt.half_all")"); ft=$(minof "$(get "$fmt.mdlcheck_all")")
  sr=$(calc "%.2f" "$fb / $hb"); tr=$(calc "%.2f" "$ft / $ht")
  ok=$(awk "BEGIN { print ($ft / $ht <= 1.1 * $fb / $hb ? \"yes\" : \"NO\") }")
  echo "| $fmt | $(calc "%.1f" "$hb / 1e6") | $ht | $(calc "%.1f" "$fb / 1e6") | $ft | $sr | $tr | $ok |" >>"$md"
done
bt=$(get batch.s)
{
  echo
  echo "## Batch"
  echo
  echo "$BENCH_BATCH small files (every format in turn, \`bench_gen batch\`), one \`mdlcheck -q -j 2\`"
  echo "run: **$(calc "%.0f" "$BENCH_BATCH / $bt") files per CPU second** (median $bt CPU s, wall"
  echo "$(get batch.wall) s: $(calc "%.0f" "$BENCH_BATCH / $(get batch.wall)") files/s of wall time; peak RSS"
  echo "$(calc "%.1f" "$(get batch.rss) / 1024") MiB, exit $(get batch.exit); CPU time against the baseline"
  echo "file: $(change batch.s "$bt"))."
  echo
  echo "## Scale: -j, the result cache, archives"
  echo
  echo "| measure | value | goal |"
  echo "|---|---|---|"
  for j in $(get jobs.list); do
    [ "$j" -gt 1 ] || continue
    sp=$(calc "%.2f" "$(get jobs.1.wall) / $(get "jobs.$j.wall")")
    goal=$(awk "BEGIN { g = ($j == 2 ? 1.7 : 0.75 * $j); printf \"%.2g\", g }")
    echo "| \`-j $j\` against \`-j 1\`, wall time ($BENCH_BATCH files; load average $load, $ncpu cores) | $sp x ($(get "jobs.$j.wall") s against $(get jobs.1.wall) s) | >= $goal x: $(awk "BEGIN { print ($sp >= $goal ? \"met\" : \"NOT met\") }") |"
  done
  cr=$(calc "%.1f" "$(get cache.first_s) / $(get cache.s)")
  echo "| \`--cache\`: the second run over unchanged files against the first (empty cache), CPU time (report $(get cache.same)) | $cr x ($(get cache.s) s against $(get cache.first_s) s) | >= 10 x: $(awk "BEGIN { print ($cr >= 10 ? \"met\" : \"NOT met\") }") |"
  echo "| \`--cache\` second run against no cache, CPU time | $(calc "%.1f" "$bt / $(get cache.s)") x | - |"
  echo "| the batch from one .pk3 ($(calc "%.1f" "$(get archive.bytes) / 1e6") MB, $(calc "%.1f" "$(get batch.bytes) / 1e6") MB inflated) against the loose files, CPU time | $(calc "%.2f" "$(get archive.s) / $bt") x: $(calc "%.0f" "$BENCH_BATCH / $(get archive.s)") files, $(calc "%.0f" "$(get batch.bytes) / 1e6 / $(get archive.s)") MB per CPU second | - |"
  echo
  if [ -n "$wasm" ]; then
    echo "## WebAssembly"
    echo
    echo "The same files through \`validate()\` of web/dist/mdlcheck.mjs (\`make web\`) in $wasm:"
    echo "one process, the module loaded once, a warm-up call, then $BENCH_RUNS timed calls; medians"
    echo "of the process's CPU time across the call (copying the bytes into the wasm heap, validating,"
    echo "reading the JSON entry back). Target: at most 2 x the native CLI's CPU time."
    echo
    echo "| format | native CLI CPU s | WebAssembly CPU s | wall s | ratio | ≤ 2 × | entry |"
    echo "|---|---|---|---|---|---|---|"
    for fmt in $BENCH_FORMATS; do
      n=$(get "$fmt.mdlcheck_s"); w=$(get "$fmt.wasm_s")
      echo "| $fmt | $n | $w | $(get "$fmt.wasm_wall") | $(calc "%.2f" "$w / $n") | $(awk "BEGIN { print ($w <= 2 * $n ? \"yes\" : \"NO\") }") | $(get "$fmt.wasm_verdict") |"
    done
    echo
  fi
  if [ -n "$(get convert.s)" ]; then
    echo "## Convert and proof"
    echo
    echo "\`mdlcheck convert -q bench.iqm out.iqm\` (decode with frames, write, decode the output,"
    echo "compare it with the source by content): **$(get convert.s) CPU s, $(get convert.ratio) ×**"
    echo "validating the file alone ($(get iqm.mdlcheck_s) s; goal ≤ 3 ×), wall $(get convert.wall) s,"
    echo "peak RSS $(calc "%.1f" "$(get convert.rss) / 1024") MiB, exit $(get convert.exit); CPU time against"
    echo "the baseline file: $(change convert.s "$(get convert.s)")."
    echo
  fi
  if [ -n "$peers" ]; then
    echo "## Peers"
    echo
    echo "The same IQM file read by $peers (Debian assimp-utils), $BENCH_PEER_RUNS timed runs"
    echo "after a warm-up, medians; \`assimp info\` post-processes, \`-r\` imports raw. mdlcheck"
    echo "runs every check of the catalogue on the file."
    echo
    echo "| reader | CPU s | peak RSS MiB | mdlcheck is faster by |"
    echo "|---|---|---|---|"
    t=$(get iqm.mdlcheck_s)
    echo "| mdlcheck | $t | $(calc "%.1f" "$(get iqm.mdlcheck_rss) / 1024") | - |"
    for mode in info raw; do
      ps=$(get "peer.assimp_$mode.s")
      echo "| assimp info$( [ "$mode" = raw ] && echo ' -r') | $ps | $(calc "%.1f" "$(get "peer.assimp_$mode.rss") / 1024") | $(calc "%.0f" "$ps / $t") × |"
    done
    echo
  fi
  echo "## Verdicts on the inputs"
  echo
  for fmt in $BENCH_FORMATS; do
    echo "- $fmt: $(get "$fmt.bytes") bytes: $(get "$fmt.verdict")"
  done
  echo
  echo "## Raw times (s)"
  echo
  for fmt in $BENCH_FORMATS; do
    echo "- $fmt: mdlcheck $(get "$fmt.mdlcheck_all"); map+sum $(get "$fmt.sum_all");" \
      "half $(get "$fmt.half_all")$( [ -z "$(get "$fmt.tok_all")" ] ||
        echo "; tokens $(get "$fmt.tok_all"); tok+strtod $(get "$fmt.strtod_all")")"
  done
  echo "- batch: $(get batch.all)"
  [ -z "$peers" ] || echo "- assimp info: $(get peer.assimp_info.all); assimp info -r: $(get peer.assimp_raw.all)"
} >>"$md"

# The analysis below the marker in the report is written by hand and kept across runs.
mkdir -p "$(dirname "$BENCH_REPORT")"
marker='<!-- analysis: kept by bench.sh -->'
if [ -f "$BENCH_REPORT" ] && grep -q "^$marker" "$BENCH_REPORT"; then
  { echo; sed -n "/^$marker/,\$p" "$BENCH_REPORT"; } >>"$md"
fi
cp "$md" "$BENCH_REPORT"

# Baseline file: flat JSON, one number per line (read back by old() above).
json="$BENCH_DATA/baseline.json"
{
  echo "{"
  echo "  \"date\": \"$date\","
  for fmt in $BENCH_FORMATS; do
    for k in bytes mdlcheck_s mdlcheck_rss mdlcheck_wall sum_s half_s tok_s strtod_s; do
      v=$(get "$fmt.$k")
      [ -z "$v" ] || echo "  \"$fmt.$k\": $v,"
    done
  done
  [ -z "$(get convert.s)" ] || echo "  \"convert.s\": $(get convert.s),"
  echo "  \"batch.files\": $BENCH_BATCH,"
  echo "  \"batch.s\": $bt"
  echo "}"
} >"$json"

echo
sed -n '/^## Per format/,/^Targets/p' "$md" | grep '^|' | cut -d'|' -f2,4,5,7,10,13,14,15,16 | column -t -s'|' 2>/dev/null ||
  sed -n '/^## Per format/,/^Targets/p' "$md"
[ -z "$stress_kinds" ] || sed -n '/^## Memory on dense/,/^## Linearity/p' "$md" | grep '^|' | cut -d'|' -f2-9 |
  column -t -s'|' 2>/dev/null || true
sed -n '/^## Linearity/,/^## Batch/p' "$md" | grep '^|' | cut -d'|' -f2,8,9
[ -z "$(get convert.s)" ] || echo "convert + proof of bench.iqm: $(get convert.s) CPU s, $(get convert.ratio) x validating it alone (goal <= 3 x)"
echo "batch: $(calc "%.0f" "$BENCH_BATCH / $bt") files per CPU second (time against the baseline file: $(change batch.s "$bt"))"
if [ ! -f "$BENCH_BASELINE_JSON" ] || [ "$BENCH_SAVE" = 1 ]; then
  cp "$json" "$BENCH_BASELINE_JSON"
  echo "bench: baseline written to $BENCH_BASELINE_JSON"
else
  echo "bench: compared with $BENCH_BASELINE_JSON (make bench BENCH_SAVE=1 to replace it)"
fi
echo "bench: report written to $BENCH_REPORT"
