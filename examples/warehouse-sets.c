/* SPDX-License-Identifier: Apache-2.0 */
/* warehouse-sets: sets kept in HBase rows (hbase-set.h), with Redis's
 * semantics: which products each warehouse stocks.
 *
 *   examples/warehouse-sets [--table NAME] [--drop]
 *
 * Each warehouse is one set, in the row "stock:WAREHOUSE" of a table with
 * the family "s" (created when missing).  SADD, SISMEMBER, SCARD, SINTER
 * and SDIFF run against HBase; the members are product ids.  --drop drops
 * the table at the end. */
#include <stdio.h>
#include <string.h>

#include <hbase-glib/hbase-glib.h>

static GPtrArray *
products (const char *const *ids)
{
  GPtrArray *array = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (; *ids != NULL; ids++)
    g_ptr_array_add (array, g_bytes_new (*ids, strlen (*ids)));
  return array;
}

static HBaseSet *
warehouse (HBaseTable *table, const char *name, GError **error)
{
  g_autofree char *row = g_strconcat ("stock:", name, NULL);
  g_autoptr(GBytes) key = g_bytes_new (row, strlen (row));

  return hbase_set_new (table, key, NULL, error);   /* family "s", one row */
}

static gboolean
print_members (const char *title, HBaseSetIter *iter, GError **error)
{
  g_autoptr(GBytes) member = NULL;

  printf ("%s:", title);
  while (hbase_set_iter_next (iter, &member, NULL, error) && member != NULL)
    {
      printf (" %.*s", (int) g_bytes_get_size (member), (const char *) g_bytes_get_data (member, NULL));
      g_clear_pointer (&member, g_bytes_unref);
    }
  printf ("\n");
  return error == NULL || *error == NULL;
}

static gboolean
run (HBaseClient *client, const char *name, GError **error)
{
  static const char *const beijing[] = { "P0000001", "P0000002", "P0000004", "P0000006", "P0000008", "P0000010", NULL };
  static const char *const shanghai[] = { "P0000002", "P0000003", "P0000004", "P0000006", "P0000009", NULL };
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseSet) bj = NULL;
  g_autoptr(HBaseSet) sh = NULL;
  g_autoptr(GPtrArray) bj_products = products (beijing);
  g_autoptr(GPtrArray) sh_products = products (shanghai);
  g_autoptr(GPtrArray) both = g_ptr_array_new ();
  g_autoptr(GBytes) probe = g_bytes_new_static ("P0000003", 8);
  g_autoptr(HBaseSetIter) common = NULL;
  g_autoptr(HBaseSetIter) only_bj = NULL;
  guint64 added = 0, n_bj = 0, n_sh = 0;
  gboolean stocked = FALSE;
  gboolean exists = FALSE;

  family.name = "s";
  if (!hbase_client_table_exists (client, name, &exists, NULL, error) ||
      (!exists && !hbase_client_create_table (client, name, &family, 1, NULL, NULL, error)) ||
      (table = hbase_table_new (client, name, error)) == NULL ||
      (bj = warehouse (table, "WH-BJ01", error)) == NULL || (sh = warehouse (table, "WH-SH02", error)) == NULL)
    return FALSE;

  /* SADD: members already there are not counted again */
  if (!hbase_set_add (bj, bj_products, &added, NULL, error))
    return FALSE;
  printf ("SADD stock:WH-BJ01 (6 products): %" G_GUINT64_FORMAT " new\n", added);
  if (!hbase_set_add (sh, sh_products, &added, NULL, error))
    return FALSE;
  printf ("SADD stock:WH-SH02 (5 products): %" G_GUINT64_FORMAT " new\n", added);

  if (!hbase_set_card (bj, &n_bj, NULL, error) || !hbase_set_card (sh, &n_sh, NULL, error) ||
      !hbase_set_contains (sh, probe, &stocked, NULL, error))
    return FALSE;
  printf ("SCARD: WH-BJ01 stocks %" G_GUINT64_FORMAT " products, WH-SH02 %" G_GUINT64_FORMAT "\n", n_bj, n_sh);
  printf ("SISMEMBER stock:WH-SH02 P0000003: %s\n", stocked ? "yes" : "no");

  /* SINTER and SDIFF stream in byte order, a page at a time */
  g_ptr_array_add (both, bj);
  g_ptr_array_add (both, sh);
  if ((common = hbase_set_intersect (both, error)) == NULL || !print_members ("SINTER (in both)", common, error) ||
      (only_bj = hbase_set_diff (both, error)) == NULL || !print_members ("SDIFF (only in WH-BJ01)", only_bj, error))
    return FALSE;
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autofree char *table = NULL;
  gboolean drop = FALSE;
  const GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, "Table (default hbase_glib_example_sets)", "NAME" },
    { "drop", 0, 0, G_OPTION_ARG_NONE, &drop, "Drop the table at the end", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- sets of products per warehouse");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  gboolean ok;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("warehouse-sets: %s\n", error->message);
      return 2;
    }
  if (table == NULL)
    table = g_strdup ("hbase_glib_example_sets");
  if ((client = hbase_client_get_default (&error)) == NULL)
    {
      g_printerr ("warehouse-sets: %s\n", error->message);
      return 1;
    }
  ok = run (client, table, &error);
  if (drop)
    hbase_client_delete_table (client, table, NULL, ok ? &error : NULL);
  hbase_client_release_default ();
  if (!ok || error != NULL)
    {
      g_printerr ("warehouse-sets: %s\n", error->message);
      return 1;
    }
  return 0;
}
