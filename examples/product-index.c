/* SPDX-License-Identifier: Apache-2.0 */
/* product-index: a secondary index of HBase columns kept in Redis
 * (hbase-index.h, hbase-index-query.h): products found by category and
 * weight without scanning the table.
 *
 *   examples/product-index [--table NAME] [--products N] [--redis HOST:PORT] [--drop]
 *
 * HBase finds rows by key only; a secondary index keeps an index in
 * Redis: a set of row keys per category for equality, a sorted set of
 * weights for ranges.  This program defines the index (the definitions
 * live in HBase), builds it, writes products through the indexed table
 * handle (every put updates Redis too), then asks "books weighing 1 to
 * 2 kg", counts them and verifies the index against the table.  The table
 * (family "d") is created when missing; --drop drops the index and the
 * table at the end. */
#include <stdio.h>
#include <string.h>

#include <hbase-glib/hbase-glib-index.h>

static const char *const categories[] = { "book", "fresh", "appliance", "clothing", "toy" };

static gboolean
run (HBaseClient *client, const char *name, guint products, const HBaseIndexOptions *options, GError **error)
{
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  g_autoptr(HBaseIndex) index = NULL;
  g_autoptr(HBaseIndexReport) report = NULL;
  g_autoptr(HBaseIndexQuery) in_books = NULL;
  g_autoptr(HBaseIndexQuery) light = NULL;
  g_autoptr(HBaseIndexQuery) query = NULL;
  g_autoptr(HBaseIndexPage) page = NULL;
  g_autoptr(GBytes) book = g_bytes_new_static ("book", 4);
  g_autofree char *query_text = NULL;
  const char *const columns[] = { "d:name", NULL };
  HBaseIndexFindOptions find = HBASE_INDEX_FIND_OPTIONS_INIT;
  HBaseTable *table;
  gint64 min = 1000, max = 2000;
  guint64 count = 0;
  gboolean exists = FALSE;

  family.name = "d";
  if (!hbase_client_table_exists (client, name, &exists, NULL, error) ||
      (!exists && !hbase_client_create_table (client, name, &family, 1, NULL, NULL, error)))
    return FALSE;

  /* 1. the definitions: kept in HBase, read by every client of the table */
  if (!hbase_index_spec_add (spec, "category", "d", "category", HBASE_INDEX_VALUE_STRING, HBASE_INDEX_EXACT, error) ||
      !hbase_index_spec_add (spec, "weight", "d", "weight_g", HBASE_INDEX_VALUE_INT64, HBASE_INDEX_RANGE, error) ||
      !hbase_index_create_meta_table (client, options, NULL, error) ||
      !hbase_index_define (client, name, spec, options, NULL, error) ||
      (index = hbase_index_open (client, name, options, NULL, error)) == NULL ||
      (report = hbase_index_rebuild (index, NULL, NULL, error)) == NULL)
    return FALSE;
  printf ("defined and built the index of %s: category (exact), weight (range)\n", name);

  /* 2. writes through the index's table handle keep Redis up to date */
  table = hbase_index_get_table (index);
  for (guint i = 0; i < products; i++)
    {
      char key[16], product[32], weight[16];
      g_autoptr(HBaseMutation) put = NULL;
      g_autoptr(GBytes) row = NULL;
      g_autoptr(GBytes) name_value = NULL;
      g_autoptr(GBytes) category = NULL;
      g_autoptr(GBytes) weight_value = NULL;

      g_snprintf (key, sizeof key, "P%07u", i);
      g_snprintf (product, sizeof product, "product %07u", i);
      g_snprintf (weight, sizeof weight, "%u", 100 + (i * 7919) % 5000);
      row = g_bytes_new (key, strlen (key));
      name_value = g_bytes_new (product, strlen (product));
      category = g_bytes_new_static (categories[i % G_N_ELEMENTS (categories)],
                                     strlen (categories[i % G_N_ELEMENTS (categories)]));
      weight_value = g_bytes_new (weight, strlen (weight));
      put = hbase_mutation_new_put (row);
      hbase_mutation_put (put, "d", "name", name_value);
      hbase_mutation_put (put, "d", "category", category);
      hbase_mutation_put (put, "d", "weight_g", weight_value);
      if (!hbase_table_apply (table, put, NULL, error))
        return FALSE;
    }
  printf ("wrote %u products through the index\n", products);

  /* 3. a query answered from Redis, rows fetched from HBase and checked */
  /* and() takes its own references: the conditions stay ours to release */
  in_books = hbase_index_query_equal ("category", book);
  light = hbase_index_query_range_int64 ("weight", &min, TRUE, &max, FALSE);
  query = hbase_index_query_and (in_books, light);
  query_text = hbase_index_query_to_string (query);
  find.columns = columns;
  find.limit = 5;
  if (!hbase_index_count (index, query, &count, NULL, error) ||
      (page = hbase_index_find (index, query, &find, NULL, error)) == NULL)
    return FALSE;
  printf ("%s: %" G_GUINT64_FORMAT " products; the first %u:\n", query_text, count,
          hbase_index_page_get_rows (page)->len);
  for (guint i = 0; i < hbase_index_page_get_rows (page)->len; i++)
    {
      HBaseRow *row = hbase_index_page_get_rows (page)->pdata[i];
      GBytes *key = hbase_row_get_key (row);
      GBytes *weight = hbase_row_lookup (row, "d", "weight_g");

      printf ("  %.*s  %.*s g\n", (int) g_bytes_get_size (key), (const char *) g_bytes_get_data (key, NULL),
              weight != NULL ? (int) g_bytes_get_size (weight) : 1,
              weight != NULL ? (const char *) g_bytes_get_data (weight, NULL) : "?");
    }
  printf ("candidates from Redis: %" G_GUINT64_FORMAT ", rows fetched: %" G_GUINT64_FORMAT "\n",
          hbase_index_page_get_stats (page)->candidates, hbase_index_page_get_stats (page)->fetched);

  /* 4. the index against the table */
  g_clear_pointer (&report, hbase_index_report_free);
  if ((report = hbase_index_verify (index, NULL, NULL, error)) == NULL)
    return FALSE;
  printf ("verify: %s\n", hbase_index_report_is_consistent (report) ? "consistent" : "NOT consistent");
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autofree char *table = NULL;
  g_autofree char *redis = NULL;
  g_autofree char *redis_host = NULL;
  gboolean drop = FALSE;
  int products = 200;
  const GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, "Table (default hbase_glib_example_products)", "NAME" },
    { "products", 'n', 0, G_OPTION_ARG_INT, &products, "Products to write (default 200)", "N" },
    { "redis", 0, 0, G_OPTION_ARG_STRING, &redis, "Redis (default 127.0.0.1:6379)", "HOST:PORT" },
    { "drop", 0, 0, G_OPTION_ARG_NONE, &drop, "Drop the index and the table at the end", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- products found through a Redis index");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  gboolean ok;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || products < 1)
    {
      g_printerr ("product-index: %s\n", error != NULL ? error->message : "--products must be positive");
      return 2;
    }
  if (table == NULL)
    table = g_strdup ("hbase_glib_example_products");
  if (redis != NULL)
    {
      const char *colon = strrchr (redis, ':');

      redis_host = colon != NULL ? g_strndup (redis, (gsize) (colon - redis)) : g_strdup (redis);
      options.redis_host = redis_host;
      options.redis_port = colon != NULL ? (guint) g_ascii_strtoull (colon + 1, NULL, 10) : 0;
    }
  if ((client = hbase_client_get_default (&error)) == NULL)
    {
      g_printerr ("product-index: %s\n", error->message);
      return 1;
    }
  ok = run (client, table, (guint) products, &options, &error);
  if (drop)
    {
      g_autoptr(HBaseIndex) index = hbase_index_open (client, table, &options, NULL, NULL);

      if (index != NULL)
        hbase_index_drop (index, NULL, NULL);
      hbase_client_delete_table (client, table, NULL, ok ? &error : NULL);
    }
  hbase_client_release_default ();
  if (!ok || error != NULL)
    {
      g_printerr ("product-index: %s\n", error->message);
      return 1;
    }
  return 0;
}
