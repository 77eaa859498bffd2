#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make install` into a temporary directory, then build and run programs
# from outside the tree with nothing but pkg-config: one using the
# generated layer, one using the core library where no hiredis can be
# found, one using the Redis index library.  And check what each library
# exports.
. "$top_srcdir/tests/support/tap.sh"
tap_plan 9
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

if pkg-config --print-errors --exists hbase-glib-1.0 hbase-glib-thrift-1.0 hbase-glib-index-1.0 2> "$tmp/pc.log" &&
   [ "$(pkg-config --modversion hbase-glib-1.0)" = "$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$top_builddir/config.h")" ]; then
  tap_ok "pkg-config finds hbase-glib-1.0, hbase-glib-thrift-1.0 and hbase-glib-index-1.0 at the configured version"
else
  tap_not_ok "pkg-config finds hbase-glib-1.0, hbase-glib-thrift-1.0 and hbase-glib-index-1.0"; sed 's/^/# /' "$tmp/pc.log"
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

# The core library exports the API (hbase_*, the generated layer included)
# and the few internal functions the index library builds on; the index
# library exports its own API only.
seam='^_hbase_(table_set_write_hooks|mutation_get_entry|mutation_get_n_entries|mutation_get_timestamp|check_table_name)$'
lib=$(ls "$libdir"/libhbase-glib-1.0.so.* 2>/dev/null | head -n 1)
others=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^hbase_' | grep -Ev "$seam" |
         grep -v '^_\(init\|fini\|edata\|end\|_bss_start\)$' || true)
if [ -n "$lib" ] && [ -z "$others" ] && nm -D --defined-only "$lib" | grep -q ' hbase_thrift_t_h_base_service_client_get$'; then
  tap_ok "the core library exports only hbase_* symbols (the generated layer included) and the index's seam"
else
  tap_not_ok "the core library exports only hbase_* symbols"; printf '%s\n' "$others" | sed 's/^/# /' | head -n 20
fi
ilib=$(ls "$libdir"/libhbase-glib-index-1.0.so.* 2>/dev/null | head -n 1)
others=$(nm -D --defined-only "$ilib" | awk '{print $3}' | grep -v '^hbase_index_' |
         grep -v '^_\(init\|fini\|edata\|end\|_bss_start\)$' || true)
if [ -n "$ilib" ] && [ -z "$others" ] && nm -D --defined-only "$ilib" | grep -q ' hbase_index_open$'; then
  tap_ok "the index library exports only hbase_index_* symbols"
else
  tap_not_ok "the index library exports only hbase_index_* symbols"; printf '%s\n' "$others" | sed 's/^/# /' | head -n 20
fi

# The core needs no Redis: a pkg-config search path with every .pc file of
# this machine but hiredis's, and an outside program using the core.
mkdir "$tmp/pc-no-hiredis"
for dir in $(pkg-config --variable pc_path pkg-config | tr ':' ' ') "$pcdir"; do
  for pc in "$dir"/*.pc; do
    [ -e "$pc" ] && [ "$(basename "$pc")" != hiredis.pc ] && ln -sf "$pc" "$tmp/pc-no-hiredis/"
  done
done
# shellcheck disable=SC2046
if flags=$(env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$tmp/pc-no-hiredis" \
             pkg-config --print-errors --cflags --libs hbase-glib-1.0 2> "$tmp/pc.log") &&
   ! env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$tmp/pc-no-hiredis" pkg-config --exists hiredis &&
   ${CC:-cc} $SANITIZER_FLAGS -Wall -Wextra -Werror -o "$tmp/outside-core" \
     "$top_srcdir/tests/install/outside-core.c" $flags > "$tmp/cc.log" 2>&1; then
  tap_ok "an outside program builds against the core with pkg-config where hiredis cannot be found"
else
  tap_not_ok "an outside program builds against the core without hiredis"; sed 's/^/# /' "$tmp/pc.log" "$tmp/cc.log"
fi
if needed=$(readelf -d "$tmp/outside-core" "$lib" 2>&1) && ! printf '%s\n' "$needed" | grep -q 'NEEDED.*hiredis' &&
   out=$(LD_LIBRARY_PATH="$libdir" "$tmp/outside-core" 2>&1) && printf '%s\n' "$out" | grep -q 'HBaseError'; then
  tap_ok "neither that program nor the core library needs libhiredis, and the program runs"
else
  tap_not_ok "the core program runs without libhiredis"; printf '%s\n%s\n' "$needed" "${out:-}" | grep -i 'hiredis\|outside' | sed 's/^/# /'
fi

# shellcheck disable=SC2046
if ${CC:-cc} $SANITIZER_FLAGS -Wall -Wextra -Werror -o "$tmp/outside-index" "$top_srcdir/tests/install/outside-index.c" \
     $(pkg-config --cflags --libs hbase-glib-index-1.0) > "$tmp/cc.log" 2>&1 &&
   out=$(LD_LIBRARY_PATH="$libdir" "$tmp/outside-index" 2>&1) && printf '%s\n' "$out" | grep -q 'HBaseIndexSpec, HBaseIndexValueType'; then
  tap_ok "an outside program builds with pkg-config hbase-glib-index-1.0 and runs against the index library"
else
  tap_not_ok "an outside program uses the index library"; sed 's/^/# /' "$tmp/cc.log"; printf '%s\n' "${out:-}" | sed 's/^/# /'
fi
exit 0
