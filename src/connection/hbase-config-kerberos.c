/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-config-kerberos.c: the Kerberos settings of HBaseConfig: whether
 * to authenticate, the protection levels accepted from SASL gateways, the
 * gateways' principals, the client's credentials (a credentials cache, or
 * a keytab to log in from) and the user to act for (doAs, HTTP only). */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-config.h>
#include <hbase-glib/hbase-error.h>

#include "hbase-config-private.h"

#define MAX_NAME_LENGTH 1024

static const struct {
  const char *name;
  HBaseKerberosQop qop;
} qop_names[] = {
  { "authentication", HBASE_KERBEROS_QOP_AUTHENTICATION },
  { "auth", HBASE_KERBEROS_QOP_AUTHENTICATION },
  { "integrity", HBASE_KERBEROS_QOP_INTEGRITY },
  { "auth-int", HBASE_KERBEROS_QOP_INTEGRITY },
  { "privacy", HBASE_KERBEROS_QOP_PRIVACY },
  { "auth-conf", HBASE_KERBEROS_QOP_PRIVACY },
  { "any", HBASE_KERBEROS_QOP_ANY },
};

void
_hbase_kerberos_settings_copy (HBaseKerberosSettings *dest, const HBaseKerberosSettings *src)
{
  dest->enabled = src->enabled;
  dest->qop = src->qop;
  dest->service_principal = g_strdup (src->service_principal);
  dest->http_principal = g_strdup (src->http_principal);
  dest->principal = g_strdup (src->principal);
  dest->keytab = g_strdup (src->keytab);
  dest->ccache = g_strdup (src->ccache);
  dest->proxy_user = g_strdup (src->proxy_user);
  dest->no_canonical_host = src->no_canonical_host;
}

void
_hbase_kerberos_settings_clear (HBaseKerberosSettings *settings)
{
  g_clear_pointer (&settings->service_principal, g_free);
  g_clear_pointer (&settings->http_principal, g_free);
  g_clear_pointer (&settings->principal, g_free);
  g_clear_pointer (&settings->keytab, g_free);
  g_clear_pointer (&settings->ccache, g_free);
  g_clear_pointer (&settings->proxy_user, g_free);
}

static HBaseKerberosSettings *
kerberos_of (HBaseConfig *config)
{
  return (HBaseKerberosSettings *) _hbase_config_get_kerberos_settings (config);
}

/* A name setting (principal, cache, user): NULL or "" unsets it; otherwise
 * printable UTF-8 without blanks, since it is named in error messages and
 * sent in HTTP headers. */
static gboolean
set_name (char **field, const char *key, const char *text, gboolean blanks_allowed,
          GError **error)
{
  if (text != NULL && *text != '\0')
    {
      if (!g_utf8_validate (text, -1, NULL) || strlen (text) > MAX_NAME_LENGTH)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "%s: must be UTF-8 text of at most %d bytes", key, MAX_NAME_LENGTH);
          return FALSE;
        }
      for (const char *p = text; *p != '\0'; p++)
        if (g_ascii_iscntrl (*p) || (!blanks_allowed && *p == ' '))
          {
            g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                         "%s: must not contain %s", key,
                         blanks_allowed ? "control characters" : "blanks or control characters");
            return FALSE;
          }
    }
  g_free (*field);
  *field = text != NULL && *text != '\0' ? g_strdup (text) : NULL;
  return TRUE;
}

/* A gateway principal: "SERVICE/HOST[@REALM]", HOST possibly _HOST. */
static gboolean
set_service_principal (char **field, const char *key, const char *principal, GError **error)
{
  if (principal != NULL && *principal != '\0')
    {
      const char *slash = strchr (principal, '/');
      const char *at = strchr (principal, '@');

      if (slash == NULL || slash == principal || slash[1] == '\0' || slash[1] == '@' ||
          (at != NULL && (at < slash || at[1] == '\0')))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "%s: '%s' is not SERVICE/HOST or SERVICE/HOST@REALM "
                       "(HOST may be _HOST, the gateway's canonical host name)",
                       key, g_utf8_validate (principal, -1, NULL) ? principal : "?");
          return FALSE;
        }
    }
  return set_name (field, key, principal, FALSE, error);
}

