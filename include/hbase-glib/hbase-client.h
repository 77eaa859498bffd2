/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-client.h: a thread-safe client with a pool of gateway connections,
 * retries, and the process-wide default client. */
#ifndef HBASE_CLIENT_H
#define HBASE_CLIENT_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <gio/gio.h>

#include <hbase-glib/hbase-config.h>

G_BEGIN_DECLS

/**
 * HBaseClient:
 *
 * A client of one HBase cluster through its Thrift2 gateways.  It keeps a
 * bounded pool of connections (reused last-in first-out, opened lazily,
 * spread over the configured gateways) and may be used from any number of
 * threads at once.  A #GObject.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_CLIENT (hbase_client_get_type ())
G_DECLARE_FINAL_TYPE (HBaseClient, hbase_client, HBASE, CLIENT, GObject)

HBaseClient       *hbase_client_new               (const HBaseConfig    *config);
const HBaseConfig *hbase_client_get_config        (HBaseClient          *client);

HBaseClient       *hbase_client_get_default       (GError              **error);
void               hbase_client_release_default   (void);

gboolean           hbase_client_ping              (HBaseClient          *client,
                                                   GCancellable         *cancellable,
                                                   GError              **error);
void               hbase_client_ping_async        (HBaseClient          *client,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean           hbase_client_ping_finish       (HBaseClient          *client,
                                                   GAsyncResult         *result,
                                                   GError              **error);

char             **hbase_client_list_namespaces        (HBaseClient          *client,
                                                        GCancellable         *cancellable,
                                                        GError              **error);
void               hbase_client_list_namespaces_async  (HBaseClient          *client,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
char             **hbase_client_list_namespaces_finish (HBaseClient          *client,
                                                        GAsyncResult         *result,
                                                        GError              **error);

/**
 * HBaseClientStats:
 * @connections_opened: connections opened since the client was created
 * @connections_reopened: idle connections found closed by the gateway and
 *   replaced before use
 * @connections_discarded: connections closed because a call left them
 *   unusable (broken, timed out, cancelled)
 * @retries: calls sent again after a retryable failure
 * @idle: connections waiting in the pool now
 * @open: connections that exist now (idle or in use)
 *
 * Counters for monitoring and tests, filled by hbase_client_get_stats().
 *
 * Since: 0.1
 */
typedef struct {
  guint64 connections_opened;
  guint64 connections_reopened;
  guint64 connections_discarded;
  guint64 retries;
  guint idle;
  guint open;
  /*< private >*/
  gpointer padding[8];
} HBaseClientStats;

#define HBASE_TYPE_CLIENT_STATS (hbase_client_stats_get_type ())
GType              hbase_client_stats_get_type    (void) G_GNUC_CONST;

void               hbase_client_get_stats         (HBaseClient          *client,
                                                   HBaseClientStats     *stats);

HBaseKerberosQop   hbase_client_get_negotiated_qop (HBaseClient         *client);

/* deprecated: the 0.1 names, for one release (see NEWS) */
G_GNUC_DEPRECATED_FOR (g_object_ref)
HBaseClient *hbase_client_ref (HBaseClient *client);
G_GNUC_DEPRECATED_FOR (g_object_unref)
void hbase_client_unref (HBaseClient *client);

G_END_DECLS

#endif /* HBASE_CLIENT_H */
