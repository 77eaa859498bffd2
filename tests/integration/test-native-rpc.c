/* SPDX-License-Identifier: Apache-2.0 */
/* test-native-rpc.c: the native RPC code (src/native/) against the real
 * local HBase, no gateway in between: the registry names hbase:meta, an
 * unreachable bootstrap server is skipped, the locator finds the regions of
 * a table made through the admin API (and caches them), a put through the
 * native path reads back byte for byte through the Thrift2 path and the
 * reverse, columns and versions, delete-row, a missing row, a missing
 * table or family (HBASE_ERROR_NOT_FOUND naming the Java class), and a
 * stale cached region answered with NotServingRegionException, dropped and
 * looked up again; scans across the table's two regions, with a key range,
 * columns, and closed early; reversed scans from the table's end and
 * across the split; a next for an unknown scanner id; a scanner closed
 * behind the client's back and restarted after its last row, reading as
 * of the region's read point when it began.
 *
 * The stack: the Thrift2 gateway of HBASE_GLIB_TEST_GATEWAY (default
 * 127.0.0.1:9090:binary:buffered) and the bootstrap servers of
 * HBASE_GLIB_TEST_NATIVE_BOOTSTRAP (default "127.0.0.1:16020
 * 127.0.0.1:16000"); the region servers are expected on the ports of
 * HBASE_GLIB_TEST_NATIVE_RS_PORTS (space-separated, default 16020).
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../support/test-stack.h"
#include "../../src/native/hbase-native-client.h"
#include "../../src/native/hbase-native-scan.h"
#include "Client.pb-c.h"

static TestGateway *gateway;
static HBaseClient *thrift_client;   /* NULL: the stack is unreachable */
static char *table_name;             /* families cf (3 versions) and cf2, split at "m" */
static GStrv bootstrap;
static GStrv rs_ports;                /* the region servers' ports, as strings */
static gboolean stack_ok;

static GBytes *
b (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static void
assert_bytes_eq (GBytes *got, GBytes *want)
{
  g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got),
                   g_bytes_get_data (want, NULL), g_bytes_get_size (want));
}

static void
assert_bytes_are (GBytes *got, const char *text)
{
  g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got), text, strlen (text));
}

/* @port is one of the region servers' */
static void
assert_region_server_port (guint port)
{
  g_autofree char *text = g_strdup_printf ("%u", port);

  if (!g_strv_contains ((const char *const *) rs_ports, text))
    {
      g_autofree char *known = g_strjoinv (" ", rs_ports);

      g_error ("port %u is none of the region servers' (%s)", port, known);
    }
}

static HBaseNativeClient *
native_client (void)
{
  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack (HBase and its Thrift2 gateway) is not reachable");
      return NULL;
    }
  return _hbase_native_client_new ((const char *const *) bootstrap, 10000);
}

static HBaseNativeCell *
cell (const char *family, const char *qualifier, const guint8 *value, gsize value_len, gint64 ts)
{
  HBaseNativeCell *c = g_new0 (HBaseNativeCell, 1);

  c->family = b (family);
  c->qualifier = b (qualifier);
  c->value = g_bytes_new (value, value_len);
  c->timestamp = ts;
  return c;
}

static GPtrArray *
new_cells (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
}

/* ---- registry ---- */

