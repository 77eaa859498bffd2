/* SPDX-License-Identifier: Apache-2.0 */
/* test-backends-differential.c: the same reads through both backends give
 * byte-identical rows.  Rows are written through the Thrift2 gateway
 * (binary keys with 0x00 and 0xff, both regions of a table split at "m",
 * several versions with explicit timestamps, a binary qualifier, and a
 * delete of each kind: whole row, family, column all versions, one cell
 * version), then read through an HBaseTable of a Thrift2 client and of a
 * native client (bootstrap servers) with hbase_table_get() and
 * hbase_table_get_multiple() (and hbase_table_exists()), sync and async
 * (many async gets at once, gathered into get_multiple calls),
 * under several read options
 * (every column, "family" and "family:qualifier" strings, an HBaseColumn
 * list, versions, time ranges, a missing row): keys, families,
 * qualifiers, values, timestamps and cell order must be equal.  The same
 * writes (puts with cell and mutation timestamps and a durability, deletes
 * of one version, of a column's versions, of a family, of a whole row up to
 * a timestamp) through hbase_table_apply(), hbase_table_apply_multiple()
 * and hbase_table_mutate_row() (and a delete of several kinds, sent as one)
 * of each backend leave byte-identical rows; exists answers alike.
 * apply_multiple of runs over both regions, a row several times in a run,
 * and a run that fails on an unknown family: the same rows and error.
 * Increments and appends (binary and empty qualifiers, two families, a
 * durability, cells old and new) return and leave the same cells, the
 * counter helpers the same values, and check-and-mutate with every compare
 * operator and the absent and present tests, passing and failing, the same
 * answers and rows.  The admin calls (create with every family option and
 * split keys, exists, is_enabled, list, disable, enable, truncate, delete,
 * namespaces, and their errors on missing tables and namespaces) give the
 * same answers and error codes, and tables created through either backend
 * have the same descriptors, family value by family value, and describe
 * the same.  And what the
 * native backend does not do yet fails with HBASE_ERROR_NOT_SUPPORTED
 * before anything is sent: filter strings on gets, exists and scans, and
 * ping.  Scans (the
 * whole table across
 * its two regions in calls of 2 rows, versions, a key range, columns, a
 * limit, a prefix) give the same rows in the same order; so do reversed
 * scans across the split (bounds on the region boundary and around it),
 * batches of cells over wide rows (stitched back whole), time ranges,
 * limits on reversed scans, and scans whose server-side scanner is closed
 * behind the client's back (through a Scan call of its own) half-way: the
 * native scanner opens a new one after the last row returned.  A filter of
 * every HBaseFilter constructor and combinator, in typed_filter (the
 * rendering through the gateway, FilterProtos messages on the native
 * backend), gives the same rows on gets, exists, get_multiple and scans.
 *
 * The stack: HBASE_GLIB_TEST_GATEWAY (default
 * 127.0.0.1:9090:binary:buffered) and HBASE_GLIB_TEST_NATIVE_BOOTSTRAP
 * (default "127.0.0.1:16020 127.0.0.1:16000").
 *
 * Long because: every kind of read, write and scan is compared on the one
 * table, written once, that all the cases share, one case per operation
 * the native backend does.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>
#include <hbase-glib/hbase-glib-thrift.h>

#include "../support/test-stack.h"
#include "../../src/table/hbase-get-coalescer.h"
#include "../../src/table/hbase-table-native.h"
#include "Client.pb-c.h"

static TestGateway *gateway;
static HBaseClient *thrift_client;
static HBaseClient *native_client;
static HBaseTable *thrift_table;
static HBaseTable *native_table;
static HBaseTable *native_writer;    /* allows unindexed writes */
static char *table_name;             /* cf (3 versions), cf2; split at "m" */
static gboolean stack_ok;

static const guint8 binary_key[] = { 0x00, 'b', 0xff, 0x00 };
static const guint8 binary_qualifier[] = { 'q', 0x00, ':', 0xfe };

static GBytes *
b (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static void
assert_same_row (HBaseRow *thrift, HBaseRow *native, const char *what)
{
  GBytes *tk = hbase_row_get_key (thrift);
  GBytes *nk = hbase_row_get_key (native);

  g_test_message ("%s: %u cells", what, hbase_row_get_n_cells (thrift));
  g_assert_cmpint (tk == NULL, ==, nk == NULL);
  if (tk != NULL)
    g_assert_true (g_bytes_equal (tk, nk));
  g_assert_cmpint (hbase_row_is_empty (thrift), ==, hbase_row_is_empty (native));
  g_assert_cmpuint (hbase_row_get_n_cells (thrift), ==, hbase_row_get_n_cells (native));
  for (guint i = 0; i < hbase_row_get_n_cells (thrift); i++)
    {
      const HBaseCell *t = hbase_row_get_cell (thrift, i);
      const HBaseCell *n = hbase_row_get_cell (native, i);

      g_assert_true (g_bytes_equal (hbase_cell_get_family (t), hbase_cell_get_family (n)));
      g_assert_true (g_bytes_equal (hbase_cell_get_qualifier (t), hbase_cell_get_qualifier (n)));
      g_assert_true (g_bytes_equal (hbase_cell_get_value (t), hbase_cell_get_value (n)));
      g_assert_cmpint (hbase_cell_get_timestamp (t), ==, hbase_cell_get_timestamp (n));
    }
}

static void
put (GBytes *row, const char *family, GBytes *qualifier, const char *value, gint64 ts)
{
  g_autoptr(HBaseMutation) m = hbase_mutation_new_put (row);
  g_autoptr(GBytes) f = b (family);
  g_autoptr(GBytes) v = b (value);
  g_autoptr(GError) error = NULL;

  hbase_mutation_put_bytes (m, f, qualifier, v, ts);
  g_assert_true (hbase_table_apply (thrift_table, m, NULL, &error));
  g_assert_no_error (error);
}

static void
apply (HBaseMutation *m)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_table_apply (thrift_table, m, NULL, &error));
  g_assert_no_error (error);
}

/* The rows every case reads, written once. */
static GPtrArray *
written_rows (void)
{
  static gsize written;
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GBytes) q = b ("q");
  g_autoptr(GBytes) r = b ("r");
  g_autoptr(GBytes) s = b ("s");
  g_autoptr(GBytes) bq = g_bytes_new (binary_qualifier, sizeof binary_qualifier);

  g_ptr_array_add (keys, g_bytes_new (binary_key, sizeof binary_key));   /* first region */
  g_ptr_array_add (keys, b ("d-versions"));
  g_ptr_array_add (keys, b ("x-deletes"));                               /* second region */
  g_ptr_array_add (keys, b ("y-row-deleted"));
  g_ptr_array_add (keys, b ("z-missing"));
  if (g_once_init_enter (&written))
    {
      GBytes *k0 = keys->pdata[0], *k1 = keys->pdata[1], *k2 = keys->pdata[2], *k3 = keys->pdata[3];

      put (k0, "cf", bq, "binary", 100);
      put (k0, "cf2", q, "other", 101);
      for (gint64 ts = 10; ts <= 50; ts += 10)
        {
          g_autofree char *v = g_strdup_printf ("v%" G_GINT64_FORMAT, ts);

          put (k1, "cf", q, v, ts);
          put (k1, "cf", r, v, ts + 1);
          put (k1, "cf2", q, v, ts + 2);
        }
      for (gint64 ts = 1; ts <= 3; ts++)
        {
          put (k2, "cf", q, "q", ts);
          put (k2, "cf", r, "r", ts);
          put (k2, "cf2", q, "f", ts);
        }
      put (k2, "cf", s, "s", 7);   /* an extra column, then deleted */
      {
        g_autoptr(HBaseMutation) family = hbase_mutation_new_delete (k2);
        g_autoptr(HBaseMutation) column = hbase_mutation_new_delete (k2);
        g_autoptr(HBaseMutation) version = hbase_mutation_new_delete (k2);

        hbase_mutation_delete_family (family, "cf2");
        apply (family);
        hbase_mutation_delete_column (column, "cf", "s");
        apply (column);
        hbase_mutation_delete_cell_version (version, "cf", "q", 2);
        apply (version);
      }
      put (k3, "cf", q, "gone", 5);
      {
        g_autoptr(HBaseMutation) whole = hbase_mutation_new_delete (k3);

        apply (whole);
      }
      g_once_init_leave (&written, 1);
    }
  return keys;
}

