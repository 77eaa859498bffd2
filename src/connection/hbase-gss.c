/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-gss.c: Kerberos credentials, gateway service names, SPNEGO tokens
 * and error messages on MIT GSSAPI (see hbase-gss.h). */
#include "config.h"

#include <netdb.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>
#include <krb5.h>

#include <hbase-glib/hbase-error.h>

#include "hbase-gss.h"
#include "../core/hbase-error-private.h"

/* 1.3.6.1.5.5.2: SPNEGO, what HTTP Negotiate carries */
static gss_OID_desc spnego_oid = { 6, (void *) "\x2b\x06\x01\x05\x05\x02" };
/* 1.2.840.113554.1.2.2: the Kerberos 5 mechanism, what SASL GSSAPI uses */
static gss_OID_desc krb5_oid = { 9, (void *) "\x2a\x86\x48\x86\xf7\x12\x01\x02\x02" };

/* Appends GSSAPI's text for @code (of @type) to @text. */
static void
append_status (GString *text, OM_uint32 code, int type)
{
  OM_uint32 context = 0;

  do
    {
      OM_uint32 minor;
      gss_buffer_desc buffer = GSS_C_EMPTY_BUFFER;

      if (GSS_ERROR (gss_display_status (&minor, code, type, GSS_C_NO_OID, &context, &buffer)))
        break;
      if (buffer.length > 0)
        g_string_append_printf (text, "%s%.*s", text->len > 0 ? ": " : "",
                                (int) buffer.length, (const char *) buffer.value);
      gss_release_buffer (&minor, &buffer);
    }
  while (context != 0);
}

/* What a failure means for the user, or NULL when GSSAPI's text says it. */
static const char *
explain (OM_uint32 major, OM_uint32 minor)
{
  krb5_error_code code = (krb5_error_code) minor;

  if (GSS_ROUTINE_ERROR (major) == GSS_S_CREDENTIALS_EXPIRED ||
      code == KRB5KRB_AP_ERR_TKT_EXPIRED)
    return "the Kerberos ticket has expired (renew it with kinit, or configure a keytab)";
  if (code == KRB5KDC_ERR_S_PRINCIPAL_UNKNOWN)
    return "the KDC does not know the gateway's principal (check the service principal "
           "setting and the gateway's host name)";
  if (code == KRB5KDC_ERR_C_PRINCIPAL_UNKNOWN)
    return "the KDC does not know the client principal";
  if (code == KRB5_KT_NOTFOUND)
    return "the keytab holds no key for the client principal";
  if (code == KRB5KDC_ERR_PREAUTH_FAILED || code == KRB5KRB_AP_ERR_BAD_INTEGRITY)
    return "the KDC refused the client's key (a stale keytab or a wrong password)";
  if (code == KRB5_KDC_UNREACH || code == KRB5_REALM_CANT_RESOLVE || code == KRB5_REALM_UNKNOWN)
    return "no KDC of the realm could be reached";
  if (GSS_ROUTINE_ERROR (major) == GSS_S_NO_CRED || code == KRB5_FCC_NOFILE ||
      code == KRB5_CC_NOTFOUND || code == KRB5_CC_NOSUPP)
    return "no Kerberos credentials (run kinit, or configure a keytab and principal)";
  return NULL;
}

void
_hbase_gss_set_error (GError **error, OM_uint32 major, OM_uint32 minor, const char *what,
                      const char *target)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) message = g_string_new (what);
  const char *meaning = explain (major, minor);
  GError *local;

  append_status (text, major, GSS_C_GSS_CODE);
  if (minor != 0)
    append_status (text, minor, GSS_C_MECH_CODE);
  if (target != NULL)
    g_string_append_printf (message, " (%s)", target);
  g_string_append_printf (message, ": %s (GSSAPI: %s)", meaning != NULL ? meaning : "failed",
                          text->len > 0 ? text->str : "no details");
  local = g_error_new_literal (HBASE_ERROR, HBASE_ERROR_AUTHENTICATION, message->str);
  /* credentials do not appear by waiting: no other gateway or later
   * attempt would do better */
  _hbase_error_set_permanent (local);
  g_propagate_error (error, local);
}

