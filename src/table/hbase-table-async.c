/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-async.c: the _async/_finish pairs of the table calls that
 * hbase-table.c and hbase-table-atomic.c have only synchronously: exists,
 * mutate row, append and the counter helpers.  Each runs its synchronous
 * twin on the client's worker threads with references to, or copies of,
 * its arguments, so the caller may let go of its own at once. */
#include "config.h"

#include <hbase-glib/hbase-table.h>

#include "../connection/hbase-client-async-private.h"

typedef struct {
  GBytes *row;
  HBaseReadOptions *options;
  GPtrArray *mutations;       /* of HBaseMutation, each referenced */
  HBaseMutation *mutation;
  char *family;
  char *qualifier;
  gint64 amount;              /* increment: the amount; set: the value */
  gint64 value;               /* what the call read */
  gboolean exists;
} TableAsyncCall;

static void
call_free (gpointer data)
{
  TableAsyncCall *call = data;

  g_clear_pointer (&call->row, g_bytes_unref);
  g_clear_pointer (&call->options, hbase_read_options_free);
  g_clear_pointer (&call->mutations, g_ptr_array_unref);
  g_clear_pointer (&call->mutation, hbase_mutation_unref);
  g_free (call->family);
  g_free (call->qualifier);
  g_free (call);
}

static TableAsyncCall *
call_new (GBytes *row, const char *family, const char *qualifier)
{
  TableAsyncCall *call = g_new0 (TableAsyncCall, 1);

  call->row = row != NULL ? g_bytes_ref (row) : NULL;
  call->family = g_strdup (family);
  call->qualifier = g_strdup (qualifier);
  return call;
}

static void
call_start (HBaseTable *table, TableAsyncCall *call, gpointer source_tag, GTaskThreadFunc func,
            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (table, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, call, call_free);
  _hbase_client_run_task (hbase_table_get_client (table), task, func);
}

/* The call's data once it succeeded, or NULL with @error set. */
static TableAsyncCall *
call_finish (HBaseTable *table, GAsyncResult *result, gpointer source_tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  return g_task_get_task_data (G_TASK (result));
}

