/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset-trim.c: removing ranges (ZREMRANGEBYSCORE, ZREMRANGEBYRANK,
 * ZREMRANGEBYLEX), and the reads that answer with arrays: ZMSCORE and
 * ZRANDMEMBER.
 *
 * A range removal reads the meta cell, then the entries of the range, and
 * removes them with one compare-and-set on that meta cell: if anything
 * changed the set in between, the check fails and everything is read
 * again, so the removal is atomic.  A range of more than 1000 members is
 * removed in groups of 1000 (each atomic, and a member is removed only if
 * it still has the score it had in the range). */
#include "config.h"

#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"
#include "hbase-zset-private.h"

/* ZRANDMEMBER reads the whole set when it draws at least this share of it */
#define RANDOM_READ_ALL_DIVISOR 4

typedef gboolean (*RangeReader) (HBaseZSet     *zset,
                                 gconstpointer  data,
                                 GPtrArray     *entries,
                                 GCancellable  *cancellable,
                                 GError       **error);

/* Removes @entries[from, from + n) if each still has its score. */
static gboolean
remove_group (HBaseZSet *zset, GPtrArray *entries, guint from, guint n, guint64 *n_removed,
              GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new ();
  g_autofree Current *before = g_new0 (Current, n);
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (members, ((HBaseZSetEntry *) g_ptr_array_index (entries, from + i))->member);
  for (guint attempt = 0;; attempt++)
    {
      StructMeta old, next;
      StructChange change;
      gint64 max_timestamp = 0;
      guint removed = 0;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&zset->store, attempt, start, cancellable, error) ||
          !_hbase_zset_read_current (zset, members, &old, before, &max_timestamp, cancellable, error))
        return FALSE;
      _hbase_change_init (&change);
      for (guint i = 0; i < n; i++)
        {
          HBaseZSetEntry *entry = g_ptr_array_index (entries, from + i);
          Current gone = { FALSE, 0 };

          if (!before[i].present || before[i].score != entry->score)
            continue;
          _hbase_zset_change_member (&change, &zset->store, entry->member, &before[i], &gone);
          removed++;
        }
      if (removed == 0)
        {
          _hbase_change_clear (&change);
          return TRUE;
        }
      _hbase_meta_next (&old, STRUCT_KIND_ZSET, 1, MAX (old.card - (gint64) removed, 0),
                        max_timestamp + 1, &next);
      ok = _hbase_change_commit (&zset->store, zset->row->data, zset->row->len, &old, &next,
                                 &change, &applied, cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        {
          *n_removed += removed;
          return TRUE;
        }
    }
}

static gboolean
remove_read (HBaseZSet *zset, RangeReader read, gconstpointer data, guint64 *n_removed,
             GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  gint64 start = g_get_monotonic_time ();
  guint64 total = 0;

  if (n_removed != NULL)
    *n_removed = 0;
  if (!_hbase_zset_check (zset, error))
    return FALSE;
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);
      StructMeta old, next;
      StructChange change;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&zset->store, attempt, start, cancellable, error) ||
          !_hbase_zset_read_current (zset, none, &old, NULL, NULL, cancellable, error))
        return FALSE;
      if (!old.present || old.card == 0)
        return TRUE;
      if (!read (zset, data, entries, cancellable, error))
        return FALSE;
      if (entries->len == 0)
        return TRUE;
      if (entries->len > CHUNK_MEMBERS)
        {
          for (guint i = 0; i < entries->len; i += CHUNK_MEMBERS)
            {
              ok = remove_group (zset, entries, i, MIN (CHUNK_MEMBERS, entries->len - i), &total,
                                 cancellable, error);
              if (n_removed != NULL)
                *n_removed = total;
              if (!ok)
                return FALSE;
            }
          return TRUE;
        }
      _hbase_change_init (&change);
      for (guint i = 0; i < entries->len; i++)
        {
          HBaseZSetEntry *entry = g_ptr_array_index (entries, i);
          Current before = { TRUE, entry->score }, gone = { FALSE, 0 };

          _hbase_zset_change_member (&change, &zset->store, entry->member, &before, &gone);
        }
      _hbase_meta_next (&old, STRUCT_KIND_ZSET, 1, MAX (old.card - (gint64) entries->len, 0), 0,
                        &next);
      ok = _hbase_change_commit (&zset->store, zset->row->data, zset->row->len, &old, &next,
                                 &change, &applied, cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        {
          if (n_removed != NULL)
            *n_removed = entries->len;
          return TRUE;
        }
    }
}

