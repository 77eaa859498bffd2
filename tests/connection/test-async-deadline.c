/* SPDX-License-Identifier: Apache-2.0 */
/* The deadline of an _async call counts from the _async call itself, even
 * when more calls are made at once than the client has worker threads:
 * against a gateway that accepts connections and never answers, each of
 * 64 calls on a client with 8 workers ends with HBASE_ERROR_TIMEOUT within
 * 100 ms of its own deadline; and a call still waiting for a worker ends
 * at once when cancelled.  The same deadlines hold for gets gathered into
 * getMultiple calls (the coalesce-gets setting).  With max-pending set, a
 * call beyond that many waiting for a worker fails at once with
 * HBASE_ERROR_BUSY, and a freed place is taken again.  The gateway is a local
 * TCP listener in the test, so no HBase is needed. */
#include "config.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib.h>

#include "../support/test-env.h"

#define N_CALLS 64
#define TIMEOUT_MS 1000
#define LATENESS_ALLOWED_MS 100

/* A bound of @ms milliseconds, in microseconds, looser in the slow passes
 * (test_time_slack()): under valgrind the program runs tens of times
 * slower and the run checks memory; the plain run checks the bounds. */
static gint64
bound (gint64 ms)
{
  return ms * G_TIME_SPAN_MILLISECOND * test_time_slack ();
}

typedef struct {
  int listen_fd;
  guint port;
  GThread *thread;
  GPtrArray *accepted;    /* the sockets it holds open, as GINT_TO_POINTER (fd + 1) */
  gint n_accepted;        /* their number, read by the test's thread */
} SilentGateway;

static gpointer
accept_forever (gpointer data)
{
  SilentGateway *gateway = data;

  for (;;)
    {
      int fd = accept (gateway->listen_fd, NULL, NULL);

      if (fd < 0)
        return NULL;   /* the listener was shut down */
      g_ptr_array_add (gateway->accepted, GINT_TO_POINTER (fd + 1));
      g_atomic_int_inc (&gateway->n_accepted);
    }
}