static void
test_registry (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(HBaseNativeRegion) meta = NULL;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  meta = _hbase_native_client_locate_meta (client, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (meta->table, ==, "hbase:meta");
  assert_bytes_are (meta->name, "hbase:meta,,1");
  g_assert_cmpuint (meta->region_id, ==, 1);
  g_assert_cmpuint (g_bytes_get_size (meta->start_key), ==, 0);
  g_assert_cmpuint (g_bytes_get_size (meta->end_key), ==, 0);
  assert_region_server_port (meta->port);
  g_assert_true (meta->host != NULL && *meta->host != '\0');
}

static void
test_bootstrap_skips_refused (void)
{
  g_autofree char *closed = NULL;
  g_autoptr(GStrvBuilder) list = g_strv_builder_new ();
  g_auto(GStrv) servers = NULL;
  g_autoptr(HBaseNativeClient) client = NULL;
  g_autoptr(HBaseNativeClient) only_closed = NULL;
  g_autoptr(HBaseNativeRegion) meta = NULL;
  g_autoptr(GError) error = NULL;
  const char *closed_only[2] = { NULL, NULL };

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  closed = g_strdup_printf ("127.0.0.1:%u", test_closed_port ());
  g_strv_builder_add (list, closed);
  g_strv_builder_addv (list, (const char **) bootstrap);
  servers = g_strv_builder_end (list);
  client = _hbase_native_client_new ((const char *const *) servers, 10000);
  meta = _hbase_native_client_locate_meta (client, NULL, &error);
  g_assert_no_error (error);
  assert_bytes_are (meta->name, "hbase:meta,,1");

  /* with no server that answers: the connection error of the last */
  closed_only[0] = closed;
  only_closed = _hbase_native_client_new (closed_only, 10000);
  g_clear_pointer (&meta, _hbase_native_region_free);
  meta = _hbase_native_client_locate_meta (only_closed, NULL, &error);
  g_assert_null (meta);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, closed));
}

/* ---- locator ---- */

