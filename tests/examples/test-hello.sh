#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# examples/hello writes a row through the library and reads it back.
. "$top_srcdir/tests/support/tap.sh"
tap_plan 2
hello=$top_builddir/examples/hello

out=$("$hello" 127.0.0.1:notaport 2>&1); rc=$?
if [ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q usage; then tap_ok "bad address is a usage error"
else tap_not_ok "bad address is a usage error (rc=$rc)"; printf '%s\n' "$out" | sed 's/^/# /'; fi

out=$("$hello" 2>&1); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'info:greeting = hello from hbase-glib'; then
  tap_ok "hello writes and reads back a row"
elif printf '%s\n' "$out" | grep -q 'cannot connect' && ! tap_stack_required; then
  tap_skip "hello writes and reads back a row" "local stack not running"
else
  tap_not_ok "hello writes and reads back a row (rc=$rc)"; printf '%s\n' "$out" | sed 's/^/# /'
fi
exit 0
