#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make install` into a temporary directory, then build and run programs
# from outside the tree with nothing but pkg-config: one using the
# generated layer, one using the core library where neither hiredis nor
# libthrift_c_glib's pkg-config file can be found, one using the Redis
# index library.  And check what each library
# exports.
. "$top_srcdir/tests/support/tap.sh"
tap_plan 10
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

# What each library exports, as NAME@@VERSION lines (its linker version
# script: src/libhbase-glib-1.0.map, src/index/libhbase-glib-index-1.0.map,
# thrift/libhbase-glib-thrift-1.0.map), without the version nodes' own
# absolute symbols.
exports() {
  nm -D --defined-only "$1" | awk '$2 != "A" {print $3}' |
    grep -v '^_\(init\|fini\|edata\|end\|_bss_start\)$'
}
# exports_other LIB REGEX: the exports that do not match REGEX
exports_other() { exports "$1" | grep -Ev "$2" || true; }

# The core exports the hand-written API (hbase_*, none of the generated
# hbase_thrift_*) and, in a private version node, the few internal
# functions the index library builds on.
seam='_hbase_(table_set_write_hooks|mutation_get_entry|mutation_get_n_entries|mutation_get_timestamp|check_table_name|client_run_task|table_set_index_mark|table_get_index_mark)'
lib=$(ls "$libdir"/libhbase-glib-1.0.so.* 2>/dev/null | head -n 1)
others=$(exports_other "$lib" "^(hbase_[a-z0-9_]+@@HBASE_GLIB_1\.0|$seam@@HBASE_GLIB_PRIVATE_1\.0)\$")
if [ -n "$lib" ] && [ -z "$others" ] && ! exports "$lib" | grep -q '^hbase_thrift_' &&
   [ "$(exports "$lib" | grep -c '@@HBASE_GLIB_PRIVATE_1\.0$')" -eq 8 ] &&
   exports "$lib" | grep -q '^hbase_client_new@@HBASE_GLIB_1\.0$'; then
  tap_ok "the core library exports hbase_* (no hbase_thrift_*) in HBASE_GLIB_1.0 and the index's 8 seam functions in HBASE_GLIB_PRIVATE_1.0"
else
  tap_not_ok "the core library exports only hbase_* and the index's seam"; printf '%s\n' "$others" | sed 's/^/# /' | head -n 20
fi
tlib=$(ls "$libdir"/libhbase-glib-thrift-1.0.so.* 2>/dev/null | head -n 1)
others=$(exports_other "$tlib" '^(hbase_thrift_[a-z0-9_]+@@HBASE_GLIB_THRIFT_1\.0|_hbase_application_exception_get_type@@HBASE_GLIB_THRIFT_PRIVATE_1\.0)$')
if [ -n "$tlib" ] && [ -z "$others" ] &&
   exports "$tlib" | grep -q '^hbase_thrift_t_h_base_service_client_get@@HBASE_GLIB_THRIFT_1\.0$' &&
   readelf -d "$lib" | grep -q 'NEEDED.*\[libhbase-glib-thrift-1\.0\.so\.'; then
  tap_ok "the generated layer's library exports only hbase_thrift_* (and its private repair), and the core needs it"
else
  tap_not_ok "the generated layer's library exports only hbase_thrift_*"; printf '%s\n' "$others" | sed 's/^/# /' | head -n 20
fi
ilib=$(ls "$libdir"/libhbase-glib-index-1.0.so.* 2>/dev/null | head -n 1)
others=$(exports_other "$ilib" '^hbase_index_[a-z0-9_]+@@HBASE_GLIB_INDEX_1\.0$')
if [ -n "$ilib" ] && [ -z "$others" ] && exports "$ilib" | grep -q '^hbase_index_open@@HBASE_GLIB_INDEX_1\.0$'; then
  tap_ok "the index library exports only hbase_index_* symbols"
else
  tap_not_ok "the index library exports only hbase_index_* symbols"; printf '%s\n' "$others" | sed 's/^/# /' | head -n 20
fi

# The core needs neither Redis nor libthrift_c_glib's headers: a pkg-config
# search path with every .pc file of this machine but hiredis's and
# thrift's, and an outside program using the core.  (Linking finds the
# installed libraries the core needs through LD_LIBRARY_PATH, as it would
# in the system's library directory.)
mkdir "$tmp/pc-no-hiredis"
for dir in $(pkg-config --variable pc_path pkg-config | tr ':' ' ') "$pcdir"; do
  for pc in "$dir"/*.pc; do
    case $(basename "$pc") in hiredis.pc|thrift*.pc) continue ;; esac
    [ -e "$pc" ] && ln -sf "$pc" "$tmp/pc-no-hiredis/"
  done
done
# shellcheck disable=SC2046
if flags=$(env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$tmp/pc-no-hiredis" \
             pkg-config --print-errors --cflags --libs hbase-glib-1.0 2> "$tmp/pc.log") &&
   ! env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$tmp/pc-no-hiredis" pkg-config --exists hiredis &&
   ! env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$tmp/pc-no-hiredis" pkg-config --exists thrift_c_glib &&
   LD_LIBRARY_PATH="$libdir" ${CC:-cc} $SANITIZER_FLAGS -Wall -Wextra -Werror -o "$tmp/outside-core" \
     "$top_srcdir/tests/install/outside-core.c" $flags > "$tmp/cc.log" 2>&1; then
  tap_ok "an outside program builds against the core with pkg-config where neither hiredis nor thrift_c_glib can be found"
else
  tap_not_ok "an outside program builds against the core without hiredis and thrift_c_glib"; sed 's/^/# /' "$tmp/pc.log" "$tmp/cc.log"
fi
if needed=$(readelf -d "$tmp/outside-core" "$lib" 2>&1) && ! printf '%s\n' "$needed" | grep -q 'NEEDED.*hiredis' &&
   out=$(LD_LIBRARY_PATH="$libdir" "$tmp/outside-core" 2>&1) && printf '%s\n' "$out" | grep -q 'HBaseError'; then
  tap_ok "neither that program nor the core library needs libhiredis, and the program runs"
else
  tap_not_ok "the core program runs without libhiredis"; printf '%s\n%s\n' "$needed" "${out:-}" | grep -i 'hiredis\|outside' | sed 's/^/# /'
fi

# shellcheck disable=SC2046
if LD_LIBRARY_PATH="$libdir" ${CC:-cc} $SANITIZER_FLAGS -Wall -Wextra -Werror -o "$tmp/outside-index" "$top_srcdir/tests/install/outside-index.c" \
     $(pkg-config --cflags --libs hbase-glib-index-1.0) > "$tmp/cc.log" 2>&1 &&
   out=$(LD_LIBRARY_PATH="$libdir" "$tmp/outside-index" 2>&1) && printf '%s\n' "$out" | grep -q 'HBaseIndexSpec, HBaseIndexValueType'; then
  tap_ok "an outside program builds with pkg-config hbase-glib-index-1.0 and runs against the index library"
else
  tap_not_ok "an outside program uses the index library"; sed 's/^/# /' "$tmp/cc.log"; printf '%s\n' "${out:-}" | sed 's/^/# /'
fi
exit 0
