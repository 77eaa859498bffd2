# SPDX-License-Identifier: Apache-2.0
# The kerberized local stack, sourced by scripts/stack.sh (start-secure,
# stop-secure, status): an MIT KDC, a kerberized standalone HBase 2.6 and
# Thrift2 gateways that require Kerberos, each on ports of its own so that it
# runs beside the normal stack on one loopback.  Everything lives under
# $state/secure/: kdc/ (database, kdc.conf), keytabs/, conf/ (hbase-site.xml),
# data/, logs/, run/, and krb5.conf, the file clients point KRB5_CONFIG at.
#
# Why MIT krb5 and not Kerby's SimpleKdcServer (kerb-simplekdc 1.0.1 is
# already on the stack's classpath, through hadoop-auth): both serve Java and
# libkrb5 clients, but measured here (2 shared cores, inside a network
# namespace) the MIT realm, its 6 principals and 4 keytabs take ~0.3 s with
# kdb5_util/kadmin.local, and krb5kdc is listening and has answered a kinit
# ~80 ms later, in a process of a few MB; a ~30-line Java main around
# SimpleKdcServer took 8.2 s wall clock to the first keytab (1.4 s of it
# init+start inside main, the rest JVM start and single-file compilation)
# and another JVM (44 MB of heap in use) beside HBase.  Complexity is about
# even (a kdc.conf and a loop of kadmin.local requests against a Java file to
# maintain).  The C client also gets the KDC it meets in production, and
# kinit/klist (krb5-user) to prepare credential caches for its tests.
# Nothing needs root: the KDC runs from a private kdc.conf (KRB5_KDC_PROFILE)
# on a high port, and any system krb5kdc the package started is not used.
#
# Settings (environment; defaults avoid the normal stack's ports 2181,
# 16000/16010/16020/16030, 9090-9098, 6379 and 6380):
#   HBASE_GLIB_SECURE_REALM         Kerberos realm (default HBASE.GLIB.TEST)
#   HBASE_GLIB_SECURE_KDC_PORT      KDC, TCP and UDP (default 17088)
#   HBASE_GLIB_SECURE_ZK_PORT       embedded ZooKeeper (default 12181, not authenticated)
#   HBASE_GLIB_SECURE_MASTER_PORT / _MASTER_INFO_PORT   (default 17000 / 17010)
#   HBASE_GLIB_SECURE_RS_PORT / _RS_INFO_PORT           (default 17020 / 17030)
#   HBASE_GLIB_SECURE_AUTH_PORT     SASL gateway, QOP authentication (default 19090)
#   HBASE_GLIB_SECURE_INT_PORT      SASL gateway, QOP integrity      (default 19091)
#   HBASE_GLIB_SECURE_PRIV_PORT     SASL gateway, QOP privacy        (default 19092)
#   HBASE_GLIB_SECURE_HTTP_PORT     HTTP gateway, SPNEGO and doAs    (default 19093)
#   HBASE_GLIB_SECURE_HTTPS_PORT    HTTPS gateway, SPNEGO and doAs   (default 19094;
#                                   the normal stack's test certificates, "stack.sh tls":
#                                   a server certificate for localhost and 127.0.0.1)
#   A port set to "none" skips that gateway.
#
# Principals (all in the realm): hbase/<host> (master, region server and
# gateways; <host> is localhost, `hostname` and `hostname -f`), HTTP/<host>
# (SPNEGO), client (the test client, allowed to impersonate anyone through the
# HTTP gateway's doAs) and alice (a second user: impersonated, and not allowed
# to impersonate).  Keytabs: keytabs/{hbase,HTTP,client,alice}.keytab.
# Clients: KRB5_CONFIG=$state/secure/krb5.conf KRB5CCNAME=FILE:<file>
#   kinit -kt $state/secure/keytabs/client.keytab client

