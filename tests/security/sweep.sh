#!/bin/sh
# Issue 26: every entry point past validation, on every input the project holds. Each corpus
# file, example and fuzz seed (and, where xxd is installed, each conformance case's input) goes
# through tests/fuzz/replay_every: poses, convert to every format with the proof (the written
# bytes compared with the input), compare with itself and fix in memory (the repaired bytes
# decoded again). In the sanitizer build (.ci/run) this is the ASan/UBSan sweep; in a plain build
# it still fails on a crash or a heap abort. The Egg
# builder's write after free (item 1) was out of reach of validation alone, and of the fuzzers,
# which only validated, round-tripped and converted QMSH.
. "${srcdir:-.}/tests/cli/cli-lib.sh"
EVERY=$top_builddir/tests/fuzz/replay_every
CASE_RUN=$top_builddir/tests/conformance/case_run
[ -x "$EVERY" ] || { echo "no $EVERY" >&2; exit 99; }

find "$srcdir/corpus" "$srcdir/examples" -type f ! -name '*.yaml' ! -name '*.md' ! -name '*.sh' \
  ! -name '*.json' ! -name '*.log' ! -name '*.trs' >"$work/files"
if command -v xxd >/dev/null 2>&1 && [ -x "$CASE_RUN" ]; then
  mkdir "$work/cases"
  find "$srcdir/corpus" -name '*.yaml' ! -path '*/base/*' | while read -r c; do
    b=$(basename "$c" .yaml)
    "$CASE_RUN" --dump-input "$c" 2>/dev/null | xxd -r -p >"$work/cases/$b" 2>/dev/null
    [ -s "$work/cases/$b" ] && echo "$work/cases/$b" >>"$work/files" || rm -f "$work/cases/$b"
  done
else
  echo "xxd or case_run missing: conformance inputs not swept"
fi
total=$(wc -l <"$work/files")
echo "sweeping $total inputs"
[ "$total" -gt 1000 ] || fail "only $total inputs found"
# batches, so that a crash names a small set; each batch in one process
split -l 200 "$work/files" "$work/batch."
for b in "$work"/batch.*; do
  # shellcheck disable=SC2046
  if ! timeout 600 xargs "$EVERY" <"$b" >>"$work/out" 2>"$work/err"; then
    fail "replay_every crashed or failed on one of $(wc -l <"$b") inputs, $(head -1 "$b") first"
    tail -30 "$work/err" >&2
    # the input that fails alone
    while read -r f; do
      timeout 120 "$EVERY" "$f" >/dev/null 2>&1 || { echo "  failing input: $f" >&2; break; }
    done <"$b"
  fi
done
# every input went through (replay_main prints how many it read): a count short of the list is
# an input the sweep did not cover
replayed=$(awk '/^replayed/ { n += $2 } END { print n + 0 }' "$work/out")
echo "replayed $replayed of $total inputs"
[ "$replayed" -eq "$total" ] || fail "replayed $replayed of $total inputs"
finish
