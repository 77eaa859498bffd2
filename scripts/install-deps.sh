#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages hbase-glib needs to build, test and run its
# local stack and its kerberized stack.  Idempotent: packages already present are left alone, and apt is
# only called when something is missing.  Run as root.
set -euo pipefail

packages=(
  # build
  autoconf automake libtool pkg-config make gcc libc6-dev xz-utils
  libglib2.0-dev thrift-compiler libthrift-c-glib-dev libhiredis-dev
  # Thrift over HTTP/HTTPS (libcurl, OpenSSL flavour); openssl makes the test certificates
  libcurl4-openssl-dev openssl
  # HBase's own RPC (src/native/): protoc-c and libprotobuf-c
  protobuf-c-compiler libprotobuf-c-dev
  # Kerberos: GSSAPI for the client (SASL GSSAPI and SPNEGO); an MIT KDC run
  # unprivileged from a private kdc.conf and kinit/klist for the kerberized
  # local stack (scripts/stack.sh start-secure)
  libkrb5-dev krb5-kdc krb5-admin-server krb5-user
  # tools used by the build and tests (IDL check, jar extraction)
  python3 unzip
  # local stack: JDK 17 and Maven for HBase, Redis for the index bridge
  openjdk-17-jdk-headless maven redis-server redis-tools
  # memory checking
  valgrind
  # syscall counts of bench/run-transport.sh
  strace
  # the happybase virtualenv of bench/run-peers.sh
  python3-venv
  # scripts/fuzz.sh: clang, and libFuzzer (libclang_rt.fuzzer) from libclang-rt-14-dev
  clang libclang-rt-14-dev
  # GObject Introspection (HBase-1.0.gir/typelib), its Python tests (PyGObject)
  gobject-introspection libgirepository1.0-dev gir1.2-glib-2.0 python3-gi
  # the API reference
  gi-docgen
  # the ABI check against the committed baseline
  abigail-tools
  # Debian packages of the library, and their checks
  debhelper dpkg-dev fakeroot lintian bash-completion
  # tests/tools/test-zsh-completion.sh runs the zsh completion in zsh
  zsh
)

# A JDK or Maven installed outside apt (as on some images) is fine too.
command -v javac >/dev/null && packages=("${packages[@]/openjdk-17-jdk-headless}")
command -v mvn >/dev/null && packages=("${packages[@]/maven}")

missing=()
for p in "${packages[@]}"; do
  [ -n "$p" ] || continue
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present" >&2
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}; run this script as root" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# redis-server's package starts a system instance on port 6379; the project runs
# its own under scripts/stack.sh, so stop the packaged one to free the port.
if printf '%s\n' "${missing[@]}" | grep -qx redis-server; then
  (systemctl stop redis-server 2>/dev/null || service redis-server stop 2>/dev/null || true) >/dev/null
fi
# krb5-kdc and krb5-admin-server may start a system KDC (port 88) and kadmind
# for a realm with no database: the secure stack runs its own KDC, so stop them.
if printf '%s\n' "${missing[@]}" | grep -qxE 'krb5-kdc|krb5-admin-server'; then
  for s in krb5-kdc krb5-admin-server; do
    (systemctl stop "$s" 2>/dev/null || service "$s" stop 2>/dev/null || true) >/dev/null 2>&1
  done
fi
echo "install-deps: done" >&2
