"""mdlcheck - validate skeletal model files (IQM, IQE, Egg, QMSH, X42) from Python.

A thin ctypes layer over libmdlcheck.so.1 (nothing is compiled at install):

    import mdlcheck
    entry = mdlcheck.validate("hero.iqm")            # or bytes, with name="hero.iqm"
    assert entry["verdict"] == "valid", entry["messages"]

validate() returns exactly one entry of the "files" array of `mdlcheck --format=json`
(spec/report.schema.json), with the command line's defaults. Its keyword options are the
library's settings, named as the manual's option table says (doc/manual.md, generated from the
one table of options, validator/core/options.def): ignore, fail_on, profile, max_issues, ...
They are passed to the library as they are and checked there only, by the parser the command
line uses: an unknown option or a value the CLI refuses (exit 2) raises ValueError with the
library's message. Shapes: a list repeats the option, a dict (severity={pattern: severity})
gives PATTERN=SEVERITY pairs, a bool is true or false; resources=True is the model's folder
only (a bare --resources), a folder or a list of folders the search path after it, False or None
off.

The library is looked for in this order: $MDLCHECK_LIBRARY (a path; nothing else is tried),
$MDLCHECK_BUILDDIR/validator/.libs, the copy inside the package (pip install ./python, the
wheel), the build tree this module sits in, the libdir recorded by `make install`, then
ctypes.util.find_library("mdlcheck").

In a pytest suite, mdlcheck.assert_valid(path) fails the test with the text report
`mdlcheck FILE` prints as its message; report_text() returns that report.

poses() returns what `mdlcheck poses -f json FILE` prints (skeleton, base pose, every frame);
compare(a, b) returns the report `mdlcheck compare -f json A B` prints. Both take the same
options as validate().

convert(src, dst) converts a file to the format dst's extension names, as `mdlcheck convert
-f json SRC DST` does (announce or refuse what the target cannot hold, write, prove), and returns
the report it prints; convert_bytes(data, to) converts in memory and returns (report, bytes).
Both take validate()'s options plus target_version and accept_loss (an id or a list of them).

fix(src, dst=None) repairs what the catalogue says `mdlcheck fix` repairs (each rule's "repair"
in rules()), writes dst (or replaces src) in src's own format, proves it as convert() does, and
returns the report `mdlcheck fix -f json SRC [DST]` prints; dry_run=True proves and writes
nothing. fix_bytes(data) repairs in memory and returns (report, bytes). Both take validate()'s
options.
"""
# SPDX-License-Identifier: MIT
import ctypes
import json
import os

from . import _lib

__all__ = ["validate", "report_text", "assert_valid", "poses", "compare", "convert",
           "convert_bytes", "fix", "fix_bytes", "rules", "formats", "version", "library_path", "InvalidModelError"]

# The package version: the library it loads must say the same (mdl_version). tests/python keeps
# it equal to MDL_VERSION_STRING and `mdlcheck --version`.
__version__ = "0.1.0"

_MDL_OK, _MDL_EIO, _MDL_EINVAL, _MDL_ENOMEM, _MDL_EDECODE = 0, -1, -3, -4, -5
_SEVERITY_COUNT = 5
_ERROR_SIZE = 512          # the first try; a message that fills it is asked for again, larger
_ERROR_SIZE_MAX = 1 << 26
_loaded = None


def _library():
    global _loaded
    if _loaded is None:
        loaded = _lib.load()
        # the module and the library it drives are one release: another one's settings and
        # report fields may differ from what this module documents
        found = _lib.library_version(loaded[0])
        if found != __version__:
            raise OSError("%s is libmdlcheck %s; this module is %s" % (loaded[1], found, __version__))
        _loaded = loaded
    return _loaded[0]


def library_path():
    """The path (or name) of the libmdlcheck the module loaded."""
    _library()
    return _loaded[1]


def version():
    """The mdlcheck version this module belongs to."""
    return __version__


class InvalidModelError(ValueError):
    """poses() of an input that does not decode cleanly: its poses would mislead.

    str(): the start of its diagnostics as the CLI's text report; entry: all of them, the
    validate() entry of the same input and options.
    """

    def __init__(self, message, entry):
        super().__init__(message.strip() or "the input does not decode cleanly")
        self.entry = entry


