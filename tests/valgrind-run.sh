#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/valgrind-run.sh PROGRAM: one program of `make check-valgrind`
# (tests/valgrind.mk) under valgrind's memcheck, from the build directory.
# Its output (TAP, but for the example) goes to PROGRAM.valgrind.out, the
# valgrind log to PROGRAM.valgrind.log.  Prints "PASS: valgrind PROGRAM" or
# "FAIL: …" with the failed tests and valgrind's findings, then one
# "SKIP: valgrind PROGRAM: …" line per skipped test and a
# "COUNT: PROGRAM TESTS SKIPPED" line; exits 0 either way (make
# check-valgrind tallies the lines).  Several run at once, so each line is
# printed whole and a program's lines together.
# Environment: LIBTOOL, VALGRIND_FLAGS, top_srcdir and top_builddir, as
# the rule sets them.
prog=$1
log=$prog.valgrind.log
out=$prog.valgrind.out
report=$prog.valgrind.report
if env G_SLICE=always-malloc G_DEBUG=gc-friendly CI="${CI:-}" HBASE_GLIB_TEST_QUICK=1 \
     HBASE_GLIB_TEST_UNDER_VALGRIND=1 \
     $LIBTOOL --mode=execute valgrind $VALGRIND_FLAGS --log-file="$log" "./$prog" \
     >"$out" 2>/dev/null && ! grep -q '^not ok\|^Bail out!' "$out"; then
  echo "PASS: valgrind $prog" > "$report"
else
  {
    echo "FAIL: valgrind $prog (see $log and $out)"
    grep '^not ok\|^Bail out!' "$out" | head -n 10
    grep -A20 'ERROR SUMMARY\|definitely lost\|Invalid' "$log" | head -n 40
  } > "$report"
fi
grep '^ok .*# *SKIP' "$out" | sed "s|^|SKIP: valgrind $prog: |" >> "$report"
echo "COUNT: $prog $(grep -c '^\(not \)\?ok' "$out") $(grep -c '^ok .*# *SKIP' "$out")" >> "$report"
cat "$report"
rm -f "$report"
