/* SPDX-License-Identifier: Apache-2.0 */
/* Integration tests of network faults between the library and the real
 * stack.  A fault-injecting proxy (tests/support/test-fault-proxy.h) sits
 * in front of each Thrift2 gateway, or of redis-server, and delays,
 * swallows, resets, truncates or corrupts the traffic.  For every fault a
 * client with a short operation timeout makes gets, puts, scans and
 * increments, and the tests check:
 *
 *  - the call ends within its deadline (plus a small slack) with the
 *    HBASE_ERROR code the fault calls for: TIMEOUT when nothing (or not
 *    enough) comes back in time, CONNECTION when the connection is reset or
 *    closed, PROTOCOL when the reply is not Thrift;
 *  - whether the write may have been applied (hbase_error_is_in_doubt()),
 *    and what HBase actually holds afterwards; a non-idempotent call is
 *    applied at most once;
 *  - the broken connection is discarded, never reused: with the proxy back
 *    to pass-through the next call on the same client succeeds with its own
 *    data (a late reply is never read as the next call's).
 *
 * Also: a scan interrupted by each fault between its fetches must go on
 * after the last row returned once the faults stop (every row once), and
 * four threads calling while the faults change must only ever get their
 * own rows.
 *
 * The Redis side: an index reaching redis-server through the proxy fails
 * its writes and queries with HBASE_INDEX_ERROR_REDIS in bounded time, or
 * follows the mark-dirty policy, and works again once the proxy passes
 * traffic.
 *
 * Gateways: test_stack_gateways() (by default the stack's four, 9090-9093);
 * Redis: HBASE_GLIB_TEST_REDIS (default 127.0.0.1:6379).
 *
 * Long because: every fault runs through the one proxy fixture and the
 * same per-operation checks of deadline, code and what HBase holds. */
#include "config.h"

#include <string.h>

#include "../index/index-support.h"
#include "../support/test-env.h"
#include "../support/test-fault-proxy.h"
#include "../support/test-rows.h"

#define FAMILY "f"
#define TIMEOUT_MS 1500           /* operation timeout of the clients under test (the stack
                                   * is shared: much less fails calls that should pass) */
#define REDIS_TIMEOUT_MS 300      /* the index's Redis command timeout */
#define REDIS_RETRY_MS 100        /* the index's fail-fast window after a Redis failure */

static GPtrArray *gateways;       /* test_stack_gateways () */
static HBaseClient *direct;       /* straight to the first gateway: checks what HBase holds */
static char *table_name;

/* Time a failing call may take beyond its deadline (more under valgrind
 * and the sanitizers, HBASE_GLIB_TEST_QUICK=1). */
static gint64
slack_ms (void)
{
  return test_quick () ? 600 : 400;
}

static gint64
elapsed_ms (gint64 since)
{
  return (g_get_monotonic_time () - since) / 1000;
}

/* A call that ran past its bound fails the test but lets it go on, so one
 * slow path does not hide what the rest of the case would show. */
static void
check_bound (const char *what, gint64 took_ms, gint64 bound_ms)
{
  if (took_ms > bound_ms)
    g_test_fail_printf ("%s took %" G_GINT64_FORMAT " ms, more than %" G_GINT64_FORMAT " ms",
                        what, took_ms, bound_ms);
}

/* hbase_error_is_in_doubt(): whether the failed call may have been
 * applied all the same. */
static void
expect_in_doubt (const GError *error, gboolean expected)
{
  g_test_message ("in doubt: %s (%s)", hbase_error_is_in_doubt (error) ? "yes" : "no",
                  error->message);
  g_assert_cmpint (hbase_error_is_in_doubt (error), ==, expected);
}

/* --- the fixture: a client through a proxy to one gateway --------------------------- */

/* Creates the table every case writes its own rows to, on first use,
 * through the first gateway; FALSE (the case skipped) when unreachable. */
static gboolean
ensure_table (void)
{
  const TestGateway *gateway = gateways->pdata[0];
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;

  if (direct != NULL)
    return TRUE;
  if (!test_stack_check_gateway (gateway))
    return FALSE;
  config = test_stack_config (gateway);
  direct = hbase_client_new (config);
  g_assert_no_error (error);
  table_name = test_stack_unique_name ("hbase_glib_faults");
  family.name = FAMILY;
  g_assert_true (hbase_client_create_table (direct, table_name, &family, 1, NULL, NULL, &error));
  g_assert_no_error (error);
  return TRUE;
}

typedef struct {
  const TestGateway *gateway;
  TestFaultProxy *proxy;
  HBaseClient *client;          /* through the proxy */
  HBaseTable *table;            /* table_name through the proxy */
  HBaseTable *check;            /* table_name through the direct client */
  HBaseClientStats before;      /* the client's stats just before the fault */
} Faults;

static gboolean
faults_setup (Faults *f, const TestGateway *gateway, guint attempts)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;

  memset (f, 0, sizeof *f);
  if (!test_stack_check_gateway (gateway) || !ensure_table ())
    return FALSE;
  f->gateway = gateway;
  f->proxy = test_fault_proxy_new (gateway->host, gateway->port);
  address = g_strdup_printf ("127.0.0.1:%u", test_fault_proxy_get_port (f->proxy));
  config = test_stack_config (gateway);
  g_assert_true (hbase_config_set_gateways (config, address, &error));
  g_assert_true (hbase_config_set_operation_timeout (config, TIMEOUT_MS, &error));
  g_assert_true (hbase_config_set_connect_timeout (config, TIMEOUT_MS, &error));
  g_assert_true (hbase_config_set_max_attempts (config, attempts, &error));
  g_assert_true (hbase_config_set_retry_backoff (config, 10, 50, &error));
  g_assert_no_error (error);
  f->client = hbase_client_new (config);
  g_assert_no_error (error);
  f->table = hbase_table_new (f->client, table_name, &error);
  g_assert_no_error (error);
  f->check = hbase_table_new (direct, table_name, &error);
  g_assert_no_error (error);
  return TRUE;
}

