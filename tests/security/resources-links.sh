#!/bin/sh
# Issue 26 item 11: --resources must not reveal what lies outside its roots through links
# committed in the tree. Containment is decided before any lookup outside: a reference through a
# link that leads out is "outside" whether or not the file exists there, whether or not the
# link's target exists, and the case-insensitive pass never lists a folder outside (the exact
# letter case of an outside path never shows).
. "$srcdir/tests/cli/cli-lib.sh"

t=$work/tree
o=$work/outside
mkdir -p "$t/maps" "$o/Secret"
png() { printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\4\0\0\0\4\10\6\0\0\0\0\0\0\0' >"$1"; }
png "$o/present.png"
png "$o/Secret/Key.png"
png "$t/maps/in.png"
ln -s "$o" "$t/live"             # a link to a folder outside that exists
ln -s "$work/nowhere" "$t/dead"  # one whose target does not exist
ln -s ../.. "$t/maps/up"         # a relative one climbing out
ln -s in.png "$t/maps/alias.png" # one that stays inside: followed
cat >"$t/m.egg" <<'EGG'
<CoordinateSystem> { Z-up }
<Texture> a { "live/present.png" }
<Texture> b { "live/absent.png" }
<Texture> c { "dead/present.png" }
<Texture> d { "live/secret/key.png" }
<Texture> e { "maps/up/outside/present.png" }
<Texture> f { "maps/up/outside/absent.png" }
<Texture> g { "maps/alias.png" }
<Texture> h { "MAPS/In.png" }
EGG
run -f json --max-per-rule=0 --resources "$t/m.egg"
"$PYTHON" - "$work/out" "$t" <<'PY' || fail "--resources tells what lies outside"
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
res = {r["ref"]: r for r in f["resources"]}
msgs = {}
for m in f["messages"]:
    for ref in res:
        if "'%s'" % ref in m["message"]:
            msgs[ref] = (m["id"], m["message"].replace(ref, "REF"))
bad = []
for ref in ("live/present.png", "live/absent.png", "dead/present.png", "live/secret/key.png",
            "maps/up/outside/present.png", "maps/up/outside/absent.png"):
    if res[ref]["status"] != "outside" or res[ref]["resolved_path"] is not None:
        bad.append("%s: %s %s" % (ref, res[ref]["status"], res[ref]["resolved_path"]))
    if msgs.get(ref, ("",))[0] != "MDL-RES-004":
        bad.append("%s: %s" % (ref, msgs.get(ref)))
# nothing but the ref tells the present file from the absent one
if msgs["live/present.png"] != msgs["live/absent.png"]:
    bad.append("present vs absent: %s / %s" % (msgs["live/present.png"], msgs["live/absent.png"]))
if msgs["maps/up/outside/present.png"] != msgs["maps/up/outside/absent.png"]:
    bad.append("present vs absent through ../..")
if msgs["live/present.png"][1].replace("live", "X") != msgs["dead/present.png"][1].replace("dead", "X"):
    bad.append("a link whose target exists vs one whose target does not")
if "Secret" in json.dumps(f) or "Key.png" in json.dumps(f):
    bad.append("the letter case of an outside folder shows")
if res["maps/alias.png"]["status"] != "found":
    bad.append("a link inside is not followed: %s" % res["maps/alias.png"])
if res["MAPS/In.png"]["status"] != "case-mismatch" or not res["MAPS/In.png"]["resolved_path"].endswith("maps/in.png"):
    bad.append("the case pass inside: %s" % res["MAPS/In.png"])
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
finish
