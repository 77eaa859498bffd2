/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-structures-strings.c: the string forms of sets and sorted sets:
 * keys and members given as NUL-terminated strings instead of #GBytes.
 *
 * A string is its bytes up to its terminating NUL (UTF-8 or not); a key or
 * member holding a 0 byte needs the #GBytes forms. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-set.h>
#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"

static GBytes *
bytes_or_null (const char *text)
{
  return text != NULL ? g_bytes_new (text, strlen (text)) : NULL;
}

/* A NULL member is refused here, with a message naming the string form
 * (the GBytes forms would call it a NULL member too, but of themselves). */
static gboolean
check_member (const char *member, const char *what, GError **error)
{
  if (member != NULL)
    return TRUE;
  return _hbase_illegal (error, "%s: the member is NULL", what);
}

/**
 * hbase_set_new_string:
 * @table: the table holding the set
 * @key: the set's key, its bytes up to the NUL
 * @options: (nullable): where and how the set is stored; %NULL for the
 *   defaults (family "s", one row)
 * @error: return location for an error
 *
 * hbase_set_new() with the key given as a string.  Binary keys need
 * hbase_set_new().
 *
 * Returns: (transfer full) (nullable): the set, or %NULL with @error set
 *
 * Since: 0.1
 */
HBaseSet *
hbase_set_new_string (HBaseTable *table, const char *key, const HBaseSetOptions *options,
                      GError **error)
{
  g_autoptr(GBytes) bytes = bytes_or_null (key);

  return hbase_set_new (table, bytes, options, error);
}

