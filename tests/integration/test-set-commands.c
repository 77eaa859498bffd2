/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the HBaseSet commands that change sets according to
 * what they read, against the real stack: SPOP (count forms, empty and
 * sharded sets, and two threads popping one set: no member twice, every
 * member once), SRANDMEMBER without a count, SMOVE (present, absent,
 * already in the destination, the same set twice, two threads moving the
 * same members: each moved once), SINTERSTORE,
 * SUNIONSTORE and SDIFFSTORE (missing sets, the destination among the
 * sources, sharded destinations, results larger than one write), the
 * _async/_finish pairs and the checks made before sending.
 *
 * Runs on the binary/buffered and the compact/framed gateways, one table
 * each, created on first use and dropped at the end. */
#include "config.h"

#include <string.h>

#include "../structures/structures-support.h"
#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

typedef TestTableFixture Fixture;

static HBaseSet *
new_set (Fixture *fixture, const char *suffix, guint shards)
{
  g_autoptr(GBytes) key = test_key (suffix);
  HBaseSetOptions options = HBASE_SET_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  HBaseSet *set;

  options.shards = shards;
  options.page_size = 7;
  set = hbase_set_new (fixture->table, key, &options, &error);
  g_assert_no_error (error);
  return set;
}

/* The members, sorted, joined by commas. */
static char *
listed (HBaseSet *set)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseSetIter) iter = hbase_set_members (set);
  g_autoptr(GPtrArray) members = hbase_set_iter_collect (iter, NULL, &error);

  g_assert_no_error (error);
  return sts_join (members);
}

static char *
sorted_join (GPtrArray *members)
{
  g_autoptr(GPtrArray) copy = g_ptr_array_new ();

  for (guint i = 0; i < members->len; i++)
    g_ptr_array_add (copy, members->pdata[i]);

  g_ptr_array_sort (copy, sts_compare_members);
  return sts_join (copy);
}

static guint64
card_of (HBaseSet *set)
{
  g_autoptr(GError) error = NULL;
  guint64 card = G_MAXUINT64;

  g_assert_true (hbase_set_card (set, &card, NULL, &error));
  g_assert_no_error (error);
  return card;
}

static void
add_all (HBaseSet *set, GPtrArray *members)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_set_add (set, members, NULL, NULL, &error));
  g_assert_no_error (error);
}

static GPtrArray *
numbered (const char *prefix, guint n)
{
  GPtrArray *members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < n; i++)
    {
      char *text = g_strdup_printf ("%s%05u", prefix, i);

      g_ptr_array_add (members, g_bytes_new_take (text, strlen (text)));
    }
  return members;
}

/* --- SPOP, SRANDMEMBER --------------------------------------------------------------------- */

