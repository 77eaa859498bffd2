/* SPDX-License-Identifier: Apache-2.0 */
/* test-bare-objects.c: every public object type made by g_object_new()
 * alone, as a binding's default constructor makes it, either works or
 * fails each of its calls with HBASE_ERROR_ILLEGAL_ARGUMENT naming the
 * constructor to use; none crashes.  No server is needed: the client's
 * defaults name localhost:9090, and its calls either work (a gateway is
 * there) or fail with an HBASE_ERROR. */
#include <string.h>

#include <hbase-glib/hbase-glib.h>
#include <hbase-glib/hbase-glib-thrift.h>

#define assert_refused(expr, constructor)                                   \
  G_STMT_START {                                                            \
    g_autoptr(GError) refused_error = NULL;                                 \
    GError **error = &refused_error;                                        \
    g_assert_false (expr);                                                  \
    g_assert_error (refused_error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT); \
    if (strstr (refused_error->message, constructor) == NULL)               \
      g_error ("%s: message does not name %s: %s", #expr, constructor,      \
               refused_error->message);                                     \
  } G_STMT_END

static GBytes *
bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static GPtrArray *
members (void)
{
  GPtrArray *array = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  g_ptr_array_add (array, bytes ("a"));
  return array;
}

static void
test_client (void)
{
  g_autoptr(HBaseClient) client = g_object_new (HBASE_TYPE_CLIENT, NULL);
  const HBaseConfig *config = hbase_client_get_config (client);
  HBaseClientStats stats;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) namespaces = NULL;

  g_assert_nonnull (config);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "localhost");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 0), ==, 9090);
  hbase_client_get_stats (client, &stats);
  g_assert_cmpuint (stats.open, ==, 0);
  /* a working client: its calls reach the gateway, or say why not, never
   * "all 0 pooled connections stayed busy" */
  if (!hbase_client_ping (client, NULL, &error))
    {
      g_assert_true (error->domain == HBASE_ERROR);
      g_assert_null (strstr (error->message, "0 pooled connections"));
      g_clear_error (&error);
    }
  namespaces = hbase_client_list_namespaces (client, NULL, &error);
  g_assert_true ((namespaces != NULL) != (error != NULL));
  if (error != NULL)
    g_assert_null (strstr (error->message, "0 pooled connections"));
}

static void
test_table (void)
{
  g_autoptr(HBaseTable) table = g_object_new (HBASE_TYPE_TABLE, NULL);
  g_autoptr(HBaseClient) client = g_object_new (HBASE_TYPE_CLIENT, NULL);
  g_autoptr(HBaseTable) bad_name = g_object_new (HBASE_TYPE_TABLE, "client", client,
                                                 "name", "no spaces allowed", NULL);
  g_autoptr(HBaseTable) named = g_object_new (HBASE_TYPE_TABLE, "client", client,
                                              "name", "ns:t", NULL);
  g_autoptr(GBytes) row = bytes ("r");
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) increment = hbase_mutation_new_increment (row);
  g_autoptr(HBaseMutation) append = hbase_mutation_new_append (row);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  g_autoptr(GPtrArray) mutations = g_ptr_array_new ();
  g_autoptr(HBaseCondition) condition = hbase_condition_new_absent ("f", "q");
  g_autoptr(HBaseClient) read_client = NULL;
  g_autofree char *read_name = NULL;
  gboolean flag;
  gint64 value;

  hbase_mutation_put (put, "f", "q", row);
  hbase_mutation_increment (increment, "f", "q", 1);
  hbase_mutation_append (append, "f", "q", row);
  g_ptr_array_add (rows, row);
  g_ptr_array_add (mutations, put);

  g_assert_null (hbase_table_get_name (table));
  g_assert_null (hbase_table_get_client (table));
  assert_refused (hbase_table_get (table, row, NULL, NULL, error) != NULL, "hbase_table_new");
  assert_refused (hbase_table_get_multiple (table, rows, NULL, NULL, error) != NULL, "hbase_table_new");
  assert_refused (hbase_table_exists (table, row, NULL, &flag, NULL, error), "hbase_table_new");
  assert_refused (hbase_table_apply (table, put, NULL, error), "hbase_table_new");
  assert_refused (hbase_table_apply_multiple (table, mutations, NULL, error), "hbase_table_new");
  assert_refused (hbase_table_mutate_row (table, mutations, NULL, error), "hbase_table_new");
  assert_refused (hbase_table_increment (table, increment, NULL, error) != NULL, "hbase_table_new");
  assert_refused (hbase_table_append (table, append, NULL, error) != NULL, "hbase_table_new");
  assert_refused (hbase_table_check_and_mutate (table, condition, mutations, &flag, NULL, error),
                  "hbase_table_new");
  assert_refused (hbase_table_increment_counter (table, row, "f", "q", 1, &value, NULL, error),
                  "hbase_table_new");
  assert_refused (hbase_table_get_counter (table, row, "f", "q", &value, NULL, error), "hbase_table_new");
  assert_refused (hbase_table_set_counter (table, row, "f", "q", 1, NULL, error), "hbase_table_new");
  assert_refused (hbase_table_scan (table, NULL, error) != NULL, "hbase_table_new");
  assert_refused (hbase_write_buffer_new (table, NULL, error) != NULL, "hbase_table_new");
  assert_refused (hbase_set_new (table, row, NULL, error) != NULL, "hbase_table_new");
  assert_refused (hbase_zset_new (table, row, NULL, error) != NULL, "hbase_table_new");

  /* a bad name given as a property: every call says what is wrong */
  assert_refused (hbase_table_apply (bad_name, put, NULL, error), "HBaseTable");

  /* the properties make a table like hbase_table_new() */
  g_object_get (named, "client", &read_client, "name", &read_name, NULL);
  g_assert_true (read_client == client);
  g_assert_cmpstr (read_name, ==, "ns:t");
  g_assert_cmpstr (hbase_table_get_name (named), ==, "ns:t");
}

