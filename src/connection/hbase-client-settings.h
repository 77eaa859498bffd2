/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-client-settings.h: the settings a client reads on its call path,
 * taken once from its HBaseConfig when the client is created.  The client
 * keeps a private copy of the config that nothing changes afterwards
 * (hbase_client_new() copies it, hbase_client_get_config() hands it out
 * read-only), so the values stay right for the client's whole life. */
#ifndef HBASE_CLIENT_SETTINGS_H
#define HBASE_CLIENT_SETTINGS_H

#include <hbase-glib/hbase-config.h>

#include "hbase-config-private.h"

G_BEGIN_DECLS

typedef struct {
  char *host;
  guint port;
  char *url;   /* a gateway in HTTP mode; NULL: a socket */
} HBaseGatewayAddress;

typedef struct {
  HBaseBackend backend;            /* NATIVE: the gateways are unused */
  HBaseGatewayAddress *gateways;   /* never empty */
  guint n_gateways;
  HBaseProtocol protocol;
  HBaseTransport transport;
  guint connect_timeout_ms;
  guint operation_timeout_ms;
  guint max_attempts;
  guint retry_backoff_ms;
  guint retry_backoff_max_ms;
  guint pool_size;
  guint pool_wait_ms;
  guint max_pending;               /* queued _async calls; 0: no limit */
  guint max_message_size;
  HBaseTlsSettings tls;
  HBaseKerberosSettings kerberos;
} HBaseClientSettings;

void _hbase_client_settings_init  (HBaseClientSettings *settings,
                                   const HBaseConfig   *config);
void _hbase_client_settings_clear (HBaseClientSettings *settings);

G_END_DECLS

#endif /* HBASE_CLIENT_SETTINGS_H */
