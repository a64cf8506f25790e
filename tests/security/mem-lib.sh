# mem-lib.sh - what the memory-bound scripts share (egg-memory.sh, iqe-memory.sh): sourced after
# tests/cli/cli-lib.sh. Skipped in a sanitizer build: its RSS is its shadow memory.
if [ -n "${SAN_CFLAGS:-}" ]; then
  echo "SKIP: a sanitizer build's RSS is its shadow memory"
  exit 77
fi

# peak FILE: peak RSS (KiB) of validating FILE (of `mdlcheck $SUB FILE` when SUB is set, its
# output dropped), the exit status after a space; killed by signal N reads 128 + N, as in the
# shell, so a crash (its RSS cut short) fails a check's exit test instead of passing it
peak()
{
  "$PYTHON" - "$MDLCHECK" "$1" ${SUB:-} <<'PY'
import resource, subprocess, sys
args = sys.argv[3:] or ["-q"]
rc = subprocess.call([sys.argv[1], *args, sys.argv[2]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc if rc >= 0 else 128 - rc)
PY
}

# slope_of NAME FILE1 FILE2: two files of one dense pattern, the second larger. What the second
# costs more than the first must be within 3 x the text it adds (2 MiB of slack), so no size of
# the pattern can pass the bound, and the second must be within the bound itself (3 x its text +
# 64 MiB over $base, the caller's baseline). Both files are removed. FACTOR, when set, is a
# tighter limit than 3 on what the second costs more (a form whose cost was cut well under 3 x,
# so that it does not creep back to the bound unnoticed). TEXT1 and TEXT2, when set, are the
# texts' sizes (an .egg.pz's inflated text), where the files' sizes are not.
slope_of()
{
  _t1=${TEXT1:-$(wc -c <"$2" | tr -d ' ')}
  _t2=${TEXT2:-$(wc -c <"$3" | tr -d ' ')}
  _f1=$2 _f2=$3
  set -- "$1" $(peak "$2") $(peak "$3")
  _grew=$(($4 - $2))
  _limit=$(( (${FACTOR:-3} * (_t2 - _t1)) / 1024 + 2048 ))
  echo "$1: $((_t1 / 1024)) KiB of text: peak RSS $2 KiB; $((_t2 / 1024)) KiB: $4 KiB, $_grew KiB more (limit $_limit KiB), exits $3 $5"
  [ "$3" -le 1 ] && [ "$5" -le 1 ] || fail "$1: exit $3 / $5"
  [ "$_grew" -le "$_limit" ] || fail "$1: $_grew KiB more for $(((_t2 - _t1) / 1024)) KiB more text, over ${FACTOR:-3} x it + 2 MiB"
  [ $(($4 - base)) -le $(( (3 * _t2) / 1024 + 65536 )) ] || fail "$1: $(($4 - base)) KiB over the baseline, over 3 x the text + 64 MiB"
  rm -f "$_f1" "$_f2"
}
