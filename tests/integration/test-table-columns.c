/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of reads restricted to columns given as HBaseColumns
 * (HBaseReadOptions' column_list) against the real stack: qualifiers with
 * 0x00, 0xFF and ':' read back exactly, alone, through get, get multiple,
 * exists and scans; a whole family; and the errors for giving both forms
 * of the columns or of the filter.
 *
 * Runs on the binary/buffered and the compact/framed gateways, one table
 * each (families f and g), loaded by the first test:
 *   k1: f:"q\0\xff"=nul-ff  f:"q\0"=nul  f:"q"=plain  f:"q:\xff"=colon-ff  g:"q\0\xff"=other
 *   k2: f:"q"=plain2 */
#include "config.h"

#include <string.h>

#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

#define BIN(literal) g_bytes_new ((literal), sizeof (literal) - 1)

typedef TestTableFixture Fixture;

static void
add_cell (HBaseMutation *put, const char *family, GBytes *qualifier, const char *value)
{
  g_autoptr(GBytes) f = test_text (family);
  g_autoptr(GBytes) v = test_text (value);

  hbase_mutation_put_bytes (put, f, qualifier, v, 1000);
}

static void
load (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GBytes) k1 = BIN ("k1");
  g_autoptr(GBytes) k2 = BIN ("k2");
  g_autoptr(GBytes) nul_ff = BIN ("q\0\xff");
  g_autoptr(GBytes) nul = BIN ("q\0");
  g_autoptr(GBytes) plain = BIN ("q");
  g_autoptr(GBytes) colon_ff = BIN ("q:\xff");
  g_autoptr(GError) error = NULL;
  HBaseMutation *put = hbase_mutation_new_put (k1);

  add_cell (put, "f", nul_ff, "nul-ff");
  add_cell (put, "f", nul, "nul");
  add_cell (put, "f", plain, "plain");
  add_cell (put, "f", colon_ff, "colon-ff");
  add_cell (put, "g", nul_ff, "other");
  g_ptr_array_add (puts, put);
  put = hbase_mutation_new_put (k2);
  add_cell (put, "f", plain, "plain2");
  g_ptr_array_add (puts, put);
  g_assert_true (hbase_table_apply_multiple (fixture->table, puts, NULL, &error));
  g_assert_no_error (error);
}

/* A column list of one column: family @family, qualifier @qualifier
 * (NULL: the whole family). */
static GPtrArray *
one_column (const char *family, GBytes *qualifier)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_column_unref);

  g_ptr_array_add (list, hbase_column_new (family, qualifier));
  return list;
}

static char *
get_summary (Fixture *fixture, const char *key, const HBaseReadOptions *options)
{
  g_autoptr(GBytes) row_key = test_text (key);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseRow) row = hbase_table_get (fixture->table, row_key, options, NULL, &error);

  g_assert_no_error (error);
  return test_row_summary (row, FALSE);
}

static void
test_get (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) nul_ff = BIN ("q\0\xff");
  g_autoptr(GBytes) nul = BIN ("q\0");
  g_autoptr(GBytes) colon_ff = BIN ("q:\xff");
  g_autoptr(GBytes) empty = BIN ("");
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  /* the qualifier with 0x00 and 0xFF alone, not its prefix "q\0", not "q" */
  {
    g_autoptr(GPtrArray) list = one_column ("f", nul_ff);
    g_autofree char *got = NULL;

    options.column_list = list;
    got = get_summary (fixture, "k1", &options);
    g_assert_cmpstr (got, ==, "f:q\\x00\\xff=nul-ff");
  }
  {
    g_autoptr(GPtrArray) list = one_column ("f", nul);
    g_autofree char *got = NULL;

    options.column_list = list;
    got = get_summary (fixture, "k1", &options);
    g_assert_cmpstr (got, ==, "f:q\\x00=nul");
  }
  /* a ':' in the qualifier is just a byte */
  {
    g_autoptr(GPtrArray) list = one_column ("f", colon_ff);
    g_autofree char *got = NULL;

    options.column_list = list;
    got = get_summary (fixture, "k1", &options);
    g_assert_cmpstr (got, ==, "f:q:\\xff=colon-ff");
  }
  /* two columns of two families; a whole family */
  {
    g_autoptr(GPtrArray) list = one_column ("f", nul_ff);
    g_autofree char *got = NULL;

    g_ptr_array_add (list, hbase_column_new ("g", nul_ff));
    options.column_list = list;
    got = get_summary (fixture, "k1", &options);
    g_assert_cmpstr (got, ==, "f:q\\x00\\xff=nul-ff g:q\\x00\\xff=other");
  }
  {
    g_autoptr(GPtrArray) list = one_column ("g", NULL);
    g_autofree char *got = NULL;

    options.column_list = list;
    got = get_summary (fixture, "k1", &options);
    g_assert_cmpstr (got, ==, "g:q\\x00\\xff=other");
  }
  /* the empty qualifier is a column of its own: none here */
  {
    g_autoptr(GPtrArray) list = one_column ("f", empty);
    g_autofree char *got = NULL;

    options.column_list = list;
    got = get_summary (fixture, "k1", &options);
    g_assert_cmpstr (got, ==, "");
  }
  /* an empty list: every column */
  {
    g_autoptr(GPtrArray) list = g_ptr_array_new ();
    g_autofree char *got = NULL;

    options.column_list = list;
    got = get_summary (fixture, "k2", &options);
    g_assert_cmpstr (got, ==, "f:q=plain2");
  }
}

