#!/bin/sh
# run.sh SECONDS TARGET... - build AFL++-instrumented fuzz targets (persistent mode through the
# AFL++ libFuzzer driver) and run a bounded campaign on each; print executions, paths, crashes
# and hangs per target. Called by `make fuzz`. Crashes and hangs stay in fuzz-out/<target>/ for
# minimisation with afl-tmin and filing under corpus/fuzz/<fmt>/crashers/.
#
# run.sh --build TARGET...  only build the instrumented targets (fuzz-out/bin/fuzz_<target>).
# run.sh --seeds FORMAT...  regenerate corpus/fuzz/<fmt>/seed/ (called by `make fuzz-seeds`): the
#   conformance inputs (CASE_RUN --dump-input, hex) plus the current seeds, minimised with
#   afl-cmin, then capped to the smallest files within 60 files and 2 MB per format. Seeds
#   named keep-* (fuzz regressions that are valid inputs) are always kept.
set -eu
mode=run
case $1 in --build) mode=build; shift ;; --seeds) mode=seeds; shift ;; *) seconds=$1; shift ;; esac
: "${srcdir:=.}" "${top_builddir:=.}"
command -v afl-clang-fast >/dev/null || { echo "fuzz: afl-clang-fast not found (apt-get install afl++ clang lld llvm)"; exit 2; }

work=$top_builddir/fuzz-out
mkdir -p "$work/bin"
export AFL_ALLOW_TMP=1 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_QUIET=1

srcs=""
for s in $LIB_SOURCES; do
  case $s in *.c) if [ -f "$s" ]; then srcs="$srcs $s"; else srcs="$srcs $srcdir/$s"; fi ;; esac
done

# The library is instrumented once (objects in parallel), then linked into each target.
# UB stops the target (a finding), whatever UBSAN_OPTIONS say.
cflags="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -std=c11"
objdir=$work/obj
# An object is rebuilt when its source is newer; any newer header (generated rule ids included)
# makes every object stale.
if [ -f "$objdir/.stamp" ] && [ -n "$(find "$srcdir/validator" validator -name '*.h' -newer "$objdir/.stamp" 2>/dev/null | head -1)" ]; then
  rm -rf "$objdir"
fi
mkdir -p "$objdir"
export cflags objdir CPPFLAGS
# shellcheck disable=SC2086
printf '%s\n' $srcs | xargs -P "$(nproc)" -I{} sh -c \
  'o="$objdir/$(echo "{}" | tr / _).o"; [ "$o" -nt "{}" ] || afl-clang-fast $cflags $CPPFLAGS -c "{}" -o "$o"' \
  2>"$work/build_lib.log" || { echo "fuzz: building the library failed, see $work/build_lib.log"; exit 1; }
touch "$objdir/.stamp"

