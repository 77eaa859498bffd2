/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of HBaseClient against the real stack, on every
 * protocol/transport combination it runs (see tests/support/test-stack.h):
 * ping and list_namespaces (sync and async), hbase_client_call() through
 * the generated layer, the pool under concurrency, the retry rules, and the
 * process-wide default client. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "../support/test-stack.h"
#include "../support/test-waiter.h"

#define FAMILY "f"

typedef HbaseThriftTHBaseServiceIf Service;

/* --- helpers ------------------------------------------------------------------------------ */

static HBaseConfig *
gateway_config (const TestGateway *gateway)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = g_strdup_printf (strchr (gateway->host, ':') != NULL ? "[%s]:%u" : "%s:%u",
                                           gateway->host, gateway->port);

  g_assert_true (hbase_config_set_gateways (config, spec, &error));
  g_assert_true (hbase_config_set_protocol (config, gateway->protocol, &error));
  g_assert_true (hbase_config_set_transport (config, gateway->transport, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&config);
}

static HBaseClient *
client_new_from (const HBaseConfig *config)
{
  g_autoptr(GError) error = NULL;
  HBaseClient *client = hbase_client_new (config);

  g_assert_no_error (error);
  g_assert_nonnull (client);
  return client;
}

/* Pings @config's gateway once (no retries).  When it cannot be reached,
 * marks the test skipped (failed if test_stack_required()) and returns
 * FALSE; any other failure fails the test. */
static gboolean
stack_reachable (const HBaseConfig *config)
{
  g_autoptr(HBaseConfig) probe_config = hbase_config_copy (config);
  g_autoptr(HBaseClient) probe = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_max_attempts (probe_config, 1, &error));
  g_assert_true (hbase_config_set_connect_timeout (probe_config, 2000, &error));
  probe = client_new_from (probe_config);
  if (hbase_client_ping (probe, NULL, &error))
    return TRUE;
  if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_CONNECTION) ||
      g_error_matches (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT))
    {
      test_stack_unreachable (error->message);
      return FALSE;
    }
  g_assert_no_error (error);
  return FALSE;
}

/* A client of @gateway with @pool_size connections (0: the default), or
 * NULL when the stack is unreachable (the test is then skipped). */
static HBaseClient *
gateway_client (const TestGateway *gateway, guint pool_size)
{
  g_autoptr(HBaseConfig) config = gateway_config (gateway);
  g_autoptr(GError) error = NULL;

  if (pool_size > 0)
    {
      g_assert_true (hbase_config_set_pool_size (config, pool_size, &error));
      g_assert_no_error (error);
    }
  if (!stack_reachable (config))
    return NULL;
  return client_new_from (config);
}

static GByteArray *
bytes (const char *text)
{
  GByteArray *array = g_byte_array_new ();

  return g_byte_array_append (array, (const guint8 *) text, (guint) strlen (text));
}

static gboolean
strv_has (char **strv, const char *name)
{
  return strv != NULL && g_strv_contains ((const char *const *) strv, name);
}

static void
get_stats (HBaseClient *client, HBaseClientStats *stats)
{
  memset (stats, 0xff, sizeof *stats);
  hbase_client_get_stats (client, stats);
}

/* --- ping and namespaces ----------------------------------------------------------------------- */

static void
test_ping (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data, 0);
  g_autoptr(GError) error = NULL;
  HBaseClientStats stats;

  if (client == NULL)
    return;
  g_assert_true (hbase_client_ping (client, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hbase_client_ping (client, NULL, &error));
  g_assert_no_error (error);

  /* one connection, opened lazily, reused and back in the pool */
  get_stats (client, &stats);
  g_assert_cmpuint (stats.connections_opened, ==, 1);
  g_assert_cmpuint (stats.connections_reopened, ==, 0);
  g_assert_cmpuint (stats.connections_discarded, ==, 0);
  g_assert_cmpuint (stats.retries, ==, 0);
  g_assert_cmpuint (stats.open, ==, 1);
  g_assert_cmpuint (stats.idle, ==, 1);
}

static void
test_list_namespaces (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data, 0);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  if (client == NULL)
    return;
  names = hbase_client_list_namespaces (client, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (names);
  g_assert_true (strv_has (names, "default"));
  g_assert_true (strv_has (names, "hbase"));
}