static void
test_get_multiple_and_exists (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) nul_ff = BIN ("q\0\xff");
  g_autoptr(GPtrArray) list = one_column ("f", nul_ff);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
  g_autofree char *first = NULL;
  gboolean exists = FALSE;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  options.column_list = list;
  g_ptr_array_add (keys, BIN ("k1"));
  g_ptr_array_add (keys, BIN ("k2"));
  rows = hbase_table_get_multiple (fixture->table, keys, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  first = test_row_summary (g_ptr_array_index (rows, 0), FALSE);
  g_assert_cmpstr (first, ==, "f:q\\x00\\xff=nul-ff");
  g_assert_true (hbase_row_is_empty (g_ptr_array_index (rows, 1)));

  g_assert_true (hbase_table_exists (fixture->table, g_ptr_array_index (keys, 0), &options,
                                     &exists, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (exists);
  g_assert_true (hbase_table_exists (fixture->table, g_ptr_array_index (keys, 1), &options,
                                     &exists, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (exists);
}

static void
test_scan (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) nul = BIN ("q\0");
  g_autoptr(GBytes) plain = BIN ("q");
  g_autoptr(GPtrArray) list = one_column ("f", nul);
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GString) got = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  HBaseRow *row;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  g_ptr_array_add (list, hbase_column_new ("f", plain));
  options.read.column_list = list;
  scanner = hbase_table_scan (fixture->table, &options, &error);
  g_assert_no_error (error);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      g_autofree char *cells = test_row_summary (row, FALSE);
      gsize key_len;
      const char *key = g_bytes_get_data (hbase_row_get_key (row), &key_len);

      g_string_append_printf (got, "%.*s[%s] ", (int) key_len, key, cells);
      hbase_row_unref (row);
    }
  g_assert_no_error (error);
  g_assert_cmpstr (got->str, ==, "k1[f:q=plain f:q\\x00=nul] k2[f:q=plain2] ");
}

/* Both forms of the columns, or of the filter: an error before sending. */
static void
test_both_forms (Fixture *fixture, gconstpointer data)
{
  static const char *const columns[] = { "f:q", NULL };
  g_autoptr(GBytes) plain = BIN ("q");
  g_autoptr(GPtrArray) list = one_column ("f", plain);
  g_autoptr(GBytes) filter_bytes = BIN ("KeyOnlyFilter()");
  g_autoptr(GBytes) key = BIN ("k1");
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  HBaseReadOptions both[2] = { HBASE_READ_OPTIONS_INIT, HBASE_READ_OPTIONS_INIT };

  TEST_SKIP_IF_UNREACHABLE (fixture);
  g_ptr_array_add (keys, key);
  both[0].columns = columns;
  both[0].column_list = list;
  both[1].filter = "KeyOnlyFilter()";
  both[1].filter_bytes = filter_bytes;
  for (guint i = 0; i < G_N_ELEMENTS (both); i++)
    {
      const char *fragment = i == 0 ? "both columns and column_list"
                                    : "both filter and filter_bytes";
      HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseRow) row = NULL;
      g_autoptr(GPtrArray) rows = NULL;
      g_autoptr(HBaseScanner) scanner = NULL;
      gboolean exists = TRUE;

      row = hbase_table_get (fixture->table, key, &both[i], NULL, &error);
      g_assert_null (row);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_nonnull (strstr (error->message, fragment));
      g_clear_error (&error);
      rows = hbase_table_get_multiple (fixture->table, keys, &both[i], NULL, &error);
      g_assert_null (rows);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_clear_error (&error);
      g_assert_false (hbase_table_exists (fixture->table, key, &both[i], &exists, NULL, &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_false (exists);
      g_clear_error (&error);
      scan.read = both[i];
      scanner = hbase_table_scan (fixture->table, &scan, &error);
      g_assert_null (scanner);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_nonnull (strstr (error->message, fragment));
    }

  /* a column without a family, a NULL column */
  {
    g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_column_unref);
    HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
    g_autoptr(GError) error = NULL;
    g_autoptr(HBaseRow) row = NULL;

    g_ptr_array_add (bad, hbase_column_new (NULL, plain));
    options.column_list = bad;
    row = hbase_table_get (fixture->table, key, &options, NULL, &error);
    g_assert_null (row);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "has no family"));
    g_clear_error (&error);
    g_ptr_array_set_size (bad, 0);
    g_ptr_array_add (bad, NULL);
    row = hbase_table_get (fixture->table, key, &options, NULL, &error);
    g_assert_null (row);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "is NULL"));
  }
}

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "get", test_get },
    { "get-multiple-and-exists", test_get_multiple_and_exists },
    { "scan", test_scan },
    { "both-forms", test_both_forms },
  };
  static HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/table-columns", "hbase_glib_columns", families, 2, TEST_GATEWAYS_ENDS
  };
  /* every case runs on the native end too */
  static const char *const native_cases[] = {
    "get", "get-multiple-and-exists", "scan", "both-forms", NULL
  };
  static const TestTableSuiteOptions options = { .prepare = load, .native_cases = native_cases };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  families[1].name = "g";
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
