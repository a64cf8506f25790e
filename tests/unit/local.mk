# tests/unit: one check suite per core module (run by `make check` when check is installed).
if HAVE_CHECK
UNIT_TESTS = \
  tests/unit/test_reader \
  tests/unit/test_diag \
  tests/unit/test_policy \
  tests/unit/test_json_write \
  tests/unit/test_report \
  tests/unit/test_config \
  tests/unit/test_number \
  tests/unit/test_number_words \
  tests/unit/test_num_format \
  tests/unit/test_model_diff \
  tests/unit/test_egg_geometry \
  tests/unit/test_geo_flat \
  tests/unit/test_egg_memory \
  tests/unit/test_stats \
  tests/unit/test_text_safe \
  tests/unit/test_api_json \
  tests/unit/test_inflate \
  tests/unit/test_fix \
  tests/unit/test_input_end \
  tests/unit/test_text_window \
  tests/unit/test_targets
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
UNIT_LDADD = $(MDL_LIBS) $(CHECK_LIBS)

tests_unit_test_geo_flat_SOURCES = tests/unit/test_geo_flat.c tests/unit/unit.h
tests_unit_test_geo_flat_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_geo_flat_LDADD = $(UNIT_LDADD)
tests_unit_test_inflate_SOURCES = tests/unit/test_inflate.c tests/unit/unit.h
tests_unit_test_inflate_CFLAGS = $(UNIT_CFLAGS) $(ZLIB_CFLAGS)
tests_unit_test_inflate_LDADD = $(UNIT_LDADD) $(ZLIB_LIBS)
tests_unit_test_targets_SOURCES = tests/unit/test_targets.c tests/unit/unit.h
tests_unit_test_targets_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_targets_LDADD = $(UNIT_LDADD)
tests_unit_test_input_end_SOURCES = tests/unit/test_input_end.c tests/unit/unit.h
tests_unit_test_input_end_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_input_end_LDADD = $(UNIT_LDADD)
tests_unit_test_text_window_SOURCES = tests/unit/test_text_window.c tests/unit/unit.h
tests_unit_test_text_window_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_text_window_LDADD = $(UNIT_LDADD)
tests_unit_test_fix_SOURCES = tests/unit/test_fix.c tests/unit/unit.h
tests_unit_test_fix_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_fix_LDADD = $(UNIT_LDADD)
tests_unit_test_api_json_SOURCES = tests/unit/test_api_json.c tests/unit/unit.h
tests_unit_test_api_json_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_api_json_LDADD = $(UNIT_LDADD)
tests_unit_test_text_safe_SOURCES = tests/unit/test_text_safe.c tests/unit/unit.h
tests_unit_test_text_safe_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_text_safe_LDADD = $(UNIT_LDADD)
tests_unit_test_reader_SOURCES = tests/unit/test_reader.c tests/unit/unit.h
tests_unit_test_reader_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_reader_LDADD = $(UNIT_LDADD)
tests_unit_test_diag_SOURCES = tests/unit/test_diag.c tests/unit/unit.h
tests_unit_test_diag_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_diag_LDADD = $(UNIT_LDADD)
tests_unit_test_policy_SOURCES = tests/unit/test_policy.c tests/unit/unit.h
tests_unit_test_policy_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_policy_LDADD = $(UNIT_LDADD)
tests_unit_test_json_write_SOURCES = tests/unit/test_json_write.c tests/unit/unit.h
tests_unit_test_json_write_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_json_write_LDADD = $(UNIT_LDADD)
tests_unit_test_report_SOURCES = tests/unit/test_report.c tests/unit/unit.h
tests_unit_test_report_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_report_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS)
tests_unit_test_report_LDADD = $(MDL_TOOL_LIBS) $(CHECK_LIBS)
tests_unit_test_config_SOURCES = tests/unit/test_config.c tests/unit/unit.h
tests_unit_test_config_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_config_CPPFLAGS = $(AM_CPPFLAGS) $(MDL_TOOL_CPPFLAGS)
tests_unit_test_config_LDADD = $(MDL_TOOL_LIBS) $(CHECK_LIBS)
tests_unit_test_number_SOURCES = tests/unit/test_number.c tests/unit/unit.h
tests_unit_test_number_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_number_LDADD = $(UNIT_LDADD)
tests_unit_test_number_words_SOURCES = tests/unit/test_number_words.c tests/unit/unit.h
tests_unit_test_number_words_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_number_words_LDADD = $(UNIT_LDADD)
tests_unit_test_num_format_SOURCES = tests/unit/test_num_format.c tests/unit/unit.h
tests_unit_test_num_format_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_num_format_LDADD = $(UNIT_LDADD)
tests_unit_test_model_diff_SOURCES = tests/unit/test_model_diff.c tests/unit/unit.h
tests_unit_test_model_diff_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_model_diff_LDADD = $(UNIT_LDADD)
tests_unit_test_egg_geometry_SOURCES = tests/unit/test_egg_geometry.c tests/unit/unit.h
tests_unit_test_egg_geometry_CPPFLAGS = $(AM_CPPFLAGS) -DSAMPLES='"$(abs_top_srcdir)/../shared/samples"'
tests_unit_test_egg_geometry_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_egg_geometry_LDADD = $(UNIT_LDADD)
tests_unit_test_egg_memory_SOURCES = tests/unit/test_egg_memory.c tests/unit/unit.h
tests_unit_test_egg_memory_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/validator/formats/egg
tests_unit_test_egg_memory_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_egg_memory_LDADD = $(UNIT_LDADD)
tests_unit_test_stats_SOURCES = tests/unit/test_stats.c tests/unit/unit.h
tests_unit_test_stats_CPPFLAGS = $(AM_CPPFLAGS) -DSAMPLES='"$(abs_top_srcdir)/../shared/samples"' \
  -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_stats_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_stats_LDADD = $(UNIT_LDADD)
endif