static void
faults_teardown (Faults *f)
{
  g_clear_object (&f->table);
  g_clear_object (&f->check);
  g_clear_object (&f->client);
  g_clear_pointer (&f->proxy, test_fault_proxy_free);
}

/* f:q of the test's row @suffix, through @table; NULL when absent. */
static char *
read_value (HBaseTable *table, const char *suffix, GError **error)
{
  g_autoptr(GBytes) key = test_key (suffix);
  g_autoptr(HBaseRow) row = hbase_table_get (table, key, NULL, NULL, error);
  GBytes *value;

  if (row == NULL)
    return NULL;
  value = hbase_row_lookup (row, FAMILY, "q");
  return value != NULL ? g_strndup (g_bytes_get_data (value, NULL), g_bytes_get_size (value))
                       : NULL;
}

static gboolean
write_value (HBaseTable *table, const char *suffix, const char *value, GError **error)
{
  g_autoptr(GBytes) key = test_key (suffix);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (key);
  g_autoptr(GBytes) bytes = test_text (value);

  hbase_mutation_put (put, FAMILY, "q", bytes);
  return hbase_table_apply (table, put, NULL, error);
}

/* The counter f:n of row @suffix through the direct client; 0 when absent. */
static gint64
read_counter (Faults *f, const char *suffix)
{
  g_autoptr(GBytes) key = test_key (suffix);
  g_autoptr(GError) error = NULL;
  gint64 value = -1;

  g_assert_true (hbase_table_get_counter (f->check, key, FAMILY, "n", &value, NULL, &error));
  g_assert_no_error (error);
  return value;
}

/* Writes row "seed" through the proxy (the client then has a pooled
 * connection for the fault to hit) and notes the client's stats. */
static void
faults_seed (Faults *f)
{
  g_autoptr(GError) error = NULL;

  write_value (f->table, "seed", "seed-value", &error);
  g_assert_no_error (error);
  hbase_client_get_stats (f->client, &f->before);
  g_assert_cmpuint (f->before.idle, ==, 1);
}

typedef enum {
  OP_GET,
  OP_PUT,
  OP_SCAN,
  OP_INCREMENT,
} Op;

static const char *const op_names[] = { "get", "put", "scan", "increment" };

/* One call of @op on row @suffix (a scan reads every row of the test). */
static gboolean
run_op (Faults *f, Op op, const char *suffix, GError **error)
{
  g_autoptr(GBytes) key = test_key (suffix);

  switch (op)
    {
    case OP_GET:
      {
        g_autoptr(HBaseRow) row = hbase_table_get (f->table, key, NULL, NULL, error);

        return row != NULL;
      }
    case OP_PUT:
      {
        g_autofree char *value = g_strdup_printf ("value-%s", suffix);

        return write_value (f->table, suffix, value, error);
      }
    case OP_SCAN:
      {
        HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
        g_autoptr(GBytes) prefix = test_key ("");
        g_autoptr(HBaseScanner) scanner = NULL;
        HBaseRow *row;
        guint rows = 0;

        options.prefix = prefix;
        scanner = hbase_table_scan (f->table, &options, error);
        if (scanner == NULL)
          return FALSE;
        while (hbase_scanner_next (scanner, &row, NULL, error) && row != NULL)
          {
            rows++;
            hbase_row_unref (row);
          }
        return error == NULL || *error == NULL;
      }
    case OP_INCREMENT:
    default:
      {
        gint64 value;

        return hbase_table_increment_counter (f->table, key, FAMILY, "n", 1, &value, NULL, error);
      }
    }
}

/* Runs @op, which must fail with @code within @max_ms (and, for a
 * timeout, not much before the deadline).  Returns the error. */
static GError *
expect_failure (Faults *f, Op op, const char *suffix, HBaseError code, gint64 max_ms)
{
  GError *error = NULL;
  TestFaultProxyStats proxy;
  gint64 start = g_get_monotonic_time (), took;
  gboolean ok = run_op (f, op, suffix, &error);

  took = elapsed_ms (start);
  test_fault_proxy_get_stats (f->proxy, &proxy);
  g_test_message ("%s %s: %s after %" G_GINT64_FORMAT " ms (proxy: %" G_GUINT64_FORMAT
                  " connections, %" G_GUINT64_FORMAT " resets, %" G_GUINT64_FORMAT "/%"
                  G_GUINT64_FORMAT " request bytes forwarded, %" G_GUINT64_FORMAT "/%"
                  G_GUINT64_FORMAT " reply bytes delivered)",
                  f->gateway->label, op_names[op], ok ? "succeeded" : error->message, took,
                  proxy.accepted, proxy.resets, proxy.forwarded_bytes, proxy.request_bytes,
                  proxy.delivered_bytes, proxy.reply_bytes);
  g_assert_false (ok);
  g_assert_error (error, HBASE_ERROR, (gint) code);
  check_bound (op_names[op], took, max_ms);
  if (code == HBASE_ERROR_TIMEOUT)
    g_assert_cmpint (took, >=, TIMEOUT_MS - 50);
  return error;
}

/* A failure that should be noticed at once, long before the deadline. */
static GError *
expect_fast_failure (Faults *f, Op op, const char *suffix, HBaseError code)
{
  return expect_failure (f, op, suffix, code, TIMEOUT_MS / 2);
}

static GError *
expect_timeout (Faults *f, Op op, const char *suffix)
{
  return expect_failure (f, op, suffix, HBASE_ERROR_TIMEOUT, TIMEOUT_MS + slack_ms ());
}

/* No connection left in the pool after the fault: each was discarded. */
static void
expect_pool_emptied (Faults *f)
{
  HBaseClientStats stats;

  hbase_client_get_stats (f->client, &stats);
  g_assert_cmpuint (stats.connections_discarded, >, f->before.connections_discarded);
  g_assert_cmpuint (stats.idle, ==, 0);
  g_assert_cmpuint (stats.open, ==, 0);
}