static gboolean
append_collected (HBaseZSetIter *iter, GPtrArray *entries, GCancellable *cancellable,
                  GError **error)
{
  g_autoptr(GPtrArray) read = hbase_zset_iter_collect (iter, cancellable, error);

  hbase_zset_iter_unref (iter);
  if (read == NULL)
    return FALSE;
  for (guint i = 0; i < read->len; i++)
    g_ptr_array_add (entries, hbase_zset_entry_copy (g_ptr_array_index (read, i)));
  return TRUE;
}

static gboolean
read_score_range (HBaseZSet *zset, gconstpointer data, GPtrArray *entries,
                  GCancellable *cancellable, GError **error)
{
  return append_collected (hbase_zset_range_by_score (zset, data, FALSE, 0, -1), entries,
                           cancellable, error);
}

static gboolean
read_rank_range (HBaseZSet *zset, gconstpointer data, GPtrArray *entries,
                 GCancellable *cancellable, GError **error)
{
  const gint64 *ranks = data;

  return append_collected (hbase_zset_range_by_rank (zset, ranks[0], ranks[1], FALSE), entries,
                           cancellable, error);
}

static gboolean
read_lex_range (HBaseZSet *zset, gconstpointer data, GPtrArray *entries,
                GCancellable *cancellable, GError **error)
{
  GBytes *const *bounds = data;

  return _hbase_zset_lex_entries (zset, bounds[0], bounds[1], FALSE, 0, -1, entries, cancellable,
                                  error);
}

/**
 * hbase_zset_remove_range_by_score:
 * @zset: a sorted set
 * @range: the scores to remove
 * @n_removed: (out) (optional): how many members were removed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZREMRANGEBYSCORE.  Atomic for up to 1000 members: the range is read
 * (on the server, as hbase_zset_range_by_score() reads it) and removed
 * with one compare-and-set of the row, retried if another writer came in
 * between.  Larger ranges are removed in atomic groups of 1000; on an
 * error @n_removed counts the members removed.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove_range_by_score (HBaseZSet *zset, const HBaseScoreRange *range,
                                  guint64 *n_removed, GCancellable *cancellable, GError **error)
{
  if (n_removed != NULL)
    *n_removed = 0;
  if (!_hbase_zset_check_range (range, error))
    return FALSE;
  return remove_read (zset, read_score_range, range, n_removed, cancellable, error);
}

/**
 * hbase_zset_remove_range_by_rank:
 * @zset: a sorted set
 * @start: the first rank to remove (0 the lowest score), negative
 *   counting from the end (-1 the highest)
 * @stop: the last rank to remove (inclusive), negative counting from the
 *   end
 * @n_removed: (out) (optional): how many members were removed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZREMRANGEBYRANK, with Redis's treatment of out-of-range ranks, atomic
 * as hbase_zset_remove_range_by_score() is.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove_range_by_rank (HBaseZSet *zset, gint64 start, gint64 stop, guint64 *n_removed,
                                 GCancellable *cancellable, GError **error)
{
  const gint64 ranks[2] = { start, stop };

  return remove_read (zset, read_rank_range, ranks, n_removed, cancellable, error);
}

/**
 * hbase_zset_remove_range_by_lex:
 * @zset: a sorted set
 * @min: the lower bound, as for hbase_zset_range_by_lex()
 * @max: the upper bound
 * @n_removed: (out) (optional): how many members were removed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZREMRANGEBYLEX: removes what hbase_zset_range_by_lex() returns for the
 * same bounds, atomic as hbase_zset_remove_range_by_score() is.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove_range_by_lex (HBaseZSet *zset, GBytes *min, GBytes *max, guint64 *n_removed,
                                GCancellable *cancellable, GError **error)
{
  GBytes *const bounds[2] = { min, max };
  g_autoptr(GPtrArray) none = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);

  if (n_removed != NULL)
    *n_removed = 0;
  /* bad bounds are an error even on an empty set */
  if (!_hbase_zset_check (zset, error) ||
      !_hbase_zset_lex_entries (zset, min, max, FALSE, 0, 0, none, cancellable, error))
    return FALSE;
  return remove_read (zset, read_lex_range, bounds, n_removed, cancellable, error);
}

