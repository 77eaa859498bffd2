/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset-commands-async.c: the asynchronous forms of the sorted-set commands of
 * hbase-zset-lex.c, hbase-zset-trim.c and hbase-zset-combine.c.  Each runs
 * the blocking call on a worker thread of the table's client and returns
 * its result through a GTask whose source object is the sorted set. */
#include "config.h"

#include <math.h>

#include <hbase-glib/hbase-zset.h>

#include "../connection/hbase-client-async-private.h"
#include "hbase-structures-private.h"
#include "hbase-zset-private.h"

typedef enum {
  OP_RANGE_BY_LEX,
  OP_LEX_COUNT,
  OP_REMOVE_BY_SCORE,
  OP_REMOVE_BY_RANK,
  OP_REMOVE_BY_LEX,
  OP_MSCORE,
  OP_RANDOM,
  OP_UNION,
  OP_INTER,
  OP_DIFF,
  OP_UNION_STORE,
  OP_INTER_STORE,
  OP_DIFF_STORE,
} Op;

/* the arguments of one call, copied or referenced */
typedef struct {
  Op op;
  GBytes *min, *max;
  gboolean reverse;
  gint64 offset, count;       /* also start, stop */
  HBaseScoreRange range;
  GPtrArray *sets;            /* members, others or sources */
  HBaseZCombineOptions *options;
} Call;

typedef struct {
  GArray *scores;
  GArray *found;
} MScore;

static void
call_free (Call *call)
{
  g_clear_pointer (&call->min, g_bytes_unref);
  g_clear_pointer (&call->max, g_bytes_unref);
  g_clear_pointer (&call->sets, g_ptr_array_unref);
  g_clear_pointer (&call->options, hbase_zcombine_options_free);
  g_free (call);
}

static void
mscore_free (MScore *result)
{
  g_clear_pointer (&result->scores, g_array_unref);
  g_clear_pointer (&result->found, g_array_unref);
  g_free (result);
}

/* a copy of @array that references its elements (GBytes or GObjects) */
static GPtrArray *
copy_array (GPtrArray *array, gboolean objects)
{
  GPtrArray *copy;

  if (array == NULL)
    return NULL;
  copy = g_ptr_array_new_full (array->len, objects ? g_object_unref : (GDestroyNotify) g_bytes_unref);
  for (guint i = 0; i < array->len; i++)
    {
                      gpointer item = g_ptr_array_index (array, i);

                      g_ptr_array_add (copy, item == NULL ? NULL : objects ? g_object_ref (item) : g_bytes_ref (item));
    }
  return copy;
}

static void
return_count (GTask *task, gboolean ok, guint64 n, GError *error)
{
  if (ok)
    g_task_return_pointer (task, g_memdup2 (&n, sizeof n), g_free);
  else
    g_task_return_error (task, error);
}

