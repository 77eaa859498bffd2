/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-pb.c: the conversions between GLib types and protobuf-c
 * fields that the native requests share (hbase-native-pb.h). */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

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

/* A slice of @arena for @data, copied to *@at, which it advances. */
static GBytes *
arena_slice (GBytes *arena, guint8 *base, gsize *at, const ProtobufCBinaryData *data)
{
  GBytes *slice;

  if (data->len > 0)
    memcpy (base + *at, data->data, data->len);
  slice = g_bytes_new_from_bytes (arena, *at, data->len);
  *at += data->len;
  return slice;
}

GPtrArray *
_hbase_native_pb_result_cells (const Hbase__Pb__Result *result)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
  g_autoptr(GBytes) arena = NULL;
  guint8 *base;
  gsize total = 0, at = 0;

  if (result == NULL || result->n_cell == 0)
    return cells;
  /* every cell's bytes copied once, into one buffer the cells slice */
  for (gsize i = 0; i < result->n_cell; i++)
    {
      const Hbase__Pb__Cell *pb = result->cell[i];

      total += pb->row.len + pb->family.len + pb->qualifier.len + pb->value.len;
    }
  base = g_malloc (MAX (total, 1));
  arena = g_bytes_new_take (base, total);
  for (gsize i = 0; i < result->n_cell; i++)
    {
      const Hbase__Pb__Cell *pb = result->cell[i];
      HBaseNativeCell *cell = g_new0 (HBaseNativeCell, 1);

      cell->row = arena_slice (arena, base, &at, &pb->row);
      cell->family = arena_slice (arena, base, &at, &pb->family);
      cell->qualifier = arena_slice (arena, base, &at, &pb->qualifier);
      cell->value = arena_slice (arena, base, &at, &pb->value);
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
  if (n == 0)
    {
      /* no column (a whole row): nothing to point at, nothing to allocate */
      out->columns = NULL;
      out->pointers = NULL;
      out->qualifiers = NULL;
      return;
    }
  out->columns = g_new0 (Hbase__Pb__Column, n);
  out->pointers = g_new0 (Hbase__Pb__Column *, n);
  out->qualifiers = g_new0 (ProtobufCBinaryData, n);
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

GPtrArray *
_hbase_native_pb_block_cells (const Hbase__Pb__Result *result, GBytes *block, const char *what,
                              GError **error)
{
  guint32 count = result != NULL && result->has_associated_cell_count &&
                  result->associated_cell_count > 0 ? (guint32) result->associated_cell_count : 0;
  g_autoptr(GPtrArray) cells =
    block != NULL ? _hbase_native_decode_cellblock (block, error)
                  : g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);

  if (cells == NULL)
    return NULL;
  if (cells->len != count)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "malformed %s reply: %u cells in the cellblock, the result counts %u",
                   what, cells->len, count);
      return NULL;
    }
  return g_steal_pointer (&cells);
}

gboolean
_hbase_native_pb_check_rows (const Hbase__Pb__Result *result, GPtrArray *block_cells, GBytes *row,
                             const char *what, GError **error)
{
  gsize row_len;
  const guint8 *row_data = g_bytes_get_data (row, &row_len);
  gboolean ok = TRUE;

  for (gsize i = 0; ok && result != NULL && i < result->n_cell; i++)
    ok = result->cell[i]->row.len == row_len &&
         (row_len == 0 || memcmp (result->cell[i]->row.data, row_data, row_len) == 0);
  for (guint i = 0; ok && i < block_cells->len; i++)
    ok = g_bytes_equal (((HBaseNativeCell *) block_cells->pdata[i])->row, row);
  if (!ok)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL, "malformed %s reply: a cell of another row",
                 what);
  return ok;
}

GPtrArray *
_hbase_native_pb_reply_cells (const Hbase__Pb__Result *result, GBytes *block, GBytes *row,
                              const char *what, GError **error)
{
  g_autoptr(GPtrArray) cells = _hbase_native_pb_block_cells (result, block, what, error);

  if (cells == NULL || !_hbase_native_pb_check_rows (result, cells, row, what, error))
    return NULL;
  if (result != NULL && result->n_cell > 0)
    {
      g_autoptr(GPtrArray) inline_cells = _hbase_native_pb_result_cells (result);

      g_ptr_array_extend_and_steal (inline_cells, g_steal_pointer (&cells));
      cells = g_steal_pointer (&inline_cells);
    }
  return g_steal_pointer (&cells);
}
