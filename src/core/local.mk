# SPDX-License-Identifier: Apache-2.0
# src/core/local.mk: errors, version.  (src/core/hbase-thrift-fixes.c, the
# fixes to the generated code's exceptions, is built into the generated
# layer's library: thrift/local.mk.)
src_libhbase_glib_internal_la_SOURCES += \
	src/core/hbase-error.c \
	src/core/hbase-error-text.c \
	src/core/hbase-error-private.h \
	src/core/hbase-version.c
hbaseinclude_HEADERS += \
	include/hbase-glib/hbase-glib.h \
	include/hbase-glib/hbase-error.h \
	include/hbase-glib/hbase-error-thrift.h
nodist_hbaseinclude_HEADERS = include/hbase-glib/hbase-version.h
