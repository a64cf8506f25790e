#!/bin/sh
# The text report as a terminal user reads it: the source line with a caret (the row of bytes
# for a binary position), colour only where asked or on a terminal (NO_COLOR, never into -o),
# one line per valid file (stats with -v), option mistakes said once under one program name,
# `rules PATTERN`, numbers as written and plurals.
. "${srcdir:-.}/tests/cli/cli-lib.sh"
ex=$srcdir/examples
esc=$(printf '\033')

# expect_exact FILE LINE: FILE (out or err) has exactly this line
expect_exact()
{
  if ! grep -qxF -- "$2" "$work/$1"; then
    fail "$1 lacks the line '$2'"
    sed "s/^/  $1: /" "$work/$1" >&2
  fi
}

# --- the source line and its caret (text), the row of bytes (binary)
run "$ex/broken.iqe"
expect_rc 1 "broken.iqe"
expect_exact out "   18 | vb 1 abc"
expect_exact out "      |      ^"
expect_exact out "   26 | fm 0 1 7"
expect_exact out "      |        ^"
# broken-parent.iqm: joints[1].parent at offset 1044 = 0x414, the 5th byte of the row at 0x410
run "$ex/broken-parent.iqm"
expect_exact out " 00000410 | 19 00 00 00 02 00 00 00  00 00 00 00 00 00 80 3f  |...............?|"
expect_exact out "          |             ^^"
# an .egg.pz: the line is the inflated text's, not the compressed bytes
$PYTHON -c 'import sys, zlib; open(sys.argv[2], "wb").write(zlib.compress(open(sys.argv[1], "rb").read()))' \
  "$ex/broken.egg" "$work/broken.egg.pz"
run "$work/broken.egg.pz"
expect_rc 1 "broken.egg.pz"
expect_exact out "   10 |     <TRef> { missing_texture }"
expect_exact out "      |              ^"
# Egg reads LF CR as one line end (Panda3D does): the context is still line 2's
printf '<CoordinateSystem> { Z-up }\n\r<Texture> t { a.png <Scalar> wrap { clampp } }\n\r' >"$work/lfcr.egg"
run "$work/lfcr.egg"
expect_exact out "    2 | <Texture> t { a.png <Scalar> wrap { clampp } }"
expect_exact out "      |                                     ^"
# a model's bytes never drive the terminal: an escape sequence in the line shows as '?'
printf '# Inter-Quake Export\nbogus \033[2J\033]0;owned\007 here\n' >"$work/esc.iqe"
run --color=never "$work/esc.iqe"
expect_exact out "    2 | bogus ?[2J?]0;owned? here"
if grep -q "$esc" "$work/out"; then fail "an escape byte of the model reached the report"; fi
# a line longer than the context window: a window of it, the caret under the column's byte
{
  printf '# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1'
  i=0; while [ $i -lt 200 ]; do printf ' %d' $i; i=$((i + 1)); done
  printf '\n'
} >"$work/long.iqe"
run "$work/long.iqe"
$PYTHON - "$work/long.iqe" "$work/out" <<'PY' || fail "long line: no window with the caret under its column"
import re, sys
line = open(sys.argv[1]).read().split("\n")[2]
out = open(sys.argv[2]).read().split("\n")
ok = 0
for i, l in enumerate(out):
    m = re.match(r".*long\.iqe:3:(\d+): ", l)
    if not m:
        continue
    col = int(m.group(1))
    shown, caret = out[i + 1][len("    3 | "):], out[i + 2][len("      | "):]
    at = caret.index("^")
    start = col - 1 - at
    assert len(shown) <= 240 and start >= 0 and line[start:start + len(shown)] == shown, (col, shown)
    ok += col > 240
sys.exit(0 if ok else 1)
PY

