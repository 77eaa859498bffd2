/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-scanner-next.c: the iteration of an HBaseScanner, sync and async,
 * with the library's iterator convention (TRUE and a row, TRUE and NULL at
 * the end, FALSE on error); the scan itself is in hbase-scanner.c. */
#include "config.h"

#include "hbase-table-private.h"
#include "../connection/hbase-client-async-private.h"

/**
 * hbase_scanner_next:
 * @scanner: a scanner
 * @row: (out) (transfer full) (optional) (nullable): the next row, or %NULL
 *   at the end of the scan
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Gets the next row of the scan, fetching more from the gateway when none
 * is buffered (opening the scan on the first call).  Partial rows of a
 * batched scan come back whole.  Like every iterator of the library (see
 * g_file_enumerator_iterate()): %TRUE with @row set is a row, %TRUE with
 * @row %NULL is the end (and every later call says so again), %FALSE is an
 * error.
 *
 * ```c
 * HBaseRow *row;
 *
 * while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
 *   {
 *     ...
 *     hbase_row_unref (row);
 *   }
 * if (error != NULL)
 *   ...
 * ```
 *
 * When the gateway lost the scanner (it expires scanners idle for 60 s) or
 * the connection broke during a fetch, a new scanner continues just after
 * the last row returned.  After any other error, the next call continues the
 * same way, so no row is lost or repeated.
 *
 * Returns: %TRUE with @row set to the next row or to %NULL at the end;
 *   %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
hbase_scanner_next (HBaseScanner *scanner, HBaseRow **row, GCancellable *cancellable,
                    GError **error)
{
  GError *local = NULL;
  HBaseRow *next;

  if (row != NULL)
    *row = NULL;
  if (!HBASE_IS_SCANNER (scanner))
    return _hbase_illegal (error, "hbase_scanner_next needs a scanner");
  next = _hbase_scanner_next_row (scanner, cancellable, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (row != NULL)
    *row = next;
  else if (next != NULL)
    hbase_row_unref (next);
  return TRUE;
}

static void
next_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  HBaseRow *row = NULL;

  if (!hbase_scanner_next (task_data, &row, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, row, (GDestroyNotify) hbase_row_unref);
}

/**
 * hbase_scanner_next_async:
 * @scanner: a scanner
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the thread-default main context of the caller
 * @user_data: data for @callback
 *
 * hbase_scanner_next() on the client's worker pool.  The call holds a reference on
 * @scanner; @scanner must not be used otherwise until @callback has run.
 *
 * Since: 0.1
 */
void
hbase_scanner_next_async (HBaseScanner        *scanner,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HBASE_IS_SCANNER (scanner));
  task = g_task_new (scanner, cancellable, callback, user_data);
  g_task_set_source_tag (task, hbase_scanner_next_async);
  g_task_set_task_data (task, scanner, NULL);
  if (_hbase_scanner_get_client (scanner) == NULL)
    next_in_thread (task, scanner, scanner, cancellable);   /* refused at once: no client */
  else
    _hbase_client_run_task (_hbase_scanner_get_client (scanner), task, next_in_thread);
}

/**
 * hbase_scanner_next_finish:
 * @scanner: a scanner
 * @result: the result given to the callback
 * @row: (out) (transfer full) (optional) (nullable): the next row, or %NULL
 *   at the end of the scan
 * @error: return location for an error
 *
 * Finishes hbase_scanner_next_async(), with the convention of
 * hbase_scanner_next().
 *
 * Returns: %TRUE with @row set to the next row or to %NULL at the end;
 *   %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
hbase_scanner_next_finish (HBaseScanner *scanner, GAsyncResult *result, HBaseRow **row,
                           GError **error)
{
  GError *local = NULL;
  HBaseRow *next;

  if (row != NULL)
    *row = NULL;
  g_return_val_if_fail (g_task_is_valid (result, scanner), FALSE);
  next = g_task_propagate_pointer (G_TASK (result), &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (row != NULL)
    *row = next;
  else if (next != NULL)
    hbase_row_unref (next);
  return TRUE;
}
