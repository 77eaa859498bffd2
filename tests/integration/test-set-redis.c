/* SPDX-License-Identifier: Apache-2.0 */
/* Differential test of HBaseSet against a real redis-server: long random
 * sequences of set commands (several fixed seeds, binary and non-ASCII
 * members, plain and sharded sets, pages smaller than the sets) applied
 * both to HBase through hbase-glib and to Redis, every reply compared:
 * SADD, SREM (many members), SISMEMBER, SMISMEMBER, SCARD, SMEMBERS,
 * SRANDMEMBER (every count kind, and without one), SINTER, SUNION, SDIFF,
 * SSCAN, SPOP (with and without a count), SMOVE (the same set as source
 * and destination too), SINTERSTORE, SUNIONSTORE, SDIFFSTORE (the
 * destination among the sources too).
 *
 * Redis is the stack's (HBASE_GLIB_TEST_REDIS, default 127.0.0.1:6379);
 * keys are prefixed with this run's pid and removed at the end.
 * HBASE_GLIB_TEST_QUICK=1 runs fewer steps. */
#include "config.h"

#include <string.h>

#include "../structures/structures-support.h"
#include "../support/test-rows.h"

#define N_SETS 4
#define UNIVERSE 70

typedef struct {
  StsDiff diff;
  HBaseSet *sets[N_SETS];
  GBytes *keys[N_SETS];       /* Redis keys */
} Run;

/* --- Redis side ----------------------------------------------------------------------------- */

static redisReply *
redis_call (Run *run, const char *command, guint set, GPtrArray *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  g_ptr_array_add (argv, sts_bytes (command));
  if (set < N_SETS)
    g_ptr_array_add (argv, g_bytes_ref (run->keys[set]));
  for (guint i = 0; args != NULL && i < args->len; i++)
    g_ptr_array_add (argv, g_bytes_ref (g_ptr_array_index (args, i)));
  return sts_redis_command (run->diff.redis, argv);
}

/* The strings of an array reply, sorted by bytes. */
static GPtrArray *
redis_sorted (Run *run, redisReply *reply)
{
  GPtrArray *members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  if (reply->type != REDIS_REPLY_ARRAY)
    sts_diff_mismatch (&run->diff, "Redis replied type %d (%s), not an array", reply->type,
                       reply->str != NULL ? reply->str : "");
  for (size_t i = 0; i < reply->elements; i++)
    g_ptr_array_add (members, g_bytes_new (reply->element[i]->str, reply->element[i]->len));
  g_ptr_array_sort (members, sts_compare_members);
  return members;
}

/* --- helpers -------------------------------------------------------------------------------- */

static void
same_members (Run *run, const char *what, GPtrArray *ours, GPtrArray *theirs)
{
  g_autofree char *a = sts_join (ours);
  g_autofree char *b = sts_join (theirs);

  if (g_strcmp0 (a, b) != 0)
    sts_diff_mismatch (&run->diff, "%s: hbase-glib [%s], Redis [%s]", what, a, b);
}

static GPtrArray *
random_members (Run *run, guint max)
{
  GPtrArray *members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint n = (guint) g_rand_int_range (run->diff.rand, 1, (gint32) max + 1);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (members, sts_random_member (run->diff.rand, UNIVERSE));
  return members;
}

static GPtrArray *
collect (Run *run, HBaseSetIter *iter, const char *what)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *members = hbase_set_iter_collect (iter, NULL, &error);

  if (members == NULL)
    sts_diff_mismatch (&run->diff, "%s failed: %s", what, error->message);
  hbase_set_iter_unref (iter);
  return members;
}

/* --- one step --------------------------------------------------------------------------------- */

