/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the Redis index when Redis goes down in the middle
 * of a load.  The test starts a redis-server of its own (a free port,
 * files in a temporary directory; the stack's shared one is never
 * touched), loads rows through the index while it kills that server with
 * SIGKILL and starts it again, then checks the policies:
 *
 *  - MARK_DIRTY with a persistent Redis (AOF, fsync always): every write
 *    goes through; the index is marked dirty; queries refuse, or answer by
 *    a scan; verify finds the drift; repair fixes it; the index then
 *    equals the data exactly and queries answer from it again.
 *  - FAIL with a Redis that comes back empty: writes during the outage
 *    fail and reach no HBase row; the index is not built any more; repair
 *    rebuilds it and it equals the data. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "../index/index-support.h"

#define REDIS_SERVER "/usr/bin/redis-server"

typedef struct {
  GPid pid;
  guint port;
  char *dir;
  gboolean persistent;
} OwnRedis;

static gboolean
redis_answers (guint port)
{
  struct timeval timeout = { 0, 300000 };
  redisContext *context = redisConnectWithTimeout ("127.0.0.1", (int) port, timeout);
  redisReply *reply;
  gboolean ok;

  if (context == NULL || context->err != 0)
    {
      if (context != NULL)
        redisFree (context);
      return FALSE;
    }
  reply = redisCommand (context, "PING");
  ok = reply != NULL && reply->type == REDIS_REPLY_STATUS;
  if (reply != NULL)
    freeReplyObject (reply);
  redisFree (context);
  return ok;
}

static void
own_redis_start (OwnRedis *redis)
{
  g_autofree char *port = g_strdup_printf ("%u", redis->port);
  g_autofree char *log = g_build_filename (redis->dir, "redis.log", NULL);
  const char *argv[] = {
    REDIS_SERVER, "--port", port, "--bind", "127.0.0.1", "--save", "", "--dir", redis->dir,
    "--appendonly", redis->persistent ? "yes" : "no", "--appendfsync", "always",
    "--daemonize", "no", "--logfile", log, NULL
  };
  g_autoptr(GError) error = NULL;

  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                &redis->pid, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 100 && !redis_answers (redis->port); i++)
    g_usleep (50000);
  g_assert_true (redis_answers (redis->port));
}

static void
own_redis_kill (OwnRedis *redis)
{
  int status;

  if (redis->pid == 0)
    return;
  kill (redis->pid, SIGKILL);
  while (waitpid (redis->pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (redis->pid);
  redis->pid = 0;
}

static gboolean
own_redis_new (OwnRedis *redis, gboolean persistent)
{
  g_autoptr(GError) error = NULL;

  memset (redis, 0, sizeof *redis);
  if (!g_file_test (REDIS_SERVER, G_FILE_TEST_IS_EXECUTABLE))
    {
      test_stack_unreachable (REDIS_SERVER " is missing");
      return FALSE;
    }
  redis->dir = g_dir_make_tmp ("hbase-glib-redis-XXXXXX", &error);
  g_assert_no_error (error);
  redis->port = test_closed_port ();
  redis->persistent = persistent;
  own_redis_start (redis);
  return TRUE;
}

static void
own_redis_free (OwnRedis *redis)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  own_redis_kill (redis);
  /* the AOF lives in appendonlydir/ since Redis 7 */
  for (guint round = 0; round < 2; round++)
    {
      dir = g_dir_open (redis->dir, 0, NULL);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (redis->dir, name, NULL);

          if (g_file_test (path, G_FILE_TEST_IS_DIR))
            {
              g_autoptr(GDir) sub = g_dir_open (path, 0, NULL);
              const char *inner;

              while (sub != NULL && (inner = g_dir_read_name (sub)) != NULL)
                {
                  g_autofree char *file = g_build_filename (path, inner, NULL);

                  g_unlink (file);
                }
              g_rmdir (path);
            }
          else
            g_unlink (path);
        }
      g_clear_pointer (&dir, g_dir_close);
    }
  g_rmdir (redis->dir);
  g_free (redis->dir);
}

/* --- the load ------------------------------------------------------------------------------- */

static const char *const cities[] = { "Lyon", "Paris", "Nice", "Oslo", "Rome" };

