#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian packages of the working tree (debian/) and proves them:
#   1. dpkg-buildpackage -us -uc -b on a copy of the tree in a temporary
#      directory (so nothing lands next to the checkout), with the build
#      profiles the tree needs (debian/control: no introspection, no docs,
#      no separate Thrift library while configure.ac / the makefiles
#      have none), and the symbols files checked exactly;
#   2. lintian on the .changes: no error and no warning;
#   3. installs the packages (apt-get install ./*.deb, as root), then with
#      the installed files only: the hbase-glib command and its bash
#      completion, outside C programs built with pkg-config (core, Thrift
#      layer, index) of which one writes and reads a temporary table of
#      the running stack (127.0.0.1:9090 and Redis 127.0.0.1:6379) and
#      indexes it, and a Python program using the typelib through
#      gi.require_version('HBase', '1.0');
#   4. removes every package it installed (its own and the dependencies apt
#      added), and the temporary table.
# Prints TAP (one test point per check, the figures as comments); exit
# status 0 when every check passed.
#
#   scripts/package.sh                   all of the above (root, stack running)
#   scripts/package.sh --build-only      steps 1 and 2 only
#   scripts/package.sh --update-symbols  build, then write debian/*.symbols
#                                        from the libraries built (review the
#                                        diff; the build then checks them)
#
# HBASE_GLIB_GATEWAYS picks another gateway than 127.0.0.1:9090;
# HBASE_GLIB_PACKAGE_KEEP=1 keeps the temporary directory (it is printed).
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=all
case ${1:-} in
  '') ;;
  --build-only) mode=build ;;
  --update-symbols) mode=symbols ;;
  *) echo "usage: scripts/package.sh [--build-only | --update-symbols]" >&2; exit 2 ;;
esac
gateways=${HBASE_GLIB_GATEWAYS:-127.0.0.1:9090}

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# check DESCRIPTION COMMAND...: a test point from a command's status, its
# output shown as comments when it fails
check() {
  local what=$1 out; shift
  if out=$("$@" 2>&1); then ok "$what"; else not_ok "$what"; printf '%s\n' "$out" | sed 's/^/# /' | tail -n 40; fi
}

tmp=$(mktemp -d /tmp/hbase-glib-package.XXXXXX)
version=$(dpkg-parsechangelog -l "$repo/debian/changelog" -S Version)
upstream=${version%-*}
src=$tmp/hbase-glib-$upstream
table=hbase_glib_package_$$_$(date +%s)
added=()      # packages this script installed, removed at the end
table_made=no

