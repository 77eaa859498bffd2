#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A chaos run: a stack of its own with several region servers, the mixed
# workload (tests/chaos/chaos-workload, built by scripts/build.sh) through
# two gateways (and a third for a second scanning thread) and through the
# native backend (HBase's own RPC, bootstrapped from the master's address
# the launcher writes), and the chaos driver (scripts/stack/ChaosDriver.java)
# moving, splitting and merging regions and restarting region servers and
# gateways meanwhile; then the workload's invariants are checked.
#
#   scripts/chaos.sh [--duration SECONDS] [--seed N] [--keep]
#
#   --duration  seconds of load (default 180); the chaos stops a quiet tail
#               before it (40 s, or half of a run shorter than 80 s), so
#               that the workload can show it recovers: no worker may then
#               go long without a success (when the last action ends late,
#               the load goes on until 25 s after it)
#   --seed      the chaos driver's random seed (default: from the clock)
#   --keep      leave the stack running afterwards (stop it with
#               HBASE_GLIB_STATE_DIR=<state> scripts/stack.sh stop)
#
# Exit status 0 when every invariant held and every kind of chaos action
# happened; 1 otherwise; 2 when the run could not be set up.
#
# Settings (environment), chosen not to collide with the default stack:
#   HBASE_GLIB_CHAOS_STATE_DIR  state, data and logs (default <repo>/.stack-chaos;
#                               its data is wiped at each run)
#   HBASE_GLIB_CHAOS_ZK_PORT    ZooKeeper (default 2191)
#   HBASE_GLIB_CHAOS_GATEWAYS   three gateway ports (default "9190 9191 9192"): the
#                               workload's client uses the first two, its second
#                               scanning thread the third
#   HBASE_GLIB_CHAOS_REDIS_PORT redis-server, oracle and index (default 6390)
#   HBASE_GLIB_CHAOS_REGIONSERVERS  region servers (default 3)
#   HBASE_GLIB_BUILD_DIR        where chaos-workload was built (default <repo>/build)
# Master and region servers use random RPC ports and no info servers.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

duration=180
seed=
keep=false
while [ $# -gt 0 ]; do
  case $1 in
    --duration) duration=${2:-}; shift 2 ;;
    --duration=*) duration=${1#*=}; shift ;;
    --seed) seed=${2:-}; shift 2 ;;
    --seed=*) seed=${1#*=}; shift ;;
    --keep) keep=true; shift ;;
    *) sed -n '2,/^set -e/p' "$0" | sed -n 's/^# \{0,1\}//p' >&2; exit 2 ;;
  esac
done
case $duration in ''|*[!0-9]*|0) echo "chaos: --duration must be a positive number of seconds" >&2; exit 2;; esac
case $seed in *[!0-9]*) echo "chaos: --seed must be a number" >&2; exit 2;; esac

state=${HBASE_GLIB_CHAOS_STATE_DIR:-$repo/.stack-chaos}
zk_port=${HBASE_GLIB_CHAOS_ZK_PORT:-2191}
read -r gw1 gw2 gw3 <<<"${HBASE_GLIB_CHAOS_GATEWAYS:-9190 9191 9192}"
[ -n "$gw3" ] || { echo "chaos: HBASE_GLIB_CHAOS_GATEWAYS needs three ports" >&2; exit 2; }
redis_port=${HBASE_GLIB_CHAOS_REDIS_PORT:-6390}
build=${HBASE_GLIB_BUILD_DIR:-$repo/build}
workload=$build/tests/chaos/chaos-workload

export HBASE_GLIB_STATE_DIR=$state
export HBASE_GLIB_ZK_PORT=$zk_port
export HBASE_GLIB_STACK_GATEWAYS="$gw1:binary:buffered $gw2:binary:buffered $gw3:binary:buffered"
export HBASE_GLIB_REDIS_PORT=$redis_port
# no Redis with ACL users: the workload does not authenticate, and its
# default port (6380) belongs to the usual stack's
export HBASE_GLIB_REDIS_ACL_PORT=none
export HBASE_GLIB_REGIONSERVERS=${HBASE_GLIB_CHAOS_REGIONSERVERS:-3}
export HBASE_GLIB_MASTER_HEAP=${HBASE_GLIB_MASTER_HEAP:-2g}
stack=$here/stack.sh
logs=$state/logs

