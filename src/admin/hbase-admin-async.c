/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-admin-async.c: the _async/_finish pairs of the table and namespace
 * calls of hbase-admin.c.  Each runs its synchronous twin on the client's
 * worker threads, with copies of its arguments, so the caller's may be
 * gone before the worker runs. */
#include "config.h"

#include <hbase-glib/hbase-admin.h>

#include "../connection/hbase-client-async-private.h"

typedef struct {
  char *name;                     /* the table or namespace */
  HBaseFamilyOptions *families;   /* create: copies of the caller's, names owned */
  guint n_families;
  GPtrArray *split_keys;
  gboolean flag;                  /* truncate: preserve the splits */
  gboolean answer;                /* exists, is enabled */
} AdminCall;

static void
admin_call_free (gpointer data)
{
  AdminCall *call = data;

  for (guint i = 0; i < call->n_families; i++)
    g_free ((char *) call->families[i].name);
  g_free (call->families);
  g_clear_pointer (&call->split_keys, g_ptr_array_unref);
  g_free (call->name);
  g_free (call);
}

static void
admin_call_start (HBaseClient *client, AdminCall *call, gpointer source_tag,
                  GTaskThreadFunc func, GCancellable *cancellable,
                  GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (client, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, call, admin_call_free);
  _hbase_client_run_task (client, task, func);
}

static AdminCall *
admin_call_new (const char *name)
{
  AdminCall *call = g_new0 (AdminCall, 1);

  call->name = g_strdup (name);
  return call;
}

