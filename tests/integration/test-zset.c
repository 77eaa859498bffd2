/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of HBaseZSet against the real stack: ZADD with every
 * flag and its errors, INCR and ZINCRBY, extreme scores (±inf, -0.0,
 * denormals, DBL_MAX), ranges by score with every kind of bound, LIMIT
 * and reverse order, ranges by rank, ranks and counts on a set larger
 * than a page (server-side skips), pops, the layout on disk, the plain layout's
 * plain layout and its import, the checks made before sending, and
 * increments under concurrent writers; zset-commands-cases.c adds lex
 * ranges, range removals, ZMSCORE, ZRANDMEMBER and union/inter/diff.
 *
 * Runs on the binary/buffered and the compact/framed gateways, one table
 * each, created on first use and dropped at the end. */
#include "config.h"

#include <float.h>
#include <string.h>

#include "zset-commands-cases.h"
#include "../structures/structures-support.h"
#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

typedef TestTableFixture Fixture;

#define SKIP_IF_UNREACHABLE TEST_SKIP_IF_UNREACHABLE

static HBaseZSet *
new_zset (Fixture *fixture, const char *suffix, guint page_size)
{
  g_autoptr(GBytes) key = test_key (suffix);
  HBaseZSetOptions options = HBASE_ZSET_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  HBaseZSet *zset;

  options.page_size = page_size;
  zset = hbase_zset_new (fixture->table, key, &options, &error);
  g_assert_no_error (error);
  return zset;
}

/* "a=1 b=2.5 ..." */
static char *
entries_text (GPtrArray *entries)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < entries->len; i++)
    {
      HBaseZSetEntry *entry = g_ptr_array_index (entries, i);
      g_autofree char *member = sts_show (entry->member);

      g_string_append_printf (text, "%s%s=%.17g", i > 0 ? " " : "", member, entry->score);
    }
  return g_string_free (text, FALSE);
}

static char *
collect (HBaseZSetIter *iter)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = hbase_zset_iter_collect (iter, NULL, &error);

  g_assert_no_error (error);
  hbase_zset_iter_unref (iter);
  return entries_text (entries);
}

static char *
by_score (HBaseZSet *zset, gdouble min, gboolean min_ex, gdouble max, gboolean max_ex,
          gboolean reverse, gint64 offset, gint64 count)
{
  HBaseScoreRange range = { min, min_ex, max, max_ex };

  return collect (hbase_zset_range_by_score (zset, &range, reverse, offset, count));
}

static guint64
zadd (HBaseZSet *zset, HBaseZAddFlags flags, const char *spec)
{
  g_auto(GStrv) parts = g_strsplit (spec, " ", -1);
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr(GError) error = NULL;
  guint64 n = G_MAXUINT64;

  /* "member=score ..." */
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *eq = strrchr (parts[i], '=');
      gdouble score;

      g_assert_nonnull (eq);
      score = g_ascii_strtod (eq + 1, NULL);
      g_ptr_array_add (members, g_bytes_new (parts[i], (gsize) (eq - parts[i])));
      g_array_append_val (scores, score);
    }
  g_assert_true (hbase_zset_add (zset, flags, members, (gdouble *) scores->data, &n, NULL,
                                 &error));
  g_assert_no_error (error);
  return n;
}

static gdouble
score_of (HBaseZSet *zset, const char *member)
{
  g_autoptr(GBytes) bytes = sts_bytes (member);
  g_autoptr(GError) error = NULL;
  gboolean found = FALSE;
  gdouble score = 0;

  g_assert_true (hbase_zset_score (zset, bytes, &found, &score, NULL, &error));
  g_assert_no_error (error);
  return found ? score : NAN;
}

static guint64
card_of (HBaseZSet *zset)
{
  g_autoptr(GError) error = NULL;
  guint64 card = G_MAXUINT64;

  g_assert_true (hbase_zset_card (zset, &card, NULL, &error));
  g_assert_no_error (error);
  return card;
}

static gint64
rank_of (HBaseZSet *zset, GBytes *member, gboolean reverse)
{
  g_autoptr(GError) error = NULL;
  gboolean found = FALSE;
  guint64 rank = 0;

  g_assert_true (hbase_zset_rank (zset, member, reverse, &found, &rank, NULL, NULL, &error));
  g_assert_no_error (error);
  return found ? (gint64) rank : -1;
}

static guint64
count_of (HBaseZSet *zset, gdouble min, gboolean min_ex, gdouble max, gboolean max_ex)
{
  HBaseScoreRange range = { min, min_ex, max, max_ex };
  g_autoptr(GError) error = NULL;
  guint64 count = G_MAXUINT64;

  g_assert_true (hbase_zset_count (zset, &range, &count, NULL, &error));
  g_assert_no_error (error);
  return count;
}