static void
compare_reads (const HBaseReadOptions *options, const char *what)
{
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GPtrArray) tr = NULL;
  g_autoptr(GPtrArray) nr = NULL;
  g_autoptr(GError) error = NULL;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack (HBase and its Thrift2 gateway) is not reachable");
      return;
    }
  keys = written_rows ();
  for (guint i = 0; i < keys->len; i++)
    {
      g_autoptr(HBaseRow) t = hbase_table_get (thrift_table, keys->pdata[i], options, NULL, &error);
      g_autoptr(HBaseRow) n = NULL;

      g_assert_no_error (error);
      n = hbase_table_get (native_table, keys->pdata[i], options, NULL, &error);
      g_assert_no_error (error);
      assert_same_row (t, n, what);
    }
  for (guint i = 0; i < keys->len; i++)
    {
      gboolean te = FALSE, ne = TRUE;

      g_assert_true (hbase_table_exists (thrift_table, keys->pdata[i], options, &te, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (hbase_table_exists (native_table, keys->pdata[i], options, &ne, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (te, ==, ne);
    }
  tr = hbase_table_get_multiple (thrift_table, keys, options, NULL, &error);
  g_assert_no_error (error);
  nr = hbase_table_get_multiple (native_table, keys, options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tr->len, ==, nr->len);
  for (guint i = 0; i < tr->len; i++)
    assert_same_row (tr->pdata[i], nr->pdata[i], what);
}

static void
test_every_column (void)
{
  compare_reads (NULL, "every column");
}

static void
test_versions (void)
{
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;

  options.max_versions = 3;
  compare_reads (&options, "3 versions");
  options.max_versions = 100;
  compare_reads (&options, "100 versions");
}

static void
test_column_strings (void)
{
  const char *columns[] = { "cf:r", "cf2", NULL };
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;

  options.columns = columns;
  options.max_versions = 2;
  compare_reads (&options, "cf:r and cf2");
}

static void
test_column_list (void)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_column_unref);
  g_autoptr(GBytes) family = b ("cf");
  g_autoptr(GBytes) bq = g_bytes_new (binary_qualifier, sizeof binary_qualifier);
  g_autoptr(GBytes) q = b ("q");
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;

  g_ptr_array_add (list, hbase_column_new_bytes (family, bq));
  g_ptr_array_add (list, hbase_column_new ("cf", q));
  options.column_list = list;
  compare_reads (&options, "a binary qualifier and cf:q");
}

static void
test_time_range (void)
{
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;

  options.max_versions = 10;
  options.min_timestamp = 20;
  options.max_timestamp = 42;
  compare_reads (&options, "[20, 42)");
  options.max_timestamp = 0;
  options.min_timestamp = 31;
  compare_reads (&options, "from 31");
}

static void
got_row (GObject *source, GAsyncResult *result, gpointer user_data)
{
  HBaseRow **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = hbase_table_get_finish (HBASE_TABLE (source), result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GError) error = NULL;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  keys = written_rows ();
  for (guint i = 0; i < keys->len; i++)
    {
      g_autoptr(HBaseRow) t = hbase_table_get (thrift_table, keys->pdata[i], NULL, NULL, &error);
      g_autoptr(HBaseRow) n = NULL;

      g_assert_no_error (error);
      hbase_table_get_async (native_table, keys->pdata[i], NULL, NULL, got_row, &n);
      while (n == NULL)
        g_main_context_iteration (NULL, TRUE);
      assert_same_row (t, n, "async");
    }
}

/* One of many async gets started at once. */
typedef struct
{
  guint *pending;
  HBaseRow *row;
  GError *error;
} Gathered;

static void
gathered_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Gathered *g = user_data;

  g->row = hbase_table_get_finish (HBASE_TABLE (source), result, &g->error);
  (*g->pending)--;
}

/* Many async gets at once on the native table, every row several times
 * (both regions, a missing row), half of them reading cf only: gathered
 * into get_multiple calls (the coalescer's counts), each gives the row a
 * sync get through the gateway gives. */
static void
test_async_gathered (void)
{
  const guint rounds = 40;
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GError) error = NULL;
  const char *const cf_only[] = { "cf", NULL };
  HBaseReadOptions cf = HBASE_READ_OPTIONS_INIT;
  g_autofree Gathered *gets = NULL;
  guint n, pending;
  guint64 calls, gathered_keys, calls_before, keys_before;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  keys = written_rows ();
  cf.columns = cf_only;
  n = rounds * keys->len;
  pending = n;
  gets = g_new0 (Gathered, n);
  /* the table's counts so far (the async case before went through it too) */
  _hbase_get_coalescer_get_counts (native_table, &calls_before, &keys_before);
  for (guint i = 0; i < n; i++)
    {
      gets[i].pending = &pending;
      hbase_table_get_async (native_table, keys->pdata[i % keys->len], i % 2 == 0 ? NULL : &cf,
                             NULL, gathered_done, &gets[i]);
    }
  while (pending > 0)
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HBaseRow) t = hbase_table_get (thrift_table, keys->pdata[i % keys->len],
                                               i % 2 == 0 ? NULL : &cf, NULL, &error);

      g_assert_no_error (error);
      g_assert_no_error (gets[i].error);
      assert_same_row (t, gets[i].row, "async, gathered");
      g_clear_pointer (&gets[i].row, hbase_row_unref);
    }
  _hbase_get_coalescer_get_counts (native_table, &calls, &gathered_keys);
  g_assert_cmpuint (gathered_keys - keys_before, ==, n);
  g_assert_cmpuint (calls - calls_before, <, n / 2);
}

/* The writes of one round, on rows under @prefix. */
static GPtrArray *
writes (const char *prefix)
{
  GPtrArray *ms = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autofree char *a = g_strdup_printf ("%sa", prefix);
  g_autofree char *bk = g_strdup_printf ("%sb", prefix);
  g_autofree char *c = g_strdup_printf ("%sc", prefix);
  g_autofree char *d = g_strdup_printf ("%sd", prefix);
  g_autoptr(GBytes) one = b ("1");
  g_autoptr(GBytes) two = b ("2");
  g_autoptr(GBytes) cf = b ("cf");
  g_autoptr(GBytes) bq = g_bytes_new (binary_qualifier, sizeof binary_qualifier);
  HBaseMutation *m;

  m = hbase_mutation_new_put_string (a);
  hbase_mutation_put_bytes (m, cf, one, one, 10);
  hbase_mutation_put_bytes (m, cf, one, two, 20);
  hbase_mutation_put_bytes (m, cf, bq, two, 15);
  hbase_mutation_set_durability (m, HBASE_DURABILITY_SYNC_WAL);
  g_ptr_array_add (ms, m);
  m = hbase_mutation_new_put_string (bk);
  hbase_mutation_put (m, "cf", "q", one);
  hbase_mutation_put (m, "cf", "r", two);
  hbase_mutation_put (m, "cf2", "q", two);
  hbase_mutation_set_timestamp (m, 30);
  g_ptr_array_add (ms, m);
  m = hbase_mutation_new_delete_string (a);
  hbase_mutation_delete_cell_version (m, "cf", "1", 10);
  g_ptr_array_add (ms, m);
  m = hbase_mutation_new_put_string (c);
  hbase_mutation_put_bytes (m, cf, one, one, 5);
  hbase_mutation_put (m, "cf2", "q", one);
  hbase_mutation_set_timestamp (m, 5);
  g_ptr_array_add (ms, m);
  m = hbase_mutation_new_delete_string (c);
  hbase_mutation_delete_family (m, "cf2");
  hbase_mutation_set_timestamp (m, 6);
  g_ptr_array_add (ms, m);
  m = hbase_mutation_new_delete_string (bk);
  hbase_mutation_delete_column (m, "cf", "r");
  g_ptr_array_add (ms, m);
  m = hbase_mutation_new_put_string (d);
  hbase_mutation_put (m, "cf", "q", one);
  hbase_mutation_set_timestamp (m, 50);
  g_ptr_array_add (ms, m);
  m = hbase_mutation_new_delete_string (d);
  hbase_mutation_set_timestamp (m, 100);
  g_ptr_array_add (ms, m);
  return ms;
}

static void
assert_same_cells (HBaseRow *thrift, HBaseRow *native)
{
  g_assert_cmpuint (hbase_row_get_n_cells (thrift), ==, hbase_row_get_n_cells (native));
  for (guint i = 0; i < hbase_row_get_n_cells (thrift); i++)
    {
      const HBaseCell *t = hbase_row_get_cell (thrift, i);
      const HBaseCell *n = hbase_row_get_cell (native, i);

      g_assert_true (g_bytes_equal (hbase_cell_get_family (t), hbase_cell_get_family (n)));
      g_assert_true (g_bytes_equal (hbase_cell_get_qualifier (t), hbase_cell_get_qualifier (n)));
      g_assert_true (g_bytes_equal (hbase_cell_get_value (t), hbase_cell_get_value (n)));
      g_assert_cmpint (hbase_cell_get_timestamp (t), ==, hbase_cell_get_timestamp (n));
    }
}

