/* SPDX-License-Identifier: Apache-2.0 */
/* dim-load: create the pre-split dimension table of the lookup examples,
 * fill it with products, and write a file of waybill events to look up.
 *
 *   examples/dim-load [--products N] [--regions R] [--events-file FILE --events N]
 *
 * The table (default "dim_product", family "d") is split into R regions
 * (1, 2, 4, 8 or 16) at the salt boundaries of the row keys (see
 * dim-common.h), so the writes and the lookups spread over every region
 * from the start instead of all hitting one.  An existing table is reused
 * (the rows are written again) unless --recreate.  Rows go through an
 * HBaseWriteBuffer, which sends them in batches.
 *
 * Events follow a Zipf-like distribution, as real demand does (a few
 * products are in most waybills), so a cache has something to hit; with
 * --unknown PERCENT some name products the table does not have.
 *
 * Split keys are refused over framed transport (see hbase_client_create_table):
 * use a buffered gateway (the local stack's default, :9090). */
#include <stdlib.h>
#include <string.h>

#include "dim-common.h"

static const char *const categories[] = { "生鲜", "家电", "服装", "图书", "日用", "数码", "母婴", "食品" };
static const char *const warehouses[] = { "WH-BJ01", "WH-SH02", "WH-GZ03", "WH-CD04", "WH-WH05" };

static gboolean
ensure_table (HBaseClient *client, const char *table, guint regions, gboolean recreate, GError **error)
{
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  g_autoptr(GPtrArray) splits = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  gboolean exists = FALSE;

  if (!hbase_client_table_exists (client, table, &exists, NULL, error))
    return FALSE;
  if (exists && !recreate)
    {
      printf ("table %s exists: writing its rows again (--recreate starts afresh)\n", table);
      return TRUE;
    }
  if (exists && !hbase_client_delete_table (client, table, NULL, error))
    return FALSE;
  /* regions start at salts 16/R, 2*16/R, ...: "04", "08", "12" for R = 4 */
  for (guint i = 1; i < regions; i++)
    {
      char *split = g_strdup_printf ("%02u", i * DIM_SALT_BUCKETS / regions);

      g_ptr_array_add (splits, g_bytes_new_take (split, strlen (split)));
    }
  family.name = DIM_FAMILY;
  family.max_versions = 1;              /* a dimension row: only its current state */
  family.bloom_filter = HBASE_BLOOM_FILTER_ROW; /* point gets skip files without the row */
  if (!hbase_client_create_table (client, table, &family, 1, splits->len > 0 ? splits : NULL, NULL, error))
    return FALSE;
  printf ("created table %s with %u regions\n", table, regions);
  return TRUE;
}

static HBaseMutation *
product_row (guint index)
{
  g_autofree char *id = dim_product_id (index);
  g_autoptr(GBytes) key = dim_row_key (id);
  HBaseMutation *put = hbase_mutation_new_put (key);
  struct { const char *qualifier; char *value; } cells[] = {
    { "name", g_strdup_printf ("product %07u", index) },
    { "category", g_strdup (categories[index % G_N_ELEMENTS (categories)]) },
    { "warehouse", g_strdup (warehouses[(index / 3) % G_N_ELEMENTS (warehouses)]) },
    { "weight_g", g_strdup_printf ("%u", 50 + (index * 37) % 20000) },
    { "price_cents", g_strdup_printf ("%u", 99 + (index * 7919) % 100000) },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      g_autoptr(GBytes) value = g_bytes_new_take (cells[i].value, strlen (cells[i].value));

      hbase_mutation_put (put, DIM_FAMILY, cells[i].qualifier, value);
    }
  return put;
}

static void
on_failure (HBaseWriteBuffer *buffer, HBaseMutation *mutation, const GError *error, gpointer user_data)
{
  guint *failures = user_data;

  if ((*failures)++ == 0)
    g_printerr ("dim-load: a row was not written: %s\n", error->message);
}

static gboolean
fill (HBaseClient *client, const char *name, guint products, GError **error)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseTable) table = hbase_table_new (client, name, error);
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  gint64 started = g_get_monotonic_time ();
  guint failures = 0;
  double seconds;

  if (table == NULL)
    return FALSE;
  options.max_mutations = 500;
  /* the next 500 rows are built while the last 500 are written; failures
   * are then counted by the buffer's thread, read here after close */
  options.background_flush = TRUE;
  options.on_failure = on_failure;
  options.user_data = &failures;
  if ((buffer = hbase_write_buffer_new (table, &options, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < products; i++)
    {
      g_autoptr(HBaseMutation) put = product_row (i);

      if (!hbase_write_buffer_add (buffer, put, NULL, error))
        return FALSE;
    }
  if (!hbase_write_buffer_close (buffer, NULL, error))
    return FALSE;
  if (failures > 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_IO, "%u of %u rows were not written", failures, products);
      return FALSE;
    }
  seconds = (double) (g_get_monotonic_time () - started) / G_USEC_PER_SEC;
  printf ("loaded %u products into %s in %.3f s (%.0f rows/s)\n", products, name, seconds,
          seconds > 0 ? products / seconds : 0.0);
  return TRUE;
}

