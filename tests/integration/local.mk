# SPDX-License-Identifier: Apache-2.0
# tests/integration/local.mk: tests against the local stack (HBase, the
# Thrift2 gateways, redis-server), in layer order.

# connection
check_PROGRAMS += tests/integration/test-client tests/integration/test-client-reliability
# Thrift over HTTP and HTTPS: the stack's http/https gateways, TLS failures (openssl s_server)
check_PROGRAMS += tests/integration/test-http
# tls-ca-file/tls-ca-path replace the system's trust store (a mount namespace
# puts the gateway's CA in libcurl's default store)
check_PROGRAMS += tests/integration/test-tls-trust
# Kerberos: the kerberized stack (scripts/stack.sh start-secure); SASL GSSAPI
# on its socket gateways 19090-19092, SPNEGO and doAs on 19093 (http) and
# 19094 (https)
check_PROGRAMS += tests/integration/test-kerberos-sasl tests/integration/test-kerberos-http
# the negotiated protection level is read off the transport
tests_integration_test_kerberos_sasl_LDADD = $(internal_ldadd)

# native: HBase's own RPC (src/native/), read back through the gateway too
check_PROGRAMS += tests/integration/test-native-rpc tests/integration/test-native-pool
tests_integration_test_native_rpc_CPPFLAGS = $(native_cppflags)
tests_integration_test_native_rpc_LDADD = $(internal_ldadd)
# one client shared by threads, its connection pools and retries
tests_integration_test_native_pool_CPPFLAGS = $(native_cppflags)
tests_integration_test_native_pool_LDADD = $(internal_ldadd)
# the native backend refused by the kerberized stack's HBase (SIMPLE auth)
check_PROGRAMS += tests/integration/test-native-secured
# the same reads through a Thrift2 and a native HBaseTable, byte for byte
check_PROGRAMS += tests/integration/test-backends-differential
# (its scans close a native scanner behind the client's back)
tests_integration_test_backends_differential_CPPFLAGS = $(native_cppflags)
tests_integration_test_backends_differential_LDADD = $(internal_ldadd)

# table
check_PROGRAMS += \
	tests/integration/test-table \
	tests/integration/test-table-columns \
	tests/integration/test-scanner \
	tests/integration/test-scanner-gateways \
	tests/integration/test-write-buffer \
	tests/integration/test-write-buffer-async \
	tests/integration/test-write-buffer-memory \
	tests/integration/test-table-atomic \
	tests/integration/test-table-async \
	tests/integration/test-get-coalescer \
	tests/integration/test-table-hooks \
	tests/integration/test-table-index-mark \
	tests/integration/test-generated-client

# errors: messages, server text and codes across the table and structure APIs
check_PROGRAMS += tests/integration/test-errors
# these read internal state (scanner server ids, write hooks)
tests_integration_test_scanner_LDADD = $(internal_ldadd)
tests_integration_test_scanner_CPPFLAGS = $(native_cppflags)
tests_integration_test_table_hooks_LDADD = $(internal_ldadd)
# the write buffer's estimate of the bytes it held
tests_integration_test_write_buffer_memory_LDADD = $(internal_ldadd)
# counts the coalescer's calls
tests_integration_test_get_coalescer_LDADD = $(internal_ldadd)
# the mark an index puts on its table, and the writes it refuses
tests_integration_test_table_index_mark_LDADD = $(internal_ldadd)

# admin
check_PROGRAMS += tests/integration/test-admin tests/integration/test-admin-async tests/integration/test-table-schema

# rowkey
check_PROGRAMS += tests/integration/test-filter tests/integration/test-rowkey \
	tests/integration/test-key-scanner-async

# structures: compared with the same commands on redis-server
structures_test_sources = tests/structures/structures-support.c tests/structures/structures-support.h
check_PROGRAMS += \
	tests/integration/test-set \
	tests/integration/test-zset \
	tests/integration/test-set-redis \
	tests/integration/test-zset-redis
