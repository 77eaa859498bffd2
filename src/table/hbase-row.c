/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-row.c: HBaseRow and HBaseCell, the immutable results of reads.
 *
 * A row is one block of memory: the HBaseRow, its cells and every byte of
 * its key, families, qualifiers and values, built by an HBaseRowBuilder
 * (hbase-row-builder.h) straight from the reply decoder
 * (hbase-result-reader.c) or from a generated TResult.  It can be shared
 * between threads without locks.
 *
 * The accessors hand out GBytes (transfer none).  Each is made on first
 * request, a copy of its bytes, and kept in the cell (published with a
 * compare-and-exchange, so concurrent readers of a shared row agree on
 * one): a scan that only counts rows or compares keys makes none, and a
 * GBytes a caller keeps a reference to stays valid after the row is gone,
 * as before.  Lookups compare the block's bytes directly. */
#include "config.h"

#include <string.h>

#include "hbase-row-builder.h"
#include "hbase-table-private.h"

struct _HBaseCell {
  const guint8 *family, *qualifier, *value;   /* into the row's block */
  gsize family_len, qualifier_len, value_len;
  gint64 timestamp;
  /* made on first request; owned by the cell */
  GBytes *family_bytes, *qualifier_bytes, *value_bytes;
};

struct _HBaseRow {
  gatomicrefcount ref_count;
  guint n_cells;
  gboolean has_key;                           /* the result had a row key */
  const guint8 *key;                          /* into the block, never NULL */
  gsize key_len;
  GBytes *key_bytes;                          /* made on first request */
  HBaseCell *cells;                           /* at CELLS_OFFSET in the block */
  /* then the cells, then the bytes */
};

G_DEFINE_BOXED_TYPE (HBaseRow, hbase_row, hbase_row_ref, hbase_row_unref)

/* Where the cells start in a row's block: after the struct, aligned for
 * HBaseCell (its gint64 needs 8 bytes on 32-bit ARM, where HBaseRow is
 * 28 bytes long). */
#define CELLS_OFFSET \
  ((sizeof (HBaseRow) + G_ALIGNOF (HBaseCell) - 1) / G_ALIGNOF (HBaseCell) * G_ALIGNOF (HBaseCell))

/* The GBytes in @slot, made from @data on first use.  Rows are shared
 * between threads: two first uses at once both make one, only the first
 * published is kept. */
static GBytes *
lazy_bytes (GBytes **slot, const guint8 *data, gsize len)
{
  GBytes *bytes = g_atomic_pointer_get (slot);

  if (G_LIKELY (bytes != NULL))
    return bytes;
  /* an empty GBytes never has a NULL data pointer here, so callers can
   * compare with memcmp without special cases */
  bytes = len == 0 ? g_bytes_new_static ("", 0) : g_bytes_new (data, len);
  if (!g_atomic_pointer_compare_and_exchange (slot, NULL, bytes))
    {
      g_bytes_unref (bytes);
      bytes = g_atomic_pointer_get (slot);
    }
  return bytes;
}

/* --- the builder ----------------------------------------------------------------- */

void
_hbase_row_builder_init (HBaseRowBuilder *builder)
{
  builder->data = builder->inline_data;
  builder->cap = sizeof builder->inline_data;
  builder->cells = builder->inline_cells;
  builder->cells_cap = G_N_ELEMENTS (builder->inline_cells);
  _hbase_row_builder_reset (builder);
}

void
_hbase_row_builder_clear (HBaseRowBuilder *builder)
{
  if (builder->data != builder->inline_data)
    g_free (builder->data);
  if (builder->cells != builder->inline_cells)
    g_free (builder->cells);
  _hbase_row_builder_init (builder);
}

void
_hbase_row_builder_reset (HBaseRowBuilder *builder)
{
  builder->len = 0;
  builder->n_cells = 0;
  builder->has_key = FALSE;
  builder->key = builder->key_len = 0;
}

guint8 *
_hbase_row_builder_reserve (HBaseRowBuilder *builder, gsize len, gsize *offset)
{
  if (G_UNLIKELY (builder->cap - builder->len < len))
    {
      gsize cap = MAX (builder->cap * 2, builder->len + len);

      if (builder->data == builder->inline_data)
        {
          builder->data = g_malloc (cap);
          memcpy (builder->data, builder->inline_data, builder->len);
        }
      else
        builder->data = g_realloc (builder->data, cap);
      builder->cap = cap;
    }
  *offset = builder->len;
  builder->len += len;
  return builder->data + *offset;
}

