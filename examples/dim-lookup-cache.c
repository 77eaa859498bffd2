/* SPDX-License-Identifier: Apache-2.0 */
/* dim-lookup-cache: enrich events with dimension rows through an LRU cache.
 *
 *   examples/dim-lookup-cache [--capacity N] [--ttl-ms MS] [--print N] [EVENTS_FILE | -]
 *
 * Demand is skewed (a few products are in most waybills), so most lookups
 * can be answered from memory: the program keeps the N most recently used
 * rows, evicting the least recently used, and goes to HBase (one get) only
 * on a miss.  Products that do not exist are cached too (a "negative"
 * entry), so a stream of bad ids does not turn into a stream of gets.
 * With --ttl-ms an entry older than MS is fetched again, which bounds how
 * stale a joined dimension can be.  It prints the hit ratio, and latency
 * per event (a hit costs microseconds, a miss a round trip). */
#include <string.h>

#include "dim-common.h"

static const char *const columns[] = { DIM_FAMILY ":name", DIM_FAMILY ":category", DIM_FAMILY ":warehouse", NULL };

typedef struct {
  char *product;
  HBaseRow *row;        /* an empty row: the product does not exist */
  gint64 loaded;
  GList link;           /* in Cache.order, most recent first */
} Entry;

typedef struct {
  GHashTable *entries;  /* product id -> Entry */
  GQueue order;
  guint capacity;
  gint64 ttl_us;
  guint64 hits;
  guint64 misses;
  guint64 evictions;
  guint64 expirations;
} Cache;

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->product);
  hbase_row_unref (entry->row);
  g_free (entry);
}

static void
cache_init (Cache *cache, guint capacity, gint64 ttl_us)
{
  *cache = (Cache) { 0 };
  cache->entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, entry_free);
  g_queue_init (&cache->order);
  cache->capacity = capacity;
  cache->ttl_us = ttl_us;
}

static void
cache_remove (Cache *cache, Entry *entry)
{
  g_queue_unlink (&cache->order, &entry->link);
  g_hash_table_remove (cache->entries, entry->product);
}

/* The cached row of @product, or NULL on a miss (absent or expired). */
static HBaseRow *
cache_lookup (Cache *cache, const char *product, gint64 now)
{
  Entry *entry = g_hash_table_lookup (cache->entries, product);

  if (entry != NULL && cache->ttl_us > 0 && now - entry->loaded > cache->ttl_us)
    {
      cache_remove (cache, entry);
      cache->expirations++;
      entry = NULL;
    }
  if (entry == NULL)
    {
      cache->misses++;
      return NULL;
    }
  cache->hits++;
  g_queue_unlink (&cache->order, &entry->link);
  g_queue_push_head_link (&cache->order, &entry->link);
  return entry->row;
}

static void
cache_insert (Cache *cache, const char *product, HBaseRow *row, gint64 now)
{
  Entry *entry;

  if (cache->capacity == 0)
    return;
  while (g_hash_table_size (cache->entries) >= cache->capacity)
    {
      cache_remove (cache, ((GList *) g_queue_peek_tail_link (&cache->order))->data);
      cache->evictions++;
    }
  entry = g_new0 (Entry, 1);
  entry->product = g_strdup (product);
  entry->row = hbase_row_ref (row);
  entry->loaded = now;
  entry->link.data = entry;
  g_queue_push_head_link (&cache->order, &entry->link);
  g_hash_table_insert (cache->entries, entry->product, entry);
}

static void
cache_clear (Cache *cache)
{
  g_queue_init (&cache->order);
  g_clear_pointer (&cache->entries, g_hash_table_unref);
}

