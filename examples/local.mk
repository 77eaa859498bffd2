# SPDX-License-Identifier: Apache-2.0
# examples/local.mk: the example programs (run by tests/examples/*.sh and
# scripts/demo.sh).
example_ldadd = src/libhbase-glib-1.0.la $(GLIB_LIBS)

noinst_PROGRAMS += examples/hello
examples_hello_LDADD = $(example_ldadd) $(thrift_ldadd)

# Dimension lookups from a stream job: a loader and three ways to look
# rows up (batched, asynchronous, cached).
dim_common = examples/dim-common.c examples/dim-common.h
noinst_PROGRAMS += examples/dim-load examples/dim-lookup-sync examples/dim-lookup-async \
	examples/dim-lookup-cache
examples_dim_load_SOURCES = examples/dim-load.c $(dim_common)
examples_dim_load_LDADD = $(example_ldadd)
examples_dim_lookup_sync_SOURCES = examples/dim-lookup-sync.c $(dim_common)
examples_dim_lookup_sync_LDADD = $(example_ldadd)
examples_dim_lookup_async_SOURCES = examples/dim-lookup-async.c $(dim_common)
examples_dim_lookup_async_LDADD = $(example_ldadd)
examples_dim_lookup_cache_SOURCES = examples/dim-lookup-cache.c $(dim_common)
examples_dim_lookup_cache_LDADD = $(example_ldadd)

# One short example per module: sets, sorted sets, key schemas and
# filters, the Redis index.
noinst_PROGRAMS += examples/warehouse-sets examples/top-products examples/waybill-query \
	examples/product-index
examples_warehouse_sets_LDADD = $(example_ldadd)
examples_top_products_LDADD = $(example_ldadd)
examples_waybill_query_LDADD = $(example_ldadd)
examples_product_index_LDADD = $(index_ldadd)

# The tour: the library in one short program (tables, write buffer, gets,
# async gets, scans, sets, sorted sets, the Redis index), checked by
# tests/examples/test-tour.sh.
noinst_PROGRAMS += examples/tour
examples_tour_LDADD = $(index_ldadd)
