/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the _async/_finish pairs of sets and sorted sets,
 * on a GMainLoop against the real stack: each pair gives what its
 * synchronous call gives, the loop keeps running while they wait, and
 * failures arrive through _finish.
 *
 * Runs on the binary/buffered and the compact/framed gateways. */
#include "config.h"

#include <string.h>

#include "../structures/structures-support.h"
#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"
#include "../support/test-waiter.h"

typedef TestTableFixture Fixture;

#define SKIP_IF_UNREACHABLE TEST_SKIP_IF_UNREACHABLE

/* Drops the last result and makes the waiter ready for the next call. */
static void
next_call (TestWaiter *waiter)
{
  test_waiter_clear (waiter);
  test_waiter_init (waiter);
}

static void
test_set (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) key = test_key ("async-set");
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GPtrArray) members = sts_members ("a", "b", "c", NULL);
  g_autoptr(GPtrArray) asked = sts_members ("b", "x", "c", NULL);
  g_autoptr(GPtrArray) page = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) random = NULL;
  g_autoptr(GArray) are_members = NULL;
  g_autoptr(GBytes) cursor = NULL;
  g_autoptr(GBytes) member = NULL;
  g_autoptr(GBytes) x = sts_bytes ("x");
  g_autoptr(HBaseSetIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *joined = NULL;
  TestWaiter waiter;
  guint64 n = 0;
  gboolean flag = FALSE;

  SKIP_IF_UNREACHABLE (fixture);
  test_waiter_init (&waiter);
  set = hbase_set_new (fixture->table, key, NULL, &error);
  g_assert_no_error (error);

  hbase_set_add_async (set, members, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_add_finish (set, test_waiter_run (&waiter), &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 3);
  next_call (&waiter);

  hbase_set_add_one_async (set, x, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_add_one_finish (set, test_waiter_run (&waiter), &flag, &error));
  g_assert_true (flag);
  next_call (&waiter);

  hbase_set_card_async (set, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_card_finish (set, test_waiter_run (&waiter), &n, &error));
  g_assert_cmpuint (n, ==, 4);
  next_call (&waiter);

  hbase_set_remove_one_async (set, x, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_remove_one_finish (set, test_waiter_run (&waiter), &flag, &error));
  g_assert_true (flag);
  next_call (&waiter);

  hbase_set_contains_async (set, x, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_contains_finish (set, test_waiter_run (&waiter), &flag, &error));
  g_assert_false (flag);
  next_call (&waiter);

  hbase_set_contains_many_async (set, asked, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_contains_many_finish (set, test_waiter_run (&waiter), &are_members, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (are_members->len, ==, 3);
  g_assert_true (g_array_index (are_members, gboolean, 0));
  g_assert_false (g_array_index (are_members, gboolean, 1));
  g_assert_true (g_array_index (are_members, gboolean, 2));
  next_call (&waiter);

  hbase_set_scan_async (set, NULL, 2, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_scan_finish (set, test_waiter_run (&waiter), &cursor, &page, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (page->len, ==, 2);
  g_assert_nonnull (cursor);
  next_call (&waiter);

  hbase_set_random_members_async (set, -5, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_random_members_finish (set, test_waiter_run (&waiter), &random, &error));
  g_assert_cmpuint (random->len, ==, 5);
  next_call (&waiter);

  iter = hbase_set_members (set);
  hbase_set_iter_next_async (iter, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_iter_next_finish (iter, test_waiter_run (&waiter), &member, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (member, NULL), g_bytes_get_size (member), "a", 1);
  next_call (&waiter);
  hbase_set_iter_collect_async (iter, NULL, test_waiter_done, &waiter);
  all = hbase_set_iter_collect_finish (iter, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  joined = sts_join (all);
  g_assert_cmpstr (joined, ==, "b,c");
  next_call (&waiter);

  hbase_set_remove_async (set, asked, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_remove_finish (set, test_waiter_run (&waiter), &n, &error));
  g_assert_cmpuint (n, ==, 2);
  next_call (&waiter);

  hbase_set_clear_async (set, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_set_clear_finish (set, test_waiter_run (&waiter), &error));
  g_assert_no_error (error);
  next_call (&waiter);
  g_assert_true (hbase_set_card (set, &n, NULL, &error));
  g_assert_cmpuint (n, ==, 0);
  test_waiter_clear (&waiter);
}

static void
test_zset (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) key = test_key ("async-zset");
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GPtrArray) members = sts_members ("a", "b", "c", NULL);
  g_autoptr(GPtrArray) asked = sts_members ("c", "nope", NULL);
  g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr(GArray) found = NULL;
  g_autoptr(GArray) found_scores = NULL;
  g_autoptr(GPtrArray) popped = NULL;
  g_autoptr(GPtrArray) rest = NULL;
  g_autoptr(GBytes) b = sts_bytes ("b");
  g_autoptr(GBytes) member = NULL;
  g_autoptr(HBaseZSetIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  const HBaseScoreRange range = { 1.5, FALSE, 10.0, FALSE };
  const gdouble values[] = { 1.0, 2.0, 3.0 };
  TestWaiter waiter;
  guint64 n = 0, rank = 0;
  gdouble score = 0;
  gboolean flag = FALSE;

  SKIP_IF_UNREACHABLE (fixture);
  test_waiter_init (&waiter);
  zset = hbase_zset_new (fixture->table, key, NULL, &error);
  g_assert_no_error (error);
  g_array_append_vals (scores, values, 3);

  hbase_zset_add_async (zset, 0, members, scores, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_add_finish (zset, test_waiter_run (&waiter), &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 3);
  next_call (&waiter);

  /* members and scores of different lengths: an error, nothing written */
  g_array_set_size (scores, 2);
  hbase_zset_add_async (zset, 0, members, scores, NULL, test_waiter_done, &waiter);
  g_assert_false (hbase_zset_add_finish (zset, test_waiter_run (&waiter), &n, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  next_call (&waiter);

  hbase_zset_incr_by_async (zset, b, 10.0, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_incr_by_finish (zset, test_waiter_run (&waiter), &score, &error));
  g_assert_cmpfloat (score, ==, 12.0);
  next_call (&waiter);

  hbase_zset_add_incr_async (zset, 0, b, -1.0, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_add_incr_finish (zset, test_waiter_run (&waiter), &flag, &score, &error));
  g_assert_true (flag);
  g_assert_cmpfloat (score, ==, 11.0);
  next_call (&waiter);

  hbase_zset_score_async (zset, b, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_score_finish (zset, test_waiter_run (&waiter), &flag, &score, &error));
  g_assert_true (flag);
  g_assert_cmpfloat (score, ==, 11.0);
  next_call (&waiter);

  hbase_zset_scores_async (zset, asked, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_scores_finish (zset, test_waiter_run (&waiter), &found, &found_scores, &error));
  g_assert_cmpuint (found->len, ==, 2);
  g_assert_true (g_array_index (found, gboolean, 0));
  g_assert_false (g_array_index (found, gboolean, 1));
  g_assert_cmpfloat (g_array_index (found_scores, gdouble, 0), ==, 3.0);
  next_call (&waiter);

  hbase_zset_card_async (zset, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_card_finish (zset, test_waiter_run (&waiter), &n, &error));
  g_assert_cmpuint (n, ==, 3);
  next_call (&waiter);

  hbase_zset_count_async (zset, &range, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_count_finish (zset, test_waiter_run (&waiter), &n, &error));
  g_assert_cmpuint (n, ==, 1);   /* c (3); b is 11 */
  next_call (&waiter);

  hbase_zset_rank_async (zset, b, TRUE, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_rank_finish (zset, test_waiter_run (&waiter), &flag, &rank, &score, &error));
  g_assert_true (flag);
  g_assert_cmpuint (rank, ==, 0);
  next_call (&waiter);

  iter = hbase_zset_range_by_rank (zset, 0, -1, FALSE);
  hbase_zset_iter_next_async (iter, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_iter_next_finish (iter, test_waiter_run (&waiter), &member, &score, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (member, NULL), g_bytes_get_size (member), "a", 1);
  g_assert_cmpfloat (score, ==, 1.0);
  next_call (&waiter);
  hbase_zset_iter_collect_async (iter, NULL, test_waiter_done, &waiter);
  rest = hbase_zset_iter_collect_finish (iter, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rest->len, ==, 2);
  next_call (&waiter);

  hbase_zset_pop_async (zset, TRUE, 1, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_pop_finish (zset, test_waiter_run (&waiter), &popped, &error));
  g_assert_cmpuint (popped->len, ==, 1);
  g_assert_cmpfloat (((HBaseZSetEntry *) g_ptr_array_index (popped, 0))->score, ==, 11.0);
  next_call (&waiter);

  hbase_zset_remove_async (zset, asked, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_remove_finish (zset, test_waiter_run (&waiter), &n, &error));
  g_assert_cmpuint (n, ==, 1);
  next_call (&waiter);

  hbase_zset_clear_async (zset, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_clear_finish (zset, test_waiter_run (&waiter), &error));
  g_assert_no_error (error);
  next_call (&waiter);
  g_assert_true (hbase_zset_card (zset, &n, NULL, &error));
  g_assert_cmpuint (n, ==, 0);
  test_waiter_clear (&waiter);
}

/* The members of @entries (HBaseZSetEntry), "a b c". */
static char *
entry_members (GPtrArray *entries)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < entries->len; i++)
    {
      HBaseZSetEntry *entry = entries->pdata[i];

      g_string_append_printf (out, "%s%.*s", i > 0 ? " " : "",
                              (int) g_bytes_get_size (entry->member),
                              (const char *) g_bytes_get_data (entry->member, NULL));
    }
  return g_string_free (out, FALSE);
}

/* The string forms, the range removals, the random members and the
 * combinations, each as a pair on the loop, checked against the set's
 * contents. */
static void
test_zset_commands (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) key = test_key ("async-zset-commands");
  g_autoptr(GBytes) other_key = test_key ("async-zset-commands-other");
  g_autoptr(GBytes) store_key = test_key ("async-zset-commands-store");
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(HBaseZSet) other = NULL;
  g_autoptr(HBaseZSet) store = NULL;
  g_autoptr(GPtrArray) members = sts_members ("a", "b", "c", "d", "e", NULL);
  g_autoptr(GPtrArray) other_members = sts_members ("b", "c", "x", NULL);
  g_autoptr(GPtrArray) others = g_ptr_array_new ();
  g_autoptr(GPtrArray) both = g_ptr_array_new ();
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(HBaseZSetIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  const HBaseScoreRange low = { 0.0, TRUE, 1.5, FALSE };
  const gdouble values[] = { 1.0, 2.0, 3.0, 4.0, 5.0 }, other_values[] = { 20.0, 30.0, 9.0 };
  g_autofree char *text = NULL;
  TestWaiter waiter;
  guint64 n = 0;
  gdouble score = 0;
  gboolean flag = FALSE;

  SKIP_IF_UNREACHABLE (fixture);
  test_waiter_init (&waiter);
  zset = hbase_zset_new (fixture->table, key, NULL, &error);
  g_assert_no_error (error);
  other = hbase_zset_new (fixture->table, other_key, NULL, &error);
  g_assert_no_error (error);
  store = hbase_zset_new (fixture->table, store_key, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (hbase_zset_add (zset, 0, members, values, &n, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hbase_zset_add (other, 0, other_members, other_values, &n, NULL, &error));
  g_assert_no_error (error);
  g_ptr_array_add (others, other);
  g_ptr_array_add (both, zset);
  g_ptr_array_add (both, other);

  /* string forms */
  hbase_zset_add_string_async (zset, "f", 6.0, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_add_string_finish (zset, test_waiter_run (&waiter), &flag, &error));
  g_assert_no_error (error);
  g_assert_true (flag);
  next_call (&waiter);
  hbase_zset_score_string_async (zset, "f", NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_score_string_finish (zset, test_waiter_run (&waiter), &flag, &score,
                                                 &error));
  g_assert_true (flag);
  g_assert_cmpfloat (score, ==, 6.0);
  next_call (&waiter);
  hbase_zset_remove_string_async (zset, "f", NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_remove_string_finish (zset, test_waiter_run (&waiter), &flag, &error));
  g_assert_true (flag);
  next_call (&waiter);
  hbase_zset_remove_string_async (zset, "f", NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_remove_string_finish (zset, test_waiter_run (&waiter), &flag, &error));
  g_assert_false (flag);   /* gone already */
  next_call (&waiter);

  /* combinations: zset {a1 b2 c3 d4 e5}, other {b20 c30 x9} */
  hbase_zset_inter_async (zset, others, NULL, NULL, test_waiter_done, &waiter);
  entries = hbase_zset_inter_finish (zset, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  text = entry_members (entries);
  g_assert_cmpstr (text, ==, "b c");
  g_assert_cmpfloat (((HBaseZSetEntry *) entries->pdata[0])->score, ==, 22.0);   /* summed */
  g_clear_pointer (&entries, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);
  next_call (&waiter);
  hbase_zset_diff_async (zset, others, NULL, test_waiter_done, &waiter);
  entries = hbase_zset_diff_finish (zset, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  text = entry_members (entries);
  g_assert_cmpstr (text, ==, "a d e");
  g_clear_pointer (&entries, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);
  next_call (&waiter);
  hbase_zset_union_store_async (store, both, NULL, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_union_store_finish (store, test_waiter_run (&waiter), &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 6);
  next_call (&waiter);
  hbase_zset_inter_store_async (store, both, NULL, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_inter_store_finish (store, test_waiter_run (&waiter), &n, &error));
  g_assert_cmpuint (n, ==, 2);
  next_call (&waiter);
  hbase_zset_diff_store_async (store, both, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_diff_store_finish (store, test_waiter_run (&waiter), &n, &error));
  g_assert_cmpuint (n, ==, 3);
  g_assert_true (hbase_zset_card (store, &n, NULL, &error));
  g_assert_cmpuint (n, ==, 3);
  next_call (&waiter);

  /* random members: distinct ones of the set */
  hbase_zset_random_members_async (zset, 3, NULL, test_waiter_done, &waiter);
  entries = hbase_zset_random_members_finish (zset, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 3);
  g_clear_pointer (&entries, g_ptr_array_unref);
  next_call (&waiter);

  /* range removals: a (score 1) by score, then the two highest by rank */
  hbase_zset_remove_range_by_score_async (zset, &low, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_remove_range_by_score_finish (zset, test_waiter_run (&waiter), &n,
                                                          &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 1);
  next_call (&waiter);
  hbase_zset_remove_range_by_rank_async (zset, -2, -1, NULL, test_waiter_done, &waiter);
  g_assert_true (hbase_zset_remove_range_by_rank_finish (zset, test_waiter_run (&waiter), &n,
                                                         &error));
  g_assert_cmpuint (n, ==, 2);
  next_call (&waiter);
  iter = hbase_zset_range_by_rank (zset, 0, -1, FALSE);
  entries = hbase_zset_iter_collect (iter, NULL, &error);
  g_assert_no_error (error);
  text = entry_members (entries);
  g_assert_cmpstr (text, ==, "b c");
  g_clear_pointer (&entries, g_ptr_array_unref);
  test_waiter_clear (&waiter);
}

/* A set on a table that does not exist: the error comes through _finish. */
static void
test_errors (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseTable) missing = NULL;
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GBytes) key = test_key ("async-missing");
  g_autoptr(GPtrArray) members = sts_members ("a", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  TestWaiter waiter;
  guint64 n = 7;

  SKIP_IF_UNREACHABLE (fixture);
  test_waiter_init (&waiter);
  missing = hbase_table_new (fixture->client, "hbase_glib_no_such_table_async", &error);
  g_assert_no_error (error);
  set = hbase_set_new (missing, key, NULL, &error);
  g_assert_no_error (error);
  hbase_set_add_async (set, members, NULL, test_waiter_done, &waiter);
  g_assert_false (hbase_set_add_finish (set, test_waiter_run (&waiter), &n, &error));
  g_assert_nonnull (error);
  g_assert_cmpuint (n, ==, 7);
  g_clear_error (&error);
  next_call (&waiter);

  /* cancelled before it starts */
  g_cancellable_cancel (cancellable);
  hbase_set_card_async (set, cancellable, test_waiter_done, &waiter);
  g_assert_false (hbase_set_card_finish (set, test_waiter_run (&waiter), &n, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  test_waiter_clear (&waiter);
}

/* every case on the native backend too */
static const TestTableSuiteOptions native_all = { .native_all = TRUE };

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "set", test_set },
    { "zset", test_zset },
    { "zset-commands", test_zset_commands },
    { "errors", test_errors },
  };
  static TestTableSuite suite = {
    "/integration/structures-async", "hbase_glib_structures_async", NULL, 0, TEST_GATEWAYS_ENDS
  };

  g_test_init (&argc, &argv, NULL);
  suite.families = sts_families (&suite.n_families);
  test_table_suite_add_full (&suite, &native_all, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
