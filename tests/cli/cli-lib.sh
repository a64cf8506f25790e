# cli-lib.sh - what the CLI tests share: where mdlcheck is, a scratch directory, running it, and
# assertions that say what was expected. Sourced by tests/cli/*.sh. Helpers keep their own
# variables _underscored, since sh has no locals.
set -u

: "${srcdir:=.}"
: "${top_builddir:=.}"
MDLCHECK=${MDLCHECK:-$top_builddir/validator/mdlcheck}
SCHEMA_DIR=$srcdir/spec
PYTHON=/usr/bin/python3

if [ ! -x "$MDLCHECK" ]; then
  echo "no mdlcheck at $MDLCHECK" >&2
  exit 99
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mdl-cli.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
failures=0

fail()
{
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run ARGS...: run mdlcheck; stdout in $work/out, stderr in $work/err, exit status in $rc.
run()
{
  rc=0
  "$MDLCHECK" "$@" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ mdlcheck $* -> $rc"
}

expect_rc()
{
  if [ "$rc" -ne "$1" ]; then
    fail "expected exit $1, got $rc${2:+ ($2)}"
    sed 's/^/  stdout: /' "$work/out" >&2
    sed 's/^/  stderr: /' "$work/err" >&2
  fi
}

# expect_grep FILE ERE [what]: some line of FILE (out or err) matches.
expect_grep()
{
  if ! grep -Eq -- "$2" "$work/$1"; then
    fail "${3:-$1 has no line matching /$2/}"
    sed "s/^/  $1: /" "$work/$1" >&2
  fi
}

expect_no_grep()
{
  if grep -Eq -- "$2" "$work/$1"; then
    fail "${3:-$1 has a line matching /$2/}"
    sed "s/^/  $1: /" "$work/$1" >&2
  fi
}

expect_lines()
{
  _lines=$(wc -l <"$work/$1")
  if [ "$_lines" -ne "$2" ]; then
    fail "${3:-$1 has $_lines lines, expected $2}"
    sed "s/^/  $1: /" "$work/$1" >&2
  fi
}

finish()
{
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  exit 0
}

# The real sample files, when the shared folder is next to the source tree.
SAMPLES=${MDL_SAMPLES:-$srcdir/../shared/samples}

# --- inputs whose outcome does not depend on the details of any format checker ---------------

u8() { printf "\\$(printf %03o "$(($1 & 255))")"; }
u32() { u8 "$1"; u8 "$(($1 >> 8))"; u8 "$(($1 >> 16))"; u8 "$(($1 >> 24))"; }

make_empty() { : >"$1"; }
make_unknown() { printf 'this is not a model file of any kind\n' >"$1"; }

# Not IQM by content (the magic is wrong), IQM by its .iqm name: a fatal bad magic.
make_bad_magic_iqm()
{
  {
    printf 'INTERQUAKEMODEX\000'
    _i=0
    while [ $_i -lt 27 ]; do u32 0; _i=$((_i + 1)); done
  } >"$1"
}

# A small IQM v2 with N joints (no meshes, no poses, no animations) whose parents all point past
# the last joint: every joint breaks the same rule, so one file yields N repeats of one id.
make_bad_parents_iqm()
{
  _file=$1 _n=$2
  _ofs_text=124 _num_text=4
  _ofs_joints=$((_ofs_text + _num_text))
  _size=$((_ofs_joints + 48 * _n))
  {
    printf 'INTERQUAKEMODEL\000'
    u32 2; u32 $_size; u32 0                # version, filesize, flags
    u32 $_num_text; u32 $_ofs_text          # text
    u32 0; u32 0                            # meshes
    u32 0; u32 0; u32 0                     # vertexarrays, vertexes
    u32 0; u32 0; u32 0                     # triangles, adjacency
    u32 "$_n"; u32 $_ofs_joints             # joints
    u32 0; u32 0                            # poses
    u32 0; u32 0                            # anims
    u32 0; u32 0; u32 0                     # frames, framechannels
    u32 0                                   # bounds
    u32 0; u32 0                            # comment
    u32 0; u32 0                            # extensions
    printf '\000j\000\000'                  # text: "", "j"
    _i=0
    while [ $_i -lt "$_n" ]; do
      u32 1; u32 $((_n + 100))              # name "j", parent out of range
      u32 0; u32 0; u32 0                   # translate
      u32 0; u32 0; u32 0; u32 1065353216   # rotate (0, 0, 0, 1)
      u32 1065353216; u32 1065353216; u32 1065353216 # scale 1
      _i=$((_i + 1))
    done
  } >"$_file"
}

# The id that occurs most often in a text report, and how often: "ID COUNT".
top_rule()
{
  sed -n 's/.*\[\([A-Z0-9]*-[A-Z0-9]*-[0-9][0-9][0-9]\)\]: .*/\1/p' "$work/$1" | sort | uniq -c |
    sort -rn | awk 'NR == 1 { print $2, $1 }'
}
