/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-config.c: HBaseConfig, the settings of an HBaseClient, each
 * validated by its setter.  Loading them from a key file or the
 * environment is in hbase-config-load.c; the groups of settings with a
 * private struct of their own are in hbase-config-*.c.
 * Long because: the struct and the setters that read and write its plain
 * fields stay together, each with its gtk-doc comment (about half the
 * lines). */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-config.h>
#include <hbase-glib/hbase-error.h>

#include "hbase-config-private.h"

typedef struct {
  char *host;
  guint port;
  char *url;   /* http or https gateway; NULL: the socket transport */
} Gateway;

struct _HBaseConfig {
  GPtrArray *gateways;          /* of Gateway *, never empty */
  HBaseProtocol protocol;
  HBaseTransport transport;
  guint connect_timeout_ms;
  guint operation_timeout_ms;
  guint max_attempts;
  guint retry_backoff_ms;
  guint retry_backoff_max_ms;
  guint pool_size;
  guint pool_wait_ms;
  guint max_pending;
  guint max_message_size;
  HBaseGetCoalescing coalescing;
  HBaseTlsSettings tls;
  HBaseKerberosSettings kerberos;
  HBaseNativeSettings native;
};

G_DEFINE_BOXED_TYPE (HBaseConfig, hbase_config, hbase_config_copy, hbase_config_free)

/* The rows of the table in hbase-config.h, in its order (Setting). */
const HBaseConfigSetting _hbase_config_settings[N_SETTINGS] = {
  { "gateways", "HBASE_GLIB_GATEWAYS", NULL },
  { "bootstrap-servers", "HBASE_GLIB_BOOTSTRAP_SERVERS", NULL },
  { "protocol", "HBASE_GLIB_PROTOCOL", NULL },
  { "transport", "HBASE_GLIB_TRANSPORT", NULL },
  { "connect-timeout-ms", "HBASE_GLIB_CONNECT_TIMEOUT_MS", hbase_config_set_connect_timeout },
  { "operation-timeout-ms", "HBASE_GLIB_OPERATION_TIMEOUT_MS", hbase_config_set_operation_timeout },
  { "max-attempts", "HBASE_GLIB_MAX_ATTEMPTS", hbase_config_set_max_attempts },
  { "retry-backoff-ms", "HBASE_GLIB_RETRY_BACKOFF_MS", NULL },
  { "retry-backoff-max-ms", "HBASE_GLIB_RETRY_BACKOFF_MAX_MS", NULL },
  { "pool-size", "HBASE_GLIB_POOL_SIZE", hbase_config_set_pool_size },
  { "pool-wait-ms", "HBASE_GLIB_POOL_WAIT_MS", hbase_config_set_pool_wait },
  { "max-pending", "HBASE_GLIB_MAX_PENDING", hbase_config_set_max_pending },
  { "max-message-size", "HBASE_GLIB_MAX_MESSAGE_SIZE", hbase_config_set_max_message_size },
  { "coalesce-gets", "HBASE_GLIB_COALESCE_GETS", hbase_config_set_coalesce_gets },
  { "coalesce-gets-window-us", "HBASE_GLIB_COALESCE_GETS_WINDOW_US", hbase_config_set_coalesce_gets_window },
  { "tls-ca-file", "HBASE_GLIB_TLS_CA_FILE", NULL },
  { "tls-ca-path", "HBASE_GLIB_TLS_CA_PATH", NULL },
  { "tls-verify-hostname", "HBASE_GLIB_TLS_VERIFY_HOSTNAME", NULL },
  { "tls-client-cert", "HBASE_GLIB_TLS_CLIENT_CERT", NULL },
  { "tls-client-key", "HBASE_GLIB_TLS_CLIENT_KEY", NULL },
  { "tls-client-key-password", "HBASE_GLIB_TLS_CLIENT_KEY_PASSWORD", NULL },
  { "allow-insecure-http", "HBASE_GLIB_ALLOW_INSECURE_HTTP", NULL },
  { "kerberos", "HBASE_GLIB_KERBEROS", NULL },
  { "kerberos-qop", "HBASE_GLIB_KERBEROS_QOP", NULL },
  { "kerberos-service-principal", "HBASE_GLIB_KERBEROS_SERVICE_PRINCIPAL", NULL },
  { "kerberos-http-principal", "HBASE_GLIB_KERBEROS_HTTP_PRINCIPAL", NULL },
  { "kerberos-principal", "HBASE_GLIB_KERBEROS_PRINCIPAL", NULL },
  { "kerberos-keytab", "HBASE_GLIB_KERBEROS_KEYTAB", NULL },
  { "kerberos-ccache", "HBASE_GLIB_KERBEROS_CCACHE", NULL },
  { "proxy-user", "HBASE_GLIB_PROXY_USER", NULL },
  { "kerberos-canonicalize-host", "HBASE_GLIB_KERBEROS_CANONICALIZE_HOST", NULL },
};

