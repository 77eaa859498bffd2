/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the _async table calls of hbase-table-async.c
 * against the real stack, on a GMainLoop: counters (set, increment, get),
 * exists, mutate row and append, errors, puts and deletes with gets and
 * get_multiple, each result checked, with the data read back through the
 * synchronous calls; every case on the native end too. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../support/test-table-fixture.h"
#include "../support/test-rows.h"
#include "../support/test-waiter.h"

typedef TestTableFixture Fixture;

static void
assert_text (GBytes *value, const char *text)
{
  g_assert_nonnull (value);
  g_assert_cmpmem (g_bytes_get_data (value, NULL), g_bytes_get_size (value), text, strlen (text));
}

static void
test_counters (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("counter");
  g_autoptr(GError) error = NULL;
  TestWaiter waiter;
  gint64 value = 0;
  gboolean ok;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  test_waiter_init (&waiter);
  hbase_table_set_counter_async (fixture->table, row, "f", "n", 40, NULL, test_waiter_done,
                                 &waiter);
  ok = hbase_table_set_counter_finish (fixture->table, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  test_waiter_clear (&waiter);

  test_waiter_init (&waiter);
  hbase_table_increment_counter_async (fixture->table, row, "f", "n", 2, NULL, test_waiter_done,
                                       &waiter);
  ok = hbase_table_increment_counter_finish (fixture->table, test_waiter_run (&waiter), &value,
                                             &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpint (value, ==, 42);
  test_waiter_clear (&waiter);

  value = 0;
  test_waiter_init (&waiter);
  hbase_table_get_counter_async (fixture->table, row, "f", "n", NULL, test_waiter_done, &waiter);
  ok = hbase_table_get_counter_finish (fixture->table, test_waiter_run (&waiter), &value, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpint (value, ==, 42);
  test_waiter_clear (&waiter);

  /* the sync call agrees */
  g_assert_true (hbase_table_get_counter (fixture->table, row, "f", "n", &value, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, 42);
}

static void
test_mutate_exists_append (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("row");
  g_autoptr(GBytes) missing = test_key ("missing");
  g_autoptr(GBytes) x = test_text ("x");
  g_autoptr(GBytes) ab = test_text ("ab");
  g_autoptr(GBytes) cd = test_text ("cd");
  g_autoptr(GPtrArray) mutations =
    g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(HBaseMutation) append = hbase_mutation_new_append (row);
  g_autoptr(HBaseRow) result = NULL;
  g_autoptr(GError) error = NULL;
  HBaseMutation *put = hbase_mutation_new_put (row);
  TestWaiter waiter;
  gboolean exists = TRUE, ok;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  hbase_mutation_put (put, "f", "a", x);
  hbase_mutation_put (put, "f", "s", ab);
  g_ptr_array_add (mutations, put);
  test_waiter_init (&waiter);
  hbase_table_mutate_row_async (fixture->table, mutations, NULL, test_waiter_done, &waiter);
  /* the call holds its own references: the caller's array may go */
  g_clear_pointer (&mutations, g_ptr_array_unref);
  ok = hbase_table_mutate_row_finish (fixture->table, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  test_waiter_clear (&waiter);

  test_waiter_init (&waiter);
  hbase_table_exists_async (fixture->table, row, NULL, NULL, test_waiter_done, &waiter);
  exists = FALSE;
  ok = hbase_table_exists_finish (fixture->table, test_waiter_run (&waiter), &exists, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_true (exists);
  test_waiter_clear (&waiter);

  test_waiter_init (&waiter);
  hbase_table_exists_async (fixture->table, missing, NULL, NULL, test_waiter_done, &waiter);
  exists = TRUE;
  ok = hbase_table_exists_finish (fixture->table, test_waiter_run (&waiter), &exists, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_false (exists);
  test_waiter_clear (&waiter);

  hbase_mutation_append (append, "f", "s", cd);
  test_waiter_init (&waiter);
  hbase_table_append_async (fixture->table, append, NULL, test_waiter_done, &waiter);
  result = hbase_table_append_finish (fixture->table, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  assert_text (hbase_row_lookup (result, "f", "s"), "abcd");
  test_waiter_clear (&waiter);
  g_clear_pointer (&result, hbase_row_unref);

  /* read back synchronously */
  result = hbase_table_get (fixture->table, row, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_text (hbase_row_lookup (result, "f", "a"), "x");
  assert_text (hbase_row_lookup (result, "f", "s"), "abcd");
}

static void
test_errors (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("bad");
  g_autoptr(GError) error = NULL;
  TestWaiter waiter;
  gint64 value = 0;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  /* a missing family is reported through the callback */
  test_waiter_init (&waiter);
  hbase_table_increment_counter_async (fixture->table, row, "nosuchfamily", "n", 1, NULL,
                                       test_waiter_done, &waiter);
  g_assert_false (hbase_table_increment_counter_finish (fixture->table, test_waiter_run (&waiter),
                                                        &value, &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == HBASE_ERROR);
  test_waiter_clear (&waiter);
}

static void
test_apply_get (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("apply-get");
  g_autoptr(GBytes) other = test_key ("apply-get-missing");
  g_autoptr(GBytes) value = g_bytes_new_static ("v", 1);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) del = hbase_mutation_new_delete (row);
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(HBaseRow) got = NULL;
  g_autoptr(GError) error = NULL;
  TestWaiter waiter;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  hbase_mutation_put (put, "f", "q", value);
  test_waiter_init (&waiter);
  hbase_table_apply_async (fixture->table, put, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_table_apply_finish (fixture->table, test_waiter_run (&waiter), &error));
  g_assert_no_error (error);
  test_waiter_clear (&waiter);

  test_waiter_init (&waiter);
  hbase_table_get_async (fixture->table, row, NULL, NULL, test_waiter_done, &waiter);
  got = hbase_table_get_finish (fixture->table, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  test_waiter_clear (&waiter);
  assert_text (hbase_row_lookup (got, "f", "q"), "v");

  g_ptr_array_add (keys, other);
  g_ptr_array_add (keys, row);
  test_waiter_init (&waiter);
  hbase_table_get_multiple_async (fixture->table, keys, NULL, NULL, test_waiter_done, &waiter);
  rows = hbase_table_get_multiple_finish (fixture->table, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  test_waiter_clear (&waiter);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_true (hbase_row_is_empty (rows->pdata[0]));
  assert_text (hbase_row_lookup (rows->pdata[1], "f", "q"), "v");

  test_waiter_init (&waiter);
  hbase_table_apply_async (fixture->table, del, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_table_apply_finish (fixture->table, test_waiter_run (&waiter), &error));
  g_assert_no_error (error);
  test_waiter_clear (&waiter);
  g_clear_pointer (&got, hbase_row_unref);
  got = hbase_table_get (fixture->table, row, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (hbase_row_is_empty (got));
}

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "counters", test_counters },
    { "mutate-exists-append", test_mutate_exists_append },
    { "errors", test_errors },
    { "apply-get", test_apply_get },
  };
  static HBaseFamilyOptions families[1] = { HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/table-async", "hbase_glib_table_async", families, 1, TEST_GATEWAYS_ENDS
  };
  static const char *const native_cases[] = {
    "counters", "mutate-exists-append", "errors", "apply-get", NULL
  };
  static const TestTableSuiteOptions options = { .native_cases = native_cases };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
