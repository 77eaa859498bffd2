/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-write.c: puts and deletes: apply one mutation, apply many
 * (batched into putMultiple/deleteMultiple runs), mutate one row
 * atomically; sync and async. */
#include "config.h"

#include "hbase-mutation-private.h"
#include "hbase-put-request.h"
#include "hbase-table-call.h"

/* With @share, the puts are sent as they are when sent, not copied: for a
 * caller that cannot change them meanwhile.  A synchronous call returns
 * only after its last send, so its caller cannot; nor can the write
 * buffer, whose prepared batches wait for the one before (copies would be
 * held that long).  An asynchronous call copies them: its caller may
 * change or reuse a mutation as soon as the call has started. */
static TableCall *
prepare_writes (HBaseTable *table, GPtrArray *mutations, gboolean share, GError **error)
{
  g_autoptr(TableCall) call = NULL;

  if (!_hbase_table_check (table, error))
    return NULL;
  if (!_hbase_table_check_mutations (mutations, error))
    return NULL;
  call = _hbase_table_call_new (table);
  call->batches = g_ptr_array_new_with_free_func (_hbase_table_batch_free);
  _hbase_table_call_keep_mutations (call, mutations);
  call->first_batch = g_array_sized_new (FALSE, FALSE, sizeof (guint), mutations->len);
  call->last_batch = g_array_sized_new (FALSE, FALSE, sizeof (guint), mutations->len);
  for (guint i = 0; i < mutations->len; i++)
    {
      HBaseMutation *mutation = g_ptr_array_index (mutations, i);
      guint first = call->batches->len, last;

      /* a mutation of the same kind as the one before joins its batch */
      if (first > 0 && ((TableBatch *) g_ptr_array_index (call->batches, first - 1))->puts ==
                       hbase_mutation_is_put (mutation))
        first--;
      if (hbase_mutation_is_put (mutation))
        {
          /* sent as it is now (hbase-put-request.c) */
          HBaseMutation *put = share ? hbase_mutation_ref (mutation) : _hbase_mutation_copy (mutation);

          call->payload += _hbase_mutation_put_size (put);
          _hbase_table_batch_add (call->batches, TRUE, put);
        }
      else
        {
          g_autoptr(GPtrArray) deletes = g_ptr_array_new_with_free_func (g_object_unref);

          _hbase_mutation_add_deletes (mutation, deletes);
          for (guint j = 0; j < deletes->len; j++)
            _hbase_table_batch_add (call->batches, FALSE,
                                    g_object_ref (g_ptr_array_index (deletes, j)));
        }
      last = call->batches->len - 1;
      g_array_append_val (call->first_batch, first);
      g_array_append_val (call->last_batch, last);
    }
  return g_steal_pointer (&call);
}

static TableCall *
prepare_row_mutations (HBaseTable *table, GPtrArray *mutations, GError **error)
{
  g_autoptr(TableCall) call = NULL;
  HbaseThriftTRowMutations *row_mutations;
  gsize payload = 0;

  if (!_hbase_table_check (table, error))
    return NULL;
  row_mutations = _hbase_table_row_mutations_new (mutations, "mutate_row", &payload, error);
  if (row_mutations == NULL)
    return NULL;
  call = _hbase_table_call_new (table);
  call->row_mutations = row_mutations;
  call->payload = payload;
  _hbase_table_call_keep_mutations (call, mutations);
  return g_steal_pointer (&call);
}

static gboolean
send_batch (HbaseThriftTHBaseServiceIf *service, const GByteArray *table, TableBatch *batch,
            GError **error)
{
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean ok;

  if (batch->puts && batch->items->len == 1)
    return _hbase_put_request_put (service, table, g_ptr_array_index (batch->items, 0), error);
  if (batch->puts)
    return _hbase_put_request_put_multiple (service, table, batch->items, error);
  if (batch->items->len == 1)
    ok = hbase_thrift_t_h_base_service_if_delete_single (service, table,
                                                         g_ptr_array_index (batch->items, 0),
                                                         &io, &call_error);
  else
    {
      g_autoptr(GPtrArray) failed = g_ptr_array_new_with_free_func (g_object_unref);

      ok = hbase_thrift_t_h_base_service_if_delete_multiple (service, &failed, table, batch->items,
                                                             &io, &call_error);
      /* the deletes HBase did not apply come back (it usually throws instead) */
      if (ok && failed->len > 0)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_IO,
                       "deleteMultiple: %u of %u deletes were not applied",
                       failed->len, batch->items->len);
          return FALSE;
        }
    }
  if (!ok)
    hbase_error_take_call_error (error, call_error, io, NULL);
  return ok;
}

static gboolean
write_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  TableCall *call = user_data;

  /* batches already acknowledged are not sent again by a retry */
  for (; call->next_batch < call->batches->len; call->next_batch++)
    if (!send_batch (service, call->table->name_bytes,
                     g_ptr_array_index (call->batches, call->next_batch), error))
      return FALSE;
  return TRUE;
}

