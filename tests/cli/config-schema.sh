#!/bin/sh
# spec/config.schema.json describes the configuration file mdlcheck reads: files the tool accepts
# are valid under the schema, files it rejects (exit 2, MDL-CFG-001..003) are not.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

if ! "$PYTHON" -c 'import jsonschema, yaml' 2>/dev/null; then
  echo "SKIP: $PYTHON with the jsonschema and yaml modules is needed"
  exit 77
fi
make_empty "$work/empty.bin"
n=0
# check ok|bad YAML: the tool accepts the file (any exit but 2) or rejects it (2), and the schema
# agrees
check()
{
  n=$((n + 1))
  printf '%s\n' "$2" >"$work/c$n.yaml"
  run --config="$work/c$n.yaml" "$work/empty.bin"
  if [ "$1" = bad ]; then expect_rc 2 "config: $2"
  elif [ "$rc" -eq 2 ]; then fail "config rejected: $2"; sed 's/^/  stdout: /' "$work/out" >&2
  fi
  "$PYTHON" - "$SCHEMA_DIR/config.schema.json" "$work/c$n.yaml" "$1" <<'PY' || fail "schema verdict differs on: $2"
import json, sys, yaml, jsonschema
schema = json.load(open(sys.argv[1]))
doc = yaml.safe_load(open(sys.argv[2]))
ok = jsonschema.Draft202012Validator(schema).is_valid(doc)
sys.exit(0 if ok == (sys.argv[3] == "ok") else 1)
PY
}
check ok 'ignore: [IQM-ADJ-002, IQM-VA-*, egg]'
check ok 'only: [MDL-FMT-001]
severity: {MDL-FMT-001: warning}
max-issues: 200
max-per-rule: 0
fail-on: error
profile: engine
strict: false'
check ok '---'
check bad 'ignored: [IQM-ADJ-002]'
check ok 'max-memory: 4G'
check ok 'max-memory: auto'
check ok 'max-memory: none'
check ok 'max-memory: 4194304'
check bad 'max-memory: 0'
check bad 'max-memory: 4X'
check bad 'ignore: IQM-ADJ-002'
check bad 'severity: {MDL-FMT-001: loud}'
check bad 'max-issues: -1'
check bad 'fail-on: never'
check bad 'profile: "two words"'
check bad 'strict: maybe'
check bad 'severity: [MDL-FMT-001]'
finish
