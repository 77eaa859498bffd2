/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test, on the real stack (HBase through the binary/buffered
 * gateway, the stack's redis-server), of how an index is set up and
 * queried without surprises:
 *  - the definitions table is named in one place (the options) and is
 *    created only by hbase_index_create_meta_table(): define, open and
 *    get_definitions fail with HBASE_ERROR_NOT_FOUND naming that call;
 *  - queries composed inline (and/or/all/any of fresh builders) answer
 *    right and leak nothing (the sanitizer build and valgrind check);
 *  - no write bypasses the index unnoticed: other handles refuse to write
 *    to an indexed table unless told to, until the index is dropped. */
#include "config.h"

#include <string.h>

#include "../index/index-support.h"

#define SKIP_UNLESS(ok) G_STMT_START { if (!(ok)) return; } G_STMT_END

static void
test_meta_table_explicit (void)
{
  IxFixture fx;
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = NULL;
  g_autoptr(HBaseIndexSpec) spec = NULL;
  g_autofree char *prefix = NULL;
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  gboolean exists = TRUE, ok;

  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), NULL));
  missing = test_stack_unique_name ("hbase_glib_ix_meta_missing");
  options.meta_table = missing;
  options.redis_host = ix_redis_host ();
  options.redis_port = ix_redis_port ();
  spec = ix_sample_spec ();
  prefix = test_stack_unique_name ("hbidx_guard");
  g_assert_true (hbase_index_spec_set_key_prefix (spec, prefix, &error));

  /* no surprise creation: every call names the one that creates it */
  g_assert_false (hbase_index_define (fx.client, fx.table, spec, &options, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_nonnull (strstr (error->message, "hbase_index_create_meta_table"));
  g_clear_error (&error);
  g_assert_null (hbase_index_open (fx.client, fx.table, &options, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "hbase_index_create_meta_table"));
  g_clear_error (&error);
  g_assert_null (hbase_index_get_definitions (fx.client, fx.table, &options, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (hbase_client_table_exists (fx.client, missing, &exists, NULL, &error));
  g_assert_false (exists);

  /* created explicitly, twice is fine */
  g_assert_true (hbase_index_create_meta_table (fx.client, &options, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hbase_index_create_meta_table (fx.client, &options, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hbase_client_table_exists (fx.client, missing, &exists, NULL, &error));
  g_assert_true (exists);

  /* the same options name it for every call */
  {
    gint64 start = g_get_monotonic_time ();

    ok = hbase_index_define (fx.client, fx.table, spec, &options, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (ok);
    g_test_message ("define: %" G_GINT64_FORMAT " ms", (g_get_monotonic_time () - start) / 1000);
  }
  {
    g_autoptr(HBaseIndexSpec) stored = hbase_index_get_definitions (fx.client, fx.table, &options,
                                                                    NULL, &error);
    g_autoptr(HBaseIndex) index = NULL;

    g_assert_no_error (error);
    g_assert_cmpstr (hbase_index_spec_get_key_prefix (stored), ==, prefix);
    index = hbase_index_open (fx.client, fx.table, &options, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (hbase_index_spec_get_key_prefix (hbase_index_get_spec (index)), ==, prefix);
    gint64 start = g_get_monotonic_time ();

    ok = hbase_index_drop (index, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (ok);
    g_test_message ("drop: %" G_GINT64_FORMAT " ms",
                    (g_get_monotonic_time () - start) / 1000);
  }
  g_assert_true (hbase_client_delete_table (fx.client, missing, NULL, &error));
  g_assert_no_error (error);
  ix_teardown (&fx);
}

static void
test_inline_queries (void)
{
  IxFixture fx;
  static const char *const people[][3] = {
    { "a", "Paris", "30" }, { "b", "Lyon", "41" }, { "c", "Paris", "41" }, { "d", "Oslo", "30" },
  };
  gint64 lo = 35;
  g_autofree char *both = NULL;
  g_autofree char *either = NULL;
  g_autofree char *all = NULL;

  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), NULL));
  for (guint i = 0; i < G_N_ELEMENTS (people); i++)
    {
      g_autofree char *city = g_strdup_printf ("f:city=%s", people[i][1]);
      g_autofree char *age = g_strdup_printf ("f:age=%s", people[i][2]);
      g_autoptr(HBaseMutation) put = ix_put (people[i][0], city, age, NULL);

      ix_apply (hbase_index_get_table (fx.index), put);
    }
  {
    g_autoptr(GBytes) paris = ix_bytes ("Paris");
    g_autoptr(GBytes) oslo = ix_bytes ("Oslo");
    g_autoptr(HBaseIndexQuery) in_paris = hbase_index_query_equal ("city", paris);
    g_autoptr(HBaseIndexQuery) in_oslo = hbase_index_query_equal ("city", oslo);
    g_autoptr(HBaseIndexQuery) grown = hbase_index_query_range_int64 ("age", &lo, TRUE, NULL, TRUE);
    g_autoptr(HBaseIndexQuery) age41 = hbase_index_query_equal_int64 ("age", 41);
    g_autoptr(HBaseIndexQuery) age30 = hbase_index_query_equal_int64 ("age", 30);
    g_autoptr(HBaseIndexQuery) oslo_or_paris = hbase_index_query_or (in_oslo, in_paris);
    g_autoptr(HBaseIndexQuery) query = hbase_index_query_and (in_paris, grown);
    g_autoptr(HBaseIndexQuery) any =
      hbase_index_query_any ((HBaseIndexQuery *[]) { in_oslo, age41 }, 2);
    g_autoptr(HBaseIndexQuery) every =
      hbase_index_query_all ((HBaseIndexQuery *[]) { age30, oslo_or_paris }, 2);

    both = ix_find (fx.index, query, NULL);
    either = ix_find (fx.index, any, NULL);
    all = ix_find (fx.index, every, NULL);
  }
  g_assert_cmpstr (both, ==, "c");
  g_assert_cmpstr (either, ==, "b,c,d");
  g_assert_cmpstr (all, ==, "a,d");
  ix_teardown (&fx);
}

/* --- handles that do not maintain the index ---------------------------------------------- */

/* Defining an index marks the table: every other handle, of this client or
 * another, refuses to write (nothing sent), reads still work, and an
 * explicit opt-out writes; dropping the index removes the mark. */
static void
test_plain_handles (void)
{
  IxFixture fx;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseTable) same_client = NULL;
  g_autoptr(HBaseTable) other_client = NULL;
  g_autoptr(GBytes) key = ix_bytes ("plain-1");

  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), NULL));
  same_client = hbase_table_new (fx.client, fx.table, &error);
  g_assert_no_error (error);
  other_client = ix_plain_table (&fx);

  {
    g_autoptr(HBaseMutation) put = ix_put ("plain-1", "f:city=Nice", NULL);
    g_autoptr(HBaseRow) row = NULL;

    g_assert_false (hbase_table_apply (same_client, put, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_INDEXED_TABLE);
    g_assert_nonnull (strstr (error->message, fx.table));
    g_assert_nonnull (strstr (error->message, fx.meta));
    g_assert_nonnull (strstr (error->message, "hbase_index_get_table"));
    g_clear_error (&error);
    g_assert_false (hbase_table_apply (other_client, put, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_INDEXED_TABLE);
    g_clear_error (&error);
    /* nothing reached HBase, and reads are not refused */
    row = hbase_table_get (other_client, key, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (row);
    g_assert_true (hbase_row_is_empty (row));
  }

  /* the index's own handle writes and indexes */
  {
    g_autoptr(HBaseMutation) put = ix_put ("plain-2", "f:city=Nice", NULL);

    ix_apply (hbase_index_get_table (fx.index), put);
    g_assert_true (ix_in_set (&fx, "city", "Nice", "plain-2"));
  }

  /* an explicit opt-out writes (and the index misses it, as verify says) */
  {
    g_autoptr(HBaseMutation) put = ix_put ("plain-3", "f:city=Nice", NULL);
    g_autoptr(HBaseIndexReport) report = NULL;
    gboolean allowed = FALSE;

    g_object_set (same_client, "allow-unindexed-writes", TRUE, NULL);
    g_object_get (same_client, "allow-unindexed-writes", &allowed, NULL);
    g_assert_true (allowed);
    ix_apply (same_client, put);
    g_assert_false (ix_in_set (&fx, "city", "Nice", "plain-3"));
    report = ix_verify (fx.index);
    g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 1);
    g_clear_pointer (&report, hbase_index_report_free);
    report = ix_repair (fx.index);
    g_assert_true (ix_in_set (&fx, "city", "Nice", "plain-3"));
  }

  /* defining through a framed gateway is refused, nothing changed (the
   * 2.6 gateway misreads table attributes sent over framed transport) */
  {
    g_autoptr(GPtrArray) gateways = test_stack_gateways ();
    const TestGateway *gateway = test_stack_require_gateway (gateways, HBASE_PROTOCOL_BINARY,
                                                             HBASE_TRANSPORT_FRAMED);
    HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
    g_autoptr(HBaseConfig) config = NULL;
    g_autoptr(HBaseClient) framed = NULL;
    g_autoptr(HBaseIndexSpec) kept = NULL;
    g_autoptr(HBaseIndex) framed_index = NULL;
    g_autoptr(HBaseIndexSpec) other = ix_sample_spec ();
    g_autofree char *before = hbase_index_spec_to_data (fx.spec);
    g_autofree char *after = NULL;

    g_assert_nonnull (gateway);
    config = test_stack_config (gateway);
    framed = hbase_client_new (config);
    options.meta_table = fx.meta;
    g_assert_false (hbase_index_define (framed, fx.table, other, &options, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "framed"));
    g_clear_error (&error);
    /* ... and so is dropping, before anything is deleted */
    options.redis_host = ix_redis_host ();
    options.redis_port = ix_redis_port ();
    framed_index = hbase_index_open (framed, fx.table, &options, NULL, &error);
    g_assert_no_error (error);
    g_assert_false (hbase_index_drop (framed_index, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "framed"));
    g_clear_error (&error);
    kept = hbase_index_get_definitions (fx.client, fx.table, &options, NULL, &error);
    g_assert_no_error (error);
    after = hbase_index_spec_to_data (kept);
    g_assert_cmpstr (after, ==, before);
  }

  /* a dropped index leaves the table unmarked: plain handles write again */
  {
    g_autoptr(HBaseTable) fresh = NULL;
    g_autoptr(HBaseMutation) put = ix_put ("plain-4", "f:city=Nice", NULL);

    g_assert_true (hbase_index_drop (fx.index, NULL, &error));
    g_assert_no_error (error);
    g_clear_object (&fx.index);
    fresh = ix_plain_table (&fx);
    ix_apply (fresh, put);
    g_object_set (same_client, "allow-unindexed-writes", FALSE, NULL);
    ix_apply (same_client, put);
  }
  ix_teardown (&fx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index-setup/meta-table-explicit", test_meta_table_explicit);
  g_test_add_func ("/index-setup/inline-queries", test_inline_queries);
  g_test_add_func ("/index-setup/plain-handles", test_plain_handles);
  return g_test_run ();
}
