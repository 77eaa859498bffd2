/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the Redis index under concurrent writers on the
 * real stack: threads (through one index handle and through a second
 * handle, as another process would) change the indexed values of the
 * same few rows by every write path at once, while two readers (one per
 * handle) query.  Every row a query returns holds values that match it
 * (checked by the test's own comparison, not the index's matcher), and
 * rows no writer touches are found exactly as a plain read of HBase says;
 * once the writers stop no entry is missing (verify), every query returns
 * exactly the rows HBase says match, and a repair leaves the index equal
 * to the table.  Then writes go on during two rebuilds, and nothing is
 * missing afterwards. */
#include "config.h"

#include <string.h>

#include "../index/index-support.h"

#define N_CITIES 4
/* rows "keepNN" no writer touches: city cities[i % N_CITIES], age i */
#define N_KEPT 8
/* the readers' queries: city = one of cities, age >= MIN_AGE */
#define MIN_AGE 2
/* queries each reader must complete while the writers run */
#define MIN_QUERIES_DURING_WRITES 3

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

static char *
kept_name (guint i)
{
  return g_strdup_printf ("keep%02u", i);
}

/* Whether @row (read from HBase or returned by a query) has f:city @city
 * and an f:age of at least MIN_AGE, by the test's own reading of the
 * cells. */
static gboolean
row_matches (HBaseRow *row, const char *city)
{
  GBytes *city_value = row != NULL ? hbase_row_lookup (row, "f", "city") : NULL;
  GBytes *age_value = row != NULL ? hbase_row_lookup (row, "f", "age") : NULL;
  g_autofree char *age_text = NULL;
  gint64 age;

  if (city_value == NULL || age_value == NULL ||
      g_bytes_get_size (city_value) != strlen (city) ||
      memcmp (g_bytes_get_data (city_value, NULL), city, strlen (city)) != 0)
    return FALSE;
  age_text = g_strndup (g_bytes_get_data (age_value, NULL), g_bytes_get_size (age_value));
  return g_ascii_string_to_signed (age_text, 10, G_MININT64, G_MAXINT64, &age, NULL) &&
         age >= MIN_AGE;
}

typedef struct {
  HBaseIndex *index;
  HBaseTable *plain;            /* the data table without the index */
  guint seed;
  gint *stop;
  gint *writing;                /* set while the writers run */
  gint queries;                 /* completed */
  gint queries_during_writes;   /* completed while *writing was set */
  guint changed_since;          /* rows a writer changed between query and plain read */
} Reader;

static gpointer
read_loop (gpointer data)
{
  Reader *reader = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (reader->seed);

  while (!g_atomic_int_get (reader->stop))
    {
      guint c = (guint) g_rand_int_range (rand, 0, N_CITIES);
      g_autoptr(GBytes) city = ix_bytes (cities[c]);
      gint64 lo = MIN_AGE;
      g_autoptr(HBaseIndexQuery) in_city = hbase_index_query_equal ("city", city);
      g_autoptr(HBaseIndexQuery) grown = hbase_index_query_range_int64 ("age", &lo, TRUE, NULL, TRUE);
      g_autoptr(HBaseIndexQuery) both = hbase_index_query_and (in_city, grown);
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseIndexPage) page = hbase_index_find (reader->index, both, NULL, NULL, &error);
      gboolean kept_found[N_KEPT] = { FALSE };
      GPtrArray *rows;

      g_assert_no_error (error);
      g_assert_nonnull (page);
      rows = hbase_index_page_get_rows (page);
      for (guint i = 0; i < rows->len; i++)
        {
          HBaseRow *row = g_ptr_array_index (rows, i);
          GBytes *key = hbase_row_get_key (row);
          g_autofree char *name = g_strndup (g_bytes_get_data (key, NULL), g_bytes_get_size (key));
          g_autoptr(HBaseRow) read = hbase_table_get (reader->plain, key, NULL, NULL, &error);

          g_assert_no_error (error);
          /* whatever the writers do, a returned row holds matching values */
          if (!row_matches (row, cities[c]))
            g_error ("query city=%s age>=%d returned %s, whose values do not match",
                     cities[c], MIN_AGE, name);
          if (g_str_has_prefix (name, "keep"))
            {
              guint64 k;

              /* no writer touches these: HBase must agree, now and always */
              g_assert_true (g_ascii_string_to_unsigned (name + 4, 10, 0, N_KEPT - 1, &k, NULL));
              if (!row_matches (read, cities[c]))
                g_error ("query city=%s age>=%d returned %s, which HBase says does not match",
                         cities[c], MIN_AGE, name);
              kept_found[k] = TRUE;
            }
          else if (!row_matches (read, cities[c]))
            reader->changed_since++;
        }
      /* and every untouched row that matches is found */
      for (guint k = 0; k < N_KEPT; k++)
        if (k % N_CITIES == c && k >= MIN_AGE && !kept_found[k])
          g_error ("query city=%s age>=%d missed keep%02u", cities[c], MIN_AGE, k);
      g_atomic_int_inc (&reader->queries);
      if (g_atomic_int_get (reader->writing))
        g_atomic_int_inc (&reader->queries_during_writes);
    }
  return NULL;
}

