# tests/regress: baselines (--baseline) and `mdlcheck diff`, on reports of small corpus inputs;
# the `reports` target (conformance matrix, HTML page with the pose margins of the animated
# samples) and a check that the page renders in headless Chromium.
REGRESS_TESTS = \
  tests/regress/baseline.sh \
  tests/regress/diff.sh \
  tests/regress/reports.sh \
  tests/regress/reports-render.sh \
  tests/regress/precommit.sh \
  tests/regress/precommit-framework.sh \
  tests/regress/action.sh \
  tests/regress/action-yaml.sh
TESTS += $(REGRESS_TESTS)
EXTRA_DIST += $(REGRESS_TESTS) tests/regress/regress-lib.sh tests/reports/make_reports.py \
  tests/regress/action_run.py contrib action.yml .pre-commit-hooks.yaml

# decode -> IQM write (requantized) -> decode: worst error / bound per channel, for the page
check_PROGRAMS += tests/reports/pose_margin
tests_reports_pose_margin_SOURCES = tests/reports/pose_margin.c
tests_reports_pose_margin_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/validator/formats/iqm
tests_reports_pose_margin_LDADD = $(MDL_LIBS)

# `make reports`: reports/conformance-matrix.{md,json} and reports/index.html in the source
# tree (committed like reports/bench.md). REPORTS_DIR=... writes elsewhere.
REPORTS_DIR = $(top_srcdir)/reports
REPORT_SAMPLES = $(abs_top_srcdir)/../shared/samples
.PHONY: reports
reports: validator/mdlcheck$(EXEEXT) tests/conformance/case_run$(EXEEXT) \
  tests/reports/pose_margin$(EXEEXT)
	@if test -f web/site/index.html && test -d $(top_srcdir)/web/page/node_modules/puppeteer-core; then \
	  echo "  WEB      $(REPORTS_DIR)/web (the page's screenshots)"; \
	  WEB_SHOTS=$(REPORTS_DIR)/web top_srcdir=$(top_srcdir) top_builddir=. \
	    $(SHELL) $(top_srcdir)/web/test/browser/page.sh >/dev/null || exit 1; \
	else echo "reports: no screenshots of the page (make web and npm ci --prefix web/page first)"; fi
	$(AM_V_GEN)/usr/bin/python3 $(top_srcdir)/tests/reports/make_reports.py \
	  --srcdir $(top_srcdir) --mdlcheck validator/mdlcheck$(EXEEXT) \
	  --case-run tests/conformance/case_run$(EXEEXT) \
	  --pose-margin tests/reports/pose_margin$(EXEEXT) \
	  --samples $(REPORT_SAMPLES) --out $(REPORTS_DIR)
