/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the Redis index on the real stack (HBase through the
 * binary/buffered gateway, the stack's redis-server with a key prefix of
 * its own): maintenance on every write path (put, put multiple, delete of
 * cells, columns, families and rows, mutate row, check-and-mutate,
 * increment, append, version deletes, explicit timestamps, the write
 * buffer, async writes, a batch failing half-way), queries (equality, IN,
 * ranges of every kind, AND/OR, counts, pages and tokens, columns), read
 * repair, verify and repair, definitions changing under a client, and the
 * Redis-down policies against an unreachable Redis. */
#include "config.h"

#include <string.h>

#include "../index/index-support.h"
#include "../support/test-waiter.h"

#define SKIP_UNLESS(ok) G_STMT_START { if (!(ok)) return; } G_STMT_END

static HBaseIndexQuery *
eq (const char *index, const char *value)
{
  g_autoptr(GBytes) bytes = ix_bytes (value);

  return hbase_index_query_equal (index, bytes);
}

static void
assert_find (HBaseIndex *index, HBaseIndexQuery *query, const char *expected)
{
  g_autofree char *found = ix_find (index, query, NULL);
  g_autofree char *text = hbase_index_query_to_string (query);

  if (g_strcmp0 (found, expected) != 0)
    g_error ("%s: found \"%s\", expected \"%s\"", text, found, expected);
}

static void
assert_consistent (HBaseIndex *index)
{
  g_autoptr(HBaseIndexReport) report = ix_verify (index);
  g_autofree char *text = hbase_index_report_to_string (report);

  if (!hbase_index_report_is_consistent (report))
    g_error ("the index differs from the table:\n%s", text);
}

static void
delete_with (HBaseTable *table, const char *row, void (*build) (HBaseMutation *))
{
  g_autoptr(GBytes) key = ix_bytes (row);
  g_autoptr(HBaseMutation) remove = hbase_mutation_new_delete (key);

  if (build != NULL)
    build (remove);
  ix_apply (table, remove);
}

static void
delete_city (HBaseMutation *mutation)
{
  hbase_mutation_delete_column (mutation, "f", "city");
}

static void
delete_family_g (HBaseMutation *mutation)
{
  hbase_mutation_delete_family (mutation, "g");
}

/* --- every write path ------------------------------------------------------------------------ */

