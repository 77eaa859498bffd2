#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What each way of reaching a gateway costs: bench/bench-table's get
# (one thread), put multiple (batches of 1000) and scan through
#   normal stack:     socket 9090, http 9097, https 9098
#   kerberized stack: SASL authentication 19090, integrity 19091,
#                     privacy 19092, http + SPNEGO 19093, https + SPNEGO 19094
# Both stacks must be running (scripts/stack.sh start, start-secure).  The
# two are different HBase instances on the same machine: compare each mode
# with the plain socket of its own stack (9090, or SASL authentication,
# which after the handshake sends plain Thrift in frames).
#
#   bench/run-secured.sh            one round of every mode
#   BENCH_ROUNDS=3 bench/run-secured.sh   three rounds, modes in alternating order
#
# Settings: BENCH_ROWS (read table rows, default 20000), BENCH_OPS (gets,
# default 5000), BENCH_BATCH_ROWS (rows put in batches of 1000, default
# 50000), BENCH_ROUNDS (default 1), BENCH_MODES (names of the modes to run,
# separated by spaces; default all), BUILD_DIR (default build).
# Prints one RESULT line per mode and workload (bench-table's, with mode=)
# and a table of operations (rows) per second and client CPU per operation.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
BUILD_DIR=${BUILD_DIR:-$repo/build}
ROWS=${BENCH_ROWS:-20000}
OPS=${BENCH_OPS:-5000}
BATCH=${BENCH_BATCH_ROWS:-50000}
ROUNDS=${BENCH_ROUNDS:-1}
export HBASE_GLIB_STATE_DIR=${HBASE_GLIB_STATE_DIR:-$repo/.stack}

bench=$BUILD_DIR/bench/bench-table
cli=$BUILD_DIR/tools/hbase-glib
[ -x "$bench" ] && [ -x "$cli" ] || { echo "run-secured: build first (scripts/build.sh)" >&2; exit 2; }
eval "$(scripts/stack.sh secure-env)"
tls=$HBASE_GLIB_STATE_DIR/tls
ccache=$(mktemp "${TMPDIR:-/tmp}/run-secured-cc.XXXXXX")
results=$(mktemp "${TMPDIR:-/tmp}/run-secured.XXXXXX")
trap 'rm -f "$ccache" "$results"' EXIT
export KRB5CCNAME=FILE:$ccache
kinit -kt "$HBASE_GLIB_SECURE_KEYTABS/client.keytab" client

# name  gateways  kerberos
modes=(
  "socket 127.0.0.1:9090 false"
  "http http://localhost:9097/ false"
  "https https://localhost:9098/ false"
  "sasl-authentication localhost:${HBASE_GLIB_SECURE_AUTH_PORT} true"
  "sasl-integrity localhost:${HBASE_GLIB_SECURE_INT_PORT} true"
  "sasl-privacy localhost:${HBASE_GLIB_SECURE_PRIV_PORT} true"
  "http-spnego http://localhost:${HBASE_GLIB_SECURE_HTTP_PORT:-19093}/ true"
  "https-spnego https://localhost:${HBASE_GLIB_SECURE_HTTPS_PORT:-19094}/ true"
)

run_mode() {
  local name=$1 gateways=$2 kerberos=$3
  local -a env=(HBASE_GLIB_KERBEROS="$kerberos" HBASE_GLIB_TLS_CA_FILE="$tls/ca.pem")
  # the tables once per stack (creating one that exists fails harmlessly)
  env "${env[@]}" "$cli" -g "$gateways" create bench_secured f > /dev/null 2>&1 || true
  env "${env[@]}" "$cli" -g "$gateways" create bench_secured_w f > /dev/null 2>&1 || true
  if [ "$(env "${env[@]}" "$cli" -g "$gateways" count bench_secured 2>/dev/null)" != "$ROWS" ]; then
    env "${env[@]}" "$bench" --gateways "$gateways" --write-table bench_secured --batch-rows "$ROWS" \
      --workloads batch1000 --warmup 0 > /dev/null
  fi
  env "${env[@]}" "$bench" --gateways "$gateways" --read-table bench_secured \
    --write-table bench_secured_w --rows "$ROWS" --ops "$OPS" --batch-rows "$BATCH" \
    --threads 1 --warmup 1000 --workloads get1,batch1000,scan |
    sed -n "s/^RESULT /RESULT mode=$name /p" | tee -a "$results"
}

for ((round = 1; round <= ROUNDS; round++)); do
  order=("${modes[@]}")
  if ((round % 2 == 0)); then
    order=(); for ((i = ${#modes[@]} - 1; i >= 0; i--)); do order+=("${modes[i]}"); done
  fi
  for mode in "${order[@]}"; do
    [ -z "${BENCH_MODES:-}" ] || [[ " $BENCH_MODES " == *" ${mode%% *} "* ]] || continue
    # shellcheck disable=SC2086
    run_mode $mode
  done
done

# the median of the rounds per mode and workload
awk '
  {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
    k = f["mode"] SUBSEP f["workload"]
    n[k]++; rate[k, n[k]] = f["ops_per_s"]; cpu[k, n[k]] = f["cpu_s"] / f["ops"] * 1e6
    if (!(f["mode"] in seen)) { seen[f["mode"]] = 1; order[++modes] = f["mode"] }
  }
  function median(a, k, count,   i, j, t, v) {
    for (i = 1; i <= count; i++) v[i] = a[k, i]
    for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return count % 2 ? v[(count + 1) / 2] : (v[count / 2] + v[count / 2 + 1]) / 2
  }
  END {
    print ""
    print "| mode | get (ops/s) | get CPU (us/op) | put multiple 1000 (rows/s) | CPU (us/row) | scan (rows/s) | CPU (us/row) |"
    print "|---|---:|---:|---:|---:|---:|---:|"
    for (m = 1; m <= modes; m++) {
      line = "| " order[m]
      split("get put_batch1000 scan", w, " ")
      for (i = 1; i <= 3; i++) {
        k = order[m] SUBSEP w[i]
        line = line sprintf(" | %.0f | %.1f", median(rate, k, n[k]), median(cpu, k, n[k]))
      }
      print line " |"
    }
  }' "$results"
