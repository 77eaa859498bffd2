# SPDX-License-Identifier: Apache-2.0
# tests/fuzz/local.mk: fuzz harnesses (see tests/fuzz/README.md).
#
# Each harness tests/fuzz/fuzz-NAME.c (LLVMFuzzerTestOneInput) is built
# twice: tests/fuzz/replay-NAME runs every file of its committed corpus
# tests/fuzz/corpus/NAME/ once (a regression test of `make check`, any
# compiler), and tests/fuzz/fuzz-NAME is the libFuzzer program, built only
# by scripts/fuzz.sh (clang, `make fuzz-harnesses FUZZ_LDFLAGS=-fsanitize=fuzzer`).
fuzz_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/src/index $(HIREDIS_CFLAGS) \
	-DFUZZ_CORPUS_ROOT='"$(abs_top_srcdir)/tests/fuzz/corpus"'
fuzz_ldadd = src/libhbase-glib-index-internal.la src/libhbase-glib-internal.la \
	$(GLIB_LIBS) $(THRIFT_LIBS) $(HIREDIS_LIBS) -lm
fuzz_support = tests/fuzz/fuzz-support.c tests/fuzz/fuzz-support.h
fuzz_replay = $(fuzz_support) tests/fuzz/replay-main.c
# the command-line tool's input parsing is fuzzed too
fuzz_cli = tools/cli-options.c tools/cli-session.c tools/cli-output.c tools/cli-data.c tools/cli-counter.c tools/cli.h
fuzz_programs =
EXTRA_PROGRAMS = $(fuzz_programs)

check_PROGRAMS += tests/fuzz/replay-result-reader
fuzz_programs += tests/fuzz/fuzz-result-reader
tests_fuzz_replay_result_reader_SOURCES = tests/fuzz/fuzz-result-reader.c $(fuzz_replay)
tests_fuzz_replay_result_reader_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_result_reader_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_result_reader_SOURCES = tests/fuzz/fuzz-result-reader.c $(fuzz_support)
tests_fuzz_fuzz_result_reader_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_result_reader_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_result_reader_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-thrift-replies
fuzz_programs += tests/fuzz/fuzz-thrift-replies
tests_fuzz_replay_thrift_replies_SOURCES = tests/fuzz/fuzz-thrift-replies.c $(fuzz_replay)
tests_fuzz_replay_thrift_replies_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_thrift_replies_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_thrift_replies_SOURCES = tests/fuzz/fuzz-thrift-replies.c $(fuzz_support)
tests_fuzz_fuzz_thrift_replies_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_thrift_replies_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_thrift_replies_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-transport
fuzz_programs += tests/fuzz/fuzz-transport
tests_fuzz_replay_transport_SOURCES = tests/fuzz/fuzz-transport.c $(fuzz_replay)
tests_fuzz_replay_transport_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_transport_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_transport_SOURCES = tests/fuzz/fuzz-transport.c $(fuzz_support)
tests_fuzz_fuzz_transport_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_transport_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_transport_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-filter
fuzz_programs += tests/fuzz/fuzz-filter
tests_fuzz_replay_filter_SOURCES = tests/fuzz/fuzz-filter.c $(fuzz_replay)
tests_fuzz_replay_filter_CPPFLAGS = $(fuzz_cppflags) -I$(top_builddir)/proto $(PROTOBUF_C_CFLAGS)
tests_fuzz_replay_filter_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_filter_SOURCES = tests/fuzz/fuzz-filter.c $(fuzz_support)
tests_fuzz_fuzz_filter_CPPFLAGS = $(fuzz_cppflags) -I$(top_builddir)/proto $(PROTOBUF_C_CFLAGS)
tests_fuzz_fuzz_filter_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_filter_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-key-schema
fuzz_programs += tests/fuzz/fuzz-key-schema
tests_fuzz_replay_key_schema_SOURCES = tests/fuzz/fuzz-key-schema.c $(fuzz_replay)
tests_fuzz_replay_key_schema_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_key_schema_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_key_schema_SOURCES = tests/fuzz/fuzz-key-schema.c $(fuzz_support)
tests_fuzz_fuzz_key_schema_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_key_schema_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_key_schema_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-index
fuzz_programs += tests/fuzz/fuzz-index
tests_fuzz_replay_index_SOURCES = tests/fuzz/fuzz-index.c $(fuzz_replay)
tests_fuzz_replay_index_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_index_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_index_SOURCES = tests/fuzz/fuzz-index.c $(fuzz_support)
tests_fuzz_fuzz_index_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_index_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_index_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-structures
fuzz_programs += tests/fuzz/fuzz-structures
tests_fuzz_replay_structures_SOURCES = tests/fuzz/fuzz-structures.c $(fuzz_replay)
tests_fuzz_replay_structures_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_structures_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_structures_SOURCES = tests/fuzz/fuzz-structures.c $(fuzz_support)
tests_fuzz_fuzz_structures_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_structures_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_structures_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-cli-tsv
fuzz_programs += tests/fuzz/fuzz-cli-tsv
tests_fuzz_replay_cli_tsv_SOURCES = tests/fuzz/fuzz-cli-tsv.c $(fuzz_replay) $(fuzz_cli)
tests_fuzz_replay_cli_tsv_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_cli_tsv_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_cli_tsv_SOURCES = tests/fuzz/fuzz-cli-tsv.c $(fuzz_support) $(fuzz_cli)
tests_fuzz_fuzz_cli_tsv_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_cli_tsv_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_cli_tsv_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-config
fuzz_programs += tests/fuzz/fuzz-config
tests_fuzz_replay_config_SOURCES = tests/fuzz/fuzz-config.c $(fuzz_replay)
tests_fuzz_replay_config_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_config_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_config_SOURCES = tests/fuzz/fuzz-config.c $(fuzz_support)
tests_fuzz_fuzz_config_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_config_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_config_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-redis-replies
fuzz_programs += tests/fuzz/fuzz-redis-replies
tests_fuzz_replay_redis_replies_SOURCES = tests/fuzz/fuzz-redis-replies.c $(fuzz_replay)
tests_fuzz_replay_redis_replies_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_redis_replies_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_redis_replies_SOURCES = tests/fuzz/fuzz-redis-replies.c $(fuzz_support)
tests_fuzz_fuzz_redis_replies_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_redis_replies_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_redis_replies_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-redis-password-file
fuzz_programs += tests/fuzz/fuzz-redis-password-file
tests_fuzz_replay_redis_password_file_SOURCES = tests/fuzz/fuzz-redis-password-file.c $(fuzz_replay)
tests_fuzz_replay_redis_password_file_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_redis_password_file_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_redis_password_file_SOURCES = tests/fuzz/fuzz-redis-password-file.c $(fuzz_support)
tests_fuzz_fuzz_redis_password_file_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_redis_password_file_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_redis_password_file_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-native-rpc
fuzz_programs += tests/fuzz/fuzz-native-rpc
tests_fuzz_replay_native_rpc_SOURCES = tests/fuzz/fuzz-native-rpc.c $(fuzz_replay)
tests_fuzz_replay_native_rpc_CPPFLAGS = $(fuzz_cppflags) -I$(top_builddir)/proto $(PROTOBUF_C_CFLAGS)
tests_fuzz_replay_native_rpc_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_native_rpc_SOURCES = tests/fuzz/fuzz-native-rpc.c $(fuzz_support)
tests_fuzz_fuzz_native_rpc_CPPFLAGS = $(fuzz_cppflags) -I$(top_builddir)/proto $(PROTOBUF_C_CFLAGS)
tests_fuzz_fuzz_native_rpc_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_native_rpc_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-http
fuzz_programs += tests/fuzz/fuzz-http
tests_fuzz_replay_http_SOURCES = tests/fuzz/fuzz-http.c $(fuzz_replay)
tests_fuzz_replay_http_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_http_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_http_SOURCES = tests/fuzz/fuzz-http.c $(fuzz_support)
tests_fuzz_fuzz_http_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_http_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_http_LDADD = $(fuzz_ldadd)