/* A keytab is a password in a file: one that its group or others may read
 * is reported once per path and process (g_message, as for the Redis
 * password file: a deployment's file modes must not abort a test run
 * with fatal warnings). */
static void
warn_if_keytab_readable (const char *keytab)
{
  static GMutex lock;
  static GHashTable *warned;
  const char *path = g_str_has_prefix (keytab, "FILE:") ? keytab + 5 : keytab;
  GStatBuf st;

  if (g_stat (path, &st) != 0 || (st.st_mode & (S_IRGRP | S_IROTH)) == 0)
    return;
  g_mutex_lock (&lock);
  if (warned == NULL)
    warned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (g_hash_table_add (warned, g_strdup (path)))
    {
      g_autofree char *display = g_filename_display_name (path);

      g_message ("the Kerberos keytab %s is readable by %s (mode %03o): make it readable "
                 "by its owner only (chmod 600)", display,
                 (st.st_mode & S_IROTH) != 0 ? "others" : "its group",
                 (unsigned) (st.st_mode & 0777));
    }
  g_mutex_unlock (&lock);
}

static gss_OID_desc mech_oids[2];
static gss_OID_set_desc mechs = { 2, mech_oids };

static gss_OID_set
credential_mechs (void)
{
  mech_oids[0] = krb5_oid;
  mech_oids[1] = spnego_oid;
  return &mechs;
}

gboolean
_hbase_gss_acquire_credentials (const HBaseKerberosSettings *settings,
                                gss_cred_id_t *credentials, GError **error)
{
  OM_uint32 major, minor, lifetime = 0;
  gss_name_t principal = GSS_C_NO_NAME;
  gss_key_value_element_desc elements[2];
  gss_key_value_set_desc store = { 0, elements };
  g_autofree char *memory_cache = NULL;
  g_autofree char *who = NULL;

  *credentials = GSS_C_NO_CREDENTIAL;
  if (settings->principal != NULL)
    {
      gss_buffer_desc text = { strlen (settings->principal), settings->principal };

      major = gss_import_name (&minor, &text, GSS_KRB5_NT_PRINCIPAL_NAME, &principal);
      if (GSS_ERROR (major))
        {
          _hbase_gss_set_error (error, major, minor, "bad Kerberos client principal",
                                settings->principal);
          return FALSE;
        }
    }
  if (settings->keytab != NULL)
    {
      /* a private in-memory cache per principal and keytab, shared by the
       * process's connections: one login, renewed from the keytab by
       * GSSAPI when the ticket nears its end */
      memory_cache = g_strdup_printf ("MEMORY:hbase-glib-%08x-%08x",
                                      g_str_hash (settings->keytab),
                                      g_str_hash (settings->principal != NULL
                                                  ? settings->principal : ""));
      warn_if_keytab_readable (settings->keytab);
      elements[store.count++] = (gss_key_value_element_desc) { "client_keytab", settings->keytab };
      elements[store.count++] = (gss_key_value_element_desc) {
        "ccache", settings->ccache != NULL ? settings->ccache : memory_cache };
      who = g_strdup_printf ("keytab %s", settings->keytab);
    }
  else if (settings->ccache != NULL)
    {
      elements[store.count++] = (gss_key_value_element_desc) { "ccache", settings->ccache };
      who = g_strdup_printf ("credentials cache %s", settings->ccache);
    }
  else
    who = g_strdup ("the default credentials cache");

  major = gss_acquire_cred_from (&minor, principal, GSS_C_INDEFINITE, credential_mechs (),
                                 GSS_C_INITIATE, store.count > 0 ? &store : GSS_C_NO_CRED_STORE,
                                 credentials, NULL, &lifetime);
  _hbase_gss_release_name (&principal);
  if (GSS_ERROR (major))
    {
      g_autofree char *what = g_strdup_printf ("no usable Kerberos credentials in %s", who);

      *credentials = GSS_C_NO_CREDENTIAL;
      _hbase_gss_set_error (error, major, minor, what, settings->principal);
      return FALSE;
    }
  if (lifetime == 0 && settings->keytab == NULL)
    {
      g_autofree char *what = g_strdup_printf ("the Kerberos credentials in %s", who);

      _hbase_gss_release_credentials (credentials);
      _hbase_gss_set_error (error, GSS_S_CREDENTIALS_EXPIRED, 0, what, settings->principal);
      return FALSE;
    }
  return TRUE;
}

