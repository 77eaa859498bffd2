#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite, from a fresh Debian 12 machine (as root) or a
# developer's checkout: install what is needed, build, start the local
# stack, then run
#   1. make check             unit tests, IDL check against the gateway jar,
#                             integration tests on all four protocol/transport
#                             combinations, example, install + pkg-config
#   2. make distcheck         the release tarball builds and passes its tests
#   3. make check             again in an ASan + UBSan build
#   4. make check-valgrind    every test program under memcheck
# An unreachable stack fails the integration tests here (never a skip).
# The stack keeps running afterwards; `scripts/stack.sh stop` stops it.
#
#   scripts/test.sh           everything above
#   scripts/test.sh --quick   only step 1
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

export HBASE_GLIB_TEST_REQUIRE_STACK=1
# the restart test drives this stack from make distcheck's copy of the tree too
export HBASE_GLIB_STATE_DIR=${HBASE_GLIB_STATE_DIR:-$repo/.stack}
passed=0
failed=0
failed_steps=()

# Adds the counts of an automake test-suite.log to the totals.
count_suite() {
  local log=$1/test-suite.log p f
  [ -f "$log" ] || { failed=$((failed + 1)); return; }
  p=$(awk '/^# PASS:/ {s += $3} END {print s + 0}' "$log")
  f=$(awk '/^# (FAIL|ERROR|XPASS):/ {s += $3} END {print s + 0}' "$log")
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
}

step() {
  local name=$1; shift
  say "$name"
  if "$@"; then return 0; fi
  failed_steps+=("$name")
  return 1
}

step "make check" make -C "$build" -j"$(nproc)" check
count_suite "$build"

if [ $quick = no ]; then
  # The long randomized tests (differential, property, concurrency) run at
  # full size in the first make check; the later passes repeat every test
  # with fewer steps, which is what memory checkers and the tarball check
  # are for.
  export HBASE_GLIB_TEST_QUICK=1
  if step "make distcheck" make -C "$build" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi

  if sanitizers=$(scripts/build.sh --sanitizers); then
    step "make check (ASan + UBSan)" make -C "$sanitizers" -j"$(nproc)" check
    count_suite "$sanitizers"
  else
    failed_steps+=("sanitizer build"); failed=$((failed + 1))
  fi

  say "make check-valgrind"
  make -C "$build" check-valgrind | tee "$build/valgrind-summary.log"
  v=$(sed -n 's/^valgrind: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$build/valgrind-summary.log")
  if [ -n "$v" ]; then
    passed=$((passed + ${v% *})); failed=$((failed + ${v#* }))
  else
    failed_steps+=("make check-valgrind"); failed=$((failed + 1))
  fi
fi

say "summary"
[ ${#failed_steps[@]} -eq 0 ] || printf 'failed step: %s\n' "${failed_steps[@]}"
echo "stack logs: $repo/.stack/logs"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#failed_steps[@]} -eq 0 ]
