/* SPDX-License-Identifier: Apache-2.0 */
/* dim-lookup-sync: enrich events with dimension rows, synchronously, a
 * batch of keys per round trip.
 *
 *   examples/dim-lookup-sync [--batch N] [--print N] [EVENTS_FILE | -]
 *
 * The simplest way to do dimension lookups well: one client for the whole
 * run (the "singleton connection"), and hbase_table_get_multiple() for a
 * batch of events at a time, so a round trip to the gateway is paid once
 * per batch instead of once per event.  Only the columns the join needs
 * are read.  Latency is per call (one batch). */
#include <string.h>

#include "dim-common.h"

static const char *const columns[] = { DIM_FAMILY ":name", DIM_FAMILY ":category", DIM_FAMILY ":warehouse", NULL };

int
main (int argc, char **argv)
{
  g_autofree char *table_name = NULL;
  g_autofree char *gateways = NULL;
  int batch = 100, print = 0;
  const GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table_name, "Table name (default " DIM_DEFAULT_TABLE ")", "NAME" },
    { "gateways", 'g', 0, G_OPTION_ARG_STRING, &gateways, "Gateways (default: HBASE_GLIB_GATEWAYS or localhost:9090)", "LIST" },
    { "batch", 'b', 0, G_OPTION_ARG_INT, &batch, "Keys per get-multiple call (default 100)", "N" },
    { "print", 'p', 0, G_OPTION_ARG_INT, &print, "Print the first N enriched events", "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[EVENTS_FILE | -] - look up dimension rows in batches");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GPtrArray) events = NULL;
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  DimStats stats;
  guint found = 0, missing = 0, calls = 0, printed = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc > 2 || batch < 1)
    {
      g_printerr ("dim-lookup-sync: %s\n", error != NULL ? error->message : "usage: dim-lookup-sync [OPTION...] [EVENTS_FILE]");
      return 2;
    }
  if ((events = dim_events_read (argc > 1 ? argv[1] : "-", &error)) == NULL ||
      (client = dim_client_new (gateways, 1, &error)) == NULL ||
      (table = dim_table_open (client, table_name, &error)) == NULL)
    {
      g_printerr ("dim-lookup-sync: %s\n", error->message);
      return 1;
    }
  read.columns = columns;
  dim_stats_init (&stats);
  for (guint first = 0; first < events->len; first += (guint) batch)
    {
      guint n = MIN ((guint) batch, events->len - first);
      g_autoptr(GPtrArray) keys = g_ptr_array_new_full (n, (GDestroyNotify) g_bytes_unref);
      g_autoptr(GPtrArray) rows = NULL;
      gint64 started;

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (keys, dim_row_key (((DimEvent *) events->pdata[first + i])->product));
      started = g_get_monotonic_time ();
      rows = hbase_table_get_multiple (table, keys, &read, NULL, &error);
      dim_stats_add (&stats, g_get_monotonic_time () - started);
      calls++;
      if (rows == NULL)
        {
          g_printerr ("dim-lookup-sync: %s\n", error->message);
          dim_stats_clear (&stats);
          return 1;
        }
      for (guint i = 0; i < n; i++)
        {
          HBaseRow *row = rows->pdata[i];

          if (hbase_row_is_empty (row))
            missing++;
          else
            found++;
          if (printed < (guint) print)
            {
              dim_print_enriched (events->pdata[first + i], row);
              printed++;
            }
        }
    }
  stats.finished = g_get_monotonic_time ();
  dim_print_summary ("dim-lookup-sync", events->len, found, missing, &stats);
  printf ("  %u get-multiple calls of up to %d keys; latency per call: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
          calls, batch, dim_stats_percentile_ms (&stats, 50), dim_stats_percentile_ms (&stats, 99),
          dim_stats_percentile_ms (&stats, 100));
  dim_stats_clear (&stats);
  return 0;
}
