/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of src/table/hbase-get-coalescer.c against the real
 * stack: many concurrent hbase_table_get_async() calls on one table,
 * gathered into getMultiple calls, each must complete with exactly its
 * own row (existing, missing, duplicated keys, different read options),
 * the same as with gathering off; one cancelled get leaves the others
 * alone; a failed call reaches every get in it; the operation deadline
 * holds; a window gathers gets made while nothing is in flight; gets
 * made in two threads' main contexts and sent in one call each return in
 * their own context; on the native end as well (gets gathered into
 * Multi calls).  The
 * coalescer's count of calls (an internal hook) shows that the
 * gets were gathered. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../../src/table/hbase-get-coalescer.h"
#include "../support/test-env.h"
#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

typedef TestTableFixture Fixture;

#define N_ROWS 40

/* @ms in microseconds, looser in the slow passes (test_time_slack()):
 * under valgrind the run checks memory. */
static gint64
bound (gint64 ms)
{
  return ms * G_TIME_SPAN_MILLISECOND * test_time_slack ();
}

/* One outstanding get and what it gave. */
typedef struct {
  guint *pending;
  GBytes *key;
  guint options;            /* index into the case's options */
  GCancellable *cancellable;
  HBaseRow *row;
  GError *error;
  gint64 done_at;
  GThread *done_in;         /* the thread that ran the callback */
} Get;

static void
get_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Get *get = user_data;

  get->row = hbase_table_get_finish (HBASE_TABLE (source), result, &get->error);
  get->done_at = g_get_monotonic_time ();
  get->done_in = g_thread_self ();
  (*get->pending)--;
}

static void
gets_clear (Get *gets, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_clear_pointer (&gets[i].key, g_bytes_unref);
      g_clear_pointer (&gets[i].row, hbase_row_unref);
      g_clear_error (&gets[i].error);
      g_clear_object (&gets[i].cancellable);
    }
  g_free (gets);
}

/* Starts every get at once, then runs the main loop until all are done. */
static void
run_gets (HBaseTable *table, Get *gets, guint n, const HBaseReadOptions *const *options)
{
  guint pending = n;
  gint64 limit = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  for (guint i = 0; i < n; i++)
    {
      gets[i].pending = &pending;
      hbase_table_get_async (table, gets[i].key, options != NULL ? options[gets[i].options] : NULL,
                             gets[i].cancellable, get_done, &gets[i]);
    }
  while (pending > 0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, limit);
      g_main_context_iteration (NULL, TRUE);
    }
}

/* A client on the fixture's gateway (on the native end: of the native
 * backend) with @max_keys per gathered call. */
static HBaseClient *
client_new_full (Fixture *fixture, guint max_keys, guint timeout_ms, guint window_us)
{
  g_autoptr(HBaseConfig) config = test_table_fixture_is_native (fixture)
                                  ? test_stack_native_config ()
                                  : test_stack_config (fixture->gateway);
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_coalesce_gets (config, max_keys, &error));
  g_assert_true (hbase_config_set_coalesce_gets_window (config, window_us, &error));
  g_assert_true (hbase_config_set_pool_size (config, 4, &error));
  if (timeout_ms != 0)
    g_assert_true (hbase_config_set_operation_timeout (config, timeout_ms, &error));
  g_assert_no_error (error);
  return hbase_client_new (config);
}

static HBaseClient *
client_new (Fixture *fixture, guint max_keys, guint timeout_ms)
{
  return client_new_full (fixture, max_keys, timeout_ms, 0);
}

static HBaseTable *
table_new (HBaseClient *client, const char *name)
{
  g_autoptr(GError) error = NULL;
  HBaseTable *table = hbase_table_new (client, name, &error);

  g_assert_no_error (error);
  return table;
}

static char *
key_suffix (guint i)
{
  return g_strdup_printf ("row-%03u", i);
}

