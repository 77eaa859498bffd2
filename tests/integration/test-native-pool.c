/* SPDX-License-Identifier: Apache-2.0 */
/* test-native-pool.c: one native client (src/native/) shared by many
 * threads against the real local HBase, and the retries that can be made
 * to happen for real: eight threads writing and reading their own rows in
 * both regions of a table while another keeps dropping the region cache,
 * every answer right and never more connections to a server than the pool
 * size; a cached region on a server that is gone (a refused port), the
 * connection dropped and the region found again on the real server;
 * hbase:meta's location on a server that is gone (as after a crash of the
 * server holding it), asked of the registry again and the row found; a
 * server that never answers, the operation ending at its deadline with
 * HBASE_ERROR_TIMEOUT and no later; many gets of both regions in one
 * Multi per server, in the caller's order, one region answered with
 * NotServingRegionException and asked again after a new lookup; an
 * increment retried when it was never sent (a refused port) and applied
 * once, but not sent again after its request reached a server that hung
 * up, where a put is.  (The decision for every exception
 * class, which the stack cannot be made to send: tests/native/test-native-retry.c.)
 *
 * The stack: the Thrift2 gateway of HBASE_GLIB_TEST_GATEWAY (default
 * 127.0.0.1:9090:binary:buffered), used to create the table, and the
 * bootstrap servers of HBASE_GLIB_TEST_NATIVE_BOOTSTRAP (default
 * "127.0.0.1:16020 127.0.0.1:16000").
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib.h>

#include "../support/test-stack.h"
#include "../../src/native/hbase-native-client.h"
#include "../../src/native/hbase-native-atomic.h"

#define N_THREADS   8
#define N_ROWS      40
#define POOL_SIZE   2

static TestGateway *gateway;
static HBaseClient *thrift_client;
static char *table_name;             /* family cf, split at "m" */
static GStrv bootstrap;
static gboolean stack_ok;

static GBytes *
b (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static HBaseNativeClient *
native_client (guint timeout_ms)
{
  HBaseNativeClient *client;

  if (!stack_ok)
    {
      test_stack_unreachable ("the local stack (HBase and its Thrift2 gateway) is not reachable");
      return NULL;
    }
  client = _hbase_native_client_new ((const char *const *) bootstrap, timeout_ms);
  _hbase_native_client_set_pause (client, 10);
  return client;
}

static GPtrArray *
one_cell (const char *value)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
  HBaseNativeCell *c = g_new0 (HBaseNativeCell, 1);

  c->family = b ("cf");
  c->qualifier = b ("q");
  c->value = b (value);
  c->timestamp = HBASE_NATIVE_LATEST_TIMESTAMP;
  g_ptr_array_add (cells, c);
  return cells;
}

/* ---- many threads ---- */

typedef struct
{
  HBaseNativeClient *client;
  guint              index;
  gint              *failures;
  GMutex            *lock;
  GString           *first_failure;
  gint              *stop;
} Worker;

static void
report (Worker *w, const char *what, const char *key, const GError *error)
{
  g_atomic_int_inc (w->failures);
  g_mutex_lock (w->lock);
  if (w->first_failure->len == 0)
    g_string_printf (w->first_failure, "%s %s: %s", what, key, error != NULL ? error->message : "wrong answer");
  g_mutex_unlock (w->lock);
}

static gpointer
worker (gpointer data)
{
  Worker *w = data;

  for (guint i = 0; i < N_ROWS; i++)
    {
      /* half the threads below the split, half above */
      g_autofree char *key = g_strdup_printf ("%c%02u-%03u", w->index % 2 ? 'c' : 'r', w->index, i);
      g_autoptr(GBytes) row = b (key);
      g_autoptr(GPtrArray) cells = one_cell (key);
      g_autoptr(GPtrArray) got = NULL;
      g_autoptr(GError) error = NULL;

      if (!_hbase_native_client_put (w->client, table_name, row, cells, NULL, &error))
        {
          report (w, "put", key, error);
          continue;
        }
      got = _hbase_native_client_get (w->client, table_name, row, NULL, 0, NULL, &error);
      if (got == NULL)
        report (w, "get", key, error);
      else if (got->len != 1 ||
               !g_bytes_equal (((HBaseNativeCell *) got->pdata[0])->value, row) ||
               !g_bytes_equal (((HBaseNativeCell *) got->pdata[0])->row, row))
        report (w, "get", key, NULL);
    }
  return NULL;
}