static void
test_locate (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(HBaseNativeRegion) low = NULL;
  g_autoptr(HBaseNativeRegion) high = NULL;
  g_autoptr(HBaseNativeRegion) again = NULL;
  g_autoptr(GBytes) a = b ("a"), x = b ("x"), m = b ("m"), empty = b ("");
  g_autofree char *prefix = NULL;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  prefix = g_strdup_printf ("%s,", table_name);
  low = _hbase_native_client_locate (client, table_name, a, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (low->table, ==, table_name);
  assert_bytes_are (low->start_key, "");
  assert_bytes_are (low->end_key, "m");
  g_assert_true (g_str_has_prefix (g_bytes_get_data (low->name, NULL), prefix));
  assert_region_server_port (low->port);
  g_assert_cmpuint (_hbase_native_client_n_cached (client), ==, 1);

  high = _hbase_native_client_locate (client, table_name, x, NULL, &error);
  g_assert_no_error (error);
  assert_bytes_are (high->start_key, "m");
  assert_bytes_are (high->end_key, "");
  g_assert_false (g_bytes_equal (low->name, high->name));
  g_assert_cmpuint (_hbase_native_client_n_cached (client), ==, 2);

  /* "m" itself is the second region's; the empty row the first's; both
   * from the cache */
  again = _hbase_native_client_locate (client, table_name, m, NULL, &error);
  g_assert_no_error (error);
  assert_bytes_eq (again->name, high->name);
  g_clear_pointer (&again, _hbase_native_region_free);
  again = _hbase_native_client_locate (client, table_name, empty, NULL, &error);
  g_assert_no_error (error);
  assert_bytes_eq (again->name, low->name);
  g_assert_cmpuint (_hbase_native_client_n_cached (client), ==, 2);

  /* the same region ids as the admin API reports, through the gateway */
  {
    g_autoptr(GPtrArray) regions = hbase_client_get_table_regions (thrift_client, table_name, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (regions->len, ==, 2);
  }

  _hbase_native_client_forget (client, table_name, low->name);
  g_assert_cmpuint (_hbase_native_client_n_cached (client), ==, 1);
}

/* ---- reads and writes ---- */

static const guint8 binary_value[] = { 0x00, 0xff, 'v', 0x00, 0x80, '\n' };

static void
test_put_native_get_thrift (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(GBytes) row = NULL;
  g_autoptr(GPtrArray) cells = new_cells ();
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseRow) got = NULL;
  g_autoptr(GPtrArray) native_got = NULL;
  g_autoptr(GError) error = NULL;
  gint64 before = g_get_real_time () / 1000, after;
  static const guint8 key[] = { 'e', 0x00, 0xfe, 'k' };
  const HBaseCell *c;

  if (client == NULL)
    return;
  row = g_bytes_new (key, sizeof key);
  g_ptr_array_add (cells, cell ("cf", "q\x01", binary_value, sizeof binary_value, 1234567890123));
  g_ptr_array_add (cells, cell ("cf2", "server-time", (const guint8 *) "now", 3, HBASE_NATIVE_LATEST_TIMESTAMP));
  g_assert_true (_hbase_native_client_put (client, table_name, row, cells, NULL, &error));
  g_assert_no_error (error);
  after = g_get_real_time () / 1000;

  table = hbase_table_new (thrift_client, table_name, &error);
  g_assert_no_error (error);
  got = hbase_table_get (table, row, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_bytes_eq (hbase_row_get_key (got), row);
  g_assert_cmpuint (hbase_row_get_n_cells (got), ==, 2);
  c = hbase_row_get_cell (got, 0);
  assert_bytes_are (hbase_cell_get_family (c), "cf");
  assert_bytes_are (hbase_cell_get_qualifier (c), "q\x01");
  g_assert_cmpmem (g_bytes_get_data (hbase_cell_get_value (c), NULL),
                   g_bytes_get_size (hbase_cell_get_value (c)), binary_value, sizeof binary_value);
  g_assert_cmpint (hbase_cell_get_timestamp (c), ==, 1234567890123);
  c = hbase_row_get_cell (got, 1);
  assert_bytes_are (hbase_cell_get_family (c), "cf2");
  assert_bytes_are (hbase_cell_get_qualifier (c), "server-time");
  assert_bytes_are (hbase_cell_get_value (c), "now");
  g_assert_cmpint (hbase_cell_get_timestamp (c), >=, before);
  g_assert_cmpint (hbase_cell_get_timestamp (c), <=, after);

  /* and the native get agrees with the gateway, timestamp included */
  native_got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (native_got->len, ==, 2);
  g_assert_cmpint (((HBaseNativeCell *) native_got->pdata[1])->timestamp, ==, hbase_cell_get_timestamp (c));
  assert_bytes_eq (((HBaseNativeCell *) native_got->pdata[0])->row, row);
  g_assert_cmpuint (((HBaseNativeCell *) native_got->pdata[0])->type, ==, HBASE_NATIVE_CELL_PUT);
}

static void
test_put_thrift_get_native (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(GBytes) row = b ("zz-thrift-written");   /* the second region */
  g_autoptr(GBytes) fam = b ("cf"), q1 = b ("a"), q2 = b ("b\xff"), v1 = NULL, v2 = b ("");
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseMutation) put = NULL;
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GError) error = NULL;
  const HBaseNativeCell *c;

  if (client == NULL)
    return;
  v1 = g_bytes_new (binary_value, sizeof binary_value);
  table = hbase_table_new (thrift_client, table_name, &error);
  g_assert_no_error (error);
  put = hbase_mutation_new_put (row);
  hbase_mutation_put_bytes (put, fam, q1, v1, 1111);
  hbase_mutation_put_bytes (put, fam, q2, v2, 2222);
  g_assert_true (hbase_table_apply (table, put, NULL, &error));
  g_assert_no_error (error);

  got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 2);
  c = got->pdata[0];
  assert_bytes_eq (c->row, row);
  assert_bytes_eq (c->family, fam);
  assert_bytes_eq (c->qualifier, q1);
  assert_bytes_eq (c->value, v1);
  g_assert_cmpint (c->timestamp, ==, 1111);
  g_assert_cmpuint (c->type, ==, HBASE_NATIVE_CELL_PUT);
  c = got->pdata[1];
  assert_bytes_eq (c->qualifier, q2);
  assert_bytes_eq (c->value, v2);
  g_assert_cmpint (c->timestamp, ==, 2222);
}

