#!/bin/sh
# -q, --max-issues (truncation, said so), --max-per-rule (folding into a count), -o FILE.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

make_empty "$work/empty.bin"
make_bad_parents_iqm "$work/parents.iqm" 6

# the input repeats one rule six times (which rule is the IQM checker's business)
run --max-per-rule=0 "$work/parents.iqm"
expect_rc 1 "bad parents"
set -- $(top_rule out)
rule=${1:-none} repeats=${2:-0}
[ "$repeats" -ge 6 ] || fail "expected one rule at least 6 times, got '$rule' x $repeats"
total=$(grep -Ec '^[^ ]+: (fatal|error|warning|info|hint)\[' "$work/out")

# -q: only errors and fatals, no summary line
run -q "$work/empty.bin"
expect_rc 1 "-q"
expect_lines out 1
expect_grep out "error\[MDL-FMT-001\]"
run -q --ignore=MDL-FMT-001 "$work/empty.bin"
expect_rc 0 "-q on a valid file"
expect_lines out 0
run -q --severity=MDL-FMT-001=warning "$work/empty.bin"
expect_rc 0 "-q hides warnings"
expect_lines out 0

# --max-issues: at most N diagnostics, a note saying so, counts still complete
run --max-per-rule=0 --max-issues=2 "$work/parents.iqm"
expect_rc 1 "--max-issues"
n=$(grep -Ec '(fatal|error|warning|info|hint)\[' "$work/out")
[ "$n" -eq 2 ] || fail "--max-issues=2 printed $n diagnostics"
expect_grep out "^$work/parents.iqm: note: output truncated by --max-issues$"
expect_grep out "^$work/parents.iqm: invalid iqm"
run --max-per-rule=0 --max-issues="$total" "$work/parents.iqm"
expect_no_grep out "truncated" "--max-issues equal to the count is not truncation"
run --max-per-rule=0 --max-issues=2 --format=json "$work/parents.iqm"
expect_grep out '"truncated": true'

# folding: repeats beyond --max-per-rule become one summary with the count
run --max-per-rule=2 "$work/parents.iqm"
expect_rc 1 "--max-per-rule"
n=$(grep -Ec "\[$rule\]: " "$work/out")
[ "$n" -eq 3 ] || fail "--max-per-rule=2: expected 2 diagnostics and 1 summary of $rule, got $n lines"
# the summary locates the folded repeats (here all of them: fewer than eight)
expect_grep out "^$work/parents.iqm: [a-z]+\[$rule\]: $((repeats - 2)) more diagnostics of this rule were folded; the first at offsets [0-9]+(, [0-9]+){$((repeats - 3))}$"
run --max-per-rule=2 --format=json "$work/parents.iqm"
expect_grep out "\"folded\": $((repeats - 2))"
"$PYTHON" - "$work/out" "$rule" $((repeats - 2)) <<'PY' || fail "the JSON fold summary does not locate each folded repeat"
import json, sys
r = json.load(open(sys.argv[1]))
s = [m for m in r["files"][0]["messages"] if m["id"] == sys.argv[2] and m.get("folded")]
assert len(s) == 1, s
assert len(s[0]["folded_at"]) == int(sys.argv[3]), s[0]
assert all(set(p) == {"offset"} for p in s[0]["folded_at"]), s[0]
PY
# by default a rule shows 3 repeats per file and one summary for the rest
run "$work/parents.iqm"
n=$(grep -Ec "\[$rule\]: " "$work/out")
[ "$n" -eq 4 ] || fail "default folding: expected 3 diagnostics and 1 summary of $rule, got $n lines"
expect_grep out "\[$rule\]: $((repeats - 3)) more diagnostics of this rule were folded"
# --max-per-rule=0 shows every one
run --max-per-rule=0 "$work/parents.iqm"
n=$(grep -Ec "\[$rule\]: " "$work/out")
[ "$n" -eq "$repeats" ] || fail "--max-per-rule=0 hid repeats: $n of $repeats"
expect_no_grep out "folded"

# -o FILE: the report goes to the file, the exit code is unchanged
run -o "$work/report.txt" "$work/empty.bin"
expect_rc 1 "-o"
expect_lines out 0
grep -q "MDL-FMT-001" "$work/report.txt" || fail "-o did not write the report"
run -o "$work/no/such/dir/report.txt" "$work/empty.bin"
expect_rc 3 "-o into a missing directory"

# the stats line (with -v): before the verdict of a decoded file, "(partial)" when it has errors,
# none for a file whose decoder gave up, none with -q, none without -v (one line per valid file)
make_bad_magic_iqm "$work/badmagic.iqm"
run "$srcdir/examples/walk.iqm" "$srcdir/examples/broken-parent.iqm" "$work/badmagic.iqm"
expect_no_grep out 'stats'
run -v "$srcdir/examples/walk.iqm" "$srcdir/examples/broken-parent.iqm" "$work/badmagic.iqm"
expect_rc 1 "stats"
expect_grep out '^.*/walk\.iqm: stats: joints 3, meshes 2, vertices 8, triangles 4, animations 2, frames 5, extensions 0$'
expect_grep out '^.*/broken-parent\.iqm: stats \(partial\): joints 3,'
expect_no_grep out 'badmagic\.iqm: stats'
run -q -v "$srcdir/examples/walk.iqm"
expect_no_grep out 'stats'

finish
