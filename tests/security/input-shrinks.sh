#!/bin/sh
# A mapped input that another process truncates while mdlcheck decodes it: reading a page past the
# new end raises SIGBUS, which killed mdlcheck with exit 135 and no word (validate, poses, convert
# alike). Now it is the "could not be read" exit 3 with a line saying why, and no verdict. The
# truncation is made certain by a preloaded mmap (shrink_mapped.c) rather than raced.
. "$srcdir/tests/cli/cli-lib.sh"
if [ -n "${SAN_CFLAGS:-}" ]; then
  echo "SKIP: a sanitizer runtime must come first; a preload cannot"
  exit 77
fi
shim=$top_builddir/tests/security/.libs/shrink_mapped.so
[ -f "$shim" ] || fail "no $shim (make check builds it)"

# big enough to be mapped (core/input.c maps from 64 KiB), many pages past the first
awk 'BEGIN { print "<CoordinateSystem> { Z-up }"; for (i = 0; i < 40000; i++) printf "<Group> g%d { }\n", i }' \
  >"$work/big.egg"
cp "$work/big.egg" "$work/keep.egg"

# run WHAT...: mdlcheck with the shim, big.egg restored first
run()
{
  cp "$work/keep.egg" "$work/big.egg"
  rc=0
  LD_PRELOAD=$shim MDL_SHRINK_PATH=big.egg "$MDLCHECK" "$@" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ mdlcheck $* -> $rc"
}

# the shim really truncates: a file read whole is never mapped, so nothing happens to small ones
run "$work/big.egg"
expect_rc 3 "a shrinking input is 'could not be read'"
expect_grep err "big\.egg: could not be read to the end .it shrank.*no verdict$" "the input and the reason are said"
[ ! -s "$work/big.egg" ] || fail "the shim did not truncate the file: the test proves nothing"
grep -q 'valid' "$work/out" && fail "a verdict was printed for an input read in part"

run poses "$work/big.egg"
expect_rc 3 "poses"
expect_grep err "big\.egg: could not be read to the end" "poses says which input and why"

run convert "$work/big.egg" "$work/out.iqe"
expect_rc 3 "convert"
[ ! -e "$work/out.iqe" ] || fail "convert left OUT behind"
expect_grep err "big\.egg: could not be read to the end" "convert names IN"

# in a batch (-j2), the line names the file that shrank, not another one read at the same time
cp "$work/keep.egg" "$work/other.egg"
run -j2 "$work/other.egg" "$work/big.egg"
expect_rc 3 "a batch"
expect_grep err "big\.egg: could not be read to the end" "the batch names the input that shrank"
grep -q 'other\.egg: could not' "$work/err" && fail "the batch names the wrong input"

# untouched, the same file is valid: the exit above is the truncation's
rc=0
"$MDLCHECK" "$work/keep.egg" >"$work/out" 2>"$work/err" || rc=$?
expect_rc 0 "the same file, not truncated"
finish
