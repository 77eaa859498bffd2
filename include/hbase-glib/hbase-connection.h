/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-connection.h: one connection to a Thrift2 gateway. */
#ifndef HBASE_CONNECTION_H
#define HBASE_CONNECTION_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * HBaseProtocol:
 * @HBASE_PROTOCOL_BINARY: TBinaryProtocol, the gateway's default.
 * @HBASE_PROTOCOL_COMPACT: TCompactProtocol (gateway started with `-c`).
 *
 * The Thrift protocol a gateway speaks.  It must match the gateway's.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_PROTOCOL_BINARY,
  HBASE_PROTOCOL_COMPACT,
} HBaseProtocol;

/**
 * HBaseTransport:
 * @HBASE_TRANSPORT_BUFFERED: unframed, the gateway's default.
 * @HBASE_TRANSPORT_FRAMED: framed (gateway started with `-f`, or any of the
 *   nonblocking, hsha and threadedselector servers).
 *
 * The Thrift transport a gateway speaks.  It must match the gateway's.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_TRANSPORT_BUFFERED,
  HBASE_TRANSPORT_FRAMED,
} HBaseTransport;

gboolean     hbase_protocol_from_string  (const char     *name,
                                          HBaseProtocol  *protocol,
                                          GError        **error);
const char  *hbase_protocol_to_string    (HBaseProtocol   protocol);
gboolean     hbase_transport_from_string (const char     *name,
                                          HBaseTransport *transport,
                                          GError        **error);
const char  *hbase_transport_to_string   (HBaseTransport  transport);

/**
 * HBaseConnection:
 *
 * An open connection to one Thrift2 gateway.  A connection is not
 * thread-safe: use it from one thread at a time.  Most applications want an
 * #HBaseClient, which pools connections, retries and reconnects.  A
 * #GObject: the last g_object_unref() closes it.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_CONNECTION (hbase_connection_get_type ())
G_DECLARE_FINAL_TYPE (HBaseConnection, hbase_connection, HBASE, CONNECTION, GObject)

HBaseConnection *hbase_connection_open      (const char      *host,
                                             guint            port,
                                             HBaseProtocol    protocol,
                                             HBaseTransport   transport,
                                             GError         **error);
void             hbase_connection_set_timeout (HBaseConnection *connection,
                                               guint            milliseconds);
const char      *hbase_connection_get_host  (HBaseConnection *connection);
guint            hbase_connection_get_port  (HBaseConnection *connection);

/* deprecated: the 0.1 names, for one release (see NEWS) */
G_GNUC_DEPRECATED_FOR (g_object_unref)
void hbase_connection_free (HBaseConnection *connection);

G_END_DECLS

#endif /* HBASE_CONNECTION_H */
