#!/bin/sh
# The drag-and-drop page in headless Chromium (page.test.mjs). Skipped (77), saying why, when
# chromium, node, the page's npm packages (npm ci --prefix web/page) or the built page (make web,
# which needs emscripten) are missing; in CI (CI set), which must test it, that fails instead.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
NODE=${NODE:-$(command -v node || command -v nodejs || true)}
skip()
{
  if [ -n "$CI" ]; then
    echo "page.sh: $1, and CI must test the page" >&2
    exit 1
  fi
  echo "$1: skipped"
  exit 77
}
[ -n "$CHROMIUM" ] || skip "chromium is not installed"
[ -n "$NODE" ] || skip "node is not installed"
[ -d "$top_srcdir/web/page/node_modules/puppeteer-core" ] ||
  skip "the page's npm packages are not installed (npm ci --prefix web/page)"
if [ ! -f "$top_builddir/web/site/index.html" ]; then
  # no module either: emscripten is missing, which tests/web/api.sh reports
  [ -f "$top_builddir/web/dist/mdlcheck.single.js" ] || CI=
  skip "web/site/index.html is not built (make web; it needs emscripten)"
fi
WEB_BROWSER_TEST=1 CHROMIUM=$CHROMIUM MDLCHECK=$top_builddir/validator/mdlcheck \
  WEB_DIST=$top_builddir/web/site SRCDIR=$top_srcdir exec "$NODE" --test --test-reporter=tap "$top_srcdir/web/test/browser/page.test.mjs"