static void
test_columns_and_versions (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(GBytes) row = b ("versions");
  g_autoptr(GPtrArray) cells = new_cells ();
  g_autoptr(GPtrArray) columns = g_ptr_array_new ();
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GError) error = NULL;
  HBaseNativeColumn only_q1, whole_cf2;

  if (client == NULL)
    return;
  for (gint64 ts = 1; ts <= 3; ts++)
    {
      char v[2] = { (char) ('0' + ts), 0 };

      g_ptr_array_add (cells, cell ("cf", "q1", (const guint8 *) v, 1, ts));
    }
  g_ptr_array_add (cells, cell ("cf", "q2", (const guint8 *) "x", 1, 5));
  g_ptr_array_add (cells, cell ("cf2", "z", (const guint8 *) "y", 1, 6));
  g_assert_true (_hbase_native_client_put (client, table_name, row, cells, NULL, &error));
  g_assert_no_error (error);

  /* default: the newest version of each column */
  got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 3);
  assert_bytes_are (((HBaseNativeCell *) got->pdata[0])->value, "3");
  g_clear_pointer (&got, g_ptr_array_unref);

  /* cf:q1 and all of cf2, two versions */
  only_q1.family = b ("cf");
  only_q1.qualifier = b ("q1");
  whole_cf2.family = b ("cf2");
  whole_cf2.qualifier = NULL;
  g_ptr_array_add (columns, &only_q1);
  g_ptr_array_add (columns, &whole_cf2);
  got = _hbase_native_client_get (client, table_name, row, columns, 2, NULL, &error);
  g_bytes_unref (only_q1.family);
  g_bytes_unref (only_q1.qualifier);
  g_bytes_unref (whole_cf2.family);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 3);
  assert_bytes_are (((HBaseNativeCell *) got->pdata[0])->qualifier, "q1");
  g_assert_cmpint (((HBaseNativeCell *) got->pdata[0])->timestamp, ==, 3);
  g_assert_cmpint (((HBaseNativeCell *) got->pdata[1])->timestamp, ==, 2);
  assert_bytes_are (((HBaseNativeCell *) got->pdata[2])->family, "cf2");
}

static void
test_delete_row (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(GBytes) row = b ("to-delete");
  g_autoptr(GPtrArray) cells = new_cells ();
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseRow) thrift_got = NULL;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  g_ptr_array_add (cells, cell ("cf", "a", (const guint8 *) "1", 1, HBASE_NATIVE_LATEST_TIMESTAMP));
  g_ptr_array_add (cells, cell ("cf2", "b", (const guint8 *) "2", 1, HBASE_NATIVE_LATEST_TIMESTAMP));
  g_assert_true (_hbase_native_client_put (client, table_name, row, cells, NULL, &error));
  g_assert_no_error (error);
  got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 2);
  g_clear_pointer (&got, g_ptr_array_unref);

  g_assert_true (_hbase_native_client_delete_row (client, table_name, row, NULL, &error));
  g_assert_no_error (error);
  got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 0);
  table = hbase_table_new (thrift_client, table_name, &error);
  g_assert_no_error (error);
  thrift_got = hbase_table_get (table, row, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (hbase_row_is_empty (thrift_got));
}

static void
test_missing_row (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(GBytes) row = b ("never-written");
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (got);
  g_assert_cmpuint (got->len, ==, 0);
}

static void
test_missing_table (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(GBytes) row = b ("r");
  g_autofree char *missing = NULL;
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  missing = g_strdup_printf ("%s_missing", table_name);
  got = _hbase_native_client_get (client, missing, row, NULL, 0, NULL, &error);
  g_assert_null (got);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "does not exist"));
  g_assert_nonnull (strstr (hbase_error_get_server_trace (error), "org.apache.hadoop.hbase.TableNotFoundException"));
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_cmpuint (_hbase_native_client_n_cached (client), ==, 0);
}

/* The server's own exception: a family the table lacks. */
static void
test_missing_family (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(GBytes) row = b ("r");
  g_autoptr(GPtrArray) cells = new_cells ();
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  g_ptr_array_add (cells, cell ("nope", "q", (const guint8 *) "v", 1, HBASE_NATIVE_LATEST_TIMESTAMP));
  g_assert_false (_hbase_native_client_put (client, table_name, row, cells, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "NoSuchColumnFamilyException: "));
  g_assert_nonnull (strstr (error->message, "nope"));
  g_assert_null (strstr (error->message, "\tat "));
  /* the server's whole text is kept, as for the gateway's errors */
  g_assert_true (g_str_has_prefix (hbase_error_get_server_trace (error),
                                   "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException"));
  g_assert_nonnull (strstr (hbase_error_get_server_trace (error), "\tat "));
}

/* A cached region the server does not serve: NotServingRegionException,
 * the entry dropped, a new lookup, the call made once more. */
