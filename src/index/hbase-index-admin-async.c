/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-admin-async.c: the _async/_finish pairs of the index calls
 * other than queries: creating the definitions table, defining, reading
 * definitions, opening, the state, verify, rebuild, repair, drop and
 * migrate.
 * Each runs its synchronous twin in a worker thread on copies of its
 * inputs, holding a reference to the object it was called on (the task's
 * source object), so the caller may drop its own before the callback
 * runs. */
#include "config.h"

#include <gio/gio.h>

#include "hbase-index-private.h"
#include "../connection/hbase-client-async-private.h"

typedef enum {
  CALL_CREATE_META_TABLE,
  CALL_DEFINE,
  CALL_GET_DEFINITIONS,
  CALL_OPEN,
  CALL_GET_STATE,
  CALL_VERIFY,
  CALL_REBUILD,
  CALL_REPAIR,
  CALL_DROP,
  CALL_MIGRATE,
} CallKind;

typedef struct {
  CallKind kind;
  char *table;
  HBaseIndexSpec *spec;
  HBaseIndexOptions *options;
  HBaseIndexMaintenanceOptions *maintenance;
  HBaseIndexState state;
  char *reason;
  guint64 moved;
} AdminCall;

static void
admin_call_free (gpointer data)
{
  AdminCall *call = data;

  g_free (call->table);
  g_clear_pointer (&call->spec, hbase_index_spec_free);
  g_clear_pointer (&call->options, hbase_index_options_free);
  g_clear_pointer (&call->maintenance, hbase_index_maintenance_options_free);
  g_free (call->reason);
  g_free (call);
}

static void
admin_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;
  gpointer result = NULL;
  GDestroyNotify free_result = NULL;
  gboolean ok = FALSE;

  switch (call->kind)
    {
    case CALL_CREATE_META_TABLE:
      ok = hbase_index_create_meta_table (source, call->options, cancellable, &error);
      break;
    case CALL_DEFINE:
      ok = hbase_index_define (source, call->table, call->spec, call->options, cancellable, &error);
      break;
    case CALL_GET_DEFINITIONS:
      result = hbase_index_get_definitions (source, call->table, call->options, cancellable, &error);
      free_result = (GDestroyNotify) hbase_index_spec_free;
      break;
    case CALL_OPEN:
      result = hbase_index_open (source, call->table, call->options, cancellable, &error);
      free_result = g_object_unref;
      break;
    case CALL_GET_STATE:
      ok = hbase_index_get_state (source, &call->state, &call->reason, cancellable, &error);
      break;
    case CALL_VERIFY:
      result = hbase_index_verify (source, call->maintenance, cancellable, &error);
      free_result = (GDestroyNotify) hbase_index_report_free;
      break;
    case CALL_REBUILD:
      result = hbase_index_rebuild (source, call->maintenance, cancellable, &error);
      free_result = (GDestroyNotify) hbase_index_report_free;
      break;
    case CALL_REPAIR:
      result = hbase_index_repair (source, call->maintenance, cancellable, &error);
      free_result = (GDestroyNotify) hbase_index_report_free;
      break;
    case CALL_DROP:
      ok = hbase_index_drop (source, cancellable, &error);
      break;
    case CALL_MIGRATE:
      ok = hbase_index_migrate (source, &call->moved, cancellable, &error);
      break;
    }
  if (free_result != NULL && result != NULL)
    g_task_return_pointer (task, result, free_result);
  else if (free_result == NULL && ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* Starts @call on @source (a client or an index), on the client's worker
 * pool; an index made by g_object_new() alone has no client: its call
 * fails at once. */
static void
admin_start (gpointer source, AdminCall *call, GCancellable *cancellable,
             GAsyncReadyCallback callback, gpointer user_data, gpointer source_tag)
{
  g_autoptr(GTask) task = g_task_new (source, cancellable, callback, user_data);
  HBaseClient *client = NULL;

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, call, admin_call_free);
  if (HBASE_IS_CLIENT (source))
    client = source;
  else if (HBASE_IS_INDEX (source) && hbase_index_get_table (source) != NULL)
    client = hbase_table_get_client (hbase_index_get_table (source));
  if (client != NULL)
    _hbase_client_run_task (client, task, admin_in_thread);
  else
    g_task_return_new_error (task, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                             "an index call needs a client or an index from hbase_index_open()");
}

