/* SPDX-License-Identifier: Apache-2.0 */
/* Scans through a client of several gateways.  A server scanner lives in
 * the gateway that opened it, and its id is a small number each gateway
 * counts on its own: a fetch sent to another gateway is answered with that
 * gateway's scanner of the same id (rows of another scan) or with "Invalid
 * scanner Id" (and the scan starts over with a new server scanner, leaving
 * the first one open).  Concurrent scans must each see every row once, in
 * order, without starting over.
 *
 * A scan whose gateway closed its idle connection goes on through a new
 * connection to that same gateway, even when it is not the first of the
 * client's list.
 *
 * The gateways: HBASE_GLIB_TEST_SCAN_GATEWAYS ("HOST:PORT,HOST:PORT", one
 * protocol and transport: binary/buffered), by default the local stack's
 * 127.0.0.1:9090 and 127.0.0.1:9094. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../support/test-stack.h"

#define ROWS 1000
#define SCANS 4

static gint resumed;

static void
count_resumptions (const char *domain, GLogLevelFlags level, const char *message, gpointer user_data)
{
  if (strstr (message, "resuming with a new scanner") != NULL)
    g_atomic_int_inc (&resumed);
}

typedef struct {
  HBaseTable *table;
  guint rows;
  guint out_of_order;
  GError *error;
} Scan;

static gpointer
scan_all (gpointer data)
{
  Scan *scan = data;
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(HBaseScanner) scanner = NULL;
  HBaseRow *row;
  guint next = 0;

  options.caching = 20;
  scanner = hbase_table_scan (scan->table, &options, &scan->error);
  while (scanner != NULL && hbase_scanner_next (scanner, &row, NULL, &scan->error) && row != NULL)
    {
      gsize len;
      const char *key = g_bytes_get_data (hbase_row_get_key (row), &len);
      g_autofree char *expected = g_strdup_printf ("r%06u", next);

      if (len != strlen (expected) || memcmp (key, expected, len) != 0)
        scan->out_of_order++;
      next++;
      scan->rows++;
      hbase_row_unref (row);
      /* slow enough for the other scans to take the pooled connections */
      if (scan->rows % 20 == 0)
        g_usleep (10 * 1000);
    }
  return NULL;
}

/* A client of @gateways, or NULL (the test skipped) when the stack is
 * unreachable. */
static HBaseClient *
client_of (const char *gateways)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_gateways (config, gateways, &error));
  client = hbase_client_new (config);
  g_assert_no_error (error);
  if (!hbase_client_ping (client, NULL, &error))
    {
      test_stack_unreachable (error->message);
      return NULL;
    }
  return g_steal_pointer (&client);
}

/* A new table @name (family "f") holding rows r000000 .. of @n_rows. */
static HBaseTable *
table_with_rows (HBaseClient *client, const char *name, guint n_rows)
{
  g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  HBaseTable *table;

  family.name = "f";
  g_assert_true (hbase_client_create_table (client, name, &family, 1, NULL, NULL, &error));
  table = hbase_table_new (client, name, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n_rows; i++)
    {
      g_autofree char *key = g_strdup_printf ("r%06u", i);
      g_autoptr(GBytes) row = g_bytes_new (key, strlen (key));
      g_autoptr(GBytes) value = g_bytes_new_static ("x", 1);
      HBaseMutation *put = hbase_mutation_new_put (row);

      hbase_mutation_put (put, "f", "v", value);
      g_ptr_array_add (batch, put);
    }
  g_assert_true (hbase_table_apply_multiple (table, batch, NULL, &error));
  g_assert_no_error (error);
  return table;
}

static void
test_concurrent_scans (void)
{
  const char *gateways = g_getenv ("HBASE_GLIB_TEST_SCAN_GATEWAYS");
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = test_stack_unique_name ("hbase_glib_scan_gateways");
  Scan scans[SCANS] = { { 0 } };
  GThread *threads[SCANS];

  client = client_of (gateways != NULL && *gateways != '\0' ? gateways
                                                              : "127.0.0.1:9090,127.0.0.1:9094");
  if (client == NULL)
    return;
  table = table_with_rows (client, name, ROWS);

  g_atomic_int_set (&resumed, 0);
  for (guint i = 0; i < SCANS; i++)
    {
      scans[i].table = table;
      threads[i] = g_thread_new ("scan", scan_all, &scans[i]);
    }
  for (guint i = 0; i < SCANS; i++)
    {
      g_thread_join (threads[i]);
      g_assert_no_error (scans[i].error);
      g_assert_cmpuint (scans[i].rows, ==, ROWS);
      g_assert_cmpuint (scans[i].out_of_order, ==, 0);
    }
  /* no fetch went to a gateway that did not hold its scanner */
  g_assert_cmpint (g_atomic_int_get (&resumed), ==, 0);

  g_clear_object (&table);
  g_assert_true (hbase_client_delete_table (client, name, NULL, &error));
}

/* A port of the loopback interface nothing listens on. */
static guint
closed_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_nonnull (socket);
  g_assert_true (g_socket_bind (socket, any, FALSE, NULL));
  bound = g_socket_get_local_address (socket, NULL);
  g_assert_nonnull (bound);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* The scanner lives in the second gateway of the list (the first refuses
 * connections); that gateway closes the connection while the scan waits
 * (by default 127.0.0.1:9094, which closes sockets idle for 2 s; "HOST:PORT"
 * in HBASE_GLIB_TEST_SCAN_IDLE_GATEWAY),
 * and the next fetch must reconnect to it, not to the first gateway. */
static void
test_pinned_reconnect (void)
{
  const char *idle = g_getenv ("HBASE_GLIB_TEST_SCAN_IDLE_GATEWAY");
  g_autofree char *gateways = g_strdup_printf ("127.0.0.1:%u,%s", closed_port (),
                                               idle != NULL && *idle != '\0' ? idle : "127.0.0.1:9094");
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = test_stack_unique_name ("hbase_glib_scan_pinned");
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  HBaseRow *row;
  guint next = 0;

  if ((client = client_of (gateways)) == NULL)
    return;
  table = table_with_rows (client, name, 30);

  g_atomic_int_set (&resumed, 0);
  options.caching = 10;
  scanner = hbase_table_scan (table, &options, &error);
  g_assert_no_error (error);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      g_autofree char *expected = g_strdup_printf ("r%06u", next++);
      gsize len;
      const char *key = g_bytes_get_data (hbase_row_get_key (row), &len);

      g_assert_cmpmem (key, len, expected, strlen (expected));
      hbase_row_unref (row);
      if (next == 10)
        g_usleep (2500 * G_TIME_SPAN_MILLISECOND);  /* the gateway closes the idle socket */
    }
  g_assert_no_error (error);
  g_assert_cmpuint (next, ==, 30);
  /* every fetch reached the gateway that holds the scanner */
  g_assert_cmpint (g_atomic_int_get (&resumed), ==, 0);

  g_clear_object (&scanner);
  g_clear_object (&table);
  g_assert_true (hbase_client_delete_table (client, name, NULL, &error));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_set_handler ("hbase-glib", G_LOG_LEVEL_DEBUG, count_resumptions, NULL);
  g_test_add_func ("/scanner/gateways/concurrent-scans", test_concurrent_scans);
  g_test_add_func ("/scanner/gateways/pinned-reconnect", test_pinned_reconnect);
  return g_test_run ();
}
