/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of HBaseFilter against the real gateway: every filter of
 * the filter language and the AND, OR, SKIP and WHILE combinators, with the
 * exact rows and cells HBase returns; hostile values (quotes, parentheses,
 * commas, operator words, UTF-8, bytes 0x80-0xFF) matched exactly; 0x00
 * bytes, which HBaseReadOptions cannot carry, sent as bytes through the
 * generated layer; the parser quirk the rendering avoids.
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
 *   vNN: f:val=<hostile value NN>;  r<hostile value NN>: f:k=1 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

#define BIN(literal) g_bytes_new ((literal), sizeof (literal) - 1)

typedef HbaseThriftTHBaseServiceIf Service;

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
 * "key{cells} key{cells}". */
static char *
scan_with (Fixture *fixture, HBaseFilter *filter, const char *start, const char *stop,
           guint versions, GError **error)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) start_row = start != NULL ? test_text (start) : NULL;
  g_autoptr(GBytes) stop_row = stop != NULL ? test_text (stop) : NULL;
  g_autofree char *text = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  HBaseRow *row;
  GError *local = NULL;

  text = hbase_filter_to_string (filter, error);
  if (text == NULL)
    return NULL;
  options.start_row = start_row;
  options.stop_row = stop_row;
  options.read.filter = text;
  options.read.max_versions = versions;
  scanner = hbase_table_scan (fixture->table, &options, error);
  if (scanner == NULL)
    return NULL;
  while ((row = hbase_scanner_next (scanner, NULL, &local)) != NULL)
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
  g_autofree char *got = scan_with (fixture, filter, start, stop, versions, &error);
  g_autoptr(GString) text = g_string_new (NULL);

  /* the filter as printable text for the log */
  if (rendered != NULL)
    append_key (text, rendered);
  g_test_message ("%s -> %s", text->str, got);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, expected);
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

    read.filter = text;
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
      row = hbase_scanner_next (scanner, NULL, &error);
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

/* 0x00 bytes: hbase_filter_to_string() refuses them (HBaseReadOptions takes
 * a C string); TScan.filterString is binary, so the bytes rendering works
 * when sent as bytes, shown here through the generated layer. */
typedef struct {
  GByteArray *table;
  HbaseThriftTScan *scan;
  GPtrArray *results;
} ResultsCall;

static gboolean
results_once (Service *service, gpointer user_data, GError **error)
{
  ResultsCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  g_ptr_array_set_size (call->results, 0);
  if (!hbase_thrift_t_h_base_service_if_get_scanner_results (service, &call->results, call->table,
                                                             call->scan, 100, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

static void
test_nul_bytes (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) value = g_bytes_new (hostile[NUL_VALUE].data, hostile[NUL_VALUE].len);
  g_autoptr(HBaseFilter) equal = hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY,
                                                     value);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GByteArray) table = NULL;
  g_autoptr(HbaseThriftTScan) scan = NULL;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  ResultsCall call;
  HbaseThriftTResult *result;
  g_autofree char *key = g_strdup_printf ("v%02u", (guint) NUL_VALUE);

  SKIP_IF_UNREACHABLE (fixture);
  text = hbase_filter_to_string (equal, &error);
  g_assert_null (text);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  bytes = hbase_filter_to_bytes (equal, &error);
  g_assert_no_error (error);
  table = g_byte_array_new ();
  g_byte_array_append (table, (const guint8 *) hbase_table_get_name (fixture->table),
                       (guint) strlen (hbase_table_get_name (fixture->table)));
  scan = g_object_new (HBASE_THRIFT_TYPE_T_SCAN, NULL);
  scan->startRow = g_byte_array_append (g_byte_array_new (), (const guint8 *) "v", 1);
  scan->__isset_startRow = TRUE;
  scan->stopRow = g_byte_array_append (g_byte_array_new (), (const guint8 *) "w", 1);
  scan->__isset_stopRow = TRUE;
  scan->filterString = g_byte_array_append (g_byte_array_new (), g_bytes_get_data (bytes, NULL),
                                            (guint) g_bytes_get_size (bytes));
  scan->__isset_filterString = TRUE;
  call.table = table;
  call.scan = scan;
  call.results = results;
  g_assert_true (hbase_client_call (fixture->client, HBASE_CALL_IDEMPOTENT, results_once, &call,
                                    NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (call.results->len, ==, 1);
  result = g_ptr_array_index (call.results, 0);
  g_assert_cmpmem (result->row->data, result->row->len, key, strlen (key));
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
  };
  static HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/filter", "hbase_glib_filter", families, 2, TEST_GATEWAYS_ENDS
  };
  static const TestTableSuiteOptions options = { .prepare = load, .scanner_lock = TRUE };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  families[0].max_versions = 3;
  families[1].name = "g";
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
