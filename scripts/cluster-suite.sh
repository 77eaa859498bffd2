#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The integration suites that run on both backends, against an HBase with
# several region servers: a stack of its own (scripts/stack.sh with
# HBASE_GLIB_REGIONSERVERS, one JVM, random RPC ports) with the four
# protocol/transport gateways, then `make check` of every integration test
# program that has a native end (`native_cases`, `native_all`, or a client
# of test_stack_native_config()) or is a native or differential test.  Their tables are split, so their regions are spread
# over the region servers: the native backend locates, groups and crosses
# regions of different servers, and the Thrift2 ends run on the same
# cluster.
#
#   scripts/cluster-suite.sh [--keep]
#
#   --keep   leave the stack running afterwards (stop it with
#            HBASE_GLIB_STATE_DIR=<state> scripts/stack.sh stop)
#
# Exit status: make check's (0 when every test passed); 2 when the stack
# could not be set up.  Results are in the build directory's .log/.trs files
# as for any make check.
#
# Settings (environment), chosen not to collide with the default stack or
# the chaos run's:
#   HBASE_GLIB_CLUSTER_STATE_DIR    state, data and logs (default <repo>/.stack-cluster;
#                                   its data is wiped at each run)
#   HBASE_GLIB_CLUSTER_ZK_PORT      ZooKeeper (default 2291)
#   HBASE_GLIB_CLUSTER_GATEWAY_PORT the first of four gateway ports (default 9290:
#                                   binary/buffered, compact/buffered, binary/framed,
#                                   compact/framed)
#   HBASE_GLIB_CLUSTER_REGIONSERVERS region servers (default 3)
#   HBASE_GLIB_BUILD_DIR            the configured build (default <repo>/build)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

keep=false
case ${1:-} in
  --keep) keep=true ;;
  '') ;;
  *) sed -n '2,/^set -e/p' "$0" | sed -n 's/^# \{0,1\}//p' >&2; exit 2 ;;
esac

state=${HBASE_GLIB_CLUSTER_STATE_DIR:-$repo/.stack-cluster}
zk_port=${HBASE_GLIB_CLUSTER_ZK_PORT:-2291}
gw=${HBASE_GLIB_CLUSTER_GATEWAY_PORT:-9290}
build=${HBASE_GLIB_BUILD_DIR:-$repo/build}
stack=$here/stack.sh

say() { printf 'cluster-suite: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 2; }

[ -f "$build/Makefile" ] || die "no configured build in $build: run scripts/build.sh first"

export HBASE_GLIB_STATE_DIR=$state
export HBASE_GLIB_ZK_PORT=$zk_port
export HBASE_GLIB_STACK_GATEWAYS="$gw:binary:buffered $((gw + 1)):compact:buffered $((gw + 2)):binary:framed $((gw + 3)):compact:framed"
export HBASE_GLIB_REDIS_PORT=none HBASE_GLIB_REDIS_ACL_PORT=none
export HBASE_GLIB_REGIONSERVERS=${HBASE_GLIB_CLUSTER_REGIONSERVERS:-3}

cleanup() {
  if [ "$keep" = false ]; then "$stack" stop >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

"$stack" stop >/dev/null 2>&1 || true   # a previous run of this state directory
port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in "$zk_port" "$gw" $((gw + 1)) $((gw + 2)) $((gw + 3)); do
  port_taken "$port" && die "port $port on 127.0.0.1 is in use (see HBASE_GLIB_CLUSTER_* in $0)"
done
rm -rf "$state/data" "$state/run"
say "starting a stack with $HBASE_GLIB_REGIONSERVERS region servers in $state"
"$stack" start || die "the stack did not start (logs in $state/logs)"

control=$state/run/cluster-control
for _ in $(seq 1 120); do
  [ -s "$control/bootstrap-servers" ] && [ -s "$control/region-server-ports" ] && break
  sleep 0.5
done
[ -s "$control/bootstrap-servers" ] || die "the cluster did not write $control/bootstrap-servers"
bootstrap=$(cat "$control/bootstrap-servers")
rs_ports=$(cat "$control/region-server-ports")
say "master (bootstrap server) $bootstrap, region servers on ports $rs_ports"

# every integration program with a native end, and the native and
# differential ones (test-index, native through its support code, is not
# found: it needs Redis, which this stack does not run)
programs=()
for source in "$repo"/tests/integration/test-*.c; do
  name=$(basename "$source" .c)
  if grep -qE 'native_cases|native_all|test_stack_native_config' "$source" ||
     [[ $name == test-native-* || $name == test-backends-* ]]; then
    programs+=("tests/integration/$name")
  fi
done
# an empty TESTS would run nothing and pass
[ ${#programs[@]} -gt 0 ] || die "no integration program with a native end found in $repo/tests/integration"
say "running ${programs[*]}"

export HBASE_GLIB_TEST_REQUIRE_STACK=1
export HBASE_GLIB_TEST_GATEWAYS="127.0.0.1:$gw:binary:buffered 127.0.0.1:$((gw + 1)):compact:buffered 127.0.0.1:$((gw + 2)):binary:framed 127.0.0.1:$((gw + 3)):compact:framed"
export HBASE_GLIB_TEST_GATEWAY="127.0.0.1:$gw:binary:buffered"
export HBASE_GLIB_TEST_NATIVE_BOOTSTRAP=$bootstrap
export HBASE_GLIB_TEST_NATIVE_RS_PORTS=$rs_ports
make -C "$build" -j"$(nproc)" check TESTS="${programs[*]}"