/**
 * hbase_set_add_string:
 * @set: a set
 * @member: the member to add, its bytes up to the NUL
 * @added: (out) (optional): whether it was not a member yet
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_set_add_one() (SADD of one member) with the member given as a
 * string.  Binary members need hbase_set_add_one().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_add_string (HBaseSet *set, const char *member, gboolean *added,
                      GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) bytes = bytes_or_null (member);

  if (!check_member (member, "hbase_set_add_string", error))
    return FALSE;
  return hbase_set_add_one (set, bytes, added, cancellable, error);
}

/**
 * hbase_set_add_strings:
 * @set: a set
 * @members: (array zero-terminated=1): the members to add, each its bytes
 *   up to its NUL (duplicates count once)
 * @n_added: (out) (optional): how many were not members yet (SADD's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_set_add() (SADD) with the members given as strings.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_add_strings (HBaseSet *set, const char *const *members, guint64 *n_added,
                       GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  if (n_added != NULL)
    *n_added = 0;
  if (members == NULL)
    return _hbase_illegal (error, "hbase_set_add_strings: the members are NULL");
  for (guint i = 0; members[i] != NULL; i++)
    g_ptr_array_add (array, g_bytes_new (members[i], strlen (members[i])));
  return hbase_set_add (set, array, n_added, cancellable, error);
}

/**
 * hbase_set_remove_string:
 * @set: a set
 * @member: the member to remove, its bytes up to the NUL
 * @removed: (out) (optional): whether it was a member
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_set_remove_one() (SREM of one member) with the member given as a
 * string.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_remove_string (HBaseSet *set, const char *member, gboolean *removed,
                         GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) bytes = bytes_or_null (member);

  if (!check_member (member, "hbase_set_remove_string", error))
    return FALSE;
  return hbase_set_remove_one (set, bytes, removed, cancellable, error);
}

/**
 * hbase_set_contains_string:
 * @set: a set
 * @member: the member, its bytes up to the NUL
 * @is_member: (out): whether @member is in the set
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_set_contains() (SISMEMBER) with the member given as a string.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_contains_string (HBaseSet *set, const char *member, gboolean *is_member,
                           GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) bytes = bytes_or_null (member);

  if (!check_member (member, "hbase_set_contains_string", error))
    return FALSE;
  return hbase_set_contains (set, bytes, is_member, cancellable, error);
}

/**
 * hbase_zset_new_string:
 * @table: the table holding the sorted set
 * @key: the sorted set's row key, its bytes up to the NUL
 * @options: (nullable): where and how it is stored; %NULL for the
 *   defaults (family "z")
 * @error: return location for an error
 *
 * hbase_zset_new() with the key given as a string.  Binary keys need
 * hbase_zset_new().
 *
 * Returns: (transfer full) (nullable): the sorted set, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
HBaseZSet *
hbase_zset_new_string (HBaseTable *table, const char *key, const HBaseZSetOptions *options,
                       GError **error)
{
  g_autoptr(GBytes) bytes = bytes_or_null (key);

  return hbase_zset_new (table, bytes, options, error);
}

/**
 * hbase_zset_add_string:
 * @zset: a sorted set
 * @member: the member, its bytes up to the NUL
 * @score: its score, ±inf allowed, NaN refused
 * @added: (out) (optional): whether it was not a member yet (ZADD's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_zset_add() (ZADD without options) of one member given as a
 * string: adds it, or updates its score.  Binary members need
 * hbase_zset_add().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_add_string (HBaseZSet *zset, const char *member, gdouble score, gboolean *added,
                       GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint64 n_added = 0;

  if (added != NULL)
    *added = FALSE;
  if (!check_member (member, "hbase_zset_add_string", error))
    return FALSE;
  g_ptr_array_add (members, g_bytes_new (member, strlen (member)));
  if (!hbase_zset_add (zset, HBASE_ZADD_NONE, members, &score, &n_added, cancellable, error))
    return FALSE;
  if (added != NULL)
    *added = n_added > 0;
  return TRUE;
}

/**
 * hbase_zset_remove_string:
 * @zset: a sorted set
 * @member: the member to remove, its bytes up to the NUL
 * @removed: (out) (optional): whether it was a member (ZREM's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_zset_remove() (ZREM) of one member given as a string.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove_string (HBaseZSet *zset, const char *member, gboolean *removed,
                          GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint64 n_removed = 0;

  if (removed != NULL)
    *removed = FALSE;
  if (!check_member (member, "hbase_zset_remove_string", error))
    return FALSE;
  g_ptr_array_add (members, g_bytes_new (member, strlen (member)));
  if (!hbase_zset_remove (zset, members, &n_removed, cancellable, error))
    return FALSE;
  if (removed != NULL)
    *removed = n_removed > 0;
  return TRUE;
}

/**
 * hbase_zset_score_string:
 * @zset: a sorted set
 * @member: the member, its bytes up to the NUL
 * @found: (out) (optional): whether @member is in the sorted set
 * @score: (out) (optional): its score, NaN when it is not
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_zset_score() (ZSCORE) with the member given as a string.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_score_string (HBaseZSet *zset, const char *member, gboolean *found, gdouble *score,
                         GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) bytes = bytes_or_null (member);

  if (!check_member (member, "hbase_zset_score_string", error))
    return FALSE;
  return hbase_zset_score (zset, bytes, found, score, cancellable, error);
}

/* --- asynchronous variants: the string forms of the #GBytes calls' pairs --- */

/* A string call refused before anything was started (a NULL member):
 * reported to @callback as the #GBytes call would report its error. */
static gboolean
refuse_null_member (gpointer source, const char *member, const char *what, gpointer tag,
                    GAsyncReadyCallback callback, gpointer user_data)
{
  if (member != NULL)
    return FALSE;
  g_task_report_new_error (source, callback, user_data, tag, HBASE_ERROR,
                           HBASE_ERROR_ILLEGAL_ARGUMENT, "%s: the member is NULL", what);
  return TRUE;
}

/* TRUE with @error set when @result is a refusal of refuse_null_member(). */
static gboolean
was_refused (GAsyncResult *result, gpointer tag, GError **error)
{
  if (!g_async_result_is_tagged (result, tag))
    return FALSE;
  g_task_propagate_boolean (G_TASK (result), error);
  return TRUE;
}

static GPtrArray *
one_member (const char *member)
{
  GPtrArray *members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  g_ptr_array_add (members, g_bytes_new (member, strlen (member)));
  return members;
}

/**
 * hbase_set_add_string_async:
 * @set: a set
 * @member: the member to add, its bytes up to the NUL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_set_add_string().
 *
 * Since: 0.1
 */
