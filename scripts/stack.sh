#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The local stack hbase-glib is developed and tested against: a real
# standalone HBase 2.6 (HMaster with embedded ZooKeeper on the local
# filesystem), one or more real Thrift2 gateways and a real redis-server, all
# on loopback.  Jars come from Maven Central through scripts/stack/pom.xml.
#
#   scripts/stack.sh fetch            resolve the jars into the Maven cache
#   scripts/stack.sh start            HBase + every gateway in HBASE_GLIB_STACK_GATEWAYS + redis,
#                                     then wait until each answers a real call
#   scripts/stack.sh start-gateway PORT binary|compact buffered|framed|http|https [IDLE_MS]
#                                     one more gateway (on the running HBase); http and
#                                     https run it in HTTP mode (Jetty, always binary,
#                                     -Dhbase.regionserver.thrift.http=true), https with
#                                     TLS from the certificates of "tls" below
#   scripts/stack.sh tls              the test CA and certificates (made once in
#                                     STATE/tls, see make_tls): prints the directory
#   scripts/stack.sh stop-gateway PORT     stop one gateway
#   scripts/stack.sh restart-gateway PORT  stop it, start it again with the same
#                                     protocol, transport and idle timeout, wait
#                                     until it answers; prints the time taken (exit
#                                     status 3: no gateway of this state directory)
#   scripts/stack.sh start-thrift1 PORT  one Thrift1 gateway (org.apache.hadoop.hbase.thrift,
#                                     binary/buffered, for happybase in the peer benchmark)
#                                     on the running HBase; waits until getTableNames answers
#   scripts/stack.sh stop-thrift1 PORT   stop it
#   scripts/stack.sh start-redis-acl  only the second redis-server, the one with ACL users
#                                     (part of "start"; for a stack started before it existed)
#   scripts/stack.sh stop-redis-acl   stop it
#   scripts/stack.sh stop             stop everything this state directory started
#                                     (not the secure stack)
#   scripts/stack.sh start-secure     the kerberized stack (scripts/stack-secure.sh, state in
#                                     <state>/secure, ports of its own): an MIT KDC, a kerberized
#                                     HBase, SASL gateways at each QOP and an HTTP gateway with
#                                     SPNEGO and doAs; waits until each answers an authenticated call
#   scripts/stack.sh stop-secure      stop it
#   scripts/stack.sh secure-probe ARGS  scripts/stack/SecureProbe.java as client@REALM
#   scripts/stack.sh secure-env       export lines for its clients (KRB5_CONFIG, keytabs, ports)
#   scripts/stack.sh status           what runs, and whether it answers (secure stack included)
#   scripts/stack.sh logs             where the logs are
#   scripts/stack.sh thrift-jar       the path of the gateway's jar
#   scripts/stack.sh protocol-jar     the path of the hbase-protocol-shaded jar (the .proto files)
#   scripts/stack.sh classpath        the stack's Java classpath (conf directory first)
#
# Settings (environment):
#   HBASE_GLIB_STATE_DIR   all runtime state: data, logs, pid files  (default: <repo>/.stack)
#   HBASE_GLIB_CACHE_DIR   Maven cache and resolved classpath (default: ~/.cache/hbase-glib)
#   HBASE_GLIB_STACK_GATEWAYS  gateways "start" launches, PORT:PROTOCOL:TRANSPORT[:IDLE_MS]
#                          (TRANSPORT buffered, framed, http or https)
#                          separated by spaces; IDLE_MS is how long the gateway keeps
#                          an idle client socket open (its -t/--readTimeout, the key
#                          hbase.thrift.server.socket.read.timeout; HBase's default
#                          is 60000).  A running gateway started with another mode
#                          is restarted with this one.
#                          (default: 9090:binary:buffered 9091:compact:buffered
#                                    9092:binary:framed 9093:compact:framed
#                                    9094:binary:buffered:2000 9095:binary:buffered
#                                    9097:binary:http 9098:binary:https;
#                           9094 closes idle sockets after 2 s, for idle-reconnect
#                           tests; 9095 is stopped and started by the restart test;
#                           9097/9098 serve Thrift over HTTP and HTTPS)
#   HBASE_GLIB_ZK_PORT     embedded ZooKeeper client port (default 2181)
#   HBASE_GLIB_REDIS_PORT  redis-server port (default 6379; "none" to skip redis)
#   HBASE_GLIB_REDIS_ACL_PORT  a second redis-server that requires authentication
#                          (default 6380; "none" to skip it): ACL user "idx" with the
#                          password in <state>/redis-acl/idx.password, and the default
#                          user protected by the password in <state>/redis-acl/default.password
#                          (the legacy "AUTH password" form).  Both are generated on its
#                          first start, mode 600, and never printed.
#   HBASE_GLIB_MASTER_HEAP / HBASE_GLIB_GATEWAY_HEAP   JVM heaps (default 1g / 512m)
#   HBASE_GLIB_START_TIMEOUT  seconds to wait for readiness (default 300)
#   HBASE_GLIB_REGIONSERVERS  when set to N: HBase runs N region servers (still one JVM,
#                          scripts/stack/ClusterLauncher.java, on random RPC ports) that
#                          can be crashed or stopped and are then replaced (see there);
#                          unset: the usual standalone HMaster with one region server
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
state=${HBASE_GLIB_STATE_DIR:-$repo/.stack}
cache=${HBASE_GLIB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hbase-glib}
gateways=${HBASE_GLIB_STACK_GATEWAYS:-9090:binary:buffered 9091:compact:buffered 9092:binary:framed 9093:compact:framed 9094:binary:buffered:2000 9095:binary:buffered 9097:binary:http 9098:binary:https}
zk_port=${HBASE_GLIB_ZK_PORT:-2181}
redis_port=${HBASE_GLIB_REDIS_PORT:-6379}
redis_acl_port=${HBASE_GLIB_REDIS_ACL_PORT:-6380}
master_heap=${HBASE_GLIB_MASTER_HEAP:-1g}
gateway_heap=${HBASE_GLIB_GATEWAY_HEAP:-512m}
start_timeout=${HBASE_GLIB_START_TIMEOUT:-300}
regionservers=${HBASE_GLIB_REGIONSERVERS:-}

