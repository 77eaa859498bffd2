/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-http-spnego.c: SPNEGO and doAs on an HTTP channel (see
 * hbase-http-spnego.h).
 *
 * Proactive: every request carries a fresh "Authorization: Negotiate"
 * token, with no 401 round trip first.  The gateway (HBase 2.6
 * ThriftHttpServlet) authenticates each request on its own and keeps no
 * session, and its replay cache refuses a token it has seen (401), so a
 * token can be neither reused nor saved for later requests.  libcurl's
 * own CURLAUTH_NEGOTIATE (7.88) also sends a token up front, but only
 * from the default credentials cache, for HTTP@<URL host>, and without
 * GSSAPI's words when it fails (docs/kerberos.md).
 *
 * The credentials are acquired once per channel, on its first request.
 * When a token cannot be made because they have expired (a ticket from
 * kinit whose cache was renewed since, for instance), they are acquired
 * again once: long-lived pooled connections pick up a renewed cache.  A
 * keytab login is renewed by GSSAPI itself. */
#include "config.h"

#include <string.h>

#include <gssapi/gssapi.h>

#include "hbase-http-spnego.h"
#include "hbase-gss.h"

struct _HBaseHttpSpnego {
  HBaseKerberosSettings settings;
  char *host;
  gss_cred_id_t credentials;
  gss_name_t service;
  char *target;            /* the service principal as text */
};

HBaseHttpSpnego *
_hbase_http_spnego_new (const HBaseKerberosSettings *settings, const char *host)
{
  HBaseHttpSpnego *spnego = g_new0 (HBaseHttpSpnego, 1);

  _hbase_kerberos_settings_copy (&spnego->settings, settings);
  spnego->credentials = GSS_C_NO_CREDENTIAL;
  spnego->service = GSS_C_NO_NAME;
  spnego->host = g_strdup (host);
  return spnego;
}

void
_hbase_http_spnego_free (HBaseHttpSpnego *spnego)
{
  if (spnego == NULL)
    return;
  _hbase_gss_release_credentials (&spnego->credentials);
  _hbase_gss_release_name (&spnego->service);
  _hbase_kerberos_settings_clear (&spnego->settings);
  g_free (spnego->target);
  g_free (spnego->host);
  g_free (spnego);
}

const char *
_hbase_http_spnego_target (HBaseHttpSpnego *spnego)
{
  if (spnego->target != NULL)
    return spnego->target;
  return spnego->settings.http_principal != NULL ? spnego->settings.http_principal : "HTTP/_HOST";
}

const char *
_hbase_http_spnego_proxy_user (HBaseHttpSpnego *spnego)
{
  return spnego->settings.proxy_user;
}

/* Whether @credentials can no longer make tokens because they expired. */
static gboolean
credentials_expired (gss_cred_id_t credentials)
{
  OM_uint32 major, minor, lifetime = 0;

  major = gss_inquire_cred (&minor, credentials, NULL, &lifetime, NULL, NULL);
  return GSS_ROUTINE_ERROR (major) == GSS_S_CREDENTIALS_EXPIRED ||
         (!GSS_ERROR (major) && lifetime == 0);
}

/* The "Negotiate <token>" value for the next request. */
static char *
make_authorization (HBaseHttpSpnego *spnego, const char *description, GError **error)
{
  GError *local = NULL;
  gboolean fresh = FALSE;
  char *value;

  if (spnego->service == GSS_C_NO_NAME &&
      !_hbase_gss_import_service_name (spnego->settings.http_principal, "HTTP", spnego->host,
                                       !spnego->settings.no_canonical_host, &spnego->service,
                                       &spnego->target, error))
    return NULL;
  if (spnego->credentials == GSS_C_NO_CREDENTIAL)
    {
      if (!_hbase_gss_acquire_credentials (&spnego->settings, &spnego->credentials, error))
        return NULL;
      fresh = TRUE;
    }
  value = _hbase_gss_spnego_header (spnego->credentials, spnego->service, spnego->target,
                                    description, &local);
  if (value == NULL && !fresh && credentials_expired (spnego->credentials))
    {
      /* once: a renewed cache or a new login; if there is none, the
       * acquisition says so (no credentials, or expired) */
      g_clear_error (&local);
      _hbase_gss_release_credentials (&spnego->credentials);
      if (!_hbase_gss_acquire_credentials (&spnego->settings, &spnego->credentials, error))
        return NULL;
      value = _hbase_gss_spnego_header (spnego->credentials, spnego->service, spnego->target,
                                        description, &local);
    }
  if (value == NULL)
    g_propagate_error (error, local);
  return value;
}

struct curl_slist *
_hbase_http_spnego_headers (HBaseHttpSpnego *spnego, const struct curl_slist *base,
                            const char *description, GError **error)
{
  g_autofree char *authorization = make_authorization (spnego, description, error);
  struct curl_slist *headers = NULL;
  char *line;

  if (authorization == NULL)
    return NULL;
  for (; base != NULL; base = base->next)
    headers = curl_slist_append (headers, base->data);
  line = g_strconcat ("Authorization: ", authorization, NULL);
  headers = curl_slist_append (headers, line);
  memset (line, 0, strlen (line));
  g_free (line);
  memset (authorization, 0, strlen (authorization));
  /* doAs goes only with a token: the gateway (ThriftHttpServlet.doPost)
   * checks it against the user the token authenticated ("User: alice is
   * not allowed to impersonate client", HTTP 500), and the proxy user is
   * a Kerberos setting that is not passed on with Kerberos off. */
  if (spnego->settings.proxy_user != NULL)
    {
      g_autofree char *doas = g_strconcat ("doAs: ", spnego->settings.proxy_user, NULL);

      headers = curl_slist_append (headers, doas);
    }
  if (headers == NULL)
    g_error ("libcurl could not allocate a header list");
  return headers;
}

void
_hbase_http_spnego_free_headers (struct curl_slist *headers)
{
  for (struct curl_slist *h = headers; h != NULL; h = h->next)
    memset (h->data, 0, strlen (h->data));
  curl_slist_free_all (headers);
}