/* Back to pass-through: the same client must work at once, with the right
 * data, on a new connection (the broken ones discarded, none reused). */
static void
expect_recovery (Faults *f)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *value = NULL;
  HBaseClientStats stats;

  test_fault_proxy_pass (f->proxy);
  hbase_client_get_stats (f->client, &stats);
  g_assert_cmpuint (stats.connections_discarded, >, f->before.connections_discarded);

  value = read_value (f->table, "seed", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (value, ==, "seed-value");
  g_clear_pointer (&value, g_free);
  write_value (f->table, "after", "after-value", &error);
  g_assert_no_error (error);
  value = read_value (f->check, "after", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (value, ==, "after-value");

  hbase_client_get_stats (f->client, &stats);
  g_assert_cmpuint (stats.connections_opened, >, f->before.connections_opened);
}

/* Whether row @suffix holds what a put of run_op() writes, read directly. */
static gboolean
put_applied (Faults *f, const char *suffix)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *value = read_value (f->check, suffix, &error);
  g_autofree char *expected = g_strdup_printf ("value-%s", suffix);

  g_assert_no_error (error);
  return g_strcmp0 (value, expected) == 0;
}

/* --- the cases -------------------------------------------------------------------- */

static void
test_pass_through (gconstpointer data)
{
  Faults f;
  g_autoptr(GError) error = NULL;
  TestFaultProxyStats proxy_stats;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  for (Op op = OP_GET; op <= OP_INCREMENT; op++)
    {
      run_op (&f, op, "row", &error);
      g_assert_no_error (error);
    }
  g_assert_true (put_applied (&f, "row"));
  run_op (&f, OP_INCREMENT, "row", &error);
  g_assert_no_error (error);
  g_assert_cmpint (read_counter (&f, "row"), ==, 2);
  test_fault_proxy_get_stats (f.proxy, &proxy_stats);
  g_assert_cmpuint (proxy_stats.accepted, ==, 1);
  g_assert_cmpuint (proxy_stats.forwarded_bytes, ==, proxy_stats.request_bytes);
  g_assert_cmpuint (proxy_stats.delivered_bytes, ==, proxy_stats.reply_bytes);
  g_assert_cmpuint (proxy_stats.request_bytes, >, 0);
  faults_teardown (&f);
}

/* Slow, but within the deadline: every call succeeds. */
static void
test_delay_within_deadline (gconstpointer data)
{
  Faults f;
  g_autoptr(GError) error = NULL;
  gint64 start;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  test_fault_proxy_delay (f.proxy, 150);
  start = g_get_monotonic_time ();
  run_op (&f, OP_PUT, "row", &error);
  g_assert_no_error (error);
  run_op (&f, OP_GET, "row", &error);
  g_assert_no_error (error);
  /* each way held 150 ms, two calls */
  g_assert_cmpint (elapsed_ms (start), >=, 4 * 150 - 20);
  g_assert_true (put_applied (&f, "row"));
  faults_teardown (&f);
}

/* A reply held past the deadline: the get times out; the reply then
 * arrives on that connection, which must have been discarded: the next
 * get (of another row) returns its own row. */