void
hbase_set_add_string_async (HBaseSet *set, const char *member, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GBytes) bytes = bytes_or_null (member);

  if (refuse_null_member (set, member, "hbase_set_add_string_async", hbase_set_add_string_async,
                          callback, user_data))
    return;
  hbase_set_add_one_async (set, bytes, cancellable, callback, user_data);
}

/**
 * hbase_set_add_string_finish:
 * @set: a set
 * @result: the result given to the callback
 * @added: (out) (optional): whether it was not a member yet
 * @error: return location for an error
 *
 * Finishes hbase_set_add_string_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_add_string_finish (HBaseSet *set, GAsyncResult *result, gboolean *added, GError **error)
{
  if (was_refused (result, hbase_set_add_string_async, error))
    return FALSE;
  return hbase_set_add_one_finish (set, result, added, error);
}

/**
 * hbase_set_add_strings_async:
 * @set: a set
 * @members: (array zero-terminated=1): the members to add (copied before
 *   this returns)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_set_add_strings().
 *
 * Since: 0.1
 */
void
hbase_set_add_strings_async (HBaseSet *set, const char *const *members, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  if (members == NULL)
    {
      g_task_report_new_error (set, callback, user_data, hbase_set_add_strings_async, HBASE_ERROR,
                               HBASE_ERROR_ILLEGAL_ARGUMENT,
                               "hbase_set_add_strings_async: the members are NULL");
      return;
    }
  for (guint i = 0; members[i] != NULL; i++)
    g_ptr_array_add (array, g_bytes_new (members[i], strlen (members[i])));
  hbase_set_add_async (set, array, cancellable, callback, user_data);
}

/**
 * hbase_set_add_strings_finish:
 * @set: a set
 * @result: the result given to the callback
 * @n_added: (out) (optional): how many were not members yet
 * @error: return location for an error
 *
 * Finishes hbase_set_add_strings_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_add_strings_finish (HBaseSet *set, GAsyncResult *result, guint64 *n_added, GError **error)
{
  if (n_added != NULL)
    *n_added = 0;
  if (was_refused (result, hbase_set_add_strings_async, error))
    return FALSE;
  return hbase_set_add_finish (set, result, n_added, error);
}

/**
 * hbase_set_remove_string_async:
 * @set: a set
 * @member: the member to remove, its bytes up to the NUL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_set_remove_string().
 *
 * Since: 0.1
 */
void
hbase_set_remove_string_async (HBaseSet *set, const char *member, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GBytes) bytes = bytes_or_null (member);

  if (refuse_null_member (set, member, "hbase_set_remove_string_async",
                          hbase_set_remove_string_async, callback, user_data))
    return;
  hbase_set_remove_one_async (set, bytes, cancellable, callback, user_data);
}

/**
 * hbase_set_remove_string_finish:
 * @set: a set
 * @result: the result given to the callback
 * @removed: (out) (optional): whether it was a member
 * @error: return location for an error
 *
 * Finishes hbase_set_remove_string_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_remove_string_finish (HBaseSet *set, GAsyncResult *result, gboolean *removed,
                                GError **error)
{
  if (was_refused (result, hbase_set_remove_string_async, error))
    return FALSE;
  return hbase_set_remove_one_finish (set, result, removed, error);
}

/**
 * hbase_set_contains_string_async:
 * @set: a set
 * @member: the member, its bytes up to the NUL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_set_contains_string().
 *
 * Since: 0.1
 */
void
hbase_set_contains_string_async (HBaseSet *set, const char *member, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GBytes) bytes = bytes_or_null (member);

  if (refuse_null_member (set, member, "hbase_set_contains_string_async",
                          hbase_set_contains_string_async, callback, user_data))
    return;
  hbase_set_contains_async (set, bytes, cancellable, callback, user_data);
}

