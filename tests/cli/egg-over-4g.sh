#!/bin/sh
# An Egg text over 4 GiB (its tree keeps 32-bit offsets) is refused as too large: the fatal
# MDL-IO-002 and exit 3 (nothing was checked), not an invalid file and not a false out-of-memory.
# The file is sparse (no disk) and mapped, never read: the refusal comes before the parse.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

if ! truncate -s 4300000000 "$work/big.egg" 2>/dev/null; then
  echo "SKIP: no sparse 4 GB file here"
  exit 77
fi
rc=0
"$MDLCHECK" --no-config --max-input-size 5G --assume-format egg "$work/big.egg" >"$work/out" 2>&1 || rc=$?
rm -f "$work/big.egg"
expect_rc 3 "an Egg over 4 GiB could not be checked"
expect_grep out 'fatal\[MDL-IO-002\]: the Egg text [(]its tree addresses 4 GiB at most[)] exceeds' "MDL-IO-002 says why"
finish