/**
 * hbase_config_set_kerberos:
 * @config: a config
 * @enabled: %TRUE to authenticate to the gateways with Kerberos
 *
 * Turns Kerberos on or off (off by default).  When on, every connection
 * authenticates before its first call: to a socket gateway through SASL
 * GSSAPI (the gateway runs with `hbase.thrift.security.qop` set, the
 * threadpool server and unframed transport, so the transport setting must
 * stay buffered), to an HTTP gateway with a fresh SPNEGO token on every
 * request.  The credentials are the cache's (KRB5CCNAME, `kinit`) unless
 * hbase_config_set_kerberos_keytab() names a keytab.
 *
 * Failures are %HBASE_ERROR_AUTHENTICATION and say what is missing.
 *
 * Since: 0.1
 */
void
hbase_config_set_kerberos (HBaseConfig *config, gboolean enabled)
{
  g_return_if_fail (config != NULL);
  kerberos_of (config)->enabled = enabled != FALSE;
}

/**
 * hbase_config_get_kerberos:
 * @config: a config
 *
 * Gets whether connections authenticate with Kerberos.
 *
 * Returns: %TRUE if Kerberos is on.
 *
 * Since: 0.1
 */
gboolean
hbase_config_get_kerberos (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, FALSE);
  return _hbase_config_get_kerberos_settings (config)->enabled;
}

/**
 * hbase_config_set_kerberos_qop:
 * @config: a config
 * @qop: the protection levels to accept, one or more
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets which SASL protection levels a socket gateway may use
 * (%HBASE_KERBEROS_QOP_ANY by default).  A client that must not send its
 * data in clear sets %HBASE_KERBEROS_QOP_PRIVACY alone: a gateway that
 * offers less is then refused with %HBASE_ERROR_AUTHENTICATION before any
 * call is sent.  HTTP gateways are not affected (their protection is TLS).
 *
 * Returns: %TRUE if @qop holds at least one known level.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_kerberos_qop (HBaseConfig *config, HBaseKerberosQop qop, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);
  if (qop == 0 || (qop & ~HBASE_KERBEROS_QOP_ANY) != 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "kerberos-qop: %#x is not a set of authentication, integrity and privacy",
                   (guint) qop);
      return FALSE;
    }
  kerberos_of (config)->qop = qop;
  return TRUE;
}

/**
 * hbase_config_get_kerberos_qop:
 * @config: a config
 *
 * Gets the protection levels accepted from socket gateways.
 *
 * Returns: the levels, %HBASE_KERBEROS_QOP_ANY unless set.
 *
 * Since: 0.1
 */
HBaseKerberosQop
hbase_config_get_kerberos_qop (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, HBASE_KERBEROS_QOP_ANY);
  return _hbase_config_get_kerberos_settings (config)->qop;
}

/**
 * hbase_kerberos_qop_from_string:
 * @text: protection level names separated by commas: "authentication",
 *   "integrity", "privacy" (or HBase's older "auth", "auth-int",
 *   "auth-conf"), or "any"
 * @qop: (out) (optional): the levels
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Parses a list of protection levels as the kerberos-qop setting is
 * written.
 *
 * Returns: %TRUE if every name was known and there was at least one.
 *
 * Since: 0.1
 */
gboolean
hbase_kerberos_qop_from_string (const char *text, HBaseKerberosQop *qop, GError **error)
{
  g_auto(GStrv) names = NULL;
  guint result = 0;

  g_return_val_if_fail (text != NULL, FALSE);
  names = g_strsplit (text, ",", -1);
  for (guint i = 0; names[i] != NULL; i++)
    {
      const char *name = g_strstrip (names[i]);
      guint j = 0;

      if (*name == '\0')
        continue;
      while (j < G_N_ELEMENTS (qop_names) && g_ascii_strcasecmp (name, qop_names[j].name) != 0)
        j++;
      if (j == G_N_ELEMENTS (qop_names))
        {
          g_autofree char *shown = g_utf8_make_valid (name, -1);

          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "unknown protection level '%s' (expected authentication, integrity, "
                       "privacy or any)", shown);
          return FALSE;
        }
      result |= qop_names[j].qop;
    }
  if (result == 0)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "no protection level given (expected authentication, integrity, "
                           "privacy or any)");
      return FALSE;
    }
  if (qop != NULL)
    *qop = (HBaseKerberosQop) result;
  return TRUE;
}

