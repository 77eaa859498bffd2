/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-connection.c: one connection to a Thrift2 gateway: hbase-glib's
 * socket transport (buffered or framed) under the generated binary or
 * compact protocol (checked, hbase-protocol.h), and the generated
 * THBaseService client on top. */
#include "config.h"

#include "hbase-protocol.h"

#include "hbase-connection-private.h"

struct _HBaseConnection {
  GObject parent_instance;
  char *host;
  guint port;
  HBaseSocketTransport *transport;
  ThriftProtocol *protocol;
  HbaseThriftTHBaseServiceClient *client;
  guint gateway;   /* index of its gateway in the client's configuration */
};

G_DEFINE_FINAL_TYPE (HBaseConnection, hbase_connection, G_TYPE_OBJECT)

/* Closes the connection: the generated client and protocol go first, the
 * transport (which owns the socket) last. */
static void
hbase_connection_finalize (GObject *object)
{
  HBaseConnection *connection = HBASE_CONNECTION (object);

  g_clear_object (&connection->client);
  g_clear_object (&connection->protocol);   /* hbase-protocol.c frees what 0.17 leaks */
  g_clear_object (&connection->transport);   /* closes the socket */
  g_free (connection->host);
  G_OBJECT_CLASS (hbase_connection_parent_class)->finalize (object);
}

static void
hbase_connection_class_init (HBaseConnectionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hbase_connection_finalize;
}

static void
hbase_connection_init (HBaseConnection *connection G_GNUC_UNUSED)
{
}

static const char *const protocol_names[] = { "binary", "compact" };
static const char *const transport_names[] = { "buffered", "framed" };

/* Index of @name in @names, or -1. */
static int
lookup_name (const char *name, const char *const *names, gsize n_names)
{
  for (gsize i = 0; name != NULL && i < n_names; i++)
    if (g_ascii_strcasecmp (name, names[i]) == 0)
      return (int) i;
  return -1;
}

/**
 * hbase_protocol_from_string:
 * @name: "binary" or "compact" (case-insensitive)
 * @protocol: (out) (optional): the protocol; %NULL to only check @name
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Parses the name of a Thrift protocol, as used in key files and environment
 * variables.  On error @protocol is left untouched.
 *
 * Returns: %TRUE if @name names a protocol.
 *
 * Since: 0.1
 */
gboolean
hbase_protocol_from_string (const char *name, HBaseProtocol *protocol, GError **error)
{
  int i = lookup_name (name, protocol_names, G_N_ELEMENTS (protocol_names));

  if (i < 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "unknown Thrift protocol '%s' (expected binary or compact)",
                   name != NULL ? name : "(null)");
      return FALSE;
    }
  if (protocol != NULL)
    *protocol = (HBaseProtocol) i;
  return TRUE;
}

/**
 * hbase_protocol_to_string:
 * @protocol: a protocol
 *
 * Gets the name of @protocol, as hbase_protocol_from_string() reads it.
 *
 * Returns: (transfer none): "binary" or "compact", or "invalid".
 *
 * Since: 0.1
 */
const char *
hbase_protocol_to_string (HBaseProtocol protocol)
{
  return (guint) protocol < G_N_ELEMENTS (protocol_names) ? protocol_names[protocol] : "invalid";
}

/**
 * hbase_transport_from_string:
 * @name: "buffered" or "framed" (case-insensitive)
 * @transport: (out) (optional): the transport; %NULL to only check @name
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Parses the name of a Thrift transport, as used in key files and environment
 * variables.  On error @transport is left untouched.
 *
 * Returns: %TRUE if @name names a transport.
 *
 * Since: 0.1
 */
gboolean
hbase_transport_from_string (const char *name, HBaseTransport *transport, GError **error)
{
  int i = lookup_name (name, transport_names, G_N_ELEMENTS (transport_names));

  if (i < 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "unknown Thrift transport '%s' (expected buffered or framed)",
                   name != NULL ? name : "(null)");
      return FALSE;
    }
  if (transport != NULL)
    *transport = (HBaseTransport) i;
  return TRUE;
}

/**
 * hbase_transport_to_string:
 * @transport: a transport
 *
 * Gets the name of @transport, as hbase_transport_from_string() reads it.
 *
 * Returns: (transfer none): "buffered" or "framed", or "invalid".
 *
 * Since: 0.1
 */
const char *
hbase_transport_to_string (HBaseTransport transport)
{
  return (guint) transport < G_N_ELEMENTS (transport_names) ? transport_names[transport] : "invalid";
}

