/* SPDX-License-Identifier: Apache-2.0 */
/* waybill-query: composite row keys, salting and server-side filters
 * (hbase-key-schema.h, hbase-key-scanner.h, hbase-filter.h).
 *
 *   examples/waybill-query [--table NAME] [--waybills N] [--drop]
 *
 * Waybills of a logistics warehouse, keyed for the queries made of them
 * (seeds 002 and 003: put the fields you filter on first, fixed width):
 *
 *     row key = bucket | warehouse (7 bytes) | day (8 digits) | waybill (9 digits)
 *
 * The bucket is a hash of the warehouse, one of 4, so the writes of the
 * warehouses spread over 4 pre-split regions while one warehouse's waybills
 * stay together.  Two queries:
 *
 *  1. one warehouse, a range of days: the schema turns it into one
 *     start/stop row range in one bucket;
 *  2. every warehouse, heavy waybills only: a scan of every bucket, merged
 *     in key order, with a SingleColumnValueFilter run by the region
 *     servers, read a page of 5 at a time with a page token.
 *
 * The table (family "d") is created when missing; --drop drops it at the
 * end. */
#include <stdio.h>
#include <string.h>

#include <hbase-glib/hbase-glib.h>

static const char *const warehouses[] = { "WH-BJ01", "WH-SH02", "WH-GZ03", "WH-CD04", "WH-WH05" };

static HBaseKeySchema *
waybill_schema (GError **error)
{
  static const char *const hashed[] = { "warehouse", NULL };
  const HBaseKeyField fields[] = {
    { "warehouse", HBASE_KEY_FIELD_STRING, 7, ' ', FALSE },
    { "day", HBASE_KEY_FIELD_DECIMAL, 8, 0, FALSE },
    { "waybill", HBASE_KEY_FIELD_DECIMAL, 9, 0, FALSE },
  };
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;

  salt.n_buckets = 4;
  salt.hash_fields = hashed;
  return hbase_key_schema_new (fields, G_N_ELEMENTS (fields), &salt, error);
}

