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
