# SPDX-License-Identifier: Apache-2.0
# tests/native/local.mk: HBase's own RPC without a server: the bytes of the
# preamble, header and request frames, hostile replies and cellblocks,
# exception classes, the retry policy, the FilterProtos messages of typed
# filters.  (Against the stack:
# tests/integration/test-native-*.)
check_PROGRAMS += \
	tests/native/test-native-wire \
	tests/native/test-native-cells \
	tests/native/test-native-retry \
	tests/native/test-native-filter
tests_native_test_native_wire_CPPFLAGS = $(native_cppflags)
tests_native_test_native_wire_LDADD = $(internal_ldadd)
tests_native_test_native_cells_CPPFLAGS = $(native_cppflags)
tests_native_test_native_cells_LDADD = $(internal_ldadd)
tests_native_test_native_retry_CPPFLAGS = $(native_cppflags)
tests_native_test_native_retry_LDADD = $(internal_ldadd)
tests_native_test_native_filter_CPPFLAGS = $(native_cppflags)
tests_native_test_native_filter_LDADD = $(internal_ldadd)
