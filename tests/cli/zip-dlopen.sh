#!/bin/sh
# libzip is loaded at the first archive, not at startup (issue 32: libzip, libcrypto and libbz2
# cost every run about a millisecond): mdlcheck does not need it, --version and a plain model do
# not load it, an archive does. When it cannot be loaded (here: /dev/null mounted over it in a
# private mount namespace, where unshare is allowed), the archive is a fatal MDL-IO-001 that names
# the library, exit 3, and the plain model beside it is still validated. Skipped in a build that
# links libzip in (./configure --disable-zip-dlopen).
. "$srcdir/tests/cli/cli-lib.sh"

soname=$(sed -n 's/^#define MDL_ZIP_SONAME "\(.*\)"$/\1/p' "$top_builddir/config.h")
if [ -z "$soname" ]; then
  echo "libzip is linked in (--disable-zip-dlopen): nothing to test"
  exit 77
fi
cp "$srcdir/examples/walk.iqm" "$work/walk.iqm"
"$PYTHON" - "$work" <<'PY' || exit 99
import sys, zipfile
w = sys.argv[1]
with zipfile.ZipFile(w + '/pack.pk3', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('models/walk.iqm', open(w + '/walk.iqm', 'rb').read())
PY

# the program does not name it; the runtime linker loads it only for an archive
if objdump -p "$MDLCHECK" | grep -E 'NEEDED +libzip' >&2; then
  fail "mdlcheck needs libzip at startup"
fi
LD_DEBUG=files "$MDLCHECK" --version >/dev/null 2>"$work/ld" || fail "--version failed"
if grep -F "$soname" "$work/ld" >&2; then
  fail "--version loads $soname"
fi
LD_DEBUG=files "$MDLCHECK" --no-config "$work/walk.iqm" >/dev/null 2>"$work/ld" || fail "walk.iqm is not valid"
if grep -F "$soname" "$work/ld" >&2; then
  fail "a plain model loads $soname"
fi
rc=0
LD_DEBUG=files "$MDLCHECK" --no-config "$work/pack.pk3" >"$work/out" 2>"$work/ld" || rc=$?
expect_rc 0 "the archive's model through the loaded library"
expect_grep out 'pack\.pk3:models/walk\.iqm: valid iqm' "the member is validated"
expect_grep ld "file=$soname" "an archive loads $soname"

# where the library does not load: the archive was not read, and says why
lib=$(sed -n 's/.*calling init: \(.*libzip[^ ]*\)$/\1/p' "$work/ld" | head -n 1)
if [ -n "$lib" ] && unshare -rm true 2>/dev/null; then
  rc=0
  unshare -rm sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$lib" \
    "$MDLCHECK" --no-config "$work/pack.pk3" "$work/walk.iqm" >"$work/out" 2>"$work/err" || rc=$?
  expect_rc 3 "an archive whose library does not load could not be checked"
  expect_grep out "pack\.pk3: fatal\[MDL-IO-001\]: cannot read input: the archive library $soname could not be loaded [(]install libzip: on Debian, the libzip4 package[)]" \
    "a fatal MDL-IO-001 names the library and the package to install"
  expect_grep out 'walk\.iqm: valid iqm' "the plain model is still validated"
else
  echo "no private mount namespace here (unshare -rm): the unloadable library is left to validator/cli/zip_load_test"
fi
exit $((failures != 0))
