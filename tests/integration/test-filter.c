/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of HBaseFilter against the real gateway: every filter of
 * the filter language and the AND, OR, SKIP and WHILE combinators, with the
 * exact rows and cells HBase returns; hostile values (quotes, parentheses,
 * commas, operator words, UTF-8, bytes 0x80-0xFF) matched exactly; values
 * with 0x00 and 0xFF sent as bytes (filter_bytes) through gets, get
 * multiple and scans; the parser quirk the rendering avoids.
 *
 * On the gateways every scan runs twice, with the rendering in the read
 * options' filter and with the filter itself in typed_filter, and both must
 * give the expected rows; on the native end (HBase's own RPC) the same
 * cases run with typed_filter, which the native backend sends as HBase's
 * filter messages (all but the parser quirk, a filter-language matter).
 *
 * Runs on the binary/buffered and the compact/framed gateways, one table
 * each (families f with 3 versions and g), created and loaded by the first
 * test and dropped at the end.  Cells carry explicit timestamps (1000
 * unless said otherwise), so DependentColumnFilter and TimestampsFilter
 * have fixed answers:
 *   a1: f:q1=x f:q2=y f:q3=z g:q1=w (g:q1 at 999)
 *   a2: f:q1=y f:q2=xx
 *   b1: f:q2=x g:q9=abc
 *   b2: f:p1=1 f:p2=2 f:q1=Hello World
 *   c1: f:q1=x at 100, f:q1=zz at 200
 *   vNN: f:val=<hostile value NN>;  r<hostile value NN>: f:k=1
 *   n1: f:val=a\0\xff  n2: f:val=a\0\xfe  n3: f:val=a\0  n4: f:val=a\xff */
#include "config.h"

#include <string.h>

#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

#define BIN(literal) g_bytes_new ((literal), sizeof (literal) - 1)

typedef struct {
  const char *data;
  gsize len;
} Hostile;

#define H(literal) { (literal), sizeof (literal) - 1 }
static const Hostile hostile[] = {
  H ("it's"), H ("''"), H ("'"), H ("a)b"), H ("(x, y)"), H ("a AND b"), H (" OR "),
  H ("SKIP (x"), H ("\xe4\xb8\xad\xe5\x9b\xbd\xe5\xa5\xbd\xe5\xa3\xb0\xe9\x9f\xb3"),
  H ("\x80\x81\xfe\xff"), H ("binary:x"), H (""), H ("x') OR PrefixFilter('"),
  H ("\\'"), H ("WHILE"), H ("x\ty"), H ("'''')"), H ("a,b"), H ("=,'binary:"),
  H ("a\x00" "b"),
};
#define NUL_VALUE (G_N_ELEMENTS (hostile) - 1)

typedef TestTableFixture Fixture;

#define SKIP_IF_UNREACHABLE TEST_SKIP_IF_UNREACHABLE

/* --- data ------------------------------------------------------------------------ */

static void
add_cell (HBaseMutation *put, const char *family, const char *qualifier, const void *value,
          gsize len, gint64 timestamp)
{
  g_autoptr(GBytes) f = test_text (family);
  g_autoptr(GBytes) q = test_text (qualifier);
  g_autoptr(GBytes) v = g_bytes_new (value, len);

  hbase_mutation_put_bytes (put, f, q, v, timestamp);
}

static HBaseMutation *
new_put (const void *key, gsize len)
{
  g_autoptr(GBytes) row = g_bytes_new (key, len);

  return hbase_mutation_new_put (row);
}

/* The suite's prepare hook: the rows every case reads. */
static void
load (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;
  HBaseMutation *put;

  put = new_put ("a1", 2);
  add_cell (put, "f", "q1", "x", 1, 1000);
  add_cell (put, "f", "q2", "y", 1, 1000);
  add_cell (put, "f", "q3", "z", 1, 1000);
  add_cell (put, "g", "q1", "w", 1, 999);
  g_ptr_array_add (puts, put);
  put = new_put ("a2", 2);
  add_cell (put, "f", "q1", "y", 1, 1000);
  add_cell (put, "f", "q2", "xx", 2, 1000);
  g_ptr_array_add (puts, put);
  put = new_put ("b1", 2);
  add_cell (put, "f", "q2", "x", 1, 1000);
  add_cell (put, "g", "q9", "abc", 3, 1000);
  g_ptr_array_add (puts, put);
  put = new_put ("b2", 2);
  add_cell (put, "f", "p1", "1", 1, 1000);
  add_cell (put, "f", "p2", "2", 1, 1000);
  add_cell (put, "f", "q1", "Hello World", 11, 1000);
  g_ptr_array_add (puts, put);
  put = new_put ("c1", 2);
  add_cell (put, "f", "q1", "x", 1, 100);
  add_cell (put, "f", "q1", "zz", 2, 200);
  g_ptr_array_add (puts, put);
  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autofree char *key = g_strdup_printf ("v%02u", i);
      g_autoptr(GByteArray) rkey = g_byte_array_new ();

      put = new_put (key, strlen (key));
      add_cell (put, "f", "val", hostile[i].data, hostile[i].len, 1000);
      g_ptr_array_add (puts, put);
      g_byte_array_append (rkey, (const guint8 *) "r", 1);
      g_byte_array_append (rkey, (const guint8 *) hostile[i].data, (guint) hostile[i].len);
      put = new_put (rkey->data, rkey->len);
      add_cell (put, "f", "k", "1", 1, 1000);
      g_ptr_array_add (puts, put);
    }
  /* values with 0x00 and 0xFF for the bytes form of filters */
  put = new_put ("n1", 2);
  add_cell (put, "f", "val", "a\0\xff", 3, 1000);
  g_ptr_array_add (puts, put);
  put = new_put ("n2", 2);
  add_cell (put, "f", "val", "a\0\xfe", 3, 1000);
  g_ptr_array_add (puts, put);
  put = new_put ("n3", 2);
  add_cell (put, "f", "val", "a\0", 2, 1000);
  g_ptr_array_add (puts, put);
  put = new_put ("n4", 2);
  add_cell (put, "f", "val", "a\xff", 2, 1000);
  g_ptr_array_add (puts, put);
  put = new_put ("w-qual", 6);
  add_cell (put, "f", "it's (x, y)", "1", 1, 1000);
  add_cell (put, "f", "other", "2", 1, 1000);
  g_ptr_array_add (puts, put);
  g_assert_true (hbase_table_apply_multiple (fixture->table, puts, NULL, &error));
  g_assert_no_error (error);
}

