/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-client-calls.c: the calls a client makes without a table: ping
 * (is this a Thrift2 gateway?) and list namespaces, sync and async, through
 * hbase_client_call() like every other call. */
#include "config.h"

#include <hbase-glib/hbase-client-thrift.h>

#include "hbase-client-async-private.h"

static gboolean
ping_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  HbaseThriftTThriftServerType type = 0;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_get_thrift_server_type (service, &type, &call_error))
    {
      hbase_error_take_call_error (error, call_error, NULL, NULL);
      return FALSE;
    }
  if (type != HBASE_THRIFT_T_THRIFT_SERVER_TYPE_TWO)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "the gateway is not a Thrift2 gateway (server type %d): "
                   "start it as `hbase thrift2`, not `hbase thrift`", (int) type);
      return FALSE;
    }
  return TRUE;
}

/**
 * hbase_client_ping:
 * @client: a client
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Checks that a gateway answers and is a Thrift2 gateway.
 *
 * Returns: %TRUE if it does
 *
 * Since: 0.1
 */
gboolean
hbase_client_ping (HBaseClient *client, GCancellable *cancellable, GError **error)
{
  return hbase_client_call (client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY, ping_once, NULL, cancellable, error);
}

static void
ping_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;

  if (hbase_client_ping (source, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * hbase_client_ping_async:
 * @client: a client
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_client_ping().
 *
 * Since: 0.1
 */
void
hbase_client_ping_async (HBaseClient *client, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HBASE_IS_CLIENT (client));
  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, hbase_client_ping_async);
  _hbase_client_run_task (client, task, ping_in_thread);
}

/**
 * hbase_client_ping_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_ping_async().
 *
 * Returns: %TRUE if the gateway answered and is a Thrift2 gateway, %FALSE
 *   with @error set otherwise
 *
 * Since: 0.1
 */
gboolean
hbase_client_ping_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static gboolean
list_namespaces_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  GStrv *out = user_data;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_list_namespaces (service, &names, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  g_ptr_array_add (names, NULL);
  g_strfreev (*out);
  *out = (GStrv) g_ptr_array_steal (names, NULL);
  return TRUE;
}

/**
 * hbase_client_list_namespaces:
 * @client: a client
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Lists the namespaces of the cluster.  The call is retried like any read.
 *
 * Returns: (transfer full) (array zero-terminated=1) (nullable): the
 *   namespace names, or %NULL with @error set
 *
 * Since: 0.1
 */
char **
hbase_client_list_namespaces (HBaseClient *client, GCancellable *cancellable, GError **error)
{
  GStrv names = NULL;

  if (!hbase_client_call (client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY, list_namespaces_once, &names,
                          cancellable, error))
    {
      g_strfreev (names);
      return NULL;
    }
  return names;
}

static void
list_namespaces_in_thread (GTask *task, gpointer source, gpointer task_data,
                           GCancellable *cancellable)
{
  GError *error = NULL;
  char **names = hbase_client_list_namespaces (source, cancellable, &error);

  if (names != NULL)
    g_task_return_pointer (task, names, (GDestroyNotify) g_strfreev);
  else
    g_task_return_error (task, error);
}

/**
 * hbase_client_list_namespaces_async:
 * @client: a client
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Asynchronous hbase_client_list_namespaces().
 *
 * Since: 0.1
 */
void
hbase_client_list_namespaces_async (HBaseClient *client, GCancellable *cancellable,
                                    GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HBASE_IS_CLIENT (client));
  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, hbase_client_list_namespaces_async);
  _hbase_client_run_task (client, task, list_namespaces_in_thread);
}

/**
 * hbase_client_list_namespaces_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_list_namespaces_async().
 *
 * Returns: (transfer full) (array zero-terminated=1) (nullable): the
 *   namespace names, like hbase_client_list_namespaces(), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
char **
hbase_client_list_namespaces_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
