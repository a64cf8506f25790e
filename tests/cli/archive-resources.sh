#!/bin/sh
# --resources on models inside an archive: references resolve among the archive's members by the
# rules that hold on disk (the model's folder first, then the --resources folders, here folders of
# the archive; exact letter case before any other; a reference climbing out of the roots or out
# of the archive is outside; an external egg needs a model extension; content is checked); the
# diagnostics equal those of the same tree unpacked on disk; -j 2 gives the same report; the
# cache does not answer for a run with --resources.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

mkdir -p "$work/disk"
"$PYTHON" - "$work" <<'PY' || exit 99
import os, sys, zipfile
w = sys.argv[1]
def png(wd, ht):
    return (b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR' + wd.to_bytes(4, 'big') + ht.to_bytes(4, 'big')
            + b'\x08\x06\x00\x00\x00' + b'\x00' * 4)
members = {
    'models/m.egg': b'''<CoordinateSystem> { Z-up }
<Texture> t1 { "../maps/a.png" }
<Texture> t2 { "maps/none.png" }
<Texture> t3 { "../Maps/B.PNG" }
<Texture> t4 { "../../../etc/passwd.png" }
<Texture> t5 { "skin.png" }
<Texture> t6 { "../maps/bad.png" }
<Texture> t7 { "/abs.png" }
<File> { "part" }
<File> { "../maps/notes.txt" }
''',
    'models/part.egg': b'<CoordinateSystem> { Z-up }\n<Texture> t1 { "skin.png" }\n',
    'models/skin.png': png(32, 32),
    'maps/a.png': png(64, 64),
    'maps/b.png': png(16, 8),
    'maps/bad.png': b'not an image',
    'maps/notes.txt': b'notes',
}
with zipfile.ZipFile(w + '/pack.pk3', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('maps/', b'')
    for name, data in members.items():
        z.writestr(name, data)
for name, data in members.items():
    os.makedirs(os.path.dirname(w + '/disk/' + name), exist_ok=True)
    open(w + '/disk/' + name, 'wb').write(data)
PY

# without --resources: nothing outside the model is looked at, inside an archive as on disk
run --no-config "$work/pack.pk3"
expect_rc 0 "no --resources"
expect_no_grep out 'MDL-RES'

# the model's folder alone: ../maps leaves it
run --no-config --resources "$work/pack.pk3"
expect_rc 1 "--resources with the model's folder alone"
expect_grep out "pack\.pk3:models/m\.egg:2:16: warning\[MDL-RES-004\]: '\.\./maps/a\.png' leaves the search roots .*pack\.pk3:models"
expect_grep out "pack\.pk3:models/part\.egg: valid egg"

# the archive's root as a search folder: every kind of answer
run --no-config --resources=. -f json "$work/pack.pk3"
expect_rc 1 "--resources=. inside the archive"
cp "$work/out" "$work/pack.json"
"$PYTHON" - "$work/pack.json" <<'PY' || fail "the resources of a member in the JSON report"
import json, sys
files = json.load(open(sys.argv[1]))['files']
paths = [f['path'].split(':', 1)[1] for f in files]
assert paths == ['models/m.egg', 'models/part.egg'], paths  # part.egg once, as a member
m = files[0]
r = {x['ref']: x for x in m['resources']}
a = r['../maps/a.png']
assert (a['status'], a['image'], a['width'], a['height']) == ('found', 'png', 64, 64), a
assert a['resolved_path'].endswith('pack.pk3:maps/a.png'), a
assert r['maps/none.png']['status'] == 'missing', r
b = r['../Maps/B.PNG']
assert b['status'] == 'case-mismatch' and b['resolved_path'].endswith('pack.pk3:maps/b.png'), b
assert b['width'] == 16, b
assert r['../../../etc/passwd.png']['status'] == 'outside', r
assert r['/abs.png']['status'] == 'outside', r
assert r['skin.png']['status'] == 'found' and r['skin.png']['width'] == 32, r
assert r['../maps/bad.png']['status'] == 'unreadable', r
assert r['part']['kind'] == 'model' and r['part']['status'] == 'found', r
assert r['part']['resolved_path'].endswith('pack.pk3:models/part.egg'), r
assert r['../maps/notes.txt']['status'] == 'unreadable', r  # no model extension: not opened
p = {x['ref']: x for x in files[1]['resources']}
assert p['skin.png']['status'] == 'found', p
PY

# the same diagnostics (rule, line, column) as the tree unpacked on disk with --resources=ITS ROOT
ids() {
  "$PYTHON" - "$1" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))['files']:
    name = f['path'].replace(':', '/').split('/')[-1]
    for d in f['messages']:
        print(name, d['id'], d['severity'], d.get('line'), d.get('column'))
PY
}
ids "$work/pack.json" >"$work/pack.ids"
mdl_abs=$(cd "$(dirname "$MDLCHECK")" && pwd)/$(basename "$MDLCHECK")
(cd "$work/disk" && "$mdl_abs" --no-config --resources=. -f json models/m.egg models/part.egg >"$work/disk.json" 2>/dev/null)
ids "$work/disk.json" >"$work/disk.ids"
grep -q 'MDL-RES-001' "$work/disk.ids" || fail "the tree on disk gave no MDL-RES-001 to compare"
cmp -s "$work/pack.ids" "$work/disk.ids" || { fail "inside the archive and on disk differ"; diff "$work/pack.ids" "$work/disk.ids" >&2; }

# text report, -j 2, the cache
run --no-config --resources=. "$work/pack.pk3"
cp "$work/out" "$work/j1.txt"
expect_grep out "pack\.pk3:models/m\.egg:3:16: error\[MDL-RES-001\]"
expect_grep out "pack\.pk3:models/m\.egg:4:16: warning\[MDL-RES-003\].*pack\.pk3:maps/b\.png"
run --no-config --resources=. -j 2 "$work/pack.pk3"
cmp -s "$work/out" "$work/j1.txt" || fail "-j 2 differs from -j 1"
run --no-config --resources=. --cache "$work/cache" "$work/pack.pk3"
cmp -s "$work/out" "$work/j1.txt" || fail "a cold cache run differs"
"$PYTHON" - "$work/pack.pk3" <<'PY' || exit 99
import sys, zipfile
# the texture goes missing; the model's own bytes stay the same
src = sys.argv[1]
old = zipfile.ZipFile(src).infolist()
data = {i.filename: zipfile.ZipFile(src).read(i.filename) for i in old}
with zipfile.ZipFile(src, 'w', zipfile.ZIP_DEFLATED) as z:
    for n, d in data.items():
        if n != 'maps/a.png':
            z.writestr(n, d)
PY
run --no-config --resources=. --cache "$work/cache" "$work/pack.pk3"
expect_grep out "pack\.pk3:models/m\.egg:2:16: error\[MDL-RES-001\]" "a texture removed from the archive is missing (no cached verdict)"

[ "$failures" -eq 0 ]
