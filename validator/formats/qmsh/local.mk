# CaRpg QMSH (binary)
validator_libmdlcheck_a_SOURCES += \
  validator/formats/qmsh/qmsh_format.c
