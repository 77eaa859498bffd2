/* SPDX-License-Identifier: Apache-2.0 */
/* chaos-index.c: the chaos workload's check of the secondary index, judged
 * before any repair, against an independent scan of the indexed table:
 *
 *   - every row the table holds (each acknowledged write, or a write in
 *     doubt that was applied) is found by hbase_index_find through each
 *     index: city equality, age equality (IN of every age) and an age
 *     range over all ages;
 *   - no query returns a row that does not hold what it asked for, or a
 *     row twice, and the index gave no stale candidate beyond what the
 *     writes left in doubt can explain (their entries are kept on
 *     purpose until their lease ends);
 *   - then verify, repair, verify: the repair fixes no more than the Redis
 *     faults of the chaos schedule could have caused (none when there were
 *     none), and leaves the index equal to its table. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "chaos-workload.h"

#define INDEX_ATTEMPTS 10
/* index entries one Redis fault can leave wrong: the rows of one buffered
 * flush (16) in flight, two indexes each, the old and the new entry */
#define ENTRIES_PER_REDIS_FAULT (16 * 2 * 2)

typedef struct {
  char *city;
  gint64 age;
} IndexedRow;

static void
indexed_row_free (gpointer data)
{
  IndexedRow *row = data;

  g_free (row->city);
  g_free (row);
}

/* key -> IndexedRow, read with a plain scan of the table; NULL with error */
static GHashTable *
scan_table (HBaseTable *plain, GError **error)
{
  guint attempt;

  for (attempt = 1;; attempt++)
    {
      HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
      g_autoptr(GHashTable) rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, indexed_row_free);
      g_autoptr(GError) local = NULL;
      g_autoptr(HBaseScanner) scanner = hbase_table_scan (plain, &options, &local);
      HBaseRow *row;

      while (scanner != NULL && hbase_scanner_next (scanner, &row, NULL, &local) && row != NULL)
        {
          IndexedRow *indexed = g_new0 (IndexedRow, 1);
          g_autofree char *age = chaos_bytes_text (hbase_row_lookup (row, "f", "age"));

          indexed->city = chaos_bytes_text (hbase_row_lookup (row, "f", "city"));
          if (!g_ascii_string_to_signed (age, 10, G_MININT64, G_MAXINT64, &indexed->age, NULL))
            indexed->age = -1;
          g_hash_table_insert (rows, chaos_bytes_text (hbase_row_get_key (row)), indexed);
          hbase_row_unref (row);
        }
      if (local == NULL)
        return g_steal_pointer (&rows);
      if (attempt == INDEX_ATTEMPTS)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      chaos_log ("index check: scan of %s: %s", CHAOS_INDEXED_TABLE, local->message);
      g_usleep (G_USEC_PER_SEC);
    }
}

typedef struct {
  guint64 queries, found, unfindable, wrong, duplicates, stale, unanswered;
  GString *examples;
  guint shown;
} FindTally;