/* Rows 0 .. N_ROWS-1 with f:a = "a<i>", f:b = "b<i>". */
static void
write_rows (Fixture *fixture)
{
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < N_ROWS; i++)
    {
      g_autofree char *suffix = key_suffix (i);
      g_autofree char *a = g_strdup_printf ("a%u", i);
      g_autofree char *b = g_strdup_printf ("b%u", i);
      g_autoptr(GBytes) key = test_key (suffix);
      g_autoptr(GBytes) va = test_text (a);
      g_autoptr(GBytes) vb = test_text (b);
      HBaseMutation *put = hbase_mutation_new_put (key);

      hbase_mutation_put (put, "f", "a", va);
      hbase_mutation_put (put, "f", "b", vb);
      g_ptr_array_add (mutations, put);
    }
  g_assert_true (hbase_table_apply_multiple (fixture->table, mutations, NULL, &error));
  g_assert_no_error (error);
}

/* @n gets: rows 0 .. 2*N_ROWS-1 in a scrambled order, so half are
 * missing and every key comes more than once. */
static Get *
gets_new (guint n, guint n_options)
{
  Get *gets = g_new0 (Get, n);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *suffix = key_suffix ((i * 7) % (2 * N_ROWS));

      gets[i].key = test_key (suffix);
      gets[i].options = n_options > 0 ? (i / 3) % n_options : 0;
    }
  return gets;
}

/* What a get of row @i with these columns must give. */
static char *
expected (guint i, const char *const *columns)
{
  gboolean a = columns == NULL || g_strv_contains (columns, "f:a");
  gboolean b = columns == NULL || g_strv_contains (columns, "f:b");

  GString *text = g_string_new (NULL);

  if (i < N_ROWS && a)
    g_string_append_printf (text, "f:a=a%u", i);
  if (i < N_ROWS && b)
    g_string_append_printf (text, "%sf:b=b%u", a ? " " : "", i);
  return g_string_free (text, FALSE);
}

static void
check_get (Get *get, guint index, const char *const *columns)
{
  guint row = (index * 7) % (2 * N_ROWS);
  g_autofree char *want = expected (row, columns);
  g_autofree char *have = NULL;

  g_assert_no_error (get->error);
  g_assert_nonnull (get->row);
  have = test_row_summary (get->row, FALSE);
  g_assert_cmpstr (have, ==, want);
  if (row < N_ROWS)
    g_assert_true (g_bytes_equal (hbase_row_get_key (get->row), get->key));
  else
    g_assert_true (hbase_row_is_empty (get->row));
}

static void
test_many (Fixture *fixture, gconstpointer data)
{
  const guint n = 400;
  const char *name = hbase_table_get_name (fixture->table);

  write_rows (fixture);
  for (guint max_keys = 1; max_keys <= 100; max_keys += 99)
    {
      g_autoptr(HBaseClient) client = client_new (fixture, max_keys, 0);
      g_autoptr(HBaseTable) table = table_new (client, name);
      g_autoptr(GError) error = NULL;
      Get *gets = gets_new (n, 0);
      guint64 calls, keys;

      run_gets (table, gets, n, NULL);
      for (guint i = 0; i < n; i++)
        check_get (&gets[i], i, NULL);
      /* a missing row: the same empty row a synchronous get gives */
      for (guint i = 0; i < n; i++)
        if (hbase_row_is_empty (gets[i].row))
          {
            g_autoptr(HBaseRow) sync = hbase_table_get (table, gets[i].key, NULL, NULL, &error);

            g_assert_no_error (error);
            g_assert_true (hbase_row_is_empty (sync));
            g_assert_true ((hbase_row_get_key (sync) == NULL) ==
                           (hbase_row_get_key (gets[i].row) == NULL));
            g_assert_cmpuint (hbase_row_get_n_cells (sync), ==,
                              hbase_row_get_n_cells (gets[i].row));
            break;
          }
      _hbase_get_coalescer_get_counts (table, &calls, &keys);
      if (max_keys == 1)
        {
          /* off: every get went its own way, the coalescer saw none */
          g_assert_cmpuint (calls, ==, 0);
          g_assert_cmpuint (keys, ==, 0);
        }
      else
        {
          g_assert_cmpuint (keys, ==, n);
          g_assert_cmpuint (calls, >=, n / max_keys);
          g_assert_cmpuint (calls, <, n / 4);
        }
      g_test_message ("coalesce-gets %u: %" G_GUINT64_FORMAT " calls for %u gets", max_keys,
                      calls, n);
      gets_clear (gets, n);
    }
}

