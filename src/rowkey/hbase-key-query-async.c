/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-query-async.c: hbase_key_query_run() as an _async/_finish
 * pair, on the worker threads of the client of the query's table, with a
 * copy of the query. */
#include "config.h"

#include <hbase-glib/hbase-key-scanner.h>

#include "../connection/hbase-client-async-private.h"

typedef struct {
  HBaseKeySchema *schema;
  HBaseKeyQuery *query;
  char *next_page_token;
} QueryCall;

static void
query_call_free (gpointer data)
{
  QueryCall *call = data;

  g_clear_pointer (&call->schema, hbase_key_schema_unref);
  g_clear_pointer (&call->query, hbase_key_query_free);
  g_free (call->next_page_token);
  g_free (call);
}

static void
run_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  QueryCall *call = data;
  GError *error = NULL;
  GPtrArray *rows = hbase_key_query_run (source, call->schema, call->query,
                                         &call->next_page_token, cancellable, &error);

  if (rows != NULL)
    g_task_return_pointer (task, rows, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

/**
 * hbase_key_query_run_async:
 * @table: the table
 * @schema: the schema of its row keys (referenced)
 * @query: the query; copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the thread-default main context of
 *   the caller with the page
 * @user_data: data for @callback
 *
 * One page of rows of @query; see hbase_key_query_run().  Runs on the
 * worker threads of the client of @table; the operation timeout of its
 * first call counts from this call.  Finish with
 * hbase_key_query_run_finish().
 *
 * Since: 0.1
 */
void
hbase_key_query_run_async (HBaseTable *table, HBaseKeySchema *schema, const HBaseKeyQuery *query,
                           GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  g_autoptr(GTask) task = NULL;
  QueryCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  task = g_task_new (table, cancellable, callback, user_data);
  g_task_set_source_tag (task, hbase_key_query_run_async);
  call = g_new0 (QueryCall, 1);
  call->schema = schema != NULL ? hbase_key_schema_ref (schema) : NULL;
  call->query = query != NULL ? hbase_key_query_copy (query) : NULL;
  g_task_set_task_data (task, call, query_call_free);
  _hbase_client_run_task (hbase_table_get_client (table), task, run_in_thread);
}

/**
 * hbase_key_query_run_finish:
 * @table: the table
 * @result: the result given to the callback
 * @next_page_token: (out) (optional) (nullable) (transfer full): where to
 *   store the token of the next page, %NULL when this page is the last
 * @error: return location for an error
 *
 * Finishes hbase_key_query_run_async().
 *
 * Returns: (transfer container) (element-type HBaseRow) (nullable): the
 *   rows, like hbase_key_query_run(), or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_key_query_run_finish (HBaseTable *table, GAsyncResult *result, char **next_page_token,
                            GError **error)
{
  GPtrArray *rows;

  g_return_val_if_fail (g_task_is_valid (result, table), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_key_query_run_async,
                        NULL);
  rows = g_task_propagate_pointer (G_TASK (result), error);
  if (next_page_token != NULL)
    *next_page_token = rows != NULL
      ? g_strdup (((QueryCall *) g_task_get_task_data (G_TASK (result)))->next_page_token)
      : NULL;
  return rows;
}
