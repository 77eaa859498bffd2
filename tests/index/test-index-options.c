/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the index's GTypes and option structs: heap constructors
 * give the defaults, copies are deep, setters replace (and release) the
 * previous value, free releases what the setters stored, and stack structs
 * built with the _INIT macros still work. */
#include "config.h"

#include <hbase-glib/hbase-glib-index.h>

static void
count_release (gpointer data)
{
  (*(guint *) data)++;
}

static void
ignore_progress (const HBaseIndexProgress *progress, gpointer user_data)
{
  (void) progress;
  (void) user_data;
}

static void
test_types (void)
{
  g_assert_true (g_type_is_a (HBASE_TYPE_INDEX, G_TYPE_OBJECT));
  g_assert_true (G_TYPE_IS_ENUM (HBASE_TYPE_INDEX_ERROR));
  g_assert_true (HBASE_TYPE_INDEX_ERROR_CODE == HBASE_TYPE_INDEX_ERROR);
  g_assert_cmpstr (g_type_name (HBASE_TYPE_INDEX_ERROR), ==, "HBaseIndexError");
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_INDEX_PAGE));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_INDEX_OPTIONS));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_INDEX_FIND_OPTIONS));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_INDEX_MAINTENANCE_OPTIONS));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_INDEX_QUERY_STATS));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_INDEX_PROGRESS));
}

static void
test_index_options (void)
{
  g_autoptr(HBaseIndexOptions) options = hbase_index_options_new ();
  g_autoptr(HBaseIndexOptions) copy = NULL;
  HBaseIndexOptions stack = HBASE_INDEX_OPTIONS_INIT;

  g_assert_null (stack.redis_host);
  g_assert_cmpint (stack.on_redis_down, ==, HBASE_INDEX_REDIS_DOWN_FAIL);
  g_assert_null (options->redis_host);
  g_assert_cmpuint (options->redis_port, ==, 0);
  g_assert_cmpint (options->on_redis_down, ==, HBASE_INDEX_REDIS_DOWN_FAIL);
  g_assert_cmpint (options->when_dirty, ==, HBASE_INDEX_DIRTY_REFUSE);

  hbase_index_options_set_redis_host (options, "redis.example");
  hbase_index_options_set_redis_socket (options, "/run/redis.sock");
  hbase_index_options_set_redis_password (options, "secret");
  hbase_index_options_set_redis_username (options, "idx");
  hbase_index_options_set_redis_password_file (options, "/run/secrets/redis");
  hbase_index_options_set_meta_table (options, "ns:meta");
  options->redis_port = 6380;
  copy = hbase_index_options_copy (options);
  hbase_index_options_set_redis_host (options, "other");
  hbase_index_options_set_redis_password (options, NULL);
  hbase_index_options_set_redis_username (options, "other-user");
  hbase_index_options_set_redis_password_file (options, NULL);
  g_assert_cmpstr (options->redis_host, ==, "other");
  g_assert_null (options->redis_password);
  g_assert_cmpstr (options->redis_username, ==, "other-user");
  g_assert_null (options->redis_password_file);
  g_assert_null (stack.redis_username);
  g_assert_null (stack.redis_password_file);

  g_assert_true (copy->redis_socket != options->redis_socket);
  g_assert_cmpstr (copy->redis_host, ==, "redis.example");
  g_assert_cmpstr (copy->redis_socket, ==, "/run/redis.sock");
  g_assert_cmpstr (copy->redis_password, ==, "secret");
  g_assert_cmpstr (copy->redis_username, ==, "idx");
  g_assert_cmpstr (copy->redis_password_file, ==, "/run/secrets/redis");
  g_assert_true (copy->redis_username != options->redis_username);
  g_assert_cmpstr (copy->meta_table, ==, "ns:meta");
  g_assert_cmpuint (copy->redis_port, ==, 6380);
}