logs=$state/logs
run=$state/run
conf=$state/conf
tls=$state/tls
# the password of the test keystore (a throwaway key of a loopback gateway)
tls_password=hbase-glib-test

say() { printf '%s\n' "stack: $*" >&2; }
die() { say "error: $*"; exit 1; }

# JDK 17 needs these to run HBase 2.6 (bin/hbase add_jdk11_jvm_flags).
jvm_flags=(
  -XX:+UseG1GC
  -XX:-UsePerfData
  -Djava.net.preferIPv4Stack=true
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
  --add-modules jdk.unsupported
  --add-opens java.base/java.io=ALL-UNNAMED
  --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED
  --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-exports java.base/sun.net.dns=ALL-UNNAMED
  --add-exports java.base/sun.net.util=ALL-UNNAMED
)

now_ms() { date +%s%3N; }

# --- jars --------------------------------------------------------------------

classpath_file() {
  local sum
  sum=$(sha1sum "$here/stack/pom.xml" | cut -c1-12)
  printf '%s\n' "$cache/classpath-$sum.txt"
}

cmd_fetch() {
  local cp
  cp=$(classpath_file)
  if [ -s "$cp" ] && tr ':' '\n' < "$cp" | while read -r jar; do [ -f "$jar" ] || exit 1; done; then
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found: run scripts/install-deps.sh"
  mkdir -p "$cache"
  say "resolving HBase jars from Maven Central into $cache/m2 (first run downloads ~140 MB)"
  local t0; t0=$(now_ms)
  mvn -q -B -f "$here/stack/pom.xml" -Dmaven.repo.local="$cache/m2" \
      dependency:build-classpath -Dmdep.outputFile="$cp.tmp" >"$cache/mvn.log" 2>&1 \
    || { tail -n 30 "$cache/mvn.log" >&2; die "maven could not resolve the stack's jars (log: $cache/mvn.log)"; }
  mv "$cp.tmp" "$cp"
  say "jars resolved in $(( ($(now_ms) - t0) / 1000 )) s"
}

classpath() { printf '%s:%s\n' "${launch_conf:-$conf}" "$(cat "$(classpath_file)")"; }

thrift_jar() { tr ':' '\n' < "$(classpath_file)" | grep '/hbase-thrift-[^/]*\.jar$'; }
protocol_jar() { tr ':' '\n' < "$(classpath_file)" | grep '/hbase-protocol-shaded-[^/]*\.jar$'; }

# --- configuration -------------------------------------------------------------