/* --- basics ------------------------------------------------------------------------------- */

static void
test_basics (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) b = sts_bytes ("b");
  g_autofree char *text = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  zset = new_zset (fixture, "z", 0);
  g_assert_cmpuint (card_of (zset), ==, 0);
  g_assert_true (isnan (score_of (zset, "a")));
  g_assert_cmpint (rank_of (zset, b, FALSE), ==, -1);

  /* the last score of a member given twice wins; each counted once */
  g_assert_cmpuint (zadd (zset, HBASE_ZADD_NONE, "c=3 a=1 b=2 a=1.5"), ==, 3);
  g_assert_cmpuint (card_of (zset), ==, 3);
  g_assert_cmpfloat (score_of (zset, "a"), ==, 1.5);
  text = by_score (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE, FALSE, 0, -1);
  g_assert_cmpstr (text, ==, "a=1.5 b=2 c=3");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE, TRUE, 0, -1);
  g_assert_cmpstr (text, ==, "c=3 b=2 a=1.5");
  g_clear_pointer (&text, g_free);
  g_assert_cmpint (rank_of (zset, b, FALSE), ==, 1);
  g_assert_cmpint (rank_of (zset, b, TRUE), ==, 1);
  g_assert_cmpuint (count_of (zset, 1.5, TRUE, 3, FALSE), ==, 2);

  /* ZSCORE/ZMSCORE */
  {
    g_autoptr(GPtrArray) members = sts_members ("a", "nope", "c", NULL);
    gdouble scores[3];
    gboolean found[3];

    g_assert_true (hbase_zset_scores (zset, members, found, scores, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (found[0] && !found[1] && found[2]);
    g_assert_cmpfloat (scores[0], ==, 1.5);
    g_assert_true (isnan (scores[1]));
    g_assert_cmpfloat (scores[2], ==, 3);
  }

  /* ZREM */
  {
    g_autoptr(GPtrArray) members = sts_members ("a", "zz", "a", NULL);
    guint64 n = 0;

    g_assert_true (hbase_zset_remove (zset, members, &n, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (n, ==, 1);
    g_assert_cmpuint (card_of (zset), ==, 2);
  }
  /* ZPOPMIN / ZPOPMAX */
  {
    g_autoptr(GPtrArray) popped = NULL;

    zadd (zset, HBASE_ZADD_NONE, "d=4 e=5 f=-1");
    g_assert_true (hbase_zset_pop (zset, FALSE, 2, &popped, NULL, &error));
    g_assert_no_error (error);
    text = entries_text (popped);
    g_assert_cmpstr (text, ==, "f=-1 b=2");
    g_clear_pointer (&text, g_free);
    g_clear_pointer (&popped, g_ptr_array_unref);
    g_assert_true (hbase_zset_pop (zset, TRUE, 1, &popped, NULL, &error));
    text = entries_text (popped);
    g_assert_cmpstr (text, ==, "e=5");
    g_clear_pointer (&text, g_free);
    g_clear_pointer (&popped, g_ptr_array_unref);
    g_assert_true (hbase_zset_pop (zset, TRUE, 0, &popped, NULL, &error));
    g_assert_cmpuint (popped->len, ==, 0);
    g_clear_pointer (&popped, g_ptr_array_unref);
    g_assert_true (hbase_zset_pop (zset, TRUE, 100, &popped, NULL, &error));
    text = entries_text (popped);
    g_assert_cmpstr (text, ==, "d=4 c=3");
    g_clear_pointer (&text, g_free);
    g_clear_pointer (&popped, g_ptr_array_unref);
    g_assert_cmpuint (card_of (zset), ==, 0);
    g_assert_true (hbase_zset_pop (zset, FALSE, 1, &popped, NULL, &error));
    g_assert_cmpuint (popped->len, ==, 0);
  }
}

/* --- ZADD flags --------------------------------------------------------------------------- */

static void
test_flags (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  zset = new_zset (fixture, "z", 0);
  g_assert_cmpuint (zadd (zset, HBASE_ZADD_XX, "a=1"), ==, 0);   /* XX never adds */
  g_assert_cmpuint (card_of (zset), ==, 0);
  g_assert_cmpuint (zadd (zset, HBASE_ZADD_NONE, "a=1 b=2 c=3"), ==, 3);
  g_assert_cmpuint (zadd (zset, HBASE_ZADD_NX, "a=10 d=4"), ==, 1);  /* NX never updates */
  g_assert_cmpfloat (score_of (zset, "a"), ==, 1);
  g_assert_cmpuint (zadd (zset, HBASE_ZADD_XX | HBASE_ZADD_CH, "a=10 e=5"), ==, 1);
  g_assert_cmpfloat (score_of (zset, "a"), ==, 10);
  g_assert_true (isnan (score_of (zset, "e")));
  /* CH counts changed scores, not unchanged ones */
  g_assert_cmpuint (zadd (zset, HBASE_ZADD_CH, "a=10 b=20 f=6"), ==, 2);
  /* GT/LT limit updates, never adds */
  g_assert_cmpuint (zadd (zset, HBASE_ZADD_GT | HBASE_ZADD_CH, "a=5 b=30 g=7"), ==, 2);
  g_assert_cmpfloat (score_of (zset, "a"), ==, 10);
  g_assert_cmpfloat (score_of (zset, "b"), ==, 30);
  g_assert_cmpuint (zadd (zset, HBASE_ZADD_LT | HBASE_ZADD_CH, "a=5 b=40"), ==, 1);
  g_assert_cmpfloat (score_of (zset, "a"), ==, 5);
  g_assert_cmpuint (zadd (zset, HBASE_ZADD_XX | HBASE_ZADD_GT | HBASE_ZADD_CH, "c=1 c=9 h=1"), ==, 1);
  g_assert_cmpfloat (score_of (zset, "c"), ==, 9);
  text = by_score (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE, FALSE, 0, -1);
  g_assert_cmpstr (text, ==, "d=4 a=5 f=6 g=7 c=9 b=30");

  /* Redis's errors, nothing written */
  {
    static const HBaseZAddFlags bad[] = {
      HBASE_ZADD_NX | HBASE_ZADD_XX, HBASE_ZADD_GT | HBASE_ZADD_LT,
      HBASE_ZADD_NX | HBASE_ZADD_GT, HBASE_ZADD_NX | HBASE_ZADD_LT, 1 << 10,
    };
    g_autoptr(GPtrArray) members = sts_members ("new", NULL);
    gdouble score = 1;
    guint64 n = 7;

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_assert_false (hbase_zset_add (zset, bad[i], members, &score, &n, NULL, &error));
        g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
        g_clear_error (&error);
      }
    g_assert_cmpuint (n, ==, 0);
    score = NAN;
    g_assert_false (hbase_zset_add (zset, HBASE_ZADD_NONE, members, &score, &n, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
    g_assert_true (isnan (score_of (zset, "new")));
  }
}

static void
test_incr (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) a = sts_bytes ("a");
  g_autoptr(GBytes) x = sts_bytes ("x");
  gboolean applied = FALSE;
  gdouble score = 0;

  SKIP_IF_UNREACHABLE (fixture);
  zset = new_zset (fixture, "z", 0);
  /* a missing member counts as 0 */
  g_assert_true (hbase_zset_incr_by (zset, a, 2.5, &score, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (score, ==, 2.5);
  g_assert_true (hbase_zset_incr_by (zset, a, -0.5, &score, NULL, &error));
  g_assert_cmpfloat (score, ==, 2);
  /* INCR with flags: nil (not applied) when they stop it */
  g_assert_true (hbase_zset_add_incr (zset, HBASE_ZADD_NX, a, 1, &applied, &score, NULL, &error));
  g_assert_false (applied);
  g_assert_true (isnan (score));
  g_assert_true (hbase_zset_add_incr (zset, HBASE_ZADD_XX, x, 1, &applied, &score, NULL, &error));
  g_assert_false (applied);
  g_assert_true (hbase_zset_add_incr (zset, HBASE_ZADD_GT, a, -1, &applied, &score, NULL, &error));
  g_assert_false (applied);
  g_assert_true (hbase_zset_add_incr (zset, HBASE_ZADD_LT, a, -1, &applied, &score, NULL, &error));
  g_assert_true (applied);
  g_assert_cmpfloat (score, ==, 1);
  /* an increment of 0 is applied (the reply is the score) */
  g_assert_true (hbase_zset_add_incr (zset, HBASE_ZADD_XX, a, 0, &applied, &score, NULL, &error));
  g_assert_true (applied);
  g_assert_cmpfloat (score, ==, 1);
  g_assert_cmpuint (card_of (zset), ==, 1);

  /* inf - inf is not a number: refused, nothing changed */
  g_assert_true (hbase_zset_incr_by (zset, x, HUGE_VAL, &score, NULL, &error));
  g_assert_cmpfloat (score, ==, HUGE_VAL);
  g_assert_false (hbase_zset_incr_by (zset, x, -HUGE_VAL, &score, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "NaN"));
  g_clear_error (&error);
  g_assert_cmpfloat (score_of (zset, "x"), ==, HUGE_VAL);
  g_assert_false (hbase_zset_incr_by (zset, x, NAN, &score, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (hbase_zset_incr_by (zset, x, 1, &score, NULL, &error));
  g_assert_cmpfloat (score, ==, HUGE_VAL);
}

/* --- extreme scores and bounds ------------------------------------------------------------ */

static void
test_extremes (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GPtrArray) members = sts_members ("ninf", "nmax", "neg", "nden", "nzero", "zero",
                                              "den", "one", "max", "inf", "zero2", NULL);
  const gdouble scores[] = { -HUGE_VAL, -DBL_MAX, -1, -4.9406564584124654e-324, -0.0, 0.0,
                             4.9406564584124654e-324, 1, DBL_MAX, HUGE_VAL, 0.0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  zset = new_zset (fixture, "z", 2);
  g_assert_true (hbase_zset_add (zset, HBASE_ZADD_NONE, members, scores, NULL, NULL, &error));
  g_assert_no_error (error);
  text = by_score (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE, FALSE, 0, -1);
  /* -0.0 is 0: "nzero" sorts among the zeros by its bytes */
  g_assert_cmpstr (text, ==, "ninf=-inf nmax=-1.7976931348623157e+308 neg=-1 "
                   "nden=-4.9406564584124654e-324 nzero=0 zero=0 zero2=0 "
                   "den=4.9406564584124654e-324 one=1 max=1.7976931348623157e+308 inf=inf");
  g_clear_pointer (&text, g_free);
  /* exclusive bounds at zero, at the infinities, and at a denormal */
  text = by_score (zset, 0, TRUE, 1, TRUE, FALSE, 0, -1);
  g_assert_cmpstr (text, ==, "den=4.9406564584124654e-324");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -0.0, FALSE, -0.0, FALSE, TRUE, 0, -1);
  g_assert_cmpstr (text, ==, "zero2=0 zero=0 nzero=0");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -HUGE_VAL, TRUE, -1, FALSE, FALSE, 0, -1);
  g_assert_cmpstr (text, ==, "nmax=-1.7976931348623157e+308 neg=-1");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, DBL_MAX, FALSE, HUGE_VAL, TRUE, TRUE, 0, -1);
  g_assert_cmpstr (text, ==, "max=1.7976931348623157e+308");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, HUGE_VAL, FALSE, HUGE_VAL, FALSE, TRUE, 0, -1);
  g_assert_cmpstr (text, ==, "inf=inf");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, HUGE_VAL, TRUE, HUGE_VAL, FALSE, FALSE, 0, -1);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -4.9406564584124654e-324, TRUE, 0, TRUE, FALSE, 0, -1);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -4.9406564584124654e-324, FALSE, -4.9406564584124654e-324, FALSE,
                   TRUE, 0, -1);
  g_assert_cmpstr (text, ==, "nden=-4.9406564584124654e-324");
  g_clear_pointer (&text, g_free);
  /* min > max, and min == max with an exclusive end: empty */
  text = by_score (zset, 2, FALSE, 1, FALSE, FALSE, 0, -1);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, 1, TRUE, 1, FALSE, TRUE, 0, -1);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  g_assert_cmpuint (count_of (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE), ==, 11);
  g_assert_cmpuint (count_of (zset, -HUGE_VAL, TRUE, HUGE_VAL, TRUE), ==, 9);
  g_assert_cmpuint (count_of (zset, 0, FALSE, 0, FALSE), ==, 3);

  /* NaN bounds are refused */
  {
    HBaseScoreRange range = HBASE_SCORE_RANGE_INIT;
    g_autoptr(HBaseZSetIter) iter = NULL;
    GBytes *member = NULL;
    guint64 count;

    range.max = NAN;
    iter = hbase_zset_range_by_score (zset, &range, FALSE, 0, -1);
    g_assert_false (hbase_zset_iter_next (iter, &member, NULL, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (hbase_zset_count (zset, &range, &count, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  }
}

static void
test_limit_and_ties (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) error = NULL;
  gdouble scores[6] = { 1, 1, 1, 1, 1, 2 };
  g_autofree char *text = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  zset = new_zset (fixture, "z", 2);
  /* equal scores order by the member's bytes, binary ones included */
  g_ptr_array_add (members, g_bytes_new ("b", 1));
  g_ptr_array_add (members, g_bytes_new ("a\0", 2));
  g_ptr_array_add (members, g_bytes_new ("a", 1));
  g_ptr_array_add (members, g_bytes_new ("", 0));
  g_ptr_array_add (members, g_bytes_new ("\xff", 1));
  g_ptr_array_add (members, g_bytes_new ("0", 1));
  g_assert_true (hbase_zset_add (zset, HBASE_ZADD_NONE, members, scores, NULL, NULL, &error));
  g_assert_no_error (error);
  text = by_score (zset, 1, FALSE, 2, FALSE, FALSE, 0, -1);
  g_assert_cmpstr (text, ==, "=1 a=1 a\\x00=1 b=1 \\xff=1 0=2");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, 1, FALSE, 2, FALSE, TRUE, 0, -1);
  g_assert_cmpstr (text, ==, "0=2 \\xff=1 b=1 a\\x00=1 a=1 =1");
  g_clear_pointer (&text, g_free);
  /* LIMIT offset count, forward and reverse, past the end, negative */
  text = by_score (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE, FALSE, 1, 3);
  g_assert_cmpstr (text, ==, "a=1 a\\x00=1 b=1");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE, TRUE, 2, 2);
  g_assert_cmpstr (text, ==, "b=1 a\\x00=1");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -HUGE_VAL, FALSE, 1, FALSE, FALSE, 4, -1);
  g_assert_cmpstr (text, ==, "\\xff=1");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE, FALSE, 6, 5);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE, FALSE, -1, 5);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  text = by_score (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE, FALSE, 0, 0);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);

  /* ZRANGE by rank, with Redis's index rules */
  text = collect (hbase_zset_range_by_rank (zset, 0, -1, FALSE));
  g_assert_cmpstr (text, ==, "=1 a=1 a\\x00=1 b=1 \\xff=1 0=2");
  g_clear_pointer (&text, g_free);
  text = collect (hbase_zset_range_by_rank (zset, -2, -1, FALSE));
  g_assert_cmpstr (text, ==, "\\xff=1 0=2");
  g_clear_pointer (&text, g_free);
  text = collect (hbase_zset_range_by_rank (zset, 1, 2, TRUE));
  g_assert_cmpstr (text, ==, "\\xff=1 b=1");
  g_clear_pointer (&text, g_free);
  text = collect (hbase_zset_range_by_rank (zset, -100, 1, FALSE));
  g_assert_cmpstr (text, ==, "=1 a=1");
  g_clear_pointer (&text, g_free);
  text = collect (hbase_zset_range_by_rank (zset, 4, 100, TRUE));
  g_assert_cmpstr (text, ==, "a=1 =1");
  g_clear_pointer (&text, g_free);
  text = collect (hbase_zset_range_by_rank (zset, 3, 2, FALSE));
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  text = collect (hbase_zset_range_by_rank (zset, 6, 10, FALSE));
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);

  /* ranks follow the same order */
  for (guint i = 0; i < members->len; i++)
    {
      static const gint64 expected[] = { 3, 2, 1, 0, 4, 5 };

      g_assert_cmpint (rank_of (zset, g_ptr_array_index (members, i), FALSE), ==, expected[i]);
      g_assert_cmpint (rank_of (zset, g_ptr_array_index (members, i), TRUE), ==, 5 - expected[i]);
    }
}