static void
compare_written (const char *thrift_prefix, const char *native_prefix)
{
  static const char *rows_written[] = { "a", "b", "c", "d" };
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;

  options.max_versions = 10;
  for (gsize i = 0; i < G_N_ELEMENTS (rows_written); i++)
    {
      g_autofree char *tk = g_strconcat (thrift_prefix, rows_written[i], NULL);
      g_autofree char *nk = g_strconcat (native_prefix, rows_written[i], NULL);
      g_autoptr(GBytes) tkey = b (tk);
      g_autoptr(GBytes) nkey = b (nk);
      g_autoptr(HBaseRow) t = hbase_table_get (thrift_table, tkey, &options, NULL, &error);
      g_autoptr(HBaseRow) n = NULL;

      g_assert_no_error (error);
      n = hbase_table_get (thrift_table, nkey, &options, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("%s: %u cells", rows_written[i], hbase_row_get_n_cells (t));
      assert_same_cells (t, n);
    }
}

static void
test_writes (void)
{
  g_autoptr(GPtrArray) tw = NULL;
  g_autoptr(GPtrArray) nw = NULL;
  g_autoptr(GPtrArray) tmw = NULL;
  g_autoptr(GPtrArray) nmw = NULL;
  g_autoptr(GError) error = NULL;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  /* one by one */
  tw = writes ("w-t/");
  nw = writes ("w-n/");
  for (guint i = 0; i < tw->len; i++)
    {
      g_assert_true (hbase_table_apply (thrift_table, tw->pdata[i], NULL, &error));
      g_assert_no_error (error);
      g_assert_true (hbase_table_apply (native_writer, nw->pdata[i], NULL, &error));
      g_assert_no_error (error);
    }
  compare_written ("w-t/", "w-n/");
  /* all at once */
  tmw = writes ("m-t/");
  nmw = writes ("m-n/");
  g_assert_true (hbase_table_apply_multiple (thrift_table, tmw, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hbase_table_apply_multiple (native_writer, nmw, NULL, &error));
  g_assert_no_error (error);
  compare_written ("m-t/", "m-n/");
  /* atomic: mutate_row, and a delete of several kinds (sent as one) */
  for (guint round = 0; round < 2; round++)
    {
      HBaseTable *table = round == 0 ? thrift_table : native_writer;
      g_autoptr(GPtrArray) ms = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
      g_autoptr(GBytes) one = b ("1");
      const char *key = round == 0 ? "r-t/a" : "r-n/a";
      HBaseMutation *m = hbase_mutation_new_put_string (key);
      g_autoptr(HBaseMutation) mixed = hbase_mutation_new_delete_string (key);

      hbase_mutation_put (m, "cf", "q", one);
      hbase_mutation_put (m, "cf", "r", one);
      hbase_mutation_put (m, "cf2", "q", one);
      hbase_mutation_set_timestamp (m, 40);
      g_ptr_array_add (ms, m);
      m = hbase_mutation_new_delete_string (key);
      hbase_mutation_delete_cell_version (m, "cf", "r", 40);
      g_ptr_array_add (ms, m);
      m = hbase_mutation_new_put_string (key);
      hbase_mutation_put (m, "cf", "s", one);
      hbase_mutation_set_timestamp (m, 41);
      g_ptr_array_add (ms, m);
      g_assert_true (hbase_table_mutate_row (table, ms, NULL, &error));
      g_assert_no_error (error);
      hbase_mutation_delete_family (mixed, "cf2");
      hbase_mutation_delete_column (mixed, "cf", "s");
      g_assert_true (hbase_table_apply (table, mixed, NULL, &error));
      g_assert_no_error (error);
    }
  {
    HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
    g_autoptr(GBytes) tkey = b ("r-t/a");
    g_autoptr(GBytes) nkey = b ("r-n/a");
    g_autoptr(HBaseRow) t = NULL;
    g_autoptr(HBaseRow) n = NULL;

    options.max_versions = 10;
    t = hbase_table_get (thrift_table, tkey, &options, NULL, &error);
    g_assert_no_error (error);
    n = hbase_table_get (thrift_table, nkey, &options, NULL, &error);
    g_assert_no_error (error);
    g_test_message ("mutate_row: %u cells", hbase_row_get_n_cells (t));
    g_assert_cmpuint (hbase_row_get_n_cells (t), ==, 1);
    assert_same_cells (t, n);
  }
}

static GPtrArray *
scan_all (HBaseTable *table, const HBaseScanOptions *options)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GError) error = NULL;
  HBaseRow *row = NULL;

  scanner = hbase_table_scan (table, options, &error);
  g_assert_no_error (error);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    g_ptr_array_add (rows, row);
  g_assert_no_error (error);
  return rows;
}

static void
compare_scans (const HBaseScanOptions *options, const char *what)
{
  g_autoptr(GPtrArray) keys = written_rows ();
  g_autoptr(GPtrArray) t = scan_all (thrift_table, options);
  g_autoptr(GPtrArray) n = scan_all (native_table, options);

  g_test_message ("%s: %u rows", what, t->len);
  g_assert_cmpuint (t->len, ==, n->len);
  for (guint i = 0; i < t->len; i++)
    assert_same_row (t->pdata[i], n->pdata[i], what);
}

/* Scans across the region boundary at "m", in small calls. */
static void
test_scans (void)
{
  const char *columns[] = { "cf:q", NULL };
  g_autoptr(GBytes) start = b ("d");
  g_autoptr(GBytes) stop = b ("y");
  g_autoptr(GBytes) prefix = b ("x-");
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  options.caching = 2;
  compare_scans (&options, "whole table, 2 rows a call");
  options.read.max_versions = 3;
  compare_scans (&options, "3 versions");
  options.start_row = start;
  options.stop_row = stop;
  compare_scans (&options, "[d, y)");
  options.read.columns = columns;
  compare_scans (&options, "[d, y) of cf:q");
  options.read.columns = NULL;
  options.limit = 3;
  compare_scans (&options, "[d, y), 3 rows");
  options.limit = 0;
  options.start_row = NULL;
  options.stop_row = NULL;
  options.prefix = prefix;
  compare_scans (&options, "prefix x-");
}

/* --- scans of every kind -------------------------------------------------- */

/* Wide rows on both sides of the split at "m" and on it: 12 columns of cf
 * in 3 versions (timestamps 1, 2, 3) and cf2:q, written once. */
static void
write_wide_rows (void)
{
  static gsize written;
  static const char *const keys[] = {
    "c-wide-0", "c-wide-1", "c-wide-2", "c-wide-3", "m",
    "n-wide-0", "n-wide-1", "n-wide-2", "n-wide-3",
  };

  if (!g_once_init_enter (&written))
    return;
  for (gsize k = 0; k < G_N_ELEMENTS (keys); k++)
    for (gint64 ts = 1; ts <= 3; ts++)
      {
        g_autoptr(GBytes) row = b (keys[k]);
        g_autoptr(HBaseMutation) m = hbase_mutation_new_put (row);
        g_autoptr(GBytes) f = b ("cf");

        for (guint q = 0; q < 12; q++)
          {
            g_autofree char *qualifier = g_strdup_printf ("q%02u", q);
            g_autofree char *value = g_strdup_printf ("%s/%u@%" G_GINT64_FORMAT, keys[k], q, ts);
            g_autoptr(GBytes) qb = b (qualifier);
            g_autoptr(GBytes) vb = b (value);

            hbase_mutation_put_bytes (m, f, qb, vb, ts);
          }
        if (ts == 3)
          {
            g_autoptr(GBytes) f2 = b ("cf2");
            g_autoptr(GBytes) q = b ("q");
            g_autoptr(GBytes) v = b (keys[k]);

            hbase_mutation_put_bytes (m, f2, q, v, 5);
          }
        apply (m);
      }
  g_ptr_array_unref (written_rows ());
  g_once_init_leave (&written, 1);
}

static void
assert_first_key (const HBaseScanOptions *options, const char *key)
{
  g_autoptr(GPtrArray) n = scan_all (native_table, options);
  GBytes *got;

  g_assert_cmpuint (n->len, >, 0);
  got = hbase_row_get_key (n->pdata[0]);
  g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got), key, strlen (key));
}

/* Reversed, across the split at "m", with bounds on it and around it. */
static void
test_scan_reversed (void)
{
  g_autoptr(GBytes) y = b ("y");
  g_autoptr(GBytes) d = b ("d");
  g_autoptr(GBytes) m = b ("m");
  g_autoptr(GBytes) n = b ("n");
  g_autoptr(GBytes) c1 = b ("c-wide-1");
  g_autoptr(GBytes) n_prefix = b ("n-wide");
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  write_wide_rows ();
  options.reversed = TRUE;
  options.caching = 2;
  compare_scans (&options, "reversed, whole table, 2 rows a call");
  options.caching = 0;
  compare_scans (&options, "reversed, whole table");
  options.caching = 3;
  options.start_row = y;
  options.stop_row = d;
  compare_scans (&options, "reversed from y down to d");
  options.start_row = m;
  options.stop_row = NULL;
  compare_scans (&options, "reversed from m (the region boundary) down");
  assert_first_key (&options, "m");
  options.start_row = NULL;
  options.stop_row = m;
  compare_scans (&options, "reversed down to m, excluded");
  options.start_row = n;
  options.stop_row = c1;
  compare_scans (&options, "reversed from n down to c-wide-1");
  assert_first_key (&options, "m");
  options.start_row = NULL;
  options.stop_row = NULL;
  options.prefix = n_prefix;
  compare_scans (&options, "reversed, prefix n-wide");
  assert_first_key (&options, "n-wide-3");
  options.prefix = NULL;
  options.read.max_versions = 3;
  compare_scans (&options, "reversed, 3 versions");
}