static void
test_async (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data, 0);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) sync_names = NULL;
  g_auto(GStrv) async_names = NULL;
  TestWaiter waiter;

  if (client == NULL)
    return;

  test_waiter_init (&waiter);
  hbase_client_ping_async (client, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_client_ping_finish (client, test_waiter_run (&waiter), &error));
  g_assert_no_error (error);
  test_waiter_clear (&waiter);

  test_waiter_init (&waiter);
  hbase_client_list_namespaces_async (client, NULL, test_waiter_done, &waiter);
  async_names = hbase_client_list_namespaces_finish (client, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  test_waiter_clear (&waiter);
  g_assert_true (strv_has (async_names, "default"));
  g_assert_true (strv_has (async_names, "hbase"));

  /* the same answer as the synchronous call */
  sync_names = hbase_client_list_namespaces (client, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (async_names), ==, g_strv_length (sync_names));
  for (guint i = 0; sync_names[i] != NULL; i++)
    g_assert_true (strv_has (async_names, sync_names[i]));
}

/* --- hbase_client_call through the generated layer ------------------------------------------------ */

/* Converts a failed generated call into @error; always FALSE. */
static gboolean
call_failed (GError **error, GError *call_error, HbaseThriftTIOError *io, const char *what)
{
  hbase_error_take_call_error (error, call_error, io, NULL);
  g_prefix_error (error, "%s: ", what);
  return FALSE;
}

static HbaseThriftTTableName *
table_name (const char *name)
{
  g_autoptr(GByteArray) qualifier = bytes (name);

  return g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "qualifier", qualifier, NULL);
}

static gboolean
create_table (Service *service, const char *name, GError **error)
{
  g_autoptr(HbaseThriftTTableName) tname = table_name (name);
  g_autoptr(GByteArray) family_name = bytes (FAMILY);
  g_autoptr(HbaseThriftTColumnFamilyDescriptor) family =
    g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_FAMILY_DESCRIPTOR, "name", family_name, NULL);
  g_autoptr(HbaseThriftTTableDescriptor) desc =
    g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, "tableName", tname, NULL);
  g_autoptr(GPtrArray) splits = g_ptr_array_new ();
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  g_ptr_array_add (desc->columns, g_object_ref (family));
  desc->__isset_columns = TRUE;
  if (!hbase_thrift_t_h_base_service_if_create_table (service, desc, splits, &io, &call_error))
    return call_failed (error, call_error, io, "createTable");
  return TRUE;
}

static gboolean
drop_table (Service *service, const char *name, GError **error)
{
  g_autoptr(HbaseThriftTTableName) tname = table_name (name);
  g_autoptr(HbaseThriftTIOError) io1 = NULL;
  g_autoptr(HbaseThriftTIOError) io2 = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_disable_table (service, tname, &io1, &call_error))
    return call_failed (error, call_error, io1, "disableTable");
  if (!hbase_thrift_t_h_base_service_if_delete_table (service, tname, &io2, &call_error))
    return call_failed (error, call_error, io2, "deleteTable");
  return TRUE;
}

static gboolean
put_cell (Service *service, const char *table, const char *row, const char *value, GError **error)
{
  g_autoptr(GByteArray) table_bytes = bytes (table);
  g_autoptr(GByteArray) row_bytes = bytes (row);
  g_autoptr(GByteArray) family = bytes (FAMILY);
  g_autoptr(GByteArray) qualifier = bytes ("q");
  g_autoptr(GByteArray) value_bytes = bytes (value);
  g_autoptr(HbaseThriftTPut) put = g_object_new (HBASE_THRIFT_TYPE_T_PUT, "row", row_bytes, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  g_ptr_array_add (put->columnValues,
                   g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", family,
                                 "qualifier", qualifier, "value", value_bytes, NULL));
  if (!hbase_thrift_t_h_base_service_if_put (service, table_bytes, put, &io, &call_error))
    return call_failed (error, call_error, io, "put");
  return TRUE;
}