/**
 * hbase_set_contains_string_finish:
 * @set: a set
 * @result: the result given to the callback
 * @is_member: (out): whether the member is in the set
 * @error: return location for an error
 *
 * Finishes hbase_set_contains_string_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_contains_string_finish (HBaseSet *set, GAsyncResult *result, gboolean *is_member,
                                  GError **error)
{
  if (was_refused (result, hbase_set_contains_string_async, error))
    return FALSE;
  return hbase_set_contains_finish (set, result, is_member, error);
}

/**
 * hbase_zset_add_string_async:
 * @zset: a sorted set
 * @member: the member, its bytes up to the NUL
 * @score: its score, ±inf allowed, NaN refused
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_add_string().
 *
 * Since: 0.1
 */
void
hbase_zset_add_string_async (HBaseZSet *zset, const char *member, gdouble score,
                             GCancellable *cancellable, GAsyncReadyCallback callback,
                             gpointer user_data)
{
  g_autoptr(GPtrArray) members = NULL;
  g_autoptr(GArray) scores = NULL;

  if (refuse_null_member (zset, member, "hbase_zset_add_string_async", hbase_zset_add_string_async,
                          callback, user_data))
    return;
  members = one_member (member);
  scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_array_append_val (scores, score);
  hbase_zset_add_async (zset, HBASE_ZADD_NONE, members, scores, cancellable, callback, user_data);
}

/**
 * hbase_zset_add_string_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @added: (out) (optional): whether it was not a member yet
 * @error: return location for an error
 *
 * Finishes hbase_zset_add_string_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_add_string_finish (HBaseZSet *zset, GAsyncResult *result, gboolean *added,
                              GError **error)
{
  guint64 n_added = 0;

  if (added != NULL)
    *added = FALSE;
  if (was_refused (result, hbase_zset_add_string_async, error) ||
      !hbase_zset_add_finish (zset, result, &n_added, error))
    return FALSE;
  if (added != NULL)
    *added = n_added > 0;
  return TRUE;
}

/**
 * hbase_zset_remove_string_async:
 * @zset: a sorted set
 * @member: the member to remove, its bytes up to the NUL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_remove_string().
 *
 * Since: 0.1
 */
void
hbase_zset_remove_string_async (HBaseZSet *zset, const char *member, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GPtrArray) members = NULL;

  if (refuse_null_member (zset, member, "hbase_zset_remove_string_async",
                          hbase_zset_remove_string_async, callback, user_data))
    return;
  members = one_member (member);
  hbase_zset_remove_async (zset, members, cancellable, callback, user_data);
}

/**
 * hbase_zset_remove_string_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @removed: (out) (optional): whether it was a member
 * @error: return location for an error
 *
 * Finishes hbase_zset_remove_string_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove_string_finish (HBaseZSet *zset, GAsyncResult *result, gboolean *removed,
                                 GError **error)
{
  guint64 n_removed = 0;

  if (removed != NULL)
    *removed = FALSE;
  if (was_refused (result, hbase_zset_remove_string_async, error) ||
      !hbase_zset_remove_finish (zset, result, &n_removed, error))
    return FALSE;
  if (removed != NULL)
    *removed = n_removed > 0;
  return TRUE;
}

/**
 * hbase_zset_score_string_async:
 * @zset: a sorted set
 * @member: the member, its bytes up to the NUL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_zset_score_string().
 *
 * Since: 0.1
 */
void
hbase_zset_score_string_async (HBaseZSet *zset, const char *member, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GBytes) bytes = bytes_or_null (member);

  if (refuse_null_member (zset, member, "hbase_zset_score_string_async",
                          hbase_zset_score_string_async, callback, user_data))
    return;
  hbase_zset_score_async (zset, bytes, cancellable, callback, user_data);
}

/**
 * hbase_zset_score_string_finish:
 * @zset: a sorted set
 * @result: the result given to the callback
 * @found: (out) (optional): whether the member is in the sorted set
 * @score: (out) (optional): its score, NaN when it is not
 * @error: return location for an error
 *
 * Finishes hbase_zset_score_string_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_score_string_finish (HBaseZSet *zset, GAsyncResult *result, gboolean *found,
                                gdouble *score, GError **error)
{
  if (was_refused (result, hbase_zset_score_string_async, error))
    return FALSE;
  return hbase_zset_score_finish (zset, result, found, score, error);
}
