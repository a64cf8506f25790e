#!/bin/sh
# The conversion matrix: every shared sample, every example and every valid conformance base file,
# converted to every format with a writer. A conversion passes when `mdlcheck convert` exits 0
# (its proof is `compare`'s comparator: the written file says what the source says), or when it
# exits 1 naming what cannot be carried (at least one catalogued rule id at error level: a
# refusal MDL-CNV-*, a proof difference MDL-CMP-*, or the output's own rule). Exit 0 without the
# proof's verdict, exit 1 with no rule id, any other status or a crash fails; so does a proof
# difference with no announcement (MDL-CNV-*) before writing: a loss the writer made silently.
#
# One mdlcheck process per conversion; corpus base files that do not validate are left out after
# their first conversion says so. Each conversion is one line of $MATRIX_RESULTS (tab separated:
# source format, source, target, outcome, rule ids); tests/convert/matrix-table.sh turns them into
# doc/manual.md's table, which must be up to date (`make matrix-table` regenerates it).
# Run by make check from the build directory.
set -u
MDLCHECK=${MDLCHECK:-./validator/mdlcheck}
PYTHON=${PYTHON:-python3}
srcdir=${srcdir:-.}
SAMPLES=${MDL_SAMPLES:-$srcdir/../shared/samples}
TARGETS="iqm iqe egg qmsh x42"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdl-matrix.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/r" || exit 99
: >"$tmp/index"
results=${MATRIX_RESULTS:-$tmp/results}
: >"$results" || exit 99
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# fmt_of FILE: the source format by name into $fmt ("" for files that are no model)
fmt_of() {
  case $1 in
    *.iqm) fmt=iqm ;; *.iqe) fmt=iqe ;; *.egg | *.egg.pz) fmt=egg ;;
    *.qmsh) fmt=qmsh ;; *.x42) fmt=x42 ;; *) fmt= ;;
  esac
}

# convert LABEL FILE [stop]: mdlcheck convert to every target, its output kept in $tmp/r for
# the classification below (one process per conversion: shell builtins do the rest). With stop,
# returns 1 as soon as FILE itself does not validate (its first conversion says so). The files
# the source and each proven output name are listed by one `--resources -f json` run per source
# ($tmp/refs.K.json, checked below: a proven conversion names the same files).
k=0
s=0
convert_all() {
  fmt_of "$2"
  s=$((s + 1))
  proven=
  for t in $TARGETS; do
    k=$((k + 1))
    out="$tmp/out.$t"
    : >"$out"
    "$MDLCHECK" convert "$2" "$out" >"$tmp/r/$k.so" 2>"$tmp/r/$k.se"
    rc=$?
    written=0
    [ -s "$out" ] && written=1
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$fmt" "$1" "$t" "$rc" "$written" >>"$tmp/index"
    if [ "$rc" -eq 0 ] && [ "$written" -eq 1 ]; then
      proven="$proven $out"
      # material names the writer announced writing as texture files (MDL-CNV-015): expected
      sed -n "s/.*warning\[MDL-CNV-015\]: material '\(.*\)' names no file.*/\1/p" "$tmp/r/$k.se" |
        while IFS= read -r name; do printf '%s\t%s\n' "$out" "$name"; done >>"$tmp/made.$s"
    fi
    if [ "$rc" -eq 1 ]; then
      IFS= read -r first <"$tmp/r/$k.se" || first=
      case $first in *" has errors; nothing written") [ $# -gt 2 ] && return 1 ;; esac
    fi
  done
  if [ -n "$proven" ]; then
    # shellcheck disable=SC2086 # the outputs' paths are $tmp/out.FMT, without spaces
    "$MDLCHECK" --resources -f json "$2" $proven >"$tmp/refs.$s.json" 2>/dev/null
    : >>"$tmp/made.$s"
    printf '%s\t%s\t%s\n' "$tmp/refs.$s.json" "$1" "$tmp/made.$s" >>"$tmp/refs.index"
  fi
  return 0
}

nsamples=0
if [ -d "$SAMPLES" ]; then
  for f in "$SAMPLES"/*/*; do
    fmt_of "$f"
    [ -n "$fmt" ] || continue
    nsamples=$((nsamples + 1))
    convert_all "samples/${f#"$SAMPLES"/}" "$f"
  done
fi
[ "$nsamples" -gt 0 ] || echo "note: no shared samples at $SAMPLES; the matrix covers examples and corpus only"
for f in "$srcdir"/examples/*; do
  fmt_of "$f"
  [ -n "$fmt" ] || continue
  convert_all "examples/${f##*/}" "$f"