def _text(value, key):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (os.PathLike)):
        value = os.fspath(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if "\0" in value:
            raise ValueError("option %s contains a NUL character" % key)
        return value
    raise TypeError("option %s takes a string, a number or a boolean, not %s"
                    % (key, type(value).__name__))


def _settings(options):
    """The "key=value" strings of mdlcheck.h from keyword options (lists and dicts repeat)."""
    out = []
    for key, value in options.items():
        if value is None:
            continue
        if key == "resources":  # a switch with an optional search path, as --resources[=DIRS]
            if value is False:
                continue
            if value is True:
                value = ""
            elif isinstance(value, (list, tuple)):
                value = ":".join(_text(v, key) for v in value)
        if isinstance(value, dict):  # severity={"IQM-JNT-*": "warning"}
            out += ["%s=%s=%s" % (key, _text(p, key), _text(s, key)) for p, s in value.items()]
        elif isinstance(value, (list, tuple, set, frozenset)):
            out += ["%s=%s" % (key, _text(v, key)) for v in value]
        else:
            out.append("%s=%s" % (key, _text(value, key)))
    return out


def _call(function, *args, options):
    """Call a JSON entry point (its arguments, then settings, status and error buffer): the
    parsed JSON, or the exception its status stands for."""
    return json.loads(_call_text(function, *args, options=options))


def _call_text(function, *args, options, after=()):
    """Call an entry point returning text: the text, or the exception its status stands for.
    after: arguments between the settings and the status (the buffer conversion's outputs)."""
    lib = _library()
    strings = [s.encode("utf-8") for s in _settings(options)]
    settings = (ctypes.c_char_p * (len(strings) + 1))(*strings, None)
    size = _ERROR_SIZE
    while True:
        status = ctypes.c_int(_MDL_OK)
        error = ctypes.create_string_buffer(size)
        text = getattr(lib, function)(*args, settings, *after, ctypes.byref(status), error, size)
        # the library cuts its message to the buffer: a full one may have been cut, so the call
        # is made again with room for all of it (failures only; a success returns at once)
        if text or len(error.value) < size - 1 or size >= _ERROR_SIZE_MAX:
            break
        size *= 16
    if not text:
        message = error.value.decode("utf-8", "replace")
        if status.value == _MDL_EINVAL:
            raise ValueError(message or "a setting the library does not understand")
        if status.value == _MDL_ENOMEM:
            raise MemoryError("libmdlcheck ran out of memory")
        if status.value == _MDL_EDECODE:
            raise InvalidModelError(message, None)
        if status.value == _MDL_EIO:
            raise OSError(message or "an input could not be read")
        raise RuntimeError("libmdlcheck failed with status %d%s"
                           % (status.value, ": " + message if message else ""))
    try:
        return ctypes.string_at(text).decode("utf-8")
    finally:
        lib.mdl_string_free(text)


def _is_buffer(value):
    return isinstance(value, (bytes, bytearray, memoryview))


def _path(value, what):
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError("%s takes a path or bytes, not %s" % (what, type(value).__name__))
    path = os.fsencode(value)
    if b"\0" in path:
        raise ValueError("path contains a NUL character")
    return path


def _one_input(function, path_or_bytes, name, options):
    """validate() and poses(): one file, or one buffer named by name."""
    if _is_buffer(path_or_bytes):
        data = bytes(path_or_bytes)  # a contiguous copy the library reads only
        hint = None if name is None else os.fsencode(name)
        return _call("mdl_%s_buffer_json" % function, data, len(data), hint, options=options)
    if name is not None and isinstance(path_or_bytes, (str, os.PathLike)):
        raise TypeError("name applies to a buffer; a file is reported under its path")
    return _call("mdl_%s_file_json" % function, _path(path_or_bytes, function + "()"),
                 options=options)


def validate(path_or_bytes, name=None, **options):
    """Validate a file (str or os.PathLike) or a buffer (bytes, bytearray, memoryview).

    name: for a buffer, the file name it stands for (its extension helps detect the format, and
    it is the entry's "path"). Returns the report entry as a dict. Raises ValueError for an
    option the library rejects, MemoryError when it ran out of memory. A file that cannot be read
    is not an exception: the entry carries the fatal MDL-IO-001, as the CLI's report does.
    """
    return _one_input("validate", path_or_bytes, name, options)


def report_text(path_or_bytes, name=None, **options):
    """The text report `mdlcheck FILE` prints for a file or buffer (same options as validate())."""
    if _is_buffer(path_or_bytes):
        data = bytes(path_or_bytes)
        hint = None if name is None else os.fsencode(name)
        text = _call_text("mdl_validate_buffer_text", data, len(data), hint, options=options)
    else:
        if name is not None:
            raise TypeError("name applies to a buffer; a file is reported under its path")
        text = _call_text("mdl_validate_file_text", _path(path_or_bytes, "report_text()"),
                          options=options)
    return text


def assert_valid(path_or_bytes, name=None, **options):
    """Raise AssertionError, with the text report as its message, unless the input is valid.

    For test suites (pytest shows the message as the failure): options as for validate(), e.g.
    fail_on="warning". Returns the validate() entry of a valid input.
    """
    __tracebackhide__ = True  # pytest: show the caller's line, not this one
    entry = validate(path_or_bytes, name, **options)
    if entry.get("verdict") != "valid":
        raise AssertionError(report_text(path_or_bytes, name, **options).rstrip("\n"))
    return entry


def poses(path_or_bytes, name=None, **options):
    """The poses of a file or buffer: what `mdlcheck poses -f json` prints, as a dict.

    Raises InvalidModelError (a ValueError) when the input does not decode cleanly (a diagnostic
    at or above fail_on), OSError when the file cannot be read, ValueError for a bad option.
    """
    try:
        return _one_input("poses", path_or_bytes, name, options)
    except InvalidModelError as e:
        raise InvalidModelError(str(e), validate(path_or_bytes, name, **options)) from None


def compare(a, b, a_name=None, b_name=None, **options):
    """Whether two models agree: the report `mdlcheck compare -f json A B` prints, as a dict.

    a and b: paths, or buffers (a_name and b_name then name them; their extensions help detect
    the format). The one entry of report["files"] holds the differences; its "verdict" says
    whether they agree under fail_on. Raises OSError when a file cannot be read.
    """
    if _is_buffer(a) or _is_buffer(b):
        sides = []
        for value, name in ((a, a_name), (b, b_name)):
            if not _is_buffer(value):
                path = _path(value, "compare()")
                with open(path, "rb") as f:
                    value = f.read()
                name = path if name is None else name
            data = bytes(value)
            sides += [data, len(data), None if name is None else os.fsencode(name)]
        return _call("mdl_compare_buffers_json", *sides, options=options)
    if a_name is not None or b_name is not None:
        raise TypeError("a_name and b_name apply to buffers; files are reported under their paths")
    return _call("mdl_compare_files_json", _path(a, "compare()"), _path(b, "compare()"),
                 options=options)


def convert(src, dst, **options):
    """Convert the file src to the format dst's extension names, writing dst, as `mdlcheck
    convert -f json SRC DST` does; returns the report it prints, as a dict.

    report["files"][0] is src, [1] dst: the writer's announcements (MDL-CNV-* warnings for what
    the target cannot hold, errors for what it refuses), the output's findings and the proof's
    differences. Every entry "valid": dst was written and says what src says. Otherwise src has
    errors or the writer refused (nothing written), the bytes did not validate (nothing written),
    they differ from src (written, to be inspected), or dst could not be written (left as it
    was). dst is replaced whole or not at all. Options as validate()'s, plus target_version (the
    format version written) and accept_loss (a rule id or a list: the announced losses, and the
    proof's differences they explain, accepted as warnings). Raises OSError when src cannot be
    read, ValueError for a bad option or a dst whose extension names no format with a writer.
    """
    return _call("mdl_convert_file_json", _path(src, "convert()"), _path(dst, "convert()"),
                 options=options)


def convert_bytes(data, to, name=None, **options):
    """Convert a buffer (bytes, bytearray, memoryview) in memory to format `to` ("iqm", "iqe",
    "egg", "qmsh", "x42"): returns (report, converted bytes), nothing written to disk.

    name: the file name the buffer stands for (its extension helps detect the format); the
    output is reported under it with the target's extension. The bytes are None when nothing
    would have been written (the writer refused, or they did not validate); they are returned
    also when the proof found differences (the report's second entry is then "invalid"). Options
    and exceptions as for convert().
    """
    if not _is_buffer(data):
        raise TypeError("convert_bytes() takes bytes, not %s" % type(data).__name__)
    if not isinstance(to, str):
        raise TypeError("convert_bytes() takes the target format's name, not %s" % type(to).__name__)
    data = bytes(data)
    hint = None if name is None else os.fsencode(name)
    return _call_with_bytes("mdl_convert_buffer_json", data, len(data), hint, to.encode("utf-8"),
                            options=options)


def fix(src, dst=None, dry_run=False, **options):
    """Repair the file src as `mdlcheck fix -f json SRC [DST]` does; returns the report it
    prints, as a dict.

    What is repaired is what the catalogue says fix repairs (rules()' "repair"); the model is
    written again in src's own format and version, to dst, or over src when dst is None (whole or
    not at all), and proven as convert() proves a conversion. report["files"][0] is src (its
    findings, and each repaired one listed as MDL-FIX-003), [1] the repaired bytes (their
    findings, the proof's differences, the refusals MDL-FIX-001/002). Every entry "valid" but
    src's: repaired and written; src "valid" too: nothing to repair (dst a copy; src untouched).
    dry_run=True: everything but the write. Options as validate()'s (target_version and
    accept_loss raise ValueError: fix keeps src's format and accepts no loss). Raises OSError when
    src cannot be read.
    """
    if dry_run:
        options = dict(options, dry_run=True)
    return _call("mdl_fix_file_json", _path(src, "fix()"),
                 None if dst is None else _path(dst, "fix()"), options=options)


def fix_bytes(data, name=None, **options):
    """Repair a buffer in memory as fix() does: returns (report, repaired bytes), nothing
    written to disk. The bytes are None when the fix was refused; they are the input's own when
    there was nothing to repair. name: the file name the buffer stands for (its extension helps
    detect the format; both entries are reported under it). Options and exceptions as fix()'s.
    """
    if not _is_buffer(data):
        raise TypeError("fix_bytes() takes bytes, not %s" % type(data).__name__)
    data = bytes(data)
    hint = None if name is None else os.fsencode(name)
    return _call_with_bytes("mdl_fix_buffer_json", data, len(data), hint, options=options)


def _call_with_bytes(fn, *args, options):
    """(report, bytes) from a buffer call that also hands back written bytes (out_bytes,
    out_size after the settings): None when it wrote none; the library's copy is released."""
    out = ctypes.c_void_p()
    out_size = ctypes.c_size_t(0)
    report = json.loads(_call_text(fn, *args, options=options,
                                   after=(ctypes.byref(out), ctypes.byref(out_size))))
    if not out.value:
        return report, None
    try:
        return report, ctypes.string_at(out.value, out_size.value)
    finally:
        _library().mdl_bytes_free(out)


def _severity(lib, value):
    name = lib.mdl_severity_name(value) if 0 <= value < _SEVERITY_COUNT else None
    if name is None:
        raise RuntimeError("libmdlcheck reported severity %d, which it cannot name" % value)
    return name.decode("utf-8")


def rules():
    """The rule catalogue: one dict per rule, the fields of struct mdl_rule by name."""
    lib = _library()
    out = []
    for i in range(lib.mdl_rule_count()):
        ptr = lib.mdl_rule_at(i)
        if not ptr:
            raise RuntimeError("libmdlcheck has no rule at index %d of %d" % (i, lib.mdl_rule_count()))
        r = ptr.contents
        entry = {}
        for field, ctype in _lib.Rule._fields_:
            value = getattr(r, field)
            if ctype is ctypes.c_int:
                entry[field] = _severity(lib, value)
            else:
                entry[field] = "" if value is None else value.decode("utf-8")
        out.append(entry)
    return out


def formats():
    """The names of the formats the loaded library knows."""
    names = _library().mdl_format_names()
    out = []
    i = 0
    while names[i] is not None:
        out.append(names[i].decode("utf-8"))
        i += 1
    return out
