/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-set-commands-async.c: the _async/_finish pairs of the set
 * commands of hbase-set-commands.c and of hbase_set_random_members().
 * Each runs its synchronous twin on one of the client's worker threads
 * (_hbase_client_run_task()); the task holds
 * references to the sets, the member and the list of sets, so the caller
 * may drop its own before the callback runs.  The task's source object is
 * the set the method is called on. */
#include "config.h"

#include <gio/gio.h>

#include <hbase-glib/hbase-set.h>

#include "hbase-set-private.h"
#include "../connection/hbase-client-async-private.h"

typedef enum {
  SET_CALL_POP,
  SET_CALL_POP_ONE,
  SET_CALL_RANDOM_MEMBERS,
  SET_CALL_RANDOM_MEMBER,
  SET_CALL_MOVE,
  SET_CALL_INTERSECT_STORE,
  SET_CALL_UNION_STORE,
  SET_CALL_DIFF_STORE
} SetCallKind;

typedef struct {
  SetCallKind kind;
  HBaseSet *set;            /* the set the method is called on */
  HBaseSet *destination;    /* SMOVE's */
  GPtrArray *sets;          /* the sources of a store (HBaseSet) */
  GBytes *member;           /* SMOVE's */
  gint64 count;
  /* results */
  GPtrArray *members;
  GBytes *one;
  gboolean moved;
  guint64 card;
} SetCall;

static void
set_call_free (gpointer data)
{
  SetCall *call = data;

  g_clear_object (&call->set);
  g_clear_object (&call->destination);
  g_clear_pointer (&call->sets, g_ptr_array_unref);
  g_clear_pointer (&call->member, g_bytes_unref);
  g_clear_pointer (&call->members, g_ptr_array_unref);
  g_clear_pointer (&call->one, g_bytes_unref);
  g_free (call);
}

static void
set_call_run (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  SetCall *call = data;
  GError *error = NULL;
  gboolean ok = FALSE;

  (void) source;
  switch (call->kind)
    {
    case SET_CALL_POP:
      ok = hbase_set_pop (call->set, call->count, &call->members, cancellable, &error);
      break;
    case SET_CALL_POP_ONE:
      ok = hbase_set_pop_one (call->set, &call->one, cancellable, &error);
      break;
    case SET_CALL_RANDOM_MEMBERS:
      ok = hbase_set_random_members (call->set, call->count, &call->members, cancellable, &error);
      break;
    case SET_CALL_RANDOM_MEMBER:
      ok = hbase_set_random_member (call->set, &call->one, cancellable, &error);
      break;
    case SET_CALL_MOVE:
      ok = hbase_set_move (call->set, call->destination, call->member, &call->moved, cancellable,
                           &error);
      break;
    case SET_CALL_INTERSECT_STORE:
      ok = hbase_set_intersect_store (call->set, call->sets, &call->card, cancellable, &error);
      break;
    case SET_CALL_UNION_STORE:
      ok = hbase_set_union_store (call->set, call->sets, &call->card, cancellable, &error);
      break;
    case SET_CALL_DIFF_STORE:
      ok = hbase_set_diff_store (call->set, call->sets, &call->card, cancellable, &error);
      break;
    default:
      g_assert_not_reached ();
    }
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* Starts @call (taken) on @set, on a worker thread of its client. */
static void
set_call_start (HBaseSet *set, SetCall *call, gpointer source_tag, GCancellable *cancellable,
                GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (set, cancellable, callback, user_data);

  call->set = set != NULL ? g_object_ref (set) : NULL;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, call, set_call_free);
  if (set == NULL)
    {
      /* no client to run on: the synchronous call reports the error, without I/O */
      set_call_run (task, NULL, call, cancellable);
      return;
    }
  _hbase_client_run_task (hbase_table_get_client (set->store.table), task, set_call_run);
}

static SetCall *
set_call_new (SetCallKind kind)
{
  SetCall *call = g_new0 (SetCall, 1);

  call->kind = kind;
  return call;
}

/* The call of a finished task, or NULL with @error set. */
static SetCall *
set_call_finish (HBaseSet *set, GAsyncResult *result, gpointer source_tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, set), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  return g_task_get_task_data (G_TASK (result));
}

static SetCall *
store_call_new (SetCallKind kind, GPtrArray *sets)
{
  SetCall *call = set_call_new (kind);

  if (sets != NULL)
    {
      call->sets = g_ptr_array_new_full (sets->len, (GDestroyNotify) _hbase_set_unref);
      for (guint i = 0; i < sets->len; i++)
        {
          HBaseSet *each = g_ptr_array_index (sets, i);

          g_ptr_array_add (call->sets, each != NULL ? _hbase_set_ref (each) : NULL);
        }
    }
  return call;
}

/**
 * hbase_set_pop_async:
 * @set: a set
 * @count: as for hbase_set_pop()
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the command is done
 * @user_data: data for @callback
 *
 * Starts hbase_set_pop() on one of the client's worker threads.
 * Finish with hbase_set_pop_finish().
 *
 * Since: 0.1
 */
