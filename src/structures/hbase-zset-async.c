/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset-async.c: the _async/_finish pairs of the sorted-set calls
 * that read or write HBase.  Each runs its synchronous call on the
 * client's worker pool (see hbase-structures-async.c), so a main loop
 * never blocks. */
#include "config.h"

#include <hbase-glib/hbase-error.h>

#include "hbase-structures-async-private.h"

static StructureCall *
start (HBaseZSet *zset, StructureFunc func)
{
  return _hbase_structure_call_new (func, HBASE_IS_ZSET (zset) ? g_object_ref (zset) : NULL, g_object_unref);
}

static void
run (HBaseZSet *zset, StructureCall *call, gpointer tag, GCancellable *cancellable,
     GAsyncReadyCallback callback, gpointer user_data)
{
  _hbase_structure_call_start (call, _hbase_zset_client (zset), HBASE_IS_ZSET (zset) ? zset : NULL, tag,
                               cancellable, callback, user_data);
}

static StructureCall *
finish (HBaseZSet *zset, GAsyncResult *result, gpointer tag, GError **error)
{
  return _hbase_structure_call_finish (result, HBASE_IS_ZSET (zset) ? zset : NULL, tag, error);
}

/* --- ZADD, ZINCRBY, ZREM, ZPOPMIN/ZPOPMAX ------------------------------------------------- */

static gboolean
add_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  guint n_members = call->members != NULL ? call->members->len : 0;
  guint n_scores = call->numbers != NULL ? call->numbers->len : 0;

  if (n_members != n_scores)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "hbase_zset_add_async: %u members but %u scores", n_members, n_scores);
      return FALSE;
    }
  return hbase_zset_add (call->self, (HBaseZAddFlags) call->flags, call->members,
                         n_scores > 0 ? (const gdouble *) (gconstpointer) call->numbers->data : NULL, &call->n,
                         cancellable, error);
}

/**
 * hbase_zset_add_async:
 * @zset: a sorted set
 * @flags: as for hbase_zset_add()
 * @members: (element-type GBytes): the members
 * @scores: (element-type gdouble): their scores, one per member
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the members are added
 * @user_data: data for @callback
 *
 * Starts hbase_zset_add() without blocking; finish with
 * hbase_zset_add_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_add_async (HBaseZSet *zset, HBaseZAddFlags flags, GPtrArray *members, GArray *scores,
                      GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, add_func);

  call->flags = flags;
  call->members = members != NULL ? g_ptr_array_ref (members) : NULL;
  call->numbers = scores != NULL ? g_array_ref (scores) : NULL;
  run (zset, call, hbase_zset_add_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_add_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @n_result: (out) (optional): as for hbase_zset_add()
 * @error: return location for an error
 *
 * Finishes hbase_zset_add_async().
 *
 * Returns: %TRUE if the members were added
 *
 * Since: 0.1
 */
gboolean
hbase_zset_add_finish (HBaseZSet *zset, GAsyncResult *result, guint64 *n_result, GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_add_async, error);

  if (call != NULL && n_result != NULL)
    *n_result = call->n;
  return call != NULL;
}

static gboolean
add_incr_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_add_incr (call->self, (HBaseZAddFlags) call->flags, call->member, call->number,
                              &call->flag, &call->score, cancellable, error);
}

/**
 * hbase_zset_add_incr_async:
 * @zset: a sorted set
 * @flags: as for hbase_zset_add_incr()
 * @member: the member
 * @increment: added to its score
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the new score
 * @user_data: data for @callback
 *
 * Starts hbase_zset_add_incr() without blocking; finish with
 * hbase_zset_add_incr_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_add_incr_async (HBaseZSet *zset, HBaseZAddFlags flags, GBytes *member, gdouble increment,
                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, add_incr_func);

  call->flags = flags;
  call->member = member != NULL ? g_bytes_ref (member) : NULL;
  call->number = increment;
  run (zset, call, hbase_zset_add_incr_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_add_incr_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @applied: (out) (optional): whether the flags let the change happen
 * @score: (out) (optional): the member's score afterwards
 * @error: return location for an error
 *
 * Finishes hbase_zset_add_incr_async().
 *
 * Returns: %TRUE if the call succeeded
 *
 * Since: 0.1
 */