write_conf() {
  mkdir -p "$conf" "$logs" "$run" "$state/data/tmp"
  cp "$here/stack/log4j2.properties" "$conf/log4j2.properties"
  cat > "$conf/hbase-site.xml" <<EOF
<?xml version="1.0"?>
<!-- Written by scripts/stack.sh; edits are lost on the next start. -->
<configuration>
  <property><name>hbase.cluster.distributed</name><value>false</value></property>
  <property><name>hbase.rootdir</name><value>file://$state/data/hbase</value></property>
  <property><name>hbase.tmp.dir</name><value>$state/data/tmp</value></property>
  <property><name>hbase.zookeeper.property.dataDir</name><value>$state/data/zk</value></property>
  <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>$zk_port</value></property>
  <property><name>hbase.unsafe.stream.capability.enforce</name><value>false</value></property>
  <property><name>hbase.master.info.port</name><value>-1</value></property>
  <property><name>hbase.regionserver.info.port</name><value>-1</value></property>
  <property><name>hbase.thrift.info.port</name><value>-1</value></property>
  <property><name>hbase.master.ipc.address</name><value>127.0.0.1</value></property>
  <property><name>hbase.regionserver.ipc.address</name><value>127.0.0.1</value></property>
  <property><name>hbase.master.hostname</name><value>localhost</value></property>
  <property><name>hbase.unsafe.regionserver.hostname</name><value>localhost</value></property>
  <property><name>hbase.regionserver.thrift.ipaddress</name><value>127.0.0.1</value></property>
</configuration>
EOF
}

# --- TLS (the https gateway and the TLS error tests) ----------------------------

# One certificate signed by a CA of $tls: NAME CA SAN [STARTDATE ENDDATE].
# `openssl ca` is used because in OpenSSL 3.0 it alone can date a
# certificate in the past (for the expired one).
sign_cert() {
  local name=$1 ca=$2 san=$3 start=${4:-} end=${5:-} dir=$tls/db-$2
  mkdir -p "$dir"; : > "$dir/index.txt"
  [ -f "$dir/serial" ] || openssl rand -hex 8 > "$dir/serial"
  cat > "$tls/$name.cnf" <<EOF
[ca]
default_ca = test_ca
[test_ca]
database = $dir/index.txt
serial = $dir/serial
new_certs_dir = $dir
certificate = $tls/$ca.pem
private_key = $tls/$ca.key
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
[ext]
basicConstraints = CA:FALSE
keyUsage = digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth, clientAuth
subjectAltName = $san
EOF
  openssl req -new -newkey rsa:2048 -nodes -keyout "$tls/$name.key" -out "$tls/$name.csr" \
    -subj "/CN=$name" 2>/dev/null || die "openssl could not make the key of $name"
  local dates=(-days 3650)
  [ -n "$start" ] && dates=(-startdate "$start" -enddate "$end")
  openssl ca -batch -notext -config "$tls/$name.cnf" -extensions ext -in "$tls/$name.csr" \
    -out "$tls/$name.pem" "${dates[@]}" >"$tls/$name.log" 2>&1 \
    || { cat "$tls/$name.log" >&2; die "openssl could not sign $name"; }
  rm -f "$tls/$name.csr" "$tls/$name.cnf" "$tls/$name.log"
}