/* Gets f:q of @row; *value is NULL when the row or cell is missing. */
static gboolean
get_cell (Service *service, const char *table, const char *row, char **value, GError **error)
{
  g_autoptr(GByteArray) table_bytes = bytes (table);
  g_autoptr(GByteArray) row_bytes = bytes (row);
  g_autoptr(HbaseThriftTGet) get = g_object_new (HBASE_THRIFT_TYPE_T_GET, "row", row_bytes, NULL);
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  *value = NULL;
  if (!hbase_thrift_t_h_base_service_if_get (service, &result, table_bytes, get, &io, &call_error))
    return call_failed (error, call_error, io, "get");
  for (guint i = 0; i < result->columnValues->len; i++)
    {
      HbaseThriftTColumnValue *cell = g_ptr_array_index (result->columnValues, i);

      if (cell->family->len == 1 && cell->family->data[0] == 'f' &&
          cell->qualifier->len == 1 && cell->qualifier->data[0] == 'q')
        *value = g_strndup ((const char *) cell->value->data, cell->value->len);
    }
  return TRUE;
}

typedef struct {
  char *table;
  char *expected;
  gint invocations;
  char *value;              /* what the get returned */
} RoundTrip;

static RoundTrip *
round_trip_new (const TestGateway *gateway)
{
  RoundTrip *trip = g_new0 (RoundTrip, 1);

  trip->table = test_stack_unique_name ("hbase_glib_client");
  trip->expected = g_strdup_printf ("hello via %s", gateway->label);
  return trip;
}

static void
round_trip_free (RoundTrip *trip)
{
  g_free (trip->table);
  g_free (trip->expected);
  g_free (trip->value);
  g_free (trip);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RoundTrip, round_trip_free)

/* One attempt: create the table, put a row, get it back, drop the table. */
static gboolean
round_trip_once (Service *service, gpointer user_data, GError **error)
{
  RoundTrip *trip = user_data;
  gboolean ok;

  g_atomic_int_inc (&trip->invocations);
  if (!create_table (service, trip->table, error))
    return FALSE;
  g_clear_pointer (&trip->value, g_free);
  ok = put_cell (service, trip->table, "row1", trip->expected, error) &&
       get_cell (service, trip->table, "row1", &trip->value, error);
  if (!drop_table (service, trip->table, ok ? error : NULL))
    return FALSE;
  return ok;
}