void
hbase_set_pop_async (HBaseSet *set, gint64 count, GCancellable *cancellable,
                     GAsyncReadyCallback callback, gpointer user_data)
{
  SetCall *call = set_call_new (SET_CALL_POP);

  call->count = count;
  set_call_start (set, call, hbase_set_pop_async, cancellable, callback, user_data);
}

/**
 * hbase_set_pop_finish:
 * @set: the set the command was started on
 * @result: the #GAsyncResult given to the callback
 * @members: (out) (transfer container) (element-type GBytes): the removed
 *   members, as hbase_set_pop() gives them
 * @error: return location for an error
 *
 * Finishes hbase_set_pop_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_pop_finish (HBaseSet *set, GAsyncResult *result, GPtrArray **members, GError **error)
{
  SetCall *call;

  g_return_val_if_fail (members != NULL, FALSE);
  *members = NULL;
  call = set_call_finish (set, result, hbase_set_pop_async, error);
  if (call == NULL)
    return FALSE;
  *members = g_steal_pointer (&call->members);
  return TRUE;
}

/**
 * hbase_set_pop_one_async:
 * @set: a set
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the command is done
 * @user_data: data for @callback
 *
 * Starts hbase_set_pop_one() on one of the client's worker threads.
 * Finish with hbase_set_pop_one_finish().
 *
 * Since: 0.1
 */
void
hbase_set_pop_one_async (HBaseSet *set, GCancellable *cancellable, GAsyncReadyCallback callback,
                         gpointer user_data)
{
  set_call_start (set, set_call_new (SET_CALL_POP_ONE), hbase_set_pop_one_async, cancellable, callback,
                  user_data);
}

/**
 * hbase_set_pop_one_finish:
 * @set: the set the command was started on
 * @result: the #GAsyncResult given to the callback
 * @member: (out) (transfer full) (nullable): the removed member, %NULL when the set
 *   was empty
 * @error: return location for an error
 *
 * Finishes hbase_set_pop_one_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_pop_one_finish (HBaseSet *set, GAsyncResult *result, GBytes **member, GError **error)
{
  SetCall *call;

  g_return_val_if_fail (member != NULL, FALSE);
  *member = NULL;
  call = set_call_finish (set, result, hbase_set_pop_one_async, error);
  if (call == NULL)
    return FALSE;
  *member = g_steal_pointer (&call->one);
  return TRUE;
}

/**
 * hbase_set_random_member_async:
 * @set: a set
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the command is done
 * @user_data: data for @callback
 *
 * Starts hbase_set_random_member() on one of the client's worker threads.
 * Finish with hbase_set_random_member_finish().
 *
 * Since: 0.1
 */
void
hbase_set_random_member_async (HBaseSet *set, GCancellable *cancellable, GAsyncReadyCallback callback,
                               gpointer user_data)
{
  set_call_start (set, set_call_new (SET_CALL_RANDOM_MEMBER), hbase_set_random_member_async, cancellable, callback,
                  user_data);
}

/**
 * hbase_set_random_member_finish:
 * @set: the set the command was started on
 * @result: the #GAsyncResult given to the callback
 * @member: (out) (transfer full) (nullable): a random member, %NULL when the set
 *   was empty
 * @error: return location for an error
 *
 * Finishes hbase_set_random_member_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_random_member_finish (HBaseSet *set, GAsyncResult *result, GBytes **member, GError **error)
{
  SetCall *call;

  g_return_val_if_fail (member != NULL, FALSE);
  *member = NULL;
  call = set_call_finish (set, result, hbase_set_random_member_async, error);
  if (call == NULL)
    return FALSE;
  *member = g_steal_pointer (&call->one);
  return TRUE;
}

/**
 * hbase_set_random_members_async:
 * @set: a set
 * @count: as for hbase_set_random_members()
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the command is done
 * @user_data: data for @callback
 *
 * Starts hbase_set_random_members() on one of the client's worker threads.
 * Finish with hbase_set_random_members_finish().
 *
 * Since: 0.1
 */
void
hbase_set_random_members_async (HBaseSet *set, gint64 count, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data)
{
  SetCall *call = set_call_new (SET_CALL_RANDOM_MEMBERS);

  call->count = count;
  set_call_start (set, call, hbase_set_random_members_async, cancellable, callback, user_data);
}

/**
 * hbase_set_random_members_finish:
 * @set: the set the command was started on
 * @result: the #GAsyncResult given to the callback
 * @members: (out) (transfer container) (element-type GBytes): the members,
 *   as hbase_set_random_members() gives them
 * @error: return location for an error
 *
 * Finishes hbase_set_random_members_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_random_members_finish (HBaseSet *set, GAsyncResult *result, GPtrArray **members,
                                 GError **error)
{
  SetCall *call;

  g_return_val_if_fail (members != NULL, FALSE);
  *members = NULL;
  call = set_call_finish (set, result, hbase_set_random_members_async, error);
  if (call == NULL)
    return FALSE;
  *members = g_steal_pointer (&call->members);
  return TRUE;
}

/**
 * hbase_set_move_async:
 * @source: the set to take the member from
 * @destination: the set to add it to
 * @member: the member
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the command is done
 * @user_data: data for @callback
 *
 * Starts hbase_set_move() on one of the client's worker threads.
 * Finish with hbase_set_move_finish().
 *
 * Since: 0.1
 */
