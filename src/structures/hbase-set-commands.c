/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-set-commands.c: the set commands that change sets according to
 * what they read: SPOP, SMOVE, SINTERSTORE, SUNIONSTORE, SDIFFSTORE, and
 * the one-member form of SRANDMEMBER.
 *
 * Like every change of a set (hbase-set.c), each change of a row here is
 * one checkAndMutate on the row's meta cell, built from a read of the row
 * and retried when another writer changed the row in between.  SPOP uses
 * it as a conditional delete: the members a caller gets are exactly those
 * its successful compare-and-set removed, so no member is ever returned
 * to two callers.  Their _async/_finish pairs are in
 * hbase-set-commands-async.c. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-set.h>

#include "hbase-structures-private.h"
#include "hbase-set-private.h"

/* one compare-and-set writes at most this many members, this many bytes
 * (the limits of hbase-set.c) */
#define CHUNK_MEMBERS 1000
#define CHUNK_BYTES (512 * 1024)

static const guint8 meta_qualifier[1] = { STRUCT_META_QUALIFIER };

static GPtrArray *
bytes_array_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
}

static guint
member_shard (HBaseSet *set, GBytes *member)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (member, &len);

  return set->shards == 1 ? 0 : _hbase_member_hash (data, len) % set->shards;
}

/* The member's qualifier: the member prefix, then the member. */
static GByteArray *
qualifier_of (GBytes *member)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (member, &len);
  GByteArray *qualifier = g_byte_array_sized_new ((guint) len + 1);
  guint8 prefix = STRUCT_MEMBER_PREFIX;

  g_byte_array_append (qualifier, &prefix, 1);
  if (len > 0)
    g_byte_array_append (qualifier, data, (guint) len);
  return qualifier;
}

/* @members grouped by shard: one array (borrowing the members) per shard. */
static GPtrArray *
group_by_shard (HBaseSet *set, GPtrArray *members)
{
  GPtrArray *by_shard = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < set->shards; i++)
    g_ptr_array_add (by_shard, g_ptr_array_new ());
  for (guint i = 0; i < members->len; i++)
    {
      GBytes *member = g_ptr_array_index (members, i);

      g_ptr_array_add (g_ptr_array_index (by_shard, member_shard (set, member)), member);
    }
  return by_shard;
}

/* The members of @all from *@next on that one compare-and-set may write;
 * advances *@next past them. */
static GPtrArray *
next_chunk (GPtrArray *all, guint *next)
{
  GPtrArray *chunk = g_ptr_array_new ();
  gsize bytes = 0;

  for (; *next < all->len && chunk->len < CHUNK_MEMBERS && bytes < CHUNK_BYTES; (*next)++)
    {
      g_ptr_array_add (chunk, g_ptr_array_index (all, *next));
      bytes += g_bytes_get_size (g_ptr_array_index (all, *next)) + 1;
    }
  return chunk;
}

/* --- SPOP ---------------------------------------------------------------------------------- */

/* Removes those of @candidates (distinct, all of shard @shard) that are
 * members, in one compare-and-set retried until it applies, and appends
 * them to @taken: what this call removed, and no other caller did. */