# $tls holds: ca.pem (the test CA); server.pem/.key/.p12 (localhost and
# 127.0.0.1; the .p12 is the https gateway's keystore); expired.pem and
# wronghost.pem (signed by the CA) and untrusted.pem (signed by other-ca,
# which nothing trusts), each with its .key, for the TLS error tests;
# client.pem/.key, a client certificate.  Made once; delete the directory
# to make new ones.
make_tls() {
  [ -f "$tls/done" ] && return 0
  command -v openssl >/dev/null || die "openssl not found"
  rm -rf "$tls"; mkdir -p "$tls"
  local ca
  for ca in ca other-ca; do
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tls/$ca.key" -out "$tls/$ca.pem" \
      -subj "/CN=hbase-glib test $ca" -days 3650 -addext basicConstraints=critical,CA:TRUE \
      -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null || die "openssl could not make $ca"
  done
  sign_cert server ca "DNS:localhost,IP:127.0.0.1"
  sign_cert expired ca "DNS:localhost,IP:127.0.0.1" 20200101000000Z 20210101000000Z
  sign_cert wronghost ca "DNS:wrong.example"
  sign_cert untrusted other-ca "DNS:localhost,IP:127.0.0.1"
  sign_cert client ca "DNS:client.localhost"
  # Jetty loads the keystore as JKS, which the JDK's JKS type reads from PKCS12 too
  openssl pkcs12 -export -in "$tls/server.pem" -inkey "$tls/server.key" -certfile "$tls/ca.pem" \
    -name server -out "$tls/server.p12" -passout "pass:$tls_password" || die "openssl pkcs12 failed"
  chmod 600 "$tls"/*.key "$tls/server.p12"
  touch "$tls/done"
}

# The conf directory of an http or https gateway on PORT: hbase-site.xml plus
# the HTTP (and TLS) keys.  HTTP mode has no command-line flag, and -D does
# not work either: ToolRunner applies it to a Configuration the 2.6
# ThriftServer constructor has already copied (HBaseConfiguration.create(conf)).
write_http_conf() {
  local port=$1 transport=$2 dir=$state/conf-gateway-$1
  mkdir -p "$dir"
  cp "$conf/log4j2.properties" "$dir/"
  {
    sed '/^<\/configuration>/d' "$conf/hbase-site.xml"
    echo "  <property><name>hbase.regionserver.thrift.http</name><value>true</value></property>"
    if [ "$transport" = https ]; then
      make_tls
      echo "  <property><name>hbase.thrift.ssl.enabled</name><value>true</value></property>"
      echo "  <property><name>hbase.thrift.ssl.keystore.store</name><value>$tls/server.p12</value></property>"
      echo "  <property><name>hbase.thrift.ssl.keystore.password</name><value>$tls_password</value></property>"
      echo "  <property><name>hbase.thrift.ssl.keystore.keypassword</name><value>$tls_password</value></property>"
    fi
    echo "</configuration>"
  } > "$dir/hbase-site.xml"
  printf '%s\n' "$dir"
}

# --- processes -------------------------------------------------------------------

# pid of a running component, or nothing; checks the command line so a reused
# pid is not mistaken for ours.
running_pid() {
  local name=$1 pid
  [ -f "$run/$name.pid" ] || return 0
  pid=$(cat "$run/$name.pid")
  if [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "hbase.glib.component=$name"; then
    printf '%s\n' "$pid"
  fi
}

launch_java() {
  local name=$1 heap=$2; shift 2
  local log=$logs/$name.log
  : > "$logs/$name.out"
  nohup java "-Xms64m" "-Xmx$heap" "${jvm_flags[@]}" -Djava.io.tmpdir="$state/data/tmp" \
    -Dhbase.glib.component="$name" -Dhbase.glib.log.file="$log" \
    -Dlog4j2.configurationFile="$conf/log4j2.properties" \
    -cp "$(classpath)" "$@" >"$logs/$name.out" 2>&1 < /dev/null &
  echo $! > "$run/$name.pid"
}

start_hbase() {
  if [ -n "$(running_pid hbase)" ]; then say "hbase already running"; return 0; fi
  if [ -n "$regionservers" ]; then
    case $regionservers in *[!0-9]*|0) die "HBASE_GLIB_REGIONSERVERS must be a positive number, not '$regionservers'";; esac
    say "starting HBase ($regionservers region servers in one JVM, ZooKeeper on 127.0.0.1:$zk_port)"
    launch_java hbase "$master_heap" "$here/stack/ClusterLauncher.java" "$regionservers" "$run/cluster-control"
    return 0
  fi
  say "starting HBase (standalone, ZooKeeper on 127.0.0.1:$zk_port)"
  launch_java hbase "$master_heap" org.apache.hadoop.hbase.master.HMaster start
}

gateway_name() { printf 'gateway-%s\n' "$1"; }

check_gateway_spec() {
  local port=$1 protocol=$2 transport=$3 idle=${4:-}
  case $port in ''|*[!0-9]*) die "gateway port must be a number, not '$port'";; esac
  case $protocol in binary|compact) ;; *) die "protocol must be binary or compact, not '$protocol'";; esac
  case $transport in buffered|framed|http|https) ;; *) die "transport must be buffered, framed, http or https, not '$transport'";; esac
  case $transport:$protocol in http*:compact) die "an $transport gateway is always binary (HTTP mode ignores compact)";; esac
  case $idle in '') ;; *[!0-9]*|0) die "idle timeout must be a positive number of milliseconds, not '$idle'";; esac
}

# The .mode file of a gateway: "PROTOCOL TRANSPORT [IDLE_MS]".
gateway_mode() { printf '%s %s%s\n' "$1" "$2" "${3:+ $3}"; }

# "binary/buffered" or "binary/buffered, idle 2000 ms"
describe_mode() { printf '%s/%s%s\n' "$1" "$2" "${3:+, idle $3 ms}"; }

start_gateway() {
  local port=$1 protocol=$2 transport=$3 idle=${4:-} name pid
  check_gateway_spec "$port" "$protocol" "$transport" "$idle"
  name=$(gateway_name "$port")
  pid=$(running_pid "$name")
  if [ -n "$pid" ]; then
    if [ "$(cat "$run/$name.mode" 2>/dev/null)" = "$(gateway_mode "$protocol" "$transport" "$idle")" ]; then
      say "$name already running"; return 0
    fi
    say "$name runs as '$(cat "$run/$name.mode" 2>/dev/null)', wanted $(describe_mode "$protocol" "$transport" "$idle"): restarting it"
    stop_pid "$name" "$pid"
  fi
  say "starting Thrift2 gateway on 127.0.0.1:$port ($(describe_mode "$protocol" "$transport" "$idle"))"
  gateway_mode "$protocol" "$transport" "$idle" > "$run/$name.mode"
  # Command-line options, not -D: the gateway's option parsing overwrites
  # hbase.regionserver.thrift.port with its default when -p is absent.
  # -t (--readTimeout) sets hbase.thrift.server.socket.read.timeout, the
  # SO_TIMEOUT of client sockets of the default threadpool server: a worker
  # waiting that long for a request closes the connection.
  local flags=(-b 127.0.0.1 -p "$port") gateway_conf=$conf
  case $transport in
    http|https) gateway_conf=$(write_http_conf "$port" "$transport") ;;
  esac
  [ "$protocol" = compact ] && flags+=(-c)
  [ "$transport" = framed ] && flags+=(-f)
  [ -n "$idle" ] && flags+=(-t "$idle")
  launch_conf=$gateway_conf launch_java "$name" "$gateway_heap" org.apache.hadoop.hbase.thrift2.ThriftServer "${flags[@]}"
}

start_redis() {
  [ "$redis_port" = none ] && return 0
  if [ -n "$(redis_pid)" ]; then say "redis already running"; return 0; fi
  command -v redis-server >/dev/null || die "redis-server not found: run scripts/install-deps.sh"
  if [ "$(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" = PONG ]; then
    die "another redis-server already listens on 127.0.0.1:$redis_port (stop it, or set HBASE_GLIB_REDIS_PORT)"
  fi
  mkdir -p "$state/data/redis"
  say "starting redis-server on 127.0.0.1:$redis_port"
  redis-server --bind 127.0.0.1 --port "$redis_port" --daemonize yes \
    --pidfile "$run/redis.pid" --logfile "$logs/redis.log" --dir "$state/data/redis" \
    --save '' --appendonly no >/dev/null
}

# The redis-server with ACL users.  Its configuration (which holds the
# passwords) and the password files are readable by their owner only; the
# passwords are never on a command line.
redis_acl_dir() { printf '%s\n' "$state/redis-acl"; }

new_secret() { od -An -N24 -tx1 /dev/urandom | tr -d ' \n'; }

start_redis_acl() {
  [ "$redis_acl_port" = none ] && return 0
  local dir; dir=$(redis_acl_dir)
  if [ -n "$(redis_acl_pid)" ]; then say "redis-acl already running"; return 0; fi
  command -v redis-server >/dev/null || die "redis-server not found: run scripts/install-deps.sh"
  if (exec 3<>"/dev/tcp/127.0.0.1/$redis_acl_port") 2>/dev/null; then
    die "another server already listens on 127.0.0.1:$redis_acl_port (stop it, or set HBASE_GLIB_REDIS_ACL_PORT)"
  fi
  mkdir -p "$dir" "$logs" "$run" "$state/data/redis-acl"
  chmod 700 "$dir"
  (
    umask 077
    [ -s "$dir/idx.password" ] || new_secret > "$dir/idx.password"
    [ -s "$dir/default.password" ] || new_secret > "$dir/default.password"
    {
      echo "# Written by scripts/stack.sh; edits are lost on the next start."
      echo "user default on >$(cat "$dir/default.password") ~* &* +@all"
      echo "user idx on >$(cat "$dir/idx.password") ~* &* +@all"
    } > "$dir/redis.conf"
  )
  say "starting redis-server with ACL users on 127.0.0.1:$redis_acl_port"
  redis-server "$dir/redis.conf" --bind 127.0.0.1 --port "$redis_acl_port" --daemonize yes \
    --pidfile "$run/redis-acl.pid" --logfile "$logs/redis-acl.log" --dir "$state/data/redis-acl" \
    --save '' --appendonly no >/dev/null
}

redis_acl_pid() {
  local pid
  [ -f "$run/redis-acl.pid" ] || return 0
  pid=$(cat "$run/redis-acl.pid")
  if [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q redis-server; then
    printf '%s\n' "$pid"
  fi
}

# Whether the ACL redis answers: an unauthenticated PING must be refused
# with NOAUTH (it does require authentication), and user idx must get PONG.
redis_acl_answers() {
  local dir; dir=$(redis_acl_dir)
  [ -r "$dir/idx.password" ] || return 1
  case $(redis-cli -h 127.0.0.1 -p "$redis_acl_port" ping 2>&1) in NOAUTH*) ;; *) return 1 ;; esac
  [ "$(REDISCLI_AUTH=$(cat "$dir/idx.password") redis-cli --no-auth-warning --user idx \
        -h 127.0.0.1 -p "$redis_acl_port" ping 2>/dev/null)" = PONG ]
}

wait_redis_acl() {
  [ "$redis_acl_port" = none ] && return 0
  local i
  for i in $(seq 1 100); do
    redis_acl_answers && return 0
    sleep 0.1
  done
  tail -n 20 "$logs/redis-acl.log" >&2 || true
  die "redis-server with ACL users on port $redis_acl_port did not answer PING as user idx"
}

cmd_start_redis_acl() {
  start_redis_acl
  wait_redis_acl
  [ "$redis_acl_port" = none ] || say "redis with ACL users ready on 127.0.0.1:$redis_acl_port (user idx, password in $(redis_acl_dir)/idx.password)"
}

cmd_stop_redis_acl() {
  local pid
  pid=$(redis_acl_pid)
  if [ -n "$pid" ]; then say "stopping redis-acl"; stop_pid redis-acl "$pid"; fi
  return 0
}

redis_pid() {
  local pid
  [ -f "$run/redis.pid" ] || return 0
  pid=$(cat "$run/redis.pid")
  if [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q redis-server; then
    printf '%s\n' "$pid"
  fi
}

# Runs StackProbe.java (see there).  Its log4j output goes to the logs
# directory: the conf directory on the classpath carries log4j2.properties,
# which names the file by -Dhbase.glib.log.file (without it log4j would
# create a file literally named "${sys:hbase.glib.log.file}" in the caller's
# working directory).
# An https gateway is probed by the name its certificate carries, trusting
# the test CA (HBASE_GLIB_PROBE_CA_FILE, read by StackProbe).
probe_host() { if [ "$1" = https ]; then echo localhost; else echo 127.0.0.1; fi; }

probe() {
  mkdir -p "$logs"
  HBASE_GLIB_PROBE_CA_FILE=$tls/ca.pem java -XX:-UsePerfData -Dhbase.glib.log.file="$logs/probe.log" -cp "$(classpath)" \
    "$here/stack/StackProbe.java" "$@"
}

# Wait until a gateway answers listNamespaces and a get on hbase:meta.
wait_gateway() {
  local port=$1 protocol=$2 transport=$3 timeout=$4 name
  name=$(gateway_name "$port")
  if ! probe "$(probe_host "$transport")" "$port" "$protocol" "$transport" "$timeout" \
        >/dev/null 2>"$logs/$name.probe"; then
    cat "$logs/$name.probe" >&2
    say "last lines of $logs/hbase.log:"; tail -n 20 "$logs/hbase.log" >&2 || true
    say "last lines of $logs/$name.log:"; tail -n 20 "$logs/$name.log" >&2 || true
    [ -n "$(running_pid "$name")" ] || { say "$name exited; its stdout:"; tail -n 20 "$logs/$name.out" >&2; }
    die "gateway on port $port did not answer within $timeout s"
  fi
}

wait_redis() {
  [ "$redis_port" = none ] && return 0
  local i
  for i in $(seq 1 100); do
    [ "$(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" = PONG ] && return 0
    sleep 0.1
  done
  tail -n 20 "$logs/redis.log" >&2 || true
  die "redis-server on port $redis_port did not answer PING"
}

cmd_start() {
  local t0 spec port protocol transport idle
  t0=$(now_ms)
  for spec in $gateways; do
    [[ $spec =~ ^[0-9]+:(binary|compact):(buffered|framed|http|https)(:[1-9][0-9]*)?$ ]] ||
      die "HBASE_GLIB_STACK_GATEWAYS: '$spec' is not PORT:PROTOCOL:TRANSPORT[:IDLE_MS]"
  done
  cmd_fetch
  write_conf
  start_redis
  start_redis_acl
  start_hbase
  for spec in $gateways; do
    IFS=: read -r port protocol transport idle <<<"$spec"
    start_gateway "$port" "$protocol" "$transport" "$idle"
  done
  wait_redis
  wait_redis_acl
  for spec in $gateways; do
    IFS=: read -r port protocol transport idle <<<"$spec"
    wait_gateway "$port" "$protocol" "$transport" "$start_timeout"
  done
  say "ready in $(( ($(now_ms) - t0) / 1000 )) s: gateways [$gateways], redis ${redis_port}, redis with ACL users ${redis_acl_port}, logs in $logs"
}

cmd_start_gateway() {
  [ $# -eq 3 ] || [ $# -eq 4 ] || die "usage: stack.sh start-gateway PORT binary|compact buffered|framed|http|https [IDLE_MS]"
  local t0; t0=$(now_ms)
  check_gateway_spec "$@"
  cmd_fetch
  write_conf
  [ -n "$(running_pid hbase)" ] || die "hbase is not running: run 'scripts/stack.sh start' first"
  start_gateway "$@"
  wait_gateway "$1" "$2" "$3" "$start_timeout"
  say "gateway $1 ready in $(( ($(now_ms) - t0) / 1000 )) s"
}

# --- Thrift1 gateway (the peer benchmark's happybase runs) ----------------------

thrift1_name() { printf 'thrift1-%s\n' "$1"; }

cmd_start_thrift1() {
  [ $# -eq 1 ] || die "usage: stack.sh start-thrift1 PORT"
  local port=$1 name t0
  case $port in ''|*[!0-9]*) die "Thrift1 gateway port must be a number, not '$port'";; esac
  t0=$(now_ms)
  cmd_fetch
  write_conf
  [ -n "$(running_pid hbase)" ] || die "hbase is not running: run 'scripts/stack.sh start' first"
  name=$(thrift1_name "$port")
  if [ -n "$(running_pid "$name")" ]; then
    say "$name already running"
  else
    say "starting Thrift1 gateway on 127.0.0.1:$port (binary/buffered)"
    launch_java "$name" "$gateway_heap" org.apache.hadoop.hbase.thrift.ThriftServer -b 127.0.0.1 -p "$port" start
  fi
  mkdir -p "$logs"
  if ! java -XX:-UsePerfData -Dhbase.glib.log.file="$logs/probe.log" -cp "$(classpath)" \
        "$here/stack/Thrift1Probe.java" 127.0.0.1 "$port" "$start_timeout" >/dev/null 2>"$logs/$name.probe"; then
    cat "$logs/$name.probe" >&2
    say "last lines of $logs/$name.log:"; tail -n 20 "$logs/$name.log" >&2 || true
    [ -n "$(running_pid "$name")" ] || { say "$name exited; its stdout:"; tail -n 20 "$logs/$name.out" >&2; }
    die "Thrift1 gateway on port $port did not answer within $start_timeout s"
  fi
  say "Thrift1 gateway $port ready in $(( ($(now_ms) - t0) / 1000 )) s"
}

cmd_stop_thrift1() {
  [ $# -eq 1 ] || die "usage: stack.sh stop-thrift1 PORT"
  local name pid
  name=$(thrift1_name "$1")
  pid=$(running_pid "$name")
  if [ -z "$pid" ]; then say "$name is not running"; rm -f "$run/$name.pid"; return 0; fi
  say "stopping $name"
  stop_pid "$name" "$pid"
}

cmd_stop_gateway() {
  [ $# -eq 1 ] || die "usage: stack.sh stop-gateway PORT"
  local name pid
  name=$(gateway_name "$1")
  pid=$(running_pid "$name")
  if [ -z "$pid" ]; then say "$name is not running"; rm -f "$run/$name.pid"; return 0; fi
  say "stopping $name"
  stop_pid "$name" "$pid"
}

# Stops a gateway and starts it again as it ran before (its .mode file).
cmd_restart_gateway() {
  [ $# -eq 1 ] || die "usage: stack.sh restart-gateway PORT"
  local port=$1 name protocol transport idle t0 pid
  name=$(gateway_name "$port")
  # exit status 3: not a gateway of this state directory (tests skip then)
  [ -f "$run/$name.mode" ] || { say "error: no gateway was started on port $port (no $run/$name.mode)"; exit 3; }
  read -r protocol transport idle < "$run/$name.mode" || true
  check_gateway_spec "$port" "$protocol" "$transport" "$idle"
  [ -n "$(running_pid hbase)" ] || die "hbase is not running: run 'scripts/stack.sh start' first"
  t0=$(now_ms)
  cmd_fetch
  write_conf
  pid=$(running_pid "$name")
  if [ -n "$pid" ]; then say "stopping $name"; stop_pid "$name" "$pid"; fi
  say "gateway $port stopped in $(( $(now_ms) - t0 )) ms"
  start_gateway "$port" "$protocol" "$transport" "$idle"
  wait_gateway "$port" "$protocol" "$transport" "$start_timeout"
  say "gateway $port restarted ($(describe_mode "$protocol" "$transport" "$idle")) in $(( $(now_ms) - t0 )) ms"
}

# stop_pid NAME PID [RUN_DIR]: stops it (SIGKILL after 30 s) and removes
# RUN_DIR/NAME.pid (RUN_DIR: this stack's, or the secure stack's)
stop_pid() {
  local name=$1 pid=$2 dir=${3:-$run} i
  kill "$pid" 2>/dev/null || true
  for i in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$dir/$name.pid"; return 0; }
    sleep 0.1
  done
  say "$name did not stop in 30 s; killing it"
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$dir/$name.pid"
}

cmd_stop() {
  local f name pid
  [ -d "$run" ] || { say "nothing to stop"; return 0; }
  for f in "$run"/gateway-*.pid "$run"/thrift1-*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    pid=$(running_pid "$name")
    if [ -n "$pid" ]; then say "stopping $name"; stop_pid "$name" "$pid"; else rm -f "$f"; fi
  done
  pid=$(running_pid hbase)
  if [ -n "$pid" ]; then say "stopping hbase"; stop_pid hbase "$pid"; fi
  pid=$(redis_pid)
  if [ -n "$pid" ]; then say "stopping redis"; stop_pid redis "$pid"; fi
  cmd_stop_redis_acl
}

cmd_status() {
  local f name pid mode protocol transport idle rc=0
  printf '%-16s %-8s %s\n' component pid state
  pid=$(running_pid hbase)
  printf '%-16s %-8s %s\n' hbase "${pid:--}" "$([ -n "$pid" ] && echo running || echo stopped)"
  [ -n "$pid" ] || rc=1
  for f in "$run"/gateway-*.mode; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .mode)
    pid=$(running_pid "$name")
    idle=
    read -r protocol transport idle < "$f" || true
    if [ -n "$pid" ] && probe "$(probe_host "$transport")" "${name#gateway-}" \
         "$protocol" "$transport" 5 >/dev/null 2>&1; then
      mode=answering
    else
      mode=$([ -n "$pid" ] && echo "running, not answering" || echo stopped); rc=1
    fi
    printf '%-16s %-8s %s (%s)\n' "$name" "${pid:--}" "$mode" "$(describe_mode "$protocol" "$transport" "$idle")"
  done
  # Thrift1 gateways (start-thrift1): listed while their pid file exists
  for f in "$run"/thrift1-*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    pid=$(running_pid "$name")
    if [ -n "$pid" ] && java -XX:-UsePerfData -Dhbase.glib.log.file="$logs/probe.log" -cp "$(classpath)" \
         "$here/stack/Thrift1Probe.java" 127.0.0.1 "${name#thrift1-}" 5 >/dev/null 2>&1; then
      mode=answering
    else
      mode=$([ -n "$pid" ] && echo "running, not answering" || echo stopped); rc=1
    fi
    printf '%-16s %-8s %s (Thrift1, binary/buffered)\n' "$name" "${pid:--}" "$mode"
  done
  if [ "$redis_port" != none ]; then
    pid=$(redis_pid)
    printf '%-16s %-8s %s\n' redis "${pid:--}" \
      "$([ "$(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" = PONG ] && echo answering || echo stopped)"
  fi
  if [ "$redis_acl_port" != none ]; then
    pid=$(redis_acl_pid)
    if redis_acl_answers; then
      mode="answering (port $redis_acl_port, ACL user idx)"
    else
      mode=$([ -n "$pid" ] && echo "running, not answering" || echo stopped)
    fi
    printf '%-16s %-8s %s\n' redis-acl "${pid:--}" "$mode"
  fi
  cmd_status_secure || rc=1
  return $rc
}

cmd_logs() {
  printf '%s\n' "$logs"
  ls -1 "$logs" 2>/dev/null | sed "s|^|  $logs/|"
}

. "$here/stack-secure.sh"

case ${1:-} in
  fetch) cmd_fetch ;;
  start) cmd_start ;;
  start-gateway) shift; cmd_start_gateway "$@" ;;
  stop-gateway) shift; cmd_stop_gateway "$@" ;;
  restart-gateway) shift; cmd_restart_gateway "$@" ;;
  start-redis-acl) cmd_start_redis_acl ;;
  stop-redis-acl) cmd_stop_redis_acl ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  logs) cmd_logs ;;
  start-secure) cmd_start_secure ;;
  stop-secure) cmd_stop_secure ;;
  secure-probe) shift; cmd_secure_probe "$@" ;;
  secure-env) cmd_secure_env ;;
  thrift-jar) cmd_fetch; thrift_jar ;;
  protocol-jar) cmd_fetch; protocol_jar ;;
  tls) make_tls; printf '%s\n' "$tls" ;;
  start-thrift1) shift; cmd_start_thrift1 "$@" ;;
  stop-thrift1) shift; cmd_stop_thrift1 "$@" ;;
  classpath) cmd_fetch; classpath ;;
  *) sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p' >&2; exit 2 ;;
esac
