#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The hbase-glib tool against the kerberized local stack (scripts/stack.sh
# start-secure): a keytab login and a kinit cache, the SASL gateways
# (authentication, privacy) and the SPNEGO ones (http, https with a proxy
# user), the settings from the environment, and the failures: no ticket,
# a protection level the gateway does not offer, bad options.  Tables are
# named after this process and dropped at the end.
. "$top_srcdir/tests/support/tap.sh"
. "$top_srcdir/tests/support/cli-checks.sh"
cli=$top_builddir/tools/hbase-glib
tmp=$(mktemp -d)
state=${HBASE_GLIB_STATE_DIR:-$top_srcdir/.stack}
secure=$state/secure
t=hbase_glib_cli_krb_$$_$(date +%s)
unset HBASE_GLIB_GATEWAYS HBASE_GLIB_KERBEROS HBASE_GLIB_KERBEROS_PRINCIPAL HBASE_GLIB_KERBEROS_KEYTAB \
  HBASE_GLIB_KERBEROS_CCACHE HBASE_GLIB_KERBEROS_QOP HBASE_GLIB_PROXY_USER HBASE_GLIB_TLS_CA_FILE

if [ ! -f "$secure/krb5.conf" ]; then
  if tap_stack_required; then
    tap_not_ok "the kerberized stack runs (scripts/stack.sh start-secure): no $secure/krb5.conf"
  else
    tap_skip "commands against the kerberized stack" "not running (scripts/stack.sh start-secure)"
  fi
  tap_plan $tap_n
  exit 0
fi
eval "$(HBASE_GLIB_STATE_DIR=$state "$top_srcdir/scripts/stack.sh" secure-env)"
keytab=$HBASE_GLIB_SECURE_KEYTABS/client.keytab
auth_gw=localhost:$HBASE_GLIB_SECURE_AUTH_PORT
priv_gw=localhost:$HBASE_GLIB_SECURE_PRIV_PORT
http_gw=http://localhost:$HBASE_GLIB_SECURE_HTTP_PORT/
https_gw=https://localhost:${HBASE_GLIB_SECURE_HTTPS_PORT:-19094}/
ca=$state/tls/ca.pem
export KRB5CCNAME=FILE:$tmp/cc

login() { "$cli" --kerberos-keytab "$keytab" --kerberos-principal client "$@"; }
cleanup() {
  login -g "$priv_gw" drop --yes --if-exists "$t" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

# --- options ---------------------------------------------------------------------------------

run "$cli" --help-connection
if printf '%s\n' "$out" | grep -q -- '--kerberos-keytab=FILE' && printf '%s\n' "$out" | grep -q -- '--proxy-user=USER'; then
  tap_ok "--help-connection names the Kerberos options"
else tap_not_ok "--help-connection names the Kerberos options"; fi
run "$cli" --kerberos-keytab "$keytab" -g "$priv_gw" get "$t" r1
expect_status "a keytab without a principal is bad usage" 2 "kerberos-principal"
run "$cli" --kerberos-qop strongest -g "$priv_gw" get "$t" r1
expect_status "an unknown protection level is bad usage" 2 "strongest"
run "$cli" --kerberos -g "$priv_gw" --transport framed get "$t" r1
expect_status "Kerberos over framed transport is bad usage" 2 "buffered"

# --- keytab login, SASL ----------------------------------------------------------------------

run login -g "$priv_gw" create "$t" f
expect_status "create through the privacy gateway, logged in from the keytab" 0
run login -g "$priv_gw" put "$t" r1 f:q=sealed-value
expect_status "put through the privacy gateway" 0
run login -g "$priv_gw" get "$t" r1 -o tsv
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'sealed-value'; then
  tap_ok "get through the privacy gateway reads the value back"
else tap_not_ok "get through the privacy gateway"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
[ ! -e "$tmp/cc" ] && tap_ok "a keytab login leaves the credentials cache alone" ||
  tap_not_ok "a keytab login wrote $tmp/cc"

# --- a kinit cache ---------------------------------------------------------------------------

run "$cli" --kerberos -g "$auth_gw" get "$t" r1 -o tsv
expect_status "no ticket: exit status 4" 4 "kinit"
kinit -kt "$keytab" client >/dev/null 2>&1
run "$cli" --kerberos -g "$auth_gw" get "$t" r1 -o tsv
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'sealed-value'; then
  tap_ok "get through the authentication gateway with the kinit cache"
else tap_not_ok "get with the kinit cache"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
run env HBASE_GLIB_KERBEROS=true HBASE_GLIB_GATEWAYS="$priv_gw" HBASE_GLIB_KERBEROS_QOP=privacy \
  "$cli" get "$t" r1 -o tsv
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'sealed-value'; then
  tap_ok "the settings from HBASE_GLIB_KERBEROS, _QOP and HBASE_GLIB_GATEWAYS"
else tap_not_ok "the settings from the environment"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
run "$cli" --kerberos-qop privacy -g "$auth_gw" get "$t" r1
expect_status "a gateway offering less than privacy is refused: exit status 4" 4 "privacy"

# --- SPNEGO ----------------------------------------------------------------------------------

run "$cli" --kerberos -g "$http_gw" get "$t" r1 -o tsv
expect_status "Kerberos over a plain http:// gateway is refused without --allow-insecure-http" 2 \
  "allow-insecure-http"
run "$cli" --kerberos --allow-insecure-http -g "$http_gw" get "$t" r1 -o tsv
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'sealed-value'; then
  tap_ok "get through the SPNEGO http gateway"
else tap_not_ok "get through the SPNEGO http gateway"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
run "$cli" -g "$http_gw" get "$t" r1
expect_status "the SPNEGO gateway without Kerberos: exit status 4, saying so" 4 "Kerberos"
run "$cli" --kerberos --proxy-user alice --tls-ca-file "$ca" -g "$https_gw" get "$t" r1 -o tsv
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'sealed-value'; then
  tap_ok "get through the https SPNEGO gateway as proxy user alice"
else tap_not_ok "get through https as alice"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi

run login -g "$priv_gw" drop --yes "$t"
expect_status "drop through the privacy gateway" 0
tap_plan $tap_n
exit 0
