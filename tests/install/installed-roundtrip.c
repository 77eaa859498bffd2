/* SPDX-License-Identifier: Apache-2.0 */
/* A program outside the tree, built against the installed Debian packages
 * with `pkg-config --cflags --libs hbase-glib-index-1.0` (which brings
 * hbase-glib-1.0) by scripts/package.sh: on an existing empty TABLE with
 * family "d" it writes a row and reads it back, then defines a Redis index
 * of d:city, writes a row through it, verifies the index and drops it.
 *
 *   installed-roundtrip GATEWAYS TABLE
 *
 * Prints what it checked; exit status 0 when every step did what it
 * should. */
#include <stdio.h>
#include <string.h>

#include <hbase-glib/hbase-glib-index.h>

static int
fail (const char *step, GError *error)
{
  fprintf (stderr, "installed-roundtrip: %s: %s\n", step, error != NULL ? error->message : "wrong result");
  g_clear_error (&error);
  return 1;
}

static GBytes *
text (const char *string)
{
  return g_bytes_new (string, strlen (string));
}

static int
put_and_get (HBaseClient *client, const char *name)
{
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseMutation) put = NULL;
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GBytes) key = text ("row-1");
  g_autoptr(GBytes) value = text ("Lisbon");
  GBytes *read = NULL;
  GError *error = NULL;

  if ((table = hbase_table_new (client, name, &error)) == NULL)
    return fail ("hbase_table_new", error);
  put = hbase_mutation_new_put (key);
  hbase_mutation_put (put, "d", "city", value);
  if (!hbase_table_apply (table, put, NULL, &error))
    return fail ("put", error);
  if ((row = hbase_table_get (table, key, NULL, NULL, &error)) == NULL)
    return fail ("get", error);
  read = hbase_row_lookup (row, "d", "city");
  if (read == NULL || !g_bytes_equal (read, value))
    return fail ("get returns what put wrote", NULL);
  printf ("installed-roundtrip: put and get row-1 d:city=Lisbon in %s\n", name);
  return 0;
}

static int
index_roundtrip (HBaseClient *client, const char *name)
{
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  g_autoptr(HBaseIndex) index = NULL;
  g_autoptr(HBaseMutation) put = NULL;
  g_autoptr(HBaseIndexReport) report = NULL;
  g_autoptr(GBytes) key = text ("row-2");
  g_autoptr(GBytes) value = text ("Porto");
  GError *error = NULL;

  if (!hbase_index_spec_add (spec, "by_city", "d", "city", HBASE_INDEX_VALUE_STRING, HBASE_INDEX_EXACT, &error) ||
      !hbase_index_create_meta_table (client, NULL, NULL, &error) ||
      !hbase_index_define (client, name, spec, NULL, NULL, &error))
    return fail ("hbase_index_define", error);
  if ((index = hbase_index_open (client, name, NULL, NULL, &error)) == NULL)
    return fail ("hbase_index_open", error);
  put = hbase_mutation_new_put (key);
  hbase_mutation_put (put, "d", "city", value);
  if (!hbase_table_apply (hbase_index_get_table (index), put, NULL, &error))
    return fail ("put through the index", error);
  /* rebuild indexes row-1 (written before the index existed), verify
   * then finds both rows in Redis */
  g_clear_pointer (&report, hbase_index_report_free);
  if ((report = hbase_index_rebuild (index, NULL, NULL, &error)) == NULL)
    return fail ("hbase_index_rebuild", error);
  g_clear_pointer (&report, hbase_index_report_free);
  if ((report = hbase_index_verify (index, NULL, NULL, &error)) == NULL)
    return fail ("hbase_index_verify", error);
  if (!hbase_index_report_is_consistent (report) || hbase_index_report_get_rows (report) != 2)
    {
      g_autofree char *said = hbase_index_report_to_string (report);

      fprintf (stderr, "installed-roundtrip: verify: %s\n", said);
      return 1;
    }
  if (!hbase_index_drop (index, NULL, &error))
    return fail ("hbase_index_drop", error);
  printf ("installed-roundtrip: index by_city defined, written, rebuilt, verified (2 rows) and dropped\n");
  return 0;
}

int
main (int argc, char **argv)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  GError *error = NULL;

  if (argc != 3)
    {
      fprintf (stderr, "usage: installed-roundtrip GATEWAYS TABLE\n");
      return 2;
    }
  if (!hbase_config_set_gateways (config, argv[1], &error))
    return fail ("gateways", error);
  if ((client = hbase_client_new (config)) == NULL)
    return fail ("hbase_client_new", error);
  printf ("installed-roundtrip: hbase-glib %s\n", hbase_version_string ());
  if (put_and_get (client, argv[2]) != 0 || index_roundtrip (client, argv[2]) != 0)
    return 1;
  return 0;
}