static void
test_stale_region_retried (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(GBytes) row = b ("stale");
  g_autoptr(GPtrArray) cells = new_cells ();
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(HBaseNativeRegion) real = NULL;
  g_autoptr(HBaseNativeRegion) after = NULL;
  HBaseNativeRegion bogus = { 0 };
  g_autofree char *bogus_name = NULL;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  real = _hbase_native_client_locate (client, table_name, row, NULL, &error);
  g_assert_no_error (error);
  bogus_name = g_strdup_printf ("%s,,1.00000000000000000000000000000000.", table_name);
  bogus.table = table_name;
  bogus.name = b (bogus_name);
  bogus.start_key = b ("");
  bogus.end_key = b ("");
  bogus.region_id = 1;
  bogus.host = real->host;
  bogus.port = real->port;
  _hbase_native_client_cache (client, &bogus);
  g_assert_cmpuint (_hbase_native_client_n_cached (client), ==, 1);

  g_ptr_array_add (cells, cell ("cf", "q", (const guint8 *) "v", 1, 77));
  g_assert_true (_hbase_native_client_put (client, table_name, row, cells, NULL, &error));
  g_assert_no_error (error);
  got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 1);
  g_assert_cmpint (((HBaseNativeCell *) got->pdata[0])->timestamp, ==, 77);
  after = _hbase_native_client_locate (client, table_name, row, NULL, &error);
  g_assert_no_error (error);
  assert_bytes_eq (after->name, real->name);
  g_bytes_unref (bogus.name);
  g_bytes_unref (bogus.start_key);
  g_bytes_unref (bogus.end_key);
}

/* ---- scans ---- */

/* Rows "g00".."g09" (first region, before "m") and "p00".."p09" (second),
 * each with cf:v = its key and cf2:w = "w"; no other case writes rows in
 * ["g", "q"). */
static gboolean
write_scan_rows (HBaseNativeClient *client)
{
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *key = g_strdup_printf ("%c%02u", i < 10 ? 'g' : 'p', i % 10);
      g_autoptr(GBytes) row = b (key);
      g_autoptr(GPtrArray) cells = new_cells ();

      g_ptr_array_add (cells, cell ("cf", "v", (const guint8 *) key, strlen (key), 10));
      g_ptr_array_add (cells, cell ("cf2", "w", (const guint8 *) "w", 1, 10));
      if (!_hbase_native_client_put (client, table_name, row, cells, NULL, &error))
        {
          g_test_message ("put %s: %s", key, error->message);
          return FALSE;
        }
    }
  return TRUE;
}

