/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of HBaseSet against the real stack: SADD/SREM
 * semantics, binary and non-ASCII members, paging through a set larger
 * than a page, sharded sets, SSCAN cursors, SRANDMEMBER counts,
 * intersect/union/diff, the layout on disk, the plain layout's plain layout and
 * its import, clear, the checks made before sending, a mismatched
 * handle, and exact cardinality under concurrent writers.
 *
 * Runs on the binary/buffered and the compact/framed gateways, one table
 * each, created on first use and dropped at the end. */
#include "config.h"

#include <string.h>

#include "../structures/structures-support.h"
#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

typedef TestTableFixture Fixture;

#define SKIP_IF_UNREACHABLE TEST_SKIP_IF_UNREACHABLE

static HBaseSet *
new_set (Fixture *fixture, const char *suffix, guint shards, guint page_size)
{
  g_autoptr(GBytes) key = test_key (suffix);
  HBaseSetOptions options = HBASE_SET_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  HBaseSet *set;

  options.shards = shards;
  options.page_size = page_size;
  set = hbase_set_new (fixture->table, key, &options, &error);
  g_assert_no_error (error);
  return set;
}

static char *
members_of (HBaseSetIter *iter)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) members = hbase_set_iter_collect (iter, NULL, &error);

  g_assert_no_error (error);
  hbase_set_iter_unref (iter);
  return sts_join (members);
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

static guint64
add (HBaseSet *set, GPtrArray *members)
{
  g_autoptr(GError) error = NULL;
  guint64 n = G_MAXUINT64;

  g_assert_true (hbase_set_add (set, members, &n, NULL, &error));
  g_assert_no_error (error);
  return n;
}

static guint64
rem (HBaseSet *set, GPtrArray *members)
{
  g_autoptr(GError) error = NULL;
  guint64 n = G_MAXUINT64;

  g_assert_true (hbase_set_remove (set, members, &n, NULL, &error));
  g_assert_no_error (error);
  return n;
}

static GPtrArray *
numbered (const char *prefix, guint from, guint to)
{
  GPtrArray *members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = from; i < to; i++)
    {
      char *text = g_strdup_printf ("%s%05u", prefix, i);

      g_ptr_array_add (members, g_bytes_new_take (text, strlen (text)));
    }
  return members;
}

/* --- basics ------------------------------------------------------------------------------- */

