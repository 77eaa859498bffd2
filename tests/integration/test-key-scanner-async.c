/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of hbase_key_scanner_next_async() and
 * hbase_key_query_run_async() against the real stack, on a GMainLoop: ten
 * rows of a salted table come back in key order, one by one and in pages
 * of four with their page tokens. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../support/test-table-fixture.h"
#include "../support/test-rows.h"
#include "../support/test-waiter.h"

typedef TestTableFixture Fixture;

#define N_ROWS 10

static const HBaseKeyField number_key[] = {
  { "n", HBASE_KEY_FIELD_UINT, 4, 0, FALSE },
};

static HBaseKeySchema *
salted_schema (void)
{
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  HBaseKeySchema *schema;

  salt.n_buckets = 4;
  schema = hbase_key_schema_new (number_key, 1, &salt, &error);
  g_assert_no_error (error);
  return schema;
}

/* Rows 0..N_ROWS-1, each with f:c = "v<n>". */
static void
load_rows (Fixture *fixture, HBaseKeySchema *schema)
{
  g_autoptr(GPtrArray) puts =
    g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;

  for (guint n = 0; n < N_ROWS; n++)
    {
      HBaseKeyValue values[] = { HBASE_KEY_UINT (n) };
      g_autoptr(GBytes) key = hbase_key_schema_encode (schema, values, 1, &error);
      g_autofree char *text = g_strdup_printf ("v%u", n);
      g_autoptr(GBytes) value = test_text (text);
      HBaseMutation *put;

      g_assert_no_error (error);
      put = hbase_mutation_new_put (key);
      hbase_mutation_put (put, "f", "c", value);
      g_ptr_array_add (puts, put);
    }
  g_assert_true (hbase_table_apply_multiple (fixture->table, puts, NULL, &error));
  g_assert_no_error (error);
}

static void
assert_row (HBaseRow *row, guint n)
{
  g_autofree char *expected = g_strdup_printf ("v%u", n);
  GBytes *value;

  g_assert_nonnull (row);
  value = hbase_row_lookup (row, "f", "c");
  g_assert_nonnull (value);
  g_assert_cmpmem (g_bytes_get_data (value, NULL), g_bytes_get_size (value), expected,
                   strlen (expected));
}

static void
test_next_and_pages (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseKeySchema) schema = NULL;
  g_autoptr(HBaseKeyScanner) scanner = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  HBaseKeyQuery query = HBASE_KEY_QUERY_INIT;
  TestWaiter waiter;
  guint seen = 0;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  schema = salted_schema ();
  load_rows (fixture, schema);

  scanner = hbase_key_scanner_new (fixture->table, schema, NULL, &error);
  g_assert_no_error (error);
  for (;;)
    {
      g_autoptr(HBaseRow) row = NULL;

      test_waiter_init (&waiter);
      hbase_key_scanner_next_async (scanner, NULL, test_waiter_done, &waiter);
      g_assert_true (hbase_key_scanner_next_finish (scanner, test_waiter_run (&waiter), &row, &error));
      test_waiter_clear (&waiter);
      g_assert_no_error (error);
      if (row == NULL)
        break;
      assert_row (row, seen);
      seen++;
    }
  g_assert_cmpuint (seen, ==, N_ROWS);

  /* pages of 4: 4, 4, then the last 2 without a token */
  query.limit = 4;
  seen = 0;
  for (guint page = 0; page < 3; page++)
    {
      g_autoptr(GPtrArray) rows = NULL;
      char *next = NULL;

      query.page_token = token;
      test_waiter_init (&waiter);
      hbase_key_query_run_async (fixture->table, schema, &query, NULL, test_waiter_done, &waiter);
      rows = hbase_key_query_run_finish (fixture->table, test_waiter_run (&waiter), &next, &error);
      test_waiter_clear (&waiter);
      g_assert_no_error (error);
      g_assert_nonnull (rows);
      g_assert_cmpuint (rows->len, ==, page < 2 ? 4 : 2);
      for (guint i = 0; i < rows->len; i++)
        assert_row (rows->pdata[i], seen++);
      if (page < 2)
        g_assert_nonnull (next);
      else
        g_assert_null (next);
      g_free (token);
      token = next;
    }
  g_assert_cmpuint (seen, ==, N_ROWS);
}

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "next-and-pages", test_next_and_pages },
  };
  static HBaseFamilyOptions families[1] = { HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/key-scanner-async", "hbase_glib_key_scanner_async", families, 1,
    TEST_GATEWAYS_ENDS
  };
  /* the key scanner's scans on the native backend too */
  static const char *const native_cases[] = { "next-and-pages", NULL };
  static const TestTableSuiteOptions options = { .native_cases = native_cases };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
