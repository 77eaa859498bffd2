/* SPDX-License-Identifier: Apache-2.0 */
/* scan-across-gateways: concurrent scans through one client of several
 * gateways, each checking that it sees every row once and in order.
 *
 *   scan-across-gateways HOST:PORT,HOST:PORT [THREADS]
 *
 * A server scanner lives in the gateway that opened it, and scanner ids
 * are small numbers each gateway counts from 0.  When a client of several
 * gateways sends getScannerRows over a pooled connection to another
 * gateway, that gateway answers with the rows of its own scanner of the
 * same id (another scan's, maybe another client's): rows are skipped and
 * repeated; or, when it has no scanner of that id, "Invalid scanner Id",
 * and the scan resumes with a new server scanner (leaving the first one
 * open).  Counted here: rows out of sequence, and those resumptions (the
 * library's debug message), none of which should happen with no failure.
 * Fresh gateways count scanner ids in step, so rows go wrong; gateways with
 * different histories mostly answer "Invalid scanner Id".  With one gateway
 * neither happens.  Creates and deletes a table of its own.  Exit status 0:
 * every scan whole and never resumed; 1: otherwise; 2: no stack. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib.h>

#define ROWS 2000

static const char *const names[] = { "A", "B", "C", "D", "E", "F", "G", "H" };

static HBaseTable *table;
static gint out_of_sequence;
static gint resumed_invalid_id;

static void
count_resumptions (const char *domain, GLogLevelFlags level, const char *message, gpointer user_data)
{
  (void) domain;
  (void) level;
  (void) user_data;
  if (strstr (message, "Invalid scanner Id") != NULL && strstr (message, "resuming") != NULL)
    g_atomic_int_inc (&resumed_invalid_id);
}

static gpointer
scan_all (gpointer name)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  HBaseRow *row;
  guint next = 0, seen = 0, bad = 0;

  options.caching = 20;
  scanner = hbase_table_scan (table, &options, &error);
  while (scanner != NULL && (row = hbase_scanner_next (scanner, NULL, &error)) != NULL)
    {
      gsize len;
      const char *key = g_bytes_get_data (hbase_row_get_key (row), &len);
      guint n = (guint) g_ascii_strtoull (key + 1, NULL, 10);

      if (n != next && bad++ < 3)
        printf ("scan %s: after %u rows expected r%06u, got %.*s\n", (const char *) name, seen, next,
                (int) len, key);
      next = n + 1;
      seen++;
      hbase_row_unref (row);
      /* slow enough for the other scans to take the pooled connections */
      if (seen % 20 == 0)
        g_usleep (20 * 1000);
    }
  if (error != NULL)
    printf ("scan %s: %s\n", (const char *) name, error->message);
  else if (seen != ROWS)
    bad++;
  printf ("scan %s: %u rows, %u out of sequence\n", (const char *) name, seen, bad);
  g_atomic_int_add (&out_of_sequence, (gint) bad);
  return NULL;
}

int
main (int argc, char **argv)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autofree char *name = g_strdup_printf ("scan_across_gateways_%d", (int) getpid ());
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  GThread *threads[8];
  guint n_threads = argc > 2 ? (guint) CLAMP (atoi (argv[2]), 2, 8) : 3;
  guint i;

  if (argc < 2)
    {
      fprintf (stderr, "usage: scan-across-gateways HOST:PORT,HOST:PORT [THREADS]\n");
      return 2;
    }
  g_log_set_handler ("hbase-glib", G_LOG_LEVEL_DEBUG, count_resumptions, NULL);
  family.name = "f";
  if (!hbase_config_set_gateways (config, argv[1], &error) ||
      (client = hbase_client_new (config, &error)) == NULL ||
      !hbase_admin_create_table (client, name, &family, 1, NULL, NULL, &error) ||
      (table = hbase_table_new (client, name, &error)) == NULL)
    {
      fprintf (stderr, "scan-across-gateways: %s\n", error->message);
      return 2;
    }
  for (i = 0; i < ROWS; i++)
    {
      g_autofree char *key = g_strdup_printf ("r%06u", i);
      g_autoptr(GBytes) row = g_bytes_new (key, strlen (key));
      g_autoptr(GBytes) value = g_bytes_new_static ("x", 1);
      HBaseMutation *put = hbase_mutation_new_put (row);

      hbase_mutation_put (put, "f", "v", value);
      g_ptr_array_add (batch, put);
    }
  if (!hbase_table_apply_multiple (table, batch, NULL, &error))
    {
      fprintf (stderr, "scan-across-gateways: %s\n", error->message);
      return 2;
    }
  for (i = 0; i < n_threads; i++)
    threads[i] = g_thread_new ("scan", scan_all, (gpointer) names[i]);
  for (i = 0; i < n_threads; i++)
    g_thread_join (threads[i]);
  g_object_unref (table);
  if (!hbase_admin_delete_table (client, name, NULL, &error))
    fprintf (stderr, "scan-across-gateways: deleting %s: %s\n", name, error->message);
  printf ("%d rows out of sequence, %d resumptions after \"Invalid scanner Id\" in %u concurrent scans through %s\n",
          out_of_sequence, resumed_invalid_id, n_threads, argv[1]);
  return out_of_sequence == 0 && resumed_invalid_id == 0 ? 0 : 1;
}
