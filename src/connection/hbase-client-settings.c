/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-client-settings.c: a client's settings, read from its HBaseConfig
 * once, so a call reads plain fields instead of the config's accessors. */
#include "config.h"

#include "hbase-client-settings.h"

void
_hbase_client_settings_init (HBaseClientSettings *settings, const HBaseConfig *config)
{
  settings->backend = hbase_config_get_backend (config);
  settings->n_gateways = hbase_config_get_n_gateways (config);
  settings->gateways = g_new (HBaseGatewayAddress, settings->n_gateways);
  for (guint i = 0; i < settings->n_gateways; i++)
    {
      settings->gateways[i].host = g_strdup (hbase_config_get_gateway_host (config, i));
      settings->gateways[i].port = hbase_config_get_gateway_port (config, i);
      settings->gateways[i].url = g_strdup (hbase_config_get_gateway_url (config, i));
    }
  settings->protocol = hbase_config_get_protocol (config);
  settings->transport = hbase_config_get_transport (config);
  settings->connect_timeout_ms = hbase_config_get_connect_timeout (config);
  settings->operation_timeout_ms = hbase_config_get_operation_timeout (config);
  settings->max_attempts = hbase_config_get_max_attempts (config);
  settings->retry_backoff_ms = hbase_config_get_retry_backoff (config);
  settings->retry_backoff_max_ms = hbase_config_get_retry_backoff_max (config);
  settings->pool_size = hbase_config_get_pool_size (config);
  settings->pool_wait_ms = hbase_config_get_pool_wait (config);
  settings->max_pending = hbase_config_get_max_pending (config);
  settings->max_message_size = hbase_config_get_max_message_size (config);
  _hbase_tls_settings_copy (&settings->tls, _hbase_config_get_tls (config));
  _hbase_kerberos_settings_copy (&settings->kerberos, _hbase_config_get_kerberos_settings (config));
}

void
_hbase_client_settings_clear (HBaseClientSettings *settings)
{
  for (guint i = 0; i < settings->n_gateways; i++)
    {
      g_free (settings->gateways[i].host);
      g_free (settings->gateways[i].url);
    }
  g_clear_pointer (&settings->gateways, g_free);
  settings->n_gateways = 0;
  _hbase_tls_settings_clear (&settings->tls);
  _hbase_kerberos_settings_clear (&settings->kerberos);
}