static void
test_scanners (void)
{
  g_autoptr(HBaseScanner) scanner = g_object_new (HBASE_TYPE_SCANNER, NULL);
  g_autoptr(HBaseKeyScanner) key_scanner = g_object_new (HBASE_TYPE_KEY_SCANNER, NULL);
  HBaseRow *row = (HBaseRow *) 0x1;

  assert_refused (hbase_scanner_next (scanner, &row, NULL, error), "hbase_table_scan");
  g_assert_null (row);
  row = (HBaseRow *) 0x1;
  assert_refused (hbase_key_scanner_next (key_scanner, &row, NULL, error), "hbase_key_scanner_new");
  g_assert_null (row);
  g_assert_cmpuint (hbase_key_scanner_get_n_buckets (key_scanner), ==, 0);
}

static void
next_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GMainLoop *loop = user_data;
  HBaseRow *row = NULL;

  assert_refused (hbase_scanner_next_finish (HBASE_SCANNER (source), result, &row, error),
                  "hbase_table_scan");
  g_assert_null (row);
  g_main_loop_quit (loop);
}

static void
test_scanner_async (void)
{
  g_autoptr(HBaseScanner) scanner = g_object_new (HBASE_TYPE_SCANNER, NULL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  hbase_scanner_next_async (scanner, NULL, next_ready, loop);
  g_main_loop_run (loop);
}

static void
test_connection (void)
{
  g_autoptr(HBaseConnection) connection = g_object_new (HBASE_TYPE_CONNECTION, NULL);

  /* never opened: nothing to call through, and nothing crashes */
  hbase_connection_set_timeout (connection, 10);
  g_assert_null (hbase_connection_get_service (connection));
  g_assert_null (hbase_connection_get_host (connection));
  g_assert_cmpuint (hbase_connection_get_port (connection), ==, 0);
}

static void
test_write_buffer (void)
{
  g_autoptr(HBaseWriteBuffer) buffer = g_object_new (HBASE_TYPE_WRITE_BUFFER, NULL);
  g_autoptr(GBytes) row = bytes ("r");
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(GPtrArray) failures = NULL;

  hbase_mutation_put (put, "f", "q", row);
  assert_refused (hbase_write_buffer_add (buffer, put, NULL, error), "hbase_write_buffer_new");
  g_assert_null (hbase_write_buffer_get_table (buffer));
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);
  g_assert_cmpuint (hbase_write_buffer_get_pending_bytes (buffer), ==, 0);
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 0);
  hbase_write_buffer_set_on_failure (buffer, NULL, NULL, NULL);
}

