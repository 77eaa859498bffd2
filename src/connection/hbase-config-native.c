/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-config-native.c: the HBaseConfig settings of the native backend
 * (HBase's own RPC, src/native/): the bootstrap servers, and which backend
 * a config chooses.  A config holds gateways or bootstrap servers, never
 * both, so that a client never talks to one when its user meant the
 * other: the setter of each refuses while the other is given.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-config.h>
#include <hbase-glib/hbase-error.h>

#include "hbase-config-private.h"

#define KEY (_hbase_config_settings[SETTING_BOOTSTRAP_SERVERS].key)

gboolean
_hbase_config_gateways_given (HBaseConfig *config, GError **error)
{
  HBaseNativeSettings *native = _hbase_config_get_native (config);

  if (native->bootstrap != NULL)
    {
      g_autofree char *list = g_strjoinv (",", native->bootstrap);

      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "gateways: bootstrap servers (%s) are set, which choose the native backend; "
                   "a config holds gateways or bootstrap servers, not both "
                   "(clear them with an empty bootstrap-servers first)", list);
      return FALSE;
    }
  native->gateways_set = TRUE;
  return TRUE;
}

/* "HOST[:PORT]" -> "HOST:PORT"; NULL (with @error) when malformed. */
static char *
parse_server (const char *entry, GError **error)
{
  const char *colon = strrchr (entry, ':');
  g_autofree char *host = colon != NULL ? g_strndup (entry, colon - entry) : g_strdup (entry);
  guint64 port = HBASE_CONFIG_DEFAULT_NATIVE_PORT;

  if (strchr (entry, '[') != NULL || (colon != NULL && strchr (host, ':') != NULL))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s: '%s': IPv6 addresses are not supported by the native backend yet; "
                   "use a host name", KEY, entry);
      return NULL;
    }
  if (*host == '\0' || strlen (host) > 253)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s: '%s' has no host, or one longer than 253 bytes", KEY, entry);
      return NULL;
    }
  for (const char *p = host; *p != '\0'; p++)
    if (g_ascii_iscntrl (*p))
      {
        g_autofree char *escaped = g_strescape (entry, NULL);

        g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                     "%s: '%s' contains a control character", KEY, escaped);
        return NULL;
      }
  if (colon != NULL && !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, NULL))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s: port of '%s' must be a number between 1 and 65535", KEY, entry);
      return NULL;
    }
  return g_strdup_printf ("%s:%u", host, (guint) port);
}

/**
 * hbase_config_set_bootstrap_servers:
 * @config: a config
 * @servers: (nullable): "HOST[:PORT]" entries separated by commas and/or
 *   whitespace (a missing port means %HBASE_CONFIG_DEFAULT_NATIVE_PORT);
 *   %NULL or an empty (or blank) string clears them
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets the servers the native backend asks where hbase:meta is: masters
 * (port 16000) or region servers (16020) of HBase 2.5 or newer, which
 * serve the ClientMetaService registry; they are tried in order, one that
 * cannot be reached is skipped.  Setting them chooses the native backend
 * (hbase_config_get_backend()): the client then speaks HBase's own RPC to
 * the region servers, with no gateway.  Fails while gateways are set (by
 * hbase_config_set_gateways(), hbase_config_add_gateway(), the `gateways`
 * key or `HBASE_GLIB_GATEWAYS`): a config holds one or the other.  IPv6
 * addresses are not supported on the native backend yet.  On error
 * @config is left as it was.
 *
 * Returns: %TRUE if @servers was a valid list (or empty).
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_bootstrap_servers (HBaseConfig *config, const char *servers, GError **error)
{
  HBaseNativeSettings *native;
  g_auto(GStrv) entries = NULL;
  g_autoptr(GStrvBuilder) parsed = g_strv_builder_new ();
  g_auto(GStrv) list = NULL;

  g_return_val_if_fail (config != NULL, FALSE);
  native = _hbase_config_get_native (config);
  if (servers != NULL && !g_utf8_validate (servers, -1, NULL))
    {
      g_autofree char *escaped = g_strescape (servers, NULL);

      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s: '%s' is not UTF-8 text", KEY, escaped);
      return FALSE;
    }
  entries = g_strsplit_set (servers != NULL ? servers : "", ", \t\n\r", -1);
  for (guint i = 0; entries[i] != NULL; i++)
    {
      char *server;

      if (*entries[i] == '\0')
        continue;
      server = parse_server (entries[i], error);
      if (server == NULL)
        return FALSE;
      g_strv_builder_add (parsed, server);
      g_free (server);
    }
  list = g_strv_builder_end (parsed);
  if (list[0] == NULL)
    {
      g_clear_pointer (&native->bootstrap, g_strfreev);
      return TRUE;
    }
  if (native->gateways_set)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s: gateways are set, which choose the Thrift2 backend; a config holds "
                   "gateways or bootstrap servers, not both", KEY);
      return FALSE;
    }
  g_strfreev (native->bootstrap);
  native->bootstrap = g_steal_pointer (&list);
  return TRUE;
}

/**
 * hbase_config_get_bootstrap_servers:
 * @config: a config
 *
 * Gets the bootstrap servers of the native backend, each "HOST:PORT".
 *
 * Returns: (transfer none) (array zero-terminated=1) (nullable): the
 *   servers in the order given, or %NULL when none is set (the Thrift2
 *   backend)
 *
 * Since: 0.1
 */
const char * const *
hbase_config_get_bootstrap_servers (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return (const char * const *) _hbase_config_get_native (config)->bootstrap;
}

/**
 * hbase_config_get_backend:
 * @config: a config
 *
 * Gets how a client made with @config reaches HBase: %HBASE_BACKEND_NATIVE
 * when bootstrap servers are set (hbase_config_set_bootstrap_servers()),
 * %HBASE_BACKEND_THRIFT2 otherwise.
 *
 * Returns: the backend @config chooses
 *
 * Since: 0.1
 */
HBaseBackend
hbase_config_get_backend (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, HBASE_BACKEND_THRIFT2);
  return _hbase_config_get_native (config)->bootstrap != NULL ? HBASE_BACKEND_NATIVE
                                                              : HBASE_BACKEND_THRIFT2;
}
