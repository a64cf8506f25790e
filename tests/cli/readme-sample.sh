#!/bin/sh
# The README's sample output is mdlcheck's own: each block between "<!-- readme-sample:begin
# mdlcheck ARGS -->" and "<!-- readme-sample:end -->" must be what `mdlcheck ARGS` prints from
# the top of the source tree (fails when stale; `make update-docs` or `--update` rewrites it).
#   readme-sample.sh [--update] [README]
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
mdlcheck=$(cd "$top_builddir" && pwd)/validator/mdlcheck
update=0
[ "${1:-}" = "--update" ] && { update=1; shift; }
readme=${1:-$srcdir/README.md}
[ -x "$mdlcheck" ] || { echo "no $mdlcheck" >&2; exit 99; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mdl-readme.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

# the README with every block regenerated, into $work/new
: >"$work/new"
blocks=0 inside=0
while IFS= read -r line || [ -n "$line" ]; do
  case $line in
    '<!-- readme-sample:begin mdlcheck '*' -->')
      args=${line#'<!-- readme-sample:begin mdlcheck '}; args=${args%' -->'}
      printf '%s\n```\n' "$line" >>"$work/new"
      # shellcheck disable=SC2086 # ARGS are words, as written in the marker
      (cd "$srcdir" && NO_COLOR=1 "$mdlcheck" $args) >>"$work/new" 2>/dev/null
      printf '```\n' >>"$work/new"
      inside=1 blocks=$((blocks + 1)) ;;
    '<!-- readme-sample:end -->')
      inside=0; printf '%s\n' "$line" >>"$work/new" ;;
    *) [ "$inside" = 1 ] || printf '%s\n' "$line" >>"$work/new" ;;
  esac
done <"$readme"
[ "$blocks" -gt 0 ] || { echo "FAIL: $readme has no readme-sample block" >&2; exit 1; }
[ "$inside" = 0 ] || { echo "FAIL: a readme-sample block has no end" >&2; exit 1; }
if [ "$update" = 1 ]; then
  cmp -s "$work/new" "$readme" || cp "$work/new" "$readme"
  exit 0
fi
if ! cmp -s "$work/new" "$readme"; then
  echo "FAIL: the README's sample output is not what mdlcheck prints (run: make update-docs)" >&2
  diff -u "$readme" "$work/new" >&2
  exit 1
fi
# the front page stays a front page
size=$(wc -c <"$readme")
[ "$size" -le 15000 ] || { echo "FAIL: $readme is $size bytes (at most 15000)" >&2; exit 1; }
