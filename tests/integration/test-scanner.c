/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of HBaseScanner against the real stack, on every
 * protocol/transport combination it runs (see tests/support/test-stack.h).
 *
 * Each gateway gets one table (family "f", 3 versions), created and
 * loaded by the first test that needs it through the generated layer and
 * dropped at the end.  Its rows:
 *  - r0000 .. r0999, cells f:c0 .. f:c4 = "<row>:c<n>";
 *  - keys made of 0xFE/0xFF/0x00 bytes around the prefix edges, same cells;
 *  - "ver", whose five cells have versions at timestamps 100, 200, 300.
 * Expected results are computed from the sorted list of keys, so every
 * check compares the exact sequence of keys.  The forward cases run on
 * the native end too (a client with bootstrap servers; the rows are
 * loaded through the gateway all the same).
 *
 * Long because: every case reads the one table per gateway loaded once,
 * and compares with keys computed the same way. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "../support/test-table-fixture.h"
#include "../../src/table/hbase-table-native.h"
#include "Client.pb-c.h"

typedef HbaseThriftTHBaseServiceIf Service;

#define N_ROWS 1000
#define N_CELLS 5
#define BIN(literal) g_bytes_new ((literal), sizeof (literal) - 1)

static const char *const edge_keys[] = {
  "\xfe\xfe\xff", "\xfe\xff", "\xfe\xff\x00", "\xfe\xff\xff", "\xff", "\xff\x00",
  "\xff\xfe\xff", "\xff\xff", "\xff\xff\x01", "\xff\xff\xff",
};
/* their lengths: they contain NULs */
static const gsize edge_lengths[] = { 3, 2, 3, 3, 1, 2, 3, 2, 3, 3 };

typedef TestTableFixture Fixture;

#define SKIP_IF_UNREACHABLE TEST_SKIP_IF_UNREACHABLE

/* GBytes *, every row of the gateway's table, sorted: the fixture's shared state. */
static GPtrArray *
keys_of (Fixture *fixture)
{
  return fixture->shared;
}

/* --- generated-layer helpers (run inside hbase_client_call) --------------- */

static GByteArray *
array_from (const void *data, gsize len)
{
  GByteArray *array = g_byte_array_new ();

  return g_byte_array_append (array, data, len);
}

static GByteArray *
array_from_string (const char *text)
{
  return array_from (text, strlen (text));
}

typedef struct {
  GByteArray *table;
  GPtrArray *puts;
} PutCall;

static gboolean
put_once (Service *service, gpointer user_data, GError **error)
{
  PutCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_put_multiple (service, call->table, call->puts, &io,
                                                      &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

static HbaseThriftTPut *
put_new (const void *key, gsize len, gint64 timestamp)
{
  g_autoptr(GByteArray) row = array_from (key, len);
  HbaseThriftTPut *put = g_object_new (HBASE_THRIFT_TYPE_T_PUT, "row", row, NULL);

  for (guint c = 0; c < N_CELLS; c++)
    {
      g_autoptr(GByteArray) family = array_from_string ("f");
      g_autofree char *qualifier_text = g_strdup_printf ("c%u", c);
      g_autoptr(GByteArray) qualifier = array_from_string (qualifier_text);
      g_autoptr(GByteArray) value = array_from (key, len);
      g_autofree char *suffix = timestamp != 0
        ? g_strdup_printf (":c%u@%" G_GINT64_FORMAT, c, timestamp)
        : g_strdup_printf (":c%u", c);
      HbaseThriftTColumnValue *cell;

      g_byte_array_append (value, (const guint8 *) suffix, strlen (suffix));
      cell = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", family,
                           "qualifier", qualifier, "value", value, NULL);
      if (timestamp != 0)
        {
          cell->timestamp = timestamp;
          cell->__isset_timestamp = TRUE;
        }
      g_ptr_array_add (put->columnValues, cell);
    }
  return put;
}

static void
put_all (Fixture *fixture, GPtrArray *puts)
{
  g_autoptr(GByteArray) table = array_from_string (hbase_table_get_name (fixture->table));
  g_autoptr(GError) error = NULL;
  PutCall call = { table, puts };
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;

  /* the raw Thrift call: on the native end, through the gateway */
  if (test_table_fixture_is_native (fixture))
    {
      config = test_stack_config (fixture->gateway);
      client = hbase_client_new (config);
    }
  else
    client = g_object_ref (fixture->client);
  g_assert_true (hbase_client_call (client, HBASE_CALL_IDEMPOTENT, put_once, &call,
                                    NULL, &error));
  g_assert_no_error (error);
}

static gint
compare_keys (gconstpointer a, gconstpointer b)
{
  GBytes *x = *(GBytes *const *) a, *y = *(GBytes *const *) b;
  gsize x_len, y_len;
  const guint8 *x_data = g_bytes_get_data (x, &x_len), *y_data = g_bytes_get_data (y, &y_len);
  int cmp = memcmp (x_data, y_data, MIN (x_len, y_len));

  if (cmp != 0)
    return cmp;
  return x_len < y_len ? -1 : x_len > y_len ? 1 : 0;
}

static gint
compare_two (GBytes *x, GBytes *y)
{
  return compare_keys (&x, &y);
}

/* The suite's prepare hook: loads the gateway's table. */
static void
load (Fixture *fixture, gconstpointer data)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func (g_object_unref);

  fixture->shared = keys;
  for (guint i = 0; i < N_ROWS; i++)
    {
      g_autofree char *key = g_strdup_printf ("r%04u", i);

      g_ptr_array_add (puts, put_new (key, strlen (key), 0));
      g_ptr_array_add (keys, g_bytes_new (key, strlen (key)));
      if (puts->len == 250)
        {
          put_all (fixture, puts);
          g_ptr_array_set_size (puts, 0);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (edge_keys); i++)
    {
      g_ptr_array_add (puts, put_new (edge_keys[i], edge_lengths[i], 0));
      g_ptr_array_add (keys, g_bytes_new (edge_keys[i], edge_lengths[i]));
    }
  for (gint64 ts = 100; ts <= 300; ts += 100)
    g_ptr_array_add (puts, put_new ("ver", 3, ts));
  g_ptr_array_add (keys, g_bytes_new ("ver", 3));
  put_all (fixture, puts);
  g_ptr_array_sort (keys, compare_keys);
}

/* --- scanning helpers ---------------------------------------------------- */

/* Every row of a scan; asserts no error. */
static GPtrArray *
scan_all (Fixture *fixture, const HBaseScanOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseScanner) scanner = hbase_table_scan (fixture->table, options, &error);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  HBaseRow *row;

  g_assert_no_error (error);
  g_assert_nonnull (scanner);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    g_ptr_array_add (rows, row);
  g_assert_no_error (error);
  return rows;
}

