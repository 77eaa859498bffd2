#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the fuzz harnesses of tests/fuzz/ with clang and libFuzzer
# (-fsanitize=fuzzer,address,undefined, out of tree in build-fuzz/) and
# runs each one for a while on a scratch copy of its corpus.
#
#   scripts/fuzz.sh                       every harness, 60 s each
#   scripts/fuzz.sh --seconds 30          30 s each
#   scripts/fuzz.sh --minutes 240         4 hours each (a long run; add
#                                         --jobs 2 to use both cores)
#   scripts/fuzz.sh --ci                  as CI runs it: each harness for the
#                                         seconds of tests/fuzz/ci-budget, and
#                                         not ok when it ran fewer inputs than
#                                         the floor set there
#   scripts/fuzz.sh --keep-going          go on after a finding (libFuzzer's
#                                         fork mode), to collect several
#   scripts/fuzz.sh --merge               afterwards, merge the inputs that
#                                         add coverage into tests/fuzz/corpus/
#   scripts/fuzz.sh filter key-schema     only these harnesses
#   scripts/fuzz.sh --build-only          build, do not run
#
# Prints TAP on stdout, one test per harness with its runs and coverage
# (libFuzzer's cov and ft); the rest goes to stderr.
#
# A finding (crash, broken invariant, leak, out-of-memory, timeout) is
# saved as build-fuzz/findings/NAME/crash-* (or leak-, oom-, timeout-),
# and the script exits 1.  Reproduce it with
#   build-fuzz/tests/fuzz/fuzz-NAME build-fuzz/findings/NAME/crash-...
# and, once fixed, commit the input to tests/fuzz/corpus/NAME/ so that
# `make check` replays it.  Limits: -rss_limit_mb=2048 (the whole
# process) and -malloc_limit_mb=512 (one allocation): a reply that makes
# the library allocate more than that is a finding.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

seconds=60
ci=no
jobs=1
merge=no
keep_going=no
build_only=no
names=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --minutes) seconds=$(($2 * 60)); shift 2 ;;
    --ci) ci=yes; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --merge) merge=yes; shift ;;
    --keep-going) keep_going=yes; shift ;;
    --build-only) build_only=yes; shift ;;
    -h|--help) sed -n '3,/^set -e/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
if [ ${#names[@]} -eq 0 ]; then
  for dir in "$repo"/tests/fuzz/corpus/*/; do names+=("$(basename "$dir")"); done
fi

command -v clang >/dev/null || { echo "fuzz: clang is needed (scripts/install-deps.sh)" >&2; exit 2; }

# --- build -----------------------------------------------------------------------------
dir=$repo/build-fuzz
args=(CC=clang "CFLAGS=-g -O1 -fsanitize=fuzzer-no-link" --enable-sanitizers)
if [ -f "$repo/config.status" ]; then
  echo "fuzz: the source tree is configured in place; run 'make distclean' there first" >&2
  exit 2
fi
cd "$repo"
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] || ./autogen.sh >&2
mkdir -p "$dir"
cd "$dir"
if [ ! -f config.status ] || [ "$(cat .configure-args 2>/dev/null)" != "${args[*]}" ]; then
  "$repo/configure" -q "${args[@]}" >&2
  printf '%s' "${args[*]}" > .configure-args
fi
make -j2 fuzz-harnesses FUZZ_LDFLAGS=-fsanitize=fuzzer >&2
[ "$build_only" = yes ] && exit 0

# --- run ---------------------------------------------------------------------------------
# --ci: "NAME SECONDS MIN_RUNS" lines (tests/fuzz/ci-budget); a harness
# without one runs ci_default_seconds with no floor
ci_default_seconds=10
ci_budget() {  # NAME -> "SECONDS MIN_RUNS"
  local line
  line=$(grep -E "^$1[[:space:]]" "$repo/tests/fuzz/ci-budget" 2>/dev/null | head -1 || true)
  if [ -n "$line" ]; then echo "$line" | awk '{print $2, $3}'; else echo "$ci_default_seconds 0"; fi
}
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=0
n=0
echo "1..${#names[@]}"
for name in "${names[@]}"; do
  harness=$dir/tests/fuzz/fuzz-$name
  seeds=$repo/tests/fuzz/corpus/$name
  [ -x "$harness" ] || { echo "fuzz: no harness $name" >&2; exit 2; }
  work=$dir/scratch/$name
  findings=$dir/findings/$name
  rm -rf "$work"
  mkdir -p "$work" "$findings"
  cp "$seeds"/* "$work"/ 2>/dev/null || true
  log=$dir/logs/$name.log
  mkdir -p "$dir/logs"
  floor=0
  if [ "$ci" = yes ]; then read -r seconds floor < <(ci_budget "$name"); fi
  echo "fuzz: $name for ${seconds}s (log: $log)" >&2
  status=0
  flags=(-max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10
         -max_len=16384 -print_final_stats=1 -artifact_prefix="$findings/")
  if [ "$keep_going" = yes ]; then
    flags+=(-fork="$jobs" -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
  elif [ "$jobs" -gt 1 ]; then
    flags+=(-jobs="$jobs" -workers="$jobs")
  fi
  "$harness" "${flags[@]}" "$work" >"$log" 2>&1 || status=$?
  # with -jobs the workers log to fuzz-N.log in the current directory
  if [ "$jobs" -gt 1 ]; then cat fuzz-*.log >>"$log" 2>/dev/null || true; rm -f fuzz-*.log; fi
  execs=$( (grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" || true) | awk '{s += $2} END {print s + 0}')
  # fork mode prints no final stats: its last status line counts the runs
  [ "$execs" -gt 0 ] || execs=$( (grep -ao '^#[0-9]*' "$log" || true) | tail -1 | tr -d '#')
  cov=$( (grep -ao ' cov: [0-9]*' "$log" || true) | tail -1 | awk '{print $2}')
  ft=$( (grep -ao ' ft: [0-9]*' "$log" || true) | tail -1 | awk '{print $2}')
  found=$(find "$findings" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' \) | wc -l)
  result=ok
  if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
    result="FAILED (exit $status, $found finding(s) in $findings)"
    failed=1
    grep -a -m1 -A25 'ERROR: \|FUZZ INVARIANT\|==ERROR' "$log" >&2 || tail -n 30 "$log" >&2
  fi
  # a slow machine (or a harness made slow) must still run enough inputs
  # to mean something: fewer than the floor is a failure of its own
  if [ "$result" = ok ] && [ "$floor" -gt 0 ] && [ "$execs" -lt "$floor" ]; then
    result="FAILED (only $execs runs in ${seconds}s, the floor is $floor: tests/fuzz/ci-budget)"
    failed=1
  fi
  n=$((n + 1))
  line=$(printf '%s: %s runs in %ss, cov %s, ft %s' "$name" "$execs" "$seconds" "${cov:-?}" "${ft:-?}")
  if [ "$ci" = yes ] && [ "$floor" -eq 0 ]; then line="$line (no floor in tests/fuzz/ci-budget)"; fi
  if [ "$result" = ok ]; then echo "ok $n - $line"; else echo "not ok $n - $line: $result"; fi
  if [ "$merge" = yes ] && [ "$result" = ok ]; then
    "$harness" -merge=1 -max_len=16384 "$seeds" "$work" >>"$log" 2>&1
  fi
done

if [ "$failed" -ne 0 ]; then
  echo "fuzz: findings above" >&2
  exit 1
fi
