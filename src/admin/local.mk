# SPDX-License-Identifier: Apache-2.0
# src/admin/local.mk: namespaces and tables (create, describe, drop).
src_libhbase_glib_internal_la_SOURCES += src/admin/hbase-admin.c src/admin/hbase-family-options.c \
	src/admin/hbase-admin-async.c src/admin/hbase-admin-native.c \
	src/admin/hbase-admin-private.h src/admin/hbase-table-schema.c src/admin/hbase-table-schema-async.c
hbaseinclude_HEADERS += include/hbase-glib/hbase-admin.h
