/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-structures-arrays.c: the forms of the set and sorted-set calls
 * that take or give C arrays sized by another argument (SMISMEMBER, ZADD,
 * ZMSCORE) with #GArray instead, which bindings can call: GObject
 * Introspection cannot say "as long as @members". */
#include "config.h"

#include "hbase-structures-private.h"

/**
 * hbase_set_contains_many_array: (rename-to hbase_set_contains_many)
 * @set: a set
 * @members: (element-type GBytes): the members to test
 * @are_members: (out) (transfer full) (element-type gboolean): one flag
 *   per member, in the order of @members
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_set_contains_many() with its flags in a new array, the form for
 * bindings.
 *
 * Returns: %TRUE on success (@are_members set); %FALSE with @error set
 *   (@are_members %NULL)
 *
 * Since: 0.1
 */
gboolean
hbase_set_contains_many_array (HBaseSet *set, GPtrArray *members, GArray **are_members,
                               GCancellable *cancellable, GError **error)
{
  g_autoptr(GArray) flags = NULL;

  if (are_members == NULL)
    return _hbase_illegal (error, "hbase_set_contains_many_array needs somewhere to put the flags");
  *are_members = NULL;
  if (members == NULL)
    return _hbase_illegal (error, "hbase_set_contains_many_array needs the members");
  flags = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), members->len);
  g_array_set_size (flags, members->len);
  if (!hbase_set_contains_many (set, members, (gboolean *) (gpointer) flags->data, cancellable, error))
    return FALSE;
  *are_members = g_steal_pointer (&flags);
  return TRUE;
}

/**
 * hbase_zset_add_array: (rename-to hbase_zset_add)
 * @zset: a sorted set
 * @flags: NX, XX, GT, LT, CH as ZADD's options
 * @members: (element-type GBytes): the members (any bytes up to
 *   %HBASE_ZSET_MAX_MEMBER_SIZE)
 * @scores: (element-type gdouble): one score per member, ±inf allowed,
 *   NaN refused
 * @n_result: (out) (optional): ZADD's reply: members added, plus members
 *   whose score changed with %HBASE_ZADD_CH
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_zset_add() with its scores in an array, the form for bindings.
 *
 * Returns: %TRUE on success; %FALSE with @error set
 *   (%HBASE_ERROR_ILLEGAL_ARGUMENT when @scores does not hold one score
 *   per member)
 *
 * Since: 0.1
 */
gboolean
hbase_zset_add_array (HBaseZSet *zset, HBaseZAddFlags flags, GPtrArray *members, GArray *scores,
                      guint64 *n_result, GCancellable *cancellable, GError **error)
{
  if (n_result != NULL)
    *n_result = 0;
  if (members == NULL || scores == NULL)
    return _hbase_illegal (error, "hbase_zset_add_array needs the members and their scores");
  if (g_array_get_element_size (scores) != sizeof (gdouble) || scores->len != members->len)
    return _hbase_illegal (error, "hbase_zset_add_array: %u members but %u scores (doubles)",
                           members->len, scores->len);
  return hbase_zset_add (zset, flags, members, (const gdouble *) (gconstpointer) scores->data,
                         n_result, cancellable, error);
}

/**
 * hbase_zset_scores_array: (rename-to hbase_zset_scores)
 * @zset: a sorted set
 * @members: (element-type GBytes): the members
 * @found: (out) (optional) (transfer full) (element-type gboolean): one
 *   flag per member: whether it is in the set
 * @scores: (out) (transfer full) (element-type gdouble): one score per
 *   member (NaN for a missing member)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_zset_scores() with its results in new arrays, the form for
 * bindings.
 *
 * Returns: %TRUE on success; %FALSE with @error set (the arrays %NULL)
 *
 * Since: 0.1
 */
gboolean
hbase_zset_scores_array (HBaseZSet *zset, GPtrArray *members, GArray **found, GArray **scores,
                         GCancellable *cancellable, GError **error)
{
  g_autoptr(GArray) flags = NULL;
  g_autoptr(GArray) values = NULL;

  if (found != NULL)
    *found = NULL;
  if (scores == NULL)
    return _hbase_illegal (error, "hbase_zset_scores_array needs somewhere to put the scores");
  *scores = NULL;
  if (members == NULL)
    return _hbase_illegal (error, "hbase_zset_scores_array needs the members");
  values = g_array_sized_new (FALSE, TRUE, sizeof (gdouble), members->len);
  g_array_set_size (values, members->len);
  if (found != NULL)
    {
      flags = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), members->len);
      g_array_set_size (flags, members->len);
    }
  if (!hbase_zset_scores (zset, members, flags != NULL ? (gboolean *) (gpointer) flags->data : NULL,
                          (gdouble *) (gpointer) values->data, cancellable, error))
    return FALSE;
  if (found != NULL)
    *found = g_steal_pointer (&flags);
  *scores = g_steal_pointer (&values);
  return TRUE;
}