typedef struct {
  HBaseTable *table;
  gint stop;
  gint batches;           /* written, or attempted */
  gint failed;            /* batches that failed */
  gboolean updates;       /* also change rows written before */
  GPtrArray *lost;        /* char *: rows of failed batches */
  GMutex lock;
} Load;

static gpointer
load_loop (gpointer data)
{
  Load *load = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  guint next_row = 0;

  while (!g_atomic_int_get (&load->stop))
    {
      g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
      g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;

      for (guint i = 0; i < 10; i++)
        {
          g_autofree char *row = g_strdup_printf ("r%05u", next_row++);
          g_autofree char *city = g_strdup_printf ("f:city=%s", cities[g_rand_int_range (rand, 0, 5)]);
          g_autofree char *age = g_strdup_printf ("f:age=%d", g_rand_int_range (rand, 0, 90));

          g_ptr_array_add (batch, ix_put (row, city, age, NULL));
          g_ptr_array_add (rows, g_steal_pointer (&row));
        }
      if (load->updates && next_row > 20)
        for (guint i = 0; i < 3; i++)
          {
            g_autofree char *row = g_strdup_printf ("r%05u", g_rand_int_range (rand, 0, (gint32) next_row - 10));
            g_autofree char *city = g_strdup_printf ("f:city=%s", cities[g_rand_int_range (rand, 0, 5)]);

            g_ptr_array_add (batch, ix_put (row, city, NULL));
          }
      if (!hbase_table_apply_multiple (load->table, batch, NULL, &error))
        {
          g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS);
          g_atomic_int_inc (&load->failed);
          g_mutex_lock (&load->lock);
          for (guint i = 0; i < rows->len; i++)
            g_ptr_array_add (load->lost, g_strdup (g_ptr_array_index (rows, i)));
          g_mutex_unlock (&load->lock);
        }
      g_atomic_int_inc (&load->batches);
      g_usleep (2000);
    }
  return NULL;
}

static void
wait_batches (Load *load, gint more)
{
  gint target = g_atomic_int_get (&load->batches) + more;

  while (g_atomic_int_get (&load->batches) < target)
    g_usleep (5000);
}

/* city -> "row,row,..." from a scan of HBase */
static GHashTable *
expected_by_city (IxFixture *fx)
{
  GHashTable *by_city = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) g_ptr_array_unref);
  HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(HBaseTable) plain = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GError) error = NULL;
  HBaseRow *row;

  plain = hbase_table_new (fx->client, fx->table, &error);
  scanner = hbase_table_scan (plain, &scan, &error);
  g_assert_no_error (error);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      GBytes *city = hbase_row_lookup (row, "f", "city");
      GBytes *key = hbase_row_get_key (row);

      if (city != NULL)
        {
          g_autofree char *name = g_strndup (g_bytes_get_data (city, NULL), g_bytes_get_size (city));
          GPtrArray *rows = g_hash_table_lookup (by_city, name);

          if (rows == NULL)
            {
              rows = g_ptr_array_new_with_free_func (g_free);
              g_hash_table_insert (by_city, g_strdup (name), rows);
            }
          g_ptr_array_add (rows, g_strndup (g_bytes_get_data (key, NULL), g_bytes_get_size (key)));
        }
      hbase_row_unref (row);
    }
  g_assert_no_error (error);
  return by_city;
}

static void
check_answers (IxFixture *fx, HBaseIndex *index, gboolean by_scan)
{
  g_autoptr(GHashTable) expected = expected_by_city (fx);
  g_autoptr(GError) error = NULL;

  for (guint c = 0; c < G_N_ELEMENTS (cities); c++)
    {
      g_autoptr(GBytes) city = ix_bytes (cities[c]);
      g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", city);
      g_autoptr(HBaseIndexPage) page = hbase_index_find (index, query, NULL, NULL, &error);
      GPtrArray *want = g_hash_table_lookup (expected, cities[c]);
      GPtrArray *rows;
      guint64 count = 0;

      g_assert_no_error (error);
      rows = hbase_index_page_get_rows (page);
      g_assert_cmpint (hbase_index_page_get_stats (page)->scanned, ==, by_scan);
      g_assert_cmpuint (rows->len, ==, want != NULL ? want->len : 0);
      for (guint i = 0; i < rows->len; i++)
        {
          GBytes *key = hbase_row_get_key (g_ptr_array_index (rows, i));
          const char *expect = g_ptr_array_index (want, i);   /* both in row key order */

          g_assert_cmpmem (g_bytes_get_data (key, NULL), g_bytes_get_size (key), expect,
                           strlen (expect));
        }
      g_assert_true (hbase_index_count (index, query, &count, NULL, &error));
      g_assert_cmpuint (count, ==, rows->len);
    }
}