static void
gateway_free (gpointer data)
{
  Gateway *gateway = data;

  g_free (gateway->host);
  g_free (gateway->url);
  g_free (gateway);
}

static Gateway *
gateway_new (const char *host, guint port)
{
  Gateway *gateway = g_new0 (Gateway, 1);

  gateway->host = g_strdup (host);
  gateway->port = port;
  return gateway;
}

static gpointer
gateway_copy (gconstpointer src, gpointer user_data)
{
  const Gateway *gateway = src;
  Gateway *copy = gateway_new (gateway->host, gateway->port);

  copy->url = g_strdup (gateway->url);
  return copy;
}

/* Sets an error naming @key unless @value is in [@min, @max]. */
static gboolean
check_range (const char *key, guint value, guint min, guint max, GError **error)
{
  if (value >= min && value <= max)
    return TRUE;
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
               "%s must be between %u and %u, got %u", key, min, max, value);
  return FALSE;
}

static gboolean
check_port (guint port, GError **error)
{
  if (port >= 1 && port <= 65535)
    return TRUE;
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
               "gateways: port must be between 1 and 65535, got %u", port);
  return FALSE;
}

/* One "HOST", "HOST:PORT", "[IPV6]" or "[IPV6]:PORT" entry. */
static Gateway *
parse_gateway (const char *entry, GError **error)
{
  g_autofree char *host = NULL;
  const char *port_text = NULL;
  guint64 port = HBASE_CONFIG_DEFAULT_PORT;
  g_autoptr(GError) local_error = NULL;

  if (strstr (entry, "://") != NULL)
    {
      guint url_port;
      char *url;
      Gateway *gateway;

      if (!_hbase_config_parse_url (entry, &host, &url_port, &url, error))
        return NULL;
      gateway = gateway_new (host, url_port);
      gateway->url = url;
      return gateway;
    }
  if (entry[0] == '[')
    {
      const char *close = strchr (entry, ']');

      if (close == NULL || (close[1] != '\0' && close[1] != ':'))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "gateways: '%s' is not [IPV6] or [IPV6]:PORT", entry);
          return NULL;
        }
      host = g_strndup (entry + 1, close - entry - 1);
      /* Brackets are only for IPv6, whose colons would read as a port. */
      if (strchr (host, ':') == NULL || !g_hostname_is_ip_address (host))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "gateways: '%s' has no IPv6 address in its brackets", entry);
          return NULL;
        }
      if (close[1] == ':')
        port_text = close + 2;
    }
  else
    {
      const char *colon = strchr (entry, ':');

      if (colon != NULL && strchr (colon + 1, ':') != NULL)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "gateways: '%s' looks like a bare IPv6 address; write it in "
                       "brackets, e.g. [::1]:%d", entry, HBASE_CONFIG_DEFAULT_PORT);
          return NULL;
        }
      host = colon != NULL ? g_strndup (entry, colon - entry) : g_strdup (entry);
      if (colon != NULL)
        port_text = colon + 1;
    }

  if (port_text != NULL &&
      !g_ascii_string_to_unsigned (port_text, 10, 1, 65535, &port, NULL))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "gateways: port of '%s' must be a number between 1 and 65535", entry);
      return NULL;
    }
  if (!_hbase_config_check_host (host, &local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return gateway_new (host, (guint) port);
}

/**
 * hbase_config_new:
 *
 * Creates a config with the defaults of the table in #HBaseConfig: one
 * gateway, localhost:9090, binary protocol over buffered transport.
 *
 * Returns: (transfer full): a new config; free with hbase_config_free().
 *
 * Since: 0.1
 */
HBaseConfig *
hbase_config_new (void)
{
  HBaseConfig *config = g_new0 (HBaseConfig, 1);

  config->gateways = g_ptr_array_new_with_free_func (gateway_free);
  g_ptr_array_add (config->gateways, gateway_new ("localhost", HBASE_CONFIG_DEFAULT_PORT));
  config->protocol = HBASE_PROTOCOL_BINARY;
  config->transport = HBASE_TRANSPORT_BUFFERED;
  config->connect_timeout_ms = 5000;
  config->operation_timeout_ms = 60000;
  config->max_attempts = HBASE_CONFIG_DEFAULT_MAX_ATTEMPTS;
  config->retry_backoff_ms = HBASE_CONFIG_DEFAULT_RETRY_BACKOFF_MS;
  config->retry_backoff_max_ms = HBASE_CONFIG_DEFAULT_RETRY_BACKOFF_MAX_MS;
  config->pool_size = 8;
  config->pool_wait_ms = 10000;
  config->max_message_size = HBASE_CONFIG_DEFAULT_MAX_MESSAGE_SIZE;
  config->coalescing.max_keys = HBASE_CONFIG_DEFAULT_COALESCE_GETS;
  config->kerberos.qop = HBASE_KERBEROS_QOP_ANY;
  return config;
}

/**
 * hbase_config_copy:
 * @config: a config
 *
 * Copies @config, gateways included; the copy can be changed and freed on its
 * own.
 *
 * Returns: (transfer full): an independent deep copy of @config.
 *
 * Since: 0.1
 */
HBaseConfig *
hbase_config_copy (const HBaseConfig *config)
{
  HBaseConfig *copy;

  g_return_val_if_fail (config != NULL, NULL);

  copy = g_memdup2 (config, sizeof *config);
  copy->gateways = g_ptr_array_copy (config->gateways, gateway_copy, NULL);
  g_ptr_array_set_free_func (copy->gateways, gateway_free);
  _hbase_tls_settings_copy (&copy->tls, &config->tls);
  _hbase_kerberos_settings_copy (&copy->kerberos, &config->kerberos);
  copy->native.bootstrap = g_strdupv (config->native.bootstrap);
  return copy;
}

/**
 * hbase_config_free:
 * @config: (nullable) (transfer full): a config
 *
 * Frees @config and its gateway list.
 *
 * Since: 0.1
 */
void
hbase_config_free (HBaseConfig *config)
{
  if (config == NULL)
    return;
  g_ptr_array_unref (config->gateways);
  _hbase_tls_settings_clear (&config->tls);
  _hbase_kerberos_settings_clear (&config->kerberos);
  g_strfreev (config->native.bootstrap);
  g_free (config);
}

/* Moves the contents of @src into @dest and frees @src. */
void
_hbase_config_replace (HBaseConfig *dest, HBaseConfig *src)
{
  HBaseConfig old = *dest;

  *dest = *src;
  *src = old;
  hbase_config_free (src);
}

/**
 * hbase_config_set_gateways:
 * @config: a config
 * @gateways: "HOST[:PORT]", "http://HOST[:PORT][/PATH]" or
 *   "https://HOST[:PORT][/PATH]" entries separated by commas and/or
 *   whitespace; an IPv6 address in brackets ("[::1]:9090")
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Replaces the gateway list.  A missing port means
 * %HBASE_CONFIG_DEFAULT_PORT, or 80 and 443 for http and https URLs.  A
 * "HOST:PORT" gateway is reached over a TCP socket; a URL names a gateway
 * in HTTP mode (`hbase.regionserver.thrift.http=true`), which the client
 * POSTs to, over TLS for https (see hbase_config_set_tls_ca_file()); such
 * gateways speak only the binary protocol.  On error the list is left as
 * it was.
 *
 * Returns: %TRUE if @gateways was a valid, non-empty list.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_gateways (HBaseConfig *config, const char *gateways, GError **error)
{
  g_autoptr(GPtrArray) parsed = NULL;
  g_auto(GStrv) pieces = NULL;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (gateways != NULL, FALSE);

  if (!g_utf8_validate (gateways, -1, NULL))
    {
      g_autofree char *escaped = g_strescape (gateways, NULL);

      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "gateways: '%s' is not UTF-8 text", escaped);
      return FALSE;
    }
  parsed = g_ptr_array_new_with_free_func (gateway_free);
  pieces = g_strsplit (gateways, ",", -1);
  for (guint i = 0; pieces[i] != NULL; i++)
    {
      g_auto(GStrv) entries = g_strsplit_set (pieces[i], " \t\r\n\f\v", -1);
      guint n_before = parsed->len;

      for (guint j = 0; entries[j] != NULL; j++)
        {
          Gateway *gateway;

          if (*entries[j] == '\0')
            continue;
          gateway = parse_gateway (entries[j], error);
          if (gateway == NULL)
            return FALSE;
          g_ptr_array_add (parsed, gateway);
        }
      /* "a,,b" or a trailing comma is more likely a lost entry than style;
       * only a wholly blank value means "no list". */
      if (parsed->len == n_before && pieces[1] != NULL)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "gateways: empty entry in '%s'", gateways);
          return FALSE;
        }
    }
  if (parsed->len == 0)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "gateways must list at least one HOST[:PORT]");
      return FALSE;
    }
  if (!_hbase_config_gateways_given (config, error))
    return FALSE;
  g_ptr_array_unref (config->gateways);
  config->gateways = g_steal_pointer (&parsed);
  return TRUE;
}