static AdminCall *
admin_call_new (CallKind kind, const char *table, const HBaseIndexOptions *options)
{
  AdminCall *call = g_new0 (AdminCall, 1);

  call->kind = kind;
  call->table = g_strdup (table);
  call->options = options != NULL ? hbase_index_options_copy (options) : NULL;
  return call;
}

static AdminCall *
maintenance_call_new (CallKind kind, const HBaseIndexMaintenanceOptions *options)
{
  AdminCall *call = g_new0 (AdminCall, 1);

  call->kind = kind;
  call->maintenance = options != NULL ? hbase_index_maintenance_options_copy (options) : NULL;
  return call;
}

static gboolean
check_result (gpointer source, GAsyncResult *result, gpointer source_tag)
{
  return g_task_is_valid (result, source) && g_task_get_source_tag (G_TASK (result)) == source_tag;
}

/* --- on a client -------------------------------------------------------------------------- */

/**
 * hbase_index_create_meta_table_async:
 * @client: a client
 * @options: (nullable): as for hbase_index_create_meta_table(); copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the table exists (its source object is @client)
 * @user_data: data for @callback
 *
 * Starts hbase_index_create_meta_table() in a worker thread.  Finish with
 * hbase_index_create_meta_table_finish().
 *
 * Since: 0.1
 */
void
hbase_index_create_meta_table_async (HBaseClient *client, const HBaseIndexOptions *options,
                                     GCancellable *cancellable, GAsyncReadyCallback callback,
                                     gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_start (client, admin_call_new (CALL_CREATE_META_TABLE, NULL, options), cancellable,
               callback, user_data, hbase_index_create_meta_table_async);
}

/**
 * hbase_index_create_meta_table_finish:
 * @client: the client the call was started on
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_index_create_meta_table_async().
 *
 * Returns: %TRUE when the table exists
 *
 * Since: 0.1
 */
