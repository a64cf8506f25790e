"""test_mdlcheck.py - the Python module against the build tree's library and the CLI's own JSON."""
# SPDX-License-Identifier: MIT
import ctypes
import json
import os
import pathlib
import re
import struct
import subprocess

import pytest

import mdlcheck

SRC = pathlib.Path(os.environ.get("MDLCHECK_SRCDIR", "."))
CLI = os.environ.get("MDLCHECK_CLI", "validator/mdlcheck")
EXAMPLES = SRC / "examples"
WALK = EXAMPLES / "walk.iqm"
BROKEN = EXAMPLES / "broken-parent.iqm"


def cli_json(*args):
    run = subprocess.run([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    assert run.returncode in (0, 1), run.stderr.decode()
    return json.loads(run.stdout)


def cli_json_any(*args):
    """cli_json for a run that may exit 3 (an input it could not check)."""
    run = subprocess.run([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    assert run.returncode in (0, 1, 3), run.stderr.decode()
    return json.loads(run.stdout)


def example_files():
    return sorted(p for p in EXAMPLES.iterdir() if p.is_file() and p.name != "README.md")


def test_loads_the_build_tree_library():
    builddir = os.environ["MDLCHECK_BUILDDIR"]
    assert mdlcheck.library_path() == os.path.join(builddir, "validator", ".libs",
                                                   "libmdlcheck.so.1")


def test_valid_example():
    entry = mdlcheck.validate(str(WALK))
    assert entry["verdict"] == "valid"
    assert entry["format"] == "iqm"


def iqm_bad_parent_offset(data):
    """The byte offset of the first joint whose parent is not an earlier joint (IQM header order)."""
    num_joints, ofs_joints = struct.unpack_from("<2I", data, 16 + 4 * 13)
    for j in range(num_joints):
        (parent,) = struct.unpack_from("<i", data, ofs_joints + 48 * j + 4)
        if parent >= j:
            return ofs_joints + 48 * j + 4
    raise AssertionError("broken-parent.iqm has no bad parent")


def test_invalid_example_reports_rule_and_offset():
    entry = mdlcheck.validate(BROKEN)  # a pathlib.Path
    assert entry["verdict"] == "invalid"
    hits = [d for d in entry["messages"] if d["id"] == "IQM-JNT-002"]
    assert len(hits) == 1
    assert hits[0]["severity"] == "error"
    assert hits[0]["offset"] == iqm_bad_parent_offset(BROKEN.read_bytes())


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_same_entry_as_the_cli(path):
    report = cli_json("-f", "json", str(path))
    assert len(report["files"]) == 1
    assert mdlcheck.validate(str(path)) == report["files"][0]


def test_bytes_input():
    data = WALK.read_bytes()
    entry = mdlcheck.validate(data, name="walk.iqm")
    assert entry["verdict"] == "valid"
    assert entry["path"] == "walk.iqm"
    assert mdlcheck.validate(bytearray(data), name="walk.iqm") == entry
    assert mdlcheck.validate(memoryview(data), name="walk.iqm") == entry
    broken = mdlcheck.validate(BROKEN.read_bytes(), name="broken-parent.iqm")
    from_file = mdlcheck.validate(str(BROKEN))
    assert broken["messages"] == from_file["messages"]
    assert broken["verdict"] == "invalid"


def test_unreadable_file_is_an_entry_not_a_pass(tmp_path):
    entry = mdlcheck.validate(str(tmp_path / "missing.iqm"))
    assert entry["verdict"] != "valid"
    assert [d["id"] for d in entry["messages"]] == ["MDL-IO-001"]


def rule_ids(entry):
    return {d["id"] for d in entry["messages"]}


def test_ignore_drops_a_rule():
    assert "IQM-JNT-002" in rule_ids(mdlcheck.validate(str(BROKEN)))
    assert "IQM-JNT-002" not in rule_ids(mdlcheck.validate(str(BROKEN), ignore="IQM-JNT-002"))
    assert "IQM-JNT-002" not in rule_ids(mdlcheck.validate(str(BROKEN), ignore=["IQM-JNT-*"]))


def test_only_keeps_one_rule():
    entry = mdlcheck.validate(str(BROKEN), only="IQM-JNT-002")
    assert rule_ids(entry) == {"IQM-JNT-002"}


def test_severity_and_fail_on_change_the_verdict():
    # IQM-JNT-002 lowered to a warning, every other error of the file ignored
    others = sorted(rule_ids(mdlcheck.validate(str(BROKEN))) - {"IQM-JNT-002"})
    lowered = mdlcheck.validate(str(BROKEN), severity={"IQM-JNT-002": "warning"}, ignore=others)
    assert [d["severity"] for d in lowered["messages"]] == ["warning"]
    assert lowered["verdict"] == "valid"
    strict = mdlcheck.validate(str(BROKEN), severity={"IQM-JNT-002": "warning"}, ignore=others,
                               fail_on="warning")
    assert strict["verdict"] == "invalid"
    assert strict == cli_json("-f", "json", "--severity", "IQM-JNT-002=warning", "--fail-on",
                              "warning", *[a for o in others for a in ("--ignore", o)],
                              str(BROKEN))["files"][0]


def test_max_issues_truncates():
    entry = mdlcheck.validate(str(BROKEN), max_issues=1)
    assert len(entry["messages"]) == 1


@pytest.mark.parametrize("options, message", [
    ({"ignore": "NO-SUCH-RULE"}, "pattern 'NO-SUCH-RULE' matches no catalogued rule"),
    ({"fail_on": "loud"}, "unknown severity 'loud' for fail_on"),
    ({"max_issues": "many"}, "max_issues takes a count, not 'many'"),
    ({"assume_format": "obj"}, "unknown format 'obj'"),
    ({"no_such_option": 1}, "unknown setting 'no_such_option'"),
    # the typos the CLI refuses with exit 2 (tests/cli/settings-faces.sh): the library's parser
    # refuses them alike, not the module
    ({"profile": "pandaa"}, "unknown profile 'pandaa'"),
    ({"max_per_rule": "3x"}, "max_per_rule takes a count, not '3x'"),
    ({"strict": "maybe"}, "strict takes true or false, not 'maybe'"),
    ({"max_input_size": "0"}, "max_input_size takes a size above 0"),
    ({"max_memory": "0"}, "max_memory takes auto, none, or a size above 0"),
])
def test_bad_option_raises_the_library_message(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        mdlcheck.validate(str(WALK), **options)


def test_max_memory_is_the_clis():
    # a text model past the bound is the CLI's entry: the fatal MDL-MEM-002, no verdict of valid
    skinned = str(EXAMPLES / "skinned.iqe")
    got = mdlcheck.validate(skinned, max_memory="1K")
    assert [m["id"] for m in got["messages"]] == ["MDL-MEM-002"] and got["verdict"] == "invalid"
    assert got == cli_json_any("-f", "json", "--max-memory=1K", skinned)["files"][0]
    assert mdlcheck.validate(skinned, max_memory="none")["verdict"] == "valid"


def test_max_memory_on_every_command(tmp_path):
    # poses, compare, convert and fix hold their decodes to the same setting (issue 26 item 8):
    # past it MDL-MEM-002, never a verdict of valid, nothing written; none does the whole work
    skinned = str(EXAMPLES / "skinned.iqe")
    with pytest.raises(OSError, match="MDL-MEM-002"):
        mdlcheck.poses(skinned, max_memory="1K")
    assert mdlcheck.poses(skinned, max_memory="none")["joints"]
    got = mdlcheck.compare(skinned, skinned, max_memory="1K")["files"][0]
    assert [m["id"] for m in got["messages"]] == ["MDL-MEM-002"] and got["verdict"] == "invalid"
    assert mdlcheck.compare(skinned, skinned, max_memory="none")["files"][0]["verdict"] == "valid"
    out = tmp_path / "out.iqm"
    report = mdlcheck.convert(skinned, str(out), max_memory="1K")
    assert "MDL-MEM-002" in [m["id"] for m in report["files"][0]["messages"]]
    assert not out.exists()
    mdlcheck.convert(skinned, str(out), max_memory="none")
    assert out.exists()


def test_name_is_for_buffers_only():
    with pytest.raises(TypeError):
        mdlcheck.validate(str(WALK), name="x.iqm")


def test_rules_match_the_cli_catalogue():
    ours = mdlcheck.rules()
    theirs = cli_json("rules", "--format=json")["rules"]
    assert len(ours) == len(theirs) > 0
    by_id = {r["id"]: r for r in theirs}
    assert [r["id"] for r in ours] == [r["id"] for r in theirs]
    for rule in ours:
        # the CLI leaves out a field that is empty for the rule; compare the ones both have
        shared = set(rule) & set(by_id[rule["id"]])
        assert {"id", "name", "format", "severity", "strict_severity", "text", "message"} <= shared
        for field in shared:
            assert rule[field] == by_id[rule["id"]][field], (rule["id"], field)


def test_formats_and_version():
    assert {"iqm", "iqe", "egg", "qmsh", "x42"} <= set(mdlcheck.formats())
    header = (SRC / "validator" / "mdlcheck.h").read_text()
    assert '#define MDL_VERSION_STRING "%s"' % mdlcheck.version() in header
    assert cli_json("rules", "--format=json")["tool"]["version"] == mdlcheck.version()


def cli_bytes(*args, expect=(0, 1)):
    run = subprocess.run([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    assert run.returncode in expect, run.stderr.decode()
    return run


def model_files():
    return [p for p in example_files() if p.suffix != ".md"]


def clean_examples():
    return [p for p in model_files() if cli_bytes("poses", "-f", "json", str(p)).returncode == 0]


def library_text(function, *args):
    """The raw text of a JSON entry point (settings NULL), to compare byte for byte."""
    lib = mdlcheck._library()
    status = ctypes.c_int(99)
    text = getattr(lib, function)(*args, None, ctypes.byref(status), None, 0)
    assert status.value == 0
    try:
        return ctypes.string_at(text)
    finally:
        lib.mdl_string_free(text)


@pytest.mark.parametrize("path", model_files(), ids=lambda p: p.name)
def test_poses_same_as_the_cli(path):
    run = cli_bytes("poses", "-f", "json", str(path))
    if run.returncode == 0:
        assert library_text("mdl_poses_file_json", os.fsencode(path)) == run.stdout
        assert mdlcheck.poses(path) == json.loads(run.stdout)
        buffered = mdlcheck.poses(path.read_bytes(), name=path.name)
        assert buffered == dict(json.loads(run.stdout), file=path.name)
    else:  # a broken example: no poses; the diagnostics the CLI prints to stderr, all of them
        with pytest.raises(mdlcheck.InvalidModelError) as caught:   # in the entry
            mdlcheck.poses(path)
        assert run.stderr.decode().startswith(str(caught.value)[:200])
        assert caught.value.entry == mdlcheck.validate(path)
        assert caught.value.entry["verdict"] == "invalid"


def test_poses_have_frames():
    walk = mdlcheck.poses(WALK)
    assert [j["name"] for j in walk["joints"]] and walk["anims"]
    assert all(len(a["frames"]) == a["num_frames"] for a in walk["anims"])
    assert len(walk["anims"][0]["frames"][0]["joints"]) == walk["num_poses"]


def test_poses_fail_on_decides_what_decodes_cleanly():
    # broken-parent.iqm has an error and a warning: ignoring the error leaves a clean decode,
    # unless warnings fail too
    others = sorted(rule_ids(mdlcheck.validate(str(BROKEN))) - {"IQM-POS-002"})
    assert mdlcheck.poses(BROKEN, ignore=others)["format"] == "iqm"
    with pytest.raises(mdlcheck.InvalidModelError, match="IQM-POS-002"):
        mdlcheck.poses(BROKEN, ignore=others, fail_on="warning")


def test_poses_of_an_unreadable_file_raise(tmp_path):
    with pytest.raises(OSError, match="cannot read .*missing.iqm"):
        mdlcheck.poses(tmp_path / "missing.iqm")
    with pytest.raises(ValueError, match="unknown setting"):
        mdlcheck.poses(WALK, bogus=1)


COMPARE_PAIRS = [("walk.iqm", "walk.iqm"), ("walk.iqm", "walker.x42"),
                 ("skinned.iqe", "walk.iqm"), ("broken.iqe", "walk.iqm")]


@pytest.mark.parametrize("a, b", COMPARE_PAIRS)
def test_compare_same_as_the_cli(a, b):
    a, b = EXAMPLES / a, EXAMPLES / b
    run = cli_bytes("compare", "-f", "json", str(a), str(b))
    assert library_text("mdl_compare_files_json", os.fsencode(a), os.fsencode(b)) == run.stdout
    report = mdlcheck.compare(a, b)
    assert report == json.loads(run.stdout)
    assert report["files"][0]["verdict"] == ("valid" if run.returncode == 0 else "invalid")
    # buffers, each named by its path, give the same report
    assert mdlcheck.compare(a.read_bytes(), b.read_bytes(), a_name=str(a), b_name=str(b)) == report
    assert mdlcheck.compare(a.read_bytes(), b, a_name=str(a)) == report


def test_compare_reports_differences_and_agreement():
    same = mdlcheck.compare(WALK, WALK)["files"][0]
    assert same["verdict"] == "valid" and same["messages"] == []
    assert same["format"] == "iqm" and same["version"] == "2"
    assert same["compared_with"] == {"path": str(WALK), "format": "iqm", "version": "2"}
    differ = mdlcheck.compare(WALK, EXAMPLES / "walker.x42")["files"][0]
    assert differ["verdict"] == "invalid"
    assert "MDL-CMP-001" in rule_ids(differ)
    fewer = mdlcheck.compare(WALK, EXAMPLES / "walker.x42", ignore="MDL-CMP-009")["files"][0]
    assert rule_ids(fewer) == rule_ids(differ) - {"MDL-CMP-009"}
    undecodable = mdlcheck.compare(b"not a model", WALK, a_name="x.iqm")["files"][0]
    assert undecodable["verdict"] == "invalid"
    assert "MDL-CMP-013" in rule_ids(undecodable)


def test_compare_of_an_unreadable_file_raises(tmp_path):
    with pytest.raises(OSError, match="cannot read .*missing.iqm"):
        mdlcheck.compare(WALK, tmp_path / "missing.iqm")


def test_rules_json_same_as_the_cli():
    lib = mdlcheck._library()
    lib.mdl_rules_json.restype = ctypes.c_void_p
    text = lib.mdl_rules_json()
    try:
        assert ctypes.string_at(text) == cli_bytes("rules", "--format=json").stdout
    finally:
        lib.mdl_string_free(text)


def egg_naming(tmp_path, texture):
    model = tmp_path / "model.egg"
    model.write_text('<CoordinateSystem> { Z-up }\n<Texture> t { "%s" }\n' % texture)
    return model


def test_resources_true_is_the_models_folder_only(tmp_path):
    model = egg_naming(tmp_path, "maps/skin.png")
    other = tmp_path / "other"
    other.mkdir()
    # the missing texture's message lists the folders searched: the model's alone, not "true"
    assert mdlcheck.validate(model, resources=True) == cli_json("-f", "json", "--resources",
                                                                str(model))["files"][0]
    assert "resources" not in mdlcheck.validate(model, resources=False)
    assert mdlcheck.validate(model, resources=str(other)) == cli_json(
        "-f", "json", "--resources=" + str(other), str(model))["files"][0]
    both = [str(other), str(tmp_path / "maps")]
    assert mdlcheck.validate(model, resources=both) == cli_json(
        "-f", "json", "--resources=" + ":".join(both), str(model))["files"][0]


def test_poses_error_is_not_cut(tmp_path):
    # many diagnostics: the text report is far longer than any first guess of a buffer
    lines = ["# Inter-Quake Export"] + ['joint "j%d" %d' % (i, i + 5) for i in range(200)]
    model = tmp_path / "many.iqe"
    model.write_text("\n".join(lines) + "\n")
    run = cli_bytes("poses", "-f", "json", str(model))
    assert run.returncode == 1 and len(run.stderr) > 1024
    with pytest.raises(mdlcheck.InvalidModelError) as caught:
        mdlcheck.poses(model)
    assert str(caught.value) == run.stderr.decode().strip()


def cli_text(*args):
    run = subprocess.run([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    assert run.returncode in (0, 1), run.stderr.decode()
    return run.stdout.decode("utf-8")


def test_report_text_is_the_cli_report():
    for path in (WALK, BROKEN):
        assert mdlcheck.report_text(str(path)) == cli_text(str(path))
    data = BROKEN.read_bytes()
    assert "error[IQM-JNT-002]" in mdlcheck.report_text(data, name="b.iqm")


def test_assert_valid_passes_a_valid_file():
    entry = mdlcheck.assert_valid(WALK)
    assert entry["verdict"] == "valid"


def test_assert_valid_fails_with_the_text_report():
    with pytest.raises(AssertionError) as failure:
        mdlcheck.assert_valid(str(BROKEN))
    assert str(failure.value) == cli_text(str(BROKEN)).rstrip("\n")
    # the options decide, as validate()'s do: a warning fails only under fail_on="warning"
    warned = [p for p in example_files()
              if mdlcheck.validate(str(p))["verdict"] == "valid"
              and mdlcheck.validate(str(p), fail_on="warning")["verdict"] == "invalid"]
    for path in warned[:1]:
        mdlcheck.assert_valid(str(path))
        with pytest.raises(AssertionError, match=r"warning\["):
            mdlcheck.assert_valid(str(path), fail_on="warning")


def test_target_adds_a_loaders_rules():
    animonly = SRC / "corpus" / "iqm" / "base" / "animonly.iqm"
    assert mdlcheck.validate(str(animonly))["verdict"] == "valid"
    entry = mdlcheck.validate(str(animonly), target="assimp")
    assert entry["verdict"] == "invalid"
    assert "TGT-ASSIMP-002" in {m["id"] for m in entry["messages"]}
    both = mdlcheck.validate(str(animonly), target=["assimp", "ioq3"])
    assert {"TGT-ASSIMP-002", "TGT-IOQ3-010"} <= {m["id"] for m in both["messages"]}
    assert both == cli_json("-f", "json", "--target=assimp", "--target=ioq3", str(animonly))["files"][0]
    with pytest.raises(ValueError, match="unknown target 'nosuchengine'"):
        mdlcheck.validate(str(animonly), target="nosuchengine")


CONVERT_TARGETS = ("iqm", "iqe", "egg", "qmsh", "x42")


def cli_convert(cwd, *args):
    run = subprocess.run([os.path.abspath(CLI), "convert", "-f", "json", *args], cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    assert run.returncode in (0, 1, 3), run.stderr.decode()
    return run


@pytest.mark.parametrize("path", model_files(), ids=lambda p: p.name)
def test_convert_same_as_the_cli(path, tmp_path, monkeypatch):
    """Every example to every format, named alike: the library's report is byte for byte what
    `mdlcheck convert -f json` prints, and it writes the bytes the CLI writes, for files and
    (nothing on disk) for buffers."""
    monkeypatch.chdir(tmp_path)
    ext = "".join(path.suffixes)
    source = path.read_bytes()
    (tmp_path / ("in" + ext)).write_bytes(source)

    def taken(name):  # what a conversion wrote, removed for the next one
        f = tmp_path / name
        if not f.exists():
            return None
        data = f.read_bytes()
        f.unlink()
        return data

    for to in CONVERT_TARGETS:
        src, dst = "in" + ext, "out." + to
        run = cli_convert(tmp_path, src, dst)
        written = taken(dst)
        assert library_text("mdl_convert_file_json", os.fsencode(src), os.fsencode(dst)) == run.stdout
        assert taken(dst) == written
        assert mdlcheck.convert(src, dst) == json.loads(run.stdout)
        assert taken(dst) == written
        # a buffer named m.EXT is reported as the CLI's m.EXT -> m.TO (the same file when the
        # formats are: the CLI then rewrites it in place)
        (tmp_path / ("m" + ext)).write_bytes(source)
        run = cli_convert(tmp_path, "m" + ext, "m." + to)
        taken("m." + to)
        taken("m" + ext)
        report, data = mdlcheck.convert_bytes(source, to, name="m" + ext)
        assert report == json.loads(run.stdout)
        assert data == written  # the bytes the conversion to out.TO wrote
        assert sorted(os.listdir(tmp_path)) == [src]  # nothing written to disk


def test_convert_accept_loss_and_hints(tmp_path):
    """walk.iqm loops; Egg has no loop flag: the proof's MDL-CMP-008 is an error until the
    announced MDL-CNV-002 is accepted, when both are warnings and the file is written."""
    out = tmp_path / "walk.egg"
    report = mdlcheck.convert(WALK, out)
    entry = report["files"][1]
    assert entry["verdict"] == "invalid"
    assert {(d["id"], d["severity"]) for d in entry["messages"]} >= {
        ("MDL-CNV-002", "warning"), ("MDL-CMP-008", "error")}
    out.unlink()  # written, to be inspected
    for accept in ("MDL-CNV-002", ["MDL-CNV-003", "MDL-CNV-002"]):
        report = mdlcheck.convert(WALK, out, accept_loss=accept)
        assert [f["verdict"] for f in report["files"]] == ["valid", "valid"]
        assert {(d["id"], d["severity"]) for d in report["files"][1]["messages"]} == {
            ("MDL-CNV-002", "warning"), ("MDL-CMP-008", "warning")}
        assert report["files"][1]["counts"]["error"] == 0
        assert out.exists()


def test_convert_refusal_leaves_nothing(tmp_path):
    """A model the writer refuses (QMSH needs a mesh: an animation-only IQM has none) is no file
    on disk, and no bytes in memory; nor is a source with errors."""
    anim = SRC / "corpus" / "iqm" / "base" / "animonly.iqm"
    report = mdlcheck.convert(anim, tmp_path / "a.qmsh")
    assert "MDL-CNV-004" in rule_ids(report["files"][1])
    assert report["files"][1]["verdict"] == "invalid"
    report, data = mdlcheck.convert_bytes(anim.read_bytes(), "qmsh", name="animonly.iqm")
    assert data is None and "MDL-CNV-004" in rule_ids(report["files"][1])
    report = mdlcheck.convert(EXAMPLES / "broken.egg", tmp_path / "b.iqe")
    assert report["files"][0]["verdict"] == "invalid"
    report, data = mdlcheck.convert_bytes((EXAMPLES / "broken.egg").read_bytes(), "iqe", name="broken.egg")
    assert data is None and report["files"][0]["verdict"] == "invalid"
    assert not list(tmp_path.iterdir())


def test_convert_errors(tmp_path):
    with pytest.raises(OSError, match="cannot read .*missing.iqm"):
        mdlcheck.convert(tmp_path / "missing.iqm", tmp_path / "o.iqe")
    with pytest.raises(OSError, match="cannot read walk.iqm: .*"):  # over max_input_size, as a file
        mdlcheck.convert_bytes(WALK.read_bytes(), "iqe", name="walk.iqm", max_input_size=100)
    with pytest.raises(OSError, match="cannot read .*walk.iqm: .*"):
        mdlcheck.convert(WALK, tmp_path / "o.iqe", max_input_size=100)
    with pytest.raises(ValueError, match="no known format has the extension"):
        mdlcheck.convert(WALK, tmp_path / "o.txt")
    with pytest.raises(ValueError, match="unknown format 'obj'"):
        mdlcheck.convert_bytes(WALK.read_bytes(), "obj")
    with pytest.raises(ValueError, match="unknown setting 'acept_loss'"):
        mdlcheck.convert(WALK, tmp_path / "o.iqe", acept_loss="MDL-CNV-002")
    with pytest.raises(ValueError, match="unknown setting 'accept_loss'"):
        mdlcheck.validate(WALK, accept_loss="MDL-CNV-002")  # a conversion's setting only
    assert not list(tmp_path.iterdir())
    # OUT a folder: MDL-IO-004 in the report, not an exception
    (tmp_path / "d.iqe").mkdir()
    entry = mdlcheck.convert(WALK, tmp_path / "d.iqe")["files"][1]
    assert "MDL-IO-004" in rule_ids(entry) and entry["verdict"] == "invalid"


def misaligned_iqm():
    """anim.iqm with its comment at offset 1633 (IQM-SEC-002, as shipped Red Eclipse animations)."""
    data = bytearray((SRC / "corpus" / "iqm" / "base" / "anim.iqm").read_bytes())
    data[112:116] = (1633).to_bytes(4, "little")
    data[108:112] = (27).to_bytes(4, "little")
    return bytes(data)


def cli_fix(cwd, *args):
    run = subprocess.run([os.path.abspath(CLI), "fix", "-f", "json", *args], cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    assert run.returncode in (0, 1, 3), run.stderr.decode()
    return run


def test_fix_same_as_the_cli(tmp_path, monkeypatch):
    """fix() and fix_bytes() give the report `mdlcheck fix -f json` prints and the bytes it
    writes; the repaired file validates; dry_run writes nothing; in place replaces src."""
    monkeypatch.chdir(tmp_path)
    source = misaligned_iqm()
    (tmp_path / "in.iqm").write_bytes(source)
    run = cli_fix(tmp_path, "in.iqm", "out.iqm")
    assert run.returncode == 0
    written = (tmp_path / "out.iqm").read_bytes()
    (tmp_path / "out.iqm").unlink()
    report = mdlcheck.fix("in.iqm", "out.iqm")
    assert report == json.loads(run.stdout)
    assert [m["id"] for m in report["files"][0]["messages"]] == ["IQM-SEC-002", "MDL-FIX-003"]
    assert (tmp_path / "out.iqm").read_bytes() == written
    assert mdlcheck.validate(str(tmp_path / "out.iqm"))["verdict"] == "valid"
    (tmp_path / "out.iqm").unlink()
    assert mdlcheck.fix("in.iqm", "out.iqm", dry_run=True) == report
    assert not (tmp_path / "out.iqm").exists()
    rep, data = mdlcheck.fix_bytes(source, name="in.iqm")
    assert data == written
    assert [m["id"] for m in rep["files"][0]["messages"]] == ["IQM-SEC-002", "MDL-FIX-003"]
    assert sorted(os.listdir(tmp_path)) == ["in.iqm"]
    mdlcheck.fix("in.iqm")  # in place
    assert (tmp_path / "in.iqm").read_bytes() == written


def test_fix_refuses_and_rejects(tmp_path):
    """An error fix does not repair is MDL-FIX-001 and nothing written; a clean file is nothing
    to fix (its own bytes back); a conversion's settings are refused."""
    broken = SRC / "examples" / "broken-parent.iqm"
    out = tmp_path / "out.iqm"
    report = mdlcheck.fix(broken, out)
    assert "MDL-FIX-001" in {m["id"] for m in report["files"][1]["messages"]}
    assert not out.exists()
    rep, data = mdlcheck.fix_bytes(broken.read_bytes(), name="b.iqm")
    assert data is None
    clean = WALK.read_bytes()
    rep, data = mdlcheck.fix_bytes(clean, name="walk.iqm")
    assert data == clean and [f["verdict"] for f in rep["files"]] == ["valid", "valid"]
    with pytest.raises(ValueError, match="target_version"):
        mdlcheck.fix(broken, out, target_version="1")
    with pytest.raises(ValueError):
        mdlcheck.fix_bytes(clean, name="walk.iqm", dry_run="perhaps")


def test_rules_say_what_fix_repairs():
    by_id = {r["id"]: r for r in mdlcheck.rules()}
    assert by_id["IQM-SEC-002"]["repair"]
    assert by_id["IQM-JNT-002"]["repair"] == ""