static void
test_find_options (void)
{
  const char *columns[] = { "f", "g:q", NULL };
  g_autoptr(HBaseIndexFindOptions) options = hbase_index_find_options_new ();
  g_autoptr(HBaseIndexFindOptions) copy = NULL;
  HBaseIndexFindOptions stack = HBASE_INDEX_FIND_OPTIONS_INIT;

  g_assert_null (stack.columns);
  g_assert_null (options->page_token);
  g_assert_null (options->columns);
  hbase_index_find_options_set_page_token (options, "token");
  hbase_index_find_options_set_columns (options, columns);
  options->limit = 3;
  options->reversed = TRUE;
  g_assert_true (options->columns != (const char *const *) columns);
  copy = g_boxed_copy (HBASE_TYPE_INDEX_FIND_OPTIONS, options);
  hbase_index_find_options_set_page_token (options, NULL);
  hbase_index_find_options_set_columns (options, NULL);
  g_assert_null (options->page_token);
  g_assert_null (options->columns);
  g_assert_cmpstr (copy->page_token, ==, "token");
  g_assert_cmpstr (copy->columns[1], ==, "g:q");
  g_assert_cmpuint (copy->limit, ==, 3);
  g_assert_true (copy->reversed);
}

static void
test_maintenance_options (void)
{
  guint first = 0, second = 0;
  HBaseIndexMaintenanceOptions stack = HBASE_INDEX_MAINTENANCE_OPTIONS_INIT;
  HBaseIndexMaintenanceOptions *options = hbase_index_maintenance_options_new ();
  HBaseIndexMaintenanceOptions *copy;

  g_assert_null (stack.progress);
  g_assert_null (options->progress);
  g_assert_cmpuint (options->batch_rows, ==, 0);
  hbase_index_maintenance_options_set_progress (options, ignore_progress, &first, count_release);
  options->batch_rows = 50;
  copy = hbase_index_maintenance_options_copy (options);
  g_assert_true (copy->progress == ignore_progress);
  g_assert_true (copy->user_data == &first);
  g_assert_cmpuint (copy->batch_rows, ==, 50);
  hbase_index_maintenance_options_free (copy);
  g_assert_cmpuint (first, ==, 0);        /* the copy does not own the data */
  hbase_index_maintenance_options_set_progress (options, ignore_progress, &second, count_release);
  g_assert_cmpuint (first, ==, 1);
  g_assert_cmpuint (second, ==, 0);
  hbase_index_maintenance_options_free (options);
  g_assert_cmpuint (second, ==, 1);
}

static void
test_reported_structs (void)
{
  g_autoptr(HBaseIndexQueryStats) stats = hbase_index_query_stats_new ();
  g_autoptr(HBaseIndexQueryStats) stats_copy = NULL;
  g_autoptr(HBaseIndexProgress) progress = hbase_index_progress_new ();
  g_autoptr(HBaseIndexProgress) progress_copy = NULL;

  g_assert_cmpuint (stats->candidates, ==, 0);
  g_assert_false (stats->scanned);
  stats->candidates = 7;
  stats->scanned = TRUE;
  stats_copy = hbase_index_query_stats_copy (stats);
  stats->candidates = 8;
  g_assert_cmpuint (stats_copy->candidates, ==, 7);
  g_assert_true (stats_copy->scanned);

  g_assert_null (progress->phase);
  hbase_index_progress_set_phase (progress, "scan");
  progress->rows = 12;
  progress_copy = hbase_index_progress_copy (progress);
  hbase_index_progress_set_phase (progress, "fix");
  g_assert_cmpstr (progress->phase, ==, "fix");
  g_assert_cmpstr (progress_copy->phase, ==, "scan");
  g_assert_cmpuint (progress_copy->rows, ==, 12);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index/options/types", test_types);
  g_test_add_func ("/index/options/index-options", test_index_options);
  g_test_add_func ("/index/options/find-options", test_find_options);
  g_test_add_func ("/index/options/maintenance-options", test_maintenance_options);
  g_test_add_func ("/index/options/reported-structs", test_reported_structs);
  return g_test_run ();
}
