#!/bin/sh
# The configuration found automatically: mdlcheck.yaml or .mdlcheck.yaml in the working directory
# or a parent, the search ending at the top of a git work tree; --no-config and --config.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

mdl=$(cd "$(dirname "$MDLCHECK")" && pwd)/$(basename "$MDLCHECK")
proj=$work/outer/proj
mkdir -p "$proj/.git" "$proj/sub/deep"
make_empty "$work/empty.bin"
# in DIR, run mdlcheck ARGS...: as run, from another working directory
run_in() { _dir=$1; shift; rc=0; (cd "$_dir" && "$mdl" "$@") >"$work/out" 2>"$work/err" || rc=$?; }

run_in "$proj/sub/deep" "$work/empty.bin"
expect_rc 1 "no configuration anywhere: the empty file is MDL-FMT-001"

printf 'ignore: [MDL-FMT-001]\n' >"$proj/mdlcheck.yaml"
run_in "$proj/sub/deep" -v "$work/empty.bin"
expect_rc 0 "mdlcheck.yaml two levels up applies"
expect_grep err "configuration: $proj/mdlcheck.yaml \(found\)" "-v does not name the found file"
run_in "$proj" "$work/empty.bin"
expect_rc 0 "mdlcheck.yaml in the working directory applies"
run_in "$proj/sub" --no-config -v "$work/empty.bin"
expect_rc 1 "--no-config"
expect_grep err "configuration: none \(--no-config\)"
printf 'severity:\n  MDL-FMT-001: warning\n' >"$work/other.yaml"
run_in "$proj/sub" --config="$work/other.yaml" "$work/empty.bin"
expect_rc 0 "--config overrides the found file"
expect_grep out "warning\[MDL-FMT-001\]" "the --config file was not the one applied"
run_in "$proj/sub" --no-config --config="$work/other.yaml" "$work/empty.bin"
expect_grep out "warning\[MDL-FMT-001\]" "--config under --no-config"

# the hidden name; both names in one directory are refused
mv "$proj/mdlcheck.yaml" "$proj/sub/.mdlcheck.yaml"
run_in "$proj/sub/deep" "$work/empty.bin"
expect_rc 0 ".mdlcheck.yaml applies"
printf 'fail-on: fatal\n' >"$proj/sub/mdlcheck.yaml"
run_in "$proj/sub/deep" "$work/empty.bin"
expect_rc 2 "mdlcheck.yaml beside .mdlcheck.yaml"
expect_grep err "two configuration files"
rm -f "$proj/sub/mdlcheck.yaml" "$proj/sub/.mdlcheck.yaml"

# a mistake in a found file is reported as one in a named file: FILE:LINE:COL, exit 2
printf 'ignore: [MDL-FMT-001]\nbogus-key: 1\n' >"$proj/sub/mdlcheck.yaml"
run_in "$proj/sub/deep" "$work/empty.bin"
expect_rc 2 "a broken found configuration"
expect_grep err "$proj/sub/mdlcheck.yaml:2:1: error\[MDL-CFG-"
# --help and --version answer anyway
run_in "$proj/sub/deep" --help
expect_rc 0 "--help beside a broken configuration"
run_in "$proj/sub/deep" --version
expect_rc 0 "--version beside a broken configuration"
rm -f "$proj/sub/mdlcheck.yaml"

# the search ends at the directory holding .git (a folder, or a worktree's file)
printf 'bogus-key: 1\n' >"$work/outer/mdlcheck.yaml"
run_in "$proj/sub" -v "$work/empty.bin"
expect_rc 1 "a file above the git work tree was read"
expect_grep err "configuration: none found \(searched up to $proj\)"
rmdir "$proj/.git" && echo "gitdir: elsewhere" >"$proj/.git"
run_in "$proj/sub" "$work/empty.bin"
expect_rc 1 "a .git file does not end the search"
rm "$proj/.git"
run_in "$proj/sub" "$work/empty.bin"
expect_rc 2 "without .git the search does not reach the parent's file"
finish
