#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The dimension-lookup examples, briefly, on small data: dim-load creates a
# pre-split table and an events file, and each lookup program must find
# every known product and count the unknown ones as missing.  The table is
# named after this process and dropped at the end.
. "$top_srcdir/tests/support/tap.sh"
ex=$top_builddir/examples
cli=$top_builddir/tools/hbase-glib
tmp=$(mktemp -d)
t=hbase_glib_dim_$$_$(date +%s)
products=300
events=1000

cleanup() {
  "$cli" drop --yes --if-exists "$t" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

# run CMD...: $out (stdout and stderr), $rc
run() { out=$("$@" 2>&1); rc=$?; }
# check DESCRIPTION EXTENDED_REGEX: the last run succeeded and printed a line matching
check() {
  if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -Eq -- "$2"; then
    tap_ok "$1"
  else
    tap_not_ok "$1 (status $rc)"; printf '%s\n' "$out" | sed 's/^/# /'
  fi
}

# usage errors need no server
run "$ex/dim-lookup-async" --in-flight 0 "$tmp/none"
[ $rc -eq 2 ] && tap_ok "dim-lookup-async --in-flight 0: status 2" || tap_not_ok "dim-lookup-async --in-flight 0: status 2 (got $rc)"
run "$ex/dim-load" --regions 3
[ $rc -eq 2 ] && tap_ok "dim-load --regions 3: status 2" || tap_not_ok "dim-load --regions 3: status 2 (got $rc)"
run "$ex/dim-load" --no-load --events-file "$tmp/events" --events $events --products $products
check "dim-load writes an events file without a server" "wrote $events events to $tmp/events"
[ "$(wc -l < "$tmp/events")" -eq $events ] && tap_ok "the events file has $events lines" || tap_not_ok "the events file has $events lines"

if ! "$cli" ping >/dev/null 2>&1; then
  if tap_stack_required; then tap_not_ok "the local stack answers"
  else tap_skip "lookups against the local stack" "local stack not running"; fi
  tap_plan $tap_n
  exit 0
fi

run "$ex/dim-load" --table "$t" --products $products --regions 4 --recreate
check "dim-load creates the pre-split table" "created table $t with 4 regions"
check "dim-load loads the products" "loaded $products products into $t"
run "$cli" count "$t"
check "the table has every product" "^$products\$"
run "$cli" scan "$t" --prefix '04|' --limit 1 -k
check "rows are salted into the second region" '^04\|P[0-9]{7}$'
run "$ex/dim-load" --table "$t" --products $products
check "dim-load reuses an existing table" "exists: writing its rows again"

run "$ex/dim-lookup-sync" --table "$t" --batch 64 --print 2 "$tmp/events"
check "sync: every event found" "^dim-lookup-sync: $events events, $events found, 0 missing, [0-9.]+ s, [0-9]+ events/s\$"
check "sync: calls and p50/p99 latency" "^  16 get-multiple calls of up to 64 keys; latency per call: p50 [0-9.]+ ms, p99 [0-9.]+ ms"
check "sync: --print joins the dimension row" "^W000000001	P[0-9]{7}	product [0-9]{7}	[^	]+	WH-[A-Z]{2}0[1-5]\$"

run "$ex/dim-lookup-async" --table "$t" --in-flight 4 "$tmp/events"
check "async: every event found" "^dim-lookup-async: $events events, $events found, 0 missing"
if printf '%s\n' "$out" | grep -Eq "^  $events requests of up to 1 keys, at most [1-4] in flight \(bound 4\); latency per request: p50 [0-9.]+ ms, p99"; then
  tap_ok "async: requests stay within the bound"; else tap_not_ok "async: requests stay within the bound"; printf '%s\n' "$out" | sed 's/^/# /'; fi
run "$ex/dim-lookup-async" --table "$t" --in-flight 3 --batch 25 "$tmp/events"
check "async --batch: every event found" "^dim-lookup-async: $events events, $events found, 0 missing"
check "async --batch: get-multiple requests" "^  40 requests of up to 25 keys, at most [1-3] in flight \(bound 3\)"

run "$ex/dim-lookup-cache" --table "$t" --capacity 50 "$tmp/events"
check "cache: every event found" "^dim-lookup-cache: $events events, $events found, 0 missing"
hits=$(printf '%s\n' "$out" | sed -n 's/^  cache of 50 rows: \([0-9]*\) hits, \([0-9]*\) misses, hit ratio \([0-9.]*\) %.*/\1 \2 \3/p')
set -- $hits
if [ $# -eq 3 ] && [ $(($1 + $2)) -eq $events ] && [ "$1" -gt 0 ]; then
  tap_ok "cache: hits + misses = events, some hits (ratio $3 %)"
else tap_not_ok "cache: hit statistics"; printf '%s\n' "$out" | sed 's/^/# /'; fi
run "$ex/dim-lookup-cache" --table "$t" --capacity 0 "$tmp/events"
check "cache of 0 rows: every event is a miss" "cache of 0 rows: 0 hits, $events misses, hit ratio 0.0 %"

# unknown products are counted as missing, from stdin too
run "$ex/dim-load" --no-load --events-file "$tmp/mixed" --events 400 --products $products --unknown 20 --seed 7
check "events with unknown products" "wrote 400 events to $tmp/mixed"
unknown=$(printf '%s\n' "$out" | sed -n 's/.*, \([0-9]*\) unknown$/\1/p')
known=$((400 - unknown))
run "$ex/dim-lookup-sync" --table "$t" "$tmp/mixed"
check "sync: unknown products are missing ($unknown)" "^dim-lookup-sync: 400 events, $known found, $unknown missing"
run sh -c "'$ex/dim-lookup-async' --table '$t' --in-flight 8 < '$tmp/mixed'"
check "async from stdin: unknown products are missing" "^dim-lookup-async: 400 events, $known found, $unknown missing"
run "$ex/dim-lookup-cache" --table "$t" --capacity 100 --print 400 "$tmp/mixed"
check "cache: unknown products are missing, and cached" "^dim-lookup-cache: 400 events, $known found, $unknown missing"
[ "$(printf '%s\n' "$out" | grep -c '(not found)$')" -eq "$unknown" ] && tap_ok "cache: --print marks the unknown" \
  || tap_not_ok "cache: --print marks the unknown"

run "$ex/dim-lookup-sync" --table "${t}_none" "$tmp/events"
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q 'does not exist' && tap_ok "a missing table: status 1, said plainly" \
  || { tap_not_ok "a missing table: status 1"; printf '%s\n' "$out" | sed 's/^/# /'; }

tap_plan $tap_n
exit 0