static void
test_late_reply (gconstpointer data)
{
  Faults f;
  g_autoptr(GError) error = NULL;
  g_autofree char *value = NULL;

  if (!faults_setup (&f, data, 1))
    return;
  g_assert_true (write_value (f.check, "first", "first-value", &error));
  write_value (f.check, "second", "second-value", &error);
  g_assert_no_error (error);
  faults_seed (&f);
  test_fault_proxy_delay (f.proxy, TIMEOUT_MS + 300);
  error = expect_timeout (&f, OP_GET, "first");
  g_clear_error (&error);
  expect_pool_emptied (&f);
  test_fault_proxy_pass (f.proxy);
  value = read_value (f.table, "second", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (value, ==, "second-value");
  expect_recovery (&f);
  faults_teardown (&f);
}

/* Requests swallowed: every call times out, the connections are closed
 * by the client.  (Gets: see the asynchronous case.) */
static void
test_blackhole (gconstpointer data)
{
  Faults f;
  GError *error;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  test_fault_proxy_blackhole (f.proxy);
  error = expect_timeout (&f, OP_PUT, "row");
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  error = expect_timeout (&f, OP_INCREMENT, "counter");
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  /* the proxy swallowed them: nothing was applied */
  g_assert_false (put_applied (&f, "row"));
  g_assert_cmpint (read_counter (&f, "counter"), ==, 0);
  /* the client closed every timed-out connection */
  g_assert_true (test_fault_proxy_wait_closed (f.proxy, 1000));
  expect_pool_emptied (&f);
  expect_recovery (&f);
  faults_teardown (&f);
}

/* An asynchronous get and put: the callbacks come within the deadline,
 * with the same errors as the blocking calls. */
typedef struct {
  GMainLoop *loop;
  GError *error;
  gint64 took_ms;
  gint64 start;
} AsyncWait;

static void
async_get_done (GObject *source, GAsyncResult *result, gpointer data)
{
  AsyncWait *wait = data;
  g_autoptr(HBaseRow) row = hbase_table_get_finish (HBASE_TABLE (source), result, &wait->error);

  wait->took_ms = elapsed_ms (wait->start);
  g_main_loop_quit (wait->loop);
}

static void
async_apply_done (GObject *source, GAsyncResult *result, gpointer data)
{
  AsyncWait *wait = data;

  hbase_table_apply_finish (HBASE_TABLE (source), result, &wait->error);
  wait->took_ms = elapsed_ms (wait->start);
  g_main_loop_quit (wait->loop);
}

static void
test_blackhole_async (gconstpointer data)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GBytes) key = NULL;
  g_autoptr(HBaseMutation) put = NULL;
  g_autoptr(GBytes) value = test_text ("value-row");
  AsyncWait wait = { 0 };
  Faults f;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  g_main_context_push_thread_default (context);
  wait.loop = g_main_loop_new (context, FALSE);
  test_fault_proxy_blackhole (f.proxy);

  key = test_key ("seed");
  wait.start = g_get_monotonic_time ();
  hbase_table_get_async (f.table, key, NULL, NULL, async_get_done, &wait);
  g_main_loop_run (wait.loop);
  g_test_message ("%s async get: %s after %" G_GINT64_FORMAT " ms", f.gateway->label,
                  wait.error != NULL ? wait.error->message : "succeeded", wait.took_ms);
  g_assert_error (wait.error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
  check_bound ("an asynchronous get", wait.took_ms, TIMEOUT_MS + slack_ms ());
  g_clear_error (&wait.error);

  g_clear_pointer (&key, g_bytes_unref);
  key = test_key ("row");
  put = hbase_mutation_new_put (key);
  hbase_mutation_put (put, FAMILY, "q", value);
  wait.start = g_get_monotonic_time ();
  hbase_table_apply_async (f.table, put, NULL, async_apply_done, &wait);
  g_main_loop_run (wait.loop);
  g_assert_error (wait.error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
  check_bound ("an asynchronous put", wait.took_ms, TIMEOUT_MS + slack_ms ());
  expect_in_doubt (wait.error, TRUE);
  g_clear_error (&wait.error);
  g_assert_false (put_applied (&f, "row"));

  g_main_loop_unref (wait.loop);
  g_main_context_pop_thread_default (context);
  expect_pool_emptied (&f);
  expect_recovery (&f);
  faults_teardown (&f);
}

/* The reply one byte at a time, too slowly: a timeout, and the bytes
 * still dripping are never read by a later call. */
static void
test_slow_drip (gconstpointer data)
{
  Faults f;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  test_fault_proxy_slow_drip (f.proxy, 25);
  g_error_free (expect_timeout (&f, OP_GET, "seed"));
  expect_pool_emptied (&f);
  expect_recovery (&f);
  faults_teardown (&f);
}

/* Reset after part of the request: the gateway never had a whole
 * request, nothing is applied, but the client cannot know that. */
static void
test_reset_request (gconstpointer data)
{
  Faults f;
  GError *error;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  test_fault_proxy_reset_request (f.proxy, 10, 0);
  error = expect_fast_failure (&f, OP_PUT, "row", HBASE_ERROR_CONNECTION);
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  g_assert_false (put_applied (&f, "row"));

  test_fault_proxy_reset_request (f.proxy, 20, 10);
  error = expect_fast_failure (&f, OP_INCREMENT, "counter", HBASE_ERROR_CONNECTION);
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  g_assert_cmpint (read_counter (&f, "counter"), ==, 0);

  g_error_free (expect_fast_failure (&f, OP_GET, "seed", HBASE_ERROR_CONNECTION));
  g_error_free (expect_fast_failure (&f, OP_SCAN, "", HBASE_ERROR_CONNECTION));
  expect_pool_emptied (&f);
  expect_recovery (&f);
  faults_teardown (&f);
}

/* Reset after part of the reply: the gateway applied the write, the
 * client only knows it may have been. */
static void
test_reset_reply (gconstpointer data)
{
  Faults f;
  GError *error;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  test_fault_proxy_reset_reply (f.proxy, 4);
  error = expect_fast_failure (&f, OP_PUT, "row", HBASE_ERROR_CONNECTION);
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  g_assert_true (put_applied (&f, "row"));

  error = expect_fast_failure (&f, OP_INCREMENT, "counter", HBASE_ERROR_CONNECTION);
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  g_assert_cmpint (read_counter (&f, "counter"), ==, 1);

  g_error_free (expect_fast_failure (&f, OP_GET, "seed", HBASE_ERROR_CONNECTION));
  g_error_free (expect_fast_failure (&f, OP_SCAN, "", HBASE_ERROR_CONNECTION));
  expect_pool_emptied (&f);
  expect_recovery (&f);
  faults_teardown (&f);
}

/* The same with retries allowed: the put is sent again (idempotent), the
 * increment never (its outcome is unknown), so it is applied once. */
static void
test_reset_reply_retries (gconstpointer data)
{
  Faults f;
  GError *error;
  HBaseClientStats stats;
  TestFaultProxyStats proxy_before, proxy_after;

  if (!faults_setup (&f, data, 3))
    return;
  faults_seed (&f);
  test_fault_proxy_reset_reply (f.proxy, 4);

  test_fault_proxy_get_stats (f.proxy, &proxy_before);
  error = expect_fast_failure (&f, OP_INCREMENT, "counter", HBASE_ERROR_CONNECTION);
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  test_fault_proxy_get_stats (f.proxy, &proxy_after);
  hbase_client_get_stats (f.client, &stats);
  g_assert_cmpuint (stats.retries, ==, f.before.retries);
  g_assert_cmpint (read_counter (&f, "counter"), ==, 1);
  /* no second connection carried it */
  g_assert_cmpuint (proxy_after.accepted - proxy_before.accepted, <=, 1);

  error = expect_fast_failure (&f, OP_PUT, "row", HBASE_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, "after 3 attempts"));
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  hbase_client_get_stats (f.client, &stats);
  g_assert_cmpuint (stats.retries, ==, f.before.retries + 2);
  g_assert_true (put_applied (&f, "row"));
  expect_pool_emptied (&f);
  expect_recovery (&f);
  faults_teardown (&f);
}

/* A clean close in the middle of the reply (or before its first byte). */
static void
test_truncated_reply (gconstpointer data)
{
  Faults f;
  GError *error;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  test_fault_proxy_truncate_reply (f.proxy, 4);
  g_error_free (expect_fast_failure (&f, OP_GET, "seed", HBASE_ERROR_CONNECTION));
  error = expect_fast_failure (&f, OP_PUT, "row", HBASE_ERROR_CONNECTION);
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  g_assert_true (put_applied (&f, "row"));

  test_fault_proxy_truncate_reply (f.proxy, 0);
  error = expect_fast_failure (&f, OP_INCREMENT, "counter", HBASE_ERROR_CONNECTION);
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  g_assert_cmpint (read_counter (&f, "counter"), ==, 1);
  g_error_free (expect_fast_failure (&f, OP_SCAN, "", HBASE_ERROR_CONNECTION));
  expect_pool_emptied (&f);
  expect_recovery (&f);
  faults_teardown (&f);
}

