/* SPDX-License-Identifier: Apache-2.0 */
/* Integration tests of HBaseClient's reliability against the real stack:
 * idle sockets the gateway closed, a gateway restarted under load, the
 * shared default client from many threads, deadlines against a peer that
 * never answers, protocol/transport mismatches, cancellation and failover.
 *
 * Gateways (see scripts/stack.sh): the first of HBASE_GLIB_TEST_GATEWAYS
 * (127.0.0.1:9090 binary/buffered) for ordinary calls, the compact and
 * framed ones for the mismatch tests, 127.0.0.1:9094 (closes sockets idle
 * for 2 s; HBASE_GLIB_TEST_IDLE_GATEWAY) and 127.0.0.1:9095 (restarted by
 * the restart test; HBASE_GLIB_TEST_RESTART_GATEWAY).
 *
 * Long because: its cases share the gateways that misbehave (idle close,
 * restart, silence) and the fixtures that drive them. */
#include "config.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "../support/test-stack.h"

#define FAMILY "f"
#define QUALIFIER "q"

#define IDLE_GATEWAY_DEFAULT "127.0.0.1:9094:binary:buffered"
#define IDLE_GATEWAY_IDLE_MS 2000
#define RESTART_GATEWAY_DEFAULT "127.0.0.1:9095:binary:buffered"

typedef HbaseThriftTHBaseServiceIf Service;

static GPtrArray *gateways;               /* test_stack_gateways () */
static const TestGateway *main_gateway;   /* its first: 127.0.0.1:9090 binary/buffered */
static TestGateway *idle_gateway;
static TestGateway *restart_gateway;

/* --- small helpers ------------------------------------------------------------ */

static GByteArray *
bytes (const char *text)
{
  GByteArray *array = g_byte_array_new ();

  return g_byte_array_append (array, (const guint8 *) text, strlen (text));
}

static gboolean
bytes_equal (const GByteArray *array, const char *text)
{
  return array != NULL && array->len == strlen (text) && memcmp (array->data, text, array->len) == 0;
}

static gint64
elapsed_ms (gint64 since)
{
  return (g_get_monotonic_time () - since) / 1000;
}

static char *
gateway_address (const TestGateway *gateway)
{
  return g_strdup_printf (strchr (gateway->host, ':') != NULL ? "[%s]:%u" : "%s:%u",
                          gateway->host, gateway->port);
}

static HBaseClient *
new_client (const HBaseConfig *config)
{
  g_autoptr(GError) error = NULL;
  HBaseClient *client = hbase_client_new (config);

  g_assert_no_error (error);
  g_assert_nonnull (client);
  return client;
}

static void
set_timeouts (HBaseConfig *config, guint operation_ms, guint attempts)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_operation_timeout (config, operation_ms, &error));
  g_assert_no_error (error);
  g_assert_true (hbase_config_set_max_attempts (config, attempts, &error));
  g_assert_no_error (error);
}

/* A loopback socket that listens and never accepts or answers: the kernel
 * completes the TCP handshake, then nothing ever comes back. */
typedef struct {
  int fd;
  guint port;
} BlackHole;

static void
black_hole_open (BlackHole *hole)
{
  struct sockaddr_in addr = { 0 };
  socklen_t len = sizeof addr;

  hole->fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (hole->fd, >=, 0);
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (hole->fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (hole->fd, 16), ==, 0);
  g_assert_cmpint (getsockname (hole->fd, (struct sockaddr *) &addr, &len), ==, 0);
  hole->port = ntohs (addr.sin_port);
}

static void
black_hole_close (BlackHole *hole)
{
  if (hole->fd >= 0)
    close (hole->fd);
  hole->fd = -1;
}

static HBaseConfig *
black_hole_config (const BlackHole *hole, guint operation_ms, guint attempts)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = g_strdup_printf ("127.0.0.1:%u", hole->port);

  g_assert_true (hbase_config_set_gateways (config, spec, &error));
  g_assert_no_error (error);
  set_timeouts (config, operation_ms, attempts);
  return g_steal_pointer (&config);
}

/* --- calls through the generated layer ------------------------------------------------- */

