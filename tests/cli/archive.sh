#!/bin/sh
# Models inside .zip/.pk3/.pk4/.dpk archives: each member with a model extension is validated and
# reported as ARCHIVE:MEMBER with the same diagnostics as the same bytes on disk; a member larger
# than --max-input-size stops at the limit however small its header says it is (MDL-IO-002,
# exit 3); an archive that is no zip, or a member with a bad CRC, is a fatal MDL-IO-001 (exit 3),
# never silence; an archive holding no model selects nothing (exit 2); walks open archives; -j,
# --shard and --cache give the same report.
. "$srcdir/tests/cli/cli-lib.sh"

mkdir -p "$work/disk/models" "$work/tree/sub"
cp "$srcdir/examples/walk.iqm" "$srcdir/examples/broken.iqe" "$srcdir/examples/dancer.egg" "$work/disk/models/"
"$PYTHON" - "$work" <<'PY' || exit 99
import sys, zipfile, zlib
w = sys.argv[1]
def pack(name, members, method=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(name, 'w', method) as z:
        for arc, data in members:
            z.writestr(arc, data)
models = [('models/' + n, open(w + '/disk/models/' + n, 'rb').read())
          for n in ('walk.iqm', 'broken.iqe', 'dancer.egg')]
pack(w + '/tree/pack.pk3', models + [('textures/skin.txt', b'not a model'), ('models/', b'')])
pack(w + '/tree/sub/Pak0.PK4', models[:1])
pack(w + '/bomb.zip', [('big.iqe', b'# Inter-Quake Export\n' + b' ' * (8 << 20))])
pack(w + '/nomodel.zip', [('readme.txt', b'x')])
open(w + '/notzip.dpk', 'wb').write(b'PK\x03\x04 this is no archive')
pack(w + '/crc.zip', models[:1], zipfile.ZIP_STORED)
b = bytearray(open(w + '/crc.zip', 'rb').read())
b[120] ^= 0xff  # inside the stored member's bytes: its CRC no longer matches
open(w + '/crc.zip', 'wb').write(bytes(b))
# a member whose header claims 100 bytes but which inflates to 4 MiB
big = b'# Inter-Quake Export\n' + b'#' * (4 << 20)
with zipfile.ZipFile(w + '/liar.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('liar.iqe', big)
b = bytearray(open(w + '/liar.zip', 'rb').read())
n = len(big).to_bytes(4, 'little')
i = b.rfind(n)              # central directory's uncompressed size
b[i:i + 4] = (100).to_bytes(4, 'little')
j = b.find(n)               # local header's
b[j:j + 4] = (100).to_bytes(4, 'little')
open(w + '/liar.zip', 'wb').write(bytes(b))
PY

# the same diagnostics as the files on disk, under the member's name
run --no-config -f json --max-per-rule 0 "$work/tree/pack.pk3"
expect_rc 1 "pack.pk3 holds an invalid model"
"$PYTHON" - "$work/out" <<'PY' > "$work/members.txt"
import json, sys
for f in json.load(open(sys.argv[1]))['files']:
    name = f['path'].split(':', 1)[1].split('/')[-1]
    for d in f['messages']:
        print(name, d['id'], d['severity'], d.get('line'), d.get('column'), d.get('offset'), d['message'])
PY
run --no-config -f json --max-per-rule 0 "$work/disk/models"
"$PYTHON" - "$work/out" <<'PY' > "$work/disk.txt"
import json, sys
files = json.load(open(sys.argv[1]))['files']
order = {'walk.iqm': 0, 'broken.iqe': 1, 'dancer.egg': 2}
for f in sorted(files, key=lambda f: order[f['path'].split('/')[-1]]):
    name = f['path'].split('/')[-1]
    for d in f['messages']:
        print(name, d['id'], d['severity'], d.get('line'), d.get('column'), d.get('offset'), d['message'])
PY
[ -s "$work/disk.txt" ] || fail "the files on disk gave no diagnostic to compare"
cmp -s "$work/members.txt" "$work/disk.txt" || { fail "members and files on disk differ"; diff "$work/members.txt" "$work/disk.txt" >&2; }

run --no-config "$work/tree/pack.pk3"
expect_grep out 'pack\.pk3:models/walk\.iqm: valid iqm' "a member is reported as ARCHIVE:MEMBER"
expect_grep out 'pack\.pk3:models/broken\.iqe:4:13: error\[IQE-JNT-001\]' "a member's diagnostics carry its line:column"
expect_grep out '^summary: 3 files' "three model members"

run --no-config --max-input-size=1M "$work/bomb.zip"
expect_rc 3 "a member over --max-input-size"
expect_grep out 'bomb\.zip:big\.iqe: fatal\[MDL-IO-002\]' "the size limit names the member"
run --no-config --max-input-size=1M "$work/liar.zip"
expect_rc 3 "a member whose header understates its size"
expect_grep out 'liar\.zip:liar\.iqe: fatal\[MDL-IO-00[12]\]' "a lying size header is stopped"
run --no-config "$work/notzip.dpk"
expect_rc 3 "an archive that is no zip"
expect_grep out 'notzip\.dpk: fatal\[MDL-IO-001\]: cannot read input: not a readable zip archive' "why the archive is unreadable"
run --no-config "$work/crc.zip"
expect_rc 3 "a member with a bad CRC"
expect_grep out 'crc\.zip:models/walk\.iqm: fatal\[MDL-IO-001\]' "a bad CRC is a fatal on the member"
run --no-config "$work/nomodel.zip"
expect_rc 2 "an archive without models selects nothing"
expect_grep err 'no model files under .*nomodel\.zip; 1 other file' "what the archive held is said"

# walks open archives (any letter case of the extension), -j and --cache give the same report
run --no-config -f json -j 1 "$work/tree"
cp "$work/out" "$work/serial.json"
expect_grep out '"path": ".*sub/Pak0\.PK4:models/walk\.iqm"' "a walked archive's members are selected"
run --no-config -f json -j 4 "$work/tree"
cmp -s "$work/out" "$work/serial.json" || fail "-j 4 differs from -j 1 over archives"
run --no-config -f json --cache "$work/cache" "$work/tree"
run --no-config -f json -v --cache "$work/cache" "$work/tree"
cmp -s "$work/out" "$work/serial.json" || fail "the cached report of archive members differs"
expect_grep err 'cache .*: 4 hits, 0 misses' "archive members are answered from the cache"
run --no-config -f json --shard=1/2 "$work/tree"
cp "$work/out" "$work/s1.json"
run --no-config -f json --shard=2/2 "$work/tree"
count() { "$PYTHON" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["files"]))' "$1"; }
n1=$(count "$work/s1.json"); n2=$(count "$work/out")
[ $((n1 + n2)) -eq 4 ] || fail "two shares hold $n1 + $n2 members, expected 4"
finish