static gboolean
take_from_row (HBaseSet *set, guint shard, GPtrArray *candidates, GPtrArray *taken,
               GCancellable *cancellable, GError **error)
{
  GByteArray *row = _hbase_set_row_of (set, shard);
  gint64 start = g_get_monotonic_time ();

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) results = NULL;
      g_autoptr(GPtrArray) present = g_ptr_array_new ();
      HbaseThriftTGet *get;
      HbaseThriftTResult *result;
      StructMeta old, next;
      StructChange change;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&set->store, attempt, start, cancellable, error))
        return FALSE;
      get = _hbase_sget_new (&set->store, row->data, row->len);
      _hbase_sget_add_column (get, &set->store, meta_qualifier, 1);
      for (guint i = 0; i < candidates->len; i++)
        {
          g_autoptr(GByteArray) qualifier = qualifier_of (g_ptr_array_index (candidates, i));

          _hbase_sget_add_column (get, &set->store, qualifier->data, qualifier->len);
        }
      g_ptr_array_add (gets, get);
      results = _hbase_sget_run (&set->store, gets, cancellable, error);
      if (results == NULL)
        return FALSE;
      result = g_ptr_array_index (results, 0);
      if (!_hbase_result_meta (result, STRUCT_KIND_SET, set->shards, &old, error))
        return FALSE;

      _hbase_change_init (&change);
      for (guint i = 0; i < candidates->len; i++)
        {
          GBytes *member = g_ptr_array_index (candidates, i);
          g_autoptr(GByteArray) qualifier = qualifier_of (member);

          if (_hbase_result_find (result, qualifier->data, qualifier->len) == NULL)
            continue;
          _hbase_change_delete (&change, &set->store, qualifier->data, qualifier->len);
          g_ptr_array_add (present, member);
        }
      if (present->len == 0)
        {
          /* another caller took them all first */
          _hbase_change_clear (&change);
          return TRUE;
        }
      _hbase_meta_next (&old, STRUCT_KIND_SET, set->shards, old.card - (gint64) present->len,
                        _hbase_result_max_timestamp (result) + 1, &next);
      ok = _hbase_change_commit (&set->store, row->data, row->len, &old, &next, &change, &applied,
                                 cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        {
          for (guint i = 0; i < present->len; i++)
            g_ptr_array_add (taken, g_bytes_ref (g_ptr_array_index (present, i)));
          return TRUE;
        }
    }
}

/* Removes those of @candidates (distinct) that are members, shard by
 * shard, appending them to @taken. */
static gboolean
take_members (HBaseSet *set, GPtrArray *candidates, GPtrArray *taken, GCancellable *cancellable,
              GError **error)
{
  g_autoptr(GPtrArray) by_shard = group_by_shard (set, candidates);

  for (guint shard = 0; shard < set->shards; shard++)
    {
      GPtrArray *all = g_ptr_array_index (by_shard, shard);
      guint next = 0;

      while (next < all->len)
        {
          g_autoptr(GPtrArray) chunk = next_chunk (all, &next);

          if (!take_from_row (set, shard, chunk, taken, cancellable, error))
            return FALSE;
        }
    }
  return TRUE;
}

/**
 * hbase_set_pop:
 * @set: a set
 * @count: SPOP's count: how many members to remove (0 for none; negative
 *   is an error, as in Redis)
 * @members: (out) (transfer container) (element-type GBytes): the removed
 *   members, in random order: @count of them, or all when the set has
 *   fewer; empty when the set is
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SPOP with a count: removes random members and returns them.  Members
 * are drawn as by hbase_set_random_members() and removed with a
 * compare-and-set per shard row that deletes only those still present;
 * the caller gets exactly the members its own compare-and-set removed, so
 * concurrent callers never get the same member.  Members another caller
 * took first are replaced by new draws until @count are removed or the
 * set is empty.
 *
 * On an error after some members were removed, they are added back to the
 * set; if that fails too the error message says how many were lost.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_pop (HBaseSet *set, gint64 count, GPtrArray **members, GCancellable *cancellable,
               GError **error)
{
  g_autoptr(GPtrArray) taken = bytes_array_new ();
  GError *local = NULL;

  if (members != NULL)
    *members = NULL;
  if (!_hbase_set_check (set, error))
    return FALSE;
  if (members == NULL)
    return _hbase_illegal (error, "hbase_set_pop needs a place for the members");
  if (count < 0)
    return _hbase_illegal (error, "the count of a pop must not be negative, not %" G_GINT64_FORMAT,
                           count);
  while ((guint64) taken->len < (guint64) count)
    {
      g_autoptr(GPtrArray) candidates = NULL;

      if (!hbase_set_random_members (set, count - (gint64) taken->len, &candidates, cancellable,
                                     &local) ||
          (candidates->len > 0 && !take_members (set, candidates, taken, cancellable, &local)))
        break;
      if (candidates->len == 0)
        break;   /* the set is empty */
    }
  if (local != NULL)
    {
      g_autoptr(GError) restore = NULL;

      if (taken->len > 0 && !hbase_set_add (set, taken, NULL, NULL, &restore))
        g_prefix_error (&local, "%u members were removed and could not be added back (%s): ",
                        taken->len, restore->message);
      g_propagate_error (error, local);
      return FALSE;
    }
  *members = g_steal_pointer (&taken);
  return TRUE;
}

