/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-row.h: rows and cells as reads return them. */
#ifndef HBASE_ROW_H
#define HBASE_ROW_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * HBaseCell:
 *
 * One version of one column of a row: family, qualifier, value, timestamp.
 * Immutable.  The cells an #HBaseRow hands out belong to the row and live
 * as long as it does; hbase_cell_copy() makes a cell of its own, freed
 * with hbase_cell_free().
 *
 * Since: 0.1
 */
typedef struct _HBaseCell HBaseCell;

#define HBASE_TYPE_CELL (hbase_cell_get_type ())
GType       hbase_cell_get_type       (void) G_GNUC_CONST;
HBaseCell  *hbase_cell_copy           (const HBaseCell *cell);
void        hbase_cell_free           (HBaseCell       *cell);

GBytes     *hbase_cell_get_family     (const HBaseCell *cell);
GBytes     *hbase_cell_get_qualifier  (const HBaseCell *cell);
GBytes     *hbase_cell_get_value      (const HBaseCell *cell);
gint64      hbase_cell_get_timestamp  (const HBaseCell *cell);

/**
 * HBaseRow:
 *
 * A row as a read returned it: its key and its cells, sorted as HBase
 * sorts them (family, qualifier, newest version first).  A row that does not
 * exist comes back empty (hbase_row_is_empty()), not as an error.
 * Reference-counted and immutable, so it can be shared between threads.
 *
 * Since: 0.1
 */
typedef struct _HBaseRow HBaseRow;

#define HBASE_TYPE_ROW (hbase_row_get_type ())
GType            hbase_row_get_type          (void) G_GNUC_CONST;

HBaseRow        *hbase_row_ref               (HBaseRow   *row);
void             hbase_row_unref             (HBaseRow   *row);

GBytes          *hbase_row_get_key           (HBaseRow   *row);
gboolean         hbase_row_is_empty          (HBaseRow   *row);
guint            hbase_row_get_n_cells       (HBaseRow   *row);
const HBaseCell *hbase_row_get_cell          (HBaseRow   *row,
                                              guint       index);
const HBaseCell *hbase_row_lookup_cell       (HBaseRow   *row,
                                              const char *family,
                                              const char *qualifier);
GBytes          *hbase_row_lookup            (HBaseRow   *row,
                                              const char *family,
                                              const char *qualifier);
const HBaseCell *hbase_row_lookup_cell_bytes (HBaseRow   *row,
                                              GBytes     *family,
                                              GBytes     *qualifier);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseRow, hbase_row_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseCell, hbase_cell_free)

/* 64-bit counters as HBase stores them: 8 bytes, big-endian, signed */
GBytes          *hbase_counter_encode        (gint64      value);
gboolean         hbase_counter_decode        (GBytes     *bytes,
                                              gint64     *value,
                                              GError    **error);

/* string forms: "family:qualifier" columns; values and keys copied into
 * newly allocated strings (binary data needs the GBytes forms above) */
char            *hbase_row_get_string        (HBaseRow   *row,
                                              const char *column);
char            *hbase_row_get_key_string    (HBaseRow   *row);

G_END_DECLS

#endif /* HBASE_ROW_H */
