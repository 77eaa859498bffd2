/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-write-buffer-async.c: the _async/_finish pairs of the write
 * buffer's add, flush and close.  Each runs its synchronous twin on the
 * worker threads of the client the buffer's table sends through. */
#include "config.h"

#include <hbase-glib/hbase-write-buffer.h>

#include "../connection/hbase-client-async-private.h"

static void
add_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  gboolean ok = hbase_write_buffer_add (source, data, cancellable, &error);

  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
flush_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  gboolean ok = hbase_write_buffer_flush (source, cancellable, &error);

  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
close_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  gboolean ok = hbase_write_buffer_close (source, cancellable, &error);

  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
start (HBaseWriteBuffer *buffer, gpointer data, GDestroyNotify data_free, gpointer source_tag,
       GTaskThreadFunc func, GCancellable *cancellable, GAsyncReadyCallback callback,
       gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (buffer, cancellable, callback, user_data);
  HBaseTable *table = hbase_write_buffer_get_table (buffer);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, data, data_free);
  if (table == NULL)
    {
      /* made by g_object_new() alone: the sync call says what is wrong */
      func (task, buffer, data, cancellable);
      return;
    }
  _hbase_client_run_task (hbase_table_get_client (table), task, func);
}

static gboolean
finish (HBaseWriteBuffer *buffer, GAsyncResult *result, gpointer source_tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, buffer), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hbase_write_buffer_add_async:
 * @buffer: a write buffer
 * @mutation: a put or a delete (referenced: do not change it afterwards)
 * @cancellable: (nullable): cancels the flush this add may start
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the mutation is buffered (and written, if it filled
 *   the buffer and the buffer flushes in the caller's thread)
 * @user_data: data for @callback
 *
 * Buffers a mutation; see hbase_write_buffer_add().  Runs on the worker
 * threads of the client the buffer's table sends through, so an add that
 * fills the buffer flushes it without blocking the caller.  Adds started
 * without waiting for each other's callbacks may run at the same time and
 * reach the buffer in any order: wait for each callback when the order of
 * the writes matters.  Finish with hbase_write_buffer_add_finish().
 *
 * Since: 0.1
 */
void
hbase_write_buffer_add_async (HBaseWriteBuffer *buffer, HBaseMutation *mutation,
                              GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  g_return_if_fail (HBASE_IS_WRITE_BUFFER (buffer));
  start (buffer, mutation != NULL ? hbase_mutation_ref (mutation) : NULL,
         (GDestroyNotify) hbase_mutation_unref, hbase_write_buffer_add_async, add_in_thread,
         cancellable, callback, user_data);
}

/**
 * hbase_write_buffer_add_finish:
 * @buffer: a write buffer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_write_buffer_add_async().
 *
 * Returns: %TRUE if the mutation was buffered, %FALSE with @error set if
 *   it was refused, as hbase_write_buffer_add()
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_add_finish (HBaseWriteBuffer *buffer, GAsyncResult *result, GError **error)
{
  return finish (buffer, result, hbase_write_buffer_add_async, error);
}

/**
 * hbase_write_buffer_flush_async:
 * @buffer: a write buffer
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the flush is over
 * @user_data: data for @callback
 *
 * Sends every mutation buffered so far; see hbase_write_buffer_flush().
 * Runs on the worker threads of the client the buffer's table sends
 * through; the operation timeout of its first call counts from this call.
 * Finish with hbase_write_buffer_flush_finish().
 *
 * Since: 0.1
 */
void
hbase_write_buffer_flush_async (HBaseWriteBuffer *buffer, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_WRITE_BUFFER (buffer));
  start (buffer, NULL, NULL, hbase_write_buffer_flush_async, flush_in_thread, cancellable,
         callback, user_data);
}

/**
 * hbase_write_buffer_flush_finish:
 * @buffer: a write buffer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_write_buffer_flush_async().
 *
 * Returns: %TRUE if every mutation was written, %FALSE with @error set
 *   otherwise, as hbase_write_buffer_flush()
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_flush_finish (HBaseWriteBuffer *buffer, GAsyncResult *result, GError **error)
{
  return finish (buffer, result, hbase_write_buffer_flush_async, error);
}

/**
 * hbase_write_buffer_close_async:
 * @buffer: a write buffer
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller when the buffer is closed
 * @user_data: data for @callback
 *
 * Closes the buffer and flushes what is left; see
 * hbase_write_buffer_close().  Runs on the worker threads of the client
 * the buffer's table sends through.  Finish with
 * hbase_write_buffer_close_finish().
 *
 * Since: 0.1
 */
void
hbase_write_buffer_close_async (HBaseWriteBuffer *buffer, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_WRITE_BUFFER (buffer));
  start (buffer, NULL, NULL, hbase_write_buffer_close_async, close_in_thread, cancellable,
         callback, user_data);
}

/**
 * hbase_write_buffer_close_finish:
 * @buffer: a write buffer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_write_buffer_close_async().
 *
 * Returns: %TRUE if every mutation was written and no failure is left
 *   untaken, %FALSE with @error set otherwise, as hbase_write_buffer_close()
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_close_finish (HBaseWriteBuffer *buffer, GAsyncResult *result, GError **error)
{
  return finish (buffer, result, hbase_write_buffer_close_async, error);
}
