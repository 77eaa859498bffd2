/* SPDX-License-Identifier: Apache-2.0 */
/* test-native-secured.c: the native backend (SIMPLE authentication only)
 * against the kerberized HBase of the secure stack (scripts/stack.sh
 * start-secure): its region server and its master answer the connection
 * with call id -1 and AccessDeniedException ("Authentication is
 * required"), which must reach the caller as HBASE_ERROR_AUTHENTICATION
 * with the server's words, at once (not retried), rather than as a
 * malformed reply.
 *
 * Ports: HBASE_GLIB_SECURE_RS_PORT (default 17020) and
 * HBASE_GLIB_SECURE_MASTER_PORT (default 17000), on 127.0.0.1. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../support/test-env.h"
#include "../support/test-stack.h"

static guint rs_port, master_port;

static guint
port_from_env (const char *variable, guint fallback)
{
  const char *text = g_getenv (variable);
  guint64 port;

  if (text != NULL && g_ascii_string_to_unsigned (text, 10, 1, 65535, &port, NULL))
    return (guint) port;
  return fallback;
}

static gboolean
listening (guint port)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;

  connection = g_socket_client_connect_to_host (client, "127.0.0.1", (guint16) port, NULL, NULL);
  return connection != NULL;
}

static HBaseClient *
native_client (guint port)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autofree char *server = g_strdup_printf ("127.0.0.1:%u", port);
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_bootstrap_servers (config, server, &error));
  g_assert_true (hbase_config_set_operation_timeout (config, 30000, &error));
  g_assert_no_error (error);
  return hbase_client_new (config);
}

static void
assert_refused (const GError *error, gint64 elapsed_us)
{
  g_assert_nonnull (error);
  g_test_message ("after %" G_GINT64_FORMAT " ms: %s", elapsed_us / 1000, error->message);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (error->message, "Authentication is required"));
  g_assert_nonnull (strstr (error->message, "AccessDeniedException"));
  g_assert_nonnull (strstr (error->message, "SIMPLE"));
  g_assert_null (strstr (error->message, "malformed"));
  g_assert_null (strchr (error->message, '\n'));
  g_assert_cmpuint (strlen (error->message), <, 1024);
  /* the whole text stays available */
  g_assert_nonnull (hbase_error_get_server_trace (error));
  /* not retried: the pauses of retries would add up to seconds */
  g_assert_cmpint (elapsed_us, <, 5 * G_USEC_PER_SEC * test_time_slack ());
}

/* A get through the region server (the bootstrap server that names
 * hbase:meta). */
static void
test_region_server (void)
{
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;

  if (!listening (rs_port))
    {
      test_stack_unavailable ("the secure stack's region server does not listen "
                              "(scripts/stack.sh start-secure)");
      return;
    }
  client = native_client (rs_port);
  table = hbase_table_new (client, "any_table", &error);
  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  row = hbase_table_get_string (table, "r", NULL, NULL, &error);
  g_assert_null (row);
  assert_refused (error, g_get_monotonic_time () - start);
}

/* An admin call, which goes to the master. */
static void
test_master (void)
{
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  gboolean exists = TRUE;
  gint64 start;

  if (!listening (master_port))
    {
      test_stack_unavailable ("the secure stack's master does not listen "
                              "(scripts/stack.sh start-secure)");
      return;
    }
  client = native_client (master_port);
  start = g_get_monotonic_time ();
  g_assert_false (hbase_client_table_exists (client, "any_table", &exists, NULL, &error));
  assert_refused (error, g_get_monotonic_time () - start);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  rs_port = port_from_env ("HBASE_GLIB_SECURE_RS_PORT", 17020);
  master_port = port_from_env ("HBASE_GLIB_SECURE_MASTER_PORT", 17000);
  g_test_add_func ("/integration/native-secured/region-server", test_region_server);
  g_test_add_func ("/integration/native-secured/master", test_master);
  return g_test_run ();
}
