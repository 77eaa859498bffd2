/* SPDX-License-Identifier: Apache-2.0 */
/* tour: a table, a write buffer, gets, async gets, a prefix scan, a set, a sorted set, an index query. */
#include <hbase-glib/hbase-glib-index.h>

static GError *error;   /* what the last call that failed reported */
static int pending;     /* asynchronous gets not answered yet */

static gpointer need (gpointer result) {   /* stops at a call that failed */
  if (result == NULL) g_error ("tour: %s", error->message);
  return result;
}
#define check(ok) need (GINT_TO_POINTER (ok))

static void got_row (GObject *table, GAsyncResult *result, gpointer loop) {
  g_autoptr(HBaseRow) row = need (hbase_table_get_string_finish (HBASE_TABLE (table), result, &error));
  g_autofree char *color = hbase_row_get_string (row, "d:color");
  g_print ("async get: %s\n", color);
  if (--pending == 0) g_main_loop_quit (loop);
}

int main (void) {
  const char *keys[] = { "row-0001", "row-0500", "row-0999" };
  HBaseFamilyOptions families[] = { { .name = "d" }, { .name = "s" }, { .name = "z" } }; /* data, set, sorted set */
  gboolean on_sale;
  guint64 n_scanned = 0, n_red;
  double score;

  g_autoptr(HBaseClient) client = need (hbase_client_get_default (&error));
  hbase_client_delete_table (client, "hbase_glib_tour", NULL, NULL); /* left by an earlier run, if any */
  check (hbase_client_create_table (client, "hbase_glib_tour", families, 3, NULL, NULL, &error));
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  check (hbase_index_spec_add (spec, "color", "d", "color", HBASE_INDEX_VALUE_STRING, HBASE_INDEX_EXACT, &error));
  check (hbase_index_create_meta_table (client, NULL, NULL, &error));
  check (hbase_index_define (client, "hbase_glib_tour", spec, NULL, NULL, &error));
  g_autoptr(HBaseIndex) index = need (hbase_index_open (client, "hbase_glib_tour", NULL, NULL, &error));
  g_autoptr(HBaseIndexReport) built = need (hbase_index_rebuild (index, NULL, NULL, &error));
  HBaseTable *table = hbase_index_get_table (index); /* its writes update the index */

  g_autoptr(HBaseWriteBuffer) buffer = need (hbase_write_buffer_new (table, NULL, &error));
  for (int i = 0; i < 1000; i++) {
    g_autofree char *key = g_strdup_printf ("row-%04d", i);
    check (hbase_write_buffer_put_columns (buffer, key, NULL, &error, "d:color", i % 3 ? "blue" : "red", NULL));
  }
  check (hbase_write_buffer_close (buffer, NULL, &error));

  g_autoptr(HBaseRow) row = need (hbase_table_get_string (table, "row-0042", NULL, NULL, &error));
  g_autofree char *color = hbase_row_get_string (row, "d:color");
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  for (pending = 0; pending < 3; pending++)
    hbase_table_get_string_async (table, keys[pending], NULL, NULL, got_row, loop);
  g_main_loop_run (loop);

  g_autoptr(HBaseScanner) scanner = need (hbase_table_scan_prefix (table, "row-099", &error));
  for (HBaseRow *next; hbase_scanner_next (scanner, &next, NULL, &error) && next != NULL; n_scanned++)
    hbase_row_unref (next);
  check (error == NULL);

  g_autoptr(HBaseSet) set = need (hbase_set_new_string (table, "tags", NULL, &error));
  check (hbase_set_add_strings (set, (const char *[]) { "new", "sale", NULL }, NULL, NULL, &error));
  check (hbase_set_contains_string (set, "sale", &on_sale, NULL, &error));
  g_autoptr(HBaseZSet) zset = need (hbase_zset_new_string (table, "scores", NULL, &error));
  check (hbase_zset_add_string (zset, "alice", 42, NULL, NULL, &error));
  check (hbase_zset_score_string (zset, "alice", NULL, &score, NULL, &error));

  g_autoptr(HBaseIndexQuery) red = hbase_index_query_equal_string ("color", "red");
  check (hbase_index_count (index, red, &n_red, NULL, &error));
  g_print ("get row-0042: %s\nscan row-099: %" G_GUINT64_FORMAT " rows\nset has sale: %d\nalice: %g\nred rows: %"
           G_GUINT64_FORMAT "\n", color, n_scanned, on_sale, score, n_red);
  return 0;
}