/* --- helpers ------------------------------------------------------------------------ */

static void
append_key (GString *out, GBytes *key)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (key, &len);

  for (gsize i = 0; i < len; i++)
    if (data[i] > 0x20 && data[i] < 0x7f && data[i] != '\\' && data[i] != '{')
      g_string_append_c (out, (char) data[i]);
    else
      g_string_append_printf (out, "\\x%02x", data[i]);
}

static void
append_row (GString *out, HBaseRow *row)
{
  g_autofree char *cells = test_row_summary (row, FALSE);

  if (out->len > 0)
    g_string_append_c (out, ' ');
  append_key (out, hbase_row_get_key (row));
  g_string_append_printf (out, "{%s}", cells);
}

/* The rows a scan of [start, stop) with @filter returns, as
 * "key{cells} key{cells}": @filter in typed_filter when @typed, else
 * rendered in filter. */
static char *
scan_with (Fixture *fixture, HBaseFilter *filter, gboolean typed, const char *start,
           const char *stop, guint versions, GError **error)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) start_row = start != NULL ? test_text (start) : NULL;
  g_autoptr(GBytes) stop_row = stop != NULL ? test_text (stop) : NULL;
  g_autofree char *text = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  HBaseRow *row;
  GError *local = NULL;

  if (typed)
    options.read.typed_filter = filter;
  else
    {
      text = hbase_filter_to_string (filter, error);
      if (text == NULL)
        return NULL;
      options.read.filter = text;
    }
  options.start_row = start_row;
  options.stop_row = stop_row;
  options.read.max_versions = versions;
  scanner = hbase_table_scan (fixture->table, &options, error);
  if (scanner == NULL)
    return NULL;
  while (hbase_scanner_next (scanner, &row, NULL, &local) && row != NULL)
    {
      append_row (out, row);
      hbase_row_unref (row);
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  return g_strdup (out->str);
}