done
for f in "$srcdir"/corpus/*/base/*; do
  # corpus/target/base holds inputs past real loaders' limits (257 joints, 1000-vertex meshes),
  # not format features: the IQM bases already stand for their format in the matrix
  case $f in "$srcdir"/corpus/target/*) continue ;; esac
  fmt_of "$f"
  [ -n "$fmt" ] || continue
  # a base file that does not validate (a deliberately broken input) is no source of the matrix
  convert_all "corpus/${f#"$srcdir"/corpus/}" "$f" stop || echo "corpus/${f#"$srcdir"/corpus/}" >>"$tmp/skip"
done

# Classify every conversion in one pass: lossless / bound (exit 0 with the proof's verdict),
# refused (exit 1 with rule ids at error level, or MDL-CNV announcements), invalid-source;
# anything else is printed as FAIL.
: >>"$tmp/skip"
awk -F '\t' -v dir="$tmp/r" -v results="$results" '
  FILENAME == ARGV[1] { skip[$0] = 1; next }
  ($3 in skip) { next }
  {
    k = $1; rc = $5; so = dir "/" k ".so"; se = dir "/" k ".se"; what = $3 " -> " $4
    verdict = ""; ids = ""; invalid = 0; n = 0
    while ((getline l < so) > 0)
      if (l ~ /same model as .*, lossless \(/) verdict = "lossless"
      else if (l ~ /same model as .*, within the bound \(/) verdict = "bound"
    close(so)
    delete seen
    while ((getline l < se) > 0) {
      if (l ~ / has errors; nothing written$/) invalid = 1
      if (match(l, /(error|fatal)\[[A-Z0-9]+-[A-Z0-9]+-[0-9]+\]/) || match(l, /warning\[MDL-CNV-[0-9]+\]/)) {
        id = substr(l, RSTART, RLENGTH); sub(/^[a-z]+\[/, "", id); sub(/\]$/, "", id)
        if (!(id in seen)) { seen[id] = 1; list[++n] = id }
      }
    }
    close(se)
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (list[j] < list[i]) { t = list[i]; list[i] = list[j]; list[j] = t }
    for (i = 1; i <= n; i++) ids = ids (i > 1 ? " " : "") list[i]
    if (rc == 0 && verdict != "" && $6 == 1) outcome = verdict
    else if (rc == 0) { print "FAIL: " what ": exit 0 without the proof'"'"'s verdict or output"; fails++; next }
    else if (rc == 1 && n > 0) outcome = invalid ? "invalid-source" : "refused"
    else if (rc == 1) { print "FAIL: " what ": exit 1 with no rule id naming what cannot be carried"; fails++; next }
    else { print "FAIL: " what ": exit " rc; fails++; next }
    # a difference only the proof found is a loss the writer did not announce before writing
    if (outcome == "refused" && ids ~ /MDL-CMP-/ && ids !~ /MDL-CNV-/) {
      print "FAIL: " what ": the proof found " ids " and the writer announced no loss"; fails++
    }
    printf "%s\t%s\t%s\t%s\t%s\n", $2, $3, $4, outcome, ids >results
  }
  END { exit fails > 0 }' "$tmp/skip" "$tmp/index" || fails=$((fails + 1))

# a proven conversion names the files its source names: Egg <Texture>/<File>, QMSH textures,
# material names that are image file names (the comparator's MDL-CMP-016, checked here apart),
# and, where the writer announced it (MDL-CNV-015), the material names it wrote as file names
if [ -s "$tmp/refs.index" ]; then
  "$PYTHON" - "$tmp/refs.index" "$srcdir/tests/convert/egg-audit.py" <<'PY' || fail "a proven conversion changed the files the model names"
import importlib.util, json, re, sys
spec = importlib.util.spec_from_file_location("egg_audit", sys.argv[2])
egg_audit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(egg_audit)
image = re.compile(r"\.(png|jpe?g|tga|dds|bmp|rgba?|sgi|gif|psd|hdr|p[npg]m|tiff?|exr|ktx|webp)$", re.I)
bad = 0
for line in open(sys.argv[1]):
    path, label, made = line.rstrip("\n").split("\t")
    files = json.load(open(path))["files"]
    # (output, material) pairs announced as written to a texture file name (MDL-CNV-015)
    expected = {tuple(l.rstrip("\n").split("\t", 1)) for l in open(made) if "\t" in l}
    def refs(f):
        return sorted({(r["kind"] == "model", r["ref"]) for r in f.get("resources", [])
                       if r["kind"] in ("model", "texture") or image.search(r["ref"])})
    src, outs = files[0], [f for f in files[1:] if "/out." in f["path"]]
    # an Egg texture no primitive uses is never loaded: no conversion need name it (CORE 4.5)
    unused = egg_audit.unused_files(src["path"]) if re.search(r"\.egg(\.pz)?$", src["path"]) else set()
    src_refs = refs(src)
    srefs = [r for r in src_refs if r[0] or r[1] not in unused]
    for o in outs:
        kept = [r for r in refs(o) if r in src_refs or (o["path"], r[1]) not in expected]
        if [r for r in kept if r[0] or r[1] not in unused] != srefs:  # an Egg output may keep them
            print("FAIL: %s -> %s: names %s, the source %s" % (label, o["format"], refs(o), srefs))
            bad += 1
sys.exit(1 if bad else 0)
PY
fi

# no Egg conversion proven without an announced loss drops anything (issue 29's Done line): every
# entry and <Scalar> of such a source is carried or no loss by spec/formats/core.md 4.13's table
"$PYTHON" "$srcdir/tests/convert/egg-audit.py" "$results" "$SAMPLES" "$srcdir" ||
  fail "an Egg conversion without an announced loss drops something"

n=$(wc -l <"$results")
[ "$n" -gt 0 ] || fail "no conversion ran"
echo "$n conversions: $(cut -f4 "$results" | sort | uniq -c | tr -s ' ' | tr '\n' ',' | sed 's/,$//')"

# doc/manual.md's table is generated from these results and must match them
if [ "$nsamples" -eq 0 ]; then
  echo "note: doc/manual.md's matrix not checked (it includes the shared samples)"
elif [ "${MATRIX_UPDATE:-0}" = 1 ]; then
  sh "$srcdir/tests/convert/matrix-table.sh" --update "$srcdir/doc/manual.md" "$results" || fail "cannot update doc/manual.md"
else
  sh "$srcdir/tests/convert/matrix-table.sh" --check "$srcdir/doc/manual.md" "$results" ||
    fail "doc/manual.md's conversion matrix is out of date: run 'make matrix-table'"
fi

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "conversion matrix: every conversion is proven or refused with a reason"
exit 0
