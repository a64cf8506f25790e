# tests/style: rules of the code a grep can hold (format names stay in the format rooms).
TESTS += tests/style/format-names.sh
EXTRA_DIST += tests/style/format-names.sh tests/style/format-names.py
