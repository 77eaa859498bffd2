/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-http-spnego.h (private): Kerberos on an HTTP channel
 * (hbase-http.c): the per-request headers of SPNEGO and doAs. */
#ifndef HBASE_HTTP_SPNEGO_H
#define HBASE_HTTP_SPNEGO_H

#include <curl/curl.h>
#include <gio/gio.h>

#include "hbase-config-private.h"

G_BEGIN_DECLS

typedef struct _HBaseHttpSpnego HBaseHttpSpnego;

/* For the gateway on @host (the URL's, without brackets: it gives _HOST)
 * with @settings (copied).  Nothing is acquired yet: credentials come
 * with the first request. */
HBaseHttpSpnego   *_hbase_http_spnego_new          (const HBaseKerberosSettings *settings,
                                                    const char                  *host);
void               _hbase_http_spnego_free         (HBaseHttpSpnego *spnego);

/* A copy of @base plus "Authorization: Negotiate <fresh token>" and, with
 * a proxy user, "doAs: <user>".  Free with _hbase_http_spnego_free_headers(). */
struct curl_slist *_hbase_http_spnego_headers      (HBaseHttpSpnego         *spnego,
                                                    const struct curl_slist *base,
                                                    const char              *description,
                                                    GError                 **error);
/* Frees @headers, overwriting them first (the token is a credential
 * until the gateway has seen it). */
void               _hbase_http_spnego_free_headers (struct curl_slist *headers);

/* The gateway's principal as text once known (else the setting or
 * "HTTP/_HOST"), and the proxy user (or NULL): for messages. */
const char        *_hbase_http_spnego_target       (HBaseHttpSpnego *spnego);
const char        *_hbase_http_spnego_proxy_user   (HBaseHttpSpnego *spnego);

G_END_DECLS

#endif /* HBASE_HTTP_SPNEGO_H */
