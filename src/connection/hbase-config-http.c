/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-config-http.c: the gateway host checks of HBaseConfig and its parts
 * for gateways in HTTP mode: the "http://" and "https://" forms of a
 * gateway, and the TLS settings of https gateways (trust, host name
 * verification, a client certificate). */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-config.h>
#include <hbase-glib/hbase-error.h>

#include "hbase-config-private.h"

#define MAX_HOST_LENGTH 255
#define MAX_PATH_LENGTH 1024

void
_hbase_tls_settings_copy (HBaseTlsSettings *dest, const HBaseTlsSettings *src)
{
  dest->ca_file = g_strdup (src->ca_file);
  dest->ca_path = g_strdup (src->ca_path);
  dest->client_cert = g_strdup (src->client_cert);
  dest->client_key = g_strdup (src->client_key);
  dest->client_key_password = g_strdup (src->client_key_password);
  dest->no_verify_hostname = src->no_verify_hostname;
  dest->allow_insecure_http = src->allow_insecure_http;
}

void
_hbase_tls_settings_clear (HBaseTlsSettings *settings)
{
  g_clear_pointer (&settings->ca_file, g_free);
  g_clear_pointer (&settings->ca_path, g_free);
  g_clear_pointer (&settings->client_cert, g_free);
  g_clear_pointer (&settings->client_key, g_free);
  if (settings->client_key_password != NULL)
    memset (settings->client_key_password, 0, strlen (settings->client_key_password));
  g_clear_pointer (&settings->client_key_password, g_free);
}

/* The host is handed to getaddrinfo() as is, so whitespace or control
 * characters can only be a mistake (often a stray separator), and bytes
 * that are not UTF-8 could not even be named in an error message. */
gboolean
_hbase_config_check_host (const char *host, GError **error)
{
  if (host == NULL || *host == '\0')
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "gateways: host must not be empty");
      return FALSE;
    }
  if (strlen (host) > MAX_HOST_LENGTH)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "gateways: host must be at most %d bytes, got %" G_GSIZE_FORMAT,
                   MAX_HOST_LENGTH, strlen (host));
      return FALSE;
    }
  if (!g_utf8_validate (host, -1, NULL))
    {
      g_autofree char *escaped = g_strescape (host, NULL);

      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "gateways: host '%s' is not UTF-8 text", escaped);
      return FALSE;
    }
  for (const char *p = host; *p != '\0'; p++)
    if (g_ascii_isspace (*p) || g_ascii_iscntrl (*p))
      {
        g_autofree char *escaped = g_strescape (host, NULL);

        g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                     "gateways: host '%s' contains whitespace or a control character",
                     escaped);
        return FALSE;
      }
  return TRUE;
}

/* The path part of a URL: printable ASCII, no fragment, no blanks. */
static gboolean
check_path (const char *entry, const char *path, GError **error)
{
  if (strlen (path) > MAX_PATH_LENGTH)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "gateways: the path of '%s' is longer than %d bytes", entry, MAX_PATH_LENGTH);
      return FALSE;
    }
  for (const char *p = path; *p != '\0'; p++)
    if ((guchar) *p <= ' ' || (guchar) *p >= 0x7f || *p == '#')
      {
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                     "gateways: the path of '%s' must be printable ASCII without blanks "
                     "or '#' (percent-encode other bytes)", entry);
        return FALSE;
      }
  return TRUE;
}

