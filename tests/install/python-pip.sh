#!/bin/sh
# What a Python user does without make install: `python3 -m build --no-isolation --wheel` in a
# copy of this source tree (unconfigured, as a fresh clone) builds libmdlcheck and a wheel holding
# it, which a fresh venv installs and imports from any directory with no LD_LIBRARY_PATH; and
# `pip install --no-build-isolation ./python` into a venv does the same, offline, with Debian's
# setuptools and wheel. mdlcheck.assert_valid() then fails a pytest test with the text report.
# Skipped (77) outside a git checkout, without Debian's python3-build/-setuptools/-wheel/-venv,
# and in a sanitizer build (the module cannot load such a library; this test builds its own).
. "${srcdir:-.}/tests/regress/regress-lib.sh"

if [ -n "${SAN_CFLAGS:-}" ]; then
  echo "SKIP: sanitizer build (the wheel is built without sanitizers; the normal build tests it)"
  exit 77
fi
if ! git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIP: not a git checkout (the test builds from a copy of the tracked files)"
  exit 77
fi
if ! "$PYTHON" -c 'import build, setuptools, wheel, venv, ensurepip' 2>/dev/null; then
  echo "SKIP: $PYTHON lacks build, setuptools, wheel or venv (Debian: apt-get install python3-build python3-setuptools python3-wheel python3-venv)"
  exit 77
fi
unset LD_LIBRARY_PATH MDLCHECK_LIBRARY MDLCHECK_BUILDDIR PYTHONPATH
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1

# a fresh clone's files: tracked and new, nothing generated (no configure, no build)
mkdir src
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/src" 2>/dev/null)
checks=$((checks + 1))
[ ! -e src/configure ] && [ -f src/python/pyproject.toml ] || fail "the copy is not a fresh source tree"

# the wheel, with Debian's build tools and no network
checks=$((checks + 1))
if (cd src/python && "$PYTHON" -m build --no-isolation --wheel) >build.log 2>&1; then
  wheel=$(ls src/python/dist/*.whl 2>/dev/null | head -n 1)
  case $wheel in
    */mdlcheck-*-py3-none-linux_*.whl) ;;
    *) fail "the wheel is '$wheel', not mdlcheck-VERSION-py3-none-linux_ARCH.whl" ;;
  esac
  "$PYTHON" -m zipfile -l "$wheel" >wheel.list
  grep -q ' *mdlcheck/libmdlcheck\.so\.1 ' wheel.list || fail "the wheel holds no mdlcheck/libmdlcheck.so.1"
  grep -q ' *mdlcheck/__init__\.py ' wheel.list || fail "the wheel holds no mdlcheck/__init__.py"
else
  tail -40 build.log >&2
  fail "python3 -m build --no-isolation --wheel failed"
  wheel=
fi

# what a script sees, run from a folder that is neither the source tree nor the venv
cat >probe.py <<'EOF_PY'
import sys
import mdlcheck
print("library", mdlcheck.library_path())
print("module", mdlcheck.__file__)
for path in sys.argv[1:]:
    print(path.rsplit("/", 1)[-1], mdlcheck.validate(path)["verdict"])
EOF_PY
probe()  # VENV: import from / and print where the module and its library are
{
  rc=0
  (cd / && "$1/bin/python" "$work/probe.py" "$SRC/examples/walk.iqm" "$SRC/examples/broken-parent.iqm") \
    >"$work/out" 2>"$work/err" || rc=$?
  expect_rc 0 "importing mdlcheck from $1"
  expect_count out "^library $1/lib/python3[^/]*/site-packages/mdlcheck/libmdlcheck\\.so\\.1\$" 1
  expect_count out '^walk\.iqm valid$' 1
  expect_count out '^broken-parent\.iqm invalid$' 1
}

# a fresh venv, nothing from the system's packages: the wheel alone
if [ -n "$wheel" ]; then
  "$PYTHON" -m venv v1 >venv.log 2>&1 || { cat venv.log >&2; echo "python3 -m venv failed" >&2; exit 99; }
  checks=$((checks + 1))
  v1/bin/pip install -q "$wheel" >pip1.log 2>&1 || { cat pip1.log >&2; fail "pip install of the wheel failed"; }
  probe "$work/v1"
fi

# pip install ./python into a venv that sees Debian's setuptools and wheel (--no-build-isolation)
"$PYTHON" -m venv --system-site-packages v2 >venv.log 2>&1 || { cat venv.log >&2; echo "python3 -m venv failed" >&2; exit 99; }
checks=$((checks + 1))
(cd src && "$work/v2/bin/pip" install -q --no-build-isolation ./python) >pip2.log 2>&1 \
  || { tail -40 pip2.log >&2; fail "pip install --no-build-isolation ./python failed"; }
probe "$work/v2"

# the pytest helper: a failing test's message is the text report mdlcheck prints
if v2/bin/python -c 'import pytest' 2>/dev/null; then
  cat >test_models.py <<EOF_PY
import mdlcheck

def test_walk():
    mdlcheck.assert_valid("$SRC/examples/walk.iqm")

def test_broken():
    mdlcheck.assert_valid("$SRC/examples/broken-parent.iqm")
EOF_PY
  rc=0
  (cd / && "$work/v2/bin/python" -m pytest -q -p no:cacheprovider "$work/test_models.py") >out 2>err || rc=$?
  expect_rc 1 "pytest with a valid and an invalid model"
  expect_count out '1 failed, 1 passed' 1
  expect_count out '^E +AssertionError: .*/broken-parent\.iqm:[0-9]+: error\[IQM-JNT-002\]' 1
  expect_count out '^E +.*/broken-parent\.iqm: invalid iqm 2' 1
else
  echo "(no pytest for $PYTHON: assert_valid under pytest not run)"
fi

finish
