#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The kerberized local stack (scripts/stack.sh start-secure) works: real
# authenticated calls (getTableNamesByNamespace, tableExists) through each
# SASL gateway at the QOP it was started with, through the HTTP gateway with
# SPNEGO, with and without doAs, the same through the HTTPS gateway; and the refusals the C client will have to
# turn into precise errors: a plain call to a SASL gateway (no reply at all),
# a QOP the gateway does not offer, an HTTP POST without a token (401
# Negotiate), a token sent twice (401: replay), a doAs by a user who may not impersonate (500), a plain Thrift
# call to the HTTP gateway (400).
#
# Run:  tests/integration/test-secure-stack.sh
# It starts the secure stack if it is not running (first start ~2 min) and
# stops it again at the end unless HBASE_GLIB_TEST_KEEP_SECURE is on; a stack
# that was already running is left running.  Not part of "make check" (it may
# start a whole stack); scripts/test.sh runs it after make check.
# Needs the krb5 packages of scripts/install-deps.sh --secure; without krb5kdc it
# skips (fails under CI=true or HBASE_GLIB_TEST_REQUIRE_STACK=on).
top_srcdir=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
. "$top_srcdir/tests/support/tap.sh"
stack=$top_srcdir/scripts/stack.sh
realm=${HBASE_GLIB_SECURE_REALM:-HBASE.GLIB.TEST}
state=${HBASE_GLIB_STATE_DIR:-$top_srcdir/.stack}
secure=$state/secure
auth_port=${HBASE_GLIB_SECURE_AUTH_PORT:-19090}
int_port=${HBASE_GLIB_SECURE_INT_PORT:-19091}
priv_port=${HBASE_GLIB_SECURE_PRIV_PORT:-19092}
http_port=${HBASE_GLIB_SECURE_HTTP_PORT:-19093}
https_port=${HBASE_GLIB_SECURE_HTTPS_PORT:-19094}

tap_plan 22

if ! command -v krb5kdc >/dev/null || ! command -v kinit >/dev/null; then
  if tap_stack_required; then echo "Bail out! krb5kdc/kinit missing: run scripts/install-deps.sh --secure"; exit 1; fi
  for i in $(seq 1 22); do tap_skip "secure stack $i" "krb5kdc/kinit not installed (scripts/install-deps.sh --secure)"; done
  exit 0
fi

# Leave a secure stack that was already running as it is.
started=1
pid=$(cat "$secure/run/hbase.pid" 2>/dev/null) && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && started=
stop_if_started() {
  if [ -n "$started" ] && ! tap_boolean HBASE_GLIB_TEST_KEEP_SECURE; then "$stack" stop-secure >/dev/null 2>&1; fi
}
trap stop_if_started EXIT

t0=$(date +%s)
if out=$("$stack" start-secure 2>&1); then
  tap_ok "start-secure: KDC, kerberized HBase and 5 gateways ready ($(( $(date +%s) - t0 )) s)"
  printf '%s\n' "$out" | grep 'secure:' | sed 's/^/# /'
else
  tap_not_ok "start-secure"; printf '%s\n' "$out" | sed 's/^/# /'
  echo "Bail out! the secure stack did not start"; exit 1
fi

probe() { "$stack" secure-probe "$@" 2>&1; }
# expect WHAT PATTERN COMMAND...: the command succeeds and prints PATTERN
expect() {
  local what=$1 pattern=$2 out; shift 2
  if out=$("$@") && printf '%s\n' "$out" | grep -qE -- "$pattern"; then
    tap_ok "$what"; printf '%s\n' "$out" | tail -n 1 | sed 's/^/# /'
  else
    tap_not_ok "$what"; printf '%s\n' "$out" | sed 's/^/# /'
  fi
}

# MIT tools against the stack's KDC: what the C client's tests will use.
cc=$(mktemp)
expect "kinit -kt client.keytab client@$realm, then klist shows the TGT" "krbtgt/$realm@$realm" \
  env KRB5_CONFIG="$secure/krb5.conf" KRB5CCNAME="FILE:$cc" \
  sh -c "kinit -kt '$secure/keytabs/client.keytab' 'client@$realm' && klist"
rm -f "$cc"

expect "SASL GSSAPI, QOP authentication: authenticated calls" "negotiated QOP auth$" \
  probe sasl 127.0.0.1 "$auth_port" localhost authentication 60
expect "SASL GSSAPI, QOP integrity: authenticated calls" "negotiated QOP auth-int$" \
  probe sasl 127.0.0.1 "$int_port" localhost integrity 60