/* --- ZMSCORE ------------------------------------------------------------------------------- */

/**
 * hbase_zset_mscore:
 * @zset: a sorted set
 * @members: (element-type GBytes): the members
 * @scores: (out) (transfer full) (element-type gdouble): one score per
 *   member, NaN for a missing one
 * @found: (out) (optional) (transfer full) (element-type gboolean):
 *   whether each member is in the set
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZMSCORE, in one get, with arrays that bindings can read (the same as
 * hbase_zset_scores()).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_mscore (HBaseZSet *zset, GPtrArray *members, GArray **scores, GArray **found,
                   GCancellable *cancellable, GError **error)
{
  g_autoptr(GArray) s = NULL;
  g_autoptr(GArray) f = NULL;

  if (scores != NULL)
    *scores = NULL;
  if (found != NULL)
    *found = NULL;
  if (scores == NULL)
    return _hbase_illegal (error, "hbase_zset_mscore needs a place for the scores");
  if (!_hbase_check_members (members, HBASE_ZSET_MAX_MEMBER_SIZE, error))
    return FALSE;
  s = g_array_sized_new (FALSE, TRUE, sizeof (gdouble), members->len);
  f = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), members->len);
  g_array_set_size (s, members->len);
  g_array_set_size (f, members->len);
  if (!hbase_zset_scores (zset, members, (gboolean *) (gpointer) f->data, (gdouble *) (gpointer) s->data,
                          cancellable, error))
    return FALSE;
  *scores = g_steal_pointer (&s);
  if (found != NULL)
    *found = g_steal_pointer (&f);
  return TRUE;
}

/* --- ZRANDMEMBER --------------------------------------------------------------------------- */

/* The entries at @positions (distinct, < the cardinality) of the
 * ascending cells, one server-side skip each, in one request. */
static gboolean
read_positions (HBaseZSet *zset, GArray *positions, GHashTable *at, GCancellable *cancellable,
                GError **error)
{
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) results = NULL;
  guint8 lo = STRUCT_SCORE_PREFIX, hi = STRUCT_SCORE_PREFIX + 1;

  for (guint i = 0; i < positions->len; i++)
    {
      HbaseThriftTGet *get = _hbase_sget_new (&zset->store, zset->row->data, zset->row->len);
      HbaseThriftTColumn *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);

      column->family = g_byte_array_ref (zset->store.family);
      g_ptr_array_add (get->columns, column);
      get->__isset_columns = TRUE;
      _hbase_sget_set_range (get, &lo, 1, TRUE, &hi, 1, FALSE, g_array_index (positions, guint, i), 1);
      g_ptr_array_add (gets, get);
    }
  results = _hbase_sget_run (&zset->store, gets, cancellable, error);
  if (results == NULL)
    return FALSE;
  for (guint i = 0; i < positions->len; i++)
    {
      HbaseThriftTResult *result = g_ptr_array_index (results, i);
      HBaseZSetEntry *entry;

      if (result->columnValues->len == 0)
        continue;   /* the set shrank meanwhile */
      entry = _hbase_zset_entry_of_cell (g_ptr_array_index (result->columnValues, 0), FALSE, error);
      if (entry == NULL)
        return FALSE;
      g_hash_table_insert (at, GUINT_TO_POINTER (g_array_index (positions, guint, i)), entry);
    }
  return TRUE;
}

