# Inter-Quake Export (text)
validator_libmdlcheck_a_SOURCES += \
  validator/formats/iqe/iqe_format.c