/* Batches of cells: wide rows come in pieces and are stitched whole. */
static void
test_scan_batch (void)
{
  const char *columns[] = { "cf", NULL };
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GPtrArray) rows = NULL;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  write_wide_rows ();
  options.batch = 5;
  options.caching = 2;
  compare_scans (&options, "batch 5, 2 results a call");
  options.read.max_versions = 3;
  compare_scans (&options, "batch 5, 3 versions");
  options.reversed = TRUE;
  compare_scans (&options, "batch 5, 3 versions, reversed");
  options.read.max_versions = 0;
  options.read.columns = columns;
  options.batch = 1;
  options.caching = 7;
  compare_scans (&options, "batch 1 of cf, reversed, 7 a call");
  /* the rows are whole: 12 columns of cf */
  options.reversed = FALSE;
  options.batch = 5;
  rows = scan_all (native_table, &options);
  for (guint i = 0; i < rows->len; i++)
    {
      GBytes *key = hbase_row_get_key (rows->pdata[i]);

      if (g_bytes_get_size (key) > 5 && memcmp (g_bytes_get_data (key, NULL), "n-wide", 6) == 0)
        g_assert_cmpuint (hbase_row_get_n_cells (rows->pdata[i]), ==, 12);
    }
}

static void
test_scan_time_range (void)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  write_wide_rows ();
  options.caching = 4;
  options.read.min_timestamp = 2;
  options.read.max_timestamp = 3;
  compare_scans (&options, "time range [2, 3)");
  options.read.max_versions = 3;
  options.read.max_timestamp = 0;
  compare_scans (&options, "from 2 on, 3 versions");
  options.read.min_timestamp = 0;
  options.read.max_timestamp = 3;
  options.reversed = TRUE;
  compare_scans (&options, "before 3, 3 versions, reversed");
  options.batch = 7;
  compare_scans (&options, "before 3, 3 versions, reversed, batch 7");
}

static void
test_scan_limit_reversed (void)
{
  g_autoptr(GBytes) start = b ("n-wide-1");
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  write_wide_rows ();
  options.reversed = TRUE;
  options.limit = 3;
  compare_scans (&options, "reversed, 3 rows");
  options.caching = 2;
  options.limit = 5;
  options.start_row = start;
  compare_scans (&options, "reversed from n-wide-1, 5 rows across the split, 2 a call");
  options.batch = 4;
  compare_scans (&options, "the same with batch 4");
}

/* Closes @scanner's server-side scanner behind its back, with a Scan call
 * of its own on the same native client. */
static void
close_behind (HBaseScanner *scanner)
{
  HBaseNativeClient *client = _hbase_table_native_client (native_table);
  HBaseNativeScanner *native = _hbase_scanner_get_native (scanner);
  Hbase__Pb__ScanRequest request = HBASE__PB__SCAN_REQUEST__INIT;
  const HBaseNativeRegion *region;
  ProtobufCMessage *reply = NULL;
  g_autoptr(GError) error = NULL;
  guint64 id = 0;

  g_assert_nonnull (native);
  region = _hbase_native_scanner_get_open (native, &id);
  g_assert_nonnull (region);
  request.has_scanner_id = TRUE;
  request.scanner_id = id;
  request.has_number_of_rows = TRUE;
  request.number_of_rows = 0;
  request.has_close_scanner = TRUE;
  request.close_scanner = TRUE;
  g_assert_true (_hbase_native_client_call (client, region, "Scan", &request.base,
                                            &hbase__pb__scan_response__descriptor, &reply, NULL,
                                            _hbase_native_client_deadline (client), NULL, &error));
  g_assert_no_error (error);
  protobuf_c_message_free_unpacked (reply, NULL);
}

/* Scans whose server-side scanner is closed under them (twice) after
 * some rows: the rest comes from a new one, no row lost or repeated. */
static void
test_scan_reopened (void)
{
  HBaseScanOptions variants[4] = {
    HBASE_SCAN_OPTIONS_INIT, HBASE_SCAN_OPTIONS_INIT, HBASE_SCAN_OPTIONS_INIT,
    HBASE_SCAN_OPTIONS_INIT,
  };
  const char *what[] = { "forward", "reversed", "reversed, batch 5", "3 versions, limit 9" };

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  write_wide_rows ();
  variants[0].caching = 2;
  variants[1].caching = 2;
  variants[1].reversed = TRUE;
  variants[2].caching = 3;
  variants[2].reversed = TRUE;
  variants[2].batch = 5;
  variants[3].caching = 2;
  variants[3].read.max_versions = 3;
  variants[3].limit = 9;
  for (gsize v = 0; v < G_N_ELEMENTS (variants); v++)
    {
      g_autoptr(GPtrArray) t = scan_all (thrift_table, &variants[v]);
      g_autoptr(GPtrArray) n = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
      g_autoptr(HBaseScanner) scanner = hbase_table_scan (native_table, &variants[v], NULL);
      g_autoptr(GError) error = NULL;
      HBaseRow *row = NULL;

      g_assert_nonnull (scanner);
      while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
        {
          g_ptr_array_add (n, row);
          /* after the 3rd and the 7th row, the scanner is still open
           * (the 4th, or the 8th, was read with them) */
          if (n->len == 3 || n->len == 7)
            close_behind (scanner);
        }
      g_assert_no_error (error);
      g_test_message ("%s: %u rows", what[v], t->len);
      g_assert_cmpuint (t->len, >, 7);
      g_assert_cmpuint (t->len, ==, n->len);
      for (guint i = 0; i < t->len; i++)
        assert_same_row (t->pdata[i], n->pdata[i], what[v]);
    }
}

/* A far-future timestamp: an increment or append of a cell written at it
 * gets ts + 1 from the server (the newer of now and the old cell's ts + 1),
 * the same on both backends, so their rows compare byte for byte. */
#define FUTURE_TS G_GINT64_CONSTANT (4000000000000000)

/* Seeds @key (through the gateway) with counters and text at FUTURE_TS. */
static void
seed_atomic_row (GBytes *key)
{
  g_autoptr(HBaseMutation) m = hbase_mutation_new_put (key);
  g_autoptr(GBytes) five = hbase_counter_encode (5);
  g_autoptr(GBytes) minus = hbase_counter_encode (-100);
  g_autoptr(GBytes) text = b ("ab");
  g_autoptr(GBytes) cf = b ("cf");
  g_autoptr(GBytes) bq = g_bytes_new (binary_qualifier, sizeof binary_qualifier);

  hbase_mutation_put_bytes (m, cf, bq, five, FUTURE_TS);
  hbase_mutation_put_bytes (m, cf, NULL, minus, FUTURE_TS);
  hbase_mutation_put_bytes (m, cf, text, text, FUTURE_TS);
  hbase_mutation_set_timestamp (m, FUTURE_TS);
  hbase_mutation_put (m, "cf2", "n", five);
  apply (m);
}

/* Both rows, every version, read through the gateway: the same cells. */
static void
compare_rows (GBytes *tkey, GBytes *nkey, const char *what)
{
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseRow) t = NULL;
  g_autoptr(HBaseRow) n = NULL;

  options.max_versions = 10;
  t = hbase_table_get (thrift_table, tkey, &options, NULL, &error);
  g_assert_no_error (error);
  n = hbase_table_get (thrift_table, nkey, &options, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("%s: %u cells", what, hbase_row_get_n_cells (t));
  g_assert_cmpuint (hbase_row_get_n_cells (t), >, 0);
  assert_same_cells (t, n);
}

/* Rows of two keys alike but for the key itself. */
static void
assert_same_result (HBaseRow *t, HBaseRow *n, gboolean timestamps)
{
  g_assert_cmpint (hbase_row_is_empty (t), ==, hbase_row_is_empty (n));
  g_assert_cmpuint (hbase_row_get_n_cells (t), ==, hbase_row_get_n_cells (n));
  g_assert_cmpint (hbase_row_get_key (t) == NULL, ==, hbase_row_get_key (n) == NULL);
  for (guint i = 0; i < hbase_row_get_n_cells (t); i++)
    {
      const HBaseCell *tc = hbase_row_get_cell (t, i);
      const HBaseCell *nc = hbase_row_get_cell (n, i);

      g_assert_true (g_bytes_equal (hbase_cell_get_family (tc), hbase_cell_get_family (nc)));
      g_assert_true (g_bytes_equal (hbase_cell_get_qualifier (tc), hbase_cell_get_qualifier (nc)));
      g_assert_true (g_bytes_equal (hbase_cell_get_value (tc), hbase_cell_get_value (nc)));
      if (timestamps)
        g_assert_cmpint (hbase_cell_get_timestamp (tc), ==, hbase_cell_get_timestamp (nc));
    }
}

/* Increments and appends through each backend: the returned rows and the
 * stored rows alike (timestamps too, where the server derives them from
 * the old cells'); of cells that did not exist, the timestamps are the
 * server's clock at the call. */