/* Ranks by a Zipf(1) distribution: P(k) ~ 1/k. */
static gboolean
write_events (const char *path, guint count, guint products, double unknown_percent, guint32 seed, GError **error)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree double *cumulative = g_new (double, products);
  g_autoptr(GHashTable) distinct = g_hash_table_new (g_direct_hash, g_direct_equal);
  FILE *out = strcmp (path, "-") == 0 ? stdout : fopen (path, "w");
  double total = 0;
  guint unknown = 0;

  if (out == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot write %s", path);
      return FALSE;
    }
  for (guint k = 0; k < products; k++)
    cumulative[k] = (total += 1.0 / (k + 1));
  for (guint i = 0; i < count; i++)
    {
      g_autofree char *id = NULL;

      if (g_rand_double (rand) * 100.0 < unknown_percent)
        {
          id = dim_product_id (products + g_rand_int_range (rand, 0, 1000000));
          unknown++;
        }
      else
        {
          double u = g_rand_double (rand) * total;
          guint low = 0, high = products - 1;

          while (low < high)
            {
              guint mid = (low + high) / 2;

              if (cumulative[mid] < u)
                low = mid + 1;
              else
                high = mid;
            }
          /* spread the hot ranks over the ids (a permutation: 7919 is prime) */
          if (products % 7919u != 0)
            low = (guint) (((guint64) low * 7919u) % products);
          g_hash_table_add (distinct, GUINT_TO_POINTER (low + 1));
          id = dim_product_id (low);
        }
      fprintf (out, "W%09u\t%s\n", i + 1, id);
    }
  if (out != stdout && fclose (out) != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot write %s", path);
      return FALSE;
    }
  if (out != stdout)
    printf ("wrote %u events to %s: %u distinct products, %u unknown\n", count, path,
            g_hash_table_size (distinct), unknown);
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autofree char *table = NULL;
  g_autofree char *gateways = NULL;
  g_autofree char *events_file = NULL;
  int products = 10000, regions = 8, events = 20000, seed = 42;
  double unknown = 0;
  gboolean recreate = FALSE, no_load = FALSE;
  const GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, "Table name (default " DIM_DEFAULT_TABLE ")", "NAME" },
    { "gateways", 'g', 0, G_OPTION_ARG_STRING, &gateways, "Gateways (default: HBASE_GLIB_GATEWAYS or localhost:9090)", "LIST" },
    { "products", 'n', 0, G_OPTION_ARG_INT, &products, "Products to load (default 10000)", "N" },
    { "regions", 'r', 0, G_OPTION_ARG_INT, &regions, "Regions: 1, 2, 4, 8 (default) or 16", "R" },
    { "recreate", 0, 0, G_OPTION_ARG_NONE, &recreate, "Drop the table first if it exists", NULL },
    { "no-load", 0, 0, G_OPTION_ARG_NONE, &no_load, "Do not touch the table; only write events", NULL },
    { "events-file", 'e', 0, G_OPTION_ARG_FILENAME, &events_file, "Write events to FILE (\"-\": stdout)", "FILE" },
    { "events", 0, 0, G_OPTION_ARG_INT, &events, "Events to write (default 20000)", "N" },
    { "unknown", 0, 0, G_OPTION_ARG_DOUBLE, &unknown, "Percentage of events naming unknown products", "PERCENT" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "Seed of the event generator (default 42)", "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- load the dimension table of the lookup examples");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc > 1)
    {
      g_printerr ("dim-load: %s\n", error != NULL ? error->message : "unexpected argument");
      return 2;
    }
  if (products < 1 || events < 0 || (regions != 1 && regions != 2 && regions != 4 && regions != 8 && regions != 16) ||
      unknown < 0 || unknown > 100)
    {
      g_printerr ("dim-load: --products must be positive, --regions 1, 2, 4, 8 or 16, --unknown 0 to 100\n");
      return 2;
    }
  if (table == NULL)
    table = g_strdup (DIM_DEFAULT_TABLE);
  if (!no_load)
    {
      if ((client = dim_client_new (gateways, 1, &error)) == NULL ||
          !ensure_table (client, table, (guint) regions, recreate, &error) ||
          !fill (client, table, (guint) products, &error))
        {
          g_printerr ("dim-load: %s\n", error->message);
          return 1;
        }
    }
  if (events_file != NULL && !write_events (events_file, (guint) events, (guint) products, unknown, (guint32) seed, &error))
    {
      g_printerr ("dim-load: %s\n", error->message);
      return 1;
    }
  return 0;
}