static void
tally_example (FindTally *tally, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
tally_example (FindTally *tally, const char *format, ...)
{
  va_list args;

  if (tally->shown++ >= 6)
    return;
  g_string_append (tally->examples, "; ");
  va_start (args, format);
  g_string_append_vprintf (tally->examples, format, args);
  va_end (args);
}

typedef gboolean (*RowMatches) (const IndexedRow *row, gconstpointer data);

static gboolean
city_matches (const IndexedRow *row, gconstpointer data)
{
  return strcmp (row->city, data) == 0;
}

static gboolean
any_age (const IndexedRow *row, gconstpointer data)
{
  (void) data;
  return row->age >= 0;
}

/* One query (taken): what it returns must be exactly the table's rows for
 * which matches() holds, each once. */
static void
find_and_compare (HBaseIndex *index, HBaseIndexQuery *query, const char *name, GHashTable *table,
                  RowMatches matches, gconstpointer data, FindTally *tally)
{
  HBaseIndexFindOptions options = HBASE_INDEX_FIND_OPTIONS_INIT;
  g_autoptr(HBaseIndexPage) page = NULL;
  g_autoptr(GHashTable) returned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const HBaseIndexQueryStats *stats;
  GPtrArray *rows;
  GHashTableIter iter;
  gpointer key, value;
  guint attempt, i;

  tally->queries++;
  for (attempt = 1; page == NULL; attempt++)
    {
      g_autoptr(GError) error = NULL;

      page = hbase_index_find (index, query, &options, NULL, &error);
      if (page != NULL)
        break;
      chaos_log ("index check: find %s: %s", name, error->message);
      if (attempt == INDEX_ATTEMPTS)
        {
          tally->unanswered++;
          tally_example (tally, "find %s: %s", name, error->message);
          hbase_index_query_unref (query);
          return;
        }
      g_usleep (G_USEC_PER_SEC);
    }
  hbase_index_query_unref (query);
  stats = hbase_index_page_get_stats (page);
  tally->stale += stats->stale;
  if (stats->scanned)
    {
      /* answered by a scan, not from the index: nothing was checked */
      tally->unanswered++;
      tally_example (tally, "find %s was answered by a scan of the table, not from the index", name);
    }
  rows = hbase_index_page_get_rows (page);
  for (i = 0; i < rows->len; i++)
    {
      g_autofree char *row_key = chaos_bytes_text (hbase_row_get_key (rows->pdata[i]));
      const IndexedRow *held = g_hash_table_lookup (table, row_key);

      if (g_hash_table_contains (returned, row_key))
        {
          tally->duplicates++;
          tally_example (tally, "find %s returned %s twice", name, row_key);
          continue;
        }
      if (held == NULL || !matches (held, data))
        {
          tally->wrong++;
          tally_example (tally, "find %s returned %s, which holds city %s age %" G_GINT64_FORMAT " in the table",
                         name, row_key, held != NULL ? held->city : "(no row)", held != NULL ? held->age : -1);
        }
      g_hash_table_add (returned, g_steal_pointer (&row_key));
    }
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (!matches (value, data))
        continue;
      if (g_hash_table_contains (returned, key))
        tally->found++;
      else
        {
          tally->unfindable++;
          tally_example (tally, "find %s did not return %s (city %s, age %" G_GINT64_FORMAT ")", name,
                         (const char *) key, ((const IndexedRow *) value)->city, ((const IndexedRow *) value)->age);
        }
    }
}

