/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-cells.h (private): the cells of a KeyValueCodec cellblock,
 * decoded with every length checked, and split into rows by the cell
 * counts of the results that came with it.
 */
#ifndef HBASE_NATIVE_CELLS_H
#define HBASE_NATIVE_CELLS_H

#include <glib.h>

G_BEGIN_DECLS

/* KeyValue.Type codes (the byte after the timestamp). */
#define HBASE_NATIVE_CELL_PUT                  4
#define HBASE_NATIVE_CELL_DELETE               8
#define HBASE_NATIVE_CELL_DELETE_FAMILY_VERSION 10
#define HBASE_NATIVE_CELL_DELETE_COLUMN        12
#define HBASE_NATIVE_CELL_DELETE_FAMILY        14

/* One cell.  Its byte strings share the cellblock's memory. */
typedef struct
{
  GBytes *row;
  GBytes *family;
  GBytes *qualifier;
  GBytes *value;
  gint64  timestamp;
  guint8  type;
} HBaseNativeCell;

/* One row of a reply: its key and its cells (HBaseNativeCell *). */
typedef struct
{
  GBytes    *key;
  GPtrArray *cells;
} HBaseNativeRow;

void            _hbase_native_cell_free (HBaseNativeCell *cell);
void            _hbase_native_row_free  (HBaseNativeRow  *row);

/* Every cell of @block, in order (HBaseNativeCell *, freed with the
 * array); NULL with HBASE_ERROR_PROTOCOL when a length is negative, runs
 * past the block or past its key, or the parts do not add up. */
GPtrArray      *_hbase_native_decode_cellblock (GBytes        *block,
                                                GError       **error);

/* Splits @cells (taken) into rows of @counts[i] cells each
 * (HBaseNativeRow *, freed with the array).  Every count of cells must be
 * there, all cells of a row must share its key, and no cell may be left
 * over; otherwise HBASE_ERROR_PROTOCOL.  A count of 0 makes no row. */
GPtrArray      *_hbase_native_split_rows (GPtrArray     *cells,
                                          const guint32 *counts,
                                          gsize          n_counts,
                                          GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeCell, _hbase_native_cell_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeRow, _hbase_native_row_free)

G_END_DECLS

#endif /* HBASE_NATIVE_CELLS_H */
