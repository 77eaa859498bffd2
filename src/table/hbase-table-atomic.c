/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-atomic.c: the read-modify-write operations HBase runs
 * atomically on one row: increment, append, 64-bit counters and
 * check-and-mutate; sync and async.
 *
 * Increments and appends are not idempotent: they are sent with
 * HBASE_CALL_DEFAULT, so the client retries them only when the failed
 * attempt certainly never reached the gateway.  A check-and-mutate is
 * not either (a repeated "insert if absent" answers "not applied" after
 * the first attempt applied it), so it is sent the same way. */
#include "config.h"

#include <string.h>

#include "hbase-condition-private.h"
#include "hbase-mutation-private.h"
#include "hbase-table-call.h"

/* --- preparing -------------------------------------------------------------------------- */

static TableCall *
prepare_increment_or_append (HBaseTable *table, HBaseMutation *mutation, HBaseMutationKind kind,
                             GError **error)
{
  TableCall *call;
  const char *name = kind == HBASE_MUTATION_INCREMENT ? "increment" : "append";

  if (!_hbase_table_check (table, error))
    return NULL;
  if (!_hbase_mutation_check (mutation, error))
    return NULL;
  if (hbase_mutation_get_kind (mutation) != kind)
    {
      _hbase_illegal (error, "hbase_table_%s needs a mutation made with hbase_mutation_new_%s()",
                      name, name);
      return NULL;
    }
  call = _hbase_table_call_new (table);
  call->flags = HBASE_CALL_DEFAULT;
  call->mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_ptr_array_add (call->mutations, hbase_mutation_ref (mutation));
  if (kind == HBASE_MUTATION_INCREMENT)
    call->increment = _hbase_mutation_to_increment (mutation);
  else
    call->append = _hbase_mutation_to_append (mutation);
  return call;
}

static TableCall *
prepare_check_and_mutate (HBaseTable *table, const HBaseCondition *condition,
                          GPtrArray *mutations, GError **error)
{
  TableCall *call;
  HbaseThriftTRowMutations *row_mutations;
  gsize payload = 0;

  if (!_hbase_table_check (table, error))
    return NULL;
  if (!_hbase_condition_check (condition, error))
    return NULL;
  row_mutations = _hbase_table_row_mutations_new (mutations, "check_and_mutate", &payload, error);
  if (row_mutations == NULL)
    return NULL;
  call = _hbase_table_call_new (table);
  call->flags = HBASE_CALL_DEFAULT;
  call->row_mutations = row_mutations;
  call->payload = payload;
  _hbase_table_call_keep_mutations (call, mutations);
  _hbase_condition_to_thrift (condition, &call->check_family, &call->check_qualifier,
                              &call->check_op, &call->check_value);
  return call;
}

/* --- one attempt -------------------------------------------------------------------------- */

static gboolean
increment_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  TableCall *call = user_data;
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean ok;

  if (call->increment != NULL)
    ok = hbase_thrift_t_h_base_service_if_increment (service, &result, call->table->name_bytes,
                                                     call->increment, &io, &call_error);
  else
    ok = hbase_thrift_t_h_base_service_if_append (service, &result, call->table->name_bytes,
                                                  call->append, &io, &call_error);
  if (!ok)
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  g_clear_pointer (&call->row, hbase_row_unref);
  call->row = _hbase_row_new_from_result (result);
  return TRUE;
}