finish() {
  if [ "$table_made" = yes ]; then
    hbase-glib --gateways="$gateways" drop --yes --if-exists "$table" >/dev/null 2>&1 ||
      "$src/tools/hbase-glib" --gateways="$gateways" drop --yes --if-exists "$table" >/dev/null 2>&1
  fi
  if [ ${#added[@]} -gt 0 ]; then
    if DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "${added[@]}" > "$tmp/purge.log" 2>&1; then
      echo "# removed the ${#added[@]} packages installed: ${added[*]}"
    else
      echo "# could not remove ${added[*]}:"; sed 's/^/# /' "$tmp/purge.log" | tail -n 20; failed=1
    fi
  fi
  if [ "${HBASE_GLIB_PACKAGE_KEEP:-0}" = 1 ]; then echo "# kept $tmp"; else rm -rf "$tmp"; fi
  [ "$failed" = 0 ] || exit 1
}
trap finish EXIT

# --- 1. build ---------------------------------------------------------------
# The working tree's files (tracked and new, not ignored ones), as they are.
mkdir -p "$src"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
   while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
   tar --null -T - -cf -) | tar -xf - -C "$src"

# The profiles the tree needs: what configure.ac or the makefiles lack.
profiles=()
grep -Eq 'enable-introspection|GOBJECT_INTROSPECTION_CHECK' "$repo/configure.ac" || profiles+=(pkg.hbase-glib.nogir)
grep -Eq 'enable-docs|GI_DOCGEN' "$repo/configure.ac" || profiles+=(nodoc)
profile_list=$(IFS=,; echo "${profiles[*]:-}")
echo "# build profiles: ${profile_list:-none}"

# The symbols files must match the libraries exactly (level 4); when
# writing them, nothing is checked.
if [ "$mode" = symbols ]; then export DPKG_GENSYMBOLS_CHECK_LEVEL=0; else export DPKG_GENSYMBOLS_CHECK_LEVEL=4; fi
start=$SECONDS
if (cd "$src" && DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" \
      dpkg-buildpackage -us -uc -b ${profile_list:+-P"$profile_list"}) > "$tmp/build.log" 2>&1; then
  ok "dpkg-buildpackage -us -uc -b ($((SECONDS - start)) s)"
else
  not_ok "dpkg-buildpackage -us -uc -b ($((SECONDS - start)) s)"
  grep -q 'dpkg-gensymbols: error' "$tmp/build.log" &&
    echo "# the exported symbols changed: scripts/package.sh --update-symbols writes debian/*.symbols anew"
  sed 's/^/# /' "$tmp/build.log" | tail -n 60
  exit 1
fi
echo "# built in $((SECONDS - start)) s:"
(cd "$tmp" && ls -l ./*.deb | awk '{ printf "#   %s (%d bytes)\n", $NF, $5 }')

if [ "$mode" = symbols ]; then
  for dir in "$src"/debian/lib*-[0-9]; do
    package=$(basename "$dir")
    [ -d "$dir/DEBIAN" ] || continue
    # written anew from the library alone: with the old file as template,
    # dpkg-gensymbols would keep the symbols gone as #MISSING lines
    rm -f "$src/debian/$package.symbols"
    (cd "$src" && dpkg-gensymbols -q -c0 -p"$package" -P"debian/$package" -v"$upstream" -O) > "$tmp/$package.symbols" || exit 1
    {
      echo "# SPDX-License-Identifier: Apache-2.0"
      echo "# Written by scripts/package.sh --update-symbols from the library built."
      # the old file's comments, fields and #MISSING lines (symbols gone:
      # the release keeps none) are not carried over
      sed -n '/^[^#* ]/p' "$tmp/$package.symbols"
      echo "* Build-Depends-Package: libhbase-glib-1.0-dev"
      sed -n '/^ /p' "$tmp/$package.symbols"
    } > "$repo/debian/$package.symbols"
    echo "# wrote debian/$package.symbols ($(grep -c '^ ' "$tmp/$package.symbols") symbols)"
  done
  exit $failed
fi

# --- 2. lintian -------------------------------------------------------------
changes=$(ls "$tmp"/*.changes)
lintian --display-level '>=warning' "$changes" > "$tmp/lintian.log" 2>&1
errors=$(grep -c '^E: ' "$tmp/lintian.log")
warnings=$(grep -c '^W: ' "$tmp/lintian.log")
echo "# lintian: $errors errors, $warnings warnings"
if [ "$errors" = 0 ] && [ "$warnings" = 0 ]; then
  ok "lintian: $errors errors, $warnings warnings"
else
  not_ok "lintian: $errors errors, $warnings warnings"; sed 's/^/# /' "$tmp/lintian.log"
fi
if [ "$mode" = build ]; then
  echo "1..$n"
  exit $failed
fi

# --- 3. install and use -----------------------------------------------------
own=$(cd "$tmp" && for deb in ./*.deb; do dpkg-deb -f "$deb" Package; done)
for package in $own; do
  if dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q ' installed$'; then
    not_ok "$package is not installed yet (remove it first)"; echo "1..$n"; exit 1
  fi
done
dpkg-query -W -f '${Package}:${Architecture} ${Status}\n' | awk '/ installed$/ { print $1 }' | sort > "$tmp/before"
if (cd "$tmp" && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ./*.deb) \
     > "$tmp/install.log" 2>&1; then
  ok "apt-get install ./*.deb ($(echo $own | wc -w) packages)"
else
  not_ok "apt-get install ./*.deb"; sed 's/^/# /' "$tmp/install.log" | tail -n 30
fi
dpkg-query -W -f '${Package}:${Architecture} ${Status}\n' | awk '/ installed$/ { print $1 }' | sort > "$tmp/after"
mapfile -t added < <(comm -13 "$tmp/before" "$tmp/after")
echo "# installed: ${added[*]}"

# Nothing of the build tree below: programs find what the packages put in /usr.
unset PKG_CONFIG_PATH LD_LIBRARY_PATH
check "hbase-glib --version from /usr/bin" sh -c "[ \"\$(command -v hbase-glib)\" = /usr/bin/hbase-glib ] && hbase-glib --version | grep -qx 'hbase-glib $upstream'"
check "the manual page hbase-glib(1) is installed" test -s /usr/share/man/man1/hbase-glib.1.gz
check "the installed bash completion completes hbase-glib pi to ping" bash --norc --noprofile -c '
  . /usr/share/bash-completion/completions/hbase-glib &&
  COMP_WORDS=(hbase-glib pi) COMP_CWORD=1 && _hbase_glib && [ "${COMPREPLY[*]}" = ping ]'

if hbase-glib --gateways="$gateways" create "$table" d > "$tmp/create.log" 2>&1; then
  table_made=yes; ok "hbase-glib create $table d"
else
  not_ok "hbase-glib create $table d (is the stack running?)"; sed 's/^/# /' "$tmp/create.log"
fi

cflags() { pkg-config --print-errors --cflags --libs "$@"; }
# shellcheck disable=SC2046
check "outside-core.c builds with pkg-config hbase-glib-1.0 and runs" sh -c "
  cc -Wall -Wextra -Werror -o '$tmp/outside-core' '$repo/tests/install/outside-core.c' \$(pkg-config --cflags --libs hbase-glib-1.0) &&
  '$tmp/outside-core'"
check "outside.c builds with pkg-config hbase-glib-thrift-1.0 and runs" sh -c "
  cc -Wall -Wextra -Werror -o '$tmp/outside' '$repo/tests/install/outside.c' \$(pkg-config --cflags --libs hbase-glib-thrift-1.0) &&
  '$tmp/outside'"
check "installed-roundtrip.c builds with pkg-config hbase-glib-index-1.0" sh -c "
  cc -Wall -Wextra -Werror -o '$tmp/installed-roundtrip' '$repo/tests/install/installed-roundtrip.c' \$(pkg-config --cflags --libs hbase-glib-index-1.0)"
if out=$("$tmp/installed-roundtrip" "$gateways" "$table" 2>&1); then
  ok "installed-roundtrip: put, get and a Redis index on $table through the installed libraries"
else
  not_ok "installed-roundtrip: put, get and a Redis index on $table"
fi
printf '%s\n' "$out" | sed 's/^/# /'

typelib=$(ls /usr/lib/*/girepository-1.0/HBase-1.0.typelib 2>/dev/null | head -n 1)
if [ -n "$typelib" ]; then
  # Debian's Python, whose python3-gi the gir1.2 package serves (not a
  # python3 of the PATH, which may be another installation)
  if out=$(/usr/bin/python3 "$repo/tests/install/installed-roundtrip.py" "$gateways" "$table" 2>&1); then
    ok "installed-roundtrip.py: put and get through gi.require_version('HBase', '1.0')"
  else
    not_ok "installed-roundtrip.py through gi.require_version('HBase', '1.0')"
  fi
  printf '%s\n' "$out" | sed 's/^/# /'
else
  skip "installed-roundtrip.py through gi.require_version('HBase', '1.0')" \
       "no HBase-1.0.typelib installed (this tree builds no introspection data: profile ${profile_list:-none})"
fi

echo "1..$n"
exit $failed
