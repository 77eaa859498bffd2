/* SPDX-License-Identifier: Apache-2.0 */
/* zset-commands-cases.c: cases of the sorted-set integration test
 * (test-zset.c runs them) for lex ranges, range removals (one atomic
 * write, and groups past 1000 members), ZMSCORE's arrays, ZRANDMEMBER,
 * ZUNION/ZINTER/ZDIFF with WEIGHTS and AGGREGATE and their STORE forms
 * (destination among the sources), the refused inputs, and the
 * asynchronous forms. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "zset-commands-cases.h"
#include "../structures/structures-support.h"
#include "../support/test-rows.h"

static HBaseZSet *
make_zset (TestTableFixture *fixture, const char *suffix, guint page_size, const char *spec)
{
  g_autoptr(GBytes) key = test_key (suffix);
  HBaseZSetOptions options = HBASE_ZSET_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) parts = g_strsplit (spec, " ", -1);
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  HBaseZSet *zset;

  options.page_size = page_size;
  zset = hbase_zset_new (fixture->table, key, &options, &error);
  g_assert_no_error (error);
  g_assert_true (hbase_zset_clear (zset, NULL, &error));
  /* "member=score ..." */
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *eq = strrchr (parts[i], '=');
      gdouble score;

      if (parts[i][0] == '\0')
        continue;
      g_assert_nonnull (eq);
      score = g_ascii_strtod (eq + 1, NULL);
      g_ptr_array_add (members, g_bytes_new (parts[i], (gsize) (eq - parts[i])));
      g_array_append_val (scores, score);
    }
  g_assert_true (hbase_zset_add (zset, HBASE_ZADD_NONE, members, (gdouble *) (gpointer) scores->data,
                                 NULL, NULL, &error));
  g_assert_no_error (error);
  return zset;
}

/* consumes @members */
static char *
members_text (GPtrArray *members)
{
  GString *text = g_string_new (NULL);

  g_assert_nonnull (members);
  for (guint i = 0; i < members->len; i++)
    {
      g_autofree char *shown = sts_show (g_ptr_array_index (members, i));

      g_string_append_printf (text, "%s%s", i > 0 ? " " : "", shown);
    }
  g_ptr_array_unref (members);
  return g_string_free (text, FALSE);
}

/* consumes @entries */
static char *
entries_text (GPtrArray *entries)
{
  GString *text = g_string_new (NULL);

  g_assert_nonnull (entries);
  for (guint i = 0; i < entries->len; i++)
    {
      HBaseZSetEntry *entry = g_ptr_array_index (entries, i);
      g_autofree char *member = sts_show (entry->member);

      g_string_append_printf (text, "%s%s=%g", i > 0 ? " " : "", member, entry->score);
    }
  g_ptr_array_unref (entries);
  return g_string_free (text, FALSE);
}

static char *
lex (HBaseZSet *zset, const char *min, const char *max, gboolean reverse, gint64 offset,
     gint64 count)
{
  g_autoptr(GBytes) a = sts_bytes (min);
  g_autoptr(GBytes) b = sts_bytes (max);
  g_autoptr(GError) error = NULL;
  GPtrArray *members = hbase_zset_range_by_lex (zset, a, b, reverse, offset, count, NULL, &error);

  g_assert_no_error (error);
  return members_text (members);
}

static guint64
lex_count (HBaseZSet *zset, const char *min, const char *max)
{
  g_autoptr(GBytes) a = sts_bytes (min);
  g_autoptr(GBytes) b = sts_bytes (max);
  g_autoptr(GError) error = NULL;
  guint64 n = G_MAXUINT64;

  g_assert_true (hbase_zset_lex_count (zset, a, b, &n, NULL, &error));
  g_assert_no_error (error);
  return n;
}

static char *
whole (HBaseZSet *zset)
{
  g_autoptr(HBaseZSetIter) iter = hbase_zset_range_by_rank (zset, 0, -1, FALSE);
  g_autoptr(GError) error = NULL;
  GPtrArray *entries = hbase_zset_iter_collect (iter, NULL, &error);

  g_assert_no_error (error);
  return entries_text (entries);
}

#define ASSERT_TEXT(call, expected) \
  G_STMT_START { g_autofree char *text_ = (call); g_assert_cmpstr (text_, ==, (expected)); } G_STMT_END

