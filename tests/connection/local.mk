# SPDX-License-Identifier: Apache-2.0
# tests/connection/local.mk: settings, transport, protocols, pooled connections.
check_PROGRAMS += \
	tests/connection/test-hbase-connection \
	tests/connection/test-pool-reuse \
	tests/connection/test-async-deadline \
	tests/connection/test-hbase-config \
	tests/connection/test-http-config \
	tests/connection/test-kerberos-config \
	tests/connection/test-native-config \
	tests/connection/test-hbase-transport \
	tests/connection/test-hbase-protocol \
	tests/connection/test-hostile-replies
tests_connection_test_hbase_transport_LDADD = $(internal_ldadd)
tests_connection_test_hbase_protocol_LDADD = $(internal_ldadd)
# _HOST's resolution is read off the library's service names
tests_connection_test_kerberos_config_LDADD = $(internal_ldadd)
