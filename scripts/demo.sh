#!/usr/bin/env bash
# From a fresh Debian 12 machine (as root) or a developer's checkout:
# install what is needed, build, start the local stack and run the demo,
# which writes a row through hbase-glib and reads it back.  The stack keeps
# running afterwards; `scripts/stack.sh stop` stops it.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

scripts/install-deps.sh
build=$(scripts/build.sh)
scripts/stack.sh start
echo
echo "=== demo: $build/examples/hello"
"$build/examples/hello"