/* The keys of the table within a range, in scan order: @lower/@upper
 * NULL for unbounded. */
static GPtrArray *
expected_keys (Fixture *fixture, GBytes *lower, gboolean lower_inclusive, GBytes *upper,
               gboolean upper_inclusive, gboolean reversed, guint limit)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < keys_of (fixture)->len; i++)
    {
      guint index = reversed ? keys_of (fixture)->len - 1 - i : i;
      GBytes *key = keys_of (fixture)->pdata[index];
      int lo = lower != NULL ? compare_two (key, lower) : 1;
      int hi = upper != NULL ? compare_two (key, upper) : -1;

      if ((lo > 0 || (lo == 0 && lower_inclusive)) && (hi < 0 || (hi == 0 && upper_inclusive)))
        g_ptr_array_add (keys, g_bytes_ref (key));
      if (limit > 0 && keys->len == limit)
        break;
    }
  return keys;
}

static char *
printable (GBytes *key)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (key, &len);
  GString *text = g_string_new (NULL);

  for (gsize i = 0; i < len; i++)
    if (data[i] >= 0x20 && data[i] < 0x7f)
      g_string_append_c (text, (char) data[i]);
    else
      g_string_append_printf (text, "\\x%02x", data[i]);
  return g_string_free (text, FALSE);
}

static void
assert_keys (GPtrArray *rows, GPtrArray *expected)
{
  for (guint i = 0; i < MIN (rows->len, expected->len); i++)
    {
      GBytes *key = hbase_row_get_key (rows->pdata[i]);

      if (!g_bytes_equal (key, expected->pdata[i]))
        {
          g_autofree char *got = printable (key);
          g_autofree char *want = printable (expected->pdata[i]);

          g_error ("row %u: got key %s, expected %s", i, got, want);
        }
    }
  g_assert_cmpuint (rows->len, ==, expected->len);
}

/* Scans with @options and checks the keys against the range given. */
static GPtrArray *
check_scan (Fixture *fixture, const HBaseScanOptions *options, GBytes *lower,
            gboolean lower_inclusive, GBytes *upper, gboolean upper_inclusive)
{
  GPtrArray *rows = scan_all (fixture, options);
  g_autoptr(GPtrArray) expected =
    expected_keys (fixture, lower, lower_inclusive, upper, upper_inclusive,
                   options != NULL && options->reversed, options != NULL ? options->limit : 0);

  assert_keys (rows, expected);
  return rows;
}

static gboolean
bytes_is (GBytes *bytes, const char *text)
{
  return bytes != NULL && g_bytes_get_size (bytes) == strlen (text) &&
         memcmp (g_bytes_get_data (bytes, NULL), text, strlen (text)) == 0;
}

/* A whole row of the main data: five cells c0..c4 with the right values. */
static void
assert_whole_row (HBaseRow *row)
{
  GBytes *key = hbase_row_get_key (row);

  g_assert_cmpuint (hbase_row_get_n_cells (row), ==, N_CELLS);
  for (guint c = 0; c < N_CELLS; c++)
    {
      const HBaseCell *cell = hbase_row_get_cell (row, c);
      g_autofree char *qualifier = g_strdup_printf ("c%u", c);
      g_autoptr(GByteArray) value = array_from (g_bytes_get_data (key, NULL), g_bytes_get_size (key));
      g_autofree char *suffix = bytes_is (key, "ver") ? g_strdup_printf (":c%u@300", c)
                                                      : g_strdup_printf (":c%u", c);
      g_autoptr(GBytes) expected = NULL;

      g_byte_array_append (value, (const guint8 *) suffix, strlen (suffix));
      expected = g_bytes_new (value->data, value->len);
      g_assert_true (bytes_is (hbase_cell_get_family (cell), "f"));
      g_assert_true (bytes_is (hbase_cell_get_qualifier (cell), qualifier));
      g_assert_true (g_bytes_equal (hbase_cell_get_value (cell), expected));
    }
}

/* --- probing the gateway's scanners --------------------------------------- */

typedef struct {
  GByteArray *table;
  gint32 id;
  gboolean live;
} ProbeCall;

static gboolean
probe_open_once (Service *service, gpointer user_data, GError **error)
{
  ProbeCall *call = user_data;
  g_autoptr(HbaseThriftTScan) scan = g_object_new (HBASE_THRIFT_TYPE_T_SCAN, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(HbaseThriftTIllegalArgument) ia = NULL;
  GError *call_error = NULL;

  scan->limit = 1;
  scan->__isset_limit = TRUE;
  if (!hbase_thrift_t_h_base_service_if_open_scanner (service, &call->id, call->table, scan,
                                                      &io, &call_error) ||
      !hbase_thrift_t_h_base_service_if_close_scanner (service, call->id, &io, &ia, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, ia);
      return FALSE;
    }
  return TRUE;
}

/* The id of a scanner opened (and closed) now: the gateway's ids grow. */
static gint32
probe_id (Fixture *fixture)
{
  g_autoptr(GByteArray) table = array_from_string (hbase_table_get_name (fixture->table));
  g_autoptr(GError) error = NULL;
  ProbeCall call = { table, -1, FALSE };

  g_assert_true (hbase_client_call (fixture->client, HBASE_CALL_DEFAULT, probe_open_once, &call,
                                    NULL, &error));
  g_assert_no_error (error);
  return call.id;
}

/* getScannerRows(id, 0) reads nothing: it only says whether the id is live. */
static gboolean
probe_live_once (Service *service, gpointer user_data, GError **error)
{
  ProbeCall *call = user_data;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(HbaseThriftTIllegalArgument) ia = NULL;
  GError *call_error = NULL;

  call->live = hbase_thrift_t_h_base_service_if_get_scanner_rows (service, &rows, call->id, 0,
                                                                  &io, &ia, &call_error);
  if (!call->live && ia == NULL)
    {
      hbase_error_take_call_error (error, call_error, io, ia);
      return FALSE;
    }
  g_clear_error (&call_error);
  return TRUE;
}

/* Whether the gateway knows a scanner of id @id.  Only ids of this test's
 * own scanners are asked about: other programs use the gateway too. */
static gboolean
is_live (Fixture *fixture, gint32 id)
{
  g_autoptr(GError) error = NULL;
  ProbeCall call = { NULL, id, FALSE };

  g_assert_true (hbase_client_call (fixture->client, HBASE_CALL_IDEMPOTENT, probe_live_once,
                                    &call, NULL, &error));
  g_assert_no_error (error);
  return call.live;
}

/* The id of @scanner's open server scanner (it must have one). */
static gint32
server_id (HBaseScanner *scanner)
{
  gint32 id = -1;

  g_assert_true (_hbase_scanner_get_server_id (scanner, &id));
  return id;
}

static gboolean
close_id_once (Service *service, gpointer user_data, GError **error)
{
  gint32 id = GPOINTER_TO_INT (user_data);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(HbaseThriftTIllegalArgument) ia = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_close_scanner (service, id, &io, &ia, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, ia);
      return FALSE;
    }
  return TRUE;
}

