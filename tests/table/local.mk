# SPDX-License-Identifier: Apache-2.0
# tests/table/local.mk: rows, request encoding, reply decoding (no server).
check_PROGRAMS += \
	tests/table/test-hbase-row \
	tests/table/test-result-reader \
	tests/table/test-request-encoding \
	tests/table/test-options \
	tests/table/test-bare-objects \
	tests/table/test-write-buffer-callback
tests_table_test_hbase_row_LDADD = $(internal_ldadd)
tests_table_test_result_reader_LDADD = $(internal_ldadd)
tests_table_test_request_encoding_LDADD = $(internal_ldadd)
# every public object type made by g_object_new() alone
tests_table_test_bare_objects_LDADD = $(internal_ldadd)
# replacing the failure callback while a flush runs it (a closed port: no server)
tests_table_test_write_buffer_callback_LDADD = $(internal_ldadd)

# The string forms of mutations and rows.
check_PROGRAMS += tests/table/test-strings
tests_table_test_strings_LDADD = $(internal_ldadd)

# The per-thread cache of family and qualifier names.
check_PROGRAMS += tests/table/test-name-cache
tests_table_test_name_cache_LDADD = $(internal_ldadd)