/* Connections closed as soon as they are accepted (and the pooled one at
 * once); and a port nothing listens on, where nothing is ever sent. */
static void
test_accept_close (gconstpointer data)
{
  Faults f;
  GError *error;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) refused = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autofree char *address = NULL;
  g_autoptr(GBytes) key = NULL;
  gint64 value = 0;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  test_fault_proxy_accept_close (f.proxy);
  g_assert_true (test_fault_proxy_wait_closed (f.proxy, 1000));
  g_error_free (expect_fast_failure (&f, OP_GET, "seed", HBASE_ERROR_CONNECTION));
  error = expect_fast_failure (&f, OP_INCREMENT, "counter", HBASE_ERROR_CONNECTION);
  /* the request may have been written before the close was seen: the
   * client cannot tell, whatever it says is accepted; nothing was applied */
  g_test_message ("accept-then-close increment: in doubt: %s",
                  hbase_error_is_in_doubt (error) ? "yes" : "no");
  g_clear_error (&error);
  g_assert_cmpint (read_counter (&f, "counter"), ==, 0);
  expect_pool_emptied (&f);
  expect_recovery (&f);
  faults_teardown (&f);

  /* refused: certainly never sent */
  config = test_stack_config (data);
  address = g_strdup_printf ("127.0.0.1:%u", test_closed_port ());
  g_assert_true (hbase_config_set_gateways (config, address, NULL));
  g_assert_true (hbase_config_set_operation_timeout (config, TIMEOUT_MS, NULL));
  g_assert_true (hbase_config_set_max_attempts (config, 1, NULL));
  refused = hbase_client_new (config);
  table = hbase_table_new (refused, table_name, NULL);
  key = test_key ("counter");
  error = NULL;
  g_assert_false (hbase_table_increment_counter (table, key, FAMILY, "n", 1, &value, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  expect_in_doubt (error, FALSE);
  g_clear_error (&error);
}

/* Replies that are not Thrift at all. */
static void
test_garbage (gconstpointer data)
{
  static const char http[] = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n";
  guint8 ones[64];
  Faults f;
  GError *error;

  if (!faults_setup (&f, data, 1))
    return;
  faults_seed (&f);
  test_fault_proxy_garbage (f.proxy, http, sizeof http - 1);
  g_error_free (expect_fast_failure (&f, OP_GET, "seed", HBASE_ERROR_PROTOCOL));
  error = expect_fast_failure (&f, OP_PUT, "row", HBASE_ERROR_PROTOCOL);
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  g_assert_true (put_applied (&f, "row"));

  memset (ones, 0xff, sizeof ones);
  test_fault_proxy_garbage (f.proxy, ones, sizeof ones);
  g_error_free (expect_fast_failure (&f, OP_SCAN, "", HBASE_ERROR_PROTOCOL));
  error = expect_fast_failure (&f, OP_INCREMENT, "counter", HBASE_ERROR_PROTOCOL);
  expect_in_doubt (error, TRUE);
  g_clear_error (&error);
  g_assert_cmpint (read_counter (&f, "counter"), ==, 1);
  expect_pool_emptied (&f);
  expect_recovery (&f);
  faults_teardown (&f);
}

/* A scan interrupted by one fault after another between its fetches:
 * every fetch that fails reports its error within the operation timeout,
 * and once the proxy passes again the scan goes on just after the last
 * row returned: every row exactly once, in order. */
typedef enum {
  SCAN_FAULT_RESET_REPLY,
  SCAN_FAULT_TRUNCATE_REPLY,
  SCAN_FAULT_GARBAGE,
  SCAN_FAULT_BLACKHOLE,
  SCAN_FAULT_NONE,
} ScanFault;

static const char *const scan_fault_names[] = { "reset-mid-reply", "truncated-reply", "garbage",
                                                "blackhole" };

static void
append_key (GString *seen, HBaseRow *row)
{
  GBytes *key = hbase_row_get_key (row);
  const char *bar = memchr (g_bytes_get_data (key, NULL), '|', g_bytes_get_size (key));

  g_assert_nonnull (bar);
  g_string_append_len (seen, bar + 1,
                       (gssize) g_bytes_get_size (key) - (bar + 1 - (const char *) g_bytes_get_data (key, NULL)));
  g_string_append_c (seen, ' ');
}

static void
test_scan_interrupted (gconstpointer data)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) prefix = test_key ("scan-");
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  HBaseRow *row;
  Faults f;
  int lock;

  if (!faults_setup (&f, data, 1))
    return;
  for (guint i = 0; i < 7; i++)
    {
      g_autofree char *suffix = g_strdup_printf ("scan-%u", i);

      write_value (f.check, suffix, suffix, &error);
      g_assert_no_error (error);
      g_string_append_printf (expected, "%s ", suffix);
    }
  faults_seed (&f);
  lock = test_stack_scanner_lock ();
  options.prefix = prefix;
  options.caching = 1;
  scanner = hbase_table_scan (f.table, &options, &error);
  g_assert_no_error (error);
  hbase_scanner_next (scanner, &row, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (row);
  append_key (seen, row);
  hbase_row_unref (row);

  for (ScanFault fault = 0; fault < SCAN_FAULT_NONE; fault++)
    {
      gint64 start, took;

      switch (fault)
        {
        case SCAN_FAULT_RESET_REPLY:
          test_fault_proxy_reset_reply (f.proxy, 4);
          break;
        case SCAN_FAULT_TRUNCATE_REPLY:
          test_fault_proxy_truncate_reply (f.proxy, 4);
          break;
        case SCAN_FAULT_GARBAGE:
          test_fault_proxy_garbage (f.proxy, "HTTP/1.1 502 Bad Gateway\r\n\r\n", 28);
          break;
        case SCAN_FAULT_BLACKHOLE:
        case SCAN_FAULT_NONE:
        default:
          test_fault_proxy_blackhole (f.proxy);
          break;
        }
      start = g_get_monotonic_time ();
      hbase_scanner_next (scanner, &row, NULL, &error);
      took = elapsed_ms (start);
      g_test_message ("%s scan next under %s: %s after %" G_GINT64_FORMAT " ms", f.gateway->label,
                      scan_fault_names[fault], row != NULL ? "a row" : error->message, took);
      g_assert_null (row);
      g_assert_nonnull (error);
      g_assert_true (error->domain == HBASE_ERROR);
      check_bound ("a scanner's next row", took, TIMEOUT_MS + slack_ms ());
      g_clear_error (&error);

      test_fault_proxy_pass (f.proxy);
      hbase_scanner_next (scanner, &row, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (row);
      append_key (seen, row);
      hbase_row_unref (row);
    }
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      append_key (seen, row);
      hbase_row_unref (row);
    }
  g_assert_no_error (error);
  g_assert_cmpstr (seen->str, ==, expected->str);
  g_clear_object (&scanner);
  test_stack_scanner_unlock (lock);
  faults_teardown (&f);
}

