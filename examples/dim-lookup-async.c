/* SPDX-License-Identifier: Apache-2.0 */
/* dim-lookup-async: enrich events with dimension rows asynchronously, on a
 * GLib main loop, with a bound on the requests in flight.
 *
 *   examples/dim-lookup-async [--in-flight N] [--batch N] [--print N] [EVENTS_FILE | -]
 *
 * What Flink's async I/O does for a dimension join, in C: the loop keeps up
 * to N lookups outstanding (hbase_table_get_async(), or
 * hbase_table_get_multiple_async() for --batch > 1) and starts the next one
 * as each completes, so a slow lookup does not stall the others, and the
 * gateway never sees more than N requests from this process.  The client's
 * pool may grow to N connections, one per request in flight, which is what
 * gets need when they are not gathered (below); gathered, a few calls carry
 * them all and few connections are used.  Results arrive in
 * completion order (Flink's "unordered" mode).  Latency is per request,
 * from the moment it is started to its callback.
 *
 * The library gathers concurrent gets on a table into getMultiple calls
 * (the coalesce-gets setting, HBASE_GLIB_COALESCE_GETS): the gets started
 * while earlier ones are in flight leave together.  So N defaults to 128,
 * about as many keys as dim-lookup-sync's batches hold: with 16, the
 * gathered calls carried about 6 keys each and paid a round trip per 6
 * events; with 128 they carry tens of keys, few connections are used, and
 * each event waits about one call in the queue and its own call. */
#include <string.h>

#include "dim-common.h"

static const char *const columns[] = { DIM_FAMILY ":name", DIM_FAMILY ":category", DIM_FAMILY ":warehouse", NULL };

typedef struct {
  GMainLoop *loop;
  HBaseTable *table;
  GPtrArray *events;
  HBaseReadOptions read;
  guint batch;
  guint max_in_flight;
  guint next;           /* the first event not yet requested */
  guint in_flight;
  guint peak_in_flight;
  guint found;
  guint missing;
  guint requests;
  guint print;
  guint printed;
  GError *error;        /* the first failure: no more requests are started */
  DimStats stats;
} Lookup;

typedef struct {
  Lookup *lookup;
  guint first;
  guint count;
  gint64 started;
} Request;

static void start_more (Lookup *lookup);

static void
account (Lookup *lookup, Request *request, HBaseRow *row, guint index)
{
  if (hbase_row_is_empty (row))
    lookup->missing++;
  else
    lookup->found++;
  if (lookup->printed < lookup->print)
    {
      dim_print_enriched (lookup->events->pdata[request->first + index], row);
      lookup->printed++;
    }
}

static void
request_done (Lookup *lookup, Request *request, GError *error)
{
  dim_stats_add (&lookup->stats, g_get_monotonic_time () - request->started);
  lookup->in_flight--;
  if (error != NULL && lookup->error == NULL)
    lookup->error = error;
  else if (error != NULL)
    g_error_free (error);
  g_free (request);
  start_more (lookup);
}

static void
got_row (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Request *request = user_data;
  Lookup *lookup = request->lookup;
  GError *error = NULL;
  g_autoptr(HBaseRow) row = hbase_table_get_finish (HBASE_TABLE (source), result, &error);

  if (row != NULL)
    account (lookup, request, row, 0);
  request_done (lookup, request, error);
}

static void
got_rows (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Request *request = user_data;
  Lookup *lookup = request->lookup;
  GError *error = NULL;
  g_autoptr(GPtrArray) rows = hbase_table_get_multiple_finish (HBASE_TABLE (source), result, &error);

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    account (lookup, request, rows->pdata[i], i);
  request_done (lookup, request, error);
}

/* Starts requests until N are in flight or every event is requested;
 * quits the loop when the last one has completed. */