/* @data: the backend (NULL: the gateway, else native) */
static void
test_write_paths (gconstpointer data)
{
  IxFixture fx;
  HBaseTable *table;
  g_autoptr(GError) error = NULL;

  ix_set_native (data != NULL);
  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), NULL));
  table = hbase_index_get_table (fx.index);

  /* a put: entries of every indexed column */
  {
    g_autoptr(HBaseMutation) put = ix_put ("ada", "f:city=Paris", "f:age=36", "f:score=2.5",
                                           "f:big=9007199254740993", "g:tag=x", "f:other=1", NULL);
    g_autoptr(GBytes) hits = hbase_counter_encode (7);
    g_autoptr(GBytes) hits_key = ix_bytes ("ada");

    ix_apply (table, put);
    g_assert_true (hbase_table_set_counter (table, hits_key, "f", "hits", 7, NULL, &error));
    g_assert_no_error (error);
  }
  g_assert_true (ix_in_set (&fx, "city", "Paris", "ada"));
  g_assert_true (ix_in_set (&fx, "age", "36", "ada"));
  g_assert_true (ix_in_set (&fx, "tag", "x", "ada"));
  g_assert_cmpuint (ix_in_zset (&fx, "score", "ada"), ==, 1);
  g_assert_cmpuint (ix_in_zset (&fx, "big", "ada"), ==, 1);
  g_assert_cmpuint (ix_in_zset (&fx, "hits", "ada"), ==, 1);
  assert_consistent (fx.index);

  /* a new value: the old entry is gone when the write returns */
  {
    g_autoptr(HBaseMutation) put = ix_put ("ada", "f:city=Lyon", NULL);

    ix_apply (table, put);
  }
  g_assert_false (ix_in_set (&fx, "city", "Paris", "ada"));
  g_assert_true (ix_in_set (&fx, "city", "Lyon", "ada"));
  g_assert_cmpuint (ix_in_zset (&fx, "city", "ada"), ==, 1);
  /* the same value again changes nothing */
  {
    g_autoptr(HBaseMutation) put = ix_put ("ada", "f:city=Lyon", "f:age=36", NULL);

    ix_apply (table, put);
  }
  g_assert_true (ix_in_set (&fx, "city", "Lyon", "ada"));
  /* a value that is no number is not indexed, and the old one goes */
  {
    g_autoptr(HBaseMutation) put = ix_put ("ada", "f:age=unknown", NULL);

    ix_apply (table, put);
  }
  g_assert_false (ix_in_set (&fx, "age", "36", "ada"));
  g_assert_cmpuint (ix_in_zset (&fx, "age", "ada"), ==, 0);
  assert_consistent (fx.index);

  /* deletes: a column, a family, the whole row */
  delete_with (table, "ada", delete_city);
  g_assert_false (ix_in_set (&fx, "city", "Lyon", "ada"));
  g_assert_cmpuint (ix_in_zset (&fx, "city", "ada"), ==, 0);
  delete_with (table, "ada", delete_family_g);
  g_assert_false (ix_in_set (&fx, "tag", "x", "ada"));
  g_assert_cmpuint (ix_in_zset (&fx, "score", "ada"), ==, 1);
  delete_with (table, "ada", NULL);
  g_assert_cmpuint (ix_in_zset (&fx, "score", "ada"), ==, 0);
  g_assert_cmpuint (ix_in_zset (&fx, "big", "ada"), ==, 0);
  g_assert_cmpuint (ix_in_zset (&fx, "hits", "ada"), ==, 0);
  assert_consistent (fx.index);

  /* put multiple, with deletes between, several mutations of one row */
  {
    g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
    g_autoptr(GBytes) key = ix_bytes ("r2");

    for (guint i = 0; i < 20; i++)
      {
        g_autofree char *row = g_strdup_printf ("r%u", i);
        g_autofree char *city = g_strdup_printf ("f:city=c%u", i % 3);
        g_autofree char *age = g_strdup_printf ("f:age=%u", 20 + i);

        g_ptr_array_add (batch, ix_put (row, city, age, NULL));
      }
    g_ptr_array_add (batch, hbase_mutation_new_delete (key));
    g_ptr_array_add (batch, ix_put ("r3", "g:tag=c9", NULL));
    g_assert_true (hbase_table_apply_multiple (table, batch, NULL, &error));
    g_assert_no_error (error);
  }
  g_assert_false (ix_in_set (&fx, "city", "c2", "r2"));
  {
    g_autoptr(HBaseIndexQuery) c0 = eq ("city", "c0");
    g_autoptr(HBaseIndexQuery) c9 = eq ("tag", "c9");

    assert_find (fx.index, c0, "r0,r12,r15,r18,r3,r6,r9");
    assert_find (fx.index, c9, "r3");
  }
  assert_consistent (fx.index);

  /* mutate row: replace a row's values atomically */
  {
    g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
    g_autoptr(GBytes) key = ix_bytes ("r5");
    HBaseMutation *remove = hbase_mutation_new_delete (key);

    hbase_mutation_delete_column (remove, "f", "age");
    g_ptr_array_add (changes, remove);
    g_ptr_array_add (changes, ix_put ("r5", "f:city=moved", NULL));
    g_assert_true (hbase_table_mutate_row (table, changes, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (ix_in_set (&fx, "city", "moved", "r5"));
    g_assert_false (ix_in_set (&fx, "city", "c2", "r5"));
    g_assert_false (ix_in_set (&fx, "age", "25", "r5"));
  }
  assert_consistent (fx.index);

  /* check-and-mutate: a failed check leaves no entry behind */
  {
    g_autoptr(GBytes) c1 = ix_bytes ("nope");
    g_autoptr(HBaseCondition) wrong = hbase_condition_new ("f", "city", HBASE_COMPARE_EQUAL, c1);
    g_autoptr(GBytes) moved = ix_bytes ("moved");
    g_autoptr(HBaseCondition) right = hbase_condition_new ("f", "city", HBASE_COMPARE_EQUAL, moved);
    g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
    gboolean applied = TRUE;

    g_ptr_array_add (changes, ix_put ("r5", "f:city=claimed", NULL));
    g_assert_true (hbase_table_check_and_mutate (table, wrong, changes, &applied, NULL, &error));
    g_assert_false (applied);
    g_assert_false (ix_in_set (&fx, "city", "claimed", "r5"));
    g_assert_true (ix_in_set (&fx, "city", "moved", "r5"));
    g_assert_true (hbase_table_check_and_mutate (table, right, changes, &applied, NULL, &error));
    g_assert_true (applied);
    g_assert_true (ix_in_set (&fx, "city", "claimed", "r5"));
    g_assert_false (ix_in_set (&fx, "city", "moved", "r5"));
  }
  assert_consistent (fx.index);

  /* increments and appends: the new value comes from HBase's answer */
  {
    g_autoptr(GBytes) key = ix_bytes ("r7");
    g_autoptr(HBaseMutation) append = hbase_mutation_new_append (key);
    g_autoptr(GBytes) suffix = ix_bytes ("-x");
    g_autoptr(HBaseRow) result = NULL;
    gint64 value = 0;

    g_assert_true (hbase_table_increment_counter (table, key, "f", "hits", 5, &value, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (hbase_table_increment_counter (table, key, "f", "hits", 5, &value, NULL, &error));
    g_assert_cmpint (value, ==, 10);
    hbase_mutation_append (append, "f", "city", suffix);
    result = hbase_table_append (table, append, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (ix_in_set (&fx, "city", "c1-x", "r7"));
    g_assert_false (ix_in_set (&fx, "city", "c1", "r7"));
    g_assert_cmpuint (ix_in_zset (&fx, "hits", "r7"), ==, 1);
    {
      g_autoptr(HBaseIndexQuery) ten = hbase_index_query_equal_int64 ("hits", 10);

      assert_find (fx.index, ten, "r7");
    }
  }
  assert_consistent (fx.index);

  /* a version delete brings the older version back: read after the write */
  {
    g_autoptr(GBytes) key = ix_bytes ("v1");
    g_autoptr(HBaseMutation) old = ix_put ("v1", "f:city=old", NULL);
    g_autoptr(HBaseMutation) young = ix_put ("v1", "f:city=young", NULL);
    g_autoptr(HBaseMutation) remove = hbase_mutation_new_delete (key);
    g_autoptr(HBaseRow) row = NULL;
    const HBaseCell *cell;

    hbase_mutation_set_timestamp (old, 1000);
    hbase_mutation_set_timestamp (young, 2000);
    ix_apply (table, old);
    ix_apply (table, young);
    /* an explicit timestamp may not be the newest: both kept until settled */
    g_assert_true (ix_in_set (&fx, "city", "young", "v1"));
    row = hbase_table_get (table, key, NULL, NULL, &error);
    cell = hbase_row_lookup_cell (row, "f", "city");
    g_assert_cmpint (hbase_cell_get_timestamp (cell), ==, 2000);
    hbase_mutation_delete_cell_version (remove, "f", "city", 2000);
    ix_apply (table, remove);
    g_assert_true (ix_in_set (&fx, "city", "old", "v1"));
    {
      g_autoptr(HBaseIndexQuery) q = eq ("city", "old");
      g_autoptr(HBaseIndexQuery) y = eq ("city", "young");

      assert_find (fx.index, q, "v1");
      assert_find (fx.index, y, "");
    }
  }
  {
    g_autoptr(HBaseIndexReport) repaired = ix_repair (fx.index);
  }
  assert_consistent (fx.index);

  /* the write buffer and async writes are indexed too */
  {
    HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
    g_autoptr(HBaseWriteBuffer) buffer = NULL;
    guint n = test_quick () ? 50 : 300;

    options.max_mutations = 64;
    buffer = hbase_write_buffer_new (table, &options, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < n; i++)
      {
        g_autofree char *row = g_strdup_printf ("wb%04u", i);
        g_autofree char *tag = g_strdup_printf ("g:tag=t%u", i % 10);
        g_autoptr(HBaseMutation) put = ix_put (row, tag, NULL);

        g_assert_true (hbase_write_buffer_add (buffer, put, NULL, &error));
      }
    g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
    g_assert_no_error (error);
    {
      g_autoptr(HBaseIndexQuery) t3 = eq ("tag", "t3");
      guint64 count = 0;

      g_assert_true (hbase_index_count (fx.index, t3, &count, NULL, &error));
      g_assert_cmpuint (count, ==, n / 10);
    }
  }
  {
    g_autoptr(HBaseMutation) put = ix_put ("async", "f:city=async-city", NULL);
    TestWaiter waiter;

    test_waiter_init (&waiter);
    hbase_table_apply_async (table, put, NULL, test_waiter_done, &waiter);
    g_assert_true (hbase_table_apply_finish (table, test_waiter_run (&waiter), &error));
    g_assert_no_error (error);
    test_waiter_clear (&waiter);
    g_assert_true (ix_in_set (&fx, "city", "async-city", "async"));
  }
  assert_consistent (fx.index);

  /* a batch failing half-way: what was applied is indexed, what may have
   * been is kept (a superset); repair makes it exact */
  {
    g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
    g_autoptr(GBytes) key = ix_bytes ("h2");
    HBaseMutation *remove = hbase_mutation_new_delete (key);

    g_ptr_array_add (batch, ix_put ("h1", "f:city=half", NULL));
    g_ptr_array_add (batch, remove);
    g_ptr_array_add (batch, ix_put ("h3", "nofamily:x=1", "f:city=half", NULL));
    g_ptr_array_add (batch, ix_put ("h4", "f:city=half", NULL));
    g_assert_false (hbase_table_apply_multiple (table, batch, NULL, &error));
    g_clear_error (&error);
    g_assert_true (ix_in_set (&fx, "city", "half", "h1"));
    /* h3 and h4 were in doubt: still indexed, whatever HBase did */
    g_assert_true (ix_in_set (&fx, "city", "half", "h3"));
    g_assert_true (ix_in_set (&fx, "city", "half", "h4"));
    {
      g_autoptr(HBaseIndexQuery) half = eq ("city", "half");
      g_autoptr(GBytes) h4 = ix_bytes ("h4");
      g_autoptr(HBaseRow) row = hbase_table_get (table, h4, NULL, NULL, &error);

      /* HBase applies the good puts of a failed putMultiple */
      assert_find (fx.index, half, hbase_row_is_empty (row) ? "h1" : "h1,h4");
    }
  }
  {
    g_autoptr(HBaseIndexReport) repaired = ix_repair (fx.index);
  }
  assert_consistent (fx.index);

  ix_teardown (&fx);
}

/* --- queries ------------------------------------------------------------------------------------ */

static void
load_people (HBaseTable *table, guint n)
{
  g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *row = g_strdup_printf ("p%03u", i);
      g_autofree char *city = g_strdup_printf ("f:city=%s", (const char *[]) { "Lyon", "Paris", "Nice" }[i % 3]);
      g_autofree char *age = g_strdup_printf ("f:age=%u", i % 50);
      g_autofree char *score = g_strdup_printf ("f:score=%g", (i % 10) / 4.0 - 1.0);
      g_autofree char *big = g_strdup_printf ("f:big=%" G_GINT64_FORMAT,
                                              G_MAXINT64 - (gint64) (i % 5));

      g_ptr_array_add (batch, ix_put (row, city, age, score, big, NULL));
    }
  g_assert_true (hbase_table_apply_multiple (table, batch, NULL, &error));
  g_assert_no_error (error);
}

static char *
expected_people (guint n, gboolean (*keep) (guint i))
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    if (keep (i))
      g_string_append_printf (out, "%sp%03u", out->len > 0 ? "," : "", i);
  return g_string_free (out, FALSE);
}

static gboolean keep_paris (guint i) { return i % 3 == 1; }
static gboolean keep_paris_or_nice (guint i) { return i % 3 != 0; }
static gboolean keep_lyon_or_nice (guint i) { return i % 3 != 1; }
static gboolean keep_age_10_20 (guint i) { return i % 50 >= 10 && i % 50 < 20; }
static gboolean keep_paris_and_age (guint i) { return keep_paris (i) && keep_age_10_20 (i); }
static gboolean keep_score_pos (guint i) { return (i % 10) / 4.0 - 1.0 > 0.0; }
static gboolean keep_big (guint i) { return i % 5 <= 1; }
static gboolean keep_age_or (guint i) { return i % 50 == 3 || (i % 50 >= 45 && i % 3 == 2); }
static gboolean keep_lyon_or_young (guint i) { return i % 3 == 0 || i % 50 < 5; }

/* @data: the backend (NULL: the gateway, else native) */
static void
test_queries (gconstpointer data)
{
  IxFixture fx;
  HBaseTable *table;
  guint n = test_quick () ? 60 : 150;
  g_autoptr(GError) error = NULL;

  ix_set_native (data != NULL);
  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), NULL));
  table = hbase_index_get_table (fx.index);
  load_people (table, n);

  {
    /* every condition is ours to release; compositions take their own
     * references (no leak: the sanitizer build checks it) */
    g_autoptr(HBaseIndexQuery) paris = eq ("city", "Paris");
    g_autoptr(GBytes) p = ix_bytes ("Paris");
    g_autoptr(GBytes) ni = ix_bytes ("Nice");
    GBytes *two[] = { p, ni };
    g_autoptr(HBaseIndexQuery) in = hbase_index_query_in ("city", two, 2);
    gint64 lo = 10, hi = 20;
    g_autoptr(HBaseIndexQuery) ages = hbase_index_query_range_int64 ("age", &lo, TRUE, &hi, FALSE);
    g_autoptr(GBytes) lo_text = ix_bytes ("10");
    g_autoptr(GBytes) hi_text = ix_bytes ("19");
    g_autoptr(HBaseIndexQuery) ages_text = hbase_index_query_range ("age", lo_text, TRUE, hi_text,
                                                                     TRUE);
    g_autoptr(HBaseIndexQuery) both = hbase_index_query_and (paris, ages);
    double zero = 0.0;
    g_autoptr(HBaseIndexQuery) positive = hbase_index_query_range_double ("score", &zero, FALSE,
                                                                          NULL, TRUE);
    gint64 big_lo = G_MAXINT64 - 1;
    g_autoptr(HBaseIndexQuery) big = hbase_index_query_range_int64 ("big", &big_lo, TRUE, NULL, TRUE);
    g_autoptr(GBytes) n45 = ix_bytes ("45");
    g_autoptr(HBaseIndexQuery) age3 = hbase_index_query_equal_int64 ("age", 3);
    g_autoptr(HBaseIndexQuery) from45 = hbase_index_query_range ("age", n45, TRUE, NULL, TRUE);
    g_autoptr(HBaseIndexQuery) nice = eq ("city", "Nice");
    g_autoptr(HBaseIndexQuery) old_nice = hbase_index_query_and (from45, nice);
    g_autoptr(HBaseIndexQuery) either = hbase_index_query_or (age3, old_nice);
    gint64 five = 5;
    g_autoptr(HBaseIndexQuery) lyon = eq ("city", "Lyon");
    g_autoptr(HBaseIndexQuery) young = hbase_index_query_range_int64 ("age", NULL, TRUE, &five, FALSE);
    g_autoptr(HBaseIndexQuery) lyon_or_young = hbase_index_query_or (lyon, young);
    g_autoptr(GBytes) l = ix_bytes ("L");
    g_autoptr(GBytes) o = ix_bytes ("O");
    g_autoptr(HBaseIndexQuery) city_range = hbase_index_query_range ("city", l, TRUE, o, FALSE);
    g_autoptr(HBaseIndexQuery) none = eq ("city", "Rome");
    g_autoptr(HBaseIndexQuery) nothing = hbase_index_query_and (none, paris);
    struct { HBaseIndexQuery *query; gboolean (*keep) (guint); } cases[] = {
      { paris, keep_paris }, { in, keep_paris_or_nice }, { ages, keep_age_10_20 },
      { ages_text, keep_age_10_20 }, { both, keep_paris_and_age }, { positive, keep_score_pos },
      { big, keep_big }, { either, keep_age_or }, { lyon_or_young, keep_lyon_or_young },
      { city_range, keep_lyon_or_nice },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *expected = expected_people (n, cases[i].keep);
        guint64 count = 0;
        guint64 want = 0;

        assert_find (fx.index, cases[i].query, expected);
        g_assert_true (hbase_index_count (fx.index, cases[i].query, &count, NULL, &error));
        g_assert_no_error (error);
        for (guint r = 0; r < n; r++)
          want += cases[i].keep (r);
        g_assert_cmpuint (count, ==, want);
      }
    assert_find (fx.index, none, "");
    assert_find (fx.index, nothing, "");

    /* pages: ascending and descending, tokens, limit */
    for (guint reversed = 0; reversed < 2; reversed++)
      {
        g_autofree char *expected = expected_people (n, keep_paris_or_nice);
        g_auto(GStrv) want = g_strsplit (expected, ",", -1);
        g_autofree char *token = NULL;
        guint seen = 0, pages = 0, total = g_strv_length (want);

        do
          {
            HBaseIndexFindOptions options = HBASE_INDEX_FIND_OPTIONS_INIT;
            g_autoptr(HBaseIndexPage) page = NULL;
            GPtrArray *rows;

            options.limit = 7;
            options.page_token = token;
            options.reversed = reversed;
            options.batch_rows = 3;
            page = hbase_index_find (fx.index, in, &options, NULL, &error);
            g_assert_no_error (error);
            rows = hbase_index_page_get_rows (page);
            g_assert_cmpuint (rows->len, <=, 7);
            for (guint r = 0; r < rows->len; r++)
              {
                GBytes *key = hbase_row_get_key (g_ptr_array_index (rows, r));
                const char *expect = want[reversed ? total - 1 - seen : seen];

                g_assert_cmpmem (g_bytes_get_data (key, NULL), g_bytes_get_size (key), expect,
                                 strlen (expect));
                seen++;
              }
            g_free (token);
            token = g_strdup (hbase_index_page_get_next_token (page));
            pages++;
          }
        while (token != NULL);
        g_assert_cmpuint (seen, ==, total);
        g_assert_cmpuint (pages, ==, (total + 6) / 7);
      }

    /* a token of another query is refused */
    {
      HBaseIndexFindOptions options = HBASE_INDEX_FIND_OPTIONS_INIT;
      g_autoptr(HBaseIndexPage) first = NULL;
      g_autoptr(HBaseIndexPage) other = NULL;

      options.limit = 2;
      first = hbase_index_find (fx.index, paris, &options, NULL, &error);
      g_assert_no_error (error);
      options.page_token = hbase_index_page_get_next_token (first);
      other = hbase_index_find (fx.index, in, &options, NULL, &error);
      g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_BAD_TOKEN);
      g_clear_error (&error);
      options.page_token = "garbage";
      g_assert_null (hbase_index_find (fx.index, paris, &options, NULL, &error));
      g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_BAD_TOKEN);
      g_clear_error (&error);
    }

    /* only some columns: the indexed ones come too */
    {
      HBaseIndexFindOptions options = HBASE_INDEX_FIND_OPTIONS_INIT;
      const char *const columns[] = { "f:score", NULL };
      g_autoptr(HBaseIndexPage) page = NULL;
      HBaseRow *row;

      options.columns = columns;
      options.limit = 1;
      page = hbase_index_find (fx.index, both, &options, NULL, &error);
      g_assert_no_error (error);
      row = g_ptr_array_index (hbase_index_page_get_rows (page), 0);
      g_assert_nonnull (hbase_row_lookup (row, "f", "score"));
      g_assert_nonnull (hbase_row_lookup (row, "f", "city"));
    }

    /* async: the same page and count as the sync calls, though the
     * handle and the options' strings are gone before the thread runs */
    {
      HBaseIndexFindOptions options = HBASE_INDEX_FIND_OPTIONS_INIT;
      HBaseIndex *other = ix_open (&fx, NULL);
      g_autoptr(HBaseIndexPage) first = NULL;
      g_autoptr(HBaseIndexPage) second = NULL;
      g_autoptr(HBaseIndexPage) page = NULL;
      g_autofree char *token = NULL;
      g_autofree char *column = g_strdup ("f:score");
      const char *columns[] = { column, NULL };
      GPtrArray *want, *got;
      guint64 count = 0, want_count = 0;
      TestWaiter waiter;

      options.limit = 3;
      first = hbase_index_find (fx.index, in, &options, NULL, &error);
      g_assert_no_error (error);
      token = g_strdup (hbase_index_page_get_next_token (first));
      options.page_token = token;
      options.columns = columns;
      second = hbase_index_find (fx.index, in, &options, NULL, &error);
      g_assert_no_error (error);
      want = hbase_index_page_get_rows (second);
      test_waiter_init (&waiter);
      hbase_index_find_async (other, in, &options, NULL, test_waiter_done, &waiter);
      g_object_unref (other);
      g_clear_pointer (&token, g_free);
      g_clear_pointer (&column, g_free);
      options.page_token = NULL;
      page = hbase_index_find_finish (NULL, test_waiter_run (&waiter), &error);
      g_assert_no_error (error);
      test_waiter_clear (&waiter);
      got = hbase_index_page_get_rows (page);
      g_assert_cmpuint (got->len, ==, want->len);
      g_assert_cmpuint (got->len, >, 0);
      for (guint r = 0; r < got->len; r++)
        {
          HBaseRow *a = g_ptr_array_index (got, r), *b = g_ptr_array_index (want, r);

          g_assert_true (g_bytes_equal (hbase_row_get_key (a), hbase_row_get_key (b)));
          g_assert_nonnull (hbase_row_lookup (a, "f", "score"));
        }

      g_assert_true (hbase_index_count (fx.index, in, &want_count, NULL, &error));
      test_waiter_init (&waiter);
      hbase_index_count_async (fx.index, in, NULL, test_waiter_done, &waiter);
      g_assert_true (hbase_index_count_finish (fx.index, test_waiter_run (&waiter), &count, &error));
      g_assert_no_error (error);
      test_waiter_clear (&waiter);
      g_assert_cmpuint (count, ==, want_count);

      /* failures come back through finish */
      options.page_token = "garbage";
      options.columns = NULL;
      test_waiter_init (&waiter);
      hbase_index_find_async (fx.index, paris, &options, NULL, test_waiter_done, &waiter);
      g_assert_null (hbase_index_find_finish (fx.index, test_waiter_run (&waiter), &error));
      g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_BAD_TOKEN);
      g_clear_error (&error);
      test_waiter_clear (&waiter);
    }

    /* conditions the index cannot answer */
    {
      g_autoptr(HBaseIndexQuery) unknown = eq ("nope", "x");
      g_autoptr(HBaseIndexQuery) tag_range = hbase_index_query_range ("tag", l, TRUE, NULL, TRUE);

      g_assert_null (hbase_index_find (fx.index, unknown, NULL, NULL, &error));
      g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX);
      g_clear_error (&error);
      g_assert_null (hbase_index_find (fx.index, tag_range, NULL, NULL, &error));
      g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX);
      g_clear_error (&error);
    }
  }

  /* read repair: a write through a handle without the index leaves stale
   * entries; the query drops the row and corrects its entries */
  {
    g_autoptr(HBaseTable) plain = ix_unindexed_table (&fx);
    g_autoptr(HBaseMutation) put = ix_put ("p001", "f:city=Lyon", NULL);
    g_autoptr(HBaseIndexQuery) paris = eq ("city", "Paris");
    g_autoptr(HBaseIndexQuery) lyon = eq ("city", "Lyon");
    HBaseIndexQueryStats stats;
    g_autofree char *found = NULL;
    g_autofree char *again = NULL;
    g_autofree char *lyons = NULL;

    ix_apply (plain, put);
    found = ix_find (fx.index, paris, &stats);
    g_assert_null (strstr (found, "p001"));
    g_assert_cmpuint (stats.stale, ==, 1);
    g_assert_cmpuint (stats.repaired, ==, 1);
    g_assert_false (ix_in_set (&fx, "city", "Paris", "p001"));
    g_assert_true (ix_in_set (&fx, "city", "Lyon", "p001"));
    again = ix_find (fx.index, paris, &stats);
    g_assert_cmpuint (stats.stale, ==, 0);
    lyons = ix_find (fx.index, lyon, NULL);
    g_assert_nonnull (strstr (lyons, "p001"));
  }
  assert_consistent (fx.index);

  /* verify finds what a handle without the index did; repair fixes it */
  {
    g_autoptr(HBaseTable) plain = ix_unindexed_table (&fx);
    g_autoptr(HBaseMutation) put = ix_put ("p002", "f:city=Rome", "f:age=99", NULL);
    g_autoptr(HBaseMutation) fresh = ix_put ("zz-new", "f:city=Oslo", NULL);
    g_autoptr(HBaseIndexReport) before = NULL;
    g_autoptr(HBaseIndexReport) repaired = NULL;
    g_autoptr(HBaseIndexQuery) rome = eq ("city", "Rome");

    ix_apply (plain, put);
    ix_apply (plain, fresh);
    delete_with (plain, "p004", NULL);
    before = ix_verify (fx.index);
    g_assert_cmpuint (hbase_index_report_get_missing (before), ==, 3);   /* Rome, 99, Oslo */
    g_assert_cmpuint (hbase_index_report_get_extra (before), >=, 5);
    g_assert_nonnull (hbase_index_report_get_examples (before)[0]);
    repaired = ix_repair (fx.index);
    g_assert_cmpuint (hbase_index_report_get_repaired (repaired), ==, 3);
    assert_consistent (fx.index);
    assert_find (fx.index, rome, "p002");
  }

  ix_teardown (&fx);
}

