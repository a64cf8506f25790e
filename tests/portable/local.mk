# tests/portable: the library built again without SSE2 (-U__SSE2__), so every SSE2 path's
# portable fallback (the #else branches in iqe_lex.c, iqm_fast.c, x42_fast.c, qmsh_anim.c,
# geo_filter4.h, geo_corners4.h, f32_scan.h) is compiled and run somewhere. They are the
# production code of non-x86 builds (arm64); the WebAssembly module ran them until it was built
# with SIMD (59eab23). same.sh compares this build's answers with the normal build's.
check_LTLIBRARIES += validator/libmdlcheck_portable.la
validator_libmdlcheck_portable_la_SOURCES = $(validator_libmdlcheck_la_SOURCES)
nodist_validator_libmdlcheck_portable_la_SOURCES = $(nodist_validator_libmdlcheck_la_SOURCES)
validator_libmdlcheck_portable_la_CPPFLAGS = $(AM_CPPFLAGS) -U__SSE2__
validator_libmdlcheck_portable_la_CFLAGS = $(validator_libmdlcheck_la_CFLAGS)
validator_libmdlcheck_portable_la_LIBADD = $(validator_libmdlcheck_la_LIBADD)
check_PROGRAMS += validator/mdlcheck_portable
validator_mdlcheck_portable_SOURCES = $(MDLCHECK_CLI_SOURCES)
validator_mdlcheck_portable_CPPFLAGS = $(validator_mdlcheck_CPPFLAGS)
validator_mdlcheck_portable_LDADD = validator/cli/libmdltool.la validator/libmdlcheck_portable.la \
  $(YAML_LIBS) $(JANSSON_LIBS) $(NETTLE_LIBS) $(ZIP_LINK_LIBS) -ldl
TESTS += tests/portable/same.sh
EXTRA_DIST += tests/portable/same.sh