/* Closes @scanner's server scanner behind its back, as the gateway does
 * when it expires one. */
static void
expire_scanner (Fixture *fixture, HBaseScanner *scanner)
{
  g_autoptr(GError) error = NULL;
  gint32 id = server_id (scanner);

  g_assert_true (hbase_client_call (fixture->client, HBASE_CALL_IDEMPOTENT, close_id_once,
                                    GINT_TO_POINTER (id), NULL, &error));
  g_assert_no_error (error);
  g_assert_false (is_live (fixture, id));
}

/* On the native end: the id of @scanner's open server scanner and a copy
 * of its region in *@region (replacing the one there); FALSE when none is
 * open. */
static gboolean
native_server_id (HBaseScanner *scanner, guint64 *id, HBaseNativeRegion **region)
{
  HBaseNativeScanner *native = _hbase_scanner_get_native (scanner);
  const HBaseNativeRegion *open = native != NULL ? _hbase_native_scanner_get_open (native, id)
                                                 : NULL;
  HBaseNativeRegion *copy;

  if (open == NULL)
    return FALSE;
  copy = g_new0 (HBaseNativeRegion, 1);
  copy->table = g_strdup (open->table);
  copy->name = g_bytes_ref (open->name);
  copy->start_key = g_bytes_ref (open->start_key);
  copy->end_key = g_bytes_ref (open->end_key);
  copy->region_id = open->region_id;
  copy->host = g_strdup (open->host);
  copy->port = open->port;
  g_clear_pointer (region, _hbase_native_region_free);
  *region = copy;
  return TRUE;
}

/* On the native end: a Scan call for the server scanner @id of @region of
 * its own, closing it (@close), or else asking for a row to see whether
 * the server still has it: it answers for a scanner it no longer has
 * with UnknownScannerException or an empty reply without
 * more_results_in_region.  Only for scanners of this test, closed or
 * about to be. */
static gboolean
native_scan_call (Fixture *fixture, const HBaseNativeRegion *region, guint64 id, gboolean close)
{
  HBaseNativeClient *client = _hbase_table_native_client (fixture->table);
  Hbase__Pb__ScanRequest request = HBASE__PB__SCAN_REQUEST__INIT;
  Hbase__Pb__ScanResponse *reply = NULL;
  g_autoptr(GError) error = NULL;
  gboolean live;

  request.has_scanner_id = TRUE;
  request.scanner_id = id;
  request.has_number_of_rows = TRUE;
  request.number_of_rows = close ? 0 : 1;
  request.has_close_scanner = close;
  request.close_scanner = close;
  if (!_hbase_native_client_call (client, region, "Scan", &request.base,
                                  &hbase__pb__scan_response__descriptor, (ProtobufCMessage **) &reply,
                                  NULL, _hbase_native_client_deadline (client), NULL, &error))
    {
      g_assert_false (close);
      g_assert_nonnull (strstr (error->message, "UnknownScannerException"));
      return FALSE;
    }
  live = reply->n_cells_per_result > 0 || reply->has_more_results_in_region;
  protobuf_c_message_free_unpacked (&reply->base, NULL);
  return live;
}

/* --- the tests ------------------------------------------------------------------ */

static void
test_prefix_stop_row (void)
{
  struct { const char *prefix; gsize len; const char *stop; gsize stop_len; } cases[] = {
    { "ab", 2, "ac", 2 },
    { "a\xff", 2, "b", 1 },
    { "\x01\xff\xff", 3, "\x02", 1 },
    { "\xfe\xff", 2, "\xff", 1 },
    { "a\x00", 2, "a\x01", 2 },
    { "\xff", 1, NULL, 0 },
    { "\xff\xff\xff", 3, NULL, 0 },
    { "", 0, NULL, 0 },
  };

  g_assert_null (hbase_prefix_stop_row (NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) prefix = g_bytes_new (cases[i].prefix, cases[i].len);
      g_autoptr(GBytes) stop = hbase_prefix_stop_row (prefix);

      if (cases[i].stop == NULL)
        g_assert_null (stop);
      else
        {
          g_autoptr(GBytes) expected = g_bytes_new (cases[i].stop, cases[i].stop_len);

          g_assert_nonnull (stop);
          g_assert_true (g_bytes_equal (stop, expected));
        }
    }
}

static void
test_full (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) defaults = NULL;
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;

  SKIP_IF_UNREACHABLE (fixture);
  rows = check_scan (fixture, NULL, NULL, FALSE, NULL, FALSE);
  g_assert_cmpuint (rows->len, ==, N_ROWS + G_N_ELEMENTS (edge_keys) + 1);
  for (guint i = 0; i < rows->len; i++)
    assert_whole_row (rows->pdata[i]);
  defaults = check_scan (fixture, &options, NULL, FALSE, NULL, FALSE);
}