void
_hbase_gss_release_credentials (gss_cred_id_t *credentials)
{
  OM_uint32 minor;

  if (*credentials != GSS_C_NO_CREDENTIAL)
    gss_release_cred (&minor, credentials);
  *credentials = GSS_C_NO_CREDENTIAL;
}

gboolean
_hbase_gss_forward_confirmed (const char *name, const struct sockaddr *address, gsize length)
{
  struct addrinfo hints = { .ai_family = address->sa_family, .ai_socktype = SOCK_STREAM };
  struct addrinfo *found = NULL;
  gboolean same = FALSE;

  if (getaddrinfo (name, NULL, &hints, &found) != 0)
    return FALSE;
  for (const struct addrinfo *a = found; a != NULL && !same; a = a->ai_next)
    {
      if (a->ai_family != address->sa_family)
        continue;
      if (a->ai_family == AF_INET && length >= sizeof (struct sockaddr_in))
        same = memcmp (&((const struct sockaddr_in *) (const void *) a->ai_addr)->sin_addr,
                       &((const struct sockaddr_in *) (const void *) address)->sin_addr,
                       sizeof (struct in_addr)) == 0;
      else if (a->ai_family == AF_INET6 && length >= sizeof (struct sockaddr_in6))
        same = memcmp (&((const struct sockaddr_in6 *) (const void *) a->ai_addr)->sin6_addr,
                       &((const struct sockaddr_in6 *) (const void *) address)->sin6_addr,
                       sizeof (struct in6_addr)) == 0;
    }
  freeaddrinfo (found);
  return same;
}

/* The canonical name of @host in lower case, as the Java client puts in
 * place of _HOST: a numeric address looked up in reverse (and the name
 * kept only if it resolves back to that address: the reverse zone alone
 * must not choose the principal), a name resolved to its canonical form;
 * @host itself if neither is known. */
static char *
canonical_host (const char *host)
{
  struct addrinfo hints = { .ai_flags = AI_NUMERICHOST, .ai_socktype = SOCK_STREAM };
  struct addrinfo *found = NULL;
  char name[NI_MAXHOST];
  char *result = NULL;

  if (getaddrinfo (host, NULL, &hints, &found) == 0)
    {
      if (getnameinfo (found->ai_addr, found->ai_addrlen, name, sizeof name, NULL, 0,
                       NI_NAMEREQD) == 0)
        {
          if (_hbase_gss_forward_confirmed (name, found->ai_addr, found->ai_addrlen))
            result = g_ascii_strdown (name, -1);
          else
            g_debug ("the reverse lookup of %s gives %s, which does not resolve back to it: "
                     "_HOST stays %s", host, name, host);
        }
      freeaddrinfo (found);
      return result != NULL ? result : g_strdup (host);
    }
  hints.ai_flags = AI_CANONNAME;
  if (getaddrinfo (host, NULL, &hints, &found) == 0)
    {
      if (found->ai_canonname != NULL && *found->ai_canonname != '\0')
        result = g_ascii_strdown (found->ai_canonname, -1);
      freeaddrinfo (found);
    }
  return result != NULL ? result : g_ascii_strdown (host, -1);
}

