#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compares the ABI of the three built libraries with the baselines
# committed in abi/, and fails on any difference.
#
#   scripts/abi-check.sh [--update] [BUILD_DIR]     (BUILD_DIR: ./build)
#
# Builds nothing: run scripts/build.sh first.  abidw (abigail-tools) reads
# each library's debug information (the build must use -g, the default
# CFLAGS) and keeps only the types declared in the public headers.
# Every change fails, additions too: an intended change of the ABI is a
# deliberate update of the baselines (--update, see docs/abi.md), made in
# the same commit.  Exit status: 0 no change, 1 an ABI change, 2 the check
# could not run.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

update=no
if [ "${1:-}" = --update ]; then update=yes; shift; fi
build=$(cd "${1:-$repo/build}" 2>/dev/null && pwd) ||
  { echo "abi-check: no build directory ${1:-$repo/build} (run scripts/build.sh)" >&2; exit 2; }

for tool in abidw abidiff readelf; do
  command -v "$tool" > /dev/null ||
    { echo "abi-check: $tool not found (Debian: abigail-tools, binutils)" >&2; exit 2; }
done

# abidw with locations as bare file names and no build paths: the baseline
# is the same whatever directory the tree is built in.
dump() {
  local lib=$1 out=$2; shift 2
  local hd=() dir
  for dir in "$@"; do hd+=(--headers-dir "$dir"); done
  abidw --no-corpus-path --no-comp-dir-path --short-locs --drop-private-types \
    "${hd[@]}" --out-file "$out" "$lib"
}

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
# name : public header directories (source tree, then build tree)
for entry in \
    "libhbase-glib-1.0:$repo/include/hbase-glib:$build/include/hbase-glib" \
    "libhbase-glib-index-1.0:$repo/include/hbase-glib:$build/include/hbase-glib" \
    "libhbase-glib-thrift-1.0:$build/include/hbase-glib/thrift"; do
  IFS=: read -r -a parts <<< "$entry"
  name=${parts[0]}
  lib=$build/src/.libs/$name.so
  baseline=$repo/abi/$name.abi
  if [ ! -f "$lib" ]; then
    echo "abi-check: $lib not built (run scripts/build.sh)" >&2; exit 2
  fi
  sections=$(readelf -S "$lib")
  if ! grep -q '\.debug_info' <<< "$sections"; then
    echo "abi-check: $lib has no debug information (build with -g)" >&2; exit 2
  fi
  if ! dump "$lib" "$tmp/$name.abi" "${parts[@]:1}"; then
    echo "abi-check: abidw failed on $lib" >&2; exit 2
  fi
  if [ "$update" = yes ]; then
    mkdir -p "$repo/abi"
    cp "$tmp/$name.abi" "$baseline"
    echo "abi-check: $name: baseline written to abi/$name.abi"
    continue
  fi
  if [ ! -f "$baseline" ]; then
    echo "abi-check: no baseline abi/$name.abi (scripts/abi-check.sh --update)" >&2; exit 2
  fi
  # abidiff's exit status is a bit field: 1 error, 2 usage error, 4 ABI
  # change (additions included), 8 incompatible change.
  rc=0
  abidiff --no-show-locs "$baseline" "$tmp/$name.abi" > "$tmp/$name.diff" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "abi-check: $name: abidiff: no ABI change"
  elif [ $((rc & 3)) -ne 0 ]; then
    echo "abi-check: $name: abidiff failed (status $rc):" >&2; cat "$tmp/$name.diff" >&2; exit 2
  else
    kind="an ABI change"
    [ $((rc & 8)) -ne 0 ] && kind="an INCOMPATIBLE ABI change"
    echo "abi-check: $name: $kind against abi/$name.abi:"
    cat "$tmp/$name.diff"
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "abi-check: if the change is intended, bump -version-info (docs/abi.md) and run scripts/abi-check.sh --update"
fi
exit "$status"