static void
test_start_stop (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) r0100 = BIN ("r0100");
  g_autoptr(GBytes) r0200 = BIN ("r0200");
  g_autoptr(GBytes) r0999 = BIN ("r0999");
  g_autoptr(GBytes) empty = BIN ("");
  g_autoptr(GBytes) between = BIN ("r0150x");   /* no such row */
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;

  SKIP_IF_UNREACHABLE (fixture);
  options.start_row = r0100;
  options.stop_row = r0200;
  g_ptr_array_unref (check_scan (fixture, &options, r0100, TRUE, r0200, FALSE));
  options.start_row = between;
  g_ptr_array_unref (check_scan (fixture, &options, between, TRUE, r0200, FALSE));
  options.start_row = r0999;
  options.stop_row = NULL;
  g_ptr_array_unref (check_scan (fixture, &options, r0999, TRUE, NULL, FALSE));
  options.start_row = empty;
  options.stop_row = r0100;
  g_ptr_array_unref (check_scan (fixture, &options, NULL, FALSE, r0100, FALSE));
  options.start_row = NULL;
  options.stop_row = empty;
  g_ptr_array_unref (check_scan (fixture, &options, NULL, FALSE, NULL, FALSE));
}

static void
test_prefix (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) r05 = BIN ("r05");
  g_autoptr(GBytes) r06 = BIN ("r06");
  g_autoptr(GBytes) r0999 = BIN ("r0999");
  g_autoptr(GBytes) r1 = BIN ("r1");
  g_autoptr(GBytes) fe_ff = BIN ("\xfe\xff");
  g_autoptr(GBytes) ff = BIN ("\xff");
  g_autoptr(GBytes) ff_ff = BIN ("\xff\xff");
  g_autoptr(GBytes) r0550 = BIN ("r0550");
  g_autoptr(GBytes) r0700 = BIN ("r0700");
  g_autoptr(GBytes) r0400 = BIN ("r0400");
  g_autoptr(GBytes) r0560 = BIN ("r0560");
  g_autoptr(GPtrArray) rows = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.prefix = r05;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r05, TRUE, r06, FALSE);
  g_assert_cmpuint (rows->len, ==, 100);

  options.prefix = r0999;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r0999, TRUE, r0999, TRUE);
  g_assert_cmpuint (rows->len, ==, 1);

  /* ends in 0xFF: stop row \xff must exclude the key \xff itself */
  options.prefix = fe_ff;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, fe_ff, TRUE, ff, FALSE);
  g_assert_cmpuint (rows->len, ==, 3);

  /* all 0xFF: to the table's end, from \xff\xff on */
  options.prefix = ff_ff;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, ff_ff, TRUE, NULL, FALSE);
  g_assert_cmpuint (rows->len, ==, 3);

  options.prefix = ff;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, ff, TRUE, NULL, FALSE);
  g_assert_cmpuint (rows->len, ==, 6);

  /* combined with start/stop: the tighter bounds win */
  options.prefix = r05;
  options.start_row = r0550;
  options.stop_row = r0700;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r0550, TRUE, r06, FALSE);
  g_assert_cmpuint (rows->len, ==, 50);
  options.start_row = r0400;
  options.stop_row = r0560;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r05, TRUE, r0560, FALSE);
  g_assert_cmpuint (rows->len, ==, 60);

  /* a prefix no key has */
  options.prefix = r1;
  options.start_row = options.stop_row = NULL;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = scan_all (fixture, &options);
  g_assert_cmpuint (rows->len, ==, 0);
}

static void
test_reversed (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) r0500 = BIN ("r0500");
  g_autoptr(GBytes) r0400 = BIN ("r0400");
  g_autoptr(GBytes) r05 = BIN ("r05");
  g_autoptr(GBytes) r06 = BIN ("r06");
  g_autoptr(GBytes) r0550 = BIN ("r0550");
  g_autoptr(GBytes) fe_ff = BIN ("\xfe\xff");
  g_autoptr(GBytes) ff = BIN ("\xff");
  g_autoptr(GBytes) ff_ff = BIN ("\xff\xff");
  g_autoptr(GBytes) ver = BIN ("ver");
  g_autoptr(GPtrArray) rows = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.reversed = TRUE;
  rows = check_scan (fixture, &options, NULL, FALSE, NULL, FALSE);
  g_assert_cmpuint (rows->len, ==, keys_of (fixture)->len);
  g_assert_true (bytes_is (hbase_row_get_key (rows->pdata[rows->len - 1]), "r0000"));

  /* start is the high end (inclusive), stop the low end (exclusive) */
  options.start_row = r0500;
  options.stop_row = r0400;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r0400, FALSE, r0500, TRUE);
  g_assert_cmpuint (rows->len, ==, 100);
  g_assert_true (bytes_is (hbase_row_get_key (rows->pdata[0]), "r0500"));
  g_assert_true (bytes_is (hbase_row_get_key (rows->pdata[99]), "r0401"));

  options.start_row = options.stop_row = NULL;
  options.prefix = r05;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r05, TRUE, r06, FALSE);
  g_assert_cmpuint (rows->len, ==, 100);
  g_assert_true (bytes_is (hbase_row_get_key (rows->pdata[0]), "r0599"));

  options.start_row = r0550;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r05, TRUE, r0550, TRUE);
  g_assert_cmpuint (rows->len, ==, 51);
  options.start_row = NULL;

  /* the key \xff is the prefix's stop row: it must not come first */
  options.prefix = fe_ff;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, fe_ff, TRUE, ff, FALSE);
  g_assert_cmpuint (rows->len, ==, 3);

  options.prefix = ff_ff;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, ff_ff, TRUE, NULL, FALSE);
  g_assert_cmpuint (rows->len, ==, 3);

  options.prefix = ff;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, ff, TRUE, NULL, FALSE);
  g_assert_cmpuint (rows->len, ==, 6);

  options.prefix = ver;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, ver, TRUE, ver, TRUE);
  g_assert_cmpuint (rows->len, ==, 1);
}

