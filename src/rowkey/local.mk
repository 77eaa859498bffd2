# SPDX-License-Identifier: Apache-2.0
# src/rowkey/local.mk: key schemas (padded composite keys, salting, ranges),
# key scanners.
src_libhbase_glib_internal_la_SOURCES += \
	src/rowkey/hbase-rowkey-private.h \
	src/rowkey/hbase-key-schema.c \
	src/rowkey/hbase-key-field-codec.c \
	src/rowkey/hbase-key-codec.c \
	src/rowkey/hbase-key-salt.c \
	src/rowkey/hbase-key-range.c \
	src/rowkey/hbase-key-scanner.c \
	src/rowkey/hbase-key-options.c \
	src/rowkey/hbase-key-query-async.c
hbaseinclude_HEADERS += \
	include/hbase-glib/hbase-key-schema.h \
	include/hbase-glib/hbase-key-scanner.h
EXTRA_DIST += docs/rowkey-design.md