/* Keeps dropping the cached regions while the workers run. */
static gpointer
forgetter (gpointer data)
{
  Worker *w = data;

  while (!g_atomic_int_get (w->stop))
    {
      g_autoptr(GBytes) low = b ("a");
      g_autoptr(GBytes) high = b ("x");
      g_autoptr(HBaseNativeRegion) r1 = _hbase_native_client_locate (w->client, table_name, low, NULL, NULL);
      g_autoptr(HBaseNativeRegion) r2 = _hbase_native_client_locate (w->client, table_name, high, NULL, NULL);

      if (r1 != NULL)
        _hbase_native_client_forget (w->client, table_name, r1->name);
      if (r2 != NULL)
        _hbase_native_client_forget (w->client, table_name, r2->name);
      g_usleep (2000);
    }
  return NULL;
}

static void
test_threads_share_a_client (void)
{
  g_autoptr(HBaseNativeClient) client = native_client (30000);
  GThread *threads[N_THREADS];
  GThread *forget_thread;
  Worker workers[N_THREADS];
  Worker forget_worker;
  gint failures = 0, stop = 0;
  GMutex lock;
  g_autoptr(GString) first = g_string_new (NULL);
  g_autoptr(GBytes) low = b ("a");
  g_autoptr(GBytes) high = b ("x");
  g_autoptr(HBaseNativeRegion) r1 = NULL;
  g_autoptr(HBaseNativeRegion) r2 = NULL;
  g_autofree char *a1 = NULL;
  g_autofree char *a2 = NULL;
  guint n_open, peak, n_made;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  _hbase_native_client_set_pool_size (client, POOL_SIZE);
  g_mutex_init (&lock);
  for (guint i = 0; i < N_THREADS; i++)
    {
      workers[i] = (Worker) { client, i, &failures, &lock, first, &stop };
      threads[i] = g_thread_new ("native-worker", worker, &workers[i]);
    }
  forget_worker = (Worker) { client, 0, &failures, &lock, first, &stop };
  forget_thread = g_thread_new ("native-forget", forgetter, &forget_worker);
  for (guint i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);
  g_atomic_int_set (&stop, 1);
  g_thread_join (forget_thread);
  g_mutex_clear (&lock);

  if (failures > 0)
    g_test_message ("%d failures, the first: %s", failures, first->str);
  g_assert_cmpint (failures, ==, 0);
  /* never more connections to a server than the pool holds */
  r1 = _hbase_native_client_locate (client, table_name, low, NULL, &error);
  g_assert_no_error (error);
  r2 = _hbase_native_client_locate (client, table_name, high, NULL, &error);
  g_assert_no_error (error);
  a1 = g_strdup_printf ("%s:%u", r1->host, r1->port);
  a2 = g_strdup_printf ("%s:%u", r2->host, r2->port);
  _hbase_native_client_pool_stats (client, a1, &n_open, &peak, &n_made);
  g_assert_cmpuint (peak, >=, 1);
  g_assert_cmpuint (peak, <=, POOL_SIZE);
  g_assert_cmpuint (n_open, <=, POOL_SIZE);
  _hbase_native_client_pool_stats (client, a2, &n_open, &peak, &n_made);
  g_assert_cmpuint (peak, <=, POOL_SIZE);
  /* no connection broke: each was made once, to the servers of the two
   * regions and of hbase:meta (the same server may be named apart for
   * meta; on a stack of several region servers they may all differ), and
   * to the bootstrap server asked where meta is */
  {
    g_autoptr(HBaseNativeRegion) meta = _hbase_native_client_locate_meta (client, NULL, &error);
    g_autofree char *a3 = NULL;
    guint n_servers;

    g_assert_no_error (error);
    a3 = g_strdup_printf ("%s:%u", meta->host, meta->port);
    n_servers = 1 + (g_strcmp0 (a2, a1) != 0) + (g_strcmp0 (a3, a1) != 0 && g_strcmp0 (a3, a2) != 0);
    g_assert_cmpuint (n_made, <=, (n_servers + 1) * POOL_SIZE);
  }
}

/* ---- a server that is gone ---- */