static void
test_call (gconstpointer data)
{
  const TestGateway *gateway = data;
  g_autoptr(HBaseClient) client = gateway_client (gateway, 0);
  g_autoptr(RoundTrip) trip = NULL;
  g_autoptr(GError) error = NULL;
  HBaseClientStats stats;

  if (client == NULL)
    return;
  trip = round_trip_new (gateway);
  g_assert_true (hbase_client_call (client, HBASE_CALL_DEFAULT, round_trip_once, trip, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (trip->invocations, ==, 1);
  g_assert_cmpstr (trip->value, ==, trip->expected);
  get_stats (client, &stats);
  g_assert_cmpuint (stats.retries, ==, 0);
  g_assert_cmpuint (stats.idle, ==, 1);
}

/* For the async call: counts how often user_data_free runs. */
static gint user_data_frees;
static GThread *main_thread;

typedef struct {
  gint invocations;
  gboolean exists;
} ExistsCall;

static void
exists_call_free (gpointer data)
{
  g_atomic_int_inc (&user_data_frees);
  g_free (data);
}

/* Whether hbase:meta exists (it always does). */
static gboolean
meta_exists_once (Service *service, gpointer user_data, GError **error)
{
  ExistsCall *call = user_data;
  g_autoptr(GByteArray) ns = bytes ("hbase");
  g_autoptr(GByteArray) qualifier = bytes ("meta");
  g_autoptr(HbaseThriftTTableName) tname =
    g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "ns", ns, "qualifier", qualifier, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  g_atomic_int_inc (&call->invocations);
  /* the call runs in a worker thread, not the caller's */
  g_assert_true (g_thread_self () != main_thread);
  if (!hbase_thrift_t_h_base_service_if_table_exists (service, &call->exists, tname, &io, &call_error))
    return call_failed (error, call_error, io, "tableExists");
  return TRUE;
}

static void
test_call_async (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data, 0);
  g_autoptr(GError) error = NULL;
  ExistsCall *call;
  TestWaiter waiter;
  gint64 until;

  if (client == NULL)
    return;
  g_atomic_int_set (&user_data_frees, 0);
  call = g_new0 (ExistsCall, 1);
  test_waiter_init (&waiter);
  hbase_client_call_async (client, HBASE_CALL_IDEMPOTENT, meta_exists_once, call, exists_call_free,
                           NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_client_call_finish (client, test_waiter_run (&waiter), &error));
  g_assert_no_error (error);
  /* the result is read while the task (and so the user data) still lives */
  g_assert_cmpint (g_atomic_int_get (&call->invocations), ==, 1);
  g_assert_true (call->exists);
  test_waiter_clear (&waiter);

  /* the data is freed once the call is over (the task may be released by
   * the worker thread a moment later), and only once */
  until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (g_atomic_int_get (&user_data_frees) == 0 && g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_cmpint (g_atomic_int_get (&user_data_frees), ==, 1);
  for (int i = 0; i < 20; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }
  g_clear_object (&client);
  g_assert_cmpint (g_atomic_int_get (&user_data_frees), ==, 1);
}

/* --- the pool ------------------------------------------------------------------------------------- */

#define POOL_THREADS 8
#define POOL_PINGS 20

static gint pool_failures;

static gpointer
pinger (gpointer data)
{
  HBaseClient *client = data;

  for (int i = 0; i < POOL_PINGS; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!hbase_client_ping (client, NULL, &error))
        {
          g_printerr ("ping failed: %s\n", error->message);
          g_atomic_int_inc (&pool_failures);
        }
    }
  return NULL;
}

static void
test_pool (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data, 2);
  GThread *threads[POOL_THREADS];
  HBaseClientStats stats;

  if (client == NULL)
    return;
  g_atomic_int_set (&pool_failures, 0);
  for (int i = 0; i < POOL_THREADS; i++)
    threads[i] = g_thread_new ("pinger", pinger, client);
  for (int i = 0; i < POOL_THREADS; i++)
    g_thread_join (threads[i]);

  g_assert_cmpint (g_atomic_int_get (&pool_failures), ==, 0);
  get_stats (client, &stats);
  g_test_message ("opened %" G_GUINT64_FORMAT ", open %u, idle %u", stats.connections_opened,
                  stats.open, stats.idle);
  g_assert_cmpuint (stats.open, <=, 2);
  g_assert_cmpuint (stats.connections_opened, <=, 2);
  g_assert_cmpuint (stats.connections_opened, >=, 1);
  g_assert_cmpuint (stats.idle, ==, stats.open);
  g_assert_cmpuint (stats.connections_discarded, ==, 0);
  g_assert_cmpuint (stats.retries, ==, 0);
}

/* --- retry rules ---------------------------------------------------------------------------------- */

typedef struct {
  gint invocations;
  gboolean ping_first;      /* make a real call (send a request) before failing */
  gint failures;            /* fail the first N invocations */
  HBaseError code;      /* with this error */
} Flaky;

static gboolean
flaky_once (Service *service, gpointer user_data, GError **error)
{
  Flaky *flaky = user_data;
  gint n = g_atomic_int_add (&flaky->invocations, 1) + 1;

  if (flaky->ping_first)
    {
      HbaseThriftTThriftServerType type = 0;
      GError *call_error = NULL;

      if (!hbase_thrift_t_h_base_service_if_get_thrift_server_type (service, &type, &call_error))
        return call_failed (error, call_error, NULL, "getThriftServerType");
      g_assert_cmpint (type, ==, HBASE_THRIFT_T_THRIFT_SERVER_TYPE_TWO);
    }
  if (n <= flaky->failures)
    {
      g_set_error (error, HBASE_ERROR, flaky->code, "injected failure %d", n);
      return FALSE;
    }
  return TRUE;
}

/* Runs a Flaky call on a new client of @gateway; returns the call's
 * outcome, with the invocation count and the client's stats. */