gboolean
hbase_zset_add_incr_finish (HBaseZSet *zset, GAsyncResult *result, gboolean *applied, gdouble *score,
                            GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_add_incr_async, error);

  if (call == NULL)
    return FALSE;
  if (applied != NULL)
    *applied = call->flag;
  if (score != NULL)
    *score = call->score;
  return TRUE;
}

static gboolean
incr_by_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_incr_by (call->self, call->member, call->number, &call->score, cancellable, error);
}

/**
 * hbase_zset_incr_by_async:
 * @zset: a sorted set
 * @member: the member
 * @increment: added to its score (a missing member starts at 0)
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the new score
 * @user_data: data for @callback
 *
 * Starts hbase_zset_incr_by() without blocking; finish with
 * hbase_zset_incr_by_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_incr_by_async (HBaseZSet *zset, GBytes *member, gdouble increment, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, incr_by_func);

  call->member = member != NULL ? g_bytes_ref (member) : NULL;
  call->number = increment;
  run (zset, call, hbase_zset_incr_by_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_incr_by_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @score: (out) (optional): the member's score afterwards
 * @error: return location for an error
 *
 * Finishes hbase_zset_incr_by_async().
 *
 * Returns: %TRUE if the score was changed
 *
 * Since: 0.1
 */
gboolean
hbase_zset_incr_by_finish (HBaseZSet *zset, GAsyncResult *result, gdouble *score, GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_incr_by_async, error);

  if (call != NULL && score != NULL)
    *score = call->score;
  return call != NULL;
}

static gboolean
remove_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_remove (call->self, call->members, &call->n, cancellable, error);
}

/**
 * hbase_zset_remove_async:
 * @zset: a sorted set
 * @members: (element-type GBytes): the members to remove
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the members are removed
 * @user_data: data for @callback
 *
 * Starts hbase_zset_remove() without blocking; finish with
 * hbase_zset_remove_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_remove_async (HBaseZSet *zset, GPtrArray *members, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, remove_func);

  call->members = members != NULL ? g_ptr_array_ref (members) : NULL;
  run (zset, call, hbase_zset_remove_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_remove_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @n_removed: (out) (optional): how many were members
 * @error: return location for an error
 *
 * Finishes hbase_zset_remove_async().
 *
 * Returns: %TRUE if the members were removed
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove_finish (HBaseZSet *zset, GAsyncResult *result, guint64 *n_removed, GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_remove_async, error);

  if (call != NULL && n_removed != NULL)
    *n_removed = call->n;
  return call != NULL;
}

static gboolean
pop_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_pop (call->self, call->option, (guint64) call->count, &call->list, cancellable, error);
}

/**
 * hbase_zset_pop_async:
 * @zset: a sorted set
 * @max: the highest scores (ZPOPMAX) rather than the lowest
 * @count: how many entries at most
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the entries removed
 * @user_data: data for @callback
 *
 * Starts hbase_zset_pop() without blocking; finish with
 * hbase_zset_pop_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_pop_async (HBaseZSet *zset, gboolean max, guint64 count, GCancellable *cancellable,
                      GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, pop_func);

  call->option = max;
  call->count = (gint64) MIN (count, (guint64) G_MAXINT64);
  run (zset, call, hbase_zset_pop_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_pop_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @entries: (out) (transfer container) (element-type HBaseZSetEntry) (optional):
 *   the entries removed, in pop order
 * @error: return location for an error
 *
 * Finishes hbase_zset_pop_async().
 *
 * Returns: %TRUE if the call succeeded
 *
 * Since: 0.1
 */
gboolean
hbase_zset_pop_finish (HBaseZSet *zset, GAsyncResult *result, GPtrArray **entries, GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_pop_async, error);

  if (call != NULL && entries != NULL)
    *entries = g_steal_pointer (&call->list);
  return call != NULL;
}

static gboolean
clear_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_clear (call->self, cancellable, error);
}