/* Several threads calling while the proxy goes from fault to fault: every
 * call ends within its deadline, and every call that succeeds returns the
 * row it asked for (a connection left out of step would hand a thread
 * another call's reply). */
typedef struct {
  Faults *f;
  guint thread;
  gint *stop;
  guint calls;
  guint failures;
  gint64 longest_ms;
} Caller;

static gpointer
caller_thread (gpointer data)
{
  Caller *caller = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (caller->thread);

  while (!g_atomic_int_get (caller->stop))
    {
      g_autofree char *suffix = g_strdup_printf ("t%u-%d", caller->thread, g_rand_int_range (rand, 0, 4));
      g_autofree char *value = NULL;
      g_autoptr(GError) error = NULL;
      gint64 start = g_get_monotonic_time ();

      value = read_value (caller->f->table, suffix, &error);
      caller->longest_ms = MAX (caller->longest_ms, elapsed_ms (start));
      caller->calls++;
      if (error != NULL)
        {
          g_assert_true (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_CONNECTION) ||
                         g_error_matches (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT) ||
                         g_error_matches (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL));
          caller->failures++;
        }
      else
        g_assert_cmpstr (value, ==, suffix);
    }
  return NULL;
}

static void
test_concurrent_faults (gconstpointer data)
{
  Caller callers[4];
  GThread *threads[G_N_ELEMENTS (callers)];
  g_autoptr(GError) error = NULL;
  HBaseClientStats stats;
  gint stop = 0;
  Faults f;

  if (!faults_setup (&f, data, 2))
    return;
  for (guint t = 0; t < G_N_ELEMENTS (callers); t++)
    for (guint i = 0; i < 4; i++)
      {
        g_autofree char *suffix = g_strdup_printf ("t%u-%u", t, i);

        write_value (f.check, suffix, suffix, &error);
        g_assert_no_error (error);
      }
  faults_seed (&f);
  for (guint t = 0; t < G_N_ELEMENTS (callers); t++)
    {
      callers[t] = (Caller) { .f = &f, .thread = t, .stop = &stop };
      threads[t] = g_thread_new ("caller", caller_thread, &callers[t]);
    }
  for (guint round = 0; round < 2; round++)
    {
      test_fault_proxy_reset_reply (f.proxy, 6);
      g_usleep (150000);
      test_fault_proxy_pass (f.proxy);
      g_usleep (100000);
      test_fault_proxy_garbage (f.proxy, NULL, 0);
      g_usleep (150000);
      test_fault_proxy_delay (f.proxy, 30);
      g_usleep (150000);
      test_fault_proxy_truncate_reply (f.proxy, 3);
      g_usleep (150000);
      test_fault_proxy_blackhole (f.proxy);
      g_usleep (300000);
      test_fault_proxy_pass (f.proxy);
      g_usleep (100000);
    }
  g_atomic_int_set (&stop, 1);
  for (guint t = 0; t < G_N_ELEMENTS (callers); t++)
    {
      g_thread_join (threads[t]);
      g_test_message ("%s caller %u: %u calls, %u failed, longest %" G_GINT64_FORMAT " ms",
                      f.gateway->label, t, callers[t].calls, callers[t].failures,
                      callers[t].longest_ms);
      check_bound ("a get", callers[t].longest_ms, TIMEOUT_MS + slack_ms ());
      g_assert_cmpuint (callers[t].calls, >, callers[t].failures);
    }
  hbase_client_get_stats (f.client, &stats);
  g_assert_cmpuint (stats.open, <=, 8);
  expect_recovery (&f);
  faults_teardown (&f);
}

/* --- the Redis side ------------------------------------------------------------------ */

static IxFixture ix;
static gboolean ix_ready;
static TestFaultProxy *redis_proxy;
static HBaseIndex *dirty_index;       /* the same index with the mark-dirty policy */

static gboolean
redis_setup (void)
{
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  HBaseIndexSpec *spec;

  if (ix_ready)
    return TRUE;
  redis_proxy = test_fault_proxy_new (ix_redis_host (), ix_redis_port ());
  spec = hbase_index_spec_new ();
  g_assert_true (hbase_index_spec_add (spec, "city", FAMILY, "city", HBASE_INDEX_VALUE_STRING,
                                       HBASE_INDEX_EXACT, &error));
  g_assert_no_error (error);
  options.redis_host = "127.0.0.1";
  options.redis_port = test_fault_proxy_get_port (redis_proxy);
  options.connect_timeout_ms = REDIS_TIMEOUT_MS;
  options.timeout_ms = REDIS_TIMEOUT_MS;
  options.retry_interval_ms = REDIS_RETRY_MS;
  options.pool_size = 2;
  if (!ix_setup (&ix, spec, &options))
    return FALSE;
  options.on_redis_down = HBASE_INDEX_REDIS_DOWN_MARK_DIRTY;
  dirty_index = ix_open (&ix, &options);
  ix_ready = TRUE;
  return TRUE;
}

