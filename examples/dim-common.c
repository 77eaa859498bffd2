/* SPDX-License-Identifier: Apache-2.0 */
/* dim-common.c: configuration, row keys, events and statistics of the
 * dimension-lookup examples (see dim-common.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dim-common.h"

HBaseClient *
dim_client_new (const char *gateways, guint min_pool, GError **error)
{
  g_autoptr(HBaseConfig) config = hbase_config_new_from_environment (error);

  if (config == NULL)
    return NULL;
  if (gateways != NULL && !hbase_config_set_gateways (config, gateways, error))
    return NULL;
  if (hbase_config_get_pool_size (config) < min_pool && !hbase_config_set_pool_size (config, min_pool, error))
    return NULL;
  return hbase_client_new (config);
}

HBaseTable *
dim_table_open (HBaseClient *client, const char *name, GError **error)
{
  gboolean exists = FALSE;

  if (name == NULL)
    name = DIM_DEFAULT_TABLE;
  if (!hbase_client_table_exists (client, name, &exists, NULL, error))
    return NULL;
  if (!exists)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND,
                   "table %s does not exist (examples/dim-load creates it)", name);
      return NULL;
    }
  return hbase_table_new (client, name, error);
}

/* FNV-1a: cheap, stable across machines and releases, good enough to
 * spread sequential ids. */
guint
dim_salt (const char *product_id)
{
  guint32 hash = 2166136261u;

  for (const guchar *p = (const guchar *) product_id; *p != '\0'; p++)
    hash = (hash ^ *p) * 16777619u;
  return hash % DIM_SALT_BUCKETS;
}

GBytes *
dim_row_key (const char *product_id)
{
  char *key = g_strdup_printf ("%02u|%s", dim_salt (product_id), product_id);

  return g_bytes_new_take (key, strlen (key));
}

char *
dim_product_id (guint index)
{
  return g_strdup_printf ("P%07u", index);
}

static void
event_free (gpointer data)
{
  DimEvent *event = data;

  g_free (event->waybill);
  g_free (event->product);
  g_free (event);
}

GPtrArray *
dim_events_read (const char *path, GError **error)
{
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (event_free);
  FILE *in = strcmp (path, "-") == 0 ? stdin : fopen (path, "r");
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  guint number = 0;

  if (in == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "cannot read events from %s: %s", path,
                   g_strerror (errno));
      return NULL;
    }
  while ((length = getline (&line, &capacity, in)) >= 0)
    {
      char *tab;
      DimEvent *event;

      number++;
      while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
        line[--length] = '\0';
      if (length == 0 || line[0] == '#')
        continue;
      event = g_new0 (DimEvent, 1);
      if ((tab = strchr (line, '\t')) != NULL)
        {
          event->waybill = g_strndup (line, (gsize) (tab - line));
          event->product = g_strdup (tab + 1);
        }
      else
        {
          event->waybill = g_strdup_printf ("line-%u", number);
          event->product = g_strdup (line);
        }
      g_ptr_array_add (events, event);
    }
  free (line);
  if (in != stdin)
    fclose (in);
  return g_steal_pointer (&events);
}

void
dim_stats_init (DimStats *stats)
{
  stats->samples = g_array_new (FALSE, FALSE, sizeof (gint64));
  stats->started = g_get_monotonic_time ();
  stats->finished = stats->started;
}

void
dim_stats_clear (DimStats *stats)
{
  g_clear_pointer (&stats->samples, g_array_unref);
}

void
dim_stats_add (DimStats *stats, gint64 microseconds)
{
  g_array_append_val (stats->samples, microseconds);
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

double
dim_stats_percentile_ms (DimStats *stats, double percent)
{
  guint n = stats->samples->len;
  guint rank;

  if (n == 0)
    return 0;
  g_array_sort (stats->samples, compare_gint64);
  rank = (guint) (percent / 100.0 * n + 0.999999);
  rank = CLAMP (rank, 1, n);
  return (double) g_array_index (stats->samples, gint64, rank - 1) / 1000.0;
}

double
dim_stats_seconds (const DimStats *stats)
{
  return (double) (stats->finished - stats->started) / G_USEC_PER_SEC;
}

static void
print_value (HBaseRow *row, const char *qualifier)
{
  GBytes *value = hbase_row_lookup (row, DIM_FAMILY, qualifier);
  gsize length = 0;
  const char *data = value != NULL ? g_bytes_get_data (value, &length) : "";

  printf ("\t%.*s", (int) length, data);
}

void
dim_print_enriched (const DimEvent *event, HBaseRow *row)
{
  printf ("%s\t%s", event->waybill, event->product);
  if (row == NULL || hbase_row_is_empty (row))
    printf ("\t(not found)");
  else
    {
      print_value (row, "name");
      print_value (row, "category");
      print_value (row, "warehouse");
    }
  printf ("\n");
}

void
dim_print_summary (const char *program, guint events, guint found, guint missing, DimStats *stats)
{
  double seconds = dim_stats_seconds (stats);

  printf ("%s: %u events, %u found, %u missing, %.3f s, %.0f events/s\n", program, events, found, missing,
          seconds, seconds > 0 ? events / seconds : 0.0);
}