/* Waits (at most 60 s) until @reader completed a query. */
static void
wait_first_query (Reader *reader)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (g_atomic_int_get (&reader->queries) == 0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (10000);
    }
}

/* Every query answers exactly what HBase holds (read through @plain, a
 * table without the index) for the rows row00.. (@n_rows) and keep00... */
static void
check_queries_exact (IxFixture *fx, HBaseTable *plain, guint n_rows)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint matched = 0;

  /* in the order ix_find() sorts its answer */
  for (guint k = 0; k < N_KEPT; k++)
    g_ptr_array_add (names, kept_name (k));
  for (guint r = 0; r < n_rows; r++)
    g_ptr_array_add (names, row_name (r));
  for (guint c = 0; c < N_CITIES; c++)
    {
      g_autoptr(GBytes) city = ix_bytes (cities[c]);
      g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal ("city", city);
      g_autofree char *found = ix_find (fx->index, query, NULL);
      GString *expected = g_string_new (NULL);

      for (guint r = 0; r < names->len; r++)
        {
          const char *row = g_ptr_array_index (names, r);
          g_autoptr(GBytes) key = ix_bytes (row);
          g_autoptr(HBaseRow) read = hbase_table_get (plain, key, NULL, NULL, &error);
          GBytes *value;

          g_assert_no_error (error);
          value = read != NULL ? hbase_row_lookup (read, "f", "city") : NULL;
          if (value != NULL && g_bytes_equal (value, city))
            {
              g_string_append_printf (expected, "%s%s", expected->len > 0 ? "," : "", row);
              matched++;
            }
        }
      g_assert_cmpstr (found, ==, expected->str);
      g_string_free (expected, TRUE);
    }
  /* an empty table would make the comparison above say nothing */
  g_assert_cmpuint (matched, >, 0);
}

