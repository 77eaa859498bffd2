# SPDX-License-Identifier: Apache-2.0
# tests/core/local.mk: errors and version.
check_PROGRAMS += tests/core/test-hbase-error tests/core/test-hbase-version