/**
 * hbase_set_pop_one:
 * @set: a set
 * @member: (out) (transfer full) (nullable): the removed member, %NULL when
 *   the set is empty
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SPOP without a count: removes one random member and returns it, with
 * the guarantee of hbase_set_pop() that no two callers get the same
 * member.
 *
 * Returns: %TRUE on success (also when the set was empty)
 *
 * Since: 0.1
 */
gboolean
hbase_set_pop_one (HBaseSet *set, GBytes **member, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) members = NULL;

  if (member != NULL)
    *member = NULL;
  if (member == NULL && set != NULL)
    return _hbase_illegal (error, "hbase_set_pop_one needs a place for the member");
  if (!hbase_set_pop (set, 1, &members, cancellable, error))
    return FALSE;
  if (members->len > 0)
    *member = g_bytes_ref (g_ptr_array_index (members, 0));
  return TRUE;
}

/* --- SRANDMEMBER without a count ----------------------------------------------------------- */

/**
 * hbase_set_random_member:
 * @set: a set
 * @member: (out) (transfer full) (nullable): a random member, %NULL when
 *   the set is empty
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SRANDMEMBER without a count: one member drawn uniformly, read as by
 * hbase_set_random_members() with a count of 1.
 *
 * Returns: %TRUE on success (also when the set is empty)
 *
 * Since: 0.1
 */
gboolean
hbase_set_random_member (HBaseSet *set, GBytes **member, GCancellable *cancellable,
                         GError **error)
{
  g_autoptr(GPtrArray) members = NULL;

  if (member != NULL)
    *member = NULL;
  if (member == NULL && set != NULL)
    return _hbase_illegal (error, "hbase_set_random_member needs a place for the member");
  if (!hbase_set_random_members (set, 1, &members, cancellable, error))
    return FALSE;
  if (members->len > 0)
    *member = g_bytes_ref (g_ptr_array_index (members, 0));
  return TRUE;
}

/* --- SMOVE --------------------------------------------------------------------------------- */

/* Whether two handles name the same set: same client, table, family, key
 * and shards. */
static gboolean
same_set (HBaseSet *a, HBaseSet *b)
{
  if (a == b)
    return TRUE;
  return hbase_table_get_client (a->store.table) == hbase_table_get_client (b->store.table) &&
         g_strcmp0 (hbase_table_get_name (a->store.table),
                    hbase_table_get_name (b->store.table)) == 0 &&
         g_strcmp0 (a->store.family_name, b->store.family_name) == 0 &&
         a->shards == b->shards && g_bytes_equal (a->key, b->key);
}