static gboolean
check_and_mutate_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  TableCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_check_and_mutate (service, &call->exists,
                                                          call->table->name_bytes,
                                                          call->row_mutations->row,
                                                          call->check_family,
                                                          call->check_qualifier, call->check_op,
                                                          call->check_value, call->row_mutations,
                                                          &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

/* --- increment and append --------------------------------------------------------------- */

/**
 * hbase_table_increment:
 * @table: a table
 * @increment: a mutation made with hbase_mutation_new_increment()
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Adds to 64-bit big-endian counters of one row, atomically: concurrent
 * increments of the same cell never lose an update.  A missing cell counts
 * as 0; a cell that is not 8 bytes wide fails the whole increment
 * (%HBASE_ERROR_IO, with HBase's message).
 *
 * Not idempotent: after a failure it is unknown whether HBase applied it,
 * unless the error is a connection error raised before sending, which the
 * client retries by itself.
 *
 * Returns: (transfer full) (nullable): the incremented cells with their
 *   new values (decode them with hbase_counter_decode()), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
HBaseRow *
hbase_table_increment (HBaseTable *table, HBaseMutation *increment, GCancellable *cancellable,
                       GError **error)
{
  g_autoptr(TableCall) call = prepare_increment_or_append (table, increment,
                                                           HBASE_MUTATION_INCREMENT, error);

  if (call == NULL || !_hbase_table_call_run (call, increment_once, cancellable, error))
    return NULL;
  return g_steal_pointer (&call->row);
}

/**
 * hbase_table_append:
 * @table: a table
 * @append: a mutation made with hbase_mutation_new_append()
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Appends bytes to cells of one row, atomically.  A missing cell counts as
 * empty.  Not idempotent, like hbase_table_increment().
 *
 * Returns: (transfer full) (nullable): the cells with their new values, or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
HBaseRow *
hbase_table_append (HBaseTable *table, HBaseMutation *append, GCancellable *cancellable,
                    GError **error)
{
  g_autoptr(TableCall) call = prepare_increment_or_append (table, append, HBASE_MUTATION_APPEND,
                                                           error);

  if (call == NULL || !_hbase_table_call_run (call, increment_once, cancellable, error))
    return NULL;
  return g_steal_pointer (&call->row);
}

/* --- counters ----------------------------------------------------------------------------- */

static GBytes *
bytes_of (const char *text)
{
  return text != NULL ? g_bytes_new (text, strlen (text)) : g_bytes_new_static ("", 0);
}

/**
 * hbase_table_increment_counter:
 * @table: a table
 * @row: the row key
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 * @amount: what to add (may be negative or 0)
 * @value: (out) (optional): the counter's value after the increment
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Adds @amount to one 64-bit big-endian counter (HBase's
 * incrementColumnValue; a missing cell counts as 0), atomically.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_table_increment_counter (HBaseTable *table, GBytes *row, const char *family,
                               const char *qualifier, gint64 amount, gint64 *value,
                               GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseMutation) increment = hbase_mutation_new_increment (row);
  g_autoptr(GBytes) family_bytes = bytes_of (family);
  g_autoptr(GBytes) qualifier_bytes = bytes_of (qualifier);
  g_autoptr(HBaseRow) result = NULL;
  const HBaseCell *cell;

  if (family == NULL)
    return _hbase_illegal (error, "increment_counter: the family is NULL");
  hbase_mutation_increment_bytes (increment, family_bytes, qualifier_bytes, amount);
  result = hbase_table_increment (table, increment, cancellable, error);
  if (result == NULL)
    return FALSE;
  cell = hbase_row_lookup_cell_bytes (result, family_bytes, qualifier_bytes);
  if (cell == NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "increment of %s:%s returned no value", family, qualifier ? qualifier : "");
      return FALSE;
    }
  return hbase_counter_decode (hbase_cell_get_value (cell), value, error);
}

/**
 * hbase_table_get_counter:
 * @table: a table
 * @row: the row key
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 * @value: (out) (optional): the counter's value, 0 when the cell is missing
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Reads one 64-bit big-endian counter.
 *
 * Returns: %TRUE on success; %FALSE with %HBASE_ERROR_BAD_DATA when the
 *   cell is not 8 bytes wide
 *
 * Since: 0.1
 */
gboolean
hbase_table_get_counter (HBaseTable *table, GBytes *row, const char *family,
                         const char *qualifier, gint64 *value, GCancellable *cancellable,
                         GError **error)
{
  g_autofree char *column = NULL;
  const char *columns[2] = { NULL, NULL };
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
  g_autoptr(HBaseRow) result = NULL;
  g_autoptr(GBytes) family_bytes = bytes_of (family);
  g_autoptr(GBytes) qualifier_bytes = bytes_of (qualifier);
  const HBaseCell *cell;

  if (value != NULL)
    *value = 0;
  if (family == NULL || family[0] == '\0')
    return _hbase_illegal (error, "get_counter: the family is %s", family ? "empty" : "NULL");
  column = g_strdup_printf ("%s:%s", family, qualifier != NULL ? qualifier : "");
  columns[0] = column;
  options.columns = columns;
  result = hbase_table_get (table, row, &options, cancellable, error);
  if (result == NULL)
    return FALSE;
  cell = hbase_row_lookup_cell_bytes (result, family_bytes, qualifier_bytes);
  return cell == NULL || hbase_counter_decode (hbase_cell_get_value (cell), value, error);
}

/**
 * hbase_table_set_counter:
 * @table: a table
 * @row: the row key
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 * @value: the new value
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Writes a 64-bit big-endian counter (a put of hbase_counter_encode()).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_table_set_counter (HBaseTable *table, GBytes *row, const char *family,
                         const char *qualifier, gint64 value, GCancellable *cancellable,
                         GError **error)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(GBytes) encoded = hbase_counter_encode (value);

  hbase_mutation_put (put, family, qualifier, encoded);
  return hbase_table_apply (table, put, cancellable, error);
}

/* --- check-and-mutate --------------------------------------------------------------------- */

/**
 * hbase_table_check_and_mutate:
 * @table: a table
 * @condition: the test of one cell of the row
 * @mutations: (element-type HBaseMutation): puts and deletes of one row;
 *   the condition tests that row
 * @applied: (out) (optional): whether the condition passed and the
 *   mutations were applied
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Tests a cell and, when the test passes, applies the mutations, all
 * atomically (checkAndMutate): no other write to the row comes between the
 * test and the change.  A failed test is not an error: it returns %TRUE
 * with @applied set to %FALSE.
 *
 * Not idempotent: after a failure (%FALSE) it is unknown whether HBase
 * applied the mutations, unless the client could tell the request never
 * left (then it retried by itself).
 *
 * Returns: %TRUE if the call was made (the outcome is in @applied)
 *
 * Since: 0.1
 */
gboolean
hbase_table_check_and_mutate (HBaseTable *table, const HBaseCondition *condition,
                              GPtrArray *mutations, gboolean *applied,
                              GCancellable *cancellable, GError **error)
{
  return _hbase_table_check_and_mutate_attempt (table, condition, mutations, applied, NULL,
                                                cancellable, error);
}

gboolean
_hbase_table_check_and_mutate_attempt (HBaseTable *table, const HBaseCondition *condition,
                                       GPtrArray *mutations, gboolean *applied,
                                       gboolean *attempted, GCancellable *cancellable,
                                       GError **error)
{
  g_autoptr(TableCall) call = NULL;

  if (applied != NULL)
    *applied = FALSE;
  if (attempted != NULL)
    *attempted = FALSE;
  call = prepare_check_and_mutate (table, condition, mutations, error);
  if (call == NULL || !_hbase_table_call_before (call, cancellable, error))
    return FALSE;
  if (attempted != NULL)
    *attempted = TRUE;
  if (!_hbase_table_call_run (call, check_and_mutate_once, cancellable, error))
    return FALSE;
  if (applied != NULL)
    *applied = call->exists;
  return TRUE;
}

/* --- asynchronous variants ------------------------------------------------------------------ */

/**
 * hbase_table_increment_async:
 * @table: a table
 * @increment: an increment (converted before this returns)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_increment().
 *
 * Since: 0.1
 */
void
hbase_table_increment_async (HBaseTable *table, HBaseMutation *increment,
                             GCancellable *cancellable, GAsyncReadyCallback callback,
                             gpointer user_data)
{
  GError *error = NULL;
  TableCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = prepare_increment_or_append (table, increment, HBASE_MUTATION_INCREMENT, &error);
  _hbase_table_call_start (table, call, increment_once, _hbase_table_return_row, error,
                           hbase_table_increment_async, cancellable, callback, user_data);
}

/**
 * hbase_table_increment_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_increment_async().
 *
 * Returns: (transfer full) (nullable): the new values, like
 *   hbase_table_increment(), or %NULL with @error set
 *
 * Since: 0.1
 */
HBaseRow *
hbase_table_increment_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_table_increment_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hbase_table_check_and_mutate_async:
 * @table: a table
 * @condition: the test (converted before this returns)
 * @mutations: (element-type HBaseMutation): puts and deletes of one row
 *   (converted before this returns)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_check_and_mutate().
 *
 * Since: 0.1
 */
void
hbase_table_check_and_mutate_async (HBaseTable *table, const HBaseCondition *condition,
                                    GPtrArray *mutations, GCancellable *cancellable,
                                    GAsyncReadyCallback callback, gpointer user_data)
{
  GError *error = NULL;
  TableCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = prepare_check_and_mutate (table, condition, mutations, &error);
  _hbase_table_call_start (table, call, check_and_mutate_once, _hbase_table_return_exists, error,
                           hbase_table_check_and_mutate_async, cancellable, callback, user_data);
}

/**
 * hbase_table_check_and_mutate_finish:
 * @table: a table
 * @result: the result given to the callback
 * @applied: (out) (optional): whether the mutations were applied
 * @error: return location for an error
 *
 * Finishes hbase_table_check_and_mutate_async().
 *
 * Returns: %TRUE if the call was made (the outcome is in @applied), like
 *   hbase_table_check_and_mutate(), or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
hbase_table_check_and_mutate_finish (HBaseTable *table, GAsyncResult *result, gboolean *applied,
                                     GError **error)
{
  GError *local = NULL;
  gboolean passed;

  if (applied != NULL)
    *applied = FALSE;
  g_return_val_if_fail (g_task_is_valid (result, table), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        hbase_table_check_and_mutate_async, FALSE);
  passed = g_task_propagate_boolean (G_TASK (result), &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (applied != NULL)
    *applied = passed;
  return TRUE;
}
