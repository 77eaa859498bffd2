/* hbase-row.c: HBaseRow and HBaseCell, the immutable results of reads.
 *
 * A row is copied out of the generated TResult once, into GBytes, so it
 * can outlive the Thrift objects, be shared between threads without locks
 * and hand out its keys and values without further copies. */
#include "config.h"

#include <string.h>

#include "hbase-table-private.h"

struct _HBaseCell {
  GBytes *family;
  GBytes *qualifier;
  GBytes *value;
  gint64 timestamp;
};

struct _HBaseRow {
  gatomicrefcount ref_count;
  GBytes *key;
  HBaseCell *cells;
  guint n_cells;
};

G_DEFINE_BOXED_TYPE (HBaseRow, hbase_row, hbase_row_ref, hbase_row_unref)

/* An empty GBytes never has a NULL data pointer here, so callers can
 * compare with memcmp without special cases. */
static GBytes *
bytes_from_array (const GByteArray *array)
{
  if (array == NULL || array->len == 0)
    return g_bytes_new_static ("", 0);
  return g_bytes_new (array->data, array->len);
}

/**
 * _hbase_row_new_from_result: (skip)
 * @result: a TResult of a get or a scan
 *
 * Copies @result, cells in the server's order (HBase's: family, qualifier,
 * newest version first).  A result without a row key (a missing row)
 * gives an empty row with an empty key.
 *
 * Returns: (transfer full): the row
 */
HBaseRow *
_hbase_row_new_from_result (const HbaseThriftTResult *result)
{
  HBaseRow *row = g_new0 (HBaseRow, 1);
  GPtrArray *values;

  g_atomic_ref_count_init (&row->ref_count);
  if (result == NULL)
    {
      row->key = g_bytes_new_static ("", 0);
      return row;
    }
  row->key = bytes_from_array (result->row);
  values = result->columnValues;
  if (values != NULL && values->len > 0)
    {
      row->cells = g_new0 (HBaseCell, values->len);
      for (guint i = 0; i < values->len; i++)
        {
          const HbaseThriftTColumnValue *value = g_ptr_array_index (values, i);
          HBaseCell *cell = &row->cells[row->n_cells++];

          cell->family = bytes_from_array (value->family);
          cell->qualifier = bytes_from_array (value->qualifier);
          cell->value = bytes_from_array (value->value);
          cell->timestamp = value->__isset_timestamp ? value->timestamp : 0;
        }
    }
  return row;
}

/**
 * hbase_row_ref:
 * @row: (nullable): a row
 *
 * Returns: (transfer full) (nullable): @row
 */
HBaseRow *
hbase_row_ref (HBaseRow *row)
{
  if (row != NULL)
    g_atomic_ref_count_inc (&row->ref_count);
  return row;
}

/**
 * hbase_row_unref:
 * @row: (transfer full) (nullable): a row
 *
 * Drops a reference; the last one frees the row and its cells.
 */
void
hbase_row_unref (HBaseRow *row)
{
  if (row == NULL || !g_atomic_ref_count_dec (&row->ref_count))
    return;
  for (guint i = 0; i < row->n_cells; i++)
    {
      g_bytes_unref (row->cells[i].family);
      g_bytes_unref (row->cells[i].qualifier);
      g_bytes_unref (row->cells[i].value);
    }
  g_free (row->cells);
  g_bytes_unref (row->key);
  g_free (row);
}

/**
 * hbase_row_get_key:
 * @row: a row
 *
 * Returns: (transfer none) (nullable): the row key, empty for a row that
 *   does not exist; %NULL only when @row is %NULL
 */
GBytes *
hbase_row_get_key (HBaseRow *row)
{
  return row != NULL ? row->key : NULL;
}

/**
 * hbase_row_is_empty:
 * @row: a row
 *
 * Returns: %TRUE when the row has no cells: it does not exist, or nothing
 *   of it matched the read's columns, time range or filter
 */
gboolean
hbase_row_is_empty (HBaseRow *row)
{
  return row == NULL || row->n_cells == 0;
}

/**
 * hbase_row_get_n_cells:
 * @row: a row
 *
 * Returns: how many cells (versions of columns) the row has
 */
guint
hbase_row_get_n_cells (HBaseRow *row)
{
  return row != NULL ? row->n_cells : 0;
}

/**
 * hbase_row_get_cell:
 * @row: a row
 * @index: 0 to hbase_row_get_n_cells() - 1
 *
 * Returns: (transfer none) (nullable): the cell, or %NULL when @index is
 *   out of range; valid while @row lives
 */
const HBaseCell *
hbase_row_get_cell (HBaseRow *row, guint index)
{
  if (row == NULL || index >= row->n_cells)
    return NULL;
  return &row->cells[index];
}

static gboolean
bytes_match (GBytes *bytes, const void *data, gsize size)
{
  gsize len;
  const void *own = g_bytes_get_data (bytes, &len);

  return len == size && (size == 0 || memcmp (own, data, size) == 0);
}

/* The first match is the newest version: HBase sorts versions of one
 * column newest first, and rows keep the server's order. */
