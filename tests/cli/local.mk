# tests/cli: shell tests of the mdlcheck command (exit codes, rule listing, output control,
# policy options, the configuration file, JSON and SARIF against their schemas).
CLI_TESTS = \
  tests/cli/exit-codes.sh \
  tests/cli/list-rules.sh \
  tests/cli/output-control.sh \
  tests/cli/policy.sh \
  tests/cli/config.sh \
  tests/cli/schemas.sh \
  tests/cli/batch.sh \
  tests/cli/batch-overlap.sh \
  tests/cli/cache.sh \
  tests/cli/cache-index.sh \
  tests/cli/archive.sh \
  tests/cli/archive-resources.sh \
  tests/cli/zip-dlopen.sh \
  tests/cli/egg-over-4g.sh \
  tests/cli/explain.sh \
  tests/cli/config-schema.sh \
  tests/cli/shard.sh \
  tests/cli/config-find.sh \
  tests/cli/subcommand-formats.sh \
  tests/cli/options-doc.sh \
  tests/cli/completion.sh \
  tests/cli/sarif-fingerprints.sh \
  tests/cli/bulk-checks.sh \
  tests/cli/resources.sh \
  tests/cli/convert-output.sh tests/cli/convert-text.sh tests/cli/convert-many-refs.sh tests/cli/fix.sh tests/cli/fix-padding.sh \
  tests/cli/report-text.sh \
  tests/cli/targets.sh tests/cli/settings-faces.sh tests/cli/max-memory.sh tests/cli/max-memory-commands.sh \
  tests/cli/readme-sample.sh
TESTS += $(CLI_TESTS)
EXTRA_DIST += $(CLI_TESTS) tests/cli/cli-lib.sh tests/cli/check_reports.py tests/cli/gen_cells.py \
  spec/sarif-subset.schema.json