static void
assert_scan (Fixture *fixture, HBaseFilter *filter, const char *start, const char *stop,
             guint versions, const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) rendered = hbase_filter_to_bytes (filter, NULL);
  gboolean native = test_table_fixture_is_native (fixture);
  g_autofree char *got = scan_with (fixture, filter, native, start, stop, versions, &error);
  g_autoptr(GString) text = g_string_new (NULL);

  /* the filter as printable text for the log */
  if (rendered != NULL)
    append_key (text, rendered);
  g_test_message ("%s -> %s", text->str, got);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, expected);
  if (!native)
    {
      g_autofree char *typed = scan_with (fixture, filter, TRUE, start, stop, versions, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (typed, ==, expected);
    }
  hbase_filter_unref (filter);
}

#define A1 "a1{f:q1=x f:q2=y f:q3=z g:q1=w}"
#define A2 "a2{f:q1=y f:q2=xx}"
#define B1 "b1{f:q2=x g:q9=abc}"
#define B2 "b2{f:p1=1 f:p2=2 f:q1=Hello World}"
#define C1 "c1{f:q1=zz}"

/* --- every filter ---------------------------------------------------------------------- */

static void
test_rows (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) a = BIN ("a");
  g_autoptr(GBytes) b1 = BIN ("b1");
  g_autoptr(GBytes) b2 = BIN ("b2");
  g_autoptr(GBytes) c2 = BIN ("c2");

  SKIP_IF_UNREACHABLE (fixture);
  assert_scan (fixture, hbase_filter_prefix (a), "a", "c2", 0, A1 " " A2);
  assert_scan (fixture, hbase_filter_inclusive_stop (b1), "a", "c2", 0, A1 " " A2 " " B1);
  assert_scan (fixture, hbase_filter_page (2), "a", "c2", 0, A1 " " A2);
  {
    g_autoptr(HBaseFilter) from = hbase_filter_row (HBASE_COMPARE_GREATER_OR_EQUAL,
                                                    HBASE_COMPARATOR_BINARY, b2);
    g_autoptr(HBaseFilter) below = hbase_filter_row (HBASE_COMPARE_LESS, HBASE_COMPARATOR_BINARY,
                                                     c2);

    assert_scan (fixture, hbase_filter_and (from, below), NULL, NULL, 0, B2 " " C1);
  }
}

static void
test_columns (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) g = BIN ("g");
  g_autoptr(GBytes) p = BIN ("p");
  g_autoptr(GBytes) q1 = BIN ("q1");
  g_autoptr(GBytes) q2 = BIN ("q2");
  g_autoptr(GBytes) q3 = BIN ("q3");
  g_autoptr(GBytes) p1 = BIN ("p1");
  GBytes *prefixes[] = { p1, q3 };

  SKIP_IF_UNREACHABLE (fixture);
  assert_scan (fixture, hbase_filter_family (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY, g),
               "a", "c2", 0, "a1{g:q1=w} b1{g:q9=abc}");
  assert_scan (fixture, hbase_filter_qualifier (HBASE_COMPARE_EQUAL,
                                                HBASE_COMPARATOR_BINARY_PREFIX, p),
               "a", "c2", 0, "b2{f:p1=1 f:p2=2}");
  assert_scan (fixture, hbase_filter_column_prefix (q2), "a", "c2", 0,
               "a1{f:q2=y} a2{f:q2=xx} b1{f:q2=x}");
  assert_scan (fixture, hbase_filter_multiple_column_prefix (prefixes, 2), "a", "c2", 0,
               "a1{f:q3=z} b2{f:p1=1}");
  assert_scan (fixture, hbase_filter_column_range (q1, FALSE, q3, TRUE), "a", "c2", 0,
               "a1{f:q2=y f:q3=z} a2{f:q2=xx} b1{f:q2=x}");
  /* open ends */
  assert_scan (fixture, hbase_filter_column_range (NULL, FALSE, q1, FALSE), "a", "c2", 0,
               "b2{f:p1=1 f:p2=2}");
  assert_scan (fixture, hbase_filter_column_range (q3, TRUE, NULL, FALSE), "a", "c2", 0,
               "a1{f:q3=z} b1{g:q9=abc}");
  assert_scan (fixture, hbase_filter_column_pagination (1, 1), "a", "c2", 0,
               "a1{f:q2=y} a2{f:q2=xx} b1{g:q9=abc} b2{f:p2=2}");
  /* ColumnCountGetFilter is meant for gets */
  {
    g_autoptr(HBaseFilter) two = hbase_filter_column_count (2);
    g_autofree char *text = hbase_filter_to_string (two, NULL);
    HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
    g_autoptr(GBytes) key = BIN ("a1");
    g_autoptr(GError) error = NULL;
    g_autoptr(HBaseRow) row = NULL;
    g_autofree char *cells = NULL;

    if (test_table_fixture_is_native (fixture))
      read.typed_filter = two;
    else
      read.filter = text;
    row = hbase_table_get (fixture->table, key, &read, NULL, &error);
    g_assert_no_error (error);
    cells = test_row_summary (row, FALSE);
    g_assert_cmpstr (cells, ==, "f:q1=x f:q2=y");
    g_clear_pointer (&cells, g_free);
    g_clear_pointer (&row, hbase_row_unref);
    read.filter = NULL;
    read.typed_filter = two;
    row = hbase_table_get (fixture->table, key, &read, NULL, &error);
    g_assert_no_error (error);
    cells = test_row_summary (row, FALSE);
    g_assert_cmpstr (cells, ==, "f:q1=x f:q2=y");
  }
}