static void
test_limit (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) r05 = BIN ("r05");
  g_autoptr(GBytes) r06 = BIN ("r06");
  g_autoptr(GPtrArray) rows = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.limit = 7;
  rows = check_scan (fixture, &options, NULL, FALSE, NULL, FALSE);
  g_assert_cmpuint (rows->len, ==, 7);

  options.reversed = TRUE;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, NULL, FALSE, NULL, FALSE);
  g_assert_cmpuint (rows->len, ==, 7);

  /* with partial rows: 7 whole rows */
  options.reversed = FALSE;
  options.batch = 2;
  options.caching = 3;
  options.prefix = r05;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r05, TRUE, r06, FALSE);
  g_assert_cmpuint (rows->len, ==, 7);
  for (guint i = 0; i < rows->len; i++)
    assert_whole_row (rows->pdata[i]);

  /* more than there is; a limit of exactly what fits the caching */
  options.batch = 0;
  options.caching = 0;
  options.limit = 1000;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r05, TRUE, r06, FALSE);
  g_assert_cmpuint (rows->len, ==, 100);
  options.limit = 10;
  options.caching = 10;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r05, TRUE, r06, FALSE);
  g_assert_cmpuint (rows->len, ==, 10);
}

static void
test_caching (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) stop = BIN ("r0300");
  g_autoptr(GPtrArray) one = NULL;
  g_autoptr(GPtrArray) many = NULL;
  g_autoptr(GPtrArray) all = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.stop_row = stop;
  options.caching = 1;
  one = check_scan (fixture, &options, NULL, FALSE, stop, FALSE);
  options.caching = 1000;
  many = check_scan (fixture, &options, NULL, FALSE, stop, FALSE);
  g_assert_cmpuint (one->len, ==, 300);
  g_assert_cmpuint (many->len, ==, 300);
  for (guint i = 0; i < one->len; i++)
    {
      assert_whole_row (one->pdata[i]);
      assert_whole_row (many->pdata[i]);
    }
  options.stop_row = NULL;
  options.caching = 1000;
  all = check_scan (fixture, &options, NULL, FALSE, NULL, FALSE);
  options.caching = 7;
  options.reversed = TRUE;
  g_clear_pointer (&all, g_ptr_array_unref);
  all = check_scan (fixture, &options, NULL, FALSE, NULL, FALSE);
}

static void
test_batch (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) ver = BIN ("ver");
  guint cachings[] = { 0, 1, 2, 3, 1000 };
  g_autoptr(GPtrArray) rows = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.batch = 2;
  /* caching 1, 2, 3: rows always span fetches, at every offset */
  for (guint i = 0; i < G_N_ELEMENTS (cachings); i++)
    {
      options.caching = cachings[i];
      options.reversed = i % 2 == 1;
      g_clear_pointer (&rows, g_ptr_array_unref);
      rows = check_scan (fixture, &options, NULL, FALSE, NULL, FALSE);
      for (guint r = 0; r < rows->len; r++)
        assert_whole_row (rows->pdata[r]);
    }

  /* 15 cells in pieces of 2 */
  options.caching = 2;
  options.reversed = FALSE;
  options.prefix = ver;
  options.read.max_versions = 3;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, ver, TRUE, ver, TRUE);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_cmpuint (hbase_row_get_n_cells (rows->pdata[0]), ==, 15);
}

static void
test_columns (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  const char *const two[] = { "f:c1", "f:c3", NULL };
  const char *const family[] = { "f", NULL };
  g_autoptr(GBytes) r00 = BIN ("r00");
  g_autoptr(GBytes) r01 = BIN ("r01");
  g_autoptr(GPtrArray) rows = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.prefix = r00;
  options.read.columns = two;
  rows = check_scan (fixture, &options, r00, TRUE, r01, FALSE);
  g_assert_cmpuint (rows->len, ==, 100);
  for (guint i = 0; i < rows->len; i++)
    {
      HBaseRow *row = rows->pdata[i];

      g_assert_cmpuint (hbase_row_get_n_cells (row), ==, 2);
      g_assert_true (bytes_is (hbase_cell_get_qualifier (hbase_row_get_cell (row, 0)), "c1"));
      g_assert_true (bytes_is (hbase_cell_get_qualifier (hbase_row_get_cell (row, 1)), "c3"));
      g_assert_nonnull (hbase_row_lookup (row, "f", "c3"));
      g_assert_null (hbase_row_lookup (row, "f", "c0"));
    }
  options.read.columns = family;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r00, TRUE, r01, FALSE);
  for (guint i = 0; i < rows->len; i++)
    assert_whole_row (rows->pdata[i]);
}

/* The cells of the "ver" row for @options (prefix "ver" is set here). */
static HBaseRow *
scan_ver (Fixture *fixture, HBaseScanOptions *options)
{
  g_autoptr(GBytes) ver = BIN ("ver");
  g_autoptr(GPtrArray) rows = NULL;

  options->prefix = ver;
  rows = scan_all (fixture, options);
  options->prefix = NULL;
  if (rows->len == 0)
    return NULL;
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_true (bytes_is (hbase_row_get_key (rows->pdata[0]), "ver"));
  return hbase_row_ref (rows->pdata[0]);
}

static void
assert_timestamps (HBaseRow *row, const gint64 *timestamps, guint n)
{
  g_assert_cmpuint (hbase_row_get_n_cells (row), ==, N_CELLS * n);
  for (guint c = 0; c < N_CELLS; c++)
    for (guint v = 0; v < n; v++)
      {
        const HBaseCell *cell = hbase_row_get_cell (row, c * n + v);
        g_autofree char *qualifier = g_strdup_printf ("c%u", c);
        g_autofree char *value = g_strdup_printf ("ver:c%u@%" G_GINT64_FORMAT, c, timestamps[v]);

        g_assert_true (bytes_is (hbase_cell_get_qualifier (cell), qualifier));
        g_assert_cmpint (hbase_cell_get_timestamp (cell), ==, timestamps[v]);
        g_assert_true (bytes_is (hbase_cell_get_value (cell), value));
      }
}

static void
test_versions (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  const gint64 all[] = { 300, 200, 100 };

  SKIP_IF_UNREACHABLE (fixture);
  {
    g_autoptr(HBaseRow) row = scan_ver (fixture, &options);
    assert_timestamps (row, all, 1);
  }
  options.read.max_versions = 3;
  {
    g_autoptr(HBaseRow) row = scan_ver (fixture, &options);
    assert_timestamps (row, all, 3);
  }
  options.read.max_versions = 2;
  {
    g_autoptr(HBaseRow) row = scan_ver (fixture, &options);
    assert_timestamps (row, all, 2);
  }
}

