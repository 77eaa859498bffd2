/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for src/connection/hbase-connection.c that need no server. */
#include "config.h"

#include <hbase-glib/hbase-glib-thrift.h>

#include "../support/test-stack.h"

static void
test_protocol_names (void)
{
  HBaseProtocol protocol = HBASE_PROTOCOL_BINARY;
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_protocol_from_string ("compact", &protocol, &error));
  g_assert_no_error (error);
  g_assert_cmpint (protocol, ==, HBASE_PROTOCOL_COMPACT);
  g_assert_true (hbase_protocol_from_string ("BINARY", &protocol, &error));
  g_assert_cmpint (protocol, ==, HBASE_PROTOCOL_BINARY);
  g_assert_cmpstr (hbase_protocol_to_string (HBASE_PROTOCOL_COMPACT), ==, "compact");
  g_assert_cmpstr (hbase_protocol_to_string ((HBaseProtocol) 7), ==, "invalid");

  g_assert_false (hbase_protocol_from_string ("json", &protocol, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "'json'"));
  g_clear_error (&error);
  g_assert_false (hbase_protocol_from_string (NULL, &protocol, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  /* no out-argument: only checks the name */
  g_assert_true (hbase_protocol_from_string ("compact", NULL, &error));
  g_assert_no_error (error);
  g_assert_false (hbase_protocol_from_string ("json", NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
}

static void
test_transport_names (void)
{
  HBaseTransport transport = HBASE_TRANSPORT_BUFFERED;
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_transport_from_string ("framed", &transport, &error));
  g_assert_cmpint (transport, ==, HBASE_TRANSPORT_FRAMED);
  g_assert_cmpstr (hbase_transport_to_string (HBASE_TRANSPORT_BUFFERED), ==, "buffered");
  g_assert_false (hbase_transport_from_string ("http", &transport, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "'http'"));
  g_clear_error (&error);

  /* no out-argument: only checks the name */
  g_assert_true (hbase_transport_from_string ("buffered", NULL, &error));
  g_assert_no_error (error);
  g_assert_false (hbase_transport_from_string ("http", NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
}

static void
test_open_rejects_bad_arguments (void)
{
  struct {
    const char *host;
    guint port;
    int protocol;
    int transport;
  } cases[] = {
    { NULL, 9090, HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED },
    { "", 9090, HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED },
    { "127.0.0.1", 0, HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED },
    { "127.0.0.1", 65536, HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED },
    { "127.0.0.1", 9090, 2, HBASE_TRANSPORT_BUFFERED },
    { "127.0.0.1", 9090, HBASE_PROTOCOL_BINARY, -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      HBaseConnection *connection =
        hbase_connection_open (cases[i].host, cases[i].port, (HBaseProtocol) cases[i].protocol,
                               (HBaseTransport) cases[i].transport, &error);

      g_assert_null (connection);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    }
}

static void
test_open_refused (void)
{
  guint port = test_closed_port ();
  g_autoptr(GError) error = NULL;
  g_autofree char *where = g_strdup_printf ("127.0.0.1:%u", port);
  HBaseConnection *connection =
    hbase_connection_open ("127.0.0.1", port, HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_FRAMED, &error);

  g_assert_null (connection);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, where));
}

/* A connection says where it was opened to. */
static void
test_host_and_port (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseConnection) connection = NULL;
  guint16 port = g_socket_listener_add_any_inet_port (listener, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (port, >, 0);
  connection = hbase_connection_open ("127.0.0.1", port, HBASE_PROTOCOL_COMPACT, HBASE_TRANSPORT_FRAMED, &error);
  g_assert_no_error (error);
  g_assert_nonnull (connection);
  g_assert_cmpstr (hbase_connection_get_host (connection), ==, "127.0.0.1");
  g_assert_cmpuint (hbase_connection_get_port (connection), ==, port);
  g_assert_true (HBASE_IS_CONNECTION (connection));
}

/* A call to a server that accepts the connection and never answers fails
 * once the timeout set on the connection has passed (the default is a
 * minute). */
static void
test_set_timeout (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseConnection) connection = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  guint16 port = g_socket_listener_add_any_inet_port (listener, NULL, &error);
  gint64 started;
  double seconds;

  g_assert_no_error (error);
  connection = hbase_connection_open ("127.0.0.1", port, HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED, &error);
  g_assert_no_error (error);
  hbase_connection_set_timeout (connection, 200);
  started = g_get_monotonic_time ();
  g_assert_false (hbase_thrift_t_h_base_service_if_list_namespaces (hbase_connection_get_service (connection),
                                                                     &names, &io, &error));
  seconds = (double) (g_get_monotonic_time () - started) / G_USEC_PER_SEC;
  g_assert_nonnull (error);
  g_assert_cmpfloat (seconds, >=, 0.15);
  g_assert_cmpfloat (seconds, <, 10);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/connection/protocol-names", test_protocol_names);
  g_test_add_func ("/connection/transport-names", test_transport_names);
  g_test_add_func ("/connection/open-rejects-bad-arguments", test_open_rejects_bad_arguments);
  g_test_add_func ("/connection/open-refused", test_open_refused);
  g_test_add_func ("/connection/host-and-port", test_host_and_port);
  g_test_add_func ("/connection/set-timeout", test_set_timeout);
  return g_test_run ();
}
