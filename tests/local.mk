# Tests: each concern has its own fragment.
include tests/unit/local.mk
include tests/cli/local.mk
include tests/conformance/local.mk
include tests/bench/local.mk
