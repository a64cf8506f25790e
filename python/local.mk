# python/local.mk - the ctypes module (python/mdlcheck/): installed into the prefix's Python site
# directory, nothing compiled; `make install` records the libdir it loads libmdlcheck.so.1 from.
if HAVE_PYTHON
pkgpython_PYTHON = python/mdlcheck/__init__.py python/mdlcheck/_lib.py
# _paths.py is written at install time, not configure time: `make install prefix=...` and
# DESTDIR stagings change libdir after configure
install-data-hook: install-python-paths
install-python-paths:
	$(AM_V_GEN)$(MKDIR_P) '$(DESTDIR)$(pkgpythondir)' && \
	  printf '%s\n' '"""_paths.py - where make install put libmdlcheck (generated)."""' \
	    "LIBDIR = '$(libdir)'" >'$(DESTDIR)$(pkgpythondir)/_paths.py'
uninstall-hook:
	rm -f '$(DESTDIR)$(pkgpythondir)/_paths.py'
endif
# pip install ./python and python3 -m build --wheel python: the same module with the library inside
EXTRA_DIST += python/pyproject.toml python/setup.py python/README.md