static void
redis_teardown (void)
{
  if (!ix_ready)
    return;
  test_fault_proxy_pass (redis_proxy);
  g_clear_object (&dirty_index);
  ix_teardown (&ix);
  g_clear_pointer (&redis_proxy, test_fault_proxy_free);
}

static char *
ix_row (const char *suffix)
{
  return g_strdup_printf ("%s|%s", g_test_get_path (), suffix);
}

/* An indexed put of f:city=@city on row @suffix. */
static gboolean
ix_write (HBaseIndex *index, const char *suffix, const char *city, GError **error)
{
  g_autofree char *row = ix_row (suffix);
  g_autofree char *pair = g_strdup_printf ("f:city=%s", city);
  g_autoptr(HBaseMutation) put = ix_put (row, pair, NULL);

  return hbase_table_apply (hbase_index_get_table (index), put, NULL, error);
}

static gboolean
ix_row_exists (const char *suffix)
{
  g_autofree char *row = ix_row (suffix);
  g_autoptr(GBytes) key = ix_bytes (row);
  g_autoptr(HBaseTable) table = hbase_table_new (ix.client, ix.table, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseRow) found = hbase_table_get (table, key, NULL, NULL, &error);

  g_assert_no_error (error);
  return !hbase_row_is_empty (found);
}

/* A city no other test uses. */
static char *
ix_city (void)
{
  return g_strdup_printf ("city-%s", strrchr (g_test_get_path (), '/') + 1);
}

static gint64
expect_redis_failure (HBaseIndex *index, gboolean write, const char *suffix, gint64 max_ms)
{
  g_autofree char *city = ix_city ();
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time (), took;
  HBaseIndexError expected = write ? HBASE_INDEX_ERROR_REDIS : HBASE_INDEX_ERROR_DIRTY;
  gboolean ok;

  if (write)
    ok = ix_write (index, suffix, city, &error);
  else
    {
      g_autoptr(GBytes) value = ix_bytes (city);
      g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", value);
      g_autoptr(HBaseIndexPage) page = hbase_index_find (index, query, NULL, NULL, &error);

      ok = page != NULL;
    }
  took = elapsed_ms (start);
  g_test_message ("redis %s: %s after %" G_GINT64_FORMAT " ms", write ? "write" : "query",
                  ok ? "succeeded" : error->message, took);
  g_assert_false (ok);
  /* a query refuses (HBASE_INDEX_DIRTY_REFUSE) when Redis cannot be read */
  g_assert_error (error, HBASE_INDEX_ERROR, (gint) expected);
  check_bound (write ? "an indexed write" : "an index query", took, max_ms);
  return took;
}

/* Pass-through again: after the fail-fast window the index writes and
 * answers. */
static void
expect_redis_recovery (const char *suffix)
{
  g_autofree char *city = ix_city ();
  g_autofree char *row = ix_row (suffix);
  g_autoptr(GBytes) value = ix_bytes (city);
  g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", value);
  g_autoptr(GError) error = NULL;
  g_autofree char *found = NULL;

  test_fault_proxy_pass (redis_proxy);
  g_usleep ((REDIS_RETRY_MS + 50) * 1000);
  ix_write (ix.index, suffix, city, &error);
  g_assert_no_error (error);
  found = ix_find (ix.index, query, NULL);
  g_assert_cmpstr (found, ==, row);
  g_assert_true (ix_in_set (&ix, "city", city, row));
}

/* The bound of an indexed write: a Redis batch before the HBase write and
 * one after, each at most the Redis timeout (and a connect). */
static gint64
redis_bound_ms (void)
{
  return 3 * REDIS_TIMEOUT_MS + slack_ms ();
}

static void
run_redis_case (void (*inject) (void), gboolean fast)
{
  gint64 bound = fast ? REDIS_TIMEOUT_MS : redis_bound_ms ();

  if (!redis_setup ())
    return;
  inject ();
  expect_redis_failure (ix.index, TRUE, "lost", bound);
  /* policy FAIL: nothing reached HBase */
  g_assert_false (ix_row_exists ("lost"));
  g_usleep ((REDIS_RETRY_MS + 50) * 1000);
  expect_redis_failure (ix.index, FALSE, "", bound);
  expect_redis_recovery ("kept");
}

static void
inject_blackhole (void)
{
  test_fault_proxy_blackhole (redis_proxy);
}

static void
inject_delay (void)
{
  test_fault_proxy_delay (redis_proxy, REDIS_TIMEOUT_MS + 200);
}

static void
inject_reset (void)
{
  test_fault_proxy_reset_request (redis_proxy, 5, 0);
}

/* Redis ran the commands, the reply is cut: the index may hold entries of
 * a write that never reached HBase, which queries must not return. */
static void
inject_reset_reply (void)
{
  test_fault_proxy_reset_reply (redis_proxy, 2);
}

static void
inject_partial_request (void)
{
  test_fault_proxy_reset_request (redis_proxy, 20, 10);
}

static void
inject_garbage (void)
{
  static const char http[] = "HTTP/1.1 502 Bad Gateway\r\n\r\n";

  test_fault_proxy_garbage (redis_proxy, http, sizeof http - 1);
}

static void
test_redis_blackhole (void)
{
  run_redis_case (inject_blackhole, FALSE);
}

static void
test_redis_delay (void)
{
  run_redis_case (inject_delay, FALSE);
}

static void
test_redis_reset (void)
{
  run_redis_case (inject_reset, TRUE);
}

static void
test_redis_reset_reply (void)
{
  run_redis_case (inject_reset_reply, TRUE);
}

static void
test_redis_partial_request (void)
{
  run_redis_case (inject_partial_request, TRUE);
}

static void
test_redis_garbage (void)
{
  run_redis_case (inject_garbage, TRUE);
}

