#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The hbase-glib command-line tool against the real stack: every command's
# help, usage errors and exit statuses, and the output of each command
# checked exactly (TSV and JSON, binary bytes, UTF-8).  Tables and the
# namespace are named after this process and dropped at the end.
. "$top_srcdir/tests/support/tap.sh"
. "$top_srcdir/tests/support/cli-checks.sh"
cli=$top_builddir/tools/hbase-glib
tmp=$(mktemp -d)
suffix=$$_$(date +%s)
t=hbase_glib_cli_$suffix
t2=hbase_glib_cli_copy_$suffix
ns=hbase_glib_cli_ns_$suffix
ts=hbase_glib_cli_sets_$suffix
ti=hbase_glib_cli_index_$suffix

cleanup() {
  "$cli" drop --yes --if-exists "$t" >/dev/null 2>&1
  "$cli" drop --yes --if-exists "$t2" >/dev/null 2>&1
  "$cli" drop --yes --if-exists "$ts" >/dev/null 2>&1
  "$cli" index-drop --yes "$ti" >/dev/null 2>&1
  "$cli" drop --yes --if-exists "$ti" >/dev/null 2>&1
  "$cli" drop --yes --if-exists "$ns:t" >/dev/null 2>&1
  "$cli" drop-namespace --if-exists "$ns" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT


# --- without a server: help, usage, connection errors -------------------------------

run "$cli" --help
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^  scan ' && printf '%s\n' "$out" | grep -q 'Exit status'; then
  tap_ok "--help lists the commands and the exit statuses"
else tap_not_ok "--help lists the commands and the exit statuses"; fi

commands=$("$cli" help --commands)
for c in $commands; do
  run "$cli" "$c" --help
  # the connection options are not repeated in every --help, only named
  if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "hbase-glib $c" && ! printf '%s\n' "$out" | grep -q -- '--gateways' &&
     printf '%s\n' "$out" | grep -q -- '--help-connection'; then
    tap_ok "$c --help"
  else
    tap_not_ok "$c --help (status $rc)"; printf '%s\n' "$out" "$err" | head -n 5 | sed 's/^/# /'
  fi
done
# the manual and docs/cli.md describe every command
for c in $commands; do
  [ "$c" = help ] && continue
  man_name=$(printf '%s' "$c" | sed 's/-/\\\\-/g')
  # the usage line of docs/cli.md is the one --help prints (after "[OPTION…]")
  help_params=$("$cli" "$c" --help | sed -n '2s/^[^]]*\] *//p')
  doc_params=$(awk -v h="### \`hbase-glib $c\`" '$0 == h { found = 1; next } found && /^hbase-glib / { sub(/^[^]]*\] */, ""); print; exit }' \
    "$top_srcdir/docs/cli.md")
  if grep -q -- "$man_name" "$top_srcdir/tools/hbase-glib.1" && grep -q "^### \`hbase-glib $c\`" "$top_srcdir/docs/cli.md" &&
     [ "$doc_params" = "$help_params" ]; then
    tap_ok "$c is in hbase-glib.1 and docs/cli.md"
  else tap_not_ok "$c is in hbase-glib.1 and docs/cli.md (docs: '$doc_params', --help: '$help_params')"; fi
done
run "$cli" help scan
expect_status "help COMMAND is COMMAND --help" 0
[ -n "$(printf '%s\n' "$out" | grep -- '--prefix')" ] && tap_ok "help scan shows scan's options" || tap_not_ok "help scan shows scan's options"

run "$cli"
expect_status "no command: status 2" 2 "Usage"
run "$cli" frobnicate
expect_status "unknown command: status 2" 2 "unknown command 'frobnicate'"
run "$cli" get --no-such-option t r
expect_status "unknown option: status 2" 2 "Unknown option"
run "$cli" get onlytable
expect_status "missing argument: status 2" 2 "too few arguments"
run "$cli" put t r 'f:q=\q'
expect_status "bad escape: status 2, before connecting" 2 "backslash"
run "$cli" put t r novalue
expect_status "put without =: status 2" 2 "FAMILY:QUALIFIER=VALUE"
run "$cli" scan t -o xml
expect_status "unknown output format: status 2" 2 "tsv or json"
run "$cli" --gateways 127.0.0.1:notaport ping
expect_status "bad gateway setting: status 2" 2 "port"
run "$cli" --config "$tmp/missing.ini" ping
expect_status "missing key file: status 2" 2 "missing.ini"
run "$cli" ping --gateways 127.0.0.1:1 --timeout 3000
if [ $rc -eq 4 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q 'cannot connect'; then
  tap_ok "unreachable gateway: status 4, said on stderr"
else tap_not_ok "unreachable gateway: status 4 (got $rc)"; printf '%s\n' "$err" | sed 's/^/# /'; fi

# --- against the stack --------------------------------------------------------------------

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
tap_ok "ping"

run "$cli" create "$t" info:versions=3 c --split m
expect "create a pre-split table" 0 ""
run "$cli" create "$t" info
expect_status "create an existing table: status 1" 1 "TableExistsException"
run "$cli" create --if-not-exists "$t" info
expect "create --if-not-exists an existing table" 0 ""
run "$cli" create "${t}_bad" 'info:colour=blue'
expect_status "bad family option: status 2" 2 "bad option"
run "$cli" exists "$t"
expect "exists: yes" 0 "yes"
run "$cli" list
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qx "$t"; then tap_ok "list shows the table"; else tap_not_ok "list shows the table"; fi

# cells with fixed timestamps, so the output is known exactly
run "$cli" put --timestamp 1000 "$t" r1 info:name=Ada 'info:bin=\x00\xff\x7f\tx' 'info:zh=生鲜' 'info:nl=a\nb\\c'
expect "put cells with binary bytes" 0 ""
run "$cli" get "$t" r1
expect "get: TSV, bytes escaped, UTF-8 kept" 0 "$(printf '%s\n' \
  'r1	info:bin	\x00\xff\x7f\tx' 'r1	info:name	Ada' 'r1	info:nl	a\nb\\c' 'r1	info:zh	生鲜')"
run "$cli" get --ascii -t "$t" r1 -c info:zh -c info:name
expect "get --ascii --timestamps -c" 0 "$(printf '%s\n' \
  'r1	info:name	1000	Ada' 'r1	info:zh	1000	\xe7\x94\x9f\xe9\xb2\x9c')"
run "$cli" get -o json "$t" r1
expect "get -o json: strings for UTF-8, base64 objects for other bytes" 0 \
  '{"row":"r1","cells":[{"column":"info:bin","timestamp":1000,"value":{"base64":"AP9/CXg="}},{"column":"info:name","timestamp":1000,"value":"Ada"},{"column":"info:nl","timestamp":1000,"value":"a\nb\\c"},{"column":"info:zh","timestamp":1000,"value":"生鲜"}]}'
if printf '%s\n' "$out" | "${PYTHON:-python3}" -c '
import json, sys, base64
row = json.loads(sys.stdin.readline())
cells = {c["column"]: c["value"] for c in row["cells"]}
assert base64.b64decode(cells["info:bin"]["base64"]) == b"\x00\xff\x7f\tx"
assert cells["info:nl"] == "a\nb\\c" and cells["info:zh"] == "生鲜"
' 2>"$tmp/py"; then tap_ok "the JSON parses and gives the bytes back"
else tap_not_ok "the JSON parses and gives the bytes back"; sed 's/^/# /' "$tmp/py"; fi
run "$cli" get -o json --base64 "$t" r1 -c info:name
expect "get -o json --base64" 0 '{"row":"cjE=","cells":[{"column":"aW5mbzpuYW1l","timestamp":1000,"value":"QWRh"}]}'
run "$cli" get "$t" 'r1' -c 'info:b\x69n'
expect "escapes in a column argument" 0 'r1	info:bin	\x00\xff\x7f\tx'
run "$cli" get "$t" nosuchrow
if [ $rc -eq 3 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -q 'row nosuchrow not found'; then
  tap_ok "get a missing row: status 3, said on stderr"
else tap_not_ok "get a missing row: status 3 (got $rc)"; fi
run "$cli" get "${t}_none" r1
expect_status "get from a missing table: status 3" 3 "does not exist"
run "$cli" scan "${t}_none"
expect_status "scan a missing table: status 3" 3 "does not exist"
run "$cli" count "${t}_none"
expect_status "count a missing table: status 3" 3 "does not exist"
run "$cli" put "${t}_none" - < /dev/null
expect_status "put - into a missing table: status 3" 3 "does not exist"

# a binary row key, written and read back through its escapes
run "$cli" put --timestamp 1000 "$t" 'k\x00\x01' 'info:v=1'
expect "put with a binary row key" 0 ""
run "$cli" get "$t" 'k\x00\x01'
expect "get with a binary row key" 0 'k\x00\x01	info:v	1'
run "$cli" delete "$t" 'k\x00\x01'
expect "delete a row" 0 ""
run "$cli" get "$t" 'k\x00\x01'
expect_status "the deleted row is gone" 3

for i in 1 2 3 4 5; do
  "$cli" put --timestamp 2000 "$t" "s$i" "c:n=$i" || tap_not_ok "put s$i"
done
"$cli" put --timestamp 2000 "$t" "z1" 'c:n=\xfe'
run "$cli" scan "$t" -c c
expect "scan -c: every row in order" 0 "$(printf '%s\n' 's1	c:n	1' 's2	c:n	2' 's3	c:n	3' 's4	c:n	4' 's5	c:n	5' 'z1	c:n	\xfe')"
run "$cli" scan "$t" --prefix s --start s2 --limit 2
expect "scan --prefix --start --limit" 0 "$(printf '%s\n' 's2	c:n	2' 's3	c:n	3')"
run "$cli" scan "$t" --start s2 --stop s4 -k
expect "scan --start --stop --keys-only" 0 "$(printf '%s\n' 's2' 's3')"
run "$cli" scan "$t" --prefix s --reverse --limit 2 -c c
expect "scan --reverse" 0 "$(printf '%s\n' 's5	c:n	5' 's4	c:n	4')"
run "$cli" scan "$t" -c c --filter "ValueFilter(=, 'binary:3')"
expect "scan --filter" 0 's3	c:n	3'
run "$cli" scan "$t" --prefix z -o json -t
expect "scan -o json, not UTF-8" 0 '{"row":"z1","cells":[{"column":"c:n","timestamp":2000,"value":{"base64":"/g=="}}]}'
run "$cli" scan "$t" --filter "NoSuchFilter("
expect_status "scan with a malformed filter: status 2" 2 "filter"
run "$cli" scan "$t" --filter "NoSuchFilter('x')"
expect_status "scan with an unknown filter: status 1" 1 ""
run "$cli" count "$t"
expect "count" 0 "7"
run "$cli" count "$t" --prefix s --stop s3
expect "count a range" 0 "2"

# scan | put - copies a table, timestamps included
"$cli" create "$t2" info:versions=3 c >/dev/null 2>&1
"$cli" scan -t "$t" > "$tmp/scan"
run "$cli" put "$t2" - < "$tmp/scan"
expect_status "put - from scan output" 0 "10 cells in 7 rows written"
"$cli" scan -t "$t2" > "$tmp/scan2"
if cmp -s "$tmp/scan" "$tmp/scan2"; then tap_ok "the copy scans the same, bytes and timestamps"
else tap_not_ok "the copy scans the same"; diff "$tmp/scan" "$tmp/scan2" | sed 's/^/# /'; fi
printf 'r9\tc:n\t9\nbad line\n' > "$tmp/bad-lines"
run "$cli" put "$t2" - < "$tmp/bad-lines"
expect_status "put - with a bad line: status 2, the line named" 2 "line 2"
"$cli" scan -k "$t2" --prefix s > "$tmp/keys"
run "$cli" delete "$t2" - < "$tmp/keys"
expect_status "delete - from scan --keys-only" 0 "5 rows deleted"
run "$cli" count "$t2"
expect "the rows are gone (r9, read before the bad line, was written)" 0 "3"

run "$cli" delete "$t" r1 info:bin info:zh
expect "delete columns" 0 ""
run "$cli" get "$t" r1 -c info
expect "the other columns stay" 0 "$(printf '%s\n' 'r1	info:name	Ada' 'r1	info:nl	a\nb\\c')"
run "$cli" delete "$t" r1 info
run "$cli" get "$t" r1 -c info
expect_status "delete a family" 3

run "$cli" incr "$t" cnt c:hits
expect "incr a new counter" 0 "1"
run "$cli" incr "$t" cnt c:hits 41
expect "incr by an amount" 0 "42"
run "$cli" incr "$t" cnt c:hits -1
expect "incr by a negative amount" 0 "41"
run "$cli" incr "$t" cnt c:hits -- -1
expect "incr by a negative amount after --" 0 "40"
run "$cli" counter "$t" cnt c:hits
expect "counter reads it" 0 "40"
run "$cli" counter "$t" cnt c:hits 7
expect "counter sets it" 0 "7"
run "$cli" get "$t" cnt
expect "the counter cell is 8 bytes big-endian" 0 'cnt	c:hits	\x00\x00\x00\x00\x00\x00\x00\x07'
run "$cli" counter "$t" s1 c:n
expect_status "counter on a cell that is not 8 bytes: status 1" 1 "8 bytes"
run "$cli" incr "$t" cnt c:hits many
expect_status "incr by a non-number: status 2" 2 "whole number"

run "$cli" check-and-put "$t" u1 --if-absent info:email info:email=ada@example.org
expect "check-and-put --if-absent applies" 0 "applied"
run "$cli" check-and-put "$t" u1 --if-absent info:email info:email=eve@example.org
expect "check-and-put --if-absent again is not applied: status 5" 5 "not applied"
run "$cli" check-and-put "$t" u1 --if info:email=ada@example.org info:email=ada@example.com
expect "check-and-put --if equal applies" 0 "applied"
run "$cli" check-and-put "$t" u1 --if info:email=zzz --op gt info:email=x
expect "check-and-put --if --op gt fails when the cell is less" 5 "not applied"
run "$cli" get "$t" u1
expect "check-and-put wrote only when it applied" 0 'u1	info:email	ada@example.com'
run "$cli" check-and-put "$t" u1 info:x=1
expect_status "check-and-put without a test: status 2" 2 "exactly one"

# sets and sorted sets
run "$cli" create "$ts" s z
expect "create a table for sets and sorted sets" 0 ""
run "$cli" sadd "$ts" k1 a b c 'x\xff'
expect "sadd: 4 new" 0 "4"
run "$cli" sadd "$ts" k1 a d
expect "sadd: 1 new of 2" 0 "1"
"$cli" sadd "$ts" k2 b c e >/dev/null
run "$cli" scard "$ts" k1
expect "scard" 0 "5"
run "$cli" sismember "$ts" k1 'x\xff'
expect "sismember: yes" 0 "yes"
run "$cli" sismember "$ts" k1 zz
expect "sismember: no, status 3" 3 "no"
run "$cli" smembers "$ts" k1
expect "smembers: byte order, escaped" 0 "$(printf '%s\n' a b c d 'x\xff')"
run "$cli" smembers "$ts" k1 -o json
expect "smembers -o json" 0 "$(printf '%s\n' '"a"' '"b"' '"c"' '"d"' '{"base64":"eP8="}')"
run "$cli" sinter "$ts" k1 k2
expect "sinter" 0 "$(printf '%s\n' b c)"
run "$cli" sunion "$ts" k1 k2
expect "sunion" 0 "$(printf '%s\n' a b c d e 'x\xff')"
run "$cli" sdiff "$ts" k1 k2
expect "sdiff" 0 "$(printf '%s\n' a d 'x\xff')"
run "$cli" srem "$ts" k1 a zz
expect "srem: 1 removed" 0 "1"
run "$cli" sadd "$ts" k1 --family nosuchfamily a
expect_status "sadd into a missing family: status 3" 3 "has no column family 'nosuchfamily'"
run "$cli" sadd "${ts}_none" k1 a
expect_status "sadd into a missing table: status 3" 3 "does not exist"
run "$cli" zadd "$ts" z1 1 a 2.5 b -inf c 10 d
expect "zadd: 4 new (a negative score is not an option)" 0 "4"
run "$cli" zadd --nx "$ts" z1 5 a 6 e
expect "zadd --nx: only e is new" 0 "1"
run "$cli" zscore "$ts" z1 a
expect "zscore (--nx kept the score)" 0 "1"
run "$cli" zscore "$ts" z1 c
expect "zscore -inf" 0 "-inf"
run "$cli" zscore "$ts" z1 nobody
expect_status "zscore of a non-member: status 3" 3 "not a member"
run "$cli" zincrby "$ts" z1 -0.5 b
expect "zincrby" 0 "2"
run "$cli" zcard "$ts" z1
expect "zcard" 0 "5"
run "$cli" zcount "$ts" z1 '(1' +inf
expect "zcount with an exclusive bound" 0 "3"
run "$cli" zrank "$ts" z1 d --with-score
expect "zrank --with-score" 0 "4	10"
run "$cli" zrank -r "$ts" z1 d
expect "zrank --reverse" 0 "0"
run "$cli" zrange "$ts" z1 0 -1 -s
expect "zrange 0 -1 --with-scores" 0 "$(printf '%s\n' 'c	-inf' 'a	1' 'b	2' 'e	6' 'd	10')"
run "$cli" zrange "$ts" z1 -2 -1 --reverse
expect "zrange --reverse with negative ranks" 0 "$(printf '%s\n' a c)"
run "$cli" zrangebyscore "$ts" z1 -inf 5 -s -o json
expect "zrangebyscore -o json" 0 "$(printf '%s\n' '{"member":"c","score":"-inf"}' '{"member":"a","score":1}' '{"member":"b","score":2}')"
run "$cli" zrangebyscore "$ts" z1 0 +inf --offset 1 --count 2
expect "zrangebyscore --offset --count" 0 "$(printf '%s\n' b e)"
run "$cli" zpopmin "$ts" z1 2
expect "zpopmin 2" 0 "$(printf '%s\n' 'c	-inf' 'a	1')"
run "$cli" zpopmax "$ts" z1
expect "zpopmax" 0 'd	10'
run "$cli" zrem "$ts" z1 b nobody
expect "zrem" 0 "1"
run "$cli" zrange "$ts" z1 0 -1 -s
expect "what is left" 0 'e	6'
run "$cli" zadd "$ts" z1 nan x
expect_status "zadd a NaN score: status 2" 2 "not a number"
run "$cli" zadd "$ts" z1 1 a 2
expect_status "zadd with an odd count: status 2" 2 "pairs"

# secondary indexes in Redis
if (exec 3<>"/dev/tcp/127.0.0.1/${HBASE_GLIB_REDIS_PORT:-6379}") 2>/dev/null; then
  "$cli" create "$ti" d >/dev/null
  for r in 'p1 book 100' 'p2 book 2000' 'p3 toy 1500' 'p4 生鲜 50'; do
    set -- $r
    "$cli" put --timestamp 1000 "$ti" "$1" "d:cat=$2" "d:w=$3" || tap_not_ok "put $1"
  done
  run "$cli" index-create-meta-table
  expect "index-create-meta-table (kept when it exists)" 0 ""
  run "$cli" index-define "$ti" cat=d:cat 'w=d:w,int64,range'
  expect_status "index-define" 0 "index-rebuild $ti"
  run "$cli" index-show "$ti"
  if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | head -n 2)" = "$(printf '%s\n' 'cat	d:cat	string	exact' 'w	d:w	int64	range')" ] &&
     printf '%s\n' "$out" | grep -q '^state: not built'; then tap_ok "index-show: definitions, not built yet"
  else tap_not_ok "index-show: definitions, not built yet"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
  run "$cli" index-rebuild "$ti"
  if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qx 'rows: 4' && printf '%s\n' "$out" | grep -qx 'rebuilt: yes'; then
    tap_ok "index-rebuild"; else tap_not_ok "index-rebuild (status $rc)"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
  run "$cli" index-query "$ti" cat=book
  expect "index-query NAME=VALUE" 0 "$(printf '%s\n' 'p1	d:cat	book' 'p1	d:w	100' 'p2	d:cat	book' 'p2	d:w	2000')"
  run "$cli" index-query "$ti" 'w>=100' 'w<2000' --count
  expect "index-query a range of two bounds --count" 0 "2"
  run "$cli" index-query "$ti" cat=toy --any 'w<100' -o json -c d:cat
  expect "index-query --any -o json" 0 "$(printf '%s\n' \
    '{"row":"p3","cells":[{"column":"d:cat","timestamp":1000,"value":"toy"},{"column":"d:w","timestamp":1000,"value":"1500"}]}' \
    '{"row":"p4","cells":[{"column":"d:cat","timestamp":1000,"value":"生鲜"},{"column":"d:w","timestamp":1000,"value":"50"}]}')"
  run "$cli" index-query "$ti" cat=book --limit 1
  token=$(printf '%s\n' "$err" | sed -n 's/^more rows: --page-token //p')
  if [ $rc -eq 0 ] && [ "$out" = "$(printf '%s\n' 'p1	d:cat	book' 'p1	d:w	100')" ] && [ -n "$token" ]; then
    tap_ok "index-query --limit: a page and the next page's token"
  else tap_not_ok "index-query --limit"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
  run "$cli" index-query "$ti" cat=book --limit 1 --page-token "$token"
  expect "index-query --page-token: the next page" 0 "$(printf '%s\n' 'p2	d:cat	book' 'p2	d:w	2000')"
  run "$cli" index-query "$ti" nosuch=1
  expect_status "index-query of an unknown index: status 2" 2 'no index "nosuch"'
  run "$cli" index-query "$ti" w=heavy
  expect_status "index-query with a value of the wrong type: status 2" 2 "whole number"
  run "$cli" index-verify "$ti"
  expect_status "index-verify: consistent" 0 ""
  run "$cli" put "$ti" p5 d:cat=book
  expect "put goes through the index" 0 ""
  run "$cli" index-query "$ti" cat=book --count
  expect "the index has the new row" 0 "3"
  run "$cli" put --no-index "$ti" p6 d:cat=book
  expect "put --no-index" 0 ""
  run "$cli" index-verify "$ti"
  if [ $rc -eq 5 ] && printf '%s\n' "$out" | grep -qx 'missing: 1'; then tap_ok "index-verify finds the entry --no-index left out: status 5"
  else tap_not_ok "index-verify finds the missing entry (status $rc)"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
  run "$cli" index-repair "$ti"
  if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qx 'repaired: 1'; then tap_ok "index-repair"
  else tap_not_ok "index-repair (status $rc)"; printf '%s\n' "$out" "$err" | sed 's/^/# /'; fi
  run "$cli" index-verify "$ti"
  expect_status "index-verify after the repair: consistent" 0 ""
  run "$cli" put "$ti" p7 d:cat=book --redis 127.0.0.1:1
  expect_status "put with Redis unreachable: status 4, nothing written" 4 "Redis"
  run "$cli" get "$ti" p7
  expect_status "the row was not written" 3
  run "$cli" index-drop "$ti" < /dev/null
  expect_status "index-drop without --yes: status 2" 2 "--yes"
  run "$cli" index-drop --yes "$ti"
  expect "index-drop" 0 ""
  run "$cli" index-show "$ti"
  expect_status "index-show after the drop: status 3" 3 "no index definitions"
  run "$cli" put "$ti" p8 d:cat=book
  expect "a table without an index is written directly" 0 ""
elif tap_stack_required; then
  tap_not_ok "Redis answers on 127.0.0.1:${HBASE_GLIB_REDIS_PORT:-6379}"
else
  tap_skip "index commands" "Redis not running"
fi

run "$cli" create-namespace "$ns"
expect "create-namespace" 0 ""
run "$cli" namespaces
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qx "$ns" && printf '%s\n' "$out" | grep -qx default; then
  tap_ok "namespaces lists it"; else tap_not_ok "namespaces lists it"; fi
run "$cli" create "$ns:t" f
expect "create a table in the namespace" 0 ""
run "$cli" list "$ns"
expect "list NAMESPACE" 0 "$ns:t"
run "$cli" drop-namespace "$ns"
expect_status "drop a namespace that has tables: status 1" 1 ""
run "$cli" drop --yes "$ns:t"
expect "drop the namespace's table" 0 ""
run "$cli" drop-namespace "$ns"
expect "drop-namespace" 0 ""
run "$cli" drop-namespace "$ns"
expect_status "drop a missing namespace: status 3" 3 ""
run "$cli" list "$ns"
expect_status "list a missing namespace: status 3" 3 ""

# settings: key file and environment, overridden by options
printf '[hbase]\ngateways = 127.0.0.1:1\n' > "$tmp/bad.ini"
printf '[hbase]\ngateways = %s\n' "${HBASE_GLIB_GATEWAYS:-localhost:9090}" > "$tmp/good.ini"
run env HBASE_GLIB_GATEWAYS=127.0.0.1:1 "$cli" --config "$tmp/good.ini" exists "$t"
expect "--config overrides the environment" 0 "yes"
run "$cli" --config "$tmp/bad.ini" exists "$t" --gateways "${HBASE_GLIB_GATEWAYS:-localhost:9090}"
expect "--gateways after the command overrides --config" 0 "yes"
run env HBASE_GLIB_CONFIG="$tmp/bad.ini" "$cli" --timeout 2000 exists "$t"
expect_status "HBASE_GLIB_CONFIG is read: status 4 for its dead gateway" 4 "127.0.0.1:1"

run "$cli" drop "$t" < /dev/null
expect_status "drop without --yes off a terminal: status 2" 2 "--yes"
run "$cli" exists "$t"
expect "the table is still there" 0 "yes"
run "$cli" drop --yes "$t"
expect "drop --yes" 0 ""
run "$cli" exists "$t"
expect "exists: no, status 3" 3 "no"
run "$cli" drop --yes "$t"
expect_status "drop a missing table: status 3" 3 ""
run "$cli" drop --yes --if-exists "$t"
expect "drop --if-exists a missing table" 0 ""
run "$cli" drop --yes "$t2"
expect "drop the copy" 0 ""

tap_plan $tap_n
exit 0