static void
test_read_options (Fixture *fixture, gconstpointer data)
{
  static const char *const only_a[] = { "f:a", NULL };
  static const char *const only_b[] = { "f:b", NULL };
  static const char *const both[] = { "f:b", "f:a", NULL };
  const char *const *columns[] = { NULL, only_a, only_b, both };
  HBaseReadOptions read[G_N_ELEMENTS (columns)];
  const HBaseReadOptions *options[G_N_ELEMENTS (columns)];
  g_autoptr(HBaseClient) client = client_new (fixture, 100, 0);
  g_autoptr(HBaseTable) table = table_new (client, hbase_table_get_name (fixture->table));
  const guint n = 300;
  Get *gets = gets_new (n, G_N_ELEMENTS (columns));
  guint64 calls, keys;

  write_rows (fixture);
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      read[i] = (HBaseReadOptions) HBASE_READ_OPTIONS_INIT;
      read[i].columns = columns[i];
      options[i] = &read[i];
    }
  /* the first kind as NULL options: the same as default ones */
  options[0] = NULL;
  run_gets (table, gets, n, options);
  for (guint i = 0; i < n; i++)
    check_get (&gets[i], i, columns[gets[i].options]);
  _hbase_get_coalescer_get_counts (table, &calls, &keys);
  g_assert_cmpuint (keys, ==, n);
  g_assert_cmpuint (calls, <, n / 2);
  gets_clear (gets, n);
}

/* A typed filter and the filter string of the same text are different
 * reads: through the gateway both give the filtered rows; on the native
 * end, which runs only typed filters, the string's gets fail with
 * NOT_SUPPORTED even when gathered behind typed ones, and the typed ones
 * are answered. */
static void
test_typed_and_string (Fixture *fixture, gconstpointer data)
{
  static const char *const only_a[] = { "f:a", NULL };
  g_autoptr(GBytes) prefix = g_bytes_new_static ("a", 1);
  g_autoptr(HBaseFilter) filter = hbase_filter_column_prefix (prefix);
  g_autofree char *text = NULL;
  HBaseReadOptions typed = HBASE_READ_OPTIONS_INIT, string = HBASE_READ_OPTIONS_INIT;
  const HBaseReadOptions *options[2] = { &typed, &string };
  g_autoptr(HBaseClient) client = client_new (fixture, 100, 0);
  g_autoptr(HBaseTable) table = table_new (client, hbase_table_get_name (fixture->table));
  g_autoptr(GError) error = NULL;
  const guint n = 120;
  Get *gets = gets_new (n, G_N_ELEMENTS (options));

  write_rows (fixture);
  text = hbase_filter_to_string (filter, &error);
  g_assert_no_error (error);
  string.filter = text;
  typed.typed_filter = filter;
  run_gets (table, gets, n, options);
  for (guint i = 0; i < n; i++)
    if (gets[i].options == 1 && test_table_fixture_is_native (fixture))
      {
        g_assert_error (gets[i].error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
        g_assert_null (gets[i].row);
      }
    else
      check_get (&gets[i], i, only_a);
  gets_clear (gets, n);
}

static void
test_cancel_one (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseClient) client = client_new (fixture, 100, 0);
  g_autoptr(HBaseTable) table = table_new (client, hbase_table_get_name (fixture->table));
  const guint n = 200, victim = 150, early = 7;
  Get *gets = gets_new (n, 0);
  guint pending = n;

  write_rows (fixture);
  gets[victim].cancellable = g_cancellable_new ();
  gets[early].cancellable = g_cancellable_new ();
  g_cancellable_cancel (gets[early].cancellable);
  for (guint i = 0; i < n; i++)
    {
      gets[i].pending = &pending;
      hbase_table_get_async (table, gets[i].key, NULL, gets[i].cancellable, get_done, &gets[i]);
    }
  /* the gets behind the first two calls are still waiting */
  g_cancellable_cancel (gets[victim].cancellable);
  while (pending > 0)
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < n; i++)
    if (i == victim || i == early)
      {
        g_assert_error (gets[i].error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
        g_assert_null (gets[i].row);
      }
    else
      check_get (&gets[i], i, NULL);
  gets_clear (gets, n);
}

