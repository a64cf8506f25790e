#!/bin/sh
# action.yml run locally (tests/regress/action_run.py): its build step installs mdlcheck from a
# copy of this source tree when none is on PATH, its validate step gates a valid and an invalid
# asset folder with annotations and writes SARIF, and its SARIF upload follows its input.
# The build part is skipped (with a message) outside a git checkout.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

RUNNER=$SRC/tests/regress/action_run.py
act()
{
  rc=0
  RUNNER_TEMP=$work/runner "$PYTHON" "$RUNNER" "$ACTION_PATH" "$@" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ action $* -> $rc"
}
mkdir -p runner good bad
cp "$SRC/corpus/iqm/base/anim.iqm" good/ok.iqm
case_input iqm/skeleton/IQM-JNT-002-t01-fail.yaml bad/cycle.iqm

# the mdlcheck under test is on PATH: the build step uses it and builds nothing
ACTION_PATH=$SRC
PATH=$BUILD/validator:$PATH
act paths=good
expect_rc 0 "a valid folder"
expect_count out '^using .*/validator/mdlcheck' 1
expect_count out 'output exit-code=0$' 1
expect_count out 'Upload SARIF: uses github/codeql-action/upload-sarif@v3 .*would run: true' 1
checks=$((checks + 1))
"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"]=="2.1.0", d["version"]' \
  mdlcheck.sarif || fail "the action wrote no SARIF 2.1.0 report"

act "paths=good bad" upload-sarif=false sarif=out.sarif
expect_rc 1 "an invalid model fails the step"
expect_count out '^::error file=bad/cycle\.iqm.*IQM-JNT-002' 1
expect_count out 'output exit-code=1$' 1
expect_count out 'would run: false' 1
checks=$((checks + 1))
grep -q IQM-JNT-002 out.sarif || fail "the SARIF report does not carry the problem"

# with a baseline that accepts the problem, the step passes
"$BUILD/validator/mdlcheck" -f json -o base.json bad >/dev/null
act paths=bad baseline=base.json upload-sarif=false
expect_rc 0 "baselined problem"

# a matrix of two shares: each job validates its own file, and uploads under its own category
act "paths=good bad" shard=1/2
expect_rc 1 "share 1/2 holds bad/cycle.iqm (ranked first by its path below its folder)"
expect_count out '^::error file=bad/cycle\.iqm.*IQM-JNT-002' 1
expect_count out "upload-sarif@v3 .*'category', 'mdlcheck-1/2'" 1
act "paths=good bad" shard=2/2
expect_rc 0 "share 2/2 holds good/ok.iqm"
expect_count out "upload-sarif@v3 .*'category', 'mdlcheck-2/2'" 1
act paths=good
expect_count out "upload-sarif@v3 .*'category', 'mdlcheck'\)" 1

# no mdlcheck on PATH: the build step configures, builds and installs a copy of this tree
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mkdir src
  (cd "$SRC" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/src" 2>/dev/null)
  ACTION_PATH=$work/src
  PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v "^$BUILD/validator\$" | paste -sd: -)
  act paths=bad upload-sarif=false
  expect_rc 1 "built by the action, then validated"
  checks=$((checks + 1))
  [ -x runner/mdlcheck/bin/mdlcheck ] || fail "the build step installed no runner/mdlcheck/bin/mdlcheck"
  expect_count out '^::error file=bad/cycle\.iqm.*IQM-JNT-002' 1
else
  echo "not a git checkout: the action's build step is not exercised"
fi

finish