static void
step_sadd_srem (Run *run, gboolean add)
{
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  g_autoptr(GPtrArray) members = random_members (run, 5);
  g_autofree char *shown = sts_join (members);
  g_autoptr(GError) error = NULL;
  redisReply *reply;
  guint64 n = 0;
  gint64 expected;

  sts_diff_note (&run->diff, "%s set%u [%s]", add ? "SADD" : "SREM", set, shown);
  if (!(add ? hbase_set_add : hbase_set_remove) (run->sets[set], members, &n, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  reply = redis_call (run, add ? "SADD" : "SREM", set, members);
  expected = sts_diff_integer (&run->diff, reply);
  freeReplyObject (reply);
  if ((gint64) n != expected)
    sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %" G_GINT64_FORMAT, n,
                       expected);
}

static void
step_membership (Run *run)
{
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  g_autoptr(GPtrArray) members = random_members (run, 6);
  g_autofree char *shown = sts_join (members);
  g_autofree gboolean *present = g_new0 (gboolean, members->len);
  g_autoptr(GError) error = NULL;
  redisReply *reply;

  if (members->len == 1)
    {
      gboolean is_member = FALSE;

      sts_diff_note (&run->diff, "SISMEMBER set%u %s", set, shown);
      if (!hbase_set_contains (run->sets[set], g_ptr_array_index (members, 0), &is_member, NULL,
                               &error))
        sts_diff_mismatch (&run->diff, "failed: %s", error->message);
      reply = redis_call (run, "SISMEMBER", set, members);
      if (sts_diff_integer (&run->diff, reply) != is_member)
        sts_diff_mismatch (&run->diff, "hbase-glib %d, Redis %lld", is_member, reply->integer);
      freeReplyObject (reply);
      return;
    }
  sts_diff_note (&run->diff, "SMISMEMBER set%u [%s]", set, shown);
  if (!hbase_set_contains_many (run->sets[set], members, present, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  reply = redis_call (run, "SMISMEMBER", set, members);
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != members->len)
    sts_diff_mismatch (&run->diff, "Redis's reply is not %u flags", members->len);
  for (guint i = 0; i < members->len; i++)
    if (reply->element[i]->integer != present[i])
      sts_diff_mismatch (&run->diff, "member %u: hbase-glib %d, Redis %lld", i, present[i],
                         reply->element[i]->integer);
  freeReplyObject (reply);
}

static void
step_card_members (Run *run)
{
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ours = NULL;
  g_autoptr(GPtrArray) theirs = NULL;
  redisReply *reply;
  guint64 card = 0;

  sts_diff_note (&run->diff, "SCARD, SMEMBERS set%u", set);
  if (!hbase_set_card (run->sets[set], &card, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  reply = redis_call (run, "SCARD", set, NULL);
  if ((gint64) card != sts_diff_integer (&run->diff, reply))
    sts_diff_mismatch (&run->diff, "SCARD: hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", card,
                       reply->integer);
  freeReplyObject (reply);
  ours = collect (run, hbase_set_members (run->sets[set]), "members");
  reply = redis_call (run, "SMEMBERS", set, NULL);
  theirs = redis_sorted (run, reply);
  freeReplyObject (reply);
  same_members (run, "SMEMBERS", ours, theirs);
}

static void
step_algebra (Run *run)
{
  static const char *const commands[] = { "SINTER", "SUNION", "SDIFF" };
  guint which = (guint) g_rand_int_range (run->diff.rand, 0, 3);
  guint n = (guint) g_rand_int_range (run->diff.rand, 1, 4);
  g_autoptr(GPtrArray) sets = g_ptr_array_new ();
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) ours = NULL;
  g_autoptr(GPtrArray) theirs = NULL;
  GString *names = g_string_new (NULL);
  redisReply *reply;

  for (guint i = 0; i < n; i++)
    {
      guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);

      g_ptr_array_add (sets, run->sets[set]);
      g_ptr_array_add (keys, g_bytes_ref (run->keys[set]));
      g_string_append_printf (names, " set%u", set);
    }
  sts_diff_note (&run->diff, "%s%s", commands[which], names->str);
  g_string_free (names, TRUE);
  switch (which)
    {
    case 0:
      ours = collect (run, hbase_set_intersect (sets, NULL), "intersect");
      break;
    case 1:
      ours = collect (run, hbase_set_union (sets, NULL), "union");
      break;
    default:
      ours = collect (run, hbase_set_diff (sets, NULL), "diff");
      break;
    }
  /* ours come sorted already: check, then compare with Redis's, sorted */
  for (guint i = 1; i < ours->len; i++)
    if (sts_compare_members (&ours->pdata[i - 1], &ours->pdata[i]) >= 0)
      sts_diff_mismatch (&run->diff, "the stream is not in byte order at %u", i);
  reply = redis_call (run, commands[which], N_SETS, keys);
  theirs = redis_sorted (run, reply);
  freeReplyObject (reply);
  same_members (run, commands[which], ours, theirs);
}

static void
step_random (Run *run)
{
  static const gint64 counts[] = { 1, 2, 5, 40, 100, -1, -3, -60, 0 };
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  gint64 count = counts[g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (counts))];
  g_autoptr(GPtrArray) ours = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GHashTable) distinct = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  g_autoptr(GError) error = NULL;
  redisReply *reply;

  sts_diff_note (&run->diff, "SRANDMEMBER set%u %" G_GINT64_FORMAT, set, count);
  if (!hbase_set_random_members (run->sets[set], count, &ours, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  {
    char *text = g_strdup_printf ("%" G_GINT64_FORMAT, count);

    g_ptr_array_add (args, g_bytes_new_take (text, strlen (text)));
  }
  reply = redis_call (run, "SRANDMEMBER", set, args);
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != ours->len)
    sts_diff_mismatch (&run->diff, "hbase-glib gave %u members, Redis %zu", ours->len,
                       reply->elements);
  freeReplyObject (reply);
  if (ours->len == 0)
    return;
  /* random, so: members of the set (as Redis says), distinct for count > 0 */
  reply = redis_call (run, "SMISMEMBER", set, ours);
  for (guint i = 0; i < ours->len; i++)
    {
      if (reply->element[i]->integer != 1)
        sts_diff_mismatch (&run->diff, "SRANDMEMBER gave a non-member");
      g_hash_table_add (distinct, g_ptr_array_index (ours, i));
    }
  freeReplyObject (reply);
  if (count > 0 && g_hash_table_size (distinct) != ours->len)
    sts_diff_mismatch (&run->diff, "SRANDMEMBER %" G_GINT64_FORMAT " repeated a member", count);
}

static void
step_scan (Run *run)
{
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  guint count = (guint) g_rand_int_range (run->diff.rand, 1, 30);
  g_autoptr(GPtrArray) ours = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) theirs = NULL;
  g_autoptr(GBytes) cursor = NULL;
  redisReply *reply;

  sts_diff_note (&run->diff, "SSCAN set%u COUNT %u (whole)", set, count);
  do
    {
      g_autoptr(GPtrArray) members = NULL;
      g_autoptr(GError) error = NULL;
      GBytes *next = NULL;

      if (!hbase_set_scan (run->sets[set], cursor, count, &next, &members, NULL, &error))
        sts_diff_mismatch (&run->diff, "failed: %s", error->message);
      for (guint i = 0; i < members->len; i++)
        g_ptr_array_add (ours, g_bytes_ref (g_ptr_array_index (members, i)));
      g_clear_pointer (&cursor, g_bytes_unref);
      cursor = next;
    }
  while (cursor != NULL);
  g_ptr_array_sort (ours, sts_compare_members);
  reply = redis_call (run, "SMEMBERS", set, NULL);
  theirs = redis_sorted (run, reply);
  freeReplyObject (reply);
  same_members (run, "SSCAN", ours, theirs);
}