/* A call that fails (a table that does not exist) fails every get in it,
 * each with the error a get of its own gives. */
static void
test_failure (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseClient) client = client_new (fixture, 100, 0);
  g_autofree char *missing = test_stack_unique_name ("coalesce_no_such_table");
  g_autoptr(HBaseTable) table = table_new (client, missing);
  g_autoptr(GError) single = NULL;
  g_autoptr(GBytes) key = test_key ("any");
  const guint n = 60;
  Get *gets = gets_new (n, 0);
  guint64 calls, keys;

  g_assert_null (hbase_table_get (table, key, NULL, NULL, &single));
  g_assert_error (single, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  run_gets (table, gets, n, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_assert_null (gets[i].row);
      g_assert_error (gets[i].error, single->domain, single->code);
      g_assert_cmpstr (gets[i].error->message, ==, single->message);
    }
  _hbase_get_coalescer_get_counts (table, &calls, &keys);
  g_assert_cmpuint (keys, ==, n);
  g_assert_cmpuint (calls, <, n / 2);
  gets_clear (gets, n);
}

/* Gets to a gateway (on the native end: a bootstrap server) that refuses
 * connections: each ends by its own
 * operation deadline, with a timeout or a connection error (whether the
 * retries run out before the deadline depends on the machine's speed, for
 * a get of its own as well).  Deadlines against a gateway that never
 * answers: tests/connection/test-async-deadline.c. */
static void
test_deadline (Fixture *fixture, gconstpointer data)
{
  const guint timeout_ms = 400, n = 30;
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autofree char *gateway = g_strdup_printf ("127.0.0.1:%u", test_closed_port ());
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GBytes) key = test_key ("any");
  g_autoptr(GError) single = NULL;
  Get *gets = gets_new (n, 0);
  gint64 start;

  if (test_table_fixture_is_native (fixture))
    g_assert_true (hbase_config_set_bootstrap_servers (config, gateway, &error));
  else
    g_assert_true (hbase_config_set_gateways (config, gateway, &error));
  g_assert_true (hbase_config_set_operation_timeout (config, timeout_ms, &error));
  g_assert_true (hbase_config_set_pool_size (config, 2, &error));
  g_assert_no_error (error);
  client = hbase_client_new (config);
  table = table_new (client, hbase_table_get_name (fixture->table));
  g_assert_null (hbase_table_get (table, key, NULL, NULL, &single));
  g_assert_true (g_error_matches (single, HBASE_ERROR, HBASE_ERROR_TIMEOUT) ||
                 g_error_matches (single, HBASE_ERROR, HBASE_ERROR_CONNECTION));
  start = g_get_monotonic_time ();
  run_gets (table, gets, n, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_assert_null (gets[i].row);
      g_assert_true (g_error_matches (gets[i].error, HBASE_ERROR, HBASE_ERROR_TIMEOUT) ||
                     g_error_matches (gets[i].error, HBASE_ERROR, HBASE_ERROR_CONNECTION));
      /* the deadline, and not much later (a loaded machine) */
      g_assert_cmpint (gets[i].done_at - start, <, bound (3 * timeout_ms));
    }
  gets_clear (gets, n);
}

/* With a window, gets made while nothing is in flight wait for it and
 * leave together: one call. */
static void
test_window (Fixture *fixture, gconstpointer data)
{
  /* 50 ms; looser in the slow passes, where making the ten gets takes
   * longer (under valgrind: the setting's limit, one second) */
  const guint window_us = (guint) MIN (bound (50), G_USEC_PER_SEC), n = 10;
  g_autoptr(HBaseClient) client = client_new_full (fixture, 100, 0, window_us);
  g_autoptr(HBaseTable) table = table_new (client, hbase_table_get_name (fixture->table));
  Get *gets = gets_new (n, 0);
  guint64 calls, keys;
  gint64 start;

  write_rows (fixture);
  start = g_get_monotonic_time ();
  run_gets (table, gets, n, NULL);
  for (guint i = 0; i < n; i++)
    {
      check_get (&gets[i], i, NULL);
      g_assert_cmpint (gets[i].done_at - start, >=, window_us);
    }
  _hbase_get_coalescer_get_counts (table, &calls, &keys);
  g_assert_cmpuint (calls, ==, 1);
  g_assert_cmpuint (keys, ==, n);
  gets_clear (gets, n);
}