# The format a target decodes: roundtrip_<fmt>, convert_<fmt> (to IQM), every_<fmt> (poses,
# convert to each format, compare) or <fmt>.
target_format() {
  f=${1#roundtrip_}
  f=${f#every_}
  echo "${f#convert_}"
}

build_target() {
  fmt=$(target_format "$1")
  defs="-DFUZZ_FORMAT=\"$fmt\""
  case $1 in
    roundtrip_*) defs="$defs -DFUZZ_ROUNDTRIP" ;;
    convert_*) defs="$defs -DFUZZ_CONVERT=\"iqm\"" ;;
    every_*) defs="$defs -DFUZZ_EVERY" ;;
  esac
  exe=$work/bin/fuzz_$1
  # shellcheck disable=SC2086
  afl-clang-fast $cflags -fsanitize=fuzzer $CPPFLAGS $defs -o "$exe" \
    "$srcdir/tests/fuzz/fuzz_format.c" "$objdir"/*.o $LIBS 2>"$work/build_$1.log" \
    || { echo "fuzz: building $1 failed, see $work/build_$1.log"; exit 1; }
}

if [ "$mode" = build ]; then
  for t in "$@"; do build_target "$t"; done
  exit 0
fi

if [ "$mode" = seeds ]; then
  : "${CASE_RUN:=$top_builddir/tests/conformance/case_run}"
  for fmt in "$@"; do
    build_target "$fmt"
    raw=$work/raw_$fmt
    rm -rf "$raw" "$raw.min" && mkdir -p "$raw"
    find "$srcdir/corpus/$fmt" -name '*.yaml' | while read -r c; do
      b=$(basename "$c" .yaml)
      "$CASE_RUN" --dump-input "$c" 2>/dev/null | xxd -r -p >"$raw/$b" || true
      [ -s "$raw/$b" ] || rm -f "$raw/$b"
    done
    cp "$srcdir/corpus/fuzz/$fmt/seed/"* "$raw/" 2>/dev/null || true
    AFL_ALLOW_TMP=1 AFL_NO_UI=1 afl-cmin -t 2000 -m none -i "$raw" -o "$raw.min" -- "$work/bin/fuzz_$fmt" \
      >"$work/cmin_$fmt.log" 2>&1 || { echo "fuzz: afl-cmin failed for $fmt, see $work/cmin_$fmt.log"; exit 1; }
    dest=$srcdir/corpus/fuzz/$fmt/seed
    # keep-*: regressions found by fuzzing that are valid after their fix; never dropped.
    rm -rf "$work/keep_$fmt" && mkdir -p "$work/keep_$fmt"
    cp "$dest"/keep-* "$work/keep_$fmt/" 2>/dev/null || true
    rm -f "$raw.min"/keep-*
    rm -rf "$dest" && mkdir -p "$dest"
    cp "$work/keep_$fmt"/* "$dest/" 2>/dev/null || true
    # Smallest first: small seeds mutate faster and the cap keeps the repository light.
    total=$(cat "$dest"/* 2>/dev/null | wc -c) n=$(ls "$dest" | wc -l)
    for f in $(ls -Sr "$raw.min"); do
      sz=$(wc -c <"$raw.min/$f")
      [ $n -lt 60 ] && [ $((total + sz)) -le 2097152 ] || break
      cp "$raw.min/$f" "$dest/$f"
      total=$((total + sz)) n=$((n + 1))
    done
    echo "$fmt: $(ls "$raw" | wc -l) inputs, $(ls "$raw.min" | wc -l) after afl-cmin, kept $n ($total bytes)"
  done
  exit 0
fi

printf '%-16s %12s %8s %8s %6s %s\n' target execs paths crashes hangs seconds
# A crash found, or a target that did not run, fails the run: a smoke run that saw a crash is no
# clean result (the CI's fuzz stage passed with a crash in every_iqe before this).
found=0
for t in "$@"; do
  build_target "$t"
  exe=$work/bin/fuzz_$t
  fmt=$(target_format "$t")
  seeds=$work/seeds_$t
  rm -rf "$seeds" && mkdir -p "$seeds"
  if [ "$fmt" = any ]; then
    for d in "$srcdir"/corpus/fuzz/*/seed; do cp "$d"/* "$seeds/" 2>/dev/null || true; done
  else
    cp "$srcdir/corpus/fuzz/$fmt/seed/"* "$seeds/" 2>/dev/null || true
  fi
  [ -n "$(ls "$seeds")" ] || printf 'x' > "$seeds/empty"
  dict=""
  [ -f "$srcdir/tests/fuzz/dict/$fmt.dict" ] && dict="-x $srcdir/tests/fuzz/dict/$fmt.dict"
  out=$work/$t
  rm -rf "$out"
  # shellcheck disable=SC2086
  timeout $((seconds + 30)) afl-fuzz -V "$seconds" -t 2000 -m none -i "$seeds" -o "$out" $dict -- "$exe" \
    >"$work/afl_$t.log" 2>&1 || true
  stats=$out/default/fuzzer_stats
  if [ -f "$stats" ]; then
    get() { sed -n "s/^$1 *: *//p" "$stats"; }
    printf '%-16s %12s %8s %8s %6s %s\n' "$t" "$(get execs_done)" "$(get corpus_count)" \
      "$(get saved_crashes)" "$(get saved_hangs)" "$seconds"
    if [ "$(get saved_crashes)" != 0 ]; then
      found=1
      for c in "$out"/default/crashes/id:*; do echo "fuzz: $t crashes on $c (replay: $exe $c)"; done
    fi
    [ "$(get saved_hangs)" = 0 ] || echo "fuzz: $t: hangs over 2 s (not a failure: a loaded machine can cause them), in $out/default/hangs"
  else
    echo "$t: afl-fuzz did not run, see $work/afl_$t.log"
    found=1
  fi
done
exit "$found"