/**
 * hbase_zset_clear_async:
 * @zset: a sorted set
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the sorted set is empty
 * @user_data: data for @callback
 *
 * Starts hbase_zset_clear() without blocking; finish with
 * hbase_zset_clear_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_clear_async (HBaseZSet *zset, GCancellable *cancellable, GAsyncReadyCallback callback,
                        gpointer user_data)
{
  run (zset, start (zset, clear_func), hbase_zset_clear_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_clear_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_zset_clear_async().
 *
 * Returns: %TRUE if the sorted set was cleared
 *
 * Since: 0.1
 */
gboolean
hbase_zset_clear_finish (HBaseZSet *zset, GAsyncResult *result, GError **error)
{
  return finish (zset, result, hbase_zset_clear_async, error) != NULL;
}

/* --- ZSCORE, ZMSCORE, ZCARD, ZCOUNT, ZRANK ---------------------------------------------------- */

static gboolean
score_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_score (call->self, call->member, &call->flag, &call->score, cancellable, error);
}

/**
 * hbase_zset_score_async:
 * @zset: a sorted set
 * @member: a member
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with its score
 * @user_data: data for @callback
 *
 * Starts hbase_zset_score() without blocking; finish with
 * hbase_zset_score_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_score_async (HBaseZSet *zset, GBytes *member, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, score_func);

  call->member = member != NULL ? g_bytes_ref (member) : NULL;
  run (zset, call, hbase_zset_score_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_score_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @found: (out) (optional): whether @member is in the sorted set
 * @score: (out) (optional): its score, when found
 * @error: return location for an error
 *
 * Finishes hbase_zset_score_async().
 *
 * Returns: %TRUE if the sorted set could be read
 *
 * Since: 0.1
 */
gboolean
hbase_zset_score_finish (HBaseZSet *zset, GAsyncResult *result, gboolean *found, gdouble *score,
                         GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_score_async, error);

  if (call == NULL)
    return FALSE;
  if (found != NULL)
    *found = call->flag;
  if (score != NULL)
    *score = call->score;
  return TRUE;
}

static gboolean
scores_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  guint n = call->members != NULL ? call->members->len : 0;

  call->flags_out = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), n);
  g_array_set_size (call->flags_out, n);
  call->numbers_out = g_array_sized_new (FALSE, TRUE, sizeof (gdouble), n);
  g_array_set_size (call->numbers_out, n);
  return hbase_zset_scores (call->self, call->members, (gboolean *) (gpointer) call->flags_out->data,
                            (gdouble *) (gpointer) call->numbers_out->data, cancellable, error);
}

/**
 * hbase_zset_scores_async:
 * @zset: a sorted set
 * @members: (element-type GBytes): the members to look up
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with their scores
 * @user_data: data for @callback
 *
 * Starts hbase_zset_scores() (ZMSCORE) without blocking; finish with
 * hbase_zset_scores_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_scores_async (HBaseZSet *zset, GPtrArray *members, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, scores_func);

  call->members = members != NULL ? g_ptr_array_ref (members) : NULL;
  run (zset, call, hbase_zset_scores_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_scores_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @found: (out) (transfer full) (element-type gboolean) (optional): for each
 *   member asked about, in order, whether it is in the sorted set
 * @scores: (out) (transfer full) (element-type gdouble) (optional): their
 *   scores (0 where not found)
 * @error: return location for an error
 *
 * Finishes hbase_zset_scores_async().
 *
 * Returns: %TRUE if the sorted set could be read
 *
 * Since: 0.1
 */
gboolean
hbase_zset_scores_finish (HBaseZSet *zset, GAsyncResult *result, GArray **found, GArray **scores,
                          GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_scores_async, error);

  if (call == NULL)
    return FALSE;
  if (found != NULL)
    *found = g_steal_pointer (&call->flags_out);
  if (scores != NULL)
    *scores = g_steal_pointer (&call->numbers_out);
  return TRUE;
}

static gboolean
card_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_card (call->self, &call->n, cancellable, error);
}

