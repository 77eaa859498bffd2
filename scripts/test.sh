#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite, from a fresh Debian 12 machine (as root) or a
# developer's checkout: install what is needed, build, start the local
# stack, then run
#   1. make check             unit tests, IDL check against the gateway jar,
#                             integration tests on all four protocol/transport
#                             combinations, example, install + pkg-config,
#                             the Python tests of the bindings (required:
#                             scripts/build.sh configures with
#                             --enable-python-tests=yes)
#      secure stack           tests/integration/test-secure-stack.sh: the
#                             kerberized stack's gateways, KDC and refusals
#      ABI                    scripts/abi-check.sh: the libraries' ABI against abi/
#      reference              the introspection data and the API reference:
#                             g-ir-scanner --warn-all and gi-docgen warnings
#      packages               scripts/package.sh: the Debian packages built,
#                             lintian, installed, used from outside C and
#                             Python against the stack, removed
#   2. make distcheck         the release tarball builds and passes its tests
#   3. make check             again in an ASan + UBSan build
#   4. make check-valgrind    every test program under memcheck
#   5. scripts/fuzz.sh --ci   every fuzz harness for 10-20 s (tests/fuzz/ci-budget)
#   6. scripts/chaos.sh       3 minutes of chaos on a multi-region-server
#                             HBase under a mixed workload, invariants checked
#   7. scripts/cluster-suite.sh  the integration suites that run on both
#                             backends (Thrift2 and native), on an HBase with
#                             three region servers
# An unreachable stack fails the integration tests here (never a skip).
# The stack keeps running afterwards; `scripts/stack.sh stop` stops it.
#
# Every test case's result in every step is collected (program + TAP test
# name); the summary counts distinct test cases and their runs.  A skipped
# test fails the run unless tests/skip-allowlist allows it (see there).
#
#   scripts/test.sh           everything above
#   scripts/test.sh --quick   only step 1, the secure stack, the ABI check and
#                             the reference figures
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
quick=no
[ "${1:-}" = --quick ] && quick=yes

say() { printf '\n=== %s\n' "$*"; }

say "installing packages"
scripts/install-deps.sh || exit 1
say "building"
build=$(scripts/build.sh) || exit 1
say "starting the local stack"
scripts/stack.sh start || exit 1
# the kerberized stack beside it (KDC, kerberized HBase, SASL and SPNEGO
# gateways): the Kerberos tests of every step run against it
say "starting the kerberized local stack"
scripts/stack.sh start-secure || exit 1

export HBASE_GLIB_TEST_REQUIRE_STACK=1
# the restart test drives this stack from make distcheck's copy of the tree too
export HBASE_GLIB_STATE_DIR=${HBASE_GLIB_STATE_DIR:-$repo/.stack}

# --- results ----------------------------------------------------------------------
# One line per test run: STEP <tab> PROGRAM <tab> TEST <tab> RESULT <tab> REASON,
# RESULT one of PASS FAIL SKIP ERROR XFAIL XPASS.  Steps add to it with the
# record_* functions below.  A new step is one line:
#   tap_step "fuzz" scripts/fuzz.sh --ci        (a command printing TAP)
# or, for a command that reports only counts or only its exit status,
#   step_begin NAME; run it; record_counts NAME LABEL PASSED FAILED [SKIPPED]
#   (or record_result NAME TEST PASS|FAIL); failed_steps+=(NAME) when it failed.
results=$(mktemp "${TMPDIR:-/tmp}/hbase-glib-test-results.XXXXXX")
trap 'rm -f "$results"' EXIT
steps=()          # step names, in order, for the summary
failed_steps=()

# each step's start, in seconds since this script began: the summary gives
# the time each step took
step_started=()
step_begin() { steps+=("$1"); step_started+=("$SECONDS"); say "$1"; }

# record_result STEP NAME RESULT [REASON]: one run of one test (a step that
# only passes or fails as a whole, e.g. make distcheck without its output).
record_result() {
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "" "$3" "${4:-}" >> "$results"
}