/* A set larger than a page and than the first count page: the skips. */
static void
test_large (Fixture *fixture, gconstpointer data)
{
  guint n = test_quick () ? 2600 : 6000;
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr(GError) error = NULL;
  guint64 added = 0;

  SKIP_IF_UNREACHABLE (fixture);
  zset = new_zset (fixture, "z", 97);
  /* member i has score i / 2 (two members per score) */
  for (guint i = 0; i < n; i++)
    {
      gdouble score = (gdouble) (i / 2);
      char *text = g_strdup_printf ("k%05u", i);

      g_ptr_array_add (members, g_bytes_new_take (text, strlen (text)));
      g_array_append_val (scores, score);
    }
  g_assert_true (hbase_zset_add (zset, HBASE_ZADD_NONE, members, (gdouble *) scores->data, &added,
                                 NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (added, ==, n);
  g_assert_cmpuint (card_of (zset), ==, n);

  g_assert_cmpuint (count_of (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE), ==, n);
  g_assert_cmpuint (count_of (zset, 10, FALSE, 1200, TRUE), ==, 2380);
  g_assert_cmpuint (count_of (zset, 10, TRUE, 1200, FALSE), ==, 2380);
  g_assert_cmpuint (count_of (zset, 0, FALSE, 511, FALSE), ==, 1024);
  g_assert_cmpuint (count_of (zset, 0, FALSE, 511.5, FALSE), ==, 1024);
  g_assert_cmpuint (count_of (zset, 0, FALSE, 512, FALSE), ==, 1026);
  for (guint i = 0; i < n; i += n / 7)
    {
      g_assert_cmpint (rank_of (zset, g_ptr_array_index (members, i), FALSE), ==, i);
      g_assert_cmpint (rank_of (zset, g_ptr_array_index (members, i), TRUE), ==, n - 1 - i);
    }
  /* a page of 100 from the middle, forward and back */
  {
    g_autoptr(HBaseZSetIter) iter = NULL;
    g_autoptr(GPtrArray) got = NULL;
    HBaseScoreRange range = { 1000, TRUE, HUGE_VAL, FALSE };

    iter = hbase_zset_range_by_score (zset, &range, FALSE, 50, 100);
    got = hbase_zset_iter_collect (iter, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (got->len, ==, 100);
    for (guint i = 0; i < 100; i++)
      {
        HBaseZSetEntry *entry = g_ptr_array_index (got, i);

        g_assert_true (g_bytes_equal (entry->member, g_ptr_array_index (members, 2052 + i)));
        g_assert_cmpfloat (entry->score, ==, (gdouble) ((2052 + i) / 2));
      }
  }
  {
    g_autoptr(HBaseZSetIter) iter = NULL;
    g_autoptr(GPtrArray) got = NULL;

    iter = hbase_zset_range_by_rank (zset, -250, -1, TRUE);
    got = hbase_zset_iter_collect (iter, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (got->len, ==, 250);
    for (guint i = 0; i < 250; i++)
      g_assert_true (g_bytes_equal (((HBaseZSetEntry *) g_ptr_array_index (got, i))->member,
                                    g_ptr_array_index (members, 249 - i)));
    g_clear_pointer (&got, g_ptr_array_unref);
    g_clear_pointer (&iter, hbase_zset_iter_unref);
    iter = hbase_zset_range_by_rank (zset, 2000, 2499, FALSE);
    got = hbase_zset_iter_collect (iter, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (got->len, ==, 500);
    g_assert_true (g_bytes_equal (((HBaseZSetEntry *) g_ptr_array_index (got, 0))->member,
                                  g_ptr_array_index (members, 2000)));
  }
  g_assert_true (hbase_zset_clear (zset, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (card_of (zset), ==, 0);
  g_assert_cmpuint (count_of (zset, -HUGE_VAL, FALSE, HUGE_VAL, FALSE), ==, 0);
}

/* the cells as documented in docs/structures-layout.md */
static void
test_layout (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GBytes) key = test_key ("z");
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  zset = new_zset (fixture, "z", 0);
  g_assert_true (g_bytes_equal (hbase_zset_get_key (zset), key));
  zadd (zset, HBASE_ZADD_NONE, "a=1 b=-2.5");
  zadd (zset, HBASE_ZADD_NONE, "a=3");   /* moves a's index cells */
  row = hbase_table_get (fixture->table, key, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_row_get_n_cells (row), ==, 7);
  summary = test_row_summary (row, FALSE);
  /* '#' meta; 'm' member -> enc(score); 'r' ~enc ~esc(member); 's' enc member */
  g_assert_nonnull (strstr (summary, "z:ma=\\xc0\\x08\\x00\\x00\\x00\\x00\\x00\\x00"));
  g_assert_nonnull (strstr (summary, "z:mb=?\\xfb\\xff\\xff\\xff\\xff\\xff\\xff"));
  g_assert_nonnull (strstr (summary, "z:r?\\xf7\\xff\\xff\\xff\\xff\\xff\\xff\\x9e\\xff\\xff= "));
  g_assert_nonnull (strstr (summary, "z:s\\xc0\\x08\\x00\\x00\\x00\\x00\\x00\\x00a="));
  g_assert_nonnull (strstr (summary, "z:s?\\xfb\\xff\\xff\\xff\\xff\\xff\\xffb="));
  {
    const HBaseCell *meta = hbase_row_lookup_cell (row, "z", "#");
    const guint8 *value = g_bytes_get_data (hbase_cell_get_value (meta), NULL);

    g_assert_cmpmem (value, 8, "\0\0\0\0\0\0\0\2", 8);
    g_assert_cmpmem (value + 16, 4, "Z\1\0\1", 4);
  }
}

/* --- the plain layout's plain layout --------------------------------------------------------------- */

static void
test_plain (Fixture *fixture, gconstpointer data)
{
  static const char *const cells[][2] = {
    { "Alice", "95.5" }, { "Bob", "87.0" }, { "Carol", "92.3" }, { "Dave", "1.0E10" },
    { "Eve", "-Infinity" }, { "\xe7\x8e\x8b\xe4\xba\x94", " 60 " },
  };
  g_autoptr(GBytes) row = test_key ("rank");
  g_autoptr(GBytes) bad_row = test_key ("bad");
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) bad = hbase_mutation_new_put (bad_row);
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint64 n = 0;

  SKIP_IF_UNREACHABLE (fixture);
  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      g_autoptr(GBytes) value = sts_bytes (cells[i][1]);

      hbase_mutation_put (put, "p", cells[i][0], value);
    }
  g_assert_true (hbase_table_apply (fixture->table, put, NULL, &error));
  g_assert_no_error (error);
  text = collect (hbase_zset_read_plain (fixture->table, row, "p", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "Alice=95.5 Bob=87 Carol=92.299999999999997 Dave=10000000000 "
                   "Eve=-inf \\xe7\\x8e\\x8b\\xe4\\xba\\x94=60");
  g_clear_pointer (&text, g_free);

  zset = new_zset (fixture, "converted", 0);
  g_assert_true (hbase_zset_import_plain (zset, fixture->table, row, "p", &n, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 6);
  /* now in score order, on the server */
  text = by_score (zset, 80, FALSE, HUGE_VAL, FALSE, TRUE, 0, 3);
  g_assert_cmpstr (text, ==, "Dave=10000000000 Alice=95.5 Carol=92.299999999999997");
  g_clear_pointer (&text, g_free);

  /* a value that is no number names its member */
  {
    g_autoptr(GBytes) value = sts_bytes ("high");
    g_autoptr(HBaseZSet) other = new_zset (fixture, "other", 0);

    hbase_mutation_put (bad, "p", "Zed", value);
    g_assert_true (hbase_table_apply (fixture->table, bad, NULL, &error));
    g_assert_false (hbase_zset_import_plain (other, fixture->table, bad_row, "p", &n, NULL,
                                             &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
    g_assert_nonnull (strstr (error->message, "Zed"));
    g_assert_cmpuint (card_of (other), ==, 0);
  }
}

/* --- bad input ----------------------------------------------------------------------------- */

static void
test_bad_input (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GPtrArray) long_member = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) error = NULL;
  gdouble score = 1;
  guint64 n = 5;

  SKIP_IF_UNREACHABLE (fixture);
  zset = new_zset (fixture, "z", 0);
  g_ptr_array_add (long_member, g_bytes_new_take (g_malloc0 (HBASE_ZSET_MAX_MEMBER_SIZE + 1),
                                                  HBASE_ZSET_MAX_MEMBER_SIZE + 1));
  g_assert_false (hbase_zset_add (zset, HBASE_ZADD_NONE, long_member, &score, &n, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_zset_add (zset, HBASE_ZADD_NONE, long_member, NULL, &n, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_zset_add (NULL, HBASE_ZADD_NONE, long_member, &score, &n, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_zset_pop (zset, FALSE, 1, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_cmpuint (card_of (zset), ==, 0);

  /* the longest member: all NULs, the worst case of the descending cell */
  g_ptr_array_set_size (long_member, 0);
  g_ptr_array_add (long_member, g_bytes_new_take (g_malloc0 (HBASE_ZSET_MAX_MEMBER_SIZE),
                                                  HBASE_ZSET_MAX_MEMBER_SIZE));
  g_assert_true (hbase_zset_add (zset, HBASE_ZADD_NONE, long_member, &score, &n, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 1);
  {
    g_autofree char *text = NULL;
    g_autoptr(GPtrArray) popped = NULL;

    g_assert_true (hbase_zset_pop (zset, TRUE, 1, &popped, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (popped->len, ==, 1);
    g_assert_true (g_bytes_equal (((HBaseZSetEntry *) g_ptr_array_index (popped, 0))->member,
                                  g_ptr_array_index (long_member, 0)));
  }

  /* a set's row read as a sorted set */
  {
    g_autoptr(GBytes) key = test_key ("set");
    HBaseSetOptions options = HBASE_SET_OPTIONS_INIT;
    HBaseZSetOptions zoptions = HBASE_ZSET_OPTIONS_INIT;
    g_autoptr(HBaseSet) set = NULL;
    g_autoptr(HBaseZSet) as_zset = NULL;
    g_autoptr(GPtrArray) members = sts_members ("a", NULL);
    guint64 card;

    options.family = "z";
    set = hbase_set_new (fixture->table, key, &options, &error);
    g_assert_true (hbase_set_add (set, members, NULL, NULL, &error));
    g_assert_no_error (error);
    zoptions.family = "z";
    as_zset = hbase_zset_new (fixture->table, key, &zoptions, &error);
    g_assert_false (hbase_zset_card (as_zset, &card, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
    g_clear_error (&error);
    g_assert_false (hbase_zset_add (as_zset, HBASE_ZADD_NONE, members, &score, &n, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  }
}

/* --- concurrency ---------------------------------------------------------------------------- */

#define WORKERS 4
#define SHARED 5

typedef struct {
  HBaseZSet *zset;
  guint index;
  guint steps;
  gint64 net;         /* members added - removed by this worker, as replied */
} ZWorker;

static gpointer
zset_worker (gpointer data)
{
  ZWorker *worker = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (worker->index + 77);

  for (guint i = 0; i < worker->steps; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("shared%u", i % SHARED);
      g_autoptr(GBytes) shared = sts_bytes (name);
      g_autoptr(GPtrArray) others = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      gdouble score = 0;
      guint64 n = 0;

      /* every worker increments every shared member by 1 per round */
      g_assert_true (hbase_zset_incr_by (worker->zset, shared, 1, &score, NULL, &error));
      g_assert_no_error (error);
      /* and adds or removes members all workers fight over */
      g_ptr_array_add (others, sts_random_member (rand, 30));
      if (g_rand_boolean (rand))
        {
          gdouble s = g_rand_double_range (rand, -5, 5);

          g_assert_true (hbase_zset_add (worker->zset, HBASE_ZADD_NONE, others, &s, &n, NULL,
                                         &error));
          worker->net += (gint64) n;
        }
      else
        {
          g_assert_true (hbase_zset_remove (worker->zset, others, &n, NULL, &error));
          worker->net -= (gint64) n;
        }
      g_assert_no_error (error);
    }
  return NULL;
}

static void
test_concurrent (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseZSet) zset = NULL;
  ZWorker workers[WORKERS];
  GThread *threads[WORKERS];
  guint steps = test_quick () ? 15 : 100;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) forward = NULL;
  g_autoptr(GPtrArray) backward = NULL;
  gint64 net = 0;

  SKIP_IF_UNREACHABLE (fixture);
  zset = new_zset (fixture, "z", 0);
  for (guint i = 0; i < WORKERS; i++)
    {
      workers[i] = (ZWorker) { zset, i, steps, 0 };
      threads[i] = g_thread_new ("zset-worker", zset_worker, &workers[i]);
    }
  for (guint i = 0; i < WORKERS; i++)
    {
      g_thread_join (threads[i]);
      net += workers[i].net;
    }
  /* no increment lost */
  for (guint i = 0; i < SHARED; i++)
    {
      g_autofree char *name = g_strdup_printf ("shared%u", i);
      guint rounds = steps / SHARED + (i < steps % SHARED ? 1 : 0);

      g_assert_cmpfloat (score_of (zset, name), ==, (gdouble) (WORKERS * rounds));
    }
  /* the card, both indexes and the member cells agree */
  {
    g_autoptr(HBaseZSetIter) iter = hbase_zset_range_by_rank (zset, 0, -1, FALSE);

    forward = hbase_zset_iter_collect (iter, NULL, &error);
    g_assert_no_error (error);
  }
  {
    g_autoptr(HBaseZSetIter) iter = hbase_zset_range_by_rank (zset, 0, -1, TRUE);

    backward = hbase_zset_iter_collect (iter, NULL, &error);
    g_assert_no_error (error);
  }
  g_assert_cmpuint (card_of (zset), ==, forward->len);
  g_assert_cmpint ((gint64) forward->len, ==, net + SHARED);
  g_assert_cmpuint (backward->len, ==, forward->len);
  for (guint i = 0; i < forward->len; i++)
    {
      HBaseZSetEntry *a = g_ptr_array_index (forward, i);
      HBaseZSetEntry *b = g_ptr_array_index (backward, forward->len - 1 - i);
      g_autoptr(GPtrArray) one = g_ptr_array_new ();
      gdouble score;

      g_assert_true (g_bytes_equal (a->member, b->member));
      g_assert_cmpfloat (a->score, ==, b->score);
      g_ptr_array_add (one, a->member);
      g_assert_true (hbase_zset_scores (zset, one, NULL, &score, NULL, &error));
      g_assert_cmpfloat (score, ==, a->score);
    }
}

/* every case on the native backend too: a sorted set is qualifiers of one
 * row, written with mutate_row and check-and-mutate and read with gets
 * and scans */
static const TestTableSuiteOptions native_all = { .native_all = TRUE };

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "basics", test_basics },
    { "flags", test_flags },
    { "incr", test_incr },
    { "extremes", test_extremes },
    { "limit-and-ties", test_limit_and_ties },
    { "large", test_large },
    { "layout", test_layout },
    { "plain", test_plain },
    { "bad-input", test_bad_input },
    { "concurrent", test_concurrent },
  };
  static TestTableSuite suite = {
    "/integration/zset", "hbase_glib_zset", NULL, 0, TEST_GATEWAYS_ENDS
  };
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (TestTableCase));

  g_test_init (&argc, &argv, NULL);
  suite.families = sts_families (&suite.n_families);
  g_array_append_vals (all, cases, G_N_ELEMENTS (cases));
  g_array_append_vals (all, zset_command_cases, zset_command_n_cases);
  test_table_suite_add_full (&suite, &native_all, (const TestTableCase *) (gconstpointer) all->data, all->len);
  return test_table_suite_run ();
}