/**
 * hbase_config_add_gateway:
 * @config: a config
 * @host: a host name or address (an IPv6 address without brackets)
 * @port: the port, 1 to 65535
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Appends one gateway to the list.
 *
 * Returns: %TRUE if @host and @port were valid.
 *
 * Since: 0.1
 */
gboolean
hbase_config_add_gateway (HBaseConfig *config, const char *host, guint port, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!_hbase_config_check_host (host, error) || !check_port (port, error) ||
      !_hbase_config_gateways_given (config, error))
    return FALSE;
  g_ptr_array_add (config->gateways, gateway_new (host, port));
  return TRUE;
}

/**
 * hbase_config_get_n_gateways:
 * @config: a config
 *
 * Gets how many gateways @config lists.
 *
 * Returns: the number of gateways, at least 1.
 *
 * Since: 0.1
 */
guint
hbase_config_get_n_gateways (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->gateways->len;
}

/**
 * hbase_config_get_gateway_host:
 * @config: a config
 * @index: a gateway index
 *
 * Gets the host of one of the gateways, in the order they were given.  The
 * string belongs to @config.
 *
 * Returns: (transfer none) (nullable): the host of gateway @index (IPv6
 *   without brackets), or %NULL if @index is out of range.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_gateway_host (const HBaseConfig *config, guint index)
{
  g_return_val_if_fail (config != NULL, NULL);
  if (index >= config->gateways->len)
    return NULL;
  return ((const Gateway *) g_ptr_array_index (config->gateways, index))->host;
}

/**
 * hbase_config_get_gateway_port:
 * @config: a config
 * @index: a gateway index
 *
 * Gets the port of one of the gateways, in the order they were given.
 *
 * Returns: the port of gateway @index, or 0 if @index is out of range.
 *
 * Since: 0.1
 */