void
_hbase_row_builder_set_key (HBaseRowBuilder *builder, gsize offset, gsize len)
{
  builder->has_key = TRUE;
  builder->key = offset;
  builder->key_len = len;
}

void
_hbase_row_builder_add_cell (HBaseRowBuilder *builder, const HBaseRowBuilderCell *cell)
{
  if (G_UNLIKELY (builder->n_cells == builder->cells_cap))
    {
      guint cap = builder->cells_cap * 2;

      if (builder->cells == builder->inline_cells)
        {
          builder->cells = g_new (HBaseRowBuilderCell, cap);
          memcpy (builder->cells, builder->inline_cells, sizeof builder->inline_cells);
        }
      else
        builder->cells = g_renew (HBaseRowBuilderCell, builder->cells, cap);
      builder->cells_cap = cap;
    }
  builder->cells[builder->n_cells++] = *cell;
}

HBaseRow *
_hbase_row_builder_finish (HBaseRowBuilder *builder)
{
  gsize head = CELLS_OFFSET + (gsize) builder->n_cells * sizeof (HBaseCell);
  HBaseRow *row = g_malloc (head + builder->len);
  guint8 *bytes = (guint8 *) row + head;

  g_atomic_ref_count_init (&row->ref_count);
  row->n_cells = builder->n_cells;
  row->cells = (HBaseCell *) ((guint8 *) row + CELLS_OFFSET);
  row->key_bytes = NULL;
  if (builder->len > 0)
    memcpy (bytes, builder->data, builder->len);
  row->has_key = builder->has_key;
  row->key = bytes + builder->key;
  row->key_len = builder->key_len;
  for (guint i = 0; i < builder->n_cells; i++)
    {
      const HBaseRowBuilderCell *from = &builder->cells[i];
      HBaseCell *cell = &row->cells[i];

      cell->family = bytes + from->family;
      cell->family_len = from->family_len;
      cell->qualifier = bytes + from->qualifier;
      cell->qualifier_len = from->qualifier_len;
      cell->value = bytes + from->value;
      cell->value_len = from->value_len;
      cell->timestamp = from->timestamp;
      cell->family_bytes = cell->qualifier_bytes = cell->value_bytes = NULL;
    }
  /* a builder that grew large for one huge row does not keep it */
  if (builder->cap > 1024 * 1024)
    _hbase_row_builder_clear (builder);
  else
    _hbase_row_builder_reset (builder);
  return row;
}

static void
builder_append (HBaseRowBuilder *builder, const guint8 *data, gsize len, gsize *offset)
{
  guint8 *dest = _hbase_row_builder_reserve (builder, len, offset);

  if (len > 0)
    memcpy (dest, data, len);
}

static void
builder_append_array (HBaseRowBuilder *builder, const GByteArray *array, gsize *offset,
                      gsize *len)
{
  *len = array != NULL ? array->len : 0;
  builder_append (builder, array != NULL ? array->data : NULL, *len, offset);
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
  HBaseRowBuilder builder;
  GPtrArray *values;
  HBaseRow *row;

  _hbase_row_builder_init (&builder);
  if (result != NULL && result->row != NULL)
    {
      gsize offset, len;

      builder_append_array (&builder, result->row, &offset, &len);
      _hbase_row_builder_set_key (&builder, offset, len);
    }
  values = result != NULL ? result->columnValues : NULL;
  for (guint i = 0; values != NULL && i < values->len; i++)
    {
      const HbaseThriftTColumnValue *value = g_ptr_array_index (values, i);
      HBaseRowBuilderCell cell;

      builder_append_array (&builder, value->family, &cell.family, &cell.family_len);
      builder_append_array (&builder, value->qualifier, &cell.qualifier, &cell.qualifier_len);
      builder_append_array (&builder, value->value, &cell.value, &cell.value_len);
      cell.timestamp = value->__isset_timestamp ? value->timestamp : 0;
      _hbase_row_builder_add_cell (&builder, &cell);
    }
  row = _hbase_row_builder_finish (&builder);
  _hbase_row_builder_clear (&builder);
  return row;
}