gboolean
hbase_index_create_meta_table_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (check_result (client, result, hbase_index_create_meta_table_async), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hbase_index_define_async:
 * @client: a client
 * @table: the indexed table
 * @spec: its index definitions; copied
 * @options: (nullable): as for hbase_index_define(); copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the definitions are stored (its source object is
 *   @client)
 * @user_data: data for @callback
 *
 * Starts hbase_index_define() in a worker thread.  Finish with
 * hbase_index_define_finish().
 *
 * Since: 0.1
 */
void
hbase_index_define_async (HBaseClient *client, const char *table, const HBaseIndexSpec *spec,
                          const HBaseIndexOptions *options, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  AdminCall *call;

  g_return_if_fail (HBASE_IS_CLIENT (client));
  g_return_if_fail (spec != NULL);
  call = admin_call_new (CALL_DEFINE, table, options);
  call->spec = hbase_index_spec_copy (spec);
  admin_start (client, call, cancellable, callback, user_data, hbase_index_define_async);
}

/**
 * hbase_index_define_finish:
 * @client: the client the call was started on
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_index_define_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_index_define_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (check_result (client, result, hbase_index_define_async), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hbase_index_get_definitions_async:
 * @client: a client
 * @table: the indexed table
 * @options: (nullable): as for hbase_index_get_definitions(); copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the definitions were read (its source object is
 *   @client)
 * @user_data: data for @callback
 *
 * Starts hbase_index_get_definitions() in a worker thread.  Finish with
 * hbase_index_get_definitions_finish().
 *
 * Since: 0.1
 */
void
hbase_index_get_definitions_async (HBaseClient *client, const char *table,
                                   const HBaseIndexOptions *options, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_start (client, admin_call_new (CALL_GET_DEFINITIONS, table, options), cancellable,
               callback, user_data, hbase_index_get_definitions_async);
}

/**
 * hbase_index_get_definitions_finish:
 * @client: the client the call was started on
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_index_get_definitions_async().
 *
 * Returns: (transfer full) (nullable): the stored definitions, or %NULL
 *   with @error
 *
 * Since: 0.1
 */
HBaseIndexSpec *
hbase_index_get_definitions_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (check_result (client, result, hbase_index_get_definitions_async), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hbase_index_open_async:
 * @client: a client
 * @table: the indexed table
 * @options: (nullable): as for hbase_index_open(); copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the index is open (its source object is @client)
 * @user_data: data for @callback
 *
 * Starts hbase_index_open() in a worker thread.  Finish with
 * hbase_index_open_finish().
 *
 * Since: 0.1
 */
void
hbase_index_open_async (HBaseClient *client, const char *table, const HBaseIndexOptions *options,
                        GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_start (client, admin_call_new (CALL_OPEN, table, options), cancellable, callback,
               user_data, hbase_index_open_async);
}

/**
 * hbase_index_open_finish:
 * @client: the client the call was started on
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_index_open_async().
 *
 * Returns: (transfer full) (nullable): the index, or %NULL with @error
 *
 * Since: 0.1
 */
HBaseIndex *
hbase_index_open_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (check_result (client, result, hbase_index_open_async), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* --- on an index ----------------------------------------------------------------------------- */

/**
 * hbase_index_get_state_async:
 * @index: an index
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the state is known (its source object is @index)
 * @user_data: data for @callback
 *
 * Starts hbase_index_get_state() in a worker thread.  Finish with
 * hbase_index_get_state_finish().
 *
 * Since: 0.1
 */
void
hbase_index_get_state_async (HBaseIndex *index, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (_hbase_index_is_opened (index));
  admin_start (index, maintenance_call_new (CALL_GET_STATE, NULL), cancellable, callback, user_data,
               hbase_index_get_state_async);
}

/**
 * hbase_index_get_state_finish:
 * @index: the index the call was started on
 * @result: the #GAsyncResult given to the callback
 * @state: (out): whether queries can use the index
 * @reason: (out) (optional) (transfer full) (nullable): why not, in words
 * @error: return location for an error
 *
 * Finishes hbase_index_get_state_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_index_get_state_finish (HBaseIndex *index, GAsyncResult *result, HBaseIndexState *state,
                              char **reason, GError **error)
{
  AdminCall *call;

  g_return_val_if_fail (check_result (index, result, hbase_index_get_state_async), FALSE);
  g_return_val_if_fail (state != NULL, FALSE);
  if (reason != NULL)
    *reason = NULL;
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  call = g_task_get_task_data (G_TASK (result));
  *state = call->state;
  if (reason != NULL)
    *reason = g_steal_pointer (&call->reason);
  return TRUE;
}

/**
 * hbase_index_verify_async:
 * @index: an index
 * @options: (nullable): as for hbase_index_verify(); copied (its progress
 *   callback then runs in the worker thread)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the report (its source object is @index)
 * @user_data: data for @callback
 *
 * Starts hbase_index_verify() in a worker thread.  Finish with
 * hbase_index_verify_finish().
 *
 * Since: 0.1
 */
void
hbase_index_verify_async (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
                          GCancellable *cancellable, GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_return_if_fail (_hbase_index_is_opened (index));
  admin_start (index, maintenance_call_new (CALL_VERIFY, options), cancellable, callback, user_data,
               hbase_index_verify_async);
}

/**
 * hbase_index_verify_finish:
 * @index: the index the call was started on
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_index_verify_async().
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error
 *
 * Since: 0.1
 */
HBaseIndexReport *
hbase_index_verify_finish (HBaseIndex *index, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (check_result (index, result, hbase_index_verify_async), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hbase_index_rebuild_async:
 * @index: an index
 * @options: (nullable): as for hbase_index_rebuild(); copied (its progress
 *   callback then runs in the worker thread)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the report (its source object is @index)
 * @user_data: data for @callback
 *
 * Starts hbase_index_rebuild() in a worker thread.  Finish with
 * hbase_index_rebuild_finish().
 *
 * Since: 0.1
 */
void
hbase_index_rebuild_async (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
                           GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  g_return_if_fail (_hbase_index_is_opened (index));
  admin_start (index, maintenance_call_new (CALL_REBUILD, options), cancellable, callback, user_data,
               hbase_index_rebuild_async);
}

/**
 * hbase_index_rebuild_finish:
 * @index: the index the call was started on
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_index_rebuild_async().
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error
 *
 * Since: 0.1
 */
HBaseIndexReport *
hbase_index_rebuild_finish (HBaseIndex *index, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (check_result (index, result, hbase_index_rebuild_async), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hbase_index_repair_async:
 * @index: an index
 * @options: (nullable): as for hbase_index_repair(); copied (its progress
 *   callback then runs in the worker thread)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the report (its source object is @index)
 * @user_data: data for @callback
 *
 * Starts hbase_index_repair() in a worker thread.  Finish with
 * hbase_index_repair_finish().
 *
 * Since: 0.1
 */
void
hbase_index_repair_async (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
                          GCancellable *cancellable, GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_return_if_fail (_hbase_index_is_opened (index));
  admin_start (index, maintenance_call_new (CALL_REPAIR, options), cancellable, callback, user_data,
               hbase_index_repair_async);
}

/**
 * hbase_index_repair_finish:
 * @index: the index the call was started on
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_index_repair_async().
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error
 *
 * Since: 0.1
 */
HBaseIndexReport *
hbase_index_repair_finish (HBaseIndex *index, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (check_result (index, result, hbase_index_repair_async), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hbase_index_drop_async:
 * @index: an index
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the index is gone (its source object is @index)
 * @user_data: data for @callback
 *
 * Starts hbase_index_drop() in a worker thread.  Finish with
 * hbase_index_drop_finish().
 *
 * Since: 0.1
 */
void
hbase_index_drop_async (HBaseIndex *index, GCancellable *cancellable, GAsyncReadyCallback callback,
                        gpointer user_data)
{
  g_return_if_fail (_hbase_index_is_opened (index));
  admin_start (index, maintenance_call_new (CALL_DROP, NULL), cancellable, callback, user_data,
               hbase_index_drop_async);
}

/**
 * hbase_index_drop_finish:
 * @index: the index the call was started on
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_index_drop_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_index_drop_finish (HBaseIndex *index, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (check_result (index, result, hbase_index_drop_async), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hbase_index_migrate_async:
 * @index: an index
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the keys are moved (its source object is @index)
 * @user_data: data for @callback
 *
 * Starts hbase_index_migrate() in a worker thread.  Finish with
 * hbase_index_migrate_finish().
 *
 * Since: 0.2
 */
void
hbase_index_migrate_async (HBaseIndex *index, GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  g_return_if_fail (_hbase_index_is_opened (index));
  admin_start (index, maintenance_call_new (CALL_MIGRATE, NULL), cancellable, callback, user_data,
               hbase_index_migrate_async);
}

/**
 * hbase_index_migrate_finish:
 * @index: the index the call was started on
 * @result: the #GAsyncResult given to the callback
 * @moved: (out) (optional): how many Redis keys were moved
 * @error: return location for an error
 *
 * Finishes hbase_index_migrate_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.2
 */
gboolean
hbase_index_migrate_finish (HBaseIndex *index, GAsyncResult *result, guint64 *moved, GError **error)
{
  AdminCall *call;

  g_return_val_if_fail (check_result (index, result, hbase_index_migrate_async), FALSE);
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  call = g_task_get_task_data (G_TASK (result));
  if (moved != NULL)
    *moved = call->moved;
  return TRUE;
}