/**
 * hbase_connection_open:
 * @host: the gateway's host name, IPv4 or IPv6 address
 * @port: the gateway's port, 1 to 65535
 * @protocol: the protocol the gateway speaks
 * @transport: the transport the gateway speaks
 * @error: return location for an error
 *
 * Connects to a Thrift2 gateway, giving up after 5 s.  The protocol and
 * transport must be the gateway's: the Thrift protocol has no negotiation
 * (a mismatch shows as the gateway closing the connection or never
 * replying, and the error says so).  Every call on the connection must be
 * answered within 60 s (see hbase_connection_set_timeout()).
 *
 * An #HBaseClient adds pooling, retries and reconnection on top.  A gateway
 * in HTTP mode (Thrift over HTTP or HTTPS) is reached through a client
 * whose config names it by URL (hbase_config_set_gateways()), not here.
 *
 * Returns: (transfer full) (nullable): the connection, or %NULL with
 *   @error set (%HBASE_ERROR_ILLEGAL_ARGUMENT, %HBASE_ERROR_CONNECTION or
 *   %HBASE_ERROR_TIMEOUT).
 *
 * Since: 0.1
 */
HBaseConnection *
hbase_connection_open (const char      *host,
                       guint            port,
                       HBaseProtocol    protocol,
                       HBaseTransport   transport,
                       GError         **error)
{
  return _hbase_connection_open_full (host, port, NULL, NULL, NULL, protocol, transport,
                                      HBASE_DEFAULT_CONNECT_TIMEOUT_MS,
                                      HBASE_TRANSPORT_DEFAULT_MAX_MESSAGE, 0, NULL, error);
}

HBaseConnection *
_hbase_connection_open_full (const char      *host,
                             guint            port,
                             const char      *url,
                             const HBaseTlsSettings *tls,
                             const HBaseKerberosSettings *kerberos,
                             HBaseProtocol    protocol,
                             HBaseTransport   transport,
                             guint            connect_timeout_ms,
                             gsize            max_message,
                             gint64           deadline,
                             GCancellable    *cancellable,
                             GError         **error)
{
  g_autoptr(HBaseConnection) connection = NULL;
  g_autofree char *description = NULL;

  if (host == NULL || *host == '\0')
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "gateway host must not be empty");
      return NULL;
    }
  if (port == 0 || port > 65535)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "gateway port %u is out of range (1-65535)", port);
      return NULL;
    }
  if ((guint) protocol >= G_N_ELEMENTS (protocol_names) ||
      (guint) transport >= G_N_ELEMENTS (transport_names))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "invalid protocol (%d) or transport (%d)", (int) protocol, (int) transport);
      return NULL;
    }

  if (url != NULL && (protocol != HBASE_PROTOCOL_BINARY || transport != HBASE_TRANSPORT_BUFFERED))
    {
      /* the gateway's HTTP mode is always TBinaryProtocol, one message per POST */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "the gateway %s is in HTTP mode, which speaks only the binary protocol "
                   "unframed; %s/%s was configured", url, protocol_names[protocol],
                   transport_names[transport]);
      return NULL;
    }

  if (kerberos != NULL && url == NULL && transport != HBASE_TRANSPORT_BUFFERED)
    {
      /* SASL frames every message itself, over an unframed gateway */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "Kerberos gateways speak SASL, which frames each message itself: set the "
                   "transport to buffered for %s:%u", host, port);
      return NULL;
    }

  if (kerberos != NULL && url != NULL && g_ascii_strncasecmp (url, "http://", 7) == 0 &&
      (tls == NULL || !tls->allow_insecure_http))
    {
      /* an SPNEGO token over plain HTTP has no channel binding: whoever
       * reads it can replay it (and the doAs beside it) while it lasts */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "the gateway %s is plain HTTP, over which a Kerberos token%s can be read and "
                   "replayed by anyone on the path: use an https:// URL, or set "
                   "allow-insecure-http where the path is trusted", url,
                   kerberos->proxy_user != NULL ? " and the proxy user" : "");
      return NULL;
    }

  if (kerberos != NULL && url == NULL && kerberos->proxy_user != NULL)
    {
      /* the gateway reads doAs only in HTTP mode (with
       * hbase.thrift.support.proxyuser and no HTTP mode it logs "Fail to
       * enable the doAs feature"), and this client sends no SASL
       * authorization id: refused here rather than calls run as the
       * wrong user */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "the gateway %s:%u speaks SASL, which cannot act for another user: the "
                   "proxy user '%s' needs an HTTP gateway", host, port, kerberos->proxy_user);
      return NULL;
    }

  connection = g_object_new (HBASE_TYPE_CONNECTION, NULL);
  connection->host = g_strdup (host);
  connection->port = port;
  if (url != NULL)
    {
      connection->transport = _hbase_socket_transport_new_http (url, host, tls, kerberos,
                                                                connect_timeout_ms);
      description = g_strdup (url);
    }
  else
    {
      connection->transport = _hbase_socket_transport_new (host, port,
                                                           transport == HBASE_TRANSPORT_FRAMED,
                                                           connect_timeout_ms);
      description = g_strdup_printf ("%s:%u (%s/%s)", host, port, protocol_names[protocol],
                                     transport_names[transport]);
      /* SASL GSSAPI on every new socket (the HTTP channel has its own
       * SPNEGO, given above) */
      if (kerberos != NULL)
        _hbase_socket_transport_set_kerberos (connection->transport, host, kerberos);
    }
  _hbase_socket_transport_set_description (connection->transport, description);
  _hbase_socket_transport_set_request_timeout (connection->transport,
                                               HBASE_DEFAULT_OPERATION_TIMEOUT_MS);
  _hbase_socket_transport_set_max_message (connection->transport, max_message);
  /* every length a reply announces is checked (hbase-protocol.h) */
  connection->protocol = _hbase_protocol_new (protocol, THRIFT_TRANSPORT (connection->transport),
                                              max_message);
  connection->client = g_object_new (HBASE_THRIFT_TYPE_T_H_BASE_SERVICE_CLIENT,
                                     "input_protocol", connection->protocol,
                                     "output_protocol", connection->protocol, NULL);

  if (!_hbase_socket_transport_connect (connection->transport, deadline, cancellable, error))
    return NULL;
  return g_steal_pointer (&connection);
}

