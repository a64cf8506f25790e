#!/bin/sh
# contrib/pre-commit/mdlcheck-pre-commit in a scratch repository: a valid model commits, an
# invalid staged one is refused (even when the work tree copy is fixed), and with a baseline
# only a new problem is refused. Skipped (77) without git or bash.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

if ! command -v git >/dev/null 2>&1 || ! command -v bash >/dev/null 2>&1; then
  echo "no git or bash: skipped"
  exit 77
fi
HOOK=$SRC/contrib/pre-commit/mdlcheck-pre-commit

mkdir repo && cd repo || exit 99
git init -q . && git config user.email t@example.invalid && git config user.name test \
  && git config commit.gpgsign false && git config core.hooksPath .git/hooks || exit 99
cp "$HOOK" .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit
export MDLCHECK

commit()
{
  rc=0
  git commit -q -m "$1" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ git commit ($1) -> $rc"
}

mkdir -p assets/old
cp "$SRC/corpus/iqm/base/anim.iqm" assets/ok.iqm
echo "not a model" >notes.txt
git add assets notes.txt
commit "a valid model"
expect_rc 0

# an invalid model is refused, and the report (git shows a hook's output on stderr) names it
# by its repository path
case_input iqm/skeleton/IQM-JNT-002-t01-fail.yaml assets/old/cycle.iqm
git add assets/old/cycle.iqm
commit "a broken model"
expect_rc 1 "broken model staged"
expect_count err '^assets/old/cycle\.iqm:1044: error\[IQM-JNT-002\]' 1
expect_count err 'invalid model files staged' 1

# the STAGED content counts: fixing the work tree copy alone does not help
cp "$SRC/corpus/iqm/base/anim.iqm" assets/old/cycle.iqm
commit "work tree fixed, index not"
expect_rc 1 "staged content is still broken"

# with a baseline that records the old problem, it commits; a new problem still does not
case_input iqm/skeleton/IQM-JNT-002-t01-fail.yaml assets/old/cycle.iqm
"$MDLCHECK" -f json -o .mdlcheck-baseline.json assets >/dev/null
git add .mdlcheck-baseline.json assets/old/cycle.iqm
commit "legacy problem, baselined"
expect_rc 0 "baselined problem"
case_input iqm/skeleton/IQM-JNT-001-t01-fail.yaml assets/ok.iqm
git add assets/ok.iqm
commit "new problem"
expect_rc 1 "a new problem despite the baseline"
expect_count err '^assets/ok\.iqm:1044: error\[IQM-JNT-001\]' 1

# the documented example: a relative --config in MDLCHECK_ARGS (the hook checks a scratch copy,
# so it must resolve the path against the work tree first); the config ignores the rule, so the
# broken model commits, and a config that does not exist is a usage error that blocks
cat >mdlcheck.yaml <<'YAML'
ignore: [IQM-JNT-001]
YAML
git add mdlcheck.yaml
MDLCHECK_ARGS="--config=mdlcheck.yaml" commit "relative config ignores the new problem"
expect_rc 0 "MDLCHECK_ARGS with a relative --config"
git reset -q --soft HEAD~1
MDLCHECK_ARGS="--config mdlcheck.yaml" commit "relative config, separate word"
expect_rc 0 "MDLCHECK_ARGS with --config as two words"
git reset -q --soft HEAD~1
MDLCHECK_ARGS="--config=missing.yaml" commit "missing config"
expect_rc 1 "a missing config blocks the commit"
expect_count err 'mdlcheck failed \(exit 2\)' 1
# without MDLCHECK_ARGS, mdlcheck.yaml at the top applies as mdlcheck run there would find it
# (the check runs in a scratch copy, where its own search finds nothing); --no-config stops it
commit "config found at the top"
expect_rc 0 "mdlcheck.yaml at the top applies without MDLCHECK_ARGS"
git reset -q --soft HEAD~1
MDLCHECK_ARGS="--no-config" commit "config switched off"
expect_rc 1 "--no-config in MDLCHECK_ARGS"
git commit -q -m "restore" --no-verify
git rm -q --cached mdlcheck.yaml && git commit -q -m "drop config" --no-verify

# nothing to check: commits
git reset -q assets/ok.iqm
echo more >>notes.txt
git add notes.txt
commit "no model staged"
expect_rc 0

finish
