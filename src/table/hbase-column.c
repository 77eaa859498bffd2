/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-column.c: HBaseColumn, a family and an optional qualifier of any
 * bytes, for reads restricted to some columns.
 *
 * Like mutations, columns are built without errors: a missing or empty
 * family is reported by the read that uses the column, before anything is
 * sent. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-column.h>
#include <hbase-glib/hbase-error.h>

struct _HBaseColumn {
  gatomicrefcount ref_count;
  GBytes *family;       /* NULL when built without one */
  GBytes *qualifier;    /* NULL: the whole family */
};

G_DEFINE_BOXED_TYPE (HBaseColumn, hbase_column, hbase_column_ref, hbase_column_unref)

/**
 * hbase_column_new_bytes:
 * @family: (nullable): the column family (referenced); %NULL or empty is
 *   reported by the read that uses the column
 * @qualifier: (nullable): the qualifier (referenced), any bytes, empty
 *   for the empty qualifier; %NULL for every column of @family
 *
 * Makes a column from a family and a qualifier given as bytes.
 *
 * Returns: (transfer full): the column
 *
 * Since: 0.1
 */
HBaseColumn *
hbase_column_new_bytes (GBytes *family, GBytes *qualifier)
{
  HBaseColumn *column = g_new0 (HBaseColumn, 1);

  g_atomic_ref_count_init (&column->ref_count);
  column->family = family != NULL ? g_bytes_ref (family) : NULL;
  column->qualifier = qualifier != NULL ? g_bytes_ref (qualifier) : NULL;
  return column;
}

/**
 * hbase_column_new:
 * @family: (nullable): the column family; %NULL or "" is reported by the
 *   read that uses the column
 * @qualifier: (nullable): the qualifier (referenced), any bytes, empty
 *   for the empty qualifier; %NULL for every column of @family
 *
 * Makes a column from a family name given as a string and a qualifier of any
 * bytes.
 *
 * Returns: (transfer full): the column
 *
 * Since: 0.1
 */
HBaseColumn *
hbase_column_new (const char *family, GBytes *qualifier)
{
  g_autoptr(GBytes) family_bytes = family != NULL ? g_bytes_new (family, strlen (family)) : NULL;

  return hbase_column_new_bytes (family_bytes, qualifier);
}

/**
 * hbase_column_ref:
 * @column: a column
 *
 * Takes a reference on @column; release it with hbase_column_unref().
 *
 * Returns: (transfer full): @column
 *
 * Since: 0.1
 */
HBaseColumn *
hbase_column_ref (HBaseColumn *column)
{
  g_return_val_if_fail (column != NULL, NULL);
  g_atomic_ref_count_inc (&column->ref_count);
  return column;
}

/**
 * hbase_column_unref:
 * @column: (nullable): a column
 *
 * Drops a reference; the last one frees the column.
 *
 * Since: 0.1
 */
void
hbase_column_unref (HBaseColumn *column)
{
  if (column == NULL || !g_atomic_ref_count_dec (&column->ref_count))
    return;
  g_clear_pointer (&column->family, g_bytes_unref);
  g_clear_pointer (&column->qualifier, g_bytes_unref);
  g_free (column);
}

/**
 * hbase_column_get_family:
 * @column: a column
 *
 * Gets the column family of @column.
 *
 * Returns: (transfer none) (nullable): the family, %NULL when the column
 *   was built without one
 *
 * Since: 0.1
 */
GBytes *
hbase_column_get_family (const HBaseColumn *column)
{
  g_return_val_if_fail (column != NULL, NULL);
  return column->family;
}

/**
 * hbase_column_get_qualifier:
 * @column: a column
 *
 * Gets the qualifier of @column.
 *
 * Returns: (transfer none) (nullable): the qualifier, or %NULL when the
 *   column names the whole family
 *
 * Since: 0.1
 */
GBytes *
hbase_column_get_qualifier (const HBaseColumn *column)
{
  g_return_val_if_fail (column != NULL, NULL);
  return column->qualifier;
}