/**
 * hbase_set_move:
 * @source: the set to take the member from
 * @destination: the set to add it to
 * @member: the member
 * @moved: (out) (optional): whether @member was in @source (SMOVE's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SMOVE: if @member is in @source, removes it from there and adds it to
 * @destination.  The removal is a compare-and-set, so when several
 * callers move (or pop) the same member only one of them gets
 * @moved %TRUE.  Unlike Redis's, the move is two writes: between them the
 * member is in neither set.  If the add fails the member is added back to
 * @source; if that fails too the error message says the member was lost.
 * When both handles name the same set, nothing is written and @moved
 * tells whether @member is in it, as in Redis.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_move (HBaseSet *source, HBaseSet *destination, GBytes *member, gboolean *moved,
                GCancellable *cancellable, GError **error)
{
  GError *local = NULL;
  gboolean removed = FALSE;

  if (moved != NULL)
    *moved = FALSE;
  if (source == NULL || destination == NULL)
    return _hbase_illegal (error, "the %s set of a move is NULL",
                           source == NULL ? "source" : "destination");
  if (member == NULL)
    return _hbase_illegal (error, "the member to move is NULL");
  if (g_bytes_get_size (member) > HBASE_SET_MAX_MEMBER_SIZE)
    return _hbase_illegal (error, "the member is %" G_GSIZE_FORMAT " bytes long; the largest is %d",
                           g_bytes_get_size (member), HBASE_SET_MAX_MEMBER_SIZE);
  if (same_set (source, destination))
    return hbase_set_contains (source, member, moved, cancellable, error);
  if (!hbase_set_remove_one (source, member, &removed, cancellable, error))
    return FALSE;
  if (!removed)
    return TRUE;
  if (!hbase_set_add_one (destination, member, NULL, cancellable, &local))
    {
      g_autoptr(GError) restore = NULL;

      /* not cancellable: the member must not stay in neither set */
      if (hbase_set_add_one (source, member, NULL, NULL, &restore))
        g_prefix_error (&local, "the member was not moved (it is back in the source): ");
      else
        g_prefix_error (&local, "the member was removed from the source and is in neither set "
                        "(adding it back failed: %s): ", restore->message);
      g_propagate_error (error, local);
      return FALSE;
    }
  if (moved != NULL)
    *moved = TRUE;
  return TRUE;
}

/* --- SINTERSTORE, SUNIONSTORE, SDIFFSTORE ------------------------------------------------- */

/* Replaces the members of shard row @shard with @members (all of that
 * shard, distinct, at most one chunk) in one compare-and-set: a family
 * delete under the new cells, so the row goes from its old members to the
 * new ones at once. */
static gboolean
replace_row (HBaseSet *set, guint shard, GPtrArray *members, GCancellable *cancellable,
             GError **error)
{
  GByteArray *row = _hbase_set_row_of (set, shard);
  gint64 start = g_get_monotonic_time ();

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) results = NULL;
      HbaseThriftTGet *get;
      HbaseThriftTResult *result;
      StructMeta old, next;
      StructChange change;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&set->store, attempt, start, cancellable, error))
        return FALSE;
      get = _hbase_sget_new (&set->store, row->data, row->len);
      _hbase_sget_add_column (get, &set->store, meta_qualifier, 1);
      g_ptr_array_add (gets, get);
      results = _hbase_sget_run (&set->store, gets, cancellable, error);
      if (results == NULL)
        return FALSE;
      result = g_ptr_array_index (results, 0);
      if (!_hbase_result_meta (result, STRUCT_KIND_SET, set->shards, &old, error))
        return FALSE;
      if (members->len == 0 && (!old.present || old.card == 0))
        return TRUE;   /* empty, and to stay so */

      _hbase_change_init (&change);
      change.delete_family = TRUE;
      for (guint i = 0; i < members->len; i++)
        {
          g_autoptr(GByteArray) qualifier = qualifier_of (g_ptr_array_index (members, i));

          _hbase_change_put (&change, &set->store, qualifier->data, qualifier->len, NULL, 0);
        }
      _hbase_meta_next (&old, STRUCT_KIND_SET, set->shards, (gint64) members->len,
                        _hbase_result_max_timestamp (result) + 1, &next);
      ok = _hbase_change_commit (&set->store, row->data, row->len, &old, &next, &change, &applied,
                                 cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        return TRUE;
    }
}

/* Makes @members (distinct) the members of @destination: each shard row
 * is replaced with its first chunk atomically, the rest is added after. */
