/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-cells.c: decoding a KeyValueCodec cellblock.  Cells are end
 * to end, all big-endian: int32 total length (= 8 + key + value), int32
 * key length, int32 value length, the key, the value; the key is int16 row
 * length, row, int8 family length, family, qualifier (what remains),
 * int64 timestamp, int8 type.  Every length is checked against what is
 * left before it is used: a hostile or broken block is an error, never a
 * read out of bounds.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "hbase-native-cells.h"
#include "hbase-native-connection.h"

void
_hbase_native_cell_free (HBaseNativeCell *cell)
{
  if (cell == NULL)
    return;
  g_bytes_unref (cell->row);
  g_bytes_unref (cell->family);
  g_bytes_unref (cell->qualifier);
  g_bytes_unref (cell->value);
  g_free (cell);
}

void
_hbase_native_row_free (HBaseNativeRow *row)
{
  if (row == NULL)
    return;
  g_bytes_unref (row->key);
  g_ptr_array_unref (row->cells);
  g_free (row);
}

static guint32
be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

static gboolean
bad_cell (GError **error, guint index, gsize offset, const char *what)
{
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
               "malformed cellblock: cell %u at byte %" G_GSIZE_FORMAT ": %s", index, offset, what);
  return FALSE;
}

/* A slice of @block, or @same (the previous cell's) when it holds the
 * same bytes: the cells of a row share its key, and often a family. */
static GBytes *
slice_or_same (GBytes *block, const guint8 *data, gsize at, gsize len, GBytes *same)
{
  if (same != NULL)
    {
      gsize same_len;
      const guint8 *same_data = g_bytes_get_data (same, &same_len);

      if (same_len == len && (len == 0 || memcmp (same_data, data + at, len) == 0))
        return g_bytes_ref (same);
    }
  return g_bytes_new_from_bytes (block, at, len);
}

/* One cell at @data[@pos], within @len; advances *@pos.  @prev: the cell
 * before, or NULL. */
static gboolean
decode_cell (GBytes *block, const guint8 *data, gsize len, gsize *pos, guint index,
             const HBaseNativeCell *prev, HBaseNativeCell **out, GError **error)
{
  gsize at = *pos, left = len - at, key_at, row_len, fam_len, qual_len;
  gint32 kv_len, key_len, value_len;
  HBaseNativeCell *cell;
  guint64 ts;

  if (left < 12)
    return bad_cell (error, index, at, "truncated cell header");
  kv_len = (gint32) be32 (data + at);
  key_len = (gint32) be32 (data + at + 4);
  value_len = (gint32) be32 (data + at + 8);
  if (kv_len < 0 || key_len < 0 || value_len < 0)
    return bad_cell (error, index, at, "negative length");
  if ((guint64) kv_len != 8 + (guint64) key_len + (guint64) value_len)
    return bad_cell (error, index, at, "the cell's length is not 8 + key + value");
  if ((guint64) kv_len > left - 4)
    return bad_cell (error, index, at, "the cell runs past the block");
  /* row length (2), family length (1), timestamp (8), type (1) */
  if (key_len < 12)
    return bad_cell (error, index, at, "the key is too short");
  key_at = at + 12;
  row_len = (gsize) data[key_at] << 8 | data[key_at + 1];
  if (row_len + 12 > (gsize) key_len)
    return bad_cell (error, index, at, "the row runs past the key");
  fam_len = data[key_at + 2 + row_len];
  if (row_len + fam_len + 12 > (gsize) key_len)
    return bad_cell (error, index, at, "the family runs past the key");
  qual_len = key_len - (row_len + fam_len + 12);
  ts = (guint64) be32 (data + key_at + key_len - 9) << 32 | be32 (data + key_at + key_len - 5);

  cell = g_new0 (HBaseNativeCell, 1);
  cell->row = slice_or_same (block, data, key_at + 2, row_len, prev != NULL ? prev->row : NULL);
  cell->family = slice_or_same (block, data, key_at + 3 + row_len, fam_len,
                                prev != NULL ? prev->family : NULL);
  cell->qualifier = g_bytes_new_from_bytes (block, key_at + 3 + row_len + fam_len, qual_len);
  cell->timestamp = (gint64) ts;
  cell->type = data[key_at + key_len - 1];
  cell->value = g_bytes_new_from_bytes (block, key_at + key_len, value_len);
  *pos = at + 4 + kv_len;
  *out = cell;
  return TRUE;
}

GPtrArray *
_hbase_native_decode_cellblock (GBytes *block, GError **error)
{
  gsize len, pos = 0;
  const guint8 *data = g_bytes_get_data (block, &len);
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);

  gsize budget = _hbase_native_element_budget (len);

  while (pos < len)
    {
      HBaseNativeCell *cell;

      if (cells->len >= budget)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                       "malformed cellblock: more than %" G_GSIZE_FORMAT " cells in %" G_GSIZE_FORMAT
                       " bytes", budget, len);
          return NULL;
        }

      if (!decode_cell (block, data, len, &pos, cells->len,
                        cells->len > 0 ? cells->pdata[cells->len - 1] : NULL, &cell, error))
        return NULL;
      g_ptr_array_add (cells, cell);
    }
  return g_steal_pointer (&cells);
}

GPtrArray *
_hbase_native_split_rows (GPtrArray *cells, const guint32 *counts, gsize n_counts, GError **error)
{
  g_autoptr(GPtrArray) owned = cells;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_row_free);
  guint next = 0;

  for (gsize i = 0; i < n_counts; i++)
    {
      HBaseNativeRow *row;

      if (counts[i] > owned->len - next)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                       "malformed reply: result %" G_GSIZE_FORMAT " counts %u cells, %u are left",
                       i, counts[i], owned->len - next);
          return NULL;
        }
      if (counts[i] == 0)
        continue;
      row = g_new0 (HBaseNativeRow, 1);
      row->cells = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
      g_ptr_array_add (rows, row);
      for (guint32 c = 0; c < counts[i]; c++)
        {
          HBaseNativeCell *cell = g_steal_pointer (&owned->pdata[next++]);

          g_ptr_array_add (row->cells, cell);
          if (row->key == NULL)
            row->key = g_bytes_ref (cell->row);
          else if (row->key != cell->row && !g_bytes_equal (row->key, cell->row))
            {
              g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                           "malformed reply: result %" G_GSIZE_FORMAT " mixes cells of two rows", i);
              return NULL;
            }
        }
    }
  if (next != owned->len)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "malformed reply: %u cells are counted by no result", owned->len - next);
      return NULL;
    }
  return g_steal_pointer (&rows);
}