static void
start_more (Lookup *lookup)
{
  while (lookup->error == NULL && lookup->in_flight < lookup->max_in_flight && lookup->next < lookup->events->len)
    {
      Request *request = g_new0 (Request, 1);

      request->lookup = lookup;
      request->first = lookup->next;
      request->count = MIN (lookup->batch, lookup->events->len - lookup->next);
      request->started = g_get_monotonic_time ();
      lookup->next += request->count;
      lookup->in_flight++;
      lookup->requests++;
      lookup->peak_in_flight = MAX (lookup->peak_in_flight, lookup->in_flight);
      if (lookup->batch == 1)
        {
          g_autoptr(GBytes) key = dim_row_key (((DimEvent *) lookup->events->pdata[request->first])->product);

          hbase_table_get_async (lookup->table, key, &lookup->read, NULL, got_row, request);
        }
      else
        {
          g_autoptr(GPtrArray) keys = g_ptr_array_new_full (request->count, (GDestroyNotify) g_bytes_unref);

          for (guint i = 0; i < request->count; i++)
            g_ptr_array_add (keys, dim_row_key (((DimEvent *) lookup->events->pdata[request->first + i])->product));
          hbase_table_get_multiple_async (lookup->table, keys, &lookup->read, NULL, got_rows, request);
        }
    }
  if (lookup->in_flight == 0 && (lookup->error != NULL || lookup->next == lookup->events->len))
    g_main_loop_quit (lookup->loop);
}

static gboolean
begin (gpointer user_data)
{
  Lookup *lookup = user_data;

  lookup->stats.started = g_get_monotonic_time ();
  start_more (lookup);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  g_autofree char *table_name = NULL;
  g_autofree char *gateways = NULL;
  int in_flight = 128, batch = 1, print = 0;
  const GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table_name, "Table name (default " DIM_DEFAULT_TABLE ")", "NAME" },
    { "gateways", 'g', 0, G_OPTION_ARG_STRING, &gateways, "Gateways (default: HBASE_GLIB_GATEWAYS or localhost:9090)", "LIST" },
    { "in-flight", 'j', 0, G_OPTION_ARG_INT, &in_flight, "At most N requests outstanding (default 128)", "N" },
    { "batch", 'b', 0, G_OPTION_ARG_INT, &batch, "Keys per request: 1 (default) gets, more: get-multiple", "N" },
    { "print", 'p', 0, G_OPTION_ARG_INT, &print, "Print the first N enriched events", "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[EVENTS_FILE | -] - look up dimension rows asynchronously");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  Lookup lookup = { 0 };
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc > 2 || batch < 1 || in_flight < 1 ||
      in_flight > 256)
    {
      g_printerr ("dim-lookup-async: %s\n", error != NULL ? error->message
                  : "usage: dim-lookup-async [--in-flight 1..256] [--batch N>=1] [EVENTS_FILE]");
      return 2;
    }
  if ((events = dim_events_read (argc > 1 ? argv[1] : "-", &error)) == NULL ||
      (client = dim_client_new (gateways, (guint) in_flight, &error)) == NULL ||
      (table = dim_table_open (client, table_name, &error)) == NULL)
    {
      g_printerr ("dim-lookup-async: %s\n", error->message);
      return 1;
    }
  read.columns = columns;
  loop = g_main_loop_new (NULL, FALSE);
  lookup.loop = loop;
  lookup.table = table;
  lookup.events = events;
  lookup.read = read;
  lookup.batch = (guint) batch;
  lookup.max_in_flight = (guint) in_flight;
  lookup.print = (guint) print;
  dim_stats_init (&lookup.stats);
  g_idle_add (begin, &lookup);
  g_main_loop_run (loop);
  lookup.stats.finished = g_get_monotonic_time ();
  if (lookup.error != NULL)
    {
      g_printerr ("dim-lookup-async: %s\n", lookup.error->message);
      g_error_free (lookup.error);
      dim_stats_clear (&lookup.stats);
      return 1;
    }
  dim_print_summary ("dim-lookup-async", events->len, lookup.found, lookup.missing, &lookup.stats);
  printf ("  %u requests of up to %d keys, at most %u in flight (bound %d); "
          "latency per request: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
          lookup.requests, batch, lookup.peak_in_flight, in_flight,
          dim_stats_percentile_ms (&lookup.stats, 50), dim_stats_percentile_ms (&lookup.stats, 99),
          dim_stats_percentile_ms (&lookup.stats, 100));
  dim_stats_clear (&lookup.stats);
  return 0;
}
