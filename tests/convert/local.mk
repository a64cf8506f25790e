# tests/convert: the conversion matrix (every sample, example and valid corpus base file to every
# format) and doc/manual.md's table generated from it.
TESTS += tests/convert/matrix.sh
EXTRA_DIST += tests/convert/matrix.sh tests/convert/matrix-table.sh tests/convert/egg-audit.py

# Regenerate doc/manual.md's conversion matrix from a run of the matrix test.
.PHONY: matrix-table
matrix-table: validator/mdlcheck$(EXEEXT)
	$(AM_V_GEN)srcdir='$(srcdir)' MATRIX_UPDATE=1 $(SHELL) $(srcdir)/tests/convert/matrix.sh
