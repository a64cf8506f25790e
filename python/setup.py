"""setup.py - builds libmdlcheck.so.1 from the source tree around python/ and ships it in the package.

Metadata lives in pyproject.toml; this file adds the native part: before the package is
assembled, the C library is built (configure && make, in the build tree of an already configured
source tree, else in a fresh one under build/) and copied into mdlcheck/, where _lib.py loads it
first. The wheel is tagged for this platform (py3-none-<platform>): it holds native code but no
extension module, so any Python 3 loads it.
"""
# SPDX-License-Identifier: MIT
import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # no wheel: pip falls back to a plain install, which needs no tag
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
SONAME = "libmdlcheck.so.1"


def version():
    """MDL_VERSION_STRING of the public header: the one place the version is written."""
    header = os.path.join(TOP, "validator", "mdlcheck.h")
    try:
        with open(header, encoding="utf-8") as f:
            found = re.search(r'^#define MDL_VERSION_STRING "([^"]+)"', f.read(), re.M)
    except OSError:
        found = None
    if not found:
        sys.exit("setup.py: %s holds no MDL_VERSION_STRING: build from the mdlcheck source "
                 "tree (pip install ./python at its top)" % header)
    return found.group(1)


def run(args, cwd):
    print("setup.py: (cd %s && %s)" % (cwd, " ".join(args)), flush=True)
    subprocess.run(args, cwd=cwd, check=True)


def build_library(scratch):
    """Build libmdlcheck.so.1 and return its path.

    MDLCHECK_BUILDDIR names a configured build tree to use; a source tree configured in place
    (./configure run at its top) is built there, since autoconf refuses a second build beside
    it; otherwise the tree is configured afresh in scratch.
    """
    jobs = "-j%d" % (os.cpu_count() or 1)
    builddir = os.environ.get("MDLCHECK_BUILDDIR")
    if not builddir and os.path.exists(os.path.join(TOP, "config.status")):
        builddir = TOP
    if not builddir:
        builddir = os.path.join(scratch, "c-build")
        os.makedirs(builddir, exist_ok=True)
        if not os.path.exists(os.path.join(TOP, "configure")):
            run(["autoreconf", "-fi"], TOP)
        if not os.path.exists(os.path.join(builddir, "config.status")):
            # the module needs the shared library only; -Werror is for the project's own CI
            run([os.path.join(TOP, "configure"), "-q", "--disable-werror"], builddir)
    run(["make", jobs, "library"], builddir)
    lib = os.path.join(builddir, "validator", ".libs", SONAME)
    if not os.path.exists(lib):
        sys.exit("setup.py: make built no %s" % lib)
    with open(lib, "rb") as f:
        if b"__asan_init" in f.read():
            sys.exit("setup.py: %s is a sanitizer build, which python cannot load; build the "
                     "module from a tree configured without --enable-sanitizers" % lib)
    return lib


class BuildPyWithLibrary(build_py):
    """build_py, then the C library into the package's build copy."""

    def run(self):
        super().run()
        scratch = os.path.abspath(os.path.join(self.build_lib, os.pardir, "mdlcheck-native"))
        lib = build_library(scratch)
        target = os.path.join(self.build_lib, "mdlcheck", SONAME)
        shutil.copyfile(lib, target)
        os.chmod(target, 0o755)


commands = {"build_py": BuildPyWithLibrary}
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        """Native code but no extension module: py3-none-<platform>."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            return ("py3", "none", super().get_tag()[2])

    commands["bdist_wheel"] = PlatformWheel

setup(version=version(), cmdclass=commands)