static void
cache_elsewhere (HBaseNativeClient *client, const HBaseNativeRegion *real, guint port)
{
  HBaseNativeRegion moved = *real;

  moved.host = (char *) "127.0.0.1";
  moved.port = port;
  _hbase_native_client_cache (client, &moved);
}

static void
test_gone_server_relocated (void)
{
  g_autoptr(HBaseNativeClient) client = native_client (10000);
  g_autoptr(GBytes) row = b ("gone");
  g_autoptr(GPtrArray) cells = one_cell ("v");
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(HBaseNativeRegion) real = NULL;
  g_autoptr(HBaseNativeRegion) after = NULL;
  g_autofree char *address = NULL;
  guint port, n_open, peak, n_made;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  real = _hbase_native_client_locate (client, table_name, row, NULL, &error);
  g_assert_no_error (error);
  port = test_closed_port ();
  cache_elsewhere (client, real, port);

  g_assert_true (_hbase_native_client_put (client, table_name, row, cells, NULL, &error));
  g_assert_no_error (error);
  got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 1);
  /* the region is cached on its real server again */
  after = _hbase_native_client_locate (client, table_name, row, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (after->host, ==, real->host);
  g_assert_cmpuint (after->port, ==, real->port);
  /* the broken connection was dropped, not kept in the pool */
  address = g_strdup_printf ("127.0.0.1:%u", port);
  _hbase_native_client_pool_stats (client, address, &n_open, &peak, &n_made);
  g_assert_cmpuint (peak, ==, 1);
  g_assert_cmpuint (n_open, ==, 0);
}

/* hbase:meta on a server that is gone (a crash of the server holding it,
 * which a cluster replaces with one on another port): the lookup fails on
 * the wire, meta's location is dropped and asked of the registry again,
 * and the operation goes on, as the operations after it. */
static void
test_gone_meta_server_relocated (void)
{
  g_autoptr(HBaseNativeClient) client = native_client (10000);
  g_autoptr(GBytes) row = b ("gone-meta");
  g_autoptr(GPtrArray) cells = one_cell ("v");
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(HBaseNativeRegion) real = NULL;
  g_autoptr(HBaseNativeRegion) after = NULL;
  HBaseNativeRegion gone;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  real = _hbase_native_client_locate_meta (client, NULL, &error);
  g_assert_no_error (error);
  gone = *real;
  gone.host = (char *) "127.0.0.1";
  gone.port = test_closed_port ();
  _hbase_native_client_cache_meta (client, &gone);
  g_assert_cmpuint (_hbase_native_client_n_cached (client), ==, 0);

  /* the table's region is looked up through the gone meta server first */
  g_assert_true (_hbase_native_client_put (client, table_name, row, cells, NULL, &error));
  g_assert_no_error (error);
  got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 1);
  /* meta's real location is the one kept */
  after = _hbase_native_client_locate_meta (client, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (after->host, ==, real->host);
  g_assert_cmpuint (after->port, ==, real->port);
}

/* ---- many gets, one Multi per server ---- */

/* Rows of both regions read in one get_multi, in the caller's order,
 * while the cache holds a region the server does not serve: the server
 * answers that RegionAction with NotServingRegionException, the region
 * is looked up again and its rows asked once more. */
static void
test_multi_stale_region (void)
{
  g_autoptr(HBaseNativeClient) client = native_client (10000);
  const char *names[] = { "x-multi", "a-multi", "missing-multi", "n-multi", "b-multi" };
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(HBaseNativeRegion) real = NULL;
  g_autoptr(GBytes) first = b ("a");
  g_autofree char *bogus_name = NULL;
  HBaseNativeRegion bogus;
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GBytes) row = b (names[i]);
      g_autoptr(GPtrArray) cells = one_cell (names[i]);

      g_ptr_array_add (keys, g_bytes_ref (row));
      if (strcmp (names[i], "missing-multi") != 0)
        {
          g_assert_true (_hbase_native_client_put (client, table_name, row, cells, NULL, &error));
          g_assert_no_error (error);
        }
    }
  real = _hbase_native_client_locate (client, table_name, first, NULL, &error);
  g_assert_no_error (error);
  bogus = *real;
  bogus_name = g_strdup_printf ("%s,,1.00000000000000000000000000000000.", table_name);
  bogus.name = b (bogus_name);
  _hbase_native_client_cache (client, &bogus);

  got = _hbase_native_client_get_multi (client, table_name, keys, NULL, 0, 0, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, G_N_ELEMENTS (names));
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GPtrArray *cells = got->pdata[i];

      if (strcmp (names[i], "missing-multi") == 0)
        {
          g_assert_cmpuint (cells->len, ==, 0);
          continue;
        }
      g_assert_cmpuint (cells->len, ==, 1);
      g_assert_true (g_bytes_equal (((HBaseNativeCell *) cells->pdata[0])->row, keys->pdata[i]));
    }
  g_bytes_unref (bogus.name);
}

