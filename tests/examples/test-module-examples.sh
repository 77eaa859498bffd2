#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The short example of each module (sets, sorted sets, key schemas and
# filters) runs against the stack and prints what it should.  Each uses a
# table named after this process and drops it (--drop).
. "$top_srcdir/tests/support/tap.sh"
ex=$top_builddir/examples
cli=$top_builddir/tools/hbase-glib
suffix=$$_$(date +%s)

cleanup() {
  for t in sets zsets waybills products; do
    "$cli" drop --yes --if-exists "hbase_glib_ex_${t}_$suffix" >/dev/null 2>&1
  done
}
trap cleanup EXIT

# check DESCRIPTION STATUS OUTPUT PATTERN...: every extended regex matches a line
check() {
  local what=$1 rc=$2 out=$3 missing=
  shift 3
  for p in "$@"; do
    printf '%s\n' "$out" | grep -Eq -- "$p" || missing="$missing [$p]"
  done
  if [ "$rc" = 0 ] && [ -z "$missing" ]; then tap_ok "$what"
  else tap_not_ok "$what (status $rc; missing:$missing)"; printf '%s\n' "$out" | sed 's/^/# /'; fi
}

if ! "$cli" ping >/dev/null 2>&1; then
  if tap_stack_required; then tap_not_ok "the local stack answers"
  else tap_skip "module examples against the local stack" "local stack not running"; fi
  tap_plan $tap_n
  exit 0
fi

out=$("$ex/warehouse-sets" --table "hbase_glib_ex_sets_$suffix" --drop 2>&1); rc=$?
check "warehouse-sets: SADD, SCARD, SISMEMBER, SINTER, SDIFF" $rc "$out" \
  '^SADD stock:WH-BJ01 \(6 products\): 6 new$' \
  '^SCARD: WH-BJ01 stocks 6 products, WH-SH02 5$' \
  '^SISMEMBER stock:WH-SH02 P0000003: yes$' \
  '^SINTER \(in both\): P0000002 P0000004 P0000006$' \
  '^SDIFF \(only in WH-BJ01\): P0000001 P0000008 P0000010$'

out=$("$ex/top-products" --table "hbase_glib_ex_zsets_$suffix" --sales 120 --drop 2>&1); rc=$?
check "top-products: ZINCRBY, ZCARD, ZCOUNT, ZREVRANK, ZRANGE REV" $rc "$out" \
  '^ZINCRBY sales:2025-06-18: 120 sales recorded$' \
  '^ZCARD: [0-9]+ products sold; ZCOUNT \[10, \+inf\]: [0-9]+ sold 10 times or more$' \
  '^ZREVRANK P0000000: #1 with [0-9]+ sales$' \
  '^  1\. P0000000  [0-9]+ sales$' '^  5\. P[0-9]{7}  [0-9]+ sales$'
# the top 5 are in decreasing order of sales
if printf '%s\n' "$out" | sed -n 's/^  [1-5]\. P[0-9]*  \([0-9]*\) sales$/\1/p' | sort -c -n -r 2>/dev/null; then
  tap_ok "top-products: the top 5 by decreasing sales"
else tap_not_ok "top-products: the top 5 by decreasing sales"; fi

out=$("$ex/waybill-query" --table "hbase_glib_ex_waybills_$suffix" --waybills 350 --drop 2>&1); rc=$?
check "waybill-query: salted keys, a one-bucket range, a filtered fan-out in pages" $rc "$out" \
  '^loaded 350 waybills into .* \(4 regions, one per bucket\)$' \
  '^query 1: WH-SH02, 2025-06-02 to 2025-06-03 \(1 bucket scanned\)$' \
  '^  WH-SH02  2025060[23]  W1[0-9]{8}  [0-9]+ g$' \
  '^  \.\.\. [0-9]+ waybills$' \
  "SingleColumnValueFilter\('d', 'weight_g', >, 'binary:025000'" \
  '^ page 2:$'
# every waybill of query 2 is heavier than 25 kg
heavy=$(printf '%s\n' "$out" | sed -n '/^query 2/,$p' | sed -n 's/^  WH-[A-Z0-9]*  [0-9]*  W[0-9]*  \([0-9]*\) g$/\1/p')
if [ "$(printf '%s\n' "$heavy" | wc -l)" -eq 10 ] && ! printf '%s\n' "$heavy" | awk '$1 <= 25000 { bad = 1 } END { exit !bad }'; then
  tap_ok "waybill-query: two pages of 5, all heavier than 25 kg"
else tap_not_ok "waybill-query: two pages of 5, all heavier than 25 kg"; printf '%s\n' "$heavy" | sed 's/^/# /'; fi

if (exec 3<>"/dev/tcp/127.0.0.1/${HBASE_GLIB_REDIS_PORT:-6379}") 2>/dev/null; then
  out=$("$ex/product-index" --table "hbase_glib_ex_products_$suffix" --products 100 --drop 2>&1); rc=$?
  check "product-index: define, build, write through, query, count, verify" $rc "$out" \
    '^defined and built the index of .*: category \(exact\), weight \(range\)$' \
    '^wrote 100 products through the index$' \
    '^\(category IN \("book"\) AND weight IN \[1000, 2000\)\): [0-9]+ products; the first [0-5]:$' \
    '^verify: consistent$'
elif tap_stack_required; then
  tap_not_ok "Redis answers"
else
  tap_skip "product-index" "Redis not running"
fi

tap_plan $tap_n
exit 0