gboolean
_hbase_gss_import_service_name (const char *configured, const char *default_service,
                                const char *host, gboolean canonicalize, gss_name_t *name,
                                char **display, GError **error)
{
  g_autofree char *service = NULL, *instance = NULL, *realm = NULL, *text = NULL;
  gss_buffer_desc buffer;
  OM_uint32 major, minor;
  gss_OID type;

  *name = GSS_C_NO_NAME;
  if (configured != NULL)
    {
      /* checked by the config: SERVICE/HOST[@REALM] */
      const char *slash = strchr (configured, '/');
      const char *at = strchr (slash + 1, '@');

      service = g_strndup (configured, (gsize) (slash - configured));
      instance = at != NULL ? g_strndup (slash + 1, (gsize) (at - slash - 1)) : g_strdup (slash + 1);
      realm = at != NULL ? g_strdup (at + 1) : NULL;
    }
  else
    {
      service = g_strdup (default_service);
      instance = g_strdup ("_HOST");
    }
  if (strcmp (instance, "_HOST") == 0)
    {
      g_free (instance);
      instance = canonicalize ? canonical_host (host) : g_ascii_strdown (host, -1);
    }
  if (realm != NULL)
    {
      /* an explicit realm: the exact principal */
      text = g_strdup_printf ("%s/%s@%s", service, instance, realm);
      type = GSS_KRB5_NT_PRINCIPAL_NAME;
    }
  else
    {
      /* the realm from the host (domain_realm, referrals), as for any
       * host-based service */
      text = g_strdup_printf ("%s@%s", service, instance);
      type = GSS_C_NT_HOSTBASED_SERVICE;
    }
  buffer.value = text;
  buffer.length = strlen (text);
  major = gss_import_name (&minor, &buffer, type, name);
  if (display != NULL)
    *display = realm != NULL ? g_strdup (text) : g_strdup_printf ("%s/%s", service, instance);
  if (GSS_ERROR (major))
    {
      _hbase_gss_set_error (error, major, minor, "bad gateway principal", text);
      *name = GSS_C_NO_NAME;
      if (display != NULL)
        g_clear_pointer (display, g_free);
      return FALSE;
    }
  return TRUE;
}

void
_hbase_gss_release_name (gss_name_t *name)
{
  OM_uint32 minor;

  if (*name != GSS_C_NO_NAME)
    gss_release_name (&minor, name);
  *name = GSS_C_NO_NAME;
}

char *
_hbase_gss_spnego_header (gss_cred_id_t credentials, gss_name_t name, const char *target,
                          const char *description, GError **error)
{
  gss_ctx_id_t context = GSS_C_NO_CONTEXT;
  gss_buffer_desc token = GSS_C_EMPTY_BUFFER;
  OM_uint32 major, minor, ignored;
  g_autofree char *encoded = NULL;

  /* one step, no mutual authentication: the token goes out with the
   * request, and the gateway's answer is not needed to trust the reply
   * (TLS does that on https) */
  major = gss_init_sec_context (&minor, credentials, &context, name, &spnego_oid, 0, 0,
                                GSS_C_NO_CHANNEL_BINDINGS, GSS_C_NO_BUFFER, NULL, &token,
                                NULL, NULL);
  if (context != GSS_C_NO_CONTEXT)
    gss_delete_sec_context (&ignored, &context, GSS_C_NO_BUFFER);
  if (GSS_ERROR (major) || token.length == 0)
    {
      g_autofree char *what = g_strdup_printf ("cannot authenticate to the gateway %s", description);

      gss_release_buffer (&ignored, &token);
      _hbase_gss_set_error (error, GSS_ERROR (major) ? major : GSS_S_FAILURE, minor, what, target);
      return NULL;
    }
  encoded = g_base64_encode (token.value, token.length);
  gss_release_buffer (&ignored, &token);
  return g_strconcat ("Negotiate ", encoded, NULL);
}

/* --- the KDC step, within the caller's deadline ---------------------------------------- */