/**
 * hbase_config_set_kerberos_service_principal:
 * @config: a config
 * @principal: (nullable): the socket gateways' principal,
 *   "SERVICE/HOST[@REALM]", as the gateway's `hbase.thrift.kerberos.principal`
 *   says; "_HOST" stands for each gateway's canonical host name.  %NULL
 *   (or "") for the default, "hbase/_HOST" in the default realm.
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets whom socket gateways must prove to be (the client asks the KDC for
 * a ticket to this principal).
 *
 * Returns: %TRUE if @principal has the form above.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_kerberos_service_principal (HBaseConfig *config, const char *principal,
                                             GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);
  return set_service_principal (&kerberos_of (config)->service_principal,
                                "kerberos-service-principal", principal, error);
}

/**
 * hbase_config_set_kerberos_canonicalize_host:
 * @config: a config
 * @canonicalize: %TRUE (the default) to put the gateway's canonical host
 *   name in place of `_HOST`, %FALSE to put the host as the gateway list
 *   names it
 *
 * Sets how `_HOST` in the gateways' principals (hbase_config_set_kerberos_service_principal(),
 * hbase_config_set_kerberos_http_principal(), and their defaults
 * `hbase/_HOST` and `HTTP/_HOST`) becomes a host name.  By default, as
 * the Java client does, a host name becomes its canonical name (its DNS
 * CNAME target) and a numeric address the name its reverse lookup gives,
 * if that name resolves back to the same address (a reverse lookup alone
 * is not trusted: whoever controls the reverse zone of the address would
 * choose the principal the client asks a ticket for).  Turned off, `_HOST`
 * is the host exactly as in the gateway list (in lower case), and DNS is
 * not asked: for deployments whose DNS does not match the principals, or
 * that do not trust it.  Setting `kerberos-canonicalize-host`,
 * variable `HBASE_GLIB_KERBEROS_CANONICALIZE_HOST`.
 *
 * Since: 0.2
 */
void
hbase_config_set_kerberos_canonicalize_host (HBaseConfig *config, gboolean canonicalize)
{
  g_return_if_fail (config != NULL);
  kerberos_of (config)->no_canonical_host = !canonicalize;
}

/**
 * hbase_config_get_kerberos_canonicalize_host:
 * @config: a config
 *
 * Gets the setting of hbase_config_set_kerberos_canonicalize_host().
 *
 * Returns: %TRUE if `_HOST` becomes the gateway's canonical host name.
 *
 * Since: 0.2
 */
gboolean
hbase_config_get_kerberos_canonicalize_host (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, TRUE);
  return !_hbase_config_get_kerberos_settings (config)->no_canonical_host;
}

