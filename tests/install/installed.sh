#!/bin/sh
# `make install prefix=<scratch>`, then what an adopter does with the installed tree: build the
# documented example program (doc/examples/validate.c) against the installed header and library
# through pkg-config, both as a shared (SONAME, only mdl_* exported) and a fully static link,
# next to libjansson/libyaml, and run it on an example file. Then, as a packager stages it
# (make install DESTDIR=...): a shared link through pkg-config that sees no other .pc file (no -dev
# package of a private dependency installed) and takes no other package's -I, a rule reference
# whose links all reach installed files, and a man page naming real paths.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

CC=${CC:-cc}
# a sanitizer build's library needs the sanitizer runtime in every program linked against it
CC="$CC ${SAN_CFLAGS:-}"
prefix=$work/prefix
make -C "$BUILD" install prefix="$prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; echo "make install failed" >&2; exit 99; }
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig

checks=$((checks + 1))
for f in include/mdlcheck.h lib/libmdlcheck.so lib/libmdlcheck.a lib/pkgconfig/mdlcheck.pc bin/mdlcheck \
  share/mdlcheck/spec/report.schema.json share/mdlcheck/spec/config.schema.json \
  share/mdlcheck/spec/sarif-subset.schema.json share/mdlcheck/spec/formats/README.md \
  share/mdlcheck/spec/formats/iqm.md share/mdlcheck/spec/formats/iqe.md \
  share/mdlcheck/spec/formats/egg.md share/mdlcheck/spec/formats/qmsh.md \
  share/mdlcheck/spec/formats/x42.md share/mdlcheck/spec/formats/core.md \
  share/bash-completion/completions/mdlcheck share/zsh/site-functions/_mdlcheck; do
  [ -e "$prefix/$f" ] || fail "make install did not install $f"
done

# the shared library: versioned SONAME, and exactly the functions the header declares
checks=$((checks + 1))
soname=$(objdump -p "$prefix/lib/libmdlcheck.so" | awk '/SONAME/ {print $2}')
[ "$soname" = libmdlcheck.so.1 ] || fail "SONAME is '$soname', expected libmdlcheck.so.1"
sed -n 's/^[A-Za-z].*[ *]\(mdl_[a-z0-9_]*\)(.*/\1/p' "$prefix/include/mdlcheck.h" | sort >declared
nm -D --defined-only "$prefix/lib/libmdlcheck.so" | awk '{print $3}' | sort >exported
nm -g --defined-only "$prefix/lib/libmdlcheck.a" | awk 'NF == 3 {print $3}' | sort -u >archived
expect_same exported "$(cat declared)"
expect_same archived "$(cat declared)"

# dynamic link, as the README shows
cflags=$(pkg-config --define-prefix --cflags mdlcheck) && libs=$(pkg-config --define-prefix --libs mdlcheck) \
  || { echo "pkg-config cannot read the installed mdlcheck.pc" >&2; exit 99; }
checks=$((checks + 1))
# shellcheck disable=SC2086
$CC -o ex-shared "$SRC/doc/examples/validate.c" $cflags $libs 2>cc.err || { fail "dynamic link failed"; cat cc.err >&2; }
rc=0
LD_LIBRARY_PATH=$prefix/lib ./ex-shared "$SRC/examples/walk.iqm" "$SRC/examples/broken-parent.iqm" >"$work/out" 2>"$work/err" || rc=$?
expect_rc 1 "the example program on a valid and an invalid file"
expect_count out '^.*/walk\.iqm: valid iqm 2$' 1
expect_count out '^.*/broken-parent\.iqm:[0-9]+: error\[IQM-JNT-002\]' 1
expect_count out '^\{"path":".*/broken-parent\.iqm","format":"iqm","version":"2","verdict":"invalid"' 1
checks=$((checks + 1))
LD_LIBRARY_PATH=$prefix/lib ldd ./ex-shared | grep -q "libmdlcheck.so.1 => $prefix/lib/" || fail "ex-shared does not load the installed libmdlcheck.so.1"