secure=$state/secure
s_logs=$secure/logs
s_run=$secure/run
s_conf=$secure/conf
s_kdc=$secure/kdc
s_keytabs=$secure/keytabs
realm=${HBASE_GLIB_SECURE_REALM:-HBASE.GLIB.TEST}
kdc_port=${HBASE_GLIB_SECURE_KDC_PORT:-17088}
s_zk_port=${HBASE_GLIB_SECURE_ZK_PORT:-12181}
s_master_port=${HBASE_GLIB_SECURE_MASTER_PORT:-17000}
s_master_info_port=${HBASE_GLIB_SECURE_MASTER_INFO_PORT:-17010}
s_rs_port=${HBASE_GLIB_SECURE_RS_PORT:-17020}
s_rs_info_port=${HBASE_GLIB_SECURE_RS_INFO_PORT:-17030}
# name:port:qop ("http" and "https" for the SPNEGO gateways)
s_gateways="auth:${HBASE_GLIB_SECURE_AUTH_PORT:-19090}:authentication int:${HBASE_GLIB_SECURE_INT_PORT:-19091}:integrity priv:${HBASE_GLIB_SECURE_PRIV_PORT:-19092}:privacy http:${HBASE_GLIB_SECURE_HTTP_PORT:-19093}:http https:${HBASE_GLIB_SECURE_HTTPS_PORT:-19094}:https"

# What a gateway mode is, for messages and status.
s_mode_text() {
  case $1 in
    http) echo "HTTP, SPNEGO, doAs" ;;
    https) echo "HTTPS, SPNEGO, doAs" ;;
    *) echo "SASL GSSAPI, QOP $1" ;;
  esac
}

# The host names a server may resolve for itself (the gateway's _HOST and SASL
# server name come from Hadoop's DNS.getDefaultHost, the canonical name of
# InetAddress.getLocalHost()): every one gets an hbase/ and an HTTP/ key.
s_hosts() { { echo localhost; hostname 2>/dev/null; hostname -f 2>/dev/null; } | awk 'NF && !seen[$0]++'; }

