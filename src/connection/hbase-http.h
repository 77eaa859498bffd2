/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-http.h (private): one HTTP or HTTPS channel to a gateway in HTTP
 * mode, on libcurl: one easy handle (and its kept-alive connection) in a
 * multi handle of its own, so that a call waits in curl_multi_poll() on
 * the connection and the GCancellable together and ends at its deadline.
 * The socket transport (hbase-transport.c) uses it in place of its
 * socket: one Thrift message per POST, the reply is the response body. */
#ifndef HBASE_HTTP_H
#define HBASE_HTTP_H

#include <gio/gio.h>

#include "hbase-config-private.h"

G_BEGIN_DECLS

typedef struct _HBaseHttpChannel HBaseHttpChannel;

/* Largest response header block accepted (the gateway's Jetty allows 64 KiB). */
#define HBASE_HTTP_MAX_HEADER_BYTES (64u * 1024)

/* @url: "http(s)://HOST:PORT/PATH"; @host: its HOST without brackets
 * (Kerberos asks for HTTP/<canonical HOST>); @tls: the settings of https (copied);
 * @connect_timeout_ms: 0 = none of its own.  Nothing is sent yet: curl
 * connects on the first POST.  @kerberos: NULL, or a fresh SPNEGO token
 * on every request and the proxy user's doAs header (copied). */
HBaseHttpChannel *_hbase_http_channel_new  (const char                  *url,
                                            const char                  *host,
                                            const HBaseTlsSettings      *tls,
                                            const HBaseKerberosSettings *kerberos,
                                            guint                        connect_timeout_ms);
void              _hbase_http_channel_free (HBaseHttpChannel       *channel);

/* POSTs @body and returns the response body in @reply and @reply_length
 * (free with g_free(); NULL for an empty body), refusing one larger than
 * @max_reply.  @deadline: monotonic µs, 0 = none.  Adds
 * what went out (the body bytes curl took) and came back (headers and body)
 * to the counters.  Errors name @description (the gateway). */
gboolean          _hbase_http_channel_post (HBaseHttpChannel       *channel,
                                            const guint8           *body,
                                            gsize                   length,
                                            gsize                   max_reply,
                                            gint64                  deadline,
                                            GCancellable           *cancellable,
                                            const char             *description,
                                            guint8                **reply,
                                            gsize                  *reply_length,
                                            guint64                *bytes_sent,
                                            guint64                *bytes_received,
                                            GError                **error);

/* FALSE when the kept-alive connection is known to be closed by the peer
 * (no syscall beyond a poll(); TRUE if no connection is open yet: curl
 * opens one on the next POST). */
gboolean          _hbase_http_channel_is_alive (HBaseHttpChannel *channel);

/* What the channel makes of a response, without a connection (tests and
 * the fuzz harness): @headers go to its header callback a line at a time
 * (each up to and including its '\n', as libcurl hands them over), then
 * @body to its body callback, with a reply limit of @max_reply bytes.
 * Returns whether the callbacks took every byte (FALSE: the headers or the
 * body are too large), and the status line, the scheme of
 * WWW-Authenticate and the message of the error page (NULL if none) it
 * kept; free them with g_free(). */
gboolean          _hbase_http_parse_response (const char   *headers,
                                              gsize         headers_len,
                                              const guint8 *body,
                                              gsize         body_len,
                                              gsize         max_reply,
                                              char        **status_line,
                                              char        **www_authenticate,
                                              char        **message);

G_END_DECLS

#endif /* HBASE_HTTP_H */
