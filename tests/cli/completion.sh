#!/bin/sh
# The shell completions generated from the option table: bash's function completes subcommands,
# options and their values as a user types them; zsh's hands _arguments a spec for every option.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

bash_file=$top_builddir/completions/mdlcheck
zsh_file=$top_builddir/completions/_mdlcheck
[ -f "$bash_file" ] && [ -f "$zsh_file" ] || { echo "completions not built" >&2; exit 99; }
bash_file=$(cd "$(dirname "$bash_file")" && pwd)/mdlcheck
zsh_file=$(cd "$(dirname "$zsh_file")" && pwd)/_mdlcheck
mkdir "$work/dir" && : >"$work/dir/cfg.yaml" && : >"$work/dir/conv.iqm"

# complete WORD... : the completions bash offers for the last word, one a line, sorted
complete_words()
{
  (cd "$work/dir" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _mdlcheck; printf "%s\n" "${COMPREPLY[@]}"' sh "$bash_file" mdlcheck "$@") | sed '/^$/d' | sort
}
# expect_completion "WORDS" "EXPECTED (space-separated, sorted)"
expect_completion()
{
  # shellcheck disable=SC2086
  got=$(complete_words $1 | tr '\n' ' ')
  [ "$got" = "${2:+$2 }" ] || fail "completing '$1': got '$got', expected '$2'"
}

expect_completion "--sh" "--shard"
expect_completion "--target" "--target --target-version"
expect_completion "--target-" "--target-version"
expect_completion "--target as" "assimp"
expect_completion "--no" "--no-cache --no-config"
expect_completion "-f j" "json"
expect_completion "--format = s" "sarif"
expect_completion "--fail-on w" "warning"
expect_completion "--profile x42-v4" "x42-v4a x42-v4b"
expect_completion "--assume-format q" "qmsh"
expect_completion "--config cf" "cfg.yaml"
expect_completion "co" "compare conv.iqm convert"
expect_completion "convert conv" "conv.iqm"
expect_completion "--jobs 1" ""
[ "$(complete_words --format = "" | tr '\n' ' ')" = "github json markdown sarif text " ] ||
  fail "completing --format=: $(complete_words --format = "" | tr '\n' ' ')"

# every option --help lists is offered, and nothing else
run --help
sed -n 's/^  \(-[a-z], \)\{0,1\} *\(--[a-z0-9-]*\).*/\1\2/p' "$work/out" | tr ', ' '\n\n' |
  sed '/^$/d' | sort >"$work/help-options"
complete_words - >"$work/offered"
cmp -s "$work/help-options" "$work/offered" ||
  fail "options offered differ from --help: $(diff "$work/help-options" "$work/offered" | tr '\n' ' ')"
[ "$(wc -l <"$work/offered")" -ge 25 ] || fail "only $(wc -l <"$work/offered") options offered"

# zsh: the file parses, and _arguments receives a spec for each option --help lists
if command -v zsh >/dev/null 2>&1; then
  zsh -n "$zsh_file" || fail "zsh cannot parse $zsh_file"
  zsh -f -c '_arguments() { print -rl -- "$@"; }; source "$1"' zsh "$zsh_file" >"$work/specs" ||
    fail "sourcing the zsh completion failed"
  while read -r o; do
    grep -Eq -- "^(\([^)]*\))?$o[=+]?(\[|\$)" "$work/specs" || fail "zsh: no spec for $o"
  done <"$work/help-options"
  grep -q -- '--format=\[.*\]:FMT:(text json sarif github markdown)$' "$work/specs" ||
    fail "zsh: --format does not offer its values"
  grep -q -- '--config=\[.*\]:FILE:_files$' "$work/specs" || fail "zsh: --config does not complete files"
  n=$(zsh -f -c '_arguments() { :; }; source "$1"; print -- ${#mdlcheck_commands}' zsh "$zsh_file")
  [ "$n" = "$(grep -c '^ *\(usage:\)\{0,1\} *mdlcheck ' "$work/out")" ] ||
    fail "zsh offers $n subcommands, --help lists $(grep -c '^ *\(usage:\)\{0,1\} *mdlcheck ' "$work/out")"
  # and an interactive zsh (on a pseudo-terminal) completes with it as a user would: TAB after
  # a prefix; the line as zsh redraws it, and no error from the completion system
  mkdir "$work/fpath" && cp "$zsh_file" "$work/fpath/"
  cat >"$work/type.zsh" <<'ZSH'
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT=; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D; cd $2"
# type KEYS PATTERN: send KEYS (after clearing the line); print what zsh echoes until PATTERN
type() {
  local all= chunk i
  zpty -w -n z $'\C-u'"$1"
  for i in {1..50}; do
    while zpty -r -t z chunk; do all+=$chunk; done
    [[ $all == $~2 ]] && break
    sleep 0.1
  done
  print -r -- "=== $1"; print -r -- "$all"
}
type $'mdlcheck --sha\t' '*--shard=*'
type $'mdlcheck expl\t' '*explain*'
type $'mdlcheck --format=js\t' '*--format=json*'
type $'mdlcheck --fail-on=war\t' '*warning*'
type $'mdlcheck --config=cf\t' '*cfg.yaml*'
zpty -d z
ZSH
  timeout 60 zsh -f "$work/type.zsh" "$work/fpath" "$work/dir" 2>&1 | tr -d '\r' | \
    sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' >"$work/typed"
  for want in 'mdlcheck --shard=' 'mdlcheck explain' 'mdlcheck --format=json' \
    'mdlcheck --fail-on=warning' 'mdlcheck --config=cfg.yaml'; do
    grep -qF -- "$want" "$work/typed" || fail "zsh did not complete to '$want'"
  done
  if grep -E 'bad option|not enough arguments|no tags registered|command not found' "$work/typed" >&2; then
    fail "the zsh completion raised errors"
  fi
else
  echo "note: zsh not installed; its completion was only generated" >&2
fi
finish
