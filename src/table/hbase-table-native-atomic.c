/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-native-atomic.c: hbase_table_increment(), _append() and
 * _check_and_mutate() (and so the counters) on a client of the native
 * backend, from the very structs the Thrift2 path would send: the
 * TIncrement's columns and amounts, the TAppend's columns and values,
 * their durability and returnResults; the TRowMutations and the checked
 * cell of a check-and-mutate (its compare op already in HBase's "value OP
 * cell" order).  The cells of an increment or append come back as the
 * server sends them, built into the HBaseRow the Thrift2 path builds from
 * the gateway's TResult of the same server Result.
 */
#include "config.h"

#include <string.h>

#include "hbase-table-native.h"
#include "../native/hbase-native-atomic.h"

static GBytes *
bytes_of (const GByteArray *array)
{
  return array != NULL ? g_bytes_new (array->data, array->len) : g_bytes_new (NULL, 0);
}

static HBaseNativeCell *
cell_new (const GByteArray *family, const GByteArray *qualifier, GBytes *value)
{
  HBaseNativeCell *cell = g_new0 (HBaseNativeCell, 1);

  cell->family = bytes_of (family);
  cell->qualifier = bytes_of (qualifier);
  cell->value = value;
  cell->timestamp = HBASE_NATIVE_LATEST_TIMESTAMP;
  cell->type = HBASE_NATIVE_CELL_PUT;
  return cell;
}

/* Bytes.toBytes(long): 8 bytes, big-endian. */
static GBytes *
amount_bytes (gint64 amount)
{
  guint64 be = GUINT64_TO_BE ((guint64) amount);

  return g_bytes_new (&be, sizeof be);
}

static gboolean
native_increment (HBaseNativeClient *native, TableCall *call, GCancellable *cancellable,
                  GError **error)
{
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
  g_autoptr(GPtrArray) result = NULL;
  g_autoptr(GBytes) row = NULL;
  gboolean is_increment = call->increment != NULL;
  guint durability = 0;
  gboolean return_results = TRUE;

  if (is_increment)
    {
      HbaseThriftTIncrement *inc = call->increment;

      row = bytes_of (inc->row);
      for (guint i = 0; i < inc->columns->len; i++)
        {
          HbaseThriftTColumnIncrement *c = g_ptr_array_index (inc->columns, i);

          /* an unset amount is the Thrift IDL's default, 1 */
          g_ptr_array_add (cells, cell_new (c->family, c->qualifier,
                                            amount_bytes (c->__isset_amount ? c->amount : 1)));
        }
      if (inc->__isset_durability)
        durability = (guint) inc->durability;
      if (inc->__isset_returnResults)
        return_results = inc->returnResults;
    }
  else
    {
      HbaseThriftTAppend *app = call->append;

      row = bytes_of (app->row);
      for (guint i = 0; i < app->columns->len; i++)
        {
          HbaseThriftTColumnValue *c = g_ptr_array_index (app->columns, i);

          g_ptr_array_add (cells, cell_new (c->family, c->qualifier, bytes_of (c->value)));
        }
      if (app->__isset_durability)
        durability = (guint) app->durability;
      if (app->__isset_returnResults)
        return_results = app->returnResults;
    }
  result = _hbase_native_client_increment (native, hbase_table_get_name (call->table), row,
                                           is_increment, cells, durability, return_results,
                                           cancellable, error);
  if (result == NULL)
    return FALSE;
  g_clear_pointer (&call->row, hbase_row_unref);
  call->row = _hbase_table_native_row (result);
  return TRUE;
}

static gboolean
native_check_and_mutate (HBaseNativeClient *native, TableCall *call, GCancellable *cancellable,
                         GError **error)
{
  g_autoptr(GBytes) row = bytes_of (call->row_mutations->row);
  g_autoptr(GBytes) family = bytes_of (call->check_family);
  g_autoptr(GBytes) qualifier = bytes_of (call->check_qualifier);
  g_autoptr(GBytes) value = bytes_of (call->check_value);
  g_autoptr(GPtrArray) mutations = _hbase_table_native_row_mutations (call->row_mutations, error);

  if (mutations == NULL)
    return FALSE;
  /* TCompareOp and HBase's CompareType number the operators alike */
  return _hbase_native_client_check_and_mutate (native, hbase_table_get_name (call->table), row,
                                                family, qualifier, (guint) call->check_op, value,
                                                mutations, &call->exists, cancellable, error);
}

gboolean
_hbase_table_native_atomic_supports (TableCall *call)
{
  return call->batches == NULL &&
         ((call->increment != NULL) + (call->append != NULL) +
          (call->check_family != NULL && call->row_mutations != NULL)) == 1;
}

gboolean
_hbase_table_native_atomic_run (HBaseNativeClient *native, TableCall *call,
                                GCancellable *cancellable, GError **error)
{
  if (call->increment != NULL || call->append != NULL)
    return native_increment (native, call, cancellable, error);
  return native_check_and_mutate (native, call, cancellable, error);
}
