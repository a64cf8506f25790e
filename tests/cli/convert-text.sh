#!/bin/sh
# convert-text.sh - what `mdlcheck convert` says in text mode (issue 29 item 5): on success the
# warnings the writer announced (and the proof accepted) are shown, one line each, with the
# summary line giving the proof's result; a proof that fails on losses announced before writing
# says how to accept them (--accept-loss=...), and a refusal names its cause.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

# pair.iqe's animation loops; Egg has no loop flag (MDL-CNV-002, then the proof's MDL-CMP-008)
run convert "$srcdir/corpus/core/base/pair.iqe" "$work/pair.egg"
expect_rc 1 "a loop flag Egg cannot hold"
expect_grep err "warning\[MDL-CNV-002\]"
expect_grep err "to accept them: --accept-loss=MDL-CNV-002$" "the refusal does not say how to accept the loss"

run convert --accept-loss=MDL-CNV-002 "$srcdir/corpus/core/base/pair.iqe" "$work/pair.egg"
expect_rc 0 "the loss accepted"
expect_grep err "pair\.egg: warning\[MDL-CNV-002\]" "the accepted loss's announcement is not shown on success"
expect_grep err "pair\.egg: warning\[MDL-CMP-008\]" "the accepted difference is not shown on success"
expect_grep out "same model as .*pair\.iqe" "the proof's result is not shown"
expect_no_grep err "to accept them" "an accepted loss is offered for acceptance again"

# an animation-only IQM to X42: the refusal names its cause (no joints), not a symptom
run convert "$srcdir/corpus/iqm/base/animonly.iqm" "$work/animonly.x42"
expect_rc 1 "an animation-only IQM to X42"
expect_grep err "error\[MDL-CNV-001\].*no joints" "the refusal does not name the missing joints"

# -q: the summary and the warnings are left out
run convert -q --accept-loss=MDL-CNV-002 "$srcdir/corpus/core/base/pair.iqe" "$work/pair.egg"
expect_rc 0 "quiet"
[ -s "$work/out" ] && fail "-q printed the summary"

# IN's own warnings are shown too: EGG-VTX-023 (a fifth influence dropped) comes only from the
# model decode, and the text said "lossless" without it (review A; JSON carried it)
sed -n '/^  text: |$/,/^options:/p' "$srcdir/corpus/egg/vtx/EGG-VTX-023-t01-fail.yaml" | sed '1d;$d' | sed 's/^    //' >"$work/five.egg"
run convert "$work/five.egg" "$work/five.iqe"
expect_rc 0 "an Egg of five influences to IQE"
expect_grep err "five\.egg: warning\[EGG-VTX-023\]" "IN's warning from its decode is not shown"

finish
