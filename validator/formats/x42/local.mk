# X42 skeletal model (binary)
validator_libmdlcheck_a_SOURCES += \
  validator/formats/x42/x42_format.c
