#!/bin/sh
# simd.sh - the module's SIMD paths (WebAssembly SIMD through emscripten's SSE2 intrinsics, web/
# local.mk WEB_SIMD) against their portable loops: the native fast tests (x42, iqm, iqe), built
# for node with the module's compile options (web/build/*_fast_test.cjs, which make check builds
# when configure found emcc). Skips without them or node, except in CI.
b=${top_builddir:-.}
missing=
for t in x42 iqm iqe; do
  [ -f "$b/web/build/${t}_fast_test.cjs" ] || missing="$missing ${t}_fast_test.cjs"
done
if [ -n "$missing" ] || ! command -v node >/dev/null; then
  if [ -n "$CI" ]; then
    echo "simd.sh: web/build lacks$missing or node is missing, and CI must test it" >&2
    exit 1
  fi
  echo "SKIP: web/build/*_fast_test.cjs not built (needs emscripten and node: ./configure, make web)"
  exit 77
fi
rc=0
for t in x42 iqm iqe; do
  echo "== ${t}_fast_test (WebAssembly)"
  node "$b/web/build/${t}_fast_test.cjs" || rc=1
done
exit $rc
