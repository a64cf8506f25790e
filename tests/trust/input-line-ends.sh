#!/bin/sh
# Line ends and odd bytes in text models are never silently dropped: an IQE with lone CR line
# ends is read line by line (IQE-HDR-003 warns once), CR LF is plain; Egg folds CR, LF CR and
# CR LF as Panda3D does; a NUL inside an IQE number is named in the message.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

iqe='# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1\njoint child 0\npq 0 1 0 0 0 0 1\n'
printf "$iqe" >"$work/lf.iqe"
printf "$iqe" | tr '\n' '\r' >"$work/cr.iqe"
printf "$iqe" | sed 's/$/\r/' >"$work/crlf.iqe"

# CR only: every joint is read, one portability warning, exit 0 (1 with --fail-on=warning)
run poses "$work/cr.iqe"
expect_rc 0 "poses of a CR-only IQE"
expect_grep out "2 joints"
run "$work/cr.iqe"
expect_rc 0 "CR-only IQE"
expect_grep out "^$work/cr.iqe:1:21: warning\[IQE-HDR-003\]: line ends in a carriage return without a line feed \(5 lines do\)"
expect_grep out "valid iqe 2010: 0 errors, 1 warning"
run --fail-on=warning "$work/cr.iqe"
expect_rc 1 "CR-only IQE, --fail-on=warning"
run --strict "$work/cr.iqe"
expect_rc 1 "CR-only IQE, --strict"
expect_grep out "error\[IQE-HDR-003\]"

# CR LF and LF: the same model, no diagnostic
for f in lf crlf; do
  run "$work/$f.iqe"
  expect_rc 0 "$f IQE"
  expect_grep out "valid iqe 2010: 0 errors, 0 warnings"
  run poses -f json "$work/$f.iqe"
  sed 1,3d "$work/out" >"$work/$f.poses"
done
run poses -f json "$work/cr.iqe"
sed 1,3d "$work/out" >"$work/cr.poses"
cmp -s "$work/lf.poses" "$work/crlf.poses" || fail "CR LF IQE decodes differently from LF"
cmp -s "$work/lf.poses" "$work/cr.poses" || fail "CR-only IQE decodes differently from LF"

# Egg: Panda3D folds every newline spelling; the model is the same and nothing is reported
egg=$srcdir/examples/dancer.egg
tr '\n' '\r' <"$egg" >"$work/cr.egg"
sed 's/$/\r/' "$egg" >"$work/crlf.egg"
run poses -f json "$egg"
sed 1,3d "$work/out" >"$work/egg.poses"
for f in cr crlf; do
  run "$work/$f.egg"
  expect_rc 0 "$f Egg"
  expect_grep out "valid egg: 0 errors, 0 warnings"
  run poses -f json "$work/$f.egg"
  sed 1,3d "$work/out" >"$work/$f.egg.poses"
  cmp -s "$work/egg.poses" "$work/$f.egg.poses" || fail "$f Egg decodes differently from LF"
done

# a NUL inside a number is reported as such, not as the text before it
printf '# Inter-Quake Export\njoint root -1\npq 0\0005 0 0 0 0 0 1\n' >"$work/nul.iqe"
run "$work/nul.iqe"
expect_rc 1 "NUL in a number"
expect_grep out "^$work/nul.iqe:3:4: error\[IQE-NUM-001\]: '0\\\\x005' is not a number \(expected a decimal number; it contains a NUL byte at column 5"

finish
