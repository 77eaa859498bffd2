/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-transport.h (private): hbase-glib's own Thrift transport.
 *
 * One TCP connection to a gateway, buffered or framed, under the generated
 * protocol code.  Unlike Thrift c_glib 0.17's socket and transports it
 * reads ahead into one buffer consumed by offset (linear in the payload),
 * sends with MSG_NOSIGNAL, has a connect timeout and a per-call deadline,
 * polls a GCancellable, and can tell a socket the gateway closed.
 * Failures are HBASE_ERROR (CONNECTION, TIMEOUT, PROTOCOL) or
 * G_IO_ERROR_CANCELLED.
 */
#ifndef HBASE_TRANSPORT_H
#define HBASE_TRANSPORT_H

#include <gio/gio.h>
#include <thrift/c_glib/transport/thrift_transport.h>

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ThriftTransport, g_object_unref)

#define HBASE_TYPE_SOCKET_TRANSPORT (_hbase_socket_transport_get_type ())
G_DECLARE_FINAL_TYPE (HBaseSocketTransport, _hbase_socket_transport, HBASE, SOCKET_TRANSPORT,
                      ThriftTransport)

/* Largest reply accepted (and largest frame): above this the reply is
 * refused rather than buffered. */
#define HBASE_TRANSPORT_DEFAULT_MAX_MESSAGE (256u * 1024 * 1024)

/* @connect_timeout_ms: 0 = no limit of its own (a deadline still applies) */
HBaseSocketTransport *_hbase_socket_transport_new (const char *host,
                                                   guint       port,
                                                   gboolean    framed,
                                                   guint       connect_timeout_ms);

/* The same over HTTP (or HTTPS with @tls) to a gateway in HTTP mode:
 * every request is one POST to @url (hbase-http.h). */
typedef struct _HBaseTlsSettings HBaseTlsSettings;
typedef struct _HBaseKerberosSettings HBaseKerberosSettings;
/* @kerberos (NULL: none): a fresh SPNEGO token with every request, and
 * the proxy user's doAs header */
HBaseSocketTransport *_hbase_socket_transport_new_http (const char                  *url,
                                                        const char                  *host,
                                                        const HBaseTlsSettings      *tls,
                                                        const HBaseKerberosSettings *kerberos,
                                                        guint                        connect_timeout_ms);

/* Socket mode: authenticate with SASL GSSAPI (Kerberos) right after each
 * connect, to the service principal of @host, and from then on send and
 * receive SASL frames (signed or sealed as the negotiated QOP says).
 * @kerberos is copied. */
void _hbase_socket_transport_set_kerberos (HBaseSocketTransport        *self,
                                           const char                  *host,
                                           const HBaseKerberosSettings *kerberos);

/* The protection level the SASL handshake agreed (an HBaseKerberosQop
 * level; 0: not connected, or no Kerberos). */
guint    _hbase_socket_transport_get_qop            (HBaseSocketTransport *self);

/* Text naming the peer in error messages, e.g. "127.0.0.1:9090 (binary/buffered)". */
void     _hbase_socket_transport_set_description (HBaseSocketTransport *self,
                                                  const char           *description);

/* Every request must be answered within @timeout_ms of its first byte
 * (0 = no limit), unless an explicit deadline is set. */
void     _hbase_socket_transport_set_request_timeout (HBaseSocketTransport *self,
                                                      guint                 timeout_ms);

/* Connects (all addresses of the host in turn) by @deadline (monotonic µs;
 * 0 = the connect timeout from now). */
gboolean _hbase_socket_transport_connect       (HBaseSocketTransport *self,
                                                gint64                deadline,
                                                GCancellable         *cancellable,
                                                GError              **error);

/* The deadline (monotonic µs, 0 = none) and cancellable for the reads and
 * writes of the next calls. */
void     _hbase_socket_transport_set_deadline   (HBaseSocketTransport *self,
                                                 gint64                deadline);
void     _hbase_socket_transport_set_cancellable (HBaseSocketTransport *self,
                                                  GCancellable         *cancellable);

/* TRUE if connected, nothing is left unread and the peer has not closed
 * or reset the connection: safe to send a request on. */
gboolean _hbase_socket_transport_is_alive      (HBaseSocketTransport *self);

/* The same without asking the kernel (no syscall): connected, nothing
 * read ahead or half written.  Whether the peer closed is not known. */
gboolean _hbase_socket_transport_is_idle       (HBaseSocketTransport *self);

/* Bytes handed to the kernel over the transport's life (reconnects
 * included): when unchanged across a failed call, the request never left
 * this process. */
guint64  _hbase_socket_transport_get_bytes_sent (HBaseSocketTransport *self);

/* Bytes received from the kernel over the transport's life: when
 * unchanged across a failed call, not a byte of a reply came back. */
guint64  _hbase_socket_transport_get_bytes_received (HBaseSocketTransport *self);

/* When the last reply was read completely (monotonic µs), 0 if none has
 * been on the current socket. */
gint64   _hbase_socket_transport_get_last_reply_time (HBaseSocketTransport *self);

/* Marks @transport (when it is an HBaseSocketTransport) out of step: a
 * read, write or decoding failed mid-message.  It is then never idle, so
 * the pool closes it instead of reusing it. */
void     _hbase_socket_transport_mark_failed    (ThriftTransport      *transport);
gboolean _hbase_socket_transport_has_failed     (HBaseSocketTransport *self);

/* Largest reply (and frame) accepted; HBASE_TRANSPORT_DEFAULT_MAX_MESSAGE
 * by default. */
void     _hbase_socket_transport_set_max_message (HBaseSocketTransport *self,
                                                  gsize                 max_message);

/* A transport over an already connected socket @fd (made non-blocking;
 * closed with the transport), for tests and fuzzing. */
HBaseSocketTransport *_hbase_socket_transport_new_for_fd (int      fd,
                                                          gboolean framed);

/* What ThriftTransport's read_all and write do, called directly: the
 * hand-written binary readers and writers (hbase-wire.h) skip the class
 * dispatch and type checks, which cost more than the copy itself. */
gint32   _hbase_socket_transport_read           (HBaseSocketTransport *self,
                                                 gpointer              buf,
                                                 guint32               len,
                                                 GError              **error);
void     _hbase_socket_transport_write          (HBaseSocketTransport *self,
                                                 gconstpointer         buf,
                                                 guint32               len);
/* Room for @len more bytes of the request being written, to fill in
 * place (what _hbase_socket_transport_write() would copy there). */
guint8  *_hbase_socket_transport_reserve        (HBaseSocketTransport *self,
                                                 guint32               len);

/* Syscall counters, for benchmarks and tests. */
guint64  _hbase_socket_transport_get_recv_calls (HBaseSocketTransport *self);
guint64  _hbase_socket_transport_get_send_calls (HBaseSocketTransport *self);
guint64  _hbase_socket_transport_get_poll_calls (HBaseSocketTransport *self);

G_END_DECLS

#endif /* HBASE_TRANSPORT_H */
