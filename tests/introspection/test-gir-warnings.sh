#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Fails while g-ir-scanner --warn-all reports anything about the public API
# (HBase-1.0.gir.log, written by src/gir.mk when it builds HBase-1.0.gir);
# skips when introspection is disabled.  Prints TAP.
log=${top_builddir:-.}/HBase-1.0.gir.log
if [ ! -f "$log" ]; then
  echo "1..0 # SKIP introspection disabled (no $log)"
  exit 0
fi
n=$(grep ': Warning: ' "$log" | sort -u | wc -l)
echo "1..1"
if [ "$n" -eq 0 ]; then
  echo "ok 1 - g-ir-scanner --warn-all: 0 warnings"
else
  echo "not ok 1 - g-ir-scanner --warn-all: $n warnings"
  grep ': Warning: ' "$log" | sort -u | head -n 50 | sed 's/^/# /'
  exit 1
fi
