/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-structures-async.c: runs a set's or sorted set's blocking call on
 * the client's worker pool, for their _async/_finish pairs. */
#include "config.h"

#include "hbase-structures-async-private.h"
#include "hbase-set-private.h"
#include "hbase-zset-private.h"
#include "../connection/hbase-client-async-private.h"

StructureCall *
_hbase_structure_call_new (StructureFunc func, gpointer self, GDestroyNotify self_free)
{
  StructureCall *call = g_new0 (StructureCall, 1);

  call->func = func;
  call->self = self;
  call->self_free = self_free;
  return call;
}

static void
structure_call_free (gpointer data)
{
  StructureCall *call = data;

  if (call->self_free != NULL && call->self != NULL)
    call->self_free (call->self);
  g_clear_pointer (&call->members, g_ptr_array_unref);
  g_clear_pointer (&call->member, g_bytes_unref);
  g_clear_pointer (&call->bytes, g_bytes_unref);
  g_free (call->text);
  g_clear_object (&call->table);
  g_clear_pointer (&call->numbers, g_array_unref);
  g_clear_pointer (&call->list, g_ptr_array_unref);
  g_clear_pointer (&call->out_bytes, g_bytes_unref);
  g_clear_pointer (&call->flags_out, g_array_unref);
  g_clear_pointer (&call->numbers_out, g_array_unref);
  g_free (call);
}

static void
run_in_worker (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  StructureCall *call = task_data;
  GError *error = NULL;

  if (call->func (call, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
_hbase_structure_call_start (StructureCall *call, HBaseClient *client, gpointer source,
                             gpointer source_tag, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (source, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, call, structure_call_free);
  if (client == NULL)
    {
      /* a handle made without a table, or an iterator that failed when
       * made: the call reports why without any I/O */
      run_in_worker (task, source, call, cancellable);
      return;
    }
  _hbase_client_run_task (client, task, run_in_worker);
}

StructureCall *
_hbase_structure_call_finish (GAsyncResult *result, gpointer source, gpointer source_tag,
                              GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  return g_task_get_task_data (G_TASK (result));
}

HBaseClient *
_hbase_set_client (HBaseSet *set)
{
  return HBASE_IS_SET (set) && set->store.table != NULL ? hbase_table_get_client (set->store.table) : NULL;
}

HBaseClient *
_hbase_zset_client (HBaseZSet *zset)
{
  return HBASE_IS_ZSET (zset) && zset->store.table != NULL ? hbase_table_get_client (zset->store.table) : NULL;
}