static void
test_cells (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) a2 = BIN ("a2");
  g_autoptr(GBytes) world = BIN ("WORLD");
  g_autoptr(GBytes) xs = BIN ("^x+$");
  g_autoptr(GBytes) b = BIN ("b");
  const gint64 at_100[] = { 100 };
  const gint64 two[] = { 999, 200 };

  SKIP_IF_UNREACHABLE (fixture);
  assert_scan (fixture, hbase_filter_key_only (FALSE), "a2", "a3", 0, "a2{f:q1= f:q2=}");
  assert_scan (fixture, hbase_filter_key_only (TRUE), "a2", "a3", 0,
               "a2{f:q1=\\x00\\x00\\x00\\x01 f:q2=\\x00\\x00\\x00\\x02}");
  assert_scan (fixture, hbase_filter_first_key_only (), "a", "c2", 0,
               "a1{f:q1=x} a2{f:q1=y} b1{f:q2=x} b2{f:p1=1} c1{f:q1=zz}");
  assert_scan (fixture, hbase_filter_timestamps (at_100, 1), "a", "c2", 3, "c1{f:q1=x}");
  assert_scan (fixture, hbase_filter_timestamps (two, 2), "a", "c2", 3, "a1{g:q1=w} c1{f:q1=zz}");
  assert_scan (fixture, hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_SUBSTRING, world),
               "a", "c2", 0, "b2{f:q1=Hello World}");
  assert_scan (fixture, hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_REGEX, xs),
               "a", "c", 0, "a1{f:q1=x} a2{f:q2=xx} b1{f:q2=x}");
  assert_scan (fixture, hbase_filter_value (HBASE_COMPARE_LESS, HBASE_COMPARATOR_BINARY, b),
               "a", "c", 0, "b1{g:q9=abc} " B2);
  (void) a2;
}

