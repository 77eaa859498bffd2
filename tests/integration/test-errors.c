/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of what failures the gateway reports look like: a
 * one-line message starting with the exception's class, the server's
 * whole text (stack trace included) kept with the error, and the same
 * code for a missing table or column family through the table API, sets
 * and sorted sets. */
#include "config.h"

#include <string.h>

#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

typedef TestTableFixture Fixture;

/* A message is one line of reasonable length. */
static void
assert_one_line (const GError *error)
{
  g_test_message ("%s (%" G_GSIZE_FORMAT " bytes; server text %" G_GSIZE_FORMAT " bytes)",
                  error->message, strlen (error->message),
                  hbase_error_get_server_trace (error) != NULL
                    ? strlen (hbase_error_get_server_trace (error)) : 0);
  g_assert_null (strchr (error->message, '\n'));
  g_assert_cmpuint (strlen (error->message), <=, 403);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
}

/* The server's text: the exception's whole message and its stack trace. */
static void
assert_server_trace (const GError *error, const char *exception)
{
  const char *trace = hbase_error_get_server_trace (error);

  g_assert_nonnull (trace);
  g_assert_nonnull (strstr (trace, exception));
  g_assert_nonnull (strstr (trace, "at org.apache"));
}

static void
test_put_missing_family (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(GBytes) value = test_text ("v");
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(GError) error = NULL;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  hbase_mutation_put (put, "nope", "q", value);
  g_assert_false (hbase_table_apply (fixture->table, put, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  assert_one_line (error);
  g_assert_true (g_str_has_prefix (error->message, "NoSuchColumnFamilyException: Column family nope"));
  g_assert_nonnull (strstr (error->message, hbase_table_get_name (fixture->table)));
  /* the table description is cut */
  g_assert_null (strstr (error->message, "BLOCKSIZE"));
  assert_server_trace (error, "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException");
  g_assert_nonnull (strstr (hbase_error_get_server_trace (error), "BLOCKSIZE"));
  g_assert_false (hbase_error_get_can_retry (error));
  g_assert_false (hbase_error_is_in_doubt (error));
}

static void
test_get_missing_family (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  static const char *const column[] = { "nope", NULL };
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
  g_autoptr(HBaseRow) result = NULL;
  g_autoptr(GError) error = NULL;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  options.columns = column;
  result = hbase_table_get (fixture->table, row, &options, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  assert_one_line (error);
  g_assert_true (g_str_has_prefix (error->message, "NoSuchColumnFamilyException: "));
  assert_server_trace (error, "NoSuchColumnFamilyException");
}

/* A table that does not exist: the same code and words for the table API
 * and the structures. */
static void
test_missing_table (Fixture *fixture, gconstpointer data)
{
  g_autofree char *name = test_stack_unique_name ("hbase_glib_errors_missing");
  g_autofree char *expected = g_strdup_printf ("table '%s' does not exist", name);
  g_autoptr(HBaseTable) table = hbase_table_new (fixture->client, name, NULL);
  g_autoptr(GBytes) key = test_key ("k");
  g_autoptr(GBytes) member = test_text ("m");
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GError) error = NULL;
  gboolean added = FALSE;
  gdouble score = 1.0;
  g_autoptr(GPtrArray) members = g_ptr_array_new ();

  TEST_SKIP_IF_UNREACHABLE (fixture);
  g_assert_nonnull (table);
  row = hbase_table_get (table, key, NULL, NULL, &error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_nonnull (hbase_error_get_server_trace (error));
  g_clear_error (&error);

  set = hbase_set_new (table, key, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (hbase_set_add_one (set, member, &added, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  zset = hbase_zset_new (table, key, NULL, &error);
  g_assert_no_error (error);
  g_ptr_array_add (members, member);
  g_assert_false (hbase_zset_add (zset, 0, members, &score, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, expected);
}

/* A set whose family the table lacks: NOT_FOUND naming table and family,
 * for reads and writes alike. */
static void
test_set_missing_family (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) key = test_key ("set");
  g_autoptr(GBytes) member = test_text ("m");
  g_autoptr(HBaseSet) set = hbase_set_new (fixture->table, key, NULL, NULL);
  g_autofree char *expected = g_strdup_printf ("table '%s' has no column family 's'",
                                               hbase_table_get_name (fixture->table));
  g_autoptr(GError) error = NULL;
  gboolean added = FALSE;
  guint64 card = 0;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  g_assert_false (hbase_set_add_one (set, member, &added, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, expected);
  assert_server_trace (error, "NoSuchColumnFamilyException");
  g_clear_error (&error);
  g_assert_false (hbase_set_card (set, &card, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_zset_missing_family (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) key = test_key ("zset");
  g_autoptr(GBytes) member = test_text ("m");
  g_autoptr(HBaseZSetOptions) options = hbase_zset_options_new ();
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GPtrArray) members = g_ptr_array_new ();
  g_autofree char *expected = g_strdup_printf ("table '%s' has no column family 'ranking'",
                                               hbase_table_get_name (fixture->table));
  g_autoptr(GError) error = NULL;
  gdouble score = 2.5;
  guint64 card = 0;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  hbase_zset_options_set_family (options, "ranking");
  zset = hbase_zset_new (fixture->table, key, options, NULL);
  g_ptr_array_add (members, member);
  g_assert_false (hbase_zset_add (zset, 0, members, &score, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, expected);
  assert_server_trace (error, "NoSuchColumnFamilyException");
  g_clear_error (&error);
  g_assert_false (hbase_zset_card (zset, &card, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, expected);
}

/* A failure this side describes carries no server text. */
static void
test_no_server_trace (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseTable) table = hbase_table_new (fixture->client, "no spaces allowed", &error);

  TEST_SKIP_IF_UNREACHABLE (fixture);
  g_assert_null (table);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_null (hbase_error_get_server_trace (error));
}

/* every case on the native backend too: the same errors from HBase's own
 * RPC */
static const TestTableSuiteOptions native_all = { .native_all = TRUE };

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "put-missing-family", test_put_missing_family },
    { "get-missing-family", test_get_missing_family },
    { "missing-table", test_missing_table },
    { "set-missing-family", test_set_missing_family },
    { "zset-missing-family", test_zset_missing_family },
    { "no-server-trace", test_no_server_trace },
  };
  static HBaseFamilyOptions families[1] = { HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/errors", "hbase_glib_errors", families, 1, TEST_GATEWAYS_ENDS
  };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  test_table_suite_add_full (&suite, &native_all, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
