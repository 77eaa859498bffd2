#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# From a fresh Debian 12 machine (as root) or a developer's checkout:
# install what is needed, build, start the local stack and run the demo:
#
#  1. examples/hello writes a row through hbase-glib and reads it back;
#  2. examples/dim-load creates the pre-split dimension table dim_product
#     (8 regions) and loads 10,000 products into it, and writes a file of
#     20,000 waybill events that name products (a few products are in most
#     waybills, and 1 % name products the table does not have);
#  3. the three lookup examples enrich those events with the product rows
#     (batched gets, asynchronous gets on a main loop, an LRU cache) and
#     print a few enriched events, throughput and p50/p99 latency;
#  4. the hbase-glib command-line tool looks at the table.
#
# The stack keeps running afterwards; `scripts/stack.sh stop` stops it.
# The table stays too (`build/tools/hbase-glib drop --yes dim_product`).
# DEMO_PRODUCTS and DEMO_EVENTS change the sizes.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

scripts/install-deps.sh
build=$(scripts/build.sh)
scripts/stack.sh start   # starts only what is not running yet

products=${DEMO_PRODUCTS:-10000}
events=${DEMO_EVENTS:-20000}
events_file=$(mktemp "${TMPDIR:-/tmp}/hbase-glib-demo-events.XXXXXX")
trap 'rm -f "$events_file"' EXIT
cli=$build/tools/hbase-glib

section() { printf '\n=== %s\n' "$*"; }

section "hello: $build/examples/hello"
"$build/examples/hello"

section "load the dimension table: examples/dim-load"
"$build/examples/dim-load" --products "$products" --regions 8 \
  --events-file "$events_file" --events "$events" --unknown 1

section "lookups, synchronous, 100 keys per call: examples/dim-lookup-sync"
"$build/examples/dim-lookup-sync" --batch 100 --print 5 "$events_file"

section "lookups, asynchronous, at most 128 in flight (gathered into get-multiple calls): examples/dim-lookup-async"
"$build/examples/dim-lookup-async" --in-flight 128 "$events_file"

section "lookups through an LRU cache of 1000 rows: examples/dim-lookup-cache"
"$build/examples/dim-lookup-cache" --capacity 1000 "$events_file"

section "the command-line tool: tools/hbase-glib"
echo "\$ hbase-glib count dim_product"
"$cli" count dim_product
echo "\$ hbase-glib scan dim_product --prefix '03|' --limit 1"
"$cli" scan dim_product --prefix '03|' --limit 1
echo "\$ hbase-glib scan dim_product --prefix '03|' --limit 1 -c d:name -c d:category -o json"
"$cli" scan dim_product --prefix '03|' --limit 1 -c d:name -c d:category -o json

echo
echo "demo: done (the stack keeps running; scripts/stack.sh stop stops it)"
