/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the Redis index under concurrent writers on the
 * real stack: threads (through one index handle and through a second
 * handle, as another process would) change the indexed values of the
 * same few rows by every write path at once, while queries run.  Every
 * row a query returns matches it; once the writers stop no entry is
 * missing (verify), every query returns exactly the rows HBase says match,
 * and a repair leaves the index equal to the table.  Then writes go on
 * during two rebuilds, and nothing is missing afterwards. */
#include "config.h"

#include <string.h>

#include "../index/index-support.h"

#define N_CITIES 4

static const char *const cities[N_CITIES] = { "Lyon", "Paris", "Nice", "Oslo" };

typedef struct {
  HBaseTable *table;
  guint seed;
  guint steps;
  guint rows;
  gint *failures;
} Writer;

static char *
row_name (guint i)
{
  return g_strdup_printf ("row%02u", i);
}

static HBaseMutation *
random_put (GRand *rand, guint rows)
{
  g_autofree char *row = row_name ((guint) g_rand_int_range (rand, 0, (gint32) rows));
  g_autofree char *city = g_strdup_printf ("f:city=%s", cities[g_rand_int_range (rand, 0, N_CITIES)]);
  g_autofree char *age = g_strdup_printf ("f:age=%d", g_rand_int_range (rand, 0, 6));

  if (g_rand_boolean (rand))
    return ix_put (row, city, age, NULL);
  return ix_put (row, city, NULL);
}

static gpointer
write_loop (gpointer data)
{
  Writer *writer = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (writer->seed);
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GError) error = NULL;

  options.max_mutations = 5;
  buffer = hbase_write_buffer_new (writer->table, &options, &error);
  g_assert_no_error (error);
  for (guint step = 0; step < writer->steps; step++)
    {
      g_autofree char *row = row_name ((guint) g_rand_int_range (rand, 0, (gint32) writer->rows));
      g_autoptr(GBytes) key = ix_bytes (row);
      gboolean ok = TRUE;

      switch (g_rand_int_range (rand, 0, 8))
        {
        case 0:
        case 1:
          {
            g_autoptr(HBaseMutation) put = random_put (rand, writer->rows);

            ok = hbase_table_apply (writer->table, put, NULL, &error);
            break;
          }
        case 2:
          {
            g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);

            for (guint i = 0; i < 3; i++)
              g_ptr_array_add (batch, random_put (rand, writer->rows));
            ok = hbase_table_apply_multiple (writer->table, batch, NULL, &error);
            break;
          }
        case 3:
          {
            g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
            HBaseMutation *remove = hbase_mutation_new_delete (key);
            g_autofree char *age = g_strdup_printf ("f:age=%d", g_rand_int_range (rand, 0, 6));

            hbase_mutation_delete_column (remove, "f", "city");
            g_ptr_array_add (changes, remove);
            g_ptr_array_add (changes, ix_put (row, age, NULL));
            ok = hbase_table_mutate_row (writer->table, changes, NULL, &error);
            break;
          }
        case 4:
          {
            g_autoptr(GBytes) expected = ix_bytes (cities[g_rand_int_range (rand, 0, N_CITIES)]);
            g_autoptr(HBaseCondition) condition = hbase_condition_new ("f", "city",
                                                                       HBASE_COMPARE_EQUAL,
                                                                       expected);
            g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
            g_autofree char *city = g_strdup_printf ("f:city=%s",
                                                     cities[g_rand_int_range (rand, 0, N_CITIES)]);
            gboolean applied;

            g_ptr_array_add (changes, ix_put (row, city, NULL));
            ok = hbase_table_check_and_mutate (writer->table, condition, changes, &applied, NULL,
                                               &error);
            break;
          }
        case 5:
          {
            g_autoptr(HBaseMutation) remove = hbase_mutation_new_delete (key);

            if (g_rand_boolean (rand))
              hbase_mutation_delete_family (remove, "f");
            ok = hbase_table_apply (writer->table, remove, NULL, &error);
            break;
          }
        case 6:
          ok = hbase_table_increment_counter (writer->table, key, "f", "hits",
                                              g_rand_int_range (rand, -2, 3), NULL, NULL, &error);
          break;
        case 7:
        default:
          {
            g_autoptr(HBaseMutation) put = random_put (rand, writer->rows);

            ok = hbase_write_buffer_add (buffer, put, NULL, &error);
            break;
          }
        }
      if (!ok)
        {
          g_test_message ("write failed: %s", error->message);
          g_atomic_int_inc (writer->failures);
          g_clear_error (&error);
        }
    }
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  return NULL;
}

typedef struct {
  HBaseIndex *index;
  gint *stop;
  guint queries;
} Reader;

static gpointer
read_loop (gpointer data)
{
  Reader *reader = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);

  while (!g_atomic_int_get (reader->stop))
    {
      g_autoptr(GBytes) city = ix_bytes (cities[g_rand_int_range (rand, 0, N_CITIES)]);
      g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", city);
      gint64 lo = 2;
      g_autoptr(HBaseIndexQuery) ages = hbase_index_query_range_int64 ("age", &lo, TRUE, NULL, TRUE);
      g_autoptr(HBaseIndexQuery) both = hbase_index_query_and (query, ages);
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseIndexPage) page = hbase_index_find (reader->index, both, NULL, NULL, &error);
      GPtrArray *rows;

      g_assert_no_error (error);
      rows = hbase_index_page_get_rows (page);
      /* whatever the writers do, a returned row matches */
      for (guint i = 0; i < rows->len; i++)
        {
          gboolean matches = FALSE;

          g_assert_true (hbase_index_query_matches (reader->index, both, g_ptr_array_index (rows, i),
                                                    &matches, &error));
          g_assert_true (matches);
        }
      reader->queries++;
    }
  return NULL;
}