/* --- definitions, state, policies ----------------------------------------------------------- */

/* @data: the backend (NULL: the gateway, else native) */
static void
test_definitions_and_policies (gconstpointer data)
{
  IxFixture fx;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseIndexQuery) paris = eq ("city", "Paris");
  HBaseIndexState state;
  g_autofree char *reason = NULL;

  ix_set_native (data != NULL);
  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), NULL));
  {
    g_autoptr(HBaseMutation) put = ix_put ("a", "f:city=Paris", NULL);

    ix_apply (hbase_index_get_table (fx.index), put);
  }
  g_assert_true (hbase_index_get_state (fx.index, &state, &reason, NULL, &error));
  g_assert_cmpint (state, ==, HBASE_INDEX_STATE_READY);

  /* a table without definitions */
  {
    HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;

    options.meta_table = fx.meta;
    g_assert_null (hbase_index_open (fx.client, "no_such_indexed_table", &options, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX);
    g_clear_error (&error);
    g_assert_null (hbase_index_get_definitions (fx.client, "no_such_indexed_table", &options, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX);
    g_clear_error (&error);
  }

  /* Redis unreachable: FAIL refuses the write, nothing reaches HBase */
  {
    HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
    g_autoptr(HBaseIndex) down = NULL;
    g_autoptr(HBaseMutation) put = ix_put ("b", "f:city=Paris", NULL);
    g_autoptr(GBytes) key = ix_bytes ("b");
    g_autoptr(HBaseRow) row = NULL;

    options.redis_port = test_closed_port ();
    options.connect_timeout_ms = 500;
    down = ix_open (&fx, &options);
    g_assert_false (hbase_table_apply (hbase_index_get_table (down), put, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS);
    g_clear_error (&error);
    row = hbase_table_get (hbase_index_get_table (fx.index), key, NULL, NULL, &error);
    g_assert_true (hbase_row_is_empty (row));
    g_assert_null (hbase_index_find (down, paris, NULL, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_DIRTY);
    g_clear_error (&error);
  }

  /* MARK_DIRTY lets it through and marks the index: every client then
   * refuses (or scans) until a repair */
  {
    HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
    g_autoptr(HBaseIndex) down = NULL;
    g_autoptr(HBaseIndex) scanning = NULL;
    g_autoptr(HBaseMutation) put = ix_put ("c", "f:city=Paris", NULL);
    g_autoptr(HBaseIndexPage) page = NULL;
    g_autoptr(HBaseIndexReport) report = NULL;
    guint64 count = 0;

    options.redis_port = test_closed_port ();
    options.connect_timeout_ms = 500;
    options.on_redis_down = HBASE_INDEX_REDIS_DOWN_MARK_DIRTY;
    down = ix_open (&fx, &options);
    g_assert_true (hbase_table_apply (hbase_index_get_table (down), put, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (hbase_index_get_state (fx.index, &state, NULL, NULL, &error));
    g_assert_cmpint (state, ==, HBASE_INDEX_STATE_DIRTY);
    g_assert_null (hbase_index_find (fx.index, paris, NULL, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_DIRTY);
    g_clear_error (&error);

    options.redis_port = 0;
    options.when_dirty = HBASE_INDEX_DIRTY_SCAN;
    scanning = ix_open (&fx, &options);
    page = hbase_index_find (scanning, paris, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (hbase_index_page_get_stats (page)->scanned);
    g_assert_cmpuint (hbase_index_page_get_rows (page)->len, ==, 2);
    g_assert_true (hbase_index_count (scanning, paris, &count, NULL, &error));
    g_assert_cmpuint (count, ==, 2);

    report = ix_repair (fx.index);
    g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 1);
    /* a copy of a report tells the same */
    {
      g_autoptr(HBaseIndexReport) copy = hbase_index_report_copy (report);
      g_autofree char *text = hbase_index_report_to_string (report);
      g_autofree char *copy_text = hbase_index_report_to_string (copy);

      g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_INDEX_REPORT));
      g_assert_true (copy != report);
      g_assert_cmpuint (hbase_index_report_get_missing (copy), ==, 1);
      g_assert_cmpuint (hbase_index_report_get_rows (copy), ==, hbase_index_report_get_rows (report));
      g_assert_cmpuint (hbase_index_report_get_repaired (copy), ==, hbase_index_report_get_repaired (report));
      g_assert_cmpstr (copy_text, ==, text);
    }
    g_assert_true (hbase_index_get_state (fx.index, &state, NULL, NULL, &error));
    g_assert_cmpint (state, ==, HBASE_INDEX_STATE_READY);
    assert_find (fx.index, paris, "a,c");
  }

  /* new definitions: old clients' writes are refused once the index is
   * rebuilt for them; queries need the rebuild */
  {
    g_autoptr(HBaseIndexSpec) spec = ix_sample_spec ();
    g_autoptr(HBaseIndex) renewed = NULL;
    g_autoptr(HBaseMutation) put = ix_put ("d", "f:city=Paris", NULL);
    g_autoptr(HBaseIndexReport) report = NULL;
    HBaseIndexOptions meta = HBASE_INDEX_OPTIONS_INIT;

    meta.meta_table = fx.meta;
    g_assert_true (hbase_index_spec_set_key_prefix (spec, fx.prefix, &error));
    g_assert_true (hbase_index_define (fx.client, fx.table, spec, &meta, NULL, &error));
    g_assert_no_error (error);
    /* the definitions read back as defined */
    {
      g_autoptr(HBaseIndexSpec) stored = hbase_index_get_definitions (fx.client, fx.table, &meta, NULL, &error);
      g_autofree char *defined = hbase_index_spec_to_data (spec);
      g_autofree char *read = NULL;

      g_assert_no_error (error);
      g_assert_nonnull (stored);
      read = hbase_index_spec_to_data (stored);
      g_assert_cmpstr (read, ==, defined);
      g_assert_cmpstr (hbase_index_spec_get_key_prefix (stored), ==, fx.prefix);
    }
    renewed = ix_open (&fx, NULL);
    g_assert_true (hbase_index_get_state (renewed, &state, NULL, NULL, &error));
    g_assert_cmpint (state, ==, HBASE_INDEX_STATE_NOT_BUILT);
    g_assert_null (hbase_index_find (renewed, paris, NULL, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_DIRTY);
    g_clear_error (&error);
    report = hbase_index_rebuild (renewed, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (hbase_index_report_get_rows (report), ==, 2);
    g_assert_true (hbase_index_report_get_rebuilt (report));
    g_assert_false (hbase_table_apply (hbase_index_get_table (fx.index), put, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_CHANGED);
    g_clear_error (&error);
    ix_apply (hbase_index_get_table (renewed), put);
    assert_find (renewed, paris, "a,c,d");
    g_object_unref (fx.index);
    fx.index = g_steal_pointer (&renewed);
  }
  ix_teardown (&fx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* each through the binary/buffered gateway, then on the native backend */
  for (guint i = 0; i < 2; i++)
    {
      const char *end = i == 0 ? "binary-buffered" : "native";
      gconstpointer native = GUINT_TO_POINTER (i);
      g_autofree char *writes = g_strdup_printf ("/integration/index/%s/write-paths", end);
      g_autofree char *queries = g_strdup_printf ("/integration/index/%s/queries", end);
      g_autofree char *definitions = g_strdup_printf ("/integration/index/%s/definitions-and-policies", end);

      g_test_add_data_func (writes, native, test_write_paths);
      g_test_add_data_func (queries, native, test_queries);
      g_test_add_data_func (definitions, native, test_definitions_and_policies);
    }
  return g_test_run ();
}