static void
test_basics (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GPtrArray) first = sts_members ("b", "a", "c", "a", NULL);
  g_autoptr(GPtrArray) second = sts_members ("c", "d", NULL);
  g_autoptr(GPtrArray) gone = sts_members ("a", "zz", "a", NULL);
  g_autoptr(GBytes) a = sts_bytes ("a");
  g_autoptr(GBytes) d = sts_bytes ("d");
  g_autoptr(GError) error = NULL;
  g_autofree char *listed = NULL;
  gboolean flag = FALSE;

  SKIP_IF_UNREACHABLE (fixture);
  set = new_set (fixture, "s", 0, 0);
  /* a missing set is empty */
  g_assert_cmpuint (card_of (set), ==, 0);
  listed = members_of (hbase_set_members (set));
  g_assert_cmpstr (listed, ==, "");
  g_clear_pointer (&listed, g_free);

  /* SADD counts new members once, like Redis */
  g_assert_cmpuint (add (set, first), ==, 3);
  g_assert_cmpuint (add (set, second), ==, 1);
  g_assert_cmpuint (add (set, second), ==, 0);
  g_assert_cmpuint (card_of (set), ==, 4);
  listed = members_of (hbase_set_members (set));
  g_assert_cmpstr (listed, ==, "a,b,c,d");
  g_clear_pointer (&listed, g_free);

  g_assert_true (hbase_set_contains (set, a, &flag, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (flag);
  g_assert_true (hbase_set_add_one (set, a, &flag, NULL, &error));
  g_assert_false (flag);
  g_assert_true (hbase_set_remove_one (set, d, &flag, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (flag);
  g_assert_true (hbase_set_remove_one (set, d, &flag, NULL, &error));
  g_assert_false (flag);
  g_assert_true (hbase_set_contains (set, d, &flag, NULL, &error));
  g_assert_false (flag);

  /* SREM counts members that were there */
  g_assert_cmpuint (rem (set, gone), ==, 1);
  g_assert_cmpuint (card_of (set), ==, 2);
  listed = members_of (hbase_set_members (set));
  g_assert_cmpstr (listed, ==, "b,c");
}

static void
test_binary_members (Fixture *fixture, gconstpointer data)
{
  static const struct {
    const char *data;
    gsize len;
  } cases[] = {
    { "", 0 }, { "\0", 1 }, { "\0\0", 2 }, { "a\0b", 3 }, { "\xff", 1 }, { "\xff\xff\x00", 3 },
    { "\xe4\xb8\xad\xe6\x96\x87", 6 }, { "#", 1 }, { "m", 1 }, { "'(),:", 5 },
  };
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) error = NULL;
  g_autofree gboolean *present = NULL;
  g_autofree char *listed = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  set = new_set (fixture, "s", 0, 3);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_ptr_array_add (members, g_bytes_new (cases[i].data, cases[i].len));
  g_assert_cmpuint (add (set, members), ==, G_N_ELEMENTS (cases));
  g_assert_cmpuint (card_of (set), ==, G_N_ELEMENTS (cases));
  /* byte order, every page of 3 */
  listed = members_of (hbase_set_members (set));
  g_assert_cmpstr (listed, ==,
                   ",\\x00,\\x00\\x00,#,'()\\x2c:,a\\x00b,m,\\xe4\\xb8\\xad\\xe6\\x96\\x87,\\xff,"
                   "\\xff\\xff\\x00");
  present = g_new0 (gboolean, members->len + 1);
  g_ptr_array_add (members, g_bytes_new ("\0\0\0", 3));
  g_assert_true (hbase_set_contains_many (set, members, present, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_true (present[i]);
  g_assert_false (present[G_N_ELEMENTS (cases)]);
}

/* the cells as documented in docs/structures-layout.md */
static void
test_layout (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GPtrArray) members = sts_members ("x", "y", NULL);
  g_autoptr(GBytes) key = test_key ("s");
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GError) error = NULL;
  const HBaseCell *meta;
  gsize len;
  const guint8 *value;

  SKIP_IF_UNREACHABLE (fixture);
  set = new_set (fixture, "s", 0, 0);
  add (set, members);
  row = hbase_table_get (fixture->table, key, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_row_get_n_cells (row), ==, 3);
  g_assert_nonnull (hbase_row_lookup (row, "s", "mx"));
  g_assert_cmpuint (g_bytes_get_size (hbase_row_lookup (row, "s", "my")), ==, 0);
  meta = hbase_row_lookup_cell (row, "s", "#");
  g_assert_nonnull (meta);
  value = g_bytes_get_data (hbase_cell_get_value (meta), &len);
  g_assert_cmpuint (len, ==, 24);
  /* card 2, big-endian; the clock is the cells' timestamp; 'S', format 1, 1 shard */
  g_assert_cmpmem (value, 8, "\0\0\0\0\0\0\0\2", 8);
  {
    gint64 clock = 0;

    for (guint i = 8; i < 16; i++)
      clock = (clock << 8) | value[i];
    g_assert_cmpint (clock, ==, hbase_cell_get_timestamp (meta));
  }
  g_assert_cmpmem (value + 16, 4, "S\1\0\1", 4);
}

/* --- paging and sharding ------------------------------------------------------------------- */

static void
test_paging (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GPtrArray) members = numbered ("p", 0, 2500);
  g_autoptr(GPtrArray) expected = numbered ("p", 0, 2500);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseSetIter) iter = NULL;
  g_autoptr(GPtrArray) listed = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  /* 2500 members: three compare-and-set groups, pages of 7 */
  set = new_set (fixture, "s", 0, 7);
  g_assert_cmpuint (add (set, members), ==, 2500);
  g_assert_cmpuint (card_of (set), ==, 2500);
  iter = hbase_set_members (set);
  listed = hbase_set_iter_collect (iter, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 2500);
  for (guint i = 0; i < listed->len; i++)
    g_assert_true (g_bytes_equal (g_ptr_array_index (listed, i), g_ptr_array_index (expected, i)));
  /* the end stays the end */
  {
    GBytes *member = (GBytes *) 1;

    g_assert_true (hbase_set_iter_next (iter, &member, NULL, &error));
    g_assert_null (member);
  }
}

