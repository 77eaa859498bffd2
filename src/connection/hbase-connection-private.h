/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-connection-private.h: what the client and pool need of a connection. */
#ifndef HBASE_CONNECTION_PRIVATE_H
#define HBASE_CONNECTION_PRIVATE_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-config.h>

#include "hbase-config-private.h"
#include "hbase-transport.h"

G_BEGIN_DECLS

#define HBASE_DEFAULT_CONNECT_TIMEOUT_MS 5000
#define HBASE_DEFAULT_OPERATION_TIMEOUT_MS 60000

/* @url: a gateway in HTTP mode (binary, buffered only; @tls for https),
 * or NULL for the socket to @host:@port. */
HBaseConnection      *_hbase_connection_open_full    (const char      *host,
                                                      guint            port,
                                                      const char      *url,
                                                      const HBaseTlsSettings *tls,
                                                      const HBaseKerberosSettings *kerberos,
                                                      HBaseProtocol    protocol,
                                                      HBaseTransport   transport,
                                                      guint            connect_timeout_ms,
                                                      gsize            max_message,
                                                      gint64           deadline,
                                                      GCancellable    *cancellable,
                                                      GError         **error);
HBaseSocketTransport *_hbase_connection_get_transport (HBaseConnection *connection);

/* Which gateway of the client's configuration a pooled connection goes to. */
void                  _hbase_connection_set_gateway   (HBaseConnection *connection,
                                                       guint            gateway);
guint                 _hbase_connection_get_gateway   (HBaseConnection *connection);

/* A call flag of the library's own: one attempt only (a best-effort call
 * such as closing a scanner the gateway would expire anyway). */
#define _HBASE_CALL_ONCE ((HBaseCallFlags) (1 << 16))

/* Any gateway, for _hbase_client_call_on(). */
#define HBASE_ANY_GATEWAY G_MAXUINT

/* hbase_client_call() on a connection to one gateway: *@gateway in, or
 * any gateway when it is HBASE_ANY_GATEWAY; on return, the gateway of the
 * last attempt.  State that lives in a gateway process (a server scanner)
 * must be used through the gateway that holds it: scanner ids are small
 * numbers every gateway counts on its own, so another gateway would answer
 * with its own scanner of the same id. */
gboolean _hbase_client_call_on (HBaseClient     *client,
                                HBaseCallFlags   flags,
                                guint           *gateway,
                                HBaseCallFunc    func,
                                gpointer         user_data,
                                GCancellable    *cancellable,
                                GError         **error);

/* The backend the client's config chose (read once, never changes). */
HBaseBackend _hbase_client_get_backend (HBaseClient *client);
/* On the native backend: the client's native client (src/native/, a
 * higher layer, hence opaque here), made by @make from the client's
 * config on first use and freed by @free_func with the client.  NULL on
 * the Thrift2 backend. */
gpointer     _hbase_client_get_native  (HBaseClient     *client,
                                        gpointer       (*make) (const HBaseConfig *config),
                                        GDestroyNotify   free_func);

G_END_DECLS

#endif /* HBASE_CONNECTION_PRIVATE_H */