static void
return_array (GTask *task, GPtrArray *array, GError *error)
{
  if (array != NULL)
    g_task_return_pointer (task, array, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

static void
call_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  HBaseZSet *zset = source;
  Call *call = task_data;
  GError *error = NULL;
  guint64 n = 0;
  gboolean ok;

  switch (call->op)
    {
    case OP_RANGE_BY_LEX:
                      return_array (task, hbase_zset_range_by_lex (zset, call->min, call->max, call->reverse,
                                                                   call->offset, call->count, cancellable, &error),
                                    error);
                      return;
    case OP_LEX_COUNT:
                      ok = hbase_zset_lex_count (zset, call->min, call->max, &n, cancellable, &error);
                      break;
    case OP_REMOVE_BY_SCORE:
                      ok = hbase_zset_remove_range_by_score (zset, &call->range, &n, cancellable, &error);
                      break;
    case OP_REMOVE_BY_RANK:
                      ok = hbase_zset_remove_range_by_rank (zset, call->offset, call->count, &n, cancellable, &error);
                      break;
    case OP_REMOVE_BY_LEX:
                      ok = hbase_zset_remove_range_by_lex (zset, call->min, call->max, &n, cancellable, &error);
                      break;
    case OP_MSCORE:
                      {
                        MScore *result = g_new0 (MScore, 1);

                        if (hbase_zset_mscore (zset, call->sets, &result->scores, &result->found, cancellable, &error))
                          g_task_return_pointer (task, result, (GDestroyNotify) mscore_free);
                        else
                          {
                            mscore_free (result);
                            g_task_return_error (task, error);
                          }
                        return;
                      }
    case OP_RANDOM:
                      return_array (task, hbase_zset_random_members (zset, call->count, cancellable, &error), error);
                      return;
    case OP_UNION:
                      return_array (task, hbase_zset_union (zset, call->sets, call->options, cancellable, &error), error);
                      return;
    case OP_INTER:
                      return_array (task, hbase_zset_inter (zset, call->sets, call->options, cancellable, &error), error);
                      return;
    case OP_DIFF:
                      return_array (task, hbase_zset_diff (zset, call->sets, cancellable, &error), error);
                      return;
    case OP_UNION_STORE:
                      ok = hbase_zset_union_store (zset, call->sets, call->options, &n, cancellable, &error);
                      break;
    case OP_INTER_STORE:
                      ok = hbase_zset_inter_store (zset, call->sets, call->options, &n, cancellable, &error);
                      break;
    case OP_DIFF_STORE:
    default:
                      ok = hbase_zset_diff_store (zset, call->sets, &n, cancellable, &error);
                      break;
    }
  return_count (task, ok, n, error);
}

static void
call_start (HBaseZSet *zset, Call *call, gpointer tag, GCancellable *cancellable,
            GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (zset, cancellable, callback, user_data);

  g_task_set_source_tag (task, tag);
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);
  _hbase_client_run_task (hbase_table_get_client (zset->store.table), task, call_in_thread);
}

static Call *
call_new (Op op)
{
  Call *call = g_new0 (Call, 1);

  call->op = op;
  return call;
}

static gboolean
finish_count (HBaseZSet *zset, GAsyncResult *result, gpointer tag, guint64 *n, GError **error)
{
  g_autofree guint64 *value = NULL;

  if (n != NULL)
    *n = 0;
  g_return_val_if_fail (g_task_is_valid (result, zset), FALSE);
  g_return_val_if_fail (g_async_result_is_tagged (result, tag), FALSE);
  value = g_task_propagate_pointer (G_TASK (result), error);
  if (value == NULL)
    return FALSE;
  if (n != NULL)
    *n = *value;
  return TRUE;
}