HBaseRow *
_hbase_row_new_concat (HBaseRow *const *parts, guint n_parts)
{
  HBaseRowBuilder builder;
  gsize offset;
  HBaseRow *row;

  g_return_val_if_fail (n_parts > 0, NULL);
  _hbase_row_builder_init (&builder);
  builder_append (&builder, parts[0]->key, parts[0]->key_len, &offset);
  _hbase_row_builder_set_key (&builder, offset, parts[0]->key_len);
  for (guint p = 0; p < n_parts; p++)
    for (guint i = 0; i < parts[p]->n_cells; i++)
      {
        const HBaseCell *from = &parts[p]->cells[i];
        HBaseRowBuilderCell cell;

        builder_append (&builder, from->family, from->family_len, &cell.family);
        cell.family_len = from->family_len;
        builder_append (&builder, from->qualifier, from->qualifier_len, &cell.qualifier);
        cell.qualifier_len = from->qualifier_len;
        builder_append (&builder, from->value, from->value_len, &cell.value);
        cell.value_len = from->value_len;
        cell.timestamp = from->timestamp;
        _hbase_row_builder_add_cell (&builder, &cell);
      }
  row = _hbase_row_builder_finish (&builder);
  _hbase_row_builder_clear (&builder);
  return row;
}

const guint8 *
_hbase_row_peek_key (HBaseRow *row, gsize *len)
{
  *len = row->key_len;
  return row->key;
}

gboolean
_hbase_row_has_key (HBaseRow *row)
{
  return row->has_key;
}

/* --- rows ------------------------------------------------------------------------ */

/**
 * hbase_row_ref:
 * @row: (nullable): a row
 *
 * Takes a reference on @row; release it with hbase_row_unref().  Does nothing
 * for %NULL.
 *
 * Returns: (transfer full) (nullable): @row
 *
 * Since: 0.1
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
 *
 * Since: 0.1
 */
void
hbase_row_unref (HBaseRow *row)
{
  if (row == NULL || !g_atomic_ref_count_dec (&row->ref_count))
    return;
  for (guint i = 0; i < row->n_cells; i++)
    {
      HBaseCell *cell = &row->cells[i];

      if (cell->family_bytes != NULL)
        g_bytes_unref (cell->family_bytes);
      if (cell->qualifier_bytes != NULL)
        g_bytes_unref (cell->qualifier_bytes);
      if (cell->value_bytes != NULL)
        g_bytes_unref (cell->value_bytes);
    }
  if (row->key_bytes != NULL)
    g_bytes_unref (row->key_bytes);
  g_free (row);
}

/**
 * hbase_row_get_key:
 * @row: a row
 *
 * Gets the key of @row.  The #GBytes belongs to @row.
 *
 * Returns: (transfer none) (nullable): the row key, empty for a row that
 *   does not exist; %NULL only when @row is %NULL
 *
 * Since: 0.1
 */
GBytes *
hbase_row_get_key (HBaseRow *row)
{
  return row != NULL ? lazy_bytes (&row->key_bytes, row->key, row->key_len) : NULL;
}

/**
 * hbase_row_is_empty:
 * @row: a row
 *
 * Tells whether @row has no cells; %TRUE for %NULL.
 *
 * Returns: %TRUE when the row has no cells: it does not exist, or nothing
 *   of it matched the read's columns, time range or filter
 *
 * Since: 0.1
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
 * Gets how many cells @row has; 0 for %NULL.
 *
 * Returns: how many cells (versions of columns) the row has
 *
 * Since: 0.1
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
 * Gets one cell of @row; cells are sorted by family, qualifier and newest
 * version first.
 *
 * Returns: (transfer none) (nullable): the cell, or %NULL when @index is
 *   out of range; valid while @row lives
 *
 * Since: 0.1
 */
const HBaseCell *
hbase_row_get_cell (HBaseRow *row, guint index)
{
  if (row == NULL || index >= row->n_cells)
    return NULL;
  return &row->cells[index];
}