s_pid() {
  local name=$1 pattern=$2 pid
  [ -f "$s_run/$name.pid" ] || return 0
  pid=$(cat "$s_run/$name.pid")
  if [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "$pattern"; then
    printf '%s\n' "$pid"
  fi
}
s_java_pid() { s_pid "$1" "hbase.glib.component=secure-$1"; }
s_kdc_pid() { s_pid kdc "krb5kdc"; }

s_ms() { echo $(( $(now_ms) - $1 )); }

# Refuses to start when something else already listens on a port we need.
s_port_free() {
  local port=$1 what=$2 var=$3
  [ "$port" = -1 ] && return 0
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "another server already listens on 127.0.0.1:$port, the secure $what port (set $var)"
  fi
}

# --- KDC -------------------------------------------------------------------------

s_write_krb5_conf() {
  mkdir -p "$s_kdc" "$s_keytabs" "$s_logs" "$s_run"
  chmod 700 "$s_kdc" "$s_keytabs"
  # udp_preference_limit = 1: always TCP (one listener to reason about; Java
  # and libkrb5 both honour it).  rdns = false and dns_canonicalize_hostname =
  # false: service names are taken as given (hbase/localhost stays localhost).
  cat > "$secure/krb5.conf" <<EOF
# Written by scripts/stack.sh start-secure; edits are lost on the next start.
[libdefaults]
  default_realm = $realm
  dns_lookup_realm = false
  dns_lookup_kdc = false
  dns_canonicalize_hostname = false
  rdns = false
  udp_preference_limit = 1
  ticket_lifetime = 24h
  renew_lifetime = 7d
  forwardable = true
[realms]
  $realm = {
    kdc = 127.0.0.1:$kdc_port
  }
[domain_realm]
$(s_hosts | sed "s/.*/  & = $realm/")
EOF
  cat > "$s_kdc/kdc.conf" <<EOF
# Written by scripts/stack.sh start-secure; edits are lost on the next start.
[kdcdefaults]
  kdc_listen = 127.0.0.1:$kdc_port
  kdc_tcp_listen = 127.0.0.1:$kdc_port
[realms]
  $realm = {
    database_name = $s_kdc/principal
    key_stash_file = $s_kdc/stash
    acl_file = $s_kdc/kadm5.acl
    max_life = 24h
    max_renewable_life = 7d
    supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
  }
[logging]
  kdc = FILE:$s_logs/krb5kdc.log
  admin_server = FILE:$s_logs/kadmin.log
  default = FILE:$s_logs/krb5lib.log
EOF
  : > "$s_kdc/kadm5.acl"
}

s_krb() { KRB5_CONFIG=$secure/krb5.conf KRB5_KDC_PROFILE=$s_kdc/kdc.conf "$@"; }

# Realm, principals and keytabs: made once, kept across restarts (a new
# random key would invalidate every keytab and ticket handed out).
s_make_realm() {
  [ -s "$s_kdc/principal" ] && [ -s "$s_keytabs/client.keytab" ] && return 0
  command -v kdb5_util >/dev/null || die "kdb5_util not found: run scripts/install-deps.sh --secure (krb5-kdc, krb5-admin-server, krb5-user)"
  local t0 h; t0=$(now_ms)
  rm -rf "$s_kdc"/principal* "$s_kdc/stash" "$s_keytabs"/*.keytab
  s_krb kdb5_util create -s -r "$realm" -P "$(new_secret)" >"$s_logs/kdb5_util.log" 2>&1 \
    || { cat "$s_logs/kdb5_util.log" >&2; die "kdb5_util could not create realm $realm"; }
  {
    for h in $(s_hosts); do
      echo "addprinc -randkey hbase/$h"
      echo "addprinc -randkey HTTP/$h"
      echo "ktadd -k $s_keytabs/hbase.keytab hbase/$h"
      echo "ktadd -k $s_keytabs/HTTP.keytab HTTP/$h"
    done
    for u in client alice; do
      echo "addprinc -randkey $u"
      echo "ktadd -k $s_keytabs/$u.keytab $u"
    done
  } > "$s_kdc/setup.kadmin"
  # kadmin.local has no script option: one -q per request.
  local line
  while read -r line; do
    s_krb kadmin.local -r "$realm" -q "$line" >>"$s_logs/kadmin-setup.log" 2>&1 \
      || { tail -n 20 "$s_logs/kadmin-setup.log" >&2; die "kadmin.local: '$line' failed"; }
  done < "$s_kdc/setup.kadmin"
  chmod 600 "$s_keytabs"/*.keytab
  say "secure: realm $realm, principals and keytabs created in $(s_ms "$t0") ms"
}

s_start_kdc() {
  if [ -n "$(s_kdc_pid)" ]; then say "secure: kdc already running"; return 0; fi
  command -v krb5kdc >/dev/null || die "krb5kdc not found: run scripts/install-deps.sh --secure"
  s_port_free "$kdc_port" KDC HBASE_GLIB_SECURE_KDC_PORT
  local t0 i; t0=$(now_ms)
  # -n: stay in the foreground (our pid file is the KDC's pid).
  KRB5_CONFIG=$secure/krb5.conf KRB5_KDC_PROFILE=$s_kdc/kdc.conf \
    nohup krb5kdc -n -r "$realm" >"$s_logs/krb5kdc.out" 2>&1 < /dev/null &
  echo $! > "$s_run/kdc.pid"
  for i in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$kdc_port") 2>/dev/null && break
    [ -n "$(s_kdc_pid)" ] || { cat "$s_logs/krb5kdc.out" "$s_logs/krb5kdc.log" >&2 2>/dev/null; die "krb5kdc exited"; }
    sleep 0.05
  done
  # A real AS exchange, into a throwaway cache.
  local cc; cc=$(mktemp "$s_run/kinit-check.XXXXXX")
  s_krb env KRB5CCNAME="FILE:$cc" kinit -kt "$s_keytabs/client.keytab" "client@$realm" 2>"$s_logs/kinit-check.err" \
    || { rm -f "$cc"; cat "$s_logs/kinit-check.err" >&2; die "kinit against the KDC on port $kdc_port failed"; }
  rm -f "$cc"
  say "secure: kdc ready on 127.0.0.1:$kdc_port (realm $realm) in $(s_ms "$t0") ms, kinit as client works"
}

# --- HBase and gateways ----------------------------------------------------------

# One configuration directory per JVM, $s_conf/<name>/, first on its
# classpath: hbase-site.xml (the common keys plus that JVM's own) and
# core-site.xml.  Per-gateway files, not -D: the 2.6 gateway copies its
# Configuration in its constructor, before ToolRunner applies -D options, so
# "-D hbase.thrift.security.qop=..." is silently ignored (checked: a gateway
# started that way served plain Thrift).  core-site.xml carries
# hadoop.security.authentication because Hadoop's UserGroupInformation reads
# it from a plain Configuration (core-site.xml only): with the key only in
# hbase-site.xml the region server stayed "root (auth:SIMPLE)" and could not
# report to the master ("Found no valid authentication method from options").
s_common_props() {
  local p=hbase/localhost@$realm
  cat <<EOF
  <property><name>hbase.cluster.distributed</name><value>false</value></property>
  <property><name>hbase.rootdir</name><value>file://$secure/data/hbase</value></property>
  <property><name>hbase.tmp.dir</name><value>$secure/data/tmp</value></property>
  <property><name>hbase.zookeeper.property.dataDir</name><value>$secure/data/zk</value></property>
  <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>$s_zk_port</value></property>
  <property><name>hbase.unsafe.stream.capability.enforce</name><value>false</value></property>
  <property><name>hbase.localcluster.assign.random.ports</name><value>false</value></property>
  <property><name>hbase.master.port</name><value>$s_master_port</value></property>
  <property><name>hbase.master.info.port</name><value>$s_master_info_port</value></property>
  <property><name>hbase.master.info.bindAddress</name><value>127.0.0.1</value></property>
  <property><name>hbase.regionserver.port</name><value>$s_rs_port</value></property>
  <property><name>hbase.regionserver.info.port</name><value>$s_rs_info_port</value></property>
  <property><name>hbase.regionserver.info.bindAddress</name><value>127.0.0.1</value></property>
  <property><name>hbase.thrift.info.port</name><value>-1</value></property>
  <property><name>hbase.master.ipc.address</name><value>127.0.0.1</value></property>
  <property><name>hbase.regionserver.ipc.address</name><value>127.0.0.1</value></property>
  <property><name>hbase.master.hostname</name><value>localhost</value></property>
  <property><name>hbase.unsafe.regionserver.hostname</name><value>localhost</value></property>
  <property><name>hbase.regionserver.thrift.ipaddress</name><value>127.0.0.1</value></property>

  <!-- Kerberos: both keys are needed for HBase's secure mode.  ZooKeeper
       (embedded) stays unauthenticated: no JAAS file, no ZK principal keys. -->
  <property><name>hadoop.security.authentication</name><value>kerberos</value></property>
  <property><name>hbase.security.authentication</name><value>kerberos</value></property>
  <property><name>hbase.security.authorization</name><value>true</value></property>
  <property><name>hbase.master.kerberos.principal</name><value>$p</value></property>
  <property><name>hbase.master.keytab.file</name><value>$s_keytabs/hbase.keytab</value></property>
  <property><name>hbase.regionserver.kerberos.principal</name><value>$p</value></property>
  <property><name>hbase.regionserver.keytab.file</name><value>$s_keytabs/hbase.keytab</value></property>

  <!-- Gateways: _HOST is the name the gateway resolves for itself; every
       candidate has a key in the keytabs. -->
  <property><name>hbase.thrift.kerberos.principal</name><value>hbase/_HOST@$realm</value></property>
  <property><name>hbase.thrift.keytab.file</name><value>$s_keytabs/hbase.keytab</value></property>
  <property><name>hbase.thrift.spnego.principal</name><value>HTTP/_HOST@$realm</value></property>
  <property><name>hbase.thrift.spnego.keytab.file</name><value>$s_keytabs/HTTP.keytab</value></property>

  <!-- Impersonation: the gateways call HBase as proxies of their callers
       (hbase impersonates anyone); through the HTTP gateway's doAs header,
       client may impersonate anyone, alice nobody. -->
  <property><name>hadoop.proxyuser.hbase.hosts</name><value>*</value></property>
  <property><name>hadoop.proxyuser.hbase.groups</name><value>*</value></property>
  <property><name>hadoop.proxyuser.client.hosts</name><value>*</value></property>
  <property><name>hadoop.proxyuser.client.groups</name><value>*</value></property>
EOF
}

# s_write_site NAME [EXTRA_PROPERTY_LINES]
s_write_site() {
  local dir=$s_conf/$1 extra=${2:-}
  mkdir -p "$dir" "$secure/data/tmp"
  cp "$here/stack/log4j2.properties" "$dir/log4j2.properties"
  {
    echo '<?xml version="1.0"?>'
    echo "<!-- Written by scripts/stack.sh start-secure for $1; edits are lost on the next start. -->"
    echo '<configuration>'
    s_common_props
    [ -z "$extra" ] || printf '\n  <!-- %s only -->\n%s\n' "$1" "$extra"
    echo '</configuration>'
  } > "$dir/hbase-site.xml"
  cat > "$dir/core-site.xml" <<EOF
<?xml version="1.0"?>
<!-- Written by scripts/stack.sh start-secure; edits are lost on the next start. -->
<configuration>
  <property><name>hadoop.security.authentication</name><value>kerberos</value></property>
</configuration>
EOF
}

s_prop() { printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }

s_write_conf() {
  local spec name port qop extra
  s_write_site hbase
  s_write_site probe
  for spec in $s_gateways; do
    IFS=: read -r name port qop <<<"$spec"
    if [ "$qop" = http ] || [ "$qop" = https ]; then
      extra="$(s_prop hbase.regionserver.thrift.http true)
$(s_prop hbase.thrift.support.proxyuser true)"
    else
      extra=$(s_prop hbase.thrift.security.qop "$qop")
    fi
    if [ "$qop" = https ] && [ "$port" != none ]; then
      # The normal stack's test CA and server certificate (make_tls in
      # stack.sh: localhost and 127.0.0.1, keystore server.p12), so both
      # stacks' https gateways are trusted through one ca.pem.  The
      # keystore is PKCS12, read by the JDK's default JKS keystore type.
      make_tls
      extra="$extra
$(s_prop hbase.thrift.ssl.enabled true)
$(s_prop hbase.thrift.ssl.keystore.store "$tls/server.p12")
$(s_prop hbase.thrift.ssl.keystore.password "$tls_password")
$(s_prop hbase.thrift.ssl.keystore.keypassword "$tls_password")"
    fi
    s_write_site "gateway-$name" "$extra"
  done
}

s_classpath() { printf '%s:%s\n' "$s_conf/$1" "$(cat "$(classpath_file)")"; }

s_launch_java() {
  local name=$1 heap=$2; shift 2
  nohup java "-Xms64m" "-Xmx$heap" "${jvm_flags[@]}" -Djava.io.tmpdir="$secure/data/tmp" \
    -Djava.security.krb5.conf="$secure/krb5.conf" \
    -Dhbase.glib.component="secure-$name" -Dhbase.glib.log.file="$s_logs/$name.log" \
    -Dlog4j2.configurationFile="$s_conf/$name/log4j2.properties" \
    -cp "$(s_classpath "$name")" "$@" >"$s_logs/$name.out" 2>&1 < /dev/null &
  echo $! > "$s_run/$name.pid"
}

s_start_hbase() {
  if [ -n "$(s_java_pid hbase)" ]; then say "secure: hbase already running"; echo 0 > "$s_run/hbase.log-start"; return 0; fi
  s_port_free "$s_zk_port" ZooKeeper HBASE_GLIB_SECURE_ZK_PORT
  s_port_free "$s_master_port" master HBASE_GLIB_SECURE_MASTER_PORT
  s_port_free "$s_master_info_port" "master UI" HBASE_GLIB_SECURE_MASTER_INFO_PORT
  s_port_free "$s_rs_port" "region server" HBASE_GLIB_SECURE_RS_PORT
  s_port_free "$s_rs_info_port" "region server UI" HBASE_GLIB_SECURE_RS_INFO_PORT
  say "secure: starting kerberized HBase (standalone, ZooKeeper on 127.0.0.1:$s_zk_port, master $s_master_port, region server $s_rs_port)"
  touch "$s_logs/hbase.log"
  wc -l < "$s_logs/hbase.log" > "$s_run/hbase.log-start"
  s_launch_java hbase "$master_heap" org.apache.hadoop.hbase.master.HMaster start
}

# Waits for the master's "completed initialization" line (in the part of the
# log written since this start).  The gateways are only called after it: a
# gateway's first call opens its HBase connection, and one opened before the
# master is up sits in the client's retry back-off (16 retries) for a minute
# or two (measured: gateways ready 98-127 s after start, against ~20 s once
# the master was up).
s_wait_hbase() {
  local t0=$1 skip i
  skip=$(cat "$s_run/hbase.log-start" 2>/dev/null || echo 0)
  for i in $(seq 1 $(( start_timeout * 2 ))); do
    # grep without -q reads to the end: with -q, tail could die of SIGPIPE
    # on a long log and pipefail would turn the match into a failure.
    if tail -n +$(( skip + 1 )) "$s_logs/hbase.log" 2>/dev/null | grep 'Master has completed initialization' >/dev/null; then
      say "secure: hbase master initialised $(( $(s_ms "$t0") / 1000 )) s after start"
      return 0
    fi
    [ -n "$(s_java_pid hbase)" ] || { tail -n 20 "$s_logs/hbase.out" "$s_logs/hbase.log" >&2; die "secure hbase exited"; }
    sleep 0.5
  done
  tail -n 20 "$s_logs/hbase.log" >&2
  die "secure hbase master not initialised within $start_timeout s"
}

s_start_gateway() {
  local name=$1 port=$2 qop=$3 pid
  [ "$port" = none ] && { rm -f "$s_run/gateway-$name.mode"; return 0; }
  pid=$(s_java_pid "gateway-$name")
  if [ -n "$pid" ]; then
    if [ "$(cat "$s_run/gateway-$name.mode" 2>/dev/null)" = "$port $qop" ]; then
      say "secure: gateway-$name already running"; return 0
    fi
    say "secure: gateway-$name runs as '$(cat "$s_run/gateway-$name.mode" 2>/dev/null)', wanted '$port $qop': restarting it"
    stop_pid "gateway-$name" "$pid" "$s_run"
  fi
  rm -f "$s_run/gateway-$name.mode"
  s_port_free "$port" "gateway-$name" "HBASE_GLIB_SECURE_$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')_PORT"
  # The QOP or HTTP mode is in its own hbase-site.xml (s_write_conf).  SASL
  # needs the threadpool server, unframed (the server refuses framed, hsha,
  # nonblocking and threadedselector with a QOP).
  say "secure: starting gateway-$name on 127.0.0.1:$port ($(s_mode_text "$qop"))"
  echo "$port $qop" > "$s_run/gateway-$name.mode"
  s_launch_java "gateway-$name" "$gateway_heap" org.apache.hadoop.hbase.thrift2.ThriftServer \
    -b 127.0.0.1 -p "$port" -threadpool
}

# SecureProbe.java with the client's keytab (see there).
s_probe() {
  HBASE_GLIB_PROBE_CA_FILE=${HBASE_GLIB_PROBE_CA_FILE:-$tls/ca.pem} java -XX:-UsePerfData -Djava.security.krb5.conf="$secure/krb5.conf" \
    -Dhbase.glib.log.file="$s_logs/probe.log" -cp "$(s_classpath probe)" \
    "$here/stack/SecureProbe.java" "$@"
}

s_client_env() {
  export HBASE_GLIB_PROBE_KEYTAB=${HBASE_GLIB_PROBE_KEYTAB:-$s_keytabs/client.keytab}
  export HBASE_GLIB_PROBE_PRINCIPAL=${HBASE_GLIB_PROBE_PRINCIPAL:-client@$realm}
}

# The PORT:QOP list of the gateways started (their .mode files), for
# "SecureProbe ready": one JVM checks them all (a JVM per gateway cost ~8 s
# each on the 2-core machine).
s_started_targets() {
  local f port qop
  for f in "$s_run"/gateway-*.mode; do
    [ -e "$f" ] || continue
    read -r port qop < "$f" || true
    printf '%s:%s\n' "$port" "$qop"
  done
}

s_wait_gateways() {
  local t0=$1 targets f name line
  targets=$(s_started_targets)
  [ -n "$targets" ] || return 0
  s_client_env
  # shellcheck disable=SC2086
  if ! s_probe ready 127.0.0.1 localhost "$start_timeout" $targets >"$s_run/ready.out" 2>&1; then
    cat "$s_run/ready.out" >&2
    for f in "$s_run"/gateway-*.mode; do
      name=$(basename "$f" .mode)
      grep -q "^ready: 127.0.0.1:$(cut -d' ' -f1 "$f") " "$s_run/ready.out" && continue
      say "last lines of $s_logs/$name.log:"; tail -n 20 "$s_logs/$name.log" >&2 || true
      [ -n "$(s_java_pid "$name")" ] || { say "$name exited; its stdout:"; tail -n 20 "$s_logs/$name.out" >&2; }
    done
    say "last lines of $s_logs/hbase.log:"; tail -n 20 "$s_logs/hbase.log" >&2 || true
    die "secure gateways did not all answer an authenticated call within $start_timeout s"
  fi
  while read -r line; do say "secure: answers as client: ${line#ready: }"; done < "$s_run/ready.out"
  say "secure: every gateway answered $(( $(s_ms "$t0") / 1000 )) s after start"
}

cmd_start_secure() {
  local t0 spec name port qop
  t0=$(now_ms)
  cmd_fetch
  s_write_krb5_conf
  s_make_realm
  s_start_kdc
  s_write_conf
  s_start_hbase
  for spec in $s_gateways; do
    IFS=: read -r name port qop <<<"$spec"
    s_start_gateway "$name" "$port" "$qop"
  done
  s_wait_hbase "$t0"
  s_wait_gateways "$t0"
  say "secure: ready in $(( $(s_ms "$t0") / 1000 )) s; KRB5_CONFIG=$secure/krb5.conf, client keytab $s_keytabs/client.keytab, logs in $s_logs"
}

cmd_stop_secure() {
  local f name pid
  [ -d "$s_run" ] || { say "secure: nothing to stop"; return 0; }
  for f in "$s_run"/gateway-*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    pid=$(s_java_pid "$name")
    if [ -n "$pid" ]; then say "secure: stopping $name"; stop_pid "$name" "$pid" "$s_run"; else rm -f "$f"; fi
  done
  pid=$(s_java_pid hbase)
  if [ -n "$pid" ]; then say "secure: stopping hbase"; stop_pid hbase "$pid" "$s_run"; fi
  pid=$(s_kdc_pid)
  if [ -n "$pid" ]; then say "secure: stopping kdc"; stop_pid kdc "$pid" "$s_run"; fi
  return 0
}

# stack.sh secure-probe ARGS...: SecureProbe.java as client (see there).
cmd_secure_probe() {
  cmd_fetch
  s_client_env
  s_probe "$@"
}

# stack.sh secure-env: shell assignments for a client of the secure stack.
cmd_secure_env() {
  local spec name port qop
  printf 'export KRB5_CONFIG=%q\n' "$secure/krb5.conf"
  printf 'export HBASE_GLIB_SECURE_REALM=%q\n' "$realm"
  printf 'export HBASE_GLIB_SECURE_KEYTABS=%q\n' "$s_keytabs"
  # the CA of the https gateway's certificate
  printf 'export HBASE_GLIB_SECURE_CA_FILE=%q\n' "$tls/ca.pem"
  for spec in $s_gateways; do
    IFS=: read -r name port qop <<<"$spec"
    printf 'export HBASE_GLIB_SECURE_%s_PORT=%q\n' "$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')" "$port"
  done
}

# Rows for "stack.sh status"; returns 1 when something started is not answering.
cmd_status_secure() {
  local f name pid port qop mode rc=0 out=
  [ -d "$s_run" ] || return 0
  pid=$(s_kdc_pid)
  printf '%-16s %-8s %s\n' secure-kdc "${pid:--}" "$([ -n "$pid" ] && echo "running (127.0.0.1:$kdc_port, realm $realm)" || echo stopped)"
  pid=$(s_java_pid hbase)
  printf '%-16s %-8s %s\n' secure-hbase "${pid:--}" "$([ -n "$pid" ] && echo running || echo stopped)"
  [ -n "$pid" ] || rc=1
  if [ -n "$(s_started_targets)" ]; then
    s_client_env
    # shellcheck disable=SC2046
    out=$(s_probe ready 127.0.0.1 localhost 5 $(s_started_targets) 2>&1)
  fi
  for f in "$s_run"/gateway-*.mode; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .mode)
    read -r port qop < "$f" || true
    pid=$(s_java_pid "$name")
    if [ -n "$pid" ] && printf '%s\n' "$out" | grep -q "^ready: 127.0.0.1:$port "; then
      mode="answering as client"
    else
      mode=$([ -n "$pid" ] && echo "running, not answering" || echo stopped); rc=1
    fi
    printf '%-16s %-8s %s (port %s, %s)\n' "secure-gw-${name#gateway-}" "${pid:--}" "$mode" "$port" \
      "$(s_mode_text "$qop")"
  done
  return $rc
}
