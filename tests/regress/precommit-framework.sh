#!/bin/sh
# .pre-commit-hooks.yaml through the pre-commit framework itself (`pre-commit try-repo`, offline:
# the hook is language: system): a valid model passes, an invalid one fails with its report,
# relative `args` resolve from the repository top, and every model extension is selected.
# Skipped (77) without the pre-commit program or outside a git checkout.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

if ! command -v pre-commit >/dev/null 2>&1 || ! git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "no pre-commit program, or the source is not a git checkout: skipped"
  exit 77
fi
export PRE_COMMIT_HOME=$work/cache PATH="$BUILD/validator:$PATH"
# try-repo takes a repository and a revision: a commit of the source's current hook file
hooks=$work/hooks
git init -q "$hooks" && cp "$SRC/.pre-commit-hooks.yaml" "$hooks/" \
  && git -C "$hooks" add .pre-commit-hooks.yaml \
  && git -C "$hooks" -c user.email=t@example.invalid -c user.name=t commit -q -m hooks || exit 99

mkdir repo && cd repo || exit 99
git init -q . && git config user.email t@example.invalid && git config user.name test || exit 99
mkdir assets
cp "$SRC/corpus/iqm/base/anim.iqm" assets/ok.iqm
echo "not a model" >notes.txt
git add assets notes.txt

try()
{
  rc=0
  pre-commit try-repo "$hooks" mdlcheck --verbose "$@" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ pre-commit try-repo $* -> $rc"
}
try --files assets/ok.iqm notes.txt
expect_rc 0 "a valid model"
expect_count out '^mdlcheck\.+Passed' 1

case_input iqm/skeleton/IQM-JNT-002-t01-fail.yaml assets/cycle.iqm
git add assets/cycle.iqm
try --all-files
expect_rc 1 "an invalid model"
expect_count out '^assets/cycle\.iqm:1044: error\[IQM-JNT-002\]' 1

# the files pattern selects every model extension and nothing else
checks=$((checks + 1))
for f in a.iqm a.iqe a.egg a.egg.pz a.qmsh a.x42; do
  printf '%s' "$f" | grep -Eq "$(sed -n "s/^  files: '\(.*\)'$/\1/p" "$SRC/.pre-commit-hooks.yaml")" \
    || fail "the hook's files pattern misses $f"
done
printf 'notes.txt' | grep -Eq "$(sed -n "s/^  files: '\(.*\)'$/\1/p" "$SRC/.pre-commit-hooks.yaml")" \
  && fail "the hook's files pattern selects notes.txt"

finish