static void
create_table (HBaseClient *client, const char *name)
{
  g_autoptr(GError) error = NULL;

  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;

  family.name = FAMILY;
  hbase_client_create_table (client, name, &family, 1, NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
drop_table (HBaseClient *client, const char *name)
{
  g_autoptr(GError) error = NULL;

  hbase_client_delete_table (client, name, NULL, &error);
  g_assert_no_error (error);
}

/* One cell f:q of a row; get_once stores what it read in @found. */
typedef struct {
  const char *table;
  char row[48];
  char value[48];
  GByteArray *found;
} Cell;

static gboolean
put_once (Service *service, gpointer user_data, GError **error)
{
  const Cell *cell = user_data;
  g_autoptr(GByteArray) table = bytes (cell->table);
  g_autoptr(GByteArray) row = bytes (cell->row);
  g_autoptr(GByteArray) family = bytes (FAMILY);
  g_autoptr(GByteArray) qualifier = bytes (QUALIFIER);
  g_autoptr(GByteArray) value = bytes (cell->value);
  g_autoptr(HbaseThriftTPut) put = g_object_new (HBASE_THRIFT_TYPE_T_PUT, "row", row, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  g_ptr_array_add (put->columnValues,
                   g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", family,
                                 "qualifier", qualifier, "value", value, NULL));
  if (!hbase_thrift_t_h_base_service_if_put (service, table, put, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

/* The value of f:q in @result, or NULL. */
static GByteArray *
result_value (HbaseThriftTResult *result)
{
  for (guint i = 0; i < result->columnValues->len; i++)
    {
      HbaseThriftTColumnValue *cell = g_ptr_array_index (result->columnValues, i);

      if (bytes_equal (cell->family, FAMILY) && bytes_equal (cell->qualifier, QUALIFIER))
        return cell->value;
    }
  return NULL;
}

static gboolean
get_once (Service *service, gpointer user_data, GError **error)
{
  Cell *cell = user_data;
  g_autoptr(GByteArray) table = bytes (cell->table);
  g_autoptr(GByteArray) row = bytes (cell->row);
  g_autoptr(HbaseThriftTGet) get = g_object_new (HBASE_THRIFT_TYPE_T_GET, "row", row, NULL);
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  GByteArray *value;

  if (!hbase_thrift_t_h_base_service_if_get (service, &result, table, get, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  g_clear_pointer (&cell->found, g_byte_array_unref);
  value = result_value (result);
  if (value != NULL)
    cell->found = g_byte_array_ref (value);
  return TRUE;
}

/* Rows "row0000" .. of a table, read with one getMultiple. */
typedef struct {
  const char *table;
  guint n_rows;
  GPtrArray *results;   /* HbaseThriftTResult *, one per row */
} ReadBack;

static char *
row_key (guint i)
{
  return g_strdup_printf ("row%04u", i);
}

static gboolean
get_multiple_once (Service *service, gpointer user_data, GError **error)
{
  ReadBack *read = user_data;
  g_autoptr(GByteArray) table = bytes (read->table);
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  for (guint i = 0; i < read->n_rows; i++)
    {
      g_autofree char *key = row_key (i);
      g_autoptr(GByteArray) row = bytes (key);

      g_ptr_array_add (gets, g_object_new (HBASE_THRIFT_TYPE_T_GET, "row", row, NULL));
    }
  if (!hbase_thrift_t_h_base_service_if_get_multiple (service, &results, table, gets, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  g_clear_pointer (&read->results, g_ptr_array_unref);
  read->results = g_steal_pointer (&results);
  return TRUE;
}

/* --- 1. idle-reconnect ------------------------------------------------------------------ */

/* A plain TCP connection to @gateway, to watch the gateway close it; -1
 * when it cannot be made. */
static int
raw_connect (const TestGateway *gateway)
{
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
  struct addrinfo *addresses = NULL;
  g_autofree char *service = g_strdup_printf ("%u", gateway->port);
  int fd = -1;

  if (getaddrinfo (gateway->host, service, &hints, &addresses) != 0)
    return -1;
  for (struct addrinfo *ai = addresses; ai != NULL && fd < 0; ai = ai->ai_next)
    {
      fd = socket (ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
      if (fd >= 0 && connect (fd, ai->ai_addr, ai->ai_addrlen) != 0)
        {
          close (fd);
          fd = -1;
        }
    }
  freeaddrinfo (addresses);
  return fd;
}

/* TRUE when the peer closed @fd (end of stream or reset). */
static gboolean
raw_closed_by_peer (int fd)
{
  struct pollfd pfd = { .fd = fd, .events = POLLIN };
  char byte;

  if (poll (&pfd, 1, 0) <= 0)
    return FALSE;
  return recv (fd, &byte, 1, MSG_DONTWAIT) <= 0;
}

static void
test_idle_reconnect (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  HBaseClientStats before, after;
  gboolean witness_closed;
  int witness;

  if (!test_stack_check_gateway (idle_gateway))
    return;
  config = test_stack_config (idle_gateway);
  client = new_client (config);

  g_assert_true (hbase_client_ping (client, NULL, &error));
  g_assert_no_error (error);
  hbase_client_get_stats (client, &before);
  g_assert_cmpuint (before.connections_opened, ==, 1);
  g_assert_cmpuint (before.connections_reopened, ==, 0);
  g_assert_cmpuint (before.idle, ==, 1);

  /* A second, raw connection shows that the gateway really closes idle
   * sockets, so a failure below is the client's. */
  witness = raw_connect (idle_gateway);
  g_assert_cmpint (witness, >=, 0);
  g_usleep ((IDLE_GATEWAY_IDLE_MS + 1000) * G_TIME_SPAN_MILLISECOND);
  witness_closed = raw_closed_by_peer (witness);
  close (witness);
  if (!witness_closed)
    {
      g_test_message ("gateway %s:%u kept a socket idle for %d ms open: start it with an idle "
                      "timeout of %d ms (scripts/stack.sh, 9094:binary:buffered:2000)",
                      idle_gateway->host, idle_gateway->port, IDLE_GATEWAY_IDLE_MS + 1000,
                      IDLE_GATEWAY_IDLE_MS);
      g_test_fail ();
      return;
    }

  g_assert_true (hbase_client_ping (client, NULL, &error));
  g_assert_no_error (error);
  hbase_client_get_stats (client, &after);
  g_test_message ("stats: opened %" G_GUINT64_FORMAT ", reopened %" G_GUINT64_FORMAT
                  ", discarded %" G_GUINT64_FORMAT ", retries %" G_GUINT64_FORMAT,
                  after.connections_opened, after.connections_reopened,
                  after.connections_discarded, after.retries);
  /* the pool noticed the closed socket before use and replaced it, without
   * a failed attempt */
  g_assert_cmpuint (after.connections_reopened, >=, 1);
  g_assert_cmpuint (after.retries, ==, before.retries);
  g_assert_cmpuint (after.open, ==, 1);
  g_assert_cmpuint (after.idle, ==, 1);
}

/* --- 2. gateway-restart ---------------------------------------------------------------- */

#define RESTART_ROWS 300
#define RESTART_AFTER_ROWS 30

typedef struct {
  HBaseClient *client;
  const char *table;
  gint written;          /* puts returned, successful or not (atomic) */
  gint restart_over;     /* the main thread finished the restart (atomic) */
  gint failures;         /* puts that returned an error (atomic) */
  GMutex lock;
  GString *first_errors; /* under lock */
} Writer;

static gpointer
writer_thread (gpointer data)
{
  Writer *writer = data;

  for (guint i = 0; i < RESTART_ROWS; i++)
    {
      Cell cell = { .table = writer->table };
      g_autoptr(GError) error = NULL;

      g_snprintf (cell.row, sizeof cell.row, "row%04u", i);
      g_snprintf (cell.value, sizeof cell.value, "%u", i);
      if (!hbase_client_call (writer->client, HBASE_CALL_IDEMPOTENT, put_once, &cell, NULL, &error))
        {
          g_atomic_int_inc (&writer->failures);
          g_mutex_lock (&writer->lock);
          if (writer->first_errors->len < 2000)
            g_string_append_printf (writer->first_errors, "put %s: %s\n", cell.row, error->message);
          g_mutex_unlock (&writer->lock);
        }
      g_atomic_int_inc (&writer->written);
      /* pace the writes until the restart is over, so they span it */
      if (!g_atomic_int_get (&writer->restart_over))
        g_usleep (20 * G_TIME_SPAN_MILLISECOND);
    }
  return NULL;
}

static void
test_gateway_restart (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) restart_error = NULL;
  g_autofree char *table = NULL;
  g_autofree char *script = NULL;
  ReadBack read = { 0 };
  Writer writer = { 0 };
  HBaseClientStats stats;
  GThread *thread;
  gint64 t0, restart_ms;
  gint written_before, written_after;
  guint missing = 0;
  gboolean restarted;

  if (!test_stack_check_gateway (restart_gateway))
    return;
  script = test_stack_script (&error);
  if (script == NULL)
    {
      test_stack_unreachable (error->message);   /* a failure under CI */
      return;
    }
  config = test_stack_config (restart_gateway);
  set_timeouts (config, 60000, 100);
  g_assert_true (hbase_config_set_retry_backoff (config, 100, 1000, &error));
  g_assert_no_error (error);
  client = new_client (config);

  table = test_stack_unique_name ("reliability_restart");
  create_table (client, table);

  writer.client = client;
  writer.table = table;
  writer.first_errors = g_string_new (NULL);
  g_mutex_init (&writer.lock);
  thread = g_thread_new ("writer", writer_thread, &writer);

  t0 = g_get_monotonic_time ();
  while (g_atomic_int_get (&writer.written) < RESTART_AFTER_ROWS && elapsed_ms (t0) < 30000)
    g_usleep (5 * G_TIME_SPAN_MILLISECOND);
  written_before = g_atomic_int_get (&writer.written);

  t0 = g_get_monotonic_time ();
  restarted = test_stack_restart_gateway (restart_gateway->port, &restart_error);
  restart_ms = elapsed_ms (t0);
  written_after = g_atomic_int_get (&writer.written);
  g_atomic_int_set (&writer.restart_over, 1);
  g_thread_join (thread);
  g_mutex_clear (&writer.lock);

  hbase_client_get_stats (client, &stats);
  g_test_message ("restart of %s:%u took %" G_GINT64_FORMAT " ms; puts done before it %d, "
                  "after it %d of %d; stats: opened %" G_GUINT64_FORMAT ", reopened %"
                  G_GUINT64_FORMAT ", discarded %" G_GUINT64_FORMAT ", retries %" G_GUINT64_FORMAT,
                  restart_gateway->host, restart_gateway->port, restart_ms, written_before,
                  written_after, RESTART_ROWS, stats.connections_opened,
                  stats.connections_reopened, stats.connections_discarded, stats.retries);
  if (!restarted)
    {
      if (g_atomic_int_get (&writer.failures) == 0)
        drop_table (client, table);
      g_string_free (writer.first_errors, TRUE);
      if (g_error_matches (restart_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        test_stack_unreachable (restart_error->message);   /* a failure under CI */
      else
        {
          g_test_message ("%s", restart_error->message);
          g_test_fail ();
        }
      return;
    }

  if (g_atomic_int_get (&writer.failures) != 0)
    g_error ("%d of %d puts failed across the gateway restart:\n%s",
             g_atomic_int_get (&writer.failures), RESTART_ROWS, writer.first_errors->str);
  g_string_free (writer.first_errors, TRUE);
  /* the writes spanned the restart */
  g_assert_cmpint (written_after, <, RESTART_ROWS);
  /* the restart was noticed: calls failed and were retried, or broken
   * connections were dropped */
  g_assert_true (stats.retries > 0 || stats.connections_discarded > 0);

  /* no put was lost */
  read.table = table;
  read.n_rows = RESTART_ROWS;
  hbase_client_call (client, HBASE_CALL_IDEMPOTENT, get_multiple_once, &read, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (read.results);
  g_assert_cmpuint (read.results->len, ==, RESTART_ROWS);
  for (guint i = 0; i < RESTART_ROWS; i++)
    {
      HbaseThriftTResult *result = read.results->pdata[i];
      g_autofree char *key = row_key (i);
      g_autofree char *expected = g_strdup_printf ("%u", i);

      if (!bytes_equal (result->row, key) || !bytes_equal (result_value (result), expected))
        {
          g_test_message ("row %s: missing or wrong value", key);
          missing++;
        }
    }
  g_ptr_array_unref (read.results);
  drop_table (client, table);
  g_assert_cmpuint (missing, ==, 0);
}

/* --- 3. default-client-16-threads --------------------------------------------------------- */

#define DEFAULT_THREADS 16
#define DEFAULT_PAIRS 100

typedef struct {
  const char *table;
  guint index;
  HBaseClient *seen;     /* the default client this thread got */
  guint failures;
  char *first_error;
} DefaultWorker;

static gpointer
default_worker_thread (gpointer data)
{
  DefaultWorker *worker = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = hbase_client_get_default (&error);

  if (client == NULL)
    {
      worker->failures = DEFAULT_PAIRS;
      worker->first_error = g_strdup_printf ("hbase_client_get_default: %s", error->message);
      return NULL;
    }
  worker->seen = client;
  for (guint j = 0; j < DEFAULT_PAIRS; j++)
    {
      Cell cell = { .table = worker->table };
      char *problem = NULL;

      g_snprintf (cell.row, sizeof cell.row, "t%02u-r%03u", worker->index, j);
      g_snprintf (cell.value, sizeof cell.value, "value of thread %u pair %u", worker->index, j);
      if (!hbase_client_call (client, HBASE_CALL_IDEMPOTENT, put_once, &cell, NULL, &error))
        problem = g_strdup_printf ("put %s: %s", cell.row, error->message);
      else if (!hbase_client_call (client, HBASE_CALL_IDEMPOTENT, get_once, &cell, NULL, &error))
        problem = g_strdup_printf ("get %s: %s", cell.row, error->message);
      else if (!bytes_equal (cell.found, cell.value))
        problem = g_strdup_printf ("row %s read back %s", cell.row,
                                   cell.found != NULL ? "another value" : "nothing");
      if (problem != NULL)
        {
          worker->failures++;
          if (worker->first_error == NULL)
            worker->first_error = g_steal_pointer (&problem);
          g_free (problem);
        }
      g_clear_error (&error);
      g_clear_pointer (&cell.found, g_byte_array_unref);
    }
  return NULL;
}

static void
test_default_client_threads (void)
{
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *table = NULL;
  DefaultWorker workers[DEFAULT_THREADS] = { 0 };
  GThread *threads[DEFAULT_THREADS];
  HBaseClientStats stats;
  const HBaseConfig *config;
  guint failures = 0;
  gint64 t0;

  if (!test_stack_check_gateway (main_gateway))
    return;
  client = hbase_client_get_default (&error);
  g_assert_no_error (error);
  g_assert_nonnull (client);
  /* it was made from the environment main() set */
  config = hbase_client_get_config (client);
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 1);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, main_gateway->host);
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 0), ==, main_gateway->port);
  g_assert_cmpint (hbase_config_get_protocol (config), ==, main_gateway->protocol);
  g_assert_cmpint (hbase_config_get_transport (config), ==, main_gateway->transport);

  table = test_stack_unique_name ("reliability_default");
  create_table (client, table);

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < DEFAULT_THREADS; i++)
    {
      workers[i].table = table;
      workers[i].index = i;
      threads[i] = g_thread_new ("default-client", default_worker_thread, &workers[i]);
    }
  for (guint i = 0; i < DEFAULT_THREADS; i++)
    g_thread_join (threads[i]);

  hbase_client_get_stats (client, &stats);
  g_test_message ("%d threads x %d put+get pairs in %" G_GINT64_FORMAT " ms; stats: opened %"
                  G_GUINT64_FORMAT ", discarded %" G_GUINT64_FORMAT ", retries %" G_GUINT64_FORMAT
                  ", open %u, idle %u, pool size %u",
                  DEFAULT_THREADS, DEFAULT_PAIRS, elapsed_ms (t0), stats.connections_opened,
                  stats.connections_discarded, stats.retries, stats.open, stats.idle,
                  hbase_config_get_pool_size (config));
  for (guint i = 0; i < DEFAULT_THREADS; i++)
    {
      if (workers[i].failures > 0)
        g_test_message ("thread %u: %u failures, first: %s", i, workers[i].failures,
                        workers[i].first_error);
      failures += workers[i].failures;
      g_free (workers[i].first_error);
    }
  drop_table (client, table);

  g_assert_cmpuint (failures, ==, 0);
  /* every thread shared the one default client and its bounded pool */
  for (guint i = 0; i < DEFAULT_THREADS; i++)
    g_assert_true (workers[i].seen == client);
  g_assert_cmpuint (stats.open, <=, hbase_config_get_pool_size (config));
  g_assert_cmpuint (stats.connections_opened, <=, hbase_config_get_pool_size (config));
  g_assert_cmpuint (stats.connections_discarded, ==, 0);

  g_clear_object (&client);
  hbase_client_release_default ();
}

/* --- 4. black-hole-timeout ------------------------------------------------------------------ */

static void
test_black_hole_timeout (void)
{
  BlackHole hole;
  gint64 t0, took;

  black_hole_open (&hole);

  /* one attempt: the operation timeout ends it */
  {
    g_autoptr(HBaseConfig) config = black_hole_config (&hole, 500, 1);
    g_autoptr(HBaseClient) client = new_client (config);
    g_autoptr(GError) error = NULL;

    t0 = g_get_monotonic_time ();
    g_assert_false (hbase_client_ping (client, NULL, &error));
    took = elapsed_ms (t0);
    g_test_message ("1 attempt: %" G_GINT64_FORMAT " ms: %s", took, error ? error->message : "");
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
    g_assert_cmpint (took, <, 3000);
  }

  /* three attempts: still one deadline for the whole operation */
  {
    g_autoptr(HBaseConfig) config = black_hole_config (&hole, 500, 3);
    g_autoptr(HBaseClient) client = new_client (config);
    g_autoptr(GError) error = NULL;

    t0 = g_get_monotonic_time ();
    g_assert_false (hbase_client_ping (client, NULL, &error));
    took = elapsed_ms (t0);
    g_test_message ("3 attempts: %" G_GINT64_FORMAT " ms: %s", took, error ? error->message : "");
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
    g_assert_cmpint (took, >=, 450);
    g_assert_cmpint (took, <, 1000);
  }

  black_hole_close (&hole);
}

/* --- 5. wrong-protocol, wrong-transport ------------------------------------------------------- */

/* A client speaking @protocol/@transport to a gateway that speaks another
 * fails within 5 s, and says what may be wrong. */
static void
check_mismatch (HBaseProtocol gateway_protocol, HBaseTransport gateway_transport,
                HBaseProtocol protocol, HBaseTransport transport)
{
  const TestGateway *gateway = test_stack_require_gateway (gateways, gateway_protocol,
                                                           gateway_transport);
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *lower = NULL;
  gint64 t0, took;

  if (gateway == NULL || !test_stack_check_gateway (gateway))
    return;

  config = test_stack_config (gateway);
  g_assert_true (hbase_config_set_protocol (config, protocol, &error));
  g_assert_true (hbase_config_set_transport (config, transport, &error));
  g_assert_no_error (error);
  set_timeouts (config, 3000, hbase_config_get_max_attempts (config));
  client = new_client (config);

  t0 = g_get_monotonic_time ();
  g_assert_false (hbase_client_ping (client, NULL, &error));
  took = elapsed_ms (t0);
  g_test_message ("%s/%s client, %s:%u %s gateway: %" G_GINT64_FORMAT " ms: %s %d: %s",
                  hbase_protocol_to_string (protocol), hbase_transport_to_string (transport),
                  gateway->host, gateway->port, gateway->label, took,
                  error != NULL ? g_quark_to_string (error->domain) : "-",
                  error != NULL ? error->code : 0, error != NULL ? error->message : "");
  g_assert_nonnull (error);
  g_assert_true (error->domain == HBASE_ERROR);
  g_assert_cmpint (took, <, 5000);
  /* the message hints at a protocol/transport mismatch */
  lower = g_ascii_strdown (error->message, -1);
  if (strstr (lower, "protocol") == NULL && strstr (lower, "transport") == NULL)
    g_error ("the error does not mention the protocol or transport: %s", error->message);
}

static void
test_wrong_protocol (void)
{
  /* binary client, compact gateway */
  check_mismatch (HBASE_PROTOCOL_COMPACT, HBASE_TRANSPORT_BUFFERED,
                  HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED);
}

static void
test_wrong_transport (void)
{
  /* buffered client, framed gateway */
  check_mismatch (HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_FRAMED,
                  HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED);
  /* framed client, buffered gateway */
  check_mismatch (HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED,
                  HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_FRAMED);
}

/* --- 6. cancel ------------------------------------------------------------------------------- */

typedef struct {
  GCancellable *cancellable;
  guint delay_ms;
  gint64 cancelled_at;   /* monotonic µs */
} Canceller;

/* Checks that a ping given a cancelled cancellable failed with
 * G_IO_ERROR_CANCELLED.  Records a failure and lets the test go on, so one
 * run reports every case that goes wrong. */
static void
expect_cancelled (gboolean ok, const GError *error, const char *what)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (ok)
    g_test_message ("%s: the ping succeeded despite the cancelled cancellable", what);
  else
    g_test_message ("%s: expected G_IO_ERROR_CANCELLED, got %s %d: %s", what,
                    g_quark_to_string (error->domain), error->code, error->message);
  g_test_fail ();
}

static gpointer
canceller_thread (gpointer data)
{
  Canceller *canceller = data;

  g_usleep (canceller->delay_ms * G_TIME_SPAN_MILLISECOND);
  canceller->cancelled_at = g_get_monotonic_time ();
  g_cancellable_cancel (canceller->cancellable);
  return NULL;
}

static void
test_cancel (void)
{
  g_autofree char *main_address = NULL;

  if (!test_stack_check_gateway (main_gateway))
    return;
  main_address = gateway_address (main_gateway);

  /* already cancelled: with no connection yet, and with one pooled */
  {
    g_autoptr(HBaseConfig) config = test_stack_config (main_gateway);
    g_autoptr(HBaseClient) client = new_client (config);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(GError) error = NULL;
    gboolean ok;

    g_cancellable_cancel (cancellable);
    ok = hbase_client_ping (client, cancellable, &error);
    expect_cancelled (ok, error, "cancelled before the call, no connection yet");
    g_clear_error (&error);

    g_assert_true (hbase_client_ping (client, NULL, &error));
    g_assert_no_error (error);

    ok = hbase_client_ping (client, cancellable, &error);
    expect_cancelled (ok, error, "cancelled before the call, a pooled connection");
    g_clear_error (&error);

    g_assert_true (hbase_client_ping (client, NULL, &error));
    g_assert_no_error (error);
  }

  /* cancelled while waiting for a reply that never comes */
  {
    BlackHole hole;
    g_autoptr(HBaseConfig) config = hbase_config_new ();
    g_autoptr(HBaseClient) client = NULL;
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(GError) error = NULL;
    g_autofree char *spec = NULL;
    Canceller canceller = { .cancellable = cancellable, .delay_ms = 300 };
    HBaseClientStats before, after;
    GThread *thread;
    gint64 t0, returned_at;
    gboolean ok;

    black_hole_open (&hole);
    /* the black hole first: the first connection goes there */
    spec = g_strdup_printf ("127.0.0.1:%u,%s", hole.port, main_address);
    g_assert_true (hbase_config_set_gateways (config, spec, &error));
    g_assert_true (hbase_config_set_protocol (config, main_gateway->protocol, &error));
    g_assert_true (hbase_config_set_transport (config, main_gateway->transport, &error));
    g_assert_no_error (error);
    set_timeouts (config, 10000, 6);
    client = new_client (config);
    hbase_client_get_stats (client, &before);

    t0 = g_get_monotonic_time ();
    thread = g_thread_new ("canceller", canceller_thread, &canceller);
    ok = hbase_client_ping (client, cancellable, &error);
    returned_at = g_get_monotonic_time ();
    g_thread_join (thread);
    g_test_message ("ping returned after %" G_GINT64_FORMAT " ms, %" G_GINT64_FORMAT
                    " ms after the cancel: %s", (returned_at - t0) / 1000,
                    (returned_at - canceller.cancelled_at) / 1000, error ? error->message : "");
    if (ok)
      g_error ("the ping through the black hole succeeded: the first connection did not "
               "go to the first gateway");
    expect_cancelled (ok, error, "cancelled while waiting for a reply");
    g_assert_cmpint (returned_at - canceller.cancelled_at, <, G_USEC_PER_SEC);
    g_clear_error (&error);

    /* the half-used connection was closed, not pooled */
    hbase_client_get_stats (client, &after);
    g_assert_cmpuint (after.connections_discarded, >, before.connections_discarded);
    g_assert_cmpuint (after.idle, ==, 0);
    g_assert_cmpuint (after.open, ==, 0);

    /* the same client still works, through the other gateway */
    black_hole_close (&hole);
    g_assert_true (hbase_client_ping (client, NULL, &error));
    g_assert_no_error (error);
  }
}

/* --- 7. failover ------------------------------------------------------------------------------- */

static HBaseConfig *
failover_config (guint closed_port, gboolean with_gateway)
{
  g_autoptr(HBaseConfig) config = test_stack_config (main_gateway);
  g_autoptr(GError) error = NULL;
  g_autofree char *address = gateway_address (main_gateway);
  g_autofree char *spec = with_gateway ? g_strdup_printf ("127.0.0.1:%u %s", closed_port, address)
                                       : g_strdup_printf ("127.0.0.1:%u", closed_port);

  g_assert_true (hbase_config_set_gateways (config, spec, &error));
  g_assert_no_error (error);
  set_timeouts (config, 5000, 6);
  return g_steal_pointer (&config);
}

static void
test_failover (void)
{
  guint closed = test_closed_port ();

  if (!test_stack_check_gateway (main_gateway))
    return;

  /* the closed port alone fails: it really is closed */
  {
    g_autoptr(HBaseConfig) config = failover_config (closed, FALSE);
    g_autoptr(HBaseClient) client = new_client (config);
    g_autoptr(GError) error = NULL;

    g_assert_false (hbase_client_ping (client, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  }

  /* with the working gateway second, every ping succeeds: one client
   * pinging again and again, and fresh clients each opening a connection */
  {
    g_autoptr(HBaseConfig) config = failover_config (closed, TRUE);
    g_autoptr(HBaseClient) client = new_client (config);
    HBaseClientStats stats;

    g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 2);
    for (guint i = 0; i < 5; i++)
      {
        g_autoptr(GError) error = NULL;

        g_assert_true (hbase_client_ping (client, NULL, &error));
        g_assert_no_error (error);
      }
    hbase_client_get_stats (client, &stats);
    g_assert_cmpuint (stats.connections_opened, >=, 1);

    for (guint i = 0; i < 4; i++)
      {
        g_autoptr(HBaseClient) fresh = new_client (config);
        g_autoptr(GError) error = NULL;

        g_assert_true (hbase_client_ping (fresh, NULL, &error));
        g_assert_no_error (error);
      }
  }
}

/* --- main ---------------------------------------------------------------------------------------- */

int
main (int argc, char **argv)
{
  g_autofree char *address = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  gateways = test_stack_gateways ();
  main_gateway = gateways->pdata[0];
  idle_gateway = test_stack_gateway_from_env ("HBASE_GLIB_TEST_IDLE_GATEWAY", IDLE_GATEWAY_DEFAULT);
  restart_gateway = test_stack_gateway_from_env ("HBASE_GLIB_TEST_RESTART_GATEWAY",
                                                 RESTART_GATEWAY_DEFAULT);

  /* The default client reads the environment when first used: set it
   * before anything can call hbase_client_get_default(). */
  address = gateway_address (main_gateway);
  g_unsetenv ("HBASE_GLIB_CONFIG");
  g_setenv ("HBASE_GLIB_GATEWAYS", address, TRUE);
  g_setenv ("HBASE_GLIB_PROTOCOL", hbase_protocol_to_string (main_gateway->protocol), TRUE);
  g_setenv ("HBASE_GLIB_TRANSPORT", hbase_transport_to_string (main_gateway->transport), TRUE);

  g_test_add_func ("/integration/reliability/idle-reconnect", test_idle_reconnect);
  g_test_add_func ("/integration/reliability/gateway-restart", test_gateway_restart);
  g_test_add_func ("/integration/reliability/default-client-16-threads", test_default_client_threads);
  g_test_add_func ("/integration/reliability/black-hole-timeout", test_black_hole_timeout);
  g_test_add_func ("/integration/reliability/wrong-protocol", test_wrong_protocol);
  g_test_add_func ("/integration/reliability/wrong-transport", test_wrong_transport);
  g_test_add_func ("/integration/reliability/failover", test_failover);
  g_test_add_func ("/integration/reliability/cancel", test_cancel);
  status = g_test_run ();

  test_stack_gateway_free (idle_gateway);
  test_stack_gateway_free (restart_gateway);
  g_ptr_array_unref (gateways);
  return status;
}