static void
test_increment_append (void)
{
  g_autoptr(GBytes) tkey = b ("i-t/a");
  g_autoptr(GBytes) nkey = b ("i-n/a");
  g_autoptr(GBytes) cf = b ("cf");
  g_autoptr(GBytes) bq = g_bytes_new (binary_qualifier, sizeof binary_qualifier);
  g_autoptr(GBytes) text = b ("ab");
  g_autoptr(GBytes) more = g_bytes_new ("c\0d", 3);
  HBaseRow *results[2][4] = { { NULL } };
  g_autoptr(GError) error = NULL;
  gint64 before, after;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  seed_atomic_row (tkey);
  seed_atomic_row (nkey);
  for (guint round = 0; round < 2; round++)
    {
      HBaseTable *table = round == 0 ? thrift_table : native_writer;
      GBytes *key = round == 0 ? tkey : nkey;
      g_autoptr(HBaseMutation) inc = hbase_mutation_new_increment (key);
      g_autoptr(HBaseMutation) app = hbase_mutation_new_append (key);
      g_autoptr(HBaseMutation) fresh = hbase_mutation_new_increment (key);
      g_autoptr(HBaseMutation) fresh_app = hbase_mutation_new_append (key);

      /* two families, a binary and an empty qualifier, a negative amount */
      hbase_mutation_increment_bytes (inc, cf, bq, 3);
      hbase_mutation_increment_bytes (inc, cf, NULL, -7);
      hbase_mutation_increment (inc, "cf2", "n", G_MAXINT32);
      hbase_mutation_set_durability (inc, HBASE_DURABILITY_SKIP_WAL);
      results[round][0] = hbase_table_increment (table, inc, NULL, &error);
      g_assert_no_error (error);
      hbase_mutation_append_bytes (app, cf, text, more);
      results[round][1] = hbase_table_append (table, app, NULL, &error);
      g_assert_no_error (error);
      /* cells that did not exist yet */
      hbase_mutation_increment (fresh, "cf", "new", 42);
      before = g_get_real_time () / 1000;
      results[round][2] = hbase_table_increment (table, fresh, NULL, &error);
      g_assert_no_error (error);
      hbase_mutation_append (fresh_app, "cf2", "new", more);
      results[round][3] = hbase_table_append (table, fresh_app, NULL, &error);
      after = g_get_real_time () / 1000;
      g_assert_no_error (error);
      for (guint k = 2; k < 4; k++)
        {
          gint64 ts = hbase_cell_get_timestamp (hbase_row_get_cell (results[round][k], 0));

          g_assert_cmpint (ts, >=, before - 1000);
          g_assert_cmpint (ts, <=, after + 1000);
        }
    }
  /* an increment of a cell that is no counter: the server's error, alike,
   * and certain (the server answered that it did not apply it) */
  {
    GError *bad[2] = { NULL, NULL };

    for (guint round = 0; round < 2; round++)
      {
        g_autoptr(HBaseMutation) inc = hbase_mutation_new_increment (round == 0 ? tkey : nkey);
        g_autoptr(HBaseRow) none = NULL;

        hbase_mutation_increment_bytes (inc, cf, text, 1);
        none = hbase_table_increment (round == 0 ? thrift_table : native_writer, inc, NULL,
                                      &bad[round]);
        g_assert_null (none);
        g_assert_nonnull (bad[round]);
        g_test_message ("not a counter: %s", bad[round]->message);
      }
    g_assert_true (bad[0]->domain == bad[1]->domain);
    g_assert_cmpint (bad[0]->code, ==, bad[1]->code);
    g_assert_false (hbase_error_is_in_doubt (bad[0]));
    g_assert_false (hbase_error_is_in_doubt (bad[1]));
    g_clear_error (&bad[0]);
    g_clear_error (&bad[1]);
  }
  g_assert_cmpuint (hbase_row_get_n_cells (results[0][0]), ==, 3);
  g_assert_cmpint (hbase_cell_get_timestamp (hbase_row_get_cell (results[0][0], 0)), ==,
                   FUTURE_TS + 1);
  for (guint k = 0; k < 4; k++)
    assert_same_result (results[0][k], results[1][k], k < 2);
  g_assert_true (g_bytes_equal (hbase_row_get_key (results[1][0]), nkey));
  {
    HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
    const char *columns[] = { "cf", "cf2:n", NULL };
    g_autoptr(HBaseRow) t = NULL;
    g_autoptr(HBaseRow) n = NULL;

    /* the seeded and the new versions (the fresh cells' times differ) */
    options.max_versions = 10;
    options.columns = columns;
    t = hbase_table_get (thrift_table, tkey, &options, NULL, &error);
    g_assert_no_error (error);
    n = hbase_table_get (thrift_table, nkey, &options, NULL, &error);
    g_assert_no_error (error);
    assert_same_result (t, n, FALSE);
  }
  for (guint round = 0; round < 2; round++)
    for (guint k = 0; k < 4; k++)
      hbase_row_unref (results[round][k]);
}

/* The counter helpers through each backend: the same values. */
static void
test_counters (void)
{
  g_autoptr(GBytes) tkey = b ("n-t/a");
  g_autoptr(GBytes) nkey = b ("n-n/a");
  g_autoptr(GError) error = NULL;
  gint64 values[2][5];

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  for (guint round = 0; round < 2; round++)
    {
      HBaseTable *table = round == 0 ? thrift_table : native_writer;
      GBytes *key = round == 0 ? tkey : nkey;

      g_assert_true (hbase_table_get_counter (table, key, "cf", "c", &values[round][0], NULL,
                                              &error));
      g_assert_no_error (error);
      g_assert_true (hbase_table_increment_counter (table, key, "cf", "c", 9, &values[round][1],
                                                    NULL, &error));
      g_assert_no_error (error);
      g_assert_true (hbase_table_increment_counter (table, key, "cf", NULL, -3,
                                                    &values[round][2], NULL, &error));
      g_assert_no_error (error);
      g_assert_true (hbase_table_set_counter (table, key, "cf", "c", G_MININT64 + 1, NULL,
                                              &error));
      g_assert_no_error (error);
      g_assert_true (hbase_table_increment_counter (table, key, "cf", "c", -1, &values[round][3],
                                                    NULL, &error));
      g_assert_no_error (error);
      g_assert_true (hbase_table_get_counter (table, key, "cf", "c", &values[round][4], NULL,
                                              &error));
      g_assert_no_error (error);
    }
  g_assert_cmpint (values[0][0], ==, 0);
  g_assert_cmpint (values[0][1], ==, 9);
  g_assert_cmpint (values[0][2], ==, -3);
  g_assert_cmpint (values[0][3], ==, G_MININT64);
  g_assert_cmpint (values[0][4], ==, G_MININT64);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpint (values[0][i], ==, values[1][i]);
}

/* Check-and-mutate through each backend, with every compare operator and
 * the absent and present tests, passing and failing: the same answers
 * and the same rows. */
static void
test_check_and_mutate (void)
{
  static const struct {
    const char    *qualifier;
    HBaseCompareOp op;
    const char    *value;       /* NULL: no value (absent, present) */
    gboolean       passes;
  } cases[] = {
    { "v", HBASE_COMPARE_LESS, "n", TRUE },
    { "v", HBASE_COMPARE_LESS, "m", FALSE },
    { "v", HBASE_COMPARE_LESS_OR_EQUAL, "m", TRUE },
    { "v", HBASE_COMPARE_LESS_OR_EQUAL, "l", FALSE },
    { "v", HBASE_COMPARE_EQUAL, "m", TRUE },
    { "v", HBASE_COMPARE_EQUAL, "x", FALSE },
    { "v", HBASE_COMPARE_NOT_EQUAL, "x", TRUE },
    { "v", HBASE_COMPARE_NOT_EQUAL, "m", FALSE },
    { "v", HBASE_COMPARE_GREATER_OR_EQUAL, "m", TRUE },
    { "v", HBASE_COMPARE_GREATER_OR_EQUAL, "z", FALSE },
    { "v", HBASE_COMPARE_GREATER, "a", TRUE },
    { "v", HBASE_COMPARE_GREATER, "m", FALSE },
    { "none", HBASE_COMPARE_EQUAL, NULL, TRUE },        /* absent */
    { "v", HBASE_COMPARE_EQUAL, NULL, FALSE },
    { "v", HBASE_COMPARE_NOT_EQUAL, NULL, TRUE },       /* present */
    { "none", HBASE_COMPARE_NOT_EQUAL, NULL, FALSE },
  };
  g_autoptr(GError) error = NULL;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *tk = g_strdup_printf ("c-t/%02" G_GSIZE_FORMAT, i);
      g_autofree char *nk = g_strdup_printf ("c-n/%02" G_GSIZE_FORMAT, i);
      g_autoptr(GBytes) tkey = b (tk);
      g_autoptr(GBytes) nkey = b (nk);
      g_autoptr(GBytes) value = cases[i].value != NULL ? b (cases[i].value) : NULL;
      g_autoptr(HBaseCondition) condition = hbase_condition_new ("cf", cases[i].qualifier,
                                                                 cases[i].op, value);
      gboolean applied[2] = { !cases[i].passes, !cases[i].passes };

      for (guint round = 0; round < 2; round++)
        {
          HBaseTable *table = round == 0 ? thrift_table : native_writer;
          GBytes *key = round == 0 ? tkey : nkey;
          g_autoptr(HBaseMutation) seed = hbase_mutation_new_put (key);
          g_autoptr(GBytes) m = b ("m");
          g_autoptr(GBytes) one = b ("1");
          g_autoptr(GPtrArray) ms = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
          HBaseMutation *put = hbase_mutation_new_put (key);
          HBaseMutation *del = hbase_mutation_new_delete (key);

          hbase_mutation_put (seed, "cf", "v", m);
          hbase_mutation_put (seed, "cf2", "x", m);
          hbase_mutation_set_timestamp (seed, 100);
          apply (seed);
          /* a put and a delete (one mutation alone for every other case) */
          hbase_mutation_put (put, "cf", "r", one);
          hbase_mutation_set_timestamp (put, 50 + i);
          g_ptr_array_add (ms, put);
          hbase_mutation_delete_column (del, "cf2", "x");
          if (i % 2 == 0)
            g_ptr_array_add (ms, del);
          else
            hbase_mutation_unref (del);
          g_assert_true (hbase_table_check_and_mutate (table, condition, ms, &applied[round],
                                                       NULL, &error));
          g_assert_no_error (error);
        }
      g_test_message ("case %" G_GSIZE_FORMAT ": applied %d", i, applied[0]);
      g_assert_cmpint (applied[0], ==, cases[i].passes);
      g_assert_cmpint (applied[1], ==, applied[0]);
      compare_rows (tkey, nkey, tk);
    }
}

