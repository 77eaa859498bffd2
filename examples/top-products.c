/* SPDX-License-Identifier: Apache-2.0 */
/* top-products: a sorted set kept in an HBase row (hbase-zset.h), with
 * Redis's semantics: the day's best-selling products, updated as sales
 * come in.
 *
 *   examples/top-products [--table NAME] [--sales N] [--drop]
 *
 * Every sale adds 1 to its product's score (ZINCRBY) in the row
 * "sales:DAY" of a table with the family "z" (created when missing); the
 * ranking is then read on the server (ZRANGE ... REV, ZCOUNT, ZREVRANK)
 * without reading the whole set.  --drop drops the table at the end. */
#include <stdio.h>
#include <string.h>

#include <hbase-glib/hbase-glib.h>

static void
print_entries (const char *title, GPtrArray *entries)
{
  printf ("%s\n", title);
  for (guint i = 0; i < entries->len; i++)
    {
      HBaseZSetEntry *entry = entries->pdata[i];

      printf ("  %u. %.*s  %.0f sales\n", i + 1, (int) g_bytes_get_size (entry->member),
              (const char *) g_bytes_get_data (entry->member, NULL), entry->score);
    }
}

static gboolean
run (HBaseClient *client, const char *name, guint sales, GError **error)
{
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  HBaseScoreRange best_sellers = HBASE_SCORE_RANGE_INIT;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseZSet) day = NULL;
  g_autoptr(GBytes) key = g_bytes_new_static ("sales:2025-06-18", 16);
  g_autoptr(GRand) rand = g_rand_new_with_seed (18);
  g_autoptr(HBaseZSetIter) top = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GBytes) p0 = g_bytes_new_static ("P0000000", 8);
  guint64 n_products = 0, n_best = 0, rank = 0;
  gboolean found = FALSE, exists = FALSE;
  double score = 0;

  family.name = "z";
  if (!hbase_client_table_exists (client, name, &exists, NULL, error) ||
      (!exists && !hbase_client_create_table (client, name, &family, 1, NULL, NULL, error)) ||
      (table = hbase_table_new (client, name, error)) == NULL ||
      (day = hbase_zset_new (table, key, NULL, error)) == NULL || !hbase_zset_clear (day, NULL, error))
    return FALSE;

  /* a sale of product k with probability ~ 1/(k+1) over 50 products */
  for (guint i = 0; i < sales; i++)
    {
      double u = g_rand_double (rand) * 4.4992;   /* H(50) = 1 + 1/2 + ... + 1/50 */
      double sum = 1.0;
      guint k = 0;
      char id[16];
      g_autoptr(GBytes) member = NULL;

      while (sum < u && k < 49)
        {
          k++;
          sum += 1.0 / (k + 1);
        }
      g_snprintf (id, sizeof id, "P%07u", k);
      member = g_bytes_new (id, strlen (id));
      if (!hbase_zset_incr_by (day, member, 1, NULL, NULL, error))
        return FALSE;
    }
  printf ("ZINCRBY sales:2025-06-18: %u sales recorded\n", sales);

  best_sellers.min = 10;
  if (!hbase_zset_card (day, &n_products, NULL, error) ||
      !hbase_zset_count (day, &best_sellers, &n_best, NULL, error) ||
      !hbase_zset_rank (day, p0, TRUE, &found, &rank, &score, NULL, error))
    return FALSE;
  printf ("ZCARD: %" G_GUINT64_FORMAT " products sold; ZCOUNT [10, +inf]: %" G_GUINT64_FORMAT
          " sold 10 times or more\n", n_products, n_best);
  if (found)
    printf ("ZREVRANK P0000000: #%" G_GUINT64_FORMAT " with %.0f sales\n", rank + 1, score);

  /* the top 5, highest score first, read on the server */
  top = hbase_zset_range_by_rank (day, 0, 4, TRUE);
  if ((entries = hbase_zset_iter_collect (top, NULL, error)) == NULL)
    return FALSE;
  print_entries ("ZRANGE 0 4 REV WITHSCORES (the top 5):", entries);
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autofree char *table = NULL;
  gboolean drop = FALSE;
  int sales = 300;
  const GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, "Table (default hbase_glib_example_zsets)", "NAME" },
    { "sales", 'n', 0, G_OPTION_ARG_INT, &sales, "Sales to record (default 300)", "N" },
    { "drop", 0, 0, G_OPTION_ARG_NONE, &drop, "Drop the table at the end", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- a day's best-selling products in a sorted set");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  gboolean ok;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || sales < 0)
    {
      g_printerr ("top-products: %s\n", error != NULL ? error->message : "--sales must not be negative");
      return 2;
    }
  if (table == NULL)
    table = g_strdup ("hbase_glib_example_zsets");
  if ((client = hbase_client_get_default (&error)) == NULL)
    {
      g_printerr ("top-products: %s\n", error->message);
      return 1;
    }
  ok = run (client, table, (guint) sales, &error);
  if (drop)
    hbase_client_delete_table (client, table, NULL, ok ? &error : NULL);
  hbase_client_release_default ();
  if (!ok || error != NULL)
    {
      g_printerr ("top-products: %s\n", error->message);
      return 1;
    }
  return 0;
}
