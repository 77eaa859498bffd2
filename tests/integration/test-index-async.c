/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test, on the real stack (HBase through the binary/buffered
 * gateway, the stack's redis-server), of the _async/_finish pairs of the
 * index's calls other than queries, each run on a GMainLoop: creating the
 * definitions table, define, get_definitions, open, get_state, rebuild,
 * verify, repair and drop, with their source objects and their errors. */
#include "config.h"

#include <string.h>

#include "../index/index-support.h"
#include "../support/test-waiter.h"

#define SKIP_UNLESS(ok) G_STMT_START { if (!(ok)) return; } G_STMT_END

static void
assert_source (GAsyncResult *result, gpointer expected)
{
  g_autoptr(GObject) source = g_async_result_get_source_object (result);

  g_assert_true (source == expected);
}

static void
test_async_pairs (void)
{
  IxFixture fx;
  g_autoptr(GError) error = NULL;
  g_autofree char *meta = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(HBaseIndexSpec) spec = NULL;
  g_autoptr(HBaseIndex) index = NULL;
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  TestWaiter waiter;
  GAsyncResult *result;
  gboolean exists = FALSE;

  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), NULL));
  meta = test_stack_unique_name ("hbase_glib_ix_meta_async");
  prefix = test_stack_unique_name ("hbidx_async");
  options.meta_table = meta;
  options.redis_host = ix_redis_host ();
  options.redis_port = ix_redis_port ();
  spec = ix_sample_spec ();
  g_assert_true (hbase_index_spec_set_key_prefix (spec, prefix, &error));

  /* open before the definitions table exists: NOT_FOUND naming the call */
  test_waiter_init (&waiter);
  hbase_index_open_async (fx.client, fx.table, &options, NULL, test_waiter_done, &waiter);
  result = test_waiter_run (&waiter);
  assert_source (result, fx.client);
  g_assert_null (hbase_index_open_finish (fx.client, result, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "hbase_index_create_meta_table"));
  g_clear_error (&error);
  test_waiter_clear (&waiter);

  test_waiter_init (&waiter);
  hbase_index_create_meta_table_async (fx.client, &options, NULL, test_waiter_done, &waiter);
  result = test_waiter_run (&waiter);
  assert_source (result, fx.client);
  g_assert_true (hbase_index_create_meta_table_finish (fx.client, result, &error));
  g_assert_no_error (error);
  test_waiter_clear (&waiter);
  g_assert_true (hbase_client_table_exists (fx.client, meta, &exists, NULL, &error));
  g_assert_true (exists);

  /* a table without definitions there */
  test_waiter_init (&waiter);
  hbase_index_get_definitions_async (fx.client, fx.table, &options, NULL, test_waiter_done, &waiter);
  g_assert_null (hbase_index_get_definitions_finish (fx.client, test_waiter_run (&waiter), &error));
  g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX);
  g_clear_error (&error);
  test_waiter_clear (&waiter);

  /* the spec is copied: freeing it right after the call is fine */
  test_waiter_init (&waiter);
  {
    HBaseIndexSpec *copy = hbase_index_spec_copy (spec);

    hbase_index_define_async (fx.client, fx.table, copy, &options, NULL, test_waiter_done, &waiter);
    hbase_index_spec_free (copy);
  }
  g_assert_true (hbase_index_define_finish (fx.client, test_waiter_run (&waiter), &error));
  g_assert_no_error (error);
  test_waiter_clear (&waiter);

  test_waiter_init (&waiter);
  hbase_index_get_definitions_async (fx.client, fx.table, &options, NULL, test_waiter_done, &waiter);
  {
    g_autoptr(HBaseIndexSpec) stored = hbase_index_get_definitions_finish (fx.client, test_waiter_run (&waiter),
                                                                           &error);

    g_assert_no_error (error);
    g_assert_cmpstr (hbase_index_spec_get_key_prefix (stored), ==, prefix);
  }
  test_waiter_clear (&waiter);

  test_waiter_init (&waiter);
  hbase_index_open_async (fx.client, fx.table, &options, NULL, test_waiter_done, &waiter);
  index = hbase_index_open_finish (fx.client, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  g_assert_nonnull (index);
  test_waiter_clear (&waiter);

  {
    HBaseIndexState state = HBASE_INDEX_STATE_READY;
    g_autofree char *reason = NULL;

    test_waiter_init (&waiter);
    hbase_index_get_state_async (index, NULL, test_waiter_done, &waiter);
    result = test_waiter_run (&waiter);
    assert_source (result, index);
    g_assert_true (hbase_index_get_state_finish (index, result, &state, &reason, &error));
    g_assert_no_error (error);
    g_assert_cmpint (state, ==, HBASE_INDEX_STATE_NOT_BUILT);
    g_assert_nonnull (reason);
    test_waiter_clear (&waiter);
  }

  {
    g_autoptr(HBaseMutation) put = ix_put ("a", "f:city=Paris", "f:age=30", NULL);
    g_autoptr(HBaseIndexReport) report = NULL;
    HBaseIndexState state = HBASE_INDEX_STATE_NOT_BUILT;

    test_waiter_init (&waiter);
    hbase_index_rebuild_async (index, NULL, NULL, test_waiter_done, &waiter);
    report = hbase_index_rebuild_finish (index, test_waiter_run (&waiter), &error);
    g_assert_no_error (error);
    g_assert_true (hbase_index_report_get_rebuilt (report));
    test_waiter_clear (&waiter);
    g_assert_true (hbase_index_get_state (index, &state, NULL, NULL, &error));
    g_assert_cmpint (state, ==, HBASE_INDEX_STATE_READY);
    ix_apply (hbase_index_get_table (index), put);
  }

  {
    g_autoptr(HBaseIndexReport) report = NULL;
    HBaseIndexMaintenanceOptions maintenance = HBASE_INDEX_MAINTENANCE_OPTIONS_INIT;

    maintenance.batch_rows = 10;
    test_waiter_init (&waiter);
    hbase_index_verify_async (index, &maintenance, NULL, test_waiter_done, &waiter);
    result = test_waiter_run (&waiter);
    assert_source (result, index);
    report = hbase_index_verify_finish (index, result, &error);
    g_assert_no_error (error);
    g_assert_true (hbase_index_report_is_consistent (report));
    g_assert_cmpuint (hbase_index_report_get_rows (report), ==, 1);
    test_waiter_clear (&waiter);
  }

  /* repair finds what a handle without the index left out */
  {
    g_autoptr(HBaseTable) plain = ix_unindexed_table (&fx);
    g_autoptr(HBaseMutation) put = ix_put ("b", "f:city=Lyon", NULL);
    g_autoptr(HBaseIndexReport) report = NULL;
    HBaseIndexMaintenanceOptions maintenance = HBASE_INDEX_MAINTENANCE_OPTIONS_INIT;

    ix_apply (plain, put);
    maintenance.assume_quiescent = TRUE;
    test_waiter_init (&waiter);
    hbase_index_repair_async (index, &maintenance, NULL, test_waiter_done, &waiter);
    report = hbase_index_repair_finish (index, test_waiter_run (&waiter), &error);
    g_assert_no_error (error);
    g_assert_cmpuint (hbase_index_report_get_repaired (report), ==, 1);
    test_waiter_clear (&waiter);
  }

  /* the caller's reference may go before the callback: the task holds one */
  test_waiter_init (&waiter);
  hbase_index_drop_async (index, NULL, test_waiter_done, &waiter);
  {
    HBaseIndex *kept = g_steal_pointer (&index);

    result = test_waiter_run (&waiter);
    g_assert_true (hbase_index_drop_finish (kept, result, &error));
    g_object_unref (kept);
  }
  g_assert_no_error (error);
  test_waiter_clear (&waiter);
  {
    redisReply *reply = redisCommand (fx.redis, "KEYS %s:*", prefix);

    g_assert_nonnull (reply);
    g_assert_cmpuint (reply->elements, ==, 0);
    freeReplyObject (reply);
  }

  g_assert_true (hbase_client_delete_table (fx.client, meta, NULL, &error));
  g_assert_no_error (error);
  ix_teardown (&fx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index-async/pairs", test_async_pairs);
  return g_test_run ();
}