static const HBaseCell *
lookup (HBaseRow *row, const void *family, gsize family_len,
        const void *qualifier, gsize qualifier_len)
{
  if (row == NULL)
    return NULL;
  for (guint i = 0; i < row->n_cells; i++)
    {
      const HBaseCell *cell = &row->cells[i];

      if (bytes_match (cell->family, family, family_len) &&
          bytes_match (cell->qualifier, qualifier, qualifier_len))
        return cell;
    }
  return NULL;
}

/**
 * hbase_row_lookup_cell:
 * @row: a row
 * @family: a column family
 * @qualifier: (nullable): a qualifier; %NULL for the empty qualifier
 *
 * Finds the newest version of a column.  For qualifiers that are not
 * text, use hbase_row_lookup_cell_bytes().
 *
 * Returns: (transfer none) (nullable): the cell, or %NULL when the row
 *   has no such column
 */
const HBaseCell *
hbase_row_lookup_cell (HBaseRow *row, const char *family, const char *qualifier)
{
  if (family == NULL)
    return NULL;
  if (qualifier == NULL)
    qualifier = "";
  return lookup (row, family, strlen (family), qualifier, strlen (qualifier));
}

/**
 * hbase_row_lookup:
 * @row: a row
 * @family: a column family
 * @qualifier: (nullable): a qualifier; %NULL for the empty qualifier
 *
 * The value of the newest version of a column.
 *
 * Returns: (transfer none) (nullable): the value, or %NULL when the row
 *   has no such column
 */
GBytes *
hbase_row_lookup (HBaseRow *row, const char *family, const char *qualifier)
{
  const HBaseCell *cell = hbase_row_lookup_cell (row, family, qualifier);

  return cell != NULL ? cell->value : NULL;
}

/**
 * hbase_row_lookup_cell_bytes:
 * @row: a row
 * @family: a column family
 * @qualifier: (nullable): a qualifier, compared byte for byte (NUL bytes
 *   included); %NULL for the empty qualifier
 *
 * hbase_row_lookup_cell() for binary families and qualifiers.
 *
 * Returns: (transfer none) (nullable): the newest version of the column,
 *   or %NULL
 */
const HBaseCell *
hbase_row_lookup_cell_bytes (HBaseRow *row, GBytes *family, GBytes *qualifier)
{
  gsize family_len, qualifier_len = 0;
  const void *family_data, *qualifier_data = "";

  if (family == NULL)
    return NULL;
  family_data = g_bytes_get_data (family, &family_len);
  if (qualifier != NULL)
    qualifier_data = g_bytes_get_data (qualifier, &qualifier_len);
  return lookup (row, family_data, family_len, qualifier_data, qualifier_len);
}

/**
 * hbase_cell_get_family:
 * @cell: a cell
 *
 * Returns: (transfer none) (nullable): the column family
 */
GBytes *
hbase_cell_get_family (const HBaseCell *cell)
{
  return cell != NULL ? cell->family : NULL;
}

/**
 * hbase_cell_get_qualifier:
 * @cell: a cell
 *
 * Returns: (transfer none) (nullable): the qualifier (may be empty)
 */
GBytes *
hbase_cell_get_qualifier (const HBaseCell *cell)
{
  return cell != NULL ? cell->qualifier : NULL;
}

/**
 * hbase_cell_get_value:
 * @cell: a cell
 *
 * Returns: (transfer none) (nullable): the value (may be empty)
 */
GBytes *
hbase_cell_get_value (const HBaseCell *cell)
{
  return cell != NULL ? cell->value : NULL;
}

/**
 * hbase_cell_get_timestamp:
 * @cell: a cell
 *
 * Returns: the cell's version, milliseconds since the epoch unless the
 *   writer chose its own; 0 for a %NULL cell
 */
gint64
hbase_cell_get_timestamp (const HBaseCell *cell)
{
  return cell != NULL ? cell->timestamp : 0;
}

/* --- counters ----------------------------------------------------------------------------- */

/**
 * hbase_counter_encode:
 * @value: a counter value
 *
 * Encodes a counter as HBase's increments store it (Bytes.toBytes(long)):
 * 8 bytes, big-endian, two's complement.
 *
 * Returns: (transfer full): the 8 bytes
 */
GBytes *
hbase_counter_encode (gint64 value)
{
  guint64 big_endian = GUINT64_TO_BE ((guint64) value);

  return g_bytes_new (&big_endian, sizeof big_endian);
}

/**
 * hbase_counter_decode:
 * @bytes: a cell value
 * @value: (out) (optional): the counter
 * @error: return location for an error
 *
 * Decodes what hbase_counter_encode() (or an HBase increment) wrote.
 *
 * Returns: %TRUE on success; %FALSE with %HBASE_ERROR_BAD_DATA when
 *   @bytes is not 8 bytes long
 */
gboolean
hbase_counter_decode (GBytes *bytes, gint64 *value, GError **error)
{
  gsize size = 0;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;
  guint64 big_endian;

  if (size != sizeof big_endian)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                   "a counter is 8 bytes wide; this value has %" G_GSIZE_FORMAT, size);
      return FALSE;
    }
  memcpy (&big_endian, data, sizeof big_endian);
  if (value != NULL)
    *value = (gint64) GUINT64_FROM_BE (big_endian);
  return TRUE;
}
