#!/bin/sh
# The Debian packages: `dpkg-buildpackage -us -uc -b` in a copy of this tree (debian/) builds
# mdlcheck (CLI, man page, completions, spec texts), libmdlcheck1, libmdlcheck-dev (header, .pc,
# static library) and python3-mdlcheck; lintian finds no error and no warning that debian/ does
# not override with its reason; and what they hold works: the CLI, a program built through the
# -dev package's pkg-config file, the Python module. Skipped (77) without dpkg-buildpackage,
# debhelper, lintian or fakeroot, outside a git checkout, and in a sanitizer build.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

if [ -n "${SAN_CFLAGS:-}" ]; then
  echo "SKIP: sanitizer build (the packages are built without sanitizers; the normal build tests them)"
  exit 77
fi
for tool in dpkg-buildpackage dh lintian fakeroot dpkg-deb; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "SKIP: no $tool (Debian: apt-get install dpkg-dev debhelper lintian fakeroot)"; exit 77; }
done
if ! git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIP: not a git checkout (the packages are built from a copy of the tracked files)"
  exit 77
fi

mkdir src
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/src" 2>/dev/null)
# the package version is the program's
checks=$((checks + 1))
version=$(sed -n 's/^#define MDL_VERSION_STRING "\(.*\)"$/\1/p' src/validator/mdlcheck.h)
debversion=$(sed -n '1s/^mdlcheck (\([^)]*\)).*/\1/p' src/debian/changelog)
[ "$debversion" = "$version" ] || fail "debian/changelog is at $debversion, mdlcheck.h at $version"

checks=$((checks + 1))
# (no -dbgsym packages: nothing here reads them)
if ! (cd src && DEB_BUILD_OPTIONS="noddebs ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -us -uc -b -j"${MDL_JOBS:-2}") >build.log 2>&1; then
  tail -60 build.log >&2
  fail "dpkg-buildpackage -us -uc -b failed"
  finish
  exit
fi
arch=$(dpkg --print-architecture)
for p in mdlcheck libmdlcheck1 libmdlcheck-dev python3-mdlcheck; do
  checks=$((checks + 1))
  deb=${p}_${debversion}_$arch.deb
  if [ -f "$deb" ]; then
    dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$p.list"
    dpkg-deb -x "$deb" root
  else
    fail "no $deb"; : >"$p.list"
  fi
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# libzip is loaded at the first archive (dlopen), where dh_shlibdeps cannot see it: control names it
checks=$((checks + 1))
zipdep=$(dpkg-deb -f "mdlcheck_${debversion}_$arch.deb" Depends 2>/dev/null | tr ',' '\n' | grep -c '^ *libzip4\b')
[ "$zipdep" = 1 ] || fail "the mdlcheck package does not depend on libzip4 (loaded with dlopen)"
expect_count mdlcheck.list '^/usr/bin/mdlcheck$' 1
expect_count mdlcheck.list '^/usr/share/man/man1/mdlcheck\.1\.gz$' 1
expect_count mdlcheck.list '^/usr/share/bash-completion/completions/mdlcheck$' 1
expect_count mdlcheck.list '^/usr/share/zsh/vendor-completions/_mdlcheck$' 1
expect_count mdlcheck.list '^/usr/share/mdlcheck/spec/report\.schema\.json$' 1
expect_count mdlcheck.list '^/usr/share/mdlcheck/doc/rules\.md$' 1
expect_count libmdlcheck1.list "^/usr/lib/$multiarch/libmdlcheck\\.so\\.1" 2
expect_count libmdlcheck1.list '\.(a|h|pc)$' 0
expect_count libmdlcheck-dev.list "^/usr/lib/$multiarch/(libmdlcheck\\.(a|so)|pkgconfig/mdlcheck\\.pc)$" 3
expect_count libmdlcheck-dev.list '^/usr/include/mdlcheck\.h$' 1
expect_count libmdlcheck-dev.list '\.la$' 0
expect_count python3-mdlcheck.list '^/usr/lib/python3/dist-packages/mdlcheck/(__init__|_lib|_paths)\.py$' 3
expect_count python3-mdlcheck.list '__pycache__' 0

# lintian: no error, and no warning debian/ does not override with a reason
checks=$((checks + 1))
lintian --tag-display-limit 0 ./*.changes >lintian.out 2>&1
expect_count lintian.out '^[EW]: ' 0 "lintian (errors and warnings not overridden)"

# what the packages hold works: the man page names real files, the CLI runs...
checks=$((checks + 1))
zcat root/usr/share/man/man1/mdlcheck.1.gz | grep -n '\$(' >dollar && fail "the packaged man page holds make variables: $(cat dollar)"
rc=0
root/usr/bin/mdlcheck "$SRC/examples/walk.iqm" >out 2>err || rc=$?
expect_rc 0 "the packaged mdlcheck on a valid file"
# ...a program links through the -dev package's pkg-config file alone (no other .pc file)...
mkdir nopc
checks=$((checks + 1))
if flags=$(PKG_CONFIG_LIBDIR=$work/nopc PKG_CONFIG_PATH=$work/root/usr/lib/$multiarch/pkgconfig \
    PKG_CONFIG_SYSROOT_DIR=$work/root pkg-config --cflags --libs mdlcheck 2>cc.err); then
  # shellcheck disable=SC2086
  if ${CC:-cc} -o ex "$SRC/doc/examples/validate.c" $flags 2>cc.err; then
    rc=0
    LD_LIBRARY_PATH=$work/root/usr/lib/$multiarch ./ex "$SRC/examples/walk.iqm" >out 2>err || rc=$?
    expect_rc 0 "a program built against libmdlcheck-dev"
    expect_count out '^.*/walk\.iqm: valid iqm 2$' 1
  else
    fail "a program does not build against libmdlcheck-dev: $(cat cc.err)"
  fi
else
  fail "pkg-config cannot read the packaged mdlcheck.pc alone: $(cat cc.err)"
fi
# ...and the Python module imports and validates
rc=0
(cd / && PYTHONPATH=$work/root/usr/lib/python3/dist-packages \
  MDLCHECK_LIBRARY=$work/root/usr/lib/$multiarch/libmdlcheck.so.1 PYTHONDONTWRITEBYTECODE=1 \
  "$PYTHON" -c 'import sys, mdlcheck; print(mdlcheck.__file__); print(mdlcheck.validate(sys.argv[1])["verdict"])' \
  "$SRC/examples/walk.iqm") >out 2>err || rc=$?
expect_rc 0 "the packaged Python module"
expect_count out "^$work/root/usr/lib/python3/dist-packages/mdlcheck/__init__\\.py\$" 1
expect_count out '^valid$' 1
expect_count out "" 2

finish