/* apply_multiple of runs of puts and deletes over both regions (one Multi
 * per region server on the native backend), several mutations of a row
 * in one run (the later ones win), and a run with a put of an unknown
 * family: the same rows, and the same error and rows after it. */
static void
test_apply_multiple_batches (void)
{
  static const char *keys[] = { "b-batch", "y-batch", "c-batch", "z-batch" };
  GError *errors[2] = { NULL, NULL };
  g_autoptr(GError) error = NULL;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  for (guint round = 0; round < 2; round++)
    {
      HBaseTable *table = round == 0 ? thrift_table : native_writer;
      const char *prefix = round == 0 ? "t-" : "n-";
      g_autoptr(GPtrArray) ms = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
      g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
      g_autoptr(GBytes) one = b ("1");
      g_autoptr(GBytes) two = b ("2");
      HBaseMutation *m;

      /* a run of puts: rows of both regions, each row twice, the second
       * overwriting the first at the same timestamp */
      for (guint pass = 0; pass < 2; pass++)
        for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
          {
            g_autofree char *key = g_strconcat (prefix, keys[i], NULL);

            m = hbase_mutation_new_put_string (key);
            hbase_mutation_put (m, "cf", "q", pass == 0 ? one : two);
            hbase_mutation_put (m, "cf2", pass == 0 ? "a" : "b", one);
            hbase_mutation_set_timestamp (m, 70);
            g_ptr_array_add (ms, m);
          }
      /* a run of deletes over both regions, then puts again */
      for (gsize i = 0; i < G_N_ELEMENTS (keys); i += 2)
        {
          g_autofree char *key = g_strconcat (prefix, keys[i], NULL);

          m = hbase_mutation_new_delete_string (key);
          hbase_mutation_delete_family (m, "cf2");
          g_ptr_array_add (ms, m);
        }
      for (gsize i = 1; i < G_N_ELEMENTS (keys); i += 2)
        {
          g_autofree char *key = g_strconcat (prefix, keys[i], NULL);

          m = hbase_mutation_new_delete_string (key);
          hbase_mutation_delete_column (m, "cf", "q");
          g_ptr_array_add (ms, m);
        }
      for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
        {
          g_autofree char *key = g_strconcat (prefix, keys[i], NULL);

          m = hbase_mutation_new_put_string (key);
          hbase_mutation_put (m, "cf", "r", two);
          hbase_mutation_set_timestamp (m, 80);
          g_ptr_array_add (ms, m);
        }
      g_assert_true (hbase_table_apply_multiple (table, ms, NULL, &error));
      g_assert_no_error (error);

      /* a run whose third put names a family the table lacks */
      for (guint i = 0; i < 4; i++)
        {
          g_autofree char *key = g_strdup_printf ("%sfail-%c", prefix, i % 2 == 0 ? 'a' : 'x');

          m = hbase_mutation_new_put_string (key);
          hbase_mutation_put (m, i == 2 ? "nope" : "cf", "q", one);
          hbase_mutation_set_timestamp (m, 90 + i);
          g_ptr_array_add (bad, m);
        }
      g_assert_false (hbase_table_apply_multiple (table, bad, NULL, &errors[round]));
      g_assert_nonnull (errors[round]);
      g_test_message ("failed run (%s): %s", prefix, errors[round]->message);
    }
  g_assert_true (errors[0]->domain == errors[1]->domain);
  g_assert_cmpint (errors[0]->code, ==, errors[1]->code);
  /* the other mutations of the run were applied: both say "maybe" */
  g_assert_cmpint (hbase_error_is_in_doubt (errors[0]), ==, hbase_error_is_in_doubt (errors[1]));
  g_assert_true (hbase_error_is_in_doubt (errors[1]));
  g_assert_nonnull (strstr (errors[1]->message, "nope"));
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *tk = g_strconcat ("t-", keys[i], NULL);
      g_autofree char *nk = g_strconcat ("n-", keys[i], NULL);
      g_autoptr(GBytes) tkey = b (tk);
      g_autoptr(GBytes) nkey = b (nk);

      compare_rows (tkey, nkey, tk);
    }
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *tk = g_strdup_printf ("t-fail-%c", i % 2 == 0 ? 'a' : 'x');
      g_autofree char *nk = g_strdup_printf ("n-fail-%c", i % 2 == 0 ? 'a' : 'x');
      g_autoptr(GBytes) tkey = b (tk);
      g_autoptr(GBytes) nkey = b (nk);
      HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
      g_autoptr(HBaseRow) t = NULL;
      g_autoptr(HBaseRow) n = NULL;

      options.max_versions = 10;
      t = hbase_table_get (thrift_table, tkey, &options, NULL, &error);
      g_assert_no_error (error);
      n = hbase_table_get (thrift_table, nkey, &options, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("after the failed run, %s: %u cells", tk, hbase_row_get_n_cells (t));
      assert_same_cells (t, n);
    }
  g_clear_error (&errors[0]);
  g_clear_error (&errors[1]);
}

/* A typed filter: the same reads and scans through both backends, with
 * 1 and 3 versions. */
static void
compare_filter (HBaseFilter *filter, const char *what)
{
  HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
  g_autofree char *text = hbase_filter_to_string (filter, NULL);

  g_test_message ("%s: %s", what, text != NULL ? text : "(holds 0x00)");
  scan.read.typed_filter = filter;
  scan.caching = 2;
  compare_reads (&scan.read, what);
  compare_scans (&scan, what);
  scan.read.max_versions = 3;
  compare_reads (&scan.read, what);
  compare_scans (&scan, what);
  hbase_filter_unref (filter);
}

/* Every constructor and combinator of HBaseFilter, on the rows the other
 * cases read (binary keys and qualifiers, versions, deletes, both
 * regions). */