static gboolean
bytes_match (const guint8 *own, gsize len, const void *data, gsize size)
{
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

      if (bytes_match (cell->family, cell->family_len, family, family_len) &&
          bytes_match (cell->qualifier, cell->qualifier_len, qualifier, qualifier_len))
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
 *
 * Since: 0.1
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
 *
 * Since: 0.1
 */
GBytes *
hbase_row_lookup (HBaseRow *row, const char *family, const char *qualifier)
{
  return hbase_cell_get_value (hbase_row_lookup_cell (row, family, qualifier));
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
 *
 * Since: 0.1
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

G_DEFINE_BOXED_TYPE (HBaseCell, hbase_cell, hbase_cell_copy, hbase_cell_free)

/**
 * hbase_cell_copy:
 * @cell: a cell, of a row or a copy
 *
 * A cell of its own with the same family, qualifier, value and timestamp,
 * which stays valid when the row of @cell is gone.  Its bytes are shared
 * with @cell (as the #GBytes its accessors return), not copied again.
 *
 * Returns: (transfer full): the copy, to free with hbase_cell_free()
 *
 * Since: 0.1
 */
HBaseCell *
hbase_cell_copy (const HBaseCell *cell)
{
  HBaseCell *copy;

  g_return_val_if_fail (cell != NULL, NULL);
  copy = g_new0 (HBaseCell, 1);
  copy->family_bytes = g_bytes_ref (hbase_cell_get_family (cell));
  copy->family = g_bytes_get_data (copy->family_bytes, &copy->family_len);
  copy->qualifier_bytes = g_bytes_ref (hbase_cell_get_qualifier (cell));
  copy->qualifier = g_bytes_get_data (copy->qualifier_bytes, &copy->qualifier_len);
  copy->value_bytes = g_bytes_ref (hbase_cell_get_value (cell));
  copy->value = g_bytes_get_data (copy->value_bytes, &copy->value_len);
  copy->timestamp = cell->timestamp;
  return copy;
}

/**
 * hbase_cell_free:
 * @cell: (nullable) (transfer full): a cell made by hbase_cell_copy()
 *
 * Frees a copied cell.  The cells of a row belong to the row: never free
 * them.
 *
 * Since: 0.1
 */
void
hbase_cell_free (HBaseCell *cell)
{
  if (cell == NULL)
    return;
  g_clear_pointer (&cell->family_bytes, g_bytes_unref);
  g_clear_pointer (&cell->qualifier_bytes, g_bytes_unref);
  g_clear_pointer (&cell->value_bytes, g_bytes_unref);
  g_free (cell);
}

/**
 * hbase_cell_get_family:
 * @cell: a cell
 *
 * Gets the column family of @cell.  The #GBytes belongs to the row @cell came
 * from and lives as long as it.
 *
 * Returns: (transfer none) (nullable): the column family
 *
 * Since: 0.1
 */
GBytes *
hbase_cell_get_family (const HBaseCell *cell)
{
  /* the cell is const to callers; its GBytes slots are made on demand */
  return cell != NULL ? lazy_bytes (&((HBaseCell *) cell)->family_bytes, cell->family,
                                    cell->family_len)
                      : NULL;
}

/**
 * hbase_cell_get_qualifier:
 * @cell: a cell
 *
 * Gets the column qualifier of @cell.  The #GBytes belongs to the row @cell
 * came from and lives as long as it.
 *
 * Returns: (transfer none) (nullable): the qualifier (may be empty)
 *
 * Since: 0.1
 */
GBytes *
hbase_cell_get_qualifier (const HBaseCell *cell)
{
  return cell != NULL ? lazy_bytes (&((HBaseCell *) cell)->qualifier_bytes, cell->qualifier,
                                    cell->qualifier_len)
                      : NULL;
}

/**
 * hbase_cell_get_value:
 * @cell: a cell
 *
 * Gets the value of @cell.  The #GBytes belongs to the row @cell came from
 * and lives as long as it.
 *
 * Returns: (transfer none) (nullable): the value (may be empty)
 *
 * Since: 0.1
 */
GBytes *
hbase_cell_get_value (const HBaseCell *cell)
{
  return cell != NULL ? lazy_bytes (&((HBaseCell *) cell)->value_bytes, cell->value,
                                    cell->value_len)
                      : NULL;
}

/**
 * hbase_cell_get_timestamp:
 * @cell: a cell
 *
 * Gets the version of @cell.
 *
 * Returns: the cell's version, milliseconds since the epoch unless the
 *   writer chose its own; 0 for a %NULL cell
 *
 * Since: 0.1
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
 *
 * Since: 0.1
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
 *
 * Since: 0.1
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
