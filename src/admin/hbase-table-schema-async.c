/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-schema-async.c: the _async/_finish pairs of the table
 * schema calls (describe, regions, alter/add/delete a family).  Each runs
 * its synchronous twin in a worker thread on copies of its arguments; the
 * task's source object is the client. */
#include "config.h"

#include <gio/gio.h>

#include <hbase-glib/hbase-admin.h>

#include "../connection/hbase-client-async-private.h"

typedef enum {
  ASYNC_DESCRIBE,
  ASYNC_REGIONS,
  ASYNC_ALTER,
  ASYNC_ADD,
  ASYNC_DELETE,
} SchemaAsyncOp;

typedef struct {
  SchemaAsyncOp op;
  char *table;
  HBaseFamilyOptions *family;   /* ASYNC_ALTER, ASYNC_ADD */
  char *family_name;            /* ASYNC_DELETE */
} SchemaAsyncCall;

static void
schema_async_call_free (gpointer data)
{
  SchemaAsyncCall *call = data;

  g_free (call->table);
  g_clear_pointer (&call->family, hbase_family_options_free);
  g_free (call->family_name);
  g_free (call);
}

static void
schema_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  HBaseClient *client = source;
  SchemaAsyncCall *call = data;
  GError *error = NULL;
  GPtrArray *array = NULL;
  gboolean ok = FALSE;

  switch (call->op)
    {
    case ASYNC_DESCRIBE:
      array = hbase_client_describe_table (client, call->table, cancellable, &error);
      break;
    case ASYNC_REGIONS:
      array = hbase_client_get_table_regions (client, call->table, cancellable, &error);
      break;
    case ASYNC_ALTER:
      ok = hbase_client_alter_family (client, call->table, call->family, cancellable, &error);
      break;
    case ASYNC_ADD:
      ok = hbase_client_add_family (client, call->table, call->family, cancellable, &error);
      break;
    case ASYNC_DELETE:
      ok = hbase_client_delete_family (client, call->table, call->family_name, cancellable, &error);
      break;
    }
  if (error != NULL)
    g_task_return_error (task, error);
  else if (call->op == ASYNC_DESCRIBE || call->op == ASYNC_REGIONS)
    g_task_return_pointer (task, array, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_boolean (task, ok);
}

static void
schema_async (HBaseClient *client, SchemaAsyncOp op, const char *table, const HBaseFamilyOptions *family,
              const char *family_name, GCancellable *cancellable, GAsyncReadyCallback callback,
              gpointer user_data, gpointer source_tag)
{
  g_autoptr(GTask) task = g_task_new (client, cancellable, callback, user_data);
  SchemaAsyncCall *call = g_new0 (SchemaAsyncCall, 1);

  call->op = op;
  call->table = g_strdup (table);
  call->family = family != NULL ? hbase_family_options_copy (family) : NULL;
  call->family_name = g_strdup (family_name);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, call, schema_async_call_free);
  _hbase_client_run_task (client, task, schema_in_thread);
}

static gpointer
schema_finish_pointer (HBaseClient *client, GAsyncResult *result, gpointer source_tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
schema_finish_boolean (HBaseClient *client, GAsyncResult *result, gpointer source_tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hbase_client_describe_table_async:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Starts hbase_client_describe_table() in a worker thread; finish with
 * hbase_client_describe_table_finish().
 *
 * Since: 0.1
 */
void
hbase_client_describe_table_async (HBaseClient *client, const char *table, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  schema_async (client, ASYNC_DESCRIBE, table, NULL, NULL, cancellable, callback, user_data,
                hbase_client_describe_table_async);
}

/**
 * hbase_client_describe_table_finish:
 * @client: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_describe_table_async().
 *
 * Returns: (transfer container) (element-type HBaseFamilyOptions) (nullable):
 *   the families, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_client_describe_table_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return schema_finish_pointer (client, result, hbase_client_describe_table_async, error);
}

/**
 * hbase_client_get_table_regions_async:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Starts hbase_client_get_table_regions() in a worker thread; finish with
 * hbase_client_get_table_regions_finish().
 *
 * Since: 0.1
 */
void
hbase_client_get_table_regions_async (HBaseClient *client, const char *table, GCancellable *cancellable,
                                      GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  schema_async (client, ASYNC_REGIONS, table, NULL, NULL, cancellable, callback, user_data,
                hbase_client_get_table_regions_async);
}

/**
 * hbase_client_get_table_regions_finish:
 * @client: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_get_table_regions_async().
 *
 * Returns: (transfer container) (element-type HBaseRegionLocation) (nullable):
 *   the regions, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_client_get_table_regions_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return schema_finish_pointer (client, result, hbase_client_get_table_regions_async, error);
}

/**
 * hbase_client_alter_family_async:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @family: the family's new options (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Starts hbase_client_alter_family() in a worker thread; finish with
 * hbase_client_alter_family_finish().
 *
 * Since: 0.1
 */
void
hbase_client_alter_family_async (HBaseClient *client, const char *table, const HBaseFamilyOptions *family,
                                 GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  g_return_if_fail (family != NULL);
  schema_async (client, ASYNC_ALTER, table, family, NULL, cancellable, callback, user_data,
                hbase_client_alter_family_async);
}

/**
 * hbase_client_alter_family_finish:
 * @client: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_alter_family_async().
 *
 * Returns: %TRUE when HBase changed the family
 *
 * Since: 0.1
 */
gboolean
hbase_client_alter_family_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return schema_finish_boolean (client, result, hbase_client_alter_family_async, error);
}

/**
 * hbase_client_add_family_async:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @family: the new family and its options (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Starts hbase_client_add_family() in a worker thread; finish with
 * hbase_client_add_family_finish().
 *
 * Since: 0.1
 */
void
hbase_client_add_family_async (HBaseClient *client, const char *table, const HBaseFamilyOptions *family,
                               GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  g_return_if_fail (family != NULL);
  schema_async (client, ASYNC_ADD, table, family, NULL, cancellable, callback, user_data,
                hbase_client_add_family_async);
}

/**
 * hbase_client_add_family_finish:
 * @client: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_add_family_async().
 *
 * Returns: %TRUE when the family was added
 *
 * Since: 0.1
 */
gboolean
hbase_client_add_family_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return schema_finish_boolean (client, result, hbase_client_add_family_async, error);
}

/**
 * hbase_client_delete_family_async:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @family: the name of the family to delete
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Starts hbase_client_delete_family() in a worker thread; finish with
 * hbase_client_delete_family_finish().
 *
 * Since: 0.1
 */
void
hbase_client_delete_family_async (HBaseClient *client, const char *table, const char *family,
                                  GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (HBASE_IS_CLIENT (client));
  g_return_if_fail (family != NULL);
  schema_async (client, ASYNC_DELETE, table, NULL, family, cancellable, callback, user_data,
                hbase_client_delete_family_async);
}

/**
 * hbase_client_delete_family_finish:
 * @client: a client
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_delete_family_async().
 *
 * Returns: %TRUE when the family was deleted
 *
 * Since: 0.1
 */
gboolean
hbase_client_delete_family_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  return schema_finish_boolean (client, result, hbase_client_delete_family_async, error);
}