static void
test_concurrent_writers (void)
{
  IxFixture fx;
  g_autoptr(HBaseIndex) other = NULL;
  g_autoptr(HBaseTable) plain = NULL;
  guint n_rows = 4, n_writers = 4, steps = test_quick () ? 40 : 300;
  gint failures = 0, stop = 0, writing = 0;
  GThread *threads[4];
  Writer writers[4];
  Reader readers[2];
  GThread *reader_threads[2];

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  other = ix_open (&fx, NULL);
  plain = ix_plain_table (&fx);
  for (guint k = 0; k < N_KEPT; k++)
    {
      g_autofree char *row = kept_name (k);
      g_autofree char *city = g_strdup_printf ("f:city=%s", cities[k % N_CITIES]);
      g_autofree char *age = g_strdup_printf ("f:age=%u", k);
      g_autoptr(HBaseMutation) put = ix_put (row, city, age, NULL);

      ix_apply (hbase_index_get_table (fx.index), put);
    }
  /* one reader per handle; the writers start once both have answered */
  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    {
      readers[i] = (Reader) { .index = i == 0 ? fx.index : other, .plain = plain, .seed = 99 + i,
                              .stop = &stop, .writing = &writing };
      reader_threads[i] = g_thread_new ("reader", read_loop, &readers[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    wait_first_query (&readers[i]);
  g_atomic_int_set (&writing, 1);
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
  g_atomic_int_set (&writing, 0);
  g_atomic_int_set (&stop, 1);
  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    {
      g_thread_join (reader_threads[i]);
      g_test_message ("reader %u: %d queries, %d of them during the writes; %u returned rows "
                      "a writer changed before the plain read", i, readers[i].queries,
                      readers[i].queries_during_writes, readers[i].changed_since);
      g_assert_cmpint (readers[i].queries_during_writes, >=, MIN_QUERIES_DURING_WRITES);
    }
  g_assert_cmpint (failures, ==, 0);

  /* nothing missing, and queries exact, before any repair */
  {
    g_autoptr(HBaseIndexReport) report = ix_verify (fx.index);
    g_autofree char *text = hbase_index_report_to_string (report);

    g_test_message ("after the writers:\n%s", text);
    g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 0);
  }
  check_queries_exact (&fx, plain, n_rows);

  /* a repair makes the index equal to the table */
  {
    g_autoptr(HBaseIndexReport) repaired = ix_repair (fx.index);
    g_autoptr(HBaseIndexReport) report = ix_verify (fx.index);
    g_autofree char *text = hbase_index_report_to_string (report);

    g_test_message ("after the repair:\n%s", text);
    g_assert_cmpuint (hbase_index_report_get_in_doubt (repaired), ==, 0);
    g_assert_true (hbase_index_report_is_consistent (report));
    g_assert_cmpuint (hbase_index_report_get_in_doubt (report), ==, 0);
  }
  check_queries_exact (&fx, plain, n_rows);
  g_clear_object (&plain);
  ix_teardown (&fx);
}

typedef struct {
  HBaseTable *table;
  gint *stop;
  gint written;
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
      g_atomic_int_add (&loader->written, (gint) batch->len);
    }
  return NULL;
}

static void
test_writes_during_rebuild (void)
{
  IxFixture fx;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseTable) plain = NULL;
  gint stop = 0, before = -1, during;
  Loader loader;
  GThread *thread;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  plain = ix_plain_table (&fx);
  loader.table = hbase_index_get_table (fx.index);
  loader.stop = &stop;
  loader.written = 0;
  thread = g_thread_new ("loader", load_loop, &loader);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(HBaseIndexReport) report = NULL;

      g_usleep (300000);
      if (before < 0)
        before = g_atomic_int_get (&loader.written);
      report = hbase_index_rebuild (fx.index, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (report);
    }
  during = g_atomic_int_get (&loader.written) - before;
  g_usleep (200000);
  g_atomic_int_set (&stop, 1);
  g_thread_join (thread);
  g_test_message ("%d mutations from the start of the first rebuild to the end of the second, "
                  "%d in all", during, loader.written);
  /* the loader really wrote while the rebuilds ran */
  g_assert_cmpint (during, >, 0);
  {
    g_autoptr(HBaseIndexReport) report = ix_verify (fx.index);

    g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 0);
  }
  check_queries_exact (&fx, plain, 40);
  {
    g_autoptr(HBaseIndexReport) repaired = ix_repair (fx.index);
    g_autoptr(HBaseIndexReport) report = ix_verify (fx.index);

    g_assert_true (hbase_index_report_is_consistent (report));
  }
  g_clear_object (&plain);
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