/* Every row of @scanner, as "key=value,key=value" of the first cell each. */
static char *
scan_all (HBaseNativeScanner *scanner, guint *n_batches)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  *n_batches = 0;
  for (;;)
    {
      g_autoptr(GPtrArray) rows = _hbase_native_scanner_next (scanner, NULL, &error);

      g_assert_no_error (error);
      if (rows->len == 0)
        break;
      (*n_batches)++;
      for (guint i = 0; i < rows->len; i++)
        {
          const HBaseNativeRow *r = rows->pdata[i];
          const HBaseNativeCell *c = r->cells->pdata[0];

          g_string_append_printf (out, "%s%.*s:%u", out->len > 0 ? "," : "",
                                  (int) g_bytes_get_size (r->key), (const char *) g_bytes_get_data (r->key, NULL),
                                  r->cells->len);
          g_assert_true (g_bytes_equal (c->row, r->key));
        }
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_scan_regions (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(HBaseNativeScanner) scanner = NULL;
  g_autoptr(GBytes) start = b ("g"), stop = b ("q");
  g_autofree char *got = NULL;
  g_autoptr(GString) want = g_string_new (NULL);
  guint batches;

  if (client == NULL)
    return;
  g_assert_true (write_scan_rows (client));
  for (guint i = 0; i < 20; i++)
    g_string_append_printf (want, "%s%c%02u:2", i > 0 ? "," : "", i < 10 ? 'g' : 'p', i % 10);
  /* 4 rows a call: 3 batches in the first region, 3 in the second */
  scanner = _hbase_native_scanner_new (client, table_name, start, stop, NULL, 0, 4);
  got = scan_all (scanner, &batches);
  g_assert_cmpstr (got, ==, want->str);
  g_assert_cmpuint (batches, ==, 6);
  g_assert_cmpuint (_hbase_native_client_n_cached (client), ==, 2);
}

static void
test_scan_range_and_columns (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(HBaseNativeScanner) scanner = NULL;
  g_autoptr(GBytes) start = b ("g07"), stop = b ("p02");
  g_autoptr(GPtrArray) columns = g_ptr_array_new ();
  HBaseNativeColumn v = { 0 };
  g_autofree char *got = NULL;
  guint batches;

  if (client == NULL)
    return;
  g_assert_true (write_scan_rows (client));
  v.family = b ("cf");
  v.qualifier = b ("v");
  g_ptr_array_add (columns, &v);
  scanner = _hbase_native_scanner_new (client, table_name, start, stop, columns, 0, 100);
  g_bytes_unref (v.family);
  g_bytes_unref (v.qualifier);
  got = scan_all (scanner, &batches);
  g_assert_cmpstr (got, ==, "g07:1,g08:1,g09:1,p00:1,p01:1");
  g_assert_cmpuint (batches, ==, 2);

  /* a range inside the first region stops there: one open, no second region */
  g_clear_pointer (&scanner, _hbase_native_scanner_free);
  g_clear_pointer (&got, g_free);
  {
    g_autoptr(GBytes) s1 = b ("g01"), s2 = b ("g03");

    scanner = _hbase_native_scanner_new (client, table_name, s1, s2, NULL, 0, 100);
    got = scan_all (scanner, &batches);
    g_assert_cmpstr (got, ==, "g01:2,g02:2");
    g_assert_cmpuint (_hbase_native_scanner_get_n_calls (scanner), ==, 1);
  }
}

static void
test_scan_close_early (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(HBaseNativeScanner) scanner = NULL;
  g_autoptr(GBytes) start = b ("g"), stop = b ("q");
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  guint calls;

  if (client == NULL)
    return;
  g_assert_true (write_scan_rows (client));
  scanner = _hbase_native_scanner_new (client, table_name, start, stop, NULL, 0, 3);
  rows = _hbase_native_scanner_next (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 3);
  g_assert_true (_hbase_native_scanner_close (scanner, NULL, &error));
  g_assert_no_error (error);
  calls = _hbase_native_scanner_get_n_calls (scanner);
  g_assert_cmpuint (calls, ==, 2);
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = _hbase_native_scanner_next (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 0);
  g_assert_cmpuint (_hbase_native_scanner_get_n_calls (scanner), ==, calls);
}

static HBaseNativeScanner *
reversed_scanner (HBaseNativeClient *client, const char *start, gboolean include_start,
                  const char *stop, gboolean include_stop, guint caching)
{
  g_autoptr(GBytes) start_row = start != NULL ? b (start) : NULL;
  g_autoptr(GBytes) stop_row = stop != NULL ? b (stop) : NULL;
  HBaseNativeScanSpec spec = { 0 };

  spec.start_row = start_row;
  spec.include_start = include_start;
  spec.stop_row = stop_row;
  spec.include_stop = include_stop;
  spec.reversed = TRUE;
  spec.caching = caching;
  return _hbase_native_scanner_new_full (client, table_name, &spec);
}

/* Reversed scans: from the table's end (its last region), across the
 * split at "m" (the region before a start key), with exclusive and
 * inclusive bounds. */
static void
test_scan_reversed_regions (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(HBaseNativeScanner) scanner = NULL;
  g_autoptr(GString) want = g_string_new (NULL);
  g_autofree char *got = NULL;
  guint batches;

  if (client == NULL)
    return;
  g_assert_true (write_scan_rows (client));
  for (gint i = 19; i >= 0; i--)
    g_string_append_printf (want, "%s%c%02d:2", i < 19 ? "," : "", i < 10 ? 'g' : 'p', i % 10);
  /* from the end (other cases' rows first) down to "g" */
  scanner = reversed_scanner (client, NULL, TRUE, "g", FALSE, 4);
  got = scan_all (scanner, &batches);
  g_assert_true (g_str_has_suffix (got, want->str));
  g_clear_pointer (&scanner, _hbase_native_scanner_free);
  g_clear_pointer (&got, g_free);
  /* from "q" down to "g": 4 rows a call, 3 calls in each region */
  scanner = reversed_scanner (client, "q", TRUE, "g", FALSE, 4);
  got = scan_all (scanner, &batches);
  g_assert_cmpstr (got, ==, want->str);
  g_assert_cmpuint (batches, ==, 6);
  g_clear_pointer (&scanner, _hbase_native_scanner_free);
  g_clear_pointer (&got, g_free);

  scanner = reversed_scanner (client, "p02", FALSE, "g07", TRUE, 100);
  got = scan_all (scanner, &batches);
  g_assert_cmpstr (got, ==, "p01:2,p00:2,g09:2,g08:2,g07:2");
  g_clear_pointer (&scanner, _hbase_native_scanner_free);
  g_clear_pointer (&got, g_free);

  /* from the region boundary itself, excluded and included (no row "m") */
  scanner = reversed_scanner (client, "m", FALSE, "g08", FALSE, 100);
  got = scan_all (scanner, &batches);
  g_assert_cmpstr (got, ==, "g09:2");
  g_clear_pointer (&scanner, _hbase_native_scanner_free);
  g_clear_pointer (&got, g_free);
  scanner = reversed_scanner (client, "p00", TRUE, "m", FALSE, 100);
  got = scan_all (scanner, &batches);
  g_assert_cmpstr (got, ==, "p00:2");
  /* the second region only: the scan stops at its start key, past the stop row */
  g_assert_cmpuint (_hbase_native_scanner_get_n_calls (scanner), ==, 1);
}

/* A next for a scanner the server does not know, and a scanner closed
 * behind the client's back then restarted after the last row kept: the
 * rows after it, as of the region's read point when the scan began (a row
 * written since is not seen). */
static void
test_scan_restart (void)
{
  g_autoptr(HBaseNativeClient) client = native_client ();
  g_autoptr(HBaseNativeScanner) scanner = NULL;
  g_autoptr(GBytes) start = b ("g"), stop = b ("q"), last = NULL, late = b ("g05x");
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) cells = new_cells ();
  g_autoptr(GError) error = NULL;
  Hbase__Pb__ScanRequest request = HBASE__PB__SCAN_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  const HBaseNativeRegion *region;
  g_autofree char *got = NULL;
  guint64 id = 0;
  guint batches;

  if (client == NULL)
    return;
  g_assert_true (write_scan_rows (client));
  scanner = _hbase_native_scanner_new (client, table_name, start, stop, NULL, 0, 3);
  rows = _hbase_native_scanner_next (scanner, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 3);
  last = g_bytes_ref (((HBaseNativeRow *) rows->pdata[2])->key);
  g_assert_cmpuint (_hbase_native_scanner_get_read_point (scanner), >, 0);
  region = _hbase_native_scanner_get_open (scanner, &id);
  g_assert_nonnull (region);

  /* an id the server never gave: UnknownScannerException, resumable */
  request.has_scanner_id = TRUE;
  request.scanner_id = id ^ 0x5a5a5a5aULL;
  request.has_number_of_rows = TRUE;
  request.number_of_rows = 1;
  g_assert_false (_hbase_native_client_call (client, region, "Scan", &request.base,
                                             &hbase__pb__scan_response__descriptor, &reply, NULL,
                                             _hbase_native_client_deadline (client), NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "UnknownScannerException"));
  g_assert_true (_hbase_native_scan_error_resumable (error));
  g_clear_error (&error);

  /* a row written after the scan began, then the scanner closed */
  g_ptr_array_add (cells, cell ("cf", "v", (const guint8 *) "late", 4, 10));
  g_assert_true (_hbase_native_client_put (client, table_name, late, cells, NULL, &error));
  g_assert_no_error (error);
  request.scanner_id = id;
  request.number_of_rows = 0;
  request.has_close_scanner = TRUE;
  request.close_scanner = TRUE;
  g_assert_true (_hbase_native_client_call (client, region, "Scan", &request.base,
                                            &hbase__pb__scan_response__descriptor, &reply, NULL,
                                            _hbase_native_client_deadline (client), NULL, &error));
  g_assert_no_error (error);
  protobuf_c_message_free_unpacked (reply, NULL);
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = _hbase_native_scanner_next (scanner, NULL, &error);
  g_assert_null (rows);
  g_assert_nonnull (error);
  g_test_message ("next after the close: %s", error->message);
  g_assert_true (_hbase_native_scan_error_resumable (error));
  g_clear_error (&error);

  _hbase_native_scanner_restart (scanner, last, FALSE, 0);
  got = scan_all (scanner, &batches);
  g_assert_cmpstr (got, ==, "g03:2,g04:2,g05:2,g06:2,g07:2,g08:2,g09:2,"
                            "p00:2,p01:2,p02:2,p03:2,p04:2,p05:2,p06:2,p07:2,p08:2,p09:2");
  /* a new scan sees it */
  g_clear_pointer (&scanner, _hbase_native_scanner_free);
  g_clear_pointer (&got, g_free);
  {
    g_autoptr(GBytes) s1 = b ("g05"), s2 = b ("g06");

    scanner = _hbase_native_scanner_new (client, table_name, s1, s2, NULL, 0, 100);
    got = scan_all (scanner, &batches);
    g_assert_cmpstr (got, ==, "g05:2,g05x:1");
  }
  g_assert_true (_hbase_native_client_delete_row (client, table_name, late, NULL, &error));
  g_assert_no_error (error);
}