# --- colour
run --color=always "$ex/broken.iqe"
grep -q "$esc\[1;31merror" "$work/out" || fail "--color=always: no red error"
run --color "$ex/walk.iqm"
grep -q "$esc\[32mvalid" "$work/out" || fail "--color alone is always"
run "$ex/broken.iqe"
if grep -q "$esc" "$work/out"; then fail "auto coloured a file (not a terminal)"; fi
run --color=always -o "$work/report.txt" "$ex/broken.iqe"
if grep -q "$esc" "$work/report.txt"; then fail "-o FILE was coloured"; fi
run --color=sometimes "$ex/walk.iqm"
expect_rc 2 "--color=sometimes"
if command -v script >/dev/null 2>&1; then
  # a terminal: colour unless NO_COLOR is set (and not empty) or TERM is dumb
  TERM=xterm script -qec "$MDLCHECK $ex/walk.iqm" /dev/null >"$work/tty" 2>&1
  grep -q "$esc\[32mvalid" "$work/tty" || fail "auto on a terminal: no colour"
  NO_COLOR=1 TERM=xterm script -qec "$MDLCHECK $ex/walk.iqm" /dev/null >"$work/tty" 2>&1
  if grep -q "$esc" "$work/tty"; then fail "NO_COLOR=1 on a terminal: coloured"; fi
  NO_COLOR= TERM=xterm script -qec "$MDLCHECK $ex/walk.iqm" /dev/null >"$work/tty" 2>&1
  grep -q "$esc\[32mvalid" "$work/tty" || fail "an empty NO_COLOR disabled colour"
  NO_COLOR=1 TERM=xterm script -qec "$MDLCHECK --color=always $ex/walk.iqm" /dev/null >"$work/tty" 2>&1
  grep -q "$esc\[32mvalid" "$work/tty" || fail "--color=always lost to NO_COLOR"
else
  echo "no script(1): terminal checks skipped"
fi

# --- one line per valid file; the counts with -v
run "$ex/walk.iqm"
expect_rc 0 "walk.iqm"
expect_lines out 1
expect_exact out "$ex/walk.iqm: valid iqm 2: 0 errors, 0 warnings"
run -v "$ex/walk.iqm"
expect_exact out "$ex/walk.iqm: stats: joints 3, meshes 2, vertices 8, triangles 4, animations 2, frames 5, extensions 0"
expect_lines out 2

# --- option mistakes: said once, by one program name, with a suggestion
run --fromat=json "$ex/walk.iqm"
expect_rc 2 "--fromat"
expect_exact err "mdlcheck: unknown option '--fromat'; did you mean '--format'?"
expect_no_grep err '^[^m(]|^m[^d]' "a message not from 'mdlcheck:'"
run --max-isues 3 "$ex/walk.iqm"
expect_grep err "did you mean '--max-issues'"
run --quiet=yes "$ex/walk.iqm"
expect_rc 2 "--quiet=yes"
expect_grep err "^mdlcheck: --quiet takes no value"
run "$ex/walk.iqm" -o
expect_rc 2 "-o at the end"
expect_exact err "mdlcheck: -o/--output needs a value (FILE)"
run -o "$work/r.txt"
expect_rc 2 "-o took the only file"
expect_grep err "no input files \(-o took '.*r\.txt' as the report's FILE"
cp "$ex/walk.iqm" "$work/mine.iqm"
run -o "$work/mine.iqm" "$ex/crate.qmsh"
expect_rc 2 "-o over a model"
cmp -s "$ex/walk.iqm" "$work/mine.iqm" || fail "-o overwrote a model file"
run -o -f json "$ex/walk.iqm"
expect_rc 2 "-o followed by an option"

# --- rules PATTERN
run rules iqm
expect_rc 0 "rules iqm"
n=$(wc -l <"$work/out")
[ "$n" -gt 10 ] || fail "rules iqm printed $n lines"
awk '$3 != "iqm" { bad = 1 } END { exit bad }' "$work/out" || fail "rules iqm listed another format's rule"
run rules 'IQM-JNT-*' IQE-NUM-001
expect_grep out '^IQM-JNT-001 '
expect_grep out '^IQE-NUM-001 '
expect_no_grep out '^IQM-HDR'
run rules -f json EGG-REF-001
[ "$($PYTHON -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rules"]))' "$work/out")" = 1 ] ||
  fail "rules -f json EGG-REF-001 is not one rule"
run rules nosuchrule
expect_rc 2 "rules nosuchrule"
expect_grep err "pattern matches no catalogued rule: nosuchrule"
run rules
[ "$(wc -l <"$work/out")" -gt 300 ] || fail "rules without a pattern is not the whole catalogue"

# --- numbers as written
printf '# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1\nanimation a\nframerate 30\nframe\npq 0 0 0 0 0 0 1\n' >"$work/fr.iqe"
run poses "$work/fr.iqe"
expect_rc 0 "poses fr.iqe"
expect_grep out 'framerate 30, frames 1'
run poses -f json "$work/fr.iqe"
expect_grep out '"framerate": 30,'
expect_no_grep out 'e\+' "a number in exponent form"

# --- plurals
run "$ex/walk.iqm" "$ex/crate.qmsh"
expect_grep out '^summary: 2 files, 2 valid'
expect_grep out '^  iqm 2 +1 file, 0 invalid$'
run poses "$ex/walk.iqm"
expect_grep out ': iqm 2, 3 joints, 3 poses, 2 animations, 5 frames'

finish
