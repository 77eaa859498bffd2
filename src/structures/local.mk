# SPDX-License-Identifier: Apache-2.0
# src/structures/local.mk: sets and sorted sets stored as the qualifiers of one row.
src_libhbase_glib_internal_la_SOURCES += \
	src/structures/hbase-structures-private.h \
	src/structures/hbase-structures-io.c \
	src/structures/hbase-structures-import.c \
	src/structures/hbase-set-private.h \
	src/structures/hbase-set.c \
	src/structures/hbase-set-iter.c \
	src/structures/hbase-set-commands.c \
	src/structures/hbase-set-commands-async.c \
	src/structures/hbase-zset-private.h \
	src/structures/hbase-zset.c \
	src/structures/hbase-zset-range.c \
	src/structures/hbase-zset-iter.c \
	src/structures/hbase-zset-lex.c \
	src/structures/hbase-zset-trim.c \
	src/structures/hbase-zset-combine.c \
	src/structures/hbase-zset-commands-async.c \
	src/structures/hbase-structures-arrays.c \
	src/structures/hbase-structures-options.c \
	src/structures/hbase-structures-async-private.h \
	src/structures/hbase-structures-async.c \
	src/structures/hbase-set-async.c \
	src/structures/hbase-zset-async.c \
	src/structures/hbase-structures-strings.c
hbaseinclude_HEADERS += \
	include/hbase-glib/hbase-set.h \
	include/hbase-glib/hbase-zset.h
EXTRA_DIST += docs/structures-layout.md
