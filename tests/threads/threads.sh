#!/bin/sh
# threads.sh - 8 threads validate every example and sample and Eggs with misplaced keywords at once
# (tests/threads/threads.c); the samples are skipped, with a message, where ../shared/samples is
# absent. In the ThreadSanitizer build (make check-tsan) a race is a failure even when the
# answers agree.
set -u
: "${srcdir:=.}"
: "${top_builddir:=.}"
bin=$top_builddir/tests/threads/threads
[ -x "$bin" ] || { echo "no $bin" >&2; exit 99; }
samples=${MDL_SAMPLES:-$srcdir/../shared/samples}
TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" exec "$bin" "$srcdir/examples" "$samples"
