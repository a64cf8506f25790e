#!/bin/sh
# action.yml run locally (tests/regress/action_run.py): its validate step runs mdlcheck once, with
# annotations by default and a SARIF report (uploaded) only when asked; in a pull_request job it
# takes the configuration and the baseline from the base branch, not the pull request's; its
# build step builds and installs a copy of this source tree when no mdlcheck is on PATH, saves
# it in the cache keyed by version and sources, and a later job restores it and builds nothing.
# The git parts are skipped (with a message) without git or outside a git checkout.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

RUNNER=$SRC/tests/regress/action_run.py
act()
{
  rc=0
  : >"$work/calls"
  RUNNER_TEMP=$work/runner ACTION_RUN_CACHE=$work/cache "$PYTHON" "$RUNNER" "$ACTION_PATH" "$@" \
    >"$work/out" 2>"$work/err" || rc=$?
  echo "+ action $* -> $rc"
}
mkdir -p runner cache good bad bin
cp "$SRC/corpus/iqm/base/anim.iqm" good/ok.iqm
case_input iqm/skeleton/IQM-JNT-002-t01-fail.yaml bad/cycle.iqm
# the mdlcheck under test, through a wrapper that counts the validations
cat >bin/mdlcheck <<EOF
#!/bin/sh
case "\$1" in --version) ;; *) echo "\$*" >>"$work/calls" ;; esac
exec "$BUILD/validator/mdlcheck" "\$@"
EOF
chmod +x bin/mdlcheck
ACTION_PATH=$SRC
SAVED_PATH=$PATH
PATH=$work/bin:$PATH
unset GITHUB_EVENT_NAME GITHUB_BASE_REF

# by default: one validation with annotations, no SARIF, no upload (it needs a permission and
# code scanning, which many repositories and every fork's pull request lack)
act paths=good
expect_rc 0 "a valid folder"
expect_count out "^using $work/bin/mdlcheck" 1
expect_count out 'output exit-code=0$' 1
expect_count out 'Upload SARIF: uses github/codeql-action/upload-sarif@v3 .*would run: false' 1
expect_count calls '' 1
expect_count calls '--format=github' 1
checks=$((checks + 1))
[ ! -e mdlcheck.sarif ] || fail "a SARIF report was written though upload-sarif is off"

act "paths=good bad"
expect_rc 1 "an invalid model fails the step"
expect_count out '^::error file=bad/cycle\.iqm.*IQM-JNT-002' 1
expect_count out 'output exit-code=1$' 1
expect_count calls '' 1

# SARIF on request: still one validation, its report uploaded under the share's category
act "paths=good bad" upload-sarif=true sarif=out.sarif
expect_rc 1 "an invalid model fails the step with SARIF too"
expect_count calls '' 1
expect_count calls '--format=sarif --output=out\.sarif' 1
expect_count out "upload-sarif@v3 .*would run: true.*'category', 'mdlcheck'\\)" 1
checks=$((checks + 1))
"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"]=="2.1.0", d["version"]' \
  out.sarif || fail "the action wrote no SARIF 2.1.0 report"
grep -q IQM-JNT-002 out.sarif || fail "the SARIF report does not carry the problem"

# with a baseline that accepts the problem, the step passes
"$BUILD/validator/mdlcheck" -f json -o base.json bad >/dev/null
act paths=bad baseline=base.json
expect_rc 0 "baselined problem"
expect_count calls '--baseline=base\.json' 1

# the configuration and baseline only through the inputs, which the next part protects
act paths=bad "args=--config=x.yaml"
expect_rc 2 "--config in args"
expect_count out '^::error::give the configuration and the baseline as the action' 1
expect_count calls '' 0

# a matrix of two shares: each job validates its own file, and uploads under its own category
act "paths=good bad" shard=1/2 upload-sarif=true
expect_rc 1 "share 1/2 holds bad/cycle.iqm (ranked first by its path below its folder)"
expect_count out "upload-sarif@v3 .*'category', 'mdlcheck-1/2'" 1
act "paths=good bad" shard=2/2 upload-sarif=true
expect_rc 0 "share 2/2 holds good/ok.iqm"
expect_count out "upload-sarif@v3 .*'category', 'mdlcheck-2/2'" 1

