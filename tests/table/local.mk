# SPDX-License-Identifier: Apache-2.0
# tests/table/local.mk: rows, request encoding, reply decoding (no server).
check_PROGRAMS += \
	tests/table/test-hbase-row \
	tests/table/test-result-reader \
	tests/table/test-request-encoding \
	tests/table/test-options
tests_table_test_hbase_row_LDADD = $(internal_ldadd)
tests_table_test_result_reader_LDADD = $(internal_ldadd)
tests_table_test_request_encoding_LDADD = $(internal_ldadd)

# The string forms of mutations and rows.
check_PROGRAMS += tests/table/test-strings
tests_table_test_strings_LDADD = $(internal_ldadd)
