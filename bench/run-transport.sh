#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Syscalls per response: runs build/bench/bench-transport under strace once per
# implementation (ours, cglib) and transport (buffered, framed) for one
# response of 10,000 rows, and counts the socket syscalls made between the
# bench's two markers (a write(2) on stderr right before and right after the
# timed getScannerRows call), i.e. for sending the request and receiving and
# decoding the one response.  Builds nothing; needs the bench built
# (scripts/build.sh) and the local stack running (scripts/stack.sh start).
#
# The counts of a non-blocking reader depend on timing (how much the gateway
# has sent when it looks), so each case runs RUNS times, each in its own
# process, and the median is reported with the range.
#
# Settings (environment): ROWS (10000), RUNS (3), IMPLS ("ours cglib"),
# TRANSPORTS ("buffered framed"), BUDGET (600: seconds one case may take;
# c_glib's framed transport is quadratic), HOST (127.0.0.1),
# BUFFERED_PORT (9090), FRAMED_PORT (9092),
# BENCH (build/bench/bench-transport), KEEP_TRACES (unset: traces are deleted).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH:-$root/build/bench/bench-transport}
rows=${ROWS:-10000}
impls=${IMPLS:-ours cglib}
transports=${TRANSPORTS:-buffered framed}
budget=${BUDGET:-600}
runs=${RUNS:-3}
host=${HOST:-127.0.0.1}
buffered_port=${BUFFERED_PORT:-9090}
framed_port=${FRAMED_PORT:-9092}
# the I/O syscalls counted (poll/ppoll: waits for the socket, if any)
syscalls=recvfrom,recvmsg,read,readv,sendto,sendmsg,write,writev,poll,ppoll

die() { echo "run-transport: $*" >&2; exit 1; }

command -v strace >/dev/null ||
  die "strace is not installed (scripts/install-deps.sh installs it)"
[ -x "$bench" ] ||
  die "$bench is missing: build it first with scripts/build.sh (this script builds nothing)"
for t in $transports; do
  case $t in
    buffered) port=$buffered_port ;;
    framed) port=$framed_port ;;
    *) die "unknown transport '$t' in TRANSPORTS (buffered or framed)" ;;
  esac
  (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null ||
    die "no gateway listens on $host:$port (binary/$t): start the local stack with scripts/stack.sh start"
done
case $runs in ''|*[!0-9]*|0) die "RUNS must be a positive number" ;; esac
for i in $impls; do
  case $i in ours|cglib) ;; *) die "unknown implementation '$i' in IMPLS (ours or cglib)" ;; esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/run-transport.XXXXXX")
[ -n "${KEEP_TRACES:-}" ] || trap 'rm -rf "$work"' EXIT

# Counts the syscalls between the markers of one strace -f -o file: one line
# per call (an "<unfinished ...>" call counts once, its "resumed" line adds
# only its return value), and the bytes the receive calls returned.
count_window() {
  awk '
    /bench-transport: response begin/ { inside = 1; next }
    /bench-transport: response end/   { inside = 0; next }
    !inside { next }
    {
      line = $0
      sub(/^[0-9]+ +/, "", line)                 # the pid strace -f adds
      resumed = (line ~ /^<\.\.\. [a-z0-9_]+ resumed>/)
      if (resumed) {
        name = line; sub(/^<\.\.\. /, "", name); sub(/ resumed>.*/, "", name)
      } else {
        name = line; sub(/\(.*/, "", name)
        if (name !~ /^[a-z0-9_]+$/) next         # signals, exit lines
        calls[name]++
        total++
      }
      if (name ~ /^(recvfrom|recvmsg|read|readv)$/ && line !~ /<unfinished \.\.\.>$/ &&
          match(line, /= [0-9]+/))
        received += substr(line, RSTART + 2, RLENGTH - 2)
    }
    END {
      detail = ""
      for (n in calls) detail = detail sprintf("%s%s=%d", detail == "" ? "" : " ", n, calls[n])
      printf "%d\t%d\t%s\n", total, received, detail == "" ? "-" : detail
    }' "$1"
}

printf 'run-transport: %s rows, one getScannerRows response per run, %s run(s) per case, %s (%s)\n' \
  "$rows" "$runs" "$bench" "$(uname -srm)"
results=()
for impl in $impls; do
  for t in $transports; do
    counts=()
    note=
    for run in $(seq 1 "$runs"); do
      trace=$work/$impl-$t-$run.trace
      log=$work/$impl-$t-$run.out
      echo "run-transport: $impl $t, run $run of $runs ..." >&2
      status=0
      strace -f -qq -s 40 -e trace="$syscalls" -o "$trace" \
        "$bench" --host "$host" --buffered-port "$buffered_port" --framed-port "$framed_port" \
                 --rows "$rows" --repeat 1 --impl "$impl" --transport "$t" \
                 --budget-seconds "$budget" --strace-markers >"$log" 2>"$work/$impl-$t-$run.err" ||
        status=$?
      if [ "$status" -eq 2 ]; then
        cat "$work/$impl-$t-$run.err" >&2
        die "the bench could not run (see above)"
      fi
      case_line=$(grep -E "^$impl +$t +$rows rows" "$log" || true)
      if [ -z "$case_line" ] || ! grep -q 'bench-transport: response end' "$trace"; then
        note="not measured: ${case_line:-bench exited with $status}"
        break
      fi
      echo "  $case_line" >&2
      counts+=("$(count_window "$trace")")
      [ -n "${KEEP_TRACES:-}" ] || rm -f "$trace"
    done
    if [ -n "$note" ]; then
      results+=("$(printf '%-5s  %-8s  %s' "$impl" "$t" "$note")")
      continue
    fi
    # the median run by syscall count, and the range
    sorted=$(printf '%s\n' "${counts[@]}" | sort -t $'\t' -k1,1n)
    IFS=$'\t' read -r total received detail < <(sed -n "$(( (${#counts[@]} + 1) / 2 ))p" <<<"$sorted")
    low=$(head -n1 <<<"$sorted" | cut -f1)
    high=$(tail -n1 <<<"$sorted" | cut -f1)
    results+=("$(printf '%-5s  %-8s  %8d  %-17s  %14d  %s' "$impl" "$t" "$total" "$low-$high" "$received" "$detail")")
  done
done

printf '\nsyscalls per response (%s rows; counted between the markers: the request sent, the response\n' "$rows"
printf 'received and decoded; median of %s run(s), the range across runs, and the median run by syscall)\n' "$runs"
printf '%-5s  %-8s  %8s  %-17s  %14s  %s\n' impl transport syscalls range "bytes received" "by syscall"
printf '%s\n' "${results[@]}"
[ -z "${KEEP_TRACES:-}" ] || echo "run-transport: traces kept in $work" >&2
