#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds hbase-glib out of tree.
#
#   scripts/build.sh                  -> build/             (the normal build)
#   scripts/build.sh --sanitizers     -> build-sanitizers/  (ASan + UBSan)
#
# Extra arguments after the options go to configure.  Prints the build
# directory on stdout.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

dir=$repo/build
# GObject Introspection data, the API reference and the Python tests of
# the bindings are part of the build: a missing tool is an error, never
# tests quietly left out.
args=(--enable-werror --enable-introspection=yes --enable-docs=yes --enable-python-tests=yes)
if [ "${1:-}" = --sanitizers ]; then
  dir=$repo/build-sanitizers
  args+=(--enable-sanitizers)
  shift
fi
args+=("$@")

if [ -f "$repo/config.status" ]; then
  echo "build: the source tree is configured in place; run 'make distclean' there first" >&2
  exit 1
fi

cd "$repo"
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] || ./autogen.sh >&2

mkdir -p "$dir"
cd "$dir"
if [ ! -f config.status ] || [ "$(cat .configure-args 2>/dev/null)" != "${args[*]}" ]; then
  "$repo/configure" -q "${args[@]}" >&2
  printf '%s' "${args[*]}" > .configure-args
fi
make -j"$(nproc)" >&2
printf '%s\n' "$dir"
