#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# proto/check-protos.py: the committed .proto files are the copies inside
# the hbase-protocol-shaded jar the local stack uses (but for the two added
# header lines), or messages picked unchanged from one of its files, and the
# checker catches a changed field number in either.
. "$top_srcdir/tests/support/tap.sh"
check="$PYTHON $top_srcdir/proto/check-protos.py"
protos="RPC Tracing HBase Client Filter Comparator Cell MapReduce Registry ErrorHandling MasterAdmin"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tap_plan 5

jar=$(HBASE_GLIB_QUIET=1 "$top_srcdir/scripts/stack.sh" protocol-jar 2>"$tmp/jar.log")
if [ -z "$jar" ] || [ ! -f "$jar" ]; then
  if tap_stack_required; then
    echo "Bail out! the hbase-protocol-shaded jar could not be resolved: $(cat "$tmp/jar.log")"; exit 1
  fi
  for i in 1 2 3 4 5; do tap_skip "check-protos.py against the jar" "jar not resolvable here (scripts/stack.sh fetch)"; done
  exit 0
fi

set --
for p in $protos; do set -- "$@" "$top_srcdir/proto/$p.proto"; done
tap_check "proto/*.proto match $(basename "$jar")" $check "$jar" "$@"

# A changed field number (Get.row is field 1) must be reported.
sed 's/^  required bytes row = 1;$/  required bytes row = 17;/' "$top_srcdir/proto/Client.proto" > "$tmp/Client.proto"
if cmp -s "$tmp/Client.proto" "$top_srcdir/proto/Client.proto"; then
  tap_not_ok "the field-number mutation changed nothing (Client.proto moved?)"
elif out=$($check "$jar" "$tmp/Client.proto" 2>&1); then
  tap_not_ok "checker reports a changed field number"
elif printf '%s\n' "$out" | grep -q 'row = 17'; then
  tap_ok "checker reports a changed field number"
else
  tap_not_ok "checker reports a changed field number"; printf '%s\n' "$out" | sed 's/^/# /'
fi

# A picked message with a changed field number (CreateTableRequest's
# table_schema is field 1) must be reported too.
sed 's/^  required TableSchema table_schema = 1;$/  required TableSchema table_schema = 7;/' \
  "$top_srcdir/proto/MasterAdmin.proto" > "$tmp/MasterAdmin.proto"
if cmp -s "$tmp/MasterAdmin.proto" "$top_srcdir/proto/MasterAdmin.proto"; then
  tap_not_ok "the picked field-number mutation changed nothing (MasterAdmin.proto moved?)"
elif out=$($check "$jar" "$tmp/MasterAdmin.proto" 2>&1); then
  tap_not_ok "checker reports a changed field number in a picked message"
elif printf '%s\n' "$out" | grep -q 'table_schema = 7'; then
  tap_ok "checker reports a changed field number in a picked message"
else
  tap_not_ok "checker reports a changed field number in a picked message"; printf '%s\n' "$out" | sed 's/^/# /'
fi

# A file without the two added lines, or with an extra change in them.
sed 1d "$top_srcdir/proto/Cell.proto" > "$tmp/Cell.proto"
if $check "$jar" "$tmp/Cell.proto" >/dev/null 2>&1; then tap_not_ok "checker refuses a missing SPDX line"
else tap_ok "checker refuses a missing SPDX line"; fi

# An added trailing line is a difference too.
{ cat "$top_srcdir/proto/HBase.proto"; echo "// extra"; } > "$tmp/HBase.proto"
if $check "$jar" "$tmp/HBase.proto" >/dev/null 2>&1; then tap_not_ok "checker reports an added line"
else tap_ok "checker reports an added line"; fi
exit 0