static HBaseIndexState
state_of (HBaseIndex *index)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  HBaseIndexState state;

  g_assert_true (hbase_index_get_state (index, &state, &reason, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("index state %d (%s)", state, reason != NULL ? reason : "ready");
  return state;
}

static void
reconnect (IxFixture *fx, OwnRedis *redis)
{
  struct timeval timeout = { 5, 0 };

  g_clear_pointer (&fx->redis, redisFree);
  fx->redis = redisConnectWithTimeout ("127.0.0.1", (int) redis->port, timeout);
  g_assert_true (fx->redis != NULL && fx->redis->err == 0);
}

static void
run_outage (IxFixture *fx, OwnRedis *redis, Load *load, gint before, gint during, gint after)
{
  GThread *thread;

  thread = g_thread_new ("load", load_loop, load);
  wait_batches (load, before);
  own_redis_kill (redis);
  wait_batches (load, during);
  own_redis_start (redis);
  reconnect (fx, redis);
  wait_batches (load, after);
  g_atomic_int_set (&load->stop, 1);
  g_thread_join (thread);
  g_test_message ("%d batches, %d failed", load->batches, load->failed);
}

static void
test_mark_dirty (void)
{
  OwnRedis redis;
  IxFixture fx;
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  g_autoptr(HBaseIndex) scanning = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  gint steps = test_quick () ? 8 : 25;
  Load load = { 0 };

  if (!own_redis_new (&redis, TRUE))
    return;
  address = g_strdup_printf ("127.0.0.1:%u", redis.port);
  g_setenv ("HBASE_GLIB_TEST_REDIS", address, TRUE);
  options.on_redis_down = HBASE_INDEX_REDIS_DOWN_MARK_DIRTY;
  options.connect_timeout_ms = 300;
  options.timeout_ms = 2000;
  options.retry_interval_ms = 100;
  if (!ix_setup (&fx, ix_sample_spec (), &options))
    {
      own_redis_free (&redis);
      return;
    }
  load.table = hbase_index_get_table (fx.index);
  load.updates = TRUE;
  load.lost = g_ptr_array_new_with_free_func (g_free);
  g_mutex_init (&load.lock);

  run_outage (&fx, &redis, &load, steps, steps, steps);
  g_assert_cmpint (load.failed, ==, 0);      /* every write went through */

  /* marked dirty: refused, or answered by scanning */
  g_assert_cmpint (state_of (fx.index), ==, HBASE_INDEX_STATE_DIRTY);
  {
    g_autoptr(GBytes) paris = ix_bytes ("Paris");
    g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", paris);

    g_assert_null (hbase_index_find (fx.index, query, NULL, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_DIRTY);
    g_clear_error (&error);
  }
  options.when_dirty = HBASE_INDEX_DIRTY_SCAN;
  scanning = ix_open (&fx, &options);
  check_answers (&fx, scanning, TRUE);

  /* verify finds the drift, repair fixes it */
  {
    g_autoptr(HBaseIndexReport) drift = ix_verify (fx.index);
    g_autoptr(HBaseIndexReport) repaired = ix_repair (fx.index);
    g_autoptr(HBaseIndexReport) after = ix_verify (fx.index);
    g_autofree char *text = hbase_index_report_to_string (repaired);

    g_test_message ("repair:\n%s", text);
    g_assert_cmpuint (hbase_index_report_get_missing (drift), >, 0);
    g_assert_false (hbase_index_report_get_rebuilt (repaired));
    g_assert_cmpuint (hbase_index_report_get_repaired (repaired), >, 0);
    g_assert_cmpuint (hbase_index_report_get_in_doubt (repaired), ==, 0);
    g_assert_true (hbase_index_report_is_consistent (after));
    g_assert_cmpuint (hbase_index_report_get_in_doubt (after), ==, 0);
    g_assert_cmpuint (hbase_index_report_get_rows (after), ==, (guint64) load.batches * 10);
  }
  g_assert_cmpint (state_of (fx.index), ==, HBASE_INDEX_STATE_READY);
  check_answers (&fx, fx.index, FALSE);
  check_answers (&fx, scanning, FALSE);

  /* a restart alone (it might have lost the last writes) is not trusted
   * until a repair has checked the index */
  own_redis_kill (&redis);
  own_redis_start (&redis);
  reconnect (&fx, &redis);
  g_assert_cmpint (state_of (fx.index), ==, HBASE_INDEX_STATE_RESTARTED);
  {
    g_autoptr(GBytes) paris = ix_bytes ("Paris");
    g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", paris);
    g_autoptr(HBaseIndexReport) repaired = NULL;

    g_assert_null (hbase_index_find (fx.index, query, NULL, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_DIRTY);
    g_clear_error (&error);
    check_answers (&fx, scanning, TRUE);
    repaired = ix_repair (fx.index);
    g_assert_false (hbase_index_report_get_rebuilt (repaired));
    g_assert_true (hbase_index_report_is_consistent (repaired));
  }
  g_assert_cmpint (state_of (fx.index), ==, HBASE_INDEX_STATE_READY);
  check_answers (&fx, fx.index, FALSE);

  ix_teardown (&fx);
  g_ptr_array_unref (load.lost);
  g_mutex_clear (&load.lock);
  own_redis_free (&redis);
  g_unsetenv ("HBASE_GLIB_TEST_REDIS");
}

static void
test_fail_and_lost_index (void)
{
  OwnRedis redis;
  IxFixture fx;
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  gint steps = test_quick () ? 8 : 25;
  Load load = { 0 };

  if (!own_redis_new (&redis, FALSE))
    return;
  address = g_strdup_printf ("127.0.0.1:%u", redis.port);
  g_setenv ("HBASE_GLIB_TEST_REDIS", address, TRUE);
  options.on_redis_down = HBASE_INDEX_REDIS_DOWN_FAIL;
  options.connect_timeout_ms = 300;
  options.timeout_ms = 2000;
  options.retry_interval_ms = 100;
  if (!ix_setup (&fx, ix_sample_spec (), &options))
    {
      own_redis_free (&redis);
      return;
    }
  load.table = hbase_index_get_table (fx.index);
  load.lost = g_ptr_array_new_with_free_func (g_free);
  g_mutex_init (&load.lock);

  run_outage (&fx, &redis, &load, steps, steps, steps);
  g_assert_cmpint (load.failed, >, 0);

  /* the refused writes reached no row */
  for (guint i = 0; i < load.lost->len; i++)
    {
      g_autoptr(GBytes) key = ix_bytes (g_ptr_array_index (load.lost, i));
      g_autoptr(HBaseRow) row = hbase_table_get (hbase_index_get_table (fx.index), key, NULL, NULL,
                                                 &error);

      g_assert_no_error (error);
      g_assert_true (hbase_row_is_empty (row));
    }

  /* Redis came back empty: the index is gone, repair rebuilds it */
  g_assert_cmpint (state_of (fx.index), ==, HBASE_INDEX_STATE_NOT_BUILT);
  {
    g_autoptr(HBaseIndexReport) repaired = ix_repair (fx.index);
    g_autoptr(HBaseIndexReport) after = ix_verify (fx.index);

    g_assert_true (hbase_index_report_get_rebuilt (repaired));
    g_assert_true (hbase_index_report_is_consistent (after));
    g_assert_cmpuint (hbase_index_report_get_rows (after),
                      ==, (guint64) (load.batches - load.failed) * 10);
  }
  g_assert_cmpint (state_of (fx.index), ==, HBASE_INDEX_STATE_READY);
  check_answers (&fx, fx.index, FALSE);

  ix_teardown (&fx);
  g_ptr_array_unref (load.lost);
  g_mutex_clear (&load.lock);
  own_redis_free (&redis);
  g_unsetenv ("HBASE_GLIB_TEST_REDIS");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/index/redis-down/mark-dirty", test_mark_dirty);
  g_test_add_func ("/integration/index/redis-down/fail-and-lost-index", test_fail_and_lost_index);
  return g_test_run ();
}