/* --- commands that write what they read --------------------------------------------------------- */

static GPtrArray *
count_args (gint64 count)
{
  GPtrArray *args = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  char *text = g_strdup_printf ("%" G_GINT64_FORMAT, count);

  g_ptr_array_add (args, g_bytes_new_take (text, strlen (text)));
  return args;
}

/* Random, so: as many members as Redis's SPOP (run on Redis's copy of the
 * same set) gave, distinct, all members before; then Redis's copy is made
 * to lose our members instead of its own, so the two stay equal. */
static void
step_spop (Run *run)
{
  static const gint64 counts[] = { -1, 0, 1, 2, 5, 100, G_MININT64 };
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  gint64 count = counts[g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (counts))];
  gboolean single = count == G_MININT64;
  g_autoptr(GPtrArray) ours = NULL;
  g_autoptr(GPtrArray) theirs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) args = single ? NULL : count_args (count);
  g_autoptr(GHashTable) before = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                        (GDestroyNotify) g_bytes_unref, NULL);
  g_autoptr(GHashTable) distinct = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  g_autoptr(GError) error = NULL;
  redisReply *reply;
  gboolean ok;

  if (single)
    sts_diff_note (&run->diff, "SPOP set%u", set);
  else
    sts_diff_note (&run->diff, "SPOP set%u %" G_GINT64_FORMAT, set, count);
  reply = redis_call (run, "SMEMBERS", set, NULL);
  for (size_t i = 0; i < reply->elements; i++)
    g_hash_table_add (before, g_bytes_new (reply->element[i]->str, reply->element[i]->len));
  freeReplyObject (reply);

  if (single)
    {
      GBytes *member = NULL;

      ok = hbase_set_pop_one (run->sets[set], &member, NULL, &error);
      ours = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      if (member != NULL)
        g_ptr_array_add (ours, member);
    }
  else
    ok = hbase_set_pop (run->sets[set], count, &ours, NULL, &error);
  reply = redis_call (run, "SPOP", set, args);
  if (reply->type == REDIS_REPLY_ERROR)
    {
      if (ok || !g_error_matches (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT))
        sts_diff_mismatch (&run->diff, "Redis refused (%s), hbase-glib %s", reply->str,
                           ok ? "did not" : error->message);
      freeReplyObject (reply);
      return;
    }
  if (!ok)
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  if (reply->type == REDIS_REPLY_STRING)
    g_ptr_array_add (theirs, g_bytes_new (reply->str, reply->len));
  else if (reply->type == REDIS_REPLY_ARRAY)
    for (size_t i = 0; i < reply->elements; i++)
      g_ptr_array_add (theirs, g_bytes_new (reply->element[i]->str, reply->element[i]->len));
  else if (reply->type != REDIS_REPLY_NIL)
    sts_diff_mismatch (&run->diff, "Redis replied type %d", reply->type);
  freeReplyObject (reply);
  if (ours->len != theirs->len)
    sts_diff_mismatch (&run->diff, "hbase-glib popped %u members, Redis %u", ours->len,
                       theirs->len);
  for (guint i = 0; i < ours->len; i++)
    {
      if (!g_hash_table_contains (before, ours->pdata[i]))
        sts_diff_mismatch (&run->diff, "SPOP gave a non-member");
      if (!g_hash_table_add (distinct, ours->pdata[i]))
        sts_diff_mismatch (&run->diff, "SPOP gave a member twice");
    }
  /* Redis's copy: back what it popped, out what we popped */
  if (theirs->len > 0)
    freeReplyObject (redis_call (run, "SADD", set, theirs));
  if (ours->len > 0)
    freeReplyObject (redis_call (run, "SREM", set, ours));
}