void
chaos_index_check (ChaosKv *indexed, HBaseIndex *index, HBaseTable *plain, guint redis_faults)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) table = NULL;
  g_autoptr(GPtrArray) ages = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(HBaseIndexReport) before = NULL;
  g_autoptr(HBaseIndexReport) repair = NULL;
  g_autoptr(HBaseIndexReport) after = NULL;
  g_autofree char *after_text = NULL;
  FindTally tally = { 0 };
  guint64 in_doubt_keys = chaos_kv_keys_ever_in_doubt (indexed);
  guint64 stale_allowed, repair_allowed = (guint64) redis_faults * ENTRIES_PER_REDIS_FAULT;
  gint64 min_age = 0, max_age = G_MAXINT64;
  GHashTableIter iter;
  gpointer value;
  guint c;
  gboolean found_ok;

  table = scan_table (plain, &error);
  if (table == NULL)
    {
      chaos_invariant ("index", FALSE, "the independent scan of %s failed: %s", CHAOS_INDEXED_TABLE, error->message);
      return;
    }
  tally.examples = g_string_new (NULL);
  for (c = 0; c < CHAOS_N_CITIES; c++)
    {
      g_autofree char *name = g_strdup_printf ("city = %s", chaos_cities[c]);

      find_and_compare (index, hbase_index_query_equal_string ("city", chaos_cities[c]), name, table,
                        city_matches, chaos_cities[c], &tally);
    }
  find_and_compare (index, hbase_index_query_range_int64 ("age", &min_age, TRUE, &max_age, TRUE),
                    "age in [0, max]", table, any_age, NULL, &tally);
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((const IndexedRow *) value)->age >= 0)
      {
        g_autofree char *age = g_strdup_printf ("%" G_GINT64_FORMAT, ((const IndexedRow *) value)->age);

        g_ptr_array_add (ages, chaos_text_bytes (age));
      }
  if (ages->len > 0)
    find_and_compare (index, hbase_index_query_in ("age", (GBytes *const *) ages->pdata, ages->len),
                      "age IN (every age)", table, any_age, NULL, &tally);
  /* a write in doubt keeps its row's old and new entries (one per index):
   * each query family may meet each such row once */
  stale_allowed = in_doubt_keys * 3;
  found_ok = g_hash_table_size (table) > 0 && tally.unfindable == 0 && tally.wrong == 0 &&
             tally.duplicates == 0 && tally.unanswered == 0 && tally.stale <= stale_allowed;
  chaos_invariant ("index-find", found_ok,
                   "before any repair, %u rows in the table; %" G_GUINT64_FORMAT " queries found %"
                   G_GUINT64_FORMAT " of the rows each should, %" G_GUINT64_FORMAT " not found, %" G_GUINT64_FORMAT
                   " returned that do not match, %" G_GUINT64_FORMAT " twice, %" G_GUINT64_FORMAT
                   " queries unanswered; %" G_GUINT64_FORMAT " stale candidates (at most %" G_GUINT64_FORMAT
                   ": %" G_GUINT64_FORMAT " keys had a write in doubt)%s",
                   g_hash_table_size (table), tally.queries, tally.found, tally.unfindable, tally.wrong,
                   tally.duplicates, tally.unanswered, tally.stale, stale_allowed, in_doubt_keys,
                   tally.examples->str);
  g_string_free (tally.examples, TRUE);

  before = hbase_index_verify (index, NULL, NULL, &error);
  if (before == NULL)
    {
      chaos_invariant ("index", FALSE, "verify failed: %s", error->message);
      return;
    }
  repair = hbase_index_repair (index, NULL, NULL, &error);
  if (repair == NULL)
    {
      chaos_invariant ("index", FALSE, "repair failed: %s", error->message);
      return;
    }
  after = hbase_index_verify (index, NULL, NULL, &error);
  if (after == NULL)
    {
      chaos_invariant ("index", FALSE, "verify after repair failed: %s", error->message);
      return;
    }
  after_text = hbase_index_report_to_string (after);
  chaos_invariant ("index", hbase_index_report_is_consistent (after) &&
                   hbase_index_report_get_missing (after) == 0 &&
                   hbase_index_report_get_extra (after) == 0 &&
                   hbase_index_report_get_repaired (repair) <= repair_allowed,
                   "before repair %" G_GUINT64_FORMAT " rows, %" G_GUINT64_FORMAT " missing, %"
                   G_GUINT64_FORMAT " extra, %" G_GUINT64_FORMAT " in doubt; repair fixed %"
                   G_GUINT64_FORMAT " (at most %" G_GUINT64_FORMAT ": %u Redis faults injected); after repair %"
                   G_GUINT64_FORMAT " rows, %" G_GUINT64_FORMAT " entries, %" G_GUINT64_FORMAT " missing, %"
                   G_GUINT64_FORMAT " extra%s%s",
                   hbase_index_report_get_rows (before), hbase_index_report_get_missing (before),
                   hbase_index_report_get_extra (before), hbase_index_report_get_in_doubt (before),
                   hbase_index_report_get_repaired (repair), repair_allowed, redis_faults,
                   hbase_index_report_get_rows (after), hbase_index_report_get_entries (after),
                   hbase_index_report_get_missing (after), hbase_index_report_get_extra (after),
                   hbase_index_report_is_consistent (after) ? "" : "\n",
                   hbase_index_report_is_consistent (after) ? "" : after_text);
}
