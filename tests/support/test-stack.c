/* SPDX-License-Identifier: Apache-2.0 */
/* test-stack.c: locate and connect to the local stack for integration tests. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "test-env.h"
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
  const char *ci = g_getenv ("CI");

  /* CI belongs to the CI system (true on most, 1 on some): any yes-word */
  if (ci != NULL && (g_ascii_strcasecmp (ci, "true") == 0 || g_ascii_strcasecmp (ci, "1") == 0 ||
                     g_ascii_strcasecmp (ci, "yes") == 0 || g_ascii_strcasecmp (ci, "on") == 0))
    return TRUE;
  return test_env_boolean ("HBASE_GLIB_TEST_REQUIRE_STACK");
}

HBaseConnection *
test_stack_connect (const TestGateway *gateway)
{
  g_autoptr(GError) error = NULL;
  HBaseConnection *connection;

  connection = hbase_connection_open (gateway->host, gateway->port,
                                      gateway->protocol, gateway->transport, &error);
  if (connection != NULL)
    return connection;

  test_stack_unreachable (error->message);
  return NULL;
}

void
test_stack_unavailable (const char *why)
{
  if (test_stack_required ())
    {
      g_test_message ("%s", why);
      g_test_fail ();
    }
  else
    g_test_skip (why);
}

void
test_stack_unreachable (const char *why)
{
  g_autofree char *message =
    g_strdup_printf ("local stack unreachable (%s); start it with scripts/stack.sh start", why);

  test_stack_unavailable (message);
}

void
test_stack_missing_gateway (HBaseProtocol protocol, HBaseTransport transport)
{
  g_autofree char *message =
    g_strdup_printf ("HBASE_GLIB_TEST_GATEWAYS names no %s/%s gateway, which this test needs",
                     hbase_protocol_to_string (protocol), hbase_transport_to_string (transport));

  test_stack_unavailable (message);
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

TestGateway *
test_stack_gateway_from_env (const char *variable, const char *fallback)
{
  const char *spec = g_getenv (variable);
  g_auto(GStrv) parts = NULL;
  guint64 port;
  HBaseProtocol protocol;
  HBaseTransport transport;

  if (spec == NULL || *spec == '\0')
    spec = fallback;
  parts = g_strsplit (spec, ":", -1);
  if (g_strv_length (parts) != 4 ||
      !g_ascii_string_to_unsigned (parts[1], 10, 1, 65535, &port, NULL) ||
      !hbase_protocol_from_string (parts[2], &protocol, NULL) ||
      !hbase_transport_from_string (parts[3], &transport, NULL))
    g_error ("%s: '%s' is not HOST:PORT:PROTOCOL:TRANSPORT "
             "(PROTOCOL binary or compact, TRANSPORT buffered or framed)", variable, spec);
  return parse_gateway (spec);
}

void
test_stack_gateway_free (TestGateway *gateway)
{
  if (gateway != NULL)
    test_gateway_free (gateway);
}

const TestGateway *
test_stack_find_gateway (GPtrArray *gateways, HBaseProtocol protocol, HBaseTransport transport)
{
  for (guint i = 0; i < gateways->len; i++)
    {
      const TestGateway *gateway = gateways->pdata[i];

      if (gateway->protocol == protocol && gateway->transport == transport)
        return gateway;
    }
  return NULL;
}

const TestGateway *
test_stack_require_gateway (GPtrArray *gateways, HBaseProtocol protocol, HBaseTransport transport)
{
  const TestGateway *gateway = test_stack_find_gateway (gateways, protocol, transport);

  if (gateway == NULL)
    test_stack_missing_gateway (protocol, transport);
  return gateway;
}

gboolean
test_stack_check_gateway (const TestGateway *gateway)
{
  HBaseConnection *connection = test_stack_connect (gateway);

  if (connection == NULL)
    return FALSE;
  g_object_unref (connection);
  return TRUE;
}

HBaseConfig *
test_stack_config (const TestGateway *gateway)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = g_strdup_printf (strchr (gateway->host, ':') != NULL ? "[%s]:%u" : "%s:%u",
                                           gateway->host, gateway->port);

  /* set, not add: a new config already names localhost:9090 */
  if (!hbase_config_set_gateways (config, spec, &error) ||
      !hbase_config_set_protocol (config, gateway->protocol, &error) ||
      !hbase_config_set_transport (config, gateway->transport, &error))
    g_error ("cannot configure gateway %s: %s", spec, error->message);
  return g_steal_pointer (&config);
}

HBaseConfig *
test_stack_native_config (void)
{
  const char *list = g_getenv ("HBASE_GLIB_TEST_NATIVE_BOOTSTRAP");
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  if (!hbase_config_set_bootstrap_servers (config, list != NULL && *list != '\0'
                                                     ? list : "127.0.0.1:16020 127.0.0.1:16000",
                                           &error))
    g_error ("HBASE_GLIB_TEST_NATIVE_BOOTSTRAP: %s", error->message);
  return g_steal_pointer (&config);
}

/* Exit status of stack.sh when it does not manage the gateway named. */
#define STACK_NOT_MANAGED 3

char *
test_stack_script (GError **error)
{
  const char *top_srcdir = g_getenv ("top_srcdir");
  g_autofree char *script = NULL;

  if (top_srcdir == NULL || *top_srcdir == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           "top_srcdir is not set (run the test through make check, "
                           "or export top_srcdir=<source tree>): cannot find scripts/stack.sh");
      return NULL;
    }
  script = g_build_filename (top_srcdir, "scripts", "stack.sh", NULL);
  if (!g_file_test (script, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s is missing or not executable", script);
      return NULL;
    }
  return g_steal_pointer (&script);
}

gboolean
test_stack_restart_gateway (guint port, GError **error)
{
  g_autofree char *script = test_stack_script (error);
  g_autofree char *port_text = g_strdup_printf ("%u", port);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) spawn_error = NULL;
  gint status = 0;

  if (script == NULL)
    return FALSE;

  {
    const char *argv[] = { script, "restart-gateway", port_text, NULL };

    if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                       &out, &err, &status, &spawn_error))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot run %s: %s", script,
                     spawn_error->message);
        return FALSE;
      }
  }
  g_test_message ("%s restart-gateway %u:\n%s%s", script, port, out, err);
  if (g_spawn_check_wait_status (status, NULL))
    return TRUE;
  if (WIFEXITED (status) && WEXITSTATUS (status) == STACK_NOT_MANAGED)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 "%s does not manage a gateway on port %u: %s", script, port, g_strstrip (err));
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                 "%s restart-gateway %u failed: %s", script, port, g_strstrip (err));
  return FALSE;
}

int
test_stack_scanner_lock (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "hbase-glib-test-scanners.lock", NULL);
  int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

  if (fd < 0)
    g_error ("cannot open %s: %s", path, g_strerror (errno));
  while (flock (fd, LOCK_EX) < 0)
    if (errno != EINTR)
      g_error ("cannot lock %s: %s", path, g_strerror (errno));
  return fd;
}

void
test_stack_scanner_unlock (int lock)
{
  close (lock);   /* releases the flock */
}