static void
test_column_values (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) q1 = BIN ("q1");
  g_autoptr(GBytes) q2 = BIN ("q2");
  g_autoptr(GBytes) x = BIN ("x");

  SKIP_IF_UNREACHABLE (fixture);
  /* filterIfMissing, latestVersionOnly */
  assert_scan (fixture, hbase_filter_single_column_value ("f", q1, HBASE_COMPARE_EQUAL,
                                                          HBASE_COMPARATOR_BINARY, x, TRUE, TRUE),
               "a", "c2", 0, A1);
  assert_scan (fixture, hbase_filter_single_column_value ("f", q1, HBASE_COMPARE_EQUAL,
                                                          HBASE_COMPARATOR_BINARY, x, TRUE, FALSE),
               "a", "c2", 0, A1 " " C1);
  assert_scan (fixture, hbase_filter_single_column_value ("f", q1, HBASE_COMPARE_EQUAL,
                                                          HBASE_COMPARATOR_BINARY, x, FALSE, TRUE),
               "a", "c2", 0, A1 " " B1);
  assert_scan (fixture, hbase_filter_single_column_value_exclude ("f", q1, HBASE_COMPARE_EQUAL,
                                                                  HBASE_COMPARATOR_BINARY, x,
                                                                  TRUE, TRUE),
               "a", "c2", 0, "a1{f:q2=y f:q3=z g:q1=w}");
  assert_scan (fixture, hbase_filter_column_value ("f", q2, HBASE_COMPARE_EQUAL,
                                                   HBASE_COMPARATOR_BINARY, x),
               "a", "c2", 0, "b1{f:q2=x}");
  assert_scan (fixture, hbase_filter_dependent_column ("f", q1, FALSE), "a", "c", 0,
               "a1{f:q1=x f:q2=y f:q3=z} " A2 " " B2);
  assert_scan (fixture, hbase_filter_dependent_column ("f", q1, TRUE), "a", "c", 0,
               "a1{f:q2=y f:q3=z} a2{f:q2=xx} b2{f:p1=1 f:p2=2}");
  assert_scan (fixture, hbase_filter_dependent_column_compare ("f", q1, FALSE, HBASE_COMPARE_EQUAL,
                                                               HBASE_COMPARATOR_BINARY, x),
               "a", "c", 0, "a1{f:q1=x f:q2=y f:q3=z}");
}

static void
test_combinators (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) a = BIN ("a");
  g_autoptr(GBytes) b = BIN ("b");
  g_autoptr(GBytes) c = BIN ("c");
  g_autoptr(GBytes) b1 = BIN ("b1");
  g_autoptr(GBytes) b2 = BIN ("b2");
  g_autoptr(GBytes) x = BIN ("x");
  g_autoptr(HBaseFilter) fa = hbase_filter_prefix (a);
  g_autoptr(HBaseFilter) fb = hbase_filter_prefix (b);
  g_autoptr(HBaseFilter) fc = hbase_filter_prefix (c);
  g_autoptr(HBaseFilter) not_x = hbase_filter_value (HBASE_COMPARE_NOT_EQUAL,
                                                     HBASE_COMPARATOR_BINARY, x);
  g_autoptr(HBaseFilter) not_b1 = hbase_filter_row (HBASE_COMPARE_NOT_EQUAL,
                                                    HBASE_COMPARATOR_BINARY, b1);
  g_autoptr(HBaseFilter) is_b2 = hbase_filter_row (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY,
                                                   b2);
  g_autoptr(HBaseFilter) skip_x = hbase_filter_skip (not_x);
  g_autoptr(HBaseFilter) a_or_b = hbase_filter_or (fa, fb);
  g_autoptr(HBaseFilter) b_and_b2 = hbase_filter_and (fb, is_b2);

  SKIP_IF_UNREACHABLE (fixture);
  assert_scan (fixture, hbase_filter_ref (skip_x), "a", "c", 0, A2 " " B2);
  assert_scan (fixture, hbase_filter_while (not_b1), "a", "c2", 0, A1 " " A2);
  assert_scan (fixture, hbase_filter_or (fa, fc), "a", "c2", 0, A1 " " A2 " " C1);
  assert_scan (fixture, hbase_filter_and (a_or_b, skip_x), "a", "c", 0, A2 " " B2);
  /* grouping is what the tree says, not operator precedence */
  assert_scan (fixture, hbase_filter_or (fa, b_and_b2), "a", "c2", 0, A1 " " A2 " " B2);
  assert_scan (fixture, hbase_filter_and (a_or_b, is_b2), "a", "c2", 0, B2);
  /* a SKIP inside an OR inside a WHILE: from a1, the WHILE ends the scan
   * at once (a1 holds an x and does not start with c); from b2 it lets b2
   * and c1 through, and the prefix keeps b2 */
  {
    g_autoptr(HBaseFilter) inner = hbase_filter_or (skip_x, fc);
    g_autoptr(HBaseFilter) outer = hbase_filter_while (inner);

    assert_scan (fixture, hbase_filter_and (outer, fb), "a", "c2", 0, "");
    assert_scan (fixture, hbase_filter_and (outer, fb), "b2", "c2", 0, B2);
  }
}

