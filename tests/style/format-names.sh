#!/bin/sh
# Only the format rooms know formats by name (issue 27 item 2): tests/style/format-names.py.
exec python3 "${srcdir:-.}/tests/style/format-names.py"