guint
hbase_config_get_gateway_port (const HBaseConfig *config, guint index)
{
  g_return_val_if_fail (config != NULL, 0);
  if (index >= config->gateways->len)
    return 0;
  return ((const Gateway *) g_ptr_array_index (config->gateways, index))->port;
}

/**
 * hbase_config_get_gateway_url:
 * @config: a config
 * @index: a gateway index
 *
 * Gets the URL of an http or https gateway, normalised
 * ("https://HOST:PORT/PATH").  The string belongs to @config.
 *
 * Returns: (transfer none) (nullable): the URL of gateway @index, or %NULL
 *   for a "HOST:PORT" gateway (reached over a socket) or if @index is out
 *   of range.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_gateway_url (const HBaseConfig *config, guint index)
{
  g_return_val_if_fail (config != NULL, NULL);
  if (index >= config->gateways->len)
    return NULL;
  return ((const Gateway *) g_ptr_array_index (config->gateways, index))->url;
}

const HBaseTlsSettings *
_hbase_config_get_tls (const HBaseConfig *config)
{
  return &config->tls;
}

const HBaseKerberosSettings *
_hbase_config_get_kerberos_settings (const HBaseConfig *config)
{
  return &config->kerberos;
}

HBaseNativeSettings *
_hbase_config_get_native (const HBaseConfig *config)
{
  return (HBaseNativeSettings *) &config->native;
}

HBaseGetCoalescing *
_hbase_config_get_coalescing (const HBaseConfig *config)
{
  return (HBaseGetCoalescing *) &config->coalescing;
}

/**
 * hbase_config_set_protocol:
 * @config: a config
 * @protocol: the protocol the gateways speak
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets the Thrift protocol the gateways speak.  On error @config is left as
 * it was.
 *
 * Returns: %TRUE if @protocol is a valid #HBaseProtocol.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_protocol (HBaseConfig *config, HBaseProtocol protocol, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (protocol != HBASE_PROTOCOL_BINARY && protocol != HBASE_PROTOCOL_COMPACT)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "protocol must be binary or compact, got %d", (int) protocol);
      return FALSE;
    }
  config->protocol = protocol;
  return TRUE;
}

/**
 * hbase_config_get_protocol:
 * @config: a config
 *
 * Gets the Thrift protocol used to talk to the gateways.
 *
 * Returns: the protocol the gateways speak.
 *
 * Since: 0.1
 */
