# Tests: each concern has its own fragment.
include tests/unit/local.mk
include tests/cli/local.mk
include tests/spec/local.mk
include tests/conformance/local.mk
include tests/samples/local.mk
include tests/bench/local.mk
include tests/roundtrip/local.mk
include tests/fuzz/local.mk
include tests/regress/local.mk
include tests/install/local.mk
include tests/python/local.mk
include tests/trust/local.mk
include tests/convert/local.mk
include tests/oom/local.mk
include tests/security/local.mk
include tests/loaders/local.mk
include tests/threads/local.mk