/**
 * hbase_zset_card_async:
 * @zset: a sorted set
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the number of members
 * @user_data: data for @callback
 *
 * Starts hbase_zset_card() without blocking; finish with
 * hbase_zset_card_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_card_async (HBaseZSet *zset, GCancellable *cancellable, GAsyncReadyCallback callback,
                       gpointer user_data)
{
  run (zset, start (zset, card_func), hbase_zset_card_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_card_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @card: (out) (optional): the number of members
 * @error: return location for an error
 *
 * Finishes hbase_zset_card_async().
 *
 * Returns: %TRUE if the sorted set could be read
 *
 * Since: 0.1
 */
gboolean
hbase_zset_card_finish (HBaseZSet *zset, GAsyncResult *result, guint64 *card, GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_card_async, error);

  if (call != NULL && card != NULL)
    *card = call->n;
  return call != NULL;
}

static gboolean
count_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_count (call->self, &call->range, &call->n, cancellable, error);
}

/**
 * hbase_zset_count_async:
 * @zset: a sorted set
 * @range: the scores (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the count
 * @user_data: data for @callback
 *
 * Starts hbase_zset_count() without blocking; finish with
 * hbase_zset_count_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_count_async (HBaseZSet *zset, const HBaseScoreRange *range, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, count_func);
  const HBaseScoreRange all = HBASE_SCORE_RANGE_INIT;

  call->range = range != NULL ? *range : all;
  run (zset, call, hbase_zset_count_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_count_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @count: (out) (optional): the members whose score is in the range
 * @error: return location for an error
 *
 * Finishes hbase_zset_count_async().
 *
 * Returns: %TRUE if the sorted set could be read
 *
 * Since: 0.1
 */
gboolean
hbase_zset_count_finish (HBaseZSet *zset, GAsyncResult *result, guint64 *count, GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_count_async, error);

  if (call != NULL && count != NULL)
    *count = call->n;
  return call != NULL;
}

static gboolean
rank_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_rank (call->self, call->member, call->option, &call->flag, &call->n, &call->score,
                          cancellable, error);
}

/**
 * hbase_zset_rank_async:
 * @zset: a sorted set
 * @member: a member
 * @reverse: counted from the highest score (ZREVRANK)
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with its rank
 * @user_data: data for @callback
 *
 * Starts hbase_zset_rank() without blocking; finish with
 * hbase_zset_rank_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_rank_async (HBaseZSet *zset, GBytes *member, gboolean reverse, GCancellable *cancellable,
                       GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, rank_func);

  call->member = member != NULL ? g_bytes_ref (member) : NULL;
  call->option = reverse;
  run (zset, call, hbase_zset_rank_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_rank_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @found: (out) (optional): whether @member is in the sorted set
 * @rank: (out) (optional): its rank, from 0
 * @score: (out) (optional): its score
 * @error: return location for an error
 *
 * Finishes hbase_zset_rank_async().
 *
 * Returns: %TRUE if the sorted set could be read
 *
 * Since: 0.1
 */
gboolean
hbase_zset_rank_finish (HBaseZSet *zset, GAsyncResult *result, gboolean *found, guint64 *rank,
                        gdouble *score, GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_rank_async, error);

  if (call == NULL)
    return FALSE;
  if (found != NULL)
    *found = call->flag;
  if (rank != NULL)
    *rank = call->n;
  if (score != NULL)
    *score = call->score;
  return TRUE;
}

/* --- iterators ------------------------------------------------------------------------------ */

static gboolean
iter_next_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_iter_next (call->self, &call->out_bytes, &call->score, cancellable, error);
}

/**
 * hbase_zset_iter_next_async:
 * @iter: an iterator
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the next entry
 * @user_data: data for @callback
 *
 * Starts hbase_zset_iter_next() without blocking; finish with
 * hbase_zset_iter_next_finish().  One call at a time per iterator.
 *
 * Since: 0.1
 */
void
hbase_zset_iter_next_async (HBaseZSetIter *iter, GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer user_data)
{
  StructureCall *call = _hbase_structure_call_new (iter_next_func,
                                                   iter != NULL ? hbase_zset_iter_ref (iter) : NULL,
                                                   (GDestroyNotify) hbase_zset_iter_unref);

  _hbase_structure_call_start (call, _hbase_zset_iter_get_client (iter), NULL, hbase_zset_iter_next_async,
                               cancellable, callback, user_data);
}