static gboolean
load (HBaseClient *client, const char *name, HBaseKeySchema *schema, guint n, GError **error)
{
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  g_autoptr(GPtrArray) splits = hbase_key_schema_get_split_keys (schema);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  gboolean exists = FALSE;

  family.name = "d";
  if (!hbase_client_table_exists (client, name, &exists, NULL, error) ||
      (!exists && !hbase_client_create_table (client, name, &family, 1, splits, NULL, error)) ||
      (table = hbase_table_new (client, name, error)) == NULL ||
      (buffer = hbase_write_buffer_new (table, NULL, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const char *warehouse = warehouses[i % G_N_ELEMENTS (warehouses)];
      HBaseKeyValue values[] = {
        HBASE_KEY_STRING (warehouse), HBASE_KEY_UINT (20250601 + (i / 7) % 7), HBASE_KEY_UINT (100000000 + i),
      };
      g_autoptr(GBytes) key = hbase_key_schema_encode (schema, values, G_N_ELEMENTS (values), error);
      g_autoptr(HBaseMutation) put = NULL;
      /* weights as 6 digits, zero-padded, so that bytes compare as numbers do */
      char *text = g_strdup_printf ("%06u", 200 + (i * 7919) % 30000);
      g_autoptr(GBytes) weight = g_bytes_new_take (text, strlen (text));

      if (key == NULL)
        return FALSE;
      put = hbase_mutation_new_put (key);
      hbase_mutation_put (put, "d", "weight_g", weight);
      if (!hbase_write_buffer_add (buffer, put, NULL, error))
        return FALSE;
    }
  if (!hbase_write_buffer_close (buffer, NULL, error))
    return FALSE;
  printf ("loaded %u waybills into %s (%u regions, one per bucket)\n", n, name, splits->len + 1);
  return TRUE;
}

/* printable bytes as they are, others as \xNN */
static void
print_key (GBytes *key)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (key, &size);

  for (gsize i = 0; i < size; i++)
    printf (data[i] >= 0x20 && data[i] < 0x7f && data[i] != '\\' ? "%c" : "\\x%02x", data[i]);
}

static void
print_row (HBaseKeySchema *schema, HBaseRow *row)
{
  g_autoptr(GVariant) fields = hbase_key_schema_decode (schema, hbase_row_get_key (row), NULL);
  g_autoptr(GVariant) warehouse = NULL;
  guint64 day = 0, waybill = 0;
  GBytes *value = hbase_row_lookup (row, "d", "weight_g");
  g_autofree char *weight_text = value != NULL ? g_strndup (g_bytes_get_data (value, NULL), g_bytes_get_size (value))
                                               : g_strdup ("0");
  guint64 weight = g_ascii_strtoull (weight_text, NULL, 10);

  if (fields == NULL)
    return;
  g_variant_get (fields, "(@aytt)", &warehouse, &day, &waybill);
  printf ("  %.*s  %" G_GUINT64_FORMAT "  W%" G_GUINT64_FORMAT "  %" G_GUINT64_FORMAT " g\n",
          (int) g_variant_get_size (warehouse), (const char *) g_variant_get_data (warehouse), day, waybill, weight);
}

static gboolean
query (HBaseClient *client, const char *name, HBaseKeySchema *schema, GError **error)
{
  g_autoptr(HBaseTable) table = hbase_table_new (client, name, error);
  HBaseKeyValue warehouse[] = { HBASE_KEY_STRING ("WH-SH02") };
  HBaseKeyValue from = HBASE_KEY_UINT (20250602), to = HBASE_KEY_UINT (20250603);
  HBaseKeyRange days = { warehouse, 1, &from, TRUE, &to, TRUE };
  HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
  g_autoptr(HBaseKeyScanner) scanner = NULL;
  g_autoptr(GBytes) start = NULL;
  g_autoptr(GBytes) stop = NULL;
  g_autoptr(GBytes) limit = g_bytes_new_static ("025000", 6);
  g_autoptr(GBytes) qualifier = g_bytes_new_static ("weight_g", 8);
  g_autoptr(HBaseFilter) heavy = NULL;
  g_autofree char *filter_text = NULL;
  g_autofree char *token = NULL;
  HBaseKeyQuery page = HBASE_KEY_QUERY_INIT;
  HBaseRow *row;
  guint n = 0;

  if (table == NULL || !hbase_key_schema_get_row_range (schema, &days, &start, &stop, error))
    return FALSE;

  /* 1. WH-SH02, June 2 to 3: one range of one bucket */
  options.range = &days;
  if ((scanner = hbase_key_scanner_new (table, schema, &options, error)) == NULL)
    return FALSE;
  printf ("query 1: WH-SH02, 2025-06-02 to 2025-06-03 (%u bucket scanned)\n  keys after the bucket byte: ",
          hbase_key_scanner_get_n_buckets (scanner));
  print_key (start);
  printf (" to ");
  print_key (stop);
  printf ("\n");
  while (hbase_key_scanner_next (scanner, &row, NULL, error) && row != NULL)
    {
      if (n++ < 3)
        print_row (schema, row);
      hbase_row_unref (row);
    }
  if (*error != NULL)
    return FALSE;
  printf ("  ... %u waybills\n", n);

  /* 2. every warehouse, weight > 25 kg, run by the region servers, in pages */
  heavy = hbase_filter_single_column_value ("d", qualifier, HBASE_COMPARE_GREATER, HBASE_COMPARATOR_BINARY, limit,
                                            TRUE, TRUE);
  if ((filter_text = hbase_filter_to_string (heavy, error)) == NULL)
    return FALSE;
  printf ("query 2: every warehouse, heavier than 25 kg, pages of 5\n  filter: %s\n", filter_text);
  page.filter = heavy;
  page.limit = 5;
  for (guint p = 1; p <= 2; p++)
    {
      g_autoptr(GPtrArray) rows = hbase_key_query_run (table, schema, &page, &token, NULL, error);

      if (rows == NULL)
        return FALSE;
      printf (" page %u:\n", p);
      for (guint i = 0; i < rows->len; i++)
        print_row (schema, rows->pdata[i]);
      /* the token resumes after the page's last row, whatever was written since */
      g_free ((char *) page.page_token);
      page.page_token = g_steal_pointer (&token);
      if (page.page_token == NULL)
        break;
    }
  g_free ((char *) page.page_token);
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autofree char *table = NULL;
  gboolean drop = FALSE;
  int waybills = 700;
  const GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, "Table (default hbase_glib_example_waybills)", "NAME" },
    { "waybills", 'n', 0, G_OPTION_ARG_INT, &waybills, "Waybills to load (default 700)", "N" },
    { "drop", 0, 0, G_OPTION_ARG_NONE, &drop, "Drop the table at the end", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- composite row keys, salting and filters");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseKeySchema) schema = NULL;
  gboolean ok;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || waybills < 1)
    {
      g_printerr ("waybill-query: %s\n", error != NULL ? error->message : "--waybills must be positive");
      return 2;
    }
  if (table == NULL)
    table = g_strdup ("hbase_glib_example_waybills");
  if ((schema = waybill_schema (&error)) == NULL || (client = hbase_client_get_default (&error)) == NULL)
    {
      g_printerr ("waybill-query: %s\n", error->message);
      return 1;
    }
  ok = load (client, table, schema, (guint) waybills, &error) && query (client, table, schema, &error);
  if (drop)
    hbase_client_delete_table (client, table, NULL, ok ? &error : NULL);
  hbase_client_release_default ();
  if (!ok || error != NULL)
    {
      g_printerr ("waybill-query: %s\n", error->message);
      return 1;
    }
  return 0;
}
