# SPDX-License-Identifier: Apache-2.0
# bench/local.mk: benchmarks, built with the library and run by hand or by
# the bench/run-*.sh scripts (bench/README.md, BENCHMARKS.md).
bench_ldadd = src/libhbase-glib-1.0.la $(GLIB_LIBS)
noinst_PROGRAMS += bench/bench-transport bench/bench-table bench/bench-structures \
	bench/bench-rowkey bench/bench-index bench/bench-rpc-floor bench/bench-memory \
	bench/bench-pipeline
bench_bench_transport_LDADD = $(bench_ldadd) $(thrift_ldadd)
bench_bench_table_LDADD = $(bench_ldadd)
bench_bench_structures_LDADD = $(bench_ldadd)
bench_bench_rowkey_LDADD = $(bench_ldadd)
bench_bench_index_LDADD = $(index_ldadd)
bench_bench_rpc_floor_LDADD = $(bench_ldadd)
bench_bench_memory_LDADD = $(bench_ldadd)
bench_bench_pipeline_LDADD = $(bench_ldadd) $(thrift_ldadd)
EXTRA_DIST += bench/README.md bench/delay-proxy.py bench/run-transport.sh bench/run-peers.sh bench/run-index.sh bench/run-secured.sh bench/run-dim-lookup.sh \
	bench/java/BenchHarness.java bench/java/BenchThrift2.java bench/java/BenchNative.java \
	bench/python/bench_happybase.py scripts/stack/Thrift1Probe.java BENCHMARKS.md
