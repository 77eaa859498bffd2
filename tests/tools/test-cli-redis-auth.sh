#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The hbase-glib tool and Redis credentials: they come from
# --redis-user / --redis-password-file or HBASE_GLIB_REDIS_USER /
# HBASE_GLIB_REDIS_PASSWORD / HBASE_GLIB_REDIS_PASSWORD_FILE, never from
# the command line (--redis-password is refused); a recognisable password
# never shows in --help, --list-commands, TSV or -o json output, or any
# error, -v included.  Against the real stack: an index defined, written
# and queried through the ACL user of the stack's second redis-server
# (HBASE_GLIB_REDIS_ACL_PORT, default 6380), a wrong password, no
# credentials, a group-readable password file.  Tables are named after
# this process and dropped at the end.
. "$top_srcdir/tests/support/tap.sh"
. "$top_srcdir/tests/support/cli-checks.sh"
cli=$top_builddir/tools/hbase-glib
tmp=$(mktemp -d)
suffix=$$_$(date +%s)
ti=hbase_glib_cli_auth_$suffix
meta=hbase_glib_cli_auth_meta_$suffix
canary=hbglib-CANARY-cli-5e1d
acl_port=${HBASE_GLIB_REDIS_ACL_PORT:-6380}
state=${HBASE_GLIB_STATE_DIR:-$top_srcdir/.stack}
idx_file=$state/redis-acl/idx.password
unset HBASE_GLIB_REDIS_USER HBASE_GLIB_REDIS_PASSWORD HBASE_GLIB_REDIS_PASSWORD_FILE