static void
test_time_range (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  const gint64 two[] = { 200, 100 };
  const gint64 middle[] = { 200 };
  g_autoptr(GPtrArray) rows = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.read.max_versions = 3;
  options.read.min_timestamp = 100;
  options.read.max_timestamp = 250;
  {
    g_autoptr(HBaseRow) row = scan_ver (fixture, &options);
    assert_timestamps (row, two, 2);
  }
  options.read.min_timestamp = 150;
  {
    g_autoptr(HBaseRow) row = scan_ver (fixture, &options);
    assert_timestamps (row, middle, 1);
  }
  options.read.min_timestamp = 301;
  options.read.max_timestamp = 1000;
  {
    g_autoptr(HBaseRow) row = scan_ver (fixture, &options);
    g_assert_null (row);
  }
  /* over the whole table: only the row with old cells */
  options.read.min_timestamp = 0;
  options.read.max_timestamp = 1000;
  rows = scan_all (fixture, &options);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_true (bytes_is (hbase_row_get_key (rows->pdata[0]), "ver"));
  g_assert_cmpuint (hbase_row_get_n_cells (rows->pdata[0]), ==, 15);
}

static void
test_filter (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) r012 = BIN ("r012");
  g_autoptr(GBytes) r013 = BIN ("r013");
  g_autoptr(GPtrArray) rows = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.read.filter = "PrefixFilter ('r012')";
  rows = check_scan (fixture, &options, r012, TRUE, r013, FALSE);
  g_assert_cmpuint (rows->len, ==, 10);

  options.read.filter = "ValueFilter (=, 'binary:r0042:c3')";
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = scan_all (fixture, &options);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_true (bytes_is (hbase_row_get_key (rows->pdata[0]), "r0042"));
  g_assert_cmpuint (hbase_row_get_n_cells (rows->pdata[0]), ==, 1);
  g_assert_true (bytes_is (hbase_cell_get_qualifier (hbase_row_get_cell (rows->pdata[0], 0)), "c3"));

  /* a filter and a reversed range together */
  options.read.filter = "PrefixFilter ('r012')";
  options.reversed = TRUE;
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = check_scan (fixture, &options, r012, TRUE, r013, FALSE);
  g_assert_cmpuint (rows->len, ==, 10);
}

static void
assert_no_rows (HBaseTable *table, const HBaseScanOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseScanner) scanner = hbase_table_scan (table, options, &error);
  HBaseRow *row = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (scanner);
  for (int i = 0; i < 3; i++)
    {
      g_assert_true (hbase_scanner_next (scanner, &row, NULL, &error));
      g_assert_null (row);
      g_assert_no_error (error);
    }
}

static void
test_empty_range (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) r0500 = BIN ("r0500");
  g_autoptr(GBytes) r0600 = BIN ("r0600");
  g_autoptr(GBytes) r0400 = BIN ("r0400");
  g_autoptr(GBytes) r05 = BIN ("r05");
  g_autoptr(GBytes) ver = BIN ("ver");
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) nowhere = NULL;
  g_autoptr(HBaseTable) unreachable = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *gateway = g_strdup_printf ("127.0.0.1:%u", test_closed_port ());

  SKIP_IF_UNREACHABLE (fixture);
  /* a table behind a closed port: an empty range never contacts it */
  g_assert_true (hbase_config_set_gateways (config, gateway, &error));
  g_assert_true (hbase_config_set_max_attempts (config, 1, &error));
  g_assert_no_error (error);
  nowhere = hbase_client_new (config);
  g_assert_no_error (error);
  unreachable = hbase_table_new (nowhere, hbase_table_get_name (fixture->table), &error);
  g_assert_no_error (error);

  options.start_row = options.stop_row = r0500;
  assert_no_rows (fixture->table, &options);
  assert_no_rows (unreachable, &options);
  options.start_row = r0600;
  assert_no_rows (fixture->table, &options);
  assert_no_rows (unreachable, &options);
  options.start_row = NULL;
  options.stop_row = r0400;
  options.prefix = r05;
  assert_no_rows (fixture->table, &options);
  assert_no_rows (unreachable, &options);
  options.prefix = NULL;
  options.reversed = TRUE;
  options.start_row = r0400;
  options.stop_row = r0500;
  assert_no_rows (fixture->table, &options);
  assert_no_rows (unreachable, &options);
  options.start_row = options.stop_row = ver;
  assert_no_rows (fixture->table, &options);
  options.start_row = options.stop_row = NULL;
  options.prefix = r05;
  options.reversed = FALSE;

  /* lazily opened: the error of an unreachable gateway comes from next */
  {
    g_autoptr(HBaseScanner) scanner = hbase_table_scan (unreachable, &options, &error);
    HBaseRow *row = NULL;

    g_assert_no_error (error);
    g_assert_nonnull (scanner);
    g_assert_false (hbase_scanner_next (scanner, &row, NULL, &error));
    g_assert_null (row);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  }
}

static void
test_after_end (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) r099 = BIN ("r099");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  guint n = 0;
  HBaseRow *row;

  SKIP_IF_UNREACHABLE (fixture);
  options.prefix = r099;
  options.caching = 3;
  scanner = hbase_table_scan (fixture->table, &options, &error);
  g_assert_no_error (error);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      n++;
      hbase_row_unref (row);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 10);
  for (int i = 0; i < 5; i++)
    {
      g_assert_true (hbase_scanner_next (scanner, &row, NULL, &error));
      g_assert_null (row);
      g_assert_no_error (error);
    }
}

/* free-half-way on the native end: the region server's scanners, asked
 * about with Scan calls of the test's own. */
