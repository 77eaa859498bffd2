/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-query-async.c: hbase_key_query_run() without blocking, on the
 * client's worker pool. */
#include "config.h"

#include <hbase-glib/hbase-key-scanner.h>

#include "../connection/hbase-client-async-private.h"

typedef struct {
  HBaseKeySchema *schema;
  HBaseKeyQuery *query;
  char *next_page_token;
} QueryRun;

static void
query_run_free (gpointer data)
{
  QueryRun *run = data;

  g_clear_pointer (&run->schema, hbase_key_schema_unref);
  g_clear_pointer (&run->query, hbase_key_query_free);
  g_free (run->next_page_token);
  g_free (run);
}

static void
run_in_worker (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  QueryRun *run = task_data;
  GError *error = NULL;
  GPtrArray *rows = hbase_key_query_run (source, run->schema, run->query, &run->next_page_token,
                                         cancellable, &error);

  if (rows == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, rows, (GDestroyNotify) g_ptr_array_unref);
}

/**
 * hbase_key_query_run_async:
 * @table: the table
 * @schema: the schema of its row keys
 * @query: the query (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the page
 * @user_data: data for @callback
 *
 * Starts hbase_key_query_run() without blocking; finish with
 * hbase_key_query_run_finish().
 *
 * Since: 0.1
 */
void
hbase_key_query_run_async (HBaseTable *table, HBaseKeySchema *schema, const HBaseKeyQuery *query,
                           GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = NULL;
  QueryRun *run;

  g_return_if_fail (HBASE_IS_TABLE (table));
  task = g_task_new (table, cancellable, callback, user_data);
  g_task_set_source_tag (task, hbase_key_query_run_async);
  run = g_new0 (QueryRun, 1);
  run->schema = schema != NULL ? hbase_key_schema_ref (schema) : NULL;
  run->query = query != NULL ? hbase_key_query_copy (query) : NULL;
  g_task_set_task_data (task, run, query_run_free);
  _hbase_client_run_task (hbase_table_get_client (table), task, run_in_worker);
}

/**
 * hbase_key_query_run_finish:
 * @table: the table
 * @result: the result given to the callback
 * @next_page_token: (out) (optional) (nullable) (transfer full): the token
 *   of the next page, %NULL after the last one (as for hbase_key_query_run())
 * @error: return location for an error
 *
 * Finishes hbase_key_query_run_async().
 *
 * Returns: (transfer container) (element-type HBaseRow) (nullable): the
 *   rows, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_key_query_run_finish (HBaseTable *table, GAsyncResult *result, char **next_page_token,
                            GError **error)
{
  GPtrArray *rows;

  g_return_val_if_fail (g_task_is_valid (result, table), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_key_query_run_async, NULL);
  rows = g_task_propagate_pointer (G_TASK (result), error);
  if (rows != NULL && next_page_token != NULL)
    *next_page_token = g_steal_pointer (&((QueryRun *) g_task_get_task_data (G_TASK (result)))->next_page_token);
  return rows;
}
