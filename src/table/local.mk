# SPDX-License-Identifier: Apache-2.0
# src/table/local.mk: rows, mutations, conditions, reads and writes of one
# table, typed filters, scanners, the write buffer.
src_libhbase_glib_internal_la_SOURCES += \
	src/table/hbase-table-private.h \
	src/table/hbase-row.c \
	src/table/hbase-column.c \
	src/table/hbase-row-builder.h \
	src/table/hbase-get-request.c \
	src/table/hbase-get-request.h \
	src/table/hbase-put-request.c \
	src/table/hbase-put-request.h \
	src/table/hbase-request-writer.c \
	src/table/hbase-request-writer.h \
	src/table/hbase-result-reader.c \
	src/table/hbase-result-reader.h \
	src/table/hbase-mutation.c \
	src/table/hbase-name-cache.c \
	src/table/hbase-name-cache.h \
	src/table/hbase-mutation-fields.h \
	src/table/hbase-mutation-thrift.c \
	src/table/hbase-mutation-private.h \
	src/table/hbase-table-input.c \
	src/table/hbase-table-call.c \
	src/table/hbase-table-native.c \
	src/table/hbase-table-native-generated.c \
	src/table/hbase-table-native-atomic.c \
	src/table/hbase-table-native.h \
	src/table/hbase-table-call.h \
	src/table/hbase-table.c \
	src/table/hbase-get-coalescer.c \
	src/table/hbase-get-coalescer.h \
	src/table/hbase-table-write.c \
	src/table/hbase-table-atomic.c \
	src/table/hbase-table-async.c \
	src/table/hbase-table-index-mark.c \
	src/table/hbase-condition.c \
	src/table/hbase-condition-private.h \
	src/table/hbase-options.c \
	src/table/hbase-filter.c \
	src/table/hbase-filter-private.h \
	src/table/hbase-scanner.c \
	src/table/hbase-scanner-next.c \
	src/table/hbase-write-buffer.c \
	src/table/hbase-write-buffer-private.h \
	src/table/hbase-write-buffer-async.c \
	src/table/hbase-write-failure.c \
	src/table/hbase-write-failure.h \
	src/table/hbase-table-strings-private.h \
	src/table/hbase-mutation-strings.c \
	src/table/hbase-table-strings.c
hbaseinclude_HEADERS += \
	include/hbase-glib/hbase-row.h \
	include/hbase-glib/hbase-column.h \
	include/hbase-glib/hbase-mutation.h \
	include/hbase-glib/hbase-condition.h \
	include/hbase-glib/hbase-filter.h \
	include/hbase-glib/hbase-table.h \
	include/hbase-glib/hbase-scanner.h \
	include/hbase-glib/hbase-write-buffer.h