void
hbase_set_move_async (HBaseSet *source, HBaseSet *destination, GBytes *member,
                      GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  SetCall *call = set_call_new (SET_CALL_MOVE);

  call->destination = destination != NULL ? g_object_ref (destination) : NULL;
  call->member = member != NULL ? g_bytes_ref (member) : NULL;
  set_call_start (source, call, hbase_set_move_async, cancellable, callback, user_data);
}

/**
 * hbase_set_move_finish:
 * @source: the set the command was started on
 * @result: the #GAsyncResult given to the callback
 * @moved: (out) (optional): whether the member was in the source
 * @error: return location for an error
 *
 * Finishes hbase_set_move_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_move_finish (HBaseSet *source, GAsyncResult *result, gboolean *moved, GError **error)
{
  SetCall *call;

  if (moved != NULL)
    *moved = FALSE;
  call = set_call_finish (source, result, hbase_set_move_async, error);
  if (call == NULL)
    return FALSE;
  if (moved != NULL)
    *moved = call->moved;
  return TRUE;
}

/**
 * hbase_set_intersect_store_async:
 * @destination: the set to write the result to
 * @sets: (element-type HBaseSet): the sets, as for hbase_set_intersect_store()
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the command is done
 * @user_data: data for @callback
 *
 * Starts hbase_set_intersect_store() on one of the client's worker threads.
 * Finish with hbase_set_intersect_store_finish().
 *
 * Since: 0.1
 */
void
hbase_set_intersect_store_async (HBaseSet *destination, GPtrArray *sets, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
  set_call_start (destination, store_call_new (SET_CALL_INTERSECT_STORE, sets), hbase_set_intersect_store_async, cancellable,
                  callback, user_data);
}

/**
 * hbase_set_intersect_store_finish:
 * @destination: the set the command was started on
 * @result: the #GAsyncResult given to the callback
 * @card: (out) (optional): the number of members of the result
 * @error: return location for an error
 *
 * Finishes hbase_set_intersect_store_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_intersect_store_finish (HBaseSet *destination, GAsyncResult *result, guint64 *card,
                                  GError **error)
{
  SetCall *call;

  if (card != NULL)
    *card = 0;
  call = set_call_finish (destination, result, hbase_set_intersect_store_async, error);
  if (call == NULL)
    return FALSE;
  if (card != NULL)
    *card = call->card;
  return TRUE;
}

/**
 * hbase_set_union_store_async:
 * @destination: the set to write the result to
 * @sets: (element-type HBaseSet): the sets, as for hbase_set_union_store()
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the command is done
 * @user_data: data for @callback
 *
 * Starts hbase_set_union_store() on one of the client's worker threads.
 * Finish with hbase_set_union_store_finish().
 *
 * Since: 0.1
 */
void
hbase_set_union_store_async (HBaseSet *destination, GPtrArray *sets, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  set_call_start (destination, store_call_new (SET_CALL_UNION_STORE, sets), hbase_set_union_store_async, cancellable,
                  callback, user_data);
}

/**
 * hbase_set_union_store_finish:
 * @destination: the set the command was started on
 * @result: the #GAsyncResult given to the callback
 * @card: (out) (optional): the number of members of the result
 * @error: return location for an error
 *
 * Finishes hbase_set_union_store_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_union_store_finish (HBaseSet *destination, GAsyncResult *result, guint64 *card,
                              GError **error)
{
  SetCall *call;

  if (card != NULL)
    *card = 0;
  call = set_call_finish (destination, result, hbase_set_union_store_async, error);
  if (call == NULL)
    return FALSE;
  if (card != NULL)
    *card = call->card;
  return TRUE;
}

/**
 * hbase_set_diff_store_async:
 * @destination: the set to write the result to
 * @sets: (element-type HBaseSet): the sets, as for hbase_set_diff_store()
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the command is done
 * @user_data: data for @callback
 *
 * Starts hbase_set_diff_store() on one of the client's worker threads.
 * Finish with hbase_set_diff_store_finish().
 *
 * Since: 0.1
 */
void
hbase_set_diff_store_async (HBaseSet *destination, GPtrArray *sets, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
  set_call_start (destination, store_call_new (SET_CALL_DIFF_STORE, sets), hbase_set_diff_store_async, cancellable,
                  callback, user_data);
}

/**
 * hbase_set_diff_store_finish:
 * @destination: the set the command was started on
 * @result: the #GAsyncResult given to the callback
 * @card: (out) (optional): the number of members of the result
 * @error: return location for an error
 *
 * Finishes hbase_set_diff_store_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_diff_store_finish (HBaseSet *destination, GAsyncResult *result, guint64 *card,
                             GError **error)
{
  SetCall *call;

  if (card != NULL)
    *card = 0;
  call = set_call_finish (destination, result, hbase_set_diff_store_async, error);
  if (call == NULL)
    return FALSE;
  if (card != NULL)
    *card = call->card;
  return TRUE;
}