static void
test_lex (TestTableFixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(HBaseZSet) missing = NULL;
  g_autoptr(HBaseZSet) mixed = NULL;
  g_autoptr(GBytes) bad = sts_bytes ("b");
  g_autoptr(GBytes) plus = sts_bytes ("+");
  g_autoptr(GError) error = NULL;
  GPtrArray *none;

  (void) data;
  TEST_SKIP_IF_UNREACHABLE (fixture);
  /* a page of 2: the range spans pages */
  zset = make_zset (fixture, "lex", 2, "a=0 b=0 c=0 d=0 e=0 f=0 g=0 ab=0");
  ASSERT_TEXT (lex (zset, "-", "+", FALSE, 0, -1), "a ab b c d e f g");
  ASSERT_TEXT (lex (zset, "[b", "(e", FALSE, 0, -1), "b c d");
  ASSERT_TEXT (lex (zset, "(a", "[b", FALSE, 0, -1), "ab b");
  ASSERT_TEXT (lex (zset, "[a", "(ab", FALSE, 0, -1), "a");
  ASSERT_TEXT (lex (zset, "-", "+", TRUE, 1, 2), "f e");
  ASSERT_TEXT (lex (zset, "(b", "[f", TRUE, 0, -1), "f e d c");
  ASSERT_TEXT (lex (zset, "-", "+", FALSE, 3, 3), "c d e");
  ASSERT_TEXT (lex (zset, "-", "+", FALSE, -1, 3), "");
  ASSERT_TEXT (lex (zset, "-", "+", FALSE, 0, 0), "");
  ASSERT_TEXT (lex (zset, "(b", "[b", FALSE, 0, -1), "");
  ASSERT_TEXT (lex (zset, "[b", "[a", FALSE, 0, -1), "");
  ASSERT_TEXT (lex (zset, "+", "-", FALSE, 0, -1), "");
  ASSERT_TEXT (lex (zset, "[x", "+", FALSE, 0, -1), "");
  g_assert_cmpuint (lex_count (zset, "-", "+"), ==, 8);
  g_assert_cmpuint (lex_count (zset, "(a", "(c"), ==, 2);
  g_assert_cmpuint (lex_count (zset, "[c", "[c"), ==, 1);
  g_assert_cmpuint (lex_count (zset, "(c", "(c"), ==, 0);
  /* a bound without its bracket is refused, even on a missing set */
  missing = make_zset (fixture, "lex-missing", 0, "");
  none = hbase_zset_range_by_lex (missing, bad, plus, FALSE, 0, -1, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_zset_remove_range_by_lex (missing, plus, bad, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  ASSERT_TEXT (lex (missing, "-", "+", FALSE, 0, -1), "");
  g_assert_cmpuint (lex_count (missing, "-", "+"), ==, 0);
  /* different scores: taken in score order from the first member in range
   * up to the first one past it, as Redis does on a small set */
  mixed = make_zset (fixture, "lex-mixed", 0, "a=1 b=2 c=3 x=0 z=5");
  ASSERT_TEXT (lex (mixed, "[a", "[y", FALSE, 0, -1), "x a b c");
  ASSERT_TEXT (lex (mixed, "[b", "+", FALSE, 0, -1), "x a b c z");
  g_assert_cmpuint (lex_count (mixed, "[a", "[y"), ==, 4);
  /* nothing when the lowest-scored member is past the upper bound */
  ASSERT_TEXT (lex (mixed, "[a", "[c", FALSE, 0, -1), "");
}

/* (pointers: read after the call, whatever the order arguments are evaluated in) */
static guint64
removed_by (gboolean ok, GError **error, const guint64 *n)
{
  g_assert_no_error (*error);
  g_assert_true (ok);
  return *n;
}

static void
test_remove_ranges (TestTableFixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(HBaseZSet) big = NULL;
  g_autoptr(HBaseZSet) missing = NULL;
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr(GBytes) lo = sts_bytes ("[b");
  g_autoptr(GBytes) hi = sts_bytes ("(d");
  HBaseScoreRange range = { 2, TRUE, 4, FALSE };
  GError *error = NULL;
  guint64 n = G_MAXUINT64;

  (void) data;
  TEST_SKIP_IF_UNREACHABLE (fixture);
  zset = make_zset (fixture, "remove-ranges", 2, "a=1 b=2 c=3 d=4 e=5 f=6 g=7");
  /* (2 4]: c and d */
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_score (zset, &range, &n, NULL, &error),
                                &error, &n), ==, 2);
  ASSERT_TEXT (whole (zset), "a=1 b=2 e=5 f=6 g=7");
  /* the last two ranks */
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_rank (zset, -2, -1, &n, NULL, &error),
                                &error, &n), ==, 2);
  ASSERT_TEXT (whole (zset), "a=1 b=2 e=5");
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_rank (zset, 5, 9, &n, NULL, &error),
                                &error, &n), ==, 0);
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_rank (zset, 2, 1, &n, NULL, &error),
                                &error, &n), ==, 0);
  /* [b (d on mixed scores: b only (e is past d) */
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_lex (zset, lo, hi, &n, NULL, &error),
                                &error, &n), ==, 1);
  ASSERT_TEXT (whole (zset), "a=1 e=5");
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_rank (zset, 0, -1, &n, NULL, &error),
                                &error, &n), ==, 2);
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_rank (zset, 0, -1, &n, NULL, &error),
                                &error, &n), ==, 0);
  missing = make_zset (fixture, "remove-missing", 0, "");
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_score (missing, &range, &n, NULL, &error),
                                &error, &n), ==, 0);

  /* more than 1000 members: removed in groups, the count exact */
  big = make_zset (fixture, "remove-big", 0, "");
  for (guint i = 0; i < 2500; i++)
    {
      gdouble score = i;

      g_ptr_array_add (members, g_bytes_new_take (g_strdup_printf ("m%04u", i), 5));
      g_array_append_val (scores, score);
    }
  g_assert_true (hbase_zset_add (big, HBASE_ZADD_NONE, members, (gdouble *) (gpointer) scores->data,
                                 NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_rank (big, 10, -11, &n, NULL, &error),
                                &error, &n), ==, 2480);
  g_assert_true (hbase_zset_card (big, &n, NULL, &error));
  g_assert_cmpuint (n, ==, 20);
  range = (HBaseScoreRange) { 5, FALSE, 2494, FALSE };
  g_assert_cmpuint (removed_by (hbase_zset_remove_range_by_score (big, &range, &n, NULL, &error),
                                &error, &n), ==, 10);
  g_assert_true (hbase_zset_card (big, &n, NULL, &error));
  g_assert_cmpuint (n, ==, 10);
  g_assert_true (hbase_zset_clear (big, NULL, &error));
}

