#!/bin/sh
# alloc-fail.sh - fail each allocation in turn (mdlcheck_oom, tests/oom/alloc_fail.c) over one
# small file per format and per subcommand. Every run must end in a fatal MDL-MEM-001 (or, where
# the --max-memory bound refused a charge first, MDL-MEM-002) or a clear
# "out of memory" error with a non-zero exit: no verdict of valid, no crash, no sanitizer report.
#
# A scenario's allocations are counted in a normal run first; each is then failed once. Above
# ALLOC_FAIL_ALL (default 200) allocations the choice is deterministic and covers every part of
# the run: each of the first ALLOC_FAIL_ALL/2 (start-up, decode), each of the last ALLOC_FAIL_ALL/4
# (report, output, clean-up) and ALLOC_FAIL_ALL/4 in between at an even stride (the middle), so
# one large scenario cannot make the suite slow. ALLOC_FAIL_ALL=0 fails every allocation. The
# count of runs per scenario is printed.
set -u
: "${srcdir:=.}"
: "${top_builddir:=.}"
: "${ALLOC_FAIL_ALL:=200}"
OOM=${MDLCHECK_OOM:-$top_builddir/tests/oom/mdlcheck_oom}
[ -x "$OOM" ] || { echo "no $OOM" >&2; exit 99; }
case $OOM in /*) ;; *) OOM=$(pwd)/$OOM ;; esac
ex=$(cd "$srcdir/examples" && pwd) || exit 99

work=$(mktemp -d "${TMPDIR:-/tmp}/mdl-oom.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
for f in skinned.iqe broken.iqe dancer.egg broken.egg walk.iqm crate.qmsh walker.x42; do
  cp "$ex/$f" . || exit 99
done
/usr/bin/python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(open("dancer.egg", "rb").read()))' \
  >dancer.egg.pz || exit 99
printf 'ignore: [IQE-NUM-004]\nmax-per-rule: 2\n' >config.yaml
# --resources: a texture found in a search root (an 8-bit RGBA PNG header: stb_image reads no
# further), an external egg naming its model back (validated once as an input), a file nothing names
mkdir -p res/models res/maps || exit 99
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\100\000\000\000\100\010\006\000\000\000\000\000\000\000' \
  >res/maps/a.png || exit 99
cp res/maps/a.png res/maps/unused.png || exit 99
printf '<CoordinateSystem> { Z-up }\n<Texture> t1 { "../maps/a.png" }\n<File> { "part" }\n' >res/models/m.egg
printf '<CoordinateSystem> { Z-up }\n<File> { "m.egg" }\n' >res/models/part.egg
# a skeleton with animations named and unnamed (the IQM writer's string table grows while it is
# filled), small enough for every allocation of its conversion to be failed
cat >anims.iqe <<'EOF'
# Inter-Quake Export
joint a -1
pq 0 0 0 0 0 0 1
animation
frame
pq 0 0 0 0 0 0 1
animation animation0
frame 0
pq 0 0 0 0 0 0 1
animation
animation run
framerate 30
loop
frame
pq 0 0 0 0 0 0 1
frame 7
pq 1 0 0 0 0 0 1
animation run
frame
pq 0 0 0 0 0 0 1
animation ""
animation ""
frame
pq 0 0 0 0 0 0 1
animation animation8
animation
frame
pq 0 0 0 0 0 0 1
EOF
# a skeleton without animations (poses walk its joints from their lines)
printf '# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1\njoint child 0\npq 0 1 0 0 0 0 1\n' >still.iqe
# an IQE material naming a texture in a search root (an unreadable one is only a warning there,
# so a failed read of the texture's first bytes must not pass as a clean run)
printf '# Inter-Quake Export\nmesh a\nmaterial a.png\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nfm 0 1 2\n' >mat.iqe
# the Egg tree's side tables (review of issue 26's 16-byte entries): pool vertices without a name
# (their number in the value slot), a sparse pool, a closing brace 2,300 lines away (the far
# closes), a 2 MB line (line checkpoints); a <Comment> and a <Tag> (their values counted, not kept); a
# sparse pool with a repeated number and an empty one that no reference names (their numbers not kept);
# a vertex of repeated equal normals and colours (those between the first and the last let go)
awk 'BEGIN {
  print "<CoordinateSystem> { Z-up }\n<Comment> { a \"b\" 1 }\n<Texture> t { a.png }\n<VertexPool> p {"
  for (i = 0; i < 300; i++) print "<Vertex> { 0 0 0 }"
  print "<Vertex> 0 { 0 0 0 }\n<Vertex> 50000 { 0 0 0 }\n<Vertex> 200000 { 0 0 0 }\n<Vertex> 3 {0 0 0}\n}\n<Group> g {"
  for (i = 0; i < 2300; i++) print ""
  print "}\n<Polygon> { <VertexRef> { 1 2 3 999999 <Ref> { p } } }"
  s = "                "; while (length(s) < 1300000) s = s s; print s
  print "<VertexPool> u { <Vertex> 9 { 0 0 0 } <Vertex> 99999 { 0 0 0 } <Vertex> 9 { 0 0 0 } }\n<VertexPool> e { }"
  print "<VertexPool> n { <Vertex> { 0 0 0 <Normal> { 0 0 0 } <Normal> { 0 0 0 } <Normal> { 0 0 0 } <RGBA> { 1 1 1 1 } <RGBA> { 1 1 1 1 } <RGBA> { 1 1 1 1 } } }"
  print "<Texture> t { b.png }\n<Group> x { <Ref> { g } <Tag> k { v 2 } }" }' >sides.egg || exit 99
# joints (issue 26 item 8: validation alone counts them and builds none; --target and poses
# build them): named, unnamed, nested, a repeated name, transforms, memberships, a table. The
# first membership names an undefined vertex far past the pool (an error), so the membership
# sums go to the check's map at once: a failure of the arrays it otherwise fills first is no
# failure of the check (it replays the sums in the map, whose failures are reported)
awk 'BEGIN {
  print "<CoordinateSystem> { Z-up }\n<VertexPool> p { <Vertex> 0 { 0 0 0 } <Vertex> 1 { 1 0 0 } <Vertex> 2 { 0 1 0 } }"
  print "<Group> root { <Dart> { 1 }\n<Polygon> { <VertexRef> { 0 1 2 <Ref> { p } } }"
  print "<Joint> far { <VertexRef> { 2000000 <Ref> { p } } }"
  for (i = 0; i < 40; i++)
    printf "<Joint> j%d { <Transform> { <Translate> { %d 0 0 } } <VertexRef> { %d <Scalar> membership { 0.5 } <Ref> { p } } <Joint> { <Joint> k%d { <Transform> { <Matrix4> { 1 0 0 0 0 1 0 0 0 0 1 0 0 2 0 1 } } } } }\n", i, i, i % 3, i
  print "<Joint> j0 { }\n}"
  print "<Table> { <Bundle> root { <Table> \"<skeleton>\" { <Table> j1 { <Xfm$Anim> xform { <Scalar> contents { xyz } <V> { 0 0 0 1 1 1 } } <Table> k1 { } } } } }" }' \
  >joints.egg || exit 99
# memberships whose sums are off, all within the first pass's arrays: the replay's table names
# each key by the value that created it and the arrays keep the sums (egg_members.c); its slots
# grow several times
awk 'BEGIN { print "<CoordinateSystem> { Z-up }\n<VertexPool> p { <Vertex> 0 { 0 0 0 } }\n<Group> root { <Dart> { 1 }"
  printf "<Joint> a { <VertexRef> {"; for (i = 0; i < 300; i++) printf " %d", i; print " <Scalar> membership { 0.5 } <Ref> { p } } }"
  printf "<Joint> b { <VertexRef> {"; for (i = 0; i < 300; i += 2) printf " %d", i; print " <Scalar> membership { 0.5 } <Ref> { p } } }\n}" }' \
  >members.egg || exit 99
# an animation file whose nested <skeleton> tables stand in for joints (poses numbers them)
printf '<Table> { <Bundle> b { <Table> "<skeleton>" { <Table> a { <Table> b { <Xfm$Anim> xform { <Scalar> fps { 24 } <Scalar> contents { xyz } <V> { 0 0 0 1 1 1 } } } <Table> c { } } <Table> d { } } } }\n' \
  >tables.egg || exit 99
# animation runs of decimal codes holding a few escaped doubles (nums grows as they are moved):
# one long run moved as read (past the value stack's first 1024) and a short one closed at once
awk 'BEGIN { print "<Group> b { <Dart> { 1 } <Joint> j { } }"
  printf "<Table> { <Bundle> b { <Table> \"<skeleton>\" { <Table> j { <Xfm$Anim_S$> xform { <Scalar> fps { 24 } <S$Anim> x { <V> {"
  for (i = 0; i < 3000; i++) printf (i % 100 == 7 ? " 0.123456789123" : " .1")
  printf " } } <S$Anim> y { <V> {"; for (i = 0; i < 3000; i++) printf (i % 5 ? " .3" : " 1e-30"); print " } } } } } } }" }' \
  >escapes.egg || exit 99
"$OOM" -f json broken.iqe >old.json 2>/dev/null
"$OOM" -f json --ignore=IQE-VTX-001 broken.iqe >new.json 2>/dev/null
[ -s old.json ] && [ -s new.json ] || { echo "cannot write the diff inputs" >&2; exit 99; }

failures=0
total_runs=0

# scenario NAME NORMAL_EXIT ARGS...: the normal run exits NORMAL_EXIT; failing any allocation
# must end in a non-zero exit with an out-of-memory message and nothing else going wrong.
scenario()
{
  name=$1 normal=$2
  shift 2
  rc=0
  MDL_ALLOC_COUNT=1 "$OOM" "$@" >out 2>err || rc=$?
  if [ "$rc" -ne "$normal" ]; then
    echo "FAIL: $name: the normal run exits $rc, expected $normal" >&2
    sed 's/^/  /' out err >&2
    failures=$((failures + 1))
    return
  fi
  count=$(sed -n 's/^alloc_fail: \([0-9]*\) allocations$/\1/p' err)
  if [ -z "$count" ] || [ "$count" -eq 0 ]; then
    echo "FAIL: $name: no allocation was counted (is mdlcheck_oom linked with --wrap?)" >&2
    failures=$((failures + 1))
    return
  fi
  # every allocation up to head, then every stride-th up to tail, then every one to the end
  head=$count tail=$count stride=1
  if [ "$ALLOC_FAIL_ALL" -gt 0 ] && [ "$count" -gt "$ALLOC_FAIL_ALL" ]; then
    head=$((ALLOC_FAIL_ALL / 2))
    tail=$((count - ALLOC_FAIL_ALL / 4))
    stride=$(( (tail - head) / (ALLOC_FAIL_ALL / 4) + 1 ))
  fi
  n=1 runs=0 bad=0
  while [ "$n" -le "$count" ]; do
    rc=0
    MDL_ALLOC_FAIL=$n "$OOM" "$@" >out 2>err || rc=$?
    runs=$((runs + 1))
    why=
    if [ "$rc" -eq 0 ]; then
      why="exit 0"
    elif [ "$rc" -ge 128 ]; then
      why="killed by signal $((rc - 128))"
    elif grep -Eq 'Sanitizer|runtime error:' err; then
      why="sanitizer report"
    elif ! grep -Eq 'MDL-MEM-00[12]|out of memory|Cannot allocate memory' out err; then
      why="exit $rc without an out-of-memory diagnostic"
    fi
    if [ -n "$why" ]; then
      bad=$((bad + 1))
      if [ "$bad" -le 3 ]; then
        echo "FAIL: $name: allocation $n of $count failed: $why" >&2
        head -n 5 out err | sed 's/^/  /' >&2
      fi
    fi
    if [ "$n" -lt "$head" ] || [ "$n" -ge "$tail" ]; then
      n=$((n + 1))
    else
      n=$((n + stride))
      [ "$n" -le "$tail" ] || n=$tail
    fi
  done
  total_runs=$((total_runs + runs))
  echo "$name: $count allocations, $runs runs$([ "$stride" -gt 1 ] && echo " (1-$head, then stride $stride to $tail, $tail-$count)"), $bad failed"
  [ "$bad" -eq 0 ] || failures=$((failures + 1))
}

scenario "validate iqe" 0 skinned.iqe
scenario "validate iqe (diagnostics, json)" 1 -f json broken.iqe
scenario "validate egg" 0 dancer.egg
scenario "validate egg (diagnostics, sarif)" 1 -f sarif broken.egg
scenario "validate egg.pz" 0 dancer.egg.pz
scenario "validate egg (tree side tables)" 1 sides.egg
scenario "validate egg (joints)" 1 joints.egg
scenario "validate egg (membership sums)" 1 --max-per-rule=0 members.egg
scenario "validate egg (joints, --target)" 1 --target=panda3d -f json joints.egg
# --max-memory: a bound the decode passes (exit 3, MDL-MEM-002) and one it stays within, each
# with every allocation failed in turn: an allocation failure is never said as the bound, and
# neither ends in a verdict
scenario "validate egg past --max-memory (json)" 3 --max-memory=1K -f json dancer.egg
scenario "validate iqe past --max-memory (cache)" 3 --max-memory=1K --cache=cache skinned.iqe
scenario "validate egg.pz within --max-memory" 0 --max-memory=64M dancer.egg.pz
scenario "validate iqm" 0 walk.iqm
scenario "validate qmsh" 0 crate.qmsh
scenario "validate x42" 0 walker.x42
# an archive's member (read through libzip into memory, then validated as a buffer): out of
# memory there listed the member as valid with nothing checked, exit 70 and no word (review C)
/usr/bin/python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); z.write(sys.argv[2], "models/m.egg"); z.close()' \
  pack.pk3 broken.egg
scenario "validate an archive member" 1 pack.pk3
scenario "validate batch, config, summary" 1 --config=config.yaml -j 1 skinned.iqe broken.iqe walk.iqm
scenario "validate --baseline" 0 --baseline=old.json broken.iqe
scenario "validate --shard" 0 --shard=1/2 walk.iqm crate.qmsh walker.x42
scenario "validate --resources (texture, external egg)" 0 --resources=res res/models/m.egg
scenario "validate --resources --unreferenced" 0 --resources=res --unreferenced res
scenario "validate --resources (iqe material texture)" 0 --resources=res/maps mat.iqe
scenario "poses iqm" 0 poses walk.iqm
scenario "poses iqe" 0 poses skinned.iqe
# joints, names, animations and frames computed as they are printed (model.joint_walk,
# joint_name, anim_get, frame_get): a read whose allocation fails is the out-of-memory exit, in
# text and in JSON
scenario "poses iqe (json)" 0 poses -f json skinned.iqe
scenario "poses iqe (no animations)" 0 poses still.iqe
scenario "poses iqe (no animations, json)" 0 poses -f json still.iqe
scenario "poses iqe (animations)" 0 poses anims.iqe
scenario "poses iqe (animations, json)" 0 poses -f json anims.iqe
scenario "poses egg" 0 poses dancer.egg
scenario "poses egg (joints)" 1 poses -f json joints.egg
scenario "poses egg (escaped decimals)" 0 poses escapes.egg
scenario "poses egg (tables for joints)" 0 poses tables.egg
scenario "poses qmsh" 0 poses crate.qmsh
scenario "poses x42" 0 poses walker.x42
scenario "convert iqm -> iqe" 0 convert walk.iqm out.iqe
scenario "convert iqe -> iqm" 0 convert skinned.iqe out.iqm
scenario "convert iqe (animations) -> iqm" 0 convert anims.iqe out4.iqm
scenario "convert qmsh -> iqm" 0 convert --accept-loss=MDL-CNV-008,MDL-CNV-009 crate.qmsh out2.iqm
scenario "convert qmsh -> qmsh" 0 convert crate.qmsh out.qmsh
scenario "convert egg -> egg.pz" 0 convert dancer.egg out.egg.pz
scenario "convert iqe -> x42" 0 convert skinned.iqe out.x42
# X42 vertices without a blend weight are bound to their first joint in IQM, a loss the writer
# announces (MDL-CNV-006): accepting it keeps the normal run at exit 0
scenario "convert x42 -> iqm" 0 convert --accept-loss=MDL-CNV-006,MDL-CNV-009,MDL-CNV-011 walker.x42 out3.iqm
scenario "compare iqm" 0 compare walk.iqm walk.iqm
scenario "compare iqe" 0 compare skinned.iqe skinned.iqe
scenario "compare egg, egg.pz" 0 compare dancer.egg dancer.egg.pz
scenario "compare x42, qmsh (json)" 1 compare -f json walker.x42 crate.qmsh
# --max-memory on the other commands: stopped at the bound (exit 3, MDL-MEM-002) in the source's
# decode, in the proof's (dancer.egg's source decode fits in 160K, with the proof's it does not)
scenario "poses egg past --max-memory" 3 poses --max-memory=1K dancer.egg
scenario "convert egg past --max-memory (source)" 3 convert --max-memory=1K dancer.egg out5.iqe
scenario "convert egg -> egg past --max-memory (proof)" 3 convert --max-memory=160K dancer.egg out6.egg
scenario "fix egg past --max-memory" 3 fix --dry-run --max-memory=1K dancer.egg
scenario "compare iqe past --max-memory" 3 compare --max-memory=1K skinned.iqe skinned.iqe
scenario "diff" 0 diff old.json new.json
scenario "rules" 0 rules
scenario "rules json" 0 rules --format=json

echo "alloc-fail: $total_runs runs"
[ "$failures" -eq 0 ]