/**
 * hbase_zset_iter_next_finish:
 * @iter: an iterator
 * @result: the result given to the callback
 * @member: (out) (transfer full) (nullable) (optional): the next member,
 *   %NULL at the end
 * @score: (out) (optional): its score
 * @error: return location for an error
 *
 * Finishes hbase_zset_iter_next_async(), with the convention of
 * hbase_zset_iter_next().
 *
 * Returns: %FALSE on error, %TRUE otherwise (also at the end)
 *
 * Since: 0.1
 */
gboolean
hbase_zset_iter_next_finish (HBaseZSetIter *iter, GAsyncResult *result, GBytes **member, gdouble *score,
                             GError **error)
{
  StructureCall *call = _hbase_structure_call_finish (result, NULL, hbase_zset_iter_next_async, error);

  (void) iter;
  if (call == NULL)
    return FALSE;
  if (member != NULL)
    *member = g_steal_pointer (&call->out_bytes);
  if (score != NULL)
    *score = call->score;
  return TRUE;
}

static gboolean
iter_collect_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  call->list = hbase_zset_iter_collect (call->self, cancellable, error);
  return call->list != NULL;
}

/**
 * hbase_zset_iter_collect_async:
 * @iter: an iterator
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the rest of the entries
 * @user_data: data for @callback
 *
 * Starts hbase_zset_iter_collect() without blocking; finish with
 * hbase_zset_iter_collect_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_iter_collect_async (HBaseZSetIter *iter, GCancellable *cancellable, GAsyncReadyCallback callback,
                               gpointer user_data)
{
  StructureCall *call = _hbase_structure_call_new (iter_collect_func,
                                                   iter != NULL ? hbase_zset_iter_ref (iter) : NULL,
                                                   (GDestroyNotify) hbase_zset_iter_unref);

  _hbase_structure_call_start (call, _hbase_zset_iter_get_client (iter), NULL, hbase_zset_iter_collect_async,
                               cancellable, callback, user_data);
}

/**
 * hbase_zset_iter_collect_finish:
 * @iter: an iterator
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_zset_iter_collect_async().
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable):
 *   the rest of the entries, or %NULL on error
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_iter_collect_finish (HBaseZSetIter *iter, GAsyncResult *result, GError **error)
{
  StructureCall *call = _hbase_structure_call_finish (result, NULL, hbase_zset_iter_collect_async, error);

  (void) iter;
  return call != NULL ? g_steal_pointer (&call->list) : NULL;
}

/* --- the plain layout -------------------------------------------------------------------------- */

static gboolean
import_plain_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_zset_import_plain (call->self, call->table, call->bytes, call->text, &call->n, cancellable,
                                  error);
}

/**
 * hbase_zset_import_plain_async:
 * @zset: a sorted set
 * @source: the table holding the plain row
 * @row: its row key
 * @family: the family whose qualifiers are the members
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the entries are imported
 * @user_data: data for @callback
 *
 * Starts hbase_zset_import_plain() without blocking; finish with
 * hbase_zset_import_plain_finish().
 *
 * Since: 0.1
 */
void
hbase_zset_import_plain_async (HBaseZSet *zset, HBaseTable *source, GBytes *row, const char *family,
                               GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call = start (zset, import_plain_func);

  call->table = HBASE_IS_TABLE (source) ? g_object_ref (source) : NULL;
  call->bytes = row != NULL ? g_bytes_ref (row) : NULL;
  call->text = g_strdup (family);
  run (zset, call, hbase_zset_import_plain_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_import_plain_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @n_added: (out) (optional): how many were not members before
 * @error: return location for an error
 *
 * Finishes hbase_zset_import_plain_async().
 *
 * Returns: %TRUE if the row was imported
 *
 * Since: 0.1
 */
gboolean
hbase_zset_import_plain_finish (HBaseZSet *zset, GAsyncResult *result, guint64 *n_added, GError **error)
{
  StructureCall *call = finish (zset, result, hbase_zset_import_plain_async, error);

  if (call != NULL && n_added != NULL)
    *n_added = call->n;
  return call != NULL;
}
