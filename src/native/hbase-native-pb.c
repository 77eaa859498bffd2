/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-pb.c: the conversions between GLib types and protobuf-c
 * fields that the native requests share (hbase-native-pb.h). */
#include "config.h"

#include "hbase-native-client.h"
#include "hbase-native-pb.h"

void
_hbase_native_pb_set_bytes (ProtobufCBinaryData *out, GBytes *bytes)
{
  out->data = bytes != NULL ? (guint8 *) g_bytes_get_data (bytes, &out->len) : NULL;
  if (bytes == NULL)
    out->len = 0;
}

GBytes *
_hbase_native_pb_bytes (const ProtobufCBinaryData *data)
{
  return g_bytes_new (data->data, data->len);
}

GPtrArray *
_hbase_native_pb_result_cells (const Hbase__Pb__Result *result)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);

  for (gsize i = 0; result != NULL && i < result->n_cell; i++)
    {
      const Hbase__Pb__Cell *pb = result->cell[i];
      HBaseNativeCell *cell = g_new0 (HBaseNativeCell, 1);

      cell->row = _hbase_native_pb_bytes (&pb->row);
      cell->family = _hbase_native_pb_bytes (&pb->family);
      cell->qualifier = _hbase_native_pb_bytes (&pb->qualifier);
      cell->value = _hbase_native_pb_bytes (&pb->value);
      cell->timestamp = pb->has_timestamp ? (gint64) pb->timestamp : HBASE_NATIVE_LATEST_TIMESTAMP;
      cell->type = pb->has_cell_type ? (guint8) pb->cell_type : HBASE_NATIVE_CELL_PUT;
      g_ptr_array_add (cells, cell);
    }
  return cells;
}

void
_hbase_native_pb_columns_init (HBaseNativePbColumns *out, GPtrArray *columns)
{
  guint n = columns != NULL ? columns->len : 0;

  out->n = n;
  /* never empty arrays: a message with no column still gets valid pointers */
  out->columns = g_new0 (Hbase__Pb__Column, MAX (n, 1));
  out->pointers = g_new0 (Hbase__Pb__Column *, MAX (n, 1));
  out->qualifiers = g_new0 (ProtobufCBinaryData, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const HBaseNativeColumn *c = g_ptr_array_index (columns, i);

      hbase__pb__column__init (&out->columns[i]);
      _hbase_native_pb_set_bytes (&out->columns[i].family, c->family);
      if (c->qualifier != NULL)
        {
          /* a whole family has no qualifier at all */
          _hbase_native_pb_set_bytes (&out->qualifiers[i], c->qualifier);
          out->columns[i].n_qualifier = 1;
          out->columns[i].qualifier = &out->qualifiers[i];
        }
      out->pointers[i] = &out->columns[i];
    }
}

void
_hbase_native_pb_columns_clear (HBaseNativePbColumns *out)
{
  g_clear_pointer (&out->columns, g_free);
  g_clear_pointer (&out->pointers, g_free);
  g_clear_pointer (&out->qualifiers, g_free);
  out->n = 0;
}