# fully static link with --static: private dependencies (libyaml, jansson, zlib, libm) declared,
# and no internal symbol of ours collides with theirs
checks=$((checks + 1))
slibs=$(pkg-config --define-prefix --static --libs mdlcheck)
# shellcheck disable=SC2086
# (a sanitizer runtime cannot be linked fully static: there the archive is named explicitly)
if [ -n "${SAN_CFLAGS:-}" ]; then
  static=; archive="$prefix/lib/libmdlcheck.a"
  slibs=$(printf '%s' "$slibs" | sed 's/-lmdlcheck\b//')
else
  static=-static; archive=
fi
# shellcheck disable=SC2086
if $CC $static -o ex-static "$SRC/doc/examples/validate.c" $cflags $archive $slibs 2>cc.err; then
  rc=0
  ./ex-static "$SRC/examples/walk.iqm" >"$work/out" 2>"$work/err" || rc=$?
  expect_rc 0 "the static example on a valid file"
  expect_count out '^.*/walk\.iqm: valid iqm 2$' 1
else
  fail "static link failed"; cat cc.err >&2
fi

# a DESTDIR staging, read through a pkg-config that finds no other package's .pc file: what a
# consumer on a machine with libmdlcheck-dev but no libyaml-dev, libjansson-dev, libstb-dev sees
dest=$work/dest
make -C "$BUILD" install DESTDIR="$dest" >"$work/install2.log" 2>&1 \
  || { cat "$work/install2.log" >&2; echo "make install DESTDIR=... failed" >&2; exit 99; }
pc=$(find "$dest" -name mdlcheck.pc | head -n 1)
checks=$((checks + 1))
if [ -z "$pc" ]; then
  fail "make install DESTDIR=... installed no mdlcheck.pc"
