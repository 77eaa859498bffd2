# SPDX-License-Identifier: Apache-2.0
# src/native/local.mk: HBase's own RPC (no Thrift gateway), internal only:
# the messages of proto/*.proto compiled by protoc-c into proto/ of the
# build tree, and the connection, cellblock, registry, locator and
# get/put/delete code that speaks them (docs/native-backend.md).
native_protos = RPC Tracing HBase Client Filter Comparator Cell MapReduce Registry
native_pb_sources = $(addprefix proto/,$(addsuffix .pb-c.c,$(native_protos)))
native_pb_headers = $(addprefix proto/,$(addsuffix .pb-c.h,$(native_protos)))

# One protoc-c run writes every file; a stamp stands for them.
$(native_pb_sources) $(native_pb_headers): proto/generated.stamp
	@test -f $@ || { rm -f proto/generated.stamp; $(MAKE) $(AM_MAKEFLAGS) proto/generated.stamp; }
proto/generated.stamp: $(addprefix $(top_srcdir)/proto/,$(addsuffix .proto,$(native_protos)))
	$(AM_V_GEN)$(MKDIR_P) proto && \
	$(PROTOC_C) --c_out=proto -I$(top_srcdir)/proto \
	  $(addprefix $(top_srcdir)/proto/,$(addsuffix .proto,$(native_protos))) && \
	touch $@
BUILT_SOURCES += $(native_pb_headers)
CLEANFILES += $(native_pb_sources) $(native_pb_headers) proto/generated.stamp
EXTRA_DIST += $(addprefix proto/,$(addsuffix .proto,$(native_protos))) proto/check-protos.py

# The generated code and ours, in a convenience library of their own that
# the internal library takes whole: the generated objects get their own
# flags (none needed so far: protoc-c 1.4's output builds clean with ours).
# Its hbase__pb__* symbols stay hidden by src/libhbase-glib-1.0.map.
native_cppflags = $(AM_CPPFLAGS) -I$(top_builddir)/proto $(PROTOBUF_C_CFLAGS)
noinst_LTLIBRARIES += src/native/libhbase-native-pb.la
nodist_src_native_libhbase_native_pb_la_SOURCES = $(native_pb_sources) $(native_pb_headers)
src_native_libhbase_native_pb_la_CPPFLAGS = $(native_cppflags)
src_native_libhbase_native_pb_la_CFLAGS = $(AM_CFLAGS)

noinst_LTLIBRARIES += src/native/libhbase-native.la
src_native_libhbase_native_la_SOURCES =
src_native_libhbase_native_la_CPPFLAGS = $(native_cppflags)
src_native_libhbase_native_la_LIBADD = src/native/libhbase-native-pb.la $(PROTOBUF_C_LIBS)