HBaseProtocol
hbase_config_get_protocol (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, HBASE_PROTOCOL_BINARY);
  return config->protocol;
}

/**
 * hbase_config_set_transport:
 * @config: a config
 * @transport: the transport the gateways speak
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets the Thrift transport the gateways speak.  On error @config is left as
 * it was.
 *
 * Returns: %TRUE if @transport is a valid #HBaseTransport.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_transport (HBaseConfig *config, HBaseTransport transport, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (transport != HBASE_TRANSPORT_BUFFERED && transport != HBASE_TRANSPORT_FRAMED)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "transport must be buffered or framed, got %d", (int) transport);
      return FALSE;
    }
  config->transport = transport;
  return TRUE;
}

/**
 * hbase_config_get_transport:
 * @config: a config
 *
 * Gets the Thrift transport used to talk to the gateways.
 *
 * Returns: the transport the gateways speak.
 *
 * Since: 0.1
 */
HBaseTransport
hbase_config_get_transport (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, HBASE_TRANSPORT_BUFFERED);
  return config->transport;
}

/**
 * hbase_config_set_connect_timeout:
 * @config: a config
 * @milliseconds: how long opening a connection may take, 1 to 600000
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets how long opening a connection to a gateway may take.  On error @config
 * is left as it was.
 *
 * Returns: %TRUE if @milliseconds was in range.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_connect_timeout (HBaseConfig *config, guint milliseconds, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!check_range (_hbase_config_settings[SETTING_CONNECT_TIMEOUT].key, milliseconds, 1, 600000, error))
    return FALSE;
  config->connect_timeout_ms = milliseconds;
  return TRUE;
}

/**
 * hbase_config_get_connect_timeout:
 * @config: a config
 *
 * Gets how long opening a connection to a gateway may take.
 *
 * Returns: the connect timeout in milliseconds.
 *
 * Since: 0.1
 */