else
  dprefix=$(dirname "$(dirname "$(dirname "$pc")")")
  mkdir -p nopc
  rc=0
  dcflags=$(PKG_CONFIG_LIBDIR=$work/nopc PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-prefix --cflags mdlcheck 2>cc.err) &&
    dlibs=$(PKG_CONFIG_LIBDIR=$work/nopc PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-prefix --libs mdlcheck 2>>cc.err) || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail "pkg-config --cflags/--libs mdlcheck needs another package's .pc file: $(cat cc.err)"
  else
    case " $dcflags " in
      *" -I$dprefix/include "*) ;;
      *) fail "pkg-config --cflags mdlcheck gives '$dcflags', not -I$dprefix/include" ;;
    esac
    case "$dcflags" in
      *stb* | *yaml* | *jansson*) fail "pkg-config --cflags mdlcheck leaks a private dependency's flags: $dcflags" ;;
    esac
    checks=$((checks + 1))
    # shellcheck disable=SC2086
    if $CC -o ex-dest "$SRC/doc/examples/validate.c" $dcflags $dlibs 2>cc.err; then
      rc=0
      LD_LIBRARY_PATH=$dprefix/lib ./ex-dest "$SRC/examples/walk.iqm" >"$work/out" 2>"$work/err" || rc=$?
      expect_rc 0 "the example linked against the DESTDIR staging"
      expect_count out '^.*/walk\.iqm: valid iqm 2$' 1
    else
      fail "shared link with only pkg-config --libs mdlcheck failed"; cat cc.err >&2
    fi
  fi
  # the Python module where the python configure found searches (Debian's: dist-packages)
  checks=$((checks + 1))
  py=${MDL_PYTHON:-/usr/bin/python3}
  cprefix=${dprefix#"$dest"}
  init=$(find "$dest" -path '*/mdlcheck/__init__.py' | head -n 1)
  searched=$("$py" -c 'import sys; print("\n".join(p for p in sys.path if p.startswith(sys.argv[1] + "/lib")))' "$cprefix" 2>/dev/null)
  if [ -z "$init" ]; then
    fail "make install DESTDIR=... installed no Python module"
  elif [ -z "$searched" ]; then
    echo "($py searches nothing below $cprefix: where the module goes is not checked)"
  else
    moddir=$(dirname "$(dirname "${init#"$dest"}")")
    printf '%s\n' "$searched" | grep -qxF "$moddir" \
      || fail "the Python module went to $moddir, which $py does not search (it does: $searched)"
  fi
  # every relative link of the installed rule reference reaches an installed file
  checks=$((checks + 1))
  rules_md=$(find "$dest" -name rules.md | head -n 1)
  if [ -z "$rules_md" ]; then
    fail "no rules.md installed"
  else
    grep -o '](\([^)#:]*\)' "$rules_md" | sed 's/^](//' | sort -u >links
    [ -s links ] || fail "the installed rules.md has no relative link (test out of date?)"
    while read -r link; do
      [ -e "$(dirname "$rules_md")/$link" ] || fail "installed rules.md links to $link, which is not installed"
    done <links
  fi
  # the man page names the files where they are, not by a make variable
  checks=$((checks + 1))
  man=$(find "$dest" -path '*/man1/mdlcheck.1' | head -n 1)
  if [ -z "$man" ]; then
    fail "no man1/mdlcheck.1 installed"
  else
    grep -n '\$(' "$man" >dollar && fail "the installed man page holds make variables: $(cat dollar)"
    grep -q "^\.I ${dprefix#"$dest"}/share/mdlcheck/spec/report\.schema\.json" "$man" \
      || fail "the installed man page's FILES does not name ${dprefix#"$dest"}/share/mdlcheck/spec/report.schema.json"
    while read -r f; do
      [ -e "$dest$f" ] || fail "the man page's FILES names $f, which is not installed"
    done <<EOF_FILES
$(sed -n 's/^\.I \(\/[^ ]*\)$/\1/p' "$man")
EOF_FILES
  fi
fi

# the Python module as an exporter's script imports it: from the prefix's site directory, loading
# the library from the libdir make install recorded (no MDLCHECK_* variable helps it)
checks=$((checks + 1))
init=$(find "$prefix" -path '*/mdlcheck/__init__.py' | head -n 1)
if [ -z "$init" ]; then
  fail "make install did not install the Python module"
elif nm -D "$prefix/lib/libmdlcheck.so" | grep -q ' U __asan_init'; then
  echo "(Python module not run: a sanitizer build's library cannot load into python)"
else
  site=$(dirname "$(dirname "$init")")
  case $site in
    "$prefix"/lib*/python3*/*-packages) ;;
    *) fail "the Python module went to $site, not a Python site directory of $prefix" ;;
  esac
  rc=0
  (cd "$work" && unset MDLCHECK_LIBRARY MDLCHECK_BUILDDIR &&
    PYTHONPATH=$site PYTHONDONTWRITEBYTECODE=1 "$PYTHON" - "$SRC/examples/walk.iqm" "$SRC/examples/broken-parent.iqm") \
    >"$work/out" 2>"$work/err" <<'EOF_PY' || rc=$?
import sys
import mdlcheck
print("library", mdlcheck.library_path())
for path in sys.argv[1:]:
    entry = mdlcheck.validate(path)
    print(entry["path"], entry["verdict"], *sorted({d["id"] for d in entry["messages"]}))
print("poses", len(mdlcheck.poses(sys.argv[1])["joints"]))
print("compare", mdlcheck.compare(sys.argv[1], sys.argv[1])["files"][0]["verdict"])
EOF_PY
  expect_rc 0 "a Python script using the installed module"
  expect_count out "^library $prefix/lib/libmdlcheck\.so\.1\$" 1
  expect_count out '^.*/walk\.iqm valid$' 1
  expect_count out '^.*/broken-parent\.iqm invalid .*IQM-JNT-002' 1
  expect_count out '^poses [1-9][0-9]*$' 1
  expect_count out '^compare valid$' 1
fi

finish
