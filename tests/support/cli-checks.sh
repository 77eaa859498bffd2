# SPDX-License-Identifier: Apache-2.0
# cli-checks.sh: running the command-line tool and checking what it did,
# for tests/tools/test-cli*.sh (after tap.sh; the caller sets $tmp, a
# directory of its own).
#
# run CMD...: $out (stdout), $err (stderr), $rc
run() { out=$("$@" 2>"$tmp/err"); rc=$?; err=$(cat "$tmp/err"); }
# expect DESCRIPTION STATUS EXPECTED_STDOUT: checks the last run
expect() {
  if [ "$rc" = "$2" ] && [ "$out" = "$3" ]; then
    tap_ok "$1"
  else
    tap_not_ok "$1"
    echo "# status $rc (expected $2)"
    printf '%s\n' "--- stdout:" "$out" "--- expected:" "$3" "--- stderr:" "$err" | sed 's/^/# /'
  fi
}
# expect_status DESCRIPTION STATUS [STDERR_PATTERN]
expect_status() {
  if [ "$rc" = "$2" ] && { [ -z "${3:-}" ] || printf '%s\n' "$err" | grep -q -- "$3"; }; then
    tap_ok "$1"
  else
    tap_not_ok "$1"
    echo "# status $rc (expected $2)"
    printf '%s\n' "--- stdout:" "$out" "--- stderr:" "$err" | sed 's/^/# /'
  fi
}