int
main (int argc, char **argv)
{
  g_autofree char *table_name = NULL;
  g_autofree char *gateways = NULL;
  int capacity = 1000, ttl_ms = 0, print = 0;
  const GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table_name, "Table name (default " DIM_DEFAULT_TABLE ")", "NAME" },
    { "gateways", 'g', 0, G_OPTION_ARG_STRING, &gateways, "Gateways (default: HBASE_GLIB_GATEWAYS or localhost:9090)", "LIST" },
    { "capacity", 'c', 0, G_OPTION_ARG_INT, &capacity, "Rows the cache keeps (default 1000; 0: no cache)", "N" },
    { "ttl-ms", 0, 0, G_OPTION_ARG_INT, &ttl_ms, "Fetch a cached row again after MS milliseconds (default: never)", "MS" },
    { "print", 'p', 0, G_OPTION_ARG_INT, &print, "Print the first N enriched events", "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[EVENTS_FILE | -] - look up dimension rows through an LRU cache");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GPtrArray) events = NULL;
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  DimStats stats, miss_stats;
  Cache cache;
  guint found = 0, missing = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc > 2 || capacity < 0 || ttl_ms < 0)
    {
      g_printerr ("dim-lookup-cache: %s\n", error != NULL ? error->message
                  : "usage: dim-lookup-cache [--capacity N] [--ttl-ms MS] [EVENTS_FILE]");
      return 2;
    }
  if ((events = dim_events_read (argc > 1 ? argv[1] : "-", &error)) == NULL ||
      (client = dim_client_new (gateways, 1, &error)) == NULL ||
      (table = dim_table_open (client, table_name, &error)) == NULL)
    {
      g_printerr ("dim-lookup-cache: %s\n", error->message);
      return 1;
    }
  read.columns = columns;
  cache_init (&cache, (guint) capacity, (gint64) ttl_ms * 1000);
  dim_stats_init (&stats);
  dim_stats_init (&miss_stats);
  for (guint i = 0; i < events->len; i++)
    {
      DimEvent *event = events->pdata[i];
      gint64 started = g_get_monotonic_time ();
      HBaseRow *row = cache_lookup (&cache, event->product, started);
      g_autoptr(HBaseRow) fetched = NULL;

      if (row == NULL)
        {
          g_autoptr(GBytes) key = dim_row_key (event->product);

          if ((fetched = hbase_table_get (table, key, &read, NULL, &error)) == NULL)
            {
              g_printerr ("dim-lookup-cache: %s\n", error->message);
              cache_clear (&cache);
              dim_stats_clear (&stats);
              dim_stats_clear (&miss_stats);
              return 1;
            }
          row = fetched;
          cache_insert (&cache, event->product, row, g_get_monotonic_time ());
          dim_stats_add (&miss_stats, g_get_monotonic_time () - started);
        }
      dim_stats_add (&stats, g_get_monotonic_time () - started);
      if (hbase_row_is_empty (row))
        missing++;
      else
        found++;
      if (i < (guint) print)
        dim_print_enriched (event, row);
    }
  stats.finished = g_get_monotonic_time ();
  dim_print_summary ("dim-lookup-cache", events->len, found, missing, &stats);
  printf ("  cache of %d rows: %" G_GUINT64_FORMAT " hits, %" G_GUINT64_FORMAT " misses, hit ratio %.1f %%, "
          "%" G_GUINT64_FORMAT " evictions, %" G_GUINT64_FORMAT " expired\n",
          capacity, cache.hits, cache.misses,
          cache.hits + cache.misses > 0 ? 100.0 * (double) cache.hits / (double) (cache.hits + cache.misses) : 0.0,
          cache.evictions, cache.expirations);
  printf ("  latency per event: p50 %.3f ms, p99 %.3f ms; per miss (one get): p50 %.2f ms, p99 %.2f ms\n",
          dim_stats_percentile_ms (&stats, 50), dim_stats_percentile_ms (&stats, 99),
          dim_stats_percentile_ms (&miss_stats, 50), dim_stats_percentile_ms (&miss_stats, 99));
  cache_clear (&cache);
  dim_stats_clear (&stats);
  dim_stats_clear (&miss_stats);
  return 0;
}
