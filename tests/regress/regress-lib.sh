# shellcheck shell=sh
# regress-lib.sh - what the regression tests share: mdlcheck and case_run, a scratch tree built
# from small corpus inputs, running mdlcheck there, and assertions that say what was expected.
set -u

: "${srcdir:=.}"
: "${top_builddir:=.}"
abs() { (cd "$1" && pwd); }
SRC=$(abs "$srcdir")
BUILD=$(abs "$top_builddir")
MDLCHECK=$BUILD/validator/mdlcheck
CASE_RUN=$BUILD/tests/conformance/case_run
PYTHON=/usr/bin/python3

for tool in "$MDLCHECK" "$CASE_RUN"; do
  if [ ! -x "$tool" ]; then
    echo "no $tool (build it first)" >&2
    exit 99
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/mdl-regress.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
failures=0
checks=0

fail()
{
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# case_input CASE OUT: the bytes a conformance case builds (corpus path relative to corpus/).
case_input()
{
  "$CASE_RUN" --dump-input "$SRC/corpus/$1" >"$work/hex" || { echo "case_run failed on $1" >&2; exit 99; }
  "$PYTHON" -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(open(sys.argv[1]).read()))' \
    "$work/hex" >"$2" || exit 99
}

# run ARGS...: mdlcheck in the scratch directory; stdout in out, stderr in err, status in $rc.
run()
{
  rc=0
  "$MDLCHECK" "$@" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ mdlcheck $* -> $rc"
}

expect_rc()
{
  checks=$((checks + 1))
  if [ "$rc" -ne "$1" ]; then
    fail "expected exit $1, got $rc${2:+ ($2)}"
    sed 's/^/  stdout: /' "$work/out" >&2
    sed 's/^/  stderr: /' "$work/err" >&2
  fi
}

# expect_count FILE ERE N [what]: exactly N lines of FILE (out or err) match.
expect_count()
{
  n=$(grep -Ec -- "$2" "$work/$1")
  checks=$((checks + 1))
  if [ "$n" -ne "$3" ]; then
    fail "${4:-$1}: $n lines match /$2/, expected $3"
    sed "s/^/  $1: /" "$work/$1" >&2
  fi
}

# expect_same FILE EXPECTED-TEXT: FILE's whole content, exactly.
expect_same()
{
  checks=$((checks + 1))
  printf '%s\n' "$2" >"$work/expected"
  if ! cmp -s "$work/expected" "$work/$1"; then
    fail "$1 differs from what was expected"
    diff -u "$work/expected" "$work/$1" >&2
  fi
}

finish()
{
  if [ "$checks" -eq 0 ]; then
    echo "no check ran" >&2
    exit 99
  fi
  echo "$checks checks, $failures failed"
  [ "$failures" -eq 0 ]
}