typedef struct {
  gint refs;                 /* the caller's and the worker's */
  GMutex lock;
  GCond finished;
  gboolean done;
  gss_cred_id_t credentials;
  gss_name_t name;
  OM_uint32 wanted;
  gss_ctx_id_t context;
  gss_buffer_desc output;
  OM_uint32 major, minor, flags;
} InitJob;

static void
init_job_unref (InitJob *job)
{
  OM_uint32 ignored;

  if (!g_atomic_int_dec_and_test (&job->refs))
    return;
  /* whatever the caller did not take: all of it when it gave up waiting */
  if (job->context != GSS_C_NO_CONTEXT)
    gss_delete_sec_context (&ignored, &job->context, GSS_C_NO_BUFFER);
  gss_release_buffer (&ignored, &job->output);
  _hbase_gss_release_credentials (&job->credentials);
  _hbase_gss_release_name (&job->name);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->finished);
  g_free (job);
}

static void
init_job_run (InitJob *job)
{
  job->major = gss_init_sec_context (&job->minor, job->credentials, &job->context, job->name,
                                     &krb5_oid, job->wanted, 0, GSS_C_NO_CHANNEL_BINDINGS,
                                     GSS_C_NO_BUFFER, NULL, &job->output, &job->flags, NULL);
}

static gpointer
init_job_thread (gpointer data)
{
  InitJob *job = data;

  init_job_run (job);
  g_mutex_lock (&job->lock);
  job->done = TRUE;
  g_cond_signal (&job->finished);
  g_mutex_unlock (&job->lock);
  init_job_unref (job);
  return NULL;
}

gboolean
_hbase_gss_init_first (gss_cred_id_t *credentials, gss_name_t *name, OM_uint32 wanted,
                       gint64 deadline, GCancellable *cancellable, const char *what,
                       gss_ctx_id_t *context, gss_buffer_t output, OM_uint32 *flags,
                       OM_uint32 *major, OM_uint32 *minor, GError **error)
{
  InitJob *job = g_new0 (InitJob, 1);
  GThread *thread;
  gboolean done;

  job->refs = 1;
  g_mutex_init (&job->lock);
  g_cond_init (&job->finished);
  job->credentials = *credentials;
  job->name = *name;
  job->wanted = wanted;
  *credentials = GSS_C_NO_CREDENTIAL;
  *name = GSS_C_NO_NAME;

  g_atomic_int_inc (&job->refs);
  thread = g_thread_try_new ("hbase-glib-kdc", init_job_thread, job, NULL);
  if (thread == NULL)
    {
      /* no thread to spare: the step in this one, unbounded */
      job->refs = 1;
      init_job_run (job);
      job->done = TRUE;
    }
  else
    g_thread_unref (thread);

  g_mutex_lock (&job->lock);
  while (!job->done)
    {
      gint64 now = g_get_monotonic_time ();

      if (g_cancellable_is_cancelled (cancellable) || (deadline != 0 && now >= deadline))
        break;
      /* short slices, so a cancellation is noticed while waiting */
      g_cond_wait_until (&job->finished, &job->lock,
                         deadline != 0 ? MIN (deadline, now + 50 * G_TIME_SPAN_MILLISECOND)
                                       : now + 50 * G_TIME_SPAN_MILLISECOND);
    }
  done = job->done;
  if (done)
    {
      *credentials = g_steal_pointer (&job->credentials);
      *name = g_steal_pointer (&job->name);
      *context = g_steal_pointer (&job->context);
      *output = job->output;
      job->output = (gss_buffer_desc) GSS_C_EMPTY_BUFFER;
      *flags = job->flags;
      *major = job->major;
      *minor = job->minor;
    }
  g_mutex_unlock (&job->lock);
  init_job_unref (job);
  if (done)
    return TRUE;
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                 "%s: no answer from the Kerberos KDC within the deadline (getting a ticket "
                 "for the gateway; check the KDCs of krb5.conf and that they are reachable)",
                 what);
  return FALSE;
}
