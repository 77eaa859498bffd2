# SPDX-License-Identifier: Apache-2.0
# src/native/local.mk: HBase's own RPC (no Thrift gateway), internal only:
# the messages of proto/*.proto compiled by protoc-c into proto/ of the
# build tree, and the connection, cellblock, registry, locator and
# get/put/delete code that speaks them (docs/native-backend.md).
# Spelled out: automake must see the file names (no make functions here).
native_pb_sources = proto/RPC.pb-c.c proto/Tracing.pb-c.c proto/HBase.pb-c.c proto/Client.pb-c.c \
	proto/Filter.pb-c.c proto/Comparator.pb-c.c proto/Cell.pb-c.c proto/MapReduce.pb-c.c \
	proto/Registry.pb-c.c proto/ErrorHandling.pb-c.c proto/MasterAdmin.pb-c.c
native_pb_headers = proto/RPC.pb-c.h proto/Tracing.pb-c.h proto/HBase.pb-c.h proto/Client.pb-c.h \
	proto/Filter.pb-c.h proto/Comparator.pb-c.h proto/Cell.pb-c.h proto/MapReduce.pb-c.h \
	proto/Registry.pb-c.h proto/ErrorHandling.pb-c.h proto/MasterAdmin.pb-c.h
native_proto_files = proto/RPC.proto proto/Tracing.proto proto/HBase.proto proto/Client.proto \
	proto/Filter.proto proto/Comparator.proto proto/Cell.proto proto/MapReduce.proto \
	proto/Registry.proto proto/ErrorHandling.proto proto/MasterAdmin.proto

# One protoc-c run writes every file; a stamp stands for them.
$(native_pb_sources) $(native_pb_headers): proto/generated.stamp
	@test -f $@ || { rm -f proto/generated.stamp; $(MAKE) $(AM_MAKEFLAGS) proto/generated.stamp; }
proto/generated.stamp: $(addprefix $(top_srcdir)/,$(native_proto_files))
	$(AM_V_GEN)$(MKDIR_P) proto && \
	$(PROTOC_C) --c_out=proto -I$(top_srcdir)/proto \
	  $(addprefix $(top_srcdir)/,$(native_proto_files)) && \
	touch $@
BUILT_SOURCES += $(native_pb_headers)
CLEANFILES += $(native_pb_sources) $(native_pb_headers) proto/generated.stamp
EXTRA_DIST += $(native_proto_files) proto/check-protos.py docs/native-backend.md

# The generated code, in a convenience library of its own that the
# internal library takes whole, with flags of its own: protoc-c 1.4's output
# builds clean with our warnings, but its symbols (hbase__pb__*) match the
# version script's exported "hbase_*", so they are compiled hidden
# (-fvisibility=hidden): `nm -D` of the library shows none of them.
native_cppflags = $(AM_CPPFLAGS) -I$(top_builddir)/proto $(PROTOBUF_C_CFLAGS)
noinst_LTLIBRARIES += src/native/libhbase-native-pb.la
nodist_src_native_libhbase_native_pb_la_SOURCES = $(native_pb_sources) $(native_pb_headers)
src_native_libhbase_native_pb_la_CPPFLAGS = $(native_cppflags)
src_native_libhbase_native_pb_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden

noinst_LTLIBRARIES += src/native/libhbase-native.la
src_native_libhbase_native_la_SOURCES = \
	src/native/hbase-native-connection.c \
	src/native/hbase-native-connection.h \
	src/native/hbase-native-cells.c \
	src/native/hbase-native-cells.h \
	src/native/hbase-native-locator.c \
	src/native/hbase-native-ops.c \
	src/native/hbase-native-atomic.c \
	src/native/hbase-native-atomic.h \
	src/native/hbase-native-mutation.h \
	src/native/hbase-native-multi.c \
	src/native/hbase-native-multi-write.c \
	src/native/hbase-native-scan.c \
	src/native/hbase-native-scan.h \
	src/native/hbase-native-pb.c \
	src/native/hbase-native-master.c \
	src/native/hbase-native-master.h \
	src/native/hbase-native-filter.c \
	src/native/hbase-native-filter.h \
	src/native/hbase-native-pb.h \
	src/native/hbase-native-replies.h \
	src/native/hbase-native-client.h
src_native_libhbase_native_la_CPPFLAGS = $(native_cppflags)
src_native_libhbase_native_la_LIBADD = src/native/libhbase-native-pb.la $(PROTOBUF_C_LIBS)
