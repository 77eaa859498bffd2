# SPDX-License-Identifier: Apache-2.0
# tap.sh: TAP helpers for shell tests, sourced by tests/*/test-*.sh.
tap_n=0
tap_failed=0
tap_plan() { echo "1..$1"; }
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
tap_not_ok() { tap_n=$((tap_n + 1)); tap_failed=1; echo "not ok $tap_n - $1"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
# tap_check DESCRIPTION COMMAND...: one test point from a command's status;
# on failure its output is shown as TAP comments.
tap_check() {
  local what=$1 out; shift
  if out=$("$@" 2>&1); then tap_ok "$what"; else tap_not_ok "$what"; printf '%s\n' "$out" | sed 's/^/# /'; fi
}
# tap_boolean VARIABLE: whether the environment variable is on, parsed as
# tests/support/test-env.c does: 1/true/yes/on, or 0/false/no/off/empty/
# unset; any other value bails out.
tap_boolean() {
  local value
  eval "value=\${$1:-}"
  case $(printf '%s' "$value" | tr '[:upper:]' '[:lower:]') in
    1|true|yes|on) return 0;;
    ''|0|false|no|off) return 1;;
    *) echo "Bail out! $1='$value' is not a boolean (1, true, yes, on or 0, false, no, off)"; exit 1;;
  esac
}
# Whether a missing service must fail (CI, or HBASE_GLIB_TEST_REQUIRE_STACK
# on) or may skip.
tap_stack_required() {
  case $(printf '%s' "${CI:-}" | tr '[:upper:]' '[:lower:]') in true|1|yes|on) return 0;; esac
  tap_boolean HBASE_GLIB_TEST_REQUIRE_STACK
}