gboolean
_hbase_config_parse_url (const char *entry, char **host_out, guint *port_out, char **url_out,
                         GError **error)
{
  g_autofree char *host = NULL;
  const char *rest, *path, *port_text = NULL;
  gboolean https;
  guint64 port;

  if (g_ascii_strncasecmp (entry, "http://", 7) == 0)
    https = FALSE, rest = entry + 7;
  else if (g_ascii_strncasecmp (entry, "https://", 8) == 0)
    https = TRUE, rest = entry + 8;
  else
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "gateways: '%s' is not HOST[:PORT], http://HOST[:PORT][/PATH] or "
                   "https://HOST[:PORT][/PATH]", entry);
      return FALSE;
    }
  port = https ? 443 : 80;
  path = strchr (rest, '/');
  if (path == NULL)
    path = rest + strlen (rest);
  if (memchr (rest, '@', path - rest) != NULL || memchr (rest, '?', path - rest) != NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "gateways: '%s' must not carry a user name or a query before its path", entry);
      return FALSE;
    }
  if (rest[0] == '[')
    {
      const char *close = memchr (rest, ']', path - rest);

      if (close == NULL || (close + 1 != path && close[1] != ':'))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "gateways: '%s' has no IPv6 address in its brackets", entry);
          return FALSE;
        }
      host = g_strndup (rest + 1, close - rest - 1);
      if (strchr (host, ':') == NULL || !g_hostname_is_ip_address (host))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "gateways: '%s' has no IPv6 address in its brackets", entry);
          return FALSE;
        }
      if (close[1] == ':')
        port_text = close + 2;
    }
  else
    {
      const char *colon = memchr (rest, ':', path - rest);

      if (colon != NULL && memchr (colon + 1, ':', path - colon - 1) != NULL)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "gateways: '%s' holds a bare IPv6 address; write it in brackets", entry);
          return FALSE;
        }
      host = g_strndup (rest, (colon != NULL ? colon : path) - rest);
      if (colon != NULL)
        port_text = colon + 1;
    }
  if (port_text != NULL)
    {
      g_autofree char *digits = g_strndup (port_text, path - port_text);

      if (!g_ascii_string_to_unsigned (digits, 10, 1, 65535, &port, NULL))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "gateways: port of '%s' must be a number between 1 and 65535", entry);
          return FALSE;
        }
    }
  if (!_hbase_config_check_host (host, error) || !check_path (entry, path, error))
    return FALSE;
  *url_out = g_strdup_printf (strchr (host, ':') != NULL ? "%s://[%s]:%u%s" : "%s://%s:%u%s",
                              https ? "https" : "http", host, (guint) port,
                              *path != '\0' ? path : "/");
  *port_out = (guint) port;
  *host_out = g_steal_pointer (&host);
  return TRUE;
}

/* A file setting: NULL or "" unsets it; otherwise the text must be UTF-8
 * (it is named in error messages). */
static gboolean
set_file (char **field, const char *key, const char *path, GError **error)
{
  if (path != NULL && !g_utf8_validate (path, -1, NULL))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s: the path is not UTF-8 text", key);
      return FALSE;
    }
  g_free (*field);
  *field = path != NULL && *path != '\0' ? g_strdup (path) : NULL;
  return TRUE;
}

static HBaseTlsSettings *
tls_of (HBaseConfig *config)
{
  return (HBaseTlsSettings *) _hbase_config_get_tls (config);
}

/**
 * hbase_config_set_tls_ca_file:
 * @config: a config
 * @path: (nullable) (type filename): a PEM file of the CA certificates to
 *   trust, or %NULL (or "") for the system's trust store
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets which CA certificates https gateways are checked against.  By
 * default the system's trust store is used; a CA file replaces it.  The
 * file is read when a connection is opened (an unreadable file is an
 * %HBASE_ERROR_CONNECTION then, naming it).
 *
 * Returns: %TRUE if @path was valid.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_tls_ca_file (HBaseConfig *config, const char *path, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);
  return set_file (&tls_of (config)->ca_file, "tls-ca-file", path, error);
}

/**
 * hbase_config_get_tls_ca_file:
 * @config: a config
 *
 * Gets the CA file set with hbase_config_set_tls_ca_file().
 *
 * Returns: (transfer none) (nullable) (type filename): the CA file, or
 *   %NULL for the system's trust store.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_tls_ca_file (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return _hbase_config_get_tls (config)->ca_file;
}

/**
 * hbase_config_set_tls_ca_path:
 * @config: a config
 * @path: (nullable) (type filename): a directory of CA certificates in
 *   OpenSSL's hashed layout (`openssl rehash`), or %NULL (or "") for none
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets a directory of CA certificates to trust for https gateways, in
 * addition to the CA file if one is set.  Like the CA file, it replaces
 * the system's trust store: with either set, only their CAs are trusted.
 *
 * Returns: %TRUE if @path was valid.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_tls_ca_path (HBaseConfig *config, const char *path, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);
  return set_file (&tls_of (config)->ca_path, "tls-ca-path", path, error);
}

/**
 * hbase_config_get_tls_ca_path:
 * @config: a config
 *
 * Gets the CA directory set with hbase_config_set_tls_ca_path().
 *
 * Returns: (transfer none) (nullable) (type filename): the directory, or
 *   %NULL.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_tls_ca_path (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return _hbase_config_get_tls (config)->ca_path;
}

/**
 * hbase_config_set_tls_verify_hostname:
 * @config: a config
 * @verify: %FALSE to accept a trusted certificate issued for another host
 *
 * Sets whether the certificate of an https gateway must name the host of
 * its URL (%TRUE by default).  The certificate is checked against the
 * trusted CAs either way; turning this off only lets a certificate of the
 * right CA stand for any host, which defeats TLS against anyone holding
 * such a certificate.  Use it for tests, never in production.
 *
 * Since: 0.1
 */
