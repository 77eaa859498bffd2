#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The hbase-glib command-line tool: version, suggestions for mistyped
# commands, the connection options' own help, `describe` and `alter`
# against the real stack (a real change of a family's versions, shown by
# describe), the http:// and https:// gateways (--tls-ca-file, an untrusted
# certificate, compact refused), and -o json on every command that prints data, each output
# parsed by Python's json module.  Tables are named after this process and
# dropped at the end.
. "$top_srcdir/tests/support/tap.sh"
. "$top_srcdir/tests/support/cli-checks.sh"
cli=$top_builddir/tools/hbase-glib
python=/usr/bin/python3
tmp=$(mktemp -d)
suffix=$$_$(date +%s)
t=hbase_glib_cli_more_$suffix
ts=hbase_glib_cli_more_sets_$suffix
ti=hbase_glib_cli_more_index_$suffix

cleanup() {
  "$cli" drop --yes --if-exists "$t" >/dev/null 2>&1
  "$cli" drop --yes --if-exists "$ts" >/dev/null 2>&1
  "$cli" index-drop --yes "$ti" >/dev/null 2>&1
  "$cli" drop --yes --if-exists "$ti" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

# expect_json DESCRIPTION STATUS PYTHON_CHECK: the last run's status, and its
# stdout parsed as JSON (one document per line) into `docs`, `doc` the
# first, checked by PYTHON_CHECK (assert statements)
expect_json() {
  if [ "$rc" = "$2" ] && printf '%s\n' "$out" | "$python" -c '
import json, sys
docs = [json.loads(line) for line in sys.stdin.read().splitlines() if line]
assert docs, "no output"
doc = docs[0]
'"$3" 2>"$tmp/py"; then
    tap_ok "$1"
  else
    tap_not_ok "$1"
    echo "# status $rc (expected $2)"
    printf '%s\n' "--- stdout:" "$out" "--- stderr:" "$err" "--- python:" "$(cat "$tmp/py")" | sed 's/^/# /'
  fi
}

# --- without a server ----------------------------------------------------------------

library=$(sed -n 's/^AC_INIT(\[hbase-glib\], *\[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
run env HBASE_GLIB_GATEWAYS=127.0.0.1:1 "$cli" version
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^hbase-glib [0-9]' && printf '%s\n' "$out" | grep -q '^library [0-9]' &&
   [ -z "$err" ]; then
  tap_ok "version: the tool's and the library's versions, no gateway needed"
else tap_not_ok "version: the tool's and the library's versions, no gateway needed"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
version_text=$out
run "$cli" --version
expect "--version is the version command" 0 "$version_text"
run "$cli" version -o json
expect_json "version -o json" 0 '
assert set(doc) == {"tool", "library", "headers"}, doc
assert all(isinstance(v, str) and v[0].isdigit() for v in doc.values()), doc'

run "$cli" scna T
expect "a mistyped command: a suggestion, status 2" 2 ""
printf '%s\n' "$err" | grep -qxF "hbase-glib: unknown command 'scna'; did you mean 'scan'?" &&
  tap_ok "scna: did you mean 'scan'?" || { tap_not_ok "scna: did you mean 'scan'?"; echo "# $err"; }
for typo in "dscribe describe" "lsit list" "index-shwo index-show" "zrnage zrange" "pnig ping" "versoin version"; do
  set -- $typo
  run "$cli" "$1"
  if [ $rc -eq 2 ] && printf '%s\n' "$err" | grep -qF "did you mean '$2'?"; then tap_ok "$1: did you mean '$2'?"
  else tap_not_ok "$1: did you mean '$2'?"; echo "# $err"; fi
done
run "$cli" frobnicate
if [ $rc -eq 2 ] && ! printf '%s\n' "$err" | grep -q 'did you mean' && printf '%s\n' "$err" | grep -q "unknown command 'frobnicate'"; then
  tap_ok "a word far from every command: no suggestion, status 2"
else tap_not_ok "a word far from every command: no suggestion, status 2"; echo "# $err"; fi
run "$cli" help scna
if [ $rc -eq 2 ] && printf '%s\n' "$err" | grep -qF "did you mean 'scan'?"; then tap_ok "help scna: a suggestion"
else tap_not_ok "help scna: a suggestion"; echo "# $err"; fi

run "$cli" --help-connection
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q -- '--gateways' && printf '%s\n' "$out" | grep -q -- '--timeout' &&
   printf '%s\n' "$out" | grep -q -- '--config'; then tap_ok "--help-connection lists the connection options"
else tap_not_ok "--help-connection lists the connection options"; fi
run "$cli" scan --help-connection
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q -- '--gateways' && ! printf '%s\n' "$out" | grep -q -- '--prefix=PREFIX'; then
  tap_ok "COMMAND --help-connection: the connection options only"
else tap_not_ok "COMMAND --help-connection: the connection options only"; fi
run "$cli" scan --help-all
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q -- '--gateways' && printf '%s\n' "$out" | grep -q -- '--prefix'; then
  tap_ok "COMMAND --help-all: its options and the connection options"
else tap_not_ok "COMMAND --help-all: its options and the connection options"; fi
run "$cli" scan --help
if [ $rc -eq 0 ] && ! printf '%s\n' "$out" | grep -q -- '--gateways' && printf '%s\n' "$out" | grep -q -- '--prefix'; then
  tap_ok "COMMAND --help: no connection options"
else tap_not_ok "COMMAND --help: no connection options"; fi
run "$cli" list -o xml
if [ $rc -eq 2 ] && printf '%s\n' "$err" | grep -q 'unknown output format'; then tap_ok "-o with an unknown format: status 2"
else tap_not_ok "-o with an unknown format: status 2 (got $rc)"; fi

# --- against the stack ---------------------------------------------------------------------

run "$cli" ping
if [ $rc -ne 0 ]; then
  if tap_stack_required; then
    tap_not_ok "the local stack answers (status $rc)"; printf '%s\n' "$err" | sed 's/^/# /'
  else
    tap_skip "commands against the local stack" "local stack not running"
  fi
  tap_plan $tap_n
  exit 0
fi
# the stack's gateways in HTTP mode (scripts/stack.sh: 9097 http, 9098 https
# with the test CA of its state directory)
tls_ca=${HBASE_GLIB_STATE_DIR:-$top_srcdir/.stack}/tls/ca.pem
if [ -f "$tls_ca" ]; then
  run "$cli" -g http://127.0.0.1:9097 namespaces
  expect "namespaces over http://" 0 "$(printf 'default\nhbase')"
  run "$cli" -g https://localhost:9098 --tls-ca-file "$tls_ca" ping -o json
  expect_json "ping -o json over https:// with --tls-ca-file: the URL" 0 '
assert doc["gateways"] == ["https://localhost:9098/"], doc'
  # the handshake loads the system's whole CA store: under ASan on a busy
  # machine that alone can pass the default 5 s connect timeout
  HBASE_GLIB_CONNECT_TIMEOUT_MS=30000 run "$cli" -g https://localhost:9098 namespaces
  if [ $rc -eq 4 ] && printf '%s\n' "$err" | grep -q 'https://localhost:9098/: its TLS certificate is not trusted'; then
    tap_ok "https:// without the CA: status 4, the certificate is not trusted"
  else tap_not_ok "https:// without the CA: status 4, not trusted (got $rc: $err)"; fi
  run "$cli" -g http://127.0.0.1:9097 --protocol compact namespaces
  if [ $rc -eq 2 ] && printf '%s\n' "$err" | grep -q 'HTTP mode, which speaks only the binary protocol'; then
    tap_ok "compact with an http:// gateway: status 2"
  else tap_not_ok "compact with an http:// gateway: status 2 (got $rc: $err)"; fi
elif tap_stack_required; then
  tap_not_ok "the stack's test CA $tls_ca exists (scripts/stack.sh start makes it)"
else
  tap_skip "the http/https gateways" "no test CA at $tls_ca"
fi
run "$cli" ping -o json
expect_json "ping -o json" 0 '
assert doc["protocol"] == "binary" and doc["transport"] == "buffered", doc
assert doc["gateways"] == ["localhost:9090"] and doc["milliseconds"] >= 0, doc'

# describe and alter
"$cli" create "$t" d:versions=2 e --split 'm\xff' >/dev/null
run "$cli" describe "$t"
expect "describe: families with their options, regions with their keys" 0 "$(printf '%s\n' \
  "table	$t" \
  'family	d	versions=2	ttl=forever	compression=none	bloom=row	in-memory=no	block-cache=yes' \
  'family	e	versions=1	ttl=forever	compression=none	bloom=row	in-memory=no	block-cache=yes' |
  cat - <(printf '%s\n' "$out" | grep '^region'))"
regions=$(printf '%s\n' "$out" | grep '^region' | cut -f2,3)
if [ "$regions" = "$(printf '%s\n' '	m\xff' 'm\xff	')" ] &&
   [ "$(printf '%s\n' "$out" | grep '^region' | cut -f4 | grep -c ':[0-9][0-9]*$')" = 2 ]; then
  tap_ok "describe: two regions split at m\\xff, each with its server"
else tap_not_ok "describe: two regions split at m\\xff, each with its server"; printf '%s\n' "$out" | sed 's/^/# /'; fi
run "$cli" describe -o json "$t"
expect_json "describe -o json" 0 '
import base64
assert doc["table"] == "'"$t"'", doc
fams = {f["name"]: f for f in doc["families"]}
assert fams["d"]["max_versions"] == 2 and fams["e"]["max_versions"] == 1, fams
assert fams["d"]["ttl"] is None and fams["d"]["bloom_filter"] == "row" and fams["d"]["block_cache"] is True, fams
r = doc["regions"]
assert len(r) == 2 and r[0]["start_key"] == "" and r[1]["end_key"] == "", r
assert base64.b64decode(r[0]["end_key"]["base64"]) == b"m\xff" and r[1]["start_key"] == r[0]["end_key"], r
assert all(x["server"] and x["port"] > 0 for x in r), r'

"$cli" put "$t" r d:c=v1 && "$cli" put "$t" r d:c=v2 && "$cli" put "$t" r d:c=v3
run "$cli" get --versions 5 "$t" r
expect "before alter: 2 versions kept" 0 "$(printf '%s\n' 'r	d:c	v3' 'r	d:c	v2')"
run "$cli" alter "$t" --family d --max-versions 4 --ttl 86400 --bloom rowcol
expect "alter --family d --max-versions 4 --ttl 86400 --bloom rowcol" 0 ""
run "$cli" describe "$t"
if printf '%s\n' "$out" | grep -qxF 'family	d	versions=4	ttl=86400	compression=none	bloom=rowcol	in-memory=no	block-cache=yes' &&
   printf '%s\n' "$out" | grep -qxF 'family	e	versions=1	ttl=forever	compression=none	bloom=row	in-memory=no	block-cache=yes'; then
  tap_ok "describe shows the altered family, the other unchanged"
else tap_not_ok "describe shows the altered family, the other unchanged"; printf '%s\n' "$out" | sed 's/^/# /'; fi
"$cli" put "$t" r d:c=v4 && "$cli" put "$t" r d:c=v5 && "$cli" put "$t" r d:c=v6
run "$cli" get --versions 10 "$t" r
expect "after alter: 4 versions kept" 0 "$(printf '%s\n' 'r	d:c	v6' 'r	d:c	v5' 'r	d:c	v4' 'r	d:c	v3')"
run "$cli" alter "$t" --family d --in-memory yes
run "$cli" describe -o json "$t"
expect_json "alter changes only the options given (in-memory on, versions kept)" 0 '
d = [f for f in doc["families"] if f["name"] == "d"][0]
assert d["in_memory"] is True and d["max_versions"] == 4 and d["ttl"] == 86400 and d["bloom_filter"] == "rowcol", d'
run "$cli" alter "$t" --add-family x --max-versions 3 --compression gz
expect "alter --add-family" 0 ""
run "$cli" describe "$t"
if printf '%s\n' "$out" | grep -qxF 'family	x	versions=3	ttl=forever	compression=gz	bloom=row	in-memory=no	block-cache=yes'; then
  tap_ok "describe shows the added family"; else tap_not_ok "describe shows the added family"; printf '%s\n' "$out" | sed 's/^/# /'; fi
run "$cli" alter "$t" --delete-family e </dev/null
if [ $rc -eq 2 ] && printf '%s\n' "$err" | grep -q 'not confirmed'; then tap_ok "alter --delete-family without --yes: not confirmed"
else tap_not_ok "alter --delete-family without --yes: not confirmed (status $rc)"; fi
run "$cli" alter "$t" --delete-family e --yes
expect "alter --delete-family --yes" 0 ""
run "$cli" describe "$t"
if ! printf '%s\n' "$out" | grep -q '^family	e	'; then tap_ok "describe no longer shows the deleted family"
else tap_not_ok "describe no longer shows the deleted family"; fi
run "$cli" alter "$t" --family nosuch --max-versions 2
if [ $rc -eq 3 ] && printf '%s\n' "$err" | grep -q 'no family nosuch'; then tap_ok "alter a missing family: status 3"
else tap_not_ok "alter a missing family: status 3 (got $rc)"; fi
run "$cli" alter "$t" --family d --max-versions 0
if [ $rc -eq 2 ]; then tap_ok "alter --max-versions 0: status 2"; else tap_not_ok "alter --max-versions 0: status 2 (got $rc)"; fi
run "$cli" alter "$t" --family d --add-family y
if [ $rc -eq 2 ]; then tap_ok "alter with two actions: status 2"; else tap_not_ok "alter with two actions: status 2 (got $rc)"; fi
run "$cli" describe "${t}_none"
if [ $rc -eq 3 ] && printf '%s\n' "$err" | grep -q 'no such table'; then tap_ok "describe a missing table: status 3"
else tap_not_ok "describe a missing table: status 3 (got $rc)"; fi

# -o json of the other commands
run "$cli" list -o json
expect_json "list -o json" 0 '
assert isinstance(doc, list) and "'"$t"'" in doc and all(isinstance(n, str) for n in doc), doc'
run "$cli" namespaces -o json
expect_json "namespaces -o json" 0 'assert "default" in doc and "hbase" in doc, doc'
run "$cli" exists -o json "$t"
expect_json "exists -o json" 0 'assert doc == {"exists": True}, doc'
run "$cli" exists -o json "${t}_none"
expect_json "exists -o json, no such table: status 3" 3 'assert doc == {"exists": False}, doc'
run "$cli" count -o json "$t"
expect_json "count -o json" 0 'assert doc == {"count": 1}, doc'
run "$cli" incr -o json "$t" n d:hits 5
expect_json "incr -o json" 0 'assert doc == {"value": 5}, doc'
run "$cli" counter -o json "$t" n d:hits
expect_json "counter -o json" 0 'assert doc == {"value": 5}, doc'
run "$cli" check-and-put -o json "$t" u --if-absent d:email d:email=a@example.org
expect_json "check-and-put -o json: applied" 0 'assert doc == {"applied": True}, doc'
run "$cli" check-and-put -o json "$t" u --if-absent d:email d:email=b@example.org
expect_json "check-and-put -o json: not applied, status 5" 5 'assert doc == {"applied": False}, doc'
run "$cli" scan -o json "$t" --prefix u
expect_json "scan -o json (it had -o json already)" 0 'assert doc["row"] == "u" and doc["cells"][0]["value"] == "a@example.org", doc'

"$cli" create "$ts" s z >/dev/null
run "$cli" sadd -o json "$ts" k a b 'c\xff'
expect_json "sadd -o json" 0 'assert doc == {"count": 3}, doc'
run "$cli" scard -o json "$ts" k
expect_json "scard -o json" 0 'assert doc == {"count": 3}, doc'
run "$cli" sismember -o json "$ts" k a
expect_json "sismember -o json" 0 'assert doc == {"member": True}, doc'
run "$cli" smembers -o json "$ts" k
expect_json "smembers -o json" 0 '
import base64
assert docs[:2] == ["a", "b"] and base64.b64decode(docs[2]["base64"]) == b"c\xff", docs'
run "$cli" srem -o json "$ts" k a
expect_json "srem -o json" 0 'assert doc == {"count": 1}, doc'
run "$cli" zadd -o json "$ts" z 1 a 2.5 b
expect_json "zadd -o json" 0 'assert doc == {"count": 2}, doc'
run "$cli" zincrby -o json "$ts" z 1 a
expect_json "zincrby -o json" 0 'assert doc == {"score": 2}, doc'
run "$cli" zscore -o json "$ts" z b
expect_json "zscore -o json" 0 'assert doc == {"score": 2.5}, doc'
run "$cli" zcard -o json "$ts" z
expect_json "zcard -o json" 0 'assert doc == {"count": 2}, doc'
run "$cli" zcount -o json "$ts" z 0 2
expect_json "zcount -o json" 0 'assert doc == {"count": 1}, doc'
run "$cli" zrank -o json "$ts" z b
expect_json "zrank -o json" 0 'assert doc == {"rank": 1}, doc'
run "$cli" zrange -o json --with-scores "$ts" z 0 -1
expect_json "zrange -o json --with-scores" 0 'assert docs == [{"member": "a", "score": 2}, {"member": "b", "score": 2.5}], docs'

# the index commands need Redis
"$cli" create "$ti" d >/dev/null
"$cli" put "$ti" p1 d:cat=fruit d:w=3 >/dev/null
"$cli" index-create-meta-table >/dev/null 2>&1   # the definitions table, once
run "$cli" index-define -o json "$ti" cat=d:cat 'w=d:w,int64,range'
run "$cli" index-show -o json "$ti"
if [ $rc -ne 0 ] && printf '%s\n' "$err" | grep -qi 'redis'; then
  tap_skip "index commands -o json" "Redis not reachable"
else
  expect_json "index-show -o json: definitions and state" 0 '
ix = {i["name"]: i for i in doc["indexes"]}
assert ix["cat"] == {"name": "cat", "family": "d", "qualifier": "cat", "type": "string", "flags": ["exact"]}, ix
assert ix["w"]["type"] == "int64" and ix["w"]["flags"] == ["range"], ix
assert doc["state"] == "not built" and isinstance(doc["key_prefix"], str), doc'
  run "$cli" index-rebuild -o json "$ti"
  expect_json "index-rebuild -o json" 0 'assert doc["rebuilt"] is True and doc["rows"] == 1 and doc["consistent"] is True, doc'
  run "$cli" index-verify -o json "$ti"
  expect_json "index-verify -o json" 0 '
assert doc["consistent"] is True and doc["missing"] == 0 and doc["extra"] == 0 and doc["rows"] == 1, doc
assert isinstance(doc["examples"], list), doc'
  run "$cli" index-show -o json "$ti"
  expect_json "index-show -o json after the rebuild: ready" 0 'assert doc["state"] == "ready" and doc["reason"] is None, doc'
  run "$cli" index-query -o json "$ti" cat=fruit
  expect_json "index-query -o json" 0 'assert doc["row"] == "p1", doc'
  "$cli" index-drop --yes "$ti" >/dev/null
  run "$cli" index-define --rebuild -o json "$ti" cat=d:cat
  expect_json "index-define --rebuild -o json: the rebuild's report" 0 'assert doc["rebuilt"] is True and doc["rows"] == 1, doc'
fi

tap_plan $tap_n
exit $tap_failed
