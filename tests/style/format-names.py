#!/usr/bin/env python3
"""format-names.py - only the format rooms know formats by name (issue 27 item 2).

No string literal in the C, JavaScript or Python outside validator/formats/<fmt>/ and the
registry (validator/core/formats.c) names a format ("iqm", ".egg", "x42-v2a" ...): what core,
the tool and the faces need to know of a format they read from its description (struct
mdl_format). Comments and documentation prose (docstrings, options.def's help and doc texts)
may name formats; values, keys and code may not. The rule catalogue's generated table names a
rule's format through the format's own symbol (rulegen), so it is checked too; the targets'
generated table is excluded: its "formats" field is the text of spec/targets/*.yaml, data about
what a real loader reads, shown as written.

Exit 1 naming every offending literal with its file and line."""
import ast
import os
import re
import sys

TOP = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", "..")
BUILD = os.environ.get("top_builddir") or TOP
NAMES = ["iqm", "iqe", "egg", "qmsh", "x42"]
WORD = re.compile(r"(?<![A-Za-z0-9_])(%s)(?![A-Za-z0-9_])" % "|".join(NAMES))
found = []


def flag(path, line, text):
    if WORD.search(text):
        found.append("%s:%d: %s" % (os.path.relpath(path, TOP), line, text.strip()[:100]))


def c_like_literals(text, js=False):
    """(line, literal) of every string literal, comments skipped (C, and JS with template and
    single-quoted strings)."""
    i, n, line = 0, len(text), 1
    quotes = "\"'`" if js else "\""
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            continue
        if ch == "'" and not js:  # a C character constant
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if ch in quotes:
            j, start = i + 1, line
            while j < n and text[j] != ch:
                if text[j] == "\n":
                    line += 1
                j += 2 if text[j] == "\\" else 1
            yield start, text[i + 1:j]
            i = j + 1
            continue
        i += 1


def check_c(path, js=False):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for line, lit in c_like_literals(text, js):
        flag(path, line, lit)


# X42's own option (the file of a user's declared legacy layout) still sits in the shared table
# under its name; a format contributing its own options to the table is the step after this one.
OPTION_NAMES_ALLOWED = {"x42-layout"}


def macro_args(text):
    """The top-level comma-separated arguments of a macro call's text."""
    args, depth, cur, i = [], 0, "", 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            j = i + 1
            while j < len(text) and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            cur += text[i:j + 1]
            i = j + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    return args + [cur]


def check_options_def(path):
    """options.def: every OPTION's names, values and keys (arguments long to js), not its help
    and doc prose."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for m in re.finditer(r"^OPTION\((.*?)\)\s*$", text, re.S | re.M):
        line = text.count("\n", 0, m.start()) + 1
        for arg in macro_args(m.group(1))[2:10]:
            for _, lit in c_like_literals(arg):
                if lit not in OPTION_NAMES_ALLOWED:
                    flag(path, line, lit)


def check_python(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            flag(path, node.lineno, node.value)


def walk(top, exts):
    for d, _, files in os.walk(top):
        for name in sorted(files):
            if name.endswith(exts):
                yield os.path.join(d, name)


validator = os.path.join(TOP, "validator")
for path in walk(validator, (".c", ".h")):
    rel = os.path.relpath(path, validator)
    if rel.startswith("formats" + os.sep) or rel == os.path.join("core", "formats.c"):
        continue
    if rel.endswith("_gen.c") or rel.endswith("_gen.h"):
        continue  # generated into the build tree; rules_gen.c is read from there below
    check_c(path)
check_options_def(os.path.join(validator, "core", "options.def"))
rules_gen = os.path.join(BUILD, "validator", "core", "rules_gen.c")
if os.path.exists(rules_gen):
    # the rule table: its format fields and ids, not its texts (a rule's message and clause are
    # prose about the format, as a comment is)
    with open(rules_gen, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'\s*\{"[A-Z0-9-]+", "[^"]*", ("[^"]*"|[a-z0-9_]+)', line)
            if m and m.group(1).startswith('"'):
                flag(rules_gen, n, m.group(1))
else:
    found.append("validator/core/rules_gen.c is not built (make first)")
for path in walk(os.path.join(TOP, "web", "src"), (".c", ".h")):
    check_c(path)
for path in walk(os.path.join(TOP, "web", "src"), (".js", ".mjs", ".ts")):
    check_c(path, js=True)
for path in walk(os.path.join(TOP, "python", "mdlcheck"), (".py",)):
    check_python(path)

for f in found[:40]:
    print("format-names: %s" % f, file=sys.stderr)
if found:
    print("format-names: %d format name(s) outside validator/formats/ and core/formats.c: a "
          "format describes itself in its struct mdl_format (core/format.h)" % len(found),
          file=sys.stderr)
sys.exit(1 if found else 0)
