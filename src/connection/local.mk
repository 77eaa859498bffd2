# SPDX-License-Identifier: Apache-2.0
# src/connection/local.mk: settings, the transport, checked protocols,
# pooled connections to the gateways, the client.
src_libhbase_glib_internal_la_SOURCES += \
	src/connection/hbase-transport.c \
	src/connection/hbase-transport.h \
	src/connection/hbase-http.c \
	src/connection/hbase-http.h \
	src/connection/hbase-http-spnego.c \
	src/connection/hbase-http-spnego.h \
	src/connection/hbase-gss.c \
	src/connection/hbase-gss.h \
	src/connection/hbase-sasl.c \
	src/connection/hbase-sasl.h \
	src/connection/hbase-protocol.c \
	src/connection/hbase-wire.c \
	src/connection/hbase-protocol.h \
	src/connection/hbase-wire.h \
	src/connection/hbase-connection.c \
	src/connection/hbase-connection-private.h \
	src/connection/hbase-config.c \
	src/connection/hbase-config-load.c \
	src/connection/hbase-config-http.c \
	src/connection/hbase-config-kerberos.c \
	src/connection/hbase-config-coalescing.c \
	src/connection/hbase-config-native.c \
	src/connection/hbase-config-private.h \
	src/connection/hbase-client.c \
	src/connection/hbase-client-calls.c \
	src/connection/hbase-client-async.c \
	src/connection/hbase-client-async-private.h \
	src/connection/hbase-client-settings.c \
	src/connection/hbase-client-settings.h
hbaseinclude_HEADERS += \
	include/hbase-glib/hbase-connection.h \
	include/hbase-glib/hbase-config.h \
	include/hbase-glib/hbase-client.h \
	include/hbase-glib/hbase-client-thrift.h