/**
 * hbase_config_get_kerberos_service_principal:
 * @config: a config
 *
 * Gets the socket gateways' principal.
 *
 * Returns: (transfer none): the principal, "hbase/_HOST" unless set.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_kerberos_service_principal (const HBaseConfig *config)
{
  const char *principal;

  g_return_val_if_fail (config != NULL, NULL);
  principal = _hbase_config_get_kerberos_settings (config)->service_principal;
  return principal != NULL ? principal : "hbase/_HOST";
}

/**
 * hbase_config_set_kerberos_http_principal:
 * @config: a config
 * @principal: (nullable): the HTTP gateways' principal, as the gateway's
 *   `hbase.thrift.spnego.principal` says; %NULL (or "") for the default,
 *   "HTTP/_HOST"
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets the principal SPNEGO tokens for HTTP gateways are made for.
 *
 * Returns: %TRUE if @principal has the form SERVICE/HOST[@REALM].
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_kerberos_http_principal (HBaseConfig *config, const char *principal,
                                          GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);
  return set_service_principal (&kerberos_of (config)->http_principal,
                                "kerberos-http-principal", principal, error);
}

/**
 * hbase_config_get_kerberos_http_principal:
 * @config: a config
 *
 * Gets the HTTP gateways' principal.
 *
 * Returns: (transfer none): the principal, "HTTP/_HOST" unless set.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_kerberos_http_principal (const HBaseConfig *config)
{
  const char *principal;

  g_return_val_if_fail (config != NULL, NULL);
  principal = _hbase_config_get_kerberos_settings (config)->http_principal;
  return principal != NULL ? principal : "HTTP/_HOST";
}

/**
 * hbase_config_set_kerberos_keytab:
 * @config: a config
 * @principal: (nullable): the client's principal ("user@REALM" or
 *   "service/host@REALM"), or %NULL (or "") for the cache's
 * @keytab: (nullable) (type filename): a keytab holding @principal's keys
 *   to log in from, or %NULL (or "") to use the credentials cache only
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets the client's own identity.  With a keytab the library logs in by
 * itself (into a credentials cache in memory, or the one of
 * hbase_config_set_kerberos_ccache()) and logs in again when the ticket
 * nears its end, so a long-running process needs no `kinit` or cron job.
 * Without one, the tickets of the cache are used as they are.
 *
 * Returns: %TRUE if the settings were valid (a keytab needs a principal).
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_kerberos_keytab (HBaseConfig *config, const char *principal, const char *keytab,
                                  GError **error)
{
  HBaseKerberosSettings *kerberos;
  g_autofree char *name = NULL, *file = NULL;

  g_return_val_if_fail (config != NULL, FALSE);
  kerberos = kerberos_of (config);
  if (!set_name (&name, "kerberos-principal", principal, FALSE, error) ||
      !set_name (&file, "kerberos-keytab", keytab, TRUE, error))
    return FALSE;
  if (file != NULL && name == NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "kerberos-keytab: a keytab needs the principal to log in as "
                           "(kerberos-principal)");
      return FALSE;
    }
  g_free (kerberos->principal);
  kerberos->principal = g_steal_pointer (&name);
  g_free (kerberos->keytab);
  kerberos->keytab = g_steal_pointer (&file);
  return TRUE;
}

/**
 * hbase_config_get_kerberos_principal:
 * @config: a config
 *
 * Gets the client principal set with hbase_config_set_kerberos_keytab().
 *
 * Returns: (transfer none) (nullable): the principal, or %NULL for the
 *   cache's.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_kerberos_principal (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return _hbase_config_get_kerberos_settings (config)->principal;
}

/**
 * hbase_config_get_kerberos_keytab:
 * @config: a config
 *
 * Gets the keytab set with hbase_config_set_kerberos_keytab().
 *
 * Returns: (transfer none) (nullable) (type filename): the keytab, or %NULL.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_kerberos_keytab (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return _hbase_config_get_kerberos_settings (config)->keytab;
}

/**
 * hbase_config_set_kerberos_ccache:
 * @config: a config
 * @name: (nullable): a credentials cache name ("FILE:/tmp/cc",
 *   "KEYRING:persistent:1000", "MEMORY:x", ...), or %NULL (or "") for the
 *   default one (KRB5CCNAME, or the one krb5.conf names)
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets which credentials cache the client's tickets are read from (and,
 * with a keytab, written to).
 *
 * Returns: %TRUE if @name was valid text.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_kerberos_ccache (HBaseConfig *config, const char *name, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);
  return set_name (&kerberos_of (config)->ccache, "kerberos-ccache", name, TRUE, error);
}

/**
 * hbase_config_get_kerberos_ccache:
 * @config: a config
 *
 * Gets the credentials cache set with hbase_config_set_kerberos_ccache().
 *
 * Returns: (transfer none) (nullable): the cache name, or %NULL for the
 *   default.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_kerberos_ccache (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return _hbase_config_get_kerberos_settings (config)->ccache;
}

/**
 * hbase_config_set_proxy_user:
 * @config: a config
 * @user: (nullable): the user the calls run as, or %NULL (or "") to run
 *   them as the authenticated user
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets a user to act for: with Kerberos on (hbase_config_set_kerberos()),
 * HTTP gateways get a `doAs` header on every request beside its SPNEGO
 * token (the gateway checks doAs against the user the token
 * authenticated, so without Kerberos it is not sent), and HBase then
 * runs the calls as @user, provided the gateway
 * allows proxy users (`hbase.thrift.support.proxyuser`) and the
 * authenticated user may impersonate @user
 * (`hadoop.proxyuser.<user>.hosts` and `.groups`); otherwise calls fail
 * with the gateway's refusal.  Socket gateways cannot act for another user
 * (SASL carries no such request), so with a proxy user set, connecting to
 * one is an %HBASE_ERROR_ILLEGAL_ARGUMENT rather than a call run as the
 * wrong user.
 *
 * Returns: %TRUE if @user was a valid name (no blanks or control
 *   characters).
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_proxy_user (HBaseConfig *config, const char *user, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);
  return set_name (&kerberos_of (config)->proxy_user, "proxy-user", user, FALSE, error);
}

/**
 * hbase_config_get_proxy_user:
 * @config: a config
 *
 * Gets the user set with hbase_config_set_proxy_user().
 *
 * Returns: (transfer none) (nullable): the user, or %NULL.
 *
 * Since: 0.1
 */
