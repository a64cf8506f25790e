#!/bin/sh
# Issue 26 item 2: compare and convert's proof allocated per vertex a header claims, even when no
# vertex array holds any: two valid 124-byte IQM headers claiming 2^30 vertices took the
# out-of-memory killer (24 GB) or exit 70 with no report. Vertices in no array carry nothing to
# compare but their count: compared by count, in memory bounded by the bytes present (here a
# 256 MiB address-space limit; in a sanitizer build, which reserves terabytes of shadow, the
# same limit on single allocations, failing instead of aborting).
. "${srcdir:-.}/tests/cli/cli-lib.sh"

# header FILE NUM_VERTEXES: an IQM 2 header and nothing else (no meshes, no vertex arrays)
header()
{
  {
    printf 'INTERQUAKEMODEL\000'
    u32 2; u32 124; u32 0                   # version, filesize, flags
    u32 0; u32 0; u32 0; u32 0              # text, meshes
    u32 0; u32 "$2"; u32 0                  # vertexarrays, vertexes, ofs_vertexarrays
    _i=0
    while [ $_i -lt 17 ]; do u32 0; _i=$((_i + 1)); done
  } >"$1"
}
header "$work/a.iqm" 1073741824
header "$work/b.iqm" 1073741823
[ "$(wc -c <"$work/a.iqm")" -eq 124 ] || { echo "a.iqm is not 124 bytes" >&2; exit 99; }

limited()
{
  if [ -n "${SAN_CFLAGS:-}" ]; then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=256:allocator_may_return_null=1" \
      run "$@"
  else
    # a subshell holds the limit; run's status comes back through a file
    (ulimit -v 262144 && run "$@" && echo "$rc" >"$work/rc")
    rc=$(cat "$work/rc")
  fi
}

run "$work/a.iqm"
expect_rc 0 "the header alone is valid (a warning)"

limited compare "$work/a.iqm" "$work/b.iqm"
expect_rc 1 "compare: the claimed counts differ"
expect_grep out 'MDL-CMP-011' "compare: the vertex counts are reported"
expect_grep out 'compared with .*b\.iqm' "compare: a report, not a stop"
expect_no_grep err 'out of memory' "compare: no out of memory"

limited compare "$work/a.iqm" "$work/a.iqm"
expect_rc 0 "compare with itself: the same claim"

limited compare -f json "$work/b.iqm" "$work/a.iqm"
expect_rc 1 "compare -f json"
expect_grep out '"MDL-CMP-011"' "compare -f json: the vertex counts are reported"

limited convert "$work/a.iqm" "$work/a2.iqm"
expect_rc 0 "convert to iqm: the claim written as it is"
for fmt in iqe egg x42; do
  limited convert "$work/a.iqm" "$work/a.$fmt"
  # vertices claimed in no array, no triangle, joint or animation: nothing a loader sees, refused
  # before writing (MDL-CNV-028; before it, written and the proof found the count, MDL-CMP-011)
  expect_rc 1 "convert to $fmt: nothing to write is refused"
  expect_grep err 'MDL-CNV-028' "convert to $fmt: the refusal names nothing to write"
  expect_no_grep err 'out of memory' "convert to $fmt: no out of memory"
done
finish
