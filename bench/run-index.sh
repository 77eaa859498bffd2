#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run-index.sh: the Redis index design's benchmark of the Redis index (bench/bench-index.c):
# inserts of 10k and 100k rows (and 1M with --full) without and with the
# index, and queries answered from the index against a filtered scan.
# Prints a Markdown table; BENCHMARKS.md quotes it.  Every query answer
# (index and scan) is checked: its sorted row keys must be the rows the
# generator wrote that match the query; a wrong answer exits with status 1.
#
#   bench/run-index.sh [--full] [bench-index options: --threads T,
#                      --rounds N, --rows N,N, --batch N, --repeat N, ...]
#
# BUILD_DIR (default build) is the build tree with bench/bench-index.
# Needs the local stack (scripts/stack.sh start): the gateway on
# 127.0.0.1:9090 and redis-server on 127.0.0.1:6379 (its own key prefix;
# everything it writes is deleted at the end).  CPU time per row is also
# read for redis-server, the gateway and HBase when they run here: their
# pids from INFO and from the stack's pid files in HBASE_GLIB_STATE_DIR
# (default <repo>/.stack, as scripts/stack.sh).
set -eu

top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-build}
case $build_dir in
  /*) ;;
  *) build_dir=$top_srcdir/$build_dir ;;
esac
bench=$build_dir/bench/bench-index
HBASE_GLIB_STATE_DIR=${HBASE_GLIB_STATE_DIR:-$top_srcdir/.stack}
export HBASE_GLIB_STATE_DIR
if [ ! -x "$bench" ]; then
  echo "run-index.sh: $bench is missing: build it (make -C $build_dir bench/bench-index)" >&2
  exit 1
fi

rows=10000,100000
if [ "${1:-}" = "--full" ]; then
  rows=10000,100000,1000000
  shift
fi
# a --rows of the caller replaces the default
for arg in "$@"; do
  case $arg in --rows|--rows=*) rows= ;; esac
done

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$rows" ]; then
  echo "# $bench --rows $rows $*"
  exec "$bench" --rows "$rows" "$@"
fi
echo "# $bench $*"
exec "$bench" "$@"