static void
silent_gateway_start (SilentGateway *gateway)
{
  struct sockaddr_in address = { .sin_family = AF_INET };
  socklen_t length = sizeof address;

  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  gateway->listen_fd = socket (AF_INET, SOCK_STREAM, 0);
  g_assert_cmpint (gateway->listen_fd, >=, 0);
  g_assert_cmpint (bind (gateway->listen_fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  g_assert_cmpint (listen (gateway->listen_fd, 128), ==, 0);
  g_assert_cmpint (getsockname (gateway->listen_fd, (struct sockaddr *) &address, &length), ==, 0);
  gateway->port = ntohs (address.sin_port);
  gateway->accepted = g_ptr_array_new ();
  gateway->n_accepted = 0;
  gateway->thread = g_thread_new ("silent-gateway", accept_forever, gateway);
}

static void
silent_gateway_stop (SilentGateway *gateway)
{
  shutdown (gateway->listen_fd, SHUT_RDWR);
  g_thread_join (gateway->thread);
  close (gateway->listen_fd);
  for (guint i = 0; i < gateway->accepted->len; i++)
    close (GPOINTER_TO_INT (gateway->accepted->pdata[i]) - 1);
  g_ptr_array_unref (gateway->accepted);
}

/* @coalesce: concurrent gets gathered into getMultiple calls (the
 * default); without, each get is a job of the worker pool of its own,
 * which is what the cases about waiting for a worker need. */
static HBaseTable *
table_on (SilentGateway *gateway, guint pool_size, guint timeout_ms, gboolean coalesce)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autofree char *address = g_strdup_printf ("127.0.0.1:%u", gateway->port);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  HBaseTable *table;

  g_assert_true (hbase_config_set_gateways (config, address, &error));
  g_assert_true (hbase_config_set_operation_timeout (config, timeout_ms, &error));
  g_assert_true (hbase_config_set_pool_size (config, pool_size, &error));
  g_assert_true (hbase_config_set_coalesce_gets (config, coalesce ? 100 : 1, &error));
  g_assert_no_error (error);
  client = hbase_client_new (config);
  table = hbase_table_new (client, "async_deadline", &error);
  g_assert_no_error (error);
  return table;
}

typedef struct {
  gint64 started;
  gint64 ended;
  GError *error;
  HBaseRow *row;
  guint *pending;
} Call;

static void
on_get (GObject *source, GAsyncResult *result, gpointer data)
{
  Call *call = data;

  call->ended = g_get_monotonic_time ();
  call->row = hbase_table_get_finish (HBASE_TABLE (source), result, &call->error);
  (*call->pending)--;
}

static void
start_get (HBaseTable *table, Call *call, guint *pending, GCancellable *cancellable)
{
  g_autoptr(GBytes) row = g_bytes_new_static ("row", 3);

  call->pending = pending;
  (*pending)++;
  call->started = g_get_monotonic_time ();
  hbase_table_get_async (table, row, NULL, cancellable, on_get, call);
}

static void
test_every_call_keeps_its_deadline (gconstpointer coalesce)
{
  SilentGateway gateway;
  HBaseTable *table;
  Call calls[N_CALLS] = { 0 };
  guint pending = 0;
  gint64 max_late = G_MININT64, min_late = G_MAXINT64;

  silent_gateway_start (&gateway);
  table = table_on (&gateway, 8, TIMEOUT_MS, GPOINTER_TO_INT (coalesce));
  for (guint i = 0; i < N_CALLS; i++)
    start_get (table, &calls[i], &pending, NULL);
  while (pending > 0)
    g_main_context_iteration (NULL, TRUE);

  for (guint i = 0; i < N_CALLS; i++)
    {
      gint64 late = calls[i].ended - (calls[i].started + TIMEOUT_MS * G_TIME_SPAN_MILLISECOND);

      g_assert_null (calls[i].row);
      g_assert_error (calls[i].error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
      /* not before its deadline either */
      g_assert_cmpint (late, >=, -5 * G_TIME_SPAN_MILLISECOND);
      g_assert_cmpint (late, <=, bound (LATENESS_ALLOWED_MS));
      max_late = MAX (max_late, late);
      min_late = MIN (min_late, late);
      g_clear_error (&calls[i].error);
    }
  g_test_message ("%d calls, %u ms timeout, 8 workers: ended %.1f to %.1f ms after their deadlines",
                  N_CALLS, TIMEOUT_MS, min_late / 1000.0, max_late / 1000.0);
  g_object_unref (table);
  silent_gateway_stop (&gateway);
}

static void
test_cancel_queued_call (void)
{
  SilentGateway gateway;
  HBaseTable *table;
  Call busy[2] = { 0 }, queued = { 0 };
  g_autoptr(GCancellable) busy_cancellable = g_cancellable_new ();
  g_autoptr(GCancellable) queued_cancellable = g_cancellable_new ();
  guint pending = 0;
  gint64 cancelled_at;

  silent_gateway_start (&gateway);
  /* two workers (the fewest a client has), both kept busy by the silent gateway */
  table = table_on (&gateway, 2, 30000, FALSE);
  start_get (table, &busy[0], &pending, busy_cancellable);
  start_get (table, &busy[1], &pending, busy_cancellable);
  start_get (table, &queued, &pending, queued_cancellable);
  /* let the workers take the first two calls and send them */
  while (g_atomic_int_get (&gateway.n_accepted) < 2)
    g_usleep (1000);
  g_usleep (100 * G_TIME_SPAN_MILLISECOND);
  g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (pending, ==, 3);

  cancelled_at = g_get_monotonic_time ();
  g_cancellable_cancel (queued_cancellable);
  while (queued.ended == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (queued.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (queued.ended - cancelled_at, <=, bound (50));
  g_assert_cmpuint (pending, ==, 2);   /* the running calls go on */

  /* running calls end promptly when cancelled too */
  cancelled_at = g_get_monotonic_time ();
  g_cancellable_cancel (busy_cancellable);
  while (pending > 0)
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (busy); i++)
    {
      g_assert_error (busy[i].error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpint (busy[i].ended - cancelled_at, <=, bound (500));
      g_clear_error (&busy[i].error);
    }
  g_clear_error (&queued.error);
  g_object_unref (table);
  silent_gateway_stop (&gateway);
}

/* A gathered get cancelled after its call left completes at once; the
 * others of the call go on until cancelled too, and then the call itself
 * is cancelled. */
static void
test_cancel_sent_coalesced_get (void)
{
  SilentGateway gateway;
  HBaseTable *table;
  Call calls[3] = { 0 };
  GCancellable *cancellables[3];
  guint pending = 0;
  gint64 cancelled_at;

  silent_gateway_start (&gateway);
  table = table_on (&gateway, 2, 30000, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      cancellables[i] = g_cancellable_new ();
      start_get (table, &calls[i], &pending, cancellables[i]);
    }
  /* let the drainers send them (one or two calls) */
  while (g_atomic_int_get (&gateway.n_accepted) < 1)
    g_usleep (1000);
  g_usleep (100 * G_TIME_SPAN_MILLISECOND);
  g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (pending, ==, 3);

  cancelled_at = g_get_monotonic_time ();
  g_cancellable_cancel (cancellables[1]);
  while (calls[1].ended == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (calls[1].error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (calls[1].ended - cancelled_at, <=, bound (50));
  g_usleep (100 * G_TIME_SPAN_MILLISECOND);
  g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (pending, ==, 2);

  cancelled_at = g_get_monotonic_time ();
  g_cancellable_cancel (cancellables[0]);
  g_cancellable_cancel (cancellables[2]);
  while (pending > 0)
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_assert_error (calls[i].error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpint (calls[i].ended - cancelled_at, <=, bound (500));
      g_clear_error (&calls[i].error);
      g_object_unref (cancellables[i]);
    }
  /* and the calls nobody waits for any more were cancelled: their
   * connections are closed, not held until the 30 s timeout */
  for (;;)
    {
      HBaseClientStats stats = { 0 };

      hbase_client_get_stats (hbase_table_get_client (table), &stats);
      if (stats.open == 0)
        break;
      g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <=, bound (2000));
      g_usleep (10 * G_TIME_SPAN_MILLISECOND);
    }
  g_object_unref (table);
  silent_gateway_stop (&gateway);
}

static void
test_cancelled_before_the_call (void)
{
  SilentGateway gateway;
  HBaseTable *table;
  Call call = { 0 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint pending = 0;

  silent_gateway_start (&gateway);
  table = table_on (&gateway, 2, 30000, FALSE);
  g_cancellable_cancel (cancellable);
  start_get (table, &call, &pending, cancellable);
  /* the callback never runs inside the _async call */
  g_assert_cmpuint (pending, ==, 1);
  while (pending > 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (call.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (call.ended - call.started, <=, bound (50));
  g_clear_error (&call.error);
  g_object_unref (table);
  silent_gateway_stop (&gateway);
}

/* max-pending 2 on a client with 2 workers, both kept busy: two more
 * calls wait, a fifth fails at once with HBASE_ERROR_BUSY; once a waiting
 * call is cancelled, a new one waits again. */
static void
test_max_pending (void)
{
  SilentGateway gateway;
  HBaseTable *table;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  Call busy[2] = { 0 }, queued[2] = { 0 }, refused = { 0 }, again = { 0 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GCancellable) first_queued = g_cancellable_new ();
  guint pending = 0;

  silent_gateway_start (&gateway);
  table = table_on (&gateway, 2, 30000, FALSE);
  config = hbase_config_copy (hbase_client_get_config (hbase_table_get_client (table)));
  g_object_unref (table);
  g_assert_cmpuint (hbase_config_get_max_pending (config), ==, 0);   /* unbounded by default */
  g_assert_true (hbase_config_set_max_pending (config, 2, &error));
  g_assert_no_error (error);
  {
    g_autoptr(HBaseClient) client = hbase_client_new (config);

    table = hbase_table_new (client, "async_deadline", &error);
    g_assert_no_error (error);
  }

  start_get (table, &busy[0], &pending, cancellable);
  start_get (table, &busy[1], &pending, cancellable);
  while (g_atomic_int_get (&gateway.n_accepted) < 2)
    g_usleep (1000);
  g_usleep (100 * G_TIME_SPAN_MILLISECOND);   /* both workers are in their calls */
  start_get (table, &queued[0], &pending, first_queued);
  start_get (table, &queued[1], &pending, cancellable);
  start_get (table, &refused, &pending, cancellable);
  while (refused.ended == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (refused.error, HBASE_ERROR, HBASE_ERROR_BUSY);
  g_assert_nonnull (strstr (refused.error->message, "max-pending"));
  g_assert_cmpint (refused.ended - refused.started, <=, bound (50));
  g_assert_cmpuint (pending, ==, 4);

  /* a waiting call cancelled frees its place */
  g_cancellable_cancel (first_queued);
  while (queued[0].ended == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (queued[0].error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  start_get (table, &again, &pending, cancellable);
  g_usleep (50 * G_TIME_SPAN_MILLISECOND);
  g_main_context_iteration (NULL, FALSE);
  g_assert_cmpint (again.ended, ==, 0);   /* waiting, not refused */

  g_cancellable_cancel (cancellable);
  while (pending > 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (again.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  for (guint i = 0; i < 2; i++)
    {
      g_clear_error (&busy[i].error);
      g_clear_error (&queued[i].error);
    }
  g_clear_error (&refused.error);
  g_clear_error (&again.error);
  g_object_unref (table);
  silent_gateway_stop (&gateway);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/connection/async-deadline/every-call-keeps-its-deadline",
                        GINT_TO_POINTER (FALSE), test_every_call_keeps_its_deadline);
  g_test_add_data_func ("/connection/async-deadline/every-coalesced-get-keeps-its-deadline",
                        GINT_TO_POINTER (TRUE), test_every_call_keeps_its_deadline);
  g_test_add_func ("/connection/async-deadline/cancel-queued-call", test_cancel_queued_call);
  g_test_add_func ("/connection/async-deadline/cancel-sent-coalesced-get",
                   test_cancel_sent_coalesced_get);
  g_test_add_func ("/connection/async-deadline/cancelled-before-the-call",
                   test_cancelled_before_the_call);
  g_test_add_func ("/connection/async-deadline/max-pending", test_max_pending);
  return g_test_run ();
}
