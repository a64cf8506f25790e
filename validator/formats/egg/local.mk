# Panda3D Egg (text, .egg.pz zlib)
validator_libmdlcheck_a_SOURCES += \
  validator/formats/egg/egg_format.c