acl() { "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" --redis-user idx --redis-password-file "$idx_file" "$@"; }
cleanup() {
  acl index-drop --yes "$ti" >/dev/null 2>&1
  "$cli" drop --yes --if-exists "$ti" >/dev/null 2>&1
  "$cli" drop --yes --if-exists "$meta" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

no_canary() {
  if printf '%s\n%s\n' "$out" "$err" | grep -q -- "$canary"; then
    tap_not_ok "$1: the password is not shown"
    printf '%s\n' "--- stdout:" "$out" "--- stderr:" "$err" | sed 's/^/# /'
  else
    tap_ok "$1: the password is not shown"
  fi
}

# --- without a server ------------------------------------------------------------------------

export HBASE_GLIB_REDIS_PASSWORD=$canary
run "$cli" --help-connection
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q -- '--redis-user=USER' &&
   printf '%s\n' "$out" | grep -q -- '--redis-password-file=FILE' && ! printf '%s\n' "$out" | grep -q -- '--redis-password='; then
  tap_ok "--help-connection: --redis-user and --redis-password-file, no --redis-password"
else tap_not_ok "--help-connection names the credential options"; printf '%s\n' "$out" | sed 's/^/# /'; fi
no_canary "--help-connection"
for args in "--help" "index-query --help-all" "--list-commands" "version"; do
  run "$cli" $args
  no_canary "hbase-glib $args"
done
run "$cli" --list-commands
if printf '%s\n' "$out" | grep -q -- '--redis-password-file=' && ! printf '%s\n' "$out" | grep -q -- '--redis-password= '; then
  tap_ok "--list-commands: --redis-password-file, and --redis-password is hidden"
else tap_not_ok "--list-commands"; printf '%s\n' "$out" | head -n 3 | sed 's/^/# /'; fi

for where in before after; do
  if [ $where = before ]; then run "$cli" --redis-password="$canary" index-show "$ti"
  else run "$cli" index-show "$ti" --redis-password "$canary"; fi
  expect_status "--redis-password $where the command: refused, status 2" 2 "redis-password-file"
  no_canary "--redis-password $where the command"
done
run "$cli" get t r --redis-password="$canary"
expect_status "--redis-password on a command without an index: refused too" 2 "HBASE_GLIB_REDIS_PASSWORD"
run env HBASE_GLIB_REDIS_PASSWORD_FILE=/nonexistent "$cli" index-show "$ti"
expect_status "HBASE_GLIB_REDIS_PASSWORD and _FILE both set: status 2" 2 "unset one"
unset HBASE_GLIB_REDIS_PASSWORD

# --- on the stack ------------------------------------------------------------------------------

if ! "$cli" ping >/dev/null 2>&1 || [ "$acl_port" = none ] || [ ! -r "$idx_file" ] ||
   ! (exec 3<>"/dev/tcp/127.0.0.1/$acl_port") 2>/dev/null; then
  if tap_stack_required && [ "$acl_port" != none ]; then
    tap_not_ok "the gateway and the redis-server with ACL users answer (scripts/stack.sh start-redis-acl)"
  else
    tap_skip "index commands through the ACL user" "no gateway, or no redis-server with ACL users"
  fi
  echo "1..$tap_n"
  exit $tap_failed
fi

"$cli" create "$ti" d >/dev/null
run acl index-create-meta-table
expect "index-create-meta-table" 0 ""
run acl index-define "$ti" cat=d:cat
expect_status "index-define through the ACL user" 0
run acl put --timestamp 1000 "$ti" p1 d:cat=book
expect "put through the index, as user idx (--redis-password-file)" 0 ""
run acl index-rebuild "$ti"
expect_status "index-rebuild through the ACL user" 0
run acl put --timestamp 1000 "$ti" p2 d:cat=book
expect "put after the rebuild" 0 ""
run acl index-query "$ti" cat=book
expect "index-query through the ACL user" 0 "$(printf '%s\n' 'p1	d:cat	book' 'p2	d:cat	book')"
run env HBASE_GLIB_REDIS_USER=idx HBASE_GLIB_REDIS_PASSWORD="$(cat "$idx_file")" \
  "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" index-query "$ti" cat=book -o json
expect "index-query -o json, the credentials from HBASE_GLIB_REDIS_USER and HBASE_GLIB_REDIS_PASSWORD" 0 \
  "$(printf '%s\n' '{"row":"p1","cells":[{"column":"d:cat","timestamp":1000,"value":"book"}]}' \
     '{"row":"p2","cells":[{"column":"d:cat","timestamp":1000,"value":"book"}]}')"
run env HBASE_GLIB_REDIS_USER=idx HBASE_GLIB_REDIS_PASSWORD_FILE="$idx_file" \
  "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" index-query "$ti" cat=book --count
expect "index-query, the password from HBASE_GLIB_REDIS_PASSWORD_FILE" 0 "2"
run acl index-show "$ti" -o json
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '"ready"\|ready'; then tap_ok "index-show -o json: ready"
else tap_not_ok "index-show -o json: ready"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi

# refusals: a wrong password (every output form), no credentials
for form in "" "-o json" "-v"; do
  run env HBASE_GLIB_REDIS_USER=idx HBASE_GLIB_REDIS_PASSWORD="$canary" \
    "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" index-query "$ti" cat=book $form
  expect_status "index-query with a wrong password ${form:-(TSV)}: status 4, WRONGPASS" 4 "WRONGPASS"
  no_canary "index-query with a wrong password ${form:-(TSV)}"
done
run env HBASE_GLIB_REDIS_USER=idx HBASE_GLIB_REDIS_PASSWORD="$canary" \
  "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" index-show "$ti" -o json
no_canary "index-show -o json with a wrong password"
run env HBASE_GLIB_REDIS_USER=idx HBASE_GLIB_REDIS_PASSWORD="$canary" \
  "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" put "$ti" p3 d:cat=toy
expect_status "put with a wrong password: status 4, nothing written" 4 "redis-password-file"
no_canary "put with a wrong password"
run "$cli" get "$ti" p3
expect_status "the row was not written" 3
run "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" index-query "$ti" cat=book
expect_status "index-query without credentials: status 4, NOAUTH" 4 "NOAUTH"
run env HBASE_GLIB_REDIS_PASSWORD="$canary" "$cli" --index-meta-table "$meta" index-query "$ti" cat=book
expect_status "a password for a Redis that has none: status 4" 4 "none configured"
no_canary "a password for a Redis that has none"

# a password file readable by others: said on stderr, by its mode
printf '%s\n' "$canary" > "$tmp/pw"
chmod 644 "$tmp/pw"
run "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" --redis-user idx \
  --redis-password-file "$tmp/pw" index-query "$ti" cat=book
expect_status "a password file readable by others: status 4 and a warning" 4 "readable by others (mode 644)"
no_canary "a password file readable by others"
chmod 600 "$tmp/pw"
run "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" --redis-user idx \
  --redis-password-file "$tmp/pw" index-query "$ti" cat=book
if [ $rc -eq 4 ] && ! printf '%s\n' "$err" | grep -q "readable"; then tap_ok "mode 600: no warning"
else tap_not_ok "mode 600: no warning"; printf '%s\n' "$err" | sed 's/^/# /'; fi
run "$cli" --redis "127.0.0.1:$acl_port" --index-meta-table "$meta" --redis-user idx \
  --redis-password-file "$tmp/missing" index-query "$ti" cat=book
expect_status "a missing password file: status 2" 2 "password file"

run acl index-drop --yes "$ti"
expect "index-drop through the ACL user" 0 ""
echo "1..$tap_n"
exit $tap_failed
