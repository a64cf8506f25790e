# tests/roundtrip: the IQM writer, byte by byte and through decode -> write -> decode.
RT_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/validator/formats/iqm -I$(top_srcdir)/tests/roundtrip
RT_SOURCES = tests/roundtrip/rt_model.c tests/roundtrip/rt_model.h

check_PROGRAMS += tests/roundtrip/test_writer_layout tests/roundtrip/test_roundtrip \
  tests/roundtrip/test_roundtrip_samples
tests_roundtrip_test_writer_layout_SOURCES = tests/roundtrip/test_writer_layout.c $(RT_SOURCES)
tests_roundtrip_test_writer_layout_CPPFLAGS = $(RT_CPPFLAGS)
tests_roundtrip_test_writer_layout_LDADD = $(MDL_LIBS)
tests_roundtrip_test_roundtrip_SOURCES = tests/roundtrip/test_roundtrip.c $(RT_SOURCES)
tests_roundtrip_test_roundtrip_CPPFLAGS = $(RT_CPPFLAGS)
tests_roundtrip_test_roundtrip_LDADD = $(MDL_LIBS)
tests_roundtrip_test_roundtrip_samples_SOURCES = tests/roundtrip/test_roundtrip.c $(RT_SOURCES)
tests_roundtrip_test_roundtrip_samples_CPPFLAGS = $(RT_CPPFLAGS) \
  -DRT_SAMPLES='"$(abs_top_srcdir)/../shared/samples/iqm"'
tests_roundtrip_test_roundtrip_samples_LDADD = $(MDL_LIBS)

# models of every format -> egg -> model (synthetic, and the samples and examples when present)
check_PROGRAMS += tests/roundtrip/test_egg_write
tests_roundtrip_test_egg_write_SOURCES = tests/roundtrip/test_egg_write.c $(RT_SOURCES)
tests_roundtrip_test_egg_write_CPPFLAGS = $(RT_CPPFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_roundtrip_test_egg_write_LDADD = $(MDL_LIBS)

TESTS += tests/roundtrip/test_writer_layout tests/roundtrip/test_roundtrip \
  tests/roundtrip/test_roundtrip_samples tests/roundtrip/convert.sh tests/roundtrip/test_egg_write \
  tests/roundtrip/egg.sh
EXTRA_DIST += tests/roundtrip/convert.sh tests/roundtrip/egg.sh