/* ---- a server that never answers ---- */

static int
silent_listener (guint *port)
{
  struct sockaddr_in addr = { 0 };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM, 0);

  g_assert_cmpint (fd, >=, 0);
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (fd, 4), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &addr, &len), ==, 0);
  *port = ntohs (addr.sin_port);
  return fd;
}

static void
test_deadline_kept (void)
{
  g_autoptr(HBaseNativeClient) client = native_client (1000);
  g_autoptr(GBytes) row = b ("silent");
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(HBaseNativeRegion) real = NULL;
  g_autoptr(GError) error = NULL;
  guint port;
  int fd;
  gint64 start, elapsed_ms;

  if (client == NULL)
    return;
  real = _hbase_native_client_locate (client, table_name, row, NULL, &error);
  g_assert_no_error (error);
  fd = silent_listener (&port);
  cache_elsewhere (client, real, port);

  start = g_get_monotonic_time ();
  got = _hbase_native_client_get (client, table_name, row, NULL, 0, NULL, &error);
  elapsed_ms = (g_get_monotonic_time () - start) / 1000;
  close (fd);
  g_assert_null (got);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
  g_test_message ("ended after %" G_GINT64_FORMAT " ms: %s", elapsed_ms, error->message);
  g_assert_cmpint (elapsed_ms, >=, 900);
  g_assert_cmpint (elapsed_ms, <, 1500);
}

/* ---- increments are not sent twice ---- */

/* A server that takes one connection, reads what the client writes (its
 * hello and request) and hangs up without answering. */
static gpointer
hang_up_after_request (gpointer data)
{
  int fd = GPOINTER_TO_INT (data);
  int conn = accept (fd, NULL, NULL);
  struct timeval wait = { 0, 300 * 1000 };
  char buffer[4096];

  if (conn < 0)
    return GINT_TO_POINTER (0);
  setsockopt (conn, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  while (read (conn, buffer, sizeof buffer) > 0)
    ;
  close (conn);
  return GINT_TO_POINTER (1);
}

static GPtrArray *
amount_cell (gint64 amount)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
  HBaseNativeCell *c = g_new0 (HBaseNativeCell, 1);
  guint64 be = GUINT64_TO_BE ((guint64) amount);

  c->family = b ("cf");
  c->qualifier = b ("n");
  c->value = g_bytes_new (&be, sizeof be);
  c->timestamp = HBASE_NATIVE_LATEST_TIMESTAMP;
  g_ptr_array_add (cells, c);
  return cells;
}

/* The counter cf:n of @row: the newest value (-1: none). */
static gint64
counter_now (HBaseNativeClient *client, GBytes *row)
{
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GError) error = NULL;
  guint64 be;

  got = _hbase_native_client_get (client, table_name, row, NULL, 1, NULL, &error);
  g_assert_no_error (error);
  if (got->len == 0)
    return -1;
  g_assert_cmpuint (g_bytes_get_size (((HBaseNativeCell *) got->pdata[0])->value), ==, 8);
  memcpy (&be, g_bytes_get_data (((HBaseNativeCell *) got->pdata[0])->value, NULL), 8);
  return (gint64) GUINT64_FROM_BE (be);
}

/* An increment whose server cannot be reached was never sent: it is
 * retried on the region's real server and applied once.  One whose
 * request was written to a server that then hung up is not sent again
 * (HBase may have run it): the error is reported, while a put (which may
 * be repeated) in the same spot is retried and succeeds. */
