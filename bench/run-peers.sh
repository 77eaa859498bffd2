#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The peer benchmark: hbase-glib against the other ways of reaching the same
# HBase, in one run, on the same machine (bench/README.md, BENCHMARKS.md).
#
#   bench/run-peers.sh            full run, both orders (one order took about 5 minutes on 2 cores)
#   bench/run-peers.sh --quick    tiny counts: a smoke test of the whole chain
#
# Clients (one column each):
#   hbase-glib     bench/bench-table (this library), Thrift2 gateway 127.0.0.1:$THRIFT2_PORT
#   java-thrift2   bench/java/BenchThrift2 (THBaseService.Client from the hbase-thrift
#                  jar), the same Thrift2 gateway
#   happybase      bench/python/bench_happybase.py (happybase 1.3.0 from PyPI in a
#                  virtualenv), a Thrift1 gateway 127.0.0.1:$THRIFT1_PORT of the same HBase
#   java-native    bench/java/BenchNative (HBase's own client: no gateway)
#   hbase-glib-native  bench/bench-table --bootstrap-servers: this library's native
#                  backend (HBase's own RPC from C: no gateway), region server
#                  and registry at $NATIVE_BOOTSTRAP
# All gateways are binary protocol, buffered transport.
#
# Workloads: put (1 and $BENCH_THREADS threads), put multiple in batches of 100
# and 1000 rows, get of random existing rows (1 and $BENCH_THREADS threads), a
# scan of the whole read table (caching $BENCH_CACHING).  Rows: key "r%010d",
# one cell f:q, a 100-byte value of its own ("v%010d" of the row repeated).
# Every client checks every reply (row keys and values; a read-back after
# each put workload) and exits non-zero on a wrong answer.  The read table
# bench_peers is loaded once by the native client (put, flush, major
# compaction, one checking scan) and only read; the write table bench_peers_w
# is dropped and created again before each timed client run.  No pre-split:
# each table is one region.
#
# HBase warm-up: before any client is timed, the native Java client runs
# every workload's warm-up with BENCH_SERVER_WARMUP (50000) operations, so
# that the region server is as warm for the first client as for the last.
#
# Order: the clients run in the order of $BENCH_CLIENTS, then in the reverse
# order (BENCH_ORDERS=1: the first order only); the table gives both runs of
# every client and their mean.  Gateways: the Thrift1 gateway is started
# before anything runs; before each timed client run, the same client makes
# one untimed warm-up pass through its gateway (--warmup-only: every
# workload's warm-up, BENCH_WARMUP operations each, as the timed run makes
# before each workload), so every gateway sees the same traffic right before
# its client is timed.
#
# Needs the local stack (scripts/stack.sh; started here if HBase is not
# running) and a configured build of the library in $BUILD_DIR (scripts/build.sh).
#
# Settings (environment):
#   BUILD_DIR          the library's build directory (default <repo>/build)
#   BENCH_ROWS         rows of the read table: get keys, scanned rows (default 200000)
#   BENCH_OPS          operations per point put/get workload (default 50000)
#   BENCH_BATCH_ROWS   rows per put-multiple workload (default 200000)
#   BENCH_THREADS      threads of the multi-thread workloads (default 8)
#   BENCH_WARMUP       untimed operations before each workload (default 5000)
#   BENCH_CACHING      scan rows per round trip, all clients (default 1000)
#   BENCH_CLIENTS      clients to run (default "hbase-glib java-thrift2 happybase java-native
#                      hbase-glib-native")
#   BENCH_ORDERS       2: the clients in BENCH_CLIENTS order, then reversed; 1: that order
#                      only (default 2)
#   BENCH_WORKLOADS    subset of put1,putN,batch100,batch1000,get1,getN,scan (default all)
#   BENCH_OUT          results file; the table goes to BENCH_OUT.md
#                      (default $BUILD_DIR/bench/peers-YYYYmmdd-HHMMSS.txt)
#   BENCH_VENV         happybase virtualenv (default ~/.cache/hbase-glib/bench-venv)
#   BENCH_KEEP_THRIFT1 1 to leave the Thrift1 gateway running afterwards (default: it is
#                      stopped if this script started it)
#   THRIFT2_PORT       the binary/buffered Thrift2 gateway (default 9090)
#   THRIFT1_PORT       the Thrift1 gateway started for happybase (default 9190)
#   NATIVE_BOOTSTRAP   the server hbase-glib-native asks where hbase:meta is
#                      (default 127.0.0.1:16020, the local stack's region server)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
stack=$repo/scripts/stack.sh
state=${HBASE_GLIB_STATE_DIR:-$repo/.stack}
cache=${HBASE_GLIB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hbase-glib}