/* A short delay: everything works, only slower. */
static void
test_redis_short_delay (void)
{
  g_autofree char *city = ix_city ();
  g_autofree char *row = ix_row ("slow");
  g_autoptr(GBytes) value = ix_bytes (city);
  g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", value);
  g_autoptr(GError) error = NULL;
  g_autofree char *found = NULL;

  if (!redis_setup ())
    return;
  test_fault_proxy_delay (redis_proxy, 50);
  ix_write (ix.index, "slow", city, &error);
  g_assert_no_error (error);
  found = ix_find (ix.index, query, NULL);
  g_assert_cmpstr (found, ==, row);
  test_fault_proxy_pass (redis_proxy);
}

/* Mark-dirty policy with Redis silent: the write reaches HBase (after the
 * dirty mark), queries refuse until a repair, which makes the index whole. */
static void
test_redis_mark_dirty (void)
{
  g_autofree char *city = ix_city ();
  g_autofree char *row = ix_row ("dirty");
  g_autoptr(GBytes) value = ix_bytes (city);
  g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", value);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseIndexPage) page = NULL;
  g_autoptr(HBaseIndexReport) report = NULL;
  g_autofree char *found = NULL;
  gint64 start;

  if (!redis_setup ())
    return;
  test_fault_proxy_blackhole (redis_proxy);
  start = g_get_monotonic_time ();
  ix_write (dirty_index, "dirty", city, &error);
  g_assert_no_error (error);
  g_test_message ("redis mark-dirty write under blackhole: %" G_GINT64_FORMAT " ms",
                  elapsed_ms (start));
  check_bound ("an indexed write", elapsed_ms (start), redis_bound_ms ());
  g_assert_true (ix_row_exists ("dirty"));

  test_fault_proxy_pass (redis_proxy);
  g_usleep ((REDIS_RETRY_MS + 50) * 1000);
  page = hbase_index_find (dirty_index, query, NULL, NULL, &error);
  g_assert_null (page);
  g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_DIRTY);
  g_clear_error (&error);
  report = ix_repair (dirty_index);
  found = ix_find (dirty_index, query, NULL);
  g_assert_cmpstr (found, ==, row);
}

/* --- main ------------------------------------------------------------------------------- */

static void
add_gateway_case (const TestGateway *gateway, const char *name, GTestDataFunc func)
{
  g_autofree char *path = g_strdup_printf ("/integration/faults/%s/%s", gateway->label, name);

  g_test_add_data_func (path, gateway, func);
}

static void
drop_table (void)
{
  g_autoptr(GError) error = NULL;

  if (direct == NULL)
    return;
  g_assert_true (hbase_client_delete_table (direct, table_name, NULL, &error));
  g_assert_no_error (error);
  g_clear_object (&direct);
  g_clear_pointer (&table_name, g_free);
}

/* binary/buffered and compact/framed: the two that share nothing */
static gboolean
is_end_gateway (const TestGateway *gateway)
{
  return (gateway->protocol == HBASE_PROTOCOL_BINARY && gateway->transport == HBASE_TRANSPORT_BUFFERED) ||
         (gateway->protocol == HBASE_PROTOCOL_COMPACT && gateway->transport == HBASE_TRANSPORT_FRAMED);
}

int
main (int argc, char **argv)
{
  /* slow: those that wait for timeouts run on binary/buffered and
   * compact/framed only */
  static const struct {
    const char *name;
    GTestDataFunc func;
    gboolean slow;
  } cases[] = {
    { "pass-through", test_pass_through, FALSE },
    { "delay-within-deadline", test_delay_within_deadline, FALSE },
    { "late-reply", test_late_reply, TRUE },
    { "blackhole", test_blackhole, TRUE },
    { "blackhole-async", test_blackhole_async, TRUE },
    { "slow-drip", test_slow_drip, TRUE },
    { "reset-mid-request", test_reset_request, FALSE },
    { "reset-mid-reply", test_reset_reply, FALSE },
    { "reset-mid-reply-retries", test_reset_reply_retries, FALSE },
    { "truncated-reply", test_truncated_reply, FALSE },
    { "accept-then-close", test_accept_close, FALSE },
    { "garbage", test_garbage, FALSE },
    { "concurrent", test_concurrent_faults, TRUE },
  };
  int status;

  g_test_init (&argc, &argv, NULL);
  gateways = test_stack_gateways ();
  for (guint g = 0; g < gateways->len; g++)
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      if (!cases[i].slow || is_end_gateway (gateways->pdata[g]))
        add_gateway_case (gateways->pdata[g], cases[i].name, cases[i].func);
  g_test_add_func ("/integration/faults/redis/short-delay", test_redis_short_delay);
  g_test_add_func ("/integration/faults/redis/delay", test_redis_delay);
  g_test_add_func ("/integration/faults/redis/blackhole", test_redis_blackhole);
  g_test_add_func ("/integration/faults/redis/reset", test_redis_reset);
  g_test_add_func ("/integration/faults/redis/reset-mid-request", test_redis_partial_request);
  g_test_add_func ("/integration/faults/redis/reset-mid-reply", test_redis_reset_reply);
  g_test_add_func ("/integration/faults/redis/garbage", test_redis_garbage);
  g_test_add_func ("/integration/faults/redis/mark-dirty", test_redis_mark_dirty);
  /* last: a failure stops the program, and the scanner's deadline is the
   * one known to be exceeded (a timed-out fetch is followed by a close with
   * a deadline of its own) */
  for (guint g = 0; g < gateways->len; g++)
    {
      const TestGateway *gateway = gateways->pdata[g];
      g_autofree char *path = g_strdup_printf ("/integration/faults/scan-interrupted/%s",
                                               gateway->label);

      if (is_end_gateway (gateway))
        g_test_add_data_func (path, gateway, test_scan_interrupted);
    }

  status = g_test_run ();
  redis_teardown ();
  drop_table ();
  g_ptr_array_unref (gateways);
  return status;
}