void
hbase_config_set_tls_verify_hostname (HBaseConfig *config, gboolean verify)
{
  g_return_if_fail (config != NULL);
  tls_of (config)->no_verify_hostname = !verify;
}

/**
 * hbase_config_get_tls_verify_hostname:
 * @config: a config
 *
 * Gets whether an https gateway's certificate must name its host.
 *
 * Returns: %TRUE unless hbase_config_set_tls_verify_hostname() turned it off.
 *
 * Since: 0.1
 */
gboolean
hbase_config_get_tls_verify_hostname (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, TRUE);
  return !_hbase_config_get_tls (config)->no_verify_hostname;
}

/**
 * hbase_config_set_tls_client_certificate:
 * @config: a config
 * @cert_file: (nullable) (type filename): a PEM file of the client
 *   certificate (and its chain), or %NULL (or "") for none
 * @key_file: (nullable) (type filename): the PEM file of its private key,
 *   or %NULL when @cert_file holds the key too
 * @key_password: (nullable): the password of an encrypted key, or %NULL
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets the certificate an https connection presents when the gateway asks
 * for one (mutual TLS).  The password is kept in memory only, is never
 * part of an error message and cannot be read back.
 *
 * Returns: %TRUE if the settings were valid (a key or password needs a
 *   certificate).
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_tls_client_certificate (HBaseConfig *config,
                                         const char  *cert_file,
                                         const char  *key_file,
                                         const char  *key_password,
                                         GError     **error)
{
  HBaseTlsSettings *tls;
  g_autofree char *cert = NULL, *key = NULL;

  g_return_val_if_fail (config != NULL, FALSE);
  tls = tls_of (config);
  if (!set_file (&cert, "tls-client-cert", cert_file, error) ||
      !set_file (&key, "tls-client-key", key_file, error))
    return FALSE;
  if (cert == NULL && (key != NULL || (key_password != NULL && *key_password != '\0')))
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "tls-client-key: a client key or key password needs a client "
                           "certificate (tls-client-cert)");
      return FALSE;
    }
  g_free (tls->client_cert);
  tls->client_cert = g_steal_pointer (&cert);
  g_free (tls->client_key);
  tls->client_key = g_steal_pointer (&key);
  if (tls->client_key_password != NULL)
    memset (tls->client_key_password, 0, strlen (tls->client_key_password));
  g_free (tls->client_key_password);
  tls->client_key_password = key_password != NULL && *key_password != '\0'
    ? g_strdup (key_password) : NULL;
  return TRUE;
}

/**
 * hbase_config_get_tls_client_cert:
 * @config: a config
 *
 * Gets the client certificate file set with
 * hbase_config_set_tls_client_certificate().
 *
 * Returns: (transfer none) (nullable) (type filename): the file, or %NULL.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_tls_client_cert (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return _hbase_config_get_tls (config)->client_cert;
}

/**
 * hbase_config_get_tls_client_key:
 * @config: a config
 *
 * Gets the client key file set with
 * hbase_config_set_tls_client_certificate().
 *
 * Returns: (transfer none) (nullable) (type filename): the file, or %NULL.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_tls_client_key (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return _hbase_config_get_tls (config)->client_key;
}

/**
 * hbase_config_set_allow_insecure_http:
 * @config: a config
 * @allow: %TRUE to send Kerberos tokens and doAs over http:// gateways
 *
 * Sets whether Kerberos (hbase_config_set_kerberos()) and a proxy user
 * (hbase_config_set_proxy_user()) may be used with gateways reached
 * through plain http:// URLs (%FALSE by default).  Over plain HTTP an
 * SPNEGO token has no channel binding: anyone on the path can read it
 * and replay it to the gateway while it is valid, and can change the
 * requests and replies and the user they act for.  Without this setting
 * such a gateway is refused with %HBASE_ERROR_ILLEGAL_ARGUMENT when a
 * connection to it is opened; use https:// URLs instead, or set it where
 * the network path is trusted (a loopback test, a private link).
 *
 * Since: 0.2
 */