static void
test_typed_filters (void)
{
  g_autoptr(GBytes) d = b ("d");
  g_autoptr(GBytes) x = b ("x");
  g_autoptr(GBytes) x_deletes = b ("x-deletes");
  g_autoptr(GBytes) cf2 = b ("cf2");
  g_autoptr(GBytes) q = b ("q");
  g_autoptr(GBytes) r = b ("r");
  g_autoptr(GBytes) v = b ("v");
  g_autoptr(GBytes) v30 = b ("v30");
  g_autoptr(GBytes) v50 = b ("v50");
  g_autoptr(GBytes) upper_v3 = b ("V3");
  g_autoptr(GBytes) regex = b ("^v[24]0$");
  g_autoptr(GBytes) binary_prefix = g_bytes_new (binary_qualifier, 2);   /* "q\0" */
  g_autoptr(GBytes) binary_row = g_bytes_new (binary_key, sizeof binary_key);
  g_autoptr(HBaseFilter) prefix_d = hbase_filter_prefix (d);
  g_autoptr(HBaseFilter) prefix_x = hbase_filter_prefix (x);
  g_autoptr(HBaseFilter) not_v30 = hbase_filter_value (HBASE_COMPARE_NOT_EQUAL,
                                                       HBASE_COMPARATOR_BINARY, v30);
  g_autoptr(HBaseFilter) only_q = hbase_filter_qualifier (HBASE_COMPARE_EQUAL,
                                                          HBASE_COMPARATOR_BINARY, q);
  g_autoptr(HBaseFilter) binary = hbase_filter_row (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY,
                                                    binary_row);
  GBytes *prefixes[] = { r, binary_prefix };
  HBaseFilter *three[] = { prefix_d, prefix_x, binary };
  const gint64 timestamps[] = { 20, 101, 3 };

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  /* rows */
  compare_filter (hbase_filter_prefix (d), "PrefixFilter");
  compare_filter (hbase_filter_inclusive_stop (x_deletes), "InclusiveStopFilter");
  compare_filter (hbase_filter_page (1), "PageFilter");
  compare_filter (hbase_filter_row (HBASE_COMPARE_GREATER_OR_EQUAL, HBASE_COMPARATOR_BINARY, x),
                  "RowFilter");
  /* columns */
  compare_filter (hbase_filter_family (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY, cf2),
                  "FamilyFilter");
  compare_filter (hbase_filter_qualifier (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY_PREFIX, r),
                  "QualifierFilter");
  compare_filter (hbase_filter_column_prefix (q), "ColumnPrefixFilter");
  compare_filter (hbase_filter_multiple_column_prefix (prefixes, 2), "MultipleColumnPrefixFilter");
  compare_filter (hbase_filter_column_range (q, TRUE, r, FALSE), "ColumnRangeFilter");
  compare_filter (hbase_filter_column_range (NULL, FALSE, r, TRUE), "ColumnRangeFilter, open");
  compare_filter (hbase_filter_column_pagination (1, 1), "ColumnPaginationFilter");
  compare_filter (hbase_filter_column_count (1), "ColumnCountGetFilter");
  /* cells */
  compare_filter (hbase_filter_key_only (FALSE), "KeyOnlyFilter");
  compare_filter (hbase_filter_key_only (TRUE), "KeyOnlyFilter, lengths");
  compare_filter (hbase_filter_first_key_only (), "FirstKeyOnlyFilter");
  compare_filter (hbase_filter_timestamps (timestamps, 3), "TimestampsFilter");
  compare_filter (hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_SUBSTRING, upper_v3),
                  "ValueFilter, substring");
  compare_filter (hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_REGEX, regex),
                  "ValueFilter, regex");
  compare_filter (hbase_filter_value (HBASE_COMPARE_LESS, HBASE_COMPARATOR_BINARY, q),
                  "ValueFilter, binary");
  /* values of one column */
  compare_filter (hbase_filter_single_column_value ("cf", q, HBASE_COMPARE_EQUAL,
                                                    HBASE_COMPARATOR_BINARY, v50, TRUE, TRUE),
                  "SingleColumnValueFilter");
  compare_filter (hbase_filter_single_column_value ("cf", q, HBASE_COMPARE_EQUAL,
                                                    HBASE_COMPARATOR_BINARY, v30, FALSE, FALSE),
                  "SingleColumnValueFilter, any version, missing kept");
  compare_filter (hbase_filter_single_column_value_exclude ("cf", q, HBASE_COMPARE_GREATER,
                                                            HBASE_COMPARATOR_BINARY, v, TRUE,
                                                            TRUE),
                  "SingleColumnValueExcludeFilter");
  compare_filter (hbase_filter_column_value ("cf", r, HBASE_COMPARE_LESS_OR_EQUAL,
                                             HBASE_COMPARATOR_BINARY, v30),
                  "ColumnValueFilter");
  compare_filter (hbase_filter_dependent_column ("cf", q, FALSE), "DependentColumnFilter");
  compare_filter (hbase_filter_dependent_column_compare ("cf", q, TRUE, HBASE_COMPARE_EQUAL,
                                                         HBASE_COMPARATOR_BINARY, v30),
                  "DependentColumnFilter, compared");
  /* combinators */
  compare_filter (hbase_filter_and (prefix_d, only_q), "AND");
  compare_filter (hbase_filter_or (prefix_x, binary), "OR");
  compare_filter (hbase_filter_all (three, 3), "all of three");
  compare_filter (hbase_filter_any (three, 3), "any of three");
  compare_filter (hbase_filter_skip (not_v30), "SKIP");
  compare_filter (hbase_filter_while (not_v30), "WHILE");
}

/* Every operation the native backend does not do yet: NOT_SUPPORTED,
 * nothing written. */
