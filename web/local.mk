# make web: the library compiled to WebAssembly with emscripten and its JS API (web/API.md), in
# web/dist/ (never committed). configure finds emcc; without it `make web` says what to install.
WEB_CORE_FUNCTIONS = _malloc,_free,_mdl_validate_buffer_json,_mdl_poses_buffer_json,_mdl_model_buffer_json,_mdl_compare_buffers_json,_mdl_convert_buffer_json,_mdl_fix_buffer_json,_mdl_bytes_free,_mdl_rules_json,_mdl_string_free,_mdl_web_inflate,_mdl_web_formats_json,_mdl_web_setting_key
# emcc runs its JS optimizer with node, which finds Debian's acorn only there
WEB_EMCC = NODE_PATH=/usr/share/nodejs$${NODE_PATH:+:$$NODE_PATH} $(EMCC)
# no zlib for WebAssembly here: .egg.pz is inflated by stb_image's decoder (core/inflate.c);
# no libyaml either: web/yaml answers libyaml's document API from snapshots of the built-in
# X42 layout profiles
# -msimd128 -msse2: the SSE2 paths (each beside its portable loop, which the native tests compare
# it with) compiled to WebAssembly SIMD through emscripten's emmintrin.h, as on x86-64: X42's
# checks took 3.1 x the native CLI's time on their portable loops, 1.5 to 1.9 x before the native
# build had SSE2 paths. Every engine the module targets has had WebAssembly SIMD since 2021-2023
# (Chrome 91, Firefox 89, Safari 16.4, node 16.4); emscripten 3.1.6 (Debian 12) knows both flags.
WEB_SIMD = -msimd128 -msse2
WEB_CC_OPTS = -std=c11 -O2 $(WEB_SIMD) $(WARN_CFLAGS) -DMDL_NO_ZLIB -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
  -I$(top_srcdir)/web/yaml -I$(top_srcdir)/validator -I$(top_srcdir)/validator/core \
  -I$(top_builddir)/validator/core $(STB_CFLAGS)
# emscripten's in-memory file system (MEMFS, no other back end: ENVIRONMENT has no node) and FS
# for the JS: validate()'s resources option writes the files it is given into a fresh folder of it
# for each call, so that references resolve through the CLI's own code (core/resources.c)
WEB_LD_OPTS = -O2 -sMODULARIZE=1 -sEXPORT_NAME=MdlcheckCore -sENVIRONMENT=web,worker \
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB \
  -sEXPORTED_FUNCTIONS=$(WEB_CORE_FUNCTIONS) \
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8,FS
# the library (the tool's own services, configuration files and reports read back, are not in it)
WEB_C_FILES = $(filter %.c,$(validator_libmdlcheck_la_SOURCES) $(nodist_validator_libmdlcheck_la_SOURCES)) \
  web/yaml/yaml_replay.c web/src/mdlcheck_web.c
WEB_OBJECTS = $(patsubst %.c,web/build/%.o,$(WEB_C_FILES)) web/build/yaml_snap_gen.o \
  web/build/stb_image_web.o
# what `make web` builds: the npm package's files (web/package.json "files"); the page, a
# separate artefact, adds web/site/index.html
WEB_DIST = web/dist/mdlcheck.mjs web/dist/mdlcheck-core.mjs web/dist/mdlcheck.single.js \
  web/dist/mdlcheck.d.ts web/dist/mdlcheck.single.d.ts

.PHONY: web web-clean
web: $(WEB_DIST)

