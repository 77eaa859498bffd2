#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Creates ./configure from configure.ac (a git checkout has none).
set -e
cd "$(dirname "$0")"
mkdir -p m4
autoreconf --force --install --warnings=all