static gboolean
setup (void)
{
  HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  g_autoptr(GPtrArray) splits = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  gateway = test_stack_gateway_from_env ("HBASE_GLIB_TEST_GATEWAY", "127.0.0.1:9090:binary:buffered");
  config = test_stack_config (gateway);
  thrift_client = hbase_client_new (config);
  families[0].name = "cf";
  families[0].max_versions = 3;
  families[1].name = "cf2";
  g_ptr_array_add (splits, g_bytes_new_static ("m", 1));
  table_name = test_stack_unique_name ("native_t_rpc");
  if (!hbase_client_create_table (thrift_client, table_name, families, 2, splits, NULL, &error))
    {
      g_test_message ("cannot create %s: %s", table_name, error->message);
      return FALSE;
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  const char *list = g_getenv ("HBASE_GLIB_TEST_NATIVE_BOOTSTRAP");
  const char *ports = g_getenv ("HBASE_GLIB_TEST_NATIVE_RS_PORTS");
  int rc;

  g_test_init (&argc, &argv, NULL);
  bootstrap = g_strsplit_set (list != NULL && *list != '\0' ? list : "127.0.0.1:16020 127.0.0.1:16000",
                              " ,", -1);
  rs_ports = g_strsplit_set (ports != NULL && *ports != '\0' ? ports : "16020", " ,", -1);
  stack_ok = setup ();
  g_test_add_func ("/native/rpc/registry", test_registry);
  g_test_add_func ("/native/rpc/bootstrap-skips-refused", test_bootstrap_skips_refused);
  g_test_add_func ("/native/rpc/locate", test_locate);
  g_test_add_func ("/native/rpc/put-native-get-thrift", test_put_native_get_thrift);
  g_test_add_func ("/native/rpc/put-thrift-get-native", test_put_thrift_get_native);
  g_test_add_func ("/native/rpc/columns-and-versions", test_columns_and_versions);
  g_test_add_func ("/native/rpc/delete-row", test_delete_row);
  g_test_add_func ("/native/rpc/missing-row", test_missing_row);
  g_test_add_func ("/native/rpc/missing-table", test_missing_table);
  g_test_add_func ("/native/rpc/missing-family", test_missing_family);
  g_test_add_func ("/native/rpc/stale-region-retried", test_stale_region_retried);
  g_test_add_func ("/native/rpc/scan-regions", test_scan_regions);
  g_test_add_func ("/native/rpc/scan-range-and-columns", test_scan_range_and_columns);
  g_test_add_func ("/native/rpc/scan-close-early", test_scan_close_early);
  g_test_add_func ("/native/rpc/scan-reversed-regions", test_scan_reversed_regions);
  g_test_add_func ("/native/rpc/scan-restart", test_scan_restart);
  rc = g_test_run ();
  if (stack_ok)
    {
      g_autoptr(GError) error = NULL;

      if (!hbase_client_delete_table (thrift_client, table_name, NULL, &error))
        g_printerr ("could not drop %s: %s\n", table_name, error->message);
    }
  g_clear_object (&thrift_client);
  g_free (table_name);
  g_strfreev (bootstrap);
  test_stack_gateway_free (gateway);
  return rc;
}