static gboolean
admin_finish (HBaseClient *client, GAsyncResult *result, gpointer source_tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* @error is read after the call that set it: pass the call's result as @ok
 * from a variable, never the call itself as an argument next to @error */
static void
return_boolean (GTask *task, gboolean ok, GError *error)
{
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
delete_table_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;

  gboolean ok = hbase_client_delete_table (source, call->name, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_client_delete_table_async:
 * @client: a client
 * @table: the table's name, copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Deletes a table; see hbase_client_delete_table().  Runs on @client's worker
 * threads; the operation timeout counts from this call.  Finish with
 * hbase_client_delete_table_finish().
 *
 * Since: 0.1
 */
void
hbase_client_delete_table_async (HBaseClient *client, const char *table, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_call_start (client, admin_call_new (table), hbase_client_delete_table_async,
                    delete_table_in_thread, cancellable, callback, user_data);
}

/**
 * hbase_client_delete_table_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_delete_table_async().
 *
 * Returns: %TRUE if the table was deleted, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_delete_table_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return admin_finish (client, result, hbase_client_delete_table_async, error);
}

static void
enable_table_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;

  gboolean ok = hbase_client_enable_table (source, call->name, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_client_enable_table_async:
 * @client: a client
 * @table: the table's name, copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Enables a table; see hbase_client_enable_table().  Runs on @client's worker
 * threads; the operation timeout counts from this call.  Finish with
 * hbase_client_enable_table_finish().
 *
 * Since: 0.1
 */
void
hbase_client_enable_table_async (HBaseClient *client, const char *table, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_call_start (client, admin_call_new (table), hbase_client_enable_table_async,
                    enable_table_in_thread, cancellable, callback, user_data);
}

/**
 * hbase_client_enable_table_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_enable_table_async().
 *
 * Returns: %TRUE if the table is enabled, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_enable_table_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return admin_finish (client, result, hbase_client_enable_table_async, error);
}

static void
disable_table_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;

  gboolean ok = hbase_client_disable_table (source, call->name, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_client_disable_table_async:
 * @client: a client
 * @table: the table's name, copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Disables a table; see hbase_client_disable_table().  Runs on @client's worker
 * threads; the operation timeout counts from this call.  Finish with
 * hbase_client_disable_table_finish().
 *
 * Since: 0.1
 */
void
hbase_client_disable_table_async (HBaseClient *client, const char *table, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_call_start (client, admin_call_new (table), hbase_client_disable_table_async,
                    disable_table_in_thread, cancellable, callback, user_data);
}

/**
 * hbase_client_disable_table_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_disable_table_async().
 *
 * Returns: %TRUE if the table is disabled, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_disable_table_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return admin_finish (client, result, hbase_client_disable_table_async, error);
}

static void
create_namespace_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;

  gboolean ok = hbase_client_create_namespace (source, call->name, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_client_create_namespace_async:
 * @client: a client
 * @name: the namespace's name, copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Creates a namespace; see hbase_client_create_namespace().  Runs on @client's worker
 * threads; the operation timeout counts from this call.  Finish with
 * hbase_client_create_namespace_finish().
 *
 * Since: 0.1
 */
void
hbase_client_create_namespace_async (HBaseClient *client, const char *name,
                                     GCancellable *cancellable, GAsyncReadyCallback callback,
                                     gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_call_start (client, admin_call_new (name), hbase_client_create_namespace_async,
                    create_namespace_in_thread, cancellable, callback, user_data);
}

/**
 * hbase_client_create_namespace_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_create_namespace_async().
 *
 * Returns: %TRUE if the namespace was created, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_create_namespace_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return admin_finish (client, result, hbase_client_create_namespace_async, error);
}

static void
delete_namespace_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;

  gboolean ok = hbase_client_delete_namespace (source, call->name, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_client_delete_namespace_async:
 * @client: a client
 * @name: the namespace's name, copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Deletes a namespace; see hbase_client_delete_namespace().  Runs on @client's worker
 * threads; the operation timeout counts from this call.  Finish with
 * hbase_client_delete_namespace_finish().
 *
 * Since: 0.1
 */
void
hbase_client_delete_namespace_async (HBaseClient *client, const char *name,
                                     GCancellable *cancellable, GAsyncReadyCallback callback,
                                     gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_call_start (client, admin_call_new (name), hbase_client_delete_namespace_async,
                    delete_namespace_in_thread, cancellable, callback, user_data);
}

/**
 * hbase_client_delete_namespace_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_delete_namespace_async().
 *
 * Returns: %TRUE if the namespace was deleted, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_delete_namespace_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return admin_finish (client, result, hbase_client_delete_namespace_async, error);
}

static void
create_table_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;

  gboolean ok = hbase_client_create_table (source, call->name, call->families, call->n_families,
                                            call->split_keys, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_client_create_table_async:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"; copied
 * @families: (array length=n_families): the column families, at least one;
 *   copied
 * @n_families: the number of @families
 * @split_keys: (nullable) (element-type GBytes): the first rows of the
 *   second and later regions, or %NULL for one region; the call holds a
 *   reference, so the array must not change until it is over
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Creates a table; see hbase_client_create_table().  Runs on @client's
 * worker threads; the operation timeout counts from this call.  Finish
 * with hbase_client_create_table_finish().
 *
 * Since: 0.1
 */
void
hbase_client_create_table_async (HBaseClient *client, const char *table,
                                 const HBaseFamilyOptions *families, guint n_families,
                                 GPtrArray *split_keys, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
  AdminCall *call;

  g_return_if_fail (HBASE_IS_CLIENT (client));
  call = admin_call_new (table);
  if (families != NULL && n_families > 0)
    {
      call->families = g_memdup2 (families, sizeof *families * n_families);
      call->n_families = n_families;
      for (guint i = 0; i < n_families; i++)
        call->families[i].name = g_strdup (families[i].name);
    }
  call->split_keys = split_keys != NULL ? g_ptr_array_ref (split_keys) : NULL;
  admin_call_start (client, call, hbase_client_create_table_async, create_table_in_thread,
                    cancellable, callback, user_data);
}

/**
 * hbase_client_create_table_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_create_table_async().
 *
 * Returns: %TRUE if the table was created, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_create_table_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return admin_finish (client, result, hbase_client_create_table_async, error);
}

static void
truncate_table_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;

  gboolean ok = hbase_client_truncate_table (source, call->name, call->flag, cancellable,
                                              &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_client_truncate_table_async:
 * @client: a client
 * @table: the table's name; copied
 * @preserve_splits: keep the table's region boundaries
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Empties a table; see hbase_client_truncate_table().  Runs on @client's
 * worker threads; the operation timeout counts from this call.  Finish
 * with hbase_client_truncate_table_finish().
 *
 * Since: 0.1
 */
void
hbase_client_truncate_table_async (HBaseClient *client, const char *table,
                                   gboolean preserve_splits, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data)
{
  AdminCall *call;

  g_return_if_fail (HBASE_IS_CLIENT (client));
  call = admin_call_new (table);
  call->flag = preserve_splits;
  admin_call_start (client, call, hbase_client_truncate_table_async, truncate_table_in_thread,
                    cancellable, callback, user_data);
}

/**
 * hbase_client_truncate_table_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_truncate_table_async().
 *
 * Returns: %TRUE if the table was emptied, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_truncate_table_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return admin_finish (client, result, hbase_client_truncate_table_async, error);
}

static void
table_exists_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;

  gboolean ok = hbase_client_table_exists (source, call->name, &call->answer, cancellable,
                                            &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_client_table_exists_async:
 * @client: a client
 * @table: the table's name; copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Asks whether a table exists; see hbase_client_table_exists().  Runs on
 * @client's worker threads; the operation timeout counts from this call.
 * Finish with hbase_client_table_exists_finish().
 *
 * Since: 0.1
 */
void
hbase_client_table_exists_async (HBaseClient *client, const char *table,
                                 GCancellable *cancellable, GAsyncReadyCallback callback,
                                 gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_call_start (client, admin_call_new (table), hbase_client_table_exists_async,
                    table_exists_in_thread, cancellable, callback, user_data);
}

/**
 * hbase_client_table_exists_finish:
 * @client: a client
 * @result: the result given to the callback
 * @exists: (out) (optional): whether the table exists
 * @error: return location for an error
 *
 * Finishes hbase_client_table_exists_async().
 *
 * Returns: %TRUE if the gateway answered (@exists then says whether the
 *   table exists), %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_table_exists_finish (HBaseClient *client, GAsyncResult *result, gboolean *exists,
                                  GError **error)
{
  if (!admin_finish (client, result, hbase_client_table_exists_async, error))
    return FALSE;
  if (exists != NULL)
    *exists = ((AdminCall *) g_task_get_task_data (G_TASK (result)))->answer;
  return TRUE;
}

static void
is_table_enabled_in_thread (GTask *task, gpointer source, gpointer data,
                            GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;

  gboolean ok = hbase_client_is_table_enabled (source, call->name, &call->answer,
                                                cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_client_is_table_enabled_async:
 * @client: a client
 * @table: the table's name; copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Asks whether a table is enabled; see hbase_client_is_table_enabled().
 * Runs on @client's worker threads; the operation timeout counts from this
 * call.  Finish with hbase_client_is_table_enabled_finish().
 *
 * Since: 0.1
 */
void
hbase_client_is_table_enabled_async (HBaseClient *client, const char *table,
                                     GCancellable *cancellable, GAsyncReadyCallback callback,
                                     gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_call_start (client, admin_call_new (table), hbase_client_is_table_enabled_async,
                    is_table_enabled_in_thread, cancellable, callback, user_data);
}

/**
 * hbase_client_is_table_enabled_finish:
 * @client: a client
 * @result: the result given to the callback
 * @enabled: (out) (optional): whether the table is enabled
 * @error: return location for an error
 *
 * Finishes hbase_client_is_table_enabled_async().
 *
 * Returns: %TRUE if the gateway answered (@enabled then says whether the
 *   table is enabled), %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_is_table_enabled_finish (HBaseClient *client, GAsyncResult *result,
                                      gboolean *enabled, GError **error)
{
  if (!admin_finish (client, result, hbase_client_is_table_enabled_async, error))
    return FALSE;
  if (enabled != NULL)
    *enabled = ((AdminCall *) g_task_get_task_data (G_TASK (result)))->answer;
  return TRUE;
}

static void
list_tables_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AdminCall *call = data;
  GError *error = NULL;
  char **names = hbase_client_list_tables (source, call->name, cancellable, &error);

  if (names != NULL)
    g_task_return_pointer (task, names, (GDestroyNotify) g_strfreev);
  else
    g_task_return_error (task, error);
}

/**
 * hbase_client_list_tables_async:
 * @client: a client
 * @namespace_: (nullable): a namespace, or %NULL for every user table; copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Lists tables; see hbase_client_list_tables().  Runs on @client's worker
 * threads; the operation timeout counts from this call.  Finish with
 * hbase_client_list_tables_finish().
 *
 * Since: 0.1
 */
void
hbase_client_list_tables_async (HBaseClient *client, const char *namespace_,
                                GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  admin_call_start (client, admin_call_new (namespace_), hbase_client_list_tables_async,
                    list_tables_in_thread, cancellable, callback, user_data);
}

/**
 * hbase_client_list_tables_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_list_tables_async().
 *
 * Returns: (transfer full) (array zero-terminated=1) (nullable): the table
 *   names, like hbase_client_list_tables(), or %NULL with @error set
 *
 * Since: 0.1
 */
char **
hbase_client_list_tables_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_client_list_tables_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