/* The filter language's parser pops one operator too many on a ')' that
 * closes a group mixing operators; the rendering never produces one. */
static void
test_parser_quirk (Fixture *fixture, gconstpointer data)
{
  static const char *const mixed[] = {
    "(PrefixFilter('a') AND SKIP ValueFilter(!=, 'binary:x'))",
    "(PrefixFilter('a') OR PrefixFilter('b') AND PrefixFilter('c'))",
  };

  SKIP_IF_UNREACHABLE (fixture);
  for (guint i = 0; i < G_N_ELEMENTS (mixed); i++)
    {
      HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
      g_autoptr(HBaseScanner) scanner = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseRow) row = NULL;

      options.read.filter = mixed[i];
      scanner = hbase_table_scan (fixture->table, &options, &error);
      g_assert_no_error (error);
      hbase_scanner_next (scanner, &row, NULL, &error);
      g_assert_null (row);
      g_test_message ("hand-written mixed group %s: %s", mixed[i],
                      error != NULL ? error->message : "(no error)");
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_SERVER);
    }
}

/* --- hostile values ---------------------------------------------------------------------- */

static void
test_hostile_values (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) val = BIN ("val");
  g_autoptr(GBytes) k = BIN ("k");
  g_autoptr(HBaseFilter) only_val = hbase_filter_qualifier (HBASE_COMPARE_EQUAL,
                                                            HBASE_COMPARATOR_BINARY, val);

  SKIP_IF_UNREACHABLE (fixture);
  for (guint i = 0; i < NUL_VALUE; i++)
    {
      g_autoptr(GBytes) value = g_bytes_new (hostile[i].data, hostile[i].len);
      g_autoptr(GByteArray) rkey = g_byte_array_new ();
      g_autoptr(GBytes) row_key = NULL;
      g_autoptr(HBaseFilter) equal = hbase_filter_value (HBASE_COMPARE_EQUAL,
                                                         HBASE_COMPARATOR_BINARY, value);
      g_autoptr(GString) expected = g_string_new (NULL);
      g_autoptr(GString) expected_row = g_string_new (NULL);
      g_autofree char *cells = NULL;

      g_string_printf (expected, "v%02u{f:val=", i);
      {
        g_autoptr(HBaseRow) probe = NULL;
        g_autofree char *key = g_strdup_printf ("v%02u", i);
        g_autoptr(GBytes) key_bytes = test_text (key);
        g_autoptr(GError) error = NULL;

        probe = hbase_table_get (fixture->table, key_bytes, NULL, NULL, &error);
        g_assert_no_error (error);
        cells = test_row_summary (probe, FALSE);
        g_string_printf (expected, "v%02u{%s}", i, cells);
      }
      g_test_message ("hostile value %u: %s", i, expected->str);
      /* ValueFilter, and SingleColumnValueFilter */
      assert_scan (fixture, hbase_filter_and (only_val, equal), "v", "w", 0, expected->str);
      assert_scan (fixture, hbase_filter_single_column_value ("f", val, HBASE_COMPARE_EQUAL,
                                                              HBASE_COMPARATOR_BINARY, value,
                                                              TRUE, TRUE),
                   "v", "w", 0, expected->str);
      /* RowFilter on a key holding the hostile bytes */
      g_byte_array_append (rkey, (const guint8 *) "r", 1);
      g_byte_array_append (rkey, (const guint8 *) hostile[i].data, (guint) hostile[i].len);
      row_key = g_bytes_new (rkey->data, rkey->len);
      append_key (expected_row, row_key);
      g_string_append (expected_row, "{f:k=1}");
      assert_scan (fixture, hbase_filter_row (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY, row_key),
                   "r", "s", 0, expected_row->str);
      (void) k;
    }

  /* UTF-8 through every comparator that reads text */
  {
    g_autoptr(GBytes) sound = BIN ("\xe5\xa5\xbd\xe5\xa3\xb0");   /* 好声 */
    g_autoptr(GBytes) regex = BIN ("^\xe4\xb8\xad.*\xe9\x9f\xb3$"); /* ^中.*音$ */
    g_autoptr(GBytes) prefix = BIN ("\xe4\xb8\xad\xe5\x9b\xbd");   /* 中国 */
    const char *expected = "v08{f:val=\\xe4\\xb8\\xad\\xe5\\x9b\\xbd\\xe5\\xa5\\xbd\\xe5\\xa3\\xb0"
                           "\\xe9\\x9f\\xb3}";

    assert_scan (fixture, hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_SUBSTRING, sound),
                 "v", "w", 0, expected);
    assert_scan (fixture, hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_REGEX, regex),
                 "v", "w", 0, expected);
    assert_scan (fixture, hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY_PREFIX,
                                              prefix),
                 "v", "w", 0, expected);
  }
  /* a qualifier with quotes, parentheses and a comma */
  {
    g_autoptr(GBytes) prefix = BIN ("it's (x,");

    assert_scan (fixture, hbase_filter_column_prefix (prefix), "w", "x", 0,
                 "w-qual{f:it's (x, y)=1}");
  }
}

