# SPDX-License-Identifier: Apache-2.0
# tests/rowkey/local.mk: key schemas and filters (no server).
check_PROGRAMS += tests/rowkey/test-key-schema tests/rowkey/test-filter
tests_rowkey_test_key_schema_LDADD = $(internal_ldadd)

# Boxed types and option structs of the key layer.
check_PROGRAMS += tests/rowkey/test-key-options
tests_rowkey_test_key_options_LDADD = $(internal_ldadd)