static gboolean
run_flaky (const TestGateway *gateway, HBaseCallFlags flags, gboolean ping_first, gint failures,
           HBaseError code, guint max_attempts, gint *invocations, HBaseClientStats *stats,
           GError **error)
{
  g_autoptr(HBaseConfig) config = gateway_config (gateway);
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) local = NULL;
  Flaky flaky = { 0, ping_first, failures, code };
  gboolean ok;

  g_assert_true (hbase_config_set_max_attempts (config, max_attempts, &local));
  g_assert_true (hbase_config_set_retry_backoff (config, 20, 50, &local));
  g_assert_no_error (local);
  client = client_new_from (config);
  ok = hbase_client_call (client, flags, flaky_once, &flaky, NULL, error);
  *invocations = flaky.invocations;
  get_stats (client, stats);
  return ok;
}

static void
test_no_retry_illegal_argument (gconstpointer data)
{
  const TestGateway *gateway = data;
  g_autoptr(HBaseConfig) config = gateway_config (gateway);
  g_autoptr(GError) error = NULL;
  HBaseClientStats stats;
  gint invocations;

  if (!stack_reachable (config))
    return;
  /* not even an idempotent call is repeated: the request itself is wrong */
  g_assert_false (run_flaky (gateway, HBASE_CALL_IDEMPOTENT, FALSE, 100,
                             HBASE_ERROR_ILLEGAL_ARGUMENT, 6, &invocations, &stats, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_cmpint (invocations, ==, 1);
  g_assert_cmpuint (stats.retries, ==, 0);
  /* the connection is fine: back in the pool */
  g_assert_cmpuint (stats.connections_discarded, ==, 0);
  g_assert_cmpuint (stats.idle, ==, 1);
  g_clear_error (&error);

  /* with a request sent first, too */
  g_assert_false (run_flaky (gateway, HBASE_CALL_IDEMPOTENT, TRUE, 100,
                             HBASE_ERROR_ILLEGAL_ARGUMENT, 6, &invocations, &stats, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_cmpint (invocations, ==, 1);
  g_assert_cmpuint (stats.retries, ==, 0);
}

static void
test_retry_connection_error (gconstpointer data)
{
  const TestGateway *gateway = data;
  g_autoptr(HBaseConfig) config = gateway_config (gateway);
  HBaseClientStats stats;
  gint invocations;

  if (!stack_reachable (config))
    return;

  /* nothing was sent by the failed attempt: retried, idempotent or not */
  for (int idempotent = 0; idempotent <= 1; idempotent++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (run_flaky (gateway, idempotent ? HBASE_CALL_IDEMPOTENT : HBASE_CALL_DEFAULT,
                                FALSE, 1, HBASE_ERROR_CONNECTION, 6, &invocations, &stats, &error));
      g_assert_no_error (error);
      g_assert_cmpint (invocations, ==, 2);
      g_assert_cmpuint (stats.retries, ==, 1);
      /* a connection error closes the connection */
      g_assert_cmpuint (stats.connections_discarded, ==, 1);
      g_assert_cmpuint (stats.connections_opened, ==, 2);
      g_assert_cmpuint (stats.open, ==, 1);
    }

  /* a request went out before the failure: only an idempotent call is
   * sent again */
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (run_flaky (gateway, HBASE_CALL_DEFAULT, TRUE, 1, HBASE_ERROR_CONNECTION, 6,
                               &invocations, &stats, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
    g_assert_cmpint (invocations, ==, 1);
    g_assert_cmpuint (stats.retries, ==, 0);
    g_assert_cmpuint (stats.connections_discarded, ==, 1);
    g_assert_cmpuint (stats.open, ==, 0);
  }
  {
    g_autoptr(GError) error = NULL;

    g_assert_true (run_flaky (gateway, HBASE_CALL_IDEMPOTENT, TRUE, 1, HBASE_ERROR_CONNECTION, 6,
                              &invocations, &stats, &error));
    g_assert_no_error (error);
    g_assert_cmpint (invocations, ==, 2);
    g_assert_cmpuint (stats.retries, ==, 1);
  }

  /* attempts are bounded, and the error says how many were made */
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (run_flaky (gateway, HBASE_CALL_IDEMPOTENT, TRUE, 100, HBASE_ERROR_CONNECTION, 3,
                               &invocations, &stats, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
    g_assert_cmpint (invocations, ==, 3);
    g_assert_cmpuint (stats.retries, ==, 2);
    g_assert_nonnull (strstr (error->message, "after 3 attempts"));
    g_assert_nonnull (strstr (error->message, "injected failure 3"));
  }
}

typedef struct {
  gint invocations;
} MissingTable;

static gboolean
get_missing_table_once (Service *service, gpointer user_data, GError **error)
{
  MissingTable *missing = user_data;
  g_autofree char *value = NULL;

  g_atomic_int_inc (&missing->invocations);
  return get_cell (service, "hbase_glib_no_such_table", "row", &value, error);
}

static void
test_missing_table (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data, 0);
  g_autoptr(GError) error = NULL;
  MissingTable missing = { 0 };
  HBaseClientStats stats;

  if (client == NULL)
    return;
  /* idempotent, yet not retried: HBase says canRetry=false */
  g_assert_false (hbase_client_call (client, HBASE_CALL_IDEMPOTENT, get_missing_table_once, &missing,
                                     NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_assert_false (hbase_error_get_can_retry (error));
  g_assert_nonnull (strstr (error->message, "hbase_glib_no_such_table"));
  g_assert_cmpint (missing.invocations, ==, 1);
  get_stats (client, &stats);
  g_assert_cmpuint (stats.retries, ==, 0);
  /* an HBase error leaves the connection usable */
  g_assert_cmpuint (stats.connections_discarded, ==, 0);
  g_assert_cmpuint (stats.idle, ==, 1);
}

/* --- defaults ------------------------------------------------------------------------------------- */

static void
test_new_with_defaults (void)
{
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  const HBaseConfig *config;

  client = hbase_client_new (NULL);
  g_assert_no_error (error);
  g_assert_nonnull (client);
  config = hbase_client_get_config (client);
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 1);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "localhost");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 0), ==, 9090);
  g_assert_cmpint (hbase_config_get_protocol (config), ==, HBASE_PROTOCOL_BINARY);
  g_assert_cmpint (hbase_config_get_transport (config), ==, HBASE_TRANSPORT_BUFFERED);
  if (!stack_reachable (config))
    return;
  g_assert_true (hbase_client_ping (client, NULL, &error));
  g_assert_no_error (error);
}

/* A client made by g_object_new() takes its settings from the "config"
 * property (copied), or the defaults of hbase_config_new() without it; the
 * last reference (g_object_unref()) frees it. */
static void
test_config_property (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseConfig) read_back = NULL;
  g_autoptr(GError) error = NULL;
  HBaseClient *client, *bare, *watch;

  g_assert_true (hbase_config_set_gateways (config, "127.0.0.1:9092", &error));
  g_assert_no_error (error);
  g_assert_true (hbase_config_set_transport (config, HBASE_TRANSPORT_FRAMED, &error));
  g_assert_no_error (error);
  client = g_object_new (HBASE_TYPE_CLIENT, "config", config, NULL);
  g_assert_true (hbase_client_get_config (client) != config);
  g_assert_cmpuint (hbase_config_get_gateway_port (hbase_client_get_config (client), 0), ==, 9092);
  g_object_get (client, "config", &read_back, NULL);
  g_assert_cmpint (hbase_config_get_transport (read_back), ==, HBASE_TRANSPORT_FRAMED);

  bare = g_object_new (HBASE_TYPE_CLIENT, NULL);
  g_assert_cmpstr (hbase_config_get_gateway_host (hbase_client_get_config (bare), 0), ==, "localhost");
  g_assert_cmpuint (hbase_config_get_gateway_port (hbase_client_get_config (bare), 0), ==, 9090);
  if (stack_reachable (hbase_client_get_config (bare)))
    {
      g_assert_true (hbase_client_ping (bare, NULL, &error));
      g_assert_no_error (error);
    }
  g_object_unref (bare);

  watch = client;
  g_object_add_weak_pointer (G_OBJECT (client), (gpointer *) &watch);
  g_object_unref (client);
  g_assert_null (watch);
}

static void
test_default_client (void)
{
  g_autoptr(HBaseClient) first = NULL;
  g_autoptr(HBaseClient) again = NULL;
  g_autoptr(HBaseClient) fresh = NULL;
  g_autoptr(GError) error = NULL;
  HBaseClient *watch;

  hbase_client_release_default ();
  first = hbase_client_get_default (&error);
  g_assert_no_error (error);
  g_assert_nonnull (first);
  again = hbase_client_get_default (&error);
  g_assert_no_error (error);
  g_assert_true (first == again);
  g_clear_object (&again);

  /* it reads the environment main() set */
  g_assert_cmpuint (hbase_config_get_n_gateways (hbase_client_get_config (first)), ==, 1);
  g_assert_cmpstr (hbase_config_get_gateway_host (hbase_client_get_config (first), 0), ==, "127.0.0.1");
  g_assert_cmpuint (hbase_config_get_gateway_port (hbase_client_get_config (first), 0), ==, 9090);
  if (!stack_reachable (hbase_client_get_config (first)))
    {
      hbase_client_release_default ();
      return;
    }
  g_assert_true (hbase_client_ping (first, NULL, &error));
  g_assert_no_error (error);

  /* released: our reference still works, and the next get makes a new one */
  hbase_client_release_default ();
  fresh = hbase_client_get_default (&error);
  g_assert_no_error (error);
  g_assert_nonnull (fresh);
  g_assert_true (fresh != first);
  g_assert_true (hbase_client_ping (first, NULL, &error));
  g_assert_true (hbase_client_ping (fresh, NULL, &error));
  g_assert_no_error (error);

  /* the released client goes when its last holder drops it */
  watch = first;
  g_object_add_weak_pointer (G_OBJECT (watch), (gpointer *) &watch);
  g_clear_object (&first);
  g_assert_null (watch);

  g_clear_object (&fresh);
  hbase_client_release_default ();
}

static void
test_bad_environment (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("HBASE_GLIB_POOL_SIZE"));
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;

  hbase_client_release_default ();
  g_assert_true (g_setenv ("HBASE_GLIB_POOL_SIZE", "0", TRUE));

  /* every call says why */
  for (int i = 0; i < 2; i++)
    {
      client = hbase_client_get_default (&error);
      g_assert_null (client);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "HBASE_GLIB_POOL_SIZE"));
      g_test_message ("%s", error->message);
      g_clear_error (&error);
    }

  if (saved != NULL)
    g_assert_true (g_setenv ("HBASE_GLIB_POOL_SIZE", saved, TRUE));
  else
    g_unsetenv ("HBASE_GLIB_POOL_SIZE");

  /* with the environment fixed, the default client comes back */
  client = hbase_client_get_default (&error);
  g_assert_no_error (error);
  g_assert_nonnull (client);
  g_clear_object (&client);
  hbase_client_release_default ();
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) gateways = NULL;

  /* The default client reads the environment: point it at the stack's
   * binary/buffered gateway, whatever the caller's shell says. */
  g_setenv ("HBASE_GLIB_GATEWAYS", "127.0.0.1:9090", TRUE);
  g_unsetenv ("HBASE_GLIB_PROTOCOL");
  g_unsetenv ("HBASE_GLIB_TRANSPORT");
  g_unsetenv ("HBASE_GLIB_CONFIG");

  g_test_init (&argc, &argv, NULL);
  main_thread = g_thread_self ();
  gateways = test_stack_gateways ();

  g_test_add_func ("/integration/client/new-with-defaults", test_new_with_defaults);
  g_test_add_func ("/integration/client/config-property", test_config_property);
  g_test_add_func ("/integration/client/default", test_default_client);
  g_test_add_func ("/integration/client/bad-environment", test_bad_environment);

  for (guint i = 0; i < gateways->len; i++)
    {
      const TestGateway *gateway = gateways->pdata[i];
      const struct {
        const char *name;
        GTestDataFunc func;
      } tests[] = {
        { "ping", test_ping },
        { "list-namespaces", test_list_namespaces },
        { "async", test_async },
        { "call", test_call },
        { "call-async", test_call_async },
        { "pool", test_pool },
        { "no-retry-illegal-argument", test_no_retry_illegal_argument },
        { "retry-connection-error", test_retry_connection_error },
        { "missing-table", test_missing_table },
      };

      for (guint j = 0; j < G_N_ELEMENTS (tests); j++)
        {
          g_autofree char *path = g_strdup_printf ("/integration/client/%s/%s", gateway->label,
                                                   tests[j].name);

          g_test_add_data_func (path, gateway, tests[j].func);
        }
    }
  return g_test_run ();
}