static void
test_increment_not_resent (void)
{
  g_autoptr(HBaseNativeClient) client = native_client (10000);
  g_autoptr(GBytes) unsent_row = b ("inc-unsent");
  g_autoptr(GBytes) sent_row = b ("inc-sent");
  g_autoptr(GPtrArray) cells = amount_cell (7);
  g_autoptr(GPtrArray) put_cells = one_cell ("v");
  g_autoptr(GPtrArray) result = NULL;
  g_autoptr(HBaseNativeRegion) real = NULL;
  g_autoptr(GError) error = NULL;
  GThread *server;
  guint port;
  int fd;

  if (client == NULL)
    return;
  real = _hbase_native_client_locate (client, table_name, unsent_row, NULL, &error);
  g_assert_no_error (error);

  /* never sent: a refused port */
  cache_elsewhere (client, real, test_closed_port ());
  result = _hbase_native_client_increment (client, table_name, unsent_row, TRUE, cells, 0, TRUE,
                                           NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->len, ==, 1);
  g_assert_cmpint (counter_now (client, unsent_row), ==, 7);
  g_clear_pointer (&result, g_ptr_array_unref);

  /* sent, then the server hung up: reported, not sent again */
  fd = silent_listener (&port);
  server = g_thread_new ("hang-up", hang_up_after_request, GINT_TO_POINTER (fd));
  cache_elsewhere (client, real, port);
  result = _hbase_native_client_increment (client, table_name, sent_row, TRUE, cells, 0, TRUE,
                                           NULL, &error);
  g_assert_true (GPOINTER_TO_INT (g_thread_join (server)));
  g_assert_null (result);
  g_assert_nonnull (error);
  g_test_message ("increment after the hang-up: %s", error->message);
  /* it may have been applied, and the error says so */
  g_assert_true (hbase_error_is_in_doubt (error));
  g_assert_nonnull (strstr (error->message, "may have been applied"));
  g_clear_error (&error);
  /* the region was dropped from the cache: found on its real server */
  g_assert_cmpint (counter_now (client, sent_row), ==, -1);

  /* the same for a put: retried on the real server */
  server = g_thread_new ("hang-up", hang_up_after_request, GINT_TO_POINTER (fd));
  cache_elsewhere (client, real, port);
  g_assert_true (_hbase_native_client_put (client, table_name, sent_row, put_cells, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (GPOINTER_TO_INT (g_thread_join (server)));
  close (fd);
}

static gboolean
setup (void)
{
  HBaseFamilyOptions families[1] = { HBASE_FAMILY_OPTIONS_INIT };
  g_autoptr(GPtrArray) splits = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  gateway = test_stack_gateway_from_env ("HBASE_GLIB_TEST_GATEWAY", "127.0.0.1:9090:binary:buffered");
  config = test_stack_config (gateway);
  thrift_client = hbase_client_new (config);
  families[0].name = "cf";
  g_ptr_array_add (splits, g_bytes_new_static ("m", 1));
  table_name = test_stack_unique_name ("native_t_pool");
  if (!hbase_client_create_table (thrift_client, table_name, families, 1, splits, NULL, &error))
    {
      g_test_message ("cannot create %s: %s", table_name, error->message);
      return FALSE;
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  const char *list = g_getenv ("HBASE_GLIB_TEST_NATIVE_BOOTSTRAP");
  int rc;

  g_test_init (&argc, &argv, NULL);
  bootstrap = g_strsplit_set (list != NULL && *list != '\0' ? list : "127.0.0.1:16020 127.0.0.1:16000",
                              " ,", -1);
  stack_ok = setup ();
  g_test_add_func ("/native/pool/threads-share-a-client", test_threads_share_a_client);
  g_test_add_func ("/native/pool/gone-server-relocated", test_gone_server_relocated);
  g_test_add_func ("/native/pool/gone-meta-server-relocated", test_gone_meta_server_relocated);
  g_test_add_func ("/native/pool/multi-stale-region", test_multi_stale_region);
  g_test_add_func ("/native/pool/deadline-kept", test_deadline_kept);
  g_test_add_func ("/native/pool/increment-not-resent", test_increment_not_resent);
  rc = g_test_run ();
  if (stack_ok)
    {
      g_autoptr(GError) error = NULL;

      if (!hbase_client_delete_table (thrift_client, table_name, NULL, &error))
        g_printerr ("could not drop %s: %s\n", table_name, error->message);
    }
  g_clear_object (&thrift_client);
  g_free (table_name);
  g_strfreev (bootstrap);
  test_stack_gateway_free (gateway);
  return rc;
}