tests_integration_test_set_SOURCES = tests/integration/test-set.c $(structures_test_sources)
tests_integration_test_set_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS)
tests_integration_test_set_LDADD = $(LDADD) $(HIREDIS_LIBS)
tests_integration_test_zset_SOURCES = tests/integration/test-zset.c \
	tests/integration/zset-commands-cases.h tests/integration/zset-commands-cases.c \
	$(structures_test_sources)
tests_integration_test_zset_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS)
tests_integration_test_zset_LDADD = $(LDADD) $(HIREDIS_LIBS)
tests_integration_test_set_redis_SOURCES = tests/integration/test-set-redis.c $(structures_test_sources)
tests_integration_test_set_redis_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS)
tests_integration_test_set_redis_LDADD = $(LDADD) $(HIREDIS_LIBS)
tests_integration_test_zset_redis_SOURCES = tests/integration/test-zset-redis.c \
	tests/integration/zset-redis-private.h tests/integration/zset-redis-commands.c \
	$(structures_test_sources)
tests_integration_test_zset_redis_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS)
tests_integration_test_zset_redis_LDADD = $(LDADD) $(HIREDIS_LIBS)

# the _async/_finish pairs of sets and sorted sets
check_PROGRAMS += tests/integration/test-structures-async
tests_integration_test_structures_async_SOURCES = tests/integration/test-structures-async.c $(structures_test_sources)
tests_integration_test_structures_async_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS)
tests_integration_test_structures_async_LDADD = $(LDADD) $(HIREDIS_LIBS)
# set commands that write what they read (SPOP, SMOVE, S*STORE)
check_PROGRAMS += tests/integration/test-set-commands
tests_integration_test_set_commands_SOURCES = tests/integration/test-set-commands.c $(structures_test_sources)
tests_integration_test_set_commands_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS)
tests_integration_test_set_commands_LDADD = $(LDADD) $(HIREDIS_LIBS)

# index: through the installed index library, as applications use it
index_stack_ldadd = tests/libindex-support.la tests/libtest-support.la $(index_ldadd) \
	$(THRIFT_LIBS) $(HIREDIS_LIBS)
check_PROGRAMS += \
	tests/integration/test-index \
	tests/integration/test-index-concurrent \
	tests/integration/test-index-redis-down \
	tests/integration/test-index-interleavings
tests_integration_test_index_CFLAGS = $(index_test_cflags)
tests_integration_test_index_LDADD = $(index_stack_ldadd)
tests_integration_test_index_concurrent_CFLAGS = $(index_test_cflags)
tests_integration_test_index_concurrent_LDADD = $(index_stack_ldadd)
tests_integration_test_index_redis_down_CFLAGS = $(index_test_cflags)
tests_integration_test_index_redis_down_LDADD = $(index_stack_ldadd)
# the definitions table created explicitly, inline query composition; the
# async pairs of the index's calls on a main loop
check_PROGRAMS += tests/integration/test-index-setup tests/integration/test-index-async
tests_integration_test_index_setup_CFLAGS = $(index_test_cflags)
tests_integration_test_index_setup_LDADD = $(index_stack_ldadd)
tests_integration_test_index_async_CFLAGS = $(index_test_cflags)
tests_integration_test_index_async_LDADD = $(index_stack_ldadd)
# the key spaces of tables T, T:x and default:U kept apart; migration
# from the former key layout
check_PROGRAMS += tests/integration/test-index-keyspace
tests_integration_test_index_keyspace_CFLAGS = $(index_test_cflags)
tests_integration_test_index_keyspace_LDADD = $(index_stack_ldadd)
# drives the index's internal steps one at a time
tests_integration_test_index_interleavings_CPPFLAGS = $(index_test_cppflags)
tests_integration_test_index_interleavings_CFLAGS = $(index_test_cflags)
tests_integration_test_index_interleavings_LDADD = $(index_internal_ldadd)

# Network faults (delays, silence, resets, truncated and corrupt replies)
# injected by a proxy between the client and the stack's gateways and
# redis-server.
check_PROGRAMS += tests/integration/test-faults
tests_integration_test_faults_CFLAGS = $(index_test_cflags)
tests_integration_test_faults_LDADD = $(index_stack_ldadd)