static void
native_free_half_way (Fixture *fixture)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseNativeRegion) region = NULL;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GPtrArray) regions =
    g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_region_free);
  guint64 id = 0;

  options.caching = 10;
  /* the scanner is open on the server, then gone once freed */
  {
    g_autoptr(HBaseScanner) scanner = hbase_table_scan (fixture->table, &options, &error);

    g_assert_no_error (error);
    for (int i = 0; i < 15; i++)
      {
        g_autoptr(HBaseRow) row = NULL;

        hbase_scanner_next (scanner, &row, NULL, &error);
        g_assert_no_error (error);
        g_assert_nonnull (row);
      }
    g_assert_true (native_server_id (scanner, &id, &region));
    /* (the probe reads a row of it: the scanner is freed next anyway) */
    g_assert_true (native_scan_call (fixture, region, id, FALSE));
  }
  g_assert_false (native_scan_call (fixture, region, id, FALSE));

  /* scanners opened and freed leave none behind; a scanner never used
   * opens nothing */
  for (int i = 0; i < 20; i++)
    {
      g_autoptr(HBaseScanner) scanner = hbase_table_scan (fixture->table, &options, &error);
      g_autoptr(HBaseRow) row = NULL;
      HBaseNativeRegion *open = NULL;

      g_assert_no_error (error);
      if (i % 2 == 0)
        {
          hbase_scanner_next (scanner, &row, NULL, &error);
          g_assert_no_error (error);
          g_assert_nonnull (row);
          g_assert_true (native_server_id (scanner, &id, &open));
          g_array_append_val (ids, id);
          g_ptr_array_add (regions, open);
        }
      else
        g_assert_false (native_server_id (scanner, &id, &open));
    }
  for (guint i = 0; i < ids->len; i++)
    g_assert_false (native_scan_call (fixture, regions->pdata[i], g_array_index (ids, guint64, i),
                                      FALSE));
}

static void
test_free_half_way (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint32));
  gint32 low, high, id;

  SKIP_IF_UNREACHABLE (fixture);
  if (test_table_fixture_is_native (fixture))
    {
      native_free_half_way (fixture);
      return;
    }
  options.caching = 10;

  /* the scanner is open on the gateway, then gone once freed */
  {
    g_autoptr(HBaseScanner) scanner = hbase_table_scan (fixture->table, &options, &error);

    g_assert_no_error (error);
    for (int i = 0; i < 15; i++)
      {
        g_autoptr(HBaseRow) row = NULL;

        hbase_scanner_next (scanner, &row, NULL, &error);

        g_assert_no_error (error);
        g_assert_nonnull (row);
      }
    id = server_id (scanner);
    g_assert_true (is_live (fixture, id));
  }
  g_assert_false (is_live (fixture, id));

  /* many scanners opened and freed leave none behind; a scanner never
   * used opens nothing */
  low = probe_id (fixture);
  for (int i = 0; i < 200; i++)
    {
      g_autoptr(HBaseScanner) scanner = hbase_table_scan (fixture->table, &options, &error);
      g_autoptr(HBaseRow) row = NULL;

      g_assert_no_error (error);
      if (i % 2 == 0)
        {
          hbase_scanner_next (scanner, &row, NULL, &error);
          g_assert_no_error (error);
          g_assert_nonnull (row);
          id = server_id (scanner);
          g_array_append_val (ids, id);
        }
      else
        g_assert_false (_hbase_scanner_get_server_id (scanner, &id));
    }
  high = probe_id (fixture);
  /* exactly 100 when nothing else uses the gateway meanwhile */
  g_assert_cmpint (high - low - 1, >=, 100);
  for (guint i = 0; i < ids->len; i++)
    g_assert_false (is_live (fixture, g_array_index (ids, gint32, i)));
}

typedef struct {
  GMainLoop *loop;
  HBaseScanner *scanner;
  GPtrArray *rows;
  GError *error;
  guint ends;
} AsyncState;

static void
next_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  AsyncState *state = user_data;
  HBaseRow *row = NULL;
  gboolean ok;

  g_assert_true (source == G_OBJECT (state->scanner));
  ok = hbase_scanner_next_finish (state->scanner, result, &row, &state->error);
  /* TRUE with a row, TRUE with NULL at the end, FALSE with an error */
  g_assert_true (ok == (state->error == NULL));
  g_assert_true (ok || row == NULL);
  if (row != NULL)
    {
      g_ptr_array_add (state->rows, row);
      hbase_scanner_next_async (state->scanner, NULL, next_ready, state);
      return;
    }
  if (state->error == NULL && ++state->ends < 3)
    {
      /* after the end it keeps ending */
      hbase_scanner_next_async (state->scanner, NULL, next_ready, state);
      return;
    }
  g_main_loop_quit (state->loop);
}

static void
test_async (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) r01 = BIN ("r01");
  g_autoptr(GBytes) r02 = BIN ("r02");
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GError) error = NULL;
  AsyncState state = { loop, NULL, rows, NULL, 0 };

  SKIP_IF_UNREACHABLE (fixture);
  options.prefix = r01;
  options.caching = 7;
  options.batch = 3;
  scanner = hbase_table_scan (fixture->table, &options, &error);
  g_assert_no_error (error);
  state.scanner = scanner;
  hbase_scanner_next_async (scanner, NULL, next_ready, &state);
  g_main_loop_run (loop);
  g_assert_no_error (state.error);
  g_assert_cmpuint (state.ends, ==, 3);
  expected = expected_keys (fixture, r01, TRUE, r02, FALSE, FALSE, 0);
  assert_keys (rows, expected);
  for (guint i = 0; i < rows->len; i++)
    assert_whole_row (rows->pdata[i]);
}

/* The gateway loses the scanner (as when it expires it) at several points
 * of the scan; the scanner reopens after the last row returned: the keys
 * are exactly the expected ones, none lost or repeated. */
static void
check_expiry (Fixture *fixture, HBaseScanOptions *options, GBytes *lower, gboolean lower_inclusive,
              GBytes *upper, gboolean upper_inclusive)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseScanner) scanner = hbase_table_scan (fixture->table, options, &error);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  g_autoptr(GPtrArray) expected =
    expected_keys (fixture, lower, lower_inclusive, upper, upper_inclusive, options->reversed,
                   options->limit);
  guint expiries = 0;
  gint32 last_id = -1;
  gboolean native = test_table_fixture_is_native (fixture);
  g_autoptr(HBaseNativeRegion) native_region = NULL;
  guint64 native_id = 0;
  HBaseRow *row;

  g_assert_no_error (error);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      g_ptr_array_add (rows, row);
      if (native)
        {
          /* the server's scanner closed behind the client's back */
          if (native_server_id (scanner, &native_id, &native_region) &&
              (rows->len == 1 || rows->len == 5 || rows->len == 6 || rows->len == 250 ||
               rows->len == 611))
            {
              native_scan_call (fixture, native_region, native_id, TRUE);
              g_assert_false (native_scan_call (fixture, native_region, native_id, FALSE));
              expiries++;
            }
          if (options->batch > 0)
            assert_whole_row (row);
          continue;
        }
      _hbase_scanner_get_server_id (scanner, &last_id);
      if ((rows->len == 1 || rows->len == 5 || rows->len == 6 || rows->len == 250 ||
           rows->len == 611) && _hbase_scanner_get_server_id (scanner, &last_id))
        {
          expire_scanner (fixture, scanner);
          expiries++;
        }
      if (options->batch > 0)
        assert_whole_row (row);
    }
  g_assert_no_error (error);
  assert_keys (rows, expected);
  g_assert_cmpuint (expiries, >=, 1);
  /* the last scanner was closed at the end */
  if (native)
    {
      g_assert_nonnull (native_region);
      g_assert_false (native_scan_call (fixture, native_region, native_id, FALSE));
      return;
    }
  g_assert_cmpint (last_id, >=, 0);
  g_assert_false (is_live (fixture, last_id));
}