/* Values with 0x00 and 0xFF: hbase_filter_to_string() refuses a 0x00 (a C
 * string cannot hold it); hbase_filter_to_bytes() in filter_bytes carries
 * it, through gets and scans, and so does typed_filter (the only form on
 * the native end).  Rows n1..n4 hold values that differ from
 * "a\0\xff" in one byte or in length, so only n1 matches. */
static void
test_nul_bytes (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) value = BIN ("a\0\xff");
  g_autoptr(GBytes) val = BIN ("val");
  g_autoptr(HBaseFilter) equal = hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY,
                                                     value);
  g_autoptr(HBaseFilter) column = hbase_filter_single_column_value ("f", val, HBASE_COMPARE_EQUAL,
                                                                    HBASE_COMPARATOR_BINARY,
                                                                    value, TRUE, TRUE);
  HBaseFilter *filters[] = { equal, column };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  text = hbase_filter_to_string (equal, &error);
  g_assert_null (text);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  for (guint f = 0; f < 2 * G_N_ELEMENTS (filters); f++)
    {
      gboolean typed = f >= G_N_ELEMENTS (filters) || test_table_fixture_is_native (fixture);
      HBaseFilter *filter = filters[f % G_N_ELEMENTS (filters)];
      g_autoptr(GBytes) bytes = hbase_filter_to_bytes (filter, &error);
      HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
      g_autoptr(GBytes) start = BIN ("n");
      g_autoptr(GBytes) stop = BIN ("o");
      g_autoptr(GBytes) n1 = BIN ("n1");
      g_autoptr(GBytes) n2 = BIN ("n2");
      g_autoptr(HBaseScanner) scanner = NULL;
      g_autoptr(HBaseRow) row = NULL;
      g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      g_autoptr(GPtrArray) rows = NULL;
      g_autoptr(GString) got = g_string_new (NULL);
      HBaseRow *next;

      g_assert_no_error (error);
      g_assert_nonnull (memchr (g_bytes_get_data (bytes, NULL), 0, g_bytes_get_size (bytes)));
      options.start_row = start;
      options.stop_row = stop;
      if (typed)
        options.read.typed_filter = filter;
      else
        options.read.filter_bytes = bytes;

      /* a scan */
      scanner = hbase_table_scan (fixture->table, &options, &error);
      g_assert_no_error (error);
      while (hbase_scanner_next (scanner, &next, NULL, &error) && next != NULL)
        {
          append_row (got, next);
          hbase_row_unref (next);
        }
      g_assert_no_error (error);
      g_assert_cmpstr (got->str, ==, "n1{f:val=a\\x00\\xff}");

      /* a get of the matching row and of one that differs in its last byte */
      row = hbase_table_get (fixture->table, n1, &options.read, NULL, &error);
      g_assert_no_error (error);
      g_assert_false (hbase_row_is_empty (row));
      g_clear_pointer (&row, hbase_row_unref);
      row = hbase_table_get (fixture->table, n2, &options.read, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (row == NULL || hbase_row_is_empty (row));

      /* get multiple: only n1 has cells */
      for (guint i = 1; i <= 4; i++)
        {
          g_autofree char *key = g_strdup_printf ("n%u", i);

          g_ptr_array_add (keys, test_text (key));
        }
      rows = hbase_table_get_multiple (fixture->table, keys, &options.read, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rows->len, ==, 4);
      for (guint i = 0; i < 4; i++)
        {
          HBaseRow *each = g_ptr_array_index (rows, i);

          g_assert_cmpint (each != NULL && !hbase_row_is_empty (each), ==, i == 0);
        }
    }
}