static GPtrArray *
finish_array (HBaseZSet *zset, GAsyncResult *result, gpointer tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, zset), NULL);
  g_return_val_if_fail (g_async_result_is_tagged (result, tag), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static HBaseZCombineOptions *
copy_options (const HBaseZCombineOptions *options)
{
  return options != NULL ? hbase_zcombine_options_copy (options) : NULL;
}

/**
 * hbase_zset_range_by_lex_async:
 * @zset: a sorted set
 * @min: the lower bound, as for hbase_zset_range_by_lex()
 * @max: the upper bound
 * @reverse: from the upper bound down
 * @offset: LIMIT's offset
 * @count: LIMIT's count, negative for all
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_range_by_lex().
 *
 * Since: 0.1
 */
void
hbase_zset_range_by_lex_async (HBaseZSet *zset, GBytes *min, GBytes *max, gboolean reverse,
                               gint64 offset, gint64 count, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_RANGE_BY_LEX);
  call->min = min != NULL ? g_bytes_ref (min) : NULL;
  call->max = max != NULL ? g_bytes_ref (max) : NULL;
  call->reverse = reverse;
  call->offset = offset;
  call->count = count;
  call_start (zset, call, hbase_zset_range_by_lex_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_range_by_lex_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_zset_range_by_lex_async().
 *
 * Returns: (transfer container) (element-type GBytes) (nullable): as
 *   hbase_zset_range_by_lex() returns, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_range_by_lex_finish (HBaseZSet *zset, GAsyncResult *result, GError **error)
{
  return finish_array (zset, result, hbase_zset_range_by_lex_async, error);
}

/**
 * hbase_zset_lex_count_async:
 * @zset: a sorted set
 * @min: the lower bound, as for hbase_zset_range_by_lex()
 * @max: the upper bound
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_lex_count().
 *
 * Since: 0.1
 */
void
hbase_zset_lex_count_async (HBaseZSet *zset, GBytes *min, GBytes *max, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_LEX_COUNT);
  call->min = min != NULL ? g_bytes_ref (min) : NULL;
  call->max = max != NULL ? g_bytes_ref (max) : NULL;
  call_start (zset, call, hbase_zset_lex_count_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_lex_count_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @count: (out) (optional): how many members are in the range
 * @error: return location for an error
 *
 * Finishes hbase_zset_lex_count_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_lex_count_finish (HBaseZSet *zset, GAsyncResult *result, guint64 *count,
                             GError **error)
{
  return finish_count (zset, result, hbase_zset_lex_count_async, count, error);
}

/**
 * hbase_zset_remove_range_by_score_async:
 * @zset: a sorted set
 * @range: the scores to remove (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_remove_range_by_score().
 *
 * Since: 0.1
 */
void
hbase_zset_remove_range_by_score_async (HBaseZSet *zset, const HBaseScoreRange *range, GCancellable *cancellable,
                                        GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_REMOVE_BY_SCORE);
  if (range != NULL)
    call->range = *range;
  else
    call->range.min = call->range.max = NAN;   /* refused by the call */
  call_start (zset, call, hbase_zset_remove_range_by_score_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_remove_range_by_score_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @n_removed: (out) (optional): how many members were removed
 * @error: return location for an error
 *
 * Finishes hbase_zset_remove_range_by_score_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove_range_by_score_finish (HBaseZSet *zset, GAsyncResult *result, guint64 *n_removed,
                                         GError **error)
{
  return finish_count (zset, result, hbase_zset_remove_range_by_score_async, n_removed, error);
}

/**
 * hbase_zset_remove_range_by_rank_async:
 * @zset: a sorted set
 * @start: the first rank to remove
 * @stop: the last rank to remove
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_remove_range_by_rank().
 *
 * Since: 0.1
 */
void
hbase_zset_remove_range_by_rank_async (HBaseZSet *zset, gint64 start, gint64 stop, GCancellable *cancellable,
                                       GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_REMOVE_BY_RANK);
  call->offset = start;
  call->count = stop;
  call_start (zset, call, hbase_zset_remove_range_by_rank_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_remove_range_by_rank_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @n_removed: (out) (optional): how many members were removed
 * @error: return location for an error
 *
 * Finishes hbase_zset_remove_range_by_rank_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove_range_by_rank_finish (HBaseZSet *zset, GAsyncResult *result, guint64 *n_removed,
                                        GError **error)
{
  return finish_count (zset, result, hbase_zset_remove_range_by_rank_async, n_removed, error);
}

/**
 * hbase_zset_remove_range_by_lex_async:
 * @zset: a sorted set
 * @min: the lower bound, as for hbase_zset_range_by_lex()
 * @max: the upper bound
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_remove_range_by_lex().
 *
 * Since: 0.1
 */
void
hbase_zset_remove_range_by_lex_async (HBaseZSet *zset, GBytes *min, GBytes *max, GCancellable *cancellable,
                                      GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_REMOVE_BY_LEX);
  call->min = min != NULL ? g_bytes_ref (min) : NULL;
  call->max = max != NULL ? g_bytes_ref (max) : NULL;
  call_start (zset, call, hbase_zset_remove_range_by_lex_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_remove_range_by_lex_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @n_removed: (out) (optional): how many members were removed
 * @error: return location for an error
 *
 * Finishes hbase_zset_remove_range_by_lex_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove_range_by_lex_finish (HBaseZSet *zset, GAsyncResult *result, guint64 *n_removed,
                                       GError **error)
{
  return finish_count (zset, result, hbase_zset_remove_range_by_lex_async, n_removed, error);
}

/**
 * hbase_zset_random_members_async:
 * @zset: a sorted set
 * @count: as for hbase_zset_random_members()
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_random_members().
 *
 * Since: 0.1
 */
void
hbase_zset_random_members_async (HBaseZSet *zset, gint64 count, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_RANDOM);
  call->count = count;
  call_start (zset, call, hbase_zset_random_members_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_random_members_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_zset_random_members_async().
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable): as
 *   hbase_zset_random_members() returns, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_random_members_finish (HBaseZSet *zset, GAsyncResult *result, GError **error)
{
  return finish_array (zset, result, hbase_zset_random_members_async, error);
}

/**
 * hbase_zset_union_async:
 * @zset: a sorted set
 * @others: (element-type HBaseZSet) (nullable): the other input sets
 * @options: (nullable): WEIGHTS and AGGREGATE (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_union().
 *
 * Since: 0.1
 */
void
hbase_zset_union_async (HBaseZSet *zset, GPtrArray *others,
                        const HBaseZCombineOptions *options, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_UNION);
  call->sets = copy_array (others, TRUE);
  call->options = copy_options (options);
  call_start (zset, call, hbase_zset_union_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_union_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_zset_union_async().
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable): as
 *   hbase_zset_union() returns, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_union_finish (HBaseZSet *zset, GAsyncResult *result, GError **error)
{
  return finish_array (zset, result, hbase_zset_union_async, error);
}

/**
 * hbase_zset_inter_async:
 * @zset: a sorted set
 * @others: (element-type HBaseZSet) (nullable): the other input sets
 * @options: (nullable): WEIGHTS and AGGREGATE (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_inter().
 *
 * Since: 0.1
 */
void
hbase_zset_inter_async (HBaseZSet *zset, GPtrArray *others,
                        const HBaseZCombineOptions *options, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_INTER);
  call->sets = copy_array (others, TRUE);
  call->options = copy_options (options);
  call_start (zset, call, hbase_zset_inter_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_inter_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_zset_inter_async().
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable): as
 *   hbase_zset_inter() returns, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_inter_finish (HBaseZSet *zset, GAsyncResult *result, GError **error)
{
  return finish_array (zset, result, hbase_zset_inter_async, error);
}

/**
 * hbase_zset_diff_async:
 * @zset: a sorted set
 * @others: (element-type HBaseZSet) (nullable): the other input sets
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_diff().
 *
 * Since: 0.1
 */
void
hbase_zset_diff_async (HBaseZSet *zset, GPtrArray *others, GCancellable *cancellable,
                       GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_DIFF);
  call->sets = copy_array (others, TRUE);
  call_start (zset, call, hbase_zset_diff_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_diff_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_zset_diff_async().
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable): as
 *   hbase_zset_diff() returns, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_diff_finish (HBaseZSet *zset, GAsyncResult *result, GError **error)
{
  return finish_array (zset, result, hbase_zset_diff_async, error);
}

/**
 * hbase_zset_union_store_async:
 * @destination: a sorted set
 * @sources: (element-type HBaseZSet): the input sets
 * @options: (nullable): WEIGHTS and AGGREGATE (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_union_store().
 *
 * Since: 0.1
 */
void
hbase_zset_union_store_async (HBaseZSet *destination, GPtrArray *sources,
                              const HBaseZCombineOptions *options, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (destination));
  call = call_new (OP_UNION_STORE);
  call->sets = copy_array (sources, TRUE);
  call->options = copy_options (options);
  call_start (destination, call, hbase_zset_union_store_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_union_store_finish:
 * @destination: a sorted set
 * @result: the result given to the callback
 * @card: (out) (optional): the cardinality of the result
 * @error: return location for an error
 *
 * Finishes hbase_zset_union_store_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_union_store_finish (HBaseZSet *destination, GAsyncResult *result, guint64 *card,
                               GError **error)
{
  return finish_count (destination, result, hbase_zset_union_store_async, card, error);
}

/**
 * hbase_zset_inter_store_async:
 * @destination: a sorted set
 * @sources: (element-type HBaseZSet): the input sets
 * @options: (nullable): WEIGHTS and AGGREGATE (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_inter_store().
 *
 * Since: 0.1
 */
void
hbase_zset_inter_store_async (HBaseZSet *destination, GPtrArray *sources,
                              const HBaseZCombineOptions *options, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (destination));
  call = call_new (OP_INTER_STORE);
  call->sets = copy_array (sources, TRUE);
  call->options = copy_options (options);
  call_start (destination, call, hbase_zset_inter_store_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_inter_store_finish:
 * @destination: a sorted set
 * @result: the result given to the callback
 * @card: (out) (optional): the cardinality of the result
 * @error: return location for an error
 *
 * Finishes hbase_zset_inter_store_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_inter_store_finish (HBaseZSet *destination, GAsyncResult *result, guint64 *card,
                               GError **error)
{
  return finish_count (destination, result, hbase_zset_inter_store_async, card, error);
}

/**
 * hbase_zset_diff_store_async:
 * @destination: a sorted set
 * @sources: (element-type HBaseZSet): the input sets
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_diff_store().
 *
 * Since: 0.1
 */
void
hbase_zset_diff_store_async (HBaseZSet *destination, GPtrArray *sources, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (destination));
  call = call_new (OP_DIFF_STORE);
  call->sets = copy_array (sources, TRUE);
  call_start (destination, call, hbase_zset_diff_store_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_diff_store_finish:
 * @destination: a sorted set
 * @result: the result given to the callback
 * @card: (out) (optional): the cardinality of the result
 * @error: return location for an error
 *
 * Finishes hbase_zset_diff_store_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_diff_store_finish (HBaseZSet *destination, GAsyncResult *result, guint64 *card,
                              GError **error)
{
  return finish_count (destination, result, hbase_zset_diff_store_async, card, error);
}

/**
 * hbase_zset_mscore_async:
 * @zset: a sorted set
 * @members: (element-type GBytes): the members
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_mscore().
 *
 * Since: 0.1
 */
void
hbase_zset_mscore_async (HBaseZSet *zset, GPtrArray *members, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  Call *call;

  g_return_if_fail (HBASE_IS_ZSET (zset));
  call = call_new (OP_MSCORE);
  call->sets = copy_array (members, FALSE);
  call_start (zset, call, hbase_zset_mscore_async, cancellable, callback, user_data);
}

/**
 * hbase_zset_mscore_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @scores: (out) (transfer full) (element-type gdouble): one score per
 *   member, NaN for a missing one
 * @found: (out) (optional) (transfer full) (element-type gboolean):
 *   whether each member is in the set
 * @error: return location for an error
 *
 * Finishes hbase_zset_mscore_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_mscore_finish (HBaseZSet *zset, GAsyncResult *result, GArray **scores, GArray **found,
                          GError **error)
{
  MScore *value;

  if (scores != NULL)
    *scores = NULL;
  if (found != NULL)
    *found = NULL;
  g_return_val_if_fail (g_task_is_valid (result, zset), FALSE);
  g_return_val_if_fail (g_async_result_is_tagged (result, hbase_zset_mscore_async), FALSE);
  value = g_task_propagate_pointer (G_TASK (result), error);
  if (value == NULL)
    return FALSE;
  if (scores != NULL)
    *scores = g_steal_pointer (&value->scores);
  if (found != NULL)
    *found = g_steal_pointer (&value->found);
  mscore_free (value);
  return TRUE;
}