say() { printf 'chaos: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 2; }
now_s() { date +%s; }

[ -x "$workload" ] || die "$workload not found: run scripts/build.sh first"
command -v java >/dev/null || die "java not found: run scripts/install-deps.sh"

t_start=$(now_s)
workload_pid=
driver_pid=
cleanup() {
  [ -n "$driver_pid" ] && kill "$driver_pid" 2>/dev/null || true
  [ -n "$workload_pid" ] && kill "$workload_pid" 2>/dev/null || true
  if [ "$keep" = false ]; then "$stack" stop >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

# --- a stack of its own ------------------------------------------------------------
"$stack" stop >/dev/null 2>&1 || true   # a previous run of this state directory
port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in "$zk_port" "$gw1" "$gw2" "$gw3" "$redis_port"; do
  port_taken "$port" && die "port $port on 127.0.0.1 is in use (see HBASE_GLIB_CHAOS_* in $0)"
done
rm -rf "$state/data" "$state/run"
mkdir -p "$logs"
rm -f "$logs"/*
say "starting a stack with $HBASE_GLIB_REGIONSERVERS region servers in $state"
"$stack" start || die "the stack did not start (logs in $logs)"
t_ready=$(now_s)
# the master's address for the native workers (written once the cluster is up)
bootstrap_file=$state/run/cluster-control/bootstrap-servers
for _ in $(seq 1 120); do
  [ -s "$bootstrap_file" ] && break
  sleep 0.5
done
[ -s "$bootstrap_file" ] || die "$bootstrap_file was not written within 60 s"
bootstrap=$(cat "$bootstrap_file")
# the chaos ends this long before the load does
if [ "$duration" -ge 80 ]; then quiet=40; else quiet=$((duration / 2)); fi
chaos_duration=$((duration - quiet))

# --- workload and chaos together ------------------------------------------------------
ready=$state/run/workload-ready
settled=$state/run/cluster-settled
start=$state/run/load-start
rm -f "$ready" "$settled" "$start"
"$workload" --gateways "127.0.0.1:$gw1,127.0.0.1:$gw2" --scan-gateway "127.0.0.1:$gw3" --redis "127.0.0.1:$redis_port" \
  --bootstrap-servers "$bootstrap" --duration "$duration" --ready "$ready" --start "$start" --settled "$settled" \
  --redis-faults 0 \
  >"$logs/chaos-summary.txt" 2>"$logs/chaos-workload.log" &
workload_pid=$!
for _ in $(seq 1 600); do
  [ -e "$ready" ] && break
  kill -0 "$workload_pid" 2>/dev/null || { tail -n 20 "$logs/chaos-workload.log" >&2; die "the workload ended before its tables were ready"; }
  sleep 0.5
done
[ -e "$ready" ] || die "the workload's tables were not ready within 300 s"
say "tables ready; chaos driver starting for $chaos_duration s, then $duration s of load (log: $logs/chaos-driver.log)"

mkdir -p "$logs"
# UTC timestamps in the driver's log: the workload compares them with its clock
java -XX:-UsePerfData -Duser.timezone=UTC -Dhbase.glib.log.file="$logs/chaos-driver-client.log" \
  -cp "$("$stack" classpath)" "$here/stack/ChaosDriver.java" "$chaos_duration" 'chaos_.*' \
  "$state/run/cluster-control" "$stack" "$gw1,$gw2,$gw3" $seed \
  >"$logs/chaos-driver.log" 2>"$logs/chaos-driver.err" &
driver_pid=$!
# the load starts when the chaos does: the driver logs its seed just before
# its first pause (starting it can take a while on a busy machine)
for _ in $(seq 1 600); do
  grep -q ' chaos: seed ' "$logs/chaos-driver.log" 2>/dev/null && break
  kill -0 "$driver_pid" 2>/dev/null || break
  sleep 0.5
done
touch "$start"
driver_status=0
wait "$driver_pid" || driver_status=$?
driver_pid=
# the settled file carries the time the last chaos action ended
# (milliseconds since the epoch): the workload's recovery is judged from it
last_action=$(grep -E ' chaos: [a-z-]+ (ok|FAILED|skipped)' "$logs/chaos-driver.log" | tail -n 1 | cut -d' ' -f1 || true)
last_action_ms=
if [ -n "$last_action" ]; then
  last_action_ms=$(date -u -d "$(printf '%s' "$last_action" | sed 's/T/ /; s/Z$//')" +%s%3N 2>/dev/null || true)
fi
printf '%s\n' "$last_action_ms" >"$settled.tmp"
mv "$settled.tmp" "$settled"
# the checks read every key back: minutes at most, unless something hangs
deadline=$(( $(now_s) + 900 ))
while kill -0 "$workload_pid" 2>/dev/null && [ "$(now_s)" -lt "$deadline" ]; do sleep 1; done
workload_status=0
if kill -0 "$workload_pid" 2>/dev/null; then
  say "the workload still runs 900 s after the chaos ended: stopping it"
  kill "$workload_pid" 2>/dev/null || true
  workload_status=124
fi
wait "$workload_pid" || { [ "$workload_status" -eq 124 ] || workload_status=$?; }
workload_pid=
t_end=$(now_s)

# --- summary ------------------------------------------------------------------------------
echo "=== chaos run summary ==="
cat "$logs/chaos-summary.txt"
echo "chaos actions:"
grep -E ' chaos: [a-z-]+ (ok|FAILED|skipped)' "$logs/chaos-driver.log" | sed 's/^/  /' || true
grep -E ' chaos: (actions|settled|NOT settled|not every)' "$logs/chaos-driver.log" | sed 's/^.* chaos: /  /' || true
echo "time: $((t_end - t_start)) s in all ($((t_ready - t_start)) s to start the stack, $duration s of load and chaos, $((t_end - t_ready - duration)) s to settle and check); logs in $logs"

status=0
if [ "$workload_status" -ne 0 ]; then
  case $workload_status in
    1) echo "RESULT: FAIL: an invariant was violated (see above and $logs/chaos-workload.log)" ;;
    124) echo "RESULT: FAIL: the workload hung (its last log lines below; $logs/chaos-workload.log)" ;;
    *) echo "RESULT: FAIL: the workload could not run (exit $workload_status; $logs/chaos-workload.log)" ;;
  esac
  tail -n 5 "$logs/chaos-workload.log" >&2 || true
  status=1
fi
if [ "$driver_status" -ne 0 ]; then
  echo "RESULT: FAIL: the chaos did not happen as planned (driver exit $driver_status; $logs/chaos-driver.log)"
  tail -n 5 "$logs/chaos-driver.err" >&2 || true
  status=1
fi
[ "$status" -eq 0 ] && echo "RESULT: PASS"
exit "$status"
