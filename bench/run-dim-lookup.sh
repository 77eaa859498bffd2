#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Async gets gathered into getMultiple calls against hand-made batches: the
# dimension lookup examples on the same events, in rounds:
#   sync          examples/dim-lookup-sync (100 keys per getMultiple, one call at a time)
#   async-16-off  examples/dim-lookup-async --in-flight 16, HBASE_GLIB_COALESCE_GETS=1
#   async-16      examples/dim-lookup-async --in-flight 16 (gets gathered)
#   async-128     examples/dim-lookup-async (128 in flight, its default)
# Each line: events/s and p99 latency as the example prints them (per call
# for sync, per request for async), the client's CPU time (user + system),
# and the CPU time the 9090 gateway's and HBase's processes used meanwhile
# (/proc/PID/stat; other users of the stack add to those).
#
#   bench/run-dim-lookup.sh      (BENCH_ROUNDS=3, BENCH_EVENTS=100000,
#                                 BENCH_TABLE=bench_dim_product)
#
# The table (10,000 products, 8 regions) and the events are made by
# examples/dim-load on the first run (the table and the events file are
# kept).  Before the rounds, each example runs once untimed, so the
# gateway and HBase are warm for all of them; the order of the examples
# is reversed every other round, so none always runs after the same one.  Needs the local
# stack (scripts/stack.sh start) and a build (scripts/build.sh).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$repo/build}
ROUNDS=${BENCH_ROUNDS:-3}
TABLE=${BENCH_TABLE:-bench_dim_product}
EVENTS=${BENCH_EVENTS:-100000}
events=${BENCH_EVENTS_FILE:-${TMPDIR:-/tmp}/hbase-glib-bench-events-$TABLE-$EVENTS}
ex=$BUILD_DIR/examples

pid_on_port() { ss -ltnp 2>/dev/null | awk -v p=":$1" '$4 ~ p"$" {print}' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
gateway=$(pid_on_port 9090)
hbase=$(pid_on_port 16020)
tick=$(getconf CLK_TCK)
cpu_ms() { if [ -n "$1" ]; then awk -v t="$tick" '{print int(($14 + $15) * 1000 / t)}' "/proc/$1/stat"; else echo 0; fi; }

[ -s "$events" ] ||
  "$ex/dim-load" --table "$TABLE" --products 10000 --regions 8 \
    --events-file "$events" --events "$EVENTS" --unknown 1 > /dev/null

run() {
  local label=$1; shift
  local g0 h0 out
  g0=$(cpu_ms "$gateway"); h0=$(cpu_ms "$hbase")
  out=$( { /usr/bin/time -f 'client-cpu %U %S' "$@" --table "$TABLE" "$events"; } 2>&1 )
  printf '%-13s %6s events/s  p99 %7s ms  client CPU %5s ms  gateway CPU %5s ms  HBase CPU %5s ms\n' \
    "$label" "$(grep -o '[0-9]* events/s' <<< "$out" | cut -d' ' -f1)" \
    "$(grep -o 'p99 [0-9.]* ms' <<< "$out" | cut -d' ' -f2)" \
    "$(awk '/client-cpu/ {printf "%.0f", ($2 + $3) * 1000}' <<< "$out")" \
    $(( $(cpu_ms "$gateway") - g0 )) $(( $(cpu_ms "$hbase") - h0 ))
}

examples_in_order() {
  run sync "$ex/dim-lookup-sync"
  HBASE_GLIB_COALESCE_GETS=1 run async-16-off "$ex/dim-lookup-async" --in-flight 16
  run async-16 "$ex/dim-lookup-async" --in-flight 16
  run async-128 "$ex/dim-lookup-async"
}
examples_reversed() {
  run async-128 "$ex/dim-lookup-async"
  run async-16 "$ex/dim-lookup-async" --in-flight 16
  HBASE_GLIB_COALESCE_GETS=1 run async-16-off "$ex/dim-lookup-async" --in-flight 16
  run sync "$ex/dim-lookup-sync"
}

echo "warm-up (untimed)"
examples_in_order > /dev/null
for round in $(seq "$ROUNDS"); do
  echo "round $round"
  if [ $((round % 2)) -eq 1 ]; then examples_in_order; else examples_reversed; fi
done
