"""_lib.py - finding and loading libmdlcheck.so.1 and declaring the C signatures for ctypes."""
# SPDX-License-Identifier: MIT
import ctypes
import ctypes.util
import os

SONAME = "libmdlcheck.so.1"


class Rule(ctypes.Structure):
    """struct mdl_rule, field for field in the order of mdlcheck.h (mdl_severity is an int enum)."""

    _fields_ = [
        ("id", ctypes.c_char_p),
        ("name", ctypes.c_char_p),
        ("format", ctypes.c_char_p),
        ("severity", ctypes.c_int),
        ("versions", ctypes.c_char_p),
        ("source", ctypes.c_char_p),
        ("text", ctypes.c_char_p),
        ("message", ctypes.c_char_p),
        ("rationale", ctypes.c_char_p),
        ("tolerance", ctypes.c_char_p),
        ("basis", ctypes.c_char_p),
        ("strict_severity", ctypes.c_int),
        ("spec_ref", ctypes.c_char_p),
        ("clause", ctypes.c_char_p),
        ("alias", ctypes.c_char_p),
        ("fix", ctypes.c_char_p),
        ("repair", ctypes.c_char_p),
    ]


def _installed_libdir():
    try:
        from . import _paths  # written by `make install`
    except ImportError:
        return None
    return getattr(_paths, "LIBDIR", None)


def candidates():
    """Where the library is looked for, in order: (how it was found, path or name)."""
    found = []
    env = os.environ.get("MDLCHECK_LIBRARY")
    if env:
        # an explicit choice is the only one: a wrong path must fail, not fall back silently
        return [("MDLCHECK_LIBRARY", env)]
    builddir = os.environ.get("MDLCHECK_BUILDDIR")
    if builddir:
        found.append(("MDLCHECK_BUILDDIR", os.path.join(builddir, "validator", ".libs", SONAME)))
    here = os.path.dirname(os.path.abspath(__file__))
    # pip install ./python and the wheel carry the library they built inside the package
    found.append(("package", os.path.join(here, SONAME)))
    found.append(("build tree", os.path.normpath(
        os.path.join(here, os.pardir, os.pardir, "validator", ".libs", SONAME))))
    libdir = _installed_libdir()
    if libdir:
        found.append(("installed libdir", os.path.join(libdir, SONAME)))
    name = ctypes.util.find_library("mdlcheck")
    if name:
        found.append(("find_library", name))
    return found


def _declare(lib):
    c_char_pp = ctypes.POINTER(ctypes.c_char_p)
    tail = [c_char_pp, ctypes.POINTER(ctypes.c_int), ctypes.c_char_p, ctypes.c_size_t]
    buffer = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
    for name, args in (("mdl_validate_file_json", [ctypes.c_char_p]),
                       ("mdl_validate_buffer_json", buffer),
                       ("mdl_validate_file_text", [ctypes.c_char_p]),
                       ("mdl_validate_buffer_text", buffer),
                       ("mdl_poses_file_json", [ctypes.c_char_p]),
                       ("mdl_poses_buffer_json", buffer),
                       ("mdl_compare_files_json", [ctypes.c_char_p, ctypes.c_char_p]),
                       ("mdl_compare_buffers_json", buffer + buffer),
                       ("mdl_convert_file_json", [ctypes.c_char_p, ctypes.c_char_p]),
                       ("mdl_fix_file_json", [ctypes.c_char_p, ctypes.c_char_p])):
        function = getattr(lib, name)
        function.argtypes = args + tail
        # c_void_p, not c_char_p: the pointer must survive to be handed back to mdl_string_free
        function.restype = ctypes.c_void_p
    lib.mdl_string_free.argtypes = [ctypes.c_void_p]
    lib.mdl_string_free.restype = None
    # the buffer conversion hands back the converted bytes too, after the settings
    lib.mdl_convert_buffer_json.argtypes = buffer + [ctypes.c_char_p, c_char_pp,
                                                     ctypes.POINTER(ctypes.c_void_p),
                                                     ctypes.POINTER(ctypes.c_size_t)] + tail[1:]
    lib.mdl_convert_buffer_json.restype = ctypes.c_void_p
    # the buffer repair too, with no target: the settings, then the repaired bytes
    lib.mdl_fix_buffer_json.argtypes = buffer + [c_char_pp, ctypes.POINTER(ctypes.c_void_p),
                                                 ctypes.POINTER(ctypes.c_size_t)] + tail[1:]
    lib.mdl_fix_buffer_json.restype = ctypes.c_void_p
    lib.mdl_bytes_free.argtypes = [ctypes.c_void_p]
    lib.mdl_bytes_free.restype = None
    lib.mdl_rule_count.argtypes = []
    lib.mdl_rule_count.restype = ctypes.c_size_t
    lib.mdl_rule_at.argtypes = [ctypes.c_size_t]
    lib.mdl_rule_at.restype = ctypes.POINTER(Rule)
    lib.mdl_severity_name.argtypes = [ctypes.c_int]
    lib.mdl_severity_name.restype = ctypes.c_char_p
    lib.mdl_format_names.argtypes = []
    lib.mdl_format_names.restype = c_char_pp
    lib.mdl_version.argtypes = [ctypes.POINTER(ctypes.c_int)] * 3
    lib.mdl_version.restype = ctypes.c_char_p
    return lib


def library_version(lib):
    """The version the loaded library says it was built as (mdl_version)."""
    return lib.mdl_version(None, None, None).decode("ascii")


def load():
    """The loaded library and its path; OSError naming every place tried when none loads."""
    tried = []
    for how, path in candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append("%s: %s (absent)" % (how, path))
            continue
        try:
            lib = _declare(ctypes.CDLL(path))
        except (OSError, AttributeError) as e:  # AttributeError: a library without mdl_version
            tried.append("%s: %s (%s)" % (how, path, e))
            continue
        return lib, path
    raise OSError("cannot load %s; tried %s; set MDLCHECK_LIBRARY to its path"
                  % (SONAME, "; ".join(tried) if tried else "nothing"))
