#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make install` into a temporary directory, then build and run a program
# from outside the tree with nothing but pkg-config; and check that the
# library exports only hbase_* symbols.
. "$top_srcdir/tests/support/tap.sh"
tap_plan 5
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if ! (cd "$top_builddir" && $MAKE install DESTDIR="$tmp/root") > "$tmp/install.log" 2>&1; then
  tap_not_ok "make install DESTDIR=..."; sed 's/^/# /' "$tmp/install.log" | tail -n 30
  exit 0
fi
tap_ok "make install DESTDIR=..."

# Point the installed .pc files at the temporary root: they say prefix=PREFIX
# and derive every other directory from it.
pcdir=$(dirname "$(find "$tmp/root" -name hbase-glib-1.0.pc | head -n 1)")
for pc in "$pcdir"/*.pc; do
  sed -i "s|^prefix=\\(.*\\)|prefix=$tmp/root\\1|" "$pc"
done
export PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

if pkg-config --print-errors --exists hbase-glib-1.0 hbase-glib-thrift-1.0 2> "$tmp/pc.log" &&
   [ "$(pkg-config --modversion hbase-glib-1.0)" = "$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$top_builddir/config.h")" ]; then
  tap_ok "pkg-config finds hbase-glib-1.0 and hbase-glib-thrift-1.0 at the configured version"
else
  tap_not_ok "pkg-config finds hbase-glib-1.0 and hbase-glib-thrift-1.0"; sed 's/^/# /' "$tmp/pc.log"
fi

# shellcheck disable=SC2046
if ${CC:-cc} $SANITIZER_FLAGS -Wall -Wextra -Werror -o "$tmp/outside" "$top_srcdir/tests/install/outside.c" \
     $(pkg-config --cflags --libs hbase-glib-thrift-1.0) > "$tmp/cc.log" 2>&1; then
  tap_ok "an outside program compiles and links with pkg-config --cflags --libs"
else
  tap_not_ok "an outside program compiles and links"; sed 's/^/# /' "$tmp/cc.log"
fi

libdir=$(pkg-config --variable=libdir hbase-glib-1.0)
if out=$(LD_LIBRARY_PATH="$libdir" "$tmp/outside" 2>&1) && printf '%s\n' "$out" | grep -q 'HbaseThriftTGet'; then
  tap_ok "the outside program runs against the installed library"
else
  tap_not_ok "the outside program runs against the installed library"; printf '%s\n' "$out" | sed 's/^/# /'
fi

lib=$(ls "$libdir"/libhbase-glib-1.0.so.* 2>/dev/null | head -n 1)
others=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^hbase_' | grep -v '^_\(init\|fini\|edata\|end\|_bss_start\)$' || true)
if [ -n "$lib" ] && [ -z "$others" ] && nm -D --defined-only "$lib" | grep -q ' hbase_thrift_t_h_base_service_client_get$'; then
  tap_ok "the library exports only hbase_* symbols, the generated layer included"
else
  tap_not_ok "the library exports only hbase_* symbols"; printf '%s\n' "$others" | sed 's/^/# /' | head -n 20
fi
exit 0
