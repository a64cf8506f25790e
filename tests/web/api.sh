#!/bin/sh
# api.sh - the WebAssembly module's JS API (web/test, node's test runner) against the native CLI.
# make check builds web/dist when configure found emcc and node; without them this skips, except
# in CI, which must test it.
b=${top_builddir:-.}
dist=$b/web/dist
if [ ! -f "$dist/mdlcheck.mjs" ] || [ ! -f "$dist/mdlcheck.single.js" ] || ! command -v node >/dev/null; then
  if [ -n "$CI" ]; then
    echo "api.sh: web/dist is not built or node is missing, and CI must test it" >&2
    exit 1
  fi
  echo "SKIP: web/dist not built (needs emscripten and node: apt-get install -y emscripten nodejs, ./configure, make web)"
  exit 77
fi
MDLCHECK_SRCDIR=$(cd "${top_srcdir:-.}" && pwd) MDLCHECK_WEB_DIST=$(cd "$dist" && pwd) \
  MDLCHECK=$(cd "$b/validator" && pwd)/mdlcheck MDLCHECK_CASE_RUN=$(cd "$b/tests/conformance" && pwd)/case_run exec node --test "${top_srcdir:-.}/web/test/"