static void
test_mscore_random (TestTableFixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(HBaseZSet) empty = NULL;
  g_autoptr(GPtrArray) asked = sts_members ("b", "nope", "a", NULL);
  g_autoptr(GPtrArray) nothing = g_ptr_array_new ();
  g_autoptr(GArray) scores = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *drawn;
  gint64 counts[] = { 0, 1, 3, 50, -1, -10 };

  (void) data;
  TEST_SKIP_IF_UNREACHABLE (fixture);
  zset = make_zset (fixture, "mscore", 0, "a=1.5 b=-2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13");
  g_assert_true (hbase_zset_mscore (zset, asked, &scores, &found, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (scores->len, ==, 3);
  g_assert_cmpuint (found->len, ==, 3);
  g_assert_cmpfloat (g_array_index (scores, gdouble, 0), ==, -2);
  g_assert_true (g_array_index (found, gboolean, 0));
  g_assert_true (isnan (g_array_index (scores, gdouble, 1)));
  g_assert_false (g_array_index (found, gboolean, 1));
  g_assert_cmpfloat (g_array_index (scores, gdouble, 2), ==, 1.5);
  g_clear_pointer (&scores, g_array_unref);
  g_assert_true (hbase_zset_mscore (zset, nothing, &scores, NULL, NULL, &error));
  g_assert_cmpuint (scores->len, ==, 0);

  for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new (g_bytes_hash, g_bytes_equal);
      guint expected = counts[c] >= 0 ? (guint) MIN (counts[c], 13) : (guint) -counts[c];

      drawn = hbase_zset_random_members (zset, counts[c], NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (drawn->len, ==, expected);
      for (guint i = 0; i < drawn->len; i++)
        {
          HBaseZSetEntry *entry = g_ptr_array_index (drawn, i);
          g_autoptr(GPtrArray) one = g_ptr_array_new ();
          gdouble score = 0;

          g_ptr_array_add (one, entry->member);
          g_assert_true (hbase_zset_scores (zset, one, NULL, &score, NULL, &error));
          g_assert_cmpfloat (score, ==, entry->score);
          if (counts[c] > 0)
            g_assert_true (g_hash_table_add (seen, entry->member));
        }
      g_ptr_array_unref (drawn);
    }
  /* every member can come: 200 single draws from 13 reach them all */
  {
    g_autoptr(GHashTable) seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                        (GDestroyNotify) g_bytes_unref, NULL);

    for (guint i = 0; i < 200; i++)
      {
        drawn = hbase_zset_random_members (zset, 1, NULL, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (drawn->len, ==, 1);
        g_hash_table_add (seen, g_bytes_ref (((HBaseZSetEntry *) g_ptr_array_index (drawn, 0))->member));
        g_ptr_array_unref (drawn);
      }
    g_assert_cmpuint (g_hash_table_size (seen), ==, 13);
  }
  empty = make_zset (fixture, "random-empty", 0, "");
  drawn = hbase_zset_random_members (empty, -5, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (drawn->len, ==, 0);
  g_ptr_array_unref (drawn);
}

static void
test_combine (TestTableFixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) x = NULL;
  g_autoptr(HBaseZSet) y = NULL;
  g_autoptr(HBaseZSet) z = NULL;
  g_autoptr(HBaseZSet) missing = NULL;
  g_autoptr(GPtrArray) others = g_ptr_array_new ();
  g_autoptr(GPtrArray) sources = g_ptr_array_new ();
  g_autoptr(HBaseZCombineOptions) options = hbase_zcombine_options_new ();
  g_autoptr(HBaseZCombineOptions) copy = NULL;
  const gdouble weights[] = { 2, 1 }, infinite[] = { 0, HUGE_VAL }, three[] = { 1, 1, 1 };
  g_autoptr(GError) error = NULL;
  guint64 card = G_MAXUINT64;

  (void) data;
  TEST_SKIP_IF_UNREACHABLE (fixture);
  x = make_zset (fixture, "combine-x", 0, "a=1 b=2 c=3");
  y = make_zset (fixture, "combine-y", 0, "b=10 c=-5 d=4");
  z = make_zset (fixture, "combine-z", 0, "");
  missing = make_zset (fixture, "combine-missing", 0, "");
  g_ptr_array_add (others, y);
  ASSERT_TEXT (entries_text (hbase_zset_union (x, others, NULL, NULL, &error)), "c=-2 a=1 d=4 b=12");
  ASSERT_TEXT (entries_text (hbase_zset_inter (x, others, NULL, NULL, &error)), "c=-2 b=12");
  ASSERT_TEXT (entries_text (hbase_zset_diff (x, others, NULL, &error)), "a=1");
  ASSERT_TEXT (entries_text (hbase_zset_diff (x, NULL, NULL, &error)), "a=1 b=2 c=3");
  hbase_zcombine_options_set_weights (options, weights, 2);
  options->aggregate = HBASE_ZAGGREGATE_MAX;
  copy = hbase_zcombine_options_copy (options);
  ASSERT_TEXT (entries_text (hbase_zset_union (x, others, copy, NULL, &error)), "a=2 d=4 c=6 b=10");
  options->aggregate = HBASE_ZAGGREGATE_MIN;
  ASSERT_TEXT (entries_text (hbase_zset_inter (x, others, options, NULL, &error)), "c=-5 b=4");
  /* 0 times infinity counts as 0; inf + -inf too */
  hbase_zcombine_options_set_weights (options, infinite, 2);
  options->aggregate = HBASE_ZAGGREGATE_SUM;
  ASSERT_TEXT (entries_text (hbase_zset_union (x, others, options, NULL, &error)),
               "c=-inf a=0 b=inf d=inf");
  /* a missing set is empty */
  g_ptr_array_add (others, missing);
  ASSERT_TEXT (entries_text (hbase_zset_inter (x, others, NULL, NULL, &error)), "");
  g_assert_no_error (error);
  /* the wrong number of weights, no source, a NaN weight */
  hbase_zcombine_options_set_weights (options, weights, 2);
  g_assert_null (hbase_zset_union (x, others, options, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_zset_union_store (z, sources, NULL, &card, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  {
    const gdouble nan_weights[] = { NAN, 1, 1 };

    hbase_zcombine_options_set_weights (options, nan_weights, 3);
    g_assert_null (hbase_zset_union (x, others, options, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
  }

  /* stores: the destination among the sources, then an empty result */
  g_ptr_array_add (sources, x);
  g_ptr_array_add (sources, y);
  g_ptr_array_add (sources, x);
  hbase_zcombine_options_set_weights (options, three, 3);
  g_assert_true (hbase_zset_union_store (x, sources, options, &card, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (card, ==, 4);
  ASSERT_TEXT (whole (x), "c=1 a=2 d=4 b=14");
  g_assert_true (hbase_zset_inter_store (z, sources, NULL, &card, NULL, &error));
  g_assert_cmpuint (card, ==, 3);
  ASSERT_TEXT (whole (z), "c=-3 d=12 b=38");
  g_assert_true (hbase_zset_diff_store (z, sources, &card, NULL, &error));
  g_assert_cmpuint (card, ==, 0);
  ASSERT_TEXT (whole (z), "");
  g_assert_true (hbase_zset_card (z, &card, NULL, &error));
  g_assert_cmpuint (card, ==, 0);
  g_ptr_array_set_size (sources, 0);
  g_ptr_array_add (sources, y);
  g_ptr_array_add (sources, x);
  g_assert_true (hbase_zset_diff_store (y, sources, &card, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (card, ==, 0);
  ASSERT_TEXT (whole (y), "");
}

typedef struct {
  GMainLoop *loop;
  GAsyncResult *result;
} Waiter;

static void
done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Waiter *waiter = user_data;

  (void) source;
  waiter->result = g_object_ref (result);
  g_main_loop_quit (waiter->loop);
}

static GAsyncResult *
wait_for (Waiter *waiter)
{
  g_main_loop_run (waiter->loop);
  return waiter->result;
}

static void
test_async (TestTableFixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GBytes) min = sts_bytes ("[b");
  g_autoptr(GBytes) max = sts_bytes ("+");
  g_autoptr(GBytes) unbracketed = sts_bytes ("x");
  g_autoptr(GPtrArray) asked = sts_members ("a", "zz", NULL);
  g_autoptr(GPtrArray) others = g_ptr_array_new ();
  g_autoptr(GArray) scores = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(GError) error = NULL;
  Waiter waiter = { loop, NULL };
  guint64 n = 0;

  (void) data;
  TEST_SKIP_IF_UNREACHABLE (fixture);
  zset = make_zset (fixture, "async", 0, "a=0 b=0 c=0 d=0");
  hbase_zset_range_by_lex_async (zset, min, max, TRUE, 1, -1, NULL, done, &waiter);
  ASSERT_TEXT (members_text (hbase_zset_range_by_lex_finish (zset, wait_for (&waiter), &error)), "c b");
  g_clear_object (&waiter.result);
  hbase_zset_lex_count_async (zset, min, max, NULL, done, &waiter);
  g_assert_true (hbase_zset_lex_count_finish (zset, wait_for (&waiter), &n, &error));
  g_assert_cmpuint (n, ==, 3);
  g_clear_object (&waiter.result);
  hbase_zset_mscore_async (zset, asked, NULL, done, &waiter);
  g_assert_true (hbase_zset_mscore_finish (zset, wait_for (&waiter), &scores, &found, &error));
  g_assert_cmpuint (scores->len, ==, 2);
  g_assert_true (g_array_index (found, gboolean, 0));
  g_assert_false (g_array_index (found, gboolean, 1));
  g_clear_object (&waiter.result);
  hbase_zset_union_async (zset, others, NULL, NULL, done, &waiter);
  ASSERT_TEXT (entries_text (hbase_zset_union_finish (zset, wait_for (&waiter), &error)),
               "a=0 b=0 c=0 d=0");
  g_clear_object (&waiter.result);
  hbase_zset_remove_range_by_lex_async (zset, min, max, NULL, done, &waiter);
  g_assert_true (hbase_zset_remove_range_by_lex_finish (zset, wait_for (&waiter), &n, &error));
  g_assert_cmpuint (n, ==, 3);
  g_clear_object (&waiter.result);
  /* errors come through the finish */
  hbase_zset_remove_range_by_lex_async (zset, max, unbracketed, NULL, done, &waiter);
  g_assert_false (hbase_zset_remove_range_by_lex_finish (zset, wait_for (&waiter), &n, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_object (&waiter.result);
  ASSERT_TEXT (whole (zset), "a=0");
}

const TestTableCase zset_command_cases[] = {
  { "lex", test_lex },
  { "remove-ranges", test_remove_ranges },
  { "mscore-random", test_mscore_random },
  { "combine", test_combine },
  { "async", test_async },
};
const guint zset_command_n_cases = G_N_ELEMENTS (zset_command_cases);
