/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-column.h: one column (or a whole family) to read, with a qualifier
 * of any bytes. */
#ifndef HBASE_COLUMN_H
#define HBASE_COLUMN_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * HBaseColumn:
 *
 * A column family and, optionally, one qualifier of it, as bytes: what a
 * read restricted to some columns names (#HBaseReadOptions' @column_list).
 * Unlike the "family:qualifier" strings of @columns, the qualifier may
 * hold any byte, 0x00 and ':' included.  Immutable and reference counted.
 *
 * Since: 0.1
 */
typedef struct _HBaseColumn HBaseColumn;

#define HBASE_TYPE_COLUMN (hbase_column_get_type ())
GType        hbase_column_get_type      (void) G_GNUC_CONST;

HBaseColumn *hbase_column_new           (const char  *family,
                                         GBytes      *qualifier);
HBaseColumn *hbase_column_new_bytes     (GBytes      *family,
                                         GBytes      *qualifier);
HBaseColumn *hbase_column_ref           (HBaseColumn *column);
void         hbase_column_unref         (HBaseColumn *column);

GBytes      *hbase_column_get_family    (const HBaseColumn *column);
GBytes      *hbase_column_get_qualifier (const HBaseColumn *column);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseColumn, hbase_column_unref)

G_END_DECLS

#endif /* HBASE_COLUMN_H */