static void
test_pop (Fixture *fixture, gconstpointer data)
{
  TEST_SKIP_IF_UNREACHABLE (fixture);
  for (guint shards = 1; shards <= 3; shards += 2)
    {
      g_autofree char *suffix = g_strdup_printf ("pop%u", shards);
      g_autoptr(HBaseSet) set = new_set (fixture, suffix, shards);
      g_autoptr(GPtrArray) initial = sts_members ("a", "b", "c", "d", "e", NULL);
      g_autoptr(GPtrArray) popped = NULL;
      g_autoptr(GPtrArray) rest = NULL;
      g_autoptr(GBytes) one = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;
      g_autofree char *together = NULL;

      /* a missing set: nothing, no error */
      g_assert_true (hbase_set_pop_one (set, &one, NULL, &error));
      g_assert_no_error (error);
      g_assert_null (one);
      g_assert_true (hbase_set_pop (set, 3, &popped, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (popped->len, ==, 0);
      g_clear_pointer (&popped, g_ptr_array_unref);

      add_all (set, initial);
      /* count 0: nothing removed */
      g_assert_true (hbase_set_pop (set, 0, &popped, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (popped->len, ==, 0);
      g_assert_cmpuint (card_of (set), ==, 5);
      g_clear_pointer (&popped, g_ptr_array_unref);

      /* a negative count is refused, as Redis does */
      g_assert_false (hbase_set_pop (set, -1, &popped, NULL, &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_null (popped);
      g_clear_error (&error);

      /* two distinct members, gone from the set */
      g_assert_true (hbase_set_pop (set, 2, &popped, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (popped->len, ==, 2);
      g_assert_false (g_bytes_equal (popped->pdata[0], popped->pdata[1]));
      g_assert_cmpuint (card_of (set), ==, 3);
      before = sorted_join (popped);
      after = listed (set);
      for (guint i = 0; i < popped->len; i++)
        {
          gboolean present = TRUE;

          g_assert_true (hbase_set_contains (set, popped->pdata[i], &present, NULL, &error));
          g_assert_false (present);
        }

      /* one */
      g_assert_true (hbase_set_pop_one (set, &one, NULL, &error));
      g_assert_no_error (error);
      g_assert_nonnull (one);
      g_assert_cmpuint (card_of (set), ==, 2);
      g_ptr_array_add (popped, g_bytes_ref (one));

      /* more than there are: the rest */
      g_assert_true (hbase_set_pop (set, 10, &rest, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (rest->len, ==, 2);
      g_assert_cmpuint (card_of (set), ==, 0);
      for (guint i = 0; i < rest->len; i++)
        g_ptr_array_add (popped, g_bytes_ref (rest->pdata[i]));
      together = sorted_join (popped);
      g_assert_cmpstr (together, ==, "a,b,c,d,e");
      g_test_message ("shards %u: popped %s, left %s", shards, before, after);
    }
}

#define POPPERS 2

typedef struct {
  HBaseSet *set;
  GPtrArray *got;      /* GBytes */
  guint seed;
} Popper;

static gpointer
popper (gpointer data)
{
  Popper *self = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (self->seed);

  for (;;)
    {
      g_autoptr(GError) error = NULL;

      if (g_rand_boolean (rand))
        {
          g_autoptr(GBytes) member = NULL;

          g_assert_true (hbase_set_pop_one (self->set, &member, NULL, &error));
          g_assert_no_error (error);
          if (member == NULL)
            break;
          g_ptr_array_add (self->got, g_steal_pointer (&member));
        }
      else
        {
          g_autoptr(GPtrArray) members = NULL;

          g_assert_true (hbase_set_pop (self->set, g_rand_int_range (rand, 1, 6), &members, NULL,
                                        &error));
          g_assert_no_error (error);
          if (members->len == 0)
            break;
          for (guint i = 0; i < members->len; i++)
            g_ptr_array_add (self->got, g_bytes_ref (members->pdata[i]));
        }
    }
  return NULL;
}

/* Two threads pop one set until it is empty: no member reaches both, and
 * together they get every member. */
static void
test_pop_concurrent (Fixture *fixture, gconstpointer data)
{
  TEST_SKIP_IF_UNREACHABLE (fixture);
  for (guint shards = 1; shards <= 3; shards += 2)
    {
      g_autofree char *suffix = g_strdup_printf ("popc%u", shards);
      g_autoptr(HBaseSet) set = new_set (fixture, suffix, shards);
      guint n = test_quick () ? 60 : 300;
      g_autoptr(GPtrArray) all = numbered ("m", n);
      g_autoptr(GHashTable) seen = g_hash_table_new (g_bytes_hash, g_bytes_equal);
      Popper poppers[POPPERS];
      GThread *threads[POPPERS];
      guint total = 0;

      add_all (set, all);
      for (guint i = 0; i < POPPERS; i++)
        {
          poppers[i].set = set;
          poppers[i].got = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
          poppers[i].seed = 7 * shards + i;
          threads[i] = g_thread_new ("popper", popper, &poppers[i]);
        }
      for (guint i = 0; i < POPPERS; i++)
        g_thread_join (threads[i]);
      for (guint i = 0; i < POPPERS; i++)
        {
          g_test_message ("shards %u: popper %u got %u members", shards, i, poppers[i].got->len);
          for (guint j = 0; j < poppers[i].got->len; j++)
            {
              GBytes *member = poppers[i].got->pdata[j];

              /* never twice */
              g_assert_true (g_hash_table_add (seen, member));
            }
          total += poppers[i].got->len;
        }
      g_assert_cmpuint (total, ==, n);
      for (guint i = 0; i < all->len; i++)
        g_assert_true (g_hash_table_contains (seen, all->pdata[i]));
      g_assert_cmpuint (card_of (set), ==, 0);
      for (guint i = 0; i < POPPERS; i++)
        g_ptr_array_unref (poppers[i].got);
    }
}

static void
test_random_member (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GPtrArray) members = sts_members ("x", "y", "z", NULL);
  g_autoptr(GHashTable) drawn = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                       (GDestroyNotify) g_bytes_unref, NULL);
  g_autoptr(GError) error = NULL;
  GBytes *member = NULL;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  set = new_set (fixture, "rnd", 0);
  g_assert_true (hbase_set_random_member (set, &member, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (member);
  add_all (set, members);
  for (guint i = 0; i < 40; i++)
    {
      gboolean present = FALSE;

      g_assert_true (hbase_set_random_member (set, &member, NULL, &error));
      g_assert_no_error (error);
      g_assert_nonnull (member);
      g_assert_true (hbase_set_contains (set, member, &present, NULL, &error));
      g_assert_true (present);
      g_hash_table_add (drawn, member);
    }
  /* nothing removed; with 40 draws of 3, every member came up */
  g_assert_cmpuint (card_of (set), ==, 3);
  g_assert_cmpuint (g_hash_table_size (drawn), ==, 3);
}

/* --- SMOVE ----------------------------------------------------------------------------------- */

static gboolean
move (HBaseSet *source, HBaseSet *destination, const char *text)
{
  g_autoptr(GBytes) member = sts_bytes (text);
  g_autoptr(GError) error = NULL;
  gboolean moved = 2;

  g_assert_true (hbase_set_move (source, destination, member, &moved, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (moved == TRUE || moved == FALSE);
  return moved;
}

static void
test_move (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) source = NULL;
  g_autoptr(HBaseSet) destination = NULL;
  g_autoptr(HBaseSet) again = NULL;
  g_autoptr(HBaseSet) missing = NULL;
  g_autoptr(GPtrArray) first = sts_members ("a", "b", NULL);
  g_autoptr(GPtrArray) second = sts_members ("b", "c", NULL);
  g_autoptr(GBytes) a = sts_bytes ("a");
  g_autoptr(GError) error = NULL;
  char *text;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  source = new_set (fixture, "mvs", 0);
  destination = new_set (fixture, "mvd", 3);
  missing = new_set (fixture, "mvm", 0);
  add_all (source, first);
  add_all (destination, second);

  g_assert_true (move (source, destination, "a"));
  g_assert_false (move (source, destination, "a"));          /* gone from the source */
  g_assert_true (move (source, destination, "b"));           /* already in the destination */
  g_assert_false (move (missing, destination, "c"));         /* a missing source */
  text = listed (source);
  g_assert_cmpstr (text, ==, "");
  g_free (text);
  text = listed (destination);
  g_assert_cmpstr (text, ==, "a,b,c");
  g_free (text);
  g_assert_cmpuint (card_of (destination), ==, 3);
  g_assert_cmpuint (card_of (missing), ==, 0);

  /* a move into a missing set makes it */
  g_assert_true (move (destination, missing, "c"));
  text = listed (missing);
  g_assert_cmpstr (text, ==, "c");
  g_free (text);

  /* the same set under two handles: SMOVE's reply, nothing changes */
  again = new_set (fixture, "mvd", 3);
  g_assert_true (move (destination, again, "a"));
  g_assert_false (move (destination, destination, "zz"));
  text = listed (destination);
  g_assert_cmpstr (text, ==, "a,b");
  g_free (text);

  /* bad input */
  g_assert_false (hbase_set_move (NULL, destination, a, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_move (source, NULL, a, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_move (source, destination, NULL, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
}

/* Two threads move every member of one set, each into its own set: each
 * member is moved by exactly one of them and ends in that one's set. */
typedef struct {
  HBaseSet *source;
  HBaseSet *destination;
  GPtrArray *members;
  guint moved;
} Mover;

static gpointer
mover (gpointer data)
{
  Mover *self = data;

  for (guint i = 0; i < self->members->len; i++)
    {
      g_autoptr(GError) error = NULL;
      gboolean moved = FALSE;

      g_assert_true (hbase_set_move (self->source, self->destination, self->members->pdata[i],
                                     &moved, NULL, &error));
      g_assert_no_error (error);
      self->moved += moved ? 1 : 0;
    }
  return NULL;
}

static void
test_move_concurrent (Fixture *fixture, gconstpointer data)
{
  guint n = test_quick () ? 40 : 150;
  g_autoptr(GPtrArray) all = numbered ("mv", n);
  g_autoptr(HBaseSet) source = NULL;
  Mover movers[2];
  GThread *threads[2];

  TEST_SKIP_IF_UNREACHABLE (fixture);
  source = new_set (fixture, "mvc", 0);
  add_all (source, all);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *suffix = g_strdup_printf ("mvc%u", i);

      movers[i].source = source;
      movers[i].destination = new_set (fixture, suffix, 2);
      movers[i].members = all;
      movers[i].moved = 0;
      threads[i] = g_thread_new ("mover", mover, &movers[i]);
    }
  for (guint i = 0; i < 2; i++)
    g_thread_join (threads[i]);
  g_test_message ("moved %u and %u of %u", movers[0].moved, movers[1].moved, n);
  g_assert_cmpuint (movers[0].moved + movers[1].moved, ==, n);
  g_assert_cmpuint (card_of (source), ==, 0);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpuint (card_of (movers[i].destination), ==, movers[i].moved);
      g_object_unref (movers[i].destination);
    }
}

/* --- SINTERSTORE, SUNIONSTORE, SDIFFSTORE ------------------------------------------------- */

typedef gboolean (*StoreFunc) (HBaseSet *, GPtrArray *, guint64 *, GCancellable *, GError **);

static guint64
store (StoreFunc func, HBaseSet *destination, HBaseSet *first, HBaseSet *second)
{
  g_autoptr(GPtrArray) sets = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  guint64 card = G_MAXUINT64;

  g_ptr_array_add (sets, first);
  if (second != NULL)
    g_ptr_array_add (sets, second);
  g_assert_true (func (destination, sets, &card, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (card_of (destination), ==, card);
  return card;
}

static void
assert_members (HBaseSet *set, const char *expected)
{
  g_autofree char *text = listed (set);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_store (Fixture *fixture, gconstpointer data)
{
  TEST_SKIP_IF_UNREACHABLE (fixture);
  for (guint shards = 1; shards <= 3; shards += 2)
    {
      g_autofree char *k1 = g_strdup_printf ("st1-%u", shards);
      g_autofree char *k2 = g_strdup_printf ("st2-%u", shards);
      g_autofree char *kd = g_strdup_printf ("std-%u", shards);
      g_autofree char *km = g_strdup_printf ("stm-%u", shards);
      g_autoptr(HBaseSet) s1 = new_set (fixture, k1, 0);
      g_autoptr(HBaseSet) s2 = new_set (fixture, k2, 0);
      g_autoptr(HBaseSet) dest = new_set (fixture, kd, shards);
      g_autoptr(HBaseSet) missing = new_set (fixture, km, 0);
      g_autoptr(GPtrArray) m1 = sts_members ("a", "b", "c", NULL);
      g_autoptr(GPtrArray) m2 = sts_members ("b", "c", "d", NULL);
      g_autoptr(GPtrArray) old = sts_members ("x", "y", "b", NULL);

      add_all (s1, m1);
      add_all (s2, m2);
      add_all (dest, old);

      /* the destination's old members are replaced */
      g_assert_cmpuint (store (hbase_set_intersect_store, dest, s1, s2), ==, 2);
      assert_members (dest, "b,c");
      g_assert_cmpuint (store (hbase_set_union_store, dest, s1, s2), ==, 4);
      assert_members (dest, "a,b,c,d");
      g_assert_cmpuint (store (hbase_set_diff_store, dest, s1, s2), ==, 1);
      assert_members (dest, "a");
      g_assert_cmpuint (store (hbase_set_diff_store, dest, s1, NULL), ==, 3);
      assert_members (dest, "a,b,c");

      /* a missing set is empty: the result is empty and so is the destination */
      g_assert_cmpuint (store (hbase_set_intersect_store, dest, s1, missing), ==, 0);
      assert_members (dest, "");
      g_assert_cmpuint (store (hbase_set_union_store, dest, missing, NULL), ==, 0);
      g_assert_cmpuint (store (hbase_set_diff_store, dest, missing, s1), ==, 0);
      g_assert_cmpuint (store (hbase_set_diff_store, missing, missing, s1), ==, 0);
      g_assert_cmpuint (card_of (missing), ==, 0);
      g_assert_cmpuint (store (hbase_set_union_store, dest, s2, missing), ==, 3);
      assert_members (dest, "b,c,d");

      /* the destination among the sources */
      g_assert_cmpuint (store (hbase_set_union_store, dest, dest, s1), ==, 4);
      assert_members (dest, "a,b,c,d");
      g_assert_cmpuint (store (hbase_set_diff_store, dest, dest, s1), ==, 1);
      assert_members (dest, "d");
      g_assert_cmpuint (store (hbase_set_intersect_store, s1, s1, s2), ==, 2);
      assert_members (s1, "b,c");
      /* sources untouched */
      assert_members (s2, "b,c,d");
    }
}

/* A result of more members than one write carries, into a plain and a
 * sharded destination. */
static void
test_store_large (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) source = NULL;
  guint n = 2500;
  g_autoptr(GPtrArray) many = numbered ("big", n);
  g_autoptr(GPtrArray) few = sts_members ("zz-old", NULL);

  TEST_SKIP_IF_UNREACHABLE (fixture);
  source = new_set (fixture, "lg", 0);
  add_all (source, many);
  for (guint shards = 1; shards <= 2; shards++)
    {
      g_autofree char *suffix = g_strdup_printf ("lgd%u", shards);
      g_autoptr(HBaseSet) dest = new_set (fixture, suffix, shards);
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseSetIter) iter = NULL;
      g_autoptr(GPtrArray) members = NULL;

      add_all (dest, few);
      g_assert_cmpuint (store (hbase_set_union_store, dest, source, NULL), ==, n);
      iter = hbase_set_members (dest);
      members = hbase_set_iter_collect (iter, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (members->len, ==, n);
      for (guint i = 0; i < n; i++)
        g_assert_true (g_bytes_equal (members->pdata[i], many->pdata[i]));
    }
}

/* --- _async/_finish ------------------------------------------------------------------------ */

static void
on_done (GObject *source, GAsyncResult *result, gpointer data)
{
  GAsyncResult **out = data;

  g_assert_true (G_IS_OBJECT (source));
  *out = g_object_ref (result);
}

static void
on_done_without_source (GObject *source, GAsyncResult *result, gpointer data)
{
  GAsyncResult **out = data;

  g_assert_null (source);
  *out = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static void
test_async (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(HBaseSet) other = NULL;
  g_autoptr(GPtrArray) members = sts_members ("p", "q", "r", NULL);
  g_autoptr(GPtrArray) sets = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) p = sts_bytes ("p");
  GAsyncResult *result = NULL;
  GPtrArray *got = NULL;
  GBytes *one = NULL;
  gboolean moved = FALSE;
  guint64 card = 0;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  set = new_set (fixture, "as", 0);
  other = new_set (fixture, "ao", 2);
  add_all (set, members);

  hbase_set_random_members_async (set, -5, NULL, on_done, &result);
  g_assert_true (hbase_set_random_members_finish (set, wait_for (&result), &got, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 5);
  g_clear_pointer (&got, g_ptr_array_unref);
  g_clear_object (&result);

  hbase_set_random_member_async (set, NULL, on_done, &result);
  g_assert_true (hbase_set_random_member_finish (set, wait_for (&result), &one, &error));
  g_assert_nonnull (one);
  g_clear_pointer (&one, g_bytes_unref);
  g_clear_object (&result);

  hbase_set_move_async (set, other, p, NULL, on_done, &result);
  g_assert_true (hbase_set_move_finish (set, wait_for (&result), &moved, &error));
  g_assert_no_error (error);
  g_assert_true (moved);
  g_clear_object (&result);

  g_ptr_array_add (sets, set);
  g_ptr_array_add (sets, other);
  hbase_set_union_store_async (other, sets, NULL, on_done, &result);
  g_assert_true (hbase_set_union_store_finish (other, wait_for (&result), &card, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (card, ==, 3);
  g_clear_object (&result);
  hbase_set_intersect_store_async (other, sets, NULL, on_done, &result);
  g_assert_true (hbase_set_intersect_store_finish (other, wait_for (&result), &card, &error));
  g_assert_cmpuint (card, ==, 2);
  g_clear_object (&result);
  hbase_set_diff_store_async (other, sets, NULL, on_done, &result);
  g_assert_true (hbase_set_diff_store_finish (other, wait_for (&result), &card, &error));
  g_assert_cmpuint (card, ==, 0);
  g_clear_object (&result);

  hbase_set_pop_async (set, 5, NULL, on_done, &result);
  g_assert_true (hbase_set_pop_finish (set, wait_for (&result), &got, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 2);
  g_clear_pointer (&got, g_ptr_array_unref);
  g_clear_object (&result);
  hbase_set_pop_one_async (set, NULL, on_done, &result);
  g_assert_true (hbase_set_pop_one_finish (set, wait_for (&result), &one, &error));
  g_assert_null (one);
  g_clear_object (&result);

  /* errors arrive through the callback */
  hbase_set_pop_async (set, -2, NULL, on_done, &result);
  g_assert_false (hbase_set_pop_finish (set, wait_for (&result), &got, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_null (got);
  g_clear_error (&error);
  g_clear_object (&result);
  hbase_set_pop_one_async (NULL, NULL, on_done_without_source, &result);
  g_assert_false (hbase_set_pop_one_finish (NULL, wait_for (&result), &one, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_clear_object (&result);
  hbase_set_union_store_async (other, NULL, NULL, on_done, &result);
  g_assert_false (hbase_set_union_store_finish (other, wait_for (&result), &card, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_clear_object (&result);
}

static void
test_bad_input (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GPtrArray) empty = g_ptr_array_new ();
  g_autoptr(GPtrArray) with_null = g_ptr_array_new ();
  g_autoptr(GPtrArray) members = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *member = NULL;
  guint64 card = 7;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  set = new_set (fixture, "bad", 0);
  g_assert_false (hbase_set_pop (NULL, 1, &members, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_pop (set, 1, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_pop_one (set, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_pop_one (NULL, &member, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_random_member (NULL, &member, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_union_store (NULL, empty, &card, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_cmpuint (card, ==, 0);
  g_clear_error (&error);
  g_assert_false (hbase_set_intersect_store (set, NULL, &card, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_diff_store (set, empty, &card, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_ptr_array_add (with_null, NULL);
  g_assert_false (hbase_set_union_store (set, with_null, &card, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
}

/* every case on the native backend too */
static const TestTableSuiteOptions native_all = { .native_all = TRUE };

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "pop", test_pop },
    { "pop-concurrent", test_pop_concurrent },
    { "random-member", test_random_member },
    { "move", test_move },
    { "move-concurrent", test_move_concurrent },
    { "store", test_store },
    { "store-large", test_store_large },
    { "async", test_async },
    { "bad-input", test_bad_input },
  };
  static TestTableSuite suite = {
    "/integration/set-commands", "hbase_glib_set_commands", NULL, 0, TEST_GATEWAYS_ENDS
  };

  g_test_init (&argc, &argv, NULL);
  suite.families = sts_families (&suite.n_families);
  test_table_suite_add_full (&suite, &native_all, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