/* Every query answers exactly what HBase holds. */
static void
check_queries_exact (IxFixture *fx, guint n_rows)
{
  g_autoptr(GError) error = NULL;

  for (guint c = 0; c < N_CITIES; c++)
    {
      g_autoptr(GBytes) city = ix_bytes (cities[c]);
      g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", city);
      g_autofree char *found = ix_find (fx->index, query, NULL);
      GString *expected = g_string_new (NULL);

      for (guint r = 0; r < n_rows; r++)
        {
          g_autofree char *row = row_name (r);
          g_autoptr(GBytes) key = ix_bytes (row);
          g_autoptr(HBaseRow) read = hbase_table_get (hbase_index_get_table (fx->index), key, NULL,
                                                      NULL, &error);
          GBytes *value;

          g_assert_no_error (error);
          value = hbase_row_lookup (read, "f", "city");
          if (value != NULL && g_bytes_equal (value, city))
            g_string_append_printf (expected, "%s%s", expected->len > 0 ? "," : "", row);
        }
      g_assert_cmpstr (found, ==, expected->str);
      g_string_free (expected, TRUE);
    }
}

static void
test_concurrent_writers (void)
{
  IxFixture fx;
  g_autoptr(HBaseIndex) other = NULL;
  g_autoptr(GError) error = NULL;
  guint n_rows = 4, n_writers = 4, steps = ix_quick () ? 40 : 300;
  gint failures = 0, stop = 0;
  GThread *threads[5];
  Writer writers[4];
  Reader reader;
  GThread *reader_thread;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  other = ix_open (&fx, NULL);
  reader.index = fx.index;
  reader.stop = &stop;
  reader.queries = 0;
  reader_thread = g_thread_new ("reader", read_loop, &reader);
  for (guint i = 0; i < n_writers; i++)
    {
      writers[i].table = hbase_index_get_table (i % 2 == 0 ? fx.index : other);
      writers[i].seed = 1000 + i;
      writers[i].steps = steps;
      writers[i].rows = n_rows;
      writers[i].failures = &failures;
      threads[i] = g_thread_new ("writer", write_loop, &writers[i]);
    }
  for (guint i = 0; i < n_writers; i++)
    g_thread_join (threads[i]);
  g_atomic_int_set (&stop, 1);
  g_thread_join (reader_thread);
  g_assert_cmpint (failures, ==, 0);
  g_test_message ("%u queries ran during the writes", reader.queries);


  /* nothing missing, and queries exact, before any repair */
  {
    g_autoptr(HBaseIndexReport) report = ix_verify (fx.index);
    g_autofree char *text = hbase_index_report_to_string (report);

    g_test_message ("after the writers:\n%s", text);
    g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 0);
  }
  check_queries_exact (&fx, n_rows);

  /* a repair makes the index equal to the table */
  {
    g_autoptr(HBaseIndexReport) repaired = ix_repair (fx.index);
    g_autoptr(HBaseIndexReport) report = ix_verify (fx.index);
    g_autofree char *text = hbase_index_report_to_string (report);

    g_assert_cmpuint (hbase_index_report_get_in_doubt (repaired), ==, 0);
    g_assert_true (hbase_index_report_is_consistent (report));
    g_assert_cmpuint (hbase_index_report_get_in_doubt (report), ==, 0);
    (void) text;
  }
  check_queries_exact (&fx, n_rows);
  ix_teardown (&fx);
}

typedef struct {
  HBaseTable *table;
  gint *stop;
  guint written;
} Loader;

static gpointer
load_loop (gpointer data)
{
  Loader *loader = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);

  while (!g_atomic_int_get (loader->stop))
    {
      g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
      g_autoptr(GError) error = NULL;

      for (guint i = 0; i < 10; i++)
        g_ptr_array_add (batch, random_put (rand, 40));
      g_assert_true (hbase_table_apply_multiple (loader->table, batch, NULL, &error));
      g_assert_no_error (error);
      loader->written += batch->len;
    }
  return NULL;
}

static void
test_writes_during_rebuild (void)
{
  IxFixture fx;
  g_autoptr(GError) error = NULL;
  gint stop = 0;
  Loader loader;
  GThread *thread;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  loader.table = hbase_index_get_table (fx.index);
  loader.stop = &stop;
  loader.written = 0;
  thread = g_thread_new ("loader", load_loop, &loader);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(HBaseIndexReport) report = NULL;

      g_usleep (300000);
      report = hbase_index_rebuild (fx.index, NULL, NULL, &error);
      g_assert_no_error (error);
    }
  g_usleep (200000);
  g_atomic_int_set (&stop, 1);
  g_thread_join (thread);
  g_test_message ("%u mutations during two rebuilds", loader.written);
  {
    g_autoptr(HBaseIndexReport) report = ix_verify (fx.index);

    g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 0);
  }
  check_queries_exact (&fx, 40);
  {
    g_autoptr(HBaseIndexReport) repaired = ix_repair (fx.index);
    g_autoptr(HBaseIndexReport) report = ix_verify (fx.index);

    g_assert_true (hbase_index_report_is_consistent (report));
  }
  ix_teardown (&fx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/index/concurrent-writers", test_concurrent_writers);
  g_test_add_func ("/integration/index/writes-during-rebuild", test_writes_during_rebuild);
  return g_test_run ();
}
