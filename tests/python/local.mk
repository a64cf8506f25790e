# tests/python: the Python module's pytest suite against the build tree's libmdlcheck.so.1.
TESTS += tests/python/pytest.sh
EXTRA_DIST += tests/python/pytest.sh tests/python/test_mdlcheck.py
AM_TESTS_ENVIRONMENT += MDL_PYTHON='$(PYTHON)'; export MDL_PYTHON;