static gboolean
replace_members (HBaseSet *destination, GPtrArray *members, GCancellable *cancellable,
                 GError **error)
{
  g_autoptr(GPtrArray) by_shard = group_by_shard (destination, members);

  for (guint shard = 0; shard < destination->shards; shard++)
    {
      GPtrArray *all = g_ptr_array_index (by_shard, shard);
      guint next = 0;
      g_autoptr(GPtrArray) first = next_chunk (all, &next);

      if (!replace_row (destination, shard, first, cancellable, error))
        return FALSE;
      if (next < all->len)
        {
          g_autoptr(GPtrArray) rest = g_ptr_array_new ();

          for (; next < all->len; next++)
            g_ptr_array_add (rest, g_ptr_array_index (all, next));
          if (!hbase_set_add (destination, rest, NULL, cancellable, error))
            return FALSE;
        }
    }
  return TRUE;
}

typedef HBaseSetIter *(*CombineFunc) (GPtrArray *sets, GError **error);

/* Reads the whole result of @combine over @sets, then writes it to
 * @destination, so @destination may be one of @sets. */
static gboolean
store_combination (HBaseSet *destination, GPtrArray *sets, CombineFunc combine, guint64 *card,
                   GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseSetIter) iter = NULL;
  g_autoptr(GPtrArray) members = NULL;

  if (card != NULL)
    *card = 0;
  if (destination == NULL)
    return _hbase_illegal (error, "the destination set is NULL");
  iter = combine (sets, error);
  if (iter == NULL)
    return FALSE;
  members = hbase_set_iter_collect (iter, cancellable, error);
  if (members == NULL || !replace_members (destination, members, cancellable, error))
    return FALSE;
  if (card != NULL)
    *card = members->len;
  return TRUE;
}

/**
 * hbase_set_intersect_store:
 * @destination: the set to write the result to (it may be one of @sets)
 * @sets: (element-type HBaseSet): one or more sets (a missing set is
 *   empty)
 * @card: (out) (optional): the number of members of the result
 *   (SINTERSTORE's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SINTERSTORE: computes hbase_set_intersect() of @sets, then replaces the
 * members of @destination with the result (an empty result leaves
 * @destination empty).  The result is read in full before anything is
 * written, and held in memory.  Unlike Redis's, the command is not one
 * atomic step: changes to @sets while it runs may or may not be seen, and
 * readers of @destination see its old or its new members row by row
 * (atomically for each shard row whose part of the result is at most 1000
 * members and 512 KiB, in steps beyond).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_intersect_store (HBaseSet *destination, GPtrArray *sets, guint64 *card,
                           GCancellable *cancellable, GError **error)
{
  return store_combination (destination, sets, hbase_set_intersect, card, cancellable, error);
}

/**
 * hbase_set_union_store:
 * @destination: the set to write the result to (it may be one of @sets)
 * @sets: (element-type HBaseSet): one or more sets
 * @card: (out) (optional): the number of members of the result
 *   (SUNIONSTORE's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SUNIONSTORE: hbase_set_union() of @sets written to @destination, as
 * hbase_set_intersect_store() does.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_union_store (HBaseSet *destination, GPtrArray *sets, guint64 *card,
                       GCancellable *cancellable, GError **error)
{
  return store_combination (destination, sets, hbase_set_union, card, cancellable, error);
}

/**
 * hbase_set_diff_store:
 * @destination: the set to write the result to (it may be one of @sets)
 * @sets: (element-type HBaseSet): one or more sets: the members of the
 *   first that are in none of the others
 * @card: (out) (optional): the number of members of the result
 *   (SDIFFSTORE's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SDIFFSTORE: hbase_set_diff() of @sets written to @destination, as
 * hbase_set_intersect_store() does.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_diff_store (HBaseSet *destination, GPtrArray *sets, guint64 *card,
                      GCancellable *cancellable, GError **error)
{
  return store_combination (destination, sets, hbase_set_diff, card, cancellable, error);
}