static void
test_not_supported (void)
{
  g_autoptr(GBytes) row = b ("not-supported");
  g_autoptr(HBaseRow) got = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GError) error = NULL;
  HBaseReadOptions filtered = HBASE_READ_OPTIONS_INIT;
  gboolean exists = TRUE;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  filtered.filter = "KeyOnlyFilter()";
  got = hbase_table_get (native_table, row, &filtered, NULL, &error);
  g_assert_null (got);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "hbase_read_options_set_typed_filter()"));
  g_clear_error (&error);
  g_assert_false (hbase_table_exists (native_table, row, &filtered, &exists, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  {
    HBaseScanOptions with_filter = HBASE_SCAN_OPTIONS_INIT;

    with_filter.read.filter = "KeyOnlyFilter()";
    scanner = hbase_table_scan (native_table, &with_filter, &error);
    g_assert_null (scanner);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
    g_assert_nonnull (strstr (error->message, "filter"));
    g_clear_error (&error);
  }

  g_assert_false (hbase_client_ping (native_client, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  /* and nothing was written */
  got = hbase_table_get (thrift_table, row, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (hbase_row_is_empty (got));
}

/* --- admin ------------------------------------------------------------------------------ */

typedef struct {
  const char *table;
  char *text;   /* every family's name and values, sorted */
} DescriptorProbe;

static gint
compare_texts (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static gboolean
descriptor_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  DescriptorProbe *probe = user_data;
  const char *colon = strchr (probe->table, ':');
  g_autoptr(GByteArray) qualifier = g_byte_array_new ();
  g_autoptr(HbaseThriftTTableName) name = NULL;
  g_autoptr(HbaseThriftTTableDescriptor) desc = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GError *call_error = NULL;

  g_assert_null (colon);
  g_byte_array_append (qualifier, (const guint8 *) probe->table, strlen (probe->table));
  name = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "qualifier", qualifier, NULL);
  if (!hbase_thrift_t_h_base_service_if_get_table_descriptor (service, &desc, name, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  for (guint i = 0; desc->columns != NULL && i < desc->columns->len; i++)
    {
      HbaseThriftTColumnFamilyDescriptor *family = g_ptr_array_index (desc->columns, i);
      GHashTableIter iter;
      gpointer key, value;

      if (family->attributes == NULL)
        continue;
      g_hash_table_iter_init (&iter, family->attributes);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_ptr_array_add (lines, g_strdup_printf ("%.*s %.*s=%.*s", (int) family->name->len,
                                                 (const char *) family->name->data,
                                                 (int) ((GByteArray *) key)->len,
                                                 (const char *) ((GByteArray *) key)->data,
                                                 (int) ((GByteArray *) value)->len,
                                                 (const char *) ((GByteArray *) value)->data));
    }
  g_ptr_array_sort (lines, compare_texts);
  g_ptr_array_add (lines, NULL);
  g_free (probe->text);
  probe->text = g_strjoinv ("\n", (char **) lines->pdata);
  return TRUE;
}

/* The families of @table as the gateway reads them. */
static char *
descriptor_text (const char *table)
{
  DescriptorProbe probe = { table, NULL };
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_client_call (thrift_client, HBASE_CALL_IDEMPOTENT, descriptor_once, &probe,
                                    NULL, &error));
  g_assert_no_error (error);
  return probe.text;
}

/* The error code of a failed call (0 when it worked). */
static gint
code_of (gboolean ok, GError **error)
{
  gint code = ok ? 0 : (*error != NULL ? (*error)->code : -1);

  if (!ok)
    g_assert_nonnull (*error);
  g_clear_error (error);
  return code;
}

/* The same admin calls through each backend: the same answers and errors,
 * the same tables. */
static void
test_admin (void)
{
  HBaseClient *clients[2] = { thrift_client, native_client };
  char *names[2] = { NULL, NULL };
  g_autofree char *missing = test_stack_unique_name ("native_t_admin_missing");
  char *texts[2] = { NULL, NULL };
  gint codes[2][12];
  gboolean answers[2][8];
  HBaseFamilyOptions families[3] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT,
                                     HBASE_FAMILY_OPTIONS_INIT };
  g_autoptr(GPtrArray) splits = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack is not reachable");
      return;
    }
  families[0].name = "a";
  families[0].max_versions = 5;
  families[0].time_to_live = 86400;
  families[0].compression = HBASE_COMPRESSION_GZ;
  families[0].bloom_filter = HBASE_BLOOM_FILTER_ROWCOL;
  families[0].in_memory = TRUE;
  families[0].block_cache_disabled = TRUE;
  families[1].name = "b";
  families[1].bloom_filter = HBASE_BLOOM_FILTER_NONE;
  families[2].name = "c";
  families[2].bloom_filter = HBASE_BLOOM_FILTER_ROW;
  g_ptr_array_add (splits, b ("k"));
  g_ptr_array_add (splits, b ("t"));
  names[0] = test_stack_unique_name ("native_t_admin_thrift");
  names[1] = test_stack_unique_name ("native_t_admin_native");

  for (guint i = 0; i < 2; i++)
    {
      HBaseClient *c = clients[i];
      const char *t = names[i];
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) listed = NULL;
      g_autoptr(GPtrArray) described = NULL;
      gboolean answer = FALSE;
      guint k = 0, a = 0;

      codes[i][k++] = code_of (hbase_client_table_exists (c, t, &answer, NULL, &error), &error);
      answers[i][a++] = answer;
      codes[i][k++] = code_of (hbase_client_create_table (c, t, families, 3, splits, NULL, &error), &error);
      /* a second create: HBase's "already exists" */
      codes[i][k++] = code_of (hbase_client_create_table (c, t, families, 1, NULL, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_table_exists (c, t, &answer, NULL, &error), &error);
      answers[i][a++] = answer;
      codes[i][k++] = code_of (hbase_client_is_table_enabled (c, t, &answer, NULL, &error), &error);
      answers[i][a++] = answer;
      listed = hbase_client_list_tables (c, NULL, NULL, &error);
      g_assert_no_error (error);
      answers[i][a++] = g_strv_contains ((const char *const *) listed, t);
      g_clear_pointer (&listed, g_strfreev);
      listed = hbase_client_list_tables (c, "default", NULL, &error);
      g_assert_no_error (error);
      answers[i][a++] = g_strv_contains ((const char *const *) listed, t);
      for (guint j = 0; listed[j] != NULL && listed[j + 1] != NULL; j++)
        g_assert_cmpstr (listed[j], <, listed[j + 1]);
      texts[i] = descriptor_text (t);
      described = hbase_client_describe_table (thrift_client, t, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (described->len, ==, 3);
      {
        /* described through the backend under test: what the gateway says */
        g_autoptr(GPtrArray) own = hbase_client_describe_table (c, t, NULL, &error);

        g_assert_no_error (error);
        g_assert_cmpuint (own->len, ==, described->len);
        for (guint j = 0; j < own->len; j++)
          {
            const HBaseFamilyOptions *x = own->pdata[j], *y = described->pdata[j];

            g_assert_cmpstr (x->name, ==, y->name);
            g_assert_cmpuint (x->max_versions, ==, y->max_versions);
            g_assert_cmpuint (x->time_to_live, ==, y->time_to_live);
            g_assert_cmpint (x->compression, ==, y->compression);
            g_assert_cmpint (x->bloom_filter, ==, y->bloom_filter);
            g_assert_cmpint (x->in_memory, ==, y->in_memory);
            g_assert_cmpint (x->block_cache_disabled, ==, y->block_cache_disabled);
          }
      }
      codes[i][k++] = code_of (hbase_client_disable_table (c, t, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_disable_table (c, t, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_is_table_enabled (c, t, &answer, NULL, &error), &error);
      answers[i][a++] = answer;
      codes[i][k++] = code_of (hbase_client_enable_table (c, t, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_truncate_table (c, t, TRUE, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_delete_table (c, t, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_table_exists (c, t, &answer, NULL, &error), &error);
      answers[i][a++] = answer;
      g_assert_cmpuint (k, ==, G_N_ELEMENTS (codes[i]));
      g_assert_cmpuint (a, ==, 7);
    }
  for (guint k = 0; k < G_N_ELEMENTS (codes[0]); k++)
    if (codes[0][k] != codes[1][k])
      g_error ("admin call %u: error code %d through the gateway, %d natively", k, codes[0][k], codes[1][k]);
  for (guint a = 0; a < 7; a++)
    if (answers[0][a] != answers[1][a])
      g_error ("admin answer %u: %d through the gateway, %d natively", a, answers[0][a], answers[1][a]);
  g_assert_cmpint (codes[0][2], ==, HBASE_ERROR_IO);      /* already exists */
  g_assert_cmpint (codes[0][6], ==, HBASE_ERROR_IO);      /* disabled twice */
  g_assert_true (answers[0][1] && answers[0][2] && answers[0][3] && answers[0][4]);
  g_assert_false (answers[0][0] || answers[0][5] || answers[0][6]);
  g_assert_cmpstr (texts[0], ==, texts[1]);
  for (guint i = 0; i < 2; i++)
    {
      g_free (names[i]);
      g_free (texts[i]);
    }

  /* a missing table and namespace: the same errors */
  for (guint i = 0; i < 2; i++)
    {
      HBaseClient *c = clients[i];
      g_autoptr(GError) error = NULL;
      gboolean answer = TRUE;
      g_autofree char *ns = g_strdup_printf ("ns_%s", missing);
      guint k = 0;

      g_strdelimit (ns, "-", '_');
      codes[i][k++] = code_of (hbase_client_delete_table (c, missing, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_enable_table (c, missing, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_disable_table (c, missing, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_truncate_table (c, missing, FALSE, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_is_table_enabled (c, missing, &answer, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_table_exists (c, missing, &answer, NULL, &error), &error);
      g_assert_false (answer);
      codes[i][k++] = code_of (hbase_client_delete_namespace (c, ns, NULL, &error), &error);
      g_assert_null (hbase_client_list_tables (c, ns, NULL, &error));
      codes[i][k++] = code_of (FALSE, &error);
      codes[i][k++] = code_of (hbase_client_create_namespace (c, ns, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_create_namespace (c, ns, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_delete_namespace (c, ns, NULL, &error), &error);
      codes[i][k++] = code_of (hbase_client_delete_namespace (c, ns, NULL, &error), &error);
      g_assert_cmpuint (k, ==, G_N_ELEMENTS (codes[i]));
    }
  for (guint k = 0; k < G_N_ELEMENTS (codes[0]); k++)
    if (codes[0][k] != codes[1][k])
      g_error ("admin call %u on missing names: error code %d through the gateway, %d natively", k,
               codes[0][k], codes[1][k]);
  g_assert_cmpint (codes[0][0], ==, HBASE_ERROR_NOT_FOUND);
  g_assert_cmpint (codes[0][6], ==, HBASE_ERROR_NOT_FOUND);
  g_assert_cmpint (codes[0][8], ==, 0);
  g_assert_cmpint (codes[0][9], ==, HBASE_ERROR_IO);
}

static gboolean
setup (void)
{
  HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  g_autoptr(GPtrArray) splits = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseConfig) native_config = hbase_config_new ();
  const char *bootstrap = g_getenv ("HBASE_GLIB_TEST_NATIVE_BOOTSTRAP");
  g_autoptr(GError) error = NULL;

  gateway = test_stack_gateway_from_env ("HBASE_GLIB_TEST_GATEWAY", "127.0.0.1:9090:binary:buffered");
  config = test_stack_config (gateway);
  thrift_client = hbase_client_new (config);
  g_assert_true (hbase_config_set_bootstrap_servers (native_config,
                                                     bootstrap != NULL && *bootstrap != '\0'
                                                       ? bootstrap : "127.0.0.1:16020 127.0.0.1:16000",
                                                     &error));
  g_assert_no_error (error);
  g_assert_true (hbase_config_set_operation_timeout (native_config, 30000, &error));
  native_client = hbase_client_new (native_config);
  families[0].name = "cf";
  families[0].max_versions = 3;
  families[1].name = "cf2";
  families[1].max_versions = 3;
  g_ptr_array_add (splits, g_bytes_new_static ("m", 1));
  table_name = test_stack_unique_name ("native_t_diff");
  if (!hbase_client_create_table (thrift_client, table_name, families, 2, splits, NULL, &error))
    {
      g_test_message ("cannot create %s: %s", table_name, error->message);
      return FALSE;
    }
  thrift_table = hbase_table_new (thrift_client, table_name, &error);
  g_assert_no_error (error);
  native_table = hbase_table_new (native_client, table_name, &error);
  g_assert_no_error (error);
  native_writer = hbase_table_new (native_client, table_name, &error);
  g_assert_no_error (error);
  hbase_table_set_allow_unindexed_writes (native_writer, TRUE);
  return TRUE;
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  stack_ok = setup ();
  g_test_add_func ("/backends/differential/every-column", test_every_column);
  g_test_add_func ("/backends/differential/versions", test_versions);
  g_test_add_func ("/backends/differential/column-strings", test_column_strings);
  g_test_add_func ("/backends/differential/column-list", test_column_list);
  g_test_add_func ("/backends/differential/time-range", test_time_range);
  g_test_add_func ("/backends/differential/async", test_async);
  g_test_add_func ("/backends/differential/async-gathered", test_async_gathered);
  g_test_add_func ("/backends/differential/scans", test_scans);
  g_test_add_func ("/backends/differential/scan-reversed", test_scan_reversed);
  g_test_add_func ("/backends/differential/scan-batch", test_scan_batch);
  g_test_add_func ("/backends/differential/scan-time-range", test_scan_time_range);
  g_test_add_func ("/backends/differential/scan-limit-reversed", test_scan_limit_reversed);
  g_test_add_func ("/backends/differential/scan-reopened", test_scan_reopened);
  g_test_add_func ("/backends/differential/writes", test_writes);
  g_test_add_func ("/backends/differential/apply-multiple-batches", test_apply_multiple_batches);
  g_test_add_func ("/backends/differential/increment-append", test_increment_append);
  g_test_add_func ("/backends/differential/counters", test_counters);
  g_test_add_func ("/backends/differential/check-and-mutate", test_check_and_mutate);
  g_test_add_func ("/backends/differential/typed-filters", test_typed_filters);
  g_test_add_func ("/backends/differential/admin", test_admin);
  g_test_add_func ("/backends/differential/not-supported", test_not_supported);
  rc = g_test_run ();
  if (stack_ok)
    {
      g_autoptr(GError) error = NULL;

      if (!hbase_client_delete_table (thrift_client, table_name, NULL, &error))
        g_printerr ("could not drop %s: %s\n", table_name, error->message);
    }
  g_clear_object (&thrift_table);
  g_clear_object (&native_table);
  g_clear_object (&native_writer);
  g_clear_object (&thrift_client);
  g_clear_object (&native_client);
  g_free (table_name);
  test_stack_gateway_free (gateway);
  return rc;
}