static void
test_set (void)
{
  g_autoptr(HBaseSet) set = g_object_new (HBASE_TYPE_SET, NULL);
  g_autoptr(HBaseClient) client = g_object_new (HBASE_TYPE_CLIENT, NULL);
  g_autoptr(HBaseTable) source = hbase_table_new (client, "t", NULL);
  g_autoptr(GPtrArray) some = members ();
  g_autoptr(GPtrArray) sets = g_ptr_array_new ();
  g_autoptr(GBytes) member = bytes ("a");
  g_autoptr(HBaseSetIter) iter = NULL;
  g_autoptr(GArray) flags = NULL;
  g_autoptr(GPtrArray) random = NULL;
  g_autoptr(GBytes) cursor = NULL;
  g_autoptr(GPtrArray) page = NULL;
  GBytes *next = NULL;
  gboolean flag, present[1];
  guint64 n;

  g_assert_null (hbase_set_get_key (set));
  g_assert_cmpuint (hbase_set_get_shards (set), ==, 0);
  assert_refused (hbase_set_add (set, some, &n, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_add_one (set, member, &flag, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_remove (set, some, &n, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_remove_one (set, member, &flag, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_clear (set, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_contains (set, member, &flag, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_contains_many (set, some, present, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_contains_many_array (set, some, &flags, NULL, error), "hbase_set_new");
  g_assert_null (flags);
  assert_refused (hbase_set_card (set, &n, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_scan (set, NULL, 10, &cursor, &page, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_random_members (set, 1, &random, NULL, error), "hbase_set_new");
  assert_refused (hbase_set_import_plain (set, source, member, "f", &n, NULL, error), "hbase_set_new");
  g_ptr_array_add (sets, set);
  assert_refused (hbase_set_intersect (sets, error) != NULL, "hbase_set_new");
  assert_refused (hbase_set_union (sets, error) != NULL, "hbase_set_new");
  assert_refused (hbase_set_diff (sets, error) != NULL, "hbase_set_new");
  iter = hbase_set_members (set);
  g_assert_nonnull (iter);
  assert_refused (hbase_set_iter_next (iter, &next, NULL, error), "hbase_set_new");
  g_assert_null (next);
}

static void
test_zset (void)
{
  g_autoptr(HBaseZSet) zset = g_object_new (HBASE_TYPE_ZSET, NULL);
  g_autoptr(HBaseClient) client = g_object_new (HBASE_TYPE_CLIENT, NULL);
  g_autoptr(HBaseTable) source = hbase_table_new (client, "t", NULL);
  g_autoptr(GPtrArray) some = members ();
  g_autoptr(GBytes) member = bytes ("a");
  g_autoptr(GArray) score_array = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr(GArray) found_array = NULL;
  g_autoptr(GArray) scores_out = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(HBaseZSetIter) by_score = NULL;
  g_autoptr(HBaseZSetIter) by_rank = NULL;
  GBytes *next = NULL;
  gdouble score = 1, scores[1];
  gboolean flag, found[1];
  guint64 n;

  g_array_append_val (score_array, score);
  g_assert_null (hbase_zset_get_key (zset));
  assert_refused (hbase_zset_add (zset, 0, some, scores, &n, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_add_array (zset, 0, some, score_array, &n, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_add_incr (zset, 0, member, 1, &flag, &score, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_incr_by (zset, member, 1, &score, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_remove (zset, some, &n, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_pop (zset, FALSE, 1, &entries, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_clear (zset, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_score (zset, member, &flag, &score, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_scores (zset, some, found, scores, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_scores_array (zset, some, &found_array, &scores_out, NULL, error),
                  "hbase_zset_new");
  g_assert_null (found_array);
  g_assert_null (scores_out);
  assert_refused (hbase_zset_card (zset, &n, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_count (zset, NULL, &n, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_rank (zset, member, FALSE, &flag, &n, &score, NULL, error), "hbase_zset_new");
  assert_refused (hbase_zset_import_plain (zset, source, member, "f", &n, NULL, error), "hbase_zset_new");
  by_score = hbase_zset_range_by_score (zset, NULL, FALSE, 0, -1);
  assert_refused (hbase_zset_iter_next (by_score, &next, &score, NULL, error), "hbase_zset_new");
  by_rank = hbase_zset_range_by_rank (zset, 0, -1, FALSE);
  assert_refused (hbase_zset_iter_next (by_rank, &next, &score, NULL, error), "hbase_zset_new");
  g_assert_null (next);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bare-objects/client", test_client);
  g_test_add_func ("/bare-objects/table", test_table);
  g_test_add_func ("/bare-objects/scanners", test_scanners);
  g_test_add_func ("/bare-objects/scanner-async", test_scanner_async);
  g_test_add_func ("/bare-objects/connection", test_connection);
  g_test_add_func ("/bare-objects/write-buffer", test_write_buffer);
  g_test_add_func ("/bare-objects/set", test_set);
  g_test_add_func ("/bare-objects/zset", test_zset);
  return g_test_run ();
}
