# IQM (Inter-Quake Model), versions 1 and 2.
RULE_CATALOGUE += $(top_srcdir)/spec/rules/iqm.yaml
validator_libmdlcheck_a_SOURCES += \
  validator/formats/iqm/iqm_format.c