void
hbase_config_set_allow_insecure_http (HBaseConfig *config, gboolean allow)
{
  g_return_if_fail (config != NULL);
  tls_of (config)->allow_insecure_http = allow != FALSE;
}

/**
 * hbase_config_get_allow_insecure_http:
 * @config: a config
 *
 * Gets whether Kerberos and a proxy user may be used over http:// gateways.
 *
 * Returns: %TRUE if hbase_config_set_allow_insecure_http() allowed it.
 *
 * Since: 0.2
 */
gboolean
hbase_config_get_allow_insecure_http (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, FALSE);
  return _hbase_config_get_tls (config)->allow_insecure_http;
}

gboolean
_hbase_config_parse_boolean (const char *key, const char *text, gboolean *value, GError **error)
{
  static const char *const yes[] = { "true", "1", "yes", "on" };
  static const char *const no[] = { "false", "0", "no", "off" };

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    {
      if (g_ascii_strcasecmp (text, yes[i]) == 0)
        return *value = TRUE, TRUE;
      if (g_ascii_strcasecmp (text, no[i]) == 0)
        return *value = FALSE, TRUE;
    }
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
               "%s must be true or false, got '%s'", key, text);
  return FALSE;
}

/* The client certificate settings come one key at a time: each keeps the
 * others, and the three are checked together by the setter. */
gboolean
_hbase_config_apply_tls (HBaseConfig *config, Setting setting, const char *text, GError **error)
{
  const HBaseTlsSettings *tls = _hbase_config_get_tls (config);
  const char *key = _hbase_config_settings[setting].key;
  gboolean verify;

  switch (setting)
    {
    case SETTING_TLS_CA_FILE:
      return hbase_config_set_tls_ca_file (config, text, error);
    case SETTING_TLS_CA_PATH:
      return hbase_config_set_tls_ca_path (config, text, error);
    case SETTING_TLS_VERIFY_HOSTNAME:
      if (!_hbase_config_parse_boolean (key, text, &verify, error))
        return FALSE;
      hbase_config_set_tls_verify_hostname (config, verify);
      return TRUE;
    case SETTING_ALLOW_INSECURE_HTTP:
      if (!_hbase_config_parse_boolean (key, text, &verify, error))
        return FALSE;
      hbase_config_set_allow_insecure_http (config, verify);
      return TRUE;
    case SETTING_TLS_CLIENT_CERT:
      {
        g_autofree char *password = g_strdup (tls->client_key_password);
        gboolean ok = hbase_config_set_tls_client_certificate (config, text, tls->client_key,
                                                               password, error);

        if (password != NULL)
          memset (password, 0, strlen (password));
        return ok;
      }
    case SETTING_TLS_CLIENT_KEY:
      {
        g_autofree char *password = g_strdup (tls->client_key_password);
        gboolean ok = hbase_config_set_tls_client_certificate (config, tls->client_cert, text,
                                                               password, error);

        if (password != NULL)
          memset (password, 0, strlen (password));
        return ok;
      }
    case SETTING_TLS_CLIENT_KEY_PASSWORD:
      return hbase_config_set_tls_client_certificate (config, tls->client_cert, tls->client_key,
                                                      text, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}