static void
check_scan (HBaseSet *set, guint count, guint64 expected)
{
  g_autoptr(GBytes) cursor = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                      (GDestroyNotify) g_bytes_unref, NULL);
  guint steps = 0;

  do
    {
      g_autoptr(GPtrArray) members = NULL;
      g_autoptr(GError) error = NULL;
      GBytes *next = NULL;

      g_assert_true (hbase_set_scan (set, cursor, count, &next, &members, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (members->len, <=, count);
      for (guint i = 0; i < members->len; i++)
        g_assert_true (g_hash_table_add (seen, g_bytes_ref (g_ptr_array_index (members, i))));
      g_clear_pointer (&cursor, g_bytes_unref);
      cursor = next;
      g_assert_cmpuint (++steps, <, 10000);
    }
  while (cursor != NULL);
  g_assert_cmpuint (g_hash_table_size (seen), ==, expected);
}

static void
test_sharded (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(HBaseSet) wrong = NULL;
  g_autoptr(GPtrArray) members = numbered ("h", 0, 1000);
  g_autoptr(GPtrArray) some = numbered ("h", 990, 1010);
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(HBaseSetIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) key = test_key ("s");
  g_autofree gboolean *present = g_new0 (gboolean, some->len);
  guint64 card = 0;

  SKIP_IF_UNREACHABLE (fixture);
  set = new_set (fixture, "s", 5, 64);
  g_assert_true (g_bytes_equal (hbase_set_get_key (set), key));
  g_assert_cmpuint (hbase_set_get_shards (set), ==, 5);
  g_assert_cmpuint (add (set, members), ==, 1000);
  g_assert_cmpuint (add (set, some), ==, 10);
  g_assert_cmpuint (card_of (set), ==, 1010);

  /* members merged from the 5 rows, in byte order */
  iter = hbase_set_members (set);
  listed = hbase_set_iter_collect (iter, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 1010);
  for (guint i = 1; i < listed->len; i++)
    g_assert_cmpint (g_bytes_compare (g_ptr_array_index (listed, i - 1),
                                      g_ptr_array_index (listed, i)), <, 0);

  /* each shard row holds the members hashing to it, and its own card */
  {
    guint64 total = 0;

    for (guint shard = 0; shard < 5; shard++)
      {
        g_autoptr(GByteArray) row_key = g_byte_array_new ();
        g_autoptr(GBytes) row_bytes = NULL;
        g_autoptr(HBaseRow) row = NULL;
        guint8 suffix[3] = { 0, 0, (guint8) shard };
        gsize len;
        const guint8 *value;

        g_byte_array_append (row_key, g_bytes_get_data (key, NULL), (guint) g_bytes_get_size (key));
        g_byte_array_append (row_key, suffix, 3);
        row_bytes = g_bytes_new (row_key->data, row_key->len);
        row = hbase_table_get (fixture->table, row_bytes, NULL, NULL, &error);
        g_assert_no_error (error);
        value = g_bytes_get_data (hbase_row_lookup (row, "s", "#"), &len);
        g_assert_cmpuint (len, ==, 24);
        g_assert_cmpuint (value[7], ==, hbase_row_get_n_cells (row) - 1);
        g_assert_cmpmem (value + 16, 4, "S\1\0\5", 4);
        total += value[6] * 256u + value[7];
        for (guint i = 0; i < hbase_row_get_n_cells (row); i++)
          {
            GBytes *qualifier = hbase_cell_get_qualifier (hbase_row_get_cell (row, i));
            const guint8 *q = g_bytes_get_data (qualifier, &len);
            guint32 hash = 2166136261u;

            if (q[0] == '#')
              continue;
            for (gsize j = 1; j < len; j++)
              hash = (hash ^ q[j]) * 16777619u;
            g_assert_cmpuint (hash % 5, ==, shard);
          }
      }
    g_assert_cmpuint (total, ==, 1010);
  }

  g_assert_true (hbase_set_contains_many (set, some, present, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < some->len; i++)
    g_assert_true (present[i]);

  check_scan (set, 10, 1010);
  check_scan (set, 333, 1010);
  check_scan (set, 5000, 1010);

  /* the same key opened with another shard count is refused on read */
  {
    HBaseSetOptions options = HBASE_SET_OPTIONS_INIT;

    options.shards = 4;
    wrong = hbase_set_new (fixture->table, key, &options, &error);
    g_assert_no_error (error);
    g_assert_false (hbase_set_card (wrong, &card, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
    g_assert_nonnull (strstr (error->message, "5 shard"));
    g_clear_error (&error);
  }

  g_assert_cmpuint (rem (set, members), ==, 1000);
  g_assert_cmpuint (card_of (set), ==, 10);
  g_assert_true (hbase_set_clear (set, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (card_of (set), ==, 0);
  {
    g_autofree char *left = members_of (hbase_set_members (set));

    g_assert_cmpstr (left, ==, "");
  }
  /* usable again after a clear */
  g_assert_cmpuint (add (set, some), ==, 20);
  g_assert_cmpuint (card_of (set), ==, 20);
}

static void
test_scan (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GPtrArray) members = numbered ("c", 0, 95);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) step = NULL;
  g_autoptr(GBytes) bad = sts_bytes ("\x07");
  GBytes *next = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  set = new_set (fixture, "s", 0, 0);
  /* an empty set: one step, nothing, done */
  g_assert_true (hbase_set_scan (set, NULL, 0, &next, &step, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (next);
  g_assert_cmpuint (step->len, ==, 0);
  g_clear_pointer (&step, g_ptr_array_unref);

  add (set, members);
  check_scan (set, 10, 95);
  check_scan (set, 95, 95);
  check_scan (set, 1, 95);
  /* a cursor that is not one */
  g_assert_false (hbase_set_scan (set, bad, 10, &next, &step, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
}

static void
test_random (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(HBaseSet) sharded = NULL;
  g_autoptr(GPtrArray) members = numbered ("r", 0, 300);
  g_autoptr(GError) error = NULL;
  HBaseSet *both[2];

  SKIP_IF_UNREACHABLE (fixture);
  set = new_set (fixture, "s", 0, 0);
  sharded = new_set (fixture, "t", 3, 0);
  both[0] = set;
  both[1] = sharded;
  for (guint k = 0; k < 2; k++)
    {
      static const gint64 counts[] = { 0, 1, 5, 299, 300, 1000, -1, -7, -700 };
      g_autoptr(GPtrArray) empty = NULL;
      g_autoptr(GHashTable) hits = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                          (GDestroyNotify) g_bytes_unref, NULL);

      /* an empty set gives nothing */
      g_assert_true (hbase_set_random_members (both[k], 3, &empty, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (empty->len, ==, 0);
      add (both[k], members);
      for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
        {
          g_autoptr(GPtrArray) picked = NULL;
          g_autoptr(GHashTable) distinct = g_hash_table_new (g_bytes_hash, g_bytes_equal);
          guint64 expected = counts[i] >= 0 ? MIN ((guint64) counts[i], 300u)
                                            : (guint64) -counts[i];

          g_assert_true (hbase_set_random_members (both[k], counts[i], &picked, NULL, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (picked->len, ==, expected);
          for (guint j = 0; j < picked->len; j++)
            {
              GBytes *member = g_ptr_array_index (picked, j);
              gboolean present = FALSE;

              g_hash_table_add (distinct, member);
              g_hash_table_add (hits, g_bytes_ref (member));
              g_assert_cmpuint (g_bytes_get_size (member), ==, 6);
              g_assert_cmpint (((const char *) g_bytes_get_data (member, NULL))[0], ==, 'r');
              if (j < 3)
                {
                  g_assert_true (hbase_set_contains (both[k], member, &present, NULL, &error));
                  g_assert_true (present);
                }
            }
          if (counts[i] > 0)
            g_assert_cmpuint (g_hash_table_size (distinct), ==, picked->len);
        }
      /* 700 draws with repetition reach most of 300 members */
      g_assert_cmpuint (g_hash_table_size (hits), >, 200);
    }
}

/* --- algebra ------------------------------------------------------------------------------- */

static void
test_algebra (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) a = NULL;
  g_autoptr(HBaseSet) b = NULL;
  g_autoptr(HBaseSet) c = NULL;
  g_autoptr(HBaseSet) missing = NULL;
  g_autoptr(GPtrArray) ma = numbered ("x", 0, 40);
  g_autoptr(GPtrArray) mb = numbered ("x", 30, 60);
  g_autoptr(GPtrArray) mc = sts_members ("x00035", "x00031", "x00005", "y", NULL);
  g_autoptr(GPtrArray) sets = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  a = new_set (fixture, "a", 0, 4);
  b = new_set (fixture, "b", 3, 5);
  c = new_set (fixture, "c", 0, 0);
  missing = new_set (fixture, "none", 2, 0);
  add (a, ma);
  add (b, mb);
  add (c, mc);

  g_ptr_array_add (sets, a);
  g_ptr_array_add (sets, b);
  g_ptr_array_add (sets, c);
  text = members_of (hbase_set_intersect (sets, NULL));
  g_assert_cmpstr (text, ==, "x00031,x00035");
  g_clear_pointer (&text, g_free);
  text = members_of (hbase_set_diff (sets, NULL));
  g_assert_cmpstr (text, ==,
                   "x00000,x00001,x00002,x00003,x00004,x00006,x00007,x00008,x00009,x00010,"
                   "x00011,x00012,x00013,x00014,x00015,x00016,x00017,x00018,x00019,x00020,"
                   "x00021,x00022,x00023,x00024,x00025,x00026,x00027,x00028,x00029");
  g_clear_pointer (&text, g_free);
  {
    g_autoptr(HBaseSetIter) iter = hbase_set_union (sets, NULL);
    g_autoptr(GPtrArray) all = hbase_set_iter_collect (iter, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (all->len, ==, 61);
    g_autofree char *last = sts_show (g_ptr_array_index (all, 60));

    g_assert_cmpstr (last, ==, "y");
  }
  /* a missing set is empty: it empties an intersection, changes no diff */
  g_ptr_array_add (sets, missing);
  text = members_of (hbase_set_intersect (sets, NULL));
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  g_ptr_array_set_size (sets, 0);
  g_ptr_array_add (sets, c);
  g_ptr_array_add (sets, missing);
  text = members_of (hbase_set_diff (sets, NULL));
  g_assert_cmpstr (text, ==, "x00005,x00031,x00035,y");
  g_clear_pointer (&text, g_free);
  text = members_of (hbase_set_union (sets, NULL));
  g_assert_cmpstr (text, ==, "x00005,x00031,x00035,y");
  g_clear_pointer (&text, g_free);
  /* one set: itself */
  g_ptr_array_set_size (sets, 1);
  text = members_of (hbase_set_intersect (sets, NULL));
  g_assert_cmpstr (text, ==, "x00005,x00031,x00035,y");
  g_clear_pointer (&text, g_free);

  /* no sets, a NULL set: refused */
  {
    g_autoptr(GPtrArray) none = g_ptr_array_new ();

    g_assert_null (hbase_set_union (none, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
    g_assert_null (hbase_set_intersect (NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
    g_ptr_array_add (none, NULL);
    g_assert_null (hbase_set_diff (none, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
  }
  /* a NULL set handle: an iterator that reports it */
  {
    g_autoptr(HBaseSetIter) iter = hbase_set_members (NULL);
    GBytes *member = NULL;

    g_assert_false (hbase_set_iter_next (iter, &member, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  }
}

/* --- the plain layout's plain layout --------------------------------------------------------------- */

static void
test_plain (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("plain");
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(GBytes) one = sts_bytes ("1");
  g_autoptr(GBytes) family = sts_bytes ("p");
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint64 n = 0;

  SKIP_IF_UNREACHABLE (fixture);
  /* the seed's "方案 C": tags of a user, value "1" */
  hbase_mutation_put (put, "p", "vip", one);
  hbase_mutation_put (put, "p", "premium", one);
  hbase_mutation_put (put, "p", "\xe8\x80\x81\xe7\x94\xa8\xe6\x88\xb7", one);
  for (guint i = 0; i < 1500; i++)
    {
      g_autofree char *name = g_strdup_printf ("t%04u", i);
      g_autoptr(GBytes) qualifier = sts_bytes (name);

      hbase_mutation_put_bytes (put, family, qualifier, one, -1);
    }
  g_assert_true (hbase_table_apply (fixture->table, put, NULL, &error));
  g_assert_no_error (error);

  {
    g_autoptr(HBaseSetIter) iter = hbase_set_read_plain (fixture->table, row, "p", &error);
    g_autoptr(GPtrArray) members = NULL;

    g_assert_no_error (error);
    members = hbase_set_iter_collect (iter, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (members->len, ==, 1503);
    g_autofree char *shown = sts_show (g_ptr_array_index (members, 0));

    g_assert_cmpstr (shown, ==, "premium");
  }

  set = new_set (fixture, "converted", 2, 0);
  g_assert_true (hbase_set_import_plain (set, fixture->table, row, "p", &n, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 1503);
  g_assert_cmpuint (card_of (set), ==, 1503);
  g_assert_true (hbase_set_import_plain (set, fixture->table, row, "p", &n, NULL, &error));
  g_assert_cmpuint (n, ==, 0);

  /* into its own row and family: refused */
  {
    HBaseSetOptions options = HBASE_SET_OPTIONS_INIT;
    g_autoptr(HBaseSet) same = NULL;

    options.family = "p";
    same = hbase_set_new (fixture->table, row, &options, &error);
    g_assert_false (hbase_set_import_plain (same, fixture->table, row, "p", &n, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  }
}

/* --- bad input ----------------------------------------------------------------------------- */

static void
test_bad_input (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GBytes) key = test_key ("s");
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  g_autoptr(GPtrArray) with_null = sts_members ("a", NULL);
  g_autoptr(GPtrArray) too_long = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) error = NULL;
  HBaseSetOptions options = HBASE_SET_OPTIONS_INIT;
  guint64 n = 99;

  SKIP_IF_UNREACHABLE (fixture);
  g_assert_null (hbase_set_new (fixture->table, NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (hbase_set_new (fixture->table, empty, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (hbase_set_new (NULL, key, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  options.family = "a:b";
  g_assert_null (hbase_set_new (fixture->table, key, &options, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  options.family = NULL;
  options.shards = 70000;
  g_assert_null (hbase_set_new (fixture->table, key, &options, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  set = new_set (fixture, "s", 0, 0);
  g_ptr_array_add (with_null, NULL);
  g_assert_false (hbase_set_add (set, with_null, &n, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_cmpuint (n, ==, 0);
  g_clear_error (&error);
  g_ptr_array_add (too_long, g_bytes_new_take (g_malloc0 (HBASE_SET_MAX_MEMBER_SIZE + 1),
                                               HBASE_SET_MAX_MEMBER_SIZE + 1));
  g_assert_false (hbase_set_add (set, too_long, &n, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_add (set, NULL, &n, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_set_add (NULL, too_long, &n, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  /* nothing was written by any of them */
  g_assert_cmpuint (card_of (set), ==, 0);

  /* the longest member works */
  g_ptr_array_set_size (too_long, 0);
  g_ptr_array_add (too_long, g_bytes_new_take (g_malloc0 (HBASE_SET_MAX_MEMBER_SIZE),
                                               HBASE_SET_MAX_MEMBER_SIZE));
  g_assert_cmpuint (add (set, too_long), ==, 1);

  /* a family the table does not have: HBase's error, nothing half done */
  {
    g_autoptr(HBaseSet) nofamily = NULL;
    g_autoptr(GPtrArray) members = sts_members ("a", NULL);

    options.shards = 0;
    options.family = "nope";
    nofamily = hbase_set_new (fixture->table, key, &options, &error);
    g_assert_no_error (error);
    g_assert_false (hbase_set_add (nofamily, members, &n, NULL, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
  }

  /* a sorted set's row read as a set */
  {
    g_autoptr(GBytes) zkey = test_key ("z");
    HBaseZSetOptions zoptions = HBASE_ZSET_OPTIONS_INIT;
    g_autoptr(HBaseZSet) zset = NULL;
    g_autoptr(GPtrArray) zmembers = sts_members ("a", NULL);
    gdouble score = 1;
    guint64 card = 0;

    zoptions.family = "s";
    zset = hbase_zset_new (fixture->table, zkey, &zoptions, &error);
    g_assert_true (hbase_zset_add (zset, HBASE_ZADD_NONE, zmembers, &score, NULL, NULL, &error));
    g_assert_no_error (error);
    g_clear_object (&set);
    set = new_set (fixture, "z", 0, 0);
    g_assert_false (hbase_set_card (set, &card, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
    g_assert_nonnull (strstr (error->message, "sorted set"));
  }
}

/* --- concurrency ---------------------------------------------------------------------------- */

#define WORKERS 4

typedef struct {
  HBaseSet *set;
  guint seed;
  guint steps;
  gint64 net;        /* added - removed, as the replies said */
} SetWorker;

static gpointer
set_worker (gpointer data)
{
  SetWorker *worker = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (worker->seed);

  for (guint i = 0; i < worker->steps; i++)
    {
      g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      g_autoptr(GError) error = NULL;
      guint n = (guint) g_rand_int_range (rand, 1, 4);
      guint64 changed = 0;

      /* 40 members shared by every worker: constant conflicts */
      for (guint j = 0; j < n; j++)
        g_ptr_array_add (members, sts_random_member (rand, 40));
      if (g_rand_boolean (rand))
        {
          g_assert_true (hbase_set_add (worker->set, members, &changed, NULL, &error));
          worker->net += (gint64) changed;
        }
      else
        {
          g_assert_true (hbase_set_remove (worker->set, members, &changed, NULL, &error));
          worker->net -= (gint64) changed;
        }
      g_assert_no_error (error);
    }
  return NULL;
}

static void
test_concurrent (Fixture *fixture, gconstpointer data)
{
  SKIP_IF_UNREACHABLE (fixture);
  for (guint shards = 1; shards <= 3; shards += 2)
    {
      g_autofree char *suffix = g_strdup_printf ("c%u", shards);
      g_autoptr(HBaseSet) set = new_set (fixture, suffix, shards, 0);
      SetWorker workers[WORKERS];
      GThread *threads[WORKERS];
      g_autoptr(HBaseSetIter) iter = NULL;
      g_autoptr(GPtrArray) members = NULL;
      g_autoptr(GError) error = NULL;
      gint64 net = 0;

      for (guint i = 0; i < WORKERS; i++)
        {
          workers[i].set = set;
          workers[i].seed = 1000 * shards + i;
          workers[i].steps = test_quick () ? 20 : 150;
          workers[i].net = 0;
          threads[i] = g_thread_new ("set-worker", set_worker, &workers[i]);
        }
      for (guint i = 0; i < WORKERS; i++)
        {
          g_thread_join (threads[i]);
          net += workers[i].net;
        }
      /* every add and remove was counted exactly once: the card, the
       * members and the replies agree */
      iter = hbase_set_members (set);
      members = hbase_set_iter_collect (iter, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (net, ==, (gint64) members->len);
      g_assert_cmpuint (card_of (set), ==, members->len);
    }
}

/* every case on the native backend too: a set is the qualifiers of one
 * row, written with mutate_row and check-and-mutate and read with gets
 * and scans */
static const TestTableSuiteOptions native_all = { .native_all = TRUE };

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "basics", test_basics },
    { "binary-members", test_binary_members },
    { "layout", test_layout },
    { "paging", test_paging },
    { "sharded", test_sharded },
    { "scan", test_scan },
    { "random", test_random },
    { "algebra", test_algebra },
    { "plain", test_plain },
    { "bad-input", test_bad_input },
    { "concurrent", test_concurrent },
  };
  static TestTableSuite suite = {
    "/integration/set", "hbase_glib_set", NULL, 0, TEST_GATEWAYS_ENDS
  };

  g_test_init (&argc, &argv, NULL);
  suite.families = sts_families (&suite.n_families);
  test_table_suite_add_full (&suite, &native_all, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