static void
test_expiry (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) r0100 = BIN ("r0100");
  g_autoptr(GBytes) r0900 = BIN ("r0900");
  g_autoptr(GBytes) fe_ff = BIN ("\xfe\xff");
  g_autoptr(GBytes) ff = BIN ("\xff");

  SKIP_IF_UNREACHABLE (fixture);
  options.caching = 10;
  check_expiry (fixture, &options, NULL, FALSE, NULL, FALSE);
  options.reversed = TRUE;
  check_expiry (fixture, &options, NULL, FALSE, NULL, FALSE);
  /* reversed with start/stop and a limit: the reopened scan starts at the
   * last row returned and skips it */
  options.start_row = r0900;
  options.stop_row = r0100;
  options.limit = 300;
  check_expiry (fixture, &options, r0100, FALSE, r0900, TRUE);
  options.reversed = FALSE;
  options.start_row = r0100;
  options.stop_row = r0900;
  check_expiry (fixture, &options, r0100, TRUE, r0900, FALSE);
  /* partial rows pending when the scanner is lost */
  options.start_row = options.stop_row = NULL;
  options.limit = 0;
  options.batch = 2;
  options.caching = 3;
  check_expiry (fixture, &options, NULL, FALSE, NULL, FALSE);
  options.reversed = TRUE;
  check_expiry (fixture, &options, NULL, FALSE, NULL, FALSE);
  /* around the 0xFF edges, one row per fetch */
  options.batch = 0;
  options.caching = 1;
  options.prefix = fe_ff;
  check_expiry (fixture, &options, fe_ff, TRUE, ff, FALSE);
  options.reversed = FALSE;
  check_expiry (fixture, &options, fe_ff, TRUE, ff, FALSE);
}

static void
test_bad_input (Fixture *fixture, gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  const char *const empty_column[] = { "", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(HBaseTable) missing = NULL;
  g_autoptr(HBaseRow) row = NULL;
  g_autofree char *missing_name = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.read.columns = empty_column;
  g_assert_null (hbase_table_scan (fixture->table, &options, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  options.read.columns = NULL;

  options.read.min_timestamp = 200;
  options.read.max_timestamp = 100;
  g_assert_null (hbase_table_scan (fixture->table, &options, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  options.read.min_timestamp = options.read.max_timestamp = 0;

  /* a missing table: the error comes from the first next */
  missing_name = test_stack_unique_name ("hbase_glib_scan_missing");
  missing = hbase_table_new (fixture->client, missing_name, &error);
  g_assert_no_error (error);
  scanner = hbase_table_scan (missing, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (scanner);
  g_assert_false (hbase_scanner_next (scanner, &row, NULL, &error));
  g_assert_null (row);
  g_assert_nonnull (error);
  if (!g_error_matches (error, HBASE_ERROR, HBASE_ERROR_IO))
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, missing_name));
  g_clear_error (&error);
  g_clear_object (&scanner);

  /* a filter only the server can reject: at the first next */
  options.read.filter = "NoSuchFilter ('r0')";
  scanner = hbase_table_scan (fixture->table, &options, &error);
  g_assert_no_error (error);
  g_assert_false (hbase_scanner_next (scanner, &row, NULL, &error));
  g_assert_null (row);
  g_assert_nonnull (error);
  g_assert_true (error->domain == HBASE_ERROR);
  g_test_message ("unknown filter: %s", error->message);
  g_clear_error (&error);
  g_clear_object (&scanner);

  /* a malformed one: rejected by the library's check, or else at next */
  options.read.filter = "PrefixFilter (";
  scanner = hbase_table_scan (fixture->table, &options, &error);
  if (scanner == NULL)
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  else
    {
      g_assert_no_error (error);
      g_assert_false (hbase_scanner_next (scanner, &row, NULL, &error));
      g_assert_null (row);
      g_assert_nonnull (error);
      g_assert_true (error->domain == HBASE_ERROR);
    }
  g_test_message ("malformed filter: %s", error->message);
}

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "full", test_full },
    { "start-stop", test_start_stop },
    { "prefix", test_prefix },
    { "reversed", test_reversed },
    { "limit", test_limit },
    { "caching", test_caching },
    { "batch", test_batch },
    { "columns", test_columns },
    { "versions", test_versions },
    { "time-range", test_time_range },
    { "filter", test_filter },
    { "empty-range", test_empty_range },
    { "after-end", test_after_end },
    { "free-half-way", test_free_half_way },
    { "async", test_async },
    { "expiry", test_expiry },
    { "bad-input", test_bad_input },
  };
  static HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  static const TestTableSuite suite = {
    "/integration/scanner", "hbase_glib_scan", &family, 1, TEST_GATEWAYS_ALL
  };
  /* every case without a filter on the native end too (free-half-way
   * and expiry ask the region server about its scanners there, with Scan
   * calls of their own) */
  static const char *const native_cases[] = {
    "full", "start-stop", "prefix", "reversed", "limit", "caching", "batch", "columns",
    "versions", "time-range", "empty-range", "after-end", "free-half-way", "async", "expiry",
    NULL
  };
  static const TestTableSuiteOptions options = {
    .prepare = load, .free_shared = (GDestroyNotify) g_ptr_array_unref, .scanner_lock = TRUE,
    .native_cases = native_cases,
  };

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scanner/prefix-stop-row", test_prefix_stop_row);
  family.name = "f";
  family.max_versions = 3;
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
