#!/bin/sh
# Issue 26 item 13: a FIFO committed as mdlcheck.yaml (or a link to one) hung the run forever:
# the configuration was opened for reading, which waits for a writer that never comes. The
# configuration (named or found), a baseline and the reports diff reads must be regular files:
# anything else (FIFO, directory, device) is refused at once, unread, with a message and the
# documented exit code (2, as for a missing configuration, baseline or report). Each run has 10 s, so the old
# code fails here (exit 124) instead of hanging the suite.
. "${srcdir:-.}/tests/cli/cli-lib.sh"
ex=$(cd "$srcdir/examples" && pwd)
M=$(cd "$(dirname "$MDLCHECK")" && pwd)/$(basename "$MDLCHECK")

mkfifo "$work/fifo" || { echo "mkfifo failed" >&2; exit 99; }

# run_quick ARGS...: run, but at most 10 s (a blocking open shows as exit 124)
run_quick()
{
  rc=0
  timeout 10 "$MDLCHECK" "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
  echo "+ mdlcheck $* -> $rc"
  [ "$rc" -ne 124 ] || fail "mdlcheck $* blocked (killed after 10 s)"
}

# --- the configuration ------------------------------------------------------------------------
run_quick --config="$work/fifo" "$ex/walk.iqm"
expect_rc 2 "--config FIFO"
expect_grep err "cannot read configuration .*fifo: not a regular file \(a FIFO\)" "--config FIFO: says why"

run_quick --config="$work" "$ex/walk.iqm"
expect_rc 2 "--config directory"
expect_grep err "cannot read configuration .*: not a regular file \(a directory\)" "--config directory: says why"

if [ -c /dev/zero ]; then
  run_quick --config=/dev/zero "$ex/walk.iqm"
  expect_rc 2 "--config character device"
  expect_grep err "not a regular file \(a character device\)" "--config /dev/zero: says why"
fi

# found: a repository whose mdlcheck.yaml is a FIFO, then one where it is a link to a FIFO
mkdir -p "$work/repo/.git" "$work/repo2/.git"
mkfifo "$work/repo/mdlcheck.yaml" || exit 99
cp "$ex/walk.iqm" "$work/repo/walk.iqm"
rc=0
(cd "$work/repo" && timeout 10 "$M" walk.iqm >"$work/out" 2>"$work/err" </dev/null) || rc=$?
echo "+ (in repo/) mdlcheck walk.iqm -> $rc"
[ "$rc" -ne 124 ] || fail "a found FIFO configuration blocked the run"
expect_rc 2 "found FIFO configuration"
expect_grep err "cannot read configuration .*mdlcheck.yaml: not a regular file \(a FIFO\)" "found FIFO: says why"

ln -s "$work/fifo" "$work/repo2/.mdlcheck.yaml"
cp "$ex/walk.iqm" "$work/repo2/walk.iqm"
rc=0
(cd "$work/repo2" && timeout 10 "$M" walk.iqm >"$work/out" 2>"$work/err" </dev/null) || rc=$?
echo "+ (in repo2/) mdlcheck walk.iqm -> $rc"
[ "$rc" -ne 124 ] || fail "a found link to a FIFO blocked the run"
expect_rc 2 "found link to a FIFO"
expect_grep err "not a regular file \(a FIFO\)" "found link to a FIFO: says why"

# a regular configuration behind a link still works
printf 'fail-on: error\n' >"$work/real.yaml"
ln -s "$work/real.yaml" "$work/link.yaml"
run_quick --config="$work/link.yaml" "$ex/walk.iqm"
expect_rc 0 "--config link to a regular file"

# --- the baseline -----------------------------------------------------------------------------
run_quick -f json -o "$work/rep.json" "$ex/walk.iqm"
expect_rc 0 "a report to compare with"
run_quick --baseline="$work/fifo" "$ex/walk.iqm"
expect_rc 2 "--baseline FIFO"
expect_grep err "cannot use baseline: .*not a regular file \(a FIFO\)" "--baseline FIFO: says why"
ln -s "$work/fifo" "$work/base-link.json"
run_quick --baseline="$work/base-link.json" "$ex/walk.iqm"
expect_rc 2 "--baseline link to a FIFO"
run_quick --baseline="$work" "$ex/walk.iqm"
expect_rc 2 "--baseline directory"
expect_grep err "not a regular file \(a directory\)" "--baseline directory: says why"

# --- the reports diff reads -------------------------------------------------------------------
run_quick diff "$work/fifo" "$work/rep.json"
expect_rc 2 "diff: old report a FIFO"
expect_grep err "fifo: not a regular file \(a FIFO\)" "diff FIFO: says why"
run_quick diff "$work/rep.json" "$work/base-link.json"
expect_rc 2 "diff: new report a link to a FIFO"
run_quick diff "$work/rep.json" "$work/rep.json"
expect_rc 0 "diff of regular reports"

# --- a declared X42 layout (--x42-layout): read at start, by the library ----------------------
run_quick --x42-layout="$work/fifo" "$ex/walk.iqm"
expect_rc 2 "--x42-layout a FIFO"
expect_grep err "x42-layout file .*fifo.*not a regular file" "--x42-layout FIFO: says why"
finish
