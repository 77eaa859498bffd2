/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-connection-private.h: what the client and pool need of a connection. */
#ifndef HBASE_CONNECTION_PRIVATE_H
#define HBASE_CONNECTION_PRIVATE_H

#include <hbase-glib/hbase-glib-thrift.h>

#include "hbase-transport.h"

G_BEGIN_DECLS

#define HBASE_DEFAULT_CONNECT_TIMEOUT_MS 5000
#define HBASE_DEFAULT_OPERATION_TIMEOUT_MS 60000

HBaseConnection      *_hbase_connection_open_full    (const char      *host,
                                                      guint            port,
                                                      HBaseProtocol    protocol,
                                                      HBaseTransport   transport,
                                                      guint            connect_timeout_ms,
                                                      gsize            max_message,
                                                      gint64           deadline,
                                                      GCancellable    *cancellable,
                                                      GError         **error);
HBaseSocketTransport *_hbase_connection_get_transport (HBaseConnection *connection);

G_END_DECLS

#endif /* HBASE_CONNECTION_PRIVATE_H */
