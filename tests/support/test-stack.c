/* test-stack.c: locate and connect to the local stack for integration tests. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "test-stack.h"

#define DEFAULT_GATEWAYS \
  "127.0.0.1:9090:binary:buffered 127.0.0.1:9091:compact:buffered " \
  "127.0.0.1:9092:binary:framed 127.0.0.1:9093:compact:framed"

static void
test_gateway_free (gpointer data)
{
  TestGateway *gateway = data;

  g_free (gateway->host);
  g_free (gateway->label);
  g_free (gateway);
}

static TestGateway *
parse_gateway (const char *spec)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", -1);
  g_autoptr(GError) error = NULL;
  TestGateway *gateway;
  guint64 port;

  if (g_strv_length (parts) != 4 ||
      !g_ascii_string_to_unsigned (parts[1], 10, 1, 65535, &port, &error))
    g_error ("HBASE_GLIB_TEST_GATEWAYS: '%s' is not HOST:PORT:PROTOCOL:TRANSPORT", spec);

  gateway = g_new0 (TestGateway, 1);
  gateway->host = g_strdup (parts[0]);
  gateway->port = (guint) port;
  if (!hbase_protocol_from_string (parts[2], &gateway->protocol, &error) ||
      !hbase_transport_from_string (parts[3], &gateway->transport, &error))
    g_error ("HBASE_GLIB_TEST_GATEWAYS: %s", error->message);
  gateway->label = g_strdup_printf ("%s-%s", parts[2], parts[3]);
  return gateway;
}

GPtrArray *
test_stack_gateways (void)
{
  const char *list = g_getenv ("HBASE_GLIB_TEST_GATEWAYS");
  g_auto(GStrv) specs = g_strsplit_set (list != NULL ? list : DEFAULT_GATEWAYS, " ,", -1);
  GPtrArray *gateways = g_ptr_array_new_with_free_func (test_gateway_free);

  for (guint i = 0; specs[i] != NULL; i++)
    if (*specs[i] != '\0')
      g_ptr_array_add (gateways, parse_gateway (specs[i]));
  if (gateways->len == 0)
    g_error ("HBASE_GLIB_TEST_GATEWAYS names no gateway");
  return gateways;
}

gboolean
test_stack_required (void)
{
  return g_strcmp0 (g_getenv ("CI"), "true") == 0 ||
         g_strcmp0 (g_getenv ("HBASE_GLIB_TEST_REQUIRE_STACK"), "1") == 0;
}

HBaseConnection *
test_stack_connect (const TestGateway *gateway)
{
  g_autoptr(GError) error = NULL;
  HBaseConnection *connection;
  g_autofree char *why = NULL;

  connection = hbase_connection_open (gateway->host, gateway->port,
                                      gateway->protocol, gateway->transport, &error);
  if (connection != NULL)
    return connection;

  why = g_strdup_printf ("local stack unreachable (%s); start it with scripts/stack.sh start",
                         error->message);
  if (test_stack_required ())
    {
      g_test_message ("%s", why);
      g_test_fail ();
    }
  else
    g_test_skip (why);
  return NULL;
}

char *
test_stack_unique_name (const char *prefix)
{
  static gint counter;

  return g_strdup_printf ("%s_%ld_%d", prefix, (long) getpid (), g_atomic_int_add (&counter, 1));
}

guint
test_closed_port (void)
{
  struct sockaddr_in addr = { 0 };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM, 0);

  g_assert_cmpint (fd, >=, 0);
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &addr, &len), ==, 0);
  close (fd);
  return ntohs (addr.sin_port);
}
