#!/bin/sh
# Issue 26 item 3: a committed configuration cannot lift the --resources sandbox. Search folders
# from a configuration file stay inside the folder holding it (absolute, '..' climbing out and a
# symbolic link leading out are refused: MDL-CFG-005, exit 2, nothing validated); folders outside
# come only from the command line. An external model is opened only when its name has a model
# extension: an XML file that parses as egg text is never validated nor quoted.
. "$srcdir/tests/cli/cli-lib.sh"

MDLCHECK=$(cd "$(dirname "$MDLCHECK")" && pwd)/$(basename "$MDLCHECK")
repo=$work/repo
mkdir -p "$repo/.git" "$repo/assets" "$work/secret"
printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\4\0\0\0\4\10\6\0\0\0\0\0\0\0' >"$work/secret/key.png"
rel=$(echo "$work/secret/key.png" | sed 's|^/||')
cat >"$repo/assets/m.egg" <<EGG
<CoordinateSystem> { Z-up }
<Texture> t { "$rel" }
EGG

# cfg_run YAML: the repository's own configuration, found from inside it
cfg_run()
{
  printf '%s\n' "$1" >"$repo/mdlcheck.yaml"
  rc=0
  (cd "$repo" && "$MDLCHECK" -f json assets/m.egg) >"$work/out" 2>"$work/err" || rc=$?
  echo "+ [$1] mdlcheck assets/m.egg -> $rc"
}

for y in 'resources: [/]' 'resources: "../../../../../../../../.."' \
         'resources: [assets, ../..]' "resources: \"assets:/\""; do
  cfg_run "$y"
  expect_rc 2 "$y lifts the sandbox"
  expect_grep err 'mdlcheck\.yaml:1:[0-9]+: error\[MDL-CFG-005\]: search folder' "$y: MDL-CFG-005"
  expect_no_grep out 'found' "$y: the outside file is reported found"
done

# a committed link that leads out, named as an inside folder
ln -s / "$repo/lib"
cfg_run 'resources: [lib]'
expect_rc 2 "a link to / as a search folder"
expect_grep err "MDL-CFG-005\]: search folder 'lib' leaves the configuration's folder: a symbolic link" "the link"
ln -s ../.. "$repo/assets/up"
cfg_run 'resources: [assets/up/secret]'
expect_rc 2 "a link climbing out through assets/up"
# ".." folds before links are followed, as the search itself reads the folder: inside
cfg_run 'resources: [assets/up/..]'
expect_rc 1 "assets/up/.. is assets"

# folders inside are fine; the command line may still name any folder
mkdir -p "$repo/assets/maps"
cfg_run 'resources: [assets/maps, "./assets/../assets"]'
expect_rc 1 "inside folders: the absolute-looking reference is still missing"
expect_grep out '"status": *"missing"' "searched inside only"
rc=0
(cd "$repo" && "$MDLCHECK" --no-config -f json --resources=/ assets/m.egg) >"$work/out" 2>"$work/err" || rc=$?
expect_rc 0 "--resources=/ from the command line is the user's choice"
expect_grep out '"status": *"found"' "the command line's root is searched"

# an external model must be named as a model: an XML file starting with '<' is not opened
rm -f "$repo/mdlcheck.yaml"
cat >"$repo/assets/ext.egg" <<'EGG'
<CoordinateSystem> { Z-up }
<Group> g { <File> { "conf.xml" } }
EGG
printf '<Group> TOKEN-FROM-THE-XML { }\n' >"$repo/assets/conf.xml"
run --no-config --resources "$repo/assets/ext.egg"
expect_rc 1 "a <File> without a model extension"
expect_grep out 'error\[MDL-RES-009\]: .*conf\.xml.*no model file extension' "reported as unusable"
expect_no_grep out 'TOKEN-FROM-THE-XML' "the XML's tokens quoted"
expect_no_grep out 'conf\.xml: (in)?valid' "the XML validated as an input"

finish