/* SRANDMEMBER without a count: nil for an empty set, else a member. */
static void
step_random_one (Run *run)
{
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  g_autoptr(GBytes) member = NULL;
  g_autoptr(GPtrArray) probe = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  redisReply *reply;

  sts_diff_note (&run->diff, "SRANDMEMBER set%u", set);
  if (!hbase_set_random_member (run->sets[set], &member, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  reply = redis_call (run, "SRANDMEMBER", set, NULL);
  if ((reply->type == REDIS_REPLY_NIL) != (member == NULL))
    sts_diff_mismatch (&run->diff, "hbase-glib gave %s, Redis replied type %d",
                       member != NULL ? "a member" : "none", reply->type);
  freeReplyObject (reply);
  if (member == NULL)
    return;
  g_ptr_array_add (probe, member);
  reply = redis_call (run, "SISMEMBER", set, probe);
  if (sts_diff_integer (&run->diff, reply) != 1)
    sts_diff_mismatch (&run->diff, "SRANDMEMBER gave a non-member");
  freeReplyObject (reply);
}

static void
step_smove (Run *run)
{
  guint source = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  guint destination = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  g_autoptr(GBytes) member = sts_random_member (run->diff.rand, UNIVERSE);
  g_autofree char *shown = sts_show (member);
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) error = NULL;
  gboolean moved = FALSE;
  redisReply *reply;

  sts_diff_note (&run->diff, "SMOVE set%u set%u %s", source, destination, shown);
  if (!hbase_set_move (run->sets[source], run->sets[destination], member, &moved, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  g_ptr_array_add (args, g_bytes_ref (run->keys[destination]));
  g_ptr_array_add (args, g_bytes_ref (member));
  reply = redis_call (run, "SMOVE", source, args);
  if (sts_diff_integer (&run->diff, reply) != moved)
    sts_diff_mismatch (&run->diff, "hbase-glib %d, Redis %lld", moved, reply->integer);
  freeReplyObject (reply);
}

static void
step_store (Run *run)
{
  static const char *const commands[] = { "SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE" };
  guint which = (guint) g_rand_int_range (run->diff.rand, 0, 3);
  guint destination = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);
  guint n = (guint) g_rand_int_range (run->diff.rand, 1, 4);
  g_autoptr(GPtrArray) sets = g_ptr_array_new ();
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) ours = NULL;
  g_autoptr(GPtrArray) theirs = NULL;
  g_autoptr(GError) error = NULL;
  GString *names = g_string_new (NULL);
  guint64 card = 0;
  gboolean ok;
  redisReply *reply;

  g_ptr_array_add (keys, g_bytes_ref (run->keys[destination]));
  for (guint i = 0; i < n; i++)
    {
      guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_SETS);

      g_ptr_array_add (sets, run->sets[set]);
      g_ptr_array_add (keys, g_bytes_ref (run->keys[set]));
      g_string_append_printf (names, " set%u", set);
    }
  sts_diff_note (&run->diff, "%s set%u%s", commands[which], destination, names->str);
  g_string_free (names, TRUE);
  ok = (which == 0 ? hbase_set_intersect_store
        : which == 1 ? hbase_set_union_store
        : hbase_set_diff_store) (run->sets[destination], sets, &card, NULL, &error);
  if (!ok)
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  reply = redis_call (run, commands[which], N_SETS, keys);
  if ((gint64) card != sts_diff_integer (&run->diff, reply))
    sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", card,
                       reply->integer);
  freeReplyObject (reply);
  ours = collect (run, hbase_set_members (run->sets[destination]), "members");
  reply = redis_call (run, "SMEMBERS", destination, NULL);
  theirs = redis_sorted (run, reply);
  freeReplyObject (reply);
  same_members (run, commands[which], ours, theirs);
}