quick=0
case ${1:-} in
  --quick) quick=1 ;;
  '') ;;
  *) sed -n '2,/^set -e/p' "$0" | sed -n 's/^# \{0,1\}//p' >&2; exit 2 ;;
esac

BUILD_DIR=${BUILD_DIR:-$repo/build}
if [ $quick = 1 ]; then
  BENCH_ROWS=${BENCH_ROWS:-2000} BENCH_OPS=${BENCH_OPS:-200}
  BENCH_BATCH_ROWS=${BENCH_BATCH_ROWS:-2000} BENCH_WARMUP=${BENCH_WARMUP:-50}
  BENCH_SERVER_WARMUP=${BENCH_SERVER_WARMUP:-100}
fi
BENCH_ROWS=${BENCH_ROWS:-200000}
BENCH_OPS=${BENCH_OPS:-50000}
BENCH_BATCH_ROWS=${BENCH_BATCH_ROWS:-200000}
BENCH_THREADS=${BENCH_THREADS:-8}
BENCH_WARMUP=${BENCH_WARMUP:-5000}
BENCH_SERVER_WARMUP=${BENCH_SERVER_WARMUP:-50000}
BENCH_CACHING=${BENCH_CACHING:-1000}
BENCH_CLIENTS=${BENCH_CLIENTS:-hbase-glib java-thrift2 happybase java-native hbase-glib-native}
BENCH_WORKLOADS=${BENCH_WORKLOADS:-}
BENCH_ORDERS=${BENCH_ORDERS:-2}
BENCH_VENV=${BENCH_VENV:-$cache/bench-venv}
BENCH_KEEP_THRIFT1=${BENCH_KEEP_THRIFT1:-0}
THRIFT2_PORT=${THRIFT2_PORT:-9090}
THRIFT1_PORT=${THRIFT1_PORT:-9190}
NATIVE_BOOTSTRAP=${NATIVE_BOOTSTRAP:-127.0.0.1:16020}
read_table=bench_peers
write_table=bench_peers_w

say() { printf '%s\n' "run-peers: $*" >&2; }
die() { say "error: $*"; exit 1; }
now() { date +%s; }
t_start=$(now)

case $BENCH_ORDERS in 1|2) ;; *) die "BENCH_ORDERS must be 1 or 2, not '$BENCH_ORDERS'" ;; esac
[ -f "$BUILD_DIR/Makefile" ] ||
  die "no configured build in $BUILD_DIR: run scripts/build.sh (or set BUILD_DIR)"
mkdir -p "$BUILD_DIR/bench"
BENCH_OUT=${BENCH_OUT:-$BUILD_DIR/bench/peers-$(date +%Y%m%d-%H%M%S).txt}
logs=$state/logs
mkdir -p "$(dirname "$BENCH_OUT")"
: > "$BENCH_OUT"

# --- the stack ---------------------------------------------------------------------

# Only a stack whose HBase is down is started: a running one is left as it is.
status=$("$stack" status 2>/dev/null || true)
if ! grep -q '^hbase  *[0-9][0-9]*  *running' <<<"$status"; then
  say "HBase is not running: starting the local stack"
  "$stack" start
  status=$("$stack" status 2>/dev/null || true)
fi
grep -q "^gateway-$THRIFT2_PORT .* answering (binary/buffered)\$" <<<"$status" ||
  die "no binary/buffered Thrift2 gateway answers on port $THRIFT2_PORT (scripts/stack.sh status)"
mkdir -p "$logs"

thrift1_started=0
cleanup() {
  if [ $thrift1_started = 1 ] && [ "$BENCH_KEEP_THRIFT1" != 1 ]; then
    "$stack" stop-thrift1 "$THRIFT1_PORT" || true
  fi
}
trap cleanup EXIT
# Started before anything else, so that its start-up is over before any
# client runs; it is warmed like the Thrift2 gateway (below).
case " $BENCH_CLIENTS " in
  *" happybase "*)
    if [ ! -f "$state/run/thrift1-$THRIFT1_PORT.pid" ]; then thrift1_started=1; fi
    "$stack" start-thrift1 "$THRIFT1_PORT" ;;
esac

# --- builds --------------------------------------------------------------------------

say "building in $BUILD_DIR (make)"
make -s -C "$BUILD_DIR" >&2   # incremental: the library, then bench/bench-table
bench_table=$BUILD_DIR/bench/bench-table

