/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-gss.h (private): Kerberos through MIT GSSAPI, shared by the two
 * secured paths to a gateway: SASL GSSAPI on a socket (hbase-sasl.c) and
 * SPNEGO on HTTP (hbase-http.c).
 *
 * Credentials come from the configured keytab (logged in into a private
 * in-memory credentials cache, which GSSAPI renews from the keytab before
 * the ticket expires: long-running processes need no re-login of their
 * own), from a named credentials cache, or from the default one
 * (KRB5CCNAME, kinit).  Every failure is HBASE_ERROR_AUTHENTICATION with
 * GSSAPI's own text, led by what it means for the user. */
#ifndef HBASE_GSS_H
#define HBASE_GSS_H

#include <sys/socket.h>

#include <gio/gio.h>
#include <gssapi/gssapi.h>

#include "hbase-config-private.h"

G_BEGIN_DECLS

/* The client's credentials for @settings (a keytab login, a named cache or
 * the default cache, with the configured principal if any): release with
 * _hbase_gss_release_credentials().  Fails when there are none, they have
 * expired, or the keytab or principal is unusable. */
gboolean _hbase_gss_acquire_credentials (const HBaseKerberosSettings *settings,
                                         gss_cred_id_t               *credentials,
                                         GError                     **error);
void     _hbase_gss_release_credentials (gss_cred_id_t *credentials);

/* The gateway's service name for @host from a principal setting:
 * @configured ("SERVICE/HOST[@REALM]", HOST possibly "_HOST"), or
 * @default_service ("hbase", "HTTP") with _HOST.  _HOST becomes @host's
 * canonical name when @canonicalize (lower case; a numeric address is
 * looked up in reverse, and the name kept only if it resolves back to the
 * address), as the Java client does, else @host in lower case.  Release
 * with _hbase_gss_release_name(); @display (optional) gets the principal
 * as text, for messages. */
gboolean _hbase_gss_import_service_name (const char  *configured,
                                         const char  *default_service,
                                         const char  *host,
                                         gboolean     canonicalize,
                                         gss_name_t  *name,
                                         char       **display,
                                         GError     **error);
void     _hbase_gss_release_name        (gss_name_t *name);

/* Whether @name resolves to the address @address (of @length bytes):
 * the forward confirmation of a reverse lookup. */
gboolean _hbase_gss_forward_confirmed   (const char            *name,
                                         const struct sockaddr *address,
                                         gsize                  length);

/* The first step of a Kerberos context with the service @name as the
 * client of @credentials: gss_init_sec_context() without an input token,
 * @wanted flags, the krb5 mechanism.  It is the step that may call the
 * KDC (for a service ticket; with a keytab, to log in first), and MIT's
 * library waits for a KDC by its own timeouts (krb5.conf), seconds per KDC
 * that no deadline of ours shortens.  So it runs in a worker thread, and
 * the caller stops waiting at @deadline (monotonic µs, 0: none) or when
 * @cancellable is cancelled: FALSE, with HBASE_ERROR_TIMEOUT or
 * G_IO_ERROR_CANCELLED; the worker then finishes on its own and releases
 * what it holds, @credentials and @name included (set to none here).
 * TRUE when the step ran: its status in *@major and *@minor, the context
 * in *@context, the token in @output, the flags in *@flags. */
gboolean _hbase_gss_init_first          (gss_cred_id_t  *credentials,
                                         gss_name_t     *name,
                                         OM_uint32       wanted,
                                         gint64          deadline,
                                         GCancellable   *cancellable,
                                         const char     *what,
                                         gss_ctx_id_t   *context,
                                         gss_buffer_t    output,
                                         OM_uint32      *flags,
                                         OM_uint32      *major,
                                         OM_uint32      *minor,
                                         GError        **error);

/* Sets @error (HBASE_ERROR_AUTHENTICATION) from a GSSAPI failure: @what
 * says what was being done ("authenticating to the gateway X"), @target
 * the service principal if known.  Names the usual causes: no
 * credentials, expired ones, a principal the KDC does not know. */
void     _hbase_gss_set_error           (GError    **error,
                                         OM_uint32   major,
                                         OM_uint32   minor,
                                         const char *what,
                                         const char *target);

/* A fresh "Negotiate <base64 token>" value for an HTTP Authorization
 * header, for the service @name (made with _hbase_gss_import_service_name)
 * as the client of @credentials.  Each call makes a new token: the
 * gateway refuses one it has seen before. */
char    *_hbase_gss_spnego_header       (gss_cred_id_t credentials,
                                         gss_name_t    name,
                                         const char   *target,
                                         const char   *description,
                                         GError      **error);

G_END_DECLS

#endif /* HBASE_GSS_H */