const char *
hbase_config_get_proxy_user (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return _hbase_config_get_kerberos_settings (config)->proxy_user;
}

/* The principal and keytab come one key at a time: each keeps the other,
 * and the two are checked together by the setter. */
gboolean
_hbase_config_apply_kerberos (HBaseConfig *config, Setting setting, const char *text,
                              GError **error)
{
  const HBaseKerberosSettings *kerberos = _hbase_config_get_kerberos_settings (config);
  const char *key = _hbase_config_settings[setting].key;

  switch (setting)
    {
    case SETTING_KERBEROS:
      {
        gboolean enabled;

        if (!_hbase_config_parse_boolean (key, text, &enabled, error))
          return FALSE;
        hbase_config_set_kerberos (config, enabled);
        return TRUE;
      }
    case SETTING_KERBEROS_QOP:
      {
        HBaseKerberosQop qop;

        if (!hbase_kerberos_qop_from_string (text, &qop, error))
          {
            g_prefix_error (error, "%s: ", key);
            return FALSE;
          }
        return hbase_config_set_kerberos_qop (config, qop, error);
      }
    case SETTING_KERBEROS_SERVICE_PRINCIPAL:
      return hbase_config_set_kerberos_service_principal (config, text, error);
    case SETTING_KERBEROS_HTTP_PRINCIPAL:
      return hbase_config_set_kerberos_http_principal (config, text, error);
    case SETTING_KERBEROS_PRINCIPAL:
      {
        g_autofree char *keytab = g_strdup (kerberos->keytab);

        return hbase_config_set_kerberos_keytab (config, text, keytab, error);
      }
    case SETTING_KERBEROS_KEYTAB:
      {
        g_autofree char *principal = g_strdup (kerberos->principal);

        return hbase_config_set_kerberos_keytab (config, principal, text, error);
      }
    case SETTING_KERBEROS_CCACHE:
      return hbase_config_set_kerberos_ccache (config, text, error);
    case SETTING_PROXY_USER:
      return hbase_config_set_proxy_user (config, text, error);
    case SETTING_KERBEROS_CANONICALIZE_HOST:
      {
        gboolean canonicalize;

        if (!_hbase_config_parse_boolean (key, text, &canonicalize, error))
          return FALSE;
        hbase_config_set_kerberos_canonicalize_host (config, canonicalize);
        return TRUE;
      }
    default:
      g_return_val_if_reached (FALSE);
    }
}
