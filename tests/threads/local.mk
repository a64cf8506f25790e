# tests/threads: the library's thread safety (mdlcheck.h: one policy may serve several threads).
# threads.sh runs in make check; make check-tsan builds only the library and this program with
# -fsanitize=thread (configure --enable-sanitizers=thread) and runs only it, for CI's TSan stage.
check_PROGRAMS += tests/threads/threads
tests_threads_threads_SOURCES = tests/threads/threads.c
tests_threads_threads_LDADD = $(MDL_LIBS) -lpthread
TESTS += tests/threads/threads.sh tests/threads/jobs.sh
EXTRA_DIST += tests/threads/threads.sh tests/threads/jobs.sh

.PHONY: check-tsan
check-tsan: $(BUILT_SOURCES)
	$(MAKE) $(AM_MAKEFLAGS) tests/threads/threads$(EXEEXT)
	srcdir='$(srcdir)' top_builddir='$(top_builddir)' $(SHELL) $(srcdir)/tests/threads/threads.sh
