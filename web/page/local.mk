# web/page: the drag-and-drop page web/site/index.html (its own artefact, not in the npm package of
# web/dist), one file that opens from disk (its script,
# three.js, style and a worker made of mdlcheck.single.js all inlined), built by
# web/page/build.mjs with the npm packages of web/page/package.json (npm ci --prefix web/page);
# its tests drive Debian's chromium (web/test/browser).
WEB_PAGE_FILES = web/page/build.mjs web/page/index.html web/page/style.css \
  web/page/src/main.js web/page/src/client.js web/page/src/worker.js \
  web/page/src/mdlcheck-global.js web/page/src/report-view.js web/page/src/source-view.js \
  web/page/src/model.js web/page/src/viewer.js web/page/src/options.js web/page/src/resources.js
WEB_PAGE_PACKAGES = $(top_srcdir)/web/page/node_modules/esbuild/package.json

web/site/index.html: web/dist/mdlcheck.single.js $(WEB_PAGE_FILES)
	@test -f $(WEB_PAGE_PACKAGES) || { echo "web/site/index.html needs the page's npm packages: npm ci --prefix $(top_srcdir)/web/page" >&2; exit 1; }
	@$(MKDIR_P) web/site
	$(AM_V_GEN)$(NODE) $(top_srcdir)/web/page/build.mjs --single web/dist/mdlcheck.single.js --out web/site

# `make web` (and so `make check`, through web/local.mk's check_DATA) builds the page when node
# and the npm packages are there; otherwise make web says so, and the browser test skips saying why.
.PHONY: web-page-note
web-page-note:
	@echo "make web: web/site/index.html not built: it needs node and the page's npm packages (npm ci --prefix web/page)"
WEB_PAGE_BUILD = $(if $(wildcard $(WEB_PAGE_PACKAGES)),$(if $(NODE),web/site/index.html))
WEB_DIST += $(if $(WEB_PAGE_BUILD),$(WEB_PAGE_BUILD),web-page-note)

TESTS += web/test/browser/page.sh
EXTRA_DIST += $(WEB_PAGE_FILES) web/page/package.json web/page/package-lock.json
