#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# examples/tour runs through the library (table, write buffer, gets, async
# gets, prefix scan, set, sorted set, index query) and prints what it read
# back; its output is compared with what it wrote.
. "$top_srcdir/tests/support/tap.sh"
tap_plan 3
tour=$top_builddir/examples/tour

# the whole task stays short: at most 60 non-blank lines of C
lines=$(grep -cv '^[[:space:]]*$' "$top_srcdir/examples/tour.c")
if [ "$lines" -le 60 ]; then
  tap_ok "examples/tour.c has $lines non-blank lines (at most 60)"
else
  tap_not_ok "examples/tour.c has $lines non-blank lines (at most 60)"
fi

expected='get row-0042: red
scan row-099: 10 rows
set has sale: 1
alice: 42
red rows: 334'
# the gateway of the HBASE_GLIB_* settings (by default localhost:9090) and
# the Redis on 127.0.0.1:6379
out=$("$tour" 2>&1); rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'cannot connect' && ! tap_stack_required; then
  tap_skip "the tour reads back what it wrote" "local stack not running"
  tap_skip "the async gets return the rows' values" "local stack not running"
  exit 0
fi
if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -v '^async get')" = "$expected" ]; then
  tap_ok "the tour reads back what it wrote"
else
  tap_not_ok "the tour reads back what it wrote (rc=$rc)"; printf '%s\n' "$out" | sed 's/^/# /'
fi
# rows 0001, 0500 and 0999 in the order the gateway answered
async=$(printf '%s\n' "$out" | grep '^async get' | sort | tr '\n' ' ')
if [ "$async" = "async get: blue async get: blue async get: red " ]; then
  tap_ok "the async gets return the rows' values"
else
  tap_not_ok "the async gets return the rows' values (got: $async)"
fi
exit 0
