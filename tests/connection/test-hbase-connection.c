/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for src/connection/hbase-connection.c that need no server. */
#include "config.h"

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

static void
test_free_null (void)
{
  hbase_connection_free (NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/connection/protocol-names", test_protocol_names);
  g_test_add_func ("/connection/transport-names", test_transport_names);
  g_test_add_func ("/connection/open-rejects-bad-arguments", test_open_rejects_bad_arguments);
  g_test_add_func ("/connection/open-refused", test_open_refused);
  g_test_add_func ("/connection/free-null", test_free_null);
  return g_test_run ();
}