/* The second thread of test_contexts: its gets, made with its own
 * thread-default context, which it runs until they are done. */
typedef struct {
  HBaseTable *table;
  Get *gets;
  guint n;
  GMutex lock;
  GCond cond;
  gboolean started;
} ContextThread;

static gpointer
gets_in_own_context (gpointer data)
{
  ContextThread *other = data;
  g_autoptr(GMainContext) context = g_main_context_new ();
  guint pending = other->n;

  g_main_context_push_thread_default (context);
  for (guint i = 0; i < other->n; i++)
    {
      other->gets[i].pending = &pending;
      hbase_table_get_async (other->table, other->gets[i].key, NULL, NULL, get_done, &other->gets[i]);
    }
  g_mutex_lock (&other->lock);
  other->started = TRUE;
  g_cond_signal (&other->cond);
  g_mutex_unlock (&other->lock);
  while (pending > 0)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);
  return NULL;
}

/* Gets made in two threads, each with its own main context, gathered into
 * one call (a window holds the first): each returns its own row in the
 * thread of the context it was made in. */
static void
test_contexts (Fixture *fixture, gconstpointer data)
{
  const guint n = 30;
  /* the setting's limit is one second (valgrind's bound would pass it) */
  g_autoptr(HBaseClient) client = client_new_full (fixture, 100, 0,
                                                   (guint) MIN (bound (300), G_USEC_PER_SEC));
  g_autoptr(HBaseTable) table = table_new (client, hbase_table_get_name (fixture->table));
  Get *gets = gets_new (2 * n, 0);
  ContextThread other = { .table = table, .gets = gets + n, .n = n };
  GThread *thread;
  guint pending = n;
  guint64 calls, keys;

  write_rows (fixture);
  g_mutex_init (&other.lock);
  g_cond_init (&other.cond);
  thread = g_thread_new ("other-context", gets_in_own_context, &other);
  g_mutex_lock (&other.lock);
  while (!other.started)
    g_cond_wait (&other.cond, &other.lock);
  g_mutex_unlock (&other.lock);
  for (guint i = 0; i < n; i++)
    {
      gets[i].pending = &pending;
      hbase_table_get_async (table, gets[i].key, NULL, NULL, get_done, &gets[i]);
    }
  while (pending > 0)
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  for (guint i = 0; i < 2 * n; i++)
    {
      check_get (&gets[i], i, NULL);
      if (i < n)
        g_assert_true (gets[i].done_in == g_thread_self ());
      else
        g_assert_true (gets[i].done_in == thread);
    }
  _hbase_get_coalescer_get_counts (table, &calls, &keys);
  /* under valgrind the gets may take longer to make than the window */
  if (g_getenv ("HBASE_GLIB_TEST_UNDER_VALGRIND") == NULL)
    g_assert_cmpuint (calls, ==, 1);
  g_assert_cmpuint (keys, ==, 2 * n);
  g_mutex_clear (&other.lock);
  g_cond_clear (&other.cond);
  gets_clear (gets, 2 * n);
}

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "many", test_many },
    { "read-options", test_read_options },
    { "typed-and-string", test_typed_and_string },
    { "cancel-one", test_cancel_one },
    { "failure", test_failure },
    { "deadline", test_deadline },
    { "window", test_window },
    { "contexts", test_contexts },
  };
  /* every case: the native backend gathers gets into Multi calls too */
  /* failure: a batch against a missing table sits in the gateway's own
   * retries for ~16 s, whatever the protocol */
  static const char *const first_gateway_cases[] = { "failure", NULL };
  static const TestTableSuiteOptions options = {
    .native_all = TRUE, .first_gateway_cases = first_gateway_cases
  };
  static HBaseFamilyOptions families[1] = { HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/get-coalescer", "coalesce_get", families, 1, TEST_GATEWAYS_ENDS
  };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
