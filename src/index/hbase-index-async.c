/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-async.c: the _async/_finish pairs of the index queries.
 * Each runs its synchronous twin in a GTask worker thread, holding a
 * reference to the index, so the caller may drop its own before the
 * callback runs. */
#include "config.h"

#include <gio/gio.h>

#include "hbase-index-private.h"
#include "../connection/hbase-client-async-private.h"

typedef struct {
  HBaseIndex *index;
  HBaseIndexQuery *query;
  HBaseIndexFindOptions options;
  char *page_token;
  char **columns;
  guint64 count;
} QueryCall;

static void
query_call_free (gpointer data)
{
  QueryCall *call = data;

  g_clear_object (&call->index);
  g_clear_pointer (&call->query, hbase_index_query_unref);
  g_free (call->page_token);
  g_strfreev (call->columns);
  g_free (call);
}

/* A task holding a copy of everything the query reads: @options' strings
 * too, since the caller's may be gone when the thread runs. */
static GTask *
query_task_new (HBaseIndex *index, HBaseIndexQuery *query, const HBaseIndexFindOptions *options,
                GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data,
                gpointer source_tag)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  QueryCall *call = g_new0 (QueryCall, 1);
  HBaseIndexFindOptions defaults = HBASE_INDEX_FIND_OPTIONS_INIT;

  call->index = g_object_ref (index);
  call->query = query != NULL ? hbase_index_query_ref (query) : NULL;
  call->options = options != NULL ? *options : defaults;
  if (options != NULL)
    {
      call->page_token = g_strdup (options->page_token);
      call->columns = g_strdupv ((char **) options->columns);
    }
  call->options.page_token = call->page_token;
  call->options.columns = (const char *const *) call->columns;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, call, query_call_free);
  return task;
}

static void
find_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  QueryCall *call = data;
  GError *error = NULL;
  HBaseIndexPage *page;

  (void) source;
  page = hbase_index_find (call->index, call->query, &call->options, cancellable, &error);
  if (page == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, page, (GDestroyNotify) hbase_index_page_free);
}

/**
 * hbase_index_find_async:
 * @index: an index
 * @query: the condition
 * @options: (nullable): as for hbase_index_find(); copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the page is ready (its source object is %NULL)
 * @user_data: data for @callback
 *
 * Starts hbase_index_find() in a worker thread; the caller may drop its
 * reference to @index before @callback runs.  Finish with hbase_index_find_finish().
 *
 * Since: 0.1
 */
void
hbase_index_find_async (HBaseIndex *index, HBaseIndexQuery *query, const HBaseIndexFindOptions *options,
                        GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (_hbase_index_is_opened (index));
  task = query_task_new (index, query, options, cancellable, callback, user_data,
                         hbase_index_find_async);
  _hbase_client_run_task (hbase_table_get_client (index->table), task, find_in_thread);
}

/**
 * hbase_index_find_finish:
 * @index: (nullable): the index the query was started on (unused; it may
 *   have been released, pass %NULL then)
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_index_find_async().
 *
 * Returns: (transfer full) (nullable): the page, or %NULL with @error
 *
 * Since: 0.1
 */
HBaseIndexPage *
hbase_index_find_finish (HBaseIndex *index, GAsyncResult *result, GError **error)
{
  (void) index;
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_index_find_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
count_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  QueryCall *call = data;
  GError *error = NULL;

  (void) source;
  if (hbase_index_count (call->index, call->query, &call->count, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * hbase_index_count_async:
 * @index: an index
 * @query: the condition
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the count is ready (its source object is %NULL)
 * @user_data: data for @callback
 *
 * Starts hbase_index_count() in a worker thread; the caller may drop its
 * reference to @index before @callback runs.  Finish with hbase_index_count_finish().
 *
 * Since: 0.1
 */
void
hbase_index_count_async (HBaseIndex *index, HBaseIndexQuery *query, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (_hbase_index_is_opened (index));
  task = query_task_new (index, query, NULL, cancellable, callback, user_data,
                         hbase_index_count_async);
  _hbase_client_run_task (hbase_table_get_client (index->table), task, count_in_thread);
}

/**
 * hbase_index_count_finish:
 * @index: (nullable): the index the count was started on (unused; may be
 *   %NULL)
 * @result: the #GAsyncResult given to the callback
 * @count: (out): how many rows match
 * @error: return location for an error
 *
 * Finishes hbase_index_count_async().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_index_count_finish (HBaseIndex *index, GAsyncResult *result, guint64 *count, GError **error)
{
  QueryCall *call;

  (void) index;
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_index_count_async, FALSE);
  g_return_val_if_fail (count != NULL, FALSE);
  *count = 0;
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  call = g_task_get_task_data (G_TASK (result));
  *count = call->count;
  return TRUE;
}