static void
return_boolean (GTask *task, gboolean ok, GError *error)
{
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* --- exists ------------------------------------------------------------------------------- */

static void
exists_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  TableAsyncCall *call = data;
  GError *error = NULL;
  gboolean ok = hbase_table_exists (source, call->row, call->options, &call->exists,
                                    cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_table_exists_async:
 * @table: a table
 * @row: the row key
 * @options: (nullable): as for hbase_table_exists(); copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Checks whether a row exists; see hbase_table_exists().  Runs on the
 * client's worker threads; the operation timeout counts from this call.
 * Finish with hbase_table_exists_finish().
 *
 * Since: 0.1
 */
void
hbase_table_exists_async (HBaseTable *table, GBytes *row, const HBaseReadOptions *options,
                          GCancellable *cancellable, GAsyncReadyCallback callback,
                          gpointer user_data)
{
  TableAsyncCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = call_new (row, NULL, NULL);
  call->options = options != NULL ? hbase_read_options_copy (options) : NULL;
  call_start (table, call, hbase_table_exists_async, exists_in_thread, cancellable, callback,
              user_data);
}

/**
 * hbase_table_exists_finish:
 * @table: a table
 * @result: the result given to the callback
 * @exists: (out) (optional): whether the row has a matching cell
 * @error: return location for an error
 *
 * Finishes hbase_table_exists_async().
 *
 * Returns: %TRUE if the check was made (the answer is in @exists), %FALSE
 *   with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_table_exists_finish (HBaseTable *table, GAsyncResult *result, gboolean *exists,
                           GError **error)
{
  TableAsyncCall *call = call_finish (table, result, hbase_table_exists_async, error);

  if (call == NULL)
    return FALSE;
  if (exists != NULL)
    *exists = call->exists;
  return TRUE;
}

/* --- mutate row ----------------------------------------------------------------------------- */

static void
mutate_row_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  TableAsyncCall *call = data;
  GError *error = NULL;
  gboolean ok = hbase_table_mutate_row (source, call->mutations, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_table_mutate_row_async:
 * @table: a table
 * @mutations: (element-type HBaseMutation): puts and deletes of one row, as
 *   for hbase_table_mutate_row(); the call keeps a reference to each
 *   mutation, which must not change until the call is over
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Applies mutations of one row atomically; see hbase_table_mutate_row().
 * Runs on the client's worker threads; the operation timeout counts from
 * this call.  Finish with hbase_table_mutate_row_finish().
 *
 * Since: 0.1
 */
void
hbase_table_mutate_row_async (HBaseTable *table, GPtrArray *mutations,
                              GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  TableAsyncCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = call_new (NULL, NULL, NULL);
  if (mutations != NULL)
    call->mutations = g_ptr_array_copy (mutations, (GCopyFunc) (void (*) (void)) hbase_mutation_ref,
                                        NULL);
  if (call->mutations != NULL)
    g_ptr_array_set_free_func (call->mutations, (GDestroyNotify) hbase_mutation_unref);
  call_start (table, call, hbase_table_mutate_row_async, mutate_row_in_thread, cancellable,
              callback, user_data);
}

/**
 * hbase_table_mutate_row_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_mutate_row_async().
 *
 * Returns: %TRUE if the mutations were applied, %FALSE with @error set
 *   otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_table_mutate_row_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  return call_finish (table, result, hbase_table_mutate_row_async, error) != NULL;
}

/* --- append --------------------------------------------------------------------------------- */

static void
append_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  TableAsyncCall *call = data;
  GError *error = NULL;
  HBaseRow *row = hbase_table_append (source, call->mutation, cancellable, &error);

  if (row != NULL)
    g_task_return_pointer (task, row, (GDestroyNotify) hbase_row_unref);
  else
    g_task_return_error (task, error);
}

/**
 * hbase_table_append_async:
 * @table: a table
 * @append: an append mutation, as for hbase_table_append(); the call keeps
 *   a reference, and it must not change until the call is over
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Appends to cells atomically; see hbase_table_append().  Runs on the
 * client's worker threads; the operation timeout counts from this call.
 * Finish with hbase_table_append_finish().
 *
 * Since: 0.1
 */
void
hbase_table_append_async (HBaseTable *table, HBaseMutation *append, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  TableAsyncCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = call_new (NULL, NULL, NULL);
  call->mutation = append != NULL ? hbase_mutation_ref (append) : NULL;
  call_start (table, call, hbase_table_append_async, append_in_thread, cancellable, callback,
              user_data);
}

/**
 * hbase_table_append_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_append_async().
 *
 * Returns: (transfer full) (nullable): the new values, like
 *   hbase_table_append(), or %NULL with @error set
 *
 * Since: 0.1
 */
HBaseRow *
hbase_table_append_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_table_append_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* --- counters ------------------------------------------------------------------------------- */

static void
increment_counter_in_thread (GTask *task, gpointer source, gpointer data,
                             GCancellable *cancellable)
{
  TableAsyncCall *call = data;
  GError *error = NULL;
  gboolean ok = hbase_table_increment_counter (source, call->row, call->family, call->qualifier,
                                               call->amount, &call->value, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_table_increment_counter_async:
 * @table: a table
 * @row: the row key
 * @family: the column family; copied
 * @qualifier: (nullable): the qualifier, %NULL for the empty one; copied
 * @amount: what to add
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Adds to a 64-bit counter; see hbase_table_increment_counter().  Runs on
 * the client's worker threads; the operation timeout counts from this call.
 * Finish with hbase_table_increment_counter_finish().
 *
 * Since: 0.1
 */
void
hbase_table_increment_counter_async (HBaseTable *table, GBytes *row, const char *family,
                                     const char *qualifier, gint64 amount,
                                     GCancellable *cancellable, GAsyncReadyCallback callback,
                                     gpointer user_data)
{
  TableAsyncCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = call_new (row, family, qualifier);
  call->amount = amount;
  call_start (table, call, hbase_table_increment_counter_async, increment_counter_in_thread,
              cancellable, callback, user_data);
}

/**
 * hbase_table_increment_counter_finish:
 * @table: a table
 * @result: the result given to the callback
 * @value: (out) (optional): the counter's new value
 * @error: return location for an error
 *
 * Finishes hbase_table_increment_counter_async().
 *
 * Returns: %TRUE on success, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_table_increment_counter_finish (HBaseTable *table, GAsyncResult *result, gint64 *value,
                                      GError **error)
{
  TableAsyncCall *call = call_finish (table, result, hbase_table_increment_counter_async, error);

  if (call == NULL)
    return FALSE;
  if (value != NULL)
    *value = call->value;
  return TRUE;
}

static void
get_counter_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  TableAsyncCall *call = data;
  GError *error = NULL;
  gboolean ok = hbase_table_get_counter (source, call->row, call->family, call->qualifier,
                                         &call->value, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_table_get_counter_async:
 * @table: a table
 * @row: the row key
 * @family: the column family; copied
 * @qualifier: (nullable): the qualifier, %NULL for the empty one; copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Reads a 64-bit counter; see hbase_table_get_counter().  Runs on the
 * client's worker threads; the operation timeout counts from this call.
 * Finish with hbase_table_get_counter_finish().
 *
 * Since: 0.1
 */
void
hbase_table_get_counter_async (HBaseTable *table, GBytes *row, const char *family,
                               const char *qualifier, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_TABLE (table));
  call_start (table, call_new (row, family, qualifier), hbase_table_get_counter_async,
              get_counter_in_thread, cancellable, callback, user_data);
}

/**
 * hbase_table_get_counter_finish:
 * @table: a table
 * @result: the result given to the callback
 * @value: (out) (optional): the counter's value, 0 when the cell is missing
 * @error: return location for an error
 *
 * Finishes hbase_table_get_counter_async().
 *
 * Returns: %TRUE on success, %FALSE with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_table_get_counter_finish (HBaseTable *table, GAsyncResult *result, gint64 *value,
                                GError **error)
{
  TableAsyncCall *call = call_finish (table, result, hbase_table_get_counter_async, error);

  if (call == NULL)
    return FALSE;
  if (value != NULL)
    *value = call->value;
  return TRUE;
}

static void
set_counter_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  TableAsyncCall *call = data;
  GError *error = NULL;
  gboolean ok = hbase_table_set_counter (source, call->row, call->family, call->qualifier,
                                         call->amount, cancellable, &error);

  return_boolean (task, ok, error);
}

/**
 * hbase_table_set_counter_async:
 * @table: a table
 * @row: the row key
 * @family: the column family; copied
 * @qualifier: (nullable): the qualifier, %NULL for the empty one; copied
 * @value: the counter's new value
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the call is over
 * @user_data: data for @callback
 *
 * Writes a 64-bit counter; see hbase_table_set_counter().  Runs on the
 * client's worker threads; the operation timeout counts from this call.
 * Finish with hbase_table_set_counter_finish().
 *
 * Since: 0.1
 */
void
hbase_table_set_counter_async (HBaseTable *table, GBytes *row, const char *family,
                               const char *qualifier, gint64 value, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  TableAsyncCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = call_new (row, family, qualifier);
  call->amount = value;
  call_start (table, call, hbase_table_set_counter_async, set_counter_in_thread, cancellable,
              callback, user_data);
}

/**
 * hbase_table_set_counter_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_set_counter_async().
 *
 * Returns: %TRUE if the counter was written, %FALSE with @error set
 *   otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_table_set_counter_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  return call_finish (table, result, hbase_table_set_counter_async, error) != NULL;
}
