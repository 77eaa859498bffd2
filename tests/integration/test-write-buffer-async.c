/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the write buffer's _async calls against the real
 * stack, on a GMainLoop: puts added, flushed and read back; close writes
 * what is left and refuses later adds through add_finish; on the
 * native end too. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../support/test-table-fixture.h"
#include "../support/test-rows.h"
#include "../support/test-waiter.h"

typedef TestTableFixture Fixture;

static HBaseMutation *
put_of (const char *key, const char *value)
{
  g_autoptr(GBytes) row = test_key (key);
  g_autoptr(GBytes) bytes = test_text (value);
  HBaseMutation *put = hbase_mutation_new_put (row);

  hbase_mutation_put (put, "f", "c", bytes);
  return put;
}

static gboolean
add (HBaseWriteBuffer *buffer, HBaseMutation *mutation, GError **error)
{
  TestWaiter waiter;
  gboolean ok;

  test_waiter_init (&waiter);
  hbase_write_buffer_add_async (buffer, mutation, NULL, test_waiter_done, &waiter);
  ok = hbase_write_buffer_add_finish (buffer, test_waiter_run (&waiter), error);
  test_waiter_clear (&waiter);
  return ok;
}

static void
assert_value (Fixture *fixture, const char *key, const char *expected)
{
  g_autoptr(GBytes) row = test_key (key);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseRow) result = hbase_table_get (fixture->table, row, NULL, NULL, &error);
  GBytes *value;

  g_assert_no_error (error);
  value = hbase_row_lookup (result, "f", "c");
  if (expected == NULL)
    {
      g_assert_null (value);
      return;
    }
  g_assert_nonnull (value);
  g_assert_cmpmem (g_bytes_get_data (value, NULL), g_bytes_get_size (value), expected,
                   strlen (expected));
}

static void
test_add_flush_close (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(HBaseMutation) first = put_of ("wb1", "one");
  g_autoptr(HBaseMutation) second = put_of ("wb2", "two");
  g_autoptr(HBaseMutation) third = put_of ("wb3", "three");
  g_autoptr(HBaseMutation) late = put_of ("wb4", "late");
  g_autoptr(GError) error = NULL;
  TestWaiter waiter;
  gboolean ok;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  buffer = hbase_write_buffer_new (fixture->table, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (add (buffer, first, &error));
  g_assert_no_error (error);
  g_assert_true (add (buffer, second, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 2);
  assert_value (fixture, "wb1", NULL);   /* buffered, not written yet */

  test_waiter_init (&waiter);
  hbase_write_buffer_flush_async (buffer, NULL, test_waiter_done, &waiter);
  ok = hbase_write_buffer_flush_finish (buffer, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  test_waiter_clear (&waiter);
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);
  assert_value (fixture, "wb1", "one");
  assert_value (fixture, "wb2", "two");

  g_assert_true (add (buffer, third, &error));
  g_assert_no_error (error);
  test_waiter_init (&waiter);
  hbase_write_buffer_close_async (buffer, NULL, test_waiter_done, &waiter);
  ok = hbase_write_buffer_close_finish (buffer, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  test_waiter_clear (&waiter);
  assert_value (fixture, "wb3", "three");

  /* closed: refused, through the callback */
  g_assert_false (add (buffer, late, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  assert_value (fixture, "wb4", NULL);
}

/* The string forms: the put is made at the call and buffered through the
 * worker pool; a column without its value is refused through _finish. */
static void
test_string_forms (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GBytes) key1 = test_key ("wbs1");
  g_autoptr(GBytes) key2 = test_key ("wbs2");
  g_autofree char *row1 = g_strndup (g_bytes_get_data (key1, NULL), g_bytes_get_size (key1));
  g_autofree char *row2 = g_strndup (g_bytes_get_data (key2, NULL), g_bytes_get_size (key2));
  const char *columns[] = { "f:c", NULL };
  const char *values[] = { "s-one", NULL };
  g_autoptr(GError) error = NULL;
  TestWaiter waiter;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  buffer = hbase_write_buffer_new (fixture->table, NULL, &error);
  g_assert_no_error (error);

  test_waiter_init (&waiter);
  hbase_write_buffer_put_strings_async (buffer, row1, columns, values, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_write_buffer_put_strings_finish (buffer, test_waiter_run (&waiter), &error));
  g_assert_no_error (error);
  test_waiter_clear (&waiter);

  test_waiter_init (&waiter);
  hbase_write_buffer_put_columns_async (buffer, row2, NULL, test_waiter_done, &waiter, "f:c", "s-two", NULL);
  g_assert_true (hbase_write_buffer_put_columns_finish (buffer, test_waiter_run (&waiter), &error));
  g_assert_no_error (error);
  test_waiter_clear (&waiter);
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 2);

  test_waiter_init (&waiter);
  hbase_write_buffer_put_columns_async (buffer, row2, NULL, test_waiter_done, &waiter, "f:c", NULL);
  g_assert_false (hbase_write_buffer_put_columns_finish (buffer, test_waiter_run (&waiter), &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  test_waiter_clear (&waiter);
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 2);

  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  assert_value (fixture, "wbs1", "s-one");
  assert_value (fixture, "wbs2", "s-two");
}

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "add-flush-close", test_add_flush_close },
    { "string-forms", test_string_forms },
  };
  static HBaseFamilyOptions families[1] = { HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/write-buffer-async", "hbase_glib_write_buffer_async", families, 1,
    TEST_GATEWAYS_ENDS
  };

  static const char *const native_cases[] = { "add-flush-close", "string-forms", NULL };
  static const TestTableSuiteOptions options = { .native_cases = native_cases };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
