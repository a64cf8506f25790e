# tests/conformance