# Every header, as the native build's dependency tracking would: an object compiled against an
# older struct layout links without complaint and corrupts memory at run time in the wasm.
WEB_HEADER_DEPS = $(wildcard $(top_srcdir)/validator/*.h $(top_srcdir)/validator/*/*.h \
  $(top_srcdir)/validator/formats/*/*.h $(top_srcdir)/web/yaml/*.h)
# and web/local.mk, which holds the compile options: an object compiled under older ones (no
# -msimd128) links as well and is only slower
web/build/%.o: %.c $(BUILT_SOURCES) $(WEB_HEADER_DEPS) $(top_srcdir)/web/local.mk
	@test -n "$(EMCC)" || { echo "make web needs emscripten: apt-get install -y emscripten nodejs, then ./configure" >&2; exit 1; }
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(WEB_EMCC) $(WEB_CC_OPTS) -c -o $@ $<
# Debian's libstb is native code: the wasm carries stb_image's own implementation, warnings off
# (third-party code, and only its header parsers are reached)
web/build/stb_image_web.o: web/src/stb_image_web.c
	@test -n "$(EMCC)" || { echo "make web needs emscripten: apt-get install -y emscripten nodejs, then ./configure" >&2; exit 1; }
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(WEB_EMCC) -std=c11 -O2 -w $(STB_CFLAGS) -c -o $@ $(top_srcdir)/web/src/stb_image_web.c
web/build/yaml_snap_gen.o: web/build/yaml_snap_gen.c $(top_srcdir)/web/local.mk
	$(AM_V_CC)$(WEB_EMCC) $(WEB_CC_OPTS) -c -o $@ web/build/yaml_snap_gen.c

# the snapshot tool runs natively with the real libyaml
EXTRA_PROGRAMS = web/yaml/yaml_snapshot
web_yaml_yaml_snapshot_SOURCES = web/yaml/yaml_snapshot.c
nodist_web_yaml_yaml_snapshot_SOURCES = validator/formats/x42/x42_profiles_gen.c
web_yaml_yaml_snapshot_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
web_yaml_yaml_snapshot_LDADD = $(YAML_LIBS)
web/build/yaml_snap_gen.c: web/yaml/yaml_snapshot$(EXEEXT)
	@$(MKDIR_P) web/build
	$(AM_V_GEN)web/yaml/yaml_snapshot$(EXEEXT) >$@-t && mv $@-t $@

# the link options live here: a module linked under older ones (no FS) is stale
web/dist/mdlcheck-core.mjs: $(WEB_OBJECTS) $(top_srcdir)/web/local.mk
	@$(MKDIR_P) web/dist
	$(AM_V_CCLD)$(WEB_EMCC) $(WEB_LD_OPTS) -sEXPORT_ES6=1 -o $@ $(WEB_OBJECTS)
web/build/mdlcheck-core.single.js: $(WEB_OBJECTS) $(top_srcdir)/web/local.mk
	$(AM_V_CCLD)$(WEB_EMCC) $(WEB_LD_OPTS) -sSINGLE_FILE=1 -o $@ $(WEB_OBJECTS)
web/dist/mdlcheck.mjs: web/src/api.js web/src/esm.js
	@$(MKDIR_P) web/dist
	$(AM_V_GEN)sed 's/%MDL_VERSION%/$(PACKAGE_VERSION)/' $(top_srcdir)/web/src/api.js $(top_srcdir)/web/src/esm.js >$@-t && mv $@-t $@
web/dist/mdlcheck.single.js: web/build/mdlcheck-core.single.js web/src/api.js web/src/classic.js
	@$(MKDIR_P) web/dist
	$(AM_V_GEN)sed 's/%MDL_VERSION%/$(PACKAGE_VERSION)/' web/build/mdlcheck-core.single.js \
	  $(top_srcdir)/web/src/api.js $(top_srcdir)/web/src/classic.js >$@-t && mv $@-t $@

# The SIMD paths as the module runs them (-msse2: emscripten's emmintrin.h, another implementation
# of the intrinsics): the native tests that compare each SSE2 path with its portable loop, built
# with the module's compile options against its objects, run by node (tests/web/simd.sh)
WEB_SIMD_TESTS = web/build/x42_fast_test.cjs web/build/iqm_fast_test.cjs web/build/iqe_fast_test.cjs
WEB_LIB_OBJECTS = $(filter-out web/build/web/src/mdlcheck_web.o,$(WEB_OBJECTS))
WEB_TEST_LD_OPTS = -O2 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=1 -sSINGLE_FILE=1
# .cjs: web/package.json makes a .js under web/ an ES module, which emscripten's node loader is
# not; one file (the wasm inside): node 18+ has a fetch that emscripten 3.1.6 would load it with
web/build/%_fast_test.cjs: $(WEB_LIB_OBJECTS) $(top_srcdir)/web/local.mk
	$(AM_V_CCLD)$(WEB_EMCC) $(WEB_CC_OPTS) -I$(top_srcdir)/validator/formats/$* $(WEB_TEST_LD_OPTS) \
	  -o web/build/$*_fast_test.js $(top_srcdir)/validator/formats/$*/$*_fast_test.c $(WEB_LIB_OBJECTS) && \
	  mv web/build/$*_fast_test.js $@
web/build/x42_fast_test.cjs: $(top_srcdir)/validator/formats/x42/x42_fast_test.c
web/build/iqm_fast_test.cjs: $(top_srcdir)/validator/formats/iqm/iqm_fast_test.c
web/build/iqe_fast_test.cjs: $(top_srcdir)/validator/formats/iqe/iqe_fast_test.c

# the TypeScript declarations, written by hand beside api.js (web/test/package.test.mjs keeps
# their names equal to the module's exports)
web/dist/%.d.ts: web/src/%.d.ts
	@$(MKDIR_P) web/dist
	$(AM_V_GEN)cp $< $@

web-clean:
	rm -rf web/build web/dist web/site
clean-local: web-clean
CLEANFILES += web/yaml/yaml_snapshot$(EXEEXT)

EXTRA_DIST += web/API.md web/package.json web/src web/yaml/yaml.h web/yaml/yaml_snap.h \
  web/yaml/yaml_replay.c

# the tests: node's test runner over web/test, against the CLI; make check builds web/ first when
# it can (tests/web/api.sh skips without it, except in CI)
if HAVE_EMCC
check_DATA = $(WEB_DIST) $(WEB_SIMD_TESTS)
endif
TESTS += tests/web/api.sh tests/web/simd.sh
EXTRA_DIST += tests/web/api.sh tests/web/simd.sh web/test web/types/package.json web/types/package-lock.json \
  web/types/tsconfig.json web/types/usage.ts
# make bench times validate() too when it can build the module (tests/bench/bench.sh)
if HAVE_EMCC
BENCH_WEB_DIST = $(WEB_DIST)
endif