static gboolean
mutate_row_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  TableCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_mutate_row (service, call->table->name_bytes,
                                                    call->row_mutations, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

static TableCall *
prepare_apply (HBaseTable *table, HBaseMutation *mutation, gboolean share, HBaseCallFunc *func,
               GError **error)
{
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  TableCall *call;

  g_ptr_array_add (one, mutation);
  /* a delete of several kinds is several TDeletes: sent as one
   * mutateRow, it stays atomic like any single delete */
  call = prepare_writes (table, one, share, error);
  if (call == NULL)
    return NULL;
  *func = write_once;
  if (!hbase_mutation_is_put (mutation))
    {
      TableBatch *batch = g_ptr_array_index (call->batches, 0);

      if (batch->items->len > 1)
        {
          _hbase_table_call_free (call);
          call = prepare_row_mutations (table, one, error);
          *func = mutate_row_once;
        }
    }
  return call;
}

/**
 * hbase_table_apply:
 * @table: a table
 * @mutation: a put or a delete
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Sends one mutation.  It is checked whole first; a bad one is reported as
 * %HBASE_ERROR_ILLEGAL_ARGUMENT and nothing is sent.  A single mutation is
 * atomic, also a delete that mixes families, columns and versions.
 *
 * Returns: %TRUE if HBase applied it
 *
 * Since: 0.1
 */
gboolean
hbase_table_apply (HBaseTable *table, HBaseMutation *mutation, GCancellable *cancellable,
                   GError **error)
{
  HBaseCallFunc func = NULL;
  g_autoptr(TableCall) call = prepare_apply (table, mutation, TRUE, &func, error);

  return call != NULL && _hbase_table_call_run (call, func, cancellable, error);
}

/**
 * hbase_table_apply_multiple:
 * @table: a table
 * @mutations: (element-type HBaseMutation): puts and deletes, of any rows
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Sends many mutations in few calls: each run of consecutive puts as one
 * putMultiple, each run of consecutive deletes as one deleteMultiple, in
 * the order given.  All mutations are checked before anything is sent.
 *
 * Not atomic: when a call fails, the runs before it are applied, and HBase
 * may have applied part of the failed run.  Use hbase_table_mutate_row()
 * for an atomic change of one row.
 *
 * Returns: %TRUE if every mutation was applied
 *
 * Since: 0.1
 */
gboolean
hbase_table_apply_multiple (HBaseTable *table, GPtrArray *mutations, GCancellable *cancellable,
                            GError **error)
{
  g_autoptr(TableCall) call = prepare_writes (table, mutations, TRUE, error);

  return call != NULL && _hbase_table_call_run (call, write_once, cancellable, error);
}

TableCall *
_hbase_table_apply_multiple_prepare (HBaseTable *table, GPtrArray *mutations,
                                     GCancellable *cancellable, GError **error)
{
  g_autoptr(TableCall) call = prepare_writes (table, mutations, TRUE, error);

  if (call == NULL || !_hbase_table_call_before (call, cancellable, error))
    return NULL;
  return g_steal_pointer (&call);
}

gboolean
_hbase_table_apply_multiple_send (TableCall *call, GCancellable *cancellable, GError **error)
{
  return _hbase_table_call_run (call, write_once, cancellable, error);
}

/**
 * hbase_table_mutate_row:
 * @table: a table
 * @mutations: (element-type HBaseMutation): puts and deletes of one row
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Applies several mutations of one row atomically (mutateRow): readers see
 * all of them or none.  Mutations on different rows are rejected with
 * %HBASE_ERROR_ILLEGAL_ARGUMENT and nothing is sent.
 *
 * Returns: %TRUE if HBase applied them
 *
 * Since: 0.1
 */
gboolean
hbase_table_mutate_row (HBaseTable *table, GPtrArray *mutations, GCancellable *cancellable,
                        GError **error)
{
  g_autoptr(TableCall) call = prepare_row_mutations (table, mutations, error);

  return call != NULL && _hbase_table_call_run (call, mutate_row_once, cancellable, error);
}


/* --- asynchronous variants ------------------------------------------------------------------ */

/**
 * hbase_table_apply_async:
 * @table: a table
 * @mutation: a put or a delete (converted before this returns: changing
 *   it afterwards does not change what is sent)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_apply().
 *
 * Since: 0.1
 */
void
hbase_table_apply_async (HBaseTable *table, HBaseMutation *mutation, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  GError *error = NULL;
  HBaseCallFunc func = NULL;
  TableCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = prepare_apply (table, mutation, FALSE, &func, &error);
  _hbase_table_call_start (table, call, func, _hbase_table_return_true, error, hbase_table_apply_async, cancellable, callback, user_data);
}

/**
 * hbase_table_apply_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_apply_async().
 *
 * Returns: %TRUE if HBase applied the mutation, like hbase_table_apply(), or
 *   %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
hbase_table_apply_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_table_apply_async, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hbase_table_apply_multiple_async:
 * @table: a table
 * @mutations: (element-type HBaseMutation): puts and deletes (converted
 *   before this returns)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_apply_multiple(); not atomic either.
 *
 * Since: 0.1
 */
void
hbase_table_apply_multiple_async (HBaseTable *table, GPtrArray *mutations,
                                  GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data)
{
  GError *error = NULL;
  TableCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = prepare_writes (table, mutations, FALSE, &error);
  _hbase_table_call_start (table, call, write_once, _hbase_table_return_true, error, hbase_table_apply_multiple_async, cancellable, callback,
         user_data);
}

/**
 * hbase_table_apply_multiple_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_apply_multiple_async().
 *
 * Returns: %TRUE if every mutation was applied, like
 *   hbase_table_apply_multiple(), or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
hbase_table_apply_multiple_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        hbase_table_apply_multiple_async, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