static void
shuffle (GPtrArray *array)
{
  for (guint i = array->len; i > 1; i--)
    {
      guint j = (guint) g_random_int_range (0, (gint32) i);
      gpointer tmp = array->pdata[i - 1];

      array->pdata[i - 1] = array->pdata[j];
      array->pdata[j] = tmp;
    }
}

/**
 * hbase_zset_random_members:
 * @zset: a sorted set
 * @count: how many: positive for distinct members (at most the whole
 *   set), negative for -@count members drawn independently (a member may
 *   come several times), 0 for none
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZRANDMEMBER with a count (and WITHSCORES: each entry has its score).
 * Every member is equally likely.  The cardinality is read first; a few
 * members are then reached by server-side skips to their positions (only
 * the chosen members are sent), many (a quarter of the set or more) by
 * reading the set.  Without a count, Redis's ZRANDMEMBER is a @count of 1.
 * Drawing from a set of more than 2^31 members only reaches its first
 * 2^31.
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable):
 *   the entries in random order (empty for an empty set), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_random_members (HBaseZSet *zset, gint64 count, GCancellable *cancellable,
                           GError **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);
  g_autoptr(GArray) draws = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GHashTable) at = NULL;
  g_autoptr(GHashTable) chosen = NULL;
  g_autoptr(GArray) positions = NULL;
  gboolean repeat = count < 0;
  guint64 wanted, card = 0;
  guint range;

  if (!_hbase_zset_check (zset, error))
    return NULL;
  if (count < -(gint64) G_MAXINT32)
    {
      _hbase_illegal (error, "count is out of range");
      return NULL;
    }
  wanted = repeat ? (guint64) -count : (guint64) count;
  if (wanted == 0)
    return g_steal_pointer (&out);
  if (!hbase_zset_card (zset, &card, cancellable, error))
    return NULL;
  if (card == 0)
    return g_steal_pointer (&out);
  range = (guint) MIN (card, (guint64) G_MAXINT32);
  if (!repeat && wanted >= card)
    {
      g_autoptr(GPtrArray) all = _hbase_zset_read_all (zset, cancellable, error);

      if (all == NULL)
        return NULL;
      shuffle (all);
      return g_steal_pointer (&all);
    }
  /* the positions drawn: distinct ones by drawing again on a repeat */
  chosen = g_hash_table_new (g_direct_hash, g_direct_equal);
  while (draws->len < wanted)
    {
      guint position = (guint) g_random_int_range (0, (gint32) range);

      if (!repeat && !g_hash_table_add (chosen, GUINT_TO_POINTER (position)))
        continue;
      g_array_append_val (draws, position);
    }
  at = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) hbase_zset_entry_free);
  if (wanted * RANDOM_READ_ALL_DIVISOR >= card)
    {
      g_autoptr(GPtrArray) all = _hbase_zset_read_all (zset, cancellable, error);

      if (all == NULL)
        return NULL;
      for (guint i = 0; i < all->len; i++)
        g_hash_table_insert (at, GUINT_TO_POINTER (i), hbase_zset_entry_copy (g_ptr_array_index (all, i)));
    }
  else
    {
      positions = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < draws->len; i++)
        {
          guint position = g_array_index (draws, guint, i);

          if (!repeat || g_hash_table_add (chosen, GUINT_TO_POINTER (position)))
            g_array_append_val (positions, position);
        }
      if (!read_positions (zset, positions, at, cancellable, error))
        return NULL;
    }
  for (guint i = 0; i < draws->len; i++)
    {
      HBaseZSetEntry *entry = g_hash_table_lookup (at, GUINT_TO_POINTER (g_array_index (draws, guint, i)));

      if (entry != NULL)
        g_ptr_array_add (out, hbase_zset_entry_copy (entry));
    }
  return g_steal_pointer (&out);
}