# records real replies of the local stack's HBase as seeds of native-rpc
# (not built by default: make tests/fuzz/capture-native)
EXTRA_PROGRAMS += tests/fuzz/capture-native
tests_fuzz_capture_native_SOURCES = tests/fuzz/capture-native.c
tests_fuzz_capture_native_CPPFLAGS = $(fuzz_cppflags) -I$(top_builddir)/proto $(PROTOBUF_C_CFLAGS)
tests_fuzz_capture_native_LDADD = $(fuzz_ldadd)

check_PROGRAMS += tests/fuzz/replay-sasl
fuzz_programs += tests/fuzz/fuzz-sasl
# it defines the GSSAPI functions the library calls (no KDC needed)
tests_fuzz_replay_sasl_SOURCES = tests/fuzz/fuzz-sasl.c $(fuzz_replay)
tests_fuzz_replay_sasl_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_replay_sasl_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_sasl_SOURCES = tests/fuzz/fuzz-sasl.c $(fuzz_support)
tests_fuzz_fuzz_sasl_CPPFLAGS = $(fuzz_cppflags)
tests_fuzz_fuzz_sasl_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_sasl_LDADD = $(fuzz_ldadd)

fuzz-harnesses: $(BUILT_SOURCES)
	$(MAKE) $(AM_MAKEFLAGS) $(fuzz_programs)
.PHONY: fuzz-harnesses
CLEANFILES += $(fuzz_programs)
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/ci-budget tests/fuzz/corpus tests/fuzz/crashes scripts/fuzz.sh \
	tests/fuzz/capture-replies.py