classpath=$("$stack" classpath)
classes=$BUILD_DIR/bench/java
say "compiling bench/java into $classes"
rm -rf "$classes"; mkdir -p "$classes"
javac -nowarn -cp "$classpath" -d "$classes" "$here"/java/*.java
java_cmd=(java -Xms256m -Xmx1g -XX:+UseG1GC -XX:-UsePerfData
          -Dhbase.glib.log.file="$logs/bench-java.log" -cp "$classes:$classpath")

case " $BENCH_CLIENTS " in
  *" happybase "*)
    if ! "$BENCH_VENV/bin/python" -c 'import happybase' 2>/dev/null; then
      py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
      say "creating the happybase virtualenv $BENCH_VENV"
      "$py" -m venv "$BENCH_VENV" ||
        die "python3 -m venv failed: install python3-venv (scripts/install-deps.sh)"
      "$BENCH_VENV/bin/pip" install -q happybase==1.3.0 >&2
    fi ;;
esac

# --- the runs --------------------------------------------------------------------------

common=(--rows "$BENCH_ROWS" --ops "$BENCH_OPS" --batch-rows "$BENCH_BATCH_ROWS"
        --threads "$BENCH_THREADS" --warmup "$BENCH_WARMUP" --caching "$BENCH_CACHING"
        --read-table "$read_table" --write-table "$write_table")
[ -n "$BENCH_WORKLOADS" ] && common+=(--workloads "$BENCH_WORKLOADS")

say "loading $read_table: $BENCH_ROWS rows (native client: put, flush, major compaction)"
"${java_cmd[@]}" BenchNative load "$read_table" "$BENCH_ROWS"
"${java_cmd[@]}" BenchNative create "$write_table"

# HBase's own warm-up, before any client is timed: the native Java client
# (no gateway, none of the Thrift clients compared) runs every workload's
# warm-up with BENCH_SERVER_WARMUP operations.  Without it the region
# server's write path was still cold for the first client: its put
# multiple of 1000 ran at 0.67x the rate of the client after it, and at
# 1.10x when it ran last.
if [ "$BENCH_SERVER_WARMUP" -gt 0 ]; then
  say "HBase warm-up: java-native, $BENCH_SERVER_WARMUP untimed operations per workload"
  "${java_cmd[@]}" BenchNative "${common[@]}" --warmup "$BENCH_SERVER_WARMUP" --warmup-only >&2 ||
    die "the HBase warm-up failed (its error is above)"
fi

orders=("$BENCH_CLIENTS")
[ "$BENCH_ORDERS" = 2 ] && orders+=("$(printf '%s\n' $BENCH_CLIENTS | tac | paste -sd ' ')")

for o in "${!orders[@]}"; do
  order=$((o + 1))
  say "order $order: ${orders[$o]}"
  for client in ${orders[$o]}; do
    case $client in
      hbase-glib)   cmd=("$bench_table" --port "$THRIFT2_PORT") ;;
      java-thrift2) cmd=("${java_cmd[@]}" BenchThrift2 --port "$THRIFT2_PORT") ;;
      happybase)    cmd=("$BENCH_VENV/bin/python" "$here/python/bench_happybase.py" --port "$THRIFT1_PORT") ;;
      java-native)  cmd=("${java_cmd[@]}" BenchNative) ;;
      hbase-glib-native) cmd=("$bench_table" --bootstrap-servers "$NATIVE_BOOTSTRAP") ;;
      *) die "unknown client '$client' in BENCH_CLIENTS" ;;
    esac
    # the gateway's warm-up: the same untimed pass for every client
    if [ "$BENCH_WARMUP" -gt 0 ]; then
      say "$client (order $order): untimed warm-up pass"
      "${cmd[@]}" "${common[@]}" --warmup-only >&2 ||
        die "$client failed in its warm-up pass (its error is above)"
    fi
    say "$client (order $order): recreating $write_table"
    "${java_cmd[@]}" BenchNative create "$write_table"
    say "$client (order $order): running"
    t0=$(now)
    "${cmd[@]}" "${common[@]}" | sed -u "s/^RESULT /RESULT order=$order /" | tee -a "$BENCH_OUT" |
      sed 's/^/  /' >&2 ||
      die "$client failed (its error is above)"
    say "$client (order $order): done in $(( $(now) - t0 )) s"
  done
done

# --- the table --------------------------------------------------------------------------

md=$BENCH_OUT.md
{
  echo "Peer benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -m);"
  echo "all clients, the gateways and HBase 2.6.1 (standalone) on this machine, over loopback."
  echo "hbase-glib at commit $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$repo" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')."
  echo "BENCH_ROWS=$BENCH_ROWS BENCH_OPS=$BENCH_OPS BENCH_BATCH_ROWS=$BENCH_BATCH_ROWS" \
       "BENCH_THREADS=$BENCH_THREADS BENCH_WARMUP=$BENCH_WARMUP BENCH_CACHING=$BENCH_CACHING"
  echo "Command: $([ "$BENCH_ORDERS" != 2 ] && echo "BENCH_ORDERS=$BENCH_ORDERS ")bench/run-peers.sh$([ $quick = 1 ] && echo ' --quick')"
  for o in "${!orders[@]}"; do echo "Order $((o + 1)): ${orders[$o]}"; done
  echo "Every reply was checked (row keys and values); before each timed client run, one untimed"
  echo "warm-up pass of the same client through its gateway ($BENCH_WARMUP operations per workload)."
  echo
  awk -v threads="$BENCH_THREADS" -v caching="$BENCH_CACHING" -v norders="$BENCH_ORDERS" '
    /^RESULT / {
      delete f
      for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
      k = f["workload"] "/" f["threads"]; c = f["client"]; o = f["order"]
      rate[k, c, o] = f["ops_per_s"]
      cpu[k, c, o] = f["ops"] > 0 ? f["cpu_s"] * 1e6 / f["ops"] : 0
    }
    # the mean over the orders measured, "" when one is missing
    function mean(a, k, c,   o, s) {
      s = 0
      for (o = 1; o <= norders; o++) { if (!((k, c, o) in a)) return ""; s += a[k, c, o] }
      return s / norders
    }
    # "mean (order 1 / order 2)", or the one figure with one order
    function cell(a, k, c, fmt,   m, o, parts) {
      m = mean(a, k, c)
      if (m == "") return "—"
      if (norders == 1) return sprintf(fmt, m)
      parts = ""
      for (o = 1; o <= norders; o++) parts = parts (o > 1 ? " / " : "") sprintf(fmt, a[k, c, o])
      return sprintf(fmt, m) " (" parts ")"
    }
    function ratio(a, b) { return (a == "" || b == "" || b == 0) ? "—" : sprintf("%.2f×", a / b) }
    END {
      n = split("put/1 put/" threads " put_batch100/1 put_batch1000/1 get/1 get/" threads " scan/1", keys, " ")
      nc = split("hbase-glib java-thrift2 happybase java-native hbase-glib-native", cs, " ")
      label["put/1"] = "put, 1 thread (ops/s)"
      label["put/" threads] = "put, " threads " threads (ops/s)"
      label["put_batch100/1"] = "put multiple, batches of 100 (rows/s)"
      label["put_batch1000/1"] = "put multiple, batches of 1000 (rows/s)"
      label["get/1"] = "get, 1 thread (ops/s)"
      label["get/" threads] = "get, " threads " threads (ops/s)"
      label["scan/1"] = "scan, caching " caching " (rows/s)"
      if (norders == 2)
        print "Each cell: the mean of the two orders (order 1 / order 2); ratios are of the means."
      else
        print "One order only (BENCH_ORDERS=1): each client ran once."
      print ""
      print "| workload | hbase-glib | Java Thrift2 | happybase (Thrift1) | native Java | hbase-glib native | hbase-glib / Java Thrift2 | hbase-glib / happybase | hbase-glib native / native Java |"
      print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
      for (i = 1; i <= n; i++) {
        k = keys[i]
        printf "| %s |", label[k]
        for (c = 1; c <= nc; c++) printf " %s |", cell(rate, k, cs[c], "%.0f")
        g = mean(rate, k, "hbase-glib")
        printf " %s | %s | %s |\n", ratio(g, mean(rate, k, "java-thrift2")), ratio(g, mean(rate, k, "happybase")),
          ratio(mean(rate, k, "hbase-glib-native"), mean(rate, k, "java-native"))
      }
      print ""
      print "Client CPU per operation (µs; per row for put multiple and scan): the client process only, the gateway and HBase excluded."
      print ""
      print "| workload | hbase-glib | Java Thrift2 | happybase (Thrift1) | native Java | hbase-glib native |"
      print "|---|---:|---:|---:|---:|---:|"
      for (i = 1; i <= n; i++) {
        k = keys[i]
        l = label[k]; sub(/ \((ops|rows)\/s\)$/, "", l)
        printf "| %s |", l
        for (c = 1; c <= nc; c++) printf " %s |", cell(cpu, k, cs[c], "%.1f")
        printf "\n"
      }
    }' "$BENCH_OUT"
} > "$md"
echo
cat "$md"
say "results: $BENCH_OUT, table: $md; $(( $(now) - t_start )) s in all"