/**
 * hbase_connection_set_timeout:
 * @connection: a connection
 * @milliseconds: how long a call may take, from its first byte sent to its
 *   reply read; 0 for no limit
 *
 * A call that takes longer fails with %HBASE_ERROR_TIMEOUT, and the
 * connection is then unusable (a late reply would be mistaken for the next
 * one's): drop it.
 *
 * Since: 0.1
 */
void
hbase_connection_set_timeout (HBaseConnection *connection, guint milliseconds)
{
  g_return_if_fail (HBASE_IS_CONNECTION (connection));
  if (connection->transport == NULL)   /* made by g_object_new(): never opened */
    return;
  _hbase_socket_transport_set_request_timeout (connection->transport, milliseconds);
}

HBaseSocketTransport *
_hbase_connection_get_transport (HBaseConnection *connection)
{
  return connection->transport;
}

/**
 * hbase_connection_get_service:
 * @connection: a connection
 *
 * The generated THBaseService client on this connection, for the typed
 * hbase_thrift_t_h_base_service_if_*() calls.  Turn their failures into
 * %HBASE_ERROR with hbase_error_take_call_error().
 *
 * Returns: (transfer none) (nullable): the client, valid while the
 *   connection lives; %NULL for a connection made by g_object_new(), which
 *   is never opened (use hbase_connection_open())
 *
 * Since: 0.1
 */
HbaseThriftTHBaseServiceIf *
hbase_connection_get_service (HBaseConnection *connection)
{
  g_return_val_if_fail (HBASE_IS_CONNECTION (connection), NULL);
  if (connection->client == NULL)
    return NULL;
  return HBASE_THRIFT_T_H_BASE_SERVICE_IF (connection->client);
}

/**
 * hbase_connection_get_host:
 * @connection: a connection
 *
 * Gets the host @connection was opened to.  The string belongs to
 * @connection.
 *
 * Returns: (transfer none) (nullable): the host the connection was opened
 *   to; %NULL for a connection made by g_object_new(), which is never opened
 *
 * Since: 0.1
 */
const char *
hbase_connection_get_host (HBaseConnection *connection)
{
  g_return_val_if_fail (HBASE_IS_CONNECTION (connection), NULL);
  return connection->host;
}

/**
 * hbase_connection_get_port:
 * @connection: a connection
 *
 * Gets the port @connection was opened to.
 *
 * Returns: the port the connection was opened to; 0 for a connection made
 *   by g_object_new(), which is never opened
 *
 * Since: 0.1
 */
guint
hbase_connection_get_port (HBaseConnection *connection)
{
  g_return_val_if_fail (HBASE_IS_CONNECTION (connection), 0);
  return connection->port;
}

void
_hbase_connection_set_gateway (HBaseConnection *connection, guint gateway)
{
  connection->gateway = gateway;
}

guint
_hbase_connection_get_gateway (HBaseConnection *connection)
{
  return connection->gateway;
}