guint
hbase_config_get_connect_timeout (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->connect_timeout_ms;
}

/**
 * hbase_config_set_operation_timeout:
 * @config: a config
 * @milliseconds: how long one operation may take, 1 to 3600000
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets how long one operation may take in all, retries included.  On error
 * @config is left as it was.
 *
 * Returns: %TRUE if @milliseconds was in range.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_operation_timeout (HBaseConfig *config, guint milliseconds, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!check_range (_hbase_config_settings[SETTING_OPERATION_TIMEOUT].key, milliseconds, 1, 3600000, error))
    return FALSE;
  config->operation_timeout_ms = milliseconds;
  return TRUE;
}

/**
 * hbase_config_get_operation_timeout:
 * @config: a config
 *
 * Gets how long one operation may take in all, retries included.
 *
 * Returns: the operation timeout in milliseconds.
 *
 * Since: 0.1
 */
guint
hbase_config_get_operation_timeout (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->operation_timeout_ms;
}

/**
 * hbase_config_set_max_attempts:
 * @config: a config
 * @attempts: how many times an operation is tried in all, 1 to 100
 *   (1 means no retries)
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets how many times an operation is tried before its failure is reported.
 * On error @config is left as it was.
 *
 * Returns: %TRUE if @attempts was in range.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_max_attempts (HBaseConfig *config, guint attempts, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!check_range (_hbase_config_settings[SETTING_MAX_ATTEMPTS].key, attempts, 1, 100, error))
    return FALSE;
  config->max_attempts = attempts;
  return TRUE;
}

/**
 * hbase_config_get_max_attempts:
 * @config: a config
 *
 * Gets how many times an operation is tried before its failure is reported.
 *
 * Returns: how many times an operation is tried in all.
 *
 * Since: 0.1
 */
guint
hbase_config_get_max_attempts (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->max_attempts;
}

/* Which of the two backoff settings is wrong, or N_SETTINGS if neither. */
Setting
_hbase_config_check_retry_backoff (guint first_ms, guint max_ms, GError **error)
{
  if (!check_range (_hbase_config_settings[SETTING_RETRY_BACKOFF].key, first_ms, 1, 60000, error))
    return SETTING_RETRY_BACKOFF;
  if (max_ms < first_ms || max_ms > 600000)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s must be between %s (%u) and 600000, got %u",
                   _hbase_config_settings[SETTING_RETRY_BACKOFF_MAX].key,
                   _hbase_config_settings[SETTING_RETRY_BACKOFF].key, first_ms, max_ms);
      return SETTING_RETRY_BACKOFF_MAX;
    }
  return N_SETTINGS;
}

/**
 * hbase_config_set_retry_backoff:
 * @config: a config
 * @first_ms: the pause before the first retry, 1 to 60000
 * @max_ms: the longest pause between retries, @first_ms to 600000
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets both backoff bounds at once, since each limits the other.
 *
 * Returns: %TRUE if both were in range.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_retry_backoff (HBaseConfig *config, guint first_ms, guint max_ms, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (_hbase_config_check_retry_backoff (first_ms, max_ms, error) != N_SETTINGS)
    return FALSE;
  config->retry_backoff_ms = first_ms;
  config->retry_backoff_max_ms = max_ms;
  return TRUE;
}

/**
 * hbase_config_get_retry_backoff:
 * @config: a config
 *
 * Gets the pause before the first retry; later pauses double, with jitter, up
 * to hbase_config_get_retry_backoff_max().
 *
 * Returns: the pause before the first retry, in milliseconds.
 *
 * Since: 0.1
 */
guint
hbase_config_get_retry_backoff (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->retry_backoff_ms;
}

/**
 * hbase_config_get_retry_backoff_max:
 * @config: a config
 *
 * Gets the longest pause between two retries.
 *
 * Returns: the longest pause between retries, in milliseconds.
 *
 * Since: 0.1
 */
guint
hbase_config_get_retry_backoff_max (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->retry_backoff_max_ms;
}