# Result lines as automake's tap-driver writes them (into each test's .log
# and on make check's output): "RESULT: PROGRAM N NAME[ # DIRECTIVE REASON]"
# for a test, "RESULT: PROGRAM - WHAT" for the whole program (a skip plan,
# an exit status, a bail-out).  Reads stdin; with a PROGRAM prefix as $2,
# only lines of programs starting with it.  On the output of a parallel
# make, a result line may start in the middle of another one, cut short: the
# last result on a line is taken (the cut one is lost, hence the .log files
# for make check; make distcheck runs its tests one at a time).
parse_driver_lines() {
  awk -v step="$1" -v only="${2:-}" '
    {
      line = $0; start = 0
      while (match(substr(line, start + 1), /(PASS|FAIL|SKIP|ERROR): (tests|examples)\//))
        start += RSTART
      if (start > 1 && substr(line, start - 1, 1) == "X") start--
      if (start > 1) $0 = substr(line, start)
    }
    /^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): / {
      result = substr($1, 1, length($1) - 1); program = $2
      if (only != "" && index(program, only) != 1) next
      rest = $0; sub(/^[A-Z]+: [^ ]+ ?/, "", rest)
      if (rest ~ /^[0-9]+( |$)/) {
        sub(/^[0-9]+ */, "", rest); sub(/^- /, "", rest)
        name = rest; reason = ""
        if (match(rest, / # [A-Z-]+( |$)/)) {
          name = substr(rest, 1, RSTART - 1); reason = substr(rest, RSTART + 3)
          sub(/^(SKIP|TODO) ?/, "", reason)
        }
      } else {
        name = "(whole program)"; reason = rest; sub(/^- /, "", reason)
      }
      printf "%s\t%s\t%s\t%s\t%s\n", step, program, name, result, reason
    }'
}

# record_automake STEP BUILDDIR STAMP: the results of the tests make check
# ran in BUILDDIR after STAMP was made (the .log of every .trs newer than it).
# A make check that left no result at all is an error of the step.
record_automake() {
  local step=$1 dir=$2 stamp=$3 trs log stem n=0
  while IFS= read -r -d '' trs; do
    log=${trs%.trs}.log
    n=$((n + 1))
    if [ -f "$log" ]; then
      stem=${log#"$dir"/}
      parse_driver_lines "$step" "${stem%.log}" < "$log" >> "$results"
    else
      record_result "$step" "${trs#"$dir"/}" ERROR "no log file"
    fi
  done < <(find "$dir" -name '*.trs' -newer "$stamp" -print0)
  [ $n -gt 0 ] || record_result "$step" "$step" ERROR "no test results in $dir"
}

# record_driver_output STEP FILE: the result lines tap-driver printed on a
# make check's (or distcheck's) output, saved in FILE.  Returns 1 when
# there are none.
record_driver_output() {
  local before after
  before=$(wc -l < "$results")
  parse_driver_lines "$1" < "$2" >> "$results"
  after=$(wc -l < "$results")
  [ "$after" -gt "$before" ]
}

# record_tap STEP PROGRAM FILE: the raw TAP output of PROGRAM, saved in FILE
# (ok / not ok / # SKIP / Bail out! / the plan).  A missing plan, fewer
# tests than planned or a bail-out is an ERROR run of PROGRAM.
record_tap() {
  awk -v step="$1" -v program="$2" '
    function emit(name, result, reason) {
      printf "%s\t%s\t%s\t%s\t%s\n", step, program, name, result, reason
    }
    /^1\.\.[0-9]+/ { plan = $1; sub(/^1\.\./, "", plan); planned = 1
                     if ($0 ~ /# SKIP/) { r = $0; sub(/.*# SKIP */, "", r); emit("(whole program)", "SKIP", r) }
                     next }
    /^(not )?ok( |$)/ {
      result = /^not ok/ ? "FAIL" : "PASS"
      rest = $0; sub(/^(not )?ok */, "", rest); sub(/^[0-9]+ */, "", rest); sub(/^- /, "", rest)
      reason = ""
      if (match(rest, / *# *(SKIP|TODO)( |$)/)) {
        directive = substr(rest, RSTART, RLENGTH)
        reason = substr(rest, RSTART + RLENGTH); rest = substr(rest, 1, RSTART - 1)
        if (directive ~ /SKIP/) result = "SKIP"
        else result = result == "PASS" ? "XPASS" : "XFAIL"
      }
      emit(rest, result, reason); n++
      next
    }
    /^Bail out!/ { bailed = $0 }
    END {
      if (bailed != "") emit("(whole program)", "ERROR", bailed)
      else if (!planned) emit("(whole program)", "ERROR", "no TAP plan")
      else if (n < plan) emit("(whole program)", "ERROR", n " of " plan " planned tests ran")
    }' "$3" >> "$results"
}

# record_counts STEP NAME PASSED FAILED [SKIPPED]: a step that only reports
# counts; each counted test is "NAME #i" (distinct only within the step).
record_counts() {
  local i
  for ((i = 1; i <= $3; i++)); do record_result "$1" "$2 #$i" PASS; done
  for ((i = 1; i <= $4; i++)); do record_result "$1" "$2 #$(($3 + i))" FAIL; done
  for ((i = 1; i <= ${5:-0}; i++)); do record_result "$1" "$2 #$(($3 + $4 + i))" SKIP "(no reason given)"; done
}

# run_step STEP COMMAND...: runs it; a failing command fails the step.
run_step() {
  local name=$1; shift
  if "$@"; then return 0; fi
  failed_steps+=("$name")
  return 1
}

# tap_step STEP COMMAND...: runs COMMAND, which prints TAP on its stdout
# (shown and kept in a temporary file), and records each of its tests as
# tests of the program "STEP"; a non-zero exit fails the step.
tap_step() {
  local step=$1 out status; shift
  step_begin "$step"
  out=$(mktemp "${TMPDIR:-/tmp}/hbase-glib-test-tap.XXXXXX")
  "$@" | tee "$out"
  status=${PIPESTATUS[0]}
  [ "$status" -eq 0 ] || failed_steps+=("$step")
  record_tap "$step" "$step" "$out"
  rm -f "$out"
  return "$status"
}

# make check in BUILDDIR as step STEP, results recorded.
make_check_step() {
  local step=$1 dir=$2 stamp
  step_begin "$step"
  stamp=$(mktemp "$dir/.check-stamp.XXXXXX")
  sleep 1   # .trs files of this run are strictly newer than the stamp
  run_step "$step" make -C "$dir" -j"$(nproc)" check
  record_automake "$step" "$dir" "$stamp"
  rm -f "$stamp"
}

# --- steps ------------------------------------------------------------------------------
make_check_step "make check" "$build"

# The kerberized stack itself (tests/integration/test-secure-stack.sh): the
# KDC, each SASL gateway at its QOP, SPNEGO over HTTP and HTTPS, doAs, and
# the refusals the client turns into errors.  The stack was started above,
# so the script neither starts nor stops it.
tap_step "secure stack" tests/integration/test-secure-stack.sh

# The ABI of the three libraries against the baselines in abi/: an
# unintended change fails (an intended one updates them: docs/abi.md).
step_begin "ABI"
abi_out=$(mktemp "${TMPDIR:-/tmp}/hbase-glib-test-abi.XXXXXX")
scripts/abi-check.sh "$build" 2>&1 | tee "$abi_out"
abi_status=${PIPESTATUS[0]}
[ "$abi_status" -eq 0 ] || failed_steps+=("ABI")
for lib in libhbase-glib-1.0 libhbase-glib-index-1.0 libhbase-glib-thrift-1.0; do
  if grep -q "^abi-check: $lib: abidiff: no ABI change$" "$abi_out"; then
    record_result "ABI" "$lib" PASS
  elif grep -q "^abi-check: $lib: an .*ABI change" "$abi_out"; then
    record_result "ABI" "$lib" FAIL "ABI changed against abi/$lib.abi"
  else
    record_result "ABI" "$lib" ERROR "scripts/abi-check.sh could not compare it (status $abi_status)"
  fi
done
rm -f "$abi_out"

# The figures of the introspection data and the API reference (make check's
# tests/test-gir.py already failed on a scanner warning or an undocumented
# symbol; this records gi-docgen's own counts too).
step_begin "reference"
figures_out=$(mktemp "${TMPDIR:-/tmp}/hbase-glib-test-figures.XXXXXX")
make -s -C "$build" gir-warnings docs-warnings 2>&1 | tee "$figures_out"
for what in "g-ir-scanner --warn-all" "gi-docgen" "gi-docgen check"; do
  n=$(sed -n "s/^$what: \([0-9]*\) .*/\1/p" "$figures_out")
  if [ "$n" = 0 ]; then
    record_result "reference" "$what" PASS
  else
    record_result "reference" "$what" FAIL "${n:-no} warnings"; failed_steps+=("reference")
  fi
done
figures=$(grep -E '^(g-ir-scanner|gi-docgen)' "$figures_out" | sed 's/ (see .*//' | paste -sd';' | sed 's/;/; /g')
rm -f "$figures_out"

if [ $quick = no ]; then
  # Debian packages from a copy of the tree, lintian, installed and used
  # against the running stack, then removed (scripts/package.sh)
  packages_out=$(mktemp "${TMPDIR:-/tmp}/hbase-glib-test-packages.XXXXXX")
  tap_step "packages" scripts/package.sh > >(tee "$packages_out")
  wait $!   # the tee of the process substitution
  figures+="; $(grep -o 'lintian: [0-9]* errors, [0-9]* warnings' "$packages_out" | tail -n 1)"
  rm -f "$packages_out"
fi
abi_figure=$(awk -F'\t' '$1 == "ABI" && $4 == "PASS"' "$results" | wc -l)
figures+="; abidiff: $abi_figure of 3 libraries with no ABI change"

if [ $quick = no ]; then
  # The long randomized tests (differential, property, concurrency) run at
  # full size in the first make check; the later passes repeat every test
  # with fewer steps, which is what memory checkers and the tarball check
  # are for.
  export HBASE_GLIB_TEST_QUICK=1

  step_begin "distcheck"
  make -C "$build" -j"$(nproc)" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror 2>&1 | tee "$build/distcheck.out"
  status=${PIPESTATUS[0]}
  [ "$status" -eq 0 ] || failed_steps+=("distcheck")
  # each test of the tarball's make check, from tap-driver's lines on its output
  if ! record_driver_output "distcheck" "$build/distcheck.out"; then
    record_result "distcheck" "make distcheck" "$([ "$status" -eq 0 ] && echo PASS || echo FAIL)" \
      "no test results on its output"
  fi

  if sanitizers=$(scripts/build.sh --sanitizers); then
    make_check_step "ASan+UBSan" "$sanitizers"
  else
    step_begin "ASan+UBSan"; failed_steps+=("sanitizer build")
    record_result "ASan+UBSan" "sanitizer build" FAIL
  fi

  step_begin "valgrind"
  stamp=$(mktemp "$build/.valgrind-stamp.XXXXXX")
  sleep 1
  make -C "$build" check-valgrind 2>&1 | tee "$build/valgrind-summary.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed_steps+=("valgrind")
  # each program's TAP output under valgrind (the rule saves it next to the
  # valgrind log); examples/hello is not TAP: its exit status is its result
  n=0
  while IFS= read -r tap; do
    program=${tap#"$build"/}; program=${program%.valgrind.out}
    if [ "$program" = examples/hello ]; then
      if grep -q '^PASS: valgrind examples/hello$' "$build/valgrind-summary.log"; then
        record_result valgrind examples/hello PASS
      else
        record_result valgrind examples/hello FAIL
      fi
    else
      record_tap valgrind "$program" "$tap"
    fi
    n=$((n + 1))
  done < <(find "$build" -name '*.valgrind.out' -newer "$stamp" | sort)
  rm -f "$stamp"
  [ $n -gt 0 ] || record_result valgrind "make check-valgrind" ERROR "no TAP output saved"
fi

if [ $quick = no ]; then
  # every libFuzzer harness for a short fixed time (make check above only
  # replayed their corpora); any crash, leak, huge allocation or broken
  # invariant fails it
  tap_step "fuzz" scripts/fuzz.sh --ci

  # A distributed HBase (3 region servers in one JVM, its own ports and
  # state) under a chaos driver for 3 minutes: every invariant of the
  # workload is one test, and the chaos actions must all have happened.
  step_begin "chaos"
  HBASE_GLIB_BUILD_DIR=$build scripts/chaos.sh --duration 180 2>&1 | tee "$build/chaos.log"
  status=${PIPESTATUS[0]}
  [ "$status" -eq 0 ] || failed_steps+=("chaos")
  awk '/^invariant / { printf "chaos\tscripts/chaos.sh\tinvariant %s\t%s\t\n", $2, ($3 == "holds:" ? "PASS" : "FAIL") }
       /^RESULT: / { printf "chaos\tscripts/chaos.sh\tthe run as a whole\t%s\t%s\n", ($2 == "PASS" ? "PASS" : "FAIL"), $0 }' \
    "$build/chaos.log" >> "$results"
  grep -q '^RESULT: ' "$build/chaos.log" ||
    record_result chaos "scripts/chaos.sh" ERROR "no result (exit status $status)"

  step_begin "cluster"
  stamp=$(mktemp "$build/.cluster-stamp.XXXXXX")
  sleep 1
  run_step "cluster" env HBASE_GLIB_BUILD_DIR="$build" scripts/cluster-suite.sh
  record_automake "cluster" "$build" "$stamp"
  rm -f "$stamp"
fi

# --- summary ------------------------------------------------------------------------------
say "summary"
timings=""
for i in "${!steps[@]}"; do
  end=$([ $((i + 1)) -lt ${#steps[@]} ] && echo "${step_started[$((i + 1))]}" || echo "$SECONDS")
  timings+="${timings:+, }${steps[$i]} $(( (end - step_started[i] + 30) / 60 )) min"
done
echo "time: $(( (SECONDS + 30) / 60 )) min in all ($timings)"
allowlist=$repo/tests/skip-allowlist

# Prints the reason of the first allow-list entry matching PROGRAM and TEST
# (shell patterns), or fails.  Entries: "PROGRAM | TEST | REASON".
allowed_skip() {
  local program=$1 test=$2 line p t reason
  [ -f "$allowlist" ] || return 1
  while IFS= read -r line; do
    case $line in ''|'#'*) continue;; esac
    IFS='|' read -r p t reason <<<"$line"
    p=$(echo "$p" | sed 's/^ *//; s/ *$//'); t=$(echo "$t" | sed 's/^ *//; s/ *$//')
    reason=$(echo "$reason" | sed 's/^ *//; s/ *$//')
    [ -n "$reason" ] || continue   # an entry without a reason allows nothing
    # shellcheck disable=SC2053  # the entries are patterns
    if [[ $program == $p && $test == $t ]]; then printf '%s\n' "$reason"; return 0; fi
  done < "$allowlist"
  return 1
}

# entries of the allow-list that allow nothing: they must say why
if [ -f "$allowlist" ] && grep -v '^\s*\(#\|$\)' "$allowlist" | awk -F'|' 'NF < 3 || $3 ~ /^ *$/' | grep -q .; then
  echo "tests/skip-allowlist: entries need PROGRAM | TEST | REASON:"
  grep -v '^\s*\(#\|$\)' "$allowlist" | awk -F'|' 'NF < 3 || $3 ~ /^ *$/' | sed 's/^/  /'
  failed_steps+=("skip allow-list")
fi

unlisted=0
allowed=0
while IFS=$'\t' read -r step program test result reason; do
  if why=$(allowed_skip "$program" "$test"); then
    printf 'skipped (%s): %s %s: %s [allowed: %s]\n' "$step" "$program" "$test" "$reason" "$why"
    allowed=$((allowed + 1))
  else
    printf 'SKIPPED, NOT ALLOWED (%s): %s %s: %s\n' "$step" "$program" "$test" "$reason"
    unlisted=$((unlisted + 1))
  fi
done < <(awk -F'\t' '$4 == "SKIP"' "$results")
[ $unlisted -eq 0 ] || failed_steps+=("$unlisted skipped tests not on tests/skip-allowlist")

# failures, one line each
awk -F'\t' '$4 ~ /^(FAIL|ERROR|XPASS|XFAIL)$/ {
  printf "%s (%s): %s %s%s\n", $4, $1, $2, $3, ($5 != "" ? ": " $5 : "") }' "$results"

[ ${#failed_steps[@]} -eq 0 ] || printf 'failed step: %s\n' "${failed_steps[@]}"
echo "shipping: $figures"
echo "stack logs: $HBASE_GLIB_STATE_DIR/logs"

# 1234567 -> 1,234,567
thousands() { echo "$1" | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'; }

runs_by_step=""
for s in "${steps[@]}"; do
  n=$(awk -F'\t' -v s="$s" '$1 == s && $2 !~ /(^|\/)replay-[^\/]*$/' "$results" | wc -l)
  runs_by_step+="${runs_by_step:+, }$s $(thousands "$n")"
done
# count_results RESULTS: the figures of the summary line, from a results
# file, on one line: "DISTINCT PASSED FAILED SKIPPED RUNS FAILED_RUNS
# SKIPPED_RUNS INPUTS INPUTS_FAILED INPUT_RUNS", INPUTS the corpus inputs
# that passed every run.  A distinct test (program +
# name) failed if any run of it failed, else skipped if any run skipped,
# else passed.  An expected failure (TAP TODO) counts as a failure: the
# suite has none, and a test that is allowed to fail cannot fail.  The
# corpus replays of the fuzz harnesses (tests/fuzz/replay-*: one TAP point
# per committed input) are counted apart, as inputs, so that a corpus
# growing by a thousand files does not read as a thousand new tests.
count_results() {
  awk -F'\t' '
    { key = $2 "\t" $3
      corpus = ($2 ~ /(^|\/)replay-[^\/]*$/)
      if (corpus) { input_runs++; inputs[key] = 1 } else { runs++; seen[key] = 1 }
      if ($4 ~ /^(FAIL|ERROR|XPASS|XFAIL)$/) { bad[key] = 1; if (!corpus) failed_runs++ }
      else if ($4 == "SKIP") { skip[key] = 1; if (!corpus) skipped_runs++ } }
    END {
      for (k in seen) { n++; if (k in bad) f++; else if (k in skip) s++; else p++ }
      for (k in inputs) { if (k in bad) nf++; else if (!(k in skip)) ni++ }
      printf "%d %d %d %d %d %d %d %d %d %d\n", n, p, f, s, runs, failed_runs, skipped_runs,
             ni, nf, input_runs }' "$1"
}
read -r distinct passed failed skipped runs failed_runs skipped_runs \
        inputs inputs_failed input_runs < <(count_results "$results")

# distinct = passed + failed + skipped; the corpus inputs are apart
echo "tests: $(thousands "$passed") distinct tests passed ($(thousands "$runs") runs: $runs_by_step)," \
     "$(thousands "$failed") failed ($(thousands "$failed_runs") runs)," \
     "$(thousands "$skipped") skipped ($(thousands "$skipped_runs") runs, $unlisted not on tests/skip-allowlist)" \
     "of $(thousands "$distinct") distinct tests;" \
     "$(thousands "$inputs") corpus inputs replayed ($(thousands "$input_runs") runs), $(thousands "$inputs_failed") failed"
[ "$failed" -eq 0 ] && [ "$inputs_failed" -eq 0 ] && [ ${#failed_steps[@]} -eq 0 ]