if ! command -v git >/dev/null 2>&1 || ! git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "no git, or not a git checkout: the pull-request configuration and the build step are not exercised"
  finish
  exit
fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t

# a pull request against main that adds `ignore: [iqm]` to mdlcheck.yaml and its invalid model
# to the baseline: its gate must still fail, with main's configuration and baseline
git init -q -b main origin.git --bare
git init -q -b main repo
(cd repo && mkdir assets && cp ../good/ok.iqm assets/ && printf 'fail-on: error\n' >mdlcheck.yaml &&
  git add -A && git commit -qm base && git remote add origin "$work/origin.git" && git push -q origin main &&
  git checkout -q -b pr && cp ../bad/cycle.iqm assets/ && printf 'ignore: [iqm]\n' >mdlcheck.yaml &&
  "$BUILD/validator/mdlcheck" --no-config -f json -o accepted.json assets >/dev/null;
  git add -A && git commit -qm pr) >git.log 2>&1 || { cat git.log >&2; echo "cannot set up the git repositories" >&2; exit 99; }
cd repo || exit 99
GITHUB_EVENT_NAME=pull_request GITHUB_BASE_REF=main act paths=assets baseline=accepted.json
expect_rc 1 "a pull request's own ignore: and baseline do not apply"
expect_count out '^::error file=assets/cycle\.iqm.*IQM-JNT-002' 1
expect_count out '^configuration: mdlcheck\.yaml of main$' 1
expect_count out '^baseline: none \(accepted\.json is not on main\)$' 1
expect_count calls '--no-config --config=.*/\.mdlcheck-base-config\.yaml' 1
GITHUB_EVENT_NAME=pull_request GITHUB_BASE_REF=main act paths=assets config-from-pull-request=true
expect_rc 0 "config-from-pull-request=true uses the pull request's mdlcheck.yaml"
GITHUB_EVENT_NAME=push act paths=assets
expect_rc 0 "a push uses the committed configuration"
# once main has the baseline, a pull request is judged with it
git checkout -q main && git checkout -q pr -- accepted.json && git commit -qm baseline && git push -q origin main &&
  git checkout -q pr
GITHUB_EVENT_NAME=pull_request GITHUB_BASE_REF=main act paths=assets baseline=accepted.json
expect_rc 0 "main's baseline accepts the problem"
expect_count out '^baseline: accepted\.json of main$' 1
cd "$work" || exit 99

# no mdlcheck on PATH: the build step builds and installs a copy of this tree and saves it in the
# cache; the next job (a new runner temp) restores it and builds nothing
mkdir src
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/src" 2>/dev/null)
ACTION_PATH=$work/src
PATH=
IFS_SAVE=$IFS; IFS=:
for d in $SAVED_PATH; do
  [ -x "$d/mdlcheck" ] || PATH=${PATH:+$PATH:}$d
done
IFS=$IFS_SAVE
act paths=bad
expect_rc 1 "built by the action, then validated"
checks=$((checks + 1))
[ -x runner/mdlcheck/bin/mdlcheck ] || fail "the build step installed no runner/mdlcheck/bin/mdlcheck"
expect_count out '^::error file=bad/cycle\.iqm.*IQM-JNT-002' 1
expect_count out 'Restore the mdlcheck build: restore key mdlcheck-Linux-X64-[0-9][^ ]*-[0-9]+: miss' 1
expect_count out 'Save the mdlcheck build: saved key mdlcheck-Linux-X64-' 1
rm -rf runner && mkdir runner
# a build now would fail: autoreconf is not there
mkdir nobuild && printf '#!/bin/sh\necho "autoreconf ran" >&2; exit 1\n' >nobuild/autoreconf && chmod +x nobuild/autoreconf
PATH=$work/nobuild:$PATH act paths=bad
expect_rc 1 "restored from the cache, then validated"
expect_count out 'Restore the mdlcheck build: restore key .*: hit' 1
expect_count out 'Save the mdlcheck build: uses actions/cache/save@v4 .*would run: false' 1
expect_count err 'autoreconf ran' 0
expect_count out '^::error file=bad/cycle\.iqm.*IQM-JNT-002' 1

finish