/**
 * hbase_config_set_pool_size:
 * @config: a config
 * @size: the most connections open at once, 1 to 1024
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets how many connections a client keeps open at most.  On error @config is
 * left as it was.
 *
 * Returns: %TRUE if @size was in range.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_pool_size (HBaseConfig *config, guint size, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!check_range (_hbase_config_settings[SETTING_POOL_SIZE].key, size, 1, 1024, error))
    return FALSE;
  config->pool_size = size;
  return TRUE;
}

/**
 * hbase_config_get_pool_size:
 * @config: a config
 *
 * Gets how many connections a client keeps open at most.
 *
 * Returns: the most connections open at once.
 *
 * Since: 0.1
 */
guint
hbase_config_get_pool_size (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->pool_size;
}

/**
 * hbase_config_set_pool_wait:
 * @config: a config
 * @milliseconds: how long to wait for a free connection when the pool is
 *   exhausted, 0 to 3600000 (0 fails at once)
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets how long a call waits for a free connection when every connection of
 * the pool is busy.  On error @config is left as it was.
 *
 * Returns: %TRUE if @milliseconds was in range.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_pool_wait (HBaseConfig *config, guint milliseconds, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!check_range (_hbase_config_settings[SETTING_POOL_WAIT].key, milliseconds, 0, 3600000, error))
    return FALSE;
  config->pool_wait_ms = milliseconds;
  return TRUE;
}

/**
 * hbase_config_get_pool_wait:
 * @config: a config
 *
 * Gets how long a call waits for a free connection when every connection of
 * the pool is busy.
 *
 * Returns: how long to wait for a free connection, in milliseconds.
 *
 * Since: 0.1
 */
guint
hbase_config_get_pool_wait (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->pool_wait_ms;
}

/**
 * hbase_config_set_max_pending:
 * @config: a config
 * @calls: how many _async calls may wait for a worker thread at once, 0
 *   for no limit (the default)
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT (never
 *   set: every value is valid)
 *
 * Bounds the queue of _async calls waiting for one of the client's
 * worker threads.  With @calls of them waiting, a new _async call
 * completes at once with %HBASE_ERROR_BUSY instead of joining the queue,
 * so a caller producing calls faster than the cluster serves them learns
 * so at once instead of through growing memory and latency (and, later,
 * timeouts).  Calls already running do not count.
 *
 * Returns: %TRUE.
 *
 * Since: 0.2
 */
gboolean
hbase_config_set_max_pending (HBaseConfig *config, guint calls, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);
  config->max_pending = calls;
  return TRUE;
}

/**
 * hbase_config_get_max_pending:
 * @config: a config
 *
 * Gets the bound on _async calls waiting for a worker thread.
 *
 * Returns: the most calls that may wait, or 0 for no limit.
 *
 * Since: 0.2
 */
guint
hbase_config_get_max_pending (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->max_pending;
}

/**
 * hbase_config_set_max_message_size:
 * @config: a config
 * @bytes: the largest reply accepted from a gateway or, on the native
 *   backend, the largest reply frame of an HBase server (and the largest
 *   string, binary or container one may announce), 4096 to 2147483647
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * A reply, frame, string or container above this fails the call with
 * %HBASE_ERROR_PROTOCOL before anything is allocated for it; memory for a
 * reply is only taken as its bytes arrive.  Raise it for rows or scan
 * batches larger than 256 MiB; lower it to bound the memory one
 * connection may hold.
 *
 * Returns: %TRUE if @bytes was in range.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_max_message_size (HBaseConfig *config, guint bytes, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!check_range (_hbase_config_settings[SETTING_MAX_MESSAGE_SIZE].key, bytes, 4096, G_MAXINT32, error))
    return FALSE;
  config->max_message_size = bytes;
  return TRUE;
}

/**
 * hbase_config_get_max_message_size:
 * @config: a config
 *
 * Gets the size of the largest reply accepted from a gateway; a larger one
 * fails the call.
 *
 * Returns: the largest reply accepted, in bytes.
 *
 * Since: 0.1
 */
guint
hbase_config_get_max_message_size (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return config->max_message_size;
}