static void
run_case (TestTableFixture *fixture, gconstpointer data)
{
  guint32 seed = GPOINTER_TO_UINT (fixture->data);
  HBaseTable *table = fixture->table;
  guint steps = test_quick () ? 150 : 1500;
  Run run = { 0 };

  TEST_SKIP_IF_UNREACHABLE (fixture);
  if (!sts_diff_start (&run.diff, "set", seed))
    return;
  for (guint i = 0; i < N_SETS; i++)
    {
      HBaseSetOptions options = HBASE_SET_OPTIONS_INIT;
      g_autofree char *name = g_strdup_printf ("%sk%u", run.diff.prefix, i);
      g_autoptr(GError) error = NULL;

      /* set 3 is sharded; pages smaller than the sets */
      options.shards = i == 3 ? 4 : 0;
      options.page_size = 3 + i * 4;
      run.keys[i] = sts_bytes (name);
      run.sets[i] = hbase_set_new (table, run.keys[i], &options, &error);
      g_assert_no_error (error);
    }
  for (run.diff.step = 0; run.diff.step < steps; run.diff.step++)
    {
      guint op = (guint) g_rand_int_range (run.diff.rand, 0, 100);

      if (op < 27)
        step_sadd_srem (&run, TRUE);
      else if (op < 40)
        step_sadd_srem (&run, FALSE);
      else if (op < 50)
        step_membership (&run);
      else if (op < 58)
        step_card_members (&run);
      else if (op < 66)
        step_algebra (&run);
      else if (op < 71)
        step_random (&run);
      else if (op < 74)
        step_random_one (&run);
      else if (op < 77)
        step_scan (&run);
      else if (op < 84)
        step_spop (&run);
      else if (op < 92)
        step_smove (&run);
      else
        step_store (&run);
    }
  /* the end state, all sets */
  for (guint i = 0; i < N_SETS; i++)
    {
      g_autoptr(GPtrArray) ours = collect (&run, hbase_set_members (run.sets[i]), "members");
      redisReply *reply = redis_call (&run, "SMEMBERS", i, NULL);
      g_autoptr(GPtrArray) theirs = redis_sorted (&run, reply);

      freeReplyObject (reply);
      same_members (&run, "final SMEMBERS", ours, theirs);
      g_test_message ("seed %u: set%u ends with %u members", seed, i, ours->len);
    }
  for (guint i = 0; i < N_SETS; i++)
    {
      g_object_unref (run.sets[i]);
      g_bytes_unref (run.keys[i]);
    }
  sts_diff_finish (&run.diff);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  return sts_diff_run ("/integration/set-redis", "hbase_glib_set_redis", run_case);
}