/* A typed filter with a filter string is refused before anything is
 * sent, and so is one built with a bad argument (with its builder's
 * message); on the native end a filter string is refused with a message
 * pointing at the typed filter. */
static void
test_typed_refusals (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) a = BIN ("a");
  g_autoptr(GBytes) key = BIN ("a1");
  g_autoptr(GBytes) rendered = NULL;
  g_autoptr(HBaseFilter) good = hbase_filter_prefix (a);
  g_autoptr(HBaseFilter) bad = hbase_filter_page (-1);
  g_autoptr(HBaseFilter) bad_and = hbase_filter_and (good, bad);
  g_autoptr(HBaseScanner) scanner = NULL;
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) expected = NULL;
  g_autoptr(HBaseRow) row = NULL;
  gboolean exists = FALSE;

  SKIP_IF_UNREACHABLE (fixture);
  read.typed_filter = good;
  read.filter = "PrefixFilter('a')";
  row = hbase_table_get (fixture->table, key, &read, NULL, &error);
  g_assert_null (row);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "typed_filter"));
  g_clear_error (&error);
  rendered = hbase_filter_to_bytes (good, NULL);
  read.filter = NULL;
  read.filter_bytes = rendered;
  g_assert_false (hbase_table_exists (fixture->table, key, &read, &exists, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  /* a bad argument: the error hbase_filter_to_bytes() gives */
  g_assert_null (hbase_filter_to_bytes (bad_and, &expected));
  read.filter_bytes = NULL;
  read.typed_filter = bad_and;
  row = hbase_table_get (fixture->table, key, &read, NULL, &error);
  g_assert_null (row);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_cmpstr (error->message, ==, expected->message);
  g_clear_error (&error);
  scan.read.typed_filter = bad;
  scanner = hbase_table_scan (fixture->table, &scan, &error);
  g_assert_null (scanner);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  if (test_table_fixture_is_native (fixture))
    {
      /* filter strings: refused, pointing at the typed filter */
      read.typed_filter = NULL;
      read.filter = "PrefixFilter('a')";
      row = hbase_table_get (fixture->table, key, &read, NULL, &error);
      g_assert_null (row);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
      g_assert_nonnull (strstr (error->message, "hbase_read_options_set_typed_filter()"));
      g_clear_error (&error);
      scan.read.typed_filter = NULL;
      scan.read.filter_bytes = rendered;
      scanner = hbase_table_scan (fixture->table, &scan, &error);
      g_assert_null (scanner);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
      g_assert_nonnull (strstr (error->message, "hbase_read_options_set_typed_filter()"));
    }
}

/* --- main --------------------------------------------------------------------------------- */

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "rows", test_rows },
    { "columns", test_columns },
    { "cells", test_cells },
    { "column-values", test_column_values },
    { "combinators", test_combinators },
    { "parser-quirk", test_parser_quirk },
    { "hostile-values", test_hostile_values },
    { "nul-bytes", test_nul_bytes },
    { "typed-refusals", test_typed_refusals },
  };
  static HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/filter", "hbase_glib_filter", families, 2, TEST_GATEWAYS_ENDS
  };
  static const char *const native_cases[] = {
    "rows", "columns", "cells", "column-values", "combinators", "hostile-values", "nul-bytes",
    "typed-refusals", NULL
  };
  static const TestTableSuiteOptions options = {
    .prepare = load, .scanner_lock = TRUE, .native_cases = native_cases
  };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  families[0].max_versions = 3;
  families[1].name = "g";
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