expect "SASL GSSAPI, QOP privacy: authenticated calls" "negotiated QOP auth-conf$" \
  probe sasl 127.0.0.1 "$priv_port" localhost privacy 60
expect "HTTP, SPNEGO: authenticated calls" "SPNEGO$" \
  probe http 127.0.0.1 "$http_port" localhost 60
expect "HTTP, SPNEGO, doAs alice (client may impersonate)" "SPNEGO, doAs alice$" \
  probe http 127.0.0.1 "$http_port" localhost 60 alice
# HTTPS: the probe trusts the test CA (stack.sh tls) and names the gateway
# localhost, as its certificate does.
expect "HTTPS, SPNEGO: authenticated calls over TLS" "TLS, SPNEGO$" \
  probe https localhost "$https_port" localhost 60
expect "HTTPS, SPNEGO, doAs alice" "TLS, SPNEGO, doAs alice$" \
  probe https localhost "$https_port" localhost 60 alice
expect "HTTPS POST without Authorization (curl, trusting the test CA): 401 Negotiate" "^401 .*Negotiate" \
  sh -c "curl -sS -o /dev/null --cacert '$state/tls/ca.pem' -w '%{http_code} %header{www-authenticate}' -H 'Content-Type: application/x-thrift' --data x 'https://localhost:$https_port/'"
expect "HTTP, SPNEGO as alice, doAs client: refused (alice may not impersonate)" "HTTP Response code: 500" \
  env HBASE_GLIB_PROBE_PRINCIPAL="alice@$realm" HBASE_GLIB_PROBE_KEYTAB="$secure/keytabs/alice.keytab" \
  "$stack" secure-probe http-refused 127.0.0.1 "$http_port" localhost client
expect "SASL as alice (no doAs): authenticated calls" "negotiated QOP auth-int$" \
  env HBASE_GLIB_PROBE_PRINCIPAL="alice@$realm" HBASE_GLIB_PROBE_KEYTAB="$secure/keytabs/alice.keytab" \
  "$stack" secure-probe sasl 127.0.0.1 "$int_port" localhost integrity 30
expect "HTTP POST without Authorization: 401 with WWW-Authenticate: Negotiate" "^HTTP/1.1 401" \
  probe http-challenge 127.0.0.1 "$http_port"
expect "HTTP: the same SPNEGO token on a second request is refused (401, replay cache)" "first answered; second refused.*401" \
  probe http-replay 127.0.0.1 "$http_port" localhost
# The server logs "Invalid status -128" at once but neither answers nor closes.
expect "plain binary call to the SASL (authentication) gateway: no reply, no close" "got 0 bytes.*no EOF within 5 s" \
  probe plain 127.0.0.1 "$auth_port" 5
expect "plain binary call to the SASL (privacy) gateway: no reply, no close" "got 0 bytes.*no EOF within 5 s" \
  probe plain 127.0.0.1 "$priv_port" 5
expect "plain binary call to the HTTP gateway: HTTP 400, closed" "HTTP/1.1 400.*EOF \(server closed\)" \
  probe plain 127.0.0.1 "$http_port" 5
expect "QOP authentication offered to the privacy gateway: no common protection layer" "No common protection layer" \
  probe sasl-refused 127.0.0.1 "$priv_port" localhost authentication
expect "QOP privacy offered to the authentication gateway: no common protection layer" "No common protection layer" \
  probe sasl-refused 127.0.0.1 "$auth_port" localhost privacy
# No such principal: the client's GSSAPI fails before anything is sent.
expect "SASL for service host nosuchhost (no principal hbase/nosuchhost): refused by the client" "GSS initiate failed" \
  probe sasl-refused 127.0.0.1 "$auth_port" nosuchhost authentication
# A principal the KDC knows (hbase/<hostname>) but not the name the gateway
# resolved for itself (localhost): the gateway refuses the ticket.
other=$(hostname)
if [ "$other" != localhost ] && [ -n "$other" ]; then
  expect "SASL for service host $other (a valid ticket, not the gateway's name): refused by the gateway" "Peer indicated failure: GSS initiate failed" \
    probe sasl-refused 127.0.0.1 "$auth_port" "$other" authentication
else
  tap_skip "SASL for a service host that is not the gateway's name" "hostname is localhost"
fi

if out=$("$stack" status 2>&1; true) && [ "$(printf '%s\n' "$out" | grep -c '^secure-.*answering as client')" -eq 5 ]; then
  tap_ok "status: the 5 secure gateways answer"
else
  tap_not_ok "status: the 5 secure gateways answer"; printf '%s\n' "$out" | sed 's/^/# /'
fi
exit $tap_failed
