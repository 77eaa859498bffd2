#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# thrift/check-idl.py: our IDL matches the hbase.thrift inside the
# hbase-thrift jar the local stack runs, and the checker catches the
# differences that matter on the wire.
. "$top_srcdir/tests/support/tap.sh"
check="$PYTHON $top_srcdir/thrift/check-idl.py"
ours=$top_srcdir/thrift/hbase.thrift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tap_plan 6

tap_check "our IDL is equivalent to itself" $check "$ours" "$ours"

mutate() { sed "$1" "$ours" > "$tmp/$2.thrift"; }
expect_difference() {
  if out=$($check "$tmp/$1.thrift" "$ours" 2>&1); then
    tap_not_ok "checker reports $2"; printf '%s\n' "$out" | sed 's/^/# /'
  elif printf '%s\n' "$out" | grep -q "$3"; then tap_ok "checker reports $2"
  else tap_not_ok "checker reports $2"; printf '%s\n' "$out" | sed 's/^/# /'; fi
}
mutate 's/5: optional i32 maxVersions,/16: optional i32 maxVersions,/' field-id
expect_difference field-id "a moved struct field" "struct TGet: field 5"
mutate 's/^  DELETE_FAMILY = 2/  DELETE_FAMILY = 5/' enum-value
expect_difference enum-value "a changed enum value" "enum TDeleteType"
mutate 's/2: required TGet tget/3: required TGet tget/' arg-id
expect_difference arg-id "a moved method argument" "method exists argument: field 2"
mutate 's/i32 openScanner(/i64 openScanner(/' return-type
expect_difference return-type "a changed return type" "method openScanner returns"

# The comparison with the jar the stack runs (resolved from Maven Central).
jar=$(HBASE_GLIB_QUIET=1 "$top_srcdir/scripts/stack.sh" thrift-jar 2>"$tmp/jar.log")
if [ -n "$jar" ] && [ -f "$jar" ]; then
  tap_check "thrift/hbase.thrift matches $(basename "$jar")" $check "$ours" "$jar"
elif tap_stack_required; then
  tap_not_ok "the hbase-thrift jar could not be resolved"; sed 's/^/# /' "$tmp/jar.log"
else
  tap_skip "thrift/hbase.thrift matches the gateway jar" "jar not resolvable here (scripts/stack.sh fetch)"
fi
exit 0
