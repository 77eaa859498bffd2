/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-native-generated.c: the generated TGets that sets and sorted
 * sets read with (_hbase_table_get_generated()), on the native backend.
 * Each TGet is one native get of its row, columns, versions, time range
 * and per-family paging (store limit and offset), with its filter bytes as
 * they are: on the Thrift2 path the gateway parses
 * them as a serialized FilterProtos Filter message, which is what the
 * native backend sends anyway.  The cells come back as the TResult the
 * gateway would give (ThriftUtilities.resultFromHBase: the row when there
 * is a cell, each cell's family, qualifier, value, timestamp and type, not
 * stale, not partial), so the structures read the same answers on both
 * backends. */
#include "config.h"

#include "hbase-table-native.h"

static GByteArray *
array_of (GBytes *bytes)
{
  gsize len = 0;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;
  GByteArray *array = g_byte_array_sized_new ((guint) len);

  if (len > 0)
    g_byte_array_append (array, data, (guint) len);
  return array;
}

static GBytes *
bytes_of (const GByteArray *array)
{
  return array != NULL ? g_bytes_new (array->data, array->len) : g_bytes_new (NULL, 0);
}

GPtrArray *
_hbase_table_native_tget_columns (HbaseThriftTGet *tget)
{
  g_autoptr(GPtrArray) columns = NULL;

  if (!tget->__isset_columns || tget->columns == NULL || tget->columns->len == 0)
    return NULL;
  columns = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_column_unref);
  for (guint i = 0; i < tget->columns->len; i++)
    {
      HbaseThriftTColumn *tc = g_ptr_array_index (tget->columns, i);
      g_autoptr(GBytes) family = bytes_of (tc->family);
      g_autoptr(GBytes) qualifier = tc->__isset_qualifier ? bytes_of (tc->qualifier) : NULL;

      g_ptr_array_add (columns, hbase_column_new_bytes (family, qualifier));
    }
  return _hbase_table_native_columns (columns);
}

static HbaseThriftTResult *
result_of (GPtrArray *cells)
{
  HbaseThriftTResult *result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);

  if (result->columnValues == NULL)
    result->columnValues = g_ptr_array_new_with_free_func (g_object_unref);
  if (cells->len > 0)
    {
      g_clear_pointer (&result->row, g_byte_array_unref);
      result->row = array_of (((HBaseNativeCell *) cells->pdata[0])->row);
      result->__isset_row = TRUE;
    }
  for (guint i = 0; i < cells->len; i++)
    {
      const HBaseNativeCell *cell = cells->pdata[i];
      HbaseThriftTColumnValue *value = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, NULL);

      g_clear_pointer (&value->family, g_byte_array_unref);
      g_clear_pointer (&value->qualifier, g_byte_array_unref);
      g_clear_pointer (&value->value, g_byte_array_unref);
      value->family = array_of (cell->family);
      value->qualifier = array_of (cell->qualifier);
      value->value = array_of (cell->value);
      value->timestamp = cell->timestamp;
      value->__isset_timestamp = TRUE;
      value->type = (gint8) cell->type;
      value->__isset_type = TRUE;
      g_ptr_array_add (result->columnValues, value);
    }
  result->stale = FALSE;
  result->__isset_stale = TRUE;
  result->partial = FALSE;
  result->__isset_partial = TRUE;
  return result;
}

gboolean
_hbase_table_native_get_generated (HBaseNativeClient *native, TableCall *call,
                                   GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new_full (call->gets->len, g_object_unref);

  for (guint i = 0; i < call->gets->len; i++)
    {
      HbaseThriftTGet *tget = g_ptr_array_index (call->gets, i);
      g_autoptr(GBytes) row = bytes_of (tget->row);
      g_autoptr(GBytes) filter = NULL;
      g_autoptr(GPtrArray) columns = NULL;
      g_autoptr(GPtrArray) cells = NULL;
      gint64 min_ts = 0, max_ts = 0;

      if (tget->__isset_filterString)
        return _hbase_table_native_not_supported (error, "a read with a filter string (only the "
                                                         "Thrift2 gateway parses the filter language)");
      if (tget->__isset_timeRange)
        {
          min_ts = tget->timeRange->minStamp;
          max_ts = tget->timeRange->maxStamp;
        }
      else if (tget->__isset_timestamp)
        {
          /* one timestamp: HBase's Get.setTimestamp, [ts, ts + 1) */
          min_ts = tget->timestamp;
          max_ts = tget->timestamp < G_MAXINT64 ? tget->timestamp + 1 : G_MAXINT64;
        }
      if (tget->__isset_filterBytes && tget->filterBytes != NULL)
        filter = bytes_of (tget->filterBytes);
      columns = _hbase_table_native_tget_columns (tget);
      cells = _hbase_native_client_get_paged (native, hbase_table_get_name (call->table), row,
                                              columns,
                                              tget->__isset_maxVersions && tget->maxVersions > 0
                                                ? (guint) tget->maxVersions : 0,
                                              min_ts, max_ts, filter,
                                              tget->__isset_storeLimit && tget->storeLimit > 0
                                                ? (guint) tget->storeLimit : 0,
                                              tget->__isset_storeOffset && tget->storeOffset > 0
                                                ? (guint) tget->storeOffset : 0,
                                              cancellable, error);
      if (cells == NULL)
        return FALSE;
      g_ptr_array_add (results, result_of (cells));
    }
  g_clear_pointer (&call->results, g_ptr_array_unref);
  call->results = g_steal_pointer (&results);
  return TRUE;
}
